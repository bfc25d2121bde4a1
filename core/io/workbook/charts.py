"""The Report's charts, native to the spreadsheet (they follow the formulas):
the NDCG distribution over queries, the mean NDCG against k and, for a
comparison, the per-query deltas sorted. The distribution's counts are a
table of COUNTIFS formulas on the Report itself."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from core.analysis.aggregate import summarize
from core.io.workbook.comparison import SORTED_GAINS, SORTED_LOSSES, ComparisonPlaces
from core.io.workbook.layout import COMPARISON_SHEETS, SHEETS, sheet_ref
from core.io.workbook.words import Text, join
from core.model.conventions import format_cutoff

if TYPE_CHECKING:
    from core.analysis.compare import Comparison
    from core.io.workbook.report_sheet import ReportSheet, Run

#: The distribution's bins: [0, 0.1), ..., [0.9, 1]; the first also takes
#: values below 0 and the last values above 1 (as the app's plot clips them).
EDGES = tuple(i / 10 for i in range(11))
#: Rows the charts take on the Report (about 20 pixels a row).
CHART_ROWS = 16
_SIZE = {"width": 450, "height": 300}
#: The app's plot colours (app/plots.py): A, B; a gain, a loss.
_COLOURS = ("#1F77B4", "#FF7F0E", "#2CA02C", "#D62728", "#9467BD", "#8C564B", "#7F7F7F",
            "#BCBD22")
_GAIN, _LOSS = "#2CA02C", "#D62728"


def write_charts(wb: Any, s: ReportSheet, runs: Sequence[Run], tables: list[tuple[int, int]],
                 comparison: tuple[Comparison, ComparisonPlaces, tuple[str, str]] | None,
                 *, drawn: bool = True) -> int:
    """The charts from the Report's current row, then the distribution's
    table (only the table when not ``drawn``: a workbook written as .ods);
    the row the table's section starts at."""
    report = sheet_ref(SHEETS["report"])
    anchor = s.row
    if drawn:
        s.skip(CHART_ROWS * (2 if comparison is not None else 1))
    table_at = s.row
    s.section("Queries per NDCG range (the distribution chart's data)")
    columns = [(run, j) for j in range(runs[0].n_cutoffs) for run in runs][: s.width - 1]
    first, counts = _distribution_table(s, columns, len(runs) > 1)
    if not drawn:
        return table_at
    dist = wb.add_chart({"type": "column"})
    bins = [f"{EDGES[b]:.1f} to {EDGES[b + 1]:.1f}" for b in range(len(EDGES) - 1)]
    for c in range(1, len(columns) + 1):
        dist.add_series({
            "name": [SHEETS["report"], first - 1, c],
            "categories": f"={report}!$A${first + 1}:$A${first + len(EDGES) - 1}",
            "values": [SHEETS["report"], first, c, first + len(EDGES) - 2, c],
            "fill": {"color": _COLOURS[(c - 1) % len(_COLOURS)]},
            "gap": 60,
        })
        _cache(dist, bins, counts[c - 1])
    _style(dist, "NDCG distribution over queries", "NDCG", "queries")
    # Counts are whole numbers: ticks of 1 while few (no 0.5 queries), the
    # automatic whole steps beyond.
    peak = max((max(c, default=0) for c in counts), default=0)
    dist.set_y_axis({"name": "queries", "min": 0, "num_format": "0",
                     **({"major_unit": 1} if peak <= 10 else {}),
                     "major_gridlines": {"visible": True, "line": {"color": "#D9D9D9"}}})
    s.ws.insert_chart(anchor, 0, dist, {"x_offset": 4, "y_offset": 4, "object_position": 1})
    by_k = wb.add_chart({"type": "line"})
    # Two runs' means are often close (one cutoff: one point each, side by
    # side): run A's labels below its points, run B's above, never on each other.
    where = ["below", "above"] if len(runs) == 2 else ["above"] * len(runs)
    for n, (run, (lo, hi)) in enumerate(zip(runs, tables, strict=True)):
        by_k.add_series({
            "name": f"run {run.label}" if len(runs) > 1 else "mean NDCG",
            "categories": [SHEETS["report"], lo, 0, hi, 0],
            "values": [SHEETS["report"], lo, 1, hi, 1],
            "marker": {"type": "circle", "size": 7},
            "line": {"color": _COLOURS[n]}, "data_labels": {
                "value": True, "num_format": "0.00", "position": where[n]},
        })
        _cache(by_k, [f"NDCG@{format_cutoff(k)}" for k in run.ev.cutoffs],
               [m.mean for m in summarize(run.ev)])
    _style(by_k, "Mean NDCG against k (declared weighting)", "k", "mean NDCG")
    by_k.set_y_axis({"name": "mean NDCG", "min": 0, "max": 1, "major_gridlines": {
        "visible": True, "line": {"color": "#D9D9D9"}}})
    s.ws.insert_chart(anchor, 4, by_k, {"x_offset": 4, "y_offset": 4, "object_position": 1})
    if comparison is not None:
        pair, places, _ = comparison
        s.ws.insert_chart(anchor + CHART_ROWS, 0, _deltas_chart(wb, pair, places),
                          {"x_offset": 4, "y_offset": 4, "object_position": 1})
    return table_at


