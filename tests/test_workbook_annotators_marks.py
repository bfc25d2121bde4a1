"""How the Annotators sheet marks what a reader looks for: the rows whose
annotators disagree (spread above 0) on the app's colour for a
disagreement, by a conditional format in .xlsx and the cells' own style in
.ods, both still there once LibreOffice has opened and saved the file (and
on paper: the test of the PDF's page is a look, said in the commit)."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import openpyxl
import pytest

from core.engine.evaluation import evaluate
from core.io.workbook import export_workbook
from core.io.workbook.layout import DISAGREEMENT_COLOUR
from tests.test_workbook_annotators import ROWS, SHEET, imported

#: ROWS' first row (d1: 2 and 3) is the one whose annotators disagree.
MARKED = [r[5] not in ("", 0.0) for r in ROWS]


def xlsx_marks(path: Path) -> list[tuple[str, str, str]]:
    """The sheet's conditional formats that fill cells: range, formula, colour."""
    ws = openpyxl.load_workbook(path)[SHEET]
    return [(str(cf.sqref), rule.formula[0], rule.dxf.fill.bgColor.rgb[-6:].upper())
            for cf in ws.conditional_formatting for rule in cf.rules
            if rule.dxf is not None and rule.dxf.fill is not None
            and rule.dxf.fill.bgColor is not None and rule.dxf.fill.bgColor.rgb]


def ods_backgrounds(path: Path) -> list[list[str]]:
    """Each data row's cells' background colours ("" for none) in the .ods
    (a cell's own style, else its column's default)."""
    with zipfile.ZipFile(path) as z:
        content = z.read("content.xml").decode()
    fills = {}
    for name, body in re.findall(r'<style:style style:name="([^"]+)"[^>]*>(.*?)</style:style>',
                                 content, re.S):
        got = re.search(r'fo:background-color="(#[0-9a-fA-F]{6})"', body)
        fills[name] = got.group(1).upper() if got else ""
    table = content[content.index(f'table:name="{SHEET}"'):]
    table = table[:table.index("</table:table>")]
    defaults: list[str] = []
    for tag in re.findall(r"<table:table-column\b[^>]*/>", table):
        n = re.search(r'number-columns-repeated="(\d+)"', tag)
        style = re.search(r'default-cell-style-name="([^"]+)"', tag)
        defaults += [style.group(1) if style else ""] * int(n.group(1) if n else 1)
    out = []
    for row in re.findall(r"<table:table-row\b[^>]*>(.*?)</table:table-row>", table, re.S)[1:]:
        cells = re.findall(r"<table:table-cell\b([^>]*?)/?>", row)
        styles = [(re.search(r'table:style-name="([^"]+)"', a) or [None, None])[1] or defaults[c]
                  for c, a in enumerate(cells[:len(defaults)])]
        if cells:
            out.append([fills.get(s, "") for s in styles])
    return out[:len(ROWS)]


def check_marks(xlsx: Path, ods: Path) -> None:
    colour = DISAGREEMENT_COLOUR.lstrip("#").upper()
    assert xlsx_marks(xlsx) == [("A2:F5", "AND(ISNUMBER($F2),$F2>0)", colour)]
    backgrounds = ods_backgrounds(ods)
    assert [set(row) for row in backgrounds] == [
        {"#" + colour} if marked else {""} for marked in MARKED], backgrounds


def test_the_rows_whose_annotators_disagree_are_marked(tmp_path: Path) -> None:
    doc = imported(tmp_path)
    xlsx, ods = tmp_path / "book.xlsx", tmp_path / "book.ods"
    export_workbook(evaluate(doc), xlsx)
    export_workbook(evaluate(doc), ods)
    assert MARKED == [True, False, False, False]
    check_marks(xlsx, ods)
    # (the .xlsx holds no fill of the marks: a fill is a person's, additions.py)
    with zipfile.ZipFile(xlsx) as z:
        fills = z.read("xl/styles.xml").decode()
    fills = fills[fills.index("<fills"):fills.index("</fills>")]
    assert DISAGREEMENT_COLOUR.lstrip("#").upper() not in fills.upper()


@pytest.mark.libreoffice
def test_the_marks_stay_when_libreoffice_saves(tmp_path: Path) -> None:
    from tests.libreoffice import edit

    doc = imported(tmp_path)
    xlsx, ods = tmp_path / "book.xlsx", tmp_path / "book.ods"
    export_workbook(evaluate(doc), xlsx)
    export_workbook(evaluate(doc), ods)
    out = tmp_path / "lo"
    out.mkdir()
    saved_x, saved_o = edit([(xlsx, out / "saved.xlsx", []), (ods, out / "saved.ods", [])])
    check_marks(saved_x, saved_o)


