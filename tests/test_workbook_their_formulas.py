"""A person's formulas in their own Candidates columns move with those
columns when the export's "why no grade" column (AB) goes and comes again:
a reference to their own cells follows them (``=AC2*2`` -> ``=AB2*2``, and
back), a range too (``=SUM(AC2:AC4)``), a reference to our grade column
(F) stays, one to the reason column itself becomes ``#REF!`` once it is
deleted, as in a spreadsheet; so does a formula of a sheet of theirs that
names those cells (``=Candidates!AC3``). Before, the formulas were written
as typed into columns that had moved under them: ``=AC2*2`` in AC2 itself,
a circular reference (LibreOffice's Err:522). The person types them in
LibreOffice (through UNO); the values after each of our saves are
LibreOffice's and Gnumeric's recalculation, in .xlsx and in the .ods
written from it. Their formulas also follow their rows through a sort in
LibreOffice and our save's return to the export's row order."""

from __future__ import annotations

import subprocess
import warnings
from pathlib import Path
from typing import Any

import pytest

from core.engine.evaluation import evaluate
from core.io.workbook import SHEETS, export_workbook, read_workbook
from core.io.workbook.additions import additions_to_keep
from core.io.workbook.column_moves import moved_formula
from core.model.document import Document, GradeState
from core.model.edits import GradeValue, SetGrades
from core.session import Worksheet

#: What the person types beside the reason column (AB): their numbers in
#: AC, then formulas over them, over our grade column and over the reason.
TYPED = {"AC1": "base", "AC2": 1, "AC3": 2, "AC4": 4, "AD1": "double", "AD2": "=AC2*2",
         "AE1": "total", "AE2": "=SUM(AC2:AC4)", "AF1": "grade x10", "AF2": "=F2*10",
         "AG3": "=AB3"}
#: Their sheet's formula over their column and our grade column, as typed in
#: LibreOffice and as its .xlsx holds it.
TYPED_THEIRS, THEIRS = "=$Candidates.AC3+$Candidates.F2", "=Candidates!AC3+Candidates!F2"
#: The formulas where the reason column is gone (their columns from AB).
WITHOUT = {"AC2": "=AB2*2", "AD2": "=SUM(AB2:AB4)", "AE2": "=F2*10", "AF3": "=#REF!"}
WITH = {"AD2": "=AC2*2", "AE2": "=SUM(AC2:AC4)", "AF2": "=F2*10", "AG3": "=#REF!"}


def _session() -> Worksheet:
    """q's d1-d3 graded 2, 1, 0, d2 then marked unrateable (a reason: the
    column AB is written)."""
    session = Worksheet(Document.from_columns(
        query=["q"] * 3, source_id=["d1", "d2", "d3"], score=[3.0, 2.0, 1.0],
        grade=[2.0, 1.0, 0.0]))
    _mark(session, True)
    return session


def _mark(session: Worksheet, unrateable: bool) -> None:
    grade = GradeValue.typed(None, GradeState.UNRATEABLE, "paywall") if unrateable \
        else GradeValue.typed(1.0, GradeState.NUMBER)
    session.apply(SetGrades.of([1], [grade], who="ana"))


def _formulas(path: Path) -> tuple[dict[str, str], str]:
    """The Candidates sheet's formulas right of column AA and their sheet's A1."""
    import openpyxl

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        wb = openpyxl.load_workbook(path)
    ws = wb[SHEETS["candidates"]]
    found = {c.coordinate: c.value for row in ws.iter_rows(min_col=28) for c in row
             if c.data_type == "f"}
    return found, str(wb["Mine"]["A1"].value)


def _values(path: Path) -> dict[str, Any]:
    """The cached values of the Candidates cells from AB and of their A1."""
    from openpyxl.utils import get_column_letter

    from tests.libreoffice import read_values

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # (Gnumeric's: no default style)
        sheets = read_values(path)
    out = {f"{get_column_letter(c + 1)}{r + 1}": v
           for r, row in enumerate(sheets[SHEETS["candidates"]]) for c, v in enumerate(row)
           if c >= 27 and v is not None}
    out["Mine!A1"] = sheets["Mine"][0][0]
    return out


