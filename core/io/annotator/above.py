"""The rows above a sheet's header, accounted for: a title (merged across
the table), the grade scale's legend, other text (who made the sheet, an
instruction: quoted, never named from its words, which the next sheet
words otherwise), blank rows. None of them is imported; the report names what
each held, so that every row of the file is in one of its lines (the rows'
tally counts those below the header).

Each row a :class:`~core.io.annotator.accounting.AboveRow` on the
:class:`~core.io.annotator.report.ImportReport`, said in one line by
:func:`~core.io.annotator.accounting.above_text` (the command line, the
wizard) and listed in the JSON report.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.io.annotator.accounting import AboveRow
from core.io.annotator.legend import legend_rows
from core.io.annotator.model import cell_text

__all__ = ["rows_above"]

def _text(row: Sequence[Any]) -> str:
    return " | ".join(t for t in (cell_text(c).strip() for c in row) if t)


def rows_above(rows: Sequence[Sequence[Any]], header_row: int) -> tuple[AboveRow, ...]:
    """Each row above the header (``header_row``, 0-based; none when the
    sheet has no header) with what it holds: blank; the legend's (a grade
    scale's levels or labels, as :func:`~core.io.annotator.legend.legend_rows`
    finds them); the first filled row of one cell, a title (a merged cell
    across the table is one cell); any other, text (quoted where said)."""
    above = rows[:max(header_row, 0)]
    legend = legend_rows(above)
    out: list[AboveRow] = []
    for r, row in enumerate(above, start=1):
        text = _text(row)
        if not text:
            kind = "blank"
        elif r in legend:
            kind = "legend"
        elif not any(a.kind != "blank" for a in out) and " | " not in text:
            kind = "title"
        else:
            kind = "text"
        out.append(AboveRow(r, kind, text))
    return tuple(out)
