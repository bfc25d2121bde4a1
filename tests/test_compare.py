"""Comparing two rankings: hand-computed deltas, the randomization test against
direct enumeration, the bootstrap, tie-rule sensitivity against the engine,
what changed, and the ``compare`` command."""

from __future__ import annotations

import io
import itertools
import json
import math
import threading
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.cli.main import main
from core.analysis.compare import (
    Comparison,
    WhatChanged,
    across,
    align,
    compare,
    compare_side,
    paired_bootstrap,
    paired_randomization,
    statistics,
    subset_document,
)
from core.analysis.compare.across import (
    Across,
    align_candidates,
    contributions_at,
    gather_across,
)
from core.analysis.compare.align import (
    KeyedRows,
    Matching,
    align_queries,
    byte_partners,
    grouped_rows,
    keyed_rows,
    partners,
)
from core.analysis.compare.changes import tie_rule_ndcg, what_changed
from core.analysis.compare.comparison import LEFT_OUT
from core.analysis.compare.statistics import randomization_columns
from core.engine.evaluation import evaluate
from core.io.trec import document_from_trec
from core.model.conventions import Conventions, TieRule, Weighting
from core.model.document import Document
from core.model.ids import IdBytes
from core.model.presets import preset
from core.reports.json import compare_json
from core.reports.table import print_comparison
from tests.conftest import doc_of

L3 = math.log2(3.0)




# A ranks x (grade 0) above y (grade 1) in q1, B the other way round; q2 is the
# same in both; in q3 B demotes the relevant source.
RUN_A = [
    ("q1", "x", 2.0, 0.0), ("q1", "y", 1.0, 1.0),
    ("q2", "u", 2.0, 2.0), ("q2", "v", 1.0, 0.0),
    ("q3", "s", 2.0, 3.0), ("q3", "t", 1.0, 0.0),
    ("q4", "m", 1.0, 1.0),
]
RUN_B = [
    ("q1", "x", 1.0, 0.0), ("q1", "y", 2.0, 1.0),
    ("q2", "u", 2.0, 2.0), ("q2", "v", 1.0, 0.0),
    ("q3", "s", 1.0, 3.0), ("q3", "t", 2.0, 0.0),
    ("q5", "m", 1.0, 1.0),
]


def test_hand_computed_deltas_and_outcomes() -> None:
    conv = Conventions(cutoffs=(1, None))
    c = compare(doc_of(RUN_A), doc_of(RUN_B), conv, resamples=100)
    assert c.common == ["q1", "q2", "q3"]
    assert c.only_a == ["q4"]
    assert c.only_b == ["q5"]
    # q1 whole list: A = (1/L3) / 1, B = 1; q3: A = 1, B = (3/L3) / 3 = 1/L3.
    assert c.ndcg_a[0, 1] == pytest.approx(1 / L3, abs=1e-15)
    assert c.delta[0, 1] == pytest.approx(1 - 1 / L3, abs=1e-15)
    assert c.delta[1, 1] == 0.0
    assert c.delta[2, 1] == pytest.approx(1 / L3 - 1, abs=1e-15)
    # At k=1: q1 0 -> 1, q3 1 -> 0.
    assert c.delta[:, 0].tolist() == [1.0, 0.0, -1.0]
    rows = c.query_deltas(1)
    # q1 and q3 have the same |delta|; the stable sort keeps document order.
    assert [(r.query, r.outcome) for r in rows] == [
        ("q1", "win"), ("q3", "loss"), ("q2", "tie")
    ]
    t = c.tests[1]
    assert (t.n, t.wins, t.ties, t.losses) == (3, 1, 1, 1)
    assert t.mean_delta == pytest.approx(0.0, abs=1e-15)
    assert t.mean_a == pytest.approx((1 / L3 + 1 + 1) / 3)
    # n = 3 <= log2(100): every sign vector; |sum| of +-a +-0 +-a is >= 0 always.
    assert t.method == "exact"
    assert t.resamples == 8
    assert t.p_value == 1.0
    # Each document's own mean covers its own queries (q4 / q5 included).
    assert c.summary_a[1].included == 4
    assert c.summary_a[1].mean == pytest.approx((1 / L3 + 1 + 1 + 1) / 4)


def test_candidate_changes_with_contributions() -> None:
    conv = Conventions(cutoffs=(1, None))
    c = compare(doc_of(RUN_A), doc_of(RUN_B), conv, resamples=100)
    whole = {ch.source_id: ch for ch in c.candidate_changes("q1", 1)}
    assert whole["y"].kind == "moved"
    assert (whole["y"].rank_a, whole["y"].rank_b) == (2, 1)
    assert whole["y"].contribution_a == pytest.approx(1 / L3)
    assert whole["y"].contribution_b == 1.0
    assert whole["y"].delta == pytest.approx(1 - 1 / L3)
    assert whole["x"].kind == "moved"
    assert whole["x"].delta == 0.0  # grade 0 contributes nothing anywhere
    at1 = {ch.source_id: ch.kind for ch in c.candidate_changes("q1", 0)}
    assert at1 == {"y": "entered", "x": "left"}
    first = c.candidate_changes("q3", 0)[0]
    assert (first.source_id, first.kind, first.delta) == ("s", "left", -3.0)
    counts = c.movement_counts(0)
    assert counts["entered"].tolist() == [1, 0, 1]
    assert counts["left"].tolist() == [1, 0, 1]
    assert counts["moved"].tolist() == [0, 0, 0]
    assert c.candidate_changes("q2", 1) == []


def test_entered_from_outside_the_inventory_and_inventory_changes() -> None:
    a = doc_of([("q", "x", 3.0, 1.0), ("q", "y", 2.0, 0.0)])
    b = doc_of([("q", "z", 3.0, 2.0), ("q", "x", 2.0, 1.0)])
    c = compare(a, b, Conventions(cutoffs=(None,)), resamples=10)
    kinds = {ch.source_id: (ch.kind, ch.delta) for ch in c.candidate_changes("q")}
    assert kinds["z"] == ("entered", 2.0)
    assert kinds["y"][0] == "left"
    assert kinds["x"] == ("moved", pytest.approx(1 / L3 - 1))
    inv = c.inventory()
    assert [(i.query, i.added, i.removed) for i in inv] == [("q", ("z",), ("y",))]
    out = io.StringIO()
    print_comparison(c, out)
    assert "    q: added 1 (z), removed 1 (y)\n" in out.getvalue()
    ch = c.changes
    assert (ch.sources_added, ch.sources_removed, ch.inventory_queries) == (1, 1, 1)
    assert "candidate inventory" in ch.changed
    assert "ranking order" in ch.changed
    # one query: its count in the singular (a new user's trial read "in 1 queries")
    assert ch.details()[2:5] == [
        "candidate inventory: 1 source added and 1 removed, in 1 query",
        "grades: judgment version not declared; 0 grades differ",
        "ranking order: differs in 1 query",
    ]


def test_what_changed_counts_one_grade_and_one_weight_in_the_singular() -> None:
    a = doc_of([("q", "x", 3.0, 1.0), ("q", "y", 2.0, 0.0)], frequency={"q": 1.0})
    b = doc_of([("q", "x", 3.0, 2.0), ("q", "y", 2.0, 0.0)], frequency={"q": 2.0})
    ch = compare(a, b, Conventions(cutoffs=(None,)), resamples=10).changes
    assert ch.details()[3:] == [
        "grades: judgment version not declared; 1 grade differs in 1 query",
        "ranking order: the same in every shared query",
        "query weights: differ in 1 query",
    ]


def test_weighted_mean_delta() -> None:
    a = doc_of(RUN_A[:6], frequency={"q1": 3.0, "q2": 1.0, "q3": 1.0})
    b = doc_of(RUN_B[:6], frequency={"q1": 3.0, "q2": 1.0, "q3": 1.0})
    conv = Conventions(cutoffs=(None,), weighting=Weighting.FREQUENCY)
    t = compare(a, b, conv, resamples=10).tests[0]
    expected = (3 * (1 - 1 / L3) + 0 + (1 / L3 - 1)) / 5
    assert t.mean_delta == pytest.approx(expected, abs=1e-15)
    assert t.weighting is Weighting.FREQUENCY


