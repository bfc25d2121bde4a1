"""The Annotators sheet: a workbook of an imported annotators' sheet shows
each annotator's grade of each candidate (blank where none), the consensus
imported and how far apart the grades were, in both formats; the sheet is
a record, not an input: a cell edited there is not read as a grade and the
reopen says where, and what to do; a workbook without annotators' grades
has no such sheet."""

from __future__ import annotations

import contextlib
import io
import re
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import openpyxl
import pytest
import python_calamine

from app.cli.main import main
from core.analysis.compare import compare
from core.analysis.compare.many import RunValues, compare_runs
from core.engine.evaluation import evaluate
from core.io.annotator import import_annotations
from core.io.workbook import (
    SHEETS,
    export_comparison_workbook,
    export_runs_workbook,
    export_workbook,
    read_workbook,
    reopened,
)
from core.model.document import Document
from core.model.examples import seed_document

SHEET = SHEETS["annotators"]
# Two annotators: d1 they disagree on (2 and 3), d2 they agree on, d3 only
# alice graded, d4 nobody could ("?": unknown); the consensus is the mean.
ANNOT_CSV = (
    "query,doc,annotator,grade\n"
    "q1,d1,alice,2\n"
    "q1,d1,bob,3\n"
    "q1,d2,alice,1\n"
    "q1,d2,bob,1\n"
    "q1,d3,alice,2\n"
    "q2,d4,bob,?\n"
)
HEADER = ["query", "source id", "alice", "bob", "original grade (the consensus imported)",
          "spread (highest - lowest grade)"]
#: Worked by hand: the mean of the grades given; highest - lowest where two
#: annotators graded, blank where fewer did.
ROWS = [
    ["q1", "d1", 2.0, 3.0, 2.5, 1.0],
    ["q1", "d2", 1.0, 1.0, 1.0, 0.0],
    ["q1", "d3", 2.0, "", 2.0, ""],
    ["q2", "d4", "", "", "unknown", ""],
]


def imported(tmp_path: Path) -> Document:
    path = tmp_path / "annot.csv"
    path.write_text(ANNOT_CSV, encoding="utf-8")
    return import_annotations(path, consensus="mean", rounding="none").document


def exported(tmp_path: Path) -> tuple[Document, Path]:
    """The imported document (:func:`imported`) and its workbook, written."""
    doc = imported(tmp_path)
    out = tmp_path / "book.xlsx"
    export_workbook(evaluate(doc), out)
    return doc, out


def sheet_values(path: Path, sheet: str = SHEET) -> list[list[Any]]:
    book = python_calamine.CalamineWorkbook.from_path(str(path))
    return [list(r) for r in book.get_sheet_by_name(sheet).to_python()]


@pytest.fixture
def doc(tmp_path: Path) -> Document:
    return imported(tmp_path)


@pytest.mark.parametrize("suffix", [".xlsx", ".ods"])
def test_each_annotators_grade_is_shown(tmp_path: Path, doc: Document, suffix: str) -> None:
    out = tmp_path / f"book{suffix}"
    export_workbook(evaluate(doc), out)
    names = python_calamine.CalamineWorkbook.from_path(str(out)).sheet_names
    assert names.index(SHEET) == names.index(SHEETS["audit"]) + 1  # visible, before the metadata
    assert sheet_values(out) == [HEADER, *ROWS]
    found = read_workbook(out)
    assert reopened(found).empty  # as written: nothing to say
    np.testing.assert_array_equal(found.ratings, doc.ratings)


def test_the_sheet_is_laid_out_as_the_others(tmp_path: Path, doc: Document) -> None:
    out = tmp_path / "book.xlsx"
    export_workbook(evaluate(doc), out)
    ws = openpyxl.load_workbook(out)[SHEET]
    assert ws.sheet_state == "visible"
    assert ws.freeze_panes == "C2"
    assert ws["A1"].font.b
    assert ws["C1"].font.b
    assert ws.page_setup.orientation == "landscape"
    assert ws.print_title_rows == "$1:$1"
    assert ws.oddHeader.left.text == "&F"
    assert ws["C2"].alignment.horizontal == "right"  # a grade reads as the Candidates' do
    assert ws["E5"].value == "unknown"
    assert ws["E5"].data_type == "s"
    assert ws["D4"].value is None  # bob gave no grade: blank, never 0
    assert ws.column_dimensions["A"].width >= 8


