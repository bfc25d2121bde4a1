"""Something to do once a window has been painted the first time: the
start-up probe's report (:mod:`app.startup_probe`) and the review docks the
editor installs after its window is on screen (:func:`app.main.main`)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QWidget

__all__ = ["after_first_paint"]


class _FirstPaint(QObject):
    def __init__(self, window: QWidget, then: Callable[[], object]) -> None:
        super().__init__(window)
        self._then: Callable[[], object] | None = then

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint and self._then is not None:
            then, self._then = self._then, None
            QTimer.singleShot(0, then)  # after this paint has been done
            watched.removeEventFilter(self)
        return False


def after_first_paint(window: QWidget, then: Callable[[], object]) -> None:
    """Call ``then`` once ``window`` has been painted (its first paint event
    done, from the event loop); call it before showing the window."""
    window.installEventFilter(_FirstPaint(window, then))
