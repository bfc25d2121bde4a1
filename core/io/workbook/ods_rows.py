"""The cells reopening needs from LibreOffice's own spreadsheet (.ods), read
in the same streaming pass over ``content.xml`` that checks it.

An .ods file keeps every sheet in one part, ``content.xml``; LibreOffice
writes every helper formula of the Candidates sheet in full, so 100,000
candidates are 590 MB of XML. python-calamine parses all of it to open the
file (5.4 s on the benchmark's file, twice our own .xlsx's whole reopening);
this reader takes, as :func:`core.io.safety.check_ods` scans the rows, the
metadata and Conventions sheets whole (the Queries sheet too where it holds
the queries' texts: ``headed``), and the Candidates rows up to the note
column, each cell read by one regular expression, and leaves the rest of a
row unread (``benchmarks/bench_reopen_resaved.py``, ``docs/benchmarks.md``).

Values are those calamine gives for the same cells: text as its paragraphs
hold it (joined by a line break; spans and links read as their text; a
``<text:s>`` as its spaces; comments left out), numbers, percentages and
currencies as floats, booleans, a cell with no value type as ``""``. A
formula cell gives its stored result; a grade cell holding a formula is
noted by its row. Anything else (a date or time, an element this reader
does not know inside a paragraph) makes :func:`read_ods` return None, and
the caller reads the sheets with calamine: slower, and different in one
way: a paragraph's tabs and line breaks (``<text:tab/>``,
``<text:line-break/>``, as Gnumeric writes a multi-line cell) are read here
as the characters they stand for; calamine drops them (so did this reader:
a multi-line note saved by Gnumeric was read without its line breaks, as
edited). :func:`read_breaks` finds the cells holding them in the check the
calamine read needs anyway, and :func:`with_breaks` puts their texts back
into calamine's rows, so both reads agree. calamine opens an .ods Gnumeric
saved (indented) through :mod:`core.io.calamine_book`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.io.safety import WorkbookCheck, check_ods
from core.io.safety.ods import PARAGRAPH_BREAK, xml_text
from core.io.workbook.edits import CandidateCells
from core.io.workbook.layout import COLUMN_INDEX, SHEETS

__all__ = ["Breaks", "Headed", "OdsSheets", "cell_values", "read_breaks", "read_ods", "row_breaks",
           "with_breaks"]

#: The Candidates columns read: up to the note, the last one reopening needs.
_CANDIDATE_WIDTH = max(COLUMN_INDEX[h] for h in ("query", "source id", "current grade",
                                                 "note", "predicted score",
                                                 "original grade")) + 1
_GRADE = COLUMN_INDEX["current grade"]
_CELL = re.compile(rb'<table:(covered-)?table-cell(\s[^>]*|/)?>')
_CELL_END = (b"</table:table-cell>", b"</table:covered-table-cell>")
_VALUE_TYPE = re.compile(rb'\soffice:value-type="([a-z]+)"')
_VALUE = re.compile(rb'\soffice:value="([^"]*)"')
_STRING_VALUE = re.compile(rb'\soffice:string-value="([^"]*)"')
_BOOLEAN = re.compile(rb'\soffice:boolean-value="([^"]*)"')
_REPEATED = re.compile(rb'\stable:number-columns-repeated="(\d+)"')
_NUMBER = re.compile(rb"-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_ANNOTATION = re.compile(rb"<office:annotation(?:\s[^>]*)?>.*?</office:annotation>"
                         rb"|<office:annotation-end[^>]*/>", re.S)
_PARAGRAPH = re.compile(rb"<text:p(?:\s[^>]*)?(?:/>|>(.*?)</text:p>)", re.S)
_SPACES = re.compile(rb'<text:s(?:\s+text:c="(\d+)")?\s*/>')
#: A paragraph's tabs and line breaks, as the characters they stand for
#: (Gnumeric writes a cell's line breaks as ``<text:line-break/>`` inside
#: one paragraph, LibreOffice as paragraphs; both write a tab as ``<text:tab/>``).
_BREAKS = re.compile(rb"<text:(tab|line-break)\s*/>")
_BREAK_TEXT = {b"tab": b"\t", b"line-break": b"\n"}
_DROPPED = re.compile(rb"<text:soft-page-break\s*/>"
                      rb"|</?text:(?:span|a)(?:\s[^>]*)?>|<text:bookmark[^>]*/>")
#: The Candidates columns reopening takes, in CandidateCells' order (query,
#: source, current grade, note, score, original grade), by 0-based index.
_TAKEN = tuple(COLUMN_INDEX[h] for h in ("query", "source id", "current grade", "note",
                                         "predicted score", "original grade"))
#: One cell: its attributes (then ``/`` for an empty element) and content.
_ONE_CELL = (rb"<table:table-cell(%s[^>]*)(?:(?<=/)>|(?<!/)>(%s(?:[^<]*<(?!/table:table-cell>))"
             rb"*[^<]*)</table:table-cell>)")
#: The Candidates row's first cells (each without repeats or covering); two
#: groups for each cell taken: its attributes and its content.
_FIRST_CELLS = re.compile(b"".join(
    _ONE_CELL % ((b"", b"") if k in _TAKEN else (b"?:", b"?:"))
    for k in range(_CANDIDATE_WIDTH)))
#: Where each taken cell's two groups are, in CandidateCells' order.
_AT = tuple(2 * sorted(_TAKEN).index(k) for k in _TAKEN)
_GRADE_AT = _AT[_TAKEN.index(_GRADE)]
#: A row read whole past this many columns: left to calamine.
_MOST_CELLS = 1 << 14


#: Sheets read whole only where their first row holds a header at a column
#: (0-based): (sheet, column, header) each; the Queries sheet's texts are
#: read so where it has their column (a workbook of texts).
Headed = tuple[tuple[str, int, str], ...]


class _NotSimple(Exception):
    """A cell this reader does not read as calamine does."""


@dataclass
class OdsSheets:
    """What :func:`read_ods` read: the check, the small sheets' rows from
    A1, and the Candidates cells with the rows whose grade cell holds a
    formula."""

    check: WorkbookCheck
    rows: dict[str, list[list[Any]]] = field(default_factory=dict)
    candidates: CandidateCells | None = None
    formulas: set[int] = field(default_factory=set)


class _Reader:
    """Takes the rows of the sheets read (the small ones whole, the
    Candidates sheet up to its note column: the cells of a row in the usual
    form kept as the pattern found them, read column by column at the end)."""

    def __init__(self, whole: tuple[str, ...], candidates: str | None,
                 headed: Headed = ()) -> None:
        self.whole = frozenset(whole)
        self.candidates = candidates
        self.headed = {table: (col, header) for table, col, header in headed}
        self.tables = self.whole | set(self.headed) | ({candidates} if candidates else set())
        self.rows: dict[str, list[list[Any]]] = {t: [] for t in self.tables}
        self.numbers: list[int] = []  # the Candidates rows in the usual form
        self.groups: list[tuple[Any, ...]] = []
        self.other: dict[int, list[Any]] = {}  # and the others' cells, by row
        self.formulas: set[int] = set()

    def row(self, table: str, number: int, repeat: int, buf: bytes, start: int,
            end: int) -> None:
        if table in self.headed and not self._headed(table, number, buf, start, end):
            return
        if table in self.whole:
            cells, _ = _cells(buf, start, end, None)
            _place(self.rows[table], number, repeat, cells)
            return
        got = _FIRST_CELLS.match(buf, start, end) if repeat == 1 else None
        if got is not None and buf.find(b"-repeated=", start, got.end()) < 0:
            self.numbers.append(number)
            self.groups.append(got.groups())
            return
        cells, formula = _cells(buf, start, end, _CANDIDATE_WIDTH)
        if not cells and (not formula or repeat > _MOST_CELLS):
            return  # empty rows (LibreOffice's to the sheet's end): nothing to read
        if formula:
            self.formulas.update(range(number, number + repeat))
        cells += [""] * (_CANDIDATE_WIDTH - len(cells))
        for n in range(number, number + repeat):
            self.other[n] = cells

    def _headed(self, table: str, number: int, buf: bytes, start: int, end: int) -> bool:
        """Of a table read by its header: its first row taken here (the
        table then read whole where that row holds the header at its
        column); whether row ``number`` is still to be read (a later row
        of a table read whole)."""
        if number != 1:
            return table in self.whole
        col, header = self.headed[table]
        cells, _ = _cells(buf, start, end, None)
        self.rows[table].append(cells)
        if len(cells) > col and cells[col] == header:
            self.whole |= {table}
        return False

    def candidate_cells(self) -> CandidateCells:
        """The Candidates cells, by sheet row from row 2."""
        columns = [_column([g[at] for g in self.groups], [g[at + 1] for g in self.groups])
                   for at in _AT]
        self.formulas.update(n for n, g in zip(self.numbers, self.groups, strict=True)
                             if b"table:formula=" in g[_GRADE_AT])
        out = CandidateCells()
        into = (out.query, out.source, out.grade, out.note, out.score, out.original)
        if not self.other and self.numbers == list(range(1, len(self.numbers) + 1)):
            for column, values in zip(into, columns, strict=True):
                column.extend(values[1:])  # the header row first
        else:
            by_row = dict(zip(self.numbers, zip(*columns, strict=True), strict=True))
            by_row.update({n: tuple(c[k] for k in _TAKEN) for n, c in self.other.items()})
            empty = ("",) * len(into)
            for n in range(2, max(by_row, default=1) + 1):
                for column, value in zip(into, by_row.get(n, empty), strict=True):
                    column.append(value)
        while out.query and not any(column[-1] != "" for column in into):
            for column in into:
                column.pop()  # empty rows past the last: calamine gives none
        return out


def _place(rows: list[list[Any]], number: int, repeat: int, cells: list[Any]) -> None:
    """Put a row's cells at its place (empty rows before it as ``[]``)."""
    if not cells:
        return
    if len(rows) < number - 1:
        rows.extend([] for _ in range(number - 1 - len(rows)))
    rows.extend([cells] if repeat == 1 else [list(cells) for _ in range(repeat)])


