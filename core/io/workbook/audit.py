"""The Audit sheet: every grade change, who made it, when and from where, and
for a grade typed in the editor the active seconds it took (a convention
changed in the window or in the spreadsheet is an entry too: query and source
``—``, from and to ``<convention> = <value>``)."""

from __future__ import annotations

from typing import Any

from core.io.workbook.layout import (
    AUDIT_COLUMNS,
    CANDIDATE_COLUMNS,
    COLUMN_INDEX,
    SHEETS,
    Formats,
    put_text,
    sheet_ref,
)
from core.io.workbook.page import (
    header_row,
    header_widths,
    lines_needed,
    lines_tall,
    print_setup,
    set_widths,
    text_width,
)
from core.io.workbook.words import Text, join
from core.model.document import Document
from core.reports.sentences import audit_sentence

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

#: What the audit log covers, in the workbook: the app's own record, written
#: at the export. A grade edited in a spreadsheet since is not in it (the app
#: logs it when it reopens the workbook): the live count of
#: :func:`changed_now` says how many grades differ now. The Report's
#: "Audit log" heading and the Audit sheet's line under its entries.
LOG_COVERS = "the changes made in NDCG Worksheet, up to this workbook's export"
#: What the workbook says of an empty log (the app's words,
#: :data:`~core.reports.sentences.NO_CHANGES`, "since the judgments were
#: read", read as a statement about now beside grades edited since).
NONE_LOGGED = "No grade, note or convention was changed in NDCG Worksheet up to this export."


def log_sentence(doc: Document) -> str:
    """The audit log in one sentence (:func:`~core.reports.sentences.audit_sentence`),
    an empty one as :data:`NONE_LOGGED`."""
    return audit_sentence(doc.audit) if doc.audit else NONE_LOGGED


def changed_grades(rows: int, sheet: str = SHEETS["candidates"]) -> str:
    """A formula: how many of the ``rows`` candidates of the Candidates sheet
    ``sheet`` hold a current grade (F) that differs from their original (E),
    compared as :meth:`core.model.document.Document.changed` compares them:
    the same state (the grade state G, the current grade's, against the word
    ``unknown`` or ``unrateable`` the original's cell holds: an unrateable
    grade's reason is no part of it) and, for numbers, the same number (a
    spreadsheet's ``=``, which takes a number re-saved with 15 digits as the
    one written, as reopening does: :func:`~core.io.workbook.layout.written_back`).
    A grade state that is none of the three (``invalid``) differs. One
    ``SUMPRODUCT`` of comparisons (no ``ISNUMBER`` over a range, which
    Gnumeric reads at the formula's own row alone)."""
    if rows < 1:
        return "0"
    where = sheet_ref(sheet)

    def col(header: str) -> str:
        c = CANDIDATE_COLUMNS[COLUMN_INDEX[header]][0]
        return f"{where}!${c}$2:${c}${rows + 1}"

    original, current, state = col("original grade"), col("current grade"), col("grade state")
    return (f'SUMPRODUCT(1-({state}={original})'
            f'-({state}="number")*({original}={current}))')


def changed_now(doc: Document, sheet: str = SHEETS["candidates"]) -> Text:
    """The sentence of how many grades differ from their originals now, live
    over the Candidates sheet (:func:`changed_grades`), the number the app
    counts as its cached text."""
    count = Text(changed_grades(len(doc), sheet), str(int(doc.changed().sum())))
    return join([
        "Grades that differ from their originals in the Candidates sheet now: ", count,
        " (a live count over its original and current grade columns, so a grade edited "
        "in a spreadsheet since the export is counted here; NDCG Worksheet records it in "
        "the audit log when it reopens this file)."])


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
        ws.write_string(1, 0, NONE_LOGGED)
    _covers(ws, fmt, doc, max(len(log), 1) + 2, widths)
    print_setup(ws, doc.judgment_version, header_rows=(0, 0))


def _covers(ws: Any, fmt: Formats, doc: Document, r: int, widths: list[float]) -> None:
    """Under the entries (row ``r``, 0-based): what they cover, and the live
    count of grades that differ from their originals now, each across the
    sheet's columns, wrapped."""
    last = len(AUDIT_COLUMNS) - 1
    room = sum(widths) * 1.1
    covers = f"Above: {LOG_COVERS}."
    now = changed_now(doc)
    for row, text in ((r, covers), (r + 1, now)):
        shown = text.cached if isinstance(text, Text) else text
        lines_tall(ws, row, lines_needed(shown, room))
        ws.merge_range(row, 0, row, last, "", fmt.wrap)
        if isinstance(text, Text):
            ws.write_formula(row, 0, "=" + text.formula, fmt.wrap, text.cached)
        else:
            ws.write_string(row, 0, text, fmt.wrap)
