"""Review rounds as pure functions: the hand-out plan (balance, overlap,
determinism with the seed), the reviewers' documents, and the three-way merge
(taken, identical, conflicts, overlap ratings, refusals, the audit log, and
counts that add up on random rounds). Copies of the base sent whole and
merged back: tests/test_rounds_copies.py."""

from __future__ import annotations

import copy
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.analysis.consensus import consensus
from core.analysis.queue import judging_queue
from core.analysis.rounds import (
    BOTH,
    MERGE_ORIGIN,
    HandOut,
    Returned,
    base_id,
    conflict_row,
    conflict_status,
    merge,
    open_conflicts,
    plan_hand_out,
    resolutions,
    reviewer_document,
)
from core.engine.evaluation import evaluate
from core.errors import InputError
from core.model.assignment import Assignment, Conflict, Given, Share
from core.model.conventions import ConsensusRule, Conventions, Rounding, Rubric
from core.model.document import Document, GradeState

RUBRIC = Rubric.parse("0,1,2,3")
WHEN = "2024-05-01T10:00:00+00:00"


def base_doc(unknown: list[int], known: int = 2, seed: int = 0) -> Document:
    """One query per entry of ``unknown``, with that many unknown candidates
    and ``known`` graded ones; scores and grades drawn from ``seed``."""
    rng = np.random.default_rng(seed)
    query, source, score, grade = [], [], [], []
    for q, u in enumerate(unknown):
        n = u + known
        grades = [None] * u + [float(g) for g in rng.integers(0, 4, known)]
        order = rng.permutation(n)
        for r, i in enumerate(order.tolist()):
            query.append(f"q{q:02d}")
            source.append(f"d{r}")
            score.append(float(n - r))
            grade.append(grades[i])
    return Document.from_columns(query=query, source_id=source, score=score, grade=grade,
                                 conventions=Conventions(cutoffs=(3, None), rubric=RUBRIC))


def plan(doc: Document, reviewers: list[str], overlap: float = 0.0, seed: int = 0) -> HandOut:
    return plan_hand_out(doc, judging_queue(evaluate(doc)), reviewers, overlap=overlap,
                         seed=seed, when=WHEN, base_name="base.xlsx")


def hand_out(doc: Document, reviewers: list[str], overlap: float = 0.0,
             seed: int = 0) -> tuple[HandOut, dict[str, Document]]:
    p = plan(doc, reviewers, overlap, seed)
    ev = evaluate(doc)
    return p, {r: reviewer_document(doc, ev, p, r) for r in reviewers}


def row(doc: Document, query: str, source: str) -> int:
    return next(i for i in range(len(doc)) if doc.query_ids[int(doc.query[i])] == query
                and doc.source_id[i] == source)


def grade(doc: Document, query: str, source: str, value: float | None, who: str,
          state: GradeState = GradeState.NUMBER, reason: str = "") -> None:
    doc.set_grade(row(doc, query, source), value, state, who=who, reason=reason,
                  note=f"{who} judged")


def unknown_sources(doc: Document, query: str) -> list[str]:
    return [str(doc.source_id[i]) for i in range(len(doc))
            if doc.query_ids[int(doc.query[i])] == query and doc.state[i] == GradeState.UNKNOWN]


def assert_counts_add_up(result) -> None:  # type: ignore[no-untyped-def]
    assert (result.taken + result.identical + result.conflicting + result.overlap_ratings
            + result.refused_changes) == result.changes_found


# -- hand out --------------------------------------------------------------------------
@given(st.lists(st.integers(0, 9), min_size=1, max_size=14),
       st.integers(1, 5), st.sampled_from([0.0, 0.2, 0.5, 1.0]), st.integers(0, 10**6))
