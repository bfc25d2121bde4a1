"""The wizard's preview of a sheet: its sheets, the header row, the first
rows as read, the mapping guessed (or given) and the labels the grade
columns hold, with the counts the pages show (the rows a platform marks,
each kind's) and why the import would refuse the sheet, said before it
runs. What is guessed is :mod:`~core.io.annotator.detect`'s."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from core.errors import InputError
from core.io.annotator.detect import detect_mapping, read_guessed
from core.io.annotator.legend import read_labels
from core.io.annotator.model import (
    BLOCKS_HINT,
    ColumnMapping,
    SheetPreview,
    Table,
    cell_text,
    titled_blocks,
)
from core.io.annotator.overrides import guess_mapping
from core.io.annotator.platform import flagged_rows, keepable
from core.io.annotator.scales import LabelGuess

__all__ = ["preview"]

#: The data rows the first page shows.
_PREVIEW_ROWS = 20


def preview(path: str | Path, *, sheet: str | None = None,
            mapping: ColumnMapping | None = None, header_row: int | None = None,
            chosen: Mapping[str, int | None] | None = None,
            keep: tuple[str, ...] = ()) -> SheetPreview:
    """Sheets, the header row, the first rows, the mapping and the labels.

    Unless given, the sheet, the header row (0-based) and the mapping are
    guessed; a header row given without a mapping has its mapping guessed
    for that row. ``chosen``: fields whose columns the user chose (0-based;
    None: left out), the rest read again around them as ``--map`` reads
    them (the wizard's annotator chosen: the people counted, the columns
    naming them said so, by that column). ``keep``: the kinds of marked
    rows the user keeps, counted in the guessed people (unless ``mapping``
    is given).
    """
    table = read_guessed(path, sheet)
    if mapping is None and chosen:
        mapping = guess_mapping(table, header_row=None if header_row is None else header_row + 1,
                                fields={f: "none" if c is None else c for f, c in chosen.items()},
                                keep=keep)
    mapping = mapping or detect_mapping(table, header_row, keep=keep)
    start = mapping.header_row + 1
    columns = [[r[c] if c < len(r) else None for r in table.rows[start:]]
               for c, _ in mapping.sources()]
    read = read_labels(table, mapping, columns, table.header(mapping))  # as the import reads
    labels, words, guess = read.texts, read.words, read.guess or LabelGuess()
    if read.guess is None:
        guess.rubric, guess.scale = read.numbers
    shown = table.rows[start:start + _PREVIEW_ROWS]
    origin = table.origin
    n_rows = max(0, len(table.rows) - start)
    # a reshaped sheet's rows and columns are said as the file has them
    file_rows = len(set(origin.rows[start:])) if origin is not None else n_rows
    return SheetPreview(
        file=table.file, sheets=table.sheets, sheet=table.sheet, header_row=mapping.header_row,
        header=table.header(mapping),
        rows=[[cell_text(c) for c in r] for r in shown],
        row_numbers=[(origin.rows[i] + 1 if origin is not None else table.records.of(i + 1)
                      if table.records is not None else i + 1)
                     for i in range(start, start + len(shown))],
        mapping=mapping, encoding=table.encoding, delimiter=table.delimiter,
        n_rows=file_rows, letters=origin.letters() if origin is not None else [],
        judgments=n_rows if origin is not None else 0, labels=labels, label_grades=guess.grades,
        unmapped=guess.unmapped, rubric=guess.rubric, scale=guess.scale,
        alternatives=guess.alternatives, marked=_marked(table, mapping), vocabulary=words,
        legend_note=read.legends.why, refusal=_refusal(table, mapping),
    )


def _refusal(table: Table, mapping: ColumnMapping) -> str:
    """Why the import would refuse the sheet, where the preview shows it
    already: a sheet of titled blocks (its header written again under each
    title, ``Query: vpn drops``) has no query column to map."""
    header = table.header(mapping)
    blocks = titled_blocks(table, mapping.header_row, header) if mapping.query is None else None
    return str(InputError(blocks, sheet=table.sheet, line=mapping.header_row + 1,
                          hint=BLOCKS_HINT)) if blocks else ""


def _marked(table: Table, mapping: ColumnMapping) -> dict[str, int]:
    """Kind -> how many data rows the platform marks as such, of the kinds
    ``--keep`` imports (:func:`~core.io.annotator.platform.keepable`)."""
    if mapping.status is None and not mapping.flags:
        return {}
    data = table.rows[mapping.header_row + 1:]

    def texts(c: int) -> list[str]:
        return [cell_text(r[c]).strip() if c < len(r) else "" for r in data]

    counts: dict[str, int] = {}
    marked = flagged_rows(texts, len(data), mapping.status, mapping.flags, str,
                          table.header(mapping))
    grades = [texts(c) for c in mapping.grade_columns()]
    kept = keepable(marked, [g.__getitem__ for g in grades])  # (no box where it keeps nothing)
    for kind, _why in marked.values():
        if kind in kept:
            counts[kind] = counts.get(kind, 0) + 1
    per_row = table.origin.per_row if table.origin is not None else 1  # the file's rows
    return {kind: n // per_row for kind, n in counts.items()}
