"""The workbook of many runs compared: the Runs sheet and its Report.

The Runs sheet holds, per query every run holds and cutoff, each run's NDCG
read from its own Queries sheet, whether the query is compared (NDCG in every
run and a weight) and each run's delta to the baseline, all live formulas;
below them each run's mean per cutoff and the wins, ties and losses against
the baseline, as formulas too. The Report lists the runs, the conventions in
words (live), each run's mean (live) and the tests of every pair: the mean
delta live, the p-values and intervals computed at export (resampling is not
an Excel 2007 formula) with a formula saying whether they still belong to the
live numbers; and a chart of each run's per-query deltas to the baseline,
sorted.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from core.analysis.compare.many import run_letter
from core.analysis.compare.statistics import TIE_TOLERANCE
from core.io.safety import column_letters
from core.io.workbook.layout import SHEETS, Formats, num, put_cutoff, put_text, sheet_ref
from core.io.workbook.page import header_row, long_text, print_setup, set_widths
from core.io.workbook.report_words import conventions_words
from core.model.conventions import format_cutoff
from core.model.numbers import agreed, counted

if TYPE_CHECKING:
    from core.analysis.compare.many import ManyComparison
    from core.engine.evaluation import Evaluation

__all__ = ["RUNS_SHEET", "RunsPlaces", "run_label", "run_sheets", "write_runs_report",
           "write_runs_sheet"]

RUNS_SHEET = "Runs"
#: The Runs sheet's header row (0-based); per-query rows follow it.
_HEADER = 4


def run_label(i: int) -> str:
    """The ``i``-th run's letter in the workbook (A the baseline): the reports'
    letter (:func:`~core.analysis.compare.many.run_letter`) in capitals."""
    return run_letter(i).upper()


def run_sheets(i: int) -> tuple[str, str, str]:
    """The ``i``-th run's Candidates, Queries and Summary sheets (the
    baseline's are the workbook's own, so it reopens as the baseline)."""
    if i == 0:
        return SHEETS["candidates"], SHEETS["queries"], SHEETS["summary"]
    x = run_label(i)
    return f"Candidates {x}", f"Queries {x}", f"Summary {x}"


@dataclass(frozen=True)
class _Columns:
    """The Runs sheet's columns (0-based) for ``n`` runs."""

    n: int

    def ndcg(self, r: int) -> int:
        return 4 + r

    @property
    def compared(self) -> int:
        return 4 + self.n

    def delta(self, r: int) -> int:  # r >= 1
        return 4 + self.n + r

    def weighted(self, r: int) -> int:
        return 4 + 2 * self.n + r

    def first_delta(self, r: int) -> int:  # r >= 1: the delta at the first cutoff, compared
        return 3 + 3 * self.n + r

    def sorted_delta(self, r: int) -> int:  # r >= 1
        return 2 + 4 * self.n + r

    @property
    def last(self) -> int:
        return self.sorted_delta(self.n - 1)


def _letter(col: int) -> str:
    return column_letters(col + 1)


@dataclass(frozen=True)
class RunsPlaces:
    """Where the Runs sheet holds what the Report reads (1-based rows)."""

    first: int
    last: int
    means_rows: list[int]
    columns: _Columns


