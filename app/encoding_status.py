"""The encoding a worksheet CSV/TSV was read in, in the status bar.

The editor reads a text file's encoding from its bytes as the annotators'
importer does (a byte order mark, else UTF-8, else Windows-1252, which Excel
writes on Windows): a file Excel saved is never refused. The status bar says
which encoding was found; a click offers the others, and choosing one
reopens the file in it (asking first to save unsaved changes). Saving writes
the file in the encoding it was read in (UTF-8 with BOM, when the user
agrees, if that one cannot hold every character), which the status bar then
says.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu, QToolButton

from app.file_formats import ENCODINGS, TEXT_SUFFIXES
from core.io.delimited import text_encoding

if TYPE_CHECKING:
    from app.fileops import FileOps
    from app.window_api import WindowApi

__all__ = ["ENCODINGS", "EncodingStatus", "install_encoding_status"]

def _label(codec: str) -> str:
    return ENCODINGS.get(codec, codec)


class EncodingStatus(QObject):
    """A status-bar button naming the open text file's encoding; its menu
    reopens the file in another one."""

    def __init__(self, window: WindowApi, reopen: Callable[..., Any]) -> None:
        super().__init__(window)
        self.setObjectName("encodingStatus")
        self.window = window
        self._reopen = reopen
        self.button = QToolButton(window)
        self.button.setObjectName("encodingButton")
        self.button.setAccessibleName(self.tr("File encoding"))
        self.button.setAutoRaise(True)
        self.button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.button.setToolTip(self.tr("The encoding the file was read in, found from its "
                                       "bytes (click to reopen it in another)"))
        self.menu = QMenu(self.button)
        for codec, words in ENCODINGS.items():
            action = QAction(words, self.menu)
            action.setData(codec)
            action.triggered.connect(lambda _=False, c=codec: self.reopen_in(c))
            self.menu.addAction(action)
        self.button.setMenu(self.menu)
        window.statusBar().addPermanentWidget(self.button)
        window.document_replaced.connect(self.update)
        self.update()

    def encoding(self) -> str | None:
        """The shown document's encoding; None when it is not a text file's."""
        doc, path = self.window.document, self.window.path
        if doc is None or path is None or path.suffix.lower() not in TEXT_SUFFIXES:
            return None
        return text_encoding(doc) or "utf-8"

    def update(self, *_args: Any) -> None:
        codec = self.encoding()
        self.button.setVisible(codec is not None)
        if codec is not None:
            self.button.setText(self.tr("Encoding: {0}").format(_label(codec)))

    def reopen_in(self, codec: str) -> object:
        """Read the open file again in ``codec``."""
        path = self.window.path
        if path is None:
            return None
        return self._reopen(Path(path), encoding=codec)


def install_encoding_status(window: WindowApi, file_ops: FileOps) -> EncodingStatus:
    """Add the encoding button to ``window``'s status bar (it follows the
    shown document, and a save, in the encoding the save wrote)."""
    status = EncodingStatus(window, file_ops.open_path)
    file_ops.saved.connect(status.update)
    return status
