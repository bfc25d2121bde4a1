"""The Annotators sheet sorted, filtered, renamed, its rows deleted or added
in a spreadsheet: a sort or a filter is no edit (rows are matched by the
candidate they name, never by their place), a renamed sheet is still the
record (its defined name follows the rename), a changed value is named at
the cell where it now is, rows deleted or added are said as such. The
workbooks are made by hand through openpyxl and through LibreOffice (UNO)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import openpyxl
import pytest
import python_calamine

from core.engine.evaluation import evaluate
from core.io.workbook import SHEETS, export_workbook, read_workbook, reopened
from core.model.document import Document
from tests.test_workbook_annotators import (
    HEADER,
    ROWS,
    SHEET,
    exported,
    sheet_values,
)


@pytest.fixture
def book(tmp_path: Path) -> tuple[Document, Path]:
    return exported(tmp_path)


def rewrite(path: Path, out: Path, rows: list[list[Any]]) -> None:
    """The sheet's data rows replaced by ``rows`` through openpyxl (a
    person's sort: the values move, nothing else is typed)."""
    wb = openpyxl.load_workbook(path)
    ws = wb[SHEET]
    ws.delete_rows(2, ws.max_row)
    for r, row in enumerate(rows, start=2):
        for c, v in enumerate(row, start=1):
            ws.cell(r, c, None if v == "" else v)
    wb.save(out)


def said(path: Path) -> list[tuple[str | None, int | None, str | None, str]]:
    found = reopened(read_workbook(path))
    return [(e.sheet, e.line, e.column, e.problem) for e in found.not_read]


def test_a_sort_and_a_filter_are_no_edit(tmp_path: Path,
                                                   book: tuple[Document, Path]) -> None:
    doc, out = book
    rows = ROWS[::-1]  # sorted by source id, descending: every row moves
    sorted_ = tmp_path / "sorted.xlsx"
    rewrite(out, sorted_, rows)
    wb = openpyxl.load_workbook(sorted_)
    ws = wb[SHEET]
    ws.auto_filter.ref = "A1:F5"  # a filter showing the disagreements only
    for r in (2, 4, 5):
        ws.row_dimensions[r].hidden = True
    wb.save(sorted_)
    assert sheet_values(sorted_) == [HEADER, *rows]
    assert said(sorted_) == []
    found = read_workbook(sorted_)
    np.testing.assert_array_equal(found.grade, doc.grade)
    assert reopened(found).empty


def test_a_value_changed_in_a_sorted_sheet_is_named_where_it_now_is(
        tmp_path: Path, book: tuple[Document, Path]) -> None:
    doc, out = book
    rows = [list(r) for r in ROWS[::-1]]
    rows[3][3] = 1.0  # bob's 3 of d1 (now on row 5) typed as 1
    edited = tmp_path / "edited.xlsx"
    rewrite(out, edited, rows)
    ((sheet, line, column, problem),) = said(edited)
    assert (sheet, line, column) == (SHEET, 5, "D")
    assert problem.startswith("edited, not read as a grade")
    np.testing.assert_array_equal(read_workbook(edited).ratings, doc.ratings)


def test_rows_deleted_and_added_are_said_as_such(tmp_path: Path,
                                                 book: tuple[Document, Path]) -> None:
    doc, out = book
    rows = [ROWS[0], ["q1", "d9", 1.0, 2.0, 1.5, 1.0], ROWS[1], ROWS[3],
            ["q2", "d4", 1.0, "", 1.0, ""]]  # d3 deleted, d9 added, d4 twice
    changed = tmp_path / "changed.xlsx"
    rewrite(out, changed, rows)
    added, deleted = said(changed)
    assert added[:3] == (SHEET, 3, None)
    assert added[3].startswith("a row added (query 'q1', source 'd9', and 1 more row)")
    assert deleted[:3] == (SHEET, None, None)
    assert deleted[3].startswith("the row of query 'q1', source 'd3' deleted: the next save")
    found = read_workbook(changed)
    np.testing.assert_array_equal(found.ratings, doc.ratings)
    lines = reopened(found).lines()
    assert lines[0].startswith("sheet Annotators, row 3: a row added")
    assert lines[1].startswith("sheet Annotators: the row of query 'q1', source 'd3' deleted")
    again = tmp_path / "again.xlsx"
    export_workbook(evaluate(found), again)
    assert sheet_values(again) == [HEADER, *ROWS]  # written again as imported


