"""The candidate grid: one query's ranked candidates, and below them the
judged-but-not-retrieved ones with the ideal gain they account for.

Grading is keyboard first: a digit sets the selected row's grade and moves to
the next row; U or Delete marks it unknown, X unrateable. The view only
reports the key (:attr:`GradingTableView.grade_key_pressed`); the window turns
it into an undo command.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QLabel,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from app.delegates import GradeDelegate, NumberDelegate, RankDelegate, ScoreDelegate
from app.models.candidates import CandidateModel, GridColumn
from core.model.document import GradeState

__all__ = ["GRADE_KEYS", "GradingTableView", "GridPanel"]

_DIGITS = {getattr(Qt.Key, f"Key_{d}"): float(d) for d in range(10)}
#: Keys that set a grade without opening an editor: key -> (grade, state).
GRADE_KEYS: dict[Qt.Key, tuple[float | None, GradeState]] = {
    **{key: (value, GradeState.NUMBER) for key, value in _DIGITS.items()},
    Qt.Key.Key_U: (None, GradeState.UNKNOWN),
    Qt.Key.Key_Delete: (None, GradeState.UNKNOWN),
    Qt.Key.Key_Backspace: (None, GradeState.UNKNOWN),
    Qt.Key.Key_X: (None, GradeState.UNRATEABLE),
}


class GradingTableView(QTableView):
    """A table view that reports grade keys for the current row."""

    #: (row, grade or None, state) for a grade key pressed on ``row``.
    grade_key_pressed = Signal(int, object, int)

    def dataChanged(self, topLeft: QModelIndex | QPersistentModelIndex,
                    bottomRight: QModelIndex | QPersistentModelIndex,
                    roles: Sequence[int] = ()) -> None:
        """Repaint only the visible part of a changed range.

        Qt repaints the whole viewport for a range that reaches far beyond
        what is shown (a column's worth of cells after a grade edit), and a
        painted cell costs several calls into Python; so the range is cut to
        the rows and columns on screen first (not while an editor is open:
        Qt also refreshes the editor from the range).
        """
        if (self.state() != QAbstractItemView.State.EditingState and topLeft.isValid()
                and bottomRight.isValid() and topLeft.parent() == bottomRight.parent()):
            model = self.model()
            port = self.viewport().rect()
            rows, cols = model.rowCount(), model.columnCount()
            top = self.rowAt(port.top())
            bottom = self.rowAt(port.bottom())
            left = self.columnAt(port.left())
            right = self.columnAt(port.right())
            top = 0 if top < 0 else top
            bottom = rows - 1 if bottom < 0 else bottom
            left = 0 if left < 0 else left
            right = cols - 1 if right < 0 else right
            r0, r1 = max(topLeft.row(), top), min(bottomRight.row(), bottom)
            c0, c1 = max(topLeft.column(), left), min(bottomRight.column(), right)
            if r0 > r1 or c0 > c1:
                return
            topLeft, bottomRight = model.index(r0, c0), model.index(r1, c1)
        super().dataChanged(topLeft, bottomRight, list(roles))

    def keyPressEvent(self, event: QKeyEvent) -> None:
        mods = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        key = Qt.Key(event.key())
        if (self.state() != QAbstractItemView.State.EditingState
                and mods == Qt.KeyboardModifier.NoModifier and key in GRADE_KEYS
                and self.currentIndex().isValid()):
            grade, state = GRADE_KEYS[key]
            self.grade_key_pressed.emit(self.currentIndex().row(), grade, int(state))
            event.accept()
            return
        super().keyPressEvent(event)


class GridPanel(QWidget):
    """The ranked grid (``candidateGrid``) over the not-retrieved one
    (``notRetrievedGrid``)."""

    def __init__(self, decimals: Callable[[], int], parent: Any = None) -> None:
        super().__init__(parent)
        self.setObjectName("gridPanel")
        self.model = CandidateModel("ranked", self)
        self.not_retrieved_model = CandidateModel("not_retrieved", self)
        self.grid = self._make_view("candidateGrid", self.model, decimals)
        self.not_retrieved = self._make_view("notRetrievedGrid", self.not_retrieved_model,
                                             decimals)
        for col in (GridColumn.RANK, GridColumn.SCORE, GridColumn.DISCOUNT,
                    GridColumn.CONTRIBUTION, GridColumn.CUMULATIVE):
            self.not_retrieved.setColumnHidden(col, True)
        self.not_retrieved_label = QLabel(self)
        self.not_retrieved_label.setObjectName("notRetrievedLabel")
        self.not_retrieved_label.setWordWrap(True)
        lower = QWidget(self)
        box = QVBoxLayout(lower)
        box.setContentsMargins(0, 0, 0, 0)
        box.addWidget(self.not_retrieved_label)
        box.addWidget(self.not_retrieved)
        split = QSplitter(Qt.Orientation.Vertical, self)
        split.addWidget(self.grid)
        split.addWidget(lower)
        split.setStretchFactor(0, 4)
        split.setStretchFactor(1, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(split)
        self.not_retrieved_model.modelReset.connect(self._update_label)

    def _make_view(self, name: str, model: CandidateModel,
                   decimals: Callable[[], int]) -> GradingTableView:
        view = GradingTableView(self)
        view.setObjectName(name)
        view.setModel(model)
        view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectItems)
        view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        view.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked
            | QAbstractItemView.EditTrigger.EditKeyPressed
        )
        view.setAlternatingRowColors(False)
        view.verticalHeader().setDefaultSectionSize(22)
        view.verticalHeader().setVisible(False)  # the rank column says where a row is
        header = view.horizontalHeader()
        header.setDefaultSectionSize(96)
        header.resizeSection(GridColumn.RANK, 64)
        header.resizeSection(GridColumn.GRADE, 190)
        header.resizeSection(GridColumn.IDEAL_CONTRIBUTION, 130)
        header.resizeSection(GridColumn.CUMULATIVE, 120)
        number = NumberDelegate(decimals, view)
        view.setItemDelegate(number)
        view.setItemDelegateForColumn(GridColumn.RANK, RankDelegate(decimals, view))
        view.setItemDelegateForColumn(GridColumn.SCORE, ScoreDelegate(decimals, view))
        view.setItemDelegateForColumn(GridColumn.GRADE, GradeDelegate(decimals, view))
        return view

    def _update_label(self) -> None:
        n = self.not_retrieved_model.rowCount()
        self.not_retrieved_label.setText(
            self.tr("Judged but not retrieved: %n candidate(s). They have no rank; the ideal "
                    "gain and ideal contribution columns show what they add to the ideal "
                    "list.", "", n)
        )
        self.not_retrieved_label.setToolTip(self.tr(
            "Counted in the ideal list only when the ideal inventory is 'every judged "
            "candidate'"))
