"""Which workbook format a file name asks for: ``.xlsx`` or ``.ods``, told
by its suffix alone, by one test every writer and reader of additions uses
(no caller writes ``.xlsx`` bytes under an ``.ods`` name, or the reverse)."""

from __future__ import annotations

from pathlib import Path

from core.errors import InputError

__all__ = ["WRITTEN_WORKBOOKS", "check_workbook_target", "is_ods"]

#: The workbook formats the export writes, by suffix (:func:`is_ods` picks).
WRITTEN_WORKBOOKS = {".xlsx": "xlsx", ".ods": "ods"}


def is_ods(path: str | Path) -> bool:
    """Whether ``path`` names an OpenDocument spreadsheet (``.ods``): the one
    test by which every workbook writer picks the format it writes."""
    return Path(path).suffix.lower() == ".ods"


def check_workbook_target(path: str | Path, asked: str | None = None) -> None:
    """An :class:`InputError` unless ``path`` names a workbook the export
    writes (``.xlsx`` or ``.ods``), or, given the format ``asked`` (``xlsx``
    or ``ods``), unless its name says no other one: no ``.xlsx`` bytes under
    an ``.ods`` name, or the reverse."""
    kind = WRITTEN_WORKBOOKS.get(Path(path).suffix.lower())
    if asked is None and kind is None:
        raise InputError("a workbook is written as .xlsx or .ods", file=str(path),
                         hint="name the file BOOK.xlsx (Excel) or BOOK.ods (LibreOffice)")
    if asked is not None and (asked == "ods") != is_ods(path):
        raise InputError(f"an {asked} workbook cannot be named {Path(path).suffix or 'so'}",
                         file=str(path), hint=f"name the file BOOK.{asked}")
