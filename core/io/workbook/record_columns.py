"""A reviewer's own columns in the Annotators record
(:mod:`core.io.workbook.annotators_sheet`), kept through a save.

The record is written again from the document at every save; a column a
reviewer inserted into it (a note beside the annotators' grades) would be
lost. Its values are read from the file about to be replaced, each keyed
by the candidate of its row (query and source id, never the row number: a
sort moves them along), and written again after the record's columns, in
their candidates' rows (:class:`~core.io.workbook.carry.CandidateExtras`
appends them, as it does the Candidates sheet's added columns). Values
only: a formula keeps its result, a format its value.

A save over the workbook reads the record's cells only when they may hold
a reviewer's column: a record whose header names each column of its sheet
(:func:`header_columns`: the header row read from the sheet's XML, the
sheet's used width from its cells) is told by its header, and its cells
are read (:func:`read_rows`) only when a column is not an annotator's: an
inserted column or a renamed header. A blank header cell or a cell right
of the header (typed beside the record) has the whole sheet read, as does
a header this reader does not know. An .ods is told the same way from
its header row as calamine read it (it parses all of content.xml at
once: only the cells' making into Python values is spared).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import replace
from typing import Any

from core.errors import InputError
from core.io.workbook.additions_types import CandidateAdditions, Cell, RecordColumns
from core.io.workbook.layout import ANNOTATOR_LEAD, SHEETS
from core.io.workbook.metadata import read_metadata
from core.io.workbook.record import OWN_COLUMNS, header_text

__all__ = ["header_columns", "metadata_annotators", "read_record_columns", "read_rows",
           "record_extras", "record_rows"]


def read_record_columns(rows: list[list[Any]], named: Callable[[], Collection[str]] = tuple,
                        ) -> RecordColumns | None:
    """The record's cells (``rows``, from A1) with its columns other than
    its identity and consensus ones, those with a header or a value: the
    annotators' among them (:func:`record_extras` leaves out those the
    document names, and those ``named`` gives: the annotators the
    workbook's metadata names). None when the identity columns are not
    found."""
    if not rows:
        return None
    found = _columns(rows[0], max(map(len, rows)), lambda: rows, named)
    if found is None:
        return None
    return replace(found, columns=[(c, name) for c, name in found.columns if name or any(
        c < len(row) and row[c] is not None and row[c] != "" for row in rows)])


def header_columns(header: Sequence[Any] | None, width: int,
                   rows: Callable[[], list[list[Any]]],
                   named: Callable[[], Collection[str]] = tuple) -> RecordColumns | None:
    """:func:`read_record_columns` of the record whose sheet is ``width``
    columns wide (its used area's, from A), told by its ``header`` alone
    where that names each of them (none blank): ``rows`` is then called
    only when a column's values are asked (a reviewer's column to write
    again), never for a record as it was written. Else (a header not read:
    None, a blank header, cells right of it) from every cell."""
    if header is not None and len(header) == width and all(map(header_text, header)):
        return _columns(header, width, rows, named)
    return read_record_columns(rows(), named)


def _columns(header: Sequence[Any], width: int, rows: Callable[[], list[list[Any]]],
             named: Callable[[], Collection[str]]) -> RecordColumns | None:
    names = [header_text(v) for v in header]
    try:
        q, s = (names.index(h) for h in ANNOTATOR_LEAD)
    except ValueError:
        return None
    columns = [(c, names[c] if c < len(names) else "") for c in range(width)
               if (names[c] if c < len(names) else "") not in OWN_COLUMNS]
    return RecordColumns(rows, q, s, columns, named)


def read_rows(book: Any, sheet: str, file: str) -> list[list[Any]]:
    """Every cell of the record's sheet (calamine's ``book``), from A1."""
    try:
        rows: list[list[Any]] = book.get_sheet_by_name(sheet).to_python(skip_empty_area=False)
    except Exception as exc:  # calamine's errors vary by version
        raise InputError(f"the workbook cannot be read: {type(exc).__name__}: {exc}",
                         file=file, sheet=sheet,
                         hint="open it in Excel or LibreOffice and save it again") from exc
    return rows


def record_rows(book: Any, sheet: str, file: str) -> Callable[[], list[list[Any]]]:
    """:func:`read_rows`, read when first called (``book`` opened before:
    the file replaced meanwhile is still the one read)."""
    found: list[list[list[Any]]] = []

    def rows() -> list[list[Any]]:
        if not found:
            found.append(read_rows(book, sheet, file))
        return found[0]

    return rows


def metadata_annotators(book: Any, file: str) -> Callable[[], Collection[str]]:
    """The annotators the metadata of ``book`` (calamine's, of a workbook
    of ours) names, read when called (the metadata is a large sheet: a
    100,000 candidates' takes ~1 s to parse); none where it cannot be read
    (the record's columns then all are the reviewer's, less the
    document's annotators)."""

    def named() -> Collection[str]:
        try:
            rows = book.get_sheet_by_name(SHEETS["metadata"]).to_python()
            return [str(a) for a in read_metadata(rows, file).get("annotators") or ()]
        except Exception:  # (calamine's errors vary; the file was read as ours before)
            return ()

    return named


def record_extras(found: RecordColumns, annotators: Sequence[str],
                  first_col: int) -> CandidateAdditions:
    """The reviewer's columns of the record (``found``'s, less the
    annotators'), from column ``first_col`` on (after the record's), as
    the Candidates sheet's added columns are carried. The replaced
    workbook's own annotators are the record's columns too, never a
    reviewer's: asked for (its metadata read) only where a column is not
    the document's annotators'."""
    out = CandidateAdditions()
    own = set(annotators)
    if any(name not in own for _, name in found.columns):
        own.update(found.named())
    col = first_col
    for c, name in found.columns:
        if name in own:
            continue
        if name:
            out.header.append(Cell(0, col, "s", name))
        for key, value in found.values(c).items():
            out.cells.setdefault(key, []).append(_cell(col, value))
        col += 1
    return out


def _cell(col: int, value: Any) -> Cell:
    if isinstance(value, bool):
        return Cell(0, col, "b", value)
    if isinstance(value, int | float):
        return Cell(0, col, "n", float(value))
    return Cell(0, col, "s", str(value))