def test_each_rows_shared_query_is_its_query_code_where_every_query_is_shared() -> None:
    # Two runs of one set of topics: each row's shared query is the
    # document's own query codes (no copy, 8 MB a side at 2M rows); else a
    # number among the shared queries, -1 for a query of one side only.
    a = Document.from_columns(query=["q1", "q1", "q2"], source_id=["x", "y", "x"],
                              score=[2, 1, 1])
    b = Document.from_columns(query=["q1", "q2", "q2"], source_id=["y", "x", "z"],
                              score=[2, 2, 1])
    c = Document.from_columns(query=["q2", "q3", "q1"], source_id=["x", "x", "y"],
                              score=[1, 1, 1])
    same = align_queries(a, b)
    assert same.row_common_a is a.query
    assert same.row_common_b is b.query
    some = align_queries(a, c)
    assert some.common == ["q1", "q2"]
    assert some.row_common_a is a.query  # all of A's shared, in A's order
    assert some.row_common_b.tolist() == [1, -1, 0]
    other = align_queries(c, a)  # A's queries in another order, one not shared
    assert other.common == ["q2", "q1"]
    assert other.row_common_a.tolist() == [0, -1, 1]
    assert other.row_common_b.tolist() == [1, 1, 0]


def test_undefined_and_unresolved_queries_are_not_paired() -> None:
    a = doc_of([("q", "x", 2.0, 1.0), ("z", "x", 1.0, 0.0), ("u", "x", 1.0, None)])
    b = doc_of([("q", "x", 2.0, 1.0), ("z", "x", 1.0, 0.0), ("u", "x", 1.0, 1.0)])
    c = compare(a, b, Conventions(), resamples=10)
    rows = {r.query: r for r in c.query_deltas(0)}
    assert rows["z"].outcome == "not comparable"
    assert rows["z"].status_a.value == "undefined"
    assert rows["u"].status_a.value == "unresolved"
    assert rows["u"].ndcg_b == 1.0
    assert c.tests[0].n == 1
    # z has no value in either run, u none in A only: the sentence says which
    assert c.tests[0].excluded == {"without a value in A and B": 1, "without a value in A": 1}
    assert "left out: 1 without a value in A and B, 1 without a value in A" in (
        c.tests[0].sentence())
    assert "grades" in c.changes.changed


def test_the_paired_tests_reasons_are_the_jsons_documented_keys() -> None:
    """Each query left out of the paired test is counted once, under the
    reason that says which run lacks a value: z in neither run, u in A
    only, v in B only. Those reasons are the JSON's keys (paired.excluded),
    which README.md names each (it named none)."""
    a = doc_of([("q", "x", 2.0, 1.0), ("z", "x", 1.0, 0.0), ("u", "x", 1.0, None),
                ("v", "x", 1.0, 1.0)])
    b = doc_of([("q", "x", 2.0, 1.0), ("z", "x", 1.0, 0.0), ("u", "x", 1.0, 1.0),
                ("v", "x", 1.0, None)])
    c = compare(a, b, Conventions(), resamples=10)
    assert c.tests[0].excluded == dict.fromkeys(LEFT_OUT[:3], 1)
    assert compare_json(c)["cutoffs"][0]["paired"]["excluded"] == dict.fromkeys(LEFT_OUT[:3], 1)
    readme = " ".join((Path(__file__).parents[1] / "README.md").read_text("utf-8").split())
    assert [why for why in LEFT_OUT if f"`{why}`" not in readme] == []


# -- the randomization test ---------------------------------------------------------------


def enumerate_p(values: list[float]) -> float:
    """Direct enumeration of every sign vector, written independently."""
    observed = abs(sum(values))
    hits = 0
    for signs in itertools.product((1, -1), repeat=len(values)):
        if abs(sum(s * v for s, v in zip(signs, values, strict=True))) >= observed - 1e-12:
            hits += 1
    return hits / 2 ** len(values)


@pytest.mark.parametrize(
    "values",
    [[0.1, 0.2, 0.3], [0.5, -0.1, 0.2, 0.05, -0.3], [0.3, 0.3, -0.3, 0.0, 0.1, 0.25]],
)
def test_randomization_exact_matches_direct_enumeration(values: list[float]) -> None:
    p, method, used = paired_randomization(np.array(values), resamples=1000)
    assert method == "exact"
    assert used == 2 ** len(values)
    assert p == enumerate_p(values)


def test_randomization_hand_value() -> None:
    # Deltas 0.1, 0.2, 0.3: only all-plus and all-minus reach |0.6|: p = 2/8.
    assert paired_randomization(np.array([0.1, 0.2, 0.3]))[0] == 0.25


def test_randomization_monte_carlo_close_to_enumeration() -> None:
    rng = np.random.default_rng(5)
    values = rng.normal(0.05, 0.2, 16)
    exact = enumerate_p_numpy(values)
    p, method, used = paired_randomization(values, resamples=20000, seed=3)
    assert method == "monte carlo"
    assert used == 20000
    # Standard error of the estimate is about sqrt(p(1-p)/N) <= 0.0036.
    assert abs(p - exact) < 0.015
    # Same seed, same answer; the count is (1 + hits) / (1 + N).
    assert paired_randomization(values, resamples=20000, seed=3)[0] == p
    assert round(p * 20001) == p * 20001


def enumerate_p_numpy(values: np.ndarray) -> float:
    n = values.size
    signs = 1 - 2 * ((np.arange(2**n)[:, None] >> np.arange(n)) & 1)
    sums = np.abs(signs @ values)
    return float(np.mean(sums >= abs(values.sum()) - 1e-12))


def test_randomization_blocks_keep_the_stream(monkeypatch: pytest.MonkeyPatch) -> None:
    # The sign vectors are drawn a block at a time as bytes; numpy's draws
    # of bytes drop what is left of a 32-bit draw at the end of each call,
    # so a block of a multiple of 4 vectors keeps the stream: 4 a block and
    # every vector at once give the default's p-values (250 bytes a vector,
    # the last block shorter).
    rng = np.random.default_rng(12)
    v = rng.normal(size=(1995, 2)) * 0.01
    v[:, 1] += 0.0005  # a p-value well inside (0, 1), the other near 1
    want = randomization_columns(v, 1001, 5)[0]
    assert 0.0 < want.min() < 0.5 < want.max() < 1.0
    for block in (4, 4096):
        monkeypatch.setattr(statistics, "_BLOCK", block)
        assert randomization_columns(v, 1001, 5)[0].tolist() == want.tolist()
    monkeypatch.setattr(statistics, "_BLOCK", 3)  # not a multiple of 4: another stream
    assert randomization_columns(v, 1001, 5)[0].tolist() != want.tolist()


def test_bootstrap_hand_values() -> None:
    low, high = paired_bootstrap(np.full(7, 0.25), np.ones(7), resamples=500, seed=1)
    assert (low[0], high[0]) == (0.25, 0.25)
    # Two deltas 0 and 1: a resampled mean is 0, 1/2 or 1 with chances 1/4,
    # 1/2, 1/4, so the 2.5% and 97.5% quantiles are 0 and 1.
    low, high = paired_bootstrap(np.array([0.0, 1.0]), np.ones(2), resamples=4000, seed=2)
    assert (low[0], high[0]) == (0.0, 1.0)


@pytest.mark.parametrize(("n", "resamples", "equal"), [(3001, 700, True), (1500, 1000, False)])
def test_bootstrap_blocks_keep_the_stream(n: int, resamples: int, equal: bool) -> None:
    # The draws are gathered a block of resamples at a time (43 and 87
    # rows here, the last block shorter): the interval is bit for bit the one
    # of every draw made at once, each resample's weighted deltas summed in
    # query order, as the interval has always been defined.
    rng = np.random.default_rng(11)
    d = rng.normal(size=(n, 3)) * 0.1
    w = np.ones(n) if equal else rng.random(n) + 0.5
    low, high = paired_bootstrap(d, w, resamples=resamples, seed=4, confidence=0.9)
    idx = np.random.default_rng([4, 1]).integers(0, n, size=(resamples, n))
    den = n * 1.0 if equal else np.take(w, idx).sum(axis=1)[:, None]
    wd = d * w[:, None]
    pair = wd[:, 0] + 1j * wd[:, 1]
    sums = np.take(pair, idx).sum(axis=1)
    means = np.stack([sums.real, sums.imag, np.take(wd[:, 2].copy(), idx).sum(axis=1)], 1) / den
    alpha = (1.0 - 0.9) / 2.0
    want_low, want_high = np.quantile(means, [alpha, 1.0 - alpha], axis=0)
    assert low.tolist() == want_low.tolist()
    assert high.tolist() == want_high.tolist()


# -- tie rules ----------------------------------------------------------------------------