def read_ods(path: str | Path, whole: tuple[str, ...], *,
             candidates: bool, headed: Headed = ()) -> OdsSheets | None:
    """Check an .ods file (:func:`core.io.safety.check_ods`) and, in the same
    pass, read the sheets named in ``whole``, those of ``headed`` whole where
    their first row holds the header given at its column (else that row
    alone) and, when ``candidates``, the Candidates sheet's cells; None when
    some cell read is in a form this reader leaves to calamine (see the
    module's text): the check passed."""
    sheet = SHEETS["candidates"] if candidates else None
    reader = _Reader(whole, sheet, headed)
    try:
        check = check_ods(path, reader=reader)
    except _NotSimple:
        return None
    out = OdsSheets(check, {t: reader.rows[t] for t in (*whole, *reader.headed)})
    if sheet is not None and sheet in check.parts:
        try:
            out.candidates = reader.candidate_cells()
        except _NotSimple:
            return None
        out.formulas = reader.formulas
    return out


#: The texts of the cells holding a tab or a line break: sheet -> (0-based
#: row, 0-based column) -> text.
Breaks = dict[str, dict[tuple[int, int], str]]


def row_breaks(into: dict[tuple[int, int], str], number: int, repeat: int, buf: bytes,
               start: int, end: int) -> None:
    """Put into ``into`` each cell of row ``number`` (1-based; ``repeat``
    rows alike; its body ``buf[start:end]``) whose text holds a tab or a
    line break, by (0-based row, 0-based column)."""
    for c, value in enumerate(cell_values(buf, start, end)):
        if isinstance(value, str) and ("\n" in value or "\t" in value):
            for n in range(number - 1, min(number - 1 + repeat, number + _MOST_CELLS)):
                into[n, c] = value


