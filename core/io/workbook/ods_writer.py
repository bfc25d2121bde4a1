"""The audited workbook as LibreOffice's ``.ods`` (OpenDocument spreadsheet).

:func:`xlsx_to_ods` rewrites a workbook our export has just written with
xlsxwriter (:mod:`core.io.workbook.export`) as OpenDocument, streaming:
every sheet in order (hidden ones hidden), each cell's text or number, each
formula translated to OpenFormula (:mod:`core.io.workbook.openformula`)
with the result xlsxwriter cached stored as the cell's value (a reader that
does not recalculate shows the engine's numbers), the defined names, column
widths and hidden columns, row heights, merged cells, frozen panes, the
cell styles (:mod:`core.io.workbook.ods_styles`: display rounding, colours,
which cells stay editable), the lists of choices and the words' conditional
colours (a grade state, a status: :mod:`core.io.workbook.ods_ranges`), sheet
protection and manual page breaks (a row style breaking before it). So
every sheet, formula and cached value has one source, the xlsx writer's;
charts, comments, other conditional formats and print titles are not carried
(``docs/workbook.md``). The Candidates rows come rendered as ODF already
(:class:`RenderedRows`, :mod:`core.io.workbook.ods_candidates`), and so do
the Annotators rows (:mod:`core.io.workbook.annotators_sheet`).

The converter reads only what xlsxwriter writes (inline strings, attributes
in its order, shared formulas down a column); it is not a general xlsx
reader.
"""

from __future__ import annotations

import re
import zipfile
from collections.abc import Iterable, Iterator
from html import escape, unescape
from itertools import pairwise
from pathlib import Path
from typing import Any

from core.io.workbook.ods_ranges import (
    Colours,
    Range,
    cell_range,
    column,
    quoted,
    validation_definitions,
    validations,
)
from core.io.workbook.ods_styles import cell_styles
from core.io.workbook.openformula import range_address, shifted, translate

__all__ = ["MIMETYPE", "RenderedRows", "carried_rows", "text_paragraphs", "xlsx_to_ods"]

MIMETYPE = "application/vnd.oasis.opendocument.spreadsheet"
_NS = (
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
    'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" '
    'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
    'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
    'xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" '
    'xmlns:number="urn:oasis:names:tc:opendocument:xmlns:datastyle:1.0" '
    'xmlns:of="urn:oasis:names:tc:opendocument:xmlns:of:1.2" '
    'xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0" '
    'xmlns:config="urn:oasis:names:tc:opendocument:xmlns:config:1.0" '
    'xmlns:xlink="http://www.w3.org/1999/xlink" '
    'xmlns:dc="http://purl.org/dc/elements/1.1/" office:version="1.3"'
)
_HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n'
#: The uncompressed sheet XML read at a time.
_PIECE = 1 << 22
#: One row start or one cell, as xlsxwriter writes them.
_ITEM = re.compile(
    r'<row r="([0-9]+)"([^>]*?)(/?)>'
    r'|<c r="([A-Z]+)([0-9]+)"(?: s="([0-9]+)")?(?: t="(\w+)")?'
    r"(?:/>|>(?:<f([^>]*?)(?:/>|>([^<]*)</f>))?(?:<v>([^<]*)</v>)?(?:<is>(.*?)</is>)?</c>)",
    re.S,
)
_PLAIN_REF = re.compile(
    r"(?:'(?:[^']|'')+'|[A-Za-z_][\w.]*)!\$?[A-Z]+\$?[0-9]+(?::\$?[A-Z]+\$?[0-9]+)?")
_SHARED = re.compile(r'si="([0-9]+)"')
_TEXT_RUN = re.compile(r"<t(?: [^>]*)?>([^<]*)</t>")
_XML_BAD = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")


