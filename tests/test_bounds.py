"""Bounds of unresolved queries against every completion of the unknown grades."""

from __future__ import annotations

import itertools
import math
from dataclasses import replace
from unittest import mock

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.analysis import bounds
from core.analysis import outer as outer_module
from core.analysis.bounds import best_next_judgment, ndcg_bounds
from core.engine.evaluation import Status, evaluate
from core.engine.splice import spliced
from core.model.conventions import (
    Conventions,
    Gain,
    IdealInventory,
    Rubric,
    TieRule,
    ZeroIdealRule,
)
from core.model.document import Document, GradeState

RUBRIC = Rubric.parse("0,1,2,3")


@st.composite
def unresolved_queries(draw):
    n = draw(st.integers(2, 6))
    scores = [draw(st.sampled_from([None, 1.0, 2.0, 3.0, 3.0, 4.0])) for _ in range(n)]
    if all(s is None for s in scores):
        scores[0] = 1.0
    grades = [draw(st.sampled_from([None, 0.0, 1.0, 2.0, 3.0])) for _ in range(n)]
    if all(g is not None for g in grades):
        grades[draw(st.integers(0, n - 1))] = None
    conv = Conventions(
        cutoffs=(draw(st.sampled_from([1, 2, 3, None])),),
        ties=draw(st.sampled_from(list(TieRule))),
        ideal=draw(st.sampled_from(list(IdealInventory))),
        rubric=RUBRIC,
    )
    doc = Document.from_columns(
        query=["q"] * n, source_id=[f"s{i}" for i in range(n)], score=scores, grade=grades
    )
    return doc, conv


def completions(doc: Document, conv: Conventions, fixed: dict[int, float] | None = None,
                scale: tuple[float, ...] = RUBRIC.values) -> tuple[list[int], list[float]]:
    """The open rows of the one query, and the NDCG at the first cutoff of
    every completion of their grades over ``scale`` (those agreeing with
    ``fixed``), the completions with no NDCG left out."""
    ev = evaluate(doc, conv)
    open_rows = [i for i in np.flatnonzero(ev.inventory_mask) if doc.state[i] != 0]
    values = []
    for combo in itertools.product(scale, repeat=len(open_rows)):
        grade = doc.grade.copy()
        grade[open_rows] = combo
        if fixed and any(grade[i] != v for i, v in fixed.items()):
            continue
        filled = Document.from_columns(
            query=["q"] * len(doc), source_id=doc.source_id.tolist(), score=doc.score,
            grade=grade,
        )
        v = evaluate(filled, conv).ndcg[0, 0]
        if not math.isnan(v):
            values.append(float(v))
    return open_rows, values


@given(unresolved_queries())
def test_exact_bounds_are_the_range_of_all_completions(case):
    doc, conv = case
    ev = evaluate(doc, conv)
    if ev.status(0) is not Status.UNRESOLVED:
        return  # unknowns outside the inventory (not retrieved, ranked ideal)
    b = ndcg_bounds(ev, 0, 0)
    _, values = completions(doc, conv)
    assert b.exact
    if not values:
        assert b.low is None
        assert b.high is None
        return
    assert b.low == pytest.approx(min(values), abs=1e-12)
    assert b.high == pytest.approx(max(values), abs=1e-12)


@given(unresolved_queries())
def test_best_next_judgment_is_minimax(case):
    doc, conv = case
    ev = evaluate(doc, conv)
    if ev.status(0) is not Status.UNRESOLVED:
        return
    best = best_next_judgment(ev, 0, 0)
    assert best is not None
    open_rows, _ = completions(doc, conv)
    worst = {}
    for i in open_rows:
        widths = []
        for v in RUBRIC.values:
            _, values = completions(doc, conv, {i: v})
            widths.append(max(values) - min(values) if values else 0.0)
        worst[i] = max(widths)
    assert best.worst_width == pytest.approx(min(worst.values()), abs=1e-12)
    assert worst[best.index] == pytest.approx(best.worst_width, abs=1e-12)


