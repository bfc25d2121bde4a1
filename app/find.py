"""Find (Ctrl+F): a small bar that searches query ids and the queries'
texts, source ids and the reviewer's notes.

Enter jumps to the next match (switching the query in the navigator),
Shift+Enter to the previous one; both wrap; the bar names every column the
text is in ("2 of 5, in Note", "in Query, Source and Note": a candidate's
query id counts), and a match in a note, not in the source id, makes the
note's cell current. Escape closes the bar and gives the grid its focus back.
Matches run in document order: a query whose id or text matches, then its
candidates whose source id or note matches, in grid order. Matching is a
case-insensitive substring test.

Wire it with ``install_find(window)``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np
from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeyEvent, QKeySequence
from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QToolBar, QToolButton, QWidget

from app.accessibility import label_control
from app.actions import ActionSpec
from app.models.candidates import GridColumn
from app.shown import holds, typed
from core.engine.columns import COLUMNS

if TYPE_CHECKING:
    from app.window_api import WindowApi

__all__ = ["FindBar", "columns_said", "find_matches", "install_find", "matched_columns"]


#: The candidates' columns a find searches (the grid's keys: their titles
#: say where a match is), each with the document's texts of that column.
_SEARCHED: tuple[tuple[str, Callable[[Any], Any]], ...] = (
    ("source", lambda doc: doc.source_id),
    ("note", lambda doc: doc.note),
)
_TITLES = {c.key: c.title for c in COLUMNS}


def _query_holds(doc: Any, q: int, needles: tuple[str, ...]) -> bool:
    """Whether query ``q``'s id or its text holds one of ``needles``."""
    return holds(doc.query_ids[q].casefold(), needles) or holds(
        doc.query_text(q).casefold(), needles)


def find_matches(doc: Any, ev: Any, text: str) -> list[tuple[int, int]]:
    """Every match of ``text`` as (query index, candidate index or -1 for the query itself)."""
    needles = typed(text.strip().casefold())
    if not needles[0]:
        return []
    hits = np.zeros(len(doc), dtype=bool)
    for _key, texts in _SEARCHED:
        values = texts(doc)
        written = np.flatnonzero(values != "")  # (most candidates have no note)
        hits[written] |= np.fromiter((holds(str(s).casefold(), needles)
                                      for s in values[written].tolist()),
                                     dtype=bool, count=written.size)
    found = np.flatnonzero(hits)
    by_query: dict[int, list[int]] = {}
    if found.size:
        rank = np.asarray(ev.rank)[found] if ev is not None else np.zeros(found.size)
        unranked = rank <= 0
        order = np.lexsort((found, rank, unranked, doc.query[found]))
        for i in found[order].tolist():
            by_query.setdefault(int(doc.query[i]), []).append(int(i))
    out: list[tuple[int, int]] = []
    for q in range(doc.n_queries):
        if _query_holds(doc, q, needles):
            out.append((q, -1))
        out.extend((q, i) for i in by_query.get(q, ()))
    return out


def matched_columns(doc: Any, text: str, i: int) -> list[str]:
    """The keys of every column of candidate ``i`` that holds ``text``, its
    query's id among them (``query`` alone for the query itself: ``i`` -1),
    as :func:`find_matches` found it."""
    if i < 0:
        return ["query"]
    needles = typed(text.strip().casefold())
    return ["query"] * _query_holds(doc, int(doc.query[i]), needles) + [
        key for key, texts in _SEARCHED if holds(str(texts(doc)[i]).casefold(), needles)]


def columns_said(keys: list[str]) -> str:
    """The columns' titles, short: ``Query``, ``Source and Note``,
    ``Query, Source and Note``."""
    titles = [_TITLES[key] for key in keys]
    return titles[0] if len(titles) == 1 else f"{', '.join(titles[:-1])} and {titles[-1]}"


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
        self.field.setPlaceholderText(self.tr("query id, source id or note (Enter: next, "
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
        where = matched_columns(w.document, self.field.text(), i)
        if i >= 0:
            # A note matched, not the source: its cell current (when shown), where it reads.
            note = "note" in where and "source" not in where and not w.grid.isColumnHidden(
                GridColumn.NOTE)
            w.select_candidate(i, column=GridColumn.NOTE if note else GridColumn.GRADE)
        else:
            w.set_query(q)
        self.status.setText(self.tr("{0} of {1}, in {2}").format(
            self.position + 1, len(found), columns_said(where)))
        self.field.setFocus(Qt.FocusReason.OtherFocusReason)  # Enter keeps stepping


def install_find(window: WindowApi) -> FindBar:
    """Add Find (Ctrl+F) and its bar to ``window``; returns the bar."""
    bar = FindBar(window)
    window.add_action(ActionSpec("find", "&Find…", "edit", QKeySequence.StandardKey.Find,
                                 "Find a query id, a source id or a note"), bar.open_bar)
    return bar
