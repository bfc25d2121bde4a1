"""Comparing many runs: two runs give the two-run compare's numbers, Holm and
Bonferroni worked by hand, the t-test and the randomization test against
ranx's ``compare``, the queries left out, and the report formats."""

from __future__ import annotations

import io
import json
import math
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from ranx import Qrels, Run
from ranx import compare as ranx_compare

from app.cli.main import main
from core.analysis.compare import compare, paired_bootstrap
from core.analysis.compare.many import RunValues, compare_runs
from core.analysis.compare.statistics import adjust_p_values, paired_t_test
from core.engine.evaluation import evaluate
from core.io.trec import document_from_trec
from core.model.conventions import Conventions, Weighting
from core.model.document import Document
from core.model.presets import preset
from core.reports.runs import write_runs
from tests.conftest import doc_of


def random_run(seed: int, queries: int = 40, candidates: int = 6, *, skip: int = -1,
               shift: float = 0.0, frequency: dict[str, float] | None = None) -> Document:
    """A run of ``queries`` x ``candidates`` with random scores and grades
    (the same grades for every seed: one qrels); query ``skip`` left out;
    query 3 has no relevant candidate (undefined)."""
    grades = np.random.default_rng(99).integers(0, 4, size=(queries, candidates))
    r = np.random.default_rng(seed)
    rows = []
    for q in range(queries):
        if q == skip:
            continue
        scores = r.random(candidates) + shift * grades[q]
        for s in range(candidates):
            rows.append((f"q{q}", f"s{s}", float(scores[s]),
                         0.0 if q == 3 else float(grades[q, s])))
    return doc_of(rows, frequency=frequency or {})


def evaluations(docs: list[Document], conv: Conventions) -> list[RunValues]:
    return [RunValues.of(evaluate(d, conv), f"run{i}") for i, d in enumerate(docs)]


@pytest.mark.parametrize("weighting", [Weighting.EQUAL, Weighting.FREQUENCY])
def test_two_runs_give_the_two_run_numbers(weighting: Weighting) -> None:
    freq = {f"q{q}": float(q % 4) for q in range(40)}  # q0, q4, ... weigh 0: left out
    a, b = random_run(1, frequency=freq), random_run(2, skip=5)
    conv = Conventions(cutoffs=(1, 3, None), weighting=weighting)
    two = compare(a, b, conv, resamples=3000, seed=11)
    many = compare_runs(evaluations([a, b], conv), resamples=3000, seed=11)
    for j in range(3):
        t, u = two.tests[j], many.tests[j][0]
        assert u.n == t.n
        assert (u.wins, u.ties, u.losses) == (t.wins, t.ties, t.losses)
        for mine, theirs in ((u.mean_a, t.mean_a), (u.mean_b, t.mean_b),
                             (u.mean_delta, t.mean_delta), (u.p_value, t.p_value),
                             (u.ci_low, t.ci_low), (u.ci_high, t.ci_high)):
            assert mine == theirs  # the same queries, the same draws, the same sums
        assert (u.method, u.sign_vectors) == (t.method, t.resamples)
        assert u.p_corrected == u.p_value  # one pair: nothing to correct
        assert sum(many.excluded(j).values()) == sum(t.excluded.values())
    assert many.missing == {"run1": ["q5"]}


def test_two_runs_on_the_command_line_match_the_two_run_report(tmp_path: Path) -> None:
    qrels, runs = write_trec_runs(tmp_path, 2)
    args = ["compare", *runs, "--qrels", qrels, "--preset", "trec_eval", "--k", "5",
            "--k", "all", "--resamples", "2000", "--seed", "3", "--format", "json"]
    out_two, out_many = io.StringIO(), io.StringIO()
    assert main(args, out=out_two) == 0
    assert main([*args, "--test", "t-test"], out=out_many) == 0  # the report of many runs
    two, many = json.loads(out_two.getvalue()), json.loads(out_many.getvalue())
    for c2, cm in zip(two["cutoffs"], many["cutoffs"], strict=True):
        p2, pm = c2["paired"], cm["pairs"][0]
        assert pm["queries"] == p2["queries"]
        assert pm["mean_delta"] == p2["mean_delta"]
        assert pm["randomization"]["p_value"] == p2["randomization"]["p_value"]
        assert pm["bootstrap"]["low"] == p2["bootstrap"]["low"]
        assert pm["bootstrap"]["high"] == p2["bootstrap"]["high"]
        assert (pm["wins"], pm["ties"], pm["losses"]) == (p2["wins"], p2["ties"], p2["losses"])


