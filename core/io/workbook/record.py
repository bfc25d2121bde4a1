"""Which sheet of a workbook is the Annotators record
(:mod:`core.io.workbook.annotators_sheet`), and how its header places its
columns.

The defined name :data:`~core.io.workbook.layout.RECORD_NAME` marks the
record whatever it is called (Excel and LibreOffice carry it along a
rename). A workbook written before the name, or saved by a tool that drops
defined names (openpyxl keeps a name pointing at the sheet's old name, which
then points nowhere), is known by what the record holds: its header row,
with the identity columns (query, source id) and the two columns after the
annotators' (the consensus imported, the spread). Two sheets holding such a
header, neither named by the defined name, are refused: writing the record
again under one would leave the other beside it, a second record.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from core.errors import InputError
from core.io.calamine_book import calamine_book
from core.io.workbook.layout import (
    ANNOTATOR_LEAD,
    ANNOTATOR_TAIL,
    COMPARISON_SHEETS,
    RECORD_NAME,
    SHEETS,
)

__all__ = ["OWN_COLUMNS", "FirstRow", "file_headers", "header_text", "looks_like_record",
           "record_sheet"]

#: A sheet's first row (its header), by the sheet's name.
FirstRow = Callable[[str], Sequence[Any]]
#: The record's own columns, each named in its header.
OWN_COLUMNS = frozenset((*ANNOTATOR_LEAD, *ANNOTATOR_TAIL))
#: The sheets the product writes besides the record: never the record.
_OTHERS = (frozenset(SHEETS.values()) | frozenset(COMPARISON_SHEETS.values())) - {
    SHEETS["annotators"]}


def header_text(value: Any) -> str:
    """A header cell as its name (stripped; "" when empty)."""
    return "" if value is None else str(value).strip()


def looks_like_record(header: Sequence[Any]) -> bool:
    """Whether a sheet's first row is the record's header: its identity
    columns and the columns after the annotators' named in it, wherever a
    column was inserted between them.

    >>> looks_like_record(["query", "source id", "ann", "my note",
    ...                    "original grade (the consensus imported)",
    ...                    "spread (highest - lowest grade)"])
    True
    >>> looks_like_record(["query", "source id", "grade"])
    False
    """
    return {header_text(v) for v in header} >= OWN_COLUMNS


def _named(sheets: Sequence[str], names: Mapping[str, str]) -> str | None:
    """The sheet the defined name points at, when it is one of ``sheets``."""
    target, _, _ = names.get(RECORD_NAME, "").lstrip("=").rpartition("!")
    if target.startswith("'") and target.endswith("'") and len(target) > 1:
        target = target[1:-1].replace("''", "'")
    return target if target in sheets else None


def record_sheet(sheets: Sequence[str], names: Mapping[str, str],
                 first_row: FirstRow | None = None, file: str = "") -> str | None:
    """The workbook's Annotators sheet among ``sheets``: the one the defined
    name :data:`RECORD_NAME` points at (``names``: name -> ``Sheet!$A$1``);
    else the one sheet whose header (``first_row``) is the record's, of the
    sheets the product does not write otherwise; else the one named
    Annotators; None when there is none. Without ``first_row`` no header
    is read (the name decides).

    Raises
    ------
    InputError
        When two sheets hold the record's header and the defined name
        points at neither (naming both).

    >>> record_sheet(["Audit", "Who gave what"], {RECORD_NAME: "'Who gave what'!$A$1"})
    'Who gave what'
    >>> record_sheet(["Audit", "Annotators"], {}), record_sheet(["Audit"], {})
    ('Annotators', None)
    >>> header = {"Audit": ["who"], "Who gave what": ["query", "source id", "ann",
    ...           *ANNOTATOR_TAIL]}
    >>> record_sheet(["Audit", "Who gave what"], {}, header.__getitem__)
    'Who gave what'
    """
    named = _named(sheets, names)
    if named is not None:
        return named
    own = SHEETS["annotators"]
    if first_row is not None:
        held = [s for s in sheets if s not in _OTHERS and looks_like_record(first_row(s))]
        if len(held) > 1:
            a, b = held[:2]
            raise InputError(
                f"sheets {a!r} and {b!r} both hold the Annotators record's header, and no "
                f"defined name {RECORD_NAME} says which is the record", file=file or None,
                hint=f"delete one of them (or change its header row), or define the name "
                     f"{RECORD_NAME} as the record's cell A1")
        if held:
            return held[0]
    return own if own in sheets else None


def file_headers(path: str) -> FirstRow:
    """A sheet's first row read from the workbook at ``path`` (opened by
    calamine when first asked; [] for a sheet it cannot read: not the
    record)."""
    book: list[Any] = []

    def first_row(sheet: str) -> Sequence[Any]:
        try:
            if not book:
                book.append(calamine_book(path))
            found = book[0].get_sheet_by_name(sheet)
            if tuple(found.start or ()) != (0, 0):
                return []  # (its first cell is not A1: no header of ours)
            return list(next(iter(found.iter_rows()), []))
        except Exception:  # calamine's error classes vary by version
            return []

    return first_row