def _cache(chart: Any, categories: Sequence[str] | None, values: Sequence[float | None]) -> None:
    """The last series' values now (and its categories' text) stored with the
    chart, as the cells' cached results are: a viewer that does not calculate
    draws it, and text categories are written as text."""
    series = chart.series[-1]
    if categories is not None:
        chart.formula_data[series["cat_data_id"]] = list(categories)
    chart.formula_data[series["val_data_id"]] = list(values)


def _style(chart: Any, title: str, x: str, y: str) -> None:
    chart.set_title({"name": title, "name_font": {"size": 11, "bold": True}})
    chart.set_x_axis({"name": x})
    chart.set_y_axis({"name": y, "major_gridlines": {"visible": True,
                                                     "line": {"color": "#D9D9D9"}}})
    chart.set_legend({"position": "bottom"})
    chart.set_size(_SIZE)


def _distribution_table(s: ReportSheet, columns: Sequence[tuple[Run, int]], named: bool,
                        ) -> tuple[int, list[list[float]]]:
    """Queries per NDCG range, a column per (run, cutoff): COUNTIFS over the
    run's Queries sheet; returns the first data row (0-based) and each
    column's counts now."""
    counts: list[list[float]] = [[] for _ in columns]
    headers: list[str | Text] = ["NDCG range"]
    for run, j in columns:
        name = f"cut_{j + 1}"
        at = format_cutoff(run.ev.cutoffs[j])
        head = f"run {run.label}: NDCG@" if named else "NDCG@"
        headers.append(join([head, Text(f'IF(ISNUMBER({name}),{name},"all")', at)]))
    s.headers(headers)
    first = s.row
    for b in range(len(EDGES) - 1):
        lo, hi = EDGES[b], EDGES[b + 1]
        s.ws.write_string(s.row, 0, f"{lo:.1f} to {hi:.1f}", s.fmt.label)
        for c, (run, j) in enumerate(columns, start=1):
            test = []
            if b > 0:
                test.append(f'">={lo!r}"')
            if b < len(EDGES) - 2:
                test.append(f'"<{hi!r}"')
            formula, now = _count(run, j, test, lo if b > 0 else None,
                                  hi if b < len(EDGES) - 2 else None)
            s.ws.write_formula(s.row, c, formula, None, now)
            counts[c - 1].append(now)
        s.row += 1
    s.ws.write_string(s.row, 0, "no NDCG (status not ok)", s.fmt.label)
    for c, (run, j) in enumerate(columns, start=1):
        q = sheet_ref(run.queries)
        last = max(run.qrows, 2)
        col = chr(ord("A") + c)
        ev = run.ev
        s.ws.write_formula(
            s.row, c, f"=COUNTIFS({q}!$C$2:$C${last},{j + 1})-SUM({col}{first + 1}:"
            f"{col}{first + len(EDGES) - 1})", None,
            float(np.isnan(ev.ndcg[:, j]).sum()))
    s.row += 1
    return first, counts


def _count(run: Run, j: int, tests: list[str], lo: float | None,
           hi: float | None) -> tuple[str, float]:
    """The COUNTIFS of run's NDCG at cutoff ``j`` between ``lo`` (at least)
    and ``hi`` (below), and its value now."""
    q = sheet_ref(run.queries)
    last = max(run.qrows, 2)
    ndcg = f"{q}!$F$2:$F${last}"
    criteria = "".join(f",{ndcg},{t}" for t in tests)
    nd = run.ev.ndcg[:, j]
    nd = nd[~np.isnan(nd)]
    inside = np.ones(nd.size, dtype=bool)
    if lo is not None:
        inside &= nd >= lo
    if hi is not None:
        inside &= nd < hi
    return f"=COUNTIFS({q}!$C$2:$C${last},{j + 1}{criteria})", float(inside.sum())


def _deltas_chart(wb: Any, c: Comparison, places: ComparisonPlaces) -> Any:
    """The deltas B - A at the first cutoff, sorted from the largest loss to
    the largest gain: two series overlapped, the losses red and the gains
    green (the Comparison sheet's helper columns)."""
    chart = wb.add_chart({"type": "column"})
    n = max(places.n_common, 1)
    d0 = c.delta[:, 0]
    shown: list[float | None] = sorted(d0[~np.isnan(d0)].tolist())
    shown += [None] * (n - len(shown))
    for name, col, colour, sign in (("losses", SORTED_LOSSES, _LOSS, -1),
                                    ("gains", SORTED_GAINS, _GAIN, 1)):
        chart.add_series({
            "name": f"delta B - A: {name}",
            "values": [COMPARISON_SHEETS["comparison"], places.first - 1, col,
                       places.first - 2 + n, col],
            "fill": {"color": colour}, "gap": 30, "overlap": 100,
        })
        _cache(chart, None, [d if d is not None and (d < 0) == (sign < 0) else None
                             for d in shown])
    at = format_cutoff(c.conventions.cutoffs[0])
    _style(chart, f"Per-query delta B - A at the first cutoff (k = {at} at export), sorted",
           "queries, largest loss to largest gain", "delta B - A")
    chart.set_x_axis({"name": "queries, largest loss to largest gain",
                      "label_position": "low"})  # under the bars, not over the losses
    chart.set_size({"width": 900, "height": 300})
    chart.show_hidden_data()
    chart.show_na_as_empty_cell()
    chart.set_legend({"none": True})
    return chart
