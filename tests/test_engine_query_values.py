"""core.engine.query_values: one query's values from its rows alone equal the
whole-document arrays (bit for bit), under every convention, before and
after an edit re-evaluated incrementally."""

from __future__ import annotations

import copy
from itertools import pairwise

import numpy as np
import numpy.typing as npt
from hypothesis import given, settings
from hypothesis import strategies as st

from core.engine.evaluation import Evaluation, evaluate
from core.engine.incremental import reevaluate
from core.engine.query_values import query_ideal, query_values
from core.model.conventions import Conventions, TieRule, UnknownRule
from core.model.document import Document, GradeState
from tests.test_engine import CONVENTIONS, documents


def _ideal_alone(ev: Evaluation, q: int) -> npt.NDArray[np.int64]:
    """:func:`query_ideal` from query ``q``'s own rows: on a copy of ``ev``
    without the whole ideal order (which it would slice), and working out
    none."""
    bare = copy.copy(ev)
    bare.__dict__.pop("ideal_order", None)
    got = query_ideal(bare, q)
    assert "ideal_order" not in bare.__dict__
    return got


def _assert_agree(ev: Evaluation, rnd: np.random.Generator) -> None:
    doc = ev.doc
    for q in range(doc.n_queries):
        rows = rnd.permutation(doc.members(q))[: rnd.integers(0, doc.members(q).size + 1)]
        v = query_values(ev, q, rows)
        np.testing.assert_array_equal(v.rows, rows)
        np.testing.assert_array_equal(v.rank, ev.rank[rows])
        np.testing.assert_array_equal(v.discount, ev.discount[rows])
        np.testing.assert_array_equal(v.contribution, ev.contribution[rows])
        np.testing.assert_array_equal(v.ideal_rank, ev.ideal_rank[rows])
        np.testing.assert_array_equal(v.ideal_contribution, ev.ideal_contribution[rows])
        np.testing.assert_array_equal(v.cumulative, ev.cumulative_dcg(q))
        np.testing.assert_array_equal(_ideal_alone(ev, q), ev.ideal(q))
        # The query's tie groups: runs of equal scores down its ranked list,
        # and (ties averaged) the whole-document tie arrays' groups.
        ranked = ev.ranked(q)
        scores = ev.doc.score[ranked].tolist()
        runs, start = [], 0
        for r in range(1, len(scores) + 1):
            if r == len(scores) or scores[r] != scores[start]:
                runs += [(start + 1, r)] if r - start > 1 else []
                start = r
        assert ev.tie_groups(q) == runs
        # The whole document's tie starts (compare's) hold the same groups.
        lo, hi = ev.positions(q)
        starts = ev.tie_start[lo:hi]
        heads = [*np.flatnonzero(starts).tolist(), hi - lo]
        assert [(a + 1, b) for a, b in pairwise(heads) if b - a > 1] == runs
        if ev.conventions.ties is TieRule.AVERAGE:
            first, size = ev.tie_first_rank, ev.tie_size
            assert runs == sorted({(int(first[i]), int(first[i] + size[i] - 1))
                                   for i in ranked if size[i] > 1})


@settings(max_examples=300, deadline=None)
@given(documents(), CONVENTIONS, st.integers(0, 2**32 - 1))
def test_query_values_equal_the_whole_document_arrays(doc, conv, seed):
    _assert_agree(evaluate(doc, conv), np.random.default_rng(seed))


@settings(max_examples=60, deadline=None)
@given(documents(max_queries=2), CONVENTIONS, st.integers(0, 2**32 - 1), st.data())
def test_query_values_after_an_incremental_edit(doc, conv, seed, data):
    ev = evaluate(doc, conv)
    ev.ideal_rank  # noqa: B018  (worked out before the edit: then spliced)
    i = data.draw(st.integers(0, len(doc) - 1))
    grade = data.draw(st.sampled_from([None, 0.0, 1.0, 3.0]))
    if grade is None:
        doc.set_grade(i, None, GradeState.UNKNOWN, who="t")
    else:
        doc.set_grade(i, grade, who="t")
    _assert_agree(reevaluate(ev, [i]), np.random.default_rng(seed))


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(list(TieRule)), st.sampled_from(list(UnknownRule)),
       st.integers(0, 2**32 - 1))
def test_long_queries_agree(ties, unknown, seed):
    """Queries longer than the discount table's small-array limit (256 ranks),
    with many tied scores and unknown grades."""
    rng = np.random.default_rng(seed)
    sizes = [300, 40, 700]
    n = sum(sizes)
    grade = rng.choice([0.0, 1.0, 2.0, 3.0, np.nan], n)
    score = rng.choice(np.arange(30.0), n)
    score[rng.random(n) < 0.05] = np.nan  # judged, not retrieved
    doc = Document.from_columns(
        query=[f"q{q}" for q, m in enumerate(sizes) for _ in range(m)],
        source_id=[f"d{k}" for k in rng.permutation(n)], score=score, grade=grade,
        conventions=Conventions(ties=ties, unknown=unknown))
    _assert_agree(evaluate(doc), rng)


def test_query_values_by_hand():
    """Scores 3, 2, 2, 1 (the 2s tied) with grades 1, 3, 0, 2 under average
    ties: the tied pair shares the mean discount of ranks 2 and 3."""
    doc = Document.from_columns(query=["A"] * 4, source_id=["a", "b", "c", "d"],
                                score=[3, 2, 2, 1], grade=[1, 3, 0, 2],
                                conventions=Conventions(ties=TieRule.AVERAGE))
    ev = evaluate(doc)
    v = query_values(ev, 0, [3, 1, 0])
    shared = (1 / np.log2(3) + 1 / np.log2(4)) / 2
    assert v.rank.tolist() == [4, 2, 1]
    np.testing.assert_allclose(v.discount, [1 / np.log2(5), shared, 1.0])
    np.testing.assert_allclose(v.contribution, [2 / np.log2(5), 3 * shared, 1.0])
    assert v.ideal_rank.tolist() == [2, 1, 3]  # ideal: b (3), d (2), a (1), c (0)
    np.testing.assert_allclose(v.ideal_contribution, [2 / np.log2(3), 3.0, 0.5])
    np.testing.assert_allclose(v.cumulative, np.cumsum([1.0, 3 * shared, 0.0, 2 / np.log2(5)]))
    assert ev.tie_groups(0) == [(2, 3)]