def write_runs_sheet(ws: Any, fmt: Formats, m: ManyComparison,
                     evaluations: Sequence[Evaluation]) -> RunsPlaces:
    """The Runs sheet; returns where its parts are."""
    n, ncut = len(m.runs), len(m.cutoffs)
    cols = _Columns(n)
    set_widths(ws, [min(max((len(q) for q in m.common), default=8), 40) + 2, 6, 6, 9,
                    *[10] * (2 * n)])
    ws.set_column(cols.weighted(0), cols.last, 10, None, {"level": 1, "hidden": True})
    ws.write_string(0, 0, "Runs: every run evaluated under the Conventions sheet, the "
                    "baseline (A) first", fmt.title)
    ws.write_string(1, 0, "; ".join(f"{run_label(i)}: {name}" for i, name in enumerate(m.runs)))
    ws.write_string(2, 0, "tie tolerance", fmt.label)
    ws.write_number(2, 1, TIE_TOLERANCE, fmt.conv)
    ws.write_string(2, 2, "a |delta| up to this is a tie", fmt.text)
    heads = ["query", "k", "cutoff no.", "weight (A's, declared weighting)",
             *(f"NDCG {run_label(r)}" for r in range(n)), "compared (1/0)",
             *(f"delta {run_label(r)} - A" for r in range(1, n)),
             *(f"weight x NDCG {run_label(r)}" for r in range(n)),
             *(f"delta {run_label(r)} - A at the first cutoff" for r in range(1, n)),
             *(f"those sorted ({run_label(r)})" for r in range(1, n))]
    header_row(ws, fmt, _HEADER, heads, [12] * len(heads))
    ws.freeze_panes(_HEADER + 1, 1)
    first = _HEADER + 2
    last = max(first + len(m.common) * ncut - 1, first)
    rows = [_QueryRows(m, evaluations, i) for i in range(n)]
    r = _HEADER + 1
    for i in range(len(m.common)):
        for j in range(ncut):
            _write_query_row(ws, fmt, m, rows, cols, r, i, j)
            _write_sorted(ws, m, cols, r, (first, last))
            r += 1
    means_rows = _write_means(ws, fmt, m, cols, (first, last), r + 1)
    print_setup(ws, evaluations[0].doc.judgment_version, header_rows=(_HEADER, _HEADER),
                query_column=True)
    return RunsPlaces(first, last, means_rows, cols)


class _QueryRows:
    """Where run ``i``'s queries are on its Queries sheet."""

    def __init__(self, m: ManyComparison, evaluations: Sequence[Evaluation], i: int) -> None:
        ids = evaluations[i].doc.query_ids
        index = {q: k for k, q in enumerate(ids)}
        self.at = [index[q] for q in m.common]
        self.sheet = sheet_ref(run_sheets(i)[1])
        self.ncut = len(m.cutoffs)

    def ref(self, i: int, j: int, col: str) -> str:
        return f"{self.sheet}!${col}${2 + self.at[i] * self.ncut + j}"


def _write_query_row(ws: Any, fmt: Formats, m: ManyComparison, rows: list[_QueryRows],
                     cols: _Columns, r: int, i: int, j: int) -> None:
    """Row ``r`` (0-based): common query ``i`` at cutoff ``j``."""
    x = r + 1
    n = len(m.runs)
    put_text(ws, r, 0, m.common[i], fmt.text, fmt.text_q)
    k = m.cutoffs[j]
    put_cutoff(ws, fmt, (r, 1), j, k)
    ws.write_number(r, 2, j + 1)
    freq, imp = rows[0].ref(i, j, "K"), rows[0].ref(i, j, "L")
    ws.write_formula(
        r, 3, f'=IF(weighting="equal",1,IF(weighting="frequency",'
        f'IF(ISNUMBER({freq}),{freq},""),IF(ISNUMBER({imp}),{imp},"")))', None,
        num(float(m.weights[i])))
    for k in range(n):
        ref = rows[k].ref(i, j, "F")
        ws.write_formula(r, cols.ndcg(k), f'=IF(ISNUMBER({ref}),{ref},"")', fmt.number,
                         num(float(m.ndcg[k, i, j])))
    nd = [f"{_letter(cols.ndcg(k))}{x}" for k in range(n)]
    defined = ",".join(f"ISNUMBER({c})" for c in nd)
    ws.write_formula(r, cols.compared, f"=IF(AND({defined},ISNUMBER(D{x})),IF(D{x}>0,1,0),0)",
                     None, 1.0 if m.included[i, j] else 0.0)
    for k in range(1, n):
        d = float(m.ndcg[k, i, j] - m.ndcg[0, i, j])
        ws.write_formula(r, cols.delta(k),
                         f'=IF(AND(ISNUMBER({nd[k]}),ISNUMBER({nd[0]})),{nd[k]}-{nd[0]},"")',
                         fmt.signed, num(d))
        first = d if j == 0 and m.included[i, j] else ""
        ws.write_formula(r, cols.first_delta(k),
                         f'=IF(AND(C{x}=1,{_letter(cols.compared)}{x}=1),'
                         f'{_letter(cols.delta(k))}{x},"")', None, first)
    cmp = f"{_letter(cols.compared)}{x}"
    for k in range(n):
        value = float(m.weights[i] * m.ndcg[k, i, j]) if m.included[i, j] else 0.0
        ws.write_formula(r, cols.weighted(k), f"=IF({cmp}=1,D{x}*{nd[k]},0)", None, value)