def text_paragraphs(escaped: str) -> str:
    """An xlsx cell's text (XML-escaped, Excel's ``_xHHHH_`` escapes) as the
    content of ODF paragraphs: spaces kept (``<text:s/>``), tabs and line
    breaks as ODF writes them."""
    if not ("  " in escaped or escaped[:1] == " " or escaped[-1:] == " " or "_x" in escaped
            or "\t" in escaped or "\n" in escaped or "\r" in escaped):
        return escaped

    def char(m: re.Match[str]) -> str:
        c = chr(int(m.group(1), 16))
        return m.group() if _XML_BAD.match(c) else escape(c, quote=False)

    text = re.sub(r"_x([0-9A-Fa-f]{4})_", char, escaped)
    text = re.sub(r"(?<= ) +|^ +", lambda m: f'<text:s text:c="{len(m.group())}"/>', text)
    text = text.replace("\t", "<text:tab/>").replace("\r\n", "\n").replace("\r", "\n")
    return text.replace("\n", "</text:p><text:p>")


class RenderedRows:
    """Sheets' rows rendered as ODF (the Candidates sheets,
    :mod:`core.io.workbook.ods_candidates`), by sheet name: iterables of
    ``<table:table-row>`` elements, consumed as the ``.ods`` is written
    (a generator renders its rows only then)."""

    def __init__(self) -> None:
        self.rows: dict[str, Iterable[str]] = {}

    def keep(self, sheet: str, rows: Iterable[str]) -> None:
        """``rows`` are ``sheet``'s rows after its first."""
        self.rows[sheet] = rows


def _split(columns: list[tuple[int, int, float, str | None, bool]],
           coloured: list[tuple[Range, int | str]],
           ) -> list[tuple[int, int, float, str | None, bool]]:
    """The xlsx's column groups (adjacent columns of one width and style
    are one ``<col>``) cut where a coloured range starts or ends inside
    one: each part then takes its own colours as its cells' default (the
    Annotators sheet's annotators' columns, each with its marks' rules)."""
    out: list[tuple[int, int, float, str | None, bool]] = []
    for lo, hi, width, style, hidden in columns:
        cuts = sorted({lo, hi + 1} | {c for (_, c0, _, c1), k in coloured if isinstance(k, int)
                                      for c in (c0, c1 + 1) if lo < c <= hi})
        out += [(a, b - 1, width, style, hidden) for a, b in pairwise(cuts)]
    return out


