"""The checks a LibreOffice spreadsheet (.ods) must pass before any parser
sees it, as :func:`~core.io.safety.check.check_xlsx` checks an .xlsx.

The file and its zip directory are checked as for an .xlsx (size, part
count, encryption, compression method, each part's and the whole's
compression ratio: zip bombs, overlapping parts, truncation); then the
package: its ``mimetype`` says a spreadsheet (an .xlsx or a text document
under an .ods name is named as such), its manifest declares no encryption,
every XML part starts with its root element and declares no DTD or entity
(billion laughs, external entities), every part unpacks whole and intact.
The sheets are all in ``content.xml``, scanned in one streaming pass without
a parser: each table's name, the used area a reader allocates for it
(repeated rows and cells counted, as ``table:number-rows-repeated`` and
``table:number-columns-repeated`` ask: a few bytes can declare a billion
cells), held to Excel's limits and to what the part's bytes can hold, and
whether it holds formulas; the global named ranges (the Conventions sheet's
cells are found by name). Which cells hold formulas is found on request
(:func:`ods_formula_cells`), never evaluated.
"""

from __future__ import annotations

import re
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from core.errors import InputError
from core.io.safety.hidden import HiddenLines
from core.io.safety.kinds import named_by_parts
from core.io.safety.limits import (
    EXCEL_MAX_COLUMNS,
    EXCEL_MAX_ROWS,
    cells_allowed,
    column_letters,
    crafted,
    damaged,
    limit_error,
)
from core.io.safety.parts import HEAD, read_ahead, root_element, stream_part

__all__ = ["CONTENT", "ODS_MIMETYPE", "PARAGRAPH_BREAK", "OdsScan", "RowReader",
           "check_ods_package", "ods_formula_cells", "ods_sheet_cells", "scan_content",
           "xml_text"]

CONTENT = "content.xml"
ODS_MIMETYPE = b"application/vnd.oasis.opendocument.spreadsheet"
_TABLE_START = re.compile(rb'<table:table[\s>]')
_TABLE_NAME = re.compile(rb'\stable:name="([^"]*)"')
_TABLE_END = b"</table:table>"
_ROW_START = b"<table:table-row"
_ROW_END = b"</table:table-row>"
_ROWS_REPEATED = re.compile(rb'table:number-rows-repeated="(\d+)"')
_CELL = re.compile(rb'<table:(?:covered-)?table-cell(\s[^>]*|/)?>')
#: The fewest bytes a cell is written in (``<table:table-cell/>``).
_CELL_BYTES = 19
#: Repeated cells a row may have before its width is counted cell by cell.
_FEW_REPEATS = 64
#: A row's last cell when it is empty cells repeated (to the sheet's edge).
_TRAILING = re.compile(rb'<table:table-cell(?: table:style-name="[^"]*")?'
                       rb' table:number-columns-repeated="\d+"'
                       rb'(?: table:style-name="[^"]*")?/>\Z')
_COLUMNS_REPEATED = re.compile(rb'table:number-columns-repeated="(\d+)"')
_FORMULA = re.compile(rb'\stable:formula="([^"]*)"')
_SPANNED_ROWS = re.compile(rb'\stable:number-rows-spanned="(\d+)"')
_SPANNED_COLUMNS = re.compile(rb'\stable:number-columns-spanned="(\d+)"')
_NAMED_RANGE = re.compile(
    rb'<table:named-range\s[^>]*?table:name="([^"]*)"[^>]*?'
    rb'table:cell-range-address="([^"]*)"')
_NAMED_RANGE_FLIPPED = re.compile(
    rb'<table:named-range\s[^>]*?table:cell-range-address="([^"]*)"[^>]*?'
    rb'table:name="([^"]*)"')