def _write_sorted(ws: Any, m: ManyComparison, cols: _Columns, r: int,
                  rows: tuple[int, int]) -> None:
    """The sorted deltas at the first cutoff, one per row (the chart's data)."""
    first, last = rows
    k_row = r + 2 - first  # 1-based position among the rows
    if k_row > len(m.common):
        return
    use = m.included[:, 0]
    for k in range(1, len(m.runs)):
        col = _letter(cols.first_delta(k))
        span = f"${col}${first}:${col}${last}"
        values = np.sort(m.ndcg[k, use, 0] - m.ndcg[0, use, 0])
        now: Any = float(values[k_row - 1]) if k_row <= values.size else "#N/A"
        ws.write_formula(r, cols.sorted_delta(k),
                         f"=IF({k_row}<=COUNT({span}),SMALL({span},{k_row}),NA())", None, now)


def _write_means(ws: Any, fmt: Formats, m: ManyComparison, cols: _Columns,
                 rows: tuple[int, int], r: int) -> list[int]:
    """Per cutoff: the compared count, the weight total, each run's mean and
    each run's wins, ties and losses against the baseline (formulas);
    returns each cutoff's row (1-based)."""
    first, last = rows
    n = len(m.runs)

    def rng(col: int) -> str:
        c = _letter(col)
        return f"${c}${first}:${c}${last}"

    cut, cmp = rng(2), rng(cols.compared)
    ws.write_string(r, 0, "Means over the compared queries (formulas)", fmt.section)
    r += 1
    heads = ["k", "cutoff no.", "compared queries", "weight total",
             *(f"mean NDCG {run_label(k)}" for k in range(n))]
    for k in range(1, n):
        heads += [f"{run_label(k)} wins", f"{run_label(k)} ties", f"{run_label(k)} loses"]
    header_row(ws, fmt, r, heads, [12] * len(heads))
    r += 1
    out = []
    for j, k_value in enumerate(m.cutoffs):
        x = r + 1
        out.append(x)
        use = m.included[:, j]
        put_cutoff(ws, fmt, (r, 0), j, k_value)
        ws.write_number(r, 1, j + 1)
        ws.write_formula(r, 2, f"=COUNTIFS({cut},{j + 1},{cmp},1)", None, float(use.sum()))
        ws.write_formula(r, 3, f"=SUMIFS({rng(3)},{cut},{j + 1},{cmp},1)", None,
                         float(m.weights[use].sum()))
        for k in range(n):
            mean = m.means[j][k].mean
            ws.write_formula(r, 4 + k, f'=IF(C{x}>0,SUMIFS({rng(cols.weighted(k))},{cut},'
                             f'{j + 1})/D{x},"")', fmt.number, "" if mean is None else mean)
        for k in range(1, n):
            d = m.ndcg[k, use, j] - m.ndcg[0, use, j]
            counts = (int((d > TIE_TOLERANCE).sum()), int((np.abs(d) <= TIE_TOLERANCE).sum()),
                      int((d < -TIE_TOLERANCE).sum()))
            delta = rng(cols.delta(k))
            for c, (test, now) in enumerate(zip(
                    ('">"&tie_tolerance', None, '"<"&-tie_tolerance'), counts, strict=True)):
                col = 4 + n + 3 * (k - 1) + c
                if test is None:  # ties: compared minus wins minus losses
                    formula = f"=C{x}-{_letter(col - 1)}{x}-{_letter(col + 1)}{x}"
                else:
                    formula = f"=COUNTIFS({cut},{j + 1},{cmp},1,{delta},{test})"
                ws.write_formula(r, col, formula, None, float(now))
        r += 1
    return out