#: alice could not grade d3 (her "skip"), nor could bob grade d1 beside
#: alice's 2 (his "N/A"); d2 graded by both.
MARKS_CSV = ("query,doc,annotator,grade\n"
             "q1,d1,alice,2\n"
             "q1,d1,bob,N/A\n"
             "q1,d2,alice,1\n"
             "q1,d2,bob,3\n"
             "q1,d3,alice,skip\n")
#: By hand: an unrateable mark is the word and the mark as written, never
#: blank nor 0; the mean of the grades given; d3 graded by no one, but
#: looked at: unrateable.
MARKS_ROWS = [
    ["q1", "d1", 2.0, "unrateable: N/A", 2.0, ""],
    ["q1", "d2", 1.0, 3.0, 2.0, 2.0],
    ["q1", "d3", "unrateable: skip", "", "unrateable", ""],
]


@pytest.mark.parametrize("suffix", [".xlsx", ".ods"])
def test_an_annotators_unrateable_mark_shows_as_the_word(tmp_path: Path, suffix: str) -> None:
    """Shown as imported, kept through a reopen and a save (the workbook's
    metadata holds each mark), and in the state's colour."""
    import numpy as np

    from core.io.annotator import import_annotations
    from core.io.workbook import read_workbook, reopened
    from tests.test_workbook_annotators import HEADER, sheet_values

    path = tmp_path / "marks.csv"
    path.write_text(MARKS_CSV, encoding="utf-8")
    doc = import_annotations(path, consensus="mean", rounding="none").document
    out = tmp_path / f"book{suffix}"
    export_workbook(evaluate(doc), out)
    assert sheet_values(out) == [HEADER, *MARKS_ROWS]
    found = read_workbook(out)
    assert reopened(found).empty, reopened(found).lines()
    assert found.unrateable_ratings is not None
    assert np.argwhere(found.unrateable_ratings).tolist() == [[0, 1], [2, 0]]
    assert found.unrateable_words is not None  # (the raw marks, kept by the metadata)
    assert found.unrateable_words.tolist() == [["", "N/A"], ["", ""], ["skip", ""]]
    again = tmp_path / f"again{suffix}"
    export_workbook(evaluate(found), again)
    assert sheet_values(again) == [HEADER, *MARKS_ROWS]
    if suffix == ".xlsx":
        ws = openpyxl.load_workbook(out)[SHEET]
        colour = {(str(cf.sqref), rule.formula[0]) for cf in ws.conditional_formatting
                  for rule in cf.rules if rule.formula and "unrateable" in rule.formula[0]}
        assert colour == {("C2:C4", '"unrateable"'), ("D2:D4", '"unrateable"'),
                          ("E2:E4", '"unrateable"'),  # each annotator's and the consensus
                          ("C2:C4", '"unrateable: skip"'), ("D2:D4", '"unrateable: N/A"')}


def test_the_worksheet_csv_writes_the_marks_and_reads_them_back(tmp_path: Path) -> None:
    """``import SHEET -o OUT.csv``: an annotator's unrateable mark is their
    mark as written in their grade_ column (was the word unrateable: N/A
    and skip were lost); imported again, the same marks, as written. A mark
    declared only at the import (``?``, unknown by default) is written as
    the word with the mark, ``unrateable: ?``, which reads again as
    unrateable, the mark kept (hreview17: it was the word alone, the mark
    lost)."""
    import csv

    import numpy as np

    from core.io.annotator import import_annotations
    from core.io.annotator.write import write_worksheet_csv

    path = tmp_path / "marks.csv"
    path.write_text(MARKS_CSV, encoding="utf-8")
    doc = import_annotations(path, consensus="mean", rounding="none").document
    assert doc.unrateable_words is not None  # (the document keeps them as written)
    assert doc.unrateable_words.tolist() == [["", "N/A"], ["", ""], ["skip", ""]]
    out = tmp_path / "worksheet.csv"
    write_worksheet_csv(doc, out)
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    assert [(r["source_id"], r["grade_alice"], r["grade_bob"]) for r in rows] == [
        ("d1", "2", "N/A"), ("d2", "1", "3"), ("d3", "skip", "")]
    again = import_annotations(out, consensus="mean", rounding="none").document
    assert again.unrateable_ratings is not None
    np.testing.assert_array_equal(again.unrateable_ratings, doc.unrateable_ratings)
    np.testing.assert_array_equal(again.ratings, doc.ratings)
    assert again.unrateable_words is not None
    assert again.unrateable_words.tolist() == [["", "N/A"], ["", ""], ["skip", ""]]
    doc.unrateable_words[0, 1] = "?"  # as a mapping declaring "?" unrateable reads it
    write_worksheet_csv(doc, out)
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    assert rows[0]["grade_bob"] == "unrateable: ?"
    again = import_annotations(out, consensus="mean", rounding="none").document
    np.testing.assert_array_equal(again.unrateable_ratings, doc.unrateable_ratings)
    assert again.unrateable_words.tolist() == [["", "?"], ["", ""], ["skip", ""]]


