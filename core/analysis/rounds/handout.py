"""Hand out a base document to reviewers: which queries each judges, and
each reviewer's document.

The plan (:func:`plan_hand_out`) balances the unknown candidates: the
queries with unknown candidates, largest first (equal sizes in an order drawn
from the seed), each go to the reviewer with the fewest unknown candidates so
far (an overlap query to the two with the fewest; equal loads in an order
drawn from the seed). Whatever the sizes, the most and the least loaded
reviewers then differ by at most the largest query's count. ``overlap`` is the
share of those queries (rounded) drawn, with the seed, to go to two reviewers.
The same base, reviewers, overlap and seed give the same plan.

A reviewer's document (:func:`reviewer_document`) holds their queries only, in
the order of the judging queue (a query's place is its first entry's), each
query's rows in the base's order (a supplied tie order depends on it); the
conventions with the rubric declared; the grades as handed out, which are its
original grades (so its changes are its reviewer's work); no audit entry and
no annotators' grades; its queries' texts; and its
:class:`~core.model.assignment.Assignment`, which records those texts as handed
out (``handed_texts``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from core.analysis.queue import JudgingQueue
from core.analysis.rounds.base import base_id
from core.engine.evaluation import Evaluation
from core.errors import InputError
from core.model.assignment import Assignment, Share
from core.model.document import Document, GradeState
from core.model.numbers import counted

__all__ = ["HandOut", "check_reviewers", "plan_hand_out", "reviewer_document"]

_NAME = re.compile(r"^[\w][\w .@+-]*$")


@dataclass(frozen=True)
class HandOut:
    """Who judges which queries of a base.

    Attributes
    ----------
    base_id, base_name, when : str
        The base's identity and file name; when it was handed out.
    seed : int
    shares : tuple of Share
        One per reviewer, in the order named; each its queries in queue order
        and its count of unknown candidates.
    overlap : tuple of str
        The queries given to two reviewers, in queue order.
    left_out : tuple of str
        Queries without an unknown candidate (not handed out).
    """

    base_id: str
    base_name: str
    when: str
    seed: int
    shares: tuple[Share, ...]
    overlap: tuple[str, ...]
    left_out: tuple[str, ...]

    def share(self, reviewer: str) -> Share:
        for s in self.shares:
            if s.reviewer == reviewer:
                return s
        raise KeyError(reviewer)

    def assignment(self, reviewer: str) -> Assignment:
        """What ``reviewer``'s document records of the round."""
        share = self.share(reviewer)
        mine = set(share.queries)
        return Assignment(self.base_id, self.base_name, self.when, (share,),
                          tuple(q for q in self.overlap if q in mine))


def check_reviewers(reviewers: Sequence[str]) -> list[str]:
    """The reviewers' names, stripped; InputError when one is empty, repeated
    (ignoring case) or not usable in a file name."""
    names = [r.strip() for r in reviewers]
    if not names or any(not n for n in names):
        raise InputError("a reviewer's name is empty",
                         hint="name the reviewers separated by commas: ana,ben")
    for n in names:
        if not _NAME.match(n):
            raise InputError(f"the reviewer's name {n!r} cannot name a file",
                             hint="use letters, digits, spaces and . @ + - _")
    folded = [n.casefold() for n in names]
    for n, f in zip(names, folded, strict=True):
        if folded.count(f) > 1:
            raise InputError(f"the reviewer {n!r} is named twice", hint="name each reviewer once")
    return names