def test_a_document_without_annotators_has_no_such_sheet(tmp_path: Path) -> None:
    for suffix in (".xlsx", ".ods"):
        out = tmp_path / f"seed{suffix}"
        export_workbook(evaluate(seed_document()), out)
        names = python_calamine.CalamineWorkbook.from_path(str(out)).sheet_names
        assert SHEET not in names
        assert reopened(read_workbook(out)).empty


def test_an_edit_in_the_sheet_is_not_read_and_the_reopen_says_where(
        tmp_path: Path, doc: Document) -> None:
    out = tmp_path / "book.xlsx"
    export_workbook(evaluate(doc), out)
    wb = openpyxl.load_workbook(out)
    wb[SHEET]["D4"] = 0  # bob's blank of d3 typed as 0
    wb[SHEET]["C2"] = 3  # alice's 2 of d1 raised
    edited = tmp_path / "edited.xlsx"
    wb.save(edited)
    found = read_workbook(edited)
    np.testing.assert_array_equal(found.grade, doc.grade)  # no grade taken
    np.testing.assert_array_equal(found.ratings, doc.ratings)
    assert len(found.audit) == len(doc.audit)
    said = reopened(found)
    assert not said.empty
    assert not said.grades
    (bad,) = said.not_read
    assert (bad.sheet, bad.line, bad.column) == (SHEET, 2, "C")  # the first, row by row
    assert "1 more cell" in bad.problem
    assert "Candidates" in str(bad.hint)
    (line,) = said.lines()
    assert line.startswith("sheet Annotators, row 2, column C: edited (and 1 more cell)")
    # A save writes the sheet again as imported.
    again = tmp_path / "again.xlsx"
    export_workbook(evaluate(found), again)
    assert sheet_values(again) == [HEADER, *ROWS]
    assert reopened(read_workbook(again)).empty


def test_a_grade_edited_in_candidates_is_taken_and_the_sheet_stays_as_imported(
        tmp_path: Path, doc: Document) -> None:
    out = tmp_path / "book.xlsx"
    export_workbook(evaluate(doc), out)
    wb = openpyxl.load_workbook(out)
    wb[SHEETS["candidates"]]["F2"] = 3  # the first row's current grade
    edited = tmp_path / "edited.xlsx"
    wb.save(edited)
    found = read_workbook(edited)
    said = reopened(found)
    assert len(said.grades) == 1
    assert not said.not_read
    again = tmp_path / "again.xlsx"
    export_workbook(evaluate(found), again)
    assert sheet_values(again) == [HEADER, *ROWS]  # the import's record, unchanged


def test_the_command_line_warns_in_one_line(tmp_path: Path, doc: Document) -> None:
    out = tmp_path / "book.xlsx"
    export_workbook(evaluate(doc), out)
    wb = openpyxl.load_workbook(out)
    wb[SHEET]["E3"] = "x"
    wb.save(out)
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code = main(["evaluate", str(out)], out=io.StringIO())
    assert code == 0
    lines = [x for x in err.getvalue().splitlines() if SHEET in x]
    assert len(lines) == 1
    assert "sheet 'Annotators', row 3, column 'E': edited, not read as a grade" in lines[0]
    assert "change the grade in the Candidates sheet" in lines[0]


