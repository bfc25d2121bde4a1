"""Each sheet's declared dimension and used area, within Excel's limits and
within what the sheet's bytes can hold (a reader allocates the whole used
area), and whether it holds formulas."""

from __future__ import annotations

import io
import itertools
import re
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO, Any

from core.errors import InputError
from core.io.safety.limits import (
    EXCEL_MAX_COLUMNS,
    EXCEL_MAX_ROWS,
    cells_allowed,
    column_letters,
    limit_error,
    parse_ref,
)
from core.io.safety.parts import iter_events, open_part, stream_part, xml_error
from core.io.safety.scan import scan_plain
from core.io.stop import Stopped

#: A formula element, or a cell of type "e" (an error value such as #DIV/0!):
#: a cell whose value is not data, looked at by :mod:`core.io.safety.formulas`.
_FORMULA = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?f[\s>/]|\st\s*=\s*[\"']e[\"']")
_DIMENSION = re.compile(rb'<(?:[\w.\-]+:)?dimension\s+ref\s*=\s*["\']([^"\']*)["\']')
CELL_WITHOUT_REF = re.compile(rb'<c(?:[>/\t\n\r]| (?!r="))')


@dataclass(frozen=True)
class SheetPart:
    """A part read as a sheet: its name in messages (the sheet's name, or
    None for a part no sheet names), the part, its unpacked size and whether
    it is written the usual way (no namespace prefixes on its elements)."""

    sheet: str | None
    part: str
    size: int
    plain: bool

    def error(self, what: str, file: str) -> InputError:
        if self.sheet is None:
            return limit_error(f"part {self.part!r}, read as a sheet: {what}", file, "")
        return limit_error(what, file, self.sheet)


def scan_sheet(data: bytes, where: SheetPart, *, file: str) -> tuple[int, int, bool]:
    """Refuse what a reader must not see; return the used area and whether formulas occur.

    A sheet written the usual way (no namespace prefix, every cell starting
    ``<c r="``) is scanned in one vectorised pass over its bytes; any other
    is parsed as a stream.
    """
    check_dimension(data, where, file=file)
    fast = scan_plain([data], file=file, part=where.part) if where.plain else None
    if fast is None:
        max_row, max_col = used_area_parsed(io.BytesIO(data), where, file=file)
        fast = (max_row, max_col, _FORMULA.search(data) is not None)
    check_area(fast[0], fast[1], where, file=file)
    return fast


def scan_big_sheet(zf: zipfile.ZipFile, info: zipfile.ZipInfo, where: SheetPart, *,
                   file: str) -> tuple[int, int, bool]:
    """:func:`scan_sheet` on a big part, unpacked and scanned piece by piece."""
    chunks = stream_part(zf, info, file)
    try:
        head = next(chunks, b"")
        check_dimension(head, where, file=file)
        fast = (scan_plain(itertools.chain([head], chunks), file=file, part=info.filename)
                if where.plain else None)
    finally:
        chunks.close()
    if fast is None:
        with open_part(zf, info, file) as fh:
            max_row, max_col = used_area_parsed(fh, where, file=file)
        fast = (max_row, max_col, _has_formula(zf, info, file))
    check_area(fast[0], fast[1], where, file=file)
    return fast


def _has_formula(zf: zipfile.ZipFile, info: zipfile.ZipInfo, file: str) -> bool:
    carry = b""
    for chunk in stream_part(zf, info, file):
        if _FORMULA.search(carry + chunk):
            return True
        carry = chunk[-256:]
    return False


def check_dimension(data: bytes, where: SheetPart, *, file: str) -> None:
    """Refuse a declared dimension beyond Excel's limits or beyond what the
    sheet's bytes can hold (a reader may allocate what a sheet declares)."""
    dim = _DIMENSION.search(data, 0, 1 << 16)
    if not dim:
        return
    text = dim.group(1).decode("ascii", "replace")
    end = (1, 1)
    for ref in text.split(":"):
        rc = parse_ref(ref)
        if rc is None:
            raise where.error(f"the sheet's dimension {ref!r} is not a cell reference", file)
        if rc[1] > EXCEL_MAX_COLUMNS:
            raise where.error(f"the sheet declares {rc[1]:,} columns (dimension {text!r})", file)
        if rc[0] > EXCEL_MAX_ROWS:
            raise where.error(f"the sheet declares {rc[0]:,} rows (dimension {text!r})", file)
        end = max(end[0], rc[0]), max(end[1], rc[1])
    if end[0] * end[1] > cells_allowed(where.size):
        raise where.error(
            f"the sheet declares a used area of {end[0]:,} rows x {end[1]:,} columns"
            f" (dimension {text!r}, {end[0] * end[1]:,} cells), too large to read safely:"
            f" its {where.size:,} bytes of XML hold far fewer cells", file)


def check_area(max_row: int, max_col: int, where: SheetPart, *, file: str) -> None:
    """Refuse a used area that Excel could not hold, or that the sheet's
    bytes cannot fill (a reader allocates every cell of the used area)."""
    if max_col > EXCEL_MAX_COLUMNS:
        raise where.error(f"the sheet uses {max_col:,} columns", file)
    if max_row > EXCEL_MAX_ROWS:
        raise where.error(f"the sheet uses {max_row:,} rows", file)
    if max_row * max_col > cells_allowed(where.size):
        raise where.error(
            f"the sheet's used area is {max_row:,} rows x {max_col:,} columns"
            f" ({column_letters(max_col)}{max_row}), too large to read safely: a reader"
            f" allocates all {max_row * max_col:,} cells, and the sheet's {where.size:,}"
            " bytes of XML hold far fewer", file)


def walk_cells(source: IO[bytes], events: tuple[str, ...], *, file: str,
               part: str) -> Iterator[tuple[str, str, Any, int, int]]:
    """Parse sheet XML (defused, as a stream), yielding (event, tag,
    element, row, column) with each cell's position: from its reference,
    or counted on from the previous cell and row when the reference is
    missing (as readers do)."""
    row = col = 0
    for event, elem in iter_events(source, (*events, "start"), file=file, part=part):
        tag = elem.tag.rsplit("}", 1)[-1]
        if event == "start":
            if tag == "row":
                r = elem.get("r")
                row = int(r) if r and r.isdigit() else row + 1
                col = 0
            elif tag == "c":
                rc = parse_ref(elem.get("r") or "")
                row, col = rc if rc is not None else (row, col + 1)
            if "start" not in events:
                continue
        yield event, tag, elem, row, col


def used_area_parsed(source: IO[bytes], where: SheetPart, *, file: str) -> tuple[int, int]:
    """Exact used area when cells lack references or the XML uses prefixes."""
    max_row = max_col = 0
    try:
        for _event, tag, _elem, row, col in walk_cells(source, ("start",), file=file,
                                                       part=where.part):
            if tag == "c":
                max_row = max(max_row, row)
                max_col = max(max_col, col)
                if max_col > EXCEL_MAX_COLUMNS or max_row > EXCEL_MAX_ROWS:
                    break
    except Stopped:  # (a read stopped between the part's pieces: core.io.stop)
        raise
    except Exception as exc:
        raise unreadable(exc, file=file, part=where.part, sheet=where.sheet) from exc
    return max_row, max_col


def unreadable(exc: Exception, *, file: str, part: str, sheet: str | None) -> InputError:
    """What a streaming parse of a sheet raised, as one clear error."""
    if isinstance(exc, InputError):
        return exc
    err = xml_error(exc, file=file, part=part)
    return InputError(f"the sheet's XML is not readable ({err.problem})", file=file,
                      sheet=sheet, hint=err.hint)
