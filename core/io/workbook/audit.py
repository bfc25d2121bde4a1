"""The Audit sheet: every grade change, who made it, when and from where, and
for a grade typed in the editor the active seconds it took (a convention
changed in the window or in the spreadsheet is an entry too: query and source
``—``, from and to ``<convention> = <value>``)."""

from __future__ import annotations

from typing import Any

from core.io.workbook.layout import AUDIT_COLUMNS, SHEETS, Formats, put_text
from core.io.workbook.page import (
    header_row,
    header_widths,
    lines_needed,
    lines_tall,
    print_setup,
    set_widths,
    text_width,
)
from core.model.document import Document
from core.reports.sentences import NO_CHANGES

#: The query, source id, from, to and note columns wrap their text at the
#: column's width (capped at 30 and 40 characters): a convention's change
#: ("fractional grades truncated = FALSE", "rubric = 0=Not relevant,1=...")
#: printed cut at the next column, in LibreOffice's Liberation Sans above
#: all (an .ods), and so did a query of 30 characters or more beside a
#: source id (a URL, a path), the source id beside the from column.
_WRAPPED = tuple(AUDIT_COLUMNS.index(h) for h in ("query", "source id", "from", "to", "note"))
#: Of those, the ids: a spreadsheet breaks a word longer than the column
#: (a URL) across lines, so its lines are counted so.
_IDS = frozenset(AUDIT_COLUMNS.index(h) for h in ("query", "source id"))
#: The share of a column's characters a line of running text fills.
_NARROWER = 0.8


def write_audit(wb: Any, fmt: Formats, doc: Document) -> None:
    """A row per audit entry of ``doc``, user text written as text."""
    ws = wb.add_worksheet(SHEETS["audit"])
    log = doc.audit
    # (every stamp, 2026-12-06T15:12:15+00:00, and those seen on reopening)
    when = [e.when_said() for e in log]
    widths = header_widths(AUDIT_COLUMNS, [
        text_width([e.who for e in log], 10, 24), text_width(when, 21, 46),
        text_width([e.query for e in log], 8, 30),
        text_width([e.source_id for e in log], 8, 30), text_width([e.before for e in log], 8, 30),
        text_width([e.after for e in log], 8, 30), text_width([e.note for e in log], 12, 40),
        16, 9])
    set_widths(ws, widths)
    header_row(ws, fmt, 0, AUDIT_COLUMNS, widths)
    ws.freeze_panes(1, 0)
    room = {c: widths[c] * _NARROWER for c in _WRAPPED}
    short = {c: int(w) - 1 for c, w in room.items()}  # texts no longer take one line
    for r, e in enumerate(log, start=1):
        row = (e.who, when[r - 1], e.query, e.source_id, e.before, e.after, e.note, e.origin)
        for c, text in enumerate(row):
            if c in room:
                put_text(ws, r, c, text, fmt.wrap, fmt.wrap_q)
            else:  # (top-aligned, beside the wrapped texts' first line)
                put_text(ws, r, c, text, fmt.top, fmt.top_q)
        # tall enough for LibreOffice's Liberation Sans, wider than Calibri (an
        # .xlsx keeps a row's height: the second line printed over the next row)
        if any(len(row[c]) > n or "\n" in row[c] for c, n in short.items()):
            lines_tall(ws, r, max(lines_needed(row[c], w, break_words=c in _IDS)
                                  for c, w in room.items()))
        if e.seconds is not None:  # full precision in the cell, one decimal shown
            ws.write_number(r, len(AUDIT_COLUMNS) - 1, e.seconds, fmt.seconds)
    if not log:
        ws.write_string(1, 0, NO_CHANGES)
    print_setup(ws, doc.judgment_version, header_rows=(0, 0))
