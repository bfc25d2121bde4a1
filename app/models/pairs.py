"""Small editable tables of (number, value) pairs: the gain table, the rubric."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt, Signal

from app.models.roles import DISPLAY, EDIT, TOOLTIP, Index
from core.model.numbers import number_text

__all__ = ["PairTableModel"]


class PairTableModel(QAbstractTableModel):
    """Editable (number, value) rows: a gain table or a rubric's labels.

    ``value_is_number`` makes the second column a number (gain) instead of text
    (label). Edits change the rows and emit :attr:`pairs_edited`; the owner
    turns them into a convention change (an undo command).
    """

    pairs_edited = Signal()

    def __init__(self, headers: tuple[str, str], *, value_is_number: bool,
                 parent: Any = None) -> None:
        super().__init__(parent)
        self._headers = headers
        self._numeric = value_is_number
        self._rows: list[tuple[float, Any]] = []

    def set_pairs(self, pairs: Sequence[tuple[float, Any]]) -> None:
        self.beginResetModel()
        self._rows = [(float(a), b) for a, b in pairs]
        self.endResetModel()

    @property
    def value_is_number(self) -> bool:
        """Whether the second column is a number (a gain), not a label."""
        return self._numeric

    def pairs(self) -> list[tuple[float, Any]]:
        return list(self._rows)

    def add_row(self) -> None:
        nxt = max((a for a, _ in self._rows), default=-1.0) + 1.0
        self.beginInsertRows(QModelIndex(), len(self._rows), len(self._rows))
        self._rows.append((nxt, nxt if self._numeric else ""))
        self.endInsertRows()
        self.pairs_edited.emit()

    def remove_row(self, row: int) -> None:
        if 0 <= row < len(self._rows):
            self.beginRemoveRows(QModelIndex(), row, row)
            del self._rows[row]
            self.endRemoveRows()
            self.pairs_edited.emit()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else 2

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = DISPLAY) -> Any:
        if role == DISPLAY and orientation == Qt.Orientation.Horizontal and section in (0, 1):
            return self._headers[section]
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return (Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
                | Qt.ItemFlag.ItemIsEditable)

    def data(self, index: Index, role: int = DISPLAY) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        value = self._rows[index.row()][index.column()]
        number = index.column() == 0 or self._numeric
        if role in (DISPLAY, EDIT):
            return float(value) if number else str(value)
        if role == TOOLTIP and number and not float(value).is_integer():
            return number_text(value)  # in full (the view shows it rounded)
        return None

    def setData(self, index: Index, value: Any, role: int = EDIT) -> bool:
        if role != EDIT or not index.isValid():
            return False
        a, b = self._rows[index.row()]
        try:
            if index.column() == 0 or self._numeric:
                number = float(value)
                if not math.isfinite(number):
                    return False
                value = number
        except (TypeError, ValueError):
            return False
        self._rows[index.row()] = (value, b) if index.column() == 0 else (a, value)
        self.dataChanged.emit(index, index)
        self.pairs_edited.emit()
        return True
