"""The rows above an annotators' sheet's header are accounted for: a merged
title, who made the sheet (text, quoted: never named from its words), the
legend and a blank row (the header on row 5) are each named with what they
held, on the command line, in the JSON report and on the wizard's report
page, so that every row of the file is in a line of the report (a new
user's trial: rows 1-4 were in none, the tally counting the rows below the
header alone)."""

from __future__ import annotations

import io
import json
from pathlib import Path

from hypothesis import assume, event, given, settings
from hypothesis import strategies as st
from openpyxl import Workbook

from app.cli.main import main
from core.io.annotator.above import rows_above
from core.io.annotator.accounting import AboveRow
from tests.sheetgen import Drawn, sheets
from tests.sheetimport import PROFILE, holds, run_sheet

TITLE = "Relevance judgments - Q3 2026 review"
PEOPLE = "Prepared by: Dana Lee and Sam Ortiz, 30 Nov 2026"
LEGEND = "Scale: 0 = not relevant, 1 = partial, 2 = relevant, 3 = perfect"


def annotators_sheet(path: Path) -> Path:
    """A sheet as annotators make one: a title merged across the table,
    who prepared it, the scale's legend, a blank row, the header on row 5,
    a blank row between the queries."""
    wb = Workbook()
    ws = wb.active
    ws.title = "Judgments"
    ws.append([TITLE])
    ws.merge_cells("A1:E1")
    ws.append([PEOPLE])
    ws.append([LEGEND])
    ws.append([])
    ws.append(["Query", "Doc ID", "Score", "Grade", "Notes"])
    for q in ("q1", "q2"):
        for i in range(3):
            ws.append([q, f"{q}-d{i}", 3 - i, str(i), "checked" if i else ""])
        if q == "q1":
            ws.append([])
    wb.save(path)
    return path


def test_the_rows_above_the_header_are_named_with_what_each_held(tmp_path: Path) -> None:
    sheet = annotators_sheet(tmp_path / "annotators.xlsx")
    out = io.StringIO()
    code = main(["import", str(sheet), "-o", str(tmp_path / "out.csv"),
                 "--report", str(tmp_path / "report.json")], out)
    assert code == 0
    lines = out.getvalue().splitlines()
    assert "header on row 5" in lines[0]
    assert lines[1] == (
        "rows 1-4, above the header on row 5, not imported: row 1 a title ('Relevance "
        "judgments - Q3 2026 review'), row 2 text ('Prepared by: Dana Lee and Sam Ortiz, "
        "30…'), row 3 the legend ('Scale: 0 = not relevant, 1 = partial, 2…'), "
        "row 4 blank")
    report = json.loads((tmp_path / "report.json").read_text("utf-8"))
    assert report["above_header"] == [
        {"row": 1, "kind": "title", "text": TITLE}, {"row": 2, "kind": "text", "text": PEOPLE},
        {"row": 3, "kind": "legend", "text": LEGEND}, {"row": 4, "kind": "blank", "text": ""}]
    rows = report["rows"]
    assert rows == {"read": 7, "imported": 6, "ungraded": 0, "skipped": {}, "rejected": 0,
                    "blank": 1}
    # every row of the file: those above the header, the header, those read
    assert len(report["above_header"]) + 1 + rows["read"] == 12


def test_a_sheet_with_its_header_on_row_1_has_no_rows_above(tmp_path: Path) -> None:
    sheet = tmp_path / "plain.csv"
    sheet.write_text("query,doc,grade\nq1,d1,1\nq1,d2,0\n", encoding="utf-8")
    out = io.StringIO()
    assert main(["import", str(sheet), "-o", str(tmp_path / "out.csv"),
                 "--report", str(tmp_path / "r.json")], out) == 0
    assert "above the header" not in out.getvalue()
    report = json.loads((tmp_path / "r.json").read_text("utf-8"))
    assert report["above_header"] == []


def test_a_legend_over_several_rows_under_its_title_and_notes() -> None:
    rows = [["Annotator: Ana"], ["Legend"], ["0 = not relevant"], ["1 = relevant"], [],
            ["Grade every result", "see the guide"], ["query", "doc", "grade"]]
    assert rows_above(rows, 6) == (
        AboveRow(1, "title", "Annotator: Ana"), AboveRow(2, "legend", "Legend"),
        AboveRow(3, "legend", "0 = not relevant"), AboveRow(4, "legend", "1 = relevant"),
        AboveRow(5, "blank", ""), AboveRow(6, "text", "Grade every result | see the guide"))


#: Sheets drawn with their legend above the header, after a title and who
#: made the sheet or not.
ABOVE_SHEETS = 12


@settings(PROFILE, max_examples=ABOVE_SHEETS)
@given(sheets(legend="right"),
       st.sampled_from([".csv", ".xlsx"]))
def test_drawn_rows_above_the_header_are_each_named(sheet: Drawn, suffix: str) -> None:
    """Every row above the header of a drawn sheet (a title, who made it,
    the legend, a blank row) is in the report with what it held, and with
    the header and the rows read makes the file's every row
    (tests/sheetimport.holds)."""
    assume(sheet.above and sheet.legend_lacks is None)
    event("above: " + ", ".join(dict.fromkeys(sheet.above_kinds)))
    code, err, report, rows = run_sheet(sheet, suffix)
    holds(sheet, code, err, report, rows, suffix)
    if code == 0:
        assert report is not None
        assert [a["kind"] for a in report["above_header"]] == sheet.above_kinds