def test_outer_bounds_contain_every_completion_when_too_many_unknowns():
    n = 9  # 4^9 combinations: more than the exact limit
    rng = np.random.default_rng(7)
    grades = [None] * 7 + [3.0, 1.0]
    doc = Document.from_columns(
        query=["q"] * n, source_id=[f"s{i}" for i in range(n)],
        score=rng.permutation(n).astype(float), grade=grades,
    )
    conv = Conventions(cutoffs=(3,), rubric=RUBRIC)
    ev = evaluate(doc, conv)
    b = ndcg_bounds(ev, 0, 0)
    assert not b.exact
    for _ in range(300):
        fill = rng.choice(RUBRIC.values, size=7)
        g = np.array([*fill, 3.0, 1.0])
        filled = Document.from_columns(
            query=["q"] * n, source_id=doc.source_id.tolist(), score=doc.score, grade=g
        )
        v = evaluate(filled, conv).ndcg[0, 0]
        assert b.low - 1e-12 <= v <= b.high + 1e-12


def test_seed_case_f_unknown_bounds():
    # A=3 at rank 1, B unknown at rank 2, C=0 at rank 3: any grade of B keeps
    # the order ideal, so NDCG is 1 whatever B turns out to be.
    doc = Document.from_columns(
        query=["q"] * 3, source_id=list("ABC"), score=[3, 2, 1], grade=[3, None, 0]
    )
    ev = evaluate(doc, Conventions(rubric=RUBRIC))
    b = ndcg_bounds(ev, 0, 0)
    assert (b.low, b.high, b.exact, b.open) == (1.0, 1.0, True, 1)
    assert ev.doc.state[1] == GradeState.UNKNOWN


def test_worked_bounds_by_hand():
    # B unknown ranked first, A=3 second. B=0: 3/L / 3; B=3: 1.
    L = math.log2(3)
    doc = Document.from_columns(
        query=["q"] * 2, source_id=list("BA"), score=[2, 1], grade=[None, 3]
    )
    ev = evaluate(doc, Conventions(rubric=RUBRIC))
    b = ndcg_bounds(ev, 0, 0)
    assert b.low == pytest.approx((3 / L) / 3, abs=1e-15)
    assert b.high == 1.0


@given(st.lists(unresolved_queries(), min_size=2, max_size=4))
def test_each_query_is_bounded_as_if_it_stood_alone(parts):
    """Bounds work on the query's own rows: next to other queries, a query's
    interval and best next judgment are those of the query alone."""
    conv = parts[0][1]
    docs = [doc for doc, _ in parts]
    whole = Document.from_columns(
        query=[f"q{n}" for n, d in enumerate(docs) for _ in range(len(d))],
        source_id=[s for d in docs for s in d.source_id],
        score=np.concatenate([d.score for d in docs]),
        grade=np.concatenate([d.grade for d in docs]),
    )
    ev = evaluate(whole, conv)
    worked_out = "ideal_order" in ev.__dict__
    offset = 0
    for q, doc in enumerate(docs):
        alone = evaluate(doc, conv)
        assert ndcg_bounds(ev, q) == ndcg_bounds(alone, 0)
        got, want = best_next_judgment(ev, q), best_next_judgment(alone, 0)
        assert (got is None) == (want is None)
        if got is not None and want is not None:
            assert (got.index - offset, got.source_id, got.widths) == (
                want.index, want.source_id, want.widths)
        offset += len(doc)
    # Nor is every query's ideal list sorted for one query's bounds (an
    # editor asks after each edit; the whole order is then spliced into
    # every later evaluation).
    assert ("ideal_order" in ev.__dict__) is worked_out


@given(
    grades=st.lists(st.sampled_from([None, None, 0.0, 1.0, 2.0, 3.0]), min_size=1, max_size=30),
    retrieved=st.lists(st.booleans(), min_size=30, max_size=30),
    scores=st.lists(st.integers(0, 6), min_size=30, max_size=30),
    k=st.sampled_from([None, 1, 3, 10]),
    ideal=st.sampled_from(list(IdealInventory)),
    ties=st.sampled_from([TieRule.AVERAGE, TieRule.SUPPLIED, TieRule.ID_DESC]),
    rubric=st.sampled_from(["0,1,2,3", "0,1", "1,2,5"]),
)
def test_the_one_change_interval_equals_the_full_one(grades, retrieved, scores, k, ideal, ties,
                                                     rubric):
    """best_next_judgment's fast path (one grade fixed, by prefix sums) gives
    the outer interval the full computation gives, for every unknown and grade."""
    from core.analysis.bounds import OneJudgment, OpenQuery

    n = len(grades)
    if all(g is not None for g in grades):
        grades = [None, *grades[1:]]
    score = [float(s) if r else None for s, r in zip(scores[:n], retrieved[:n], strict=True)]
    if all(s is None for s in score):
        score[0] = 1.0
    doc = Document.from_columns(query=["q"] * n, source_id=[f"d{i}" for i in range(n)],
                                score=score, grade=grades)
    conv = Conventions(cutoffs=(k,), ideal=ideal, ties=ties, rubric=Rubric.parse(rubric))
    ev = evaluate(doc, conv)
    query = OpenQuery(ev, 0, 0)
    fast = OneJudgment(query)
    for m in range(query.unknown.size):
        for v in query.values:
            expected = query.outer({m: float(v)})
            got = fast.outer(m, float(v))
            assert got == pytest.approx(expected, rel=1e-12, abs=1e-12), (m, v)


