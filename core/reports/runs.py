"""A comparison of many runs as a terminal table, JSON, CSV, Markdown or LaTeX.

:func:`write_runs` writes :class:`~core.analysis.compare.many.ManyComparison`
in one of :data:`RUN_FORMATS`. Every format states the conventions once, the
queries compared and those left out (and why), the statistics' resamples and
seed, and the correction. The Markdown and LaTeX tables are the ones papers
print: a row per run, a column per cutoff, the mean with superscript letters
naming the runs it is significantly higher than (corrected p-value at most
alpha), explained in a footnote; the CSV holds every query's NDCG per run.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TextIO

from core.analysis.aggregate import excluded_phrase
from core.analysis.compare.many import run_letter
from core.engine.results import Status
from core.model.conventions import format_cutoff
from core.model.numbers import agreed, counted
from core.reports.json import conventions_json, dump_json
from core.reports.table import write_aligned, write_conventions
from core.reports.text import csv_line, protect, visible

if TYPE_CHECKING:
    from core.analysis.compare.many import ManyComparison, PairTest

__all__ = ["RUN_FORMATS", "left_out_phrase", "runs_json", "significance_line", "write_runs"]

#: The formats of a comparison of many runs (``compare --format``).
RUN_FORMATS = ("table", "json", "csv", "markdown", "latex")
_CORRECTED = {"holm": "Holm-corrected", "bonferroni": "Bonferroni-corrected",
              "none": "not corrected"}


def write_runs(m: ManyComparison, fmt: str, out: TextIO) -> None:
    """Write ``m`` to ``out`` in ``fmt`` (one of :data:`RUN_FORMATS`)."""
    if fmt == "json":
        dump_json(runs_json(m), out, rows=len(m.common))
        return
    writers: dict[str, Callable[[ManyComparison, TextIO], None]] = {
        "table": _table, "csv": _csv, "markdown": _markdown, "latex": _latex,
    }
    writers[fmt](m, out)


def _num(x: float | None, signed: bool = False) -> str:
    if x is None or math.isnan(x):
        return "-"
    return f"{x:+.4f}" if signed else f"{x:.4f}"


def _p(x: float | None) -> str:
    return "-" if x is None else f"{x:.4g}"


def _pairs_phrase(m: ManyComparison) -> str:
    if m.pairs == "baseline":
        return f"the baseline ({m.baseline}) against each other run"
    return "every pair of runs"


def _test_phrase(m: ManyComparison) -> str:
    """How the marked p-values were computed, in one phrase."""
    if m.test == "t-test":
        test = "two-sided paired t-test"
    else:
        test = (f"two-sided paired randomization test ({m.resamples} sign vectors at most, "
                f"seed {m.seed})")
    n = len(m.tests[0]) if m.tests else 0
    if m.correction == "none":
        return (f"{test}, p-values not corrected ({counted(n, 'pair')} tested at each "
                f"cutoff: {_pairs_phrase(m)})")
    return (f"{test}, p-values {_CORRECTED[m.correction]} over the {counted(n, 'pair')} tested "
            f"at each cutoff ({_pairs_phrase(m)})")


def significance_line(m: ManyComparison) -> str:
    """Which pairs are marked significant and how their p-values were
    computed and corrected, counting the pairs tested (the table's footnote,
    the editor's dock)."""
    return f"p corrected at most {m.alpha:g}: {_test_phrase(m)}."


def left_out_phrase(m: ManyComparison, j: int) -> str:
    """The shared queries left out at cutoff index ``j``, by reason
    (``left out: none`` when every one was compared)."""
    return excluded_phrase(m.excluded(j), label="left out")


def _queries_lines(m: ManyComparison) -> list[str]:
    """What was compared and what was left out, for every format."""
    lines = [f"Queries compared: {len(m.common)} held by every run"
             + (f"; {m.dropped} held by some runs only, not compared" if m.dropped else "")]
    for name, qs in m.missing.items():
        shown = ", ".join(qs[:5]) + (", ..." if len(qs) > 5 else "")
        lines.append(f"  {name} lacks {len(qs)} ({shown})")
    for j, k in enumerate(m.cutoffs):
        lines.append(f"  at NDCG@{format_cutoff(k)}: {int(m.included[:, j].sum())} compared, "
                     f"{left_out_phrase(m, j)}")
    if m.left_out:
        lines.append(f"Not compared: {m.left_out.phrase(len(m.runs))}")
    return lines


def _table(m: ManyComparison, out: TextIO) -> None:
    def line(text: str = "") -> None:
        out.write(visible(text) + "\n")

    line(f"Runs ({len(m.runs)}; baseline {m.baseline})")
    for i, name in enumerate(m.runs):
        line(f"  {run_letter(i)}  {name}")
    line()
    line("Conventions (applied to every run)")
    write_conventions(m.conventions, out, annotated=m.annotated)
    line()
    for text in _queries_lines(m):
        line(text)
    for j, k in enumerate(m.cutoffs):
        at = f"NDCG@{format_cutoff(k)}"
        line()
        line(f"mean {at} ({m.conventions.weighting.label})")
        write_aligned(["run", "mean", "queries"],
                      [[name, _num(r.mean), str(r.included)] for name, r in
                       zip(m.runs, m.means[j], strict=True)], out)
        line()
        ci = f"{m.confidence:.0%} CI"
        write_aligned(
            ["pair (B - A)", "delta", ci, "p random", "p t-test", "p corrected", "W/T/L", ""],
            [[f"{t.b} - {t.a}", _num(t.mean_delta, True),
              f"[{_num(t.ci_low, True)}, {_num(t.ci_high, True)}]", _p(t.p_value),
              _p(t.p_t_test), _p(t.p_corrected), f"{t.wins}/{t.ties}/{t.losses}",
              "*" if m.significant(t) else ""] for t in m.tests[j]], out)
    line()
    line(f"* {significance_line(m)}")
    line(f"CI: bootstrap percentile interval of the mean delta ({m.bootstrap_resamples} "
         f"resamples, seed {m.seed}). W/T/L: queries where B is higher, equal (within 1e-12), "
         "lower.")


def _pair_json(t: PairTest, significant: bool) -> dict[str, Any]:
    return {
        "a": t.a, "b": t.b, "queries": t.n, "mean_a": t.mean_a, "mean_b": t.mean_b,
        "mean_delta": t.mean_delta, "wins": t.wins, "ties": t.ties, "losses": t.losses,
        "randomization": {"p_value": t.p_value, "method": t.method,
                          "sign_vectors": t.sign_vectors, "two_sided": True},
        "bootstrap": {"low": t.ci_low, "high": t.ci_high, "method": "percentile"},
        "t_test": {"p_value": t.p_t_test, "two_sided": True},
        "p_corrected": t.p_corrected, "significant": significant,
    }


def runs_json(m: ManyComparison) -> dict[str, Any]:
    """The ``compare --format json`` object of many runs."""
    return {
        "runs": m.runs,
        "baseline": m.baseline,
        "conventions": conventions_json(m.conventions),
        "queries_compared": len(m.common),
        "queries_dropped": m.dropped,
        "queries_not_compared": {
            "judged_ranked_by_neither": list(m.left_out.unranked),
            "ranked_never_judged": list(m.left_out.unjudged),
        },
        "missing": m.missing,
        "pairs": m.pairs,
        "test": m.test,
        "correction": m.correction,
        "alpha": m.alpha,
        "resamples": m.resamples,
        "bootstrap_resamples": m.bootstrap_resamples,
        "confidence": m.confidence,
        "seed": m.seed,
        "cutoffs": [
            {
                "k": k,
                "queries": int(m.included[:, j].sum()),
                "excluded": m.excluded(j),
                "means": {r.run: r.mean for r in m.means[j]},
                "pairs": [_pair_json(t, m.significant(t)) for t in m.tests[j]],
            }
            for j, k in enumerate(m.cutoffs)
        ],
    }


def _csv(m: ManyComparison, out: TextIO) -> None:
    """Every common query and cutoff: whether compared, each run's NDCG and
    status, and each run's delta to the baseline (full precision)."""
    statuses = tuple(Status)
    base = m.baseline
    others = m.runs[1:]
    out.write(csv_line(["query", "k", "compared",
                        *(protect(r) for r in m.runs),
                        *(protect(f"status {r}") for r in m.runs),
                        *(protect(f"{r} - {base}") for r in others)]))
    for i, q in enumerate(m.common):
        query = protect(q)
        for j, k in enumerate(m.cutoffs):
            values = m.ndcg[:, i, j]
            cells = ["" if math.isnan(x) else repr(float(x)) for x in values.tolist()]
            deltas = ["" if math.isnan(x) else repr(float(x))
                      for x in (values[1:] - values[0]).tolist()]
            out.write(csv_line([
                query, format_cutoff(k), "yes" if m.included[i, j] else "no", *cells,
                *(statuses[int(c)].value for c in m.status_code[:, i, j].tolist()), *deltas,
            ]))


def _marks(m: ManyComparison, j: int) -> list[str]:
    """Per run at cutoff index ``j``: the letters of the runs its mean is
    significantly higher than."""
    index = {name: i for i, name in enumerate(m.runs)}
    marks: list[list[int]] = [[] for _ in m.runs]
    for t in m.tests[j]:
        if m.significant(t) and t.mean_delta is not None and t.mean_delta != 0:
            higher, lower = (t.b, t.a) if t.mean_delta > 0 else (t.a, t.b)
            marks[index[higher]].append(index[lower])
    return ["".join(run_letter(x) for x in sorted(ms)) for ms in marks]


def _best(m: ManyComparison, j: int) -> float | None:
    means = [r.mean for r in m.means[j] if r.mean is not None]
    return max(means) if means else None


def _footnote(m: ManyComparison) -> list[str]:
    conv = "; ".join(f"{name}: {choice}" for name, choice, _ in m.conventions.describe(
        annotated=m.annotated))
    counts = "; ".join(
        f"NDCG@{format_cutoff(k)} over {counted(int(m.included[:, j].sum()))}"
        + (f" ({excluded_phrase(m.excluded(j), label='left out', empty=None)})"
           if m.excluded(j) else "")
        for j, k in enumerate(m.cutoffs))
    dropped = (f" {counted(m.dropped)} held by some runs only "
               f"{agreed(m.dropped, 'was')} not compared.") if (
        m.dropped) else ""
    if m.left_out:
        dropped += f" Not compared: {m.left_out.phrase(len(m.runs))}."
    return [
        f"Superscript letters name the runs whose mean the marked mean is significantly "
        f"higher than: {_test_phrase(m)}; marked at a p-value of at most {m.alpha:g}. Bold: "
        "the highest mean.",
        f"Means weighted {m.conventions.weighting.label}; {counts}.{dropped}",
        f"Conventions: {conv}.",
    ]


def _markdown(m: ManyComparison, out: TextIO) -> None:
    def cell(text: str) -> str:
        return text.replace("\\", "\\\\").replace("|", "\\|").replace("*", "\\*").replace(
            "_", "\\_").replace("\n", " ")

    heads = ["", "run", *(f"NDCG@{format_cutoff(k)}" for k in m.cutoffs)]
    out.write("| " + " | ".join(heads) + " |\n")
    out.write("|" + "|".join([":--", ":--", *(["--:"] * len(m.cutoffs))]) + "|\n")
    marks = [_marks(m, j) for j in range(len(m.cutoffs))]
    for i, name in enumerate(m.runs):
        cells = _mean_cells(m, i, marks, "**{}**", "<sup>{}</sup>")
        label = f"{run_letter(i)}" + (" (baseline)" if i == 0 else "")
        out.write("| " + " | ".join([label, cell(visible(name)), *cells]) + " |\n")
    out.write("\n")
    for text in _footnote(m):
        out.write(cell(visible(text)) + "\n\n")


def _mean_cells(m: ManyComparison, i: int, marks: list[list[str]], bold: str,
                sup: str) -> list[str]:
    """Run ``i``'s mean at each cutoff: the best in ``bold``, its significance
    marks raised by ``sup`` (each a format string of the table's markup)."""
    cells = []
    for j in range(len(m.cutoffs)):
        mean = m.means[j][i].mean
        text = _num(mean)
        if mean is not None and mean == _best(m, j):
            text = bold.format(text)
        if marks[j][i]:
            text += sup.format(marks[j][i])
        cells.append(text)
    return cells


_LATEX = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
          "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
          "^": r"\textasciicircum{}", "<": r"\textless{}", ">": r"\textgreater{}"}


