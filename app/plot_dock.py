"""The plots dock: follows the current query and evaluation.

Drawing takes tens of milliseconds, so it is deferred (debounced) and done
only while the dock is visible; grading never waits for a plot. The plots
themselves (matplotlib, a second to import) are made the first time they are
needed, the dock shown or a comparison plotted, never while the window opens.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

if TYPE_CHECKING:
    from app.plots import DeltaStats, PlotPanel
    from app.window_api import WindowApi

__all__ = ["PlotDock", "install_plots"]

REDRAW_DELAY_MS = 120
#: Below this height the plots' axes and labels do not fit: showing the dock
#: (its tab clicked) grows the bottom area to :data:`SHOWN_HEIGHT`.
LEAST_HEIGHT = 240
#: The height the plots get when shown in a smaller bottom area (at most
#: this share of the window).
SHOWN_HEIGHT, SHOWN_SHARE = 320, 0.45


class PlotDock:
    """Keeps a :class:`PlotPanel` in step with one main window."""

    def __init__(self, window: WindowApi) -> None:
        self.window = window
        self.holder = QWidget()
        self.holder.setObjectName("plotsHolder")
        box = QVBoxLayout(self.holder)
        box.setContentsMargins(0, 0, 0, 0)
        # Until the plots are made (matplotlib loads, then they draw: a
        # second or more) the tab says what is coming instead of staying blank.
        self.placeholder = QLabel(window.tr("Drawing the plots…"), self.holder)
        self.placeholder.setObjectName("plotsPlaceholder")
        self.placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        box.addWidget(self.placeholder)
        self._panel: PlotPanel | None = None
        self.dock = window.add_dock("plotsDock", window.tr("P&lots"), self.holder,
                                    Qt.DockWidgetArea.BottomDockWidgetArea,
                                    tab_with="auditLogDock")
        self.timer = QTimer(self.holder)
        self.timer.setSingleShot(True)
        self.timer.setInterval(REDRAW_DELAY_MS)
        self.timer.timeout.connect(self.redraw)
        self.dirty = True
        window.current_query_changed.connect(self.schedule)
        window.evaluation_changed.connect(self.schedule)
        self.dock.visibilityChanged.connect(self._visibility_changed)

    @property
    def panel(self) -> PlotPanel:
        """The plots, made when first asked for."""
        if self._panel is None:
            from app.plots import PlotPanel  # matplotlib: loaded when plots are first needed

            self._panel = PlotPanel(decimals=self.window.decimals)
            layout = self.holder.layout()
            assert layout is not None
            self.placeholder.hide()
            layout.addWidget(self._panel)
            # A widget added to a shown parent is shown by a queued call
            # (QLayout::addChildWidget): shown here, the panel is in view as
            # soon as it exists, not one turn of the event loop later.
            self._panel.show()
        return self._panel

    @property
    def loaded(self) -> bool:
        """Whether the plots (and matplotlib) have been made yet."""
        return self._panel is not None

    def schedule(self, *_: object) -> None:
        self.dirty = True
        # On screen, not only "visible": a dock behind another's tab (the
        # audit log's, at a first start) is visible to Qt, and the first edit
        # or a document shown in a window on screen then loaded matplotlib
        # and drew the plots unseen (~1 s of CPU); the tab's selection
        # (visibilityChanged) draws them.
        if self.holder.isVisible() and not self.holder.visibleRegion().isEmpty():
            self.timer.start()

    def _visibility_changed(self, visible: bool) -> None:
        if visible and self.dock.height() < LEAST_HEIGHT and not self.dock.isFloating():
            # The bottom area starts small for the audit log; the plots need room.
            height = min(SHOWN_HEIGHT, round(self.window.height() * SHOWN_SHARE))
            if height > self.dock.height():
                self.window.resizeDocks([self.dock], [height], Qt.Orientation.Vertical)
        if visible and self.dirty:
            self.timer.start()

    def redraw(self) -> None:
        """Draw the current query and the distribution now."""
        ev = self.window.evaluation
        q = self.window.current_query
        if q < 0:
            return
        self.panel.show_query(ev, q, 0)
        self.panel.show_distribution(ev, 0)
        self.dirty = False

    def show_comparison(self, queries: list[str], deltas: list[float], label: str,
                        stats: DeltaStats | None = None) -> None:
        self.panel.show_deltas(queries, deltas, label, stats)
        self.panel.tabs.setCurrentIndex(2)


def install_plots(window: WindowApi) -> PlotDock:
    """Add the plots dock to ``window``."""
    return PlotDock(window)