def test_the_next_judgment_of_a_long_query_sorts_no_list_again(monkeypatch):
    """40,000 retrieved, one judged: each of the tries (a candidate, a grade)
    is worked out by prefix sums, never by the full outer computation that
    sorts the whole ideal list again (it took minutes)."""
    from core.analysis import bounds

    calls = []
    full = bounds.OpenQuery.outer
    monkeypatch.setattr(bounds.OpenQuery, "outer",
                        lambda self, fixed=None: (calls.append(fixed), full(self, fixed))[1])
    n = 40_000
    grade: list[float | None] = [None] * n
    grade[5] = 2.0
    doc = Document.from_columns(query=["q"] * n, source_id=[f"https://x.org/{i}" for i in range(n)],
                                score=np.linspace(1, 0, n), grade=grade)
    best = best_next_judgment(evaluate(doc), 0, 0)
    assert best is not None
    assert best.index == 0  # the top-ranked unknown narrows most
    assert calls == []


@st.composite
def unresolved_documents(draw):
    """Several queries of 1-12 candidates: tied scores, unknown and
    unrateable grades, judged-not-retrieved rows, any tie rule, inventory,
    cutoffs and a rubric that may hold negative grades."""
    rubric = draw(st.sampled_from([RUBRIC, Rubric.parse("-1,0,2"), Rubric.parse("0,1")]))
    grades = [None, *rubric.values]
    query, score, grade, state = [], [], [], []
    for q in range(draw(st.integers(1, 5))):
        n = draw(st.integers(1, 12))
        for _ in range(n):
            query.append(f"q{q}")
            score.append(draw(st.sampled_from([None, 1.0, 2.0, 2.0, 3.0, 4.0, 5.0])))
            g = draw(st.sampled_from(grades))
            grade.append(g)
            state.append(GradeState.NUMBER if g is not None else draw(
                st.sampled_from([GradeState.UNKNOWN, GradeState.UNRATEABLE])))
    cutoffs = tuple(draw(st.lists(st.sampled_from([1, 2, 3, 5, None]), min_size=1, max_size=3,
                                  unique=True)))
    conv = Conventions(cutoffs=cutoffs, ties=draw(st.sampled_from(list(TieRule))),
                       ideal=draw(st.sampled_from(list(IdealInventory))), rubric=rubric)
    doc = Document.from_columns(query=query, source_id=[f"s{i}" for i in range(len(query))],
                                score=score, grade=grade, state=state)
    return doc, conv


@given(unresolved_documents(), st.booleans(), st.sampled_from([1, 20, 1 << 18]))
def test_all_bounds_at_once_are_each_querys_bounds(case, outer, chunk):
    """unresolved_bounds (every query at once, in chunks of ``chunk``
    positions) gives exactly ndcg_bounds of each query, and the outer
    intervals are those of the query-by-query extreme completions
    (OpenQuery.outer)."""
    doc, conv = case
    with mock.patch.object(bounds, "MAX_COMBINATIONS", 0 if outer else bounds.MAX_COMBINATIONS), \
            mock.patch.object(outer_module.OuterBounds, "CHUNK", chunk):
        ev = evaluate(doc, conv)
        every = bounds.unresolved_bounds(ev)
        # a query nothing ranks is unranked whatever its open grades: no bounds
        unresolved = {q for q in range(doc.n_queries)
                      if ev.n_open[q] > 0 and ev.status(q, 0) is not Status.UNRANKED}
        for j in range(len(conv.cutoffs)):
            assert set(every[j]) == unresolved
            for q in unresolved:
                b = every[j][q]
                assert b == ndcg_bounds(ev, q, j)
                assert ev.status(q, j) is Status.UNRESOLVED
                if not b.exact:
                    # The same sums added in another order: equal to the
                    # last bits, relative to their size (with negative
                    # gains the bounds pass 1: 136.6 read 136.6 + 1.3e-12)
                    low, high = bounds.OpenQuery(ev, q, j).outer()
                    assert b.low == pytest.approx(low, rel=1e-13, abs=1e-12)
                    assert b.high == pytest.approx(high, rel=1e-13, abs=1e-12)


