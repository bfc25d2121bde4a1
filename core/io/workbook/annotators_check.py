"""Reopening the Annotators sheet (:mod:`core.io.workbook.annotators_sheet`):
which sheet it is, and where it was edited.

The sheet is a record of the import, never an input. A reviewer may sort it
(by spread, to find the disagreements), filter it, rename it: none of that
is an edit. Its rows are matched to the rows the export wrote by the
candidate they name (query and source id: one row per candidate, the
document holds each pair once), never by their place; a cell of a matched
row that holds another value is an edit, named at the cell where it now is;
a row that names no candidate of the import (or one a second time) was
added, a candidate whose row is gone was deleted. Each is said in one line
(the first, and how many more), and nothing is taken.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, NamedTuple

import numpy as np

from core.errors import InputError
from core.io.safety import column_letters
from core.io.workbook.additions_types import key_text
from core.io.workbook.annotators_sheet import SHEET, Value, sheet_rows
from core.io.workbook.kept_text import same_as_written, written_form
from core.io.workbook.layout import written_back
from core.io.workbook.record import header_text
from core.model.document import Document
from core.model.numbers import counted

__all__ = ["not_read"]

#: What reading the sheet says, after the edit: nothing is taken.
_NOT_READ = ("not read as a grade: this sheet records the annotators' grades as imported, "
             "and the next save writes them again")
_HINT = "change the grade in the Candidates sheet's current grade column"


def not_read(found: list[list[Any]], doc: Document, perm: np.ndarray, file: str,
             sheet: str = SHEET) -> tuple[InputError, ...]:
    """Where the Annotators sheet (its cells ``found``, from A1, read from
    ``sheet``) differs from what the export wrote: an :class:`InputError`
    for the cells edited (the first, in the sheet's order, and how many
    more), one for the rows added and one for the rows deleted, as far as
    there are any; () when there is none (or no such sheet, or ``doc``
    keeps no annotator's grades)."""
    expected = sheet_rows(doc, perm)
    if not found or not expected:
        return ()
    columns = _by_header(found, expected[0])
    if columns.moved or columns.extra:  # the record's columns where their headers now are
        at = columns.at
        found = [[row[a] if a is not None and a < len(row) else None for a in at]
                 for row in found]
    edited: list[tuple[int, int]] = []
    gone = {c for c, a in enumerate(columns.at) if a is None}  # (said once, below)
    place = {(str(row[0]), str(row[1])): k for k, row in enumerate(expected) if k}
    taken: set[int] = set()
    added: list[int] = []
    loose: dict[tuple[str, str], int | None] | None = None
    for r, row in enumerate(found[1:], start=1):
        if r < len(expected) and r not in taken and row == expected[r] and (
                bool not in map(type, row)):
            taken.add(r)  # as written, in its place (the usual case: one comparison)
            continue
        if all(_empty(v) for v in row):
            continue  # an empty row (put in by hand, or below the last)
        k = place.get(_key(row))
        if k is None:  # its ids as a spreadsheet program saved them (Gnumeric: end spaces)?
            loose = _by_written_form(place) if loose is None else loose
            query, source = _key(row)
            k = loose.get((written_form(query), written_form(source)))
        if k is None or k in taken:
            added.append(r)
            continue
        taken.add(k)
        edited += [(r, c) for c in _differing(row, expected[k], 2) if c not in gone]
    deleted = [k for k in range(1, len(expected)) if k not in taken]
    out = list(columns.said(file, sheet))
    if edited:
        r, c = edited[0]
        out.append(InputError(f"edited{_more(edited, 'cell')}, {_NOT_READ}", file=file,
                              sheet=sheet, line=r + 1, column=columns.letter(c),
                              hint=_HINT))
    if added:
        q, s = _key(found[added[0]])
        out.append(InputError(
            f"a row added (query {q!r}, source {s!r}{_more(added, 'row', inside=True)}), "
            f"{_NOT_READ}", file=file, sheet=sheet,
            line=added[0] + 1, hint=_HINT))
    if deleted:
        q, s = (str(v) for v in expected[deleted[0]][:2])
        out.append(InputError(
            f"the row of query {q!r}, source {s!r} deleted{_more(deleted, 'row')}: the next "
            "save writes it again, as imported", file=file, sheet=sheet,
            hint="nothing to do: the workbook keeps every annotator's grade"))
    return tuple(out)


class _Columns(NamedTuple):
    """Where the record's columns are in the sheet read: ``at`` the read
    column of each written one (None: its header is not there), ``extra``
    the read columns that are none of them (a column a reviewer inserted,
    or cells typed beside the record), each with its header; ``header``
    the written header."""

    at: list[int | None]
    extra: list[tuple[int, str]]
    header: list[str]

    @property
    def moved(self) -> bool:
        return self.at != list(range(len(self.at)))

    def letter(self, c: int) -> str:
        """The letter of the read column holding the written column ``c``."""
        a = self.at[c]
        return column_letters((c if a is None else a) + 1)

    def said(self, file: str, sheet: str) -> Iterator[InputError]:
        """A line for the columns that are not the record's, one for the
        record's columns whose header is gone."""
        if self.extra:
            c, name = self.extra[0]
            named = f" ({name!r})" if name else ""
            yield InputError(
                f"a column not the record's{named}{_more(self.extra, 'column')}: kept, not "
                "read as grades; the next save writes the record as imported and this column "
                "after its columns", file=file, sheet=sheet, column=column_letters(c + 1),
                hint="nothing to do: its cells stay on their candidates' rows")
        gone = [c for c, a in enumerate(self.at) if a is None]
        if gone:
            yield InputError(
                f"the header of column {self.header[gone[0]]!r} is not there"
                f"{_more(gone, 'column')}: the next save writes the column again, as imported",
                file=file, sheet=sheet, line=1,
                hint="nothing to do: the workbook keeps every annotator's grade")


def _by_header(found: list[list[Any]], header: list[Value]) -> _Columns:
    """The record's columns matched to the read ones by their headers
    (a column inserted in Excel or LibreOffice moves those after it; a
    column moved keeps its header), the rest of the read columns said as
    not the record's when they hold anything."""
    names = [header_text(v) for v in found[0]]
    free: dict[str, list[int]] = {}
    for c, name in enumerate(names):
        free.setdefault(name, []).append(c)
    at: list[int | None] = [free[str(h)].pop(0) if free.get(str(h)) else None for h in header]
    matched = {a for a in at if a is not None}
    width = max(map(len, found), default=0)
    extra = [(c, names[c] if c < len(names) else "") for c in range(width)
             if c not in matched and any(c < len(row) and not _empty(row[c]) for row in found)]
    return _Columns(at, extra, [str(h) for h in header])


def _more(items: list[Any], what: str, *, inside: bool = False) -> str:
    if len(items) < 2:
        return ""
    more = f"and {counted(len(items) - 1, f'more {what}')}"
    return f", {more}" if inside else f" ({more})"


def _by_written_form(place: dict[tuple[str, str], int]) -> dict[tuple[str, str], int | None]:
    """Each row's ids in their written form (:func:`written_form`), to the
    row; None where two rows' ids share one (which is whose cannot be told)."""
    out: dict[tuple[str, str], int | None] = {}
    for (q, s), k in place.items():
        key = (written_form(q), written_form(s))
        out[key] = None if key in out else k
    return out


def _key(row: list[Any]) -> tuple[str, str]:
    """A row's candidate: its query and source id as text."""
    cells = [*row[:2], "", ""][:2]
    return key_text("" if cells[0] is None else cells[0]), key_text(
        "" if cells[1] is None else cells[1])


def _empty(v: Any) -> bool:
    return v is None or v == ""


def _differing(got: list[Any], want: list[Value], first: int) -> list[int]:
    """The columns (0-based, from ``first``) where the read row ``got``
    does not hold the written ``want``."""
    return [c for c in range(first, max(len(got), len(want)))
            if not _same(got[c] if c < len(got) else None, want[c] if c < len(want) else "")]


def _same(got: Any, want: Value) -> bool:
    """A read cell against the written one (empty: None or "")."""
    if _empty(got):
        return want == ""
    if isinstance(got, bool):
        return False
    if isinstance(got, int | float):
        return isinstance(want, float) and written_back(float(got), want)
    return isinstance(want, str) and same_as_written(str(got), want)
