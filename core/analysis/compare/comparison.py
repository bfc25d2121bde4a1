"""Compare two rankings of the same queries under the same judgments.

Both documents are evaluated under one set of conventions. The query sets are
aligned by query id (queries in only one document are named, never averaged
in); candidates are aligned by source id within each query
(:mod:`core.analysis.compare.align`). Per query and cutoff: both NDCG values,
the delta (B - A) and the outcome for B against A, and the candidates that
moved, entered or left the cut with the contribution each gained or lost. Over
the queries defined in both: the mean delta, a paired sign-flip randomization
test and a bootstrap percentile interval (both with their resamples and seed
stated; :mod:`core.analysis.compare.statistics`), and how many deltas change
sign or vanish under another tie rule. Finally, what differs between the two
documents (:mod:`core.analysis.compare.changes`).

Everything per candidate is computed with array operations; candidate lists
for one query are built only when asked for.
"""

from __future__ import annotations

import itertools
import math
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field, replace

import numpy as np
import numpy.typing as npt

from core.analysis.aggregate import CutoffSummary, excluded_phrase, summarize
from core.analysis.compare.across import MOVES, moves_at_a, moves_at_b
from core.analysis.compare.align import (
    Changes,
    Cut,
    KeyedRows,
    Matching,
    PartnerArray,
    QueryAlignment,
    QueryOfRow,
    align_queries,
    candidate_partners,
    changed_candidates,
    changed_rows,
    cut_contributions,
    keyed_rows,
    largest_first,
    unmatched_rows,
)
from core.analysis.compare.changes import (
    CandidateChange,
    InventoryChange,
    LeftOut,
    Side,
    TieSensitivity,
    WhatChanged,
    changes_but_order,
    tie_facts,
    tie_sensitivity,
)
from core.analysis.compare.statistics import resampling, sign
from core.engine.evaluation import Evaluation, Status, evaluate
from core.errors import InputError
from core.model.conventions import Conventions, TieRule, Weighting, format_cutoff
from core.model.document import Document, has_weight
from core.model.numbers import DECIMALS, fixed_text

__all__ = ["LEFT_OUT", "Comparison", "PairedTest", "QueryDelta", "compare", "compare_side"]

#: Why the paired test leaves a query out, each query under one reason (in
#: this order): :attr:`PairedTest.excluded`'s keys, also the JSON's
#: (``paired.excluded``, documented in README.md). "in A" alone is a
#: value in B, "in B" alone one in A.
LEFT_OUT = ("without a value in A and B", "without a value in A",
            "without a value in B", "without a weight")

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class QueryDelta:
    """One query at one cutoff: both NDCG values, the delta and the outcome.

    ``outcome`` is for B against A: ``win`` (B higher), ``loss`` (B lower),
    ``tie`` (within :data:`TIE_TOLERANCE`) or ``not comparable`` (a value is
    undefined or unresolved; the statuses say which).
    """

    query: str
    k: int | None
    ndcg_a: float | None
    ndcg_b: float | None
    status_a: Status
    status_b: Status
    delta: float | None
    outcome: str