def test_holm_and_bonferroni_by_hand() -> None:
    p = np.array([0.01, 0.04, 0.03, 0.005, np.nan])
    # Four tests (the NaN is no test). Holm: sorted 0.005, 0.01, 0.03, 0.04
    # times 4, 3, 2, 1 = 0.02, 0.03, 0.06, 0.04; each at least the one
    # before: 0.02, 0.03, 0.06, 0.06.
    holm = adjust_p_values(p, "holm")
    assert holm[:4] == pytest.approx([0.03, 0.06, 0.06, 0.02], abs=1e-15)
    assert math.isnan(holm[4])
    # Bonferroni: each times 4.
    bonf = adjust_p_values(p, "bonferroni")
    assert bonf[:4] == pytest.approx([0.04, 0.16, 0.12, 0.02], abs=1e-15)
    # Capped at 1; ties keep their order; none changes nothing.
    assert adjust_p_values(np.array([0.5, 0.5, 0.2]), "holm") == pytest.approx(
        [1.0, 1.0, 0.6], abs=1e-15)  # 0.2 x 3, then max(0.6, 0.5 x 2), then 0.5 x 1
    assert adjust_p_values(np.array([0.5, 0.3]), "bonferroni") == pytest.approx(
        [1.0, 0.6], abs=1e-15)
    assert adjust_p_values(p, "none")[:4].tolist() == p[:4].tolist()


@given(st.lists(st.floats(0.0, 1.0), min_size=1, max_size=30))
def test_holm_lies_between_the_raw_p_values_and_bonferroni(p: list[float]) -> None:
    raw = np.array(p)
    holm, bonf = adjust_p_values(raw, "holm"), adjust_p_values(raw, "bonferroni")
    assert np.all(raw <= holm + 1e-15)
    assert np.all(holm <= bonf + 1e-15)
    assert np.all(holm <= 1.0)
    order = np.argsort(raw, kind="stable")
    assert np.all(np.diff(holm[order]) >= -1e-15)  # the order of the raw p-values kept
    assert holm[order[0]] == bonf[order[0]]  # the smallest is Bonferroni's


def test_corrected_p_values_of_three_runs() -> None:
    conv = Conventions(cutoffs=(None,))
    docs = [random_run(1), random_run(2, shift=0.4), random_run(3, shift=0.8)]
    m = compare_runs(evaluations(docs, conv), pairs="all", resamples=2000, seed=1)
    row = m.tests[0]
    assert [(t.a, t.b) for t in row] == [("run0", "run1"), ("run0", "run2"),
                                         ("run1", "run2")]
    raw = np.array([t.p_value for t in row])
    assert [t.p_corrected for t in row] == adjust_p_values(raw, "holm").tolist()
    bonf = compare_runs(evaluations(docs, conv), pairs="all", correction="bonferroni",
                        resamples=2000, seed=1)
    assert [t.p_corrected for t in bonf.tests[0]] == np.minimum(1, raw * 3).tolist()


def test_t_test_hand_value() -> None:
    # deltas 1, 2, 3: mean 2, sd 1, t = 2 sqrt(3), df 2; p = 1 - t / sqrt(t^2 + 2)
    # (the t distribution with 2 degrees of freedom) = 1 - sqrt(12 / 14).
    assert paired_t_test(np.array([1.0, 2.0, 3.0])) == pytest.approx(
        1 - math.sqrt(12 / 14), rel=1e-13)
    assert math.isnan(paired_t_test(np.array([1.0])))
    assert paired_t_test(np.zeros(4)) == 1.0


