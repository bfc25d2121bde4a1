"""The audit log view: every grade change, append-only (undo appends too)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QPainter, QPaintEvent
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView

from app.models.audit import AuditColumn, AuditModel

__all__ = ["AuditLogView"]


class AuditLogView(QTableView):
    """The document's audit log (objectName ``auditLog``); while it is empty
    it says what will appear in it."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.setObjectName("auditLog")
        self.audit_model = AuditModel(self)
        self.setModel(self.audit_model)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.verticalHeader().setVisible(False)
        self.horizontalHeader().setSectionResizeMode(AuditColumn.NOTE,
                                                     QHeaderView.ResizeMode.Stretch)
        self.audit_model.rowsInserted.connect(lambda *_: self.scrollToBottom())
        self.placeholder = self.tr(
            "No grade changes yet. Every grade you set, paste or undo is listed here with "
            "your name and the time, and saved with the workbook.")

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        if self.audit_model.rowCount():
            return
        painter = QPainter(self.viewport())
        painter.setPen(self.palette().placeholderText().color())
        painter.drawText(self.viewport().rect().adjusted(12, 8, -12, -8),
                         int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop
                             | Qt.TextFlag.TextWordWrap), self.placeholder)
