"""Grading without the mouse: F6 and Shift+F6 move the focus from pane to
pane (the navigator, the grid, each dock in view) in the order they stand on
screen, and Ctrl+J shows the next candidate whose grade is unknown.

The judging queue's Next (Ctrl+Shift+J) and the conflicts' choices (Alt+1,
Alt+2, ...) are declared by their own docks; F1 lists every key
(:mod:`app.help`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QPoint, Qt
from PySide6.QtWidgets import QApplication, QDockWidget, QWidget

from app.actions import ActionSpec
from app.models.candidates import CandidateModel
from core.analysis.queue import next_unknown

if TYPE_CHECKING:
    from app.window_api import WindowApi

__all__ = ["KeyboardNavigation", "install_keyboard"]


class KeyboardNavigation(QObject):
    """The panes' focus cycle and the next unknown candidate (objectName
    ``keyboardNavigation``)."""

    def __init__(self, window: WindowApi) -> None:
        super().__init__(window)
        self.setObjectName("keyboardNavigation")
        self.window = window
        window.add_action(ActionSpec(
            "next_pane", "Next &pane", "view", "F6",
            "Move the keyboard focus to the next panel (the queries, the grid, each "
            "panel in view)"), lambda: self.cycle(1))
        window.add_action(ActionSpec(
            "previous_pane", "Pre&vious pane", "view", "Shift+F6",
            "Move the keyboard focus to the previous panel"), lambda: self.cycle(-1))
        window.add_action(ActionSpec(
            "next_unknown", "Next unknown &candidate", "query", "Ctrl+J",
            "Show the next candidate whose grade is unknown, in the grid's order, "
            "query after query"), self.next_unknown)

    # -- panes ------------------------------------------------------------------------
    def panes(self) -> list[QWidget]:
        """The central grid and each dock in view, left to right, then top to
        bottom (a tabbed dock counts when its tab is the one shown)."""
        w = self.window
        central = w.centralWidget()
        found: list[QWidget] = [central] if central is not None and central.isVisible() else []
        found += [d for d in w.findChildren(QDockWidget)  # a tab behind another: no region
                  if d.isVisible() and not d.isFloating() and d.widget() is not None
                  and not d.visibleRegion().isEmpty()]

        def place(pane: QWidget) -> tuple[int, int]:
            at = pane.mapTo(w, QPoint(0, 0))
            return at.x(), at.y()

        return sorted(found, key=place)

    def cycle(self, step: int) -> QWidget | None:
        """Focus the first control of the pane ``step`` panes from the one
        holding the focus; the widget focused (None when no pane can take it)."""
        panes = self.panes()
        if not panes:
            return None
        focus = QApplication.focusWidget()
        here = next((i for i, p in enumerate(panes) if focus is not None
                     and (focus is p or p.isAncestorOf(focus))), -1 if step > 0 else 0)
        for n in range(1, len(panes) + 1):
            target = _first_focusable(panes[(here + step * n) % len(panes)])
            if target is not None:
                target.setFocus(Qt.FocusReason.TabFocusReason)
                return target
        return None

    # -- the next unknown candidate ----------------------------------------------------
    def next_unknown(self) -> int | None:
        """Show the next candidate whose grade is unknown; its index."""
        w = self.window
        view = w.not_retrieved_view if w.not_retrieved_view.hasFocus() else w.grid
        index, model = view.currentIndex(), view.model()
        after = None
        if isinstance(model, CandidateModel) and index.isValid():
            rows = model.candidates()
            after = int(rows[index.row()]) if 0 <= index.row() < len(rows) else None
        found = next_unknown(w.evaluation, after)
        if found is None:
            w.show_message(self.tr("No grade is unknown: every candidate is judged."))
            return None
        w.select_candidate(found)
        return found


def _first_focusable(pane: QWidget) -> QWidget | None:
    """The first widget inside ``pane``, in its tab order, that takes focus
    from the keyboard (``pane`` itself when it does)."""
    def takes(widget: QWidget) -> bool:
        return (bool(widget.focusPolicy() & Qt.FocusPolicy.TabFocus) and widget.isVisible()
                and widget.isEnabled())

    if takes(pane):
        return pane
    widget = pane.nextInFocusChain()
    seen = 0
    while widget is not None and widget is not pane and seen < 10_000:
        if pane.isAncestorOf(widget) and takes(widget):
            return widget
        widget = widget.nextInFocusChain()
        seen += 1
    return None


def install_keyboard(window: WindowApi) -> KeyboardNavigation:
    """Add the pane cycle and Next unknown candidate to ``window``."""
    return KeyboardNavigation(window)
