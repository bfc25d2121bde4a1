"""The audit log view: every grade change, append-only (undo appends too)."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView

from app.models.audit import AuditColumn, AuditModel

__all__ = ["AuditLogView"]


class AuditLogView(QTableView):
    """The document's audit log (objectName ``auditLog``)."""

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