#: The Report's columns: the labels, then the tests' ten.
_REPORT_WIDTHS = (30, 14, 12, 12, 12, 12, 12, 12, 12, 14)


def write_runs_report(wb: Any, ws: Any, fmt: Formats, m: ManyComparison,
                      ev: Evaluation, places: RunsPlaces) -> None:
    """The Report of many runs (see the module's docstring)."""
    set_widths(ws, _REPORT_WIDTHS)
    runs = sheet_ref(RUNS_SHEET)
    ws.write_string(0, 0, f"NDCG comparison report: {len(m.runs)} runs", fmt.title)
    r = 2
    for i, name in enumerate(m.runs):
        ws.write_string(r, 0, f"run {run_label(i)}" + (" (baseline)" if i == 0 else ""),
                        fmt.label)
        put_text(ws, r, 1, name, fmt.text, fmt.text_q)
        r += 1
    ws.write_string(r, 0, f"{counted(len(m.common))} held by every run "
                    + agreed(len(m.common), "is") + " compared"
                    + (f"; {m.dropped} held by some runs only "
                       + agreed(m.dropped, "is") + " not" if m.dropped else "")
                    + (f"; not compared either: {m.left_out.phrase(len(m.runs))}"
                       if m.left_out else ""))
    r += 2
    ws.write_string(r, 0, "Conventions (as the Conventions sheet holds them now)", fmt.section)
    r += 1
    for label, text in conventions_words(ev):
        ws.write_string(r, 0, label, fmt.label)
        ws.write_formula(r, 1, "=" + text.formula, None, text.cached)
        r += 1
    for j, k in enumerate(m.cutoffs):
        r = _report_cutoff(ws, fmt, m, places, runs, j, k, r + 1)
    r += 1
    long_text(ws, fmt, r, (0, len(_REPORT_WIDTHS) - 1), _tests_note(m), _REPORT_WIDTHS)
    # (the chart on a page of its own: the page's foot cut it, its axis overleaf)
    ws.set_h_pagebreaks([r + 2])
    _deltas_chart(wb, ws, m, places, r + 2)
    print_setup(ws, ev.doc.judgment_version, gridlines=False)


def _tests_note(m: ManyComparison) -> str:
    return (f"p random: two-sided paired randomization test ({m.resamples} sign vectors at "
            f"most, seed {m.seed}); CI: {m.confidence:.0%} bootstrap percentile interval "
            f"({m.bootstrap_resamples} resamples); p corrected: {m.correction} over the "
            f"pairs at each cutoff, of the {m.test} p-values; * at most {m.alpha:g}. "
            "Computed by NDCG Worksheet at export, not formulas: 'still current?' compares "
            "the live compared count and mean delta with those they were computed for.")


