"""A reviewer's LibreOffice edits an exported workbook (through UNO: a grade,
a convention, a sheet, a column, a comment, the Candidates rows sorted by
source id) and saves it as .xlsx; the product reopens it, takes each edit or
names it, and its next save keeps what was added, each cell on its
candidate's row. A workbook LibreOffice re-saved without edits reopens with
no change taken and nothing to carry. One LibreOffice for all."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import openpyxl
import pytest

import core.io.workbook.reader as reader_module
from app.cli.main import main
from core.engine.evaluation import evaluate
from core.io.safety import check_xlsx
from core.io.workbook import OUTSIDE_ORIGIN, SHEETS, export_workbook, read_workbook, reopened
from core.io.workbook.additions import read_additions
from core.io.workbook.saved_rows import read_saved_candidates
from core.model.conventions import Gain
from core.model.document import GradeState
from core.model.examples import seed_document
from tests.libreoffice import edit

pytestmark = pytest.mark.libreoffice


def _key_rows(ws: Any) -> dict[tuple[str, str], int]:
    return {(ws.cell(r, 1).value, ws.cell(r, 2).value): r for r in range(2, ws.max_row + 1)
            if ws.cell(r, 1).value is not None}


def _row_of(doc: Any, query: str, source: str) -> int:
    return next(i for i in range(len(doc)) if doc.query_ids[int(doc.query[i])] == query
                and doc.source_id[i] == source)


@pytest.fixture(scope="module")
def books(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("lo-edits")
    seed = folder / "seed.xlsx"
    export_workbook(evaluate(seed_document()), seed)
    ws = openpyxl.load_workbook(seed)[SHEETS["candidates"]]
    rows = _key_rows(ws)
    assert ws.max_column == 27  # AB is the first column of theirs
    out = folder / "lo"
    out.mkdir()
    edits = [
        {"op": "set", "sheet": "Candidates", "cell": f"F{rows[('case-A', 'C')]}", "value": 2},
        {"op": "set_named", "name": "gain_rule", "value": "exponential"},
        {"op": "add_sheet", "name": "My notes"},
        {"op": "set", "sheet": "My notes", "cell": "A1", "value": "ask Ann"},
        {"op": "set", "sheet": "My notes", "cell": "B2", "value": 3.5},
        {"op": "set", "sheet": "My notes", "cell": "B3", "value": "=B2*2"},
        {"op": "set", "sheet": "Candidates", "cell": "AB1", "value": "my comment"},
        {"op": "set", "sheet": "Candidates", "cell": f"AB{rows[('case-A', 'A')]}",
         "value": "check this"},
        {"op": "comment", "sheet": "Candidates", "cell": f"F{rows[('case-B', 'C')]}",
         "text": "unsure"},
        {"op": "fill", "sheet": "Candidates", "cell": f"B{rows[('case-B', 'C')]}",
         "rgb": "FF0000"},
        {"op": "sort", "sheet": "Candidates", "range": f"A1:AB{ws.max_row}", "column": 1,
         "descending": True},
    ]
    edited, untouched = edit([(seed, out / "edited.xlsx", edits),
                              (seed, out / "untouched.xlsx", [])])
    return {"seed": seed, "edited": edited, "untouched": untouched}


def test_the_edits_are_taken_and_named(books: dict[str, Path]) -> None:
    ws = openpyxl.load_workbook(books["edited"])[SHEETS["candidates"]]
    sources = [ws.cell(r, 2).value for r in range(2, ws.max_row + 1)]
    assert sources == sorted(sources, reverse=True)  # LibreOffice sorted the rows
    assert_grade_and_gain_taken(read_workbook(books["edited"]))


def assert_grade_and_gain_taken(doc: Any) -> None:
    """case-A/C's grade 2 and the exponential gain rule, typed in LibreOffice,
    are the document's, each named once by what reopening found."""
    i = _row_of(doc, "case-A", "C")
    assert (doc.grade[i], doc.state[i]) == (2.0, GradeState.NUMBER)
    assert doc.conventions.gain == Gain(Gain.parse("exponential").rule)
    found = reopened(doc)
    assert found is not None
    assert [(e.before, e.after) for e in found.conventions] == [
        ("gain rule = linear", "gain rule = exponential")]
    assert [(e.query, e.source_id, e.before, e.after, e.origin) for e in found.grades] == [
        ("case-A", "C", "0", "2", OUTSIDE_ORIGIN)]
    assert found.refused == ()