@pytest.mark.libreoffice
def test_libreoffice_saves_the_sheet_and_the_reopen_still_holds(
        tmp_path: Path, doc: Document) -> None:
    """Saved by LibreOffice (recalculated, as .xlsx and as .ods) the sheet
    reads as written, so nothing is said; an annotator's grade typed there
    in LibreOffice is reported at its cell and not taken."""
    from tests.libreoffice import edit

    xlsx, ods = tmp_path / "book.xlsx", tmp_path / "book.ods"
    export_workbook(evaluate(doc), xlsx)
    export_workbook(evaluate(doc), ods)
    out = tmp_path / "lo"
    out.mkdir()
    typed = [{"op": "set", "sheet": SHEET, "cell": "D4", "value": 1}]
    saved_x, saved_o, edited_o, edited_x = edit([
        (xlsx, out / "saved.xlsx", []), (ods, out / "saved.ods", []),
        (ods, out / "edited.ods", typed), (xlsx, out / "edited.xlsx", typed)])
    for saved in (saved_x, saved_o):
        assert sheet_values(saved) == [HEADER, *ROWS], saved
        found = read_workbook(saved)
        assert reopened(found).empty, reopened(found).lines()
    for edited in (edited_o, edited_x):
        found = read_workbook(edited)
        np.testing.assert_array_equal(found.grade, doc.grade)
        (bad,) = reopened(found).not_read
        assert (bad.line, bad.column, bad.problem.startswith("edited,")) == (4, "D", True)


def test_ids_and_names_are_text_as_typed(tmp_path: Path) -> None:
    """An id a spreadsheet would read as a formula, XML specials and an
    annotator named with them come back as typed, in both formats."""
    path = tmp_path / "odd.csv"
    path.write_text("query,doc,annotator,grade\n"
                    "=q1,a&b <c>,r&d <1>,2\n"
                    "=q1,a&b <c>,-x,0\n"
                    "=q1,+d2,r&d <1>,1\n", encoding="utf-8")
    doc = import_annotations(path, consensus="mean", rounding="none").document
    for suffix in (".xlsx", ".ods"):
        out = tmp_path / f"odd{suffix}"
        export_workbook(evaluate(doc), out)
        got = sheet_values(out)
        assert got[0][2:4] == ["r&d <1>", "-x"], suffix
        assert sorted(got[1:]) == sorted([["=q1", "a&b <c>", 2.0, 0.0, 1.0, 2.0],
                                          ["=q1", "+d2", 1.0, "", 1.0, ""]]), suffix
        assert reopened(read_workbook(out)).empty, suffix
    ws = openpyxl.load_workbook(tmp_path / "odd.xlsx")[SHEET]
    row = {ws.cell(r, 2).value: r for r in (2, 3)}
    assert ws["A2"].quotePrefix
    assert ws.cell(row["+d2"], 2).quotePrefix
    assert not ws.cell(row["a&b <c>"], 2).quotePrefix


def test_the_ods_grades_read_right_aligned_and_a_state_in_its_colour(
        tmp_path: Path, doc: Document) -> None:
    """In the .ods, the grade cells (no style of their own) take their
    column's: right-aligned, and the annotators' and the original grade's
    with the grade states' colours (a condition per word: an annotator's
    unrateable mark is a word too), as the xlsx's conditional format; the
    spread's without."""
    out = tmp_path / "book.ods"
    export_workbook(evaluate(doc), out)
    with zipfile.ZipFile(out) as z:
        content = z.read("content.xml").decode()
    table = content[content.index(f'table:name="{SHEET}"'):]
    table = table[:table.index("</table:table>")]
    by_column = []
    for tag in re.findall(r"<table:table-column\b[^>]*/>", table):
        repeated = re.search(r'number-columns-repeated="(\d+)"', tag)
        style = re.search(r'default-cell-style-name="([^"]+)"', tag)
        by_column += [style.group(1) if style else ""] * int(repeated.group(1) if repeated else 1)
    assert len(by_column) == len(HEADER)
    assert by_column[:2] == ["", ""]
    for style in by_column[2:]:
        body = re.search(rf'<style:style style:name="{style}"[^>]*>(.*?)</style:style>',
                         content).group(1)
        assert 'fo:text-align="end"' in body, style
        coloured = "cell-content()=&quot;unknown&quot;" in body
        assert coloured == (style != by_column[5]), style
    assert '<text:p>unknown</text:p>' in table


