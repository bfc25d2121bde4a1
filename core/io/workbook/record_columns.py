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
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import Any

from core.io.workbook.additions_types import CandidateAdditions, Cell, RecordColumns
from core.io.workbook.layout import ANNOTATOR_LEAD, SHEETS
from core.io.workbook.metadata import read_metadata
from core.io.workbook.record import OWN_COLUMNS, header_text

__all__ = ["metadata_annotators", "read_record_columns", "record_extras"]


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
    names = [header_text(v) for v in rows[0]]
    try:
        q, s = (names.index(h) for h in ANNOTATOR_LEAD)
    except ValueError:
        return None
    width = max(map(len, rows))
    columns = [(c, names[c] if c < len(names) else "") for c in range(width)
               if (names[c] if c < len(names) else "") not in OWN_COLUMNS]
    columns = [(c, name) for c, name in columns if name or any(
        c < len(row) and row[c] is not None and row[c] != "" for row in rows)]
    return RecordColumns(rows, q, s, columns, named)


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
