"""Explaining a disagreement between two sets of conventions, step by step."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.analysis.explain import STEP_ORDER, explain, peer_matches
from core.engine.evaluation import evaluate
from core.errors import ConventionError
from core.model.conventions import Conventions, Gain, Rubric, Weighting
from core.model.document import Document
from core.model.presets import preset
from tests.conftest import doc_of

L3 = math.log2(3.0)




# "h": z (grade 2) was judged but not retrieved; "e": the seed's case E, a tie.
ROWS = [
    ("h", "x", 2.0, 1.0), ("h", "y", 1.0, 0.0), ("h", "z", None, 2.0),
    ("e", "X", 0.5, 3.0), ("e", "Y", 0.5, 1.0),
]


def test_trec_eval_to_sklearn_hand_computed() -> None:
    doc = doc_of(ROWS)
    a = preset("trec_eval", cutoffs=(1, None))
    b = preset("sklearn", cutoffs=(1, None))
    x = explain(doc, a, b)
    assert [s.field for s in x.steps] == ["gain", "ties", "ideal"]
    gain, ties, ideal = x.steps
    h, e = doc.query_ids.index("h"), doc.query_ids.index("e")
    # Whole list. h: trec_eval 1 / (2 + 1/L3) (ideal with z), sklearn 1 (ideal
    # x, y). e: id-desc puts Y (1) before X (3): (1 + 3/L3) / (3 + 1/L3);
    # averaged: each gets (1 + 1/L3) / 2.
    assert x.ndcg_start[h, 1] == pytest.approx(1 / (2 + 1 / L3), abs=1e-15)
    assert x.ndcg_end[h, 1] == 1.0
    assert gain.contribution[h, 1] == 0.0
    assert ties.contribution[h, 1] == 0.0
    assert ideal.contribution[h, 1] == pytest.approx(1 - 1 / (2 + 1 / L3), abs=1e-15)
    avg = (3 + 1) * (1 + 1 / L3) / 2 / (3 + 1 / L3)
    assert ties.contribution[e, 1] == pytest.approx(avg - (1 + 3 / L3) / (3 + 1 / L3))
    # At k = 1 for e: 1/3 under id-desc, 2/3 averaged (the seed's case E).
    assert ties.contribution[e, 0] == pytest.approx(1 / 3)
    assert ideal.contribution[e, 0] == 0.0
    both = (ties.contribution[e, 0] + ideal.contribution[h, 0]) / 2
    assert x.mean_total[0] == pytest.approx(both)
    for j in range(2):
        assert sum(s.mean[j] for s in x.steps) == pytest.approx(x.mean_total[j], abs=1e-12)
    text = x.sentence(1)
    assert "gain, discount, ties, ideal, unknown, zero_ideal, unranked, cutoffs, weighting" in text
    assert "ties: id-desc -> average" in text
    assert "ideal: judged -> ranked" in text
    a, b = x.mean_start[1], x.mean_end[1]
    assert f"goes from {a:.4f} to {b:.4f} ({b - a:+.4f})" in text
    # At the editor's decimals setting (2): every number of the paragraph.
    two = x.sentence(1, decimals=2)
    assert f"goes from {a:.2f} to {b:.2f} ({b - a:+.2f})" in two
    assert f"{ties.label} {ties.mean[1]:+.2f};" in two
    assert f"{ties.label} {ties.mean[1]:+.4f};" in text
    assert not re.search(r"\d\.\d{3}", two)
    assert x.peers_start[0].preset == "trec_eval"
    assert x.peers_start[0].command == "trec_eval -c -m ndcg_cut.1 -m ndcg QRELS RUN"
    assert x.peers_end[0].command == "sklearn.metrics.ndcg_score(y_true, y_score, k=1)"


def test_steps_through_an_undefined_query() -> None:
    # "g": only grade-0 candidates were retrieved; z (grade 2) was not. With the
    # judged ideal NDCG is 0; with the ranked ideal the ideal DCG is 0
    # (undefined) until the zero-ideal rule makes it 0.
    doc = doc_of([("g", "x", 2.0, 0.0), ("g", "z", None, 2.0), ("k", "a", 1.0, 1.0)])
    a = Conventions(ideal="judged", zero_ideal="undefined", unknown="zero")  # type: ignore[arg-type]
    b = Conventions(ideal="ranked", zero_ideal="zero", unknown="zero")  # type: ignore[arg-type]
    x = explain(doc, a, b)
    assert [s.field for s in x.steps] == ["ideal", "zero_ideal"]
    ideal, zero = x.steps
    assert ideal.undefined == (1,)
    assert np.isnan(ideal.ndcg[0, 0])
    assert ideal.contribution[0, 0] == 0.0
    assert zero.bridged == (1,)
    assert ideal.bridged == (0,)
    assert x.included[:, 0].tolist() == [True, True]
    assert "booked on the step that gives the value back (1 after the zero_ideal step)" in (
        x.sentence()
    )


def test_unresolved_queries_are_left_out_and_counted() -> None:
    doc = doc_of([("u", "x", 2.0, None), ("u", "y", 1.0, 1.0), ("k", "a", 1.0, 1.0)])
    a = Conventions(unknown="zero")  # type: ignore[arg-type]
    b = Conventions(unknown="unresolved")  # type: ignore[arg-type]
    x = explain(doc, a, b)
    assert x.steps[0].unresolved == (1,)
    assert x.included[:, 0].tolist() == [False, True]
    assert x.excluded(0) == {"no value under the second conventions": 1}
    assert "left out: 1 no value under the second conventions" in x.sentence()
    assert "(after unknown: 0 undefined, 1 unresolved) enter the sums only if" in x.sentence()


def test_weighting_changes_only_the_mean() -> None:
    doc = doc_of(ROWS, frequency={"h": 3.0, "e": 1.0})
    a = preset("trec_eval")
    b = preset("sklearn", weighting=Weighting.FREQUENCY)
    x = explain(doc, a, b)
    assert x.steps[-1].field == "weighting"
    last = x.steps[-1]
    assert np.all(last.contribution == 0.0)
    end = x.ndcg_end[:, 0]
    assert last.mean[0] == pytest.approx((3 * end[0] + end[1]) / 4 - (end[0] + end[1]) / 2)
    assert sum(s.mean[0] for s in x.steps) == pytest.approx(x.mean_total[0], abs=1e-12)


def test_fields_outside_the_arithmetic_are_named() -> None:
    doc = doc_of(ROWS)
    a = Conventions(rubric=Rubric.parse("0,1,2,3"))
    b = Conventions()
    x = explain(doc, a, b)
    assert x.steps == []
    assert x.not_applied == [("rubric", "0,1,2,3", "none")]
    assert "not part of this evaluation's arithmetic: rubric (0,1,2,3 -> none)" in x.sentence()


def test_cutoff_counts_must_match() -> None:
    with pytest.raises(ConventionError, match="same number"):
        explain(doc_of(ROWS), Conventions(cutoffs=(1, 2)), Conventions(cutoffs=(5,)))


def test_peer_matches_and_none() -> None:
    matches, text = peer_matches(preset("ranx", cutoffs=(10,)))
    assert [m.preset for m in matches] == ["ranx"]
    assert matches[0].command == "ranx.evaluate(qrels, run, ['ndcg@10'], make_comparable=True)"
    assert text.startswith("These conventions reproduce ranx:")
    matches, text = peer_matches(Conventions())
    assert matches == []
    assert text.startswith("No peer preset matches these conventions; the nearest, sklearn,")
    assert "unknown unresolved (theirs: zero)" in text


# -- invariants ---------------------------------------------------------------------------


@st.composite
def documents(draw: st.DrawFn) -> Document:
    nq = draw(st.integers(1, 5))
    rows = []
    for q in range(nq):
        n = draw(st.integers(1, 7))
        for i in range(n):
            score = draw(st.sampled_from([None, 0.0, 1.0, 1.0, 2.0, 3.5]))
            grade = draw(st.sampled_from([None, 0.0, 0.0, 1.0, 2.0, 3.0, 1.5]))
            rows.append((f"q{q}", f"s{i}", score, grade))
    freq = {f"q{q}": draw(st.sampled_from([1.0, 2.0, 5.0])) for q in range(nq)}
    return doc_of(rows, frequency=freq)


conventions = st.builds(
    Conventions,
    gain=st.sampled_from([Gain.parse("linear"), Gain.parse("exponential"), Gain.parse("1=3,2=9"),
                          preset("trec_eval").gain]),
    cutoffs=st.sampled_from([(1, None), (2, 3), (None, 1)]),
    ideal=st.sampled_from(["ranked", "judged"]),
    ties=st.sampled_from(["supplied", "average", "pessimistic", "optimistic", "id-desc"]),
    unknown=st.sampled_from(["unresolved", "zero", "condensed"]),
    zero_ideal=st.sampled_from(["undefined", "zero"]),
    weighting=st.sampled_from(["equal", "frequency"]),
)


@given(doc=documents(), a=conventions, b=conventions)
def test_steps_sum_to_the_total(doc: Document, a: Conventions, b: Conventions) -> None:
    x = explain(doc, a, b)
    fields = [s.field for s in x.steps]
    assert fields == [f for f in STEP_ORDER if f in fields]  # the stated order
    total = x.total
    for j in range(len(a.cutoffs)):
        inc = x.included[:, j]
        summed = np.zeros(int(inc.sum()))
        for s in x.steps:
            assert not np.any(np.isnan(s.contribution[inc, j]))
            summed += s.contribution[inc, j]
        np.testing.assert_allclose(summed, total[inc, j], rtol=0, atol=1e-12)
        if x.mean_total[j] is not None:
            mean_sum = sum(s.mean[j] or 0.0 for s in x.steps)
            assert abs(mean_sum - x.mean_total[j]) <= 1e-12
    # The ends are the two conventions' own values.
    np.testing.assert_array_equal(x.ndcg_start, evaluate(doc, a).ndcg)
    np.testing.assert_array_equal(x.ndcg_end, evaluate(doc, b).ndcg)


def test_consensus_step_regrades_from_the_annotators() -> None:
    # Three annotators; x: 3, 0, 0 (mean 1, majority 0); y: 1, 1, 2 (mean 4/3,
    # majority 1); z: 2, 2, 2. The document's grades are the means.
    ratings = np.array([[3.0, 0.0, 0.0], [1.0, 1.0, 2.0], [2.0, 2.0, 2.0]])
    doc = doc_of([("q", "x", 3.0, 1.0), ("q", "y", 2.0, 4 / 3), ("q", "z", 1.0, 2.0)])
    doc.annotators = ["a", "b", "c"]
    doc.ratings = ratings
    a = Conventions(consensus="mean")  # type: ignore[arg-type]
    b = Conventions(consensus="majority", ties="supplied")  # type: ignore[arg-type]
    x = explain(doc, a, b)
    assert [s.field for s in x.steps] == ["consensus", "ties"]
    assert x.regraded == 2
    assert x.steps[0].label == "consensus: mean, rounding none -> majority, rounding none"
    # Mean grades 1, 4/3, 2 in that order; majority grades 0, 1, 2.
    ideal_mean = 2 + (4 / 3) / L3 + 1 / 2
    start = (1 + (4 / 3) / L3 + 2 / 2) / ideal_mean
    end = (0 + 1 / L3 + 2 / 2) / (2 + 1 / L3)
    assert x.ndcg_start[0, 0] == pytest.approx(start)
    assert x.ndcg_end[0, 0] == pytest.approx(end)
    assert x.steps[0].contribution[0, 0] == pytest.approx(end - start)
    assert "recomputed 2 grades" in x.sentence()
    assert doc.grade.tolist() == [1.0, 4 / 3, 2.0]  # the document is not changed


def test_consensus_without_kept_grades_is_named_only() -> None:
    x = explain(doc_of(ROWS), Conventions(), Conventions(consensus="median"))  # type: ignore[arg-type]
    assert x.steps == []
    assert x.not_applied == [("consensus", "mean, rounding none", "median, rounding none")]
