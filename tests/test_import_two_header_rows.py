"""A header written over two rows is read as one, its names joined: a
group's name over its columns' ("Product" over "SKU"), a name over its
qualifier ("Grade" over "(0-3)"). A new user's colleague's sheet had its
second header row counted as "1 blank row skipped", its names (SKU,
Product page) lost, a column shown as "column 3". Two columns whose
joined names are the same are refused in one line naming the rows."""

from __future__ import annotations

import io
from pathlib import Path

from hypothesis import assume, event, given, settings
from hypothesis import strategies as st
from openpyxl import Workbook

from app.cli.main import main
from core.io.annotator import import_annotations
from tests.sheetgen import Drawn, sheets, write_sheet
from tests.sheetimport import PROFILE, holds, run_sheet

#: Sheets drawn with their header over two rows.
TWO_ROW_SHEETS = 12


def colleague_sheet(path: Path, lower: list[str] | None = None) -> Path:
    """The trial's sheet: a title row, the names over two rows (row 3 holds
    the columns' own names and qualifiers), 6 graded products."""
    wb = Workbook()
    ws = wb.active
    ws.title = "Grades"
    ws.append(["Search relevance review - Q4", None, None, None, "Graded by", None])
    ws.append(["Query", "Product", None, None, "Grade", None])
    ws.append(lower or ["text", "SKU", "Product page", "Title", "(0-3)", "Comments"])
    for i, n in enumerate((933820, 823985, 982388, 410233, 771902, 120934)):
        ws.append(["red running shoes" if i < 3 else "trail shoes", f"SKU-{n}",
                   f"https://shop.example.com/p/sku-{n}", f"Product {n % 10000}", i % 4,
                   "checked" if i == 2 else None])
    wb.save(path)
    return path


def test_the_colleague_s_two_header_rows_are_read_as_one(tmp_path: Path) -> None:
    sheet = colleague_sheet(tmp_path / "two_headers.xlsx")
    out = io.StringIO()
    assert main(["import", str(sheet), "-o", str(tmp_path / "o.csv")], out) == 0
    first, above = out.getvalue().splitlines()[:2]
    assert "sheet 'Grades': long layout, header on rows 2-3 (read as one); " in first, first
    assert "0 blank rows skipped" in first, first  # (it said 1: the header's second row)
    assert above == ("row 1, above the header on rows 2-3, not imported: row 1 text "
                     "('Search relevance review - Q4 | Graded by')")
    report = import_annotations(sheet).report
    assert [c.header for c in report.columns] == [
        "Query text", "Product SKU", "Product page", "Title", "Grade (0-3)", "Comments"]
    assert (report.rows_read, report.blank_rows, report.judgments_read) == (6, 0, 6)
    assert ("rows 2-3 read as one header; the names of a column's rows joined: 'Query text', "
            "'Product SKU', 'Grade (0-3)'; no judgment read from them") in report.notes


def test_two_columns_joined_to_one_name_are_refused_naming_the_rows(tmp_path: Path,
                                                                    capsys) -> None:
    sheet = colleague_sheet(tmp_path / "same.xlsx",
                            ["text", "page", "Product page", "Title", "(0-3)", "Comments"])
    err = io.StringIO()
    assert main(["import", str(sheet), "-o", str(tmp_path / "o.csv")], io.StringIO()) == 2
    said = capsys.readouterr().err + err.getvalue()
    lines = [line for line in said.splitlines() if line.strip()]
    assert len(lines) == 1, said
    assert "rows 2-3 read as one header name two columns 'Product page' (B and C)" in lines[0]
    assert "--header-row 3" in lines[0]
    assert not (tmp_path / "o.csv").exists()
    # as the line says: row 3 alone the header, row 2 above it
    out = io.StringIO()
    assert main(["import", str(sheet), "-o", str(tmp_path / "o.csv"), "--header-row", "3"],
                out) == 0
    assert "header on row 3; 6 judgments read in 6 rows" in out.getvalue(), out.getvalue()


@settings(PROFILE, max_examples=TWO_ROW_SHEETS)
@given(sheets(two_headers=True), st.sampled_from([".csv", ".xlsx"]))
def test_drawn_two_row_headers_are_read_as_one(sheet: Drawn, suffix: str) -> None:
    """A drawn long sheet whose names are split over two rows at their first
    space: the import reads the names joined (the truth), the judgments as
    drawn (tests/sheetimport.holds), and no header row as a blank one."""
    assert len(sheet.header_rows) == 2
    event("names split: " + str(sum(bool(p) for p in sheet.header_rows[1])))
    code, err, report, rows = run_sheet(sheet, suffix)
    holds(sheet, code, err, report, rows, suffix)
    if code != 0:  # (a second column of grades no name tells: refused, as on one row)
        return
    assert report is not None
    assert [c["header"] for c in report["columns"]] == [str(h) for h in sheet.rows[0]]
    assert report["rows"]["blank"] == 0
    assert report["rows"]["read"] == len(sheet.rows) - 1


def test_a_drawn_two_row_header_is_said_in_the_headline(tmp_path: Path) -> None:
    """The headline names both rows of the header."""

    @settings(PROFILE, max_examples=3)
    @given(sheets(two_headers=True))
    def check(sheet: Drawn) -> None:
        assume(not sheet.extra_grade)  # (refused, as on one row)
        path = write_sheet(sheet, tmp_path / "drawn.csv")
        report = import_annotations(path).report
        assert "header on rows 1-2 (read as one); " in report.headline(), report.headline()
        assert report.blank_rows == 0

    check()