class _Sheet:
    """One worksheet's conversion: its head (columns, frozen pane) and tail
    (merges, protection, print area) and its rows as ODF."""

    def __init__(self, name: str, head: str, tail: str, shared_strings: list[str],
                 colours: Colours | None = None) -> None:
        self.name = name
        self.strings = shared_strings
        self.masters: dict[str, tuple[str, tuple[int, ...], int]] = {}
        self.spans: dict[tuple[int, int], tuple[int, int]] = {}
        self.covered: set[tuple[int, int]] = set()
        for ref in re.findall(r'<mergeCell ref="([^"]+)"', tail):
            r0, c0, r1, c1 = cell_range(ref)
            self.spans[(r0, c0)] = (r1 - r0 + 1, c1 - c0 + 1)
            self.covered.update((r, c) for r in range(r0, r1 + 1) for c in range(c0, c1 + 1)
                                if (r, c) != (r0, c0))
        self.protected = "<sheetProtection" in tail
        self.validations = validations(name, tail)
        pane = re.search(r'<pane (?:xSplit="([0-9]+)" )?(?:ySplit="([0-9]+)" )?[^>]*state="frozen"',
                         head)
        self.frozen = (int(pane.group(1) or 0), int(pane.group(2) or 0)) if pane else (0, 0)
        # Fitted to one page tall (worksheet.fit_to_pages(1, 1): the xlsx
        # leaves fitToHeight at its default, 1); the others, one page wide.
        setup = re.search(r"<pageSetup\b[^>]*>", tail)
        self.one_page = 'fitToPage="1"' in head and not (
            setup is not None and 'fitToHeight="0"' in setup.group(0))
        self.columns: list[tuple[int, int, float, str | None, bool]] = []
        for col in re.findall(r"<col\b[^>]*/>", head):
            a = dict(re.findall(r'(\w+)="([^"]*)"', col))
            self.columns.append((int(a["min"]) - 1, int(a["max"]) - 1, float(a.get("width", 8.43)),
                                 a.get("style"), a.get("hidden") == "1"))
        self.styled = {c for lo, hi, _, style, _ in self.columns if style
                       for c in range(lo, hi + 1)}
        # Conditional colours: a column wholly in a coloured range takes its
        # conditions as its cells' default (rows rendered without a style).
        self.coloured = colours.ranges(tail, name) if colours is not None else []
        self.columns = _split(self.columns, self.coloured)
        self.column_colour = {lo: k for lo, hi, *_ in self.columns
                              for (_, c0, _, c1), k in self.coloured
                              if c0 <= lo and hi <= c1 and isinstance(k, int)}
        self.styled |= {c for lo, hi, *_ in self.columns if lo in self.column_colour
                        for c in range(lo, hi + 1)}
        self.row = 0  # the next sheet row (0-based) to write
        # Manual page breaks (the Report's charts page): the xlsx's <brk id>
        # is the last row above one, 1-based; the row after starts a page.
        self.breaks = {int(b) for b in re.findall(r'<brk id="([0-9]+)"', tail)}

    def rows(self, xml: str) -> Iterator[str]:
        """The ODF of the rows in ``xml`` (whole ``<row>`` elements)."""
        out: list[str] = []
        put = out.append
        col = 0
        open_row = False
        for m in _ITEM.finditer(xml):
            if m.group(1) is not None:
                if open_row:
                    put("</table:table-row>")
                r = int(m.group(1)) - 1
                if r > self.row:
                    put(self._blank_rows(self.row, r))
                put(self._row_start(m.group(2), r))
                self.row, col = r + 1, 0
                open_row = m.group(3) != "/"
                if not open_row:
                    put("<table:table-cell/></table:table-row>")
                continue
            c = column(m.group(4))
            if c > col:
                put(f'<table:table-cell table:number-columns-repeated="{c - col}"/>')
            put(self._cell(m, self.row - 1, c))
            col = c + 1
        if open_row:
            put("</table:table-row>")
        yield "".join(out)

    def cells_from(self, xml: str, r: int, col: int) -> str:
        """The ODF of the cells in ``xml`` (``<c>`` elements of sheet row
        ``r``, none left of column ``col``), after the row's first ``col`` cells."""
        out = []
        for m in _ITEM.finditer(xml):
            if m.group(4) is None:
                continue
            c = column(m.group(4))
            if c > col:
                out.append(f'<table:table-cell table:number-columns-repeated="{c - col}"/>')
            out.append(self._cell(m, r - 1, c))
            col = c + 1
        return "".join(out)

    def _blank_rows(self, start: int, end: int) -> str:
        """Rows ``start`` to ``end`` (excluded) the xlsx leaves out, a page
        break among them kept."""
        out, at = [], start
        for b in [*sorted(r for r in self.breaks if start <= r < end), end]:
            if b > at:
                out.append(f'<table:table-row table:number-rows-repeated="{b - at}">'
                           "<table:table-cell/></table:table-row>")
            if b < end:
                out.append(f'<table:table-row table:style-name="{_BREAK}">'
                           "<table:table-cell/></table:table-row>")
            at = b + 1
        return "".join(out)

    def _row_start(self, attrs: str, r: int) -> str:
        brk = r in self.breaks
        if not attrs and not brk:
            return "<table:table-row>"
        out = "<table:table-row"
        ht = re.search(r'ht="([0-9.]+)"', attrs)
        if ht:
            out += f' table:style-name="ro{ht.group(1).replace(".", "_")}{_BREAK if brk else ""}"'
        elif brk:
            out += f' table:style-name="{_BREAK}"'
        if 'hidden="1"' in attrs:
            out += ' table:visibility="collapse"'
        return out + ">"

    def _formula(self, attrs: str, body: str | None, r: int, c: int) -> str:
        si = _SHARED.search(attrs) if attrs else None
        if body:
            text = translate(unescape(body))
            if si is not None:
                self.masters[si.group(1)] = (*shifted(escape(text), r), c)
            return escape(text)
        if si is None or si.group(1) not in self.masters:
            raise ValueError(f"{self.name}: a shared formula before its first cell")
        template, offsets, master_col = self.masters[si.group(1)]
        if c != master_col:
            raise ValueError(f"{self.name}: a formula shared across columns")
        return template.format(*(r + o for o in offsets))

    def _cell(self, m: re.Match[str], r: int, c: int) -> str:
        style, kind, f_attrs, f_body, value, inline = m.group(6, 7, 8, 9, 10, 11)
        tag = "table:covered-table-cell" if self.covered and (r, c) in self.covered \
            else "table:table-cell"
        out = "<" + tag
        name = f"ce{style}" if style and style != "0" else "ce0" if c in self.styled else ""
        for (r0, c0, r1, c1), k in self.coloured:
            if r0 <= r <= r1 and c0 <= c <= c1:
                name = f"{name or 'ce0'}k{k}"
                break
        if name:
            out += f' table:style-name="{name}"'
        if self.validations:
            for name, (r0, c0, r1, c1) in self.validations:
                if r0 <= r <= r1 and c0 <= c <= c1:
                    out += f' table:content-validation-name="{name}"'
                    break
        span = self.spans.get((r, c)) if self.spans else None
        if span is not None:
            out += (f' table:number-rows-spanned="{span[0]}" '
                    f'table:number-columns-spanned="{span[1]}"')
        if f_attrs is not None or f_body:
            out += f' table:formula="{self._formula(f_attrs or "", f_body, r + 1, c)}"'
        text = None
        if kind is None:
            if value:
                out += f' office:value-type="float" office:value="{value}"'
            elif f_attrs is not None or f_body:
                out += ' office:value-type="string" office:string-value=""'
        elif kind == "inlineStr":
            text = "".join(_TEXT_RUN.findall(inline or ""))
            out += ' office:value-type="string"'
        elif kind == "s":
            text = self.strings[int(value or 0)]
            out += ' office:value-type="string"'
        elif kind == "b":
            truth = "true" if value == "1" else "false"
            out += f' office:value-type="boolean" office:boolean-value="{truth}"'
        else:  # str, e: a formula's text (or error) result
            text = value or ""
            out += f' office:value-type="string" office:string-value="{escape(unescape(text))}"'
        if text:
            return f"{out}><text:p>{text_paragraphs(text)}</text:p></{tag}>"
        return out + "/>"

    def start(self, style: str) -> str:
        """The ``<table:table>`` start and its columns."""
        out = f'<table:table table:name="{escape(self.name)}" table:style-name="{style}"'
        if self.protected:
            out += ' table:protected="true"'
        out += ">"
        at = 0
        for lo, hi, width, default, hidden in self.columns:
            if lo > at:
                out += f'<table:table-column table:number-columns-repeated="{lo - at}"/>'
            out += f'<table:table-column table:style-name="co{_width_key(width)}"'
            if hi > lo:
                out += f' table:number-columns-repeated="{hi - lo + 1}"'
            colour = self.column_colour.get(lo)
            if colour is not None:
                out += f' table:default-cell-style-name="ce{default or 0}k{colour}"'
            elif default:
                out += f' table:default-cell-style-name="ce{default}"'
            if hidden:
                out += ' table:visibility="collapse"'
            out += "/>"
            at = hi + 1
        if not self.columns:
            out += "<table:table-column/>"
        return out


