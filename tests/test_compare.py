"""Comparing two rankings: hand-computed deltas, the randomization test against
direct enumeration, the bootstrap, tie-rule sensitivity against the engine,
the invariants of a comparison, and the ``compare`` command. What changed
between the two is tests/test_compare_changes.py's; how their rows are
matched and their files read and joined tests/test_compare_join.py's."""

from __future__ import annotations

import io
import itertools
import json
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.cli.main import main
from core.analysis.compare import (
    compare,
    compare_side,
    paired_bootstrap,
    paired_randomization,
    statistics,
    subset_document,
)
from core.analysis.compare.changes import tie_rule_ndcg
from core.analysis.compare.comparison import LEFT_OUT
from core.analysis.compare.statistics import randomization_columns
from core.engine.evaluation import evaluate
from core.model.conventions import Conventions, TieRule, Weighting
from core.model.document import Document
from core.reports.json import compare_json
from core.reports.table import print_comparison
from tests.compare_cases import (
    L3,
    QRELS,
    RUN_A,
    RUN_B,
    tied_documents,
    write_trec,
)
from tests.conftest import doc_of


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


def test_weighted_mean_delta() -> None:
    a = doc_of(RUN_A[:6], frequency={"q1": 3.0, "q2": 1.0, "q3": 1.0})
    b = doc_of(RUN_B[:6], frequency={"q1": 3.0, "q2": 1.0, "q3": 1.0})
    conv = Conventions(cutoffs=(None,), weighting=Weighting.FREQUENCY)
    t = compare(a, b, conv, resamples=10).tests[0]
    expected = (3 * (1 - 1 / L3) + 0 + (1 / L3 - 1)) / 5
    assert t.mean_delta == pytest.approx(expected, abs=1e-15)
    assert t.weighting is Weighting.FREQUENCY


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


# -- the command --------------------------------------------------------------------------


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
