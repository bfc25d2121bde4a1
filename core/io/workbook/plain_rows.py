"""The Candidates cells reopening needs, read straight from the sheet's XML
when the sheet is written as the export writes it.

A workbook as exported (and not saved again by a spreadsheet program) holds
every text as an inline string and every grade as a plain number or text;
its rows can be read in one streaming pass over the part, taking only the
query, source, current grade and note cells, without a parser building the
whole sheet (1,000,000 candidates are 27,000,000 cells, 1.6 GB of XML).
Every row must be in that simple form, in order: the first that is not
(shared strings, as Excel and LibreOffice save them, a formula in a grade
cell, an escape this reader does not undo, a row out of order) makes
:func:`read_plain_candidates` return None, and the caller reads the sheet
with python-calamine instead. For the simple forms the values are those
calamine gives: text as written (XML's five entities undone), numbers as
floats, an empty cell as ``""``.
"""

from __future__ import annotations

import re
import zipfile
import zlib
from pathlib import Path
from typing import Any

from core.io.safety.parts import read_ahead, stream_part
from core.io.workbook.edits import CandidateCells

#: A cell after its reference: an optional style, then an inline string
#: (its text), a number or nothing (three groups, one of them set).
_BODY = (rb'(?: s="\d+")?(?: t="inlineStr"><is><t(?: xml:space="preserve")?>([^<]*)</t></is></c>'
         rb'|><v>(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)</v></c>|(/)>)')
#: A cell this reader skips (version, score, original grade, state); it
#: cannot reach past its row.
_SKIP = rb'<c r="%s\1"[^>]*?(?:/>|>[^<]*(?:<(?!/c>|/?row)[^<]*)*</c>)'
_ROW = re.compile(
    rb'<row r="(\d+)"[^>]*>'
    rb'<c r="A\1"' + _BODY + rb'<c r="B\1"' + _BODY
    + rb"(?:" + _SKIP % rb"[CDE]" + rb")*"
    + rb'<c r="F\1"' + _BODY
    + rb"(?:" + _SKIP % rb"G" + rb")?"
    + rb'<c r="H\1"' + _BODY,
)
_ENTITIES = ((b"&lt;", b"<"), (b"&gt;", b">"), (b"&quot;", b'"'), (b"&apos;", b"'"),
             (b"&amp;", b"&"))
#: Excel's escape of a character (``_x000D_``), which readers undo.
_ESCAPE = re.compile(rb"_[xX][0-9A-Fa-f]{4}_")
_ROW_START, _ROW_END = b"<row ", b"</row>"
#: More XML than any row the export writes (27 cells, two texts of at most
#: 32,767 characters) without a row's end: left to calamine.
_LONGEST_ROW = 16 << 20


class _NotPlain(Exception):
    """A cell or row this reader does not read: the caller parses the sheet."""


def read_plain_candidates(path: str | Path, part: str, name: str) -> CandidateCells | None:
    """The Candidates sheet's query, source, current-grade and note cells,
    or None when the sheet is not written as the export writes it (see the
    module's text). The part's CRC is checked as a zip reader checks it."""
    cells = CandidateCells()
    add = (cells.query.extend, cells.source.extend, cells.grade.extend, cells.note.extend)
    expected = 1  # the header row first
    crc = 0
    with zipfile.ZipFile(path) as zf:
        info = zf.getinfo(part)
        carry = b""
        for chunk in read_ahead(stream_part(zf, info, name)):
            crc = zlib.crc32(chunk, crc)
            buf = carry + chunk
            end = buf.rfind(_ROW_END)
            if end < 0:
                if len(buf) > _LONGEST_ROW:  # no row of the export is this long
                    return None
                carry = buf
                continue
            end += len(_ROW_END)
            try:
                expected = _rows(buf, end, expected, add)
            except _NotPlain:
                return None
            carry = buf[end:]
    if crc != info.CRC or _ROW_START in carry:
        return None
    return cells


def _rows(buf: bytes, end: int, expected: int, add: tuple[Any, ...]) -> int:
    """Read the rows that start before ``end`` (each complete); returns the
    next row number expected."""
    start = buf.find(_ROW_START, 0, end)
    if start < 0:
        return expected
    if expected == 1:  # the header: its cells are not read
        if not buf.startswith(b'<row r="1"', start):
            raise _NotPlain
        expected, start = 2, buf.find(_ROW_START, start + 1, end)
        if start < 0:
            return expected
    rows = [m.groups() for m in _ROW.finditer(buf, start, end)]
    # Every row read (one match per row, none skipped), in order:
    if len(rows) != buf.count(_ROW_START, start, end) or [
            int(r[0]) for r in rows] != list(range(expected, expected + len(rows))):
        raise _NotPlain
    try:
        for k in range(4):
            add[k](_column([r[1 + 3 * k] for r in rows], [r[2 + 3 * k] for r in rows]))
    except UnicodeDecodeError:
        raise _NotPlain from None
    return expected + len(rows)


def _column(texts: list[bytes | None], numbers: list[bytes | None]) -> list[Any]:
    """One column's values: text, float or "" (an empty cell)."""
    if None not in texts:  # every cell text: decoded at once
        joined = b"\0".join(texts)  # type: ignore[arg-type]
        special = (b"&" in joined or b"\r" in joined or joined.count(b"\0") != len(texts) - 1
                   or (b"_" in joined and _ESCAPE.search(joined) is not None))
        if not special:
            return joined.decode("utf-8").split("\0")
    return [_text(t) if t is not None else float(n) if n is not None else ""
            for t, n in zip(texts, numbers, strict=True)]


def _text(text: bytes) -> str:
    """An inline string's text as python-calamine gives it."""
    if b"&" in text or b"_" in text or b"\r" in text or b"\0" in text:
        if b"\r" in text or b"\0" in text or _ESCAPE.search(text):
            raise _NotPlain  # an escape (or a line end) a parser would change
        written = text
        for entity, char in _ENTITIES:
            text = text.replace(entity, char)
        if text.count(b"&") != written.count(b"&amp;"):
            raise _NotPlain  # a character reference
    return text.decode("utf-8")
