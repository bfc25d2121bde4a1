"""Workbooks' formulas and hidden rows against the import: a formula grade
is one judgment rejected with what to do, a sheet whose every judgment is
rejected writes nothing, rows hidden by a filter and hidden columns are
said and read. ``computed_sheet``, ``filtered_sheet`` and ``HIDDEN_SAID``
serve the app's and LibreOffice's tests too."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
import xlsxwriter

from app.cli.main import main
from core.errors import InputError
from core.io.annotator import import_annotations
from tests.annotator_cases import run_cli


def test_one_formula_grade_is_one_judgment_rejected_with_what_to_do(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    """An Excel sheet whose one grade is a formula: nothing is written but
    the one line with the count, the cell and what to do (the other 3 were
    written and the exit status was 0 before); with --allow-rejected, the
    summary line says '1 judgment rejected' (not '1 judgments'), names its
    cell and says what to do."""
    sheet = tmp_path / "team.xlsx"
    wb = xlsxwriter.Workbook(str(sheet))
    ws = wb.add_worksheet("Judgments")
    ws.write_row(0, 0, ["query", "doc", "judge", "label", "grade"])
    for n, (doc, judge, label) in enumerate([("a", "ana", "Good"), ("b", "ana", "Bad"),
                                             ("a", "ben", "Fair"), ("b", "ben", "Good")]):
        ws.write_row(n + 1, 0, ["kettle descale", doc, judge, label])
        if n == 2:
            ws.write_formula(n + 1, 4, f'=IF(D{n + 2}="Fair",1,0)', None, 1)
        else:
            ws.write(n + 1, 4, {"Good": 2, "Bad": 0}[label])
    wb.close()
    code, out, err = run_cli(["import", str(sheet), "-o", str(tmp_path / "o.csv")], capsys)
    assert (code, out) == (2, "")
    assert err == (f"ndcg-worksheet: error: {sheet}, sheet 'Judgments', row 4, column "
                   "'E (grade)': 1 of the 4 judgments read was rejected, so nothing was "
                   "written; the first: cell E4 holds the formula '=IF(D4=\"Fair\",1,0)'; "
                   "formulas are never evaluated; cell not imported; paste the cells as values "
                   "in the spreadsheet to import them (pass --allow-rejected to import the "
                   "other 3 without it, or fix the sheet; pass --report REPORT.json for the "
                   "list)\n")
    assert not (tmp_path / "o.csv").exists()
    code, out, err = run_cli(["import", str(sheet), "-o", str(tmp_path / "o.csv"),
                              "--allow-rejected"], capsys)
    assert (code, err) == (0, "")
    assert ("\n1 judgment rejected, the first on row 4, column 'E (grade)': cell E4 holds the "
            "formula '=IF(D4=\"Fair\",1,0)'; formulas are never evaluated; cell not imported; "
            "paste the cells as values in the spreadsheet to import them; pass --report "
            "REPORT.json for the list\n") in out


def computed_sheet(path: Path) -> Path:
    """Three judgments whose grade column is computed from their labels by
    a formula (never evaluated: every judgment rejected)."""
    wb = xlsxwriter.Workbook(str(path))
    ws = wb.add_worksheet("Judgments")
    ws.write_row(0, 0, ["query", "doc", "label", "grade"])
    for r, label in enumerate(["Bad", "Good", "Fair"], start=1):
        ws.write_row(r, 0, ["q1", f"d{r}", label])
        ws.write_formula(r, 3, f'=IF(C{r + 1}="Bad",0,IF(C{r + 1}="Fair",1,2))', None, 0)
    wb.close()
    return path


def test_a_sheet_whose_every_judgment_is_rejected_is_refused_and_nothing_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    """A grade column computed by formulas (never evaluated) rejects every
    judgment: the command line refuses in one line with the count and the
    first rejected cell instead of writing a worksheet of unknown grades; the
    report still lists each one, even under --allow-rejected. One judgment
    left standing is imported when the rejection is allowed."""
    sheet = computed_sheet(tmp_path / "computed.xlsx")
    out_csv, rep = tmp_path / "o.csv", tmp_path / "r.json"
    code, out, err = run_cli(["import", str(sheet), "-o", str(out_csv), "--report", str(rep)],
                             capsys)
    assert (code, out) == (2, "")
    assert err == (f"ndcg-worksheet: error: {sheet}, sheet 'Judgments', row 2, column "
                   "'D (grade)': all 3 judgments read were rejected, so nothing was written; "
                   "the first: cell D2 holds the formula '=IF(C2=\"Bad\",0,IF(C2=\"Fair\",1,2))'"
                   "; formulas are never evaluated; cell not imported; paste the cells as "
                   f"values in the spreadsheet to import them (every one is in {rep})\n")
    assert not out_csv.exists()
    assert len(json.loads(rep.read_text("utf-8"))["rejected"]) == 3
    code, _, err = run_cli(["import", str(sheet), "-o", str(out_csv), "--allow-rejected"],
                           capsys)
    assert code == 2
    assert "all 3 judgments read were rejected, so nothing was written" in err
    assert not out_csv.exists()
    wb = xlsxwriter.Workbook(str(sheet))
    ws = wb.add_worksheet("Judgments")
    ws.write_row(0, 0, ["query", "doc", "grade"])
    ws.write_row(1, 0, ["q1", "d1", 2])
    ws.write_formula(2, 2, "=1+1", None, 2)
    ws.write_row(2, 0, ["q1", "d2"])
    wb.close()
    code, out, err = run_cli(["import", str(sheet), "-o", str(out_csv)], capsys)
    assert (code, out_csv.exists()) == (2, False)
    assert "row 3, column 'C (grade)': 1 of the 2 judgments read was rejected" in err
    code, out, err = run_cli(["import", str(sheet), "-o", str(out_csv), "--allow-rejected"],
                             capsys)
    assert code == 0
    assert "2 judgments read in 2 rows: 1 imported, 1 rejected" in out
    assert out_csv.exists()
    # --help says what README and docs/import.md say: never when every one was.
    with pytest.raises(SystemExit):
        main(["import", "--help"], io.StringIO())
    assert (
        "--allow-rejected write the output even though some judgments were rejected "
        "(without them; each is listed in --report), not when every one was; by default "
        "an import with rejected judgments writes nothing and exits with status 2") in " ".join(
            capsys.readouterr().out.split())


def filtered_sheet(path: Path) -> Path:
    """An Excel sheet of 3 annotators' grades as openpyxl writes it: an
    autofilter over it whose rows of 'chen' are hidden (rows 4, 7, 10, 13),
    and its column A (an internal id) hidden by hand."""
    import openpyxl

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Judgments"
    ws.append(["internal_id", "query", "doc", "annotator", "grade"])
    for n, (q, d, who) in enumerate(((q, d, who) for q in ("q1", "q2") for d in ("a", "b")
                                     for who in ("ana", "ben", "chen")), start=1):
        ws.append([f"x{n}", q, d, who, (n * 7) % 4])
    ws.auto_filter.ref = f"A1:E{ws.max_row}"
    ws.auto_filter.add_filter_column(3, ["ana", "ben"])
    for row in range(2, ws.max_row + 1):
        ws.row_dimensions[row].hidden = ws.cell(row, 4).value == "chen"
    ws.column_dimensions["A"].hidden = True
    wb.save(path)
    return path


HIDDEN_SAID = ("4 rows (4, 7, 10, 13) and 1 column (A) hidden in the sheet (it has a "
               "filter): read all the same, as if shown")


def test_rows_hidden_by_a_filter_and_hidden_columns_are_said_and_read(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    sheet = filtered_sheet(tmp_path / "filtered.xlsx")
    out_csv, rep = tmp_path / "o.csv", tmp_path / "r.json"
    code, out, _ = run_cli(["import", str(sheet), "-o", str(out_csv), "--report", str(rep)],
                           capsys)
    assert code == 0
    lines = out.splitlines()
    assert "12 judgments read in 12 rows: 12 imported, 0 rejected" in lines[0]
    assert lines[1] == HIDDEN_SAID
    report = json.loads(rep.read_text("utf-8"))
    assert report["hidden"] == {"rows": [4, 7, 10, 13], "columns": ["A"], "filtered": True}
    assert report["annotators"] == ["ana", "ben", "chen"]
    result = import_annotations(sheet)
    assert result.report.summary()[1] == HIDDEN_SAID
    shown = tmp_path / "shown.xlsx"
    import openpyxl

    wb = openpyxl.load_workbook(sheet)
    ws = wb.active
    for row in range(2, ws.max_row + 1):
        ws.row_dimensions[row].hidden = False
    ws.column_dimensions["A"].hidden = False
    ws.auto_filter.ref = None
    wb.save(shown)
    code, out, _ = run_cli(["import", str(shown), "-o", str(out_csv)], capsys)
    assert code == 0
    assert "hidden in the sheet" not in out
    assert import_annotations(shown).report.to_json()["hidden"] is None


@pytest.mark.parametrize("size", [5, 97])
def test_hidden_rows_are_found_across_the_pieces_a_sheet_is_unpacked_in(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, size: int):
    """A row's start tag cut between two pieces is still seen hidden."""
    import core.io.safety.hidden as hidden
    from core.io.safety import check_xlsx

    sheet = filtered_sheet(tmp_path / "filtered.xlsx")
    part = check_xlsx(sheet).parts["Judgments"]
    whole = hidden.stream_part

    def pieces(*args: Any) -> Any:
        data = b"".join(whole(*args))
        return (data[i:i + size] for i in range(0, len(data), size))

    monkeypatch.setattr(hidden, "stream_part", pieces)
    found = hidden.xlsx_hidden(sheet, part, str(sheet))
    assert (found.rows, found.columns, found.filtered) == ([4, 7, 10, 13], [1], True)


def test_a_sheet_whose_every_judgment_is_rejected_raises_from_the_api(tmp_path: Path):
    """The command line's refusal of a sheet whose every judgment is
    rejected, from import_annotations too (it returned a document of
    unknown grades, the rejections in its report alone): the same one
    line, naming the file, sheet, row and column and the first rejection,
    and where the rest are listed; ``empty_ok`` returns the report listing
    them, as the wizard shows it."""
    sheet = computed_sheet(tmp_path / "computed.xlsx")
    with pytest.raises(InputError) as raised:
        import_annotations(sheet)
    assert str(raised.value) == (
        f"{sheet}, sheet 'Judgments', row 2, column 'D (grade)': all 3 judgments read were "
        "rejected, so nothing was imported; the first: cell D2 holds the formula "
        "'=IF(C2=\"Bad\",0,IF(C2=\"Fair\",1,2))'; formulas are never evaluated; cell not "
        "imported; paste the cells as values in the spreadsheet to import them "
        "(import_annotations(..., empty_ok=True) returns the report listing each)")
    report = import_annotations(sheet, empty_ok=True).report
    assert (report.judgments_read, report.judgments_imported,
            len(report.rejected_judgments)) == (3, 0, 3)