def test_bootstrap_of_many_columns_matches_one_column_at_a_time() -> None:
    r = np.random.default_rng(4)
    d = r.normal(size=(50, 9))
    for w in (np.ones(50), r.random(50) + 0.5):
        lo, hi = paired_bootstrap(d, w, resamples=700, seed=2)
        for c in range(9):
            lo1, hi1 = paired_bootstrap(d[:, c], w, resamples=700, seed=2)
            assert lo[c] == pytest.approx(lo1[0], abs=1e-12)
            assert hi[c] == pytest.approx(hi1[0], abs=1e-12)


# -- ranx ----------------------------------------------------------------------------------


def write_trec_runs(folder: Path, n: int, queries: int = 60, candidates: int = 12,
                    ) -> tuple[str, list[str]]:
    """A qrels file and ``n`` (at most 3) runs of distinct scores (ranx
    orders ties its own way): run0 random, run1 leaning a little on the
    grades (no clear difference: p about 0.27), run2 a lot (a clear one)."""
    r = np.random.default_rng(5)
    grades = r.integers(0, 3, size=(queries, candidates))
    grades[:, 0] = np.maximum(grades[:, 0], 1)  # every query has a relevant source
    qrels = folder / "qrels.txt"
    qrels.write_text("".join(f"q{q} 0 d{d} {grades[q, d]}\n" for q in range(queries)
                             for d in range(candidates)))
    runs = []
    for i in range(n):
        scores = r.permutation(queries * candidates).reshape(queries, candidates) + (
            (0.0, 10.0, 400.0)[i] * grades)
        path = folder / f"run{i}.txt"
        path.write_text("".join(f"q{q} Q0 d{d} 0 {scores[q, d]:.1f} r{i}\n"
                                for q in range(queries) for d in range(candidates)))
        runs.append(str(path))
    return str(qrels), runs


def ranx_report(qrels: str, runs: list[str], test: str, permutations: int = 1000) -> object:
    rx = []
    for i, path in enumerate(runs):
        run = Run.from_file(path, kind="trec")
        run.name = f"run{i}"
        rx.append(run)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ranx_compare(Qrels.from_file(qrels, kind="trec"), rx, ["ndcg@5"],
                            stat_test=test, n_permutations=permutations, random_seed=3,
                            make_comparable=False)


def ours(qrels: str, runs: list[str], test: str, resamples: int) -> object:
    conv = preset("ranx", cutoffs=(5,))
    values = [RunValues.of(evaluate(document_from_trec(p, qrels), conv), f"run{i}")
              for i, p in enumerate(runs)]
    return compare_runs(values, conv, pairs="all", test=test, correction="none",
                        resamples=resamples, seed=3)


def test_means_and_t_test_match_ranx(tmp_path: Path) -> None:
    qrels, runs = write_trec_runs(tmp_path, 3)
    theirs = ranx_report(qrels, runs, "student")
    m = ours(qrels, runs, "t-test", 200)
    for r in m.means[0]:
        assert r.mean == pytest.approx(theirs.results[r.run]["ndcg@5"], abs=1e-12)
    for t in m.tests[0]:
        expected = theirs.comparisons[t.a, t.b]["ndcg@5"]["p_value"]
        assert t.p_t_test == pytest.approx(expected, rel=1e-9, abs=1e-15)
        wtl = theirs.win_tie_loss[(t.b, t.a)]["ndcg@5"]  # ranx: control's wins
        assert (t.wins, t.ties, t.losses) == (wtl["W"], wtl["T"], wtl["L"])
    assert any(t.p_t_test < 0.01 for t in m.tests[0])  # a difference, not only noise
    assert any(t.p_t_test > 0.01 for t in m.tests[0])