@dataclass(frozen=True)
class PairedTest:
    """The paired statistics at one cutoff over the queries defined in both.

    ``mean_a``/``mean_b``/``mean_delta`` are weighted means over those
    ``n`` queries (weights of A under ``weighting``). The p-value is two-sided
    for "the mean delta is 0", by flipping the sign of each query's delta:
    ``method`` is ``exact`` (every one of the ``2**n`` sign vectors) or
    ``monte carlo`` (``resamples`` random sign vectors, p = (1 + hits) /
    (1 + resamples)). The interval is the bootstrap percentile interval of the
    mean delta (queries resampled with replacement).
    """

    k: int | None
    n: int
    weighting: Weighting
    mean_a: float | None
    mean_b: float | None
    mean_delta: float | None
    wins: int
    ties: int
    losses: int
    p_value: float | None
    method: str
    resamples: int
    seed: int
    ci_low: float | None
    ci_high: float | None
    confidence: float
    bootstrap_resamples: int
    #: Shared queries left out, by reason.
    excluded: dict[str, int] = field(default_factory=dict)

    def sentence(self, *, decimals: int = DECIMALS) -> str:
        """The test in one sentence, its means, delta and interval at
        ``decimals`` digits (the editor's decimals setting; the p-value at 4
        significant digits)."""
        at = f"NDCG@{format_cutoff(self.k)}"
        if self.n == 0 or self.mean_delta is None:
            return (
                f"No query has {at} defined (and weighted) in both runs, so no paired "
                "statistics."
            )
        if self.method == "exact":
            how = f"exact over all {self.resamples} sign vectors"
        else:
            how = f"{self.resamples} random sign vectors, seed {self.seed}"
        ci = (
            f"{self.confidence:.0%} bootstrap percentile interval "
            f"[{_fixed(self.ci_low, decimals, signed=True)}, "
            f"{_fixed(self.ci_high, decimals, signed=True)}] "
            f"({self.bootstrap_resamples} resamples, seed {self.seed})"
        )
        left = excluded_phrase(self.excluded, label="left out", empty=None)
        left_out = f", {left}" if left else ""
        return (
            f"Over the {self.n} queries with {at} defined in both ({self.weighting.label}"
            f"{left_out}): "
            f"A {_fixed(self.mean_a, decimals)}, B {_fixed(self.mean_b, decimals)}, "
            f"mean delta B - A {fixed_text(self.mean_delta, decimals, signed=True)}; "
            f"B wins {self.wins}, ties {self.ties}, loses {self.losses}; paired randomization "
            f"test (two-sided, sign flips, {how}) p = {self.p_value:.4g}; {ci}."
        )


def _fixed(x: float | None, decimals: int, *, signed: bool = False) -> str:
    # (set whenever the test has a mean delta: the sentence checks that first)
    return fixed_text(float(x if x is not None else math.nan), decimals, signed=signed)


def _float_or_none(x: float) -> float | None:
    return None if math.isnan(x) else float(x)


#: Shared queries whose candidate changes :meth:`Comparison.largest_changes`
#: works out at once (~128,000 rows of each side at 1,000 a query: all 2M
#: rows at once held ~290 MB more at the peak).
_CHANGES_BLOCK = 128


