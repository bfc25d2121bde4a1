"""The workbook as people read and print it, checked in the written XML and
with openpyxl: the Report sheet's sentences and lists, number formats (full
precision kept), frozen and sized header rows, hidden sections, the print
setup, the charts and the ranges they plot, no visible stand-in (1E+09) and
Excel's limits on formula text."""

from __future__ import annotations

import dataclasses
import math
import re
import zipfile
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from core.analysis.compare import compare
from core.engine.evaluation import evaluate
from core.io.workbook import (
    COMPARISON_HEADER_ROW,
    COMPARISON_SHEETS,
    SHEETS,
    export_comparison_workbook,
    export_workbook,
)
from core.io.workbook.layout import ALL_K
from core.model.conventions import Conventions
from core.model.document import Document
from core.model.examples import seed_document
from tests.test_workbook_comparison import seed_pair
from tests.test_workbook_export import make_document

VISIBLE = [SHEETS[k] for k in ("report", "conventions", "candidates", "queries", "summary",
                               "audit")]


@pytest.fixture(scope="module")
def seed_book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("seed") / "seed.xlsx"
    export_workbook(evaluate(seed_document()), path)
    return path


@pytest.fixture(scope="module")
def pair_book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    a, b = seed_pair()
    path = tmp_path_factory.mktemp("pair") / "pair.xlsx"
    export_comparison_workbook(compare(a, b, resamples=200, seed=3), path,
                               name_a="run A", name_b="run B")
    return path


def _cells(path: Path, sheet: str) -> dict[str, Any]:
    """Coordinate -> cached value of every non-empty cell of ``sheet``."""
    wb = openpyxl.load_workbook(path, data_only=True)
    try:
        return {c.coordinate: c.value for row in wb[sheet].iter_rows() for c in row
                if c.value not in (None, "")}
    finally:
        wb.close()


def _column(cells: dict[str, Any], letter: str) -> list[Any]:
    return [v for ref, v in sorted(cells.items(), key=lambda kv: int(kv[0].lstrip("ABCDEFGHI")))
            if re.fullmatch(letter + r"\d+", ref)]


# -- the Report ----------------------------------------------------------------------------
def test_report_is_the_first_sheet_and_reads_as_a_report(seed_book: Path) -> None:
    wb = openpyxl.load_workbook(seed_book)
    assert wb.sheetnames[0] == SHEETS["report"]
    assert wb.active.title == SHEETS["report"]
    wb.close()
    texts = list(_cells(seed_book, SHEETS["report"]).values())
    # Hand-derived from docs/conventions.md: NDCG@1 of A..F-zero (6 ok, one
    # undefined, one unresolved): (1/3 + 0 + 1/3 + 1/3 + 1/2 + 2/3) / 6.
    mean1 = (1 / 3 + 0 + 1 / 3 + 1 / 3 + 1 / 2 + 2 / 3) / 6
    assert (f"The equal-query mean of NDCG@1 over 6 of 8 queries is {mean1:.4f} "
            "(excluded: 1 undefined, 1 unresolved).") in texts
    assert any(str(t).startswith("The equal-query mean of NDCG@all over 6 of 8") for t in texts)
    assert "linear gain (gain = grade)" in texts
    assert "k = 1, 2, all; the same k cuts the actual and the ideal list" in texts
    assert "Unresolved queries: 1 (no NDCG until their unknown grades are judged)" in texts
    assert "case-F-unknown" in texts
    assert "NDCG report: seed cases A-F" in texts
    assert "No grade, note or convention was changed in NDCG Worksheet up to this export." in texts


def test_report_means_are_the_summary_numbers_at_full_precision(seed_book: Path) -> None:
    ev = evaluate(seed_document())
    wb = openpyxl.load_workbook(seed_book, data_only=True)
    ws = wb[SHEETS["report"]]
    rows = {ws.cell(r, 1).value: r for r in range(1, ws.max_row + 1)}
    from core.analysis.aggregate import summarize

    for s in summarize(ev):
        r = rows[f"NDCG@{'all' if s.k is None else s.k}"]
        assert ws.cell(r, 2).value == s.mean  # full precision in the cell
        assert ws.cell(r, 2).number_format == "0.0000"
        assert [ws.cell(r, c).value for c in range(3, 8)] == [
            s.included, s.excluded.get("undefined", 0), 0, s.excluded.get("unresolved", 0), 0]
    wb.close()
    formulas = openpyxl.load_workbook(seed_book)[SHEETS["report"]]
    r = rows["NDCG@1"]
    assert formulas.cell(r, 2).value == (
        '=IF(weighting="frequency",Summary!$C$5,IF(weighting="importance",Summary!$C$8,'
        "Summary!$C$2))")


