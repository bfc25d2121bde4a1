"""Rows and columns a sheet hides (by hand or by a filter), found without
parsing the sheet: an import reads them all the same and says so, since a
reviewer who filtered a sheet in Excel sees fewer rows than are read."""

from __future__ import annotations

import itertools
import re
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from core.io.safety.limits import column_letters
from core.io.safety.parts import stream_part
from core.model.numbers import counted

__all__ = ["HiddenLines", "xlsx_hidden"]

#: A hidden row's or column's attribute (``<row r="4" hidden="1">``).
_HIDDEN = re.compile(rb"""\shidden\s*=\s*["'](?:1|true)["']""")
_ROW_NUMBER = re.compile(rb"""\sr\s*=\s*["'](\d+)["']""")
_SPAN = re.compile(rb"""\s(min|max)\s*=\s*["'](\d+)["']""")
_TAG = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?(row|col)\s")
_FILTER = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?autoFilter[\s>/]")
#: Bytes a row's or column's start tag fits in.
_TAG_ROOM = 4096
#: Rows named one by one in the sentence; the rest are counted.
_NAMED = 6


@dataclass
class HiddenLines:
    """A sheet's hidden rows and columns (1-based) and whether it has a
    filter (Excel's autofilter, LibreOffice's database range's filter)."""

    rows: list[int] = field(default_factory=list)
    columns: list[int] = field(default_factory=list)
    filtered: bool = False

    def within(self, rows: int, columns: int) -> HiddenLines:
        """Only those of the first ``rows`` rows and ``columns`` columns (the
        cells read)."""
        return HiddenLines([r for r in self.rows if r <= rows],
                           [c for c in self.columns if c <= columns], self.filtered)

    def sentence(self) -> str:
        """What the import says (empty when nothing is hidden)."""
        parts = []
        if self.rows:
            named = ", ".join(map(str, self.rows[:_NAMED]))
            more = f" and {len(self.rows) - _NAMED} more" if len(self.rows) > _NAMED else ""
            parts.append(f"{counted(len(self.rows), 'row')} ({named}{more})")
        if self.columns:
            parts.append(f"{counted(len(self.columns), 'column')} ("
                         + ", ".join(column_letters(c) for c in self.columns[:_NAMED])
                         + (" ..." if len(self.columns) > _NAMED else "") + ")")
        if not parts:
            return ""
        why = " (it has a filter)" if self.filtered and self.rows else ""
        return " and ".join(parts) + f" hidden in the sheet{why}: read all the same, as if shown"


def xlsx_hidden(path: str | Path, part: str, name: str) -> HiddenLines:
    """The hidden rows and columns of an .xlsx sheet part, in one streaming
    pass over its bytes (no parse; the workbook passed its checks)."""
    found = HiddenLines()
    with zipfile.ZipFile(path) as zf:
        carry, done = b"", 0
        for chunk in itertools.chain(stream_part(zf, zf.getinfo(part), name), [b""]):
            buf = carry + chunk
            limit = len(buf) - _TAG_ROOM if chunk else len(buf)
            # The usual piece holds neither word: the expressions would cost
            # five times its unpacking.
            if b"utoFilter" in buf:
                found.filtered = found.filtered or _FILTER.search(buf) is not None
            for m in _HIDDEN.finditer(buf, done) if b"hidden" in buf else ():
                if m.start() >= limit:
                    break
                _take(buf, m.start(), found)
            cut = max(limit - _TAG_ROOM, 0)
            carry, done = (buf[cut:], max(limit, 0) - cut) if chunk else (b"", 0)
    found.rows.sort()
    found.columns.sort()
    return found


def _take(buf: bytes, at: int, found: HiddenLines) -> None:
    """The row or column whose start tag holds the attribute at ``at``."""
    start = buf.rfind(b"<", 0, at)
    tag = _TAG.match(buf, start) if start >= 0 else None
    if tag is None or buf.find(b">", start, at) >= 0:
        return
    end = buf.find(b">", at)
    if tag.group(1) == b"row":
        number = _ROW_NUMBER.search(buf, start, end)
        if number is not None:
            found.rows.append(int(number.group(1)))
        return
    span = {k.decode(): int(v) for k, v in _SPAN.findall(buf, start, end)}
    if "min" in span:
        last = min(span.get("max", span["min"]), span["min"] + 16384)
        found.columns.extend(range(span["min"], last + 1))