def test_tie_sensitivity_hand_case() -> None:
    # A ties x (grade 3) and y (grade 1); B puts x first. At k=1, averaged:
    # A = (3 + 1) / 2 / 3 = 2/3, B = 1: delta +1/3. Optimistic and supplied
    # (x is the first row) make A = 1: the delta vanishes; pessimistic and
    # id-desc (y > x) make A = 1/3: the delta keeps its sign.
    a = doc_of([("e", "x", 0.5, 3.0), ("e", "y", 0.5, 1.0)])
    b = doc_of([("e", "x", 0.6, 3.0), ("e", "y", 0.5, 1.0)])
    c = compare(a, b, Conventions(cutoffs=(1,)), resamples=10)
    assert c.delta[0, 0] == pytest.approx(1 / 3)
    ts = c.ties[0]
    assert ts.rule is TieRule.AVERAGE
    assert ts.per_rule == {"supplied": 1, "pessimistic": 0, "optimistic": 1, "id-desc": 0}
    assert ts.queries == ("e",)
    assert ts.with_ties == 1


#: Source ids whose code-point order is not their length's or their first byte's.
_NAMES = ["s0", "s1", "s10", "s9", "S2", "doc-1", "doc-10", "d\u00e9", "d\u00e8z", "\u00e9", "zz",
          "a b", "a"]


@st.composite
def tied_documents(draw: st.DrawFn) -> Document:
    """Small documents with tied scores; their ids held as text or, as a TREC
    run's are, as bytes (core.model.ids.IdBytes)."""
    nq = draw(st.integers(1, 4))
    rows = []
    for q in range(nq):
        n = draw(st.integers(1, 8))
        names = draw(st.permutations(_NAMES))[:n]
        for name in names:
            score = draw(st.sampled_from([None, 0.0, 1.0, 1.0, 2.0, 3.0]))
            grade = draw(st.sampled_from([None, 0.0, 1.0, 2.0, 3.0]))
            rows.append((f"q{q}", name, score, grade))
    if draw(st.booleans()):
        return doc_of(rows)
    return Document.from_columns(
        query=[r[0] for r in rows], source_id=IdBytes.from_texts([r[1] for r in rows]),
        score=[r[2] for r in rows], grade=[r[3] for r in rows])


@given(
    doc=tied_documents(),
    rule=st.sampled_from(list(TieRule)),
    unknown=st.sampled_from(["zero", "condensed", "unresolved"]),
    ideal=st.sampled_from(["ranked", "judged"]),
    k=st.sampled_from([1, 2, 3, None]),
)
def test_tie_rule_shortcut_matches_the_engine(
    doc: Document, rule: TieRule, unknown: str, ideal: str, k: int | None
) -> None:
    conv = Conventions(cutoffs=(k,), ties=rule, unknown=unknown, ideal=ideal)  # type: ignore[arg-type]
    ev = evaluate(doc, conv)
    others = list(TieRule)
    fast = tie_rule_ndcg(ev, others)
    for other in others:
        direct = evaluate(doc, conv.replace(ties=other)).ndcg
        np.testing.assert_allclose(fast[other], direct, rtol=0, atol=1e-12)


@pytest.mark.parametrize("power", [-1000, -1060, -1074])
def test_tie_rules_of_gains_too_small_give_those_of_the_same_gains_scaled_up(power: int) -> None:
    """Grades x * 2^power give bit for bit the NDCG under every other tie
    rule of grades x, as the engine's NDCG does (core/engine/gains.py lifts
    such lists): the shortcut divided DCG by ideal DCG as they were, products
    of subnormal gains with the discounts kept a few digits (2^-1060 and
    2^-1074 failed, 4 of 9 values; 2^-1000 is in the normal range, where the
    power of two scales every step exactly)."""
    rows = [("q1", "a", 2.0, 3), ("q1", "b", 2.0, 1), ("q1", "c", 1.0, 2), ("q1", "d", 1.0, 0),
            ("q2", "a", 5.0, 1), ("q2", "b", 5.0, 2), ("q2", "c", 5.0, 20), ("q2", "d", 0.5, 7),
            ("q3", "a", 1.0, 0), ("q3", "b", 1.0, 0)]
    conv = Conventions(cutoffs=(1, 3, None), ties=TieRule.SUPPLIED)
    rules = list(TieRule)

    def tie_ndcg(scale: int) -> dict[TieRule, np.ndarray]:
        doc = Document.from_columns(query=[r[0] for r in rows], source_id=[r[1] for r in rows],
                                    score=[r[2] for r in rows],
                                    grade=[math.ldexp(r[3], scale) for r in rows])
        return tie_rule_ndcg(evaluate(doc, conv), rules)

    tiny, whole = tie_ndcg(power), tie_ndcg(0)
    for rule in rules:
        np.testing.assert_array_equal(tiny[rule], whole[rule], err_msg=rule.value)
    assert whole[TieRule.PESSIMISTIC][1, 0] == 1 / 20  # q2@1: the grade 1 first, of 20
    assert np.isnan(whole[TieRule.OPTIMISTIC][2]).all()  # q3: nothing relevant


# -- invariants ---------------------------------------------------------------------------


@given(doc=tied_documents(), seed=st.integers(0, 5))
def test_comparing_a_document_with_itself(doc: Document, seed: int) -> None:
    c = compare(doc, doc, Conventions(cutoffs=(2, None), unknown="zero"), resamples=50, seed=seed)
    defined = ~np.isnan(c.delta)
    assert np.all(c.delta[defined] == 0.0)
    for t in c.tests:
        if t.n:
            assert t.p_value == 1.0
            assert (t.ci_low, t.ci_high) == (0.0, 0.0)
            assert t.wins == t.losses == 0
    assert all(ts.count == 0 for ts in c.ties)
    assert c.changes.changed == []
    assert c.changes.sentence().startswith("Nothing differs")


@given(a=tied_documents(), b=tied_documents(), seed=st.integers(0, 3))
def test_swapping_the_runs_negates_the_deltas(a: Document, b: Document, seed: int) -> None:
    conv = Conventions(cutoffs=(1, None), unknown="zero")
    ab = compare(a, b, conv, resamples=40, seed=seed)
    ba = compare(b, a, conv, resamples=40, seed=seed)
    np.testing.assert_array_equal(ab.delta, -ba.delta)
    for x, y in zip(ab.tests, ba.tests, strict=True):
        assert x.p_value == y.p_value
        assert (x.wins, x.losses) == (y.losses, y.wins)
        if x.ci_low is not None and y.ci_high is not None:
            assert x.ci_low == pytest.approx(-y.ci_high, abs=1e-12)
    assert [t.count for t in ab.ties] == [t.count for t in ba.ties]


@given(a=tied_documents(), b=tied_documents(), rule=st.sampled_from(list(TieRule)),
       unknown=st.sampled_from(["zero", "unresolved"]))
def test_sides_given_with_their_scores_released_compare_as_the_documents(
    a: Document, b: Document, rule: TieRule, unknown: str
) -> None:
    """The command line's compare of two runs hands :func:`compare` each
    run's :func:`compare_side` and releases the documents' scores
    (:meth:`Document.release_scores`), the id-desc order
    (:meth:`Evaluation.release_order`) and what is made again
    (:meth:`Evaluation.release_remade`): both reports are those of the
    documents compared whole, bit for bit."""
    conv = Conventions(cutoffs=(1, None), ties=rule, unknown=unknown)  # type: ignore[arg-type]
    whole = compare(a, b, conv, resamples=40, seed=1)
    a2, b2 = a.subset(np.arange(len(a))), b.subset(np.arange(len(b)))
    side_a, side_b = compare_side(evaluate(a2, conv)), compare_side(evaluate(b2, conv))
    for side, doc in ((side_a, a2), (side_b, b2)):
        doc.release_scores()
        side.evaluation.release_order()  # (let go only of trec_eval's id order)
        side.evaluation.release_remade()  # (made again when read)
    released = compare(a2, b2, conv, resamples=40, seed=1, evaluation_a=side_a,
                       evaluation_b=side_b)
    assert json.dumps(compare_json(released)) == json.dumps(compare_json(whole))
    tables = []
    for c in (whole, released):
        out = io.StringIO()
        print_comparison(c, out, name_a="a", name_b="b")
        tables.append(out.getvalue())
    assert tables[0] == tables[1]
    with pytest.raises(RuntimeError, match="scores were released"):
        _ = a2.score


def test_subset_document_keeps_rows_and_results() -> None:
    doc = doc_of(RUN_A)
    sub = subset_document(doc, np.array([2, 0]))
    assert sub.query_ids == ["q3", "q1"]
    full = evaluate(doc, Conventions())
    part = evaluate(sub, Conventions())
    assert part.ndcg[:, 0].tolist() == [full.ndcg[2, 0], full.ndcg[0, 0]]


