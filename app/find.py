"""Find (Ctrl+F): a small bar that searches query ids and source ids.

Enter jumps to the next match (switching the query in the navigator),
Shift+Enter to the previous one; both wrap. Escape closes the bar and gives
the grid its focus back. Matches run in document order: a query whose id
matches, then its candidates whose source id matches, in grid order.
Matching is a case-insensitive substring test.

Wire it with ``install_find(window)``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeyEvent, QKeySequence
from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QToolBar, QToolButton, QWidget

from app.accessibility import label_control
from app.actions import ActionSpec
from app.shown import holds, typed

if TYPE_CHECKING:
    from app.window_api import WindowApi

__all__ = ["FindBar", "find_matches", "install_find"]


def find_matches(doc: Any, ev: Any, text: str) -> list[tuple[int, int]]:
    """Every match of ``text`` as (query index, candidate index or -1 for the query itself)."""
    needles = typed(text.strip().casefold())
    if not needles[0]:
        return []
    hits = np.fromiter((holds(str(s).casefold(), needles) for s in doc.source_id),
                       dtype=bool, count=len(doc))
    found = np.flatnonzero(hits)
    by_query: dict[int, list[int]] = {}
    if found.size:
        rank = np.asarray(ev.rank)[found] if ev is not None else np.zeros(found.size)
        unranked = rank <= 0
        order = np.lexsort((found, rank, unranked, doc.query[found]))
        for i in found[order].tolist():
            by_query.setdefault(int(doc.query[i]), []).append(int(i))
    out: list[tuple[int, int]] = []
    for q, qid in enumerate(doc.query_ids):
        if holds(qid.casefold(), needles):
            out.append((q, -1))
        out.extend((q, i) for i in by_query.get(q, ()))
    return out


class _Field(QLineEdit):
    """The search field: Enter / Shift+Enter step, Escape closes."""

    step_requested = Signal(int)
    close_requested = Signal()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            back = bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier)
            self.step_requested.emit(-1 if back else 1)
            event.accept()
            return
        if event.key() == Qt.Key.Key_Escape:
            self.close_requested.emit()
            event.accept()
            return
        super().keyPressEvent(event)


def _placeholder_width(field: QLineEdit) -> int:
    """The width ``field`` shows its placeholder text whole in: the text, and
    what the field adds around its text (its frame and margins, as its size
    hint adds them to 17 x's, and the clear button's room, a square)."""
    metrics = field.fontMetrics()
    around = field.sizeHint().width() - metrics.horizontalAdvance("x" * 17)
    return metrics.horizontalAdvance(field.placeholderText()) + around + field.sizeHint().height()


class FindBar(QToolBar):
    """The find bar (a bottom tool bar, hidden until Ctrl+F)."""

    def __init__(self, window: WindowApi) -> None:
        super().__init__(window.tr("Find"), window)
        self.setObjectName("findBar")
        self.setMovable(False)
        self.window_ = window
        box = QWidget(self)
        layout = QHBoxLayout(box)
        layout.setContentsMargins(4, 0, 4, 0)
        label = QLabel(self.tr("Find:"), box)
        self.field = _Field(box)
        self.field.setObjectName("findField")
        self.field.setPlaceholderText(self.tr("query id or source id (Enter: next, "
                                              "Shift+Enter: previous)"))
        self.field.setClearButtonEnabled(True)
        # Its hint whole (at 320 px it read "... Shift+Enter: pr..." at 1280x800).
        self.field.setMinimumWidth(max(320, _placeholder_width(self.field)))
        label.setBuddy(self.field)
        self.status = QLabel("", box)
        self.status.setObjectName("findStatus")
        self.status.setMinimumWidth(90)
        previous = QToolButton(box)
        previous.setText("▲")
        previous.setToolTip(self.tr("Previous match (Shift+Enter)"))
        label_control(previous, self.tr("Previous match"))
        previous.clicked.connect(lambda: self.step(-1))
        following = QToolButton(box)
        following.setText("▼")
        following.setToolTip(self.tr("Next match (Enter)"))
        label_control(following, self.tr("Next match"))
        following.clicked.connect(lambda: self.step(1))
        close = QToolButton(box)
        close.setText("✕")
        close.setToolTip(self.tr("Close (Escape)"))
        label_control(close, self.tr("Close the find bar"))
        close.clicked.connect(self.close_bar)
        for w in (label, self.field, previous, following, self.status, close):
            layout.addWidget(w)
        layout.addStretch(1)
        self.addWidget(box)
        self._matches: list[tuple[int, int]] | None = None
        self.position = -1
        self.field.textChanged.connect(self._invalidate)
        self.field.step_requested.connect(self.step)
        self.field.close_requested.connect(self.close_bar)
        window.document_replaced.connect(self._invalidate)
        window.evaluation_changed.connect(self._invalidate)
        window.addToolBar(Qt.ToolBarArea.BottomToolBarArea, self)
        self.hide()

    def _invalidate(self, *_args: Any) -> None:
        self._matches = None
        self.position = -1
        self.status.setText("")

    def matches(self) -> list[tuple[int, int]]:
        """The matches of the field's text (computed once per text and document)."""
        if self._matches is None:
            w = self.window_
            self._matches = find_matches(w.document, w.evaluation, self.field.text())
        return self._matches

    def open_bar(self) -> None:
        self.show()
        self.field.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.field.selectAll()

    def close_bar(self) -> None:
        self.hide()
        self.window_.grid.setFocus(Qt.FocusReason.OtherFocusReason)

    def step(self, delta: int) -> None:
        """Go to the next (``delta=1``) or previous (``-1``) match, wrapping."""
        found = self.matches()
        if not found:
            self.status.setText(self.tr("no match"))
            return
        if self.position < 0:
            self.position = 0 if delta > 0 else len(found) - 1
        else:
            self.position = (self.position + delta) % len(found)
        q, i = found[self.position]
        w = self.window_
        if i >= 0:
            w.select_candidate(i)
        else:
            w.set_query(q)
        self.status.setText(self.tr("{0} of {1}").format(self.position + 1, len(found)))
        self.field.setFocus(Qt.FocusReason.OtherFocusReason)  # Enter keeps stepping


def install_find(window: WindowApi) -> FindBar:
    """Add Find (Ctrl+F) and its bar to ``window``; returns the bar."""
    bar = FindBar(window)
    window.add_action(ActionSpec("find", "&Find…", "edit", QKeySequence.StandardKey.Find,
                                 "Find a query id or a source id"), bar.open_bar)
    return bar
