"""The time a reviewer spends on each grade: the reviewer's input events
(keys, clicks, the wheel) fed to :class:`core.analysis.pace.JudgmentClock`.

The clock's arithmetic lives in core; this adapter only tells it when the
reviewer did something and when a grade was typed. It watches every
top-level window the reviewer works in (a key in a dock or a dialog is work
on a judgment too): the main window, and each window that takes the
keyboard (a dialog, a floating dock) as it does. A window's input comes
through its ``QWindow`` before any widget gets it, so a filter there hears
every key, click and turn of the wheel, and looks at nothing but the
event's type. (A popup's own keys, a menu's or a list's, are not heard; the
click that opened it and the step it makes are.)

A filter written in Python is called for every event its object gets, each
call wrapping the object for Python (about 28 us). On the application it was
called for every event of every object: Qt's own polish, layout, property
and timer events of a window's first show, and 9-53 an edit (about 1 ms; a
launch on a 2M-candidate run ~300 calls before the window was usable). On
the windows it is called for their own few events (input, expose, update
requests). The watch starts once the grid has been painted taking input,
not while the window is built, shown and first laid out, nor while it waits
greyed for the file given at launch (:mod:`app.reading_state`, the grids
hidden); until then only the grid's viewport is watched for that paint (it
was the window, whose every event passed: ~260 calls during a launch on a
2M-candidate run).
"""

from __future__ import annotations

from time import monotonic

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtGui import QGuiApplication, QWindow
from PySide6.QtWidgets import QWidget

from core.analysis.pace import JudgmentClock
from core.session import Changes, Worksheet

__all__ = ["ActivityClock"]

_INPUT = frozenset({QEvent.Type.KeyPress, QEvent.Type.MouseButtonPress, QEvent.Type.Wheel,
                    QEvent.Type.TouchBegin})


class ActivityClock(QObject):
    """Active seconds between the reviewer's grades in this session; counts
    afresh whenever ``session`` gets another document. The watch starts
    once ``grid`` (the grid's viewport) is painted taking input; at once
    without it."""

    def __init__(self, session: Worksheet, parent: QObject | None = None, *,
                 grid: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("activityClock")
        self.clock = JudgmentClock(start=monotonic())
        session.subscribe(self._on_changes)
        # The window's input starts once its grid is painted taking input,
        # and so does the watch (before, its own first show's events would
        # pass it).
        self._grid = grid
        self._everywhere = grid is None
        if grid is None:
            self._watch_the_windows()
        else:
            grid.installEventFilter(self)

    @property
    def watching(self) -> bool:
        """Whether the reviewer's input is watched (every window's)."""
        return self._everywhere

    def _watch_the_windows(self) -> None:
        """Every top-level window watched, and each one that takes the
        keyboard from now on (installed once: a filter installed again on
        the same window is moved, not added)."""
        app = QGuiApplication.instance()
        if isinstance(app, QGuiApplication):
            for window in app.topLevelWindows():
                window.installEventFilter(self)
            app.focusWindowChanged.connect(self._watch_window)
        self._everywhere = True

    def _watch_window(self, window: QWindow | None) -> None:
        if window is not None:
            window.installEventFilter(self)

    def _on_changes(self, changes: Changes) -> None:
        if changes.document:
            self.restart()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if not self._everywhere:  # the grid, until it is painted taking input
            if kind == QEvent.Type.Paint and watched is self._grid and watched.isEnabled():
                watched.removeEventFilter(self)
                # Once this paint is done (the window's, of which it is a
                # part): none of its events pass the watch.
                QTimer.singleShot(0, self, self._watch_the_windows)
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

