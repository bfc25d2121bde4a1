"""Why a grade is no number, where the reader of the printed Candidates sheet
sees it: the column "why no grade" (AB, after the hidden helper columns,
printed after the readable ones) holds an unknown grade's reason
("declined by 2 annotators") and an unrateable one's ("paywall"), in .xlsx
and .ods. Before, the first was only a comment on the grade cell (not
printed) and the second only in the Audit sheet; the grade columns then
have room for the word unrateable (it printed cut, or over the original
grade, from an .ods). The column is written only
where some grade has a reason; it is the export's, never read as an edit;
a workbook without it (written before it) opens as before; a person's own
columns follow it, and move back to AB when it is no longer written. The
document is tests/test_declined_by_all.py's Prodigy export (d2, at rank 2
of 4, declined by both annotators) with d3 marked unrateable: paywall."""

from __future__ import annotations

import re
import subprocess
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from core.engine.evaluation import evaluate
from core.io.workbook import SHEETS, export_workbook, read_workbook, reopened
from core.io.workbook.additions import additions_to_keep, read_additions
from core.io.workbook.layout import REASON_HEADER
from core.model.document import Document, GradeState
from core.model.edits import GradeValue, SetGrades
from core.session import Worksheet
from tests.test_declined_reason import _doc

#: The column's cells below its header, in the sheet's order (d1-d4).
WHY = ["", "declined by 2 annotators", "paywall", ""]


def _marked(tmp_path: Path) -> Document:
    session = Worksheet(_doc("prodigy", tmp_path))
    d3 = int(np.flatnonzero(session.document.source_id == "d3")[0])
    session.apply(SetGrades.of([d3], [GradeValue.typed(None, GradeState.UNRATEABLE, "paywall")],
                               who="ana"))
    return session.document


def _candidates(path: Path) -> list[list[Any]]:
    import python_calamine

    with python_calamine.CalamineWorkbook.from_path(str(path)) as book:
        return book.get_sheet_by_name(SHEETS["candidates"]).to_python()


def _openpyxl(path: Path) -> Any:
    import openpyxl

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return openpyxl.load_workbook(path)


@pytest.mark.parametrize("suffix", [".xlsx", ".ods"])
def test_the_candidates_sheet_says_why_each_grade_is_no_number(
        tmp_path: Path, suffix: str) -> None:
    doc = _marked(tmp_path)
    path = tmp_path / f"book{suffix}"
    export_workbook(evaluate(doc), path)
    rows = _candidates(path)
    assert rows[0][27] == REASON_HEADER
    assert [r[1] for r in rows[1:]] == ["d1", "d2", "d3", "d4"]
    assert [r[27] for r in rows[1:]] == WHY
    assert [r[5] for r in rows[1:]] == [3.0, "unknown", "unrateable", 0.0]  # as before
    back = read_workbook(path)  # the column is no input, and no edit
    assert back.state.tolist() == doc.state.tolist()
    assert back.reason.tolist() == doc.reason.tolist()
    assert [(e.source_id, e.after) for e in back.audit] == [
        (e.source_id, e.after) for e in doc.audit]
    found = reopened(back)
    assert found is None or found.empty
    if suffix == ".xlsx":
        ws = _openpyxl(path)[SHEETS["candidates"]]
        assert ws.print_area == "'Candidates'!$A$1:$AB$5"  # printed after the readable columns
        assert ws.column_dimensions["P"].hidden  # (the helpers between, hidden)
        assert ws["AB3"].protection.locked
        grades = ws.column_dimensions["E"]  # E-G one width: room for "unrateable"
        assert (grades.min, grades.max) == (5, 7)
        assert read_additions(path).candidates.header == []  # the export's, not a person's


@pytest.mark.parametrize("suffix", [".xlsx", ".ods"])
def test_a_workbook_without_reasons_has_no_such_column(tmp_path: Path, suffix: str) -> None:
    doc = Document.from_columns(query=["q"] * 2, source_id=["a", "b"], score=[2.0, 1.0],
                                grade=[1.0, None])
    path = tmp_path / f"book{suffix}"
    export_workbook(evaluate(doc), path)
    assert len(_candidates(path)[0]) == 27
    if suffix == ".xlsx":
        assert _openpyxl(path)[SHEETS["candidates"]].print_area == "'Candidates'!$A$1:$O$3"