def test_plan_balances_unknown_candidates(unknown, n_reviewers, overlap, seed):
    doc = base_doc(unknown, known=1)
    reviewers = [f"r{i}" for i in range(n_reviewers)]
    handed = [f"q{q:02d}" for q, u in enumerate(unknown) if u > 0]
    doubled = round(overlap * len(handed)) if n_reviewers > 1 else 0
    if not handed or len(handed) + doubled < n_reviewers or (overlap and n_reviewers < 2):
        with pytest.raises(InputError):
            plan(doc, reviewers, overlap, seed)
        return
    p = plan(doc, reviewers, overlap, seed)
    size = {f"q{q:02d}": u for q, u in enumerate(unknown)}
    times = {q: sum(q in s.queries for s in p.shares) for q in size}
    assert {q for q, n in times.items() if n == 2} == set(p.overlap)
    assert len(p.overlap) == doubled
    assert all(times[q] == (2 if q in p.overlap else 1) for q in handed)
    assert set(p.left_out) == {q for q, u in size.items() if u == 0}
    assert all(times[q] == 0 for q in p.left_out)
    loads = [sum(size[q] for q in s.queries) for s in p.shares]
    assert [s.unknown for s in p.shares] == loads
    assert all(s.queries for s in p.shares)  # every reviewer gets work
    assert max(loads) - min(loads) <= max(size[q] for q in handed)
    assert [s.reviewer for s in p.shares] == reviewers
    assert p.base_id == base_id(doc)


def test_plan_is_determined_by_the_seed():
    doc = base_doc([3, 5, 2, 4, 4, 1, 6, 2, 3, 3])
    reviewers = ["ana", "ben", "cara"]
    first = plan(doc, reviewers, 0.3, seed=11)
    assert plan(doc, reviewers, 0.3, seed=11) == first
    others = {plan(doc, reviewers, 0.3, seed=s).shares for s in range(12)}
    assert len(others) > 1  # another seed, another draw


def test_plan_by_hand():
    # Unknown counts 5, 4, 3, 2: largest first, each to the least loaded.
    doc = base_doc([2, 5, 3, 4])
    p = plan(doc, ["ana", "ben"])
    loads = sorted(s.unknown for s in p.shares)
    assert loads == [7, 7]  # {5, 2} and {4, 3}
    assert sorted(sorted(s.queries) for s in p.shares) == [["q00", "q01"], ["q02", "q03"]]


def test_bad_hand_outs_are_refused():
    doc = base_doc([2, 3])
    for reviewers, overlap, match in ((["ana", "ANA"], 0.0, "named twice"),
                                      (["ana", ""], 0.0, "empty"),
                                      (["a/b"], 0.0, "cannot name a file"),
                                      (["ana"], 0.5, "two reviewers"),
                                      (["ana", "ben"], 1.5, "between 0 and 1"),
                                      (["a", "b", "c"], 0.0, "3 reviewers but only 2")):
        with pytest.raises(InputError, match=match):
            plan(doc, reviewers, overlap)
    with pytest.raises(InputError, match="nothing to hand out"):
        plan(base_doc([0, 0]), ["ana"])


def test_reviewer_document_holds_its_queries_in_queue_order():
    doc = base_doc([2, 4, 1, 3], seed=3)
    doc.annotators, doc.ratings = ["x"], np.full((len(doc), 1), 1.0)
    doc.set_grade(0, 2.0, who="lead")  # the base's own history stays in the base
    doc.run_tag = "bm25-rm3"  # the run's tag goes with it (was lost: a TREC export's)
    p, docs = hand_out(doc, ["ana", "ben"], overlap=0.5, seed=4)
    queue = judging_queue(evaluate(doc))
    first = list(dict.fromkeys(doc.query_ids[q] for q in doc.query[queue.rows].tolist()))
    for name, mine in docs.items():
        share = p.share(name)
        assert mine.query_ids == list(share.queries)
        assert list(share.queries) == [q for q in first if q in share.queries]
        assert mine.assignment == Assignment(p.base_id, "base.xlsx", WHEN, (share,),
                                             tuple(q for q in p.overlap if q in share.queries),
                                             handed_texts=())  # (no query has a text)
        assert mine.audit == []
        assert mine.annotators == []
        assert mine.ratings is None
        assert (mine.name, mine.run_tag) == (doc.name, "bm25-rm3")
        assert mine.conventions.rubric == RUBRIC
        for q in mine.query_ids:  # rows in the base's order, grades as handed out
            base_rows = [i for i in range(len(doc)) if doc.query_ids[doc.query[i]] == q]
            got = [i for i in range(len(mine)) if mine.query_ids[mine.query[i]] == q]
            assert [mine.source_id[i] for i in got] == [doc.source_id[i] for i in base_rows]
            for i, b in zip(got, base_rows, strict=True):
                assert mine.state[i] == mine.original_state[i] == doc.state[b]
                assert mine.score[i] == doc.score[b]
    assert len(set(p.overlap)) == 2


