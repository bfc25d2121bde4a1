"""The plots dock: follows the current query and evaluation.

Drawing takes tens of milliseconds, so it is deferred (debounced) and done
only while the dock is visible; grading never waits for a plot.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QDockWidget

from app.plots import PlotPanel

__all__ = ["PlotDock", "install_plots"]

REDRAW_DELAY_MS = 120


class PlotDock:
    """Keeps a :class:`PlotPanel` in step with one main window."""

    def __init__(self, window: Any) -> None:
        self.window = window
        self.panel = PlotPanel()
        self.dock = QDockWidget(window.tr("Plots"), window)
        self.dock.setObjectName("plotsDock")
        self.dock.setWidget(self.panel)
        window.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, self.dock)
        audit = window.docks.get("auditLogDock")
        if audit is not None:
            window.tabifyDockWidget(audit, self.dock)
            audit.raise_()
        window.docks["plotsDock"] = self.dock
        window.menus["view"].addAction(self.dock.toggleViewAction())
        self.timer = QTimer(self.panel)
        self.timer.setSingleShot(True)
        self.timer.setInterval(REDRAW_DELAY_MS)
        self.timer.timeout.connect(self.redraw)
        self.dirty = True
        window.current_query_changed.connect(self.schedule)
        window.evaluation_changed.connect(self.schedule)
        self.dock.visibilityChanged.connect(self._visibility_changed)

    def schedule(self, *_: object) -> None:
        self.dirty = True
        if self.panel.isVisible():
            self.timer.start()

    def _visibility_changed(self, visible: bool) -> None:
        if visible and self.dirty:
            self.timer.start()

    def redraw(self) -> None:
        """Draw the current query and the distribution now."""
        ev = self.window.evaluation
        q = self.window.current_query
        if ev is None or q is None or q < 0:
            return
        self.panel.show_query(ev, q, 0)
        self.panel.show_distribution(ev, 0)
        self.dirty = False

    def show_comparison(self, queries: list[str], deltas: list[float], label: str) -> None:
        self.panel.show_deltas(queries, deltas, label)
        self.panel.tabs.setCurrentIndex(2)


def install_plots(window: Any) -> PlotDock:
    """Add the plots dock to ``window`` (as ``window.plots``)."""
    plots = PlotDock(window)
    window.plots = plots
    return plots
