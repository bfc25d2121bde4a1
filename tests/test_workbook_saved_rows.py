"""A Candidates sheet a spreadsheet program saved again (shared strings, every
cell styled, formulas in full) is read up to its note column
(core.io.workbook.saved_rows): the cells and grade-formula rows are those
python-calamine and the formula scan find, and any cell in a form the reader
does not know leaves the sheet to calamine."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import openpyxl
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import core.io.workbook.reader as reader_module
from core.engine.evaluation import evaluate
from core.errors import InputError
from core.io.safety import check_xlsx
from core.io.workbook import OUTSIDE_WHO, SHEETS, export_workbook, read_workbook, reopened
from core.io.workbook.edits import CandidateCells
from core.io.workbook.saved_rows import read_saved_candidates
from core.model.conventions import Conventions
from core.model.document import Document, GradeState
from tests.test_workbook_plain_rows import _rewrite

_TEXT = st.text(
    alphabet=st.one_of(st.sampled_from(list("&<>\"'_x0F=+-@ \t\n;#")),
                       st.characters(exclude_categories=("Cs",), exclude_characters="\r")),
    max_size=10,
)
_SST_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"
_SST_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings"
_INLINE = re.compile(rb'( t=)"inlineStr">(?:<is>(.*?)</is>)?</c>', re.S)


def _doc(ids: list[str], notes: list[str] = ()) -> Document:  # type: ignore[assignment]
    doc = Document.from_columns(query=["q"] * len(ids), source_id=ids,
                                score=[float(i % 3) for i in range(len(ids))],
                                grade=[float(i % 4) if i % 5 else None for i in range(len(ids))],
                                conventions=Conventions(cutoffs=(2, None)))
    for i, note in enumerate(notes[: len(ids)]):
        doc.note[i] = note
    return doc


def _resaved(doc: Document, folder: Path) -> Path:
    """``doc`` exported, then saved again as a program saves it: openpyxl
    styles and writes the cells its own way; the Candidates sheet's texts are
    then moved to a shared-strings part, as Excel and LibreOffice keep them."""
    own, again, shared = folder / "own.xlsx", folder / "again.xlsx", folder / "shared.xlsx"
    export_workbook(evaluate(doc), own)
    openpyxl.load_workbook(own).save(again)
    part = check_xlsx(again).parts[SHEETS["candidates"]]
    items: list[bytes] = []

    def share(m: re.Match[bytes]) -> bytes:
        items.append(m.group(2) or b"<t></t>")
        return m.group(1) + b'"s"><v>%d</v></c>' % (len(items) - 1)

    with zipfile.ZipFile(again) as src, zipfile.ZipFile(shared, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            data = src.read(info)
            if info.filename == part:
                data = _INLINE.sub(share, data)
            elif info.filename == "[Content_Types].xml":
                data = data.replace(b"</Types>", b'<Override PartName="/xl/sharedStrings.xml" '
                                    b'ContentType="%s"/></Types>' % _SST_TYPE.encode())
            elif info.filename == "xl/_rels/workbook.xml.rels":
                data = data.replace(b"</Relationships>", b'<Relationship Id="rIdSst" Type="%s" '
                                    b'Target="sharedStrings.xml"/></Relationships>'
                                    % _SST_REL.encode())
            dst.writestr(info, data)
        dst.writestr("xl/sharedStrings.xml", _sst(items))
    return shared


def _sst(items: list[bytes]) -> bytes:
    return (b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
            b'<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
            b'count="%d" uniqueCount="%d">' % (len(items), len(items))
            + b"".join(b"<si>" + item + b"</si>" for item in items) + b"</sst>")


def _cell(path: Path, ref: str) -> bytes:
    with zipfile.ZipFile(path) as zf:
        xml = zf.read(check_xlsx(path).parts[SHEETS["candidates"]])
    m = re.search(rb'<c r="' + ref.encode() + rb'"(?:[^>]*/>|.*?</c>)', xml)
    assert m is not None
    return m.group()


def _both(path: Path) -> tuple[tuple[CandidateCells, set[int]] | None,
                               tuple[CandidateCells, set[int]]]:
    """The cells and grade-formula rows as this reader and as calamine (with
    the formula scan) find them."""
    check = check_xlsx(path)
    with reader_module._calamine(path) as book:
        parsed = reader_module._candidate_cells(book, SHEETS["candidates"])
    return (read_saved_candidates(path, check, str(path)),
            (parsed, reader_module._grade_formula_rows(path, check)))


def _same(got: tuple[CandidateCells, set[int]], want: tuple[CandidateCells, set[int]]) -> None:
    """Equal cells, of equal types, and equal formula rows."""
    (cells, formulas), (parsed, rows) = got, want
    for column in ("query", "source", "grade", "note", "score", "original"):
        mine, theirs = getattr(cells, column), getattr(parsed, column)
        n = max(len(mine), len(theirs))  # calamine stops at the last cell with a value
        mine = mine + [""] * (n - len(mine))
        theirs = theirs + [""] * (n - len(theirs))
        assert [(type(v), v) for v in mine] == [(type(v), v) for v in theirs], column
    assert formulas == rows


@settings(max_examples=25, deadline=None)
@example(ids=["a&b<c>\"'", " lead", "trail ", "=1+1", "caf\u00e9 \u6f22", "x" * 20_000],
         notes=["n &amp; m", "\t", "a\nb"])
@given(ids=st.lists(_TEXT, min_size=1, max_size=5, unique=True), notes=st.lists(_TEXT, max_size=5))
def test_the_reader_reads_what_calamine_reads(tmp_path_factory: pytest.TempPathFactory,
                                              ids: list[str], notes: list[str]) -> None:
    path = _resaved(_doc(ids, notes), tmp_path_factory.mktemp("saved"))
    got, want = _both(path)
    if got is not None:  # None: an escape (_x0041_) it leaves to calamine
        _same(got, want)
    back = read_workbook(path)
    assert back.source_id.tolist() == ids
    assert back.note.tolist()[: len(notes)] == notes[: len(ids)]


def test_a_resaved_workbook_is_read_without_calamine_parsing_the_sheet(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    doc = _doc(["a", "b&c", "https://x.example/?a=1&b=2", "doc_1", "d"], ["", "seen", ""])
    path = _resaved(doc, tmp_path)
    with zipfile.ZipFile(path) as zf:
        assert zf.read(check_xlsx(path).parts[SHEETS["candidates"]]).count(b't="s"') > 10
    got, want = _both(path)
    assert got is not None
    _same(got, want)
    assert sorted(got[0].source) == sorted(doc.source_id.tolist())
    assert sorted(got[0].note) == ["", "", "", "", "seen"]
    monkeypatch.setattr(reader_module, "_candidate_cells", None)  # never parsed
    back = read_workbook(path)
    assert back.source_id.tolist() == doc.source_id.tolist()
    assert back.note.tolist() == doc.note.tolist()
    assert reopened(back).empty  # type: ignore[union-attr]


def _sheet_row(path: Path, source: str) -> int:
    ws = openpyxl.load_workbook(path, read_only=True)[SHEETS["candidates"]]
    return next(r for r, row in enumerate(ws.iter_rows(min_row=2, values_only=True), 2)
                if row[1] == source)


def _move_row(path: Path, out: Path, row: int, to: int) -> None:
    """``path`` with sheet row ``row`` (all its cells) moved to row ``to``."""
    with zipfile.ZipFile(path) as zf:
        xml = zf.read(check_xlsx(path).parts[SHEETS["candidates"]])
    found = re.search(rb'<row r="%d".*?</row>' % row, xml, re.S)
    assert found is not None
    moved = re.sub(rb'r="([A-Z]*)%d"' % row, lambda m: b'r="%s%d"' % (m.group(1), to),
                   found.group())
    _rewrite(path, out, {found.group(): moved})


def test_cells_of_every_kind_read_as_calamine_reads_them(tmp_path: Path) -> None:
    path, edited = _resaved(_doc(["a", "b", "c", "d", "e"]), tmp_path), tmp_path / "e.xlsx"
    ra, rb_, rc, rd, re_ = (_sheet_row(path, s) for s in "abcde")
    style = re.search(rb' s="(\d+)"', _cell(path, f"F{ra}"))
    assert style is not None
    s = style.group()
    with zipfile.ZipFile(path) as zf:
        n = zf.read("xl/sharedStrings.xml").count(b"<si>")
    rich = (b'<si><r><rPr><b/></rPr><t>bold</t></r><r><t xml:space="preserve"> and '
            b'&lt;plain&gt;</t></r><rPh sb="0" eb="1"><t>PH</t></rPh></si>')
    _rewrite(path, tmp_path / "rich.xlsx", {b"</sst>": rich + b"</sst>"},
             part="xl/sharedStrings.xml")
    _rewrite(tmp_path / "rich.xlsx", tmp_path / "cells.xlsx", {
        _cell(path, f"F{ra}"): b'<c r="F%d"%s t="str"><f>"2"</f><v>2</v></c>' % (ra, s),
        _cell(path, f"F{rb_}"): b'<c r="F%d"%s t="e"><v>#N/A</v></c>' % (rb_, s),
        _cell(path, f"F{rc}"): b'<c r="F%d"%s t="b"><v>1</v></c>' % (rc, s),
        _cell(path, f"H{rc}"): b'<c r="H%d"%s t="s"><v>%d</v></c>' % (rc, s, n),
        _cell(path, f"H{rd}"): b'<c r="H%d"%s t="str"><f>"x"</f><v>a &amp; b</v></c>' % (rd, s),
        _cell(path, f"F{re_}"): b'<c r="F%d"%s t="inlineStr"><is><r><t>unrate</t></r>'
                                b'<r><t>able</t></r></is></c>' % (re_, s),
    })
    last = 6
    _move_row(tmp_path / "cells.xlsx", edited, last, last + 3)  # empty rows before it
    got, want = _both(edited)
    assert got is not None
    _same(got, want)
    cells, formulas = got

    def at(row: int) -> int:  # the item of a sheet row (the last one moved)
        return (last + 3 if row == last else row) - 2

    assert formulas == {at(ra) + 2, at(rb_) + 2}
    assert cells.grade[at(rc)] is True
    assert cells.note[at(rc)] == "bold and <plain>"
    assert cells.note[at(rd)] == "a & b"
    assert cells.grade[at(re_)] == "unrateable"
    assert len(cells) == last + 3 - 1
    assert cells.query[last - 2: last + 1] == ["", "", ""]
    assert cells.query[-1] != ""
    with pytest.raises(InputError, match=r"the current grade (is True|is a formula)") as info:
        read_workbook(edited)  # the first refused cell, named
    assert info.value.line in {*formulas, at(rc) + 2}


@pytest.mark.parametrize("edit", [
    pytest.param(lambda c, r, s: {c("F", r): b'<c r="F%d" s="%d"><v>45000</v></c>' % (r, s)},
                 id="a number in a date format"),
    pytest.param(lambda c, r, s: {c("B", r): b'<c r="B%d" t="s" s="0"><v>0</v></c>' % r},
                 id="attributes in another order"),
    pytest.param(lambda c, r, s: {c("B", r): b'<c r="B%d" t="s"><v>-1</v></c>' % r},
                 id="a negative shared-string index"),
    pytest.param(lambda c, r, s: {c("D", r): b'<c r="D%d"><v>1_0</v></c>' % r},
                 id="a number Python reads and calamine does not"),
    pytest.param(lambda c, r, s: {c("H", r): b'<c r="H%d" t="e"><v>#REF!</v></c>' % r},
                 id="an error value outside the grade column"),
    pytest.param(lambda c, r, s: {c("H", r): b'<c r="H%d" t="str"><v>_x0041_</v></c>' % r},
                 id="an escape"),
    pytest.param(lambda c, r, s: {c("A", r): b"<c>" + c("A", r).split(b">", 1)[1]},
                 id="a cell without its reference"),
    pytest.param(lambda c, r, s: {b'<row r="%d"' % r: b'<row r="1"'}, id="rows out of order"),
])
def test_a_cell_it_does_not_know_leaves_the_sheet_to_calamine(tmp_path: Path, edit) -> None:  # type: ignore[no-untyped-def]
    path, edited = _resaved(_doc(["a", "b", "c"]), tmp_path), tmp_path / "e.xlsx"
    r = _sheet_row(path, "b")
    with zipfile.ZipFile(path) as zf:
        styles = zf.read("xl/styles.xml")
    date = styles.count(b"<xf ", styles.find(b"<cellXfs"))  # the style added below
    _rewrite(path, tmp_path / "d.xlsx", {b"</cellXfs>": b'<xf numFmtId="14"/></cellXfs>'},
             part="xl/styles.xml")
    _rewrite(tmp_path / "d.xlsx", edited, edit(lambda col, row: _cell(path, f"{col}{row}"),
                                                r, date))
    got, _ = _both(edited)
    assert got is None
    error: InputError | None = None
    try:
        read_workbook(edited)
    except InputError as exc:  # what calamine's reading makes of it, named
        error = exc
    assert error is None or error.file == str(edited)


def test_a_sort_in_the_spreadsheet_is_matched_by_the_locked_cells(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    doc = _doc(["a", "b", "c"])
    path, edited = _resaved(doc, tmp_path), tmp_path / "e.xlsx"
    ra, rc = _sheet_row(path, "a"), _sheet_row(path, "c")
    row_a = re.search(rb'<row r="%d".*?</row>' % ra, zipfile.ZipFile(path).read(
        check_xlsx(path).parts[SHEETS["candidates"]]), re.S)
    row_c = re.search(rb'<row r="%d".*?</row>' % rc, zipfile.ZipFile(path).read(
        check_xlsx(path).parts[SHEETS["candidates"]]), re.S)
    assert row_a is not None
    assert row_c is not None
    a, c = row_a.group(), row_c.group()
    swap_a = re.sub(rb'r="([A-Z]+)%d"' % ra, lambda m: b'r="%s%d"' % (m.group(1), rc), a)
    swap_c = re.sub(rb'r="([A-Z]+)%d"' % rc, lambda m: b'r="%s%d"' % (m.group(1), ra), c)
    swap_a = swap_a.replace(b'<row r="%d"' % ra, b'<row r="%d"' % rc)
    swap_c = swap_c.replace(b'<row r="%d"' % rc, b'<row r="%d"' % ra)
    _rewrite(path, edited, {a: swap_c, c: swap_a})
    got, want = _both(edited)
    assert got is not None
    _same(got, want)
    monkeypatch.setattr(reader_module, "_candidate_cells", None)  # never parsed
    back = read_workbook(edited)
    assert back.source_id.tolist() == ["a", "b", "c"]
    assert [e for e in back.audit if e.who == OUTSIDE_WHO] == []


def test_a_grade_typed_in_the_spreadsheet_is_taken(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    doc = _doc(["a", "b", "c"])
    path, edited = _resaved(doc, tmp_path), tmp_path / "e.xlsx"
    r = _sheet_row(path, "b")
    style = re.search(rb' s="\d+"', _cell(path, f"F{r}"))
    assert style is not None
    _rewrite(path, edited, {_cell(path, f"F{r}"): b'<c r="F%d"%s t="n"><v>2.5</v></c>'
                            % (r, style.group())})
    monkeypatch.setattr(reader_module, "_candidate_cells", None)  # never parsed
    back = read_workbook(edited)
    i = back.source_id.tolist().index("b")
    assert (float(back.grade[i]), int(back.state[i])) == (2.5, GradeState.NUMBER)
    assert [(e.source_id, e.after) for e in back.audit if e.who == OUTSIDE_WHO] == [("b", "2.5")]


@pytest.mark.parametrize(("code", "plain"), [
    ("General", True), ("0.00", True), ("[Red]0.00", True), ("0%", True),
    ('"TRUE";"TRUE";"FALSE"', True), ("[=1000000000]&quot;all&quot;;0", True),
    ("yyyy-mm-dd", False), ("mm:ss", False), ("[h]", False), ("[h]:mm", False),
    ("# ?/?", False),  # a fraction: left to calamine, to be safe
])
def test_a_number_format_is_plain_unless_it_could_make_a_date(code: str, plain: bool) -> None:
    from core.io.workbook.saved_rows import _plain_format

    assert _plain_format(code) is plain


def test_excel_s_forms_are_read_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Rows with Excel's attributes (spans, x14ac:dyDescent), shared formulas
    (``<f t="shared" si="0"/>``), a formula's cached string, an empty value:
    read, and as calamine reads them."""
    path, edited = _resaved(_doc(["a", "b", "c"]), tmp_path), tmp_path / "e.xlsx"
    ra, rb_, rc = (_sheet_row(path, s) for s in "abc")
    edits = {b'<row r="%d">' % r: b'<row r="%d" spans="1:28" x14ac:dyDescent="0.25">' % r
             for r in (ra, rb_, rc)}
    edits[_cell(path, f"G{ra}")] = (b'<c r="G%d" t="str"><f t="shared" ref="G%d:G%d" si="0">'
                                   b'IF(ISNUMBER(F%d),"number","x")</f><v>number</v></c>'
                                   % (ra, ra, rc, ra))
    edits[_cell(path, f"G{rb_}")] = b'<c r="G%d" t="str"><f t="shared" si="0"/><v>x</v></c>' % rb_
    edits[_cell(path, f"H{rb_}")] = b'<c r="H%d" t="str"><f>"seen"</f><v>seen</v></c>' % rb_
    edits[_cell(path, f"H{rc}")] = b'<c r="H%d" t="str"><f>""</f><v></v></c>' % rc
    _rewrite(path, edited, edits)
    got, want = _both(edited)
    assert got is not None
    _same(got, want)
    assert got[0].note[rb_ - 2] == "seen"
    assert got[0].note[rc - 2] == ""
    assert got[1] == set()