# -- bring back -------------------------------------------------------------------------
def test_merge_takes_identical_conflicts_and_overlap_ratings():
    doc = base_doc([3, 3, 3, 3], seed=1)
    doc.conventions = doc.conventions.replace(consensus=ConsensusRule.MEAN,
                                              rounding=Rounding.HALF_UP)
    p, docs = hand_out(doc, ["ana", "ben"], overlap=0.25)
    (shared,) = p.overlap
    ana_only = next(q for q in p.share("ana").queries if q != shared)
    ben_only = next(q for q in p.share("ben").queries if q != shared)
    ana, ben = docs["ana"], docs["ben"]
    a1, a2, _ = unknown_sources(ana, ana_only)
    b1, _, _ = unknown_sources(ben, ben_only)
    s1, s2, s3 = unknown_sources(ana, shared)
    grade(ana, ana_only, a1, 2.0, "ana")          # taken
    grade(ana, ana_only, a2, 1.0, "ana")          # taken
    grade(ben, ben_only, b1, 3.0, "ben")          # taken
    grade(ana, shared, s1, 3.0, "ana")            # overlap: 3 and 2 -> mean 2.5 -> 3
    grade(ben, shared, s1, 2.0, "ben")
    grade(ana, shared, s2, 1.0, "ana")            # overlap, agreeing: both ratings, 1
    grade(ben, shared, s2, 1.0, "ben")
    grade(ben, shared, s3, 0.0, "ben")            # overlap, one rating
    # cara got ben's queries in a second hand-out from the same base
    second = plan_hand_out(doc, judging_queue(evaluate(doc)), ["cara"], when=WHEN)
    cara = reviewer_document(doc, evaluate(doc), second, "cara")
    cara.assignment = Assignment(p.base_id, "base.xlsx", WHEN,
                                 (Share("cara", p.share("ben").queries, p.share("ben").unknown),))
    b2 = unknown_sources(cara, ben_only)[1]
    grade(cara, ben_only, b1, 3.0, "cara")        # the same as ben: identical
    grade(cara, ben_only, b2, 2.0, "cara")        # ben differs: a conflict
    grade(ben, ben_only, b2, 0.0, "ben")
    base_before = base_id(doc)
    result = merge(doc, [Returned("ana.xlsx", ana), Returned("ben.xlsx", ben),
                         Returned("cara.xlsx", cara)], who="lead", when=WHEN,
                   base_name="base.xlsx")
    assert base_id(doc) == base_before
    assert doc.audit == []
    m = result.document
    assert (result.taken, result.identical, result.overlap_ratings) == (3, 1, 5)
    assert result.changes_found == 11
    assert result.refused == ()
    assert_counts_add_up(result)
    (c,) = result.conflicts
    assert (c.query, c.source_id, c.base.state) == (ben_only, b2, GradeState.UNKNOWN)
    assert {(g.reviewer, g.grade) for g in c.values} == {("ben", 0.0), ("cara", 2.0)}
    assert m.state[row(m, ben_only, b2)] == GradeState.UNKNOWN  # the base's grade stays
    for q, s, value in ((ana_only, a1, 2.0), (ana_only, a2, 1.0), (ben_only, b1, 3.0),
                        (shared, s1, 3.0), (shared, s2, 1.0), (shared, s3, 0.0)):
        assert m.grade[row(m, q, s)] == value
    # ratings: a column per reviewer; the overlap's and the doubly graded ones
    assert m.annotators == ["ana", "ben", "cara"]
    assert m.ratings is not None
    r = {(q, s): m.ratings[row(m, q, s)].tolist() for q, s in
         ((shared, s1), (shared, s2), (shared, s3), (ben_only, b1), (ben_only, b2),
          (ana_only, a1))}
    assert r[(shared, s1)] == [3.0, 2.0, pytest.approx(math.nan, nan_ok=True)]
    assert r[(shared, s2)][:2] == [1.0, 1.0]
    assert math.isnan(r[(shared, s3)][0])
    assert r[(shared, s3)][1] == 0.0
    assert r[(ben_only, b1)][1:] == [3.0, 3.0]
    assert r[(ben_only, b2)][1:] == [0.0, 2.0]
    assert all(math.isnan(x) for x in r[(ana_only, a1)])  # taken, one reviewer: no rating
    g, _ = consensus(m.ratings[[row(m, shared, s1)]], ConsensusRule.MEAN, Rounding.HALF_UP)
    assert g.tolist() == [3.0]
    # the round's record
    a = m.assignment
    assert a is not None
    assert a.base_id == p.base_id
    assert a.overlap == (shared,)
    assert [s.reviewer for s in a.shares] == ["ana", "ben", "cara"]
    assert a.conflicts == result.conflicts
    assert result.unknown_left == int((m.state == GradeState.UNKNOWN).sum())
    counts = {c.reviewer: (c.assigned, c.graded, c.changes) for c in result.reviewers}
    na, nb = p.share("ana").unknown, p.share("ben").unknown
    assert counts == {"ana": (na, 4, 4), "ben": (nb, 5, 5), "cara": (nb, 2, 2)}
    assert result.summary().startswith("11 changes found: 3 taken, 1 identical, 1 conflict (")