def test_an_empty_list_is_hidden_and_a_long_one_is_cut(tmp_path: Path) -> None:
    # No unknown grade: the unresolved list's rows are hidden.
    doc = make_document(3)
    out = tmp_path / "w.xlsx"
    export_workbook(evaluate(doc, Conventions(unknown="zero")), out)
    ws = openpyxl.load_workbook(out)[SHEETS["report"]]
    title = next(r for r in range(1, ws.max_row + 1)
                 if str(ws.cell(r, 1).value).startswith("=IF(Queries!$Q$"))
    assert not ws.row_dimensions[title].hidden
    assert all(ws.row_dimensions[r].hidden for r in range(title + 1, title + 3))
    # Thirty unresolved queries: twenty listed, and a line saying ten more.
    queries = [f"q{i:02d}" for i in range(30) for _ in range(2)]
    doc = Document.from_columns(query=queries, source_id=["a", "b"] * 30,
                                score=[2.0, 1.0] * 30, grade=[1.0, None] * 30)
    export_workbook(evaluate(doc), out)
    texts = list(_cells(out, SHEETS["report"]).values())
    assert "Unresolved queries: 30 (no NDCG until their unknown grades are judged)" in texts
    assert "q19" in texts
    assert "q20" not in texts
    assert "10 more: filter the Queries sheet's status column" in texts


# -- formats, frozen headers, sizes ----------------------------------------------------------
def test_numbers_show_four_decimals_and_keep_every_digit(seed_book: Path) -> None:
    ev = evaluate(seed_document())
    wb = openpyxl.load_workbook(seed_book, data_only=True)
    q = wb[SHEETS["queries"]]
    for col in "DEF":
        assert q[f"{col}2"].number_format == "0.0000", col
    assert q["F2"].value == float(ev.ndcg[0, 0])  # 1/3 with every digit
    assert q["F2"].value == 1 / 3
    cands = wb[SHEETS["candidates"]]
    for col in "JKLNO":
        assert cands[f"{col}2"].number_format == "0.0000", col
    assert cands["K3"].value == 1 / math.log2(3)
    assert wb[SHEETS["summary"]]["C2"].number_format == "0.0000"
    for col in "ABCDIM":  # text, scores, grades, ranks: as they are
        assert cands[f"{col}2"].number_format == "General", col
    wb.close()


def test_header_rows_frozen_styled_and_tall_enough(seed_book: Path) -> None:
    wb = openpyxl.load_workbook(seed_book)
    frozen = {SHEETS["conventions"]: "A4", SHEETS["candidates"]: "C2", SHEETS["queries"]: "B2",
              SHEETS["summary"]: "B2", SHEETS["audit"]: "A2"}
    for sheet, cell in frozen.items():
        assert wb[sheet].freeze_panes == cell, sheet
    cands = wb[SHEETS["candidates"]]
    assert cands["D1"].font.b
    assert cands["D1"].alignment.wrap_text
    # "predicted score" takes two lines: the row is at least two lines tall,
    # and no column is narrower than the longest word of its header.
    assert cands.row_dimensions[1].height >= 30
    for c, header in enumerate(("query", "source id", "version", "predicted score",
                                "original grade", "current grade", "grade state", "note",
                                "rank", "transformed gain", "discount", "contribution",
                                "ideal list k", "k-th ideal gain", "k-th ideal contribution"),
                         start=1):
        letter = openpyxl.utils.get_column_letter(c)
        width = cands.column_dimensions[letter].width
        assert width >= max(len(w) for w in header.split()), header
    # The query column fits the longest query id.
    assert cands.column_dimensions["A"].width >= len("case-D-plus-one")
    wb.close()