@given(unresolved_documents())
def test_the_ideal_gains_the_engine_hands_over_are_those_laid_out_again(case):
    """Open grades and a report to follow: the engine keeps its ideal lists'
    gains for the first caller (the report's bounds); the next one lays them
    out again, with the same bits and the same starts; a grade edit drops
    what was kept; without a report (the editor's) nothing is kept."""
    doc, conv = case
    assert evaluate(doc, conv)._kept_ideal is None
    ev = evaluate(doc, conv, for_report=True)
    assert (ev._kept_ideal is not None) == bool((ev.n_open > 0).any())
    first_gains, first_starts = ev.ideal_gains()
    again_gains, again_starts = ev.ideal_gains()
    assert ev._kept_ideal is None
    assert first_gains.tobytes() == again_gains.tobytes()
    assert first_starts.tolist() == again_starts.tolist()
    assert first_starts.tolist() == [0, *np.cumsum(ev.n_inventory).tolist()]
    ev = evaluate(doc, conv, for_report=True)
    rows = doc.members(0)
    edited = spliced(ev, evaluate(doc.subset(rows), conv), rows)
    assert ev._kept_ideal is not None or not (ev.n_open > 0).any()
    assert edited._kept_ideal is None


def test_outer_bounds_by_hand():
    # One query, cutoff 2, average ties, unknown x at rank 1 (score 3), A=3 at
    # rank 2, B=1 at rank 3; grades 0..3. Lowest: x=0 ranked, x=3 in the ideal
    # list (3, 3, 1): DCG 3/L, IDCG@2 3 + 3/L. Highest: x=3 ranked, x=0
    # ideally (3, 1, 0): DCG 3 + 3/L, IDCG@2 3 + 1/L, capped at 1.
    L = math.log2(3)
    doc = Document.from_columns(query=["q"] * 3, source_id=["x", "A", "B"],
                                score=[3, 2, 1], grade=[None, 3, 1])
    ev = evaluate(doc, Conventions(cutoffs=(2,), rubric=RUBRIC))
    with mock.patch.object(bounds, "MAX_COMBINATIONS", 0):
        b = ndcg_bounds(ev, 0, 0)
        assert bounds.unresolved_bounds(ev)[0][0] == b
    assert not b.exact
    assert b.low == pytest.approx((3 / L) / (3 + 3 / L), abs=1e-15)
    assert b.high == 1.0


def test_the_next_judgment_is_never_an_unrateable_candidate():
    # a (rank 1) is unrateable: its gain is open like an unknown one, and
    # judging it would narrow most, but it was looked at and could not be
    # judged; the next judgment asked for is b, the one still to be given.
    doc = Document.from_columns(
        query=["q"] * 3, source_id=["a", "b", "c"], score=[3.0, 2.0, 1.0],
        grade=[None, None, 3.0],
        state=[GradeState.UNRATEABLE, GradeState.UNKNOWN, GradeState.NUMBER],
    )
    ev = evaluate(doc, Conventions(cutoffs=(3,), rubric=RUBRIC))
    assert ev.status(0) is Status.UNRESOLVED
    best = best_next_judgment(ev, 0, 0)
    assert best is not None
    assert best.source_id == "b"
    only = Document.from_columns(
        query=["q"] * 2, source_id=["a", "c"], score=[2.0, 1.0], grade=[None, 3.0],
        state=[GradeState.UNRATEABLE, GradeState.NUMBER],
    )
    ev = evaluate(only, Conventions(cutoffs=(2,), rubric=RUBRIC))
    assert ev.status(0) is Status.UNRESOLVED
    assert best_next_judgment(ev, 0, 0) is None