#: A row longer than this with no end: not a sheet any program writes.
_LONGEST_ROW = 64 << 20
_ENTITIES = (("&lt;", "<"), ("&gt;", ">"), ("&quot;", '"'), ("&apos;", "'"))
_CHAR_REF = re.compile(r"&#(x[0-9A-Fa-f]+|[0-9]+);")
#: A tab or a line break inside a paragraph (calamine drops both).
PARAGRAPH_BREAK = re.compile(rb"<text:(?:line-break|tab)\b")
#: A row or column not shown: hidden by hand ("collapse") or by a filter.
_HIDDEN = re.compile(rb'\stable:visibility="(?:collapse|filter)"')
#: A string literal (kept), or a reference in brackets (its text: group 1).
_REFERENCE = re.compile(r'"(?:[^"]|"")*"|\[((?:[^\]\'"]|\'(?:[^\']|\'\')*\')*)\]')
_COLUMN = re.compile(rb'<table:table-column[\s/][^>]*>')


@dataclass
class OdsTable:
    """One sheet of ``content.xml``: its used area and whether it holds formulas."""

    name: str
    rows: int = 0
    columns: int = 0
    formulas: bool = False
    #: Its end was seen (named ranges after it are global).
    closed: bool = False
    #: Rows seen so far, empty ones included (the next row's number is one more).
    seen: int = 0
    #: The widest row not counted cell by cell, as its bytes bound it (at
    #: least ``columns``: a cell takes at least ``_CELL_BYTES`` bytes).
    bound: int = 0
    _pending: int = 0  # empty rows seen since the last one with a value

    def add_row(self, width: int, repeat: int, filled: bool) -> None:
        self.seen += repeat
        if not filled:
            self._pending += repeat
            return
        self.rows += self._pending + repeat
        self._pending = 0
        self.columns = max(self.columns, width)


class RowReader(Protocol):
    """Takes the rows of some tables as the scan meets them (after they
    were counted and found within the limits)."""

    #: The tables whose rows are wanted.
    tables: frozenset[str]

    def row(self, table: str, number: int, repeat: int, buf: bytes, start: int,
            end: int) -> None:
        """Row ``number`` (1-based; ``repeat`` rows alike), its body ``buf[start:end]``."""


@dataclass
class OdsScan:
    """What the scan of ``content.xml`` found."""

    tables: list[OdsTable] = field(default_factory=list)
    #: Global named ranges: name -> ``Sheet!$B$7`` (or ``Sheet!$A$1:$B$4``).
    names: dict[str, str] = field(default_factory=dict)
    #: The cells a reader may allocate (content.xml's bytes hold so many).
    allowed: int = 0
    #: The closed tables' used areas, added up.
    done_cells: int = 0
    reader: RowReader | None = None
    file: str = ""
    #: Every row's cells counted (else a row without repeated cells is bound by its bytes).
    exact: bool = False

    def counted(self, table: OdsTable) -> None:
        """Refuse a used area past Excel's limits or past what the bytes hold."""
        if table.rows > EXCEL_MAX_ROWS or table.columns > EXCEL_MAX_COLUMNS:
            raise limit_error(
                f"the sheet's used area is at least {table.rows:,} rows by {table.columns:,}"
                " columns (repeated cells counted), past Excel's limits", self.file, table.name)
        total = self.done_cells + table.rows * table.columns
        if total > self.allowed:
            raise InputError(
                f"the sheets' used areas hold at least {total:,} cells (repeated cells"
                " counted), too many to read safely: a reader allocates every cell, and the"
                f" bytes of {CONTENT} hold far fewer", file=self.file,
                hint="delete the empty rows and columns past the data, and save it again")


