"""A label of one line never wider than its room: what does not fit is
elided, the whole text kept (for its tooltip, a copy, an accessible name).
The summary's title and footer and the import report's counts of names use
it, where a wrapped name would push the rows below it down."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QPainter, QPaintEvent
from PySide6.QtWidgets import QLabel, QSizePolicy

__all__ = ["ElidedLabel"]


class ElidedLabel(QLabel):
    """One line of plain text never wider than its room: what does not fit
    is elided (``mode``: its end or its middle); :meth:`text` stays whole."""

    def __init__(self, mode: Qt.TextElideMode, parent: Any = None) -> None:
        super().__init__(parent)
        self._mode = mode
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)

    def set_mode(self, mode: Qt.TextElideMode) -> None:
        """Elide at ``mode`` from now on (a query's title with its text: its
        end; an id alone: its middle)."""
        if mode != self._mode:
            self._mode = mode
            self.update()

    def minimumSizeHint(self) -> QSize:
        return QSize(0, super().minimumSizeHint().height())

    def shown_text(self) -> str:
        """The text as painted at the label's width now."""
        return self.fontMetrics().elidedText(self.text(), self._mode,
                                             self.contentsRect().width())

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.drawText(self.contentsRect(),
                         int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
                         self.shown_text())