def test_the_next_save_keeps_what_the_reviewer_added(books: dict[str, Path],
                                                     tmp_path: Path) -> None:
    kept = read_additions(books["edited"])
    assert kept.not_carried == []
    assert kept.summary() == ("sheet 'My notes', 1 added Candidates column, 1 Candidates "
                              "comment, 1 Candidates cell colour")
    saved = tmp_path / "saved.xlsx"
    doc = read_workbook(books["edited"])
    doc.set_grade(_row_of(doc, "case-C", "A"), 1.0, GradeState.NUMBER, who="me")
    export_workbook(evaluate(doc), saved, keep=kept)
    wb = openpyxl.load_workbook(saved)
    mine = wb["My notes"]
    assert (mine["A1"].value, mine["B2"].value, mine["B3"].value) == ("ask Ann", 3.5, "=B2*2")
    shown = openpyxl.load_workbook(saved, data_only=True)["My notes"]
    assert shown["B3"].value == 7.0  # the formula's last result kept for readers
    ws = wb[SHEETS["candidates"]]
    rows = _key_rows(ws)
    assert rows == _key_rows(openpyxl.load_workbook(books["seed"])[SHEETS["candidates"]])
    assert ws["AB1"].value == "my comment"
    assert ws.cell(rows[("case-A", "A")], 28).value == "check this"
    assert sum(ws.cell(r, 28).value is not None for r in range(2, ws.max_row + 1)) == 1
    assert ws.cell(rows[("case-B", "C")], 6).comment.text == "unsure"
    red = [(ws.cell(r, 1).value, ws.cell(r, 2).value) for r in range(2, ws.max_row + 1)
           if ws.cell(r, 2).fill.fill_type == "solid"]
    assert red == [("case-B", "C")]
    assert ws.cell(rows[("case-B", "C")], 2).fill.fgColor.rgb[-6:] == "FF0000"
    again = read_workbook(saved)
    assert again.grade[_row_of(again, "case-A", "C")] == 2.0
    assert again.grade[_row_of(again, "case-C", "A")] == 1.0
    assert reopened(again).empty  # type: ignore[union-attr]
    assert read_additions(saved).summary() == kept.summary()


def test_export_from_the_command_line_keeps_them_too(books: dict[str, Path],
                                                     tmp_path: Path) -> None:
    out = tmp_path / "out.xlsx"
    assert main(["export", str(books["edited"]), "-o", str(out)], out=io.StringIO()) == 0
    assert openpyxl.load_workbook(out)["My notes"]["A1"].value == "ask Ann"


def test_a_resave_without_edits_takes_nothing(books: dict[str, Path]) -> None:
    doc = read_workbook(books["untouched"])
    found = reopened(doc)
    assert found is not None
    assert found.empty
    seed = seed_document()
    assert doc.state.tolist() == seed.state.tolist()
    number = seed.state == GradeState.NUMBER
    assert doc.grade[number].tolist() == seed.grade[number].tolist()
    assert doc.note.tolist() == seed.note.tolist()
    assert len(doc.audit) == len(seed.audit)
    assert doc.conventions == seed.conventions
    kept = read_additions(books["untouched"])
    assert not kept
    assert kept.not_carried == []