def test_randomization_matches_ranx_fisher_within_monte_carlo_error(tmp_path: Path) -> None:
    qrels, runs = write_trec_runs(tmp_path, 3)
    permutations = 4000
    theirs = ranx_report(qrels, runs, "fisher", permutations)
    m = ours(qrels, runs, "randomization", permutations)
    seen = []
    for t in m.tests[0]:
        p_theirs = theirs.comparisons[t.a, t.b]["ndcg@5"]["p_value"]
        assert t.p_value is not None
        # Both estimate the same p from 4,000 draws each: the difference of
        # two estimates has a standard error sqrt(2 p (1 - p) / 4000); allow
        # 4 of them and the (1 + hits) / (1 + n) convention.
        p = (t.p_value + p_theirs) / 2
        tolerance = 4 * math.sqrt(2 * p * (1 - p) / permutations) + 2 / permutations
        assert abs(t.p_value - p_theirs) <= tolerance
        seen.append(p_theirs)
    assert min(seen) < 0.05 < max(seen)  # both a clear difference and none


# -- what is compared ----------------------------------------------------------------------


def test_queries_missing_or_undefined_are_left_out_and_said(tmp_path: Path) -> None:
    conv = Conventions(cutoffs=(2,))
    docs = [random_run(1), random_run(2, skip=7), random_run(3, skip=9)]
    m = compare_runs(evaluations(docs, conv), resamples=100)
    assert m.missing == {"run1": ["q7"], "run2": ["q9"]}
    assert m.dropped == 2
    assert len(m.common) == 38
    # q3 has no relevant candidate: undefined in the baseline, named once.
    assert m.excluded(0) == {"undefined in run0": 1}
    assert m.means[0][0].included == 37
    assert all(t.n == 37 for t in m.tests[0])
    out = io.StringIO()
    write_runs(m, "table", out)
    text = out.getvalue()
    assert "Queries compared: 38 held by every run; 2 held by some runs only" in text
    out = io.StringIO()
    write_runs(m, "markdown", out)
    assert " 2 queries held by some runs only were not compared." in out.getvalue()
    assert "run1 lacks 1 (q7)" in text
    assert "37 compared, left out: 1 undefined in run0" in text
    # Under zero ideal = 0 q3 counts: nothing left out, said once ("left out:
    # none left out" before).
    zero = compare_runs(evaluations(docs, preset("trec_eval").replace(cutoffs=(2,))),
                        resamples=100)
    out = io.StringIO()
    write_runs(zero, "table", out)
    assert "  at NDCG@2: 38 compared, left out: none\n" in out.getvalue()


def test_baseline_named_moves_first_and_bad_choices_are_refused(tmp_path: Path,
                                                                 capsys) -> None:  # type: ignore[no-untyped-def]
    qrels, runs = write_trec_runs(tmp_path, 3)
    out = io.StringIO()
    assert main(["compare", *runs, "--qrels", qrels, "--baseline", runs[2], "--resamples",
                 "100", "--format", "json"], out=out) == 0
    data = json.loads(out.getvalue())
    assert data["runs"] == [runs[2], runs[0], runs[1]]
    assert [(p["a"], p["b"]) for p in data["cutoffs"][0]["pairs"]] == [
        (runs[2], runs[0]), (runs[2], runs[1])]
    assert main(["compare", *runs, "--qrels", qrels, "--baseline", "nope.txt"]) == 2
    assert "--baseline nope.txt is not one of the runs" in capsys.readouterr().err
    assert main(["compare", runs[0], "--qrels", qrels]) == 2
    assert "compare needs two or more runs" in capsys.readouterr().err
    assert main(["compare", *runs, str(tmp_path / "gone.txt"), "--qrels", qrels]) == 2
    err = capsys.readouterr().err
    assert "gone.txt: no such file" in err
    assert "Traceback" not in err
    assert main(["compare", *runs, "--qrels", qrels, "--alpha", "2", "--format", "csv"]) == 2
    assert "significance level" in capsys.readouterr().err


# -- formats -------------------------------------------------------------------------------


def three_runs(folder: Path, fmt: str, *extra: str) -> str:
    qrels, runs = write_trec_runs(folder, 3)
    out = io.StringIO()
    assert main(["compare", *runs, "--qrels", qrels, "--preset", "trec_eval", "--k", "5",
                 "--k", "all", "--resamples", "1000", "--pairs", "all", "--format", fmt,
                 *extra], out=out) == 0
    return out.getvalue()