class _BreaksReader:
    """Takes, of the rows of ``tables``, the cells holding a tab or a line
    break inside a paragraph (a row holding none is passed over unread)."""

    def __init__(self, tables: frozenset[str]) -> None:
        self.tables = tables
        self.found: Breaks = {}

    def row(self, table: str, number: int, repeat: int, buf: bytes, start: int,
            end: int) -> None:
        if PARAGRAPH_BREAK.search(buf, start, end) is not None:  # (one search: two finds 1.5x)
            row_breaks(self.found.setdefault(table, {}), number, repeat, buf, start, end)


def read_breaks(path: str | Path, tables: frozenset[str]) -> tuple[WorkbookCheck, Breaks]:
    """Check an .ods file (:func:`core.io.safety.check_ods`) and, in the same
    pass, find the cells of ``tables`` holding a tab or a line break inside
    a paragraph, with their texts as :func:`read_ods` reads them: calamine
    drops those characters (``two<text:line-break/>lines`` is ``twolines``),
    :func:`with_breaks` puts them back."""
    reader = _BreaksReader(tables)
    check = check_ods(path, reader=reader)
    return check, reader.found


def with_breaks(rows: Any, found: dict[tuple[int, int], str]) -> Any:
    """``rows`` (calamine's, from A1; a list or an iterator) with each cell
    in ``found`` given its text with its tabs and line breaks, where
    calamine read the same text without them (any other value is left)."""
    if not found:
        return rows
    by_row: dict[int, dict[int, str]] = {}
    for (r, c), text in found.items():
        by_row.setdefault(r, {})[c] = text

    def mended(r: int, row: Any) -> Any:
        cells = by_row.get(r)
        if cells is None:
            return row
        row = list(row)
        for c, text in cells.items():
            if c < len(row) and isinstance(row[c], str) and _bare(row[c]) == _bare(text):
                row[c] = text
        return row

    if isinstance(rows, list):
        return [mended(r, row) for r, row in enumerate(rows)]
    return (mended(r, row) for r, row in enumerate(rows))


