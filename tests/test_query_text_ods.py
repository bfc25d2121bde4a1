"""The Queries sheet of an .ods workbook holding the queries' texts is read
in the fast reader's one pass (``ods_rows.read_ods``'s ``headed``: the sheet
read whole where its first row holds the column of texts), as the
Candidates sheet is, never by python-calamine: calamine parsed the whole
file for that column (reopening 50,000 candidates took 6.3 s against 3.5 s
without texts), dropped a paragraph's ``<text:line-break/>`` (as Gnumeric
writes a multi-line cell: the text reopened as edited, its break lost) and
cannot open an .ods Gnumeric saved at all (its content is indented: the
workbook was refused, 'the workbook cannot be read').
A missing Gnumeric fails these tests, never skips them."""

from __future__ import annotations

import subprocess
import zipfile
from pathlib import Path

from core.engine.evaluation import evaluate
from core.io.workbook import SHEETS, export_workbook, read_workbook, reopened
from core.io.workbook.layout import QUERY_TEXT, QUERY_TEXT_COLUMN
from core.io.workbook.ods_rows import read_ods
from core.model.document import Document
from core.model.examples import seed_document
from tests.test_workbook_gnumeric import ssconvert

_HEADED = ((SHEETS["queries"], QUERY_TEXT_COLUMN, QUERY_TEXT),)


def _exported(tmp_path: Path, texts: dict[int, str]) -> tuple[Document, Path]:
    doc = seed_document()
    doc.query_texts = {doc.query_ids[q]: text for q, text in texts.items()}
    path = tmp_path / "book.ods"
    export_workbook(evaluate(doc, doc.conventions), path)
    return doc, path


def _rewritten(path: Path, old: bytes, new: bytes) -> Path:
    """``path`` with the first ``old`` of its content.xml made ``new``."""
    with zipfile.ZipFile(path) as z:
        infos = z.infolist()
        parts = {i.filename: z.read(i.filename) for i in infos}
    assert old in parts["content.xml"]
    content = parts["content.xml"].replace(old, new, 1)
    out = path.with_name("edited.ods")
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for info in infos:
            z.writestr(info, content if info.filename == "content.xml" else parts[info.filename])
    return out


def test_an_ods_gnumeric_saved_keeps_its_texts_line_breaks(tmp_path: Path) -> None:
    """Exported, saved by Gnumeric (ssconvert .ods to .ods: a line break in
    a cell written ``<text:line-break/>``), reopened: nothing taken as
    edited, the texts as written (fails before: refused, calamine could not
    open the file)."""
    doc, src = _exported(tmp_path, {0: "How do I renew\na passport?", 1: "plain\tone"})
    out = tmp_path / "gnumeric.ods"
    proc = subprocess.run([ssconvert(), str(src), str(out)], capture_output=True, text=True,
                          timeout=240, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    with zipfile.ZipFile(out) as z:
        assert b"renew<text:line-break/>a passport" in z.read("content.xml")
    back = read_workbook(out)
    found = reopened(back)
    assert found is not None
    assert found.query_texts == 0
    assert found.empty  # nothing else taken either
    assert back.query_texts == doc.query_texts


def test_a_text_typed_with_a_line_break_is_taken_with_it(tmp_path: Path) -> None:
    """A text rewritten in the Queries sheet as one paragraph with a line
    break (as Gnumeric writes it) is taken with its break (fails before:
    'How do I renewit abroad?', calamine dropping it)."""
    doc, src = _exported(tmp_path, {0: "How do I renew it?"})
    # (the text stands on each of the query's rows, one a cutoff: the first edited)
    out = _rewritten(src, b"<text:p>How do I renew it?</text:p>",
                     b"<text:p>How do I renew<text:line-break/>it abroad?</text:p>")
    back = read_workbook(out)
    found = reopened(back)
    assert found is not None
    assert found.query_texts == 1
    assert back.query_texts == {doc.query_ids[0]: "How do I renew\nit abroad?"}


def test_the_queries_sheet_is_read_whole_only_where_it_holds_texts(tmp_path: Path) -> None:
    (tmp_path / "texts").mkdir()
    _, texts = _exported(tmp_path / "texts", {0: "How do I renew it?"})
    _, none = _exported(tmp_path, {})
    with_texts = read_ods(texts, (), candidates=True, headed=_HEADED)
    without = read_ods(none, (), candidates=True, headed=_HEADED)
    assert with_texts is not None
    assert without is not None
    rows = with_texts.rows[SHEETS["queries"]]
    assert rows[0][QUERY_TEXT_COLUMN] == QUERY_TEXT
    assert rows[1][QUERY_TEXT_COLUMN] == "How do I renew it?"
    assert len(rows) > 2
    header = without.rows[SHEETS["queries"]]
    assert len(header) == 1  # its first row alone
    assert header[0][0] == "query"