def renamed(path: Path, out: Path, name: str) -> None:
    """The sheet renamed through openpyxl, its defined name carried along
    as Excel and LibreOffice carry it (openpyxl leaves names alone)."""
    wb = openpyxl.load_workbook(path)
    wb[SHEET].title = name
    if "annotators_record" in wb.defined_names:
        wb.defined_names["annotators_record"].attr_text = f"'{name}'!$A$1"
    wb.save(out)


def test_a_renamed_sheet_is_still_the_record(tmp_path: Path,
                                             book: tuple[Document, Path]) -> None:
    """Reopened, an edit in the renamed sheet is named there; saved again
    (its additions kept), the record keeps the reviewer's name, and a sheet
    of theirs called Annotators is theirs: no sheet twice, none lost."""
    from core.io.workbook.additions import additions_to_keep

    _, out = book
    moved = tmp_path / "moved.xlsx"
    renamed(out, moved, "Who gave what")
    wb = openpyxl.load_workbook(moved)
    wb["Who gave what"]["D2"] = 2  # bob's 3 of d1
    mine = wb.create_sheet(SHEET)  # a sheet of the reviewer's own, by the old name
    mine["A1"] = "my notes"
    wb.save(moved)
    ((sheet, line, column, _),) = said(moved)
    assert (sheet, line, column) == ("Who gave what", 2, "D")
    keep = additions_to_keep(moved)
    assert keep is not None
    assert keep.annotators_name == "Who gave what"
    assert [s.name for s in keep.sheets] == [SHEET]
    assert keep.not_carried == []  # (its disagreement marks are ours, not "lost")
    found = read_workbook(moved)
    export_workbook(evaluate(found), moved, keep=keep)
    names = openpyxl.load_workbook(moved).sheetnames
    assert names[names.index(SHEETS["audit"]) + 1:] == ["Who gave what", SHEET,
                                                         SHEETS["metadata"]]
    assert sheet_values(moved, "Who gave what") == [HEADER, *ROWS]
    assert sheet_values(moved, SHEET) == [["my notes"]]
    assert reopened(read_workbook(moved)).empty


@pytest.mark.libreoffice
def test_libreoffice_sorted_renamed_and_edited(tmp_path: Path,
                                               book: tuple[Document, Path]) -> None:
    """Through LibreOffice (UNO), in both formats: the sheet sorted by its
    spread and renamed reads as no edit and stays the record through a save;
    a grade typed after the sort is named at its new cell; a standard
    filter (spread above 0) is no edit either."""
    from core.io.workbook.additions import additions_to_keep
    from tests.libreoffice import edit

    doc, xlsx = book
    ods = tmp_path / "book.ods"
    export_workbook(evaluate(doc), ods)
    by_spread = [{"op": "sort", "sheet": SHEET, "range": "A1:F5", "column": 5},
                 {"op": "rename", "sheet": SHEET, "name": "Who gave what"}]
    typed = [*by_spread, {"op": "set", "sheet": "Who gave what", "cell": "C3", "value": 5}]
    out = tmp_path / "lo"
    out.mkdir()
    filtered = [{"op": "filter", "sheet": SHEET, "range": "A1:F5", "column": 5, "above": 0}]
    jobs = [(src, out / f"{what}{src.suffix}", edits) for src in (xlsx, ods)
            for what, edits in (("sorted", by_spread), ("typed", typed))]
    jobs += [(src, out / f"filtered{src.suffix}", filtered) for src in (xlsx, ods)]
    *results, filtered_x, filtered_o = edit(jobs)
    hidden = openpyxl.load_workbook(filtered_x)[SHEET].row_dimensions
    assert [hidden[r].hidden for r in range(2, 6)] == [False, True, True, True]
    for path in (filtered_x, filtered_o):  # the disagreement shown, the rest hidden
        assert sheet_values(path) == [HEADER, *ROWS], path
        assert reopened(read_workbook(path)).empty, path
    # the spreads ascending (0, 1), the blanks last: d2 first
    rows = [ROWS[1], ROWS[0], ROWS[2], ROWS[3]]
    for sorted_, typed_ in (results[:2], results[2:]):
        assert sheet_values(sorted_, "Who gave what") == [HEADER, *rows], sorted_
        assert reopened(read_workbook(sorted_)).empty, reopened(read_workbook(sorted_)).lines()
        found = read_workbook(typed_)
        np.testing.assert_array_equal(found.ratings, doc.ratings)
        ((sheet, line, column, _),) = said(typed_)
        assert (sheet, line, column) == ("Who gave what", 3, "C"), typed_
        keep = additions_to_keep(sorted_)
        assert keep is not None
        assert (keep.annotators_name, keep.sheets, keep.not_carried) == (
            "Who gave what", [], []), sorted_
        again = tmp_path / f"again{sorted_.suffix}"
        export_workbook(evaluate(read_workbook(sorted_)), again, keep=keep)
        names = python_calamine.CalamineWorkbook.from_path(str(again)).sheet_names
        assert SHEET not in names
        assert "Who gave what" in names
        assert sheet_values(again, "Who gave what") == [HEADER, *ROWS]
        assert reopened(read_workbook(again)).empty


