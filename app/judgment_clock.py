"""The time a reviewer spends on each grade: the reviewer's input events
(keys, clicks, the wheel) fed to :class:`core.analysis.pace.JudgmentClock`.

The clock's arithmetic lives in core; this adapter only tells it when the
reviewer did something and when a grade was typed. It watches the whole
application (a key in a dock or a dialog is work on a judgment too) and looks
at nothing but the event's type, so every other event passes untouched.
"""

from __future__ import annotations

from time import monotonic

from PySide6.QtCore import QCoreApplication, QEvent, QObject

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
        # object (about 40 ms of a window's building and first paint): the
        # window's input starts when it is shown, and so does the watch.
        self._everywhere = parent is None
        if parent is None:
            self._watch_the_application()
        else:
            parent.installEventFilter(self)

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
        if not self._everywhere:  # the window, until it is shown
            if kind == QEvent.Type.Show and watched is self.parent():
                watched.removeEventFilter(self)
                self._watch_the_application()
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