def test_the_grade_scales_gains_are_each_taken_once_ascending():
    # Grades -1, 0, 1, 1.5, 2 truncated, negatives as 0: gains 0, 0, 1, 1, 2;
    # the bounds range over 0, 1, 2 (as np.unique gives them).
    from core.model.conventions import Gain

    doc = Document.from_columns(query=["q"] * 2, source_id=list("AB"), score=[2, 1],
                                grade=[2, None])
    gain = Gain(negative_as_zero=True, truncate=True)
    ev = evaluate(doc, Conventions(rubric=Rubric.parse("-1,0,1,1.5,2"), gain=gain))
    assert bounds._values(ev).tolist() == [0.0, 1.0, 2.0]


def _tiny(doc: Document, conv: Conventions, power: int, *, rubric: bool = True,
          ) -> tuple[Document, Conventions]:
    """``doc`` with its grades times 2^``power`` (exact; below the normal
    range of floats from -1022), and its rubric's too unless not ``rubric``."""
    grades = [None if math.isnan(g) else math.ldexp(g, power) for g in doc.grade.tolist()]
    tiny = Document.from_columns(query=["q"] * len(doc), source_id=doc.source_id.tolist(),
                                 score=doc.score, grade=grades)
    if not rubric:
        return tiny, conv
    scale = Rubric.parse(",".join(repr(math.ldexp(v, power)) for v in conv.rubric.values))
    return tiny, conv.replace(rubric=scale)


def _said(b: bounds.Bounds | bounds.NextJudgment | None) -> object:
    return None if b is None else vars(b)


@given(unresolved_queries(), st.sampled_from([-1074, -1060, -1000]), st.booleans())
def test_grades_below_the_normal_range_bound_as_the_same_grades_scaled_up(case, power, outer):
    """Grades and grade scale times 2^power (down to the smallest float):
    the very interval and next judgment of the grades themselves, exact or
    outer, as the engine's NDCG (NDCG ignores a common factor). Their
    products with the discounts kept a few digits: an exact interval read up
    to 1.0005, an NDCG no completion has."""
    doc, conv = case
    tiny, tiny_conv = _tiny(doc, conv, power)
    with mock.patch.object(bounds, "MAX_COMBINATIONS", 1 if outer else bounds.MAX_COMBINATIONS):
        ev, small = evaluate(doc, conv), evaluate(tiny, tiny_conv)
        assert _said(ndcg_bounds(small, 0, 0)) == _said(ndcg_bounds(ev, 0, 0))
        best, next_tiny = best_next_judgment(ev, 0, 0), best_next_judgment(small, 0, 0)
        if best is not None:  # (the grades it could get are the tiny ones)
            assert next_tiny is not None
            assert list(next_tiny.widths) == [math.ldexp(g, power) for g in best.widths]
            best = replace(best, widths=dict(zip(next_tiny.widths, best.widths.values(),
                                                 strict=True)))
        assert _said(next_tiny) == _said(best)
        assert [{q: vars(b) for q, b in at.items()} for at in bounds.unresolved_bounds(small)] == [
            {q: vars(b) for q, b in at.items()} for at in bounds.unresolved_bounds(ev)]


@given(unresolved_queries(), st.sampled_from([-1074, -1040]))
def test_grades_below_the_normal_range_on_a_scale_of_0_to_3(case, power):
    """Known grades below the normal range, unknown ones filled from 0 to 3:
    the exact interval is still the range of the engine's NDCG over every
    completion, within [0, 1] (up to the rounding of averaged ties' discounts,
    1.0000000000000002 with grades 0 to 3 as well), and the outer one holds
    it (one of its sums of those grades alone: [0, 1])."""
    doc, conv = case
    tiny, _ = _tiny(doc, conv, power, rubric=False)
    ev = evaluate(tiny, conv)
    if ev.status(0) is not Status.UNRESOLVED:
        return
    b = ndcg_bounds(ev, 0, 0)
    _, values = completions(tiny, conv)
    if values:
        assert 0.0 <= b.low <= b.high <= 1.0 + 1e-15
        assert b.low == pytest.approx(min(values), abs=1e-12)
        assert b.high == pytest.approx(max(values), abs=1e-12)
        with mock.patch.object(bounds, "MAX_COMBINATIONS", 1):
            outer = ndcg_bounds(ev, 0, 0)
        assert outer.low - 1e-12 <= b.low <= b.high <= outer.high + 1e-12


