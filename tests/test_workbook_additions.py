"""What a person adds to a workbook of ours survives the next save: their
sheets (values, formulas, number formats, widths, merged cells, comments),
their Candidates columns and comments on the candidates they belong to
(by query and source id, whatever the rows' order), and what cannot be kept
(a chart) is named."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import openpyxl
import pytest
from openpyxl.chart import BarChart, Reference
from openpyxl.comments import Comment
from openpyxl.styles import Alignment, Border, Font, PatternFill, Side

from core.engine.evaluation import evaluate
from core.errors import InputError
from core.io.workbook import SHEETS, export_workbook, read_workbook
from core.io.workbook.additions import cannot_carry, merge_additions, read_additions
from core.model.document import GradeState
from core.model.examples import seed_document


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("add") / "seed.xlsx"
    export_workbook(evaluate(seed_document()), path)
    return path


def _key_rows(ws: Any) -> dict[tuple[str, str], int]:
    return {(ws.cell(r, 1).value, ws.cell(r, 2).value): r for r in range(2, ws.max_row + 1)
            if ws.cell(r, 1).value is not None}


def _sort_candidates(ws: Any, column: int, reverse: bool = True) -> None:
    """The Candidates rows sorted by one column, as a spreadsheet's Sort does
    (every cell of a row moves with it)."""
    width = ws.max_column
    rows = [[ws.cell(r, c).value for c in range(1, width + 1)]
            for r in range(2, ws.max_row + 1)]
    notes = {(row[0], row[1]): ws.cell(r, 6).comment for r, row in zip(
        range(2, ws.max_row + 1), rows, strict=True)}
    rows.sort(key=lambda row: str(row[column - 1]), reverse=reverse)
    for r, row in enumerate(rows, start=2):
        for c, v in enumerate(row, start=1):
            ws.cell(r, c).value = v
        ws.cell(r, 6).comment = notes[(row[0], row[1])]


def _reviewed(book: Path, out: Path, *, sort: bool = False) -> None:
    """A reviewer's edits: a sheet of their own, a column and a comment on
    Candidates, a grade typed; optionally the Candidates rows sorted."""
    wb = openpyxl.load_workbook(book)
    mine = wb.create_sheet("My notes")
    mine["A1"] = "to ask"
    mine["A1"].comment = Comment("ask Ann", "rev")
    mine["B2"] = 3.25
    mine["B2"].number_format = "0.000"
    mine["B3"] = "=B2*2"
    mine["A5"] = "spans three"
    mine.merge_cells("A5:C5")
    mine.column_dimensions["A"].width = 30
    mine["A1"].font = Font(bold=True, italic=True, color="FF0000FF")
    mine["A1"].border = Border(bottom=Side(style="thin"))
    mine["A1"].alignment = Alignment(horizontal="center", wrap_text=True)
    ws = wb[SHEETS["candidates"]]
    rows = _key_rows(ws)
    ws["AB1"] = "my comment"
    ws.cell(rows[("case-A", "A")], 28).value = "check this"
    ws.cell(rows[("case-B", "C")], 28).value = 7
    ws.cell(rows[("case-A", "C")], 6).comment = Comment("unsure", "rev")
    ws.cell(rows[("case-A", "C")], 6).value = 2
    red = PatternFill("solid", fgColor="FFFF0000")
    ws.cell(rows[("case-B", "C")], 2).fill = red  # a source id marked
    ws.cell(rows[("case-B", "C")], 6).fill = red  # and its grade
    if sort:
        _sort_candidates(ws, 2)
    wb.save(out)


def test_a_save_keeps_their_sheet_columns_and_comments(book: Path, tmp_path: Path) -> None:
    edited = tmp_path / "edited.xlsx"
    _reviewed(book, edited)
    doc = read_workbook(edited)
    kept = read_additions(edited)
    assert kept.not_carried == []
    assert kept.summary() == ("sheet 'My notes', 1 added Candidates column, 1 Candidates comment, "
                              "2 Candidates cell colours")
    doc.set_grade(0, 1.0, GradeState.NUMBER, who="me")
    export_workbook(evaluate(doc), edited, keep=kept)

    wb = openpyxl.load_workbook(edited)
    assert wb.sheetnames[-2:] == ["My notes", SHEETS["metadata"]]
    mine = wb["My notes"]
    assert mine["A1"].value == "to ask"
    assert mine["A1"].comment.text == "ask Ann"
    assert mine["A1"].comment.author == "rev"
    assert mine["B2"].value == 3.25
    assert mine["B2"].number_format == "0.000"
    assert mine["B3"].value == "=B2*2"
    assert [str(r) for r in mine.merged_cells.ranges] == ["A5:C5"]
    assert mine["A5"].value == "spans three"
    assert mine.column_dimensions["A"].width == 30
    look = mine["A1"]
    assert (look.font.b, look.font.i, look.font.color.rgb[-6:]) == (True, True, "0000FF")
    assert look.border.bottom.style == "thin"
    assert (look.alignment.horizontal, look.alignment.wrap_text) == ("center", True)
    ws = wb[SHEETS["candidates"]]
    rows = _key_rows(ws)
    assert ws["AB1"].value == "my comment"
    assert ws.cell(rows[("case-A", "A")], 28).value == "check this"
    assert ws.cell(rows[("case-B", "C")], 28).value == 7
    assert ws.cell(rows[("case-A", "C")], 6).comment.text == "unsure"
    assert ws.cell(rows[("case-A", "A")], 28).protection.locked is False
    coloured = {(ws.cell(r, 1).value, ws.cell(r, 2).value, c)
                for r in range(2, ws.max_row + 1) for c in range(1, 28)
                if ws.cell(r, c).fill.fill_type == "solid"
                and ws.cell(r, c).fill.fgColor.rgb[-6:] == "FF0000"}
    assert coloured == {("case-B", "C", 2), ("case-B", "C", 6)}
    grade = ws.cell(rows[("case-B", "C")], 6)
    assert grade.protection.locked is False  # still a cell to edit, now red
    marked = [(ws.cell(r, 1).value, ws.cell(r, 2).value) for r in range(2, ws.max_row + 1)
              if ws.cell(r, 28).value is not None]
    assert sorted(marked) == [("case-A", "A"), ("case-B", "C")]
    again = read_workbook(edited)  # ours again, with the grade of this save
    assert again.grade[0] == 1.0
    assert read_additions(edited).summary() == kept.summary()


def test_a_sorted_sheet_reopens_and_keeps_each_cell_with_its_candidate(
        book: Path, tmp_path: Path) -> None:
    edited = tmp_path / "sorted.xlsx"
    _reviewed(book, edited, sort=True)
    src = openpyxl.load_workbook(edited)[SHEETS["candidates"]]
    assert _key_rows(src) != _key_rows(openpyxl.load_workbook(book)[SHEETS["candidates"]])
    doc = read_workbook(edited)  # the rows are matched by query and source id
    i = next(i for i in range(len(doc)) if doc.query_ids[int(doc.query[i])] == "case-A"
             and doc.source_id[i] == "C")
    assert (doc.grade[i], doc.state[i]) == (2.0, GradeState.NUMBER)
    assert doc.audit[-1].query == "case-A"
    assert doc.audit[-1].source_id == "C"
    kept = read_additions(edited)
    export_workbook(evaluate(doc), tmp_path / "saved.xlsx", keep=kept)
    ws = openpyxl.load_workbook(tmp_path / "saved.xlsx")[SHEETS["candidates"]]
    rows = _key_rows(ws)
    assert rows == _key_rows(openpyxl.load_workbook(book)[SHEETS["candidates"]])  # ours again
    assert ws.cell(rows[("case-A", "A")], 28).value == "check this"
    assert ws.cell(rows[("case-B", "C")], 28).value == 7
    assert ws.cell(rows[("case-A", "C")], 6).comment.text == "unsure"


def test_a_row_copied_or_deleted_is_refused_with_its_row(book: Path, tmp_path: Path) -> None:
    wb = openpyxl.load_workbook(book)
    ws = wb[SHEETS["candidates"]]
    ws.cell(3, 1).value, ws.cell(3, 2).value = ws.cell(2, 1).value, ws.cell(2, 2).value
    wb.save(tmp_path / "twice.xlsx")
    with pytest.raises(InputError, match="is there twice") as got:
        read_workbook(tmp_path / "twice.xlsx")
    assert got.value.line == 3


def test_what_cannot_be_kept_is_named(book: Path, tmp_path: Path) -> None:
    wb = openpyxl.load_workbook(book)
    mine = wb.create_sheet("Chart")
    for r in range(1, 4):
        mine.cell(r, 1).value = r
    chart = BarChart()
    chart.add_data(Reference(mine, min_col=1, min_row=1, max_row=3))
    mine.add_chart(chart, "C2")
    wb.save(tmp_path / "chart.xlsx")
    assert cannot_carry(tmp_path / "chart.xlsx") == ["charts, images or shapes in sheet 'Chart'"]
    kept = read_additions(tmp_path / "chart.xlsx")
    assert kept.not_carried == ["charts, images or shapes in sheet 'Chart'"]
    assert [c.value for c in kept.sheets[0].cells] == [1.0, 2.0, 3.0]  # its cells are kept
    assert cannot_carry(book) == []  # the Report's own charts are ours


def test_dropdowns_and_conditional_formats_of_their_sheet_are_named(
        book: Path, tmp_path: Path) -> None:
    from openpyxl.formatting.rule import CellIsRule
    from openpyxl.worksheet.datavalidation import DataValidation

    wb = openpyxl.load_workbook(book)
    mine = wb.create_sheet("Checks")
    mine["A1"] = 1
    rule = CellIsRule(operator="greaterThan", formula=["0"], fill=PatternFill("solid",
                                                                              "FF0000"))
    mine.conditional_formatting.add("A1:A5", rule)
    choice = DataValidation(type="list", formula1='"yes,no"')
    mine.add_data_validation(choice)
    choice.add("B1:B5")
    wb.save(tmp_path / "checks.xlsx")
    assert cannot_carry(tmp_path / "checks.xlsx") == [
        "conditional formats in sheet 'Checks'", "data validation (dropdowns) in sheet 'Checks'"]
    assert read_additions(tmp_path / "checks.xlsx").not_carried == cannot_carry(
        tmp_path / "checks.xlsx")


def test_colours_of_the_palettes_are_kept_or_named(book: Path, tmp_path: Path) -> None:
    """A legacy palette colour is kept (looked up), a theme colour named."""
    from openpyxl.styles.colors import Color

    wb = openpyxl.load_workbook(book)
    ws = wb[SHEETS["candidates"]]
    rows = _key_rows(ws)
    ws.cell(rows[("case-A", "B")], 1).fill = PatternFill("solid", fgColor=Color(indexed=5))
    ws.cell(rows[("case-C", "A")], 2).fill = PatternFill("solid", fgColor=Color(theme=4))
    wb.save(tmp_path / "palette.xlsx")
    kept = read_additions(tmp_path / "palette.xlsx")
    assert kept.candidates.fills == {("case-A", "B"): [(0, "FFFF00")]}  # index 5: yellow
    assert kept.not_carried == [
        "cell colours from the theme's palette (choose a standard colour to keep them)"]
    assert cannot_carry(tmp_path / "palette.xlsx") == kept.not_carried  # the editor asks


def test_an_export_as_written_has_nothing_to_carry(book: Path) -> None:
    kept = read_additions(book)
    assert not kept
    assert kept.not_carried == []
    assert kept.summary() == ""


def test_merged_additions_name_sheets_apart(book: Path, tmp_path: Path) -> None:
    edited = tmp_path / "edited.xlsx"
    _reviewed(book, edited)
    one, two = read_additions(edited), read_additions(edited)
    both = merge_additions([one, two])
    assert [s.name for s in both.sheets] == ["My notes", "My notes (2)"]
    assert both.candidates.cells == one.candidates.cells


def test_rows_sorted_in_the_export_form_reopen_with_nothing_taken() -> None:
    """Our own workbook (inline strings, read by the streaming reader) with
    two Candidates rows swapped whole, as a sort does: each row is its
    candidate's, nothing changed; the same two rows with only their source
    ids swapped are refused (tests/data/make_hostile_xlsx.py)."""
    from core.io.workbook import reopened

    corpus = Path(__file__).resolve().parent / "data" / "hostile" / "xlsx"
    own = read_workbook(corpus / "own.xlsx")
    doc = read_workbook(corpus / "own_rows_sorted.xlsx")
    found = reopened(doc)
    assert found is not None
    assert found.empty
    assert doc.state.tolist() == own.state.tolist()
    number = own.state == GradeState.NUMBER
    assert doc.grade[number].tolist() == own.grade[number].tolist()
    with pytest.raises(InputError, match="another candidate's") as info:
        read_workbook(corpus / "own_ids_swapped.xlsx")
    assert (info.value.sheet, info.value.line) == ("Candidates", 2)


def test_the_reduced_copy_reads_the_same_additions(book: Path, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """openpyxl parses a copy without our cells of no person's fill (columns
    C to AA): what is read from it equals what the whole workbook gives,
    a person's fills and comments on those columns included."""
    import zipfile

    import core.io.workbook.additions as additions
    from core.io.safety import check_xlsx
    from core.io.workbook.additions_copy import reduced_copy

    edited = tmp_path / "edited.xlsx"
    _reviewed(book, tmp_path / "reviewed.xlsx", sort=True)
    wb = openpyxl.load_workbook(tmp_path / "reviewed.xlsx")
    ws = wb[SHEETS["candidates"]]
    rows = _key_rows(ws)
    ws.cell(rows[("case-A", "B")], 4).fill = PatternFill("solid", fgColor="FF00FF00")  # score
    ws.cell(rows[("case-A", "B")], 8).fill = PatternFill("solid", fgColor="FF0000FF")  # note
    ws.cell(rows[("case-C", "A")], 10).comment = Comment("why this gain?", "rev")
    wb.save(edited)
    check = check_xlsx(edited)
    copy = tmp_path / "copy.xlsx"
    assert reduced_copy(edited, check, copy)
    part = check.parts[SHEETS["candidates"]]
    with zipfile.ZipFile(edited) as whole, zipfile.ZipFile(copy) as reduced:
        cells = [len(z.read(part).split(b"<c ")) for z in (whole, reduced)]
        rows = [z.read(part).count(b"<row ") for z in (whole, reduced)]
    assert cells[1] < cells[0] / 3  # most of our cells are not parsed
    # The header, and the rows of a person's cell, fill or comment: AB, fills on
    # case-A/B and case-B/C (also the one with AB), comments on case-A/C, case-C/A.
    assert rows == [ws.max_row, 6]
    fast = read_additions(edited)
    monkeypatch.setattr(additions, "reduced_copy", lambda *_args: False)
    assert read_additions(edited) == fast
    assert fast.candidates.fills[("case-A", "B")] == [(3, "00FF00"), (7, "0000FF")]
    assert fast.candidates.fills[("case-B", "C")] == [(1, "FF0000"), (5, "FF0000")]
    assert [n.text for n in fast.candidates.comments[("case-C", "A")]] == ["why this gain?"]
    assert sorted(fast.candidates.comments) == [("case-A", "C"), ("case-C", "A")]
