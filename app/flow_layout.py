"""A layout that lays its widgets out in a row and wraps them onto the next
row where the row has not their room (Qt's flow layout example): a dock's
buttons, as many as a conflict has choices, never wider than the dock."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QMargins, QPoint, QRect, QSize, Qt
from PySide6.QtWidgets import QLayout, QLayoutItem, QSizePolicy, QWidget

__all__ = ["FlowLayout"]


class FlowLayout(QLayout):
    """Widgets left to right, a row wrapped where the next has not the room;
    as tall as its rows at a width (``heightForWidth``), as wide at least as
    its widest widget."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._items: list[QLayoutItem] = []
        self.setContentsMargins(QMargins(0, 0, 0, 0))

    def addItem(self, item: QLayoutItem) -> None:
        self._items.append(item)

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int) -> Any:
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int) -> Any:
        return self._items.pop(index) if 0 <= index < len(self._items) else None

    def expandingDirections(self) -> Qt.Orientation:
        return Qt.Orientation(0)

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        return self._lay_out(QRect(0, 0, width, 0), place=False)

    def setGeometry(self, rect: QRect) -> None:
        super().setGeometry(rect)
        self._lay_out(rect, place=True)

    def sizeHint(self) -> QSize:
        return self.minimumSize()

    def minimumSize(self) -> QSize:
        size = QSize()
        for item in self._shown():
            size = size.expandedTo(item.minimumSize())
        m = self.contentsMargins()
        return size + QSize(m.left() + m.right(), m.top() + m.bottom())

    def _shown(self) -> list[QLayoutItem]:
        """The items laid out, measured and placed alike: Qt's own rule
        (``isEmpty``), a hidden widget skipped unless its size policy keeps
        its room (``retainSizeWhenHidden``). The placing skipped every hidden
        widget while the least size counted the one keeping its room, so
        the buttons after it were laid over the room it kept."""
        return [item for item in self._items if not item.isEmpty()]

    def _spacing(self, orientation: Qt.Orientation) -> int:
        if self.spacing() >= 0:
            return self.spacing()
        parent = self.parentWidget()
        if parent is None:
            return 6
        return parent.style().layoutSpacing(
            QSizePolicy.ControlType.PushButton, QSizePolicy.ControlType.PushButton,
            orientation, None, parent)

    def _lay_out(self, rect: QRect, *, place: bool) -> int:
        """Place the items in ``rect`` (or only measure): the height used."""
        m = self.contentsMargins()
        area = rect.adjusted(m.left(), m.top(), -m.right(), -m.bottom())
        x, y, line = area.x(), area.y(), 0
        across = self._spacing(Qt.Orientation.Horizontal)
        down = self._spacing(Qt.Orientation.Vertical)
        for item in self._shown():
            hint = item.sizeHint()
            if x + hint.width() > area.right() + 1 and line > 0:
                x, y, line = area.x(), y + line + down, 0
            if place:
                item.setGeometry(QRect(QPoint(x, y), hint))
            x += hint.width() + across
            line = max(line, hint.height())
        return y + line - rect.y() + m.bottom()

