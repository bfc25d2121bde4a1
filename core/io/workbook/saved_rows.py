"""The Candidates cells reopening needs, read from a sheet a spreadsheet
program saved again (Excel, LibreOffice), without parsing whole rows.

Such a sheet holds its texts as shared strings, every cell with a style and
every formula written out in full: LibreOffice's Candidates sheet is twice
the XML of ours, nearly all of it in the helper columns right of the note.
A parser builds every cell of every row; this reader takes each row's
cells up to the note column (query, source, score, original grade, current
grade, note) with one regular expression and skips the rest of the row
unread. Values are those python-calamine gives for the same cells: shared
and inline strings as text, numbers as floats, booleans, an empty or
missing cell as ``""``. A grade cell holding a formula or an error value is
noted by its row, as :func:`core.io.safety.formula_rows` finds it.

Anything this reader does not read exactly as calamine would (a number in
a date or time format, an escape such as ``_x000D_``, a character
reference, a carriage return, an error value outside the grade column, a
cell or row in a form the pattern does not know, rows out of order) makes
:func:`read_saved_candidates` return None, and the caller parses the sheet
with calamine instead: slower, never different.
"""

from __future__ import annotations

import itertools
import re
import zipfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from core.io.safety import WorkbookCheck
from core.io.safety.limits import column_letters, column_number
from core.io.safety.parts import read_ahead, read_part, stream_part
from core.io.workbook.edits import CandidateCells
from core.io.workbook.layout import COLUMN_INDEX, GRADE_COLUMN, SHEETS

#: The columns read, in CandidateCells' order (query, source, current grade,
#: note, score, original grade), by 0-based index.
_READ = tuple(COLUMN_INDEX[h] for h in ("query", "source id", "current grade", "note",
                                         "predicted score", "original grade"))
_LAST = max(_READ)
_GRADE = COLUMN_INDEX["current grade"]
assert column_letters(_GRADE + 1) == GRADE_COLUMN
#: A cell read: style, type, formula, value, inline string (five groups).
_READ_CELL = (rb'(?:<c r="%s\1"(?: s="(\d+)")?(?: t="(\w+)")?(?:/>|>'
              rb'(<f(?:[^>]*/>|[^>]*>[^<]*</f>))?(?:<v>([^<]*)</v>|<v/>)?'
              rb'(?:<is>([^<]*(?:<(?!/is>)[^<]*)*)</is>)?</c>))?')
#: A cell skipped (it cannot reach past its own end).
_SKIP_CELL = rb'(?:<c r="%s\1"[^>]*(?:(?<=/)>|(?<!/)>[^<]*(?:<(?!/c>|/?row[\s>])[^<]*)*</c>))?'
#: After the cells read: the row's end, or a cell right of them.
_AFTER = rb'(?=</row>|<c r="(?:[%s-Z]|[A-Z]{2,3})\d)' % column_letters(_LAST + 2).encode()
_ROW = re.compile(
    rb'<row r="(\d+)"[^>]*(?:(?<=/)>|(?<!/)>'
    + b"".join((_READ_CELL if k in _READ else _SKIP_CELL) % column_letters(k + 1).encode()
               for k in range(_LAST + 1))
    + _AFTER + b")")
_GROUPS = 5
#: Where each column read starts among a row match's groups (the row's number first).
_AT = tuple(1 + _GROUPS * sorted(_READ).index(k) for k in _READ)
_GRADE_AT = _AT[_READ.index(_GRADE)]
_ENTITIES = ((b"&lt;", b"<"), (b"&gt;", b">"), (b"&quot;", b'"'), (b"&apos;", b"'"),
             (b"&amp;", b"&"))
#: Excel's escape of a character (``_x000D_``), which calamine undoes.
_ESCAPE = re.compile(rb"_[xX][0-9A-Fa-f]{4}_")
_SIMPLE_SI = re.compile(rb'<si><t(?: xml:space="preserve")?>([^<]*)</t></si>')
_SI = re.compile(rb'<si><t(?: xml:space="preserve")?>([^<]*)</t></si>'
                 rb"|<si>([^<]*(?:<(?!/si>)[^<]*)*)</si>|<si/>")