def test_booleans_read_true_false_and_k_all_is_never_a_number_on_view(seed_book: Path) -> None:
    wb = openpyxl.load_workbook(seed_book)
    conv = wb[SHEETS["conventions"]]
    names = {n: d.attr_text.split("!")[1].replace("$", "") for n, d in wb.defined_names.items()}
    for name in ("negative_gain_zero", "truncate_grades"):
        cell = conv[names[name]]
        assert cell.data_type == "b"
        assert cell.number_format == '"TRUE";"TRUE";"FALSE"'
    # The stand-in for k = all lives only in a hidden column, shown as "all".
    stand_ins = []
    for sheet in VISIBLE:
        ws = wb[sheet]
        for row in ws.iter_rows():
            for c in row:
                if isinstance(c.value, int | float) and c.value >= ALL_K:
                    stand_ins.append((sheet, c.coordinate))
        for row in openpyxl.load_workbook(seed_book, data_only=True)[sheet].iter_rows():
            for c in row:
                if isinstance(c.value, int | float) and not isinstance(c.value, bool) and (
                        c.value >= ALL_K):
                    stand_ins.append((sheet, c.coordinate))
                    assert sheet == SHEETS["conventions"]
                    assert c.column_letter == "D"
                    assert "D" in _hidden_columns(ws)
                    assert '"all"' in ws[c.coordinate].number_format
    assert stand_ins  # cutoff 3 is all
    wb.close()


def test_weighting_columns_hidden_when_the_document_has_no_weights(tmp_path: Path) -> None:
    wb = openpyxl.load_workbook(_book(tmp_path, seed_document()))
    q = wb[SHEETS["queries"]]
    assert _hidden_columns(q) == set("KLMNOPQ")  # Q: the Report's helper
    summary = wb[SHEETS["summary"]]
    assert [summary.row_dimensions[r].hidden for r in range(2, 11)] == [False] * 3 + [True] * 6
    doc = make_document(2)  # frequency and importance declared for some queries
    wb = openpyxl.load_workbook(_book(tmp_path, doc))
    assert _hidden_columns(wb[SHEETS["queries"]]) == {"Q"}


def _hidden_columns(ws: Any) -> set[str]:
    """Letters of the hidden columns (openpyxl keeps a run of like columns as one)."""
    out = set()
    for dim in ws.column_dimensions.values():
        if dim.hidden:
            out |= {openpyxl.utils.get_column_letter(c) for c in range(dim.min, dim.max + 1)}
    return out


def _book(tmp_path: Path, doc: Any) -> Path:
    out = tmp_path / f"{doc.name or 'seed'}.xlsx"
    export_workbook(evaluate(doc), out)
    return out


# -- paper ---------------------------------------------------------------------------------
def test_print_setup(seed_book: Path, pair_book: Path) -> None:
    for path, sheets in ((seed_book, VISIBLE),
                         (pair_book, [*VISIBLE, *COMPARISON_SHEETS.values()])):
        wb = openpyxl.load_workbook(path)
        for sheet in sheets:
            ws = wb[sheet]
            ps = ws.page_setup
            assert ps.orientation == "landscape", sheet
            assert ws.sheet_properties.pageSetUpPr.fitToPage, sheet
            assert ps.fitToWidth in (None, 1), sheet  # None: the default, 1
            assert ps.fitToHeight == (None if sheet == SHEETS["conventions"] else 0), sheet
            assert ws.oddHeader.left.text == "&F", sheet
            assert ws.oddHeader.right.text == "judgment version seed-cases-v1", sheet
            assert ws.oddFooter.center.text == "Page &P of &N", sheet
        for sheet in (SHEETS["candidates"], SHEETS["queries"]):
            assert wb[sheet].print_title_rows == "$1:$1"
            assert wb[sheet].print_title_cols == "$A:$A"
        assert wb[SHEETS["candidates"]].print_area == "'Candidates'!$A$1:$O$24" or (
            path == pair_book)
        wb.close()
    wb = openpyxl.load_workbook(pair_book)
    ws = wb[COMPARISON_SHEETS["comparison"]]
    top = COMPARISON_HEADER_ROW + 1
    assert ws.print_title_rows == f"${top}:${top}"
    assert ws.print_title_cols == "$A:$A"
    assert ws.print_area.endswith(":$N$" + ws.print_area.rsplit("$", 1)[1])
    wb.close()


def test_a_page_header_keeps_an_ampersand_in_the_version(tmp_path: Path) -> None:
    doc = seed_document()
    doc.judgment_version = "R&D round 2"
    out = tmp_path / "w.xlsx"
    export_workbook(evaluate(doc), out)
    with zipfile.ZipFile(out) as z:
        xml = z.read("xl/worksheets/sheet1.xml").decode()
    assert "judgment version R&amp;&amp;D round 2" in xml  # && prints one &


