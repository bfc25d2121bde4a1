"""The guidelines under the grid while grading: every level of the scale
with its label, description and examples, the selected row's grade
highlighted (objectName ``guidelinesView``, in the dock
``guidelinesDock``).

An add-on (:func:`install_guidelines`): it sees the window only as
:class:`~app.window_api.WindowApi`, follows the grids' current row and the
session's steps, and edits nothing (the conventions panel edits the
guidelines).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from PySide6.QtCore import QModelIndex, QObject, QSize, Qt
from PySide6.QtGui import QBrush, QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from app.delegates import grade_text
from app.models.looks import brush
from app.models.roles import CANDIDATE_ROLE
from app.shown import CELL_SHOWN, bounded, shown_id
from app.window_api import WindowApi
from core.model.conventions import Level
from core.model.document import GradeState

__all__ = ["GuidelinesController", "GuidelinesView", "install_guidelines", "level_text"]

#: The highlighted level's background (the grid's selection blue, light).


def level_text(level: Level, decimals: int | None = None) -> str:
    """A level as the list shows it: title (its grade at ``decimals`` like
    every number shown, :func:`app.delegates.grade_text`; in full for None,
    as its tooltip shows it), description, examples."""
    title = level.title if decimals is None else grade_text(level.value, decimals) + (
        f" - {level.label}" if level.label else "")
    lines = [title]
    if level.description:
        lines.append(level.description)
    lines += [f"  e.g. {e}" for e in level.examples]
    return "\n".join(lines)


class GuidelinesView(QWidget):
    """The levels, one item each; :meth:`highlight` marks the current one."""

    def __init__(self, parent: QWidget | None = None,
                 decimals: Callable[[], int] = lambda: 4) -> None:
        super().__init__(parent)
        self.setObjectName("guidelinesView")
        self._decimals = decimals  # the window's display rounding
        self.current_label = QLabel(self)
        self.current_label.setObjectName("guidelinesCurrent")
        self.current_label.setWordWrap(True)
        self.levels_list = QListWidget(self)
        self.levels_list.setObjectName("guidelinesList")
        self.levels_list.setAccessibleName(self.tr("Grading guidelines"))
        self.levels_list.setWordWrap(True)
        self.levels_list.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        # Reached by the keyboard (F6, Tab) to scroll it; a click leaves the grid the focus.
        self.levels_list.setFocusPolicy(Qt.FocusPolicy.TabFocus)
        self.empty_note = QLabel(self)
        self.empty_note.setObjectName("guidelinesEmpty")
        self.empty_note.setWordWrap(True)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 2, 4, 2)  # the strip under the grid is short
        lay.setSpacing(2)
        lay.addWidget(self.current_label)
        lay.addWidget(self.levels_list, 1)
        lay.addWidget(self.empty_note)
        self._levels: list[Level] = []
        #: Whether a scale is declared or given (:meth:`show_levels`).
        self.scale = True
        #: The grade highlighted (None: the current row has no number grade).
        self.highlighted: float | None = None

    def sizeHint(self) -> QSize:
        """Wide rather than tall: the levels' sentences read best on few lines
        (the dock shares the strip under the grid with the audit log)."""
        return QSize(560, 150)

    def show_levels(self, levels: Sequence[Level], scale: bool = True) -> None:
        """List ``levels`` (:meth:`Conventions.listed_levels`); without a
        ``scale`` (no rubric declared, no grade given), a note saying so."""
        self.scale = scale
        self._levels = list(levels)
        self.levels_list.clear()
        for level in self._levels:
            item = QListWidgetItem(bounded(level_text(level, self._decimals())))
            item.setToolTip(bounded(level_text(level), CELL_SHOWN))
            self.levels_list.addItem(item)
        self.empty_note.setText(self.tr(
            "No guidelines yet: describe each grade in the Conventions panel, under "
            "Guidelines.") if scale else self.tr(
            "No scale yet: no rubric is declared and no candidate has a grade. Declare a "
            "rubric in the Conventions panel, or grade a candidate."))
        self.levels_list.setVisible(scale or bool(levels))  # (no empty box over the note)
        self.empty_note.setVisible(not scale or not any(lv.description or lv.examples
                                                        for lv in levels))
        self.highlight(self.highlighted)

    def highlight(self, grade: float | None, words: str = "") -> None:
        """Mark the level of ``grade`` (none for None); ``words`` say the
        current row and its grade above the list."""
        self.highlighted = grade
        if words:
            self.current_label.setText(words)
        for i, level in enumerate(self._levels):
            item = self.levels_list.item(i)
            on = grade is not None and level.value == grade
            item.setBackground(brush("current_level") if on else QBrush())
            font = QFont(item.font())
            font.setBold(on)
            item.setFont(font)
            if on:
                self.levels_list.scrollToItem(item)

    def highlighted_row(self) -> int:
        """The list row highlighted (-1: none)."""
        if self.highlighted is None:
            return -1
        return next((i for i, lv in enumerate(self._levels) if lv.value == self.highlighted),
                    -1)


class GuidelinesController(QObject):
    """Keeps :class:`GuidelinesView` on the window's conventions and the grids'
    current row."""

    def __init__(self, window: WindowApi) -> None:
        super().__init__(window)
        self.window = window
        self.view = GuidelinesView(decimals=window.decimals)
        self.dock = window.add_dock("guidelinesDock", window.tr("&Guidelines"), self.view,
                                    Qt.DockWidgetArea.BottomDockWidgetArea)
        self._candidate: int | None = None
        self._grids: list[QTableView] = [window.grid, window.not_retrieved_view]
        for grid in self._grids:
            grid.selectionModel().currentChanged.connect(
                lambda index, _old, g=grid: self._current_changed(g, index))
        window.document_replaced.connect(lambda _doc: self.refresh_levels())
        window.conventions_changed.connect(lambda _c: self.refresh_levels())
        window.grade_changed.connect(self._grade_changed)
        window.current_query_changed.connect(lambda _q: self._follow_grid())
        self.refresh_levels()
        self._follow_grid()

    def refresh_levels(self) -> None:
        """The levels of the scale (the declared rubric's, or the one the
        grades seen define) with their guidelines."""
        ev = self.window.evaluation  # (of the window's document under its conventions)
        c, grades = ev.conventions, ev.doc.grade
        # The evaluation's scale, worked out once for it (the summary and the
        # conventions panel list it too): each rubric_for looks at every grade.
        self.view.show_levels(c.listed_levels(grades, ev.rubric), scale=c.has_scale(grades))
        self._follow_grid()

    def _grade_changed(self, row: int) -> None:
        # The first grade given defines a scale where there was none, and
        # taking the last one back (undo, clear) leaves none (the levels are
        # otherwise worked out per document and conventions).
        c, grades = self.window.conventions, self.window.document.grade
        if not self.view.scale or c.scale_lost(grades, row):
            self.refresh_levels()
        else:
            self._show_current()

    def _follow_grid(self) -> None:
        index = self.window.grid.currentIndex()
        self._current_changed(self.window.grid, index)

    def _current_changed(self, grid: QTableView, index: QModelIndex) -> None:
        candidate = index.data(CANDIDATE_ROLE) if index.isValid() else None
        if candidate is None and grid is not self.window.grid:
            return  # the not-retrieved grid lost its row: the main grid's stays shown
        self._candidate = candidate
        self._show_current()

    def _show_current(self) -> None:
        doc = self.window.document
        i = self._candidate
        if i is None or not 0 <= i < len(doc):
            self.view.highlight(None, self.tr("Select a row to see its grade's level."))
            return
        row = f"{shown_id(doc.query_ids[int(doc.query[i])])} / {shown_id(doc.source_text(i))}"
        state = GradeState(int(doc.state[i]))
        if state is not GradeState.NUMBER or math.isnan(doc.grade[i]):
            self.view.highlight(None, f"{row}: {state.name.lower()}")
            return
        grade = float(doc.grade[i])
        label = doc.conventions.rubric.label_for(grade) if doc.conventions.rubric else None
        self.view.highlight(grade, f"{row}: grade {grade_text(grade, self.window.decimals())}"
                            + (f" - {label}" if label else ""))


def install_guidelines(window: WindowApi) -> GuidelinesController:
    """Add the guidelines dock to ``window``: in the strip under the grid,
    beside the audit log, in view while grading without taking the grid's
    width (a dock tabbed with another would start behind it)."""
    return GuidelinesController(window)