# -- what changed -------------------------------------------------------------------------


def test_only_the_order_changed() -> None:
    a = doc_of(RUN_A[:6], judgment_version="j1")
    b = doc_of(RUN_B[:6], judgment_version="j1")
    ch = compare(a, b, Conventions(), resamples=10).changes
    assert ch.changed == ["ranking order"]
    assert ch.order_queries == 2
    assert ch.sentence().startswith("Only the ranking order differs between the two documents")
    assert "grades" in ch.sentence()  # named among what stayed fixed


def test_several_changes_are_named_together() -> None:
    b_rows = [(q, s, sc, (g + 1 if q == "q2" and g is not None else g)) for q, s, sc, g in RUN_B]
    a = doc_of(RUN_A, judgment_version="j1", conventions=preset("trec_eval"))
    b = doc_of(b_rows, judgment_version="j2", conventions=preset("sklearn"))
    c = compare(a, b, Conventions(), resamples=10)
    ch = c.changes
    assert ch.changed == ["declared conventions", "query set", "grades", "ranking order"]
    assert ch.grade_differences == 2
    fields = {f: (x, y) for f, x, y in ch.conventions}
    assert fields["ideal"] == ("judged", "ranked")
    assert fields["ties"] == ("id-desc", "average")
    assert fields["preset"] == ("trec_eval", "sklearn")
    sentence = ch.sentence()
    assert "changed together" in sentence
    assert "does not isolate one cause" in sentence
    assert any("judgment version j1 -> j2" in line for line in ch.details())


# -- the command --------------------------------------------------------------------------


def write_trec(tmp_path, rows_a, rows_b, qrels):  # type: ignore[no-untyped-def]
    def run(rows, name):  # type: ignore[no-untyped-def]
        path = tmp_path / name
        path.write_text("".join(f"{q} Q0 {s} 0 {sc} {name}\n" for q, s, sc, _ in rows))
        return str(path)

    qpath = tmp_path / "qrels.txt"
    qpath.write_text("".join(f"{q} 0 {s} {g}\n" for q, s, g in qrels))
    return run(rows_a, "a"), run(rows_b, "b"), str(qpath)


QRELS = [("q1", "x", 0), ("q1", "y", 1), ("q2", "u", 2), ("q3", "s", 3), ("q3", "t", 0),
         ("q4", "m", 1), ("q5", "m", 1)]


def test_compare_command_json(tmp_path) -> None:  # type: ignore[no-untyped-def]
    a, b, q = write_trec(tmp_path, RUN_A, RUN_B, QRELS)
    out = io.StringIO()
    code = main(["compare", a, b, "--qrels", q, "--preset", "trec_eval", "--k", "1",
                 "--k", "all", "--format", "json", "--resamples", "500", "--seed", "7"], out=out)
    assert code == 0
    data = json.loads(out.getvalue())
    assert data["queries_only_in_a"] == ["q4"]
    assert data["queries_only_in_b"] == ["q5"]
    assert data["conventions"]["ties"] == "id-desc"
    whole = data["cutoffs"][1]
    # q1 and q3 differ by 1 - 1/log2 3 each way; q3's, worked as trec_eval
    # works it (1 - (3/log2 3)/3), is an ulp larger, so it comes first.
    assert [x["query"] for x in whole["queries"]][:2] == ["q3", "q1"]
    first = whole["queries"][1]
    assert first["delta"] == pytest.approx(1 - 1 / L3)
    assert first["largest_changes"][0]["source_id"] == "y"
    paired = whole["paired"]
    assert paired["randomization"]["method"] == "exact"
    assert paired["randomization"]["seed"] == 7
    assert paired["bootstrap"]["resamples"] == 500
    assert paired["queries"] == 3
    assert "candidate inventory" not in data["what_changed"]["changed"]
    assert data["what_changed"]["inventory"] == []


def test_compare_command_table(tmp_path) -> None:  # type: ignore[no-untyped-def]
    a, b, q = write_trec(tmp_path, RUN_A, RUN_B, QRELS)
    out = io.StringIO()
    assert main(["compare", a, b, "--qrels", q, "--k", "1", "--unjudged", "zero"], out=out) == 0
    text = out.getvalue()
    assert "Conventions (applied to both)" in text
    assert "unknown grades count as 0" in text
    assert "NDCG@1 per query" in text
    assert "paired randomization test" in text
    assert "bootstrap percentile interval" in text
    assert "What changed:" in text
    assert "1 only in A (q4)" in text