def test_true_typed_over_a_grade_1_is_an_edit(tmp_path: Path,
                                              book: tuple[Document, Path]) -> None:
    """A row read in its place as written is passed over at once; TRUE,
    which compares equal to 1, is not taken for the 1 it replaced."""
    _, out = book
    wb = openpyxl.load_workbook(out)
    wb[SHEET]["D3"] = True  # bob's 1 of d2
    edited = tmp_path / "edited.xlsx"
    wb.save(edited)
    ((sheet, line, column, _),) = said(edited)
    assert (sheet, line, column) == (SHEET, 3, "D")


def renamed_without_the_name(path: Path, out: Path, name: str, *, dangling: bool) -> None:
    """The sheet renamed through openpyxl, which carries no defined name
    along: left pointing at the sheet's old name (``dangling``, openpyxl's
    rename), or gone (a workbook written before the name)."""
    wb = openpyxl.load_workbook(path)
    wb[SHEET].title = name
    if not dangling:
        del wb.defined_names["annotators_record"]
    else:
        assert wb.defined_names["annotators_record"].attr_text == f"{SHEET}!$A$1"
    wb.save(out)


@pytest.mark.parametrize("dangling", [True, False])
def test_a_renamed_sheet_without_its_name_is_found_by_its_header(
        tmp_path: Path, book: tuple[Document, Path], dangling: bool) -> None:
    """No defined name marks it: the sheet holding the record's header is
    the record, checked on reopening and written again under its name (was:
    taken for a sheet of the reviewer's, kept, and a second Annotators
    sheet written beside it)."""
    from core.io.workbook.additions import additions_to_keep

    _, out = book
    moved = tmp_path / "moved.xlsx"
    renamed_without_the_name(out, moved, "Who gave what", dangling=dangling)
    wb = openpyxl.load_workbook(moved)
    wb["Who gave what"]["D2"] = 2  # bob's 3 of d1
    wb.save(moved)
    ((sheet, line, column, _),) = said(moved)
    assert (sheet, line, column) == ("Who gave what", 2, "D")
    keep = additions_to_keep(moved)
    assert keep is not None
    assert (keep.annotators_name, keep.sheets) == ("Who gave what", [])
    export_workbook(evaluate(read_workbook(moved)), moved, keep=keep)
    names = openpyxl.load_workbook(moved).sheetnames
    assert SHEET not in names
    assert names.count("Who gave what") == 1
    assert sheet_values(moved, "Who gave what") == [HEADER, *ROWS]
    assert reopened(read_workbook(moved)).empty


def test_two_sheets_that_could_be_the_record_are_refused(
        tmp_path: Path, book: tuple[Document, Path]) -> None:
    """A copy of the renamed record, no defined name: which is the record
    cannot be told; reopening says so in one line naming both (neither
    read), and a save over it refuses: never two records written."""
    from core.errors import InputError
    from core.io.workbook.additions import additions_to_keep

    _, out = book
    moved = tmp_path / "moved.xlsx"
    renamed_without_the_name(out, moved, "Who gave what", dangling=False)
    wb = openpyxl.load_workbook(moved)
    wb.copy_worksheet(wb["Who gave what"]).title = "Copy"
    wb.save(moved)
    ((sheet, line, column, problem),) = said(moved)
    assert (sheet, line, column) == (None, None, None)
    assert problem == ("sheets 'Who gave what' and 'Copy' both hold the Annotators record's "
                       "header, and no defined name annotators_record says which is the record")
    with pytest.raises(InputError, match="sheets 'Who gave what' and 'Copy' both hold"):
        additions_to_keep(moved)