def carried_rows(rows: Iterable[str], cells: dict[int, str], first_col: int) -> Iterator[str]:
    """Rendered ODF rows (sheet rows 2, 3, ... in order) with the cells people
    added appended to theirs: ``cells`` holds, by sheet row, the xlsx XML of
    the cells (from column ``first_col`` on) that
    :class:`core.io.workbook.carry.CandidateExtras` writes into an xlsx row."""
    if not cells:
        yield from rows
        return
    convert = _Sheet("", "", "", [])
    r = 1
    for batch in rows:
        pieces = batch.split("</table:table-row>")
        for i in range(len(pieces) - 1):
            r += 1
            xml = cells.get(r)
            if xml is not None:
                pieces[i] += convert.cells_from(xml, r, first_col)
        yield "</table:table-row>".join(pieces)


def _width_key(width: float) -> str:
    return f"{width:.4f}".replace(".", "_")


def _width_inches(width: float) -> float:
    """An Excel column width (characters of Calibri 11) in inches: Excel's
    pixel rule (7 pixels a character and 5 of padding) at 96 pixels an inch."""
    return int(width * 7 + 5) / 96


_HEIGHT = re.compile(rb' ht="([0-9.]+)"')
#: The row style (and the suffix of a height's) that starts a printed page.
_BREAK = "pb"


