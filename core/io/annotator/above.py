"""The rows above a sheet's header, accounted for: a title (merged across
the table), who made the sheet (``Prepared by: ...``), the grade scale's
legend, notes, blank rows. None of them is imported; the report names what
each held, so that every row of the file is in one of its lines (the rows'
tally counts those below the header).

Each row a :class:`~core.io.annotator.accounting.AboveRow` on the
:class:`~core.io.annotator.report.ImportReport`, said in one line by
:func:`~core.io.annotator.accounting.above_text` (the command line, the
wizard) and listed in the JSON report.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from core.io.annotator.accounting import AboveRow
from core.io.annotator.legend import legend_rows
from core.io.annotator.model import cell_text

__all__ = ["rows_above"]

#: A row naming who made, graded or checked the sheet: ``Prepared by:
#: Dana``, ``Annotators: Ana, Ben``, ``Reviewer - Sam``.
_PEOPLE = re.compile(
    r"^\s*(?:(?:prepared|graded|judged|rated|reviewed|annotated|assessed|checked|compiled"
    r"|created|made|written|assigned|owned|labell?ed)\s+by\b"
    r"|(?:annotators?|raters?|assessors?|judges?|reviewers?|graders?|labell?ers?|owners?"
    r"|authors?|team|contacts?|by)\s*[:\-–]|(?:annotator|rater|reviewer|grader)s?\s*\()",
    re.I)


def _text(row: Sequence[Any]) -> str:
    return " | ".join(t for t in (cell_text(c).strip() for c in row) if t)


def rows_above(rows: Sequence[Sequence[Any]], header_row: int) -> tuple[AboveRow, ...]:
    """Each row above the header (``header_row``, 0-based; none when the
    sheet has no header) with what it holds: blank; the legend's (a grade
    scale's levels or labels, as :func:`~core.io.annotator.legend.legend_rows`
    finds them); who made the sheet; the first filled row, a title (a
    merged cell across the table is one cell); any other, a note."""
    above = rows[:max(header_row, 0)]
    legend = legend_rows(above)
    out: list[AboveRow] = []
    for r, row in enumerate(above, start=1):
        text = _text(row)
        if not text:
            kind = "blank"
        elif r in legend:
            kind = "legend"
        elif _PEOPLE.match(text):
            kind = "people"
        elif not any(a.kind != "blank" for a in out) and " | " not in text:
            kind = "title"
        else:
            kind = "note"
        out.append(AboveRow(r, kind, text))
    return tuple(out)