def test_a_column_inserted_is_not_the_records_and_no_edit(
        tmp_path: Path, book: tuple[Document, Path]) -> None:
    """A reviewer's column inserted before bob's: the record's columns are
    read by their headers, so no cell after it reads as edited (was: every
    value of bob's column and after, 15 cells, said edited at D1); the
    column is said once, as not the record's; a grade typed after the insert
    is named at the cell where it now is."""
    _, out = book
    inserted = tmp_path / "inserted.xlsx"
    wb = openpyxl.load_workbook(out)
    ws = wb[SHEET]
    ws.insert_cols(4)
    ws["D1"], ws["D2"], ws["D4"] = "my note", "check d1", "ask bob"
    wb.save(inserted)
    assert sheet_values(inserted)[1] == ["q1", "d1", 2.0, "check d1", 3.0, 2.5, 1.0]
    ((sheet, line, column, problem),) = said(inserted)
    assert (sheet, line, column) == (SHEET, None, "D")
    assert problem.startswith("a column not the record's ('my note'): kept, not read as grades")
    wb = openpyxl.load_workbook(inserted)
    wb[SHEET]["E3"] = 2  # bob's 1 of d2, now in column E
    wb[SHEET]["H5"] = "typed beside"  # a cell beside the record, no header
    wb.save(inserted)
    extra, edited = said(inserted)
    assert extra[:3] == (SHEET, None, "D")
    assert extra[3].startswith("a column not the record's ('my note') (and 1 more column)")
    assert edited[:3] == (SHEET, 3, "E")
    assert edited[3].startswith("edited, not read as a grade")


@pytest.mark.parametrize("suffix", [".xlsx", ".ods"])
def test_a_column_inserted_is_kept_after_the_records(
        tmp_path: Path, book: tuple[Document, Path], suffix: str) -> None:
    """Saved again, the reviewer's column (and a note typed beside the
    record) is written after the record's columns, each value on its
    candidate's row, the rows sorted the other way round first (was: lost,
    the record written as imported without it)."""
    from core.io.workbook.additions import additions_to_keep

    doc, out = book
    inserted = tmp_path / "inserted.xlsx"
    wb = openpyxl.load_workbook(out)
    ws = wb[SHEET]
    ws.insert_cols(4)
    ws["D1"], ws["D2"], ws["D4"] = "my note", "check d1", "ask bob"
    ws["H3"] = 7  # beside the record, no header: d2's
    data = [[c.value for c in row] for row in ws.iter_rows(min_row=2, max_row=5)]
    for r, row in enumerate(data[::-1], start=2):  # sorted the other way round
        for c, v in enumerate(row, start=1):
            ws.cell(r, c).value = v
    wb.save(inserted)
    assert sheet_values(inserted)[1][:2] == ["q2", "d4"]
    saved = inserted
    if suffix == ".ods":  # the same workbook as an .ods of ours, the column inserted
        saved = tmp_path / "book.ods"
        export_workbook(evaluate(doc), saved, keep=additions_to_keep(inserted))
    else:
        export_workbook(evaluate(read_workbook(inserted)), saved,
                        keep=additions_to_keep(inserted))
    assert sheet_values(saved) == [
        [*HEADER, "my note", ""], [*ROWS[0], "check d1", ""], [*ROWS[1], "", 7.0],
        [*ROWS[2], "ask bob", ""], [*ROWS[3], "", ""]]
    ((sheet, line, column, problem),) = said(saved)
    assert (sheet, line, column) == (SHEET, None, "G")
    assert problem.startswith("a column not the record's ('my note') (and 1 more column): kept")
    again = tmp_path / f"again{suffix}"
    export_workbook(evaluate(read_workbook(saved)), again, keep=additions_to_keep(saved))
    assert sheet_values(again) == sheet_values(saved)