def _scan(src: zipfile.ZipFile, part: str) -> tuple[str, str, set[str]]:
    """A worksheet part's head (up to ``<sheetData>``), tail (after it: merges
    and protection come after the rows) and row heights, in one pass that
    keeps none of the rows."""
    head: str | None = None
    buf = tail = b""
    heights: set[str] = set()
    carry = b""
    with src.open(part) as fh:
        while piece := fh.read(_PIECE):
            data = carry + piece
            if head is None:
                buf += piece
                at = buf.find(b"<sheetData")
                if at >= 0:
                    head, buf = buf[:at].decode("utf-8"), b""
            heights.update(h.decode() for h in _HEIGHT.findall(data))
            at = data.rfind(b"</sheetData>")
            if at >= 0:
                tail, carry = data[at:], b""
            elif tail:
                tail += piece
            else:
                carry = data[-64:]
    return head if head is not None else buf.decode("utf-8"), tail.decode("utf-8"), heights


def _row_pieces(src: zipfile.ZipFile, part: str) -> Iterator[str]:
    """A worksheet part's rows in pieces of whole ``<row>`` elements."""
    with src.open(part) as fh:
        rest = b""
        while b"<sheetData" not in rest:
            piece = fh.read(_PIECE)
            if not piece:
                return
            rest += piece
        rest = rest[rest.find(b"<sheetData"):]
        while True:
            end = rest.rfind(b"</row>")
            more = fh.read(_PIECE) if end < 0 or len(rest) < _PIECE else b""
            if more:
                rest += more
                continue
            if end < 0:
                return
            yield rest[: end + 6].decode("utf-8")
            rest = rest[end + 6:]


_Names = list[tuple[str, str, int | None]]


def _workbook(src: zipfile.ZipFile) -> tuple[list[tuple[str, str, bool]], _Names, int]:
    """The sheets (name, part, hidden), the defined names (name, reference,
    local sheet) and the active sheet of an xlsx."""
    book = src.read("xl/workbook.xml").decode("utf-8")
    rels = src.read("xl/_rels/workbook.xml.rels").decode("utf-8")
    target = {}
    for tag in re.findall(r"<Relationship\b[^>]*>", rels):
        a = dict(re.findall(r'(\w+)="([^"]*)"', tag))
        target[a["Id"]] = a["Target"]
    sheets = []
    for tag in re.findall(r"<sheet\b[^>]*/>", book):
        a = dict(re.findall(r'([\w:]+)="([^"]*)"', tag))
        part = target[a["r:id"]].lstrip("/")
        sheets.append((unescape(a["name"]), part if part.startswith("xl/") else "xl/" + part,
                       a.get("state") in ("hidden", "veryHidden")))
    names = []
    for attrs, ref in re.findall(r"<definedName\b([^>]*)>([^<]*)</definedName>", book):
        a = dict(re.findall(r'(\w+)="([^"]*)"', attrs))
        local = int(a["localSheetId"]) if "localSheetId" in a else None
        names.append((unescape(a["name"]), unescape(ref), local))
    active = re.search(r'activeTab="([0-9]+)"', book)
    return sheets, names, int(active.group(1)) if active else 0