def check_ods_package(zf: zipfile.ZipFile, name: str) -> None:
    """The package around ``content.xml``: a spreadsheet's mimetype, no
    encryption, every XML part's head safe, every part intact."""
    infos = {i.filename: i for i in zf.infolist()}
    if "mimetype" not in infos:
        if "[Content_Types].xml" in infos:
            raise InputError("this is an .xlsx workbook under an .ods name", file=name,
                             hint="rename it to .xlsx")
        if CONTENT in infos:  # a spreadsheet's part without its package's
            raise damaged("this is not an OpenDocument spreadsheet (it has no mimetype)",
                          name)
        what, hint = named_by_parts(list(infos))
        raise InputError(f"this is {what}, not an .ods spreadsheet: it has no mimetype",
                         file=name, hint=hint)
    kind = b"".join(stream_part(zf, infos["mimetype"], name)).strip()
    if kind != ODS_MIMETYPE:
        shown = kind[:80].decode("ascii", "replace")
        raise InputError(f"this is not an OpenDocument spreadsheet (its mimetype is {shown!r})",
                         file=name, hint="save it from LibreOffice Calc as .ods, or as .xlsx")
    manifest = infos.get("META-INF/manifest.xml")
    if manifest is not None and b"encryption-data" in b"".join(
            stream_part(zf, manifest, name)):
        raise InputError("the spreadsheet is encrypted (password-protected)", file=name,
                         hint="save it without a password")
    if CONTENT not in infos:
        raise damaged(f"the spreadsheet has no {CONTENT}", name)
    for part, info in infos.items():
        if part == CONTENT or part.endswith("/"):
            continue
        chunks = stream_part(zf, info, name)
        head = next(chunks, b"")[:HEAD]
        if part.endswith(".xml") or part.endswith(".rdf"):
            root_element(head, file=name, part=part)
        for _ in chunks:  # unpacks whole and intact
            pass


def scan_content(zf: zipfile.ZipFile, name: str, reader: RowReader | None = None) -> OdsScan:
    """The tables of ``content.xml`` and its named ranges, in one streaming
    pass; refuses a used area beyond Excel's limits or beyond what the
    part's bytes can hold, as soon as a row takes it there. ``reader`` is
    handed the rows of the tables it wants."""
    info = zf.getinfo(CONTENT)
    chunks = stream_part(zf, info, name)
    first = next(chunks, b"")
    if root_element(first[:HEAD], file=name, part=CONTENT) is None:
        raise InputError("the spreadsheet's content is not XML (is it encrypted?)", file=name,
                         hint="save it again in LibreOffice without a password")
    found = _pass(_chain(first, read_ahead(chunks)), OdsScan(
        allowed=cells_allowed(info.file_size), reader=reader, file=name))
    if sum(t.rows * max(t.columns, t.bound) for t in found.tables) > found.allowed:
        # The rows' bytes allow more than the part may hold: count every row's cells.
        exact = _pass(_chain(b"", read_ahead(stream_part(zf, info, name))), OdsScan(
            allowed=found.allowed, file=name, exact=True))
        found.tables = exact.tables
    return found


def _pass(chunks: Iterator[bytes], found: OdsScan) -> OdsScan:
    """One pass of the scan over ``content.xml``'s pieces."""
    carry = b""
    for chunk in chunks:
        buf = carry + chunk
        at = _scan(buf, found, final=not chunk)
        carry = buf[at:]
        if len(carry) > _LONGEST_ROW:
            raise crafted(f"{CONTENT} holds a row longer than any sheet's", found.file)
    return found


def _chain(first: bytes, rest: Iterator[bytes]) -> Iterator[bytes]:
    yield first
    yield from rest
    yield b""  # the end: what is left is read to its end


_NOWHERE = 1 << 62


def _scan(buf: bytes, found: OdsScan, *, final: bool) -> int:
    """Scan the complete tables and rows in ``buf``; where to go on from."""
    at = 0
    table = found.tables[-1] if found.tables and not found.tables[-1].closed else None
    start = end = -1  # the next table's start and end at or past ``at`` (-1: look again)
    while True:
        if start < at:
            got = _TABLE_START.search(buf, at)
            start = got.start() if got else _NOWHERE
        if end < at:
            end = buf.find(_TABLE_END, at)
            end = _NOWHERE if end < 0 else end
        row = _next_row(buf, at, min(start, end, len(buf)))
        if row >= 0:
            done = _row(buf, row, table, found, start)
            if done < 0:
                return row
            at = done
        elif start < end:
            if start == _NOWHERE:
                break
            tag_end = buf.find(b">", start)
            if tag_end < 0:
                return start
            if table is not None:
                raise crafted(f"{CONTENT} holds a table inside a table, which a"
                              " spreadsheet's sheets never are", found.file)
            got = _TABLE_NAME.search(buf, start, tag_end)
            table = OdsTable(_xml_attr(got.group(1)) if got else "")
            found.tables.append(table)
            at = tag_end + 1
        elif end != _NOWHERE:
            if table is not None:
                table.closed = True
                found.done_cells += table.rows * table.columns
            table = None
            at = end + len(_TABLE_END)
        else:
            break
    _named_ranges(buf, at, len(buf), found)
    return len(buf) if final else max(at, len(buf) - 4096)


