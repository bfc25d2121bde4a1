"""A grade of more digits than its narrow column shows (a consensus: the mean
of three annotators' grades, 4/3) reads with one or two decimals on the
Candidates sheet, on screen and on paper, in .xlsx and .ods, in LibreOffice
and Gnumeric alike: 1.33 (it printed 1.333333 in LibreOffice, 1.3333 in
Gnumeric). Every digit stays in the cell, and reopening reads the grade
unchanged, no edit. Grades of two decimals or fewer read as entered (2,
1.5), and so does one below 0.01, which two decimals would show as 0."""

from __future__ import annotations

import re
import subprocess
import warnings
from pathlib import Path

import pytest

from core.engine.evaluation import evaluate
from core.io.workbook import SHEETS, export_workbook, read_workbook, reopened
from core.io.workbook.layout import SHORT_GRADE_FORMAT
from core.model.document import Document
from tests.test_workbook_annotators import _thirds
from tests.test_workbook_gnumeric import ssconvert

#: d1 a mean of three grades, d5 of three others; d2-d4 read as entered.
GRADES = [4 / 3, 2.0, 1.5, 1e-5, 8 / 3]
#: How each grade reads (Gnumeric's text of its cell; LibreOffice prints the same).
SHOWN = ["1.33", "2", "1.5", "1E\u221205", "2.67"]


def _book(tmp_path: Path, suffix: str) -> tuple[Document, Path]:
    doc = Document.from_columns(query=["q1"] * 5, source_id=["d1", "d2", "d3", "d4", "d5"],
                                score=[5.0, 4.0, 3.0, 2.0, 1.0], grade=GRADES)
    path = tmp_path / f"book{suffix}"
    export_workbook(evaluate(doc), path)
    return doc, path


def test_the_grade_cells_number_format_is_short_where_the_grade_is_long(
        tmp_path: Path) -> None:
    """The original and current grade cells of d1 and d5 take the short
    format, the others none (General); the values have every digit."""
    import openpyxl

    _, path = _book(tmp_path, ".xlsx")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        ws = openpyxl.load_workbook(path)[SHEETS["candidates"]]
    for col in "EF":
        cells = [ws[f"{col}{r}"] for r in range(2, 7)]
        assert [c.value for c in cells] == GRADES
        assert [c.number_format for c in cells] == [
            SHORT_GRADE_FORMAT, "General", "General", "General", SHORT_GRADE_FORMAT]
        assert cells[0].protection.locked == (col == "E")  # the current grade stays editable


def _gnumeric_text(path: Path, out: Path, sheet: str = SHEETS["candidates"],
                   ) -> list[list[str]]:
    """A sheet as Gnumeric shows its cells (its text export, formats applied)."""
    proc = subprocess.run([ssconvert(), "--export-type=Gnumeric_stf:stf_assistant", "-O",
                           f"sheet={sheet} format=preserve separator=|",
                           str(path), str(out)], capture_output=True, text=True, timeout=240,
                          check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return [line.split("|") for line in out.read_text(encoding="utf-8").splitlines()]


@pytest.mark.parametrize("suffix", [".xlsx", ".ods"])
def test_gnumeric_shows_the_short_grade_and_reopening_reads_every_digit(
        tmp_path: Path, suffix: str) -> None:
    _, path = _book(tmp_path, suffix)
    rows = _gnumeric_text(path, tmp_path / "shown.txt")
    assert [r[4] for r in rows[1:6]] == SHOWN  # original grade
    assert [r[5] for r in rows[1:6]] == SHOWN  # current grade
    back = read_workbook(path)
    assert back.grade.tolist() == GRADES
    assert back.original_grade.tolist() == GRADES
    assert back.audit == []
    found = reopened(back)
    assert found is None or found.empty


@pytest.mark.libreoffice
def test_libreoffice_prints_the_short_grade_and_its_save_keeps_every_digit(
        tmp_path: Path) -> None:
    """Printed to PDF by LibreOffice, from .xlsx and .ods: d1's grades read
    1.33, d5's 2.67 (they printed 1.333333, 2.666667). Recalculated and
    saved by it, each reopens with its grades as written, no edit."""
    from tests.libreoffice import recalculate, to_pdf

    books = [_book(tmp_path, suffix)[1] for suffix in (".xlsx", ".ods")]
    ods = books[1].rename(tmp_path / "book-ods.ods")  # (one output name per input)
    books = [books[0], ods]
    for pdf in to_pdf(books, tmp_path / "pdf"):
        text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True,
                              text=True, timeout=120, check=True).stdout
        for sid, shown in (("d1", "1.33"), ("d2", "2"), ("d3", "1.5"), ("d5", "2.67")):
            assert re.search(rf"\bq1\s+{sid}\s+\d\s+{re.escape(shown)}\s+{re.escape(shown)}"
                             r"\s+number\b", text), (pdf.name, sid, text[:3000])
    for saved in recalculate(books, tmp_path / "saved"):
        back = read_workbook(saved)
        assert back.grade.tolist() == GRADES, saved.name
        assert back.audit == [], saved.name


@pytest.mark.parametrize("suffix", [".xlsx", ".ods"])
def test_the_annotators_consensus_reads_short_too(tmp_path: Path, suffix: str) -> None:
    """The Annotators sheet's consensus column (three annotators' means,
    4/3 and 2/3) reads 1.33 and 0.67 in Gnumeric (it read 1.33333333333333
    and 0.666666666666667), the annotators' own grades as entered; in the
    .ods, d1's and d2's rows (the annotators disagree) keep their colour."""
    doc = _thirds(tmp_path)
    path = tmp_path / f"book{suffix}"
    export_workbook(evaluate(doc), path)
    rows = _gnumeric_text(path, tmp_path / "shown.txt", SHEETS["annotators"])
    assert [r[1:6] for r in rows[1:4]] == [["d1", "2", "1", "1", "1.33"],
                                           ["d2", "0", "1", "1", "0.67"],
                                           ["d3", "3", "3", "3", "3"]]
    back = read_workbook(path)
    assert back.original_grade.tolist() == [4 / 3, 2 / 3, 3.0]
    found = reopened(back)
    assert found is None or found.empty
    if suffix == ".ods":
        import zipfile

        content = zipfile.ZipFile(path).read("content.xml").decode()
        table = content[content.index('table:name="Annotators"'):]
        cells = re.findall(r'<table:table-cell( table:style-name="(ce\d+)")? office:value-type='
                           r'"float" office:value="(1\.3333333333333333|0\.6666666666666666)"',
                           table)
        styles = content[:content.index("<office:body")]
        for _, name, _ in cells:  # each on the disagreement's colour, read short
            style = re.search(rf'<style:style style:name="{name}".*?</style:style>', styles,
                              re.S)
            assert style is not None, name
            assert "#ffe3b3" in style.group(0).lower(), name
        assert len(cells) == 2
