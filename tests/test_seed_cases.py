"""The seed's worked cases A-F (docs/conventions.md) with their exact values."""

from __future__ import annotations

import math

import numpy as np
import pytest

from core.analysis.aggregate import summarize
from core.engine.evaluation import Status, evaluate
from core.io.delimited import read_delimited
from core.io.example import load_example
from core.model.conventions import Conventions, Gain, GainRule, TieRule, ZeroIdealRule
from core.model.examples import EXAMPLE_CONVENTIONS, EXAMPLE_PATH, seed_document
from core.model.presets import matching_presets, preset
from core.reports.sentences import query_sentence

L = math.log2(3)


@pytest.fixture(scope="module")
def ev():
    return evaluate(seed_document())


def q(ev, name):
    return ev.doc.query_index(name)


@pytest.mark.parametrize("load", [load_example, lambda: read_delimited(EXAMPLE_PATH)])
def test_example_files_match_the_seed_document(load):
    a, b = load(), seed_document()
    assert a.query_ids == b.query_ids
    assert a.source_id.tolist() == b.source_id.tolist()
    assert a.score.tolist() == b.score.tolist()
    assert a.state.tolist() == b.state.tolist()
    assert np.array_equal(a.grade, b.grade, equal_nan=True)


def test_bundled_workbook_declares_the_example_conventions():
    doc = load_example()
    assert doc.conventions == EXAMPLE_CONVENTIONS
    assert doc.judgment_version == "seed-cases-v1"


def test_case_a(ev):
    i = q(ev, "case-A")
    j = ev.cutoffs.index(None)
    assert ev.dcg[i, j] == pytest.approx(1 + 3 / L, abs=1e-15)
    assert ev.idcg[i, j] == pytest.approx(3 + 1 / L, abs=1e-15)
    assert ev.ndcg[i, j] == pytest.approx((1 + 3 / L) / (3 + 1 / L), abs=1e-15)
    assert f"{ev.ndcg[i, j]:.6f}" == "0.796708"
    # ranks follow the scores; B (grade 1) first
    ranked = ev.ranked(i)
    assert ev.doc.source_id[ranked].tolist() == ["B", "A", "C"]
    assert ev.ideal_rank[ranked].tolist() == [2, 1, 3]


def test_case_b_linear_and_exponential():
    doc = seed_document()
    i = doc.query_index("case-B")
    lin = evaluate(doc, EXAMPLE_CONVENTIONS.replace(cutoffs=(None,)))
    exp_conv = EXAMPLE_CONVENTIONS.replace(cutoffs=(None,), gain=Gain(GainRule.EXPONENTIAL))
    exp = evaluate(doc, exp_conv)
    assert lin.ndcg[i, 0] == pytest.approx((3 / L + 0.5) / (3 + 1 / L), abs=1e-15)
    assert exp.ndcg[i, 0] == pytest.approx((7 / L + 0.5) / (7 + 1 / L), abs=1e-15)
    assert f"{lin.ndcg[i, 0]:.6f}" == "0.659002"
    assert f"{exp.ndcg[i, 0]:.6f}" == "0.644287"
    # raw grade and transformed gain are separate: grades unchanged, gains 7, 1, 0
    ranked = exp.ranked(i)
    assert doc.grade[ranked].tolist() == [0.0, 3.0, 1.0]
    assert exp.gain[ranked].tolist() == [0.0, 7.0, 1.0]


def test_case_c_cutoff_cuts_actual_and_ideal(ev):
    i = q(ev, "case-C")
    k1, k2, kall = (ev.cutoffs.index(k) for k in (1, 2, None))
    assert ev.dcg[i, k1] == 1.0
    assert ev.idcg[i, k1] == 3.0
    assert ev.ndcg[i, k1] == pytest.approx(1 / 3, abs=1e-15)
    assert ev.ndcg[i, k2] == pytest.approx(ev.ndcg[i, kall], abs=1e-15)
    assert ev.idcg[i, k2] == pytest.approx(3 + 1 / L, abs=1e-15)