# -- charts --------------------------------------------------------------------------------
def test_charts_plot_the_report_tables(seed_book: Path) -> None:
    wb = openpyxl.load_workbook(seed_book)
    ws = wb[SHEETS["report"]]
    rows = {ws.cell(r, 1).value: r for r in range(1, ws.max_row + 1)}
    first, last = rows["0.0 to 0.1"], rows["0.9 to 1.0"]
    assert last - first == 9
    dist, by_k = ws._charts
    assert type(dist).__name__ == "BarChart"
    # Whole queries: the count axis from 0 in steps of 1 (a few queries), no 0.5.
    assert (dist.y_axis.scaling.min, dist.y_axis.majorUnit) == (0, 1)
    assert dist.y_axis.numFmt.formatCode == "0"
    assert [s.val.numRef.f for s in dist.series] == [
        f"Report!${c}${first}:${c}${last}" for c in "BCD"]
    assert dist.series[0].cat.strRef.f == f"Report!$A${first}:$A${last}"  # text, not numbers
    assert type(by_k).__name__ == "LineChart"
    values = {v: int(ref[1:]) for ref, v in _cells(seed_book, SHEETS["report"]).items()
              if ref.startswith("A")}
    means = values["NDCG@1"]
    assert [s.val.numRef.f for s in by_k.series] == [f"Report!$B${means}:$B${means + 2}"]
    assert by_k.series[0].cat.strRef.f == f"Report!$A${means}:$A${means + 2}"
    wb.close()
    # The distribution's counts: hand-derived from the seed's NDCG@1 values
    # (1/3 x3, 0, 1/2, 2/3; two without a value).
    wb = openpyxl.load_workbook(seed_book, data_only=True)
    ws = wb[SHEETS["report"]]
    assert [ws.cell(r, 2).value for r in range(first, last + 2)] == [
        1, 0, 0, 3, 0, 1, 1, 0, 0, 0, 2]
    wb.close()
    # The charts carry the same numbers, for viewers that do not calculate.
    cache = dist.series[0].val.numRef.numCache
    assert [float(p.v) for p in cache.pt] == [1, 0, 0, 3, 0, 1, 1, 0, 0, 0]
    assert [p.v for p in dist.series[0].cat.strRef.strCache.pt][:2] == ["0.0 to 0.1",
                                                                        "0.1 to 0.2"]


def test_comparison_report_lists_regressions_and_charts_sorted_deltas(pair_book: Path) -> None:
    wb = openpyxl.load_workbook(pair_book)
    ws = wb[SHEETS["report"]]
    charts = ws._charts
    assert [type(c).__name__ for c in charts] == ["BarChart", "LineChart", "BarChart"]
    first = COMPARISON_HEADER_ROW + 2
    n_common = 7  # the seed pair shares seven queries
    # Two series overlapped, over the sorted deltas split into losses (red)
    # and gains (green): LibreOffice ignores a single series' colour for
    # negative values and drew losses green.
    losses, gains = charts[2].series
    assert losses.val.numRef.f == f"Comparison!$S${first}:$S${first + n_common - 1}"
    assert gains.val.numRef.f == f"Comparison!$R${first}:$R${first + n_common - 1}"
    assert (losses.spPr.solidFill.srgbClr, gains.spPr.solidFill.srgbClr) == (
        "D62728", "2CA02C")
    assert charts[2].overlap == 100
    assert len(charts[1].series) == 2  # runs A and B against k
    # Their labels apart: A's below its points, B's above (at one cutoff the
    # two labels were drawn over each other).
    assert [s.dLbls.dLblPos for s in charts[1].series] == ["b", "t"]
    wb.close()
    texts = list(_cells(pair_book, SHEETS["report"]).values())
    # case-B got worse in B at k = 2 and all (hand-derived in test_workbook_comparison).
    assert any(str(t).startswith("Queries where B is worse than A: 2") for t in texts)
    assert texts.count("case-B") >= 2
    cmp_values = _cells(pair_book, COMPARISON_SHEETS["comparison"])
    sorted_deltas = [cmp_values.get(f"P{r}") for r in range(first, first + n_common)]
    numbers = [v for v in sorted_deltas if isinstance(v, float | int)]
    assert numbers == sorted(numbers)
    assert sorted_deltas[len(numbers):] == ["#N/A"] * (n_common - len(numbers))
    assert any(str(t).startswith("At k = 1: mean NDCG ") for t in texts)