def test_audit_log_after_a_merge():
    doc = base_doc([2, 2], seed=2)
    doc.set_grade(int(np.flatnonzero(doc.state == GradeState.NUMBER)[0]), 0.0, who="lead")
    p, docs = hand_out(doc, ["ana", "ben"])
    ana, ben = docs["ana"], docs["ben"]
    qa, qb = p.share("ana").queries[0], p.share("ben").queries[0]
    sa = unknown_sources(ana, qa)[0]
    grade(ana, qa, sa, 2.0, "ana")
    grade(ana, qa, sa, 3.0, "ana")  # changed her mind: both entries kept
    sb = unknown_sources(ben, qb)[0]
    grade(ben, qb, sb, 1.0, "spreadsheet edit")  # as read back from an Excel edit
    ben.audit[-1] = type(ben.audit[-1])(**{**ben.audit[-1].__dict__,
                                           "origin": "outside the app"})
    result = merge(doc, [Returned("ana.xlsx", ana), Returned("ben.xlsx", ben)],
                   who="lead", when=WHEN)
    log = result.document.audit
    assert log[0] == doc.audit[0]  # the base's entries first
    mine = [(e.who, e.query, e.source_id, e.before, e.after, e.note, e.origin)
            for e in log[1:]]
    assert mine[:3] == [
        ("ana", qa, sa, "unknown", "2", "ana judged", "app"),
        ("ana", qa, sa, "2", "3", "ana judged", "app"),
        ("ben", qb, sb, "unknown", "1", "spreadsheet edit judged", "outside the app"),
    ]
    assert sorted(mine[3:]) == sorted([  # then the merge's, in the base's row order
        ("lead", qa, sa, "unknown", "3", "taken from ana", MERGE_ORIGIN),
        ("lead", qb, sb, "unknown", "1", "taken from ben", MERGE_ORIGIN),
    ])
    assert [e.when for e in log[1:4]] == [e.when for e in (*ana.audit, *ben.audit)]
    assert all(e.when == WHEN for e in log[4:])