def _report_cutoff(ws: Any, fmt: Formats, m: ManyComparison, places: RunsPlaces, runs: str,
                   j: int, k: int | None, r: int) -> int:
    """The means and the tests at cutoff ``j`` from row ``r``; returns the next row."""
    mr = places.means_rows[j]
    index = {name: i for i, name in enumerate(m.runs)}
    ws.write_string(r, 0, f"NDCG@{format_cutoff(k)} (at export; the k of the Conventions "
                    "sheet now is in the Runs sheet)", fmt.section)
    r += 1
    header_row(ws, fmt, r, ["run", "mean NDCG", "compared queries"], [30, 14, 12])
    r += 1
    for i, mean in enumerate(m.means[j]):
        ws.write_string(r, 0, f"{run_label(i)}: {m.runs[i]}", fmt.label)
        ws.write_formula(r, 1, f"={runs}!${_letter(4 + i)}${mr}", fmt.number,
                         "" if mean.mean is None else mean.mean)
        ws.write_formula(r, 2, f"={runs}!$C${mr}", None, float(mean.included))
        r += 1
    header_row(ws, fmt, r, ["pair (B - A)", "mean delta", "CI low", "CI high", "p random",
                            "p t-test", "p corrected", "W/T/L (at export)", "marked",
                            "still current?"], [30, *[12] * 9])
    r += 1
    for t in m.tests[j]:
        x = r + 1
        a, b = index[t.a], index[t.b]
        ws.write_string(r, 0, f"{run_label(b)} - {run_label(a)}", fmt.label)
        ws.write_formula(
            r, 1, f'=IF(ISNUMBER({runs}!${_letter(4 + b)}${mr}),{runs}!${_letter(4 + b)}${mr}'
            f'-{runs}!${_letter(4 + a)}${mr},"")', fmt.signed,
            "" if t.mean_delta is None else t.mean_delta)
        for col, stat in ((2, t.ci_low), (3, t.ci_high), (4, t.p_value), (5, t.p_t_test),
                          (6, t.p_corrected)):
            if stat is None or math.isnan(stat):
                ws.write_string(r, col, "")
            else:
                ws.write_number(r, col, stat, fmt.signed if col < 4 else None)
        ws.write_string(r, 7, f"{t.wins}/{t.ties}/{t.losses}", fmt.right)  # (as the numbers)
        ws.write_string(r, 8, "*" if m.significant(t) else "")
        delta = "" if t.mean_delta is None else repr(t.mean_delta)
        ws.write_formula(
            r, 9, f'=IF(AND({runs}!$C${mr}={t.n},IF(ISNUMBER(B{x}),'
            f'ABS(B{x}-({delta or 0}))<=tie_tolerance,{"TRUE" if not delta else "FALSE"})),'
            '"current","stale: compare again in the app")', None, "current")
        r += 1
    return r


def _deltas_chart(wb: Any, ws: Any, m: ManyComparison, places: RunsPlaces, r: int) -> None:
    """Each run's per-query deltas to the baseline at the first cutoff, sorted."""
    chart = wb.add_chart({"type": "line"})
    n_common = max(len(m.common), 1)
    use = m.included[:, 0]
    for k in range(1, len(m.runs)):
        col = places.columns.sorted_delta(k)
        chart.add_series({
            "name": f"{run_label(k)} - A",
            "values": [RUNS_SHEET, places.first - 1, col, places.first - 2 + n_common, col],
        })
        shown = sorted((m.ndcg[k, use, 0] - m.ndcg[0, use, 0]).tolist())
        series = chart.series[-1]
        chart.formula_data[series["val_data_id"]] = shown + [None] * (n_common - len(shown))
    at = format_cutoff(m.cutoffs[0])
    chart.set_title({"name": f"Per-query delta to the baseline at the first cutoff "
                     f"(k = {at} at export), sorted", "name_font": {"size": 11, "bold": True}})
    chart.set_x_axis({"name": "queries, largest loss to largest gain"})
    chart.set_y_axis({"name": "delta to A", "major_gridlines": {
        "visible": True, "line": {"color": "#D9D9D9"}}})
    chart.set_legend({"position": "bottom"})
    chart.set_size({"width": 900, "height": 320})
    chart.show_hidden_data()
    chart.show_na_as_empty_cell()
    ws.insert_chart(r, 0, chart, {"x_offset": 4, "y_offset": 4, "object_position": 1})