def _bare(text: str) -> str:
    """A text without its tabs and line breaks, as calamine reads a paragraph."""
    return text.replace("\n", "").replace("\t", "")


def _cells(buf: bytes, start: int, end: int, width: int | None) -> tuple[list[Any], bool]:
    """A row's cell values (up to ``width`` columns, or all up to the last
    with a value), and whether its grade column holds a formula."""
    out: list[Any] = []
    empty = 0  # empty cells not yet added (only a value after them adds them)
    formula = False
    at = start
    while width is None or len(out) + empty < width:
        cell = _CELL.search(buf, at, end)
        if cell is None:
            break
        attrs = cell.group(2) or b""
        body, at = _body(buf, cell, end)
        got = _REPEATED.search(attrs)
        n = int(got.group(1)) if got else 1
        column = len(out) + empty
        if column <= _GRADE < column + n and b"table:formula=" in attrs:
            formula = True
        if width is not None:
            n = min(n, width - column)
        value = _value(attrs, body)
        if value == "":
            empty += n
            continue
        if column + n > _MOST_CELLS:
            raise _NotSimple
        out.extend([""] * empty)
        out.extend([value] * n)
        empty = 0
    return out, formula


def _body(buf: bytes, cell: re.Match[bytes], end: int) -> tuple[bytes, int]:
    """A cell's content (empty for an empty element) and where it ends."""
    if (cell.group(2) or b"").endswith(b"/"):
        return b"", cell.end()
    close = _CELL_END[1 if cell.group(1) else 0]
    stop = buf.find(close, cell.end(), end)
    if stop < 0:
        raise _NotSimple
    return buf[cell.end():stop], stop + len(close)


_EMPTY, _TEXT, _OTHER = range(3)