_RUN_TEXT = re.compile(rb"<t(?:\s[^>]*)?>([^<]*)</t>|<t(?:\s[^>]*)?/>")
_PHONETIC = re.compile(rb"<rPh[\s>].*?</rPh>|<phoneticPr[^>]*/>", re.S)
_CELL_XFS = re.compile(rb"<cellXfs[^>]*>(.*?)</cellXfs>", re.S)
_XF = re.compile(rb"<xf\s([^>]*?)/?>")
_NUM_FMT_ID = re.compile(rb'\snumFmtId="(\d+)"|^numFmtId="(\d+)"')
_NUM_FMT = re.compile(rb'<numFmt\s+numFmtId="(\d+)"\s+formatCode="([^"]*)"')
#: Built-in number formats calamine reads as plain numbers (not dates, times
#: or durations).
_PLAIN_BUILTIN = frozenset({*range(0, 14), *range(37, 45), 48, 49})
#: A custom format's parts that never make a date: quoted text, escaped
#: characters and bracketed conditions or colours (not ``[h]``, a duration).
_FORMAT_LITERALS = re.compile(r'"[^"]*"|\\.|_.|\[(?![hHmMsS]+\])[^\]]*\]')
_PLAIN_FORMAT = re.compile(r"[0#?.,%Ee+\-;@ ]*")
#: More XML than a Candidates row holds (our cells and a person's, each text
#: at most 32,767 characters) without a row's end: left to calamine.
_LONGEST_ROW = 16 << 20


class _NotSimple(Exception):
    """A cell this reader does not read as calamine does: parse the sheet."""


def read_saved_candidates(path: str | Path, check: WorkbookCheck, name: str,
                          ) -> tuple[CandidateCells, set[int]] | None:
    """The Candidates sheet's cells that reopening reads (with the score and
    original-grade columns) and the sheet rows whose grade cell holds a
    formula or an error value; None when some cell is not in a form this
    reader knows (see the module's text), or the workbook names more than
    one shared-strings or styles part."""
    if len(check.strings) > 1 or len(check.styles) > 1:
        return None
    part = check.parts[SHEETS["candidates"]]
    with zipfile.ZipFile(path) as zf:
        try:
            sst = _shared_strings(zf, check.strings[0], name) if check.strings else []
            plain = (_plain_styles(zf, check.styles[0], name) if check.styles
                     else frozenset({b"0"}))
            if sst is None or plain is None:
                return None
            rows = _Rows(sst, plain)
            if not _read_rows(stream_part(zf, zf.getinfo(part), name), rows.read):
                return None
        except (_NotSimple, UnicodeDecodeError):
            return None
    return rows.cells(), rows.formulas


#: A cell of the first row: its column, type, value and inline string.
_HEAD_CELL = re.compile(rb'<c r="([A-Z]{1,3})1"(?: s="\d+")?(?: t="(\w+)")?(?:/>|>'
                        rb'(?:<v>([^<]*)</v>|<v/>)?(?:<is>([^<]*(?:<(?!/is>)[^<]*)*)</is>)?</c>)')
_FIRST_ROW = re.compile(rb'<sheetData>\s*<row r="1"[^>]*(?:(?<=/)>()|(?<!/)>(.*?)</row>)', re.S)
#: More XML than a header row holds (a few dozen columns of names).
_LONGEST_HEADER = 1 << 20


def read_header(path: str | Path, check: WorkbookCheck, sheet: str, name: str,
                ) -> list[str] | None:
    """The texts of ``sheet``'s first row ("" for an empty cell, from
    column A), read from its XML up to the row's end: a few KB of a sheet
    of any length, as calamine reads them. None when that row is not row 1
    or holds a cell not plainly text (a number, a formula, a cell in a form
    this reader does not know), or the workbook names more than one
    shared-strings part."""
    with zipfile.ZipFile(path) as zf:
        chunks = stream_part(zf, zf.getinfo(check.parts[sheet]), name)
        buf = b""
        try:
            for chunk in chunks:
                buf += chunk
                if b"</row>" in buf or b"</sheetData>" in buf or len(buf) > _LONGEST_HEADER:
                    break
        finally:
            chunks.close()
        row = _FIRST_ROW.search(buf)
        if row is None:
            return None
        cells = _HEAD_CELL.findall(row.group(2) or b"")
        if b"".join(_HEAD_CELL.sub(b"", row.group(2) or b"").split()):
            return None  # something this reader does not know
        try:
            shared = {int(v) for _, t, v, _ in cells if t == b"s"}
            sst: dict[int, str] = {}
            if shared:
                found = (_shared_items(zf, check.strings[0], name, shared)
                         if len(check.strings) == 1 else None)
                if found is None:
                    return None
                sst = found
            out: list[str] = []
            for letters, t, v, i in cells:
                c = column_number(letters.decode()) - 1
                if c < len(out):
                    return None  # cells out of order, or one twice
                out.extend([""] * (c - len(out)))
                out.append(_header_text(t, v, i, sst))
        except (_NotSimple, UnicodeDecodeError, IndexError, ValueError):
            return None
    return out


def _header_text(t: bytes, v: bytes, i: bytes, sst: dict[int, str]) -> str:
    if t == b"s":
        return sst[int(v)]
    if t == b"inlineStr":
        return _rich(i)
    if t == b"str":
        return _text(v)
    if not v and not i and t in (b"", b"n"):
        return ""
    raise _NotSimple  # a number, a boolean, an error: calamine's own types


