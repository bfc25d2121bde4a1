"""The window as a workplace: where each dock lives, how large the window
opens, and remembering both between sessions.

Every dock is added with a home (its area, and the dock it is tabbed with or
split below); :meth:`Workplace.reset` puts every dock back home, sizes the
window to about 85 % of the screen's available area and gives the areas
their default shares (the grid keeps the largest part, the bottom area starts
small). The geometry and dock layout the user leaves are saved on close
(:meth:`Workplace.save`) and restored on the next start
(:meth:`Workplace.restore`); View > Reset layout brings the default back.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QRect, Qt
from PySide6.QtWidgets import QDockWidget, QMainWindow, QWidget

from app.settings import Settings

__all__ = ["LAYOUT_VERSION", "SCREEN_SHARE", "DockHome", "Workplace", "default_geometry"]

#: Bumped when the docks change so much that an old saved layout would mislead.
LAYOUT_VERSION = 2
#: The share of the screen's available area a first start opens at.
SCREEN_SHARE = 0.85
#: Per dock area at a first start: (share of the window, most, least): the
#: share, or what the area's docks ask for (their size hint) when more, but
#: never more than ``most`` of the window nor less than ``least`` pixels
#: (widths for the side areas, the height for the bottom one, which starts
#: small and never asks).
AREA_SIZE: dict[Qt.DockWidgetArea, tuple[float, float, int]] = {
    Qt.DockWidgetArea.LeftDockWidgetArea: (0.24, 0.34, 200),
    Qt.DockWidgetArea.RightDockWidgetArea: (0.26, 0.34, 220),
    Qt.DockWidgetArea.BottomDockWidgetArea: (0.2, 0.2, 110),
    Qt.DockWidgetArea.TopDockWidgetArea: (0.2, 0.2, 110),
}
#: The least and the most of its column a dock split below another gets (the
#: upper one asks for its size hint between those).
LEAST_BELOW, MOST_BELOW = 0.35, 0.6


@dataclass(frozen=True)
class DockHome:
    """Where a dock is put by default: an area, tabbed behind ``tab_with`` or
    split below ``below`` (dock objectNames), shown or not."""

    area: Qt.DockWidgetArea
    tab_with: str | None = None
    below: str | None = None
    hidden: bool = False


def default_geometry(available: QRect) -> QRect:
    """About 85 % of ``available``, centred in it."""
    rect = QRect(0, 0, round(available.width() * SCREEN_SHARE),
                 round(available.height() * SCREEN_SHARE))
    rect.moveCenter(available.center())
    return rect


def _share(area: Qt.DockWidgetArea, length: int, asked: int = 0) -> int:
    share, most, least = AREA_SIZE[area]
    return max(least, min(round(length * most), max(round(length * share), asked)))


_VERTICAL = (Qt.DockWidgetArea.BottomDockWidgetArea, Qt.DockWidgetArea.TopDockWidgetArea)


class Workplace:
    """The docks of one main window, their homes, and the saved layout."""

    def __init__(self, window: QMainWindow, settings: Settings) -> None:
        self.window = window
        self.settings = settings
        # The side columns run from the toolbar to the status bar; the bottom
        # area (audit log, plots) sits under the grid and the navigator.
        window.setCorner(Qt.Corner.BottomRightCorner, Qt.DockWidgetArea.RightDockWidgetArea)
        #: objectName -> dock, in the order added.
        self.docks: dict[str, QDockWidget] = {}
        self.homes: dict[str, DockHome] = {}

    def add_dock(self, name: str, title: str, widget: QWidget, home: DockHome) -> QDockWidget:
        """A dock around ``widget`` (objectName ``name``) put at ``home``."""
        dock = QDockWidget(title, self.window)
        dock.setObjectName(name)
        dock.setWidget(widget)
        self.docks[name] = dock
        self.homes[name] = home
        self._place(name)
        if home.hidden:
            dock.hide()
        return dock

    def _place(self, name: str) -> None:
        home, dock, w = self.homes[name], self.docks[name], self.window
        tab = self.docks.get(home.tab_with) if home.tab_with else None
        below = self.docks.get(home.below) if home.below else None
        if below is not None and w.dockWidgetArea(below) == home.area:
            w.splitDockWidget(below, dock, Qt.Orientation.Vertical)
            return
        w.addDockWidget(home.area, dock)
        if tab is not None and w.dockWidgetArea(tab) == home.area:
            w.tabifyDockWidget(tab, dock)

    # -- the default ----------------------------------------------------------------------
    def reset(self, available: QRect | None = None) -> None:
        """The first-start layout: the window at about 85 % of ``available``
        (default: its screen's available area), every dock at home."""
        if available is None:
            available = self.window.screen().availableGeometry()
        self.window.setGeometry(default_geometry(available))
        self.reset_docks()

    def reset_docks(self) -> None:
        """Every dock back at home (docked, shown or hidden as added), sized
        by :data:`AREA_SIZE`, the first dock of each tab group in front."""
        w = self.window
        for dock in self.docks.values():
            dock.setFloating(False)
            w.removeDockWidget(dock)
        for name, home in self.homes.items():
            self._place(name)
            self.docks[name].setVisible(not home.hidden)
        for home in self.homes.values():
            front = self.docks.get(home.tab_with) if home.tab_with else None
            if front is not None and front.isVisible():
                front.raise_()
        self.size_docks()

    def size_docks(self) -> None:
        """Give each dock area its default share of the window (see
        :data:`AREA_SIZE`) and each column its split."""
        w = self.window
        width, height = w.width(), w.height()
        asked: dict[Qt.DockWidgetArea, int] = {}
        for name, home in self.homes.items():
            if not home.hidden and home.area not in _VERTICAL:
                hint = self.docks[name].widget().sizeHint().width()
                asked[home.area] = max(asked.get(home.area, 0), hint)
        for name, home in self.homes.items():
            if home.tab_with or home.below or home.hidden:
                continue
            vertical = home.area in _VERTICAL
            size = _share(home.area, height if vertical else width, asked.get(home.area, 0))
            w.resizeDocks([self.docks[name]], [size], Qt.Orientation.Vertical if vertical
                          else Qt.Orientation.Horizontal)
        for name, home in self.homes.items():
            above = self.docks.get(home.below) if home.below else None
            if above is None or home.hidden:
                continue
            column = above.height() + self.docks[name].height()
            if column <= 0:
                column = height
            # The upper dock gets what its contents ask for (a summary's texts),
            # within limits; the lower one the rest.
            title = above.height() - above.widget().height()  # the dock's title bar
            wanted = above.widget().sizeHint().height() + max(0, min(title, 40))
            upper = max(round(column * (1 - MOST_BELOW)),
                        min(wanted, round(column * (1 - LEAST_BELOW))))
            w.resizeDocks([above, self.docks[name]], [upper, column - upper],
                          Qt.Orientation.Vertical)

    # -- remembered between sessions ---------------------------------------------------------
    def save(self) -> None:
        """Keep the window's geometry and dock layout in the settings."""
        self.settings.geometry = self.window.saveGeometry()
        self.settings.window_state = self.window.saveState(LAYOUT_VERSION)
        self.settings.sync()

    def restore(self, available: QRect | None = None) -> bool:
        """The layout the user left, or the default one (False) when none
        was saved or it cannot be read."""
        geometry = self.settings.geometry
        state = self.settings.window_state
        if geometry.isEmpty() or not self.window.restoreGeometry(geometry):
            self.reset(available)
            return False
        if state.isEmpty() or not self.window.restoreState(state, LAYOUT_VERSION):
            self.reset_docks()
            return False
        return True
