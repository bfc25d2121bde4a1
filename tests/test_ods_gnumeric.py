"""An .ods Gnumeric saved (its content.xml indented, one element a line)
is read by python-calamine, which every reader opens through
``core.io.calamine_book``: the file given to calamine without its
indentation. Before, calamine refused it ('Expecting 'table-cell', found
'Text(...)''): a workbook of ours the fast .ods reader leaves to calamine
(a date typed in it) was 'the workbook cannot be read', an annotators'
sheet 'the sheet cannot be read'. The files are Gnumeric's own saves
(tests/data/make_gnumeric_ods.py says how they were made)."""

from __future__ import annotations

import csv
import io
import zipfile
from pathlib import Path

import numpy as np
import pytest

from app.cli.main import main
from core.io import calamine_book as module
from core.io.calamine_book import calamine_book, flattened, is_indented
from core.io.workbook import SHEETS, read_workbook, reopened
from core.io.workbook.ods_rows import read_ods
from tests.data.make_gnumeric_ods import NOTE, OUT, reviewed_document
from tests.test_import_query_text import QUESTIONS

REVIEWED = OUT / "reviewed.ods"
ANNOTATIONS = OUT / "annotations.ods"


def _content(path: Path | io.BytesIO) -> bytes:
    with zipfile.ZipFile(path) as z:
        return z.read("content.xml")


def test_the_files_are_gnumerics_indented_saves() -> None:
    for path in (REVIEWED, ANNOTATIONS):
        content = _content(path)
        assert b"gnm:" in content
        assert b"</table:table-cell>\n          <table:table-cell" in content
        assert is_indented(path)
    assert not is_indented(Path(__file__))  # (not a zip)


def test_a_workbook_gnumeric_saved_and_dated_reopens_as_exported() -> None:
    """The date typed in Conventions leaves the file to calamine (read_ods
    None), which reads it now: nothing taken as edited, the texts' line
    break and tab and the note's line break as exported."""
    assert read_ods(REVIEWED, (SHEETS["conventions"],), candidates=True) is None
    expected = reviewed_document()
    back = read_workbook(REVIEWED)
    found = reopened(back)
    assert found is not None
    assert found.empty
    assert back.query_texts == expected.query_texts
    assert list(back.note) == list(expected.note)
    assert back.note[NOTE[0]] == NOTE[1]
    assert np.array_equal(back.grade, expected.grade, equal_nan=True)
    assert list(back.state) == list(expected.state)
    assert back.query_ids == expected.query_ids


def test_an_annotators_sheet_gnumeric_saved_imports(tmp_path: Path) -> None:
    out = tmp_path / "o.csv"
    err = io.StringIO()
    assert main(["import", str(ANNOTATIONS), "-o", str(out)], err) == 0, err.getvalue()
    with open(out, newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert sorted({r["query"] for r in rows}) == sorted(QUESTIONS)
    assert len(rows) == 9
    # (ana's and ben's grades of q017's first chunk, 2 and 3: their mean)
    assert next(r["grade"] for r in rows if r["source_id"] == "q017#chunk-0") == "2.5"


def test_calamine_reads_the_flattened_copy_as_the_sheet_holds_it() -> None:
    book = calamine_book(ANNOTATIONS)
    rows = book.get_sheet_by_name(book.sheet_names[0]).to_python()
    assert rows[0] == ["annotator", "query_id", "question", "passage_id", "relevance"]
    assert rows[1] == ["ana", "q017", QUESTIONS["q017"], "q017#chunk-0", 2.0]
    assert len(rows) == 19


_INDENTED = (b'<?xml version="1.0" encoding="UTF-8"?>\n<office:document-content>\n'
             b"  <office:body>\n    <table:table>\n"
             + b"".join(b"      <table:table-row>\n"
                        b'        <table:table-cell office:value-type="string">'
                        b"<text:p>r%d <text:span>a</text:span>\n  <text:span>b</text:span>"
                        b"</text:p></table:table-cell>\n"
                        b'        <table:table-cell><text:p text:style-name="P1"/>'
                        b"</table:table-cell>\n"
                        b"        <table:table-cell/>\n"
                        b"      </table:table-row>\n" % n for n in range(40))
             + b"    </table:table>\n  </office:body>\n</office:document-content>\n")


def _zipped(tmp_path: Path, content: bytes) -> Path:
    path = tmp_path / "indented.ods"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("mimetype", b"application/vnd.oasis.opendocument.spreadsheet")
        z.writestr("content.xml", content)
    return path


@pytest.mark.parametrize("piece", [1 << 22, 97, 7])
def test_the_indentation_goes_and_the_paragraphs_stay(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch,
                                                      piece: int) -> None:
    """Taken a piece at a time (a piece smaller than a row: read on), the
    same: the runs between elements gone, a paragraph's own line break and
    spaces kept, the other parts as they were."""
    monkeypatch.setattr(module, "_PIECE", piece)
    path = _zipped(tmp_path, _INDENTED)
    flat = flattened(path)
    content = _content(flat)
    rows = b"".join(b'<table:table-row><table:table-cell office:value-type="string">'
                    b"<text:p>r%d <text:span>a</text:span>\n  <text:span>b</text:span>"
                    b"</text:p></table:table-cell>"
                    b'<table:table-cell><text:p text:style-name="P1"/></table:table-cell>'
                    b"<table:table-cell/></table:table-row>" % n
                    for n in range(40))
    assert content == (b'<?xml version="1.0" encoding="UTF-8"?><office:document-content>'
                       b"<office:body><table:table>" + rows
                       + b"</table:table></office:body></office:document-content>\n")
    with zipfile.ZipFile(flat) as z:
        assert z.read("mimetype") == b"application/vnd.oasis.opendocument.spreadsheet"


def test_a_file_written_on_one_line_is_given_as_it_is(tmp_path: Path) -> None:
    """LibreOffice's own line break after the XML declaration is no
    indentation: such a file is opened from its path."""
    path = _zipped(tmp_path, _INDENTED.replace(b">\n", b">").replace(
        b"?><office", b"?>\n<office").replace(b"  ", b""))
    assert b"?>\n<office:document-content>" in _content(path)
    assert not is_indented(path)


def test_the_fast_flattening_is_the_exact_one_where_no_paragraph_spans_lines() -> None:
    """Gnumeric's content (no paragraph holds a line break: it writes
    ``<text:line-break/>``) takes the fast pattern; the exact one, which
    keeps every paragraph as it is, gives the same bytes."""
    content = _content(REVIEWED)
    assert module._SPANNING.search(content) is None
    fast = module._flat(content)
    assert fast == module._EXACT.sub(rb"\1\2", content)
    assert b">\n" not in fast.split(b"<office:document-content", 1)[1].rstrip()
