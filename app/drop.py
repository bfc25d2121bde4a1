"""Open a file by dropping it on the window (what every desktop editor does).

Wire it with ``install_drop(window, open_path)``: a file dragged from a file
manager onto any part of the window is opened with ``open_path`` (the file
operations' open, which asks about unsaved changes first).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QEvent, QObject, Signal
from PySide6.QtGui import QDropEvent
from PySide6.QtWidgets import QWidget

__all__ = ["FileDrop", "dropped_files", "install_drop"]


def dropped_files(event: QDropEvent) -> list[Path]:
    """The local files a drag carries (folders and remote addresses left out)."""
    mime = event.mimeData()
    if mime is None or not mime.hasUrls():
        return []
    paths = [Path(url.toLocalFile()) for url in mime.urls() if url.isLocalFile()]
    return [p for p in paths if p.is_file()]


class FileDrop(QObject):
    """Accepts files dragged onto a widget and announces the first one."""

    #: A file was dropped: carries its path.
    file_dropped = Signal(str)

    def __init__(self, target: QWidget) -> None:
        super().__init__(target)
        self.setObjectName("fileDrop")
        target.setAcceptDrops(True)
        target.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind not in (QEvent.Type.DragEnter, QEvent.Type.DragMove, QEvent.Type.Drop):
            return False
        assert isinstance(event, QDropEvent)  # DragEnter and DragMove events are drop events
        files = dropped_files(event)
        if not files:
            event.ignore()
            return True
        event.acceptProposedAction()
        if kind == QEvent.Type.Drop:
            self.file_dropped.emit(str(files[0]))
        return True


def install_drop(window: QWidget, open_path: Callable[[Path], object]) -> FileDrop:
    """Open files dropped on ``window`` with ``open_path``."""
    drop = FileDrop(window)
    drop.file_dropped.connect(lambda path: open_path(Path(path)))
    return drop
