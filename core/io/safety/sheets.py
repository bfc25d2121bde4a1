"""Each sheet's declared dimension and used area within Excel's limits (a
reader allocates the whole used area), and whether it holds formulas."""

from __future__ import annotations

import itertools
import re
import zipfile
from collections.abc import Iterator
from typing import Any

from core.errors import InputError
from core.io.safety.limits import (
    EXCEL_MAX_COLUMNS,
    EXCEL_MAX_ROWS,
    LIMITS,
    column_letters,
    column_number,
    limit_error,
    parse_ref,
)
from core.io.safety.parts import read_part, refuse_declarations, stream_part
from core.io.safety.scan import scan_plain

_FORMULA = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?f[\s>/]")
_DIMENSION = re.compile(rb'<(?:\w+:)?dimension\s+ref="([^"]*)"')
CELL_WITHOUT_REF = re.compile(rb'<c(?:[>/\t\n\r]| (?!r="))')


def scan_sheet(data: bytes, *, file: str, sheet: str, part: str) -> tuple[int, int, bool]:
    """Refuse what a reader must not see; return the used area and whether formulas occur.

    A sheet written the usual way (no namespace prefix, every cell starting
    ``<c r="``) is scanned in one vectorised pass over its bytes; any other
    falls back to regular expressions and, when cells lack references, to
    an XML parse.
    """
    _check_dimension(data, file=file, sheet=sheet)
    plain = b"<worksheet" in data[: 1 << 12]
    fast = scan_plain([data], file=file, part=part) if plain else None
    if fast is not None:
        max_row, max_col, formulas = fast
    else:
        refuse_declarations(data, file, part)
        max_row, max_col = _used_area(data, file=file, sheet=sheet)
        formulas = _has_formula(data)
    _check_area(max_row, max_col, file=file, sheet=sheet)
    return max_row, max_col, formulas


def scan_big_sheet(zf: zipfile.ZipFile, info: zipfile.ZipInfo, *, file: str,
                   sheet: str) -> tuple[int, int, bool]:
    """:func:`scan_sheet` on a big part, unpacked and scanned piece by piece."""
    chunks = stream_part(zf, info, file)
    try:
        head = next(chunks, b"")
        _check_dimension(head, file=file, sheet=sheet)
        fast = (scan_plain(itertools.chain([head], chunks), file=file, part=info.filename)
                if b"<worksheet" in head[: 1 << 12] else None)
    finally:
        chunks.close()
    if fast is None:
        return scan_sheet(read_part(zf, info, file), file=file, sheet=sheet,
                          part=info.filename)
    _check_area(fast[0], fast[1], file=file, sheet=sheet)
    return fast


def _has_formula(data: bytes) -> bool:
    if b"<worksheet" in data[: 1 << 12]:
        return b"<f>" in data or b"<f " in data or b"<f/" in data
    return _FORMULA.search(data) is not None


def _check_dimension(data: bytes, *, file: str, sheet: str) -> None:
    """Refuse a declared dimension beyond Excel's limits."""
    dim = _DIMENSION.search(data, 0, 1 << 16)
    if dim:
        for ref in dim.group(1).decode("ascii", "replace").split(":"):
            rc = parse_ref(ref)
            if rc is None:
                raise limit_error(f"the sheet's dimension {ref!r} is not a cell reference",
                                  file, sheet)
            if rc[1] > EXCEL_MAX_COLUMNS:
                raise limit_error(
                    f"the sheet declares {rc[1]:,} columns (dimension {dim.group(1).decode()!r})",
                    file, sheet)
            if rc[0] > EXCEL_MAX_ROWS:
                raise limit_error(
                    f"the sheet declares {rc[0]:,} rows (dimension {dim.group(1).decode()!r})",
                    file, sheet)


def _used_area(data: bytes, *, file: str, sheet: str) -> tuple[int, int]:
    """Rows and columns a reader would allocate (regular expressions, or a parse)."""
    head = data[: 1 << 12]
    plain = b"<worksheet" in head
    if plain and CELL_WITHOUT_REF.search(data) is None:
        max_col = _max_col(data)
        max_row = _max_row(data, max_col)
    else:
        max_row, max_col = _used_area_slow(data, file=file, sheet=sheet)
    return max_row, max_col


def _check_area(max_row: int, max_col: int, *, file: str, sheet: str) -> None:
    """Refuse a used area that Excel could not hold or a reader should not allocate."""
    if max_col > EXCEL_MAX_COLUMNS:
        raise limit_error(f"the sheet uses {max_col:,} columns", file, sheet)
    if max_row > EXCEL_MAX_ROWS:
        raise limit_error(f"the sheet uses {max_row:,} rows", file, sheet)
    if max_row * max_col > LIMITS["sheet_cells"]:
        raise limit_error(
            f"the sheet's used area is {max_row:,} rows x {max_col:,} columns"
            f" ({column_letters(max_col)}{max_row}), too large to read safely",
            file, sheet)


def _max_row(data: bytes, max_col: int) -> int:
    """The highest row of a cell, or an upper bound when that is already safe.

    Scans only for references with many digits, from the most down, and stops
    as soon as the bound times ``max_col`` is within the cell limit.
    """
    found = re.findall(rb'<c r="[A-Za-z]+(\d{8,})"', data)
    if found:
        return max(int(x) for x in found)
    for digits in range(7, 0, -1):
        if max(max_col, 1) * (10**digits - 1) <= LIMITS["sheet_cells"]:
            return int(10**digits - 1)
        found = re.findall(rb'<c r="[A-Za-z]+(\d{%d})"' % digits, data)
        if found:
            return max(int(x) for x in found)
    return 0


def _max_col(data: bytes) -> int:
    """The highest column of a cell; 26 (Z) bounds single-letter columns."""
    long = re.findall(rb'<c r="([A-Za-z]{2,})\d', data)
    if long:
        return max(column_number(x.decode()) for x in long)
    return 26 if b'<c r="' in data else 0


def walk_cells(data: bytes, events: tuple[str, ...]) -> Iterator[tuple[str, str, Any, int, int]]:
    """Parse sheet XML (defused), yielding (event, tag, element, row, column)
    with each cell's position: from its reference, or counted on from the
    previous cell and row when the reference is missing."""
    import io

    from defusedxml.ElementTree import iterparse

    row = col = 0
    for event, elem in iterparse(io.BytesIO(data), events=events):
        tag = elem.tag.rsplit("}", 1)[-1]
        if event == "start":
            if tag == "row":
                r = elem.get("r")
                row = int(r) if r and r.isdigit() else row + 1
                col = 0
            elif tag == "c":
                rc = parse_ref(elem.get("r") or "")
                row, col = rc if rc is not None else (row, col + 1)
        yield event, tag, elem, row, col


def _used_area_slow(data: bytes, *, file: str, sheet: str) -> tuple[int, int]:
    """Exact used area when cells lack references or the XML uses prefixes."""
    max_row = max_col = 0
    try:
        for _event, tag, _elem, row, col in walk_cells(data, ("start",)):
            if tag == "c":
                max_row = max(max_row, row)
                max_col = max(max_col, col)
                if max_col > EXCEL_MAX_COLUMNS or max_row > EXCEL_MAX_ROWS:
                    break
    except InputError:
        raise
    except Exception as exc:
        raise InputError(f"the sheet's XML is not readable ({exc})", file=file,
                         sheet=sheet) from exc
    return max_row, max_col