def _gnumeric(path: Path, out: Path) -> Path:
    from tests.test_workbook_gnumeric import ssconvert

    proc = subprocess.run([ssconvert(), "--recalc", str(path), str(out)], capture_output=True,
                          text=True, timeout=240, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return out


@pytest.mark.libreoffice
def test_a_persons_formulas_move_with_their_columns(tmp_path: Path) -> None:
    from tests.libreoffice import edit, recalculate

    session = _session()
    first = tmp_path / "first.xlsx"
    export_workbook(evaluate(session.document), first)
    path = tmp_path / "book.xlsx"
    edit([(first, path, [
        *({"op": "set", "sheet": SHEETS["candidates"], "cell": ref, "value": v}
          for ref, v in TYPED.items()),
        {"op": "add_sheet", "name": "Mine"},
        {"op": "set", "sheet": "Mine", "cell": "A1", "value": TYPED_THEIRS}])])

    session = Worksheet(read_workbook(path))
    _mark(session, False)  # no reason left: the column goes
    export_workbook(evaluate(session.document), path, keep=additions_to_keep(path))
    formulas, theirs = _formulas(path)
    assert formulas == WITHOUT
    assert theirs == "=Candidates!AB3+Candidates!F2"
    gone = tmp_path / "gone"
    for found in (_values(recalculate([path], gone)[0]),
                  _values(_gnumeric(path, tmp_path / "gnumeric-gone.xlsx"))):
        assert (found["AB2"], found["AC2"], found["AD2"], found["AE2"]) == (1, 2, 7, 20)
        assert found["Mine!A1"] == 4  # d2's number in AB3 and d1's grade

    session = Worksheet(read_workbook(path))
    _mark(session, True)  # a reason again: the column comes back
    export_workbook(evaluate(session.document), path, keep=additions_to_keep(path))
    formulas, theirs = _formulas(path)
    assert formulas == WITH
    assert theirs == THEIRS
    ods = tmp_path / "book-ods.ods"  # the .ods of that workbook: OpenFormula, moved the same
    export_workbook(evaluate(session.document), ods, keep=additions_to_keep(path))
    back = tmp_path / "back"
    for found in (*(_values(p) for p in recalculate([path, ods], back)),
                  _values(_gnumeric(path, tmp_path / "gnumeric-back.xlsx"))):
        assert found["AB3"] == "paywall"
        assert (found["AC2"], found["AD2"], found["AE2"], found["AF2"]) == (1, 2, 7, 20)
        assert found["Mine!A1"] == 4


@pytest.mark.parametrize(("formula", "by", "moved"), [
    ("AC2*2", -1, "AB2*2"),
    ("SUM(AC2:AC9)", -1, "SUM(AB2:AB9)"),
    ("SUM(AA2:AC9)", -1, "SUM(AA2:AB9)"),  # the range spans the column: it shrinks
    ("SUM(AB2:AD9)", -1, "SUM(AB2:AC9)"),
    ("SUM(AA2:AB9)", -1, "SUM(AA2:AA9)"),
    ("SUM(AB2:AB9)", -1, "SUM(#REF!)"),
    ("SUM(AA2:AB9)", 1, "SUM(AA2:AC9)"),  # it grows, as Insert Columns makes it
    ("$AB$2+AB:AC+2:3", 1, "$AC$2+AC:AD+2:3"),
    ("F2*10+$Z$3", 1, "F2*10+$Z$3"),  # our columns stay
    ('AB2&"AB2"&LOG10(AB2)&ab_name', 1, 'AC2&"AB2"&LOG10(AC2)&ab_name'),
    ("Notes!AB2+'Candidates'!AB2+candidates!ab2", 1, "Notes!AB2+'Candidates'!AC2+candidates!AC2"),
])
def test_references_move_as_a_spreadsheet_moves_them(formula: str, by: int, moved: str) -> None:
    assert moved_formula(formula, by) == moved


def test_another_sheets_references_move_only_where_they_name_the_candidates() -> None:
    assert moved_formula("=AC2+Candidates!AC2", -1, on_sheet=False) == "=AC2+Candidates!AB2"


@pytest.mark.libreoffice
def test_a_persons_formulas_follow_their_rows_through_a_sort(tmp_path: Path) -> None:
    """The person types a number and a formula over it on each candidate's
    row (``=AB2*2``), then sorts the sheet by source id, descending, in
    LibreOffice, which moves each formula with its row (d3's, now in row 2,
    reads ``=AB2*2``); our save writes the rows back in the export's order,
    each formula moved along with its row (d3's in row 4 reads ``=AB4*2``),
    as a sort moves it: LibreOffice recalculates each row's own number
    doubled. Before, the formulas kept the sorted rows' text: d1's read
    d3's number (8, not 2)."""
    import openpyxl

    from tests.libreoffice import edit, read_values, recalculate

    doc = Document.from_columns(query=["q"] * 3, source_id=["d1", "d2", "d3"],
                                score=[3.0, 2.0, 1.0], grade=[2.0, 1.0, 0.0])
    first = tmp_path / "first.xlsx"
    export_workbook(evaluate(doc), first)
    sheet = SHEETS["candidates"]
    path = tmp_path / "book.xlsx"
    edit([(first, path, [
        *({"op": "set", "sheet": sheet, "cell": f"AB{r}", "value": v}
          for r, v in ((1, "base"), (2, 1), (3, 2), (4, 4))),
        *({"op": "set", "sheet": sheet, "cell": f"AC{r}", "value": f"=AB{r}*2"}
          for r in (2, 3, 4)),
        {"op": "sort", "sheet": sheet, "range": "A1:AC4", "column": 1, "descending": True}])])
    export_workbook(evaluate(read_workbook(path)), path, keep=additions_to_keep(path))
    rows = read_values(recalculate([path], tmp_path / "lo")[0])[sheet][1:4]
    assert [(r[1], r[27], r[28]) for r in rows] == [("d1", 1, 2), ("d2", 2, 4), ("d3", 4, 8)]
    ws = openpyxl.load_workbook(path)[sheet]
    assert [ws[f"AC{r}"].value for r in (2, 3, 4)] == ["=AB2*2", "=AB3*2", "=AB4*2"]
