"""A banner above the grid when a worksheet CSV opened has annotators' columns it does not read.

A worksheet CSV/TSV written by ``import -o`` holds, after its ``grade``
column (their consensus), one ``grade_<name>`` column per annotator, which
only the import reads back. Opened as a worksheet (File > Open, Open
Recent, a dropped file, the file given at launch), its grade column is the
grade and those columns are left out: the command line says so on stderr
(:func:`core.io.load.annotators_not_read`); the window said nothing. This
banner says the same line, naming the file and the columns, with the
window's way to keep them: an Import button that runs the import wizard
on the file (File > Import annotators' sheet… on it). It closes on its
button and when another document is shown.

Wire it with ``install_unread_annotators(window, file_ops)``;
:meth:`UnreadAnnotatorsBanner.offer` shows it for a file just opened.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt

from app.banner import Banner
from core.io.load import annotators_not_read

if TYPE_CHECKING:
    from app.fileops import FileOps
    from app.window_api import WindowApi

__all__ = ["UnreadAnnotatorsBanner", "install_unread_annotators"]

#: The window's way to keep each annotator's grades (the banner's button, the menu).
HOW = "its Import… button below (File > Import annotators' sheet… on it)"


class UnreadAnnotatorsBanner(Banner):
    """The unread-annotators banner (objectName ``unreadAnnotatorsBanner``)."""

    def __init__(self, window: WindowApi, file_ops: FileOps) -> None:
        super().__init__(window, "unreadAnnotatorsBanner", "info", "info_border")
        self.text.setTextFormat(Qt.TextFormat.PlainText)  # (a path's < or & as they are)
        self.file_ops = file_ops
        self.path: Path | None = None
        self.import_button = self.add_button(
            "importAnnotators", self.tr("Import…"),
            self.tr("Import the file in the import wizard: each annotator's grades kept"))
        self.import_button.clicked.connect(self._import)
        self.close_button = self.add_button("closeUnreadAnnotators", self.tr("Close"))
        self.close_button.clicked.connect(self.hide)
        window.document_replaced.connect(lambda _doc: self.hide())
        file_ops.opened.connect(self.offer)

    def offer(self, path: str | Path) -> bool:
        """Say which annotators' columns the worksheet ``path``, just opened,
        left out; True when shown (never for a run read with its qrels, nor
        for a file the import read)."""
        said = ("" if self.file_ops.qrels is not None
                or self.window_.document.import_report is not None
                else annotators_not_read(path, self.tr(HOW)))
        if not said:
            self.hide()
            return False
        self.path = Path(path)
        self.text.setText(said)
        self.show()
        self.window_.show_message(self.tr(
            "{0}: its annotators' columns are not read: see the banner above the grid").format(
                self.path.name), 12000)
        return True

    def _import(self) -> None:
        """The import wizard on the file (its document, if edited, saved first or not)."""
        if self.path is not None and self.file_ops.maybe_save():
            self.file_ops.run_import_wizard(self.path)  # (its document shown: hidden)


def install_unread_annotators(window: WindowApi, file_ops: FileOps) -> UnreadAnnotatorsBanner:
    """Put the (hidden) unread-annotators banner above ``window``'s grid."""
    banner = UnreadAnnotatorsBanner(window, file_ops)
    window.grid_panel.add_banner(banner)
    return banner