@pytest.mark.libreoffice
def test_libreoffice_inserted_column(tmp_path: Path, book: tuple[Document, Path]) -> None:
    """A column inserted in LibreOffice (UNO) before bob's, a note typed in
    it, saved as .xlsx and .ods: one line for the column, no edit; saved
    again, the column is kept after the record's."""
    from core.io.workbook.additions import additions_to_keep
    from tests.libreoffice import edit

    doc, xlsx = book
    ods = tmp_path / "book.ods"
    export_workbook(evaluate(doc), ods)
    edits = [{"op": "insert_column", "sheet": SHEET, "column": 3},
             {"op": "set", "sheet": SHEET, "cell": "D1", "value": "my note"},
             {"op": "set", "sheet": SHEET, "cell": "D2", "value": "check d1"}]
    out = tmp_path / "lo"
    out.mkdir()
    results = edit([(src, out / f"inserted{src.suffix}", edits) for src in (xlsx, ods)])
    for path in results:
        assert sheet_values(path)[:2] == [
            [*HEADER[:3], "my note", *HEADER[3:]], ["q1", "d1", 2.0, "check d1", 3.0, 2.5, 1.0]]
        ((sheet, line, column, problem),) = said(path)
        assert (sheet, line, column) == (SHEET, None, "D"), path
        assert problem.startswith("a column not the record's ('my note')"), path
        np.testing.assert_array_equal(read_workbook(path).ratings, doc.ratings)
        again = tmp_path / f"again{path.suffix}"
        export_workbook(evaluate(read_workbook(path)), again, keep=additions_to_keep(path))
        assert sheet_values(again)[:3] == [[*HEADER, "my note"], [*ROWS[0], "check d1"],
                                           [*ROWS[1], ""]], again


def test_a_column_deleted_is_said_once(tmp_path: Path, book: tuple[Document, Path]) -> None:
    """bob's column deleted: one line naming it (was: every cell from D on
    said edited), the columns after it read where they now are."""
    doc, out = book
    deleted = tmp_path / "deleted.xlsx"
    wb = openpyxl.load_workbook(out)
    wb[SHEET].delete_cols(4)
    wb.save(deleted)
    ((sheet, line, column, problem),) = said(deleted)
    assert (sheet, line, column) == (SHEET, 1, None)
    assert problem == ("the header of column 'bob' is not there: the next save writes the "
                       "column again, as imported")
    np.testing.assert_array_equal(read_workbook(deleted).ratings, doc.ratings)


def test_a_cell_typed_beside_the_record_is_no_edit(
        tmp_path: Path, book: tuple[Document, Path]) -> None:
    """A note typed in G3, right of the spread, no header: said once as not
    the record's (was: an edit of G3)."""
    _, out = book
    beside = tmp_path / "beside.xlsx"
    wb = openpyxl.load_workbook(out)
    wb[SHEET]["G3"] = "looks fine"
    wb.save(beside)
    ((sheet, line, column, problem),) = said(beside)
    assert (sheet, line, column) == (SHEET, None, "G")
    assert problem.startswith("a column not the record's: kept, not read as grades")


@pytest.mark.parametrize("suffix", [".xlsx", ".ods"])
def test_another_document_saved_over_the_record_writes_no_old_annotator(
        tmp_path: Path, book: tuple[Document, Path], suffix: str) -> None:
    """A document whose annotators are others (a sheet imported again, bob
    now robert) saved over a workbook of ours: the replaced record's
    annotators are its own columns, not a reviewer's (was: alice's and
    bob's grades written after the new record's columns, and said at each
    reopen as columns not the record's), while a reviewer's column in it
    is kept."""
    from core.io.workbook.additions import additions_to_keep

    doc, out = book
    target = out.with_suffix(suffix)
    if suffix == ".ods":
        export_workbook(evaluate(doc), target)
    wb = openpyxl.load_workbook(out)
    again = doc.subset(np.arange(len(doc)))
    again.annotators = ["alice", "robert"]
    export_workbook(evaluate(again), target, keep=additions_to_keep(target))
    assert sheet_values(target) == [[*HEADER[:3], "robert", *HEADER[4:]], *ROWS]
    assert said(target) == []
    if suffix == ".ods":
        return
    ws = wb[SHEET]  # a reviewer's column: kept, the old annotator's not
    ws.insert_cols(4)
    ws["D1"], ws["D2"] = "my note", "check d1"
    wb.save(out)
    export_workbook(evaluate(again), out, keep=additions_to_keep(out))
    assert sheet_values(out)[:2] == [[*HEADER[:3], "robert", *HEADER[4:], "my note"],
                                     [*ROWS[0], "check d1"]]
