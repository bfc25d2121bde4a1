"""Where in an annotators' sheet a judgment is, for a refusal found after
reading (:mod:`core.io.locate`: the sklearn preset's negative grade): the
sheet, the file's row (a JSON export's line or record) and the grade's
column, as the import read them (the sheet and the columns guessed again:
a document keeps no rows of its file; this runs on the error path only)."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from core.errors import InputError
from core.io.annotator.detect import detect_mapping, read_guessed
from core.io.annotator.model import ColumnMapping, Table, cell_text, column_ref

__all__ = ["Place", "judgment_place"]


class Place(NamedTuple):
    """A judgment's place: the workbook's sheet (None in a text file), the
    file's row (1-based) and its grade's column (letter and header)."""

    sheet: str | None
    row: int
    column: str
    #: A JSON array's record in words, said in the row's stead (it has no
    #: lines: :class:`~core.io.annotator.positions.RecordPlaces`), or None.
    said: str | None = None


def judgment_place(path: str | Path, query: str, source: str) -> Place | None:
    """The place of the first judgment of ``source`` of ``query`` in the
    annotators' sheet ``path`` (its grade column the first holding a
    negative number, else the first); None when no row holds it or the
    sheet cannot be read."""
    try:
        table = read_guessed(path)
        mapping = detect_mapping(table)
    except InputError:
        return None
    grades = [c for c, _ in mapping.sources()]
    if mapping.query is None or mapping.source_id is None or not grades:
        return None
    for i in range(mapping.header_row + 1, len(table.rows)):
        row = table.rows[i]
        if (_text(row, mapping.query), _text(row, mapping.source_id)) == (query, source):
            col = next((c for c in grades if _negative(_text(row, c))), grades[0])
            return _place(table, mapping, i, col)
    return None


def _text(row: list[object], col: int) -> str:
    return cell_text(row[col]).strip() if col < len(row) else ""


def _negative(text: str) -> bool:
    try:
        return float(text) < 0
    except ValueError:
        return False


def _place(table: Table, mapping: ColumnMapping, i: int, col: int) -> Place:
    """Table cell (``i``, ``col``) as the file has it (a reshaped survey's
    respondent row and item column)."""
    origin = table.origin
    if origin is not None:
        r, c = origin.cell(i, col)
        return Place(table.sheet, r + 1, origin.column_name(c))
    header = table.rows[mapping.header_row] if mapping.header_row >= 0 else []
    named = column_ref(col, cell_text(header[col]).strip() if col < len(header) else "")
    records = table.records  # (a JSON export: the record's line, or its place in words)
    if records is not None:
        return Place(None, records.of(i + 1), named,
                     records.where(records.of(i + 1)).get("place"))
    return Place(table.sheet, i + 1, named)