def _next_row(buf: bytes, at: int, limit: int) -> int:
    """Where the next row starts before ``limit`` (-1: none); a row group's
    or rows' element (``<table:table-row-group>``) is not a row."""
    row = buf.find(_ROW_START, at, limit)
    while row >= 0 and buf[row + len(_ROW_START):row + len(_ROW_START) + 1] not in (
            b" ", b">", b"/", b"\n", b"\t", b"\r"):
        row = buf.find(_ROW_START, row + 1, limit)
    return row


def _row(buf: bytes, at: int, table: OdsTable | None, found: OdsScan, nested: int) -> int:
    """Count one row into ``table``; where it ends (-1: not all in ``buf``).
    ``nested``: where the next table starts (inside this row: refused)."""
    tag_end = buf.find(b">", at)
    if tag_end < 0:
        return -1
    repeat = _ROWS_REPEATED.search(buf, at, tag_end)
    count = int(repeat.group(1)) if repeat else 1
    if buf[tag_end - 1:tag_end] == b"/":
        if table is not None:
            table.add_row(0, count, False)
        return tag_end + 1
    end = buf.find(_ROW_END, tag_end)
    if end < 0:
        return -1
    if table is None:
        raise crafted(f"{CONTENT} holds a row outside any table", found.file)
    if nested < end:
        raise crafted(f"{CONTENT} holds a table inside a cell, which a spreadsheet's sheets"
                      " never are", found.file)
    start = tag_end + 1
    if not table.formulas and buf.find(b"table:formula=", start, end) >= 0:
        table.formulas = True
    number = table.seen + 1
    if buf.find(b"office:value-type", start, end) < 0 and buf.find(b"<text:", start, end) < 0:
        table.add_row(0, count, False)
    else:
        width, counted = _width(buf, start, end, found.exact)
        table.add_row(width if counted else 0, count, True)
        if not counted:
            table.bound = max(table.bound, width)
    found.counted(table)
    if found.reader is not None and table.name in found.reader.tables:
        found.reader.row(table.name, number, count, buf, start, end)
    return end + len(_ROW_END)


def _width(buf: bytes, start: int, end: int, exact: bool) -> tuple[int, bool]:
    """The row's columns up to its last cell with a value, or more, and
    whether they were counted: a row without repeated cells (but for
    LibreOffice's trailing empty ones) is bound by its bytes unless
    ``exact``; otherwise its cells are counted (every element of the table
    namespace in it, an upper bound) with their repeats, cell by cell when
    repeats are many."""
    last = buf.rfind(b"<table:table-cell", start, end)
    trailing = last >= 0 and _TRAILING.match(buf, last, end) is not None
    if trailing:
        end = last  # LibreOffice's empty cells to the sheet's edge
    if buf.find(b"-repeated=", start, end) < 0:
        if not exact:
            return (end - start) // _CELL_BYTES, False
        return buf.count(b"<table:", start, end), True
    cells = buf.count(b"<table:", start, end)
    found = _COLUMNS_REPEATED.findall(buf, start, end)
    repeats = sum(map(int, found)) - len(found)  # each repeated cell was counted once
    return (cells + repeats if repeats <= _FEW_REPEATS else _exact_width(buf[start:end])), True


def _exact_width(body: bytes) -> int:
    """The row's columns up to its last cell with a value (repeats counted)."""
    col = last = 0
    for cell in _CELL.finditer(body):
        attrs = cell.group(1) or b""
        got = _COLUMNS_REPEATED.search(attrs)
        n = int(got.group(1)) if got else 1
        col += n
        if not attrs.endswith(b"/") or b"office:value-type" in attrs:
            last = col
    return last


