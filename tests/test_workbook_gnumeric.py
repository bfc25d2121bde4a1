"""The workbook's formulas recalculated by a second spreadsheet engine,
Gnumeric (``ssconvert --recalc``), equal the engine to 1e-12, as
:mod:`tests.test_workbook_libreoffice` checks LibreOffice's: the export tests'
conventions cases in .xlsx, a few of them in .ods too, the seed, and a run
like MS MARCO's (tied scores, unknown grades). A missing ``ssconvert`` fails
these tests, never skips them.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from core.engine.evaluation import evaluate
from core.io.workbook import export_workbook, read_workbook
from core.model.conventions import Conventions
from core.model.document import Document
from core.model.examples import seed_document
from core.model.grades import GradeState
from tests.libreoffice import read_values
from tests.test_workbook_export import CONVENTIONS, case, check_values
from tests.test_workbook_libreoffice import tied_run

#: Those also exported as .ods (one whose Conventions count of candidates
#: ranked but never judged is 0 in a .ods Gnumeric read, one 4 for 3).
ODS = ("case0", "case7", "seed", "tied_sklearn")


def ssconvert() -> str:
    """The ssconvert executable; raises FileNotFoundError when Gnumeric is missing."""
    exe = shutil.which("ssconvert")
    if exe is None:
        raise FileNotFoundError("ssconvert not found: install Gnumeric (Debian: gnumeric)")
    return exe


def _job(name: str) -> tuple[Document, Conventions]:
    if name == "seed":
        seed = seed_document()
        return seed, seed.conventions
    if name == "tied_sklearn":
        return tied_run(name)
    return case(int(name.removeprefix("case")))


# (openpyxl on the files Gnumeric writes: "Workbook contains no default style")
@pytest.mark.filterwarnings("ignore:Workbook contains no default style")
@pytest.mark.parametrize(("name", "suffix"), [
    *((f"case{n}", "xlsx") for n in range(len(CONVENTIONS))), ("seed", "xlsx"),
    ("tied_sklearn", "xlsx"), *((name, "ods") for name in ODS)])
def test_gnumeric_recalculates_the_engines_values(tmp_path: Path, name: str,
                                                  suffix: str) -> None:
    """Every formula result, and the Conventions sheet's count of candidates
    ranked but never judged: its SUMPRODUCT took ISNUMBER over the score
    column, which Gnumeric read at the formula's own row alone (case0's
    count 4 for 3, case7's 0 for 5; fails before)."""
    doc, conv = _job(name)
    src = tmp_path / f"{name}.{suffix}"
    export_workbook(evaluate(doc, conv), src)
    out = tmp_path / "recalculated.xlsx"
    proc = subprocess.run([ssconvert(), "--recalc", str(src), str(out)], capture_output=True,
                          text=True, timeout=240, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert out.exists(), proc.stderr[-2000:]
    check_values(read_values(out), doc, conv)


@pytest.mark.filterwarnings("ignore:Workbook contains no default style")
def test_a_workbook_saved_by_gnumeric_keeps_the_spaces_of_its_texts(tmp_path: Path) -> None:
    """The hidden sheet holds the document's JSON in cells of 32,000
    characters. Gnumeric writes those cells without ``xml:space="preserve"``,
    so a space at a cell's start or end is dropped when the workbook is read
    back: an unrateable grade's reason (kept in that sheet only) whose space
    fell on a cut lost it ("a a" came back "aa"), as did every ", " cut
    between two values (harmless there). The cuts now fall between two
    characters that are not spaces (fails before)."""
    doc = seed_document()
    # Past the first cut (the fields before it take about 2,000 characters);
    # one of the two characters at any cut is a space.
    reason = "a " * 16_000 + "a"
    doc.set_grade(0, None, GradeState.UNRATEABLE, who="test", reason=reason)
    back = _resaved_by_gnumeric(doc, tmp_path)
    assert back.reason[0] == reason
    assert back.state[0] == GradeState.UNRATEABLE
    assert list(back.note) == list(doc.note)


def test_notes_with_spaces_at_their_ends_reopen_from_gnumeric_as_written(tmp_path: Path) -> None:
    """Gnumeric saves an .xlsx's texts without the spaces at their ends: a
    note "  spaced  " came back "spaced", taken on reopening as a note
    edited in the spreadsheet (so split refused to hand out again over a
    reviewer's workbook only opened and saved in Gnumeric)."""
    from core.io.workbook import reopened

    doc = seed_document()
    notes = ["  spaced  ", "trail ", " lead", "a\nb "]
    for i, note in enumerate(notes):
        doc.set_note(i, note)
    back = _resaved_by_gnumeric(doc, tmp_path)
    found = reopened(back)
    assert found is None or found.notes == 0
    assert list(back.note[:4]) == notes


def _resaved_by_gnumeric(doc: Document, tmp_path: Path) -> Document:
    """``doc`` exported, opened and saved by Gnumeric (ssconvert) as .xlsx,
    and read back."""
    src = tmp_path / "book.xlsx"
    export_workbook(evaluate(doc, doc.conventions), src)
    out = tmp_path / "resaved.xlsx"
    proc = subprocess.run([ssconvert(), str(src), str(out)], capture_output=True, text=True,
                          timeout=240, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return read_workbook(out)