def _read_rows(chunks: Iterator[bytes], read: Callable[[bytes, int], None]) -> bool:
    """Hand each piece's complete rows to ``read`` (the part unpacked on a
    worker thread meanwhile); False when a row is longer than any
    Candidates row can be, or something follows the last row's end."""
    carry = b""
    for chunk in read_ahead(chunks):
        buf = carry + chunk
        end = buf.rfind(b"</row>")
        if end < 0:
            if len(buf) > _LONGEST_ROW:
                return False
            carry = buf
            continue
        end += len(b"</row>")
        read(buf, end)
        carry = buf[end:]
    tail = carry.find(b"</sheetData>")
    return tail >= 0 and b"<row" not in carry[:tail]


class _Rows:
    """The rows read so far: per piece, the sheet rows and their values by
    column (in CandidateCells' order); the grade formulas' rows."""

    def __init__(self, sst: list[str], plain: frozenset[bytes]) -> None:
        self.sst, self.plain = sst, plain
        self.numbers: list[list[int]] = []
        self.columns: list[list[list[Any]]] = []
        self.formulas: set[int] = set()
        self.last = 0

    def read(self, buf: bytes, end: int) -> None:
        """Read the complete rows of ``buf`` before ``end``; _NotSimple for
        anything unknown."""
        found = _ROW.findall(buf, 0, end)
        if len(found) != buf.count(b"<row", 0, end):  # a row the pattern missed
            raise _NotSimple
        if not found:
            return
        groups = list(zip(*found, strict=True))
        numbers = list(map(int, groups[0]))
        consecutive = numbers == list(range(numbers[0], numbers[-1] + 1))
        if numbers[0] <= self.last or (not consecutive and any(
                b <= a for a, b in itertools.pairwise(numbers))):
            raise _NotSimple  # rows out of order, or one twice
        self.last = numbers[-1]
        self.numbers.append(numbers)
        self.columns.append([_values(groups[at:at + _GROUPS], self.sst, self.plain,
                                     grade=at == _GRADE_AT) for at in _AT])
        kinds, formulas = groups[_GRADE_AT + 1], groups[_GRADE_AT + 2]
        if b"e" in kinds or any(formulas):
            self.formulas.update(r for r, t, f in zip(numbers, kinds, formulas, strict=True)
                                 if f or t == b"e")

    def cells(self) -> CandidateCells:
        """The cells by sheet row from row 2, missing rows empty."""
        out = CandidateCells()
        columns = (out.query, out.source, out.grade, out.note, out.score, out.original)
        numbers = [r for piece in self.numbers for r in piece]
        if not numbers:
            return out
        values = [[v for piece in self.columns for v in piece[k]] for k in range(len(columns))]
        if numbers == list(range(numbers[0], numbers[0] + len(numbers))):
            skip = 2 - numbers[0]  # the header row (or empty rows before the first)
            for column, found in zip(columns, values, strict=True):
                column.extend([""] * -skip + found[max(skip, 0):])
            return out
        rows = dict(zip(numbers, zip(*values, strict=True), strict=True))
        empty = ("",) * len(columns)
        taken = [rows.get(r, empty) for r in range(2, numbers[-1] + 1)]
        for k, column in enumerate(columns):
            column.extend(row[k] for row in taken)
        return out


#: The bytes a number's value may hold (Python's float() takes more).
_NUMBER_BYTES = b"0123456789.eE+-"


def _values(cells: Sequence[Sequence[bytes]], sst: list[str], plain: frozenset[bytes],
            *, grade: bool) -> list[Any]:
    """One column's values as calamine gives them (``cells``: the column's
    styles, types, formulas, values and inline strings)."""
    s_, t_, _f, v_, i_ = cells
    strings = t_.count(b"s")
    numbers = t_.count(b"") + t_.count(b"n")
    if strings and not (b"".join(v_) if strings == len(t_) else b"".join(
            v for t, v in zip(t_, v_, strict=True) if t == b"s")).isdigit():
        raise _NotSimple  # a shared string's index that is not one
    if numbers and (b"".join(v_) if numbers == len(t_) else b"".join(
            v for t, v in zip(t_, v_, strict=True) if t in (b"", b"n"))).translate(
                None, _NUMBER_BYTES):
        raise _NotSimple  # a number Python would read and calamine not
    try:
        if strings == len(t_):  # every cell a shared string (the ids)
            return [sst[k] for k in map(int, v_)]
        if numbers == len(t_) and b"" not in v_ and {s or b"0" for s in {*s_}} <= plain:
            return list(map(float, v_))  # every cell a plain number (score, grade)
        return [sst[int(v)] if t == b"s"
                else float(v) if (t == b"" or t == b"n") and v and (s or b"0") in plain
                else "" if not v and not i and t != b"inlineStr"
                else _other(s, t, v, i, plain, grade)
                for s, t, v, i in zip(s_, t_, v_, i_, strict=True)]
    except (IndexError, ValueError):
        raise _NotSimple from None