@dataclass
class Comparison:
    """Two documents compared under one set of conventions.

    Build it with :func:`compare`. ``common`` names the queries in both
    documents (A's order), ``qa``/``qb`` their indices in each document;
    ``ndcg_a``/``ndcg_b``/``delta`` are (queries in both x cutoffs) with NaN
    where a value is not determined. ``left_out``: the queries the inputs
    named and neither document holds (the reader tells them, e.g.
    :func:`core.io.pairs.read_judged_pair`, and :func:`compare` takes them).
    """

    doc_a: Document
    doc_b: Document
    conventions: Conventions
    ev_a: Evaluation
    ev_b: Evaluation
    common: list[str]
    qa: IntArray
    qb: IntArray
    only_a: list[str]
    only_b: list[str]
    ndcg_a: FloatArray
    ndcg_b: FloatArray
    delta: FloatArray
    summary_a: list[CutoffSummary]
    summary_b: list[CutoffSummary]
    tests: list[PairedTest]
    ties: list[TieSensitivity]
    changes: WhatChanged
    partner_a: PartnerArray = field(repr=False)
    partner_b: PartnerArray = field(repr=False)
    row_common_a: QueryOfRow = field(repr=False)
    row_common_b: QueryOfRow = field(repr=False)
    #: Per cutoff, :meth:`movement_counts`.
    moves: list[dict[str, IntArray]] = field(repr=False, default_factory=list)
    left_out: LeftOut = field(default_factory=LeftOut)

    @property
    def cutoffs(self) -> tuple[int | None, ...]:
        return self.conventions.cutoffs

    def query_text(self, i: int) -> str:
        """Shared query ``i``'s text (:attr:`Document.query_texts`): run A's,
        else run B's where A has none; "" where neither has one (TREC runs
        and qrels hold no texts). Both runs joined with one annotators'
        sheet carry its texts alike."""
        return self.text_of(self.common[i])

    def text_of(self, query: str) -> str:
        """Query ``query``'s text, shared or not: run A's, else run B's; ""
        where neither run has one (a query only one run holds has that run's
        text; one neither holds, :attr:`left_out`, none)."""
        return self.doc_a.query_texts.get(query) or self.doc_b.query_texts.get(query, "")

    @property
    def has_query_texts(self) -> bool:
        """Whether either run holds a query's text (the reports name them then)."""
        return bool(self.doc_a.query_texts or self.doc_b.query_texts)

    def query_deltas(self, j: int = 0) -> list[QueryDelta]:
        """Every shared query at cutoff index ``j``, largest |delta| first;
        queries without a delta come last, in document order."""
        d = self.delta[:, j]
        defined = ~np.isnan(d)
        idx = np.flatnonzero(defined)
        idx = idx[np.argsort(-np.abs(d[idx]), kind="stable")]
        order = np.concatenate([idx, np.flatnonzero(~defined)])
        statuses, outcomes, k = tuple(Status), ("tie", "win", "loss"), self.cutoffs[j]

        def values(x: FloatArray) -> list[float | None]:
            return [None if v != v else v for v in x[order].tolist()]  # NaN: None

        return [
            QueryDelta(self.common[i], k, a, b, statuses[sa], statuses[sb], delta,
                       outcomes[s] if delta is not None else "not comparable")
            for i, a, b, sa, sb, delta, s in zip(
                order.tolist(), values(self.ndcg_a[:, j]), values(self.ndcg_b[:, j]),
                self.ev_a.status_code[self.qa[order], j].tolist(),
                self.ev_b.status_code[self.qb[order], j].tolist(),
                values(d), sign(d)[order].tolist(), strict=True)
        ]

    def _cut(self, j: int) -> Cut:
        """:func:`cut_contributions` at cutoff index ``j``, kept until another
        cutoff's is asked: the table and the JSON report go a cutoff at a
        time, and every cutoff's at once held 2 x 36 MB at 2M rows a side
        (the defaults' table peaked on them)."""
        held: tuple[int, Cut] | None = self.__dict__.pop("_cut_held", None)
        if held is None or held[0] != j:
            del held  # (let go before the next is made)
            held = (j, cut_contributions(self.ev_a, self.ev_b, (self.cutoffs[j],))[0])
        self.__dict__["_cut_held"] = held
        return held[1]

    @property
    def _queries(self) -> QueryAlignment:
        return QueryAlignment(self.common, self.only_a, self.only_b, self.qa, self.qb,
                              self.row_common_a, self.row_common_b)

    def movement_counts(self, j: int = 0) -> dict[str, IntArray]:
        """Per shared query: how many candidates moved, were regraded, entered
        or left the cut at cutoff index ``j`` (arrays aligned with ``common``;
        the kinds of :class:`CandidateChange`; counted by :func:`compare`
        for every cutoff as it matched the candidates, a block of rows at a
        time, so that B's ranks and gains at A's rows are never kept whole)."""
        return self.moves[j]

    def candidate_changes(
        self, query: str | int, j: int = 0, limit: int | None = None
    ) -> list[CandidateChange]:
        """The candidates of one shared query that moved, entered, left or were
        regraded at cutoff index ``j``, largest |contribution change| first
        (unknown changes last); the first ``limit`` of them when given."""
        i = self.common.index(query) if isinstance(query, str) else int(query)
        changes = changed_candidates(
            self.ev_a, self.ev_b, self.partner_a, self.partner_b, self._cut(j),
            int(self.qa[i]), int(self.qb[i]),
        )
        order = largest_first(np.abs(changes[5] - changes[4]))
        return self._change_list(changes, order if limit is None else order[:limit])

    def largest_changes(self, j: int, limit: int) -> list[list[CandidateChange]]:
        """Per shared query (aligned with ``common``) what
        ``candidate_changes(i, j, limit)`` gives, worked out for
        :data:`_CHANGES_BLOCK` queries at once (the JSON report's; one query at
        a time took ~0.4 ms each in Python, 2 x 0.8 s at 2,000 queries and
        two cutoffs)."""
        members_a, members_b = self.doc_a.members, self.doc_b.members
        out: list[list[CandidateChange]] = []
        for lo in range(0, len(self.common), _CHANGES_BLOCK):
            block = range(lo, min(lo + _CHANGES_BLOCK, len(self.common)))
            changes = changed_rows(
                self.ev_a, self.ev_b, self.partner_a, self.partner_b, self._cut(j),
                np.concatenate([members_a(int(self.qa[i])) for i in block]),
                np.concatenate([members_b(int(self.qb[i])) for i in block]))
            (kept_a, new_b), _kinds, _r_a, _r_b, x_a, x_b = changes
            group = np.concatenate([self.row_common_a[kept_a], self.row_common_b[new_b]])
            order = largest_first(np.abs(x_b - x_a), group)
            ordered = group[order]
            order = order[np.arange(order.size) - np.searchsorted(ordered, ordered) < limit]
            shown = self._change_list(changes, order)
            bounds = np.searchsorted(group[order], np.arange(block.start, block.stop + 1)).tolist()
            out += [shown[i:k] for i, k in itertools.pairwise(bounds)]
        return out

    @staticmethod
    def _texts(doc: Document, rows: IntArray, hi: IntArray) -> list[str]:
        """The ids of ``rows`` up to the last span's end ``hi[-1]`` as text (the
        spans of the queries shown: every query's up to the last one shown)."""
        end = int(hi[-1]) if hi.size else 0
        return [str(s) for s in doc.source_texts(rows[:end])] if end else []

    def _change_list(self, changes: Changes, order: IntArray) -> list[CandidateChange]:
        """The changes at positions ``order`` of ``changes`` (:func:`changed_rows`)."""
        (rows_a, rows_b), kinds, r_a, r_b, x_a, x_b = changes
        # Only the ids shown are decoded (the JSON shows 10 of each query's
        # ~1,000 changes at k = all: 0.85 s of decoding for 2,000 queries).
        from_a = order < rows_a.size
        sources = np.empty(order.size, dtype=object)
        for doc, rows, where in ((self.doc_a, rows_a[order[from_a]], from_a),
                                 (self.doc_b, rows_b[order[~from_a] - rows_a.size], ~from_a)):
            if rows.size:
                sources[where] = doc.source_texts(rows)
        return [
            CandidateChange(
                str(source), str(kinds[t]),
                int(r_a[t]) or None, int(r_b[t]) or None, float(x_a[t]), float(x_b[t]),
            )
            for source, t in zip(sources, order, strict=True)
        ]

    def inventory(self, limit: int | None = None) -> list[InventoryChange]:
        """Per shared query with a difference (the first ``limit`` of them when
        given): sources only in B (added) and only in A (removed), in row order."""
        rows_a, q_a = unmatched_rows(self.row_common_a, self.partner_a)
        rows_b, q_b = unmatched_rows(self.row_common_b, self.partner_b)
        # The queries with a difference, flagged (np.union1d sorted the 330,000 rows'
        # queries at 2M rows a side: 10.5 -> 8.4-8.8 ms for the table's first five).
        differ = np.zeros(len(self.common), dtype=bool)
        differ[q_a] = differ[q_b] = True
        queries = np.flatnonzero(differ)[:limit]
        lo_a, hi_a = np.searchsorted(q_a, queries), np.searchsorted(q_a, queries, "right")
        lo_b, hi_b = np.searchsorted(q_b, queries), np.searchsorted(q_b, queries, "right")
        # Only these queries' ids as text (a run's ids stay bytes otherwise),
        # decoded in one call a side (one call a query: 0.3 s at 2,000 queries).
        texts_a = self._texts(self.doc_a, rows_a, hi_a)
        texts_b = self._texts(self.doc_b, rows_b, hi_b)
        return [
            InventoryChange(self.common[i], tuple(texts_b[b0:b1]), tuple(texts_a[a0:a1]))
            for i, a0, a1, b0, b1 in zip(queries.tolist(), lo_a.tolist(), hi_a.tolist(),
                                         lo_b.tolist(), hi_b.tolist(), strict=True)
        ]


