"""The Report sheet: the first sheet, what a reviewer sends to the people who
decide. The result sentences, the conventions in words, the means with what
they included and excluded, the queries that regressed or are unresolved, and
charts; every number and sentence a live formula over the other sheets, so
that an edit in the Conventions sheet (or a grade) rewrites the report too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.analysis.aggregate import excluded_phrase, summarize
from core.analysis.compare import TIE_TOLERANCE, Comparison
from core.io.safety import column_letters
from core.io.workbook.audit import LOG_COVERS, changed_now, log_sentence
from core.io.workbook.charts import write_charts
from core.io.workbook.comparison import LOSSES_SO_FAR, ComparisonPlaces
from core.io.workbook.layout import (
    COMPARISON_SHEETS,
    SUMMARY_EXCLUSIONS,
    Formats,
    sheet_ref,
    summary_column,
)
from core.io.workbook.page import print_setup, set_widths
from core.io.workbook.queries import UNRESOLVED_SO_FAR, summary_row
from core.io.workbook.report_sheet import WIDTHS, ReportSheet, Run
from core.io.workbook.report_words import conventions_words, cutoff_text, weighting_text
from core.io.workbook.words import Text, join, value, when
from core.model.conventions import Weighting, format_cutoff
from core.model.document import RANKINGS
from core.model.numbers import counted

#: Rows kept for a list of queries (the rest are counted, and in their sheet).
LISTED = 20


def write_report(wb: Any, ws: Any, fmt: Formats, runs: Sequence[Run],
                 comparison: tuple[Comparison, ComparisonPlaces, tuple[str, str]] | None = None,
                 ) -> None:
    """The Report sheet ``ws`` of one run, or of two runs and their comparison
    (``comparison``: what was compared, where the Comparison sheet holds it,
    and the runs' names)."""
    s = ReportSheet(ws, fmt)
    set_widths(ws, WIDTHS)
    ev = runs[0].ev
    doc = ev.doc
    _heading(s, runs, comparison)
    s.section("Results")
    if comparison is None:
        # The sentences read the means table below them: the rows in between
        # are the sentences, the conventions section and the table's heading.
        means_at = s.row + runs[0].n_cutoffs + 2 + len(conventions_words(ev)) + 3
        for j in range(runs[0].n_cutoffs):
            s.line(_mean_sentence(runs[0], j, means_at + j + 1))
    else:
        c, places, _ = comparison
        for j in range(len(c.conventions.cutoffs)):
            s.line(_comparison_sentence(c, places, j))
    s.section("Conventions (as the Conventions sheet holds them now)")
    for label, text in conventions_words(ev):
        s.labelled(label, text)
    # A comparison's tables (two runs' means, the paired means, the lists)
    # start a page: page 1 ran over by a line or two (LibreOffice's PDF of
    # compare --k 10 printed "Unresolved queries in run B: none" alone on
    # page 2), or left a heading at its foot with its table overleaf.
    breaks = [s.row] if comparison is not None else []
    tables = [_means_table(s, run, len(runs) > 1) for run in runs]
    if comparison is None and tables[0][0] != means_at:
        raise RuntimeError("the Report's sentences point at the wrong rows")
    if comparison is not None:
        _paired_table(s, *comparison[:2])
        _regressed(s, *comparison[:2])
    for run in runs:
        _unresolved(s, run, len(runs) > 1)
    breaks.append(s.row)  # the charts on a page of their own
    # An .ods carries no charts (docs/workbook.md): its Report says so rather
    # than print a "Charts" heading over half a page left blank for them.
    drawn = getattr(wb, "rendered_rows", None) is None
    s.section("Charts" if drawn else "Charts: in the .xlsx only (an .ods is written "
              "without them; the table below is their data)")
    table_at = write_charts(wb, s, runs, tables, comparison, drawn=drawn)
    if drawn and comparison is not None:
        # (two rows of charts fill the page: the table below them ran over
        # it, its last rows on the next page without its header)
        breaks.append(table_at)
    ws.set_h_pagebreaks(breaks)
    s.section(f"Audit log: {LOG_COVERS}")
    s.line(log_sentence(doc))
    s.line(changed_now(doc))
    print_setup(ws, doc.judgment_version, gridlines=False)


def _heading(s: ReportSheet, runs: Sequence[Run],
             comparison: tuple[Comparison, ComparisonPlaces, tuple[str, str]] | None) -> None:
    """The title and what the report is about."""
    doc = runs[0].ev.doc
    version = (f"judgment version {doc.judgment_version!r}" if doc.judgment_version
               else "judgment version not declared")
    live = ("Every number and sentence here is a live formula over the other sheets: edit a "
            "convention in the Conventions sheet, or a grade in Candidates, and it recomputes. "
            "NDCG Worksheet takes those edits when it reopens this file.")
    if comparison is None:
        s.line(f"NDCG report: {doc.name}" if doc.name else "NDCG report", s.fmt.title)
        s.line(f"{counted(doc.n_queries)}, {counted(len(doc), 'candidate', 'candidates')}; "
               f"{version}. {live}")
        if doc.ranking:
            s.line(f"Ranking: {RANKINGS[doc.ranking]}.")
        return
    c, _, (name_a, name_b) = comparison
    s.line("NDCG comparison report: run B against run A", s.fmt.title)
    s.line(f"Run A: {name_a}. Run B: {name_b}. "
           f"{counted(len(c.common), 'query in both runs is', 'queries in both runs are')} "
           f"compared ({len(c.only_a)} only in A, {len(c.only_b)} only in B are not); "
           + (f"not compared either: {c.left_out.phrase()}; " if c.left_out else "")
           + f"{version}. {live}")


def _pick(run: Run, col: str, j: int) -> str:
    """The formula of Summary column ``col`` at cutoff ``j`` under the
    declared weighting (equal when the weighting cell holds none)."""
    sheet = sheet_ref(run.summary)

    def at(w: Weighting) -> str:
        return f"{sheet}!${col}${summary_row(w, j, run.n_cutoffs)}"

    return (f'IF(weighting="frequency",{at(Weighting.FREQUENCY)},'
            f'IF(weighting="importance",{at(Weighting.IMPORTANCE)},{at(Weighting.EQUAL)}))')


def _means_table(s: ReportSheet, run: Run, titled: bool) -> tuple[int, int]:
    """The means under the declared weighting per cutoff (rows of the run's
    Summary sheet); returns the table's first and last data rows (0-based)."""
    ev = run.ev
    title = "Means under the declared weighting" + (f": run {run.label}" if titled else "")
    s.section(title)
    s.headers(["NDCG at", "mean NDCG", "queries included",
               *(f"excluded: {why}" for why in SUMMARY_EXCLUSIONS), "weight total"])
    first = s.row
    for j, summary in enumerate(summarize(ev)):
        r = s.row
        ws = s.ws
        ws.write_formula(r, 0, "=" + join(["NDCG@", cutoff_text(j, ev)]).formula, s.fmt.label,
                         f"NDCG@{format_cutoff(summary.k)}")
        mean = summary.mean if summary.mean is not None else ""
        ws.write_formula(r, 1, "=" + _pick(run, summary_column("mean NDCG")[1], j),
                         s.fmt.number, mean)
        counts = [("included", summary.included),
                  *((f"excluded: {why}", summary.excluded.get(why, 0))
                    for why in SUMMARY_EXCLUSIONS),
                  ("weight total", summary.weight_total)]
        for c, (name, now) in enumerate(counts, start=2):
            ws.write_formula(r, c, "=" + _pick(run, summary_column(name)[1], j), None, float(now))
        s.row += 1
    return first, s.row - 1


def _mean_sentence(run: Run, j: int, x: int) -> Text:
    """The sentence of the mean at cutoff ``j`` over the means table's row
    ``x`` (1-based): the weighting, the population, what was left out."""
    ev = run.ev
    summary = summarize(ev)[j]
    ex = summary.excluded
    # the means table's "excluded: ..." cells, from its column D on
    cells = [(f"{chr(ord('D') + i)}{x}", why) for i, why in enumerate(SUMMARY_EXCLUSIONS)]
    listed = Text(
        "MID(" + "&".join(f'IF({c}>0,", "&{c}&" {why}","")' for c, why in cells) + ",3,200)",
        excluded_phrase(ex, label="")[2:])
    none_left = "+".join(c for c, _ in cells) + "=0"
    mean = summary.mean
    return join([
        "The ", weighting_text(ev), " of NDCG@", cutoff_text(j, ev), " over ",
        value(f"C{x}", summary.included), f" of {counted(ev.doc.n_queries_named)} is ",
        when(f"ISNUMBER(B{x})", mean is not None, value(f"B{x}", "" if mean is None else mean,
                                                         "4"),
             "not defined (no query included)"),
        " (excluded: ", when(none_left, not ex, "none", listed), ").",
    ])


def _comparison_sentence(c: Comparison, places: ComparisonPlaces, j: int) -> Text:
    """The sentence of the comparison at cutoff ``j``: both means, the delta,
    wins and losses, and the resampling results computed at export."""
    sheet = sheet_ref(COMPARISON_SHEETS["comparison"])
    m, x = places.means_rows[j], places.resampling_rows[j]
    t = c.tests[j]

    def ref(col: str, row: int) -> str:
        return f"{sheet}!${col}${row}"

    paired = join([
        "mean NDCG ", value(ref("E", m), t.mean_a if t.mean_a is not None else "", "4"),
        " (A) and ", value(ref("F", m), t.mean_b if t.mean_b is not None else "", "4"),
        " (B) over ", value(ref("C", m), t.n), " paired queries, delta B - A = ",
        value(ref("G", m), t.mean_delta if t.mean_delta is not None else "", "+4"),
        # (counts after their words, as compare prints them: "1 ties" read wrong)
        " (B wins ", value(ref("H", m), t.wins), ", ties ", value(ref("I", m), t.ties),
        ", loses ", value(ref("J", m), t.losses), ")"])
    p = when(f"ISNUMBER({ref('C', x)})", t.p_value is not None,
             value(ref("C", x), t.p_value if t.p_value is not None else "", "4"), "not computed")
    interval = when(
        f"ISNUMBER({ref('G', x)})", t.ci_low is not None,
        join(["[", value(ref("G", x), t.ci_low if t.ci_low is not None else "", "+4"), ", ",
              value(ref("H", x), t.ci_high if t.ci_high is not None else "", "+4"), "]"]),
        "not computed")
    return join([
        "At k = ", Text(ref("A", m), format_cutoff(c.conventions.cutoffs[j])), ": ",
        when(f"{ref('C', m)}>0", t.n > 0, paired,
             "no query has an NDCG in both runs and a weight"),
        "; randomization p = ", p, ", ", value(ref("I", x), t.confidence, "%"),
        " bootstrap interval of the delta ", interval, " (computed at export; ",
        Text(ref("M", x), "current"), ")."])


def _paired_table(s: ReportSheet, c: Comparison, places: ComparisonPlaces) -> None:
    """The paired means per cutoff, read from the Comparison sheet."""
    sheet = sheet_ref(COMPARISON_SHEETS["comparison"])
    s.section("Paired means (queries with an NDCG in both runs and a weight)")
    s.headers(["NDCG at", "paired queries", "mean NDCG A", "mean NDCG B", "mean delta B - A",
               "B wins", "ties", "B loses"])
    for j, t in enumerate(c.tests):
        m = places.means_rows[j]
        r = s.row
        s.ws.write_formula(r, 0, f'="NDCG@"&{sheet}!$A${m}', s.fmt.label,
                           f"NDCG@{format_cutoff(c.conventions.cutoffs[j])}")
        for col, letter, now, style in (
            (1, "C", float(t.n), None), (2, "E", t.mean_a, s.fmt.number),
            (3, "F", t.mean_b, s.fmt.number), (4, "G", t.mean_delta, s.fmt.signed),
            (5, "H", float(t.wins), None), (6, "I", float(t.ties), None),
            (7, "J", float(t.losses), None),
        ):
            s.ws.write_formula(r, col, f"={sheet}!${letter}${m}", style,
                               "" if now is None else now)
        s.row += 1


def _listed(s: ReportSheet, how_many: tuple[str, int], rows: int,
            columns: Sequence[tuple[str, str, Any]], sheet_rows: tuple[str, str, int, int],
            values: Sequence[Sequence[Any]], more: str) -> None:
    """Up to ``rows`` items found by their running number (``sheet_rows``:
    the sheet, the running-count column's letter, its first and last rows,
    1-based), each with ``columns`` (header, column letter, style) of the
    sheet; ``how_many``: the formula of how many there are and their number now,
    ``values``: the items' values now. The rows beyond those filled at export
    are hidden (they fill in, and a line says so, when edits add items)."""
    sheet, so_far, top, last = sheet_rows
    count, count_now = how_many
    s.headers([h for h, _, _ in columns])
    if not count_now:
        s.ws.set_row(s.row - 1, None, None, {"hidden": True})
    shown = min(count_now, rows)
    span = f"{sheet}!${so_far}${top}:${so_far}${last}"
    for i in range(1, rows + 1):
        if i > shown:
            s.ws.set_row(s.row, None, None, {"hidden": True})
        for col, (_, letter, style) in enumerate(columns):
            now = values[i - 1][col] if i <= len(values) else ""
            s.ws.write_formula(
                s.row, col, f'=IF({i}<={count},INDEX({sheet}!${letter}${top}:${letter}${last},'
                f'MATCH({i},{span},0)),"")', style, now)
        s.row += 1
    if shown < last - top + 1:
        hidden = f" ({counted(rows - shown, 'row')} hidden above)" if rows > shown else ""
        s.line(Text(f'IF({count}>{shown},{count}-{shown}&" more{hidden}: {more}","")',
                    f"{count_now - shown} more{hidden}: {more}" if count_now > shown else ""))


def _unresolved(s: ReportSheet, run: Run, titled: bool) -> None:
    """The queries with no NDCG until their unknown grades are judged."""
    ev = run.ev
    sheet = sheet_ref(run.queries)
    so_far = column_letters(UNRESOLVED_SO_FAR + 1)
    last = max(run.qrows, 2)
    count = f"{sheet}!${so_far}${last}"
    queries = [q for q in range(ev.doc.n_queries) if ev.status(q, 0).value == "unresolved"]
    whose = f" in run {run.label}" if titled else ""
    s.section(when(f"{count}=0", not queries, f"Unresolved queries{whose}: none",
                   join([f"Unresolved queries{whose}: ", value(count, len(queries)),
                         " (no NDCG until their unknown grades are judged)"])))
    values = [(ev.doc.query_ids[q], float(ev.n_judged[q]), float(ev.n_total[q]),
               float(ev.n_open[q])) for q in queries[:LISTED]]
    _listed(s, (count, len(queries)), min(LISTED, ev.doc.n_queries),
            [("query", "A", None), ("judged", "H", None), ("total", "I", None),
             ("open (unknown)", "J", None)],
            (sheet, so_far, 2, last), values, f"filter the {run.queries} sheet's status column")


def _regressed(s: ReportSheet, c: Comparison, places: ComparisonPlaces) -> None:
    """The query and cutoff pairs where B loses against A."""
    sheet = sheet_ref(COMPARISON_SHEETS["comparison"])
    letter = column_letters(LOSSES_SO_FAR + 1)
    count = f"{sheet}!${letter}${places.last}"
    cutoffs = c.conventions.cutoffs
    losses = [(i, j) for i in range(len(c.common)) for j in range(len(cutoffs))
              if c.delta[i, j] < -TIE_TOLERANCE]
    s.section(when(f"{count}=0", not losses, "Queries where B is worse than A: none",
                   join(["Queries where B is worse than A: ", value(count, len(losses)),
                         " (query and cutoff pairs whose delta is below minus the tie "
                         "tolerance)"])))
    values = [(c.common[i], "all" if cutoffs[j] is None else float(cutoffs[j] or 0),
               float(c.ndcg_a[i, j]), float(c.ndcg_b[i, j]), float(c.delta[i, j]))
              for i, j in losses[:LISTED]]
    _listed(s, (count, len(losses)), min(LISTED, len(c.common) * len(cutoffs)),
            [("query", "A", None), ("k", "B", None), ("NDCG A", "D", s.fmt.number),
             ("NDCG B", "F", s.fmt.number), ("delta B - A", "H", s.fmt.signed)],
            (sheet, letter, places.first, places.last), values,
            "filter the Comparison sheet's outcome column")
