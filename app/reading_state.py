"""The window while the file given at launch is still read.

The editor shows its window as soon as it is built rather than after the
read (:func:`app.main.build_window`): its frame, menus, docks and layout are
painted while the reading thread and its child work, so that only the
document's own views are left to do once it arrives. Meanwhile the window
says what it reads (a line in the status bar, one above the grid), its grid,
panels and docks are greyed and take no key or click, and every menu action
but Close and Quit is off, submenus (Open Recent) with them, and no file
dropped on it opens (nothing may edit, save or replace the document that
is coming); closing it stops the read and drops the document
(:meth:`app.opening.Reading.stop`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QDockWidget,
    QLabel,
    QLayout,
    QMenu,
    QSizePolicy,
    QSpacerItem,
    QToolBar,
    QWidget,
)

from app.banner import Banner
from app.opening import Reading
from app.shown import boxed
from app.window_api import WindowApi

__all__ = ["ReadingState"]


class ReadingState(QObject):
    """``window`` waiting for ``reading``'s document (objectName
    ``readingState``): :meth:`then` is called on the window's thread once the
    document (or what reading raised) is ready, after the waiting state is
    left; never when the window was closed meanwhile."""

    _arrived = Signal()

    def __init__(self, window: WindowApi, path: str | Path, reading: Reading,
                 then: Callable[[], object]) -> None:
        super().__init__(window)
        self.setObjectName("readingState")
        self._window, self._then = window, then
        #: The reading waited for (:meth:`Reading.abandon` when the window closes first).
        self.reading = reading
        self.closed = False
        self.waiting = True
        keep = {window.app_actions["close"], window.app_actions["quit"]}
        # The menu bar's menus stay on (Close and Quit are in them); a submenu
        # goes off with its actions (Open Recent fills itself afresh each
        # time it opens: its files would open beside the one coming).
        menus = set(window.menuBar().actions())
        actions: list[QAction | QWidget] = [
            *window.actions(), *(a for m in window.menuBar().findChildren(QMenu)
                                 for a in m.actions())]
        central = window.centralWidget()
        widgets: list[QAction | QWidget] = [
            *([] if central is None else [central]), *window.findChildren(QDockWidget),
            *window.findChildren(QToolBar)]
        #: What is turned off while the file is read (only what was on).
        self._off: list[QAction | QWidget] = [
            item for item in (*dict.fromkeys(actions), *widgets)
            if item not in keep and item not in menus and item.isEnabled()]
        for item in self._off:
            item.setEnabled(False)
        #: Whether the window took dropped files (none while the file is read).
        self._drops = window.acceptDrops()
        window.setAcceptDrops(False)
        name = boxed(Path(path).name)
        self._line = QLabel(self.tr("Reading {0}…").format(name), window)
        self._line.setObjectName("readingLine")
        window.statusBar().addWidget(self._line, 1)
        self._banner = Banner(window, "readingBanner", "info", "info_border")
        self._banner.text.setText(self.tr(
            "Reading {0}: its queries and candidates appear here when it is read.").format(name))
        window.grid_panel.add_banner(self._banner)
        self._banner.show()
        # The grids are laid out when the document is there, as they would be
        # in a window shown with it (a splitter sized while its lower table
        # was one line high kept that height).
        self._grids = window.grid_panel.split
        self._grids.hide()
        self._room = QSpacerItem(0, 0, QSizePolicy.Policy.Minimum,
                                 QSizePolicy.Policy.Expanding)
        self._panel_layout().addItem(self._room)
        # (a signal, not a filter on the window: a Python filter was called
        # for each of the window's events while it waited, ~260 at 2M)
        window.closing.connect(self._closing)
        self._arrived.connect(self._end, Qt.ConnectionType.QueuedConnection)
        reading.when_done(self._arrived.emit)  # (from the reading's thread)

    def _panel_layout(self) -> QLayout:
        layout = self._window.grid_panel.layout()
        assert layout is not None
        return layout

    def _closing(self) -> None:
        self.closed = True
        self.reading.stop()  # (app.main waits for its end, a piece away)

    def _end(self) -> None:
        if self.closed or not self.waiting:
            return
        self.waiting = False
        self._window.closing.disconnect(self._closing)
        for item in self._off:
            item.setEnabled(True)
        self._window.setAcceptDrops(self._drops)
        self._panel_layout().removeItem(self._room)
        self._window.statusBar().removeWidget(self._line)
        for widget in (self._line, self._banner):
            widget.hide()
            widget.deleteLater()
        self._then()
        self._grids.show()  # (sized now: with the document's tables in them)
        # The keys to the grid, as a window shown with its document has them:
        # with every control off while the run was read the focus went to
        # what stayed on (the status bar's reviewer), and a grade typed once
        # the run showed did nothing.
        self._window.grid.setFocus()
        self.deleteLater()  # (nor its reading kept: its document and evaluation)