def compare(
    doc_a: Document,
    doc_b: Document,
    conventions: Conventions | None = None,
    *,
    resamples: int = 10000,
    seed: int = 0,
    confidence: float = 0.95,
    bootstrap_resamples: int | None = None,
    evaluation_a: Evaluation | Side | None = None,
    evaluation_b: Evaluation | Side | None = None,
    left_out: LeftOut | None = None,
) -> Comparison:
    """Compare the rankings of ``doc_a`` (A) and ``doc_b`` (B).

    Parameters
    ----------
    doc_a, doc_b : Document
        The two documents; queries are matched by id, candidates by source id.
    conventions : Conventions, optional
        Applied to both; defaults to A's.
    resamples : int
        Random sign vectors of the randomization test (every one of the
        ``2**n`` when that is not more).
    seed : int
        Seeds both the randomization test and the bootstrap.
    confidence : float
        Of the bootstrap percentile interval.
    bootstrap_resamples : int, optional
        Defaults to ``resamples``.
    evaluation_a, evaluation_b : Evaluation or Side, optional
        ``evaluate(doc_a, conventions)`` (and of ``doc_b``) when the caller has it already
        (the command line evaluates each run as it is read), or its
        :func:`compare_side` (the document's scores then released, as it says).
    left_out : LeftOut, optional
        The queries the inputs named that neither document holds (the reader's).

    Examples
    --------
    >>> a = Document.from_columns(query=["q", "q"], source_id=["x", "y"],
    ...                           score=[2, 1], grade=[0, 1])
    >>> b = Document.from_columns(query=["q", "q"], source_id=["x", "y"],
    ...                           score=[1, 2], grade=[0, 1])
    >>> c = compare(a, b)
    >>> round(float(c.delta[0, 0]), 6), c.query_deltas()[0].outcome  # 1 - 1/log2(3)
    (0.36907, 'win')
    """
    conv = conventions or doc_a.conventions
    _check_arguments(resamples, confidence, conv, (evaluation_a, doc_a), (evaluation_b, doc_b))
    boot_n = bootstrap_resamples or resamples
    queries = align_queries(doc_a, doc_b)
    # Two lanes, each evaluating one side; then the candidates are matched on
    # the second while the resampling runs here (numpy frees the GIL).
    with ThreadPoolExecutor(max_workers=1) as pool:
        a, b, matching, aligned = _sides_and_matching(
            pool, (doc_a, evaluation_a), (doc_b, evaluation_b), conv, queries)
        ev_a, ev_b = a.evaluation, b.evaluation
        try:
            values, tests, ties, summaries = _statistics(
                conv, a, b, queries, matching, (resamples, seed, boot_n, confidence))
            mine = _after_matching(ev_a, ev_b, queries, matching, conv.cutoffs)
        finally:
            del matching
            partner_a, partner_b, at_a = aligned.result()
    at_b, changes = mine or _b_side(ev_a, ev_b, queries, partner_a, partner_b, conv.cutoffs)
    changes, moves = _merged(changes, at_a, at_b)
    return Comparison(
        doc_a=doc_a, doc_b=doc_b, conventions=conv, ev_a=ev_a, ev_b=ev_b, common=queries.common,
        qa=queries.qa, qb=queries.qb, only_a=queries.only_a, only_b=queries.only_b,
        ndcg_a=values.ndcg_a, ndcg_b=values.ndcg_b, delta=values.delta, summary_a=summaries[0],
        summary_b=summaries[1], tests=tests, ties=ties, changes=changes, partner_a=partner_a,
        partner_b=partner_b, row_common_a=queries.row_common_a,
        row_common_b=queries.row_common_b,
        moves=moves, left_out=left_out or LeftOut())