def _column(attrs: list[bytes], bodies: list[bytes | None]) -> list[Any]:
    """One column's values as calamine gives them (``attrs``: each cell's
    attributes, ``bodies``: its content, None for an empty element); the
    usual forms read here, the others by :func:`_value`."""
    kinds: dict[bytes, int] = {}
    out: list[Any] = []
    add = out.append
    for a, b in zip(attrs, bodies, strict=True):
        kind = kinds.get(a)
        if kind is None:
            kind = kinds[a] = _kind(a)
        if kind == _TEXT and b is not None and b.startswith(b"<text:p>") and b.count(b"<") == 2:
            text = b[8:-9].decode("utf-8")
            add(xml_text(text) if "&" in text else text)
        elif kind == _EMPTY:
            add("")
        else:
            add(_value(a[:-1] if a.endswith(b"/") else a, b or b""))
    return out


def _kind(attrs: bytes) -> int:
    """What a cell's attributes make of it (text with no value of its own, empty, other)."""
    if b"office:value-type" not in attrs:
        return _EMPTY
    if b'office:value-type="string"' in attrs and b"office:string-value" not in attrs:
        return _TEXT
    return _OTHER


def cell_values(buf: bytes, start: int, end: int) -> list[Any]:
    """A row's cell values up to the last with a value, as calamine gives
    them; a cell in a form this reader leaves to calamine (a date) as the
    text it shows."""
    try:
        return _cells(buf, start, end, None)[0]
    except _NotSimple:
        pass
    out: list[Any] = []
    at = start
    while (cell := _CELL.search(buf, at, end)) is not None and len(out) < _MOST_CELLS:
        attrs = cell.group(2) or b""
        body, at = _body(buf, cell, end)
        got = _REPEATED.search(attrs)
        try:
            value = _value(attrs[:-1] if attrs.endswith(b"/") else attrs, body)
        except _NotSimple:
            value = _shown(body)
        out.extend([value] * min(int(got.group(1)) if got else 1, _MOST_CELLS - len(out)))
    while out and out[-1] == "":
        out.pop()
    return out


def _shown(body: bytes) -> str:
    """The text a cell shows (its paragraphs' text, markup dropped)."""
    body = _BREAKS.sub(lambda m: _BREAK_TEXT[m.group(1)], _ANNOTATION.sub(b"", body))
    text = re.sub(rb"<[^>]*>", b"", body.replace(b"</text:p><text:p", b"\n<"))
    return xml_text(text.decode("utf-8", "replace"))


def _value(attrs: bytes, body: bytes) -> Any:
    """One cell's value as calamine gives it."""
    kind = _VALUE_TYPE.search(attrs)
    if kind is None:
        return ""
    what = kind.group(1)
    if what in (b"float", b"percentage", b"currency"):
        got = _VALUE.search(attrs)
        if got is None or _NUMBER.fullmatch(got.group(1)) is None:
            raise _NotSimple
        return float(got.group(1))
    if what == b"string":
        got = _STRING_VALUE.search(attrs)
        return xml_text(got.group(1).decode("utf-8")) if got else _text(body)
    if what == b"boolean":
        got = _BOOLEAN.search(attrs)
        if got is None or got.group(1) not in (b"true", b"false"):
            raise _NotSimple
        return got.group(1) == b"true"
    raise _NotSimple  # dates, times: calamine's own types


def _text(body: bytes) -> str:
    """A string cell's text: its paragraphs, joined by a line break."""
    if b"<office:annotation" in body:
        body = _ANNOTATION.sub(b"", body)
    texts = []
    at = 0
    for got in _PARAGRAPH.finditer(body):
        if body[at:got.start()].strip():
            raise _NotSimple  # something beside the paragraphs
        at = got.end()
        text = got.group(1) or b""
        if b"<" in text:
            text = _DROPPED.sub(b"", _SPACES.sub(lambda m: b" " * int(m.group(1) or 1), text))
            text = _BREAKS.sub(lambda m: _BREAK_TEXT[m.group(1)], text)
            if b"<" in text:
                raise _NotSimple
        texts.append(text)
    if body[at:].strip():
        raise _NotSimple
    return xml_text(b"\n".join(texts).decode("utf-8"))
