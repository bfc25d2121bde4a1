"""The grading scale's levels as a table: grade, label, description,
examples; the description and the examples editable (the conventions
panel's guidelines editor)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt, Signal

from app.models.roles import DISPLAY, EDIT, TOOLTIP, Index
from app.shown import CELL_SHOWN, bounded
from core.model.conventions import Level
from core.model.guidelines import described

__all__ = ["EXAMPLES_SEPARATOR", "GuidelinesModel"]

#: Between examples in one cell (an example is one line).
EXAMPLES_SEPARATOR = "; "
_HEADERS = ("grade", "label", "description", "examples (; between)")
_DESCRIPTION, _EXAMPLES = 2, 3


class GuidelinesModel(QAbstractTableModel):
    """A row per level; editing a description or the examples emits
    :attr:`guideline_edited` with the level's new
    :class:`~core.model.guidelines.Guideline` (the owner makes it a
    convention change); the rows change only through :meth:`set_levels`."""

    guideline_edited = Signal(object)

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._levels: list[Level] = []

    def set_levels(self, levels: Sequence[Level]) -> None:
        """Show ``levels``: the same grades as shown are updated in place (an
        edit answered while its editor commits must not reset the view)."""
        if [lv.value for lv in levels] == [lv.value for lv in self._levels]:
            self._levels = list(levels)
            if levels:
                self.dataChanged.emit(self.index(0, 0),
                                      self.index(len(levels) - 1, len(_HEADERS) - 1))
            return
        self.beginResetModel()
        self._levels = list(levels)
        self.endResetModel()

    def levels(self) -> list[Level]:
        return list(self._levels)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._levels)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(_HEADERS)

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = DISPLAY) -> Any:
        if role == DISPLAY and orientation == Qt.Orientation.Horizontal and 0 <= section < 4:
            return _HEADERS[section]
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        base = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        if index.column() in (_DESCRIPTION, _EXAMPLES):
            return base | Qt.ItemFlag.ItemIsEditable
        return base

    def data(self, index: Index, role: int = DISPLAY) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._levels):
            return None
        level = self._levels[index.row()]
        if role in (DISPLAY, EDIT, TOOLTIP):
            text = (level.title.partition(" - ")[0], level.label, level.description,
                    EXAMPLES_SEPARATOR.join(level.examples))[index.column()]
            return text if role == EDIT else bounded(text, CELL_SHOWN)  # (edited whole)
        return None

    def setData(self, index: Index, value: Any, role: int = EDIT) -> bool:
        if role != EDIT or not index.isValid() or index.column() not in (_DESCRIPTION,
                                                                         _EXAMPLES):
            return False
        level = self._levels[index.row()]
        text = str(value)
        if index.column() == _DESCRIPTION:
            new = described(level, description=text)
        else:
            new = described(level, examples=text.split(EXAMPLES_SEPARATOR.strip()))
        if (new.description, new.examples) == (level.description, level.examples):
            return False
        self.guideline_edited.emit(new)
        return True