def _merged(
    changes: WhatChanged, at_a: tuple[list[dict[str, IntArray]], BoolArray],
    at_b: tuple[list[IntArray], BoolArray],
) -> tuple[WhatChanged, list[dict[str, IntArray]]]:
    """What changed with the queries whose ranking order differs, and the
    movement counts per cutoff, from :func:`moves_at_a`'s and
    :func:`moves_at_b`'s."""
    (counts_a, order_a), (entered, order_b) = at_a, at_b
    order = int(np.count_nonzero(order_a | order_b))
    return replace(changes, order_queries=order), [
        {kind: b_in if kind == "entered" else counts[kind] for kind in MOVES}
        for counts, b_in in zip(counts_a, entered, strict=True)]


def _check_arguments(
    resamples: int, confidence: float, conv: Conventions,
    *given: tuple[Evaluation | Side | None, Document],
) -> None:
    if resamples < 1:
        raise InputError("the number of resamples must be at least 1")
    if not 0.0 < confidence < 1.0:
        raise InputError("the confidence level must lie strictly between 0 and 1")
    for side, doc in given:
        ev = side.evaluation if isinstance(side, Side) else side
        if ev is not None and (ev.doc is not doc or ev.conventions != conv):
            raise ValueError("an evaluation given is not of its document under these conventions")


def compare_side(ev: Evaluation) -> Side:
    """What :func:`compare` reads of one side's scores, worked out: the
    evaluation's tie starts and the side's NDCG under the other tie rules
    (:func:`tie_facts`). Given to :func:`compare` instead of ``ev``, the
    document's scores are no longer read (the command line releases them as
    each run is read: 16 MB a side at 2M rows)."""
    ev.tie_start  # noqa: B018 - read by the movement counts; the tie facts may not ask
    return Side(ev, *tie_facts(ev, [r for r in TieRule if r is not ev.conventions.ties]))