def test_foreign_workbooks_are_refused():
    doc = base_doc([2, 2, 2], seed=5)
    p, docs = hand_out(doc, ["ana", "ben"])
    ana, ben = docs["ana"], docs["ben"]
    qa = p.share("ana").queries[0]
    grade(ana, qa, unknown_sources(ana, qa)[0], 1.0, "ana")
    # ben's workbook was handed out before the base changed: another base
    qb = p.share("ben").queries[0]
    grade(ben, qb, unknown_sources(ben, qb)[0], 2.0, "ben")
    changed = doc.subset(np.arange(len(doc)))
    changed.set_grade(0, 3.0 if changed.grade[0] != 3.0 else 2.0, who="lead")
    # cara's assignment covers one query, her workbook changed another too
    whole = plan_hand_out(doc, judging_queue(evaluate(doc)), ["cara"], when=WHEN)
    cara = reviewer_document(doc, evaluate(doc), whole, "cara")
    cara.assignment = Assignment(p.base_id, "base.xlsx", WHEN, (Share("cara", (qa,), 2),))
    others = [q for q in cara.query_ids if q != qa]
    grade(cara, qa, unknown_sources(cara, qa)[1], 0.0, "cara")
    for q in others:
        grade(cara, q, unknown_sources(cara, q)[0], 3.0, "cara")
    other = base_doc([2, 2, 2, 1], seed=9)  # a workbook of other candidates
    other.set_grade(int(np.flatnonzero(other.state == GradeState.UNKNOWN)[-1]), 1.0, who="x")
    result = merge(changed, [Returned("ana.xlsx", ana), Returned("ben.xlsx", ben),
                             Returned("cara.xlsx", cara), Returned("other.xlsx", other)],
                   who="lead", when=WHEN)
    reasons = {r.workbook: r for r in result.refused}
    assert set(reasons) == {"ana.xlsx", "ben.xlsx", "cara.xlsx", "other.xlsx"}
    assert "another base" in reasons["ana.xlsx"].reason
    result = merge(doc, [Returned("ana.xlsx", ana), Returned("ben.xlsx", ben),
                         Returned("cara.xlsx", cara), Returned("other.xlsx", other)],
                   who="lead", when=WHEN)
    reasons = {r.workbook: r for r in result.refused}
    assert set(reasons) == {"cara.xlsx", "other.xlsx"}
    assert reasons["cara.xlsx"].queries == tuple(sorted(others))
    assert reasons["cara.xlsx"].changes == len(others)
    assert "does not cover" in reasons["cara.xlsx"].reason
    assert reasons["other.xlsx"].reason.startswith(
        "it is not a copy of this base: 3 of its 15 candidates are not in the base "
        "(the first: query q03, source d")
    assert result.taken == 3  # ana's, ben's, and cara's change inside her assignment
    m = result.document
    for q in others:  # the foreign changes are not taken
        s = unknown_sources(cara, q)
        assert all(m.state[row(m, q, x)] == doc.state[row(doc, q, x)] for x in s)
    assert_counts_add_up(result)
    # a merged workbook is no reviewer's workbook
    again = merge(doc, [Returned("merged.xlsx", m)], who="lead", when=WHEN)
    assert "whole round" in again.refused[0].reason


def test_unrateable_and_unknown_changes_and_notes():
    doc = base_doc([3, 3], seed=6)
    p, docs = hand_out(doc, ["ana", "ben"], overlap=1.0)
    q = p.overlap[0]
    a, b = docs["ana"], docs["ben"]
    s1, s2, s3 = unknown_sources(a, q)
    grade(a, q, s1, None, "ana", GradeState.UNRATEABLE, "broken link")
    grade(b, q, s1, None, "ben", GradeState.UNRATEABLE, "broken link")  # identical
    grade(a, q, s2, None, "ana", GradeState.UNRATEABLE, "in French")
    grade(b, q, s2, 2.0, "ben")  # a number and an unrateable: a conflict
    a.set_note(row(a, q, s3), "ask the lead")
    result = merge(doc, [Returned("a.xlsx", a), Returned("b.xlsx", b)], who="lead", when=WHEN)
    m = result.document
    i = row(m, q, s1)
    assert (m.state[i], m.reason[i]) == (GradeState.UNRATEABLE, "broken link")
    assert (result.taken, result.identical, len(result.conflicts)) == (1, 1, 1)
    assert m.note[row(m, q, s3)] == "ask the lead"
    assert_counts_add_up(result)
    data = result.to_dict(base="base.xlsx", merged="m.xlsx")
    assert data["conflicts"] == [{"query": q, "source_id": s2, "base": "unknown",
                                  "values": {"ana": "unrateable: in French", "ben": 2.0}}]


