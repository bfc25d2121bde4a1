"""The command line says, on stderr, every workbook cell it refused or took
(one line each, naming the sheet and cell), and ``--strict`` makes a refusal
an error before anything is written; ``export`` and ``merge`` keep what
people added to the workbooks they rewrite, and name what they cannot."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from openpyxl.chart import BarChart, Reference

from app.cli.main import main
from core.engine.evaluation import evaluate
from core.io.workbook import SHEETS, export_workbook, read_workbook
from core.model.examples import seed_document
from tests.test_rounds import base_doc
from tests.test_rounds_files import edit_grades, split


def run(*args: Any) -> tuple[int, str]:
    out = io.StringIO()
    code = main([str(a) for a in args], out=out)
    return code, out.getvalue()


def _names(wb: Any) -> dict[str, str]:
    return {n: d.attr_text.split("!")[1].replace("$", "") for n, d in wb.defined_names.items()
            if ":" not in d.attr_text}


@pytest.fixture
def cut_twice(tmp_path: Path) -> Path:
    """The seed's workbook with cutoffs 1, 2 typed as 2 and 2, a gain rule
    changed and a sheet of the reviewer's own."""
    book = tmp_path / "seed.xlsx"
    export_workbook(evaluate(seed_document()), book)
    wb = openpyxl.load_workbook(book)
    names = _names(wb)
    ws = wb[SHEETS["conventions"]]
    assert (ws[names["cut_1"]].value, ws[names["cut_2"]].value) == (1, 2)
    ws[names["cut_1"]].value = 2
    wb.create_sheet("My notes")["A1"] = "ask Ann"
    wb.save(book)
    return book


def test_a_refused_convention_cell_is_said_on_stderr(
        cut_twice: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _ = run("evaluate", cut_twice, "--format", "csv")
    assert code == 0
    err = capsys.readouterr().err.splitlines()
    assert err == [
        f"ndcg-worksheet: warning: {cut_twice}, sheet 'Conventions', row 9, column "
        "'B (cutoff 2 (k))': k = 2 is already cutoff 1; each cutoff once (the conventions "
        "stored with the workbook are kept; correct the cell (or undo the edit) and open the "
        "file again)"]
    assert read_workbook(cut_twice).conventions.cutoffs[:2] == (1, 2)  # the stored ones


def test_strict_makes_a_refused_cell_an_error_and_writes_nothing(
        cut_twice: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out.xlsx"
    for command in (["evaluate", cut_twice], ["export", cut_twice, "-o", out]):
        code, text = run(*command, "--strict")
        assert code == 2
        assert text == ""
        err = capsys.readouterr().err.splitlines()
        assert err == [
            f"ndcg-worksheet: error: {cut_twice}, sheet 'Conventions', row 9, column "
            "'B (cutoff 2 (k))': k = 2 is already cutoff 1; each cutoff once (the conventions "
            "stored with the workbook are kept; correct the cell (or undo the edit) and open "
            "the file again) (--strict: this workbook cell refused; nothing was written)"]
    assert not out.exists()


def test_a_taken_convention_is_said_with_its_cell(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    book = tmp_path / "seed.xlsx"
    export_workbook(evaluate(seed_document()), book)
    wb = openpyxl.load_workbook(book)
    wb[SHEETS["conventions"]][_names(wb)["gain_rule"]].value = "exponential"
    wb.save(book)
    edit_grades(book, {("case-A", "C"): 2})
    assert run("evaluate", book, "--strict", "--format", "csv")[0] == 0
    assert capsys.readouterr().err.splitlines() == [
        f"ndcg-worksheet: note: {book}: edited in Conventions!B4: gain rule = linear -> "
        "exponential (taken from the spreadsheet)",
        f"ndcg-worksheet: note: {book}: 1 grade edited in the spreadsheet taken "
        "(sheet Audit lists the grades)"]


def test_a_note_alone_edited_in_the_spreadsheet_is_said_without_grades(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A note written in the spreadsheet and no grade: "1 note edited ...",
    never "0 grades and 1 note" (a new user's trial read "1 grade and 0
    notes edited" for a grade alone)."""
    book = tmp_path / "seed.xlsx"
    export_workbook(evaluate(seed_document()), book)
    wb = openpyxl.load_workbook(book)
    wb[SHEETS["candidates"]]["H2"].value = "ask the lead"
    wb.save(book)
    assert run("evaluate", book, "--format", "csv")[0] == 0
    assert capsys.readouterr().err.splitlines() == [
        f"ndcg-worksheet: note: {book}: 1 note edited in the spreadsheet taken"]


def test_export_keeps_the_reviewers_sheet_and_names_a_chart(
        cut_twice: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    wb = openpyxl.load_workbook(cut_twice)
    mine = wb["My notes"]
    mine["A2"] = 4
    chart = BarChart()
    chart.add_data(Reference(mine, min_col=1, min_row=2, max_row=2))
    mine.add_chart(chart, "C3")
    wb.save(cut_twice)
    out = tmp_path / "out.xlsx"
    assert run("export", cut_twice, "-o", out)[0] == 0
    err = capsys.readouterr().err.splitlines()
    assert err[-1] == ("ndcg-worksheet: warning: not kept in the workbook written: charts, "
                       "images or shapes in sheet 'My notes'")
    got = openpyxl.load_workbook(out)
    assert got.sheetnames[-2:] == ["My notes", SHEETS["metadata"]]
    assert (got["My notes"]["A1"].value, got["My notes"]["A2"].value) == ("ask Ann", 4)


def test_merge_keeps_what_the_reviewers_added(tmp_path: Path) -> None:
    base = tmp_path / "base.xlsx"
    export_workbook(evaluate(base_doc([3, 4, 2, 5, 3, 0], seed=9)), base)
    books = split(base, tmp_path / "round")
    wb = openpyxl.load_workbook(books["ana"])
    wb.create_sheet("Ana's notes")["A1"] = "query 2 is odd"
    ws = wb[SHEETS["candidates"]]
    ws["AB1"] = "why"
    ws["AB2"] = "looks off-topic"
    key = (ws["A2"].value, ws["B2"].value)
    wb.save(books["ana"])
    merged = tmp_path / "merged.xlsx"
    assert run("merge", base, books["ana"], books["ben"], "-o", merged)[0] == 0
    got = openpyxl.load_workbook(merged)
    assert got["Ana's notes"]["A1"].value == "query 2 is odd"
    ws = got[SHEETS["candidates"]]
    assert ws["AB1"].value == "why"
    rows = [r for r in range(2, ws.max_row + 1) if ws[f"AB{r}"].value is not None]
    assert [(ws[f"A{r}"].value, ws[f"B{r}"].value, ws[f"AB{r}"].value) for r in rows] == [
        (*key, "looks off-topic")]