def _sides_and_matching(
    pool: ThreadPoolExecutor, side_a: tuple[Document, Evaluation | Side | None],
    side_b: tuple[Document, Evaluation | Side | None], conv: Conventions,
    queries: QueryAlignment,
) -> tuple[Side, Side, Matching | None, Future[_Aligned]]:
    """:func:`compare`'s two lanes' first step: each side (its document and
    what the caller gave of it) made on a lane of its own, A's here and B's
    on ``pool``'s (:func:`_side`); then the candidates' matching, begun on
    ``pool``'s lane (:func:`_align`; the matching, when one is made, is
    shared with the caller's lane: :meth:`Matching.work`)."""
    lane = [pool.submit(_side, *side_b, conv, queries, queries.row_common_b)]
    try:
        a, keyed_a = _side(*side_a, conv, queries, queries.row_common_a)
    finally:  # the future let go: it held B's rows (10 MiB at 2M) to the end
        b, keyed_b = lane.pop().result()
    matching = Matching.of(keyed_a, keyed_b)
    # (the keyed rows go with this frame: the lane lets them go once the
    # partners are found)
    return a, b, matching, pool.submit(_align, a.evaluation, b.evaluation, queries,
                                       matching or [keyed_a, keyed_b], conv)


def _side(
    doc: Document, given: Evaluation | Side | None, conv: Conventions, queries: QueryAlignment,
    row_common: QueryOfRow,
) -> tuple[Side, KeyedRows | None]:
    """One lane of :func:`compare`: the evaluation, NDCG under the other tie
    rules (unless ``given`` has them), and the side's half of the candidates'
    alignment (``row_common``: each row's shared query, this side's of
    ``queries``)."""
    if isinstance(given, Side):
        given.evaluation.tie_first_rank  # noqa: B018 - what the alignment reads
        side = given
    else:
        ev = evaluate(doc, conv) if given is None else given
        ev.tie_first_rank  # noqa: B018 - what the alignment reads, worked out in this lane
        side = compare_side(ev)
    return side, keyed_rows(doc, row_common, len(queries.common))


def _statistics(
    conv: Conventions, a: Side, b: Side, queries: QueryAlignment, matching: Matching | None,
    how: tuple[int, int, int, float],
) -> tuple[_Paired, list[PairedTest], list[TieSensitivity],
           tuple[list[CutoffSummary], list[CutoffSummary]]]:
    """:func:`compare`'s first lane while the second matches the candidates:
    the paired values, each cutoff's paired test (``how``: the resamples,
    seed, bootstrap resamples and confidence), the tie-rule check and each
    side's summary; then the blocks of ``matching`` the second lane has not
    taken yet (measured at 2,000 x 1,000 a side, two free cores:
    ``compare()``'s first call 0.299 -> 0.272 s wall, 5 alternating turns,
    the matching lane ~0.19 s of CPU and the statistics ~0.11 before)."""
    values = _Paired.of(a.evaluation, b.evaluation, queries, conv.weighting)
    resamples, seed, boot_n, confidence = how
    stats = resampling(values.delta, values.weight, values.paired, resamples, seed, boot_n,
                       confidence)
    tests = [_paired_test(values, j, k, conv.weighting, stats[j], seed, confidence, boot_n)
             for j, k in enumerate(conv.cutoffs)]
    ties = tie_sensitivity(conv, a, b, queries, values.delta, values.paired)
    summaries = summarize(a.evaluation), summarize(b.evaluation)
    if matching is not None:
        matching.work()
    return values, tests, ties, summaries


def _after_matching(
    ev_a: Evaluation, ev_b: Evaluation, queries: QueryAlignment, matching: Matching | None,
    cutoffs: tuple[int | None, ...],
) -> tuple[tuple[list[IntArray], BoolArray], WhatChanged] | None:
    """:func:`_b_side` on :func:`compare`'s first lane once the matching is
    done, while the second counts A's rows' moves; None when the matching
    declined (the second lane then numbers the ids)."""
    found = matching.result() if matching is not None else None
    return None if found is None else _b_side(ev_a, ev_b, queries, *found, cutoffs)


