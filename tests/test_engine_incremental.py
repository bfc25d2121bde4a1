"""core.engine.incremental.reevaluate equals a fresh evaluate after grade edits."""

from __future__ import annotations

from dataclasses import fields
from functools import cached_property

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.engine.evaluation import Evaluation, QueryResults, evaluate
from core.engine.incremental import reevaluate
from core.errors import InputError
from core.io.journal import Journal
from core.io.trec import document_from_trec
from core.model.conventions import (
    Conventions,
    Gain,
    GainRule,
    IdealInventory,
    TieRule,
    UnknownRule,
    ZeroIdealRule,
)
from core.model.document import Document, GradeState
from core.model.presets import PRESETS, preset

#: Every result worked out when asked (so a new one is compared without being
#: listed here), the per-query record's fields, and the arrays made at once.
LAZY = tuple(name for name, attr in vars(Evaluation).items() if isinstance(attr, cached_property))
ARRAYS = (*LAZY, *(f.name for f in fields(QueryResults)), "gain", "order", "sorted_gain",
          "sorted_query", "ranked_mask", "inventory_mask")


def _same(a: object, b: object, name: str) -> None:
    """Equal to the bit (NaN and -0.0 included), same dtype and shape."""
    if not isinstance(a, np.ndarray):
        assert a == b, name
        return
    assert isinstance(b, np.ndarray), name
    assert (a.dtype, a.shape) == (b.dtype, b.shape), name
    assert np.ascontiguousarray(a).tobytes() == np.ascontiguousarray(b).tobytes(), name

#: Grades below the normal range of floats too: a query of such gains alone
#: is worked out lifted (core.engine.gains.lifted), spliced as any other.
GRADES = st.one_of(st.sampled_from([0.0, 1.0, 2.0, 3.0]), st.none(),
                   st.just("unrateable"), st.sampled_from([5e-324, 1e-320]))


@st.composite
def cases(draw):  # type: ignore[no-untyped-def]
    n_q = draw(st.integers(1, 4))
    sizes = draw(st.lists(st.integers(1, 7), min_size=n_q, max_size=n_q))
    # Some documents with rows interleaved across queries, most in blocks.
    query = [f"q{q}" for q, m in enumerate(sizes) for _ in range(m)]
    if draw(st.booleans()):
        query = draw(st.permutations(query))
    n = len(query)
    score = draw(st.lists(st.sampled_from([1.0, 2.0, 3.0, np.nan]), min_size=n, max_size=n))
    grades = draw(st.lists(GRADES, min_size=n, max_size=n))
    conventions = Conventions(
        gain=Gain(draw(st.sampled_from([GainRule.LINEAR, GainRule.EXPONENTIAL]))),
        cutoffs=draw(st.sampled_from([(None,), (2,), (1, None), (3, 5)])),
        ideal=draw(st.sampled_from(list(IdealInventory))),
        ties=draw(st.sampled_from(list(TieRule))),
        unknown=draw(st.sampled_from(list(UnknownRule))),
        zero_ideal=draw(st.sampled_from(list(ZeroIdealRule))),
    )
    if draw(st.integers(0, 3)) == 0:  # a preset: its own order of arithmetic (core.engine)
        conventions = preset(draw(st.sampled_from(sorted(PRESETS))), cutoffs=conventions.cutoffs)
    edits = draw(st.lists(st.tuples(st.integers(0, n - 1), GRADES), min_size=1, max_size=3))
    # Ids in a drawn order, so id-desc ties do not follow the row order.
    ids = [f"d{k}" for k in draw(st.permutations(range(n)))]
    return query, ids, score, grades, conventions, edits


def _set(doc: Document, i: int, grade: float | str | None) -> None:
    if grade is None:
        doc.set_grade(i, None, GradeState.UNKNOWN, who="t")
    elif grade == "unrateable":
        doc.set_grade(i, None, GradeState.UNRATEABLE, who="t", reason="broken")
    else:
        doc.set_grade(i, float(grade), who="t")


@settings(max_examples=300, deadline=None)
@given(cases(), st.booleans(), st.booleans(), st.booleans())
def test_reevaluate_equals_fresh_evaluate(case, warm, chain, in_place):  # type: ignore[no-untyped-def]
    query, ids, score, grades, conventions, edits = case
    n = len(query)
    doc = Document.from_columns(
        query=query, source_id=ids, score=score,
        grade=[np.nan] * n, conventions=conventions)
    for i, g in enumerate(grades):
        _set(doc, i, g)
    before = evaluate(doc)
    if warm:  # as in the editor: its lazy results asked for before the edit (then spliced)
        for name in ARRAYS:
            getattr(before, name)
    twin = evaluate(doc)
    kept = {name: np.array(getattr(twin, name), copy=True) for name in ARRAYS
            if name != "rubric"}
    if chain:  # as in the editor: one edit after another, each spliced into the last
        fast = before
        for i, g in edits:
            _set(doc, i, g)
            fast = reevaluate(fast, [i], in_place=in_place)
            if warm:
                for name in ARRAYS:
                    getattr(fast, name)
    else:
        for i, g in edits:
            _set(doc, i, g)
        fast = reevaluate(before, [i for i, _ in edits], in_place=in_place)
    fresh = evaluate(doc)
    assert {"n_judged", "ideal_order", "tie_start", "rubric"} <= set(LAZY)
    for name in ARRAYS:
        _same(getattr(fast, name), getattr(fresh, name), name)
    assert fast.status_table() == fresh.status_table()
    for q in range(doc.n_queries):
        assert fast.cutoff_results(q) == fresh.cutoff_results(q)
        np.testing.assert_array_equal(fast.ranked(q), fresh.ranked(q))
        np.testing.assert_array_equal(fast.ideal(q), fresh.ideal(q))
        np.testing.assert_array_equal(fast.cumulative_dcg(q), fresh.cumulative_dcg(q))
        assert fast.tie_groups(q) == fresh.tie_groups(q)
        for j in range(len(conventions.cutoffs)):
            np.testing.assert_array_equal(fast.contribution_at(conventions.cutoffs[j]),
                                          fresh.contribution_at(conventions.cutoffs[j]))
    # The previous evaluation's own arrays are untouched (its lazy counts read
    # the document, which has changed, as they always have); spliced in
    # place, its per-query numbers are (the editor's views compare them).
    per_row = () if in_place else ("gain", "ideal_order")
    for name in ("ndcg", "dcg", "idcg", "status_code", "order", "n_open", "rank",
                 "discount", *per_row):
        np.testing.assert_array_equal(getattr(before, name), kept[name], err_msg=name)


