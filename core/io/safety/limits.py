"""Excel's limits, what a workbook may ask a reader to allocate, and cell
references (``"XFD"`` <-> 16384)."""

from __future__ import annotations

import re

from core.errors import InputError

EXCEL_MAX_ROWS = 1_048_576
EXCEL_MAX_COLUMNS = 16_384

LIMITS = {
    "file_bytes": 512 * 1024**2,
    "parts": 10_000,
    "part_bytes": 1024**3,
    "total_bytes": 2 * 1024**3,
    "ratio": 200.0,
    #: A reader allocates rows x columns cells for the used area of a sheet.
    "sheet_cells": 12_000_000,
}

_REF = re.compile(r"^\$?([A-Za-z]{1,7})\$?(\d{1,9})$")


def column_number(letters: str) -> int:
    """``"A"`` -> 1, ``"XFD"`` -> 16384."""
    n = 0
    for ch in letters.upper():
        n = n * 26 + ord(ch) - 64
    return n


def column_letters(number: int) -> str:
    """1 -> ``"A"``, 16384 -> ``"XFD"``."""
    out = ""
    while number > 0:
        number, rem = divmod(number - 1, 26)
        out = chr(65 + rem) + out
    return out


def parse_ref(ref: str) -> tuple[int, int] | None:
    """``"B7"`` or ``"$B$7"`` -> (7, 2); None when ``ref`` is not a cell reference."""
    m = _REF.match(ref.strip())
    if not m:
        return None
    return int(m.group(2)), column_number(m.group(1))


def limit_error(what: str, file: str, sheet: str) -> InputError:
    """The error for a sheet beyond Excel's limits (or too large to read safely)."""
    return InputError(
        what, file=file, sheet=sheet,
        hint=f"Excel's limits are {EXCEL_MAX_ROWS} rows and {EXCEL_MAX_COLUMNS} columns;"
        " copy the data into a new sheet and save it again",
    )