@pytest.mark.libreoffice
def test_the_marks_as_written_stay_when_libreoffice_saves(tmp_path: Path) -> None:
    """Opened and saved by LibreOffice (UNO), in both formats: the marks
    read as written, the record reads as no edit, and the metadata still
    holds each mark's word."""
    from core.io.annotator import import_annotations
    from core.io.workbook import read_workbook, reopened
    from tests.libreoffice import edit
    from tests.test_workbook_annotators import HEADER, sheet_values

    path = tmp_path / "marks.csv"
    path.write_text(MARKS_CSV, encoding="utf-8")
    doc = import_annotations(path, consensus="mean", rounding="none").document
    xlsx, ods = tmp_path / "book.xlsx", tmp_path / "book.ods"
    export_workbook(evaluate(doc), xlsx)
    export_workbook(evaluate(doc), ods)
    out = tmp_path / "lo"
    out.mkdir()
    for saved in edit([(xlsx, out / "saved.xlsx", []), (ods, out / "saved.ods", [])]):
        assert sheet_values(saved) == [HEADER, *MARKS_ROWS], saved
        found = read_workbook(saved)
        assert reopened(found).empty, reopened(found).lines()
        assert found.unrateable_words is not None
        assert found.unrateable_words.tolist() == [["", "N/A"], ["", ""], ["skip", ""]]


def ods_conditions(path: Path) -> list[set[str]]:
    """The conditions of each column's default cell style in the .ods's
    Annotators sheet (the colours its words take), column by column."""
    from html import unescape

    with zipfile.ZipFile(path) as z:
        content = z.read("content.xml").decode()
    maps = {name: {unescape(c) for c in re.findall(r'style:condition="([^"]+)"', body)}
            for name, body in re.findall(
                r'<style:style style:name="([^"]+)"[^>]*>(.*?)</style:style>', content, re.S)}
    table = content[content.index(f'table:name="{SHEET}"'):]
    table = table[:table.index("<table:table-row")]
    out: list[set[str]] = []
    for tag in re.findall(r"<table:table-column\b[^>]*/>", table):
        n = re.search(r'number-columns-repeated="(\d+)"', tag)
        style = re.search(r'default-cell-style-name="([^"]+)"', tag)
        out += [maps.get(style.group(1), set()) if style else set()] * int(n.group(1) if n else 1)
    return out


def test_each_annotators_column_colours_its_marks_in_ods(tmp_path: Path) -> None:
    """In .ods each grade column's cells take its own colours (was: the two
    annotators' columns, one width, were one column group no coloured range
    covered, and their unrateable printed black; seen in the PDF)."""
    from core.io.annotator import import_annotations

    path = tmp_path / "marks.csv"
    path.write_text(MARKS_CSV, encoding="utf-8")
    doc = import_annotations(path, consensus="mean", rounding="none").document
    doc.unrateable_words = None  # (a workbook from before the words: the same widths)
    ods = tmp_path / "book.ods"
    export_workbook(evaluate(doc), ods)
    conditions = ods_conditions(ods)
    for c in (2, 3, 4):  # alice, bob, the consensus
        assert 'cell-content()="unrateable"' in conditions[c], (c, conditions[c])
    doc = import_annotations(path, consensus="mean", rounding="none").document
    export_workbook(evaluate(doc), ods)
    conditions = ods_conditions(ods)
    assert 'cell-content()="unrateable: skip"' in conditions[2]
    assert 'cell-content()="unrateable: N/A"' in conditions[3]
