"""Bring the reviewers' documents back: a three-way merge against the base.

A **change** is a candidate whose current grade in a returned document
differs from its grade as handed out (the returned document's original
grade; grades edited in a spreadsheet are current grades, read back as audit
entries). Every change found ends in exactly one count:

- **refused**: its document holds a whole round, was handed out from another
  base (its base id differs), is a copy of another document (candidates the
  base lacks), or its assignment does not cover the change's query (or the
  base lacks the candidate, or the grade handed out is not the base's): not
  taken, named with the reason;
- **overlap ratings**: on a query the round gave to two reviewers, every
  numeric grade becomes that reviewer's annotator rating and the candidate's
  grade the declared consensus of its ratings (agreeing grades too: agreement
  needs them);
- **taken**: the one change of a candidate, or the first of several equal
  ones (the others count as **identical**);
- **conflicts**: different grades for a candidate outside an overlap query:
  the base's grade stays, each reviewer's grade is listed (and, if a number,
  kept as their rating, like equal grades of several reviewers).

So ``taken + identical + conflicting + overlap_ratings + refused`` is the
number of changes found (``conflicting`` counts each conflict's grades).

A **copy** of the base sent without ``split`` (no assignment: the commonest
way teams work, the same workbook mailed to two colleagues) is a share of the
whole base. Its changes are the candidates its reviewer graded: those with an
audit entry the base's log does not have (an edit made in a spreadsheet is
read back as one) whose grade now differs from the base's. So a base graded
further after the copies were sent keeps its newer grades; where a copy
changed a candidate the base regraded since (its first new entry's "before"
is not the base's grade now), that is a conflict with the base. The reviewer is
the one person who wrote those entries, else the file's name. Two copies
that grade a candidate differently give a conflict; with ``as_ratings``,
every query of the copies is an overlap query: their numeric grades become
ratings and the grade their consensus.

The merged document is a copy of the base with the grades merged, the
reviewers' ratings as new annotators, an :class:`Assignment` recording the
round (its shares, overlap queries and open conflicts of grades and of
notes, after any the base had, and how many entries its audit log holds: ``logged``), and its audit
log: the base's entries, then every entry of each document handed out
from this base (of a copy, those the base's log lacks, compared on the edit
they record: :meth:`AuditEntry.edit`, so a base and a copy in workbooks of
different ages agree; who, when, from, to, note; an edit made in a
spreadsheet is the reviewer's), then one entry per grade the merge changed
(origin ``merge``).

Notes follow the grades' rule, joined rather than chosen: a note a reviewer
changed is taken; several reviewers' different notes of one candidate are
a :class:`NoteConflict` (the merged note joins them, each labelled), and so
is a note the base rewrote since the source was sent that the reviewer
changed too (the base's first, labelled with who rewrote it).

The queries' texts follow the notes' rule (:mod:`~core.analysis.rounds.texts`):
a text only the reviewer changed is taken, one changed on both sides (or by
reviewers differently) is a :class:`~core.model.assignment.TextConflict`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import PurePath

import numpy as np

from core.analysis.consensus import consensus
from core.analysis.rounds.base import (
    MERGE_ORIGIN,
    GradeKey,
    base_id,
    given,
    grade_key,
    original_key,
)
from core.analysis.rounds.report import MergeResult, NoteConflict, Refusal, ReviewerCount
from core.analysis.rounds.texts import ReturnedTexts, merge_texts
from core.model.assignment import Assignment, Conflict, Share
from core.model.audit import AuditEntry, note_of
from core.model.document import Document, GradeState, grade_text
from core.model.grades import audit_grade

__all__ = ["MERGE_ORIGIN", "Returned", "merge"]

#: Who a grade edited in a spreadsheet is from (core.io.workbook writes it).
_OUTSIDE_WHO = "spreadsheet edit"


@dataclass(frozen=True)
class Returned:
    """A reviewer's document as it came back, and its file's name."""

    name: str
    document: Document


@dataclass
class _Source:
    """One returned document on its way through the merge."""

    returned: Returned
    label: str
    changes: list[int]  # the returned document's changed rows
    share: Share | None = None  # None: refused as a whole, for this reason
    overlap: tuple[str, ...] = ()
    reason: str = ""
    copy: bool = False  # a copy of the base sent without split
    moved: frozenset[int] = frozenset()  # a copy's changed rows the base regraded since
    unknown_sent: frozenset[int] = frozenset()  # a copy's rows unknown when it was sent
    reviewer: str = ""  # who the returned document names as its reviewer
    #: A copy's audit entries the base's log lacks (None: all of them are
    #: the reviewer's, a share handed out starting with none).
    new: list[AuditEntry] | None = None


def merge(base: Document, returned: Sequence[Returned], *, who: str, when: str,
          base_name: str = "", as_ratings: bool = False) -> MergeResult:
    """Merge ``returned`` into a copy of ``base`` (see the module's
    description); ``base`` is not changed.

    Parameters
    ----------
    base : Document
        The document the round was handed out from.
    returned : sequence of Returned
        The reviewers' documents, in the order their entries are logged.
    who, when : str
        Who merges, and when (the merge's audit entries).
    base_name : str
        The base's file name (the merged round's record).
    as_ratings : bool
        Take copies of the base sent without ``split`` as ratings of an
        overlap (their consensus becomes the grade) instead of settling
        their differences as conflicts.
    """
    bid = base_id(base)
    where = {(base.query_ids[q], str(s)): i for i, (q, s) in enumerate(
        zip(base.query.tolist(), base.source_id.tolist(), strict=True))}
    sources = _sources(returned, bid, base, where, as_ratings)
    refused: list[Refusal] = []
    changes: dict[int, list[tuple[str, GradeKey]]] = {}
    moved: set[int] = set()  # base rows regraded since a copy was sent, that the copy changed
    for src in sources:
        refusal = _take(src, base, where, changes, moved)
        if refusal is not None:
            refused.append(refusal)
    merged = _copy(base)
    accepted = [s for s in sources if s.share is not None]
    overlap = tuple(dict.fromkeys(q for s in accepted for q in s.overlap))
    outcome = _Outcome(merged, base, set(overlap), moved)
    for i in sorted(changes):
        outcome.settle(i, changes[i])
    outcome.apply(who, when)
    merged.audit.extend(_reviewer_entries(sources))
    merged.audit.extend(outcome.entries)
    note_conflicts = _take_notes(merged, base, accepted, where)
    texts = merge_texts(merged, base, [ReturnedTexts(s.label, s.returned.document,
                                                     s.share.queries)
                                       for s in accepted if s.share is not None],
                        who=who, when=when)
    merged.audit.extend(texts.entries)
    if accepted:
        was = base.assignment
        merged.assignment = Assignment(
            bid, base_name, when,
            tuple(Share(s.label, s.share.queries, s.share.unknown)
                  for s in accepted if s.share is not None),
            overlap, (was.conflicts if was else ()) + tuple(outcome.conflicts),
            logged=len(merged.audit),
            note_conflicts=(was.note_conflicts if was else ()) + tuple(note_conflicts),
            text_conflicts=(was.text_conflicts if was else ()) + texts.conflicts)
    return MergeResult(
        document=merged, base_id=bid, changes_found=sum(len(s.changes) for s in sources),
        taken=outcome.taken, identical=outcome.identical, conflicts=tuple(outcome.conflicts),
        overlap_ratings=outcome.overlap_ratings, refused=tuple(refused),
        unknown_left=int(np.count_nonzero(merged.state == GradeState.UNKNOWN)),
        reviewers=tuple(_count(s) for s in sources), note_conflicts=tuple(note_conflicts),
        texts_taken=texts.taken, text_conflicts=texts.conflicts)


def _sources(returned: Sequence[Returned], bid: str, base: Document,
             where: dict[tuple[str, str], int], as_ratings: bool) -> list[_Source]:
    """Each returned document with its changes and, when it was handed out
    from this base to one reviewer (or is a copy of the base), their share;
    then its label (the reviewer; with the file's name where it would repeat,
    or the file's name where no reviewer is recorded)."""
    out = []
    for r in returned:
        doc = r.document
        a = doc.assignment
        if a is None:
            out.append(_copy_source(r, base, where, as_ratings))
            continue
        changed = [i for i in range(len(doc)) if grade_key(doc, i) != original_key(doc, i)]
        src = _Source(r, "", changed, reviewer=a.reviewer)
        if len(a.shares) != 1:
            src.reason = "it holds a whole round (a merged workbook), not one reviewer's share"
        elif a.base_id != bid:
            src.reason = (f"it was handed out from another base (base id {a.base_id}; this "
                          f"base is {bid}): the base's grades or candidates differ from those "
                          "handed out")
        else:
            src.share, src.overlap = a.shares[0], a.overlap
        out.append(src)
    _label(out)
    return out


def _label(sources: list[_Source]) -> None:
    """Each source's label: its reviewer, with the file's name where it would
    repeat, or the file's name where no reviewer is recorded."""
    names = [s.reviewer or PurePath(s.returned.name).stem for s in sources]
    accepted = [n for n, s in zip(names, sources, strict=True) if s.share is not None]
    used: set[str] = set()
    for src in sorted(sources, key=lambda s: s.share is None):  # the accepted first
        name = src.reviewer or PurePath(src.returned.name).stem
        if name in used or (src.share is not None and accepted.count(name) > 1):
            name = f"{name} ({src.returned.name})"
        while name in used:
            name += "'"
        used.add(name)
        src.label = name
        if src.share is not None and src.copy:
            src.share = replace(src.share, reviewer=name)


def _copy_source(r: Returned, base: Document, where: dict[tuple[str, str], int],
                 as_ratings: bool) -> _Source:
    """A returned document without an assignment, as a share of the whole
    base when it is a copy of it (every candidate of it is the base's)."""
    doc = r.document
    keys = [(doc.query_ids[int(q)], str(s)) for q, s in zip(
        doc.query.tolist(), doc.source_id.tolist(), strict=True)]
    # (compared on the edit: the base may be an older workbook, its entries
    # read without what a newer one stores, AuditEntry.edit)
    known = {e.edit() for e in base.audit}
    new = [e for e in doc.audit if e.edit() not in known]
    sent: dict[tuple[str, str], str] = {}  # each touched candidate's grade when sent
    for e in new:  # (a note's entry says "no note" or "note: ...", never a grade)
        if not (e.about_note or e.convention or e.about_text):
            sent.setdefault((e.query, e.source_id), audit_grade(e.before))
    changed, moved, unknown_sent, strange = [], set(), set(), []
    for i, key in enumerate(keys):
        row, was = where.get(key), sent.get(key)
        if row is None:
            strange.append(i)
            continue
        if (doc.state[i] == GradeState.UNKNOWN) if was is None else (
                was == GradeState.UNKNOWN.label):
            unknown_sent.add(i)
        if was is None or grade_key(doc, i) == grade_key(base, row):
            continue
        changed.append(i)
        if was != grade_text(float(base.grade[row]), int(base.state[row])):
            moved.add(i)
    people = {e.who for e in new if e.who != _OUTSIDE_WHO and e.origin != MERGE_ORIGIN}
    src = _Source(r, "", changed, copy=True, moved=frozenset(moved),
                  unknown_sent=frozenset(unknown_sent),
                  reviewer=next(iter(people)) if len(people) == 1 else "", new=new)
    if strange:
        query, source = keys[strange[0]]
        src.reason = (f"it is not a copy of this base: {len(strange)} of its {len(doc)} "
                      f"candidates are not in the base (the first: query {query}, "
                      f"source {source})")
        return src
    queries = tuple(base.query_ids)
    src.share = Share("", queries, len(unknown_sent))
    src.overlap = queries if as_ratings else ()
    return src


def _take(src: _Source, base: Document, where: dict[tuple[str, str], int],
          changes: dict[int, list[tuple[str, GradeKey]]], moved: set[int]) -> Refusal | None:
    """Take ``src``'s changes its share covers into ``changes`` (and into
    ``moved`` the base rows regraded since ``src`` was sent as a copy); the
    refusal of the others (or of all, when ``src`` was refused as a whole)."""
    if src.share is None:
        return Refusal(src.returned.name, src.label, src.reason, len(src.changes), ())
    doc = src.returned.document
    mine = set(src.share.queries)
    foreign: dict[str, int] = {}
    for i in src.changes:
        qid = doc.query_ids[int(doc.query[i])]
        row = where.get((qid, str(doc.source_id[i])))
        if qid not in mine or row is None or (
                not src.copy and grade_key(base, row) != original_key(doc, i)):
            foreign[qid] = foreign.get(qid, 0) + 1
            continue
        changes.setdefault(row, []).append((src.label, grade_key(doc, i)))
        if i in src.moved:
            moved.add(row)
    if not foreign:
        return None
    outside = ", ".join(sorted(foreign))
    return Refusal(src.returned.name, src.label,
                   f"its assignment does not cover what it changed in {outside}",
                   sum(foreign.values()), tuple(sorted(foreign)))


def _count(src: _Source) -> ReviewerCount:
    """What ``src``'s reviewer did: of the unknown candidates handed out in
    their queries (a copy's: those unknown when it was sent), how many they
    graded; their changes."""
    doc = src.returned.document
    a = doc.assignment
    mine = set(a.shares[0].queries) if a is not None and len(a.shares) == 1 else set(
        doc.query_ids)
    in_share = np.array([doc.query_ids[q] in mine for q in range(doc.n_queries)], dtype=bool)
    rows = in_share[doc.query] if len(doc) else np.zeros(0, dtype=bool)
    if src.copy:
        was = np.zeros(len(doc), dtype=bool)
        was[list(src.unknown_sent)] = True
    else:
        was = rows & (doc.original_state == GradeState.UNKNOWN)
    graded = int(np.count_nonzero(was & (doc.state != GradeState.UNKNOWN)))
    return ReviewerCount(src.label, src.returned.name, int(np.count_nonzero(was)), graded,
                         len(src.changes))


class _Outcome:
    """The merged grades, ratings and counts, candidate by candidate."""

    def __init__(self, merged: Document, base: Document, overlap: set[str],
                 moved: set[int]) -> None:
        self.merged, self.base, self.overlap, self.moved = merged, base, overlap, moved
        self.taken = self.identical = self.overlap_ratings = 0
        self.conflicts: list[Conflict] = []
        self.values: dict[int, tuple[GradeKey, str]] = {}  # row -> grade, audit note
        self.ratings: dict[tuple[int, str], float] = {}
        self.consensus_rows: list[int] = []
        self.entries: list[AuditEntry] = []

    def settle(self, i: int, found: list[tuple[str, GradeKey]]) -> None:
        doc = self.base
        qid = doc.query_ids[int(doc.query[i])]
        numeric = all(k[0] == GradeState.NUMBER for _, k in found)
        if numeric and (qid in self.overlap or len(found) > 1):
            for label, key in found:
                self.ratings[(i, label)] = np.nan if key[1] is None else key[1]
        if qid in self.overlap and numeric and i not in self.moved:
            self.overlap_ratings += len(found)
            self.consensus_rows.append(i)
            return
        first = found[0][1]
        if i not in self.moved and all(k == first for _, k in found):
            self.taken += 1
            self.identical += len(found) - 1
            who = ", ".join(label for label, _ in found)
            self.values[i] = (first, f"taken from {who}" if len(found) == 1 else
                              f"the same grade from {who}")
            return
        self.conflicts.append(Conflict(qid, str(doc.source_id[i]), given("", grade_key(doc, i)),
                                       tuple(given(label, k) for label, k in found)))

    def apply(self, who: str, when: str) -> None:
        """Write the ratings, the consensus of the overlap rows, the taken
        grades and their audit entries into the merged document."""
        doc = self.merged
        labels = list(dict.fromkeys(label for _, label in self.ratings))
        columns = _annotator_columns(doc, labels)
        for (i, label), value in self.ratings.items():
            assert doc.ratings is not None
            doc.ratings[i, columns[label]] = value
        if self.consensus_rows and doc.ratings is not None:
            rows = np.array(self.consensus_rows, dtype=np.int64)
            grades, _ = consensus(doc.ratings[rows], doc.conventions.consensus,
                                  doc.conventions.rounding)
            rule = doc.conventions.consensus.value
            for i, g in zip(rows.tolist(), grades.tolist(), strict=True):
                names = ", ".join(f"{a}: {grade_text(v, 0)}" for a, v in zip(
                    doc.annotators, doc.ratings[i].tolist(), strict=True) if v == v)
                self.values[i] = ((int(GradeState.NUMBER), float(g), ""),
                                  f"consensus ({rule}) of {names}")
        for i in sorted(self.values):
            key, note = self.values[i]
            before = grade_key(doc, i)
            if key == before:
                continue
            said = doc.said_grade(i)  # (a grade's reason too: why it was unknown)
            state, grade, reason = key
            doc.grades_to_edit()[i] = np.nan if grade is None else grade
            doc.state[i] = state
            doc.reason[i] = reason
            self.entries.append(AuditEntry(
                who=who, when=when, query=doc.query_ids[int(doc.query[i])],
                source_id=str(doc.source_id[i]), before=said,
                after=doc.said_grade(i), note=note, origin=MERGE_ORIGIN))


def _annotator_columns(doc: Document, labels: list[str]) -> dict[str, int]:
    """A new annotator column for each label (the document's ratings grown)."""
    if not labels:
        return {}
    names = list(doc.annotators)
    columns = {}
    for label in labels:
        name, n = label, 2
        while name in names:
            name, n = f"{label} ({n})", n + 1
        columns[label] = len(names)
        names.append(name)
    old = doc.ratings if doc.ratings is not None else np.full((len(doc), len(doc.annotators)),
                                                              np.nan)
    doc.ratings = np.hstack([old, np.full((len(doc), len(labels)), np.nan)])
    if doc.unrateable_ratings is not None:
        doc.unrateable_ratings = np.hstack([doc.unrateable_ratings,
                                            np.zeros((len(doc), len(labels)), dtype=bool)])
    if doc.unrateable_words is not None:
        doc.unrateable_words = np.hstack([doc.unrateable_words,
                                          np.full((len(doc), len(labels)), "", dtype=object)])
    doc.annotators = names
    return columns


def _reviewer_entries(sources: list[_Source]) -> list[AuditEntry]:
    """Every entry of the documents handed out from this base (of a copy,
    those the base lacks); an edit made in a spreadsheet is their reviewer's."""
    out = []
    for src in sources:
        if src.share is None:
            continue
        for e in src.returned.document.audit if src.new is None else src.new:
            out.append(replace(e, who=src.share.reviewer) if e.who == _OUTSIDE_WHO else e)
    return out


def _take_notes(merged: Document, base: Document, accepted: list[_Source],
                where: dict[tuple[str, str], int]) -> list[NoteConflict]:
    """Notes the reviewers changed on candidates of their queries. Several
    different ones are a conflict, as grades' are (all kept, joined, each
    labelled with its reviewer); so is a note the base changed too since the
    source was sent (the base's first, labelled with who wrote it)."""
    notes: dict[int, dict[str, str]] = {}
    changed_since: dict[int, str] = {}  # base rows whose note the base changed: by whom
    for src in accepted:
        doc = src.returned.document
        mine = set(src.share.queries) if src.share is not None else set()
        sent = _notes_sent(base, src)
        for i in range(len(doc)):
            qid = doc.query_ids[int(doc.query[i])]
            key = (qid, str(doc.source_id[i]))
            row = where.get(key)
            if qid in mine and row is not None and doc.note[i] != base.note[row] \
                    and (key not in sent or sent[key][0] != doc.note[i]):
                notes.setdefault(row, {})[src.label] = str(doc.note[i])
                if key in sent and sent[key][0] != base.note[row]:
                    changed_since[row] = sent[key][1]
    conflicts = []
    for row, by in notes.items():
        qid, source = base.query_ids[int(base.query[row])], str(base.source_id[row])
        if row in changed_since:
            who = changed_since[row]
            who = f"{who} (base)" if who in by else who
            conflicts.append(NoteConflict(qid, source, str(base.note[row]), who,
                                          tuple(by.items())))
        elif len(set(by.values())) > 1:  # reviewers' different notes: theirs only
            conflicts.append(NoteConflict(qid, source, str(base.note[row]), "",
                                          tuple(by.items())))
        else:  # one note, or several reviewers' same note
            merged.note[row] = next(iter(by.values()))
            continue
        merged.note[row] = conflicts[-1].merged
    return conflicts


def _notes_sent(base: Document, src: _Source) -> dict[tuple[str, str], tuple[str, str]]:
    """The notes ``src`` was sent with of the candidates whose note the base
    changed since (by query and source id), and who changed it last in the
    base: the note before the base's first note entry ``src`` lacks (a
    copy's), or made after the hand-out (a share's). A source still holding
    that note did not change it: the base's newer note is kept (a copy's old
    note had replaced it)."""
    doc = src.returned.document
    if src.copy:
        known = {e.edit() for e in doc.audit}
        since = [e for e in base.audit if e.about_note and e.edit() not in known]
    else:
        a = doc.assignment
        handed = a.when if a is not None else ""
        since = [e for e in base.audit if e.about_note and e.when > handed]
    out: dict[tuple[str, str], tuple[str, str]] = {}
    for e in since:
        key = (e.query, e.source_id)
        out[key] = (out[key][0] if key in out else note_of(e.before), e.who)
    return out


def _copy(doc: Document) -> Document:
    """A copy of ``doc`` with everything a merge keeps."""
    out = doc.subset(np.arange(len(doc), dtype=np.int64))
    out.audit = list(doc.audit)
    out.assignment = doc.assignment
    return out