def scored(tmp_path: Path) -> Document:
    """:data:`ANNOT_CSV` with a score column ranking d1, d2, d3 in that
    order (the Candidates sheet's order is :data:`ROWS`'): a run A."""
    path = tmp_path / "scored.csv"
    scores = {"d1": 3, "d2": 2, "d3": 1, "d4": 1}
    lines = ANNOT_CSV.splitlines()
    path.write_text("\n".join([lines[0] + ",score", *[
        f"{x},{scores[x.split(',')[1]]}" for x in lines[1:]]]) + "\n", encoding="utf-8")
    return import_annotations(path, consensus="mean", rounding="none").document


def run_b(doc: Document, scores: list[float]) -> Document:
    """``doc``'s candidates and consensus grades under other scores, without
    the annotators' grades."""
    return Document.from_columns(
        query=[doc.query_ids[q] for q in doc.query], source_id=doc.source_id.tolist(),
        score=scores, grade=doc.grade.tolist())


@pytest.mark.parametrize("suffix", [".xlsx", ".ods"])
def test_a_comparison_workbook_has_run_as_annotators_sheet(tmp_path: Path, suffix: str) -> None:
    """``compare A B --export`` writes run A's
    Annotators sheet: A's rows as an export of A alone writes them, not B's
    (B keeps none); reopened unedited it says nothing. With the annotators'
    grades in B only, no sheet (it records the workbook's own document, A)."""
    a = scored(tmp_path)
    b = run_b(a, [1.0, 2.0, 3.0, 1.0])
    out = tmp_path / f"pair{suffix}"
    export_comparison_workbook(compare(a, b, resamples=20, seed=3), out)
    assert sheet_values(out) == [HEADER, *ROWS]
    found = read_workbook(out)
    assert reopened(found).empty
    np.testing.assert_array_equal(found.ratings, a.ratings)
    swapped = tmp_path / f"swapped{suffix}"
    export_comparison_workbook(compare(b, a, resamples=20, seed=3), swapped)
    assert SHEET not in python_calamine.CalamineWorkbook.from_path(str(swapped)).sheet_names
    assert reopened(read_workbook(swapped)).empty


@pytest.mark.parametrize("suffix", [".xlsx", ".ods"])
def test_a_runs_workbook_has_the_baselines_annotators_sheet(tmp_path: Path, suffix: str) -> None:
    """The runs workbook (``compare`` of three or more runs, ``--export``)
    writes the baseline's Annotators sheet; reopened unedited (as
    the baseline) it says nothing; an edit there is named, not read."""
    a = scored(tmp_path)
    runs = [a, run_b(a, [1.0, 2.0, 3.0, 1.0]), run_b(a, [2.0, 3.0, 1.0, 1.0])]
    evs = [evaluate(d, a.conventions) for d in runs]
    m = compare_runs([RunValues.of(ev, f"run{i}") for i, ev in enumerate(evs)],
                     evs[0].conventions, resamples=20, seed=2, pairs="all")
    out = tmp_path / f"runs{suffix}"
    export_runs_workbook(m, evs, out)
    assert sheet_values(out) == [HEADER, *ROWS]
    found = read_workbook(out)
    assert reopened(found).empty
    np.testing.assert_array_equal(found.ratings, a.ratings)
    if suffix == ".xlsx":
        wb = openpyxl.load_workbook(out)
        wb[SHEET]["C2"] = 3  # alice's 2 of d1 raised
        wb.save(out)
        (bad,) = reopened(read_workbook(out)).not_read
        assert (bad.sheet, bad.line, bad.column) == (SHEET, 2, "C")


