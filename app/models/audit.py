"""The audit log: every grade change, oldest first."""

from __future__ import annotations

import datetime as dt
from enum import IntEnum
from functools import lru_cache
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt

from app.models.roles import DISPLAY, RIGHT_ALIGNED, TOOLTIP, WHOLE_ROLE, Index
from app.shown import CELL_SHOWN, bounded, id_tip, shown_id
from core.model.audit import AuditEntry
from core.model.document import Document

__all__ = ["AuditColumn", "AuditModel", "when_text"]


class AuditColumn(IntEnum):
    WHEN = 0
    WHO = 1
    QUERY = 2
    SOURCE = 3
    BEFORE = 4
    AFTER = 5
    NOTE = 6
    ORIGIN = 7
    SECONDS = 8


def when_text(when: str, today: dt.date | None = None) -> str:
    """An entry's time as the log shows it, in the local time zone: the time
    alone for today's (``14:07:07``), with the date before (``2026-12-05
    16:20``); a time that is not ISO 8601 as it is. The whole stamp, as the
    workbook keeps it, is the cell's tooltip: a stamp in full
    (``2026-12-06T04:07:07+00:00``) took a third of the log's width on a
    1280 px screen, pushing Origin and Seconds out of view."""
    try:
        at = dt.datetime.fromisoformat(when)
    except ValueError:
        return when
    local = at.astimezone() if at.tzinfo is not None else at
    if local.date() == (today or dt.date.today()):
        return local.strftime("%H:%M:%S")
    return local.strftime("%Y-%m-%d %H:%M")


@lru_cache(maxsize=4096)
def _when_shown(when: str, today: dt.date) -> str:
    """:func:`when_text` once per stamp and day: the log's view asks for each
    row it paints at every edit (the new entry scrolls them all), and
    ``strftime`` and ``date.today`` import ``time`` through PySide6's import
    hook on every call (~0.2 ms of a paint's ~1.5)."""
    return when_text(when, today)


#: Every role :meth:`AuditModel.data` answers; a view asks ~7 per cell it paints.
_ROLES = frozenset({DISPLAY, TOOLTIP, WHOLE_ROLE, Qt.ItemDataRole.TextAlignmentRole})


class AuditModel(QAbstractTableModel):
    """The document's audit log, oldest first; rows are appended, never edited."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._log: list[AuditEntry] = []
        self._shown = 0

    def set_document(self, doc: Document) -> None:
        self.beginResetModel()
        self._log = doc.audit
        self._shown = len(self._log)
        self.endResetModel()

    def sync(self) -> None:
        """Show entries appended to the log since the last call."""
        n = len(self._log)
        if n > self._shown:
            self.beginInsertRows(QModelIndex(), self._shown, n - 1)
            self._shown = n
            self.endInsertRows()
        elif n < self._shown:
            self.beginResetModel()
            self._shown = n
            self.endResetModel()

    def entry(self, row: int) -> AuditEntry:
        return self._log[row]

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else self._shown

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(AuditColumn)

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = DISPLAY) -> Any:
        if role != DISPLAY or orientation != Qt.Orientation.Horizontal:
            return None
        if not 0 <= section < len(AuditColumn):
            return None
        return ("When", "Who", "Query", "Source", "Before", "After", "Note", "Origin",
                "Seconds")[section]

    def data(self, index: Index, role: int = DISPLAY) -> Any:
        if role not in _ROLES or not index.isValid() or not 0 <= index.row() < self._shown:
            return None
        e = self._log[index.row()]
        if index.column() == AuditColumn.SECONDS:
            if role == DISPLAY:
                return e.seconds  # a number, rounded by the view's delegate; None: not timed
            if role == TOOLTIP:
                return ("not timed (an undo, a paste, a merge, an edit in a spreadsheet)"
                        if e.seconds is None else
                        f"{e.seconds!r} active seconds from the previous grade")
            if role == Qt.ItemDataRole.TextAlignmentRole:
                return RIGHT_ALIGNED
            return None
        if index.column() == AuditColumn.WHEN and role == DISPLAY:
            today = dt.datetime.now().date()  # (now: no import)
            return e.when_said(lambda when: _when_shown(when, today))
        if index.column() == AuditColumn.WHEN and role == TOOLTIP:
            return e.when_said()
        if role in (DISPLAY, TOOLTIP, WHOLE_ROLE):
            value = (e.when, e.who, e.query, e.source_id, e.before, e.after, e.note,
                     e.origin)[index.column()]
            if not isinstance(value, str) or role == WHOLE_ROLE:
                return value
            if index.column() in (AuditColumn.QUERY, AuditColumn.SOURCE):  # ids
                return shown_id(value, CELL_SHOWN) if role == DISPLAY else id_tip(value)
            return bounded(value, CELL_SHOWN)
        return None