def test_the_comparison_sentence_counts_wins_ties_and_losses_as_the_command_line_does(
        pair_book: Path) -> None:
    """"B wins 4, ties 1, loses 1", as compare prints it, whatever the
    counts (the Report read "4 B wins, 1 ties, 1 B loses" in a new user's
    trial, printed to PDF by LibreOffice)."""
    a, b = seed_pair()
    tests = compare(a, b, resamples=200, seed=3).tests
    texts = [str(t) for t in _cells(pair_book, SHEETS["report"]).values()
             if str(t).startswith("At k = ")]
    assert len(texts) == len(tests) > 1
    for text, t in zip(texts, tests, strict=True):
        assert f"(B wins {t.wins}, ties {t.ties}, loses {t.losses})" in text, text


def test_the_delta_chart_draws_losses_and_gains_apart(tmp_path: Path) -> None:
    """Each sorted delta is in the gains' column (R) or the losses' (S),
    "#N/A" (no bar) in the other, and the chart's cached bars are the same
    (first cutoff k = 2: case-A gains, case-B loses; at k = 1 B only gains)."""
    a, b = seed_pair()
    path = tmp_path / "k2.xlsx"
    conv = a.conventions.replace(cutoffs=(2, None))
    export_comparison_workbook(compare(a, b, conv, resamples=20, seed=3), path)
    first = COMPARISON_HEADER_ROW + 2
    cells = _cells(path, COMPARISON_SHEETS["comparison"])
    numbers = [v for r in range(first, first + 7) if isinstance(v := cells.get(f"P{r}"), float)]
    assert any(d < 0 for d in numbers)
    assert any(d > 0 for d in numbers)
    split = [(cells.get(f"R{r}"), cells.get(f"S{r}")) for r in range(first, first + len(numbers))]
    assert split == [(d, "#N/A") if d >= 0 else ("#N/A", d) for d in numbers]
    wb = openpyxl.load_workbook(path)
    losses, gains = wb[SHEETS["report"]]._charts[2].series
    wb.close()
    for series, kept in ((losses, lambda d: d < 0), (gains, lambda d: d >= 0)):
        cached = {int(p.idx): float(p.v) for p in series.val.numRef.numCache.pt}
        assert cached == {i: d for i, d in enumerate(numbers) if kept(d)}


def test_formula_text_within_excel_limits(seed_book: Path, pair_book: Path) -> None:
    # Excel refuses a formula over 8,192 characters or a text literal over 255.
    for path in (seed_book, pair_book):
        wb = openpyxl.load_workbook(path)
        for ws in wb.worksheets:
            for row in ws.iter_rows():
                for c in row:
                    if c.data_type == "f":
                        assert len(c.value) <= 8192, (ws.title, c.coordinate)
                        for literal in re.findall(r'"((?:[^"]|"")*)"', c.value):
                            assert len(literal) <= 255, (ws.title, c.coordinate, literal)
                        assert "_xlfn" not in c.value
        wb.close()


def _annotated(doc: Document) -> Document:
    """``doc`` with two annotators' grades kept beside each grade."""
    import numpy as np

    doc.annotators = ["ann", "bob"]
    doc.ratings = np.column_stack([doc.grade, doc.grade])
    return doc


def test_the_consensus_is_said_only_of_a_document_holding_annotators_grades(
        tmp_path: Path) -> None:
    """'consensus: mean of the annotators' grades' of a document without
    annotators said a thing that never happened: the Report and evaluate's
    table leave the row out there, and keep it where annotators' grades are."""
    import io

    from core.reports.table import print_table

    consensus = "mean of the annotators' grades, no rounding"
    for doc, said in ((seed_document(), False), (_annotated(seed_document()), True)):
        path = tmp_path / f"{said}.xlsx"
        export_workbook(evaluate(doc), path)
        cells = _cells(path, SHEETS["report"])
        labels = [v for ref, v in cells.items() if re.fullmatch(r"A\d+", ref)]
        assert ("consensus" in labels) is said
        assert any(str(v).startswith("mean of the annotators' grades (grade = mean(")
                   for v in cells.values()) is said
        assert "judgment version" in labels
        out = io.StringIO()
        print_table(evaluate(doc), out)
        assert (f"  consensus              {consensus}  [" in out.getvalue()) is said
        assert "  aggregation            equal-query mean" in out.getvalue()


