"""The Audit sheet: every grade change, who made it, when and from where."""

from __future__ import annotations

from typing import Any

from core.io.workbook.layout import AUDIT_COLUMNS, SHEETS, Formats, put_text
from core.model.document import Document


def write_audit(wb: Any, fmt: Formats, doc: Document) -> None:
    """A row per audit entry of ``doc``, user text written as text."""
    ws = wb.add_worksheet(SHEETS["audit"])
    ws.set_column(0, len(AUDIT_COLUMNS) - 1, 16)
    for c, header in enumerate(AUDIT_COLUMNS):
        ws.write_string(0, c, header, fmt.header)
    for r, e in enumerate(doc.audit, start=1):
        for c, text in enumerate(
            (e.who, e.when, e.query, e.source_id, e.before, e.after, e.note, e.origin)
        ):
            put_text(ws, r, c, text, fmt.text, fmt.text_q)