def plan_hand_out(doc: Document, queue: JudgingQueue, reviewers: Sequence[str], *,
                  overlap: float = 0.0, seed: int = 0, when: str,
                  base_name: str = "") -> HandOut:
    """Assign ``doc``'s queries with unknown candidates to ``reviewers`` (see
    the module's description); ``queue`` is ``doc``'s judging queue.

    Raises
    ------
    InputError
        For a bad name, an overlap outside 0..1 (or above 0 with one
        reviewer), nothing to hand out, or fewer queries than reviewers.
    """
    names = check_reviewers(reviewers)
    if not 0.0 <= overlap <= 1.0:
        raise InputError(f"the overlap {overlap:g} is not a share between 0 and 1",
                         hint="e.g. 0.2 for a fifth of the queries")
    if overlap > 0 and len(names) < 2:
        raise InputError("an overlap needs two reviewers at least",
                         hint="name another reviewer, or leave the overlap out")
    unknown = np.bincount(doc.query[doc.state == GradeState.UNKNOWN], minlength=doc.n_queries)
    order = _queue_query_order(doc, queue)
    handed = [q for q in order if unknown[q] > 0]
    if not handed:
        raise InputError("no query has an unknown candidate: there is nothing to hand out",
                         hint="a round hands out the candidates still to judge")
    rng = np.random.default_rng(seed)
    n_overlap = round(overlap * len(handed)) if len(names) > 1 else 0
    doubled = {handed[int(i)] for i in rng.choice(len(handed), n_overlap, replace=False)}
    if len(handed) + len(doubled) < len(names):
        raise InputError(
            f"{len(names)} reviewers but only {counted(len(handed))} with unknown candidates "
            "to hand out",
            hint="name fewer reviewers, or give more queries to two (a larger overlap)")
    given = _balance(handed, doubled, unknown, len(names), rng)
    position = {q: n for n, q in enumerate(order)}
    shares = tuple(
        Share(name, tuple(doc.query_ids[q] for q in sorted(qs, key=position.__getitem__)),
              int(unknown[qs].sum()) if qs else 0)
        for name, qs in zip(names, given, strict=True))
    return HandOut(
        base_id(doc), base_name, when, int(seed), shares,
        tuple(doc.query_ids[q] for q in handed if q in doubled),
        tuple(doc.query_ids[q] for q in order if unknown[q] == 0))


def _queue_query_order(doc: Document, queue: JudgingQueue) -> list[int]:
    """Queries in the order of their first queue entry, then the others in
    document order."""
    seen: dict[int, None] = {}
    for q in doc.query[queue.rows].tolist():
        seen.setdefault(int(q), None)
    for q in range(doc.n_queries):
        seen.setdefault(q, None)
    return list(seen)


def _balance(queries: list[int], doubled: set[int], size: np.ndarray, n: int,
             rng: np.random.Generator) -> list[list[int]]:
    """Each query to the least loaded reviewer(s), largest first; ties drawn."""
    drawn = [queries[int(i)] for i in rng.permutation(len(queries))]
    drawn.sort(key=lambda q: -int(size[q]))  # stable: equal sizes keep the drawn order
    priority = rng.permutation(n).tolist()
    load = [0] * n
    given: list[list[int]] = [[] for _ in range(n)]
    for q in drawn:
        k = 2 if q in doubled else 1
        for r in sorted(range(n), key=lambda r: (load[r], priority[r]))[:k]:
            given[r].append(q)
            load[r] += int(size[q])
    return given


def reviewer_document(doc: Document, ev: Evaluation, plan: HandOut, reviewer: str) -> Document:
    """``reviewer``'s document of ``plan`` (see the module's description);
    ``ev`` is ``doc``'s evaluation (its rubric is declared)."""
    share = plan.share(reviewer)
    index = {qid: q for q, qid in enumerate(doc.query_ids)}
    rows = np.concatenate([doc.members(index[q]) for q in share.queries]).astype(np.int64)
    conv = doc.conventions
    if conv.rubric is None:
        conv = conv.replace(rubric=ev.rubric)
    mine = set(share.queries)
    out = Document.from_columns(
        query=[doc.query_ids[q] for q in doc.query[rows].tolist()],
        query_order=share.queries,
        source_id=doc.source_id[rows].copy(),
        score=doc.score[rows].copy(),
        grade=doc.grade[rows].copy(),
        state=doc.state[rows].copy(),
        version=[str(v) for v in doc.version[rows].tolist()],
        note=[str(v) for v in doc.note[rows].tolist()],
        reason=[str(v) for v in doc.reason[rows].tolist()],
        frequency={q: float(doc.frequency[index[q]]) for q in mine},
        importance={q: float(doc.importance[index[q]]) for q in mine},
        conventions=conv, judgment_version=doc.judgment_version, name=doc.name, check=False,
    )
    out.query_texts = {q: t for q, t in doc.query_texts.items() if q in mine}
    # (the texts as handed out: a merge tells the reviewer's fix from the base's)
    out.assignment = replace(plan.assignment(reviewer),
                             handed_texts=tuple(out.query_texts.items()))
    out.run_tag = doc.run_tag
    return out
