"""The progress dialog of opening a large file, painted before reading starts.

A reader that holds the interpreter lock for seconds at a time (a big CSV
parse) would keep the dialog's own timer from showing it until the file is
read; :class:`PaintFirst` makes the reading wait (1 s at most) until the
dialog has been shown and painted. Small files start at once and show the
dialog only if they take long (the task's usual delay).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from PySide6.QtCore import QEventLoop
from PySide6.QtWidgets import QApplication, QWidget

__all__ = ["LARGE_FILE", "PaintFirst"]

#: A file at least this large shows its progress dialog at once when opened.
LARGE_FILE = 8 << 20

_R = TypeVar("_R")


class PaintFirst:
    """Holds back a task's work on ``path`` until :meth:`show` painted its
    dialog (when ``path`` is large; otherwise never)."""

    def __init__(self, path: Path) -> None:
        self._painted = threading.Event()
        try:
            large = path.stat().st_size >= LARGE_FILE
        except OSError:
            large = False  # the reader names the problem
        if not large:
            self._painted.set()

    def wrap(self, work: Callable[[Any, Any], _R]) -> Callable[[Any, Any], _R]:
        """``work`` (a task's function), waiting first for the dialog."""

        def waiting(progress: Any, cancelled: Any) -> _R:
            self._painted.wait(1.0)
            return work(progress, cancelled)

        return waiting

    def show(self, dialog: QWidget) -> None:
        """Show and paint ``dialog`` now (large files), then let the work start."""
        if not self._painted.is_set():
            dialog.show()
            QApplication.processEvents(QEventLoop.ProcessEventsFlag.ExcludeUserInputEvents)
            self._painted.set()