# -- random rounds ----------------------------------------------------------------------
@st.composite
def rounds(draw):
    unknown = draw(st.lists(st.integers(1, 4), min_size=2, max_size=6))
    reviewers = ["ana", "ben", "cara"][: draw(st.integers(1, 3))]
    overlap = draw(st.sampled_from([0.0, 0.5, 1.0])) if len(reviewers) > 1 else 0.0
    seed = draw(st.integers(0, 1000))
    doc = base_doc(unknown, seed=seed)
    try:
        p, docs = hand_out(doc, reviewers, overlap, seed)
    except InputError:
        p, docs = hand_out(doc, reviewers[:1], 0.0, seed)
    returned = []
    values = st.sampled_from([0.0, 1.0, 2.0, 3.0, None])
    for name, mine in docs.items():
        for i in range(len(mine)):
            if draw(st.integers(0, 3)) == 0:
                v = draw(values)
                state = GradeState.NUMBER if v is not None else draw(
                    st.sampled_from([GradeState.UNKNOWN, GradeState.UNRATEABLE]))
                mine.set_grade(i, v, state, who=name, reason="r" if v is None else "")
        if draw(st.booleans()) and mine.n_queries > 1:  # a foreign query
            mine.assignment = Assignment(p.base_id, "", WHEN, (Share(
                name, mine.assignment.shares[0].queries[1:], 0),))
        if draw(st.integers(0, 5)) == 0:  # another base
            mine.assignment = Assignment("other", "", WHEN, mine.assignment.shares)
        returned.append(Returned(f"{name}.xlsx", mine))
        if draw(st.booleans()):  # returned twice, graded on after the first
            again = copy.deepcopy(mine)
            for i in range(len(again)):
                if draw(st.integers(0, 2)) == 0:
                    again.set_grade(i, draw(st.sampled_from([0.0, 3.0])), who=name)
            returned.append(Returned(f"{name}-again.xlsx", again))
    return doc, returned


@given(rounds())
def test_random_rounds_lose_nothing(case):
    doc, returned = case
    before = doc.grade.copy(), doc.state.copy(), list(doc.audit)
    result = merge(doc, returned, who="lead", when=WHEN)
    assert_counts_add_up(result)
    found = sum(int(sum(1 for i in range(len(r.document))
                        if (r.document.state[i], r.document.grade[i]) != (
                            r.document.original_state[i], r.document.original_grade[i])
                        and not (np.isnan(r.document.grade[i])
                                 and np.isnan(r.document.original_grade[i])
                                 and r.document.state[i] == r.document.original_state[i])))
                for r in returned)
    assert result.changes_found == found
    np.testing.assert_array_equal(doc.state, before[1])  # the base is untouched
    assert doc.audit == before[2]
    m = result.document
    # every reviewer entry of a workbook from this base is in the merged log
    log = set(m.audit)
    for r in returned:
        a = r.document.assignment
        if a is not None and a.base_id == result.base_id:
            for e in r.document.audit:
                assert e in log
    # a grade the merge changed has its merge entry; a conflict's stays the base's
    merged_rows = {(e.query, e.source_id) for e in m.audit if e.origin == MERGE_ORIGIN}
    for i in range(len(m)):
        key = (m.query_ids[int(m.query[i])], str(m.source_id[i]))
        same = m.state[i] == doc.state[i] and (m.grade[i] == doc.grade[i] or (
            np.isnan(m.grade[i]) and np.isnan(doc.grade[i])))
        assert same == (key not in merged_rows) or m.reason[i] != doc.reason[i]
    for c in result.conflicts:
        i = row(m, c.query, c.source_id)
        assert m.state[i] == doc.state[row(doc, c.query, c.source_id)]