def _shared_strings(src: zipfile.ZipFile) -> list[str]:
    try:
        xml = src.read("xl/sharedStrings.xml").decode("utf-8")
    except KeyError:
        return []
    return ["".join(_TEXT_RUN.findall(si)) for si in re.findall(r"<si>(.*?)</si>", xml, re.S)]


def _named(names: _Names, sheets: list[str]) -> tuple[str, dict[int, str]]:
    """The named ranges and expressions, and each sheet's print range."""
    out = []
    prints: dict[int, str] = {}
    for name, ref, local in names:
        if name == "_xlnm.Print_Area" and local is not None:
            prints[local] = " ".join(range_address(r) for r in ref.split(","))
            continue
        if name.startswith("_xlnm."):
            continue
        bare = ref[1:] if ref.startswith("=") else ref
        if _PLAIN_REF.fullmatch(bare):
            address = range_address(bare)
            base = address.split(":")[0]
            out.append(f'<table:named-range table:name="{escape(name)}" '
                       f'table:base-cell-address="{escape(base)}" '
                       f'table:cell-range-address="{escape(address)}"/>')
        else:
            out.append(f'<table:named-expression table:name="{escape(name)}" '
                       f'table:base-cell-address="${quoted(sheets[0])}.$A$1" '
                       f'table:expression="{escape(translate(bare))}"/>')
    body = f"<table:named-expressions>{''.join(out)}</table:named-expressions>" if out else ""
    return body, prints


def xlsx_to_ods(xlsx: Path, out: Any, rendered: RenderedRows | None = None) -> None:
    """Write the ``.ods`` of the workbook ``xlsx`` (written by our export)
    into ``out`` (a binary file), with the rows of ``rendered`` after their
    sheets' header rows."""
    with zipfile.ZipFile(xlsx) as src:
        sheets, names, active = _workbook(src)
        strings = _shared_strings(src)
        styles_xml = src.read("xl/styles.xml").decode("utf-8")
        colours = Colours(styles_xml)  # (the conditional colours: each sheet's rules)
        named, prints = _named(names, [s for s, _, _ in sheets])
        built = []
        heights: set[str] = set()
        checks: dict[str, str] = {}  # the lists of choices, by name
        right: str | None = None  # (the page header's right part: every sheet's is one)
        for name, part, _ in sheets:
            head, tail, found = _scan(src, part)
            right = _header_right(tail) if right is None else right
            built.append(_Sheet(name, head, tail, strings, colours))
            heights |= found
            checks = {**validation_definitions(name, tail), **checks}
        widths = {w for sheet in built for _, _, w, _, _ in sheet.columns}
        automatic = _automatic_styles(styles_xml, widths, heights, colours)
        settings = _settings([(s.name, s.frozen) for s in built],
                             sheets[active][0] if sheets else "")
        rows = rendered.rows if rendered is not None else {}

        def body() -> Iterator[str]:
            if checks:
                yield f"<table:content-validations>{''.join(checks.values())}" \
                      "</table:content-validations>"
            for i, ((name, part, hidden), sheet) in enumerate(zip(sheets, built, strict=True)):
                start = sheet.start("ta_hidden" if hidden else
                                    "ta_page" if sheet.one_page else "ta")
                if i in prints:
                    start = start.replace(">", f' table:print-ranges="{escape(prints[i])}">', 1)
                yield start
                for piece in _row_pieces(src, part):
                    yield from sheet.rows(piece)
                if name in rows:
                    yield from rows[name]
                    sheet.row += 1
                if sheet.row == 0:
                    yield "<table:table-row><table:table-cell/></table:table-row>"
                yield "</table:table>"

        styles = _styles(right or "", colours)
        _write_package(out, body(), automatic, named, settings, styles)


