"""Transposed sheets: one row per respondent, one column per item, as survey
tools write a grid question (Google Forms ``Rate the results for: cheap
flights [https://a.example]``, Qualtrics ``cheap flights - https://a.example``).

When several columns of grades have headers that each name a query and a
source by one pattern (``query [source]``, ``query - source``, ``query |
source``), the sheet is turned into the long layout: one row per
respondent and item, with the item's query and source, the respondent's
other cells (e-mail, timestamp, status) repeated, and the grade. The
pattern used is said in the table's notes. A question's wording before a
colon or around a quoted query (``Rate the results for: X``, ``How
relevant is each page to "X"?``) is left out of the query.

Columns of grades whose headers name no item by any pattern are a
transposed sheet that cannot be read: :func:`unreadable_items` says so in
words, without suggesting flags that cannot help.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from core.io.annotator.cells import grade_like
from core.io.annotator.model import Table, cell_text
from core.io.annotator.names import name_field

__all__ = ["PATTERNS", "unreadable_items", "untranspose"]

#: (how people see it, the header's pattern): query first, source second.
PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("query [source]", re.compile(r"^(?P<q>.+?)\s*\[(?P<s>[^\[\]]+)\]\s*$")),
    ("query - source", re.compile(r"^(?P<q>.+)\s+[-\u2013\u2014]\s+(?P<s>\S.*)$")),
    ("query | source", re.compile(r"^(?P<q>.+?)\s*\|\s*(?P<s>.+)$")),
)
_QUOTED = re.compile(r"[\"'\u201c\u2018](?P<q>[^\"'\u201d\u2019]+)[\"'\u201d\u2019]")
_MIN_ITEMS = 2
_SAMPLE = 200


def _query(text: str) -> str:
    """The query of a header's question part: a quoted query, else the text
    after a colon, else the whole."""
    m = _QUOTED.search(text)
    if m:
        return m.group("q").strip()
    if ":" in text and not text.rstrip().endswith(":"):
        tail = text.rsplit(":", 1)[1].strip()
        if tail and "//" not in tail:
            return tail.rstrip("?").strip()
    return text.strip().rstrip("?").strip()


def _graded_columns(rows: list[list[Any]], header_row: int, width: int) -> list[int]:
    marks = {"", "n/a", "na", "-", "?"}
    sample = rows[header_row + 1:header_row + 1 + _SAMPLE]
    out = []
    for c in range(width):
        cells = [r[c] for r in sample if c < len(r) and cell_text(r[c]).strip()]
        if cells and grade_like(cells, marks):
            out.append(c)
    return out


def _items(header: Sequence[str], cols: list[int]) -> tuple[str, dict[int, tuple[str, str]]]:
    """The pattern that reads most of ``cols``' headers as (query, source), and those."""
    best: tuple[str, dict[int, tuple[str, str]]] = ("", {})
    for shown, pattern in PATTERNS:
        found = {}
        for c in cols:
            m = pattern.match(header[c].strip()) if c < len(header) else None
            if m:
                found[c] = (_query(m.group("q")), m.group("s").strip())
        if len(found) > len(best[1]):
            best = (shown, found)
    return best


def untranspose(table: Table, header_row: int) -> Table | None:
    """The long layout of a transposed sheet (None when it is not one)."""
    rows = table.rows
    if header_row >= len(rows):
        return None
    header = [cell_text(c).strip() for c in rows[header_row]]
    width = max((len(r) for r in rows[header_row:header_row + 1 + _SAMPLE]), default=0)
    graded = _graded_columns(rows, header_row, width)
    shown, items = _items(header, graded)
    if len(items) < _MIN_ITEMS:
        return None
    others = [c for c in range(len(header)) if c not in items]
    if len(items) < 0.8 * len(graded) or any(
            name_field(header[c]).field in ("query", "source_id") for c in others):
        return None  # a sheet with its own query and source columns is not transposed
    out: list[list[Any]] = [["query", "source_id", *(header[c] or f"column {c + 1}"
                                                     for c in others), "grade"]]
    where: dict[tuple[int, int], list[tuple[int, int]]] = {}  # sheet cell -> long cells
    for at, r in enumerate(rows[header_row + 1:], start=header_row + 1):
        if not any(cell_text(v).strip() for v in r):
            continue
        kept = [r[c] if c < len(r) else None for c in others]
        for c, (q, src) in items.items():
            where[(at, c)] = [(len(out), len(others) + 2)]
            out.append([q, src, *kept, r[c] if c < len(r) else None])
        for k, c in enumerate(others):
            where[(at, c)] = [(i, k + 2) for i in range(len(out) - len(items), len(out))]
    first, last = min(items), max(items)
    note = (f"one row per respondent, one column per item: the {len(items)} items of columns "
            f"{header[first]!r} ... {header[last]!r} read from their headers as {shown}, "
            "one row per respondent and item (the rows this report names are those rows, "
            "the header on row 1)")

    def moved(cells: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
        return [(i, j, text) for r, c, text in cells for i, j in where.get((r, c), ())]

    return Table(file=table.file, rows=out, sheet=table.sheet, sheets=table.sheets,
                 formulas=moved(table.formulas), errors=moved(table.errors),
                 encoding=table.encoding, delimiter=table.delimiter, rectangular=True,
                 notes=[*table.notes, note])


def unreadable_items(table: Table, header_row: int, header: Sequence[str]) -> str | None:
    """Why a sheet of many grade columns and no query or source column
    cannot be read, when its headers name no items; None otherwise."""
    width = len(header)
    graded = _graded_columns(table.rows, header_row, width)
    if len(graded) < 3:
        return None
    shown = ", ".join(header[c] for c in graded[:3])
    return (f"one row per respondent and one column per item ({len(graded)} columns of grades: "
            f"{shown}, ...), but the headers do not say which query and source each item is")