def _other(s: bytes, t: bytes, v: bytes, i: bytes, plain: frozenset[bytes],
           grade: bool) -> Any:
    """A cell that is not a shared string, a plain number or empty."""
    if t == b"str":
        return _text(v)
    if t == b"inlineStr":
        return _rich(i)
    if t == b"b" and v in (b"0", b"1"):
        return v == b"1"
    if t == b"e" and grade:
        return ""  # refused by its row in the formulas found
    raise _NotSimple


def _text(text: bytes) -> str:
    """A value's text as calamine gives it (the five entities undone)."""
    if b"&" in text or b"_" in text or b"\r" in text:
        if b"\r" in text or b"&#" in text or _ESCAPE.search(text):
            raise _NotSimple
        for entity, char in _ENTITIES:
            text = text.replace(entity, char)
    return text.decode("utf-8")


def _rich(body: bytes) -> str:
    """A string item's text: its runs' texts, phonetic runs left out."""
    body = _PHONETIC.sub(b"", body)
    if b"<rPh" in body:
        raise _NotSimple
    return "".join(_text(m.group(1) or b"") for m in _RUN_TEXT.finditer(body))


def _shared_strings(zf: zipfile.ZipFile, part: str, name: str) -> list[str] | None:
    """The shared strings, by index."""
    data = read_part(zf, zf.getinfo(part), name)
    items = data.count(b"<si")
    texts = _SIMPLE_SI.findall(data)
    if len(texts) == items:  # every item a plain text: undone all at once
        joined = b"\0".join(texts)
        if (joined.count(b"\0") == max(items - 1, 0) and b"\r" not in joined
                and b"&#" not in joined and _ESCAPE.search(joined) is None):
            for entity, char in _ENTITIES:
                if entity in joined:
                    joined = joined.replace(entity, char)
            return joined.decode("utf-8").split("\0") if items else []
    found = _SI.findall(data)
    if len(found) != items or data.count(b"<si>") + data.count(b"<si/>") != items:
        return None
    return [_rich(rich) if rich else _text(text) for text, rich in found]


def _shared_items(zf: zipfile.ZipFile, part: str, name: str, wanted: set[int],
                  ) -> dict[int, str] | None:
    """The shared strings ``wanted``, by index: the part unpacked only up to
    the last of them, and only the pieces holding one parsed (a header's
    few names among 100,000 ids: 0.83 s for every string, 0.25 s)."""
    out: dict[int, str] = {}
    base, carry = 0, b""  # the items before ``carry``
    chunks = stream_part(zf, zf.getinfo(part), name)
    try:
        for chunk in chunks:
            buf = carry + chunk
            end = max(buf.rfind(b"</si>"), buf.rfind(b"<si/>")) + len(b"</si>")
            if end < len(b"</si>"):
                carry = buf
                continue
            n = buf.count(b"<si", 0, end)
            here = [k for k in wanted if base <= k < base + n]
            if here:
                found = _SI.findall(buf, 0, end)
                if len(found) != n:
                    return None
                for k in here:
                    text, rich = found[k - base]
                    out[k] = _rich(rich) if rich else _text(text)
            base, carry = base + n, buf[end:]
            if base > max(wanted):
                break
    finally:
        chunks.close()
    return out if len(out) == len(wanted) else None


def _plain_styles(zf: zipfile.ZipFile, part: str, name: str) -> frozenset[bytes] | None:
    """The cell styles (indices, as written in ``s``) whose number format
    calamine reads as a plain number."""
    data = read_part(zf, zf.getinfo(part), name)
    xfs = _CELL_XFS.search(data)
    if xfs is None:
        return frozenset({b"0"}) if b"<cellXfs" not in data else None
    custom = {int(i): code.decode("utf-8", "replace") for i, code in _NUM_FMT.findall(data)}
    out = set()
    for k, attrs in enumerate(_XF.findall(xfs.group(1))):
        got = _NUM_FMT_ID.search(attrs)
        fmt = int(got.group(1) or got.group(2)) if got else 0
        if fmt in custom:
            if _plain_format(custom[fmt]):
                out.add(str(k).encode())
        elif fmt in _PLAIN_BUILTIN:
            out.add(str(k).encode())
    return frozenset(out)


def _plain_format(code: str) -> bool:
    """Whether a custom number format shows a plain number (no date, time
    or duration letter outside quotes, escapes and brackets)."""
    code = code.replace("&quot;", '"').replace("&amp;", "&")
    bare = _FORMAT_LITERALS.sub("", code)
    return bare.lower() == "general" or _PLAIN_FORMAT.fullmatch(bare) is not None