def test_case_d_scaling_and_shifting(ev):
    a, dbl, plus = q(ev, "case-A"), q(ev, "case-D-doubled"), q(ev, "case-D-plus-one")
    j = ev.cutoffs.index(None)
    assert ev.dcg[dbl, j] == pytest.approx(2 * ev.dcg[a, j], abs=1e-14)
    assert ev.idcg[dbl, j] == pytest.approx(2 * ev.idcg[a, j], abs=1e-14)
    assert ev.ndcg[dbl, j] == pytest.approx(ev.ndcg[a, j], abs=1e-15)
    expected = (2 + 4 / L + 0.5) / (4 + 2 / L + 0.5)
    assert ev.ndcg[plus, j] == pytest.approx(expected, abs=1e-15)
    assert f"{ev.ndcg[plus, j]:.6f}" == "0.871892"


def test_case_d_doubled_grade_is_flagged_outside_the_rubric(ev):
    i = q(ev, "case-D-doubled")
    members = ev.doc.members(i)
    flagged = ev.doc.source_id[members[ev.outside_rubric[members]]].tolist()
    assert flagged == ["A"]  # grade 6 is not on the 0-3 rubric


@pytest.mark.parametrize(
    ("ties", "expected"),
    [
        (TieRule.SUPPLIED, 1.0),  # rows give X (grade 3) first
        (TieRule.AVERAGE, 2 / 3),
        (TieRule.PESSIMISTIC, 1 / 3),
        (TieRule.OPTIMISTIC, 1.0),
        (TieRule.ID_DESC, 1 / 3),  # Y > X, so Y (grade 1) first
    ],
)
def test_case_e_ties_at_k1(ties, expected):
    doc = seed_document()
    ev = evaluate(doc, EXAMPLE_CONVENTIONS.replace(cutoffs=(1,), ties=ties))
    i = doc.query_index("case-E")
    assert ev.ndcg[i, 0] == pytest.approx(expected, abs=1e-15)
    assert ev.tie_groups(i) == [(1, 2)]


def test_case_f_zero_ideal_is_undefined_not_zero(ev):
    i = q(ev, "case-F-zero")
    assert all(ev.status(i, j) is Status.UNDEFINED for j in range(len(ev.cutoffs)))
    assert all(math.isnan(v) for v in ev.ndcg[i])
    assert ev.idcg[i].tolist() == [0.0, 0.0, 0.0]
    s = summarize(ev)[0]
    assert s.excluded == {"undefined": 1, "unresolved": 1}
    assert s.included == 6
    assert "has no NDCG@1" in query_sentence(ev, i, 0)


def test_case_f_zero_ideal_zero_by_name():
    doc = seed_document()
    ev = evaluate(doc, EXAMPLE_CONVENTIONS.replace(zero_ideal=ZeroIdealRule.ZERO))
    i = doc.query_index("case-F-zero")
    assert ev.ndcg[i].tolist() == [0.0, 0.0, 0.0]
    assert ev.status(i) is Status.OK


def test_case_f_unknown_is_unresolved_with_judged_count(ev):
    i = q(ev, "case-F-unknown")
    assert ev.query_status(i) is Status.UNRESOLVED
    assert (int(ev.n_judged[i]), int(ev.n_total[i])) == (2, 3)
    assert all(math.isnan(v) for v in ev.ndcg[i])
    # the unknown grade is not 0: its gain is unknown
    b = ev.doc.members(i)[1]
    assert math.isnan(ev.gain[b])


def test_means_exclude_and_count(ev):
    j = ev.cutoffs.index(1)
    s = summarize(ev)[j]
    defined = [ev.ndcg[i, j] for i in range(ev.doc.n_queries) if ev.status(i, j) is Status.OK]
    assert s.mean == pytest.approx(sum(defined) / len(defined), abs=1e-15)
    assert s.included == len(defined) == 6


def test_result_sentence_carries_the_conventions(ev):
    i = q(ev, "case-A")
    text = query_sentence(ev, i, ev.cutoffs.index(2))
    for part in (
        "case-A", "NDCG@2 = 0.7967", "linear gain", "1 / log2(r + 1)", "k = 2",
        "ranked candidates only", "averaged over tie orders", "seed-cases-v1",
        "3 candidates in the ideal inventory",
    ):
        assert part in text


def test_conventions_presets_are_declared():
    c = preset("trec_eval")
    assert matching_presets(c) == ["trec_eval"]
    assert matching_presets(Conventions()) == []