# -- conflicts: resolutions and where they stand ------------------------------------------
def test_conflict_resolutions_and_status():
    doc = base_doc([3], seed=3)
    doc.conventions = doc.conventions.replace(consensus=ConsensusRule.MEDIAN)
    ben = hand_out(doc, ["ben"])[1]["ben"]
    cara = hand_out(doc, ["cara"])[1]["cara"]
    q = ben.query_ids[0]
    x, y = unknown_sources(ben, q)[:2]
    grade(ben, q, x, 1.0, "ben")
    grade(cara, q, x, 3.0, "cara")
    grade(ben, q, y, None, "ben", GradeState.UNRATEABLE, "paywall")
    grade(cara, q, y, 2.0, "cara")
    result = merge(doc, [Returned("b.xlsx", ben), Returned("c.xlsx", cara)], who="lead",
                   when=WHEN)
    m = result.document
    cx, cy = result.conflicts
    assert open_conflicts(m) == [cx, cy]
    assert [(r.label, r.grade) for r in resolutions(m, cx)] == [
        ("ben", 1.0), ("cara", 3.0), (BOTH, 2.0)]  # the median of 1 and 3
    # a number and an unrateable grade: no consensus to keep both
    assert [(r.label, r.state, r.reason) for r in resolutions(m, cy)] == [
        ("ben", GradeState.UNRATEABLE, "paywall"), ("cara", GradeState.NUMBER, "")]
    assert resolutions(m, cy)[0].text == "ben's grade: unrateable: paywall"
    i = conflict_row(m, cx)
    assert i == row(m, q, x)
    m.set_grade(i, 3.0, who="lead")
    assert conflict_status(m, cx) == "cara"
    m.set_grade(i, 2.0, who="lead")
    assert conflict_status(m, cx) == BOTH
    m.set_grade(i, 0.0, who="lead")
    assert conflict_status(m, cx) == "changed"
    m.set_grade(i, None, GradeState.UNKNOWN, who="lead")
    assert conflict_status(m, cx) == "open"
    assert conflict_status(doc.subset(np.flatnonzero(doc.query != doc.query_index(q))),
                           cx) == "gone"


def test_assignment_json_is_validated_field_by_field():
    a = Assignment("b", "base.xlsx", WHEN, (Share("ana", ("q1",), 2),), ("q1",), (
        Conflict("q1", "d1", Given("", None, GradeState.UNKNOWN),
                 (Given("ana", 2.0, GradeState.NUMBER),
                  Given("ben", None, GradeState.UNRATEABLE, "why"))),))
    assert Assignment.from_dict(a.to_dict()) == a
    for change, field in (({"shares": []}, "no share"),
                          ({"shares": "ana"}, "shares: not a list"),
                          ({"base_id": 3}, "base_id: not a text"),
                          ({"overlap": [1]}, "overlap: not a list of texts")):
        with pytest.raises(ValueError, match=field):
            Assignment.from_dict({**a.to_dict(), **change})
    bad = a.to_dict()
    bad["conflicts"][0]["values"][0]["state"] = 7
    with pytest.raises(ValueError, match="conflict value state"):
        Assignment.from_dict(bad)
    bad = a.to_dict()
    bad["conflicts"][0]["base"]["grade"] = 1.0
    with pytest.raises(ValueError, match="conflict base grade"):
        Assignment.from_dict(bad)
    bad = a.to_dict()
    bad["shares"][0]["unknown"] = -1
    with pytest.raises(ValueError, match="unknown: not a count"):
        Assignment.from_dict(bad)
    with pytest.raises(ValueError, match="not a JSON object"):
        Assignment.from_dict([])


# -- copies of the base sent without split (their merges: tests/test_rounds_copies.py) --
def copy_of(doc: Document) -> Document:
    """The base as mailed to a colleague: the same workbook, no assignment."""
    out = doc.subset(np.arange(len(doc), dtype=np.int64))
    out.audit = list(doc.audit)
    return out


def test_rounds_stamp_with_the_audit_log_s_clock():
    """A merge's entries and a hand-out's time come from the one clock the
    audit log's entries are stamped with (rounds had a copy of its own)."""
    from core.analysis.rounds import now
    from core.model.audit import timestamp

    assert now is timestamp
