"""The grading view: the table the candidate grids are made of, and its keys.

Grading is keyboard first: a digit sets the selected row's grade and moves to
the next row; U or Delete marks it unknown, X unrateable. The view only
reports the key (:attr:`GradingTableView.grade_key_pressed`); the window turns
it into an undo command. In the note column keys type: any text key starts
the note's editor with it (as F2 opens it), Delete clears the note. The view
also repaints only the cells on screen of a changed range.

:class:`app.panels.grid.GridPanel` makes two of them (the ranked grid and
the judged-but-not-retrieved one) and sizes them; what a key means lives
here, how the grids are laid out there.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QAbstractItemView, QTableView

from app.models.candidates import GridColumn
from app.models.roles import EDIT
from core.model.document import GradeState

__all__ = ["GRADE_KEYS", "GradingTableView"]

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
    #: The columns where keys type text (the note), not grades.
    text_columns: frozenset[int] = frozenset({GridColumn.NOTE})

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
            rows = model.rowCount()
            top = self.rowAt(port.top())
            bottom = self.rowAt(port.bottom())
            top = 0 if top < 0 else top
            bottom = rows - 1 if bottom < 0 else bottom
            r0, r1 = max(topLeft.row(), top), min(bottomRight.row(), bottom)
            # Column by column: moved columns make a logical range span columns
            # that did not change, and Qt repaints all between its two ends.
            changed = [c for c in self.shown_logical()
                       if topLeft.column() <= c <= bottomRight.column()]
            for c in changed if r0 <= r1 else ():
                super().dataChanged(model.index(r0, c), model.index(r1, c), list(roles))
            return
        super().dataChanged(topLeft, bottomRight, list(roles))

    def shown_logical(self) -> list[int]:
        """The logical indexes of the columns on screen, hidden ones left out
        (columns may be moved: the visual ones at the viewport's edges do not
        bound the logical ones in between)."""
        header = self.horizontalHeader()
        port = self.viewport().rect()
        first = header.visualIndexAt(port.left())
        last = header.visualIndexAt(port.right())
        first = 0 if first < 0 else first
        last = header.count() - 1 if last < 0 else last
        return [c for c in (header.logicalIndex(v) for v in range(first, last + 1))
                if not header.isSectionHidden(c)]

    def keyPressEvent(self, event: QKeyEvent) -> None:
        mods = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        key = Qt.Key(event.key())
        if self._typed(event, mods, key):
            return
        if (self.state() != QAbstractItemView.State.EditingState
                and mods == Qt.KeyboardModifier.NoModifier and key in GRADE_KEYS
                and self.currentIndex().isValid()):
            grade, state = GRADE_KEYS[key]
            self.grade_key_pressed.emit(self.currentIndex().row(), grade, int(state))
            event.accept()
            return
        super().keyPressEvent(event)


    def _typed(self, event: QKeyEvent, mods: Qt.KeyboardModifier, key: Qt.Key) -> bool:
        """A key on a cell of a :attr:`text_columns` column, not editing: a
        text key opens its editor with the key typed in it (the view's
        editor opens from F2 and a double click only: elsewhere digits and
        letters grade), Delete or Backspace clears it (one step, undone by
        Ctrl+Z). False for any other key (moves, shortcuts)."""
        index = self.currentIndex()
        if (self.state() == QAbstractItemView.State.EditingState or not index.isValid()
                or index.column() not in self.text_columns
                or mods & ~Qt.KeyboardModifier.ShiftModifier):
            return False
        if key in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace) and not mods:
            if index.data(EDIT):
                self.model().setData(index, "", EDIT)
            event.accept()
            return True
        text = event.text()
        if not text or not text.isprintable():
            return False
        triggers = self.editTriggers()
        self.setEditTriggers(triggers | QAbstractItemView.EditTrigger.AnyKeyPressed)
        try:
            super().keyPressEvent(event)  # (Qt opens the editor and gives it the key)
        finally:
            self.setEditTriggers(triggers)
        return True