@given(unresolved_queries(), st.booleans())
def test_a_completion_whose_ideal_dcg_is_below_0_has_no_ndcg_in_the_interval(case, judged):
    """On a scale from -1 to 2, a completion whose ideal DCG is below 0 has
    no NDCG (the engine's status ``negative``): the exact interval is the
    range of the engine's NDCG over the others (a ratio such as -1 / -0.5
    read 2.0 before)."""
    doc, conv = case
    scale = Rubric.parse("-1,0,1,2")
    conv = conv.replace(rubric=scale, ideal=IdealInventory.JUDGED if judged else conv.ideal)
    grades = [None if math.isnan(g) else g - 1 for g in doc.grade.tolist()]
    doc = Document.from_columns(query=["q"] * len(doc), source_id=doc.source_id.tolist(),
                                score=doc.score, grade=grades)
    ev = evaluate(doc, conv)
    if ev.status(0) is not Status.UNRESOLVED:
        return
    b = ndcg_bounds(ev, 0, 0)
    values = completions(doc, conv, scale=scale.values)[1]
    assert (b.low, b.high) == ((None, None) if not values else (
        pytest.approx(min(values), abs=1e-12), pytest.approx(max(values), abs=1e-12)))


def test_the_outer_interval_holds_every_completion_when_a_gain_can_be_negative() -> None:
    """b (-1) ranked first, a (unknown, on -1, 0, 1, 2) second, k = 1, the
    judged inventory: DCG@1 is -1; the ideal DCG@1 is a's grade where it
    passes -1, so a = 1 reads -1.0 and a = 2 -0.5 (-1 and 0: no NDCG). The
    exact interval is [-1.0, -0.5]; the outer one read [-0.5, 1.0]: -1 / 2,
    DCG at least over ideal DCG at most, is no lower bound once the ideal
    DCG can be smaller and the DCG negative (the corners of the four sums
    bound it while the ideal DCG at least is above 0; below, nothing
    finite does). Found checking gains below 2^-1022 (which bound as their
    scaled-up twins, negative or not): the same with whole grades."""
    doc = Document.from_columns(query=["q"] * 2, source_id=["a", "b"], score=[1.0, 3.0],
                                grade=[None, -1.0])
    conv = Conventions(cutoffs=(1,), ties=TieRule.SUPPLIED, ideal=IdealInventory.JUDGED,
                       rubric=Rubric.parse("-1,0,1,2"))
    ev = evaluate(doc, conv)
    exact = ndcg_bounds(ev, 0, 0)
    assert (exact.low, exact.high, exact.exact) == (-1.0, -0.5, True)
    with mock.patch.object(bounds, "MAX_COMBINATIONS", 1):
        outer = ndcg_bounds(ev, 0, 0)
    assert not outer.exact
    assert outer.low <= -1.0
    assert outer.high >= -0.5


@st.composite
def signed_queries(draw):
    """An unresolved query where a gain may be below 0: a scale with negative
    grades, a gain table giving one a negative gain, or a known grade below
    0 outside a scale of 0 to 2; under either zero-ideal rule."""
    doc, conv = draw(unresolved_queries())
    kind = draw(st.sampled_from(["scale", "table", "outside"]))
    scale = {"scale": draw(st.sampled_from(["-1,0,1,2", "-2,-1,0,1", "-1,0", "-2,-1"])),
             "table": "0,1,2,3", "outside": "0,1,2"}[kind]
    rubric = Rubric.parse(scale)
    grades = [None if math.isnan(g) else draw(st.sampled_from(rubric.values))
              for g in doc.grade.tolist()]
    if kind == "outside":
        known = [i for i, g in enumerate(grades) if g is not None]
        if known:
            grades[draw(st.sampled_from(known))] = -1.0
    gain = Gain.parse("1=-2,2=0.5,3=4") if kind == "table" else Gain()
    conv = conv.replace(rubric=rubric, gain=gain,
                        zero_ideal=draw(st.sampled_from(list(ZeroIdealRule))))
    doc = Document.from_columns(query=["q"] * len(doc), source_id=doc.source_id.tolist(),
                                score=doc.score, grade=grades)
    return doc, conv