def test_the_audit_sheet_shows_each_change_s_time_whole(tmp_path: Path) -> None:
    """The Audit sheet's "when" column was 21 characters wide unless an
    edit made outside the app was dated: a grade typed in the editor is
    stamped 2026-12-06T15:12:15+00:00 (25 characters), so LibreOffice's
    PDF of the sheet showed "+00:0" and the query's "1" beside it, read as
    "+00:01". The column fits the longest stamp."""
    doc = seed_document()
    entry = doc.set_grade(0, 2.0, who="ana")
    path = tmp_path / "w.xlsx"
    export_workbook(evaluate(doc), path)
    ws = openpyxl.load_workbook(path)[SHEETS["audit"]]
    assert ws["B2"].value == entry.when
    assert len(entry.when) == len("2026-12-06T15:12:15+00:00")
    assert ws.column_dimensions["B"].width >= len(entry.when) + 1


def test_a_comparison_report_prints_its_distribution_table_whole(tmp_path: Path) -> None:
    """A comparison's Report draws three charts (two rows of them) on the
    charts' page: the distribution's table below them ran over it, its last
    rows on the next page without its header (LibreOffice's PDF of a
    compare --export). The table starts a page of its own there; a single
    run's, with one row of charts, stays on the charts' page."""
    a, b = seed_pair()
    pair = tmp_path / "pair.xlsx"
    export_comparison_workbook(compare(a, b), pair)
    single = tmp_path / "one.xlsx"
    export_workbook(evaluate(a), single)

    def starts(path: Path) -> tuple[list[int], int, int, int]:
        ws = openpyxl.load_workbook(path)[SHEETS["report"]]
        column = [ws.cell(r, 1).value for r in range(1, ws.max_row + 1)]
        means = next(r for r, v in enumerate(column, start=1)
                     if str(v).startswith("Means under the declared weighting"))
        charts = column.index("Charts") + 1
        table = column.index("Queries per NDCG range (the distribution chart's data)") + 1
        return sorted(b.id for b in ws.row_breaks.brk), means, charts, table

    # A comparison's tables start a page of their own too (its page 1 ran
    # over by a line: "Unresolved queries in run B: none" alone on page 2).
    breaks, means, charts, table = starts(pair)
    # (each after the blank row above its heading)
    assert breaks == [means - 2, charts - 2, table - 2]
    breaks, means, charts, table = starts(single)
    assert breaks == [charts - 2]


def test_the_report_s_headers_over_numbers_are_right_aligned(seed_book: Path,
                                                             pair_book: Path) -> None:
    """Every table of the Report has its label in column A and numbers
    after it: their headers sit over the numbers' right edge (was: left in
    a column 12.5 characters wide, so on paper the unresolved query's
    judged count, 2, read under "total", and its total under "open")."""
    for path in (seed_book, pair_book):
        ws = openpyxl.load_workbook(path)[SHEETS["report"]]
        tables = [r for r in range(1, ws.max_row + 1) if ws.cell(r, 1).value in (
            "NDCG at", "query", "NDCG range")]
        assert len(tables) >= 3, path
        for r in tables:
            row = [ws.cell(r, c) for c in range(1, ws.max_column + 1) if ws.cell(r, c).value]
            assert row[0].alignment.horizontal in (None, "general", "left"), (path, r)
            assert [c.alignment.horizontal for c in row[1:]] == ["right"] * (len(row) - 1), (
                path, r, [c.value for c in row])