def test_reevaluate_hand_computed():
    # Case A of the seed: B=1, A=3, C=0 ranked B, A, C; then C becomes 2.
    doc = Document.from_columns(query=["A"] * 3 + ["Z"], source_id=["B", "A", "C", "Y"],
                                score=[3, 2, 1, 1], grade=[1, 3, 0, 1])
    ev = evaluate(doc)
    doc.set_grade(2, 2.0, who="t")
    new = reevaluate(ev, [2])
    dcg = 1 + 3 / np.log2(3) + 2 / 2
    idcg = 3 + 2 / np.log2(3) + 1 / 2
    assert new.ndcg[0, 0] == dcg / idcg
    assert new.ndcg[1, 0] == 1.0
    assert ev.ndcg[0, 0] == (1 + 3 / np.log2(3)) / (3 + 1 / np.log2(3))
    assert list(new.ideal_rank[:3]) == [3, 1, 2]


def test_an_edit_of_a_run_leaves_its_ids_as_bytes(tmp_path):  # type: ignore[no-untyped-def]
    # A grade typed into a 2M-row run must not decode 2M ids (the subset of
    # the changed query, the ideal order, the journal line): same results.
    run = tmp_path / "run.txt"
    run.write_text("".join(f"q{q} Q0 doc-é{q}-{i} {i} {9 - i // 2} t\n"
                           for q in range(3) for i in range(8)))
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("".join(f"q{q} 0 doc-é{q}-{i} {i % 3}\n" for q in range(3) for i in range(5)))
    doc = document_from_trec(run, qrels)
    ev = evaluate(doc)
    doc.set_grade(6, 2.0, who="me")
    new = reevaluate(ev, [6])
    entry = Journal.grade_entry(doc, 6, who="me")
    assert not vars(Document)["source_id"].is_made(doc)
    assert entry["source_id"] == "doc-é0-6"
    assert doc.audit[-1].source_id == "doc-é0-6"
    fresh = evaluate(doc)
    np.testing.assert_array_equal(new.ndcg, fresh.ndcg)
    np.testing.assert_array_equal(new.ideal_order, fresh.ideal_order)


def test_an_edit_in_place_writes_its_query_into_the_arrays_it_shares():
    # The editor's path: the changed query's rows are written into the
    # previous evaluation's per-candidate arrays (no copy of the document's
    # length), its per-query numbers kept; a raising re-evaluation writes nothing.
    doc = Document.from_columns(query=["A"] * 3 + ["Z"] * 2, source_id=["B", "A", "C", "Y", "X"],
                                score=[3, 2, 1, 2, 1], grade=[1, 3, 0, 1, 2],
                                conventions=Conventions(gain=Gain(GainRule.EXPONENTIAL)))
    ev = evaluate(doc)
    for name in ("ideal_order", "ideal_rank", "contribution", "n_judged"):
        getattr(ev, name)
    ndcg, gain = ev.ndcg.copy(), ev.gain.copy()
    doc.set_grade(2, 2.0, who="t")
    new = reevaluate(ev, [2], in_place=True)
    assert new is not ev
    assert "_ideal_start" in vars(new)  # worked out in the splice (a count of every row): kept
    for name in ("gain", "sorted_gain", "ideal_order", "ideal_rank", "contribution"):
        assert getattr(new, name) is getattr(ev, name), name
    assert new.gain[2] == 3.0  # 2 ** 2 - 1
    assert gain[2] == 0.0  # was 2 ** 0 - 1
    np.testing.assert_array_equal(ev.ndcg, ndcg)
    fresh = evaluate(doc)
    for name in ("gain", "ndcg", "ideal_order", "ideal_rank", "contribution", "n_judged"):
        _same(getattr(new, name), getattr(fresh, name), name)
    doc.grades_to_edit()[3] = -1.0  # a negative grade under exponential gain: refused
    written = new.gain.copy()
    with pytest.raises(InputError):
        reevaluate(new, [3], in_place=True)
    np.testing.assert_array_equal(new.gain, written)