def test_compare_command_bad_input(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    a, b, q = write_trec(tmp_path, RUN_A, RUN_B, QRELS)
    assert main(["compare", a, str(tmp_path / "missing.txt"), "--qrels", q]) == 2
    assert "missing.txt: no such file" in capsys.readouterr().err
    bad = tmp_path / "bad.txt"
    bad.write_text("q1 Q0 x 1 high a\n")
    assert main(["compare", a, str(bad), "--qrels", q]) == 2
    err = capsys.readouterr().err
    assert "bad.txt, line 1" in err
    assert "Traceback" not in err
    assert main(["compare", a, b, "--qrels", q, "--resamples", "0"]) == 2
    assert "--resamples must be at least 1" in capsys.readouterr().err
    other = tmp_path / "other.txt"
    other.write_text("q9 0 x 1\n")
    assert main(["compare", a, b, "--qrels", str(other)]) == 2
    assert "other.txt: no query of the run" in capsys.readouterr().err
    c = tmp_path / "c.txt"
    c.write_text("q5 Q0 m 1 1.0 c\n")
    assert main(["compare", a, str(c), "--qrels", q]) == 2
    assert "share no query" in capsys.readouterr().err


def test_compare_command_worksheets(tmp_path) -> None:  # type: ignore[no-untyped-def]
    def sheet(rows, name):  # type: ignore[no-untyped-def]
        path = tmp_path / name
        lines = ["query,source_id,score,grade"] + [
            f"{q},{s},{sc},{'' if g is None else g}" for q, s, sc, g in rows
        ]
        path.write_text("\n".join(lines) + "\n")
        return str(path)

    out = io.StringIO()
    code = main(["compare", sheet(RUN_A, "a.csv"), sheet(RUN_B, "b.csv"), "--format", "json",
                 "--resamples", "100"], out=out)
    assert code == 0
    data = json.loads(out.getvalue())
    q1 = next(q for q in data["cutoffs"][0]["queries"] if q["query"] == "q1")
    assert q1["delta"] == pytest.approx(1 - 1 / L3)
    assert data["conventions"]["unknown"] == "unresolved"


@given(a=tied_documents(), b=tied_documents(), k=st.sampled_from([1, 2, 3, None]),
       ties=st.sampled_from(list(TieRule)))
def test_candidate_changes_add_up_to_the_dcg_difference(
    a: Document, b: Document, k: int | None, ties: TieRule
) -> None:
    conv = Conventions(cutoffs=(k,), unknown="zero", ties=ties)  # type: ignore[arg-type]
    c = compare(a, b, conv, resamples=10)
    # Every query's at once (the JSON report's) as one query's at a time.
    every, two = c.largest_changes(0, len(a) + len(b)), c.largest_changes(0, 2)
    assert len(every) == len(two) == len(c.common)
    for i, q in enumerate(c.common):
        changes = c.candidate_changes(q)
        assert every[i] == changes
        assert two[i] == changes[:2]
        total = sum(ch.delta for ch in changes)
        expected = c.ev_b.dcg[c.qb[i], 0] - c.ev_a.dcg[c.qa[i], 0]
        assert total == pytest.approx(expected, abs=1e-12)
        deltas = [abs(ch.delta) for ch in changes]
        assert deltas == sorted(deltas, reverse=True)
        assert c.candidate_changes(q, 0, limit=2) == changes[:2]
        counts = c.movement_counts(0)
        for kind in ("moved", "regraded", "entered", "left"):
            assert counts[kind][i] == sum(ch.kind == kind for ch in changes)


def test_changes_of_every_query_in_blocks_as_one_at_a_time(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Blocks of one and two queries (the block's edges inside the shared
    queries, q4 and q5 in one side only) give each query's own changes, and
    the inventory decoded in one call each query's own sources."""
    import core.analysis.compare.comparison as comparison

    a = doc_of([*RUN_A, ("q3", "w", 0.5, 1.0), ("q2", "n", 0.5, 0.0)])
    b = doc_of([*RUN_B, ("q1", "z", 3.0, 2.0), ("q2", "o", 3.0, 1.0)])
    c = compare(a, b, Conventions(cutoffs=(1, None)), resamples=10)
    for block in (1, 2, 256):
        monkeypatch.setattr(comparison, "_CHANGES_BLOCK", block)
        for j in (0, 1):
            assert c.largest_changes(j, 1) == [c.candidate_changes(q, j, 1) for q in c.common]
            assert c.largest_changes(j, 9) == [c.candidate_changes(q, j) for q in c.common]
    assert [(q.query, q.added, q.removed) for q in c.inventory()] == [
        ("q1", ("z",), ()), ("q2", ("o",), ("n",)), ("q3", (), ("w",))]
    assert [q.query for q in c.inventory(limit=2)] == ["q1", "q2"]
    whole = c.largest_changes(1, 9)
    # q1 at k = all: B's new z entered at rank 1 (contribution 2), x moved from
    # rank 1 to 3 (grade 0: 0 both ways), y kept rank 2 and its grade (no change).
    assert [(ch.source_id, ch.kind, ch.rank_a, ch.rank_b, ch.delta) for ch in whole[0]] == [
        ("z", "entered", None, 1, 2.0), ("x", "moved", 1, 3, 0.0)]


@given(a=tied_documents(), data=st.data(), ties=st.sampled_from(list(TieRule)),
       unknown=st.sampled_from(["zero", "condensed"]))
def test_what_changed_counts_match_the_lists_query_by_query(
    a: Document, data: st.DataObject, ties: TieRule, unknown: str
) -> None:
    # B is A with some scores and grades redrawn (so many queries keep their
    # order); the counts are checked against each query's ranked source ids
    # and each shared source's grade.
    rows = []
    for i in range(len(a)):
        score, grade = a.score[i], a.grade[i]
        if data.draw(st.booleans()):
            score = data.draw(st.sampled_from([np.nan, 0.0, 1.0, 2.0]))
        if data.draw(st.integers(0, 3)) == 0:
            grade = data.draw(st.sampled_from([np.nan, 0.0, 3.0]))
        rows.append((a.query_ids[int(a.query[i])], str(a.source_id[i]),
                     None if np.isnan(score) else float(score),
                     None if np.isnan(grade) else float(grade)))
    b = doc_of(rows)
    c = compare(a, b, Conventions(ties=ties, unknown=unknown), resamples=10)  # type: ignore[arg-type]
    order = grades = differences = 0
    for i in range(len(c.common)):
        ranked_a = [str(s) for s in a.source_id[c.ev_a.ranked(int(c.qa[i]))]]
        ranked_b = [str(s) for s in b.source_id[c.ev_b.ranked(int(c.qb[i]))]]
        order += ranked_a != ranked_b
        graded_a = {str(a.source_id[r]): (a.state[r], a.grade[r]) for r in a.members(int(c.qa[i]))}
        graded_b = {str(b.source_id[r]): (b.state[r], b.grade[r]) for r in b.members(int(c.qb[i]))}
        here = sum(
            graded_a[s][0] != graded_b[s][0]
            or (graded_a[s][0] == 0 and graded_a[s][1] != graded_b[s][1])
            for s in graded_a.keys() & graded_b.keys()
        )
        differences += here
        grades += here > 0
    assert c.changes.order_queries == order
    assert c.changes.grade_differences == differences
    assert c.changes.grade_difference_queries == grades


@given(keys_a=st.lists(st.integers(-1, 40)), keys_b=st.lists(st.integers(-1, 40)))
def test_partners_by_table_and_by_sorting_match_a_dictionary(
    keys_a: list[int], keys_b: list[int]
) -> None:
    # Keys are unique within a side; -1 (no key) may repeat and never matches.
    ka = np.array([k for i, k in enumerate(keys_a) if k < 0 or k not in keys_a[:i]], dtype=np.int64)
    kb = np.array([k for i, k in enumerate(keys_b) if k < 0 or k not in keys_b[:i]], dtype=np.int64)
    row_b = {int(k): r for r, k in enumerate(kb) if k >= 0}
    want_a = [row_b.get(int(k), -1) if k >= 0 else -1 for k in ka]
    want_b = [-1] * kb.size
    for r, p in enumerate(want_a):
        if p >= 0:
            want_b[p] = r
    for size in (41, 10**9):  # a table of every key, then sorted keys
        out_a, out_b = partners(ka, kb, size)
        assert out_a.tolist() == want_a
        assert out_b.tolist() == want_b


def test_weighted_randomization_matches_enumeration() -> None:
    # Frequency-weighted: the statistic is sum(w * d) / sum(w); flipping a
    # query's sign flips w * d. Enumerated directly over the four queries.
    rows_a = [(f"q{i}", "x", 2.0, 1.0) for i in range(4)] + [
        (f"q{i}", "y", 1.0, float(i)) for i in range(4)
    ]
    rows_b = [(f"q{i}", "x", 1.0, 1.0) for i in range(4)] + [
        (f"q{i}", "y", 2.0, float(i)) for i in range(4)
    ]
    freq = {"q0": 1.0, "q1": 4.0, "q2": 2.0, "q3": 0.5}
    conv = Conventions(cutoffs=(None,), weighting=Weighting.FREQUENCY)
    c = compare(doc_of(rows_a, frequency=freq), doc_of(rows_b, frequency=freq), conv,
                resamples=16)
    t = c.tests[0]
    rows = [i for i in range(4) if not np.isnan(c.delta[i, 0])]
    w = [freq[c.common[i]] for i in rows]
    d = [float(c.delta[i, 0]) for i in rows]
    assert t.n == len(rows) == 4
    assert t.method == "exact"
    assert t.p_value == enumerate_p([wi * di for wi, di in zip(w, d, strict=True)])
    assert t.mean_delta == pytest.approx(np.dot(w, d) / sum(w))


def test_changes_and_inventory_of_runs_read_as_bytes(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # Two TREC runs keep their ids as bytes; the changes and the inventory
    # decode only the rows they name, and say what the decoded ids say.
    rows_a = [("q1", "é-x", 3.0, 0), ("q1", "y", 2.0, 0), ("q1", "only-a", 1.0, 0)]
    rows_b = [("q1", "y", 3.0, 0), ("q1", "é-x", 2.0, 0), ("q1", "only-b", 1.0, 0)]
    a, b, q = write_trec(tmp_path, rows_a, rows_b, [("q1", "é-x", 1), ("q1", "y", 2)])
    docs = [document_from_trec(a, q), document_from_trec(b, q)]
    assert all(d.source_bytes() is not None for d in docs)
    c = compare(*docs, Conventions(cutoffs=(None,)), resamples=10)
    changes = [(ch.source_id, ch.kind) for ch in c.candidate_changes("q1")]
    inventory = [(i.query, i.added, i.removed) for i in c.inventory()]
    assert not any(vars(Document)["source_id"].is_made(d) for d in docs)
    assert sorted(changes) == [("only-a", "left"), ("only-b", "entered"), ("y", "moved"),
                               ("é-x", "moved")]
    assert inventory == [("q1", ("only-b",), ("only-a",))]
    for d in docs:
        d.source_id  # noqa: B018 - the whole column decoded: the same answers
    assert sorted((ch.source_id, ch.kind) for ch in c.candidate_changes("q1")) == sorted(changes)
    assert [(i.query, i.added, i.removed) for i in c.inventory()] == inventory


@given(runs=st.lists(st.tuples(st.integers(-1, 5), st.integers(1, 30)), max_size=40))
def test_grouped_rows_as_a_stable_sort(runs: list[tuple[int, int]]) -> None:
    # A document's rows in runs of one shared query (-1: a query of one side
    # only), in any order, short runs (sorted) or long ones (moved whole):
    # the rows of each shared query in row order, as a stable sort puts them.
    row_common = np.array([q for q, size in runs for _ in range(size)], dtype=np.int64)
    rows, counts, start = grouped_rows(row_common, 6)
    shared = np.flatnonzero(row_common >= 0)
    want = shared[np.argsort(row_common[shared], kind="stable")]
    assert rows.dtype == np.int32
    assert rows.tolist() == want.tolist()
    assert counts.tolist() == np.bincount(row_common[shared], minlength=6).tolist()
    assert start.tolist() == (np.cumsum(counts) - counts).tolist()
    # The matching's blocks of queries take their rows one block at a time:
    # every block's are the grouped rows of its queries.
    ids = IdBytes.from_texts([f"s{i}" for i in range(row_common.size)])
    doc = Document.from_columns(query=[str(q) for q in row_common.tolist()], source_id=ids,
                                score=[1.0] * row_common.size, grade=[0] * row_common.size)
    keyed = keyed_rows(doc, row_common, 6)
    assert keyed is not None
    assert (keyed.count.tolist(), keyed.start.tolist()) == (counts.tolist(), start.tolist())
    for lo, hi in itertools.combinations(range(7), 2):
        want_block = rows[start[lo]:start[lo] + counts[lo:hi].sum()]
        assert keyed.block_rows(lo, hi).tolist() == want_block.tolist()


@pytest.mark.parametrize("given_as", ["path", "Run"])
def test_the_matching_works_out_the_joined_ids_keys(tmp_path, given_as: str) -> None:  # type: ignore[no-untyped-def]
    # A run joined with its qrels (run rows, q9 unjudged and left out, then
    # the judged rows it did not retrieve) keeps no keys of its ids: the
    # matching works each block's out from the ids' bytes and finds the
    # partners a dictionary of the ids finds.
    from core.io.trec import Run

    rows_a = [("q1", "é-x", 3.0, 0), ("q9", "n", 2.0, 0), ("q1", "y-long-identifier-01", 2.0, 0),
              ("q2", "z", 1.0, 0)]
    rows_b = [("q1", "y-long-identifier-01", 3.0, 0), ("q2", "z", 2.0, 0)]
    qrels = [("q1", "é-x", 1), ("q1", "w", 2), ("q2", "z", 1), ("q2", "only-judged", 3)]
    a, b, q = write_trec(tmp_path, rows_a, rows_b, qrels)
    docs = [document_from_trec(p if given_as == "path" else Run(p), q) for p in (a, b)]
    ids = docs[0].source_bytes()
    assert ids is not None
    assert ids.texts() == ["é-x", "y-long-identifier-01", "z", "w", "only-judged"]
    queries = align_queries(*docs)
    keyed = [keyed_rows(d, r, len(queries.common))
             for d, r in ((docs[0], queries.row_common_a), (docs[1], queries.row_common_b))]
    found = byte_partners(*keyed)
    assert found is not None
    assert (found[0].tolist(), found[1].tolist()) == _dictionary_partners(*docs)
    assert (found[0].tolist(), found[1].tolist()) == ([2, 0, 1, 3, 4], [1, 2, 0, 3, 4])


def test_the_two_runs_of_a_comparison_are_joined_one_at_a_time(  # type: ignore[no-untyped-def]
        tmp_path, monkeypatch) -> None:
    # compare's read joins its two runs one at a time, each handed to
    # `then` before the other's join: two joins side by side held both
    # runs' sorts and temporaries where compare's defaults peaked. The
    # documents are the joins' all the same.
    import core.io.pairs as pairs
    from tests.overlap import side_by_side

    events: list[str] = []
    monkeypatch.setattr(pairs, "_judged_run", side_by_side(pairs._judged_run, events, "join"))
    rows_a = [("q1", "x", 2.0, 0), ("q1", "y", 1.0, 0), ("q2", "u", 1.0, 0)]
    rows_b = [("q1", "y", 2.0, 0), ("q1", "x", 1.0, 0), ("q2", "u", 1.0, 0), ("q2", "w", 0.5, 0)]
    a, b, q = write_trec(tmp_path, rows_a, rows_b, QRELS)
    doc_a, doc_b, made_a, made_b, _left = pairs.read_judged_pair(
        a, b, q, lambda doc: events.append("then") or len(doc))
    assert events == ["join", "then", "join", "then"]
    assert (made_a, made_b) == (len(doc_a), len(doc_b)) == (3, 4)
    assert list(doc_a.source_id) == list(document_from_trec(a, q).source_id)
    assert list(doc_b.source_id) == ["y", "x", "u", "w"]


def test_a_comparisons_qrels_are_let_go_before_the_second_runs_evaluation(  # type: ignore[no-untyped-def]
        tmp_path, monkeypatch) -> None:
    # Once both runs are joined the qrels are let go (11 MiB at 400,000
    # judgments, under the second run's evaluation), and the heap's free
    # pages are handed back after each join, before its run's evaluation.
    import weakref

    import core.io.pairs as pairs

    events: list[str] = []
    read: list[weakref.ref[pairs.QrelsColumns]] = []

    class Qrels(pairs.QrelsColumns):
        def __init__(self, *a, **k) -> None:  # type: ignore[no-untyped-def]
            super().__init__(*a, **k)
            read.append(weakref.ref(self))

    judged_run = pairs._judged_run
    monkeypatch.setattr(pairs, "QrelsColumns", Qrels)
    monkeypatch.setattr(pairs, "_judged_run",
                        lambda *a, **k: events.append("join") or judged_run(*a, **k))
    monkeypatch.setattr(pairs.alloc, "hand_back", lambda: events.append("hand back"))

    def then(doc: Document) -> bool:
        events.append("then")
        return read[0]() is not None  # the qrels still held

    rows_a = [("q1", "x", 2.0, 0), ("q1", "y", 1.0, 0), ("q2", "u", 1.0, 0)]
    a, b, q = write_trec(tmp_path, rows_a, rows_a[1:], QRELS)
    doc_a, doc_b, held_a, held_b, _left = pairs.read_judged_pair(a, b, q, then)
    assert sorted([held_a, held_b]) == [False, True]  # (whichever run is read first)
    assert events == ["join", "hand back", "then", "join", "hand back", "then", "hand back"]
    assert (len(doc_a), len(doc_b)) == (3, 3)  # (q1's x judged, not retrieved by b)


def _one_run_refused(tmp_path, monkeypatch, bad: str):  # type: ignore[no-untyped-def]
    """read_judged_pair of two runs, ``bad`` ("a" or "b") with a bad line,
    the other's read started only once the bad one's error has stopped it
    (its stop set; without one, at once): the error raised, the message
    the bad run alone gives, and the runs joined and evaluated."""
    import time

    import core.io.pairs as pairs
    from core.errors import InputError
    from core.io.stop import current

    rows = [("q1", "x", 2.0, 0), ("q1", "y", 1.0, 0), ("q2", "u", 1.0, 0)]
    paths = dict(zip("ab", write_trec(tmp_path, rows, rows, QRELS)[:2], strict=True))
    q = str(tmp_path / "qrels.txt")
    Path(paths[bad]).write_text("q1 Q0 x 1 not-a-score run\n")
    with pytest.raises(InputError) as alone:
        pairs.Run(paths[bad], threads=1)
    failed = threading.Event()
    real_run, real_join = pairs.Run, pairs._judged_run

    class Run(real_run):  # type: ignore[misc, valid-type]
        def __init__(self, path, **k) -> None:  # type: ignore[no-untyped-def]
            if str(path) != paths[bad]:
                assert failed.wait(10)
                stop, until = current(), time.monotonic() + 10
                while stop is not None and not stop.is_set() and time.monotonic() < until:
                    time.sleep(0.001)
            try:
                super().__init__(path, **k)
            except InputError:
                failed.set()
                raise

    joined: list[str] = []
    evaluated: list[int] = []
    monkeypatch.setattr(pairs, "Run", Run)
    monkeypatch.setattr(pairs, "_judged_run",
                        lambda r, j: joined.append(str(r.path)) or real_join(r, j))
    with pytest.raises(InputError) as raised:
        pairs.read_judged_pair(paths["a"], paths["b"], q, lambda doc: evaluated.append(len(doc)))
    return str(raised.value), str(alone.value), joined, evaluated


@pytest.mark.parametrize("bad", ["a", "b"])
def test_a_bad_line_in_one_run_stops_the_others_join_and_evaluation(  # type: ignore[no-untyped-def]
        tmp_path, monkeypatch, bad) -> None:
    # compare's error in one run was raised only once the other run had been
    # read, joined and evaluated (the pool waited for it on exit: ~1 s at 2M
    # rows); the other's read is stopped now (core.io.stop), the same message.
    message, alone, joined, evaluated = _one_run_refused(tmp_path, monkeypatch, bad)
    assert message == alone
    assert "not-a-score" in message
    assert joined == []
    assert evaluated == []


def test_a_pair_read_under_a_stop_is_still_stopped_by_it(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # The lanes' own stop (an error in one run stops the other) does not hide
    # the reading thread's (a task's Cancel): both runs' reads end at it.
    import core.io.pairs as pairs
    from core.io.stop import Stop, Stopped, stoppable

    rows = [("q1", "x", 2.0, 0), ("q1", "y", 1.0, 0), ("q2", "u", 1.0, 0)]
    a, b, q = write_trec(tmp_path, rows, rows, QRELS)
    outer = Stop()
    outer.set()
    evaluated: list[int] = []
    with stoppable(outer), pytest.raises(Stopped):
        pairs.read_judged_pair(a, b, q, lambda doc: evaluated.append(len(doc)))
    assert evaluated == []


def test_a_run_spent_by_its_join_becomes_the_document(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # compare's read hands each Run it made to its join and lets go of it:
    # the run's scores, ids and keys become the document's (not copied beside
    # them: ~50 MB a side at 2M rows, every row kept); the document is the one
    # read from the path, every column alike, and a Run not spent keeps its
    # own.
    from core.io.pairs import _judged_run
    from core.io.trec import QrelsColumns, Run

    rows_a = [("q1", "é-x", 3.0, 0), ("q1", "y", 2.0, 0), ("q2", "z", 1.0, 0),
              ("q2", "v", 1.0, 0), ("q2", "n", 0.5, 0)]
    qrels = [("q1", "é-x", 1), ("q1", "w", 2), ("q2", "z", 1), ("q2", "only-judged", 3)]
    a, _b, q = write_trec(tmp_path, rows_a, rows_a[:1], qrels)
    want = document_from_trec(a, q)
    kept = Run(a, threads=1)
    doc_kept = document_from_trec(kept, QrelsColumns(q))
    spent = Run(a, threads=1)
    doc = _judged_run(spent, QrelsColumns(q))
    assert spent.score.size == 0
    assert kept.score.size == 5
    for got in (doc, doc_kept):
        assert got.query.tolist() == want.query.tolist()
        assert np.array_equal(got.score, want.score, equal_nan=True)
        assert np.array_equal(got.grade, want.grade, equal_nan=True)
        assert list(got.source_id) == list(want.source_id)
    assert len(doc) == 7
    assert doc.queries_left_out == want.queries_left_out


def _dictionary_partners(a: Document, b: Document) -> tuple[list[int], list[int]]:
    """Each row's partner found with a dictionary of (query id, source id)."""
    row_b = {(b.query_ids[int(q)], s): r for r, (q, s) in enumerate(zip(b.query, b.source_id,
                                                                        strict=True))}
    want_a = [row_b.get((a.query_ids[int(q)], s), -1) for q, s in zip(a.query, a.source_id,
                                                                      strict=True)]
    want_b = [-1] * len(b)
    for r, p in enumerate(want_a):
        if p >= 0:
            want_b[p] = r
    return want_a, want_b


def test_runs_matched_by_their_id_bytes_as_by_a_dictionary(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # Runs of several queries (one in A only, one in B only), ids shared or
    # not, some not ASCII, judged-not-retrieved rows appended: the grid of
    # keys finds every partner a dictionary finds. When keys clash (every key
    # made equal), it declines and the ids are numbered instead, same partners.
    rng = np.random.default_rng(3)
    pool = ["x", "é", "y-long-identifier-0123456789", "z", "w", "ü-2", "v", "t"]

    def rows(queries: list[str]) -> list[tuple[str, str, float, int]]:
        return [(q, s, float(rng.integers(0, 5)), 0) for q in queries
                for s in rng.choice(pool, size=int(rng.integers(1, 7)), replace=False)]

    a_rows, b_rows = rows(["q1", "q2", "q3", "qa"]), rows(["q3", "q2", "q1", "qb"])
    qrels = [(q, s, int(rng.integers(0, 4))) for q in ("q1", "q2", "q3", "qa", "qb")
             for s in pool[:4]]
    a, b, q = write_trec(tmp_path, a_rows, b_rows, qrels)
    doc_a, doc_b = document_from_trec(a, q), document_from_trec(b, q)
    queries = align_queries(doc_a, doc_b)
    want_a, want_b = _dictionary_partners(doc_a, doc_b)
    n = len(queries.common)

    def keyed() -> list[KeyedRows | None]:
        return [keyed_rows(doc_a, queries.row_common_a, n),
                keyed_rows(doc_b, queries.row_common_b, n)]

    found = byte_partners(*keyed())
    assert found is not None
    assert found[0].tolist() == want_a
    assert found[1].tolist() == want_b
    assert sum(p >= 0 for p in want_a) > 5  # the case matches something
    # Blocks of one query each (a grid of one cell), shared by two threads
    # as compare's lanes share them: the same partners.
    monkeypatch.setattr(align, "_CELLS", 1)
    matching = Matching.of(*keyed())
    assert matching is not None
    helper = threading.Thread(target=matching.work)
    helper.start()
    shared = matching.result()
    helper.join()
    assert shared is not None
    assert (shared[0].tolist(), shared[1].tolist()) == (want_a, want_b)
    assert matching._taken == len(queries.common)  # one block a query, each taken once
    # compare()'s lanes split the gathering and what changed (B's values at
    # A's rows and the order there, A's at B's and the rest here): the same
    # as one thread's, the ids matched by bytes (here) or numbered (below).
    serial = _serial_across_and_changes(compare(doc_a, doc_b))
    assert serial[1].order_queries > 0
    assert serial[1].inventory_queries > 0
    monkeypatch.setattr(IdBytes, "keys", lambda self, rows=None: np.zeros(
        len(self) if rows is None else rows.size, dtype=np.uint64))
    assert byte_partners(*keyed()) is None
    ev_a, ev_b = evaluate(doc_a), evaluate(doc_b)
    pa, pb, _ = align_candidates(ev_a, ev_b, queries)
    assert (pa.tolist(), pb.tolist()) == (want_a, want_b)
    numbered = _serial_across_and_changes(compare(doc_a, doc_b))
    assert numbered == serial


def test_short_ids_vouched_for_by_their_keys(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # An id of up to 8 bytes is its key's one word (a bijection): a pair of
    # equal keys and lengths is the same id, so only the longer ids' bytes
    # are compared. "ab" and "ab\0" give one word and one key (a word is
    # zero-padded) but not one length: their bytes are compared, differ, and
    # the matching declines (the ids are then numbered, as on any key clash).
    compared: list[int] = []
    same = IdBytes.same

    def counted(self, rows, other, other_rows):  # type: ignore[no-untyped-def]
        compared.append(len(rows))
        return same(self, rows, other, other_rows)

    monkeypatch.setattr(IdBytes, "same", counted)

    def keyed(a: list[str], b: list[str]) -> list[KeyedRows | None]:
        docs = [Document.from_columns(query=["q"] * len(ids), source_id=IdBytes.from_texts(ids),
                                      score=list(range(len(ids), 0, -1)), grade=[1] * len(ids))
                for ids in (a, b)]
        queries = align_queries(*docs)
        return [keyed_rows(d, r, 1) for d, r in zip(docs, (queries.row_common_a,
                                                          queries.row_common_b), strict=True)]

    short, long = ["x", "ab", "12345678"], ["123456789", "y-long-identifier-01"]
    found = byte_partners(*keyed(short + long + ["only-a"], long[::-1] + short[::-1]))
    assert found is not None
    assert found[0].tolist() == [4, 3, 2, 1, 0, -1]
    assert compared == [2]  # the two longer ids' pairs alone
    compared.clear()
    assert byte_partners(*keyed(["ab"], ["ab\0"])) is None
    assert compared == [1]
    one, other = keyed(["ab"], ["ab\0"])
    assert one is not None
    assert other is not None
    assert one.ids.keys().tolist() == other.ids.keys().tolist()  # one word, one key


def _serial_across_and_changes(c: Comparison) -> tuple[list[list[int]], WhatChanged]:
    """The values gathered across and what changed, worked out again on one
    thread (what_changed of gather_across), as lists; the comparison's
    movement counts (counted a block of rows at a time as it matched) are
    those of the whole gathered columns (:func:`_whole_counts`)."""
    across = gather_across(c.ev_a, c.ev_b, c.partner_a, c.partner_b)
    again = what_changed(c.ev_a, c.ev_b, c._queries, c.partner_b, across)
    fields = ("partner", "has_b", "rank_b", "first_b", "same_gain", "first_a_at_b")
    got = [getattr(across, f).tolist() for f in fields]
    assert across.partner is c.partner_a  # the partners themselves, no clamped copy
    assert c.changes == again
    for j in range(len(c.cutoffs)):
        counts = {kind: v.tolist() for kind, v in c.movement_counts(j).items()}
        assert counts == _whole_counts(c, across, j)
    return got, c.changes


def _whole_counts(c: Comparison, across: Across, j: int) -> dict[str, list[int]]:
    """The movement counts at cutoff index ``j`` from the whole columns
    gathered across and each side's whole contributions (the oracle of the
    counts made a block of rows at a time)."""
    k, n = c.cutoffs[j], len(c.common)
    ev_a, ev_b = c.ev_a, c.ev_b

    def inside(first: np.ndarray) -> np.ndarray:
        return (first > 0) & (True if k is None else first <= k)

    def per_query(rows_q: np.ndarray, mask: np.ndarray) -> list[int]:
        return np.bincount(rows_q[mask], minlength=n).tolist()

    qa, qb = c.row_common_a, c.row_common_b
    a_in = inside(ev_a.tie_first_rank) & (qa >= 0)
    b_in = inside(across.first_b)
    both, same_rank = a_in & b_in, ev_a.rank == across.rank_b
    moved = both & ~same_rank
    if c.conventions.ties is TieRule.AVERAGE:
        x_a = ev_a.contribution_at(k)
        x_b = ev_b.contribution_at(k)[np.maximum(across.partner, 0)]
        shifted = (x_a != x_b) & ~(np.isnan(x_a) & np.isnan(x_b))
        moved |= both & same_rank & across.same_gain & shifted
    entered = inside(ev_b.tie_first_rank) & (qb >= 0) & ~inside(across.first_a_at_b)
    return {"moved": per_query(qa, moved),
            "regraded": per_query(qa, both & same_rank & ~across.same_gain),
            "entered": per_query(qb, entered), "left": per_query(qa, a_in & ~b_in)}


def test_values_gathered_across_a_few_rows_at_a_time_are_every_rows(monkeypatch):
    # B's ranks, gains and grades are gathered at A's rows a block of rows at
    # a time (across._ACROSS): blocks of 2 rows, ending mid-query and
    # mid-partner, give what one block of every row gives, and the hand count.
    nan = math.nan
    doc_a = doc_of([("q", "s1", 6, 3), ("q", "s2", 5, 2), ("q", "s3", 4, nan),
                    ("q", "s4", 3, 1), ("q", "s5", 2, 0), ("q", "s6", 1, 2),
                    ("r", "s1", 2, 1), ("r", "s2", 1, 0)])
    doc_b = doc_of([("q", "s4", 9, 1), ("q", "s2", 8, 1), ("q", "s7", 7, 2),
                    ("q", "s1", 6, 3), ("q", "s3", 5, nan),
                    ("r", "s2", 2, 1), ("r", "s1", 1, 1)])
    whole = compare(doc_a, doc_b, resamples=10)
    monkeypatch.setattr(across, "_ACROSS", 2)
    assert [(s.start, s.stop) for s in across.across_blocks(5)] == [(0, 2), (2, 4), (4, 5)]
    blocks = compare(doc_a, doc_b, resamples=10)
    fields = ("partner", "has_b", "rank_b", "first_b", "same_gain", "first_a_at_b")
    gathered = gather_across(blocks.ev_a, blocks.ev_b, blocks.partner_a, blocks.partner_b)
    got = {f: getattr(gathered, f).tolist() for f in fields}
    assert got == {f: getattr(gather_across(whole.ev_a, whole.ev_b, whole.partner_a,
                                            whole.partner_b), f).tolist() for f in fields}
    for j in range(len(whole.cutoffs)):
        counts = {kind: v.tolist() for kind, v in blocks.movement_counts(j).items()}
        assert counts == {kind: v.tolist() for kind, v in whole.movement_counts(j).items()}
        assert counts == _whole_counts(blocks, gathered, j)
    # A's rows s1..s6 of q, then s1, s2 of r: B ranks s1 4th, s2 2nd, s3 5th,
    # s4 1st (s5, s6 not in B); in r, s1 2nd and s2 1st.
    assert got["rank_b"] == [4, 2, 5, 1, 0, 0, 2, 1]
    assert got["partner"] == [3, 1, 4, 0, -1, -1, 6, 5]  # (read as row 0 where -1)
    assert got["same_gain"] == [True, False, True, True, False, False, True, False]
    assert got["first_a_at_b"] == [4, 2, 0, 1, 3, 2, 1]  # A's ranks at B's rows
    # Grades that differ: s2 of q (2 / 1), s1 and s2 of r (1 / 1 same, 0 / 1).
    assert blocks.changes == whole.changes
    assert (blocks.changes.grade_differences, blocks.changes.grade_difference_queries) == (2, 2)


def test_tie_shifted_moves_counted_a_few_rows_at_a_time(monkeypatch):
    # Averaged ties: y keeps rank 2 and gain 1, but in A it shares a tie with
    # z (contribution 1 x mean discount of ranks 2-3: 0.5655), in B it is alone
    # (1 / log2(3) = 0.6309): it moved. B's contributions are compared with
    # A's a block of rows at a time (across._ACROSS): blocks of 2 rows, ending
    # mid-query, count what one block does, and the hand count.
    a = doc_of([("q", "x", 3, 1), ("q", "y", 2, 1), ("q", "z", 2, 0),
                ("r", "u", 1, 2), ("r", "v", 1, 0)])
    b = doc_of([("q", "z", 1, 0), ("q", "y", 2, 1), ("q", "x", 3, 1),
                ("r", "v", 1, 0), ("r", "u", 1, 2)])  # B's rows in another order
    conv = Conventions(cutoffs=(None, 2), ties=TieRule.AVERAGE)
    whole = compare(a, b, conv, resamples=10)
    monkeypatch.setattr(across, "_ACROSS", 2)
    blocks = compare(a, b, conv, resamples=10)
    for j, left in ((0, [0, 0]), (1, [1, 0])):  # at k = 2, z left B's cut
        counts = {kind: v.tolist() for kind, v in blocks.movement_counts(j).items()}
        # In r, B lists v before u in their tie: each took the other's rank.
        assert counts == {"moved": [1, 2], "regraded": [0, 0], "entered": [0, 0], "left": left}
        assert counts == {kind: v.tolist() for kind, v in whole.movement_counts(j).items()}


@given(doc=tied_documents(), k=st.sampled_from([1, 2, 3, None]), data=st.data(),
       unknown=st.sampled_from(["zero", "condensed", "unresolved"]))
def test_contributions_at_some_rows_are_the_whole_columns(
    doc: Document, k: int | None, data: st.DataObject, unknown: str
) -> None:
    """The movement counts' contributions made at the rows they compare (any
    order, repeated) are the whole column's at those rows, bit for bit (NaN
    where the gain is unknown): the same discounts summed in the same order."""
    ev = evaluate(doc, Conventions(cutoffs=(k,), ties=TieRule.AVERAGE, unknown=unknown))  # type: ignore[arg-type]
    first = ev.tie_first_rank
    cut = np.flatnonzero((first > 0) & (True if k is None else first <= k))
    some = st.lists(st.sampled_from(cut.tolist()), max_size=12) if cut.size else st.just([])
    rows = np.asarray(data.draw(some), dtype=np.int64)
    whole = ev.contribution_at(k)[rows]
    got = contributions_at(ev, k, rows)
    assert got.dtype == np.float64
    np.testing.assert_array_equal(got.view(np.uint64), whole.view(np.uint64))


def test_contributions_at_a_tie_that_ends_the_last_list() -> None:
    # y and z tie at ranks 2-3, the document's last positions: y's
    # contribution is its gain 2 times the mean discount of ranks 2 and 3
    # (at k = 2 only rank 2's counts, over the group's two positions).
    doc = doc_of([("q", "x", 2.0, 1), ("q", "y", 1.0, 2), ("q", "z", 1.0, 0)])
    for k, mean in ((None, (1 / math.log2(3) + 1 / math.log2(4)) / 2),
                    (2, 1 / math.log2(3) / 2)):
        ev = evaluate(doc, Conventions(cutoffs=(k,), ties=TieRule.AVERAGE))
        got = contributions_at(ev, k, np.array([1, 0, 1]))
        assert got.tolist() == [2 * mean, 1.0, 2 * mean]


def test_the_table_shows_each_cutoffs_own_movement_counts():
    # The counts are worked out on a second thread while the lines before
    # them are written: each cutoff's rows show its own. B swaps A's first
    # two: at k = 1, y entered the cut and x left it; at k = all both moved.
    a = doc_of([("q", "x", 3, 1), ("q", "y", 2, 1), ("q", "z", 1, 1)])
    b = doc_of([("q", "y", 3, 1), ("q", "x", 2, 1), ("q", "z", 1, 1)])
    c = compare(a, b, Conventions(cutoffs=(1, None)), resamples=10)
    out = io.StringIO()
    print_comparison(c, out)
    rows = [line.split() for line in out.getvalue().splitlines() if line.startswith("q ")]
    assert [r[-3:] for r in rows] == [["0", "1", "1"], ["2", "0", "0"]]  # moved entered left
