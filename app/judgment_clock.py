"""The time a reviewer spends on each grade: the reviewer's input events
(keys, clicks, the wheel) fed to :class:`core.analysis.pace.JudgmentClock`.

The clock's arithmetic lives in core; this adapter only tells it when the
reviewer did something and when a grade was typed. It watches the whole
application (a key in a dock or a dialog is work on a judgment too) and looks
at nothing but the event's type, so every other event passes untouched.

An application-wide filter written in Python is called for every event of
every object, each call wrapping the object for Python (about 28 us, most of
them Qt's own objects of a window's first show: polish, layout and property
events); the watch therefore starts once the window has been painted taking
input, not while it is built, shown and first laid out, nor while it waits
greyed for the file given at launch (:mod:`app.reading_state`).
"""

from __future__ import annotations

from time import monotonic

from PySide6.QtCore import QCoreApplication, QEvent, QObject, QTimer
from PySide6.QtWidgets import QMainWindow

from core.analysis.pace import JudgmentClock
from core.session import Changes, Worksheet

__all__ = ["ActivityClock"]

_INPUT = frozenset({QEvent.Type.KeyPress, QEvent.Type.MouseButtonPress, QEvent.Type.Wheel,
                    QEvent.Type.TouchBegin})


class ActivityClock(QObject):
    """Active seconds between the reviewer's grades in this session; counts
    afresh whenever ``session`` gets another document."""

    def __init__(self, session: Worksheet, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("activityClock")
        self.clock = JudgmentClock(start=monotonic())
        session.subscribe(self._on_changes)
        # A filter on the application is called for every event of every
        # object (about 40 ms of a window's building and first paint, 55 ms
        # of the greyed window's while a large run is read): the window's
        # input starts once it is painted taking input, and so does the watch.
        self._everywhere = parent is None
        if parent is None:
            self._watch_the_application()
        else:
            parent.installEventFilter(self)

    @property
    def watching(self) -> bool:
        """Whether the reviewer's input is watched (the application's events)."""
        return self._everywhere

    def _watch_the_application(self) -> None:
        app = QCoreApplication.instance()
        if app is not None:
            app.installEventFilter(self)
        self._everywhere = True

    def _on_changes(self, changes: Changes) -> None:
        if changes.document:
            self.restart()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if not self._everywhere:  # the window, until it is painted taking input
            if kind == QEvent.Type.Paint and watched is self.parent() and _takes_input(watched):
                watched.removeEventFilter(self)
                # Once this paint is done (its children's paints come after
                # the window's own): none of its events pass the watch.
                QTimer.singleShot(0, self, self._watch_the_application)
            return False
        if kind in _INPUT:
            self.clock.active(monotonic())
        return False

    def lap(self) -> float:
        """A grade was typed now: the active seconds it took."""
        return self.clock.lap(monotonic())

    def restart(self) -> None:
        """Count afresh (another document opened)."""
        self.clock.restart(monotonic())


def _takes_input(window: QObject) -> bool:
    """Whether ``window`` takes the reviewer's input: its grid is not greyed
    (as while the file given at launch is read)."""
    central = window.centralWidget() if isinstance(window, QMainWindow) else None
    return central is None or central.isEnabled()