def _tex(text: str) -> str:
    return "".join(_LATEX.get(c, c) for c in visible(text))


def _latex(m: ManyComparison, out: TextIO) -> None:
    """A booktabs table (``\\usepackage{booktabs}``); the footnote below the rule."""
    n = len(m.cutoffs)
    out.write("\\begin{table}\n\\centering\n")
    out.write(f"\\begin{{tabular}}{{ll{'r' * n}}}\n\\toprule\n")
    out.write(" & Run & " + " & ".join(f"NDCG@{_tex(format_cutoff(k))}" for k in m.cutoffs)
              + " \\\\\n\\midrule\n")
    marks = [_marks(m, j) for j in range(n)]
    for i, name in enumerate(m.runs):
        cells = _mean_cells(m, i, marks, "\\textbf{{{}}}", "\\textsuperscript{{{}}}")
        label = run_letter(i) + (" (baseline)" if i == 0 else "")
        out.write(" & ".join([label, _tex(name), *cells]) + " \\\\\n")
    out.write("\\bottomrule\n\\end{tabular}\n")
    out.write("\\par\\smallskip\n\\begin{minipage}{\\linewidth}\\footnotesize\n")
    out.write("\\par\n".join(_tex(t) + "\n" for t in _footnote(m)))
    out.write("\\end{minipage}\n\\end{table}\n")