@pytest.mark.parametrize("key", ["edited", "untouched"])
def test_libreoffice_sheets_are_read_up_to_the_note_as_calamine_reads_them(
        books: dict[str, Path], key: str) -> None:
    path = books[key]
    check = check_xlsx(path)
    got = read_saved_candidates(path, check, str(path))
    assert got is not None  # LibreOffice's cells are all in forms the reader knows
    cells, formulas = got
    with reader_module._calamine(path) as book:
        parsed = reader_module._candidate_cells(book, SHEETS["candidates"])
    for column in ("query", "source", "grade", "note", "score", "original"):
        assert [(type(v), v) for v in getattr(cells, column)] == [
            (type(v), v) for v in getattr(parsed, column)], column
    assert formulas == reader_module._grade_formula_rows(path, check) == set()
    assert len(cells) == len(seed_document())


def test_the_reduced_copy_reads_libreoffice_s_additions_alike(
        books: dict[str, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    import core.io.workbook.additions as additions

    fast = read_additions(books["edited"])
    monkeypatch.setattr(additions, "reduced_copy", lambda *_args: False)
    assert read_additions(books["edited"]) == fast
    assert fast.candidates.comments  # LibreOffice's comment, found through its part


def test_rows_sorted_with_a_reranker_s_long_scores_are_a_sort(tmp_path: Path) -> None:
    """A reranker's scores of 16 and 17 digits (0.7123456789012345), which
    LibreOffice saves with 15, rounding the digits it was given half up
    (0.712345678901235): the Candidates rows sorted there by grade, as
    .xlsx and as .ods, reopen as a sort, one grade typed taken (was:
    refused, "this row holds query 'q1', source 'c3', but its score and
    original grade are another candidate's")."""
    from core.model.document import Document

    scores = [0.8234567890123456, 0.7123456789012345, 0.6012345678901234, 0.1111111111111111,
              0.9876543210987654, 0.5432109876543211, 0.3333333333333333]
    doc = Document.from_columns(query=["q1"] * 4 + ["q2"] * 3,
                                source_id=[f"c{i}" for i in range(7)], score=scores,
                                grade=[2.0, 0.0, 1.0, 3.0, 1.0, 2.0, 0.0])
    xlsx, ods = tmp_path / "book.xlsx", tmp_path / "book.ods"
    export_workbook(evaluate(doc), xlsx)
    export_workbook(evaluate(doc), ods)
    edits = [{"op": "set", "sheet": SHEETS["candidates"], "cell": "F3", "value": 3},
             {"op": "sort", "sheet": SHEETS["candidates"], "range": "A1:AA8", "column": 5,
              "descending": True}]
    for saved in edit([(xlsx, tmp_path / "sorted.xlsx", edits),
                       (ods, tmp_path / "sorted.ods", edits)]):
        found = read_workbook(saved)
        assert found.score.tolist() == scores, saved
        assert found.grade.tolist() == [2.0, 3.0, 1.0, 3.0, 1.0, 2.0, 0.0], saved
        assert len(reopened(found).grades) == 1, saved


def test_a_gain_table_s_long_numbers_re_saved_are_no_edit(tmp_path: Path) -> None:
    """A gain table with gains of 16 digits (1/3, 0.7123456789012345), which
    LibreOffice saves with 15 (0.333333333333333, 0.712345678901235): the
    workbook re-saved there, as .xlsx and as .ods, reopens with the table
    as written and no convention edit logged (was: 'gain rule =
    0=0,1=0.3333333333333333,... -> 0=0,1=0.333333333333333,...' logged as
    edited in Conventions!A24:A37, and the table's digits lost)."""
    doc = seed_document()
    table = ((0.0, 0.0), (1.0, 1 / 3), (2.0, 0.7123456789012345), (3.0, 1.0))
    doc.conventions = doc.conventions.replace(
        gain=Gain.parse("0=0,1=0.3333333333333333,2=0.7123456789012345,3=1"))
    xlsx, ods = tmp_path / "book.xlsx", tmp_path / "book.ods"
    export_workbook(evaluate(doc), xlsx)
    export_workbook(evaluate(doc), ods)
    for saved in edit([(xlsx, tmp_path / "again.xlsx", []), (ods, tmp_path / "again.ods", [])]):
        found = read_workbook(saved)
        assert found.conventions.gain.table == table, saved
        assert [a for a in found.audit if a.convention] == [], saved
