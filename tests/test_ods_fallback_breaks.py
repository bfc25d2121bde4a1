"""An .ods workbook the fast reader leaves to python-calamine (a date typed
in a sheet it reads whole) reads its texts' line breaks and tabs as the
fast reader does: calamine drops ``<text:line-break/>`` and ``<text:tab/>``
inside a paragraph (Gnumeric writes a cell's line breaks so), and the
breaks are put back from the check's own pass (``ods_rows.read_breaks``)."""

from __future__ import annotations

import csv
import io
import zipfile
from pathlib import Path

from app.cli.main import main
from core.engine.evaluation import evaluate
from core.io.workbook import SHEETS, export_workbook, read_workbook, reopened
from core.io.workbook.ods_rows import read_breaks, read_ods, with_breaks
from core.model.examples import seed_document
from tests.data.make_hostile_ods import content, number, ods, row, table, text

#: A date typed at the end of the Conventions sheet's first row: a cell
#: the fast reader leaves to calamine.
_DATE = (b'<table:table-cell office:value-type="date" office:date-value="2024-03-01">'
         b"<text:p>2024-03-01</text:p></table:table-cell>")


def _saved(tmp_path: Path, notes: dict[int, str], edits: dict[bytes, bytes]) -> Path:
    """The seed document with ``notes`` exported as .ods, its content
    rewritten as ``edits`` say (a paragraph pair as one paragraph with a
    line break, as Gnumeric writes it) and a date typed in Conventions."""
    doc = seed_document()
    for i, note in notes.items():
        doc.set_note(i, note)
    src = tmp_path / "book.ods"
    export_workbook(evaluate(doc, doc.conventions), src)
    with zipfile.ZipFile(src) as z:
        parts = {i.filename: z.read(i.filename) for i in z.infolist()}
        infos = z.infolist()
    content = parts["content.xml"]
    at = content.find(b'<table:table table:name="%s"' % SHEETS["conventions"].encode())
    end = content.find(b"</table:table-row>", at)
    content = content[:end] + _DATE + content[end:]
    for old, new in edits.items():
        assert content.count(old) == 1, old
        content = content.replace(old, new)
    out = tmp_path / "saved.ods"
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for info in infos:
            z.writestr(info, content if info.filename == "content.xml" else parts[info.filename])
    return out


def test_line_breaks_read_by_calamine_are_kept(tmp_path: Path) -> None:
    """A note whose line break is ``<text:line-break/>`` reads as written
    (it read 'twolines', taken as edited in the spreadsheet), and a note
    typed there with a line break is taken with it ('typedin Gnumeric'
    before)."""
    out = _saved(tmp_path, {0: "two\nlines", 1: "a\ttab", 2: "old note"}, {
        b"<text:p>two</text:p><text:p>lines</text:p>":
            b"<text:p>two<text:line-break/>lines</text:p>",
        b"<text:p>old note</text:p>": b"<text:p>typed<text:line-break/>in Gnumeric</text:p>"})
    assert read_ods(out, (SHEETS["conventions"],), candidates=True) is None  # calamine reads it
    back = read_workbook(out)
    found = reopened(back)
    assert found is not None
    assert (found.notes, found.grades, found.conventions) == (1, (), ())
    assert list(back.note[:3]) == ["two\nlines", "a\ttab", "typed\nin Gnumeric"]


def test_the_breaks_found_are_the_cells_texts(tmp_path: Path) -> None:
    """The check's pass finds each cell holding a tab or a line break with
    its text; put into calamine's rows only where calamine read the same
    text without them."""
    out = _saved(tmp_path, {0: "two\nlines", 1: "a\ttab"}, {
        b"<text:p>two</text:p><text:p>lines</text:p>":
            b"<text:p>two<text:line-break/>lines</text:p>"})
    check, found = read_breaks(out, frozenset({SHEETS["candidates"]}))
    assert SHEETS["candidates"] in check.parts
    note = 7  # column H
    assert found == {SHEETS["candidates"]: {(1, note): "two\nlines", (2, note): "a\ttab"}}
    rows = [["q", "d"], ["x"] * 7 + ["twolines"], ["x"] * 7 + ["a tab edited"]]
    assert with_breaks(rows, found[SHEETS["candidates"]]) == [
        ["q", "d"], ["x"] * 7 + ["two\nlines"], ["x"] * 7 + ["a tab edited"]]
    assert list(with_breaks(iter(rows), {})) == rows


def test_an_annotators_ods_keeps_its_notes_line_breaks_and_tabs(tmp_path: Path) -> None:
    """An annotators' sheet in .ods (read by calamine, which drops a
    paragraph's ``<text:line-break/>`` and ``<text:tab/>``): each note
    imported with its line break and its tab ('twolines', 'atab' before),
    read in the pass that finds the merged cells (``ods_sheet_cells``)."""
    sheet = (row(text("query"), text("doc"), text("grade"), text("note"))
             + row(text("q1"), text("d1"), number(2), text("two<text:line-break/>lines"))
             + row(text("q1"), text("d2"), number(0), text("a<text:tab/>tab"))
             + row(text("q2"), text("d3"), number(1), text("plain")))
    path = tmp_path / "judgments.ods"
    path.write_bytes(ods(content(table(sheet))))
    out = tmp_path / "o.csv"
    assert main(["import", str(path), "-o", str(out)], io.StringIO()) == 0
    with open(out, newline="", encoding="utf-8") as fh:
        assert [r["note"] for r in csv.DictReader(fh)] == ["two\nlines", "a\ttab", "plain"]