@pytest.mark.parametrize("suffix", [".xlsx", ".ods"])
def test_the_audit_sheet_wraps_a_long_change(tmp_path: Path, suffix: str) -> None:
    """A convention's change longer than its column ("fractional grades
    truncated = FALSE", 35 characters in a column of 30) wraps in its cell
    (was: printed cut at the next column, "... = FA", in LibreOffice's PDF
    of an .ods), its row tall enough; the who and when do not wrap,
    top-aligned beside it (the query and the source id wrap too:
    test_the_audit_sheet_wraps_a_long_query_beside_a_long_source_id)."""
    import python_calamine

    doc = seed_document()
    doc.set_grade(0, 2.0, who="ana", note="a note long enough to need a second line on paper")
    conventions = doc.conventions
    doc.set_conventions(dataclasses.replace(
        conventions, gain=dataclasses.replace(conventions.gain, truncate=True)), who="ana")
    path = tmp_path / f"w{suffix}"
    export_workbook(evaluate(doc), path)
    rows = python_calamine.CalamineWorkbook.from_path(str(path)).get_sheet_by_name(
        SHEETS["audit"]).to_python()
    header = list(rows[0])
    assert any("fractional grades truncated" in str(v) for r in rows for v in r)
    if suffix == ".xlsx":
        ws = openpyxl.load_workbook(path)[SHEETS["audit"]]
        wrapped = [h for c, h in enumerate(header, start=1)
                   if all(ws.cell(r, c).alignment.wrap_text
                          for r in range(2, 2 + len(doc.audit)))]  # (the entries' rows)
        # and its row tall enough for the second line (an .xlsx keeps its height)
        (row,) = [r for r in range(2, ws.max_row + 1)
                  if "fractional grades truncated" in str(ws.cell(r, 5).value)]
        assert (ws.row_dimensions[row].height or 0) >= 2 * 15
    else:
        with zipfile.ZipFile(path) as z:
            content = z.read("content.xml").decode()
        audit = content[content.index(f'table:name="{SHEETS["audit"]}"'):]
        styles = re.findall(r'<table:table-row[^>]*>(.*?)</table:table-row>', audit)[1]
        cells = re.findall(r'<table:table-cell[^>]*table:style-name="([^"]+)"', styles)
        wrapping = set(re.findall(r'style:name="([^"]+)"[^>]*>(?:(?!</style:style>).)*'
                                  r'fo:wrap-option="wrap"', content))
        wrapped = [h for h, style in zip(header, cells, strict=False) if style in wrapping]
    assert wrapped == ["query", "source id", "from", "to", "note"]


@pytest.mark.parametrize("suffix", [".xlsx", ".ods"])
def test_the_audit_sheet_wraps_a_long_query_beside_a_long_source_id(
        tmp_path: Path, suffix: str) -> None:
    """A query of 30 characters or more beside a source id that is a URL:
    both wrap in their cells, the row tall enough for the URL broken across
    three lines (was: LibreOffice's PDF of an .ods printed 'vpn disconnects
    every 10 minut' cut at the source id, and the URL cut at the from
    column)."""
    import python_calamine

    query = "vpn disconnects every 10 minutes on the guest wifi"
    url = "https://intranet.acme.io/kb/networking/vpn-troubleshooting/3301#p2"
    doc = Document.from_columns(query=[query, query, "short"], source_id=[url, "kb-1", "kb-2"],
                                score=[2.0, 1.0, 1.0], grade=[1.0, 0.0, 2.0])
    doc.set_grade(0, 3.0, who="ana")
    path = tmp_path / f"w{suffix}"
    export_workbook(evaluate(doc), path)
    rows = python_calamine.CalamineWorkbook.from_path(str(path)).get_sheet_by_name(
        SHEETS["audit"]).to_python()
    assert (rows[1][2], rows[1][3]) == (query, url)  # whole in their cells
    if suffix == ".xlsx":
        ws = openpyxl.load_workbook(path)[SHEETS["audit"]]
        assert ws["C2"].alignment.wrap_text
        assert ws["D2"].alignment.wrap_text
        width = ws.column_dimensions["D"].width
        assert width < len(url)  # the column capped: the URL takes three lines
        assert (ws.row_dimensions[2].height or 0) >= 3 * 15
    else:
        with zipfile.ZipFile(path) as z:
            content = z.read("content.xml").decode()
        audit = content[content.index(f'table:name="{SHEETS["audit"]}"'):]
        row = re.findall(r'<table:table-row table:style-name="([^"]+)"[^>]*>(.*?)'
                         r'</table:table-row>', audit)[1]
        height = re.search(rf'style:name="{row[0]}" style:family="table-row">'
                           r'<style:table-row-properties style:row-height="([\d.]+)pt"', content)
        assert height is not None
        assert float(height.group(1)) >= 3 * 15
        cells = re.findall(r'<table:table-cell[^>]*table:style-name="([^"]+)"', row[1])
        wrapping = set(re.findall(r'style:name="([^"]+)"[^>]*>(?:(?!</style:style>).)*'
                                  r'fo:wrap-option="wrap"', content))
        assert cells[2] in wrapping
        assert cells[3] in wrapping