def _automatic_styles(styles_xml: str, widths: set[float], heights: set[str],
                      colours: Colours) -> str:
    cells, _ = cell_styles(styles_xml)
    out = ['<style:style style:name="ta" style:family="table" style:master-page-name="Default">'
           '<style:table-properties table:display="true"/>'
           '</style:style>',
           '<style:style style:name="ta_hidden" style:family="table">'
           '<style:table-properties table:display="false"/></style:style>',
           # printed on one page, as the xlsx's Conventions sheet
           '<style:style style:name="ta_page" style:family="table" '
           'style:master-page-name="OnePage">'
           '<style:table-properties table:display="true"/>'
           '</style:style>']
    out.extend(f'<style:style style:name="co{_width_key(w)}" style:family="table-column">'
               f'<style:table-column-properties style:column-width="{_width_inches(w):.4f}in"/>'
               "</style:style>" for w in sorted(widths))
    for brk in ("", _BREAK):  # each height, and each starting a printed page
        page = ' fo:break-before="page"' if brk else ""
        out.extend(f'<style:style style:name="ro{h.replace(".", "_")}{brk}" '
                   f'style:family="table-row"><style:table-row-properties '
                   f'style:row-height="{h}pt" style:use-optimal-row-height="false"{page}/>'
                   "</style:style>" for h in sorted(heights))
    out.append(f'<style:style style:name="{_BREAK}" style:family="table-row">'
               '<style:table-row-properties style:use-optimal-row-height="true" '
               'fo:break-before="page"/></style:style>')
    return "".join(out) + cells + colours.automatic(cells)


def _settings(frozen: list[tuple[str, tuple[int, int]]], active: str) -> str:
    """settings.xml: the active sheet and each sheet's frozen rows and columns."""
    def item(name: str, kind: str, value: object) -> str:
        return (f'<config:config-item config:name="{name}" config:type="{kind}">{value}'
                "</config:config-item>")

    tables = []
    for name, (cols, rows) in frozen:
        if not (cols or rows):
            continue
        tables.append(
            f'<config:config-item-map-entry config:name="{escape(name)}">'
            + item("HorizontalSplitMode", "short", 2 if cols else 0)
            + item("VerticalSplitMode", "short", 2 if rows else 0)
            + item("HorizontalSplitPosition", "int", cols)
            + item("VerticalSplitPosition", "int", rows)
            + item("ActiveSplitRange", "short", 2)
            + item("PositionLeft", "int", 0) + item("PositionRight", "int", cols)
            + item("PositionTop", "int", 0) + item("PositionBottom", "int", rows)
            + "</config:config-item-map-entry>")
    return (f'{_HEAD}<office:document-settings {_NS}><office:settings>'
            '<config:config-item-set config:name="ooo:view-settings">'
            '<config:config-item-map-indexed config:name="Views"><config:config-item-map-entry>'
            + item("ViewId", "string", "view1")
            + f'<config:config-item-map-named config:name="Tables">{"".join(tables)}'
            "</config:config-item-map-named>"
            + item("ActiveTable", "string", escape(active))
            + "</config:config-item-map-entry></config:config-item-map-indexed>"
            "</config:config-item-set></office:settings></office:document-settings>")


def _page_layout(name: str, pages_tall: int) -> str:
    """A landscape A4 page layout, one page wide and ``pages_tall`` (0: as
    many as the sheet needs)."""
    return (f'<style:page-layout style:name="{name}"><style:page-layout-properties '
            'fo:page-width="11.69in" fo:page-height="8.27in" style:print-orientation="landscape" '
            f'fo:margin="0.4in" style:scale-to-X="1" style:scale-to-Y="{pages_tall}" '
            # (the pages go on numbering from the sheet before: a change of
            # page style restarts them at 1 otherwise)
            'style:first-page-number="continue"/>'
            '<style:header-style><style:header-footer-properties fo:min-height="0.2in" '
            'fo:margin-bottom="0.1in"/></style:header-style>'
            '<style:footer-style><style:header-footer-properties fo:min-height="0.2in" '
            'fo:margin-top="0.1in"/></style:footer-style></style:page-layout>')