def _within(b: bounds.Bounds, values: list[float]) -> bool:
    return all(b.low - 1e-12 <= v <= b.high + 1e-12 for v in values)


@given(signed_queries())
def test_every_completion_lies_within_the_bounds_when_a_gain_can_be_negative(case):
    """Every completion's NDCG lies within the exact interval, the outer one
    of the query alone (:func:`ndcg_bounds`), the one of all queries at
    once (:func:`bounds.unresolved_bounds`) and the judging queue's
    (:meth:`bounds.OpenQuery.outer`): an outer side that no finite number
    bounds is infinite (-inf below, inf above), never a number that misses
    one (the outer interval missed 429 of 2,777 random queries' completions
    before)."""
    doc, conv = case
    ev = evaluate(doc, conv)
    if ev.status(0) is not Status.UNRESOLVED:
        return
    values = completions(doc, conv, scale=conv.rubric.values)[1]
    exact = ndcg_bounds(ev, 0, 0)
    assert exact.exact
    assert not exact.unbounded
    if values:
        assert (exact.low, exact.high) == (pytest.approx(min(values), abs=1e-12),
                                           pytest.approx(max(values), abs=1e-12))
    with mock.patch.object(bounds, "MAX_COMBINATIONS", 1):
        outer = ndcg_bounds(ev, 0, 0)
        every = bounds.unresolved_bounds(ev)[0][0]
        low, high = bounds.OpenQuery(ev, 0, 0).outer()
    assert not outer.exact
    assert (every.low, every.high) == (outer.low, outer.high)
    assert _within(outer, values)
    assert _within(bounds.Bounds(0, low, high, False, 0), values)


@given(st.lists(st.lists(st.sampled_from([3.0, 1.0, 0.0, -0.0, -2.0, math.nan]), max_size=12),
                min_size=1, max_size=6),
       st.sampled_from([-1.0, 0.0, 1.0, 3.0, 5.0]),
       st.lists(st.sampled_from([1, 2, 4, None]), min_size=1, max_size=3, unique=True))
def test_ideal_dcg_with_unknowns_at_a_value_sums_the_known_gains_but_0(lists, value, cutoffs):
    """The extreme ideal DCGs of the outer bounds, every unknown gain at a
    value: only the known gains other than 0 are ranked, discounted and
    summed (a 0 adds +0.0 or -0.0, and a sum from +0.0 is the same without
    it): the bits of every position summed, as the bounds summed before."""
    from core.engine.discount import discount

    ideal = [sorted(g, key=lambda x: (math.isnan(x), -x)) for g in lists]  # best first, NaN last
    gain = np.array([x for g in ideal for x in g], dtype=np.float64)
    query = np.repeat(np.arange(len(ideal)), [len(g) for g in ideal])
    nq, longest = len(ideal), max(len(g) for g in ideal)
    cumulative = np.concatenate(([0.0], np.cumsum(discount(np.arange(1, longest + 1)))))
    made: list[int] = []
    some = outer_module.discount_of_some

    def counted(rank, *args):
        made.append(rank.size)
        return some(rank, *args)

    with mock.patch.object(outer_module, "discount_of_some", counted):
        chunk = outer_module._IdealChunk(gain, query, nq, cumulative)
        got = [chunk.idcg(value, k) for k in cutoffs]
    # Every position, as before: the unknown gains 0, ranks moved down by
    # the unknowns unless above the value, 0 past k.
    unknown = np.isnan(gain)
    u = np.bincount(query[unknown], minlength=nq)
    starts = np.searchsorted(query, np.arange(nq + 1))
    higher = gain > value
    rank = np.arange(1, gain.size + 1) - starts[query] + np.where(higher, 0, u[query])
    contribution = np.where(unknown, 0.0, gain) * discount(rank)
    above = np.bincount(query[higher], minlength=nq)
    for k, one in zip(cutoffs, got, strict=True):
        terms = contribution if k is None else np.where(rank <= k, contribution, 0.0)
        first, last = above, above + u
        if k is not None:
            first, last = np.minimum(first, k), np.minimum(last, k)
        want = (np.bincount(query, weights=terms, minlength=nq)
                + value * (cumulative[last] - cumulative[first]))
        assert one.tobytes() == want.tobytes()
    assert made == [int((np.where(unknown, 0.0, gain) != 0).sum())]