@pytest.mark.parametrize("suffix", [".xlsx", ".ods"])
def test_a_workbook_written_before_the_column_opens_as_before(
        tmp_path: Path, suffix: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Written without the column (as before it), the workbook reopens with
    its reasons (from the metadata) and nothing edited; saved again, the
    column is written."""
    import core.io.workbook.candidates as candidates
    import core.io.workbook.ods_candidates as ods_candidates

    doc = _marked(tmp_path)
    path = tmp_path / f"old{suffix}"
    with monkeypatch.context() as m:
        for module in (candidates, ods_candidates):
            m.setattr(module, "reason_column", lambda doc, perm: None)
        export_workbook(evaluate(doc), path)
    assert len(_candidates(path)[0]) == 27
    back = read_workbook(path)
    assert back.reason.tolist() == doc.reason.tolist()
    assert len(back.audit) == len(doc.audit)
    export_workbook(evaluate(back), path, keep=additions_to_keep(path))
    assert [r[27] for r in _candidates(path)[1:]] == WHY


def test_a_persons_column_follows_the_reason_column(tmp_path: Path) -> None:
    """A person's column at AB of a workbook without reasons moves to AC
    when a save writes the reasons there, its cells on their candidates'
    rows, and back to AB when the next save writes none; each save reads it
    as theirs, never the reasons as theirs."""
    session = Worksheet(Document.from_columns(
        query=["q"] * 3, source_id=["d1", "d2", "d3"], score=[3.0, 2.0, 1.0],
        grade=[2.0, 1.0, 0.0]))
    path = tmp_path / "book.xlsx"
    export_workbook(evaluate(session.document), path)
    wb = _openpyxl(path)
    ws = wb[SHEETS["candidates"]]
    ws["AB1"] = "my note"
    ws["AB3"] = "check d2"
    wb.save(path)

    session.apply(SetGrades.of([1], [GradeValue.typed(None, GradeState.UNRATEABLE, "paywall")],
                               who="ana"))
    export_workbook(evaluate(session.document), path, keep=additions_to_keep(path))
    rows = _candidates(path)
    assert (rows[0][27], rows[0][28]) == (REASON_HEADER, "my note")
    assert [(r[1], r[27], r[28]) for r in rows[1:]] == [
        ("d1", "", ""), ("d2", "paywall", "check d2"), ("d3", "", "")]
    kept = read_additions(path)
    assert [c.value for c in kept.candidates.header] == ["my note"]

    session.apply(SetGrades.of([1], [GradeValue.typed(1.0, GradeState.NUMBER)], who="ana"))
    export_workbook(evaluate(session.document), path, keep=additions_to_keep(path))
    rows = _candidates(path)
    assert rows[0][27] == "my note"
    assert [(r[1], r[27]) for r in rows[1:]] == [("d1", ""), ("d2", "check d2"), ("d3", "")]


@pytest.mark.libreoffice
def test_the_printed_sheet_says_why_within_its_page(tmp_path: Path) -> None:
    """LibreOffice prints the column on the Candidates page, one page wide,
    from .xlsx and .ods; Gnumeric reads it from both."""
    from tests.libreoffice import to_pdf
    from tests.test_workbook_gnumeric import ssconvert

    doc = _marked(tmp_path)
    books = [tmp_path / "book.xlsx", tmp_path / "book-ods.ods"]
    for path in books:
        export_workbook(evaluate(doc), path)
    for pdf in to_pdf(books, tmp_path / "pdf"):
        pages = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True,
                               text=True, timeout=120, check=True).stdout.split("\f")
        ours = [p for p in pages if re.search(r"(?m)^\s*q\s+d1\s", p)
                and " Candidates " in p.strip().splitlines()[0]]
        assert len(ours) == 1, pdf.name  # one page wide
        page = ours[0]
        assert REASON_HEADER in page, pdf.name
        for sid, why in (("d2", "declined by 2 annotators"), ("d3", "paywall")):
            line = next(s for s in page.splitlines() if f" {sid} " in s)
            assert line.rstrip().endswith(why), (pdf.name, line)
        d3 = next(s for s in page.splitlines() if " d3 " in s)  # its grades whole, apart
        assert re.search(r"\s1\s+unrateable\s+unrateable\s", d3), (pdf.name, d3)
    for path in books:
        out = tmp_path / f"{path.stem}.txt"
        proc = subprocess.run([ssconvert(), "--export-type=Gnumeric_stf:stf_assistant", "-O",
                               f"sheet={SHEETS['candidates']} separator=|", str(path),
                               str(out)], capture_output=True, text=True, timeout=240,
                              check=False)
        assert proc.returncode == 0, proc.stderr[-2000:]
        lines = [r.split("|") for r in out.read_text(encoding="utf-8").splitlines()]
        assert [r[27].strip('"') for r in lines] == [REASON_HEADER, *WHY], path.name


def _declined(queries: int, per_query: int) -> Document:
    """``queries`` queries of ``per_query`` candidates, every tenth one's
    grade unknown, declined by 2 annotators."""
    n = queries * per_query
    return Document.from_columns(
        query=[f"q{i // per_query}" for i in range(n)], source_id=[f"d{i}" for i in range(n)],
        score=[float(per_query - i % per_query) for i in range(n)],
        grade=[None if i % 10 == 1 else float(i % 3) for i in range(n)],
        reason=["declined by 2 annotators" if i % 10 == 1 else "" for i in range(n)])


@pytest.mark.parametrize("suffix", [".xlsx", ".ods"])
def test_the_reasons_are_read_once_a_sheet_not_once_a_batch(
        tmp_path: Path, suffix: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The document's reasons are looked for as often for a sheet of one
    batch of rows (the rows are written 8,192 at a time) as for one of three:
    made once a batch, the column took each batch a pass over every
    candidate (1,000,000 candidates: 0.36 s once, 9.6 s in batches). The
    column's cells are the same either way."""
    calls: list[int] = []
    reasoned_rows = Document.reasoned_rows

    def counted(doc: Document) -> Any:
        calls.append(len(doc))
        return reasoned_rows(doc)

    monkeypatch.setattr(Document, "reasoned_rows", counted)
    looked = []
    for doc in (_declined(1, 30), _declined(3, 8200)):
        calls.clear()
        path = tmp_path / f"book-{len(doc)}{suffix}"
        export_workbook(evaluate(doc), path)
        looked.append(len(calls))
        rows = _candidates(path)
        assert rows[0][27] == REASON_HEADER
        assert [r[27] for r in rows[1:]] == [
            "declined by 2 annotators" if int(r[1][1:]) % 10 == 1 else "" for r in rows[1:]]
    assert looked[1] == looked[0], looked


def test_a_persons_comment_on_the_reason_column_is_kept(tmp_path: Path) -> None:
    """A reviewer's comment on a "why no grade" cell (AB3, d2's) and on its
    header is written again on that cell by the next save, beside their
    comment on B3 and their own column (AC); where a later save writes no
    reason column (d2 graded since), the comment goes on d2's grade cell
    (F3), after the comment already there, never lost, never on their
    column that moves back to AB. Before, AB's comments were skipped with
    the column's cells, without a word."""
    from openpyxl.comments import Comment

    path = tmp_path / "book.xlsx"
    session = Worksheet(_marked(tmp_path))
    export_workbook(evaluate(session.document), path)
    wb = _openpyxl(path)
    ws = wb[SHEETS["candidates"]]
    ws["AB3"].comment = Comment("declined twice: ask Ben", "eve")
    ws["AB1"].comment = Comment("filled by the export", "eve")
    ws["B3"].comment = Comment("a duplicate of d1?", "eve")
    ws["F3"].comment = Comment("look again", "eve")
    ws["AC1"] = "mine"
    ws["AC3"] = "x"
    wb.save(path)

    export_workbook(evaluate(session.document), path, keep=additions_to_keep(path))
    ws = _openpyxl(path)[SHEETS["candidates"]]
    assert _note(ws, "AB3") == "declined twice: ask Ben"
    assert _note(ws, "AB1") == "filled by the export"
    assert _note(ws, "B3") == "a duplicate of d1?"
    assert (ws["AB3"].value, ws["AC1"].value, ws["AC3"].value) == (WHY[1], "mine", "x")
    assert (_note(ws, "AC3"), _note(ws, "AC1")) == (None, None)

    d2, d3 = (int(np.flatnonzero(session.document.source_id == s)[0]) for s in ("d2", "d3"))
    session.apply(SetGrades.of([d2, d3], [GradeValue.typed(1.0, GradeState.NUMBER)] * 2,
                               who="ana"))
    export_workbook(evaluate(session.document), path, keep=additions_to_keep(path))
    ws = _openpyxl(path)[SHEETS["candidates"]]
    assert (ws["AB1"].value, ws["AB3"].value) == ("mine", "x")  # no reason column
    assert (_note(ws, "AB3"), _note(ws, "AB1")) == (None, None)
    assert _note(ws, "F3") == "look again\n\ndeclined twice: ask Ben"
    assert _note(ws, "F1") == "filled by the export"
    assert _note(ws, "B3") == "a duplicate of d1?"


def _note(ws: Any, ref: str) -> str | None:
    """The text of the comment on cell ``ref`` of ``ws`` (None: none)."""
    got = ws[ref].comment
    return None if got is None else str(got.text)


def _annotate_ods(path: Path, cell: tuple[int, int], text: str) -> None:
    """Put a person's comment (an annotation, as LibreOffice writes one) on
    the Candidates cell at ``cell`` (0-based row and column) of the .ods."""
    import zipfile

    from lxml import etree

    ns = {"table": "urn:oasis:names:tc:opendocument:xmlns:table:1.0",
          "office": "urn:oasis:names:tc:opendocument:xmlns:office:1.0",
          "text": "urn:oasis:names:tc:opendocument:xmlns:text:1.0",
          "dc": "http://purl.org/dc/elements/1.1/"}
    with zipfile.ZipFile(path) as z:
        parts = {n: z.read(n) for n in z.namelist()}
    root = etree.fromstring(parts["content.xml"])
    table = root.find(f".//table:table[@table:name='{SHEETS['candidates']}']", ns)
    row = table.findall(".//table:table-row", ns)[cell[0]]
    col = 0
    for found in row.findall("table:table-cell", ns):
        if col == cell[1]:
            break
        col += int(found.get(f"{{{ns['table']}}}number-columns-repeated", "1"))
    assert col == cell[1]  # a cell of its own (the export writes the reason cells)
    note = etree.Element(f"{{{ns['office']}}}annotation")
    etree.SubElement(note, f"{{{ns['dc']}}}creator").text = "eve"
    etree.SubElement(note, f"{{{ns['text']}}}p").text = text
    found.insert(0, note)
    parts["content.xml"] = etree.tostring(root, xml_declaration=True, encoding="UTF-8")
    with zipfile.ZipFile(path, "w") as z:
        z.writestr(zipfile.ZipInfo("mimetype"), parts.pop("mimetype"))
        for name, data in parts.items():
            z.writestr(name, data, zipfile.ZIP_DEFLATED)


def test_a_comment_in_an_ods_is_said_not_kept(tmp_path: Path) -> None:
    """calamine reads no comment of an .ods: a person's comment on a "why no
    grade" cell (AB3) or on B3 cannot be kept by the next save, and the
    save says which (before, nothing was said where nothing else was
    added); the export's own comments on unknown grades are not named."""
    path = tmp_path / "book.ods"
    export_workbook(evaluate(_marked(tmp_path)), path)
    assert additions_to_keep(path).not_carried == []  # the export's own notes (F3) are no loss
    _annotate_ods(path, (2, 27), "declined twice: ask Ben")
    _annotate_ods(path, (3, 1), "a duplicate?")
    said = additions_to_keep(path).not_carried
    assert len(said) == 1
    assert "comments on Candidates cells (AB3, B4;" in said[0]


@pytest.mark.libreoffice
@pytest.mark.parametrize("suffix", [".xlsx", ".ods"])
def test_a_comment_libreoffice_adds_on_the_reason_column(tmp_path: Path, suffix: str) -> None:
    """A reviewer opens the workbook in LibreOffice, comments on d2's "why no
    grade" cell (AB3) and on B3, and saves it; our next save keeps both
    comments in an .xlsx, the reason column's on it again, and names both
    cells among what it cannot keep in an .ods (whose comments calamine
    does not read), never the export's own on F3."""
    from tests.libreoffice import edit

    first = tmp_path / f"first{suffix}"
    export_workbook(evaluate(_marked(tmp_path)), first)
    path = tmp_path / f"book{suffix}"
    edit([(first, path, [
        {"op": "comment", "sheet": SHEETS["candidates"], "cell": "AB3",
         "text": "declined twice: ask Ben"},
        {"op": "comment", "sheet": SHEETS["candidates"], "cell": "B3", "text": "a duplicate?"},
    ])])
    keep = additions_to_keep(path)
    export_workbook(evaluate(read_workbook(path)), path, keep=keep)
    assert [r[27] for r in _candidates(path)[1:]] == WHY
    if suffix == ".ods":
        assert [s for s in keep.not_carried if s.startswith("comments on")] == [
            "comments on Candidates cells (B3, AB3; an .ods's comments are not read: copy "
            "them into a column of your own to keep them)"]
        return
    assert keep.not_carried == []
    ws = _openpyxl(path)[SHEETS["candidates"]]
    assert (_note(ws, "AB3"), _note(ws, "B3")) == ("declined twice: ask Ben", "a duplicate?")
