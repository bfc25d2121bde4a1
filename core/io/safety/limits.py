"""Excel's limits, what a workbook may ask a reader to allocate, and cell
references (``"XFD"`` <-> 16384).

No limit here is a fixed size that a real workbook could reach. Sizes follow
from the compression ratio (a part may unpack to at most ``ratio`` times its
packed size) and from the sheet's own limits (1,048,576 rows x 16,384
columns). What a reader allocates from a declared number (a sheet's used
area, a shared-string count, a style count) is held to what the part's real
bytes can hold: every cell costs at least ``cell_bytes`` bytes of XML, every
string ``string_bytes``, every style entry ``style_bytes``. Small declared
numbers (up to the ``floor_*`` values) always pass, so that sparse but honest
sheets still open; a reader's memory for them stays small.
"""

from __future__ import annotations

import re

from core.errors import InputError

EXCEL_MAX_ROWS = 1_048_576
EXCEL_MAX_COLUMNS = 16_384

LIMITS = {
    #: More than three times the largest workbook the app's own export can
    #: write (1,000,000 candidates: 136 MB; Excel's 1,048,576 rows: ~145 MB).
    "file_bytes": 512 * 1024**2,
    "parts": 10_000,
    #: A part bigger than ``ratio_floor`` (or all parts together, when
    #: bigger than ``total_ratio_floor``) may unpack to at most ``ratio``
    #: times its packed size: more is a zip bomb. Sheet XML packs about 10:1.
    "ratio": 200,
    "ratio_floor": 10 * 1024**2,
    "total_ratio_floor": 100 * 1024**2,
    #: The least XML a cell, a shared string (``<si/>``) or a style entry
    #: (``<xf/>``) can be written in.
    "cell_bytes": 10,
    "string_bytes": 5,
    "style_bytes": 4,
    #: Declared numbers that always pass (a reader allocates about 32 bytes
    #: a cell, 24 a string).
    "floor_cells": 4 * 1024**2,
    "floor_strings": 1024**2,
    "floor_styles": 65_536,
    #: Elements nested deeper than this are refused before a parse (a
    #: workbook's XML nests about 10 deep).
    "depth": 128,
}

_REF = re.compile(r"^\$?([A-Za-z]{1,7})\$?(\d{1,9})$")


def cells_allowed(part_bytes: int) -> int:
    """How many cells (of a used area, or declared) ``part_bytes`` bytes of
    sheet XML can stand for."""
    return max(LIMITS["floor_cells"], part_bytes // LIMITS["cell_bytes"])


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


def crafted(what: str, file: str) -> InputError:
    """The error for a part that no spreadsheet program writes."""
    return InputError(what, file=file,
                      hint="this file was crafted or damaged; do not open it elsewhere either")


def damaged(what: str, file: str) -> InputError:
    """The error for a workbook whose package is broken."""
    return InputError(what, file=file, hint="open it in Excel or LibreOffice and save it again")