def _master_page(name: str, layout: str, right: str) -> str:
    # As the xlsx's page header and footer (core.io.workbook.page.print_setup):
    # the file's name, the sheet, the header's right part (the judgment
    # version), and "Page n of m".
    return (f'<style:master-page style:name="{name}" style:page-layout-name="{layout}">'
            '<style:header><style:region-left><text:p><text:file-name '
            'text:display="name-and-extension"/></text:p></style:region-left>'
            '<style:region-center><text:p><text:sheet-name/></text:p></style:region-center>'
            f'<style:region-right><text:p>{escape(right, quote=False)}</text:p>'
            '</style:region-right>'
            '</style:header><style:footer><style:region-center><text:p>Page '
            '<text:page-number/> of <text:page-count/></text:p></style:region-center>'
            '</style:footer></style:master-page>')


#: A code of an xlsx page header (``&&`` is a literal ``&``).
_HEADER_CODE = re.compile(r"&&|&[0-9]+|&.|[^&]+", re.S)


def _header_right(tail: str) -> str | None:
    """The literal text of the right part of the page header in a worksheet
    part's ``tail`` (the codes dropped, ``&&`` read as ``&``); None without
    a header."""
    m = re.search(r"<oddHeader>([^<]*)</oddHeader>", tail)
    if m is None:
        return None
    part, right = "", []
    for code in _HEADER_CODE.findall(unescape(m.group(1))):
        if code in ("&L", "&C", "&R"):
            part = code
        elif part == "&R" and (code == "&&" or not code.startswith("&")):
            right.append(code[0] if code == "&&" else code)
    return "".join(right)


def _styles(right: str, colours: Colours) -> str:
    """``styles.xml``: two page layouts (as many pages long as it takes, one
    page), their header's right part ``right``."""
    return (f'{_HEAD}<office:document-styles {_NS}><office:styles>'
            '<style:default-style style:family="table-cell">'
            '<style:text-properties style:font-name="Liberation Sans" fo:font-size="10pt"/>'
            '</style:default-style>'
            '<style:style style:name="Default" style:family="table-cell"/>'
            + colours.common() +
            "</office:styles><office:automatic-styles>"
            + _page_layout("pm1", 0) + _page_layout("pm2", 1)
            + "</office:automatic-styles><office:master-styles>"
            + _master_page("Default", "pm1", right) + _master_page("OnePage", "pm2", right)
            + "</office:master-styles></office:document-styles>")
_MANIFEST = ('<?xml version="1.0" encoding="UTF-8"?>\n<manifest:manifest '
             'xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" '
             'manifest:version="1.3">'
             f'<manifest:file-entry manifest:full-path="/" manifest:version="1.3" '
             f'manifest:media-type="{MIMETYPE}"/>'
             + "".join(f'<manifest:file-entry manifest:full-path="{p}" '
                       'manifest:media-type="text/xml"/>'
                       for p in ("content.xml", "styles.xml", "meta.xml", "settings.xml"))
             + "</manifest:manifest>")
_META = (f'{_HEAD}<office:document-meta {_NS}><office:meta>'
         "<meta:generator>ndcg-worksheet</meta:generator></office:meta></office:document-meta>")


def _write_package(out: Any, body: Iterator[str], automatic: str, named: str,
                   settings: str, styles: str) -> None:
    """The zip: the mimetype first and stored (as ODF requires), then the parts."""
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as z:
        z.writestr(zipfile.ZipInfo("mimetype"), MIMETYPE, compress_type=zipfile.ZIP_STORED)
        z.writestr("META-INF/manifest.xml", _MANIFEST)
        z.writestr("meta.xml", _META)
        z.writestr("styles.xml", styles)
        z.writestr("settings.xml", settings)
        with z.open("content.xml", "w", force_zip64=True) as fh:
            fh.write((f"{_HEAD}<office:document-content {_NS}><office:automatic-styles>"
                      f"{automatic}</office:automatic-styles><office:body><office:spreadsheet>"
                      ).encode())
            for piece in body:
                fh.write(piece.encode("utf-8"))
            fh.write(f"{named}</office:spreadsheet></office:body>"
                     "</office:document-content>".encode())
