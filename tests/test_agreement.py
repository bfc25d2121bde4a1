"""Annotator agreement: published worked examples, hand values, scikit-learn."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.metrics import cohen_kappa_score

from core.analysis.agreement import (
    AlphaMetric,
    KappaWeights,
    agreement,
    cohen_kappa,
    disagreements,
    krippendorff_alpha,
    pairwise_kappa,
)
from core.model.document import Document

nan = np.nan

# Krippendorff, K. (2011). "Computing Krippendorff's Alpha-Reliability".
# Annenberg School for Communication, University of Pennsylvania (repository
# asc_papers/43), section C: four observers A-D code twelve units, with
# missing values (unit 12 has one value and is not pairable). Published:
# alpha nominal = .743, ordinal = .815, interval = .849, ratio = .797, from
# n = 40 pairable values. Rows are observers here, as printed in the paper.
KRIPPENDORFF_2011 = np.array([
    [1, 2, 3, 3, 2, 1, 4, 1, 2, nan, nan, nan],
    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, nan, 3],
    [nan, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, nan],
    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, nan],
])


@pytest.mark.parametrize(
    ("metric", "published"),
    [("nominal", 0.743), ("ordinal", 0.815), ("interval", 0.849), ("ratio", 0.797)],
)
def test_krippendorff_published_example(metric: str, published: float) -> None:
    a = krippendorff_alpha(KRIPPENDORFF_2011.T, metric)
    assert a.alpha is not None
    assert round(a.alpha, 3) == published
    assert (a.units, a.values) == (11, 40)


def test_krippendorff_nominal_exact_fraction() -> None:
    # The same example by hand: D_o = 8/40 (observed off-diagonal
    # coincidences sum to 8), and the nominal alpha is 1 - (n - 1) * 8 /
    # (n^2 - sum n_c^2) with margins n_c = 9, 13, 10, 5, 3 (n = 40).
    a = krippendorff_alpha(KRIPPENDORFF_2011.T, "nominal")
    expected = 1 - 39 * 8 / (40**2 - (9**2 + 13**2 + 10**2 + 5**2 + 3**2))
    assert a.alpha == pytest.approx(expected, abs=1e-12)
    assert a.observed_disagreement == pytest.approx(8 / 40)


# Wikipedia, "Cohen's kappa", worked example: 50 grant proposals read by A and
# B; both yes 20, A yes / B no 5, A no / B yes 10, both no 15: p_o = 0.7,
# p_e = 0.5, kappa = 0.4.
WIKI_A = [1] * 20 + [1] * 5 + [0] * 10 + [0] * 15
WIKI_B = [1] * 20 + [0] * 5 + [1] * 10 + [0] * 15


def test_cohen_kappa_textbook_example() -> None:
    k = cohen_kappa(WIKI_A, WIKI_B, names=("A", "B"))
    assert k.kappa == pytest.approx(0.4, abs=1e-12)
    assert k.observed == pytest.approx(0.7)
    assert k.expected == pytest.approx(0.5)
    assert k.items == 50


def test_weighted_kappa_by_hand() -> None:
    # Grades 0..2. Table (rows A, columns B): (0,0) 1, (1,1) 1, (1,2) 1, (2,2) 1,
    # each 1/4. Margins a = (1/4, 1/2, 1/4), b = (1/4, 1/4, 1/2).
    # Quadratic weights w01 = w12 = 1/4, w02 = 1: observed disagreement
    # w12 * 1/4 = 1/16; chance sum w_ij a_i b_j = 1/4 (1/16 + 1/8) + (1/8 + 1/16)
    # + 1/4 (1/4 + 1/16) = 20/64 = 5/16; kappa = 1 - (1/16) / (5/16) = 0.8.
    k = cohen_kappa([0, 1, 1, 2], [0, 1, 2, 2], "quadratic")
    assert k.kappa == pytest.approx(0.8, abs=1e-12)
    assert k.weights is KappaWeights.QUADRATIC
    # Linear weights w01 = w12 = 1/2, w02 = 1: observed 1/8, chance
    # 1/2 * 3/16 + 3/16 + 1/2 * 5/16 = 7/16: kappa = 1 - 2/7.
    assert cohen_kappa([0, 1, 1, 2], [0, 1, 2, 2], "linear").kappa == pytest.approx(5 / 7)


def test_kappa_uses_only_items_both_graded() -> None:
    k = cohen_kappa([1, 0, nan, 1, 0], [1, 0, 1, nan, 1])
    assert k.items == 3
    assert k.kappa == pytest.approx(cohen_kappa_score([1, 0, 0], [1, 0, 1]))


def test_undefined_coefficients_are_none() -> None:
    assert cohen_kappa([1, 1, 1], [1, 1, 1]).kappa is None
    assert cohen_kappa([1, nan], [nan, 2]).kappa is None
    assert cohen_kappa([1, nan], [nan, 2]).items == 0
    a = krippendorff_alpha([[2, 2], [2, 2]], "interval")
    assert a.alpha is None
    assert a.units == 2
    assert krippendorff_alpha([[1, nan], [nan, 2]]).units == 0


def test_disagreement_flags() -> None:
    r = [[1, 1, nan], [0, 2, 2], [3, nan, nan], [nan, nan, nan], [2.5, 2.5, 2.5]]
    assert disagreements(r).tolist() == [False, True, False, False, False]


def test_report_from_a_document() -> None:
    doc = Document.from_columns(
        query=["q"] * 4, source_id=["a", "b", "c", "d"], score=[4, 3, 2, 1],
        grade=[1, 2, 0, 3],
    )
    doc.annotators = ["ann", "bob", "cy"]
    doc.ratings = np.array([[1, 1, 2], [2, 2, 2], [0, 0, nan], [3, 2, 3]], dtype=float)
    rep = agreement(doc, weights="quadratic")
    assert rep.annotators == ["ann", "bob", "cy"]
    assert rep.disagree.tolist() == [True, False, False, True]
    assert rep.graded.tolist() == [3, 3, 2, 3]
    assert [(k.annotator_a, k.annotator_b, k.items) for k in rep.kappas] == [
        ("ann", "bob", 4), ("ann", "cy", 3), ("bob", "cy", 3)
    ]
    first = rep.kappas[0]
    assert first.kappa == pytest.approx(
        cohen_kappa_score([1, 2, 0, 3], [1, 2, 0, 2], weights="quadratic")
    )
    assert set(rep.alphas) == {AlphaMetric.ORDINAL, AlphaMetric.INTERVAL, AlphaMetric.NOMINAL}
    lines = rep.sentences()
    assert lines[0] == "2 of 4 candidates with two or more grades have annotators who disagree."
    assert "over 4 candidates both graded" in lines[1]
    assert "with two or more grades (11 grades)" in lines[-1]


# -- invariants and scikit-learn ----------------------------------------------------------

grades = st.lists(st.sampled_from([0.0, 1.0, 2.0, 3.0]), min_size=2, max_size=30)


@given(pair=st.integers(2, 30).flatmap(
    lambda n: st.tuples(*(st.lists(st.sampled_from([0.0, 1.0, 2.0, 3.0]), min_size=n,
                                   max_size=n) for _ in range(2)))
), weights=st.sampled_from(["none", "linear", "quadratic"]))
def test_kappa_matches_scikit_learn(pair: tuple[list[float], list[float]], weights: str) -> None:
    a, b = pair
    k = cohen_kappa(a, b, weights)
    with warnings.catch_warnings(), np.errstate(divide="ignore", invalid="ignore"):
        warnings.simplefilter("ignore")  # scikit-learn warns when kappa is undefined
        ref = cohen_kappa_score(a, b, weights=None if weights == "none" else weights)
    if k.kappa is None:
        assert np.isnan(ref)
    else:
        assert k.kappa == pytest.approx(ref, abs=1e-12)
        assert -1.0 - 1e-12 <= k.kappa <= 1.0 + 1e-12
    swapped = cohen_kappa(b, a, weights).kappa
    assert swapped == k.kappa or swapped == pytest.approx(k.kappa, abs=1e-12)


@given(values=grades, metric=st.sampled_from(list(AlphaMetric)), raters=st.integers(2, 4))
def test_perfect_agreement_gives_one(values: list[float], metric: AlphaMetric, raters: int) -> None:
    r = np.repeat(np.array(values)[:, None], raters, axis=1)
    a = krippendorff_alpha(r, metric)
    if len(set(values)) > 1 and not (metric is AlphaMetric.RATIO and set(values) == {0.0}):
        assert a.alpha == pytest.approx(1.0, abs=1e-12)
    assert a.units == len(values)
    assert not disagreements(r).any()
    if len(set(values)) > 1:
        assert all(k.kappa == pytest.approx(1.0) for k in pairwise_kappa(r))


@given(
    r=st.lists(st.lists(st.sampled_from([nan, 0.0, 1.0, 2.0, 3.0]), min_size=3, max_size=3),
               min_size=1, max_size=25),
    metric=st.sampled_from(list(AlphaMetric)),
)
def test_alpha_ignores_annotator_order_and_unpairable_units(
    r: list[list[float]], metric: AlphaMetric
) -> None:
    arr = np.array(r)
    a = krippendorff_alpha(arr, metric)
    b = krippendorff_alpha(arr[:, ::-1], metric)
    extra = np.vstack([arr, [[2.0, nan, nan]]])
    c = krippendorff_alpha(extra, metric)
    for other in (b, c):
        assert (other.units, other.values) == (a.units, a.values)
        if a.alpha is None:
            assert other.alpha is None
        else:
            assert other.alpha == pytest.approx(a.alpha, abs=1e-12)