def test_compare_export_on_the_command_line_keeps_run_as_annotators(tmp_path: Path) -> None:
    """``compare A.xlsx B.csv --export OUT.xlsx``, A a workbook of an imported
    annotators' sheet: OUT's Annotators sheet is A's, and OUT reopens quiet."""
    from core.io.delimited import write_delimited

    a = scored(tmp_path)
    book_a = tmp_path / "a.xlsx"
    export_workbook(evaluate(a), book_a)
    csv_b = tmp_path / "b.csv"
    write_delimited(run_b(a, [1.0, 2.0, 3.0, 1.0]), csv_b)
    out = tmp_path / "out.xlsx"
    code = main(["compare", str(book_a), str(csv_b), "--export", str(out)], out=io.StringIO())
    assert code == 0
    assert sheet_values(out) == [HEADER, *ROWS]
    assert reopened(read_workbook(out)).empty


#: Three annotators, means of thirds: 4/3 and 2/3, which a spreadsheet
#: keeping 15 significant digits saves as 1.33333333333333 and
#: 0.666666666666667.
THIRDS_CSV = ("query,doc,annotator,grade\n"
              "q1,d1,ana,2\nq1,d1,ben,1\nq1,d1,cy,1\n"
              "q1,d2,ana,0\nq1,d2,ben,1\nq1,d2,cy,1\n"
              "q1,d3,ana,3\nq1,d3,ben,3\nq1,d3,cy,3\n")


def _thirds(tmp_path: Path) -> Document:
    path = tmp_path / "thirds.csv"
    path.write_text(THIRDS_CSV, encoding="utf-8")
    return import_annotations(path, consensus="mean", rounding="none").document


def test_grades_saved_with_15_digits_are_no_edits(tmp_path: Path) -> None:
    """A mean of three grades (4/3) saved back with 15 significant digits,
    as LibreOffice saves it, in the Candidates' current grade and the
    Annotators' consensus: no edit, the grades kept whole (was: each read as
    a grade edited in the spreadsheet and logged, and the Annotators sheet
    said edited)."""
    doc = _thirds(tmp_path)
    assert doc.grade.tolist() == [4 / 3, 2 / 3, 3.0]
    out = tmp_path / "book.xlsx"
    export_workbook(evaluate(doc), out)
    wb = openpyxl.load_workbook(out)
    for sheet, column in ((SHEETS["candidates"], "F"), (SHEET, "F")):
        for row in (2, 3):
            cell = wb[sheet][f"{column}{row}"]
            assert cell.value in (4 / 3, 2 / 3), (sheet, cell.value)
            cell.value = float(f"{cell.value:.15g}")
    wb[SHEETS["candidates"]]["F4"] = 2  # the one grade edited
    wb.save(out)
    found = read_workbook(out)
    said = reopened(found)
    assert (len(said.grades), said.not_read) == (1, ())
    assert found.grade.tolist() == [4 / 3, 2 / 3, 2.0]


@pytest.mark.libreoffice
def test_libreoffice_saves_thirds_and_one_grade_edited_is_one_edit(tmp_path: Path) -> None:
    """Exported, a grade typed in LibreOffice and saved there (as .xlsx and
    as .ods): one grade edited, the means of three grades kept whole, the
    Annotators sheet unchanged (was: 3 grades edited, and "sheet
    Annotators, row 2, column E: edited (and 1 more cell)")."""
    from tests.libreoffice import edit

    doc = _thirds(tmp_path)
    xlsx, ods = tmp_path / "book.xlsx", tmp_path / "book.ods"
    export_workbook(evaluate(doc), xlsx)
    export_workbook(evaluate(doc), ods)
    out = tmp_path / "lo"
    out.mkdir()
    typed = [{"op": "set", "sheet": SHEETS["candidates"], "cell": "F4", "value": 2}]
    for saved in edit([(xlsx, out / "edited.xlsx", typed), (ods, out / "edited.ods", typed)]):
        found = read_workbook(saved)
        said = reopened(found)
        assert (len(said.grades), said.not_read) == (1, ()), (saved, said.lines())
        assert found.grade.tolist() == [4 / 3, 2 / 3, 2.0]