def test_markdown_marks_significance_and_explains_it(tmp_path: Path) -> None:
    text = three_runs(tmp_path, "markdown")
    lines = text.splitlines()
    assert lines[0] == "|  | run | NDCG@5 | NDCG@all |"
    # run2 leans most on the grades: higher than both others; run1 not
    # clearly higher than run0.
    run2 = next(x for x in lines if x.startswith("| c |"))
    assert run2.count("<sup>ab</sup>") == 2
    assert "**" in run2
    run1 = next(x for x in lines if x.startswith("| b |"))
    assert "<sup>" not in run1
    baseline = next(x for x in lines if x.startswith("| a (baseline) |"))
    assert "<sup>" not in baseline
    assert "Superscript letters name the runs" in text
    assert "Holm-corrected over the 3 pairs" in text
    assert "Conventions: gain: linear gain" in text


def test_latex_is_a_booktabs_table_with_a_footnote(tmp_path: Path) -> None:
    text = three_runs(tmp_path, "latex", "--correction", "bonferroni")
    for part in ("\\toprule", "\\midrule", "\\bottomrule", "\\textsuperscript{ab}",
                 "\\textbf{", "Bonferroni-corrected", "run0.txt", "preset: trec\\_eval"):
        assert part in text
    assert text.count("\\begin{tabular}{llrr}") == 1


def test_csv_holds_every_query_per_run(tmp_path: Path) -> None:
    qrels, runs = write_trec_runs(tmp_path, 3)
    text = three_runs(tmp_path, "csv")
    lines = text.splitlines()
    assert lines[0].split(",")[:6] == ["query", "k", "compared", *runs]
    assert len(lines) == 1 + 60 * 2
    conv = preset("trec_eval", cutoffs=(5, None))
    ev = evaluate(document_from_trec(runs[1], qrels), conv)
    q = ev.doc.query_ids.index("q7")
    row = next(x.split(",") for x in lines if x.startswith("q7,all,"))
    assert float(row[4]) == ev.ndcg[q, 1]
    ev0 = evaluate(document_from_trec(runs[0], qrels), conv)
    assert float(row[-2]) == ev.ndcg[q, 1] - ev0.ndcg[ev0.doc.query_ids.index("q7"), 1]


def test_the_consensus_of_annotators_is_named_only_for_runs_that_hold_them(
        tmp_path: Path) -> None:
    """Three TREC runs judged by qrels hold no annotators' grades: the table,
    markdown and LaTeX reports list the conventions without 'consensus' (it
    read 'consensus  mean of the annotators' grades, no rounding' before,
    where a comparison of two runs and evaluate never say it); a run whose
    document holds annotators names it."""
    for fmt, words in (("table", "consensus "), ("markdown", "consensus: "),
                       ("latex", "consensus: ")):
        text = three_runs(tmp_path, fmt)
        assert "gain" in text
        assert words not in text
        assert "annotators' grades" not in text
    docs = [random_run(1), random_run(2), random_run(3)]
    docs[1].annotators = ["ann"]
    docs[1].ratings = np.zeros((len(docs[1]), 1))
    m = compare_runs(evaluations(docs, Conventions()), resamples=100)
    assert m.annotated
    out = io.StringIO()
    write_runs(m, "table", out)
    assert "  consensus " in out.getvalue()
    assert not compare_runs(evaluations(docs[::2], Conventions()), resamples=100).annotated


@pytest.mark.parametrize(("runs", "pairs"), [(2, "1 pair"), (3, "2 pairs")])
def test_the_tests_phrase_counts_its_pairs(runs: int, pairs: str) -> None:
    # Two runs make one pair (it said "over the 1 pairs tested").
    docs = [random_run(i + 1) for i in range(runs)]
    conv = Conventions(cutoffs=(3,))
    for correction, said in (("holm", f"over the {pairs} tested at each cutoff"),
                             ("none", f"not corrected ({pairs} tested at each cutoff")):
        m = compare_runs(evaluations(docs, conv), correction=correction, resamples=200, seed=1)
        out = io.StringIO()
        write_runs(m, "table", out)
        assert said in out.getvalue()
