"""The judging queue against a brute-force computation over every completion
of the unknown grades of small documents."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import core.analysis.queue as queue_module
from core.analysis.bounds import best_next_judgment, ndcg_bounds
from core.analysis.queue import judging_queue, query_judgments, reviewer_progress
from core.engine.evaluation import evaluate
from core.model.assignment import Assignment, Share
from core.model.conventions import (
    Conventions,
    IdealInventory,
    Rubric,
    TieRule,
    UnknownRule,
    Weighting,
    ZeroIdealRule,
)
from core.model.document import Document, GradeState, has_weight

RUBRIC = Rubric.parse("0,1,2")
TOL = 1e-12


def _mean(doc: Document, conv: Conventions, grades: np.ndarray) -> float | None:
    """The weighted mean NDCG at the first cutoff of ``doc`` with ``grades``."""
    filled = Document.from_columns(
        query=[doc.query_ids[q] for q in doc.query], source_id=doc.source_id.tolist(),
        score=doc.score, grade=grades,
        frequency=dict(zip(doc.query_ids, doc.frequency.tolist(), strict=True)))
    ev = evaluate(filled, conv)
    w = filled.query_weights(conv.weighting)
    ndcg = ev.ndcg[:, 0]
    keep = has_weight(w) & ~np.isnan(ndcg)
    return float((w[keep] * ndcg[keep]).sum() / w[keep].sum()) if keep.any() else None


def brute_force(doc: Document, conv: Conventions) -> tuple[float, float, dict[int, float]]:
    """The mean's interval over every completion, and per unknown candidate the
    narrowing of that interval its judgment guarantees (worst grade)."""
    unknown = np.flatnonzero(doc.state == GradeState.UNKNOWN).tolist()
    means: list[tuple[tuple[float, ...], float]] = []
    for combo in itertools.product(RUBRIC.values, repeat=len(unknown)):
        grades = doc.grade.copy()
        grades[unknown] = combo
        m = _mean(doc, conv, grades)
        assert m is not None
        means.append((combo, m))
    values = [m for _, m in means]
    low, high = min(values), max(values)
    narrowing = {}
    for n, i in enumerate(unknown):
        widths = []
        for v in RUBRIC.values:
            sel = [m for combo, m in means if combo[n] == v]
            widths.append(max(sel) - min(sel))
        narrowing[i] = (high - low) - max(widths)
    return low, high, narrowing


@st.composite
def small_documents(draw):
    """2-3 queries of 2-4 candidates, at most 5 unknown grades in all; every
    query keeps a positive gain ranked (no completion is undefined)."""
    nq = draw(st.integers(2, 3))
    query, source, score, grade = [], [], [], []
    unknown_left = 5
    for q in range(nq):
        n = draw(st.integers(2, 4))
        for i in range(n):
            query.append(f"q{q}")
            source.append(f"s{i}")
            score.append(draw(st.sampled_from([1.0, 2.0, 2.0, 3.0, 4.0])))
            unknown = unknown_left > 0 and draw(st.booleans())
            unknown_left -= unknown
            grade.append(None if unknown else draw(st.sampled_from([0.0, 1.0, 2.0])))
        first = len(query) - n
        if all(g is None or g == 0 for g in grade[first:]):
            grade[first] = 2.0
    weighting = draw(st.sampled_from([Weighting.EQUAL, Weighting.FREQUENCY]))
    frequency = {f"q{q}": draw(st.sampled_from([1.0, 2.5, 4.0])) for q in range(nq)}
    conv = Conventions(
        cutoffs=(draw(st.sampled_from([1, 2, 3, None])),),
        ties=draw(st.sampled_from([TieRule.AVERAGE, TieRule.SUPPLIED, TieRule.PESSIMISTIC])),
        weighting=weighting, rubric=RUBRIC)
    doc = Document.from_columns(query=query, source_id=source, score=score, grade=grade,
                                frequency=frequency, conventions=conv)
    return doc, conv


def _check_against_brute_force(doc: Document, conv: Conventions) -> None:
    ev = evaluate(doc, conv)
    queue = judging_queue(ev)
    low, high, narrowing = brute_force(doc, conv)
    assert queue.exact
    assert queue.low == pytest.approx(low, abs=TOL)
    assert queue.high == pytest.approx(high, abs=TOL)
    assert sorted(queue.rows.tolist()) == sorted(narrowing)
    for i, got in zip(queue.rows.tolist(), queue.narrowing.tolist(), strict=True):
        assert got == pytest.approx(narrowing[i], abs=TOL)
    # The order: narrowing never increases; equal narrowings in query id
    # order, then better rank first (not ranked last), then row.
    def tie_key(i: int) -> tuple[str, float, int]:
        rank = float(ev.rank[i]) if ev.rank[i] else math.inf
        return doc.query_ids[int(doc.query[i])], rank, i

    rows = queue.rows.tolist()
    got = queue.narrowing.tolist()
    for (a, x), (b, y) in itertools.pairwise(zip(rows, got, strict=True)):
        assert narrowing[a] >= narrowing[b] - TOL
        assert x >= y
        if x == y:
            assert tie_key(a) < tie_key(b)


@given(small_documents())
def test_queue_against_brute_force(case):
    _check_against_brute_force(*case)


def test_queue_by_hand_against_brute_force():
    """Two queries: q1's unknown at rank 1 matters more than q0's at rank 3,
    and q0 weighs twice as much under frequency weighting."""
    doc = Document.from_columns(
        query=["q0"] * 3 + ["q1"] * 3, source_id=list("abcabc"),
        score=[3, 2, 1, 3, 2, 1], grade=[2, 1, None, None, 2, 0],
        frequency={"q0": 2.0, "q1": 1.0})
    conv = Conventions(cutoffs=(3,), weighting=Weighting.FREQUENCY, rubric=RUBRIC)
    _check_against_brute_force(doc, conv)
    queue = judging_queue(evaluate(doc, conv))
    # q0's interval: c (rank 3) between 0 and 2 -> NDCG@3 from (2+1/L2)/(2+1/L2)=1 down
    # to ...; whatever it is, judging c settles q0 and q1's d settles q1.
    assert queue.rows.tolist()[0] == 3
    assert queue.weight == 3.0


def test_first_entry_of_each_query_is_the_per_query_judge_next():
    doc = Document.from_columns(
        query=["a"] * 4 + ["b"] * 4, source_id=list("wxyzwxyz"),
        score=[4, 3, 2, 1, 4, 3, 2, 1], grade=[None, 2, None, 0, 1, None, None, None])
    conv = Conventions(cutoffs=(3, None), rubric=RUBRIC)
    ev = evaluate(doc, conv)
    queue = judging_queue(ev)
    for q in range(doc.n_queries):
        mine = [i for i in queue.rows.tolist() if doc.query[i] == q]
        best = best_next_judgment(ev, q, 0)
        assert best is not None
        judged = query_judgments(ev, q, 0)
        worst = dict(zip(judged.rows.tolist(), judged.worst.tolist(), strict=True))
        assert worst[mine[0]] == pytest.approx(best.worst_width, abs=TOL)
        b = ndcg_bounds(ev, q, 0)
        assert (judged.low, judged.high, judged.exact) == (b.low, b.high, b.exact)


def test_outer_intervals_on_a_long_query_and_the_slow_path(monkeypatch):
    n = 30  # 3^20 completions: the outer interval, one grade fixed on the fast path
    grades = [None if i % 3 else 2.0 for i in range(n)]
    doc = Document.from_columns(query=["q"] * n, source_id=[f"s{i}" for i in range(n)],
                                score=np.arange(n, 0, -1.0), grade=grades)
    conv = Conventions(cutoffs=(5,), rubric=RUBRIC)
    ev = evaluate(doc, conv)
    queue = judging_queue(ev)
    b = ndcg_bounds(ev, 0, 0)
    assert not queue.exact
    assert (queue.low, queue.high) == (b.low, b.high)
    assert len(queue) == 20
    assert np.isfinite(queue.narrowing).all()
    assert (np.diff(queue.narrowing) <= 0).all()
    # Within the cutoff an unknown grade narrows the interval; past it, only
    # through the ideal list, never more than one ranked within k.
    assert ev.rank[queue.rows[0]] <= 5
    # With tie groups to reorder, only MAX_SLOW candidates are worked out.
    monkeypatch.setattr(queue_module, "MAX_SLOW", 4)
    tied = Document.from_columns(query=["q"] * n, source_id=[f"s{i}" for i in range(n)],
                                 score=np.repeat([3.0, 2.0, 1.0], 10), grade=grades)
    slow = judging_queue(evaluate(tied, conv.replace(ties=TieRule.PESSIMISTIC)))
    assert np.isfinite(slow.narrowing).sum() == 4
    assert np.isnan(slow.narrowing[4:]).all()


def test_reused_query_judgments_and_zero_rules():
    doc = Document.from_columns(query=["a", "a", "b", "b"], source_id=list("xyxy"),
                                score=[2, 1, 2, 1], grade=[None, 1, 1, None])
    conv = Conventions(cutoffs=(2,), rubric=RUBRIC)
    ev = evaluate(doc, conv)
    first = judging_queue(ev)
    again = judging_queue(ev, reuse={0: first.queries[0]})
    assert again.rows.tolist() == first.rows.tolist()
    assert again.queries[0] is first.queries[0]
    for rule in (UnknownRule.ZERO, UnknownRule.CONDENSED):
        zero = judging_queue(evaluate(doc, conv.replace(unknown=rule)))
        assert zero.rows.tolist() == [0, 3]  # query order, then rank
        assert zero.narrowing.tolist() == [0.0, 0.0]
        assert zero.low == zero.high


def test_unrateable_and_not_counted_candidates():
    # y is unrateable: judged already, not in the queue; z is not retrieved
    # and the ideal list holds the ranked ones only: judging z changes nothing.
    doc = Document.from_columns(query=["a"] * 3, source_id=list("xyz"),
                                score=[2, 1, None], grade=[None, None, None],
                                state=[1, 2, 1])
    conv = Conventions(cutoffs=(2,), rubric=RUBRIC, ideal=IdealInventory.RANKED,
                       zero_ideal=ZeroIdealRule.ZERO)
    queue = judging_queue(evaluate(doc, conv))
    assert queue.rows.tolist() == [0, 2]
    assert queue.narrowing[1] == 0.0


def test_reviewer_progress():
    doc = Document.from_columns(query=["a", "a", "b", "c"], source_id=list("xyxx"),
                                grade=[1.0, None, None, 2.0])
    assert reviewer_progress(doc) == []
    doc.assignment = Assignment("id", "base", "now", (
        Share("ana", ("a", "b"), 3), Share("ben", ("b", "c"), 2)), overlap=("b",))
    got = [(p.reviewer, p.graded, p.assigned) for p in reviewer_progress(doc)]
    assert got == [("ana", 1, 3), ("ben", 1, 2)]


@pytest.mark.parametrize("rubric", ["0,1,2", "-1,0,2"])
def test_every_candidate_at_once_equals_one_at_a_time(rubric):
    """The queue's fast path gives each candidate what bounds' one-change
    outer interval gives it, to the bit."""
    from core.analysis.bounds import OneJudgment, OpenQuery

    n = 40
    rng = np.random.default_rng(5)
    grades = [None if rng.random() < 0.6 else float(rng.integers(0, 3)) for _ in range(n)]
    doc = Document.from_columns(query=["q"] * n, source_id=[f"s{i}" for i in range(n)],
                                score=rng.permutation(n).astype(float), grade=grades)
    conv = Conventions(cutoffs=(10,), rubric=Rubric.parse(rubric))
    ev = evaluate(doc, conv)
    judged = query_judgments(ev, 0, 0)
    query = OpenQuery(ev, 0, 0)
    fast = OneJudgment(query)
    position = {int(i): k for k, i in enumerate(query.unknown.tolist())}
    assert not judged.exact
    for i, worst in zip(judged.rows.tolist(), judged.worst.tolist(), strict=True):
        k = position[i]
        widths = [fast.outer(k, float(v)) for v in query.values]
        assert worst == max(high - low for low, high in widths)


def _settling(importance: float) -> tuple[Document, Conventions]:
    """Query a: one unknown grade at rank 1 of 2 (NDCG@1 0 or 1 under 0,1);
    query b: judged, NDCG@1 1; the importance of a as given."""
    doc = Document.from_columns(
        query=["a", "a", "b"], source_id=["x", "y", "x"], score=[2.0, 1.0, 1.0],
        grade=[None, 1.0, 1.0], importance={"a": importance, "b": 1.0})
    return doc, Conventions(cutoffs=(1,), weighting=Weighting.IMPORTANCE,
                            rubric=Rubric.parse("0,1"))


def test_settled_is_the_exact_decision_not_the_printed_one():
    """``settled``: no completion can move the mean. With query a weighing
    1e-9 of b, its unknown grade moves the mean by 1e-9 (0.999999999 to 1),
    alike at 4 decimals: not settled. The unknown grade below the cutoff
    (rank 2 at k=1) moves nothing: settled; every grade known: settled; no
    query with a value (all grades 0: undefined): not settled."""
    doc, conv = _settling(1e-9)
    queue = judging_queue(evaluate(doc, conv))
    assert queue.high == 1.0
    assert queue.low == pytest.approx(1.0 - 1e-9, abs=1e-15)
    assert f"{queue.low:.4f}" == f"{queue.high:.4f}"
    assert not queue.settled
    below = Document.from_columns(
        query=["a", "a"], source_id=["x", "y"], score=[2.0, 1.0], grade=[1.0, None])
    queue = judging_queue(evaluate(below, Conventions(cutoffs=(1,), rubric=Rubric.parse("0,1"))))
    assert (queue.low, queue.high, len(queue), queue.settled) == (1.0, 1.0, 1, True)
    known = Document.from_columns(query=["a"], source_id=["x"], score=[1.0], grade=[1.0])
    assert judging_queue(evaluate(known)).settled
    none = Document.from_columns(query=["a"], source_id=["x"], score=[1.0], grade=[0.0])
    queue = judging_queue(evaluate(none))
    assert (queue.low, queue.settled) == (None, False)