def _b_side(
    ev_a: Evaluation, ev_b: Evaluation, queries: QueryAlignment, pa: PartnerArray,
    pb: PartnerArray, cutoffs: tuple[int | None, ...],
) -> tuple[tuple[list[IntArray], BoolArray], WhatChanged]:
    """B's candidates that entered each cut and the queries where B ranks a
    candidate A does not hold (:func:`moves_at_b`), and what changed but the
    ranking order, from the partners."""
    return (moves_at_b(ev_a, ev_b, queries, pb, cutoffs),
            changes_but_order(ev_a, ev_b, queries, pa, pa >= 0, pb))


#: What :func:`_align` finds: the partners of A's and B's candidates, and
#: :func:`moves_at_a`'s counts.
_Aligned = tuple[PartnerArray, PartnerArray, tuple[list[dict[str, IntArray]], BoolArray]]


def _align(
    ev_a: Evaluation, ev_b: Evaluation, queries: QueryAlignment,
    keyed: list[KeyedRows | None] | Matching, conv: Conventions,
) -> _Aligned:
    """The other lane of :func:`compare`: the candidates matched, and A's
    candidates that moved, were regraded or left each cut, with the queries
    where one is at another rank in B (:func:`moves_at_a`)."""
    pa, pb = candidate_partners(ev_a, ev_b, queries, keyed)
    return pa, pb, moves_at_a(ev_a, ev_b, queries, pa, conv.cutoffs,
                              conv.ties is TieRule.AVERAGE)


@dataclass
class _Paired:
    """Both NDCG values and the delta of the shared queries (queries x
    cutoffs), A's query weights, which queries have one, and which enter the
    paired statistics (a delta and a weight)."""

    ndcg_a: FloatArray
    ndcg_b: FloatArray
    delta: FloatArray
    weight: FloatArray
    has_weight: BoolArray
    paired: BoolArray

    @classmethod
    def of(cls, ev_a: Evaluation, ev_b: Evaluation, queries: QueryAlignment,
           weighting: Weighting) -> _Paired:
        ndcg_a = ev_a.ndcg[queries.qa]
        ndcg_b = ev_b.ndcg[queries.qb]
        delta = ndcg_b - ndcg_a
        w_all = ev_a.doc.query_weights(weighting)[queries.qa]
        has_w = has_weight(w_all)
        paired = ~np.isnan(delta) & has_w[:, None]
        return cls(ndcg_a, ndcg_b, delta, w_all, has_w, paired)


def _paired_test(
    v: _Paired,
    j: int,
    k: int | None,
    weighting: Weighting,
    stats: tuple[float, str, int, float, float],
    seed: int,
    confidence: float,
    boot_n: int,
) -> PairedTest:
    """The paired statistics at cutoff index ``j`` (``stats`` from
    :func:`~core.analysis.compare.statistics.resampling`)."""
    ndcg_a, ndcg_b, delta = v.ndcg_a, v.ndcg_b, v.delta
    rows = np.flatnonzero(v.paired[:, j])
    w = v.weight[rows]
    p, method, used, low, high = stats
    if rows.size:
        wsum = float(w.sum())
        mean_a = float(np.dot(w, ndcg_a[rows, j]) / wsum)
        mean_b = float(np.dot(w, ndcg_b[rows, j]) / wsum)
        mean_d = float(np.dot(w, delta[rows, j]) / wsum)
    else:
        mean_a = mean_b = mean_d = math.nan
    s = sign(delta[rows, j])
    in_a, in_b = ~np.isnan(ndcg_a[:, j]), ~np.isnan(ndcg_b[:, j])
    reasons = dict(zip(LEFT_OUT, (  # (each query once)
        int(np.count_nonzero(~in_a & ~in_b)), int(np.count_nonzero(~in_a & in_b)),
        int(np.count_nonzero(in_a & ~in_b)),
        int(np.count_nonzero(~v.has_weight & in_a & in_b))), strict=True))
    return PairedTest(
        k, int(rows.size), weighting, _float_or_none(mean_a), _float_or_none(mean_b),
        _float_or_none(mean_d), int(np.count_nonzero(s > 0)), int(np.count_nonzero(s == 0)),
        int(np.count_nonzero(s < 0)), _float_or_none(p), method, used, seed,
        _float_or_none(low), _float_or_none(high), confidence, boot_n,
        {why: n for why, n in reasons.items() if n},
    )