def _named_ranges(buf: bytes, start: int, end: int, found: OdsScan) -> None:
    """The global named ranges (``<table:named-expressions>`` after the
    last table), as ``Sheet!$B$7``."""
    if found.tables and not found.tables[-1].closed:
        return  # a sheet's own named ranges are not global
    for got in _NAMED_RANGE.finditer(buf, start, end):
        found.names[_xml_attr(got.group(1))] = _address(_xml_attr(got.group(2)))
    for got in _NAMED_RANGE_FLIPPED.finditer(buf, start, end):
        found.names.setdefault(_xml_attr(got.group(2)), _address(_xml_attr(got.group(1))))


def _address(ods: str) -> str:
    """``$Conventions.$B$4`` -> ``Conventions!$B$4``;
    ``$Conventions.$A$25:.$A$34`` -> ``Conventions!$A$25:$A$34``."""
    first, _, second = ods.partition(":")
    sheet, _, ref = first.lstrip("$").rpartition(".")
    if sheet.startswith("'") and sheet.endswith("'"):
        sheet = sheet[1:-1].replace("''", "'")
    if second:
        ref += ":" + second.rpartition(".")[2]
    return f"{sheet}!{ref}"


def calc_text(formula: str) -> str:
    """An .ods cell's formula as Calc shows it in its input line: ``=``,
    without the ``of:`` namespace, each reference out of its brackets and
    without the dot of "this sheet" (``of:=IF([.E2]="Bad";0;1)`` ->
    ``=IF(E2="Bad";0;1)``, ``[$Data.$A$2:.$A$9]`` -> ``$Data.$A$2:$A$9``);
    text in quotes is kept as written."""
    body = formula[4:] if formula.startswith("of:=") else formula.lstrip("=")

    def shown(m: re.Match[str]) -> str:
        if m.group(1) is None:  # a string literal
            return m.group(0)
        return ":".join(p[1:] if p.startswith(".") else p for p in m.group(1).split(":"))

    return "=" + _REFERENCE.sub(shown, body)


def ods_formula_cells(path: str | Path, sheet: str, name: str, *,
                      columns: int = EXCEL_MAX_COLUMNS) -> list[tuple[str, str]]:
    """The cells of sheet ``sheet`` (its first ``columns`` columns) holding
    a formula: (reference, ``=`` and the formula as written, without
    LibreOffice's ``of:`` prefix); nothing is evaluated."""
    return ods_sheet_cells(path, sheet, name, columns=columns)[0]


#: A merged range: (first row, first column), (last row, last column), 0-based.
Merged = tuple[tuple[int, int], tuple[int, int]]


def ods_sheet_cells(path: str | Path, sheet: str, name: str, *,
                    columns: int = EXCEL_MAX_COLUMNS,
                    broken: list[tuple[int, int, bytes]] | None = None,
                    ) -> tuple[list[tuple[str, str]], list[Merged], HiddenLines]:
    """In one pass over sheet ``sheet``: its formula cells (as
    :func:`ods_formula_cells` gives them), its merged cells, each
    ((first row, first column), (last row, last column)), 0-based, as
    python-calamine gives an .xlsx sheet's, and its hidden rows (holding
    cells) and columns; only the first ``columns`` columns are looked at.
    ``broken``, when given, takes (1-based row, rows alike, body) of each
    row holding a tab or a line break inside a paragraph, which calamine
    drops (:func:`core.io.workbook.ods_rows.cell_values` reads them)."""
    formulas: list[tuple[str, str]] = []
    merged: list[Merged] = []
    hidden, first = HiddenLines(), True
    with zipfile.ZipFile(path) as zf:
        for row, gap, tag, body in _table_rows(zf, sheet, name):
            if first:  # the columns are declared before the first row
                _hidden_columns(gap, hidden)
                first = False
            if broken is not None and PARAGRAPH_BREAK.search(body) is not None:
                got = _ROWS_REPEATED.search(tag)
                broken.append((row, int(got.group(1)) if got else 1, body))
            if _HIDDEN.search(tag) is not None and (b"<text:p" in body or b"value-type" in body):
                got = _ROWS_REPEATED.search(tag)
                hidden.rows.extend(range(row, row + (int(got.group(1)) if got else 1)))
                hidden.filtered = hidden.filtered or b'"filter"' in tag
            if b"table:formula=" not in body and b"-spanned=" not in body:
                continue
            col = 0
            for cell in _CELL.finditer(body):
                if col >= columns:
                    break
                attrs = cell.group(1) or b""
                got = _COLUMNS_REPEATED.search(attrs)
                n = min(int(got.group(1)) if got else 1, columns - col)
                formula = _FORMULA.search(attrs)
                if formula is not None:
                    text = calc_text(_xml_attr(formula.group(1)))
                    formulas += [(f"{column_letters(col + k + 1)}{row}", text) for k in range(n)]
                down, across = _SPANNED_ROWS.search(attrs), _SPANNED_COLUMNS.search(attrs)
                if down is not None or across is not None:
                    last = (row - 1 + (int(down.group(1)) if down else 1) - 1,
                            col + (int(across.group(1)) if across else 1) - 1)
                    merged.append(((row - 1, col), last))
                col += n
    return formulas, merged, hidden


