"""Detecting the header row and the column mapping, and the wizard's preview."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from core.io.annotator.model import SINGLE_FIELDS, ColumnMapping, SheetPreview, Table, cell_text
from core.io.annotator.read import read_table
from core.io.headers import ALIASES, field_of, normalize

__all__ = ["detect_mapping", "preview"]

_HEADER_SCAN = 20
_PREVIEW_ROWS = 20


def _wide_annotator(header: str) -> str | None:
    """``grade_alice`` / ``alice grade`` / ``rating (bob)`` -> the annotator's name."""
    key = normalize(re.sub(r"[()\[\]:]", " ", header))
    for alias in ALIASES["grade"]:
        for pattern in (rf"^{alias}_(.+)$", rf"^(.+)_{alias}$"):
            m = re.match(pattern, key)
            if m and m.group(1) not in ALIASES["grade"]:
                start = header.lower().find(m.group(1).split("_")[0])
                raw = header[start:start + len(m.group(1))] if start >= 0 else m.group(1)
                return raw.strip(" _-:()[]") or m.group(1)
    return None


def _score_header(row: Sequence[Any]) -> int:
    return sum(1 for c in row if isinstance(c, str) and (field_of(c) or _wide_annotator(c)))


def detect_mapping(table: Table) -> ColumnMapping:
    """Guess the header row and which column holds what.

    The header is the first of the first 20 rows with the most recognised
    names. A column named like ``grade``/``label``/``rating``/``relevance``
    gives a long layout; several named ``grade_<annotator>`` (or
    ``<annotator> rating``) give a wide one.
    """
    best_row, best = 0, 0
    for i, row in enumerate(table.rows[:_HEADER_SCAN]):
        score = _score_header(row)
        if score > best:
            best_row, best = i, score
    header = [cell_text(c) for c in table.rows[best_row]] if table.rows else []
    found: dict[str, int] = {}
    wide: list[tuple[int, str]] = []
    for col, name in enumerate(header):
        f = field_of(name)
        if f is not None and f not in found:
            found[f] = col
        elif f is None:
            who = _wide_annotator(name)
            if who is not None:
                wide.append((col, who))
    if "grade" in found and wide:
        # An exact "grade" column wins; per-annotator columns stay unmapped
        # unless the user maps them.
        wide = []
    mapping = ColumnMapping(header_row=best_row, grades=tuple(wide))
    fields: dict[str, Any] = {k: v for k, v in found.items() if k in SINGLE_FIELDS}
    return replace(mapping, **fields)


def preview(path: str | Path, *, sheet: str | None = None,
            mapping: ColumnMapping | None = None) -> SheetPreview:
    """Sheets, the detected header row, the first rows and the mapping."""
    table = read_table(path, sheet=sheet)
    mapping = mapping or detect_mapping(table)
    start = mapping.header_row + 1
    return SheetPreview(
        file=table.file, sheets=table.sheets, sheet=table.sheet, header_row=mapping.header_row,
        header=table.header(mapping),
        rows=[[cell_text(c) for c in r] for r in table.rows[start:start + _PREVIEW_ROWS]],
        mapping=mapping, encoding=table.encoding, delimiter=table.delimiter,
        n_rows=max(0, len(table.rows) - start),
    )