def _hidden_columns(gap: bytes, hidden: HiddenLines) -> None:
    """The hidden columns among the column elements in ``gap`` (those before
    the first row: a table's columns are declared before its rows)."""
    col = 0
    for element in _COLUMN.finditer(gap):
        got = _COLUMNS_REPEATED.search(element.group(0))
        n = min(int(got.group(1)) if got else 1, EXCEL_MAX_COLUMNS)
        if _HIDDEN.search(element.group(0)) is not None:
            hidden.columns.extend(range(col + 1, col + n + 1))
        col += n


def _table_rows(zf: zipfile.ZipFile, sheet: str,
                name: str) -> Iterator[tuple[int, bytes, bytes, bytes]]:
    """(1-based first row, what stands before its start tag since the last
    row (the columns' elements, before the first), its start tag, its body)
    of each row of table ``sheet`` that has a body."""
    inside = False
    row = 1
    carry = b""
    for chunk in _chain(b"", read_ahead(stream_part(zf, zf.getinfo(CONTENT), name))):
        buf = carry + chunk
        at = 0
        end = -1  # the table's end at or past ``at`` (-1: look again)
        while True:
            if not inside:
                start = _TABLE_START.search(buf, at)
                if start is None:
                    at = max(at, len(buf) - 4096)
                    break
                tag_end = buf.find(b">", start.start())
                if tag_end < 0:
                    at = start.start()
                    break
                got = _TABLE_NAME.search(buf, start.start(), tag_end)
                inside = got is not None and _xml_attr(got.group(1)) == sheet
                at = tag_end + 1
                continue
            if end < at:
                end = buf.find(_TABLE_END, at)
                end = _NOWHERE if end < 0 else end
            nxt = _next_row(buf, at, min(end, len(buf)))
            if nxt < 0:
                if end != _NOWHERE:
                    return
                at = max(at, len(buf) - 4096)
                break
            tag_end = buf.find(b">", nxt)
            close = buf.find(_ROW_END, tag_end) if tag_end >= 0 else -1
            if tag_end < 0 or (buf[tag_end - 1:tag_end] != b"/" and close < 0):
                at = nxt
                break
            repeat = _ROWS_REPEATED.search(buf, nxt, tag_end)
            if buf[tag_end - 1:tag_end] == b"/":
                at = tag_end + 1
            else:
                yield row, buf[at:nxt], buf[nxt:tag_end], buf[tag_end + 1:close]
                at = close + len(_ROW_END)
            row += int(repeat.group(1)) if repeat else 1
        carry = buf[at:]


def _xml_attr(raw: bytes) -> str:
    """An attribute's text, its entities and character references undone."""
    return xml_text(raw.decode("utf-8", "replace"))


def xml_text(text: str) -> str:
    """XML text with the five entities and character references undone."""
    if "&" not in text:
        return text
    text = _CHAR_REF.sub(lambda m: chr(int(m.group(1)[1:], 16) if m.group(1)[0] == "x"
                                       else int(m.group(1))), text)
    for entity, char in _ENTITIES:
        text = text.replace(entity, char)
    return text.replace("&amp;", "&")
