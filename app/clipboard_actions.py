"""Copy, Paste into the grade column, and Fill down, for the candidate grids.

Copy puts the selected rectangle on the clipboard as tab-separated text
(what Excel and LibreOffice paste), every value at full precision: the
rounding the grid shows is display only. Paste reads a spreadsheet range
(:mod:`core.model.grades`) into the grade column, or a column of notes into
the note column (one step too: :meth:`~app.window_api.WindowApi.set_notes`);
every pasted grade is one step of the session (:meth:`app.window_api.WindowApi.set_grades`: one
re-evaluation, one undo), so one Undo takes the whole paste back. A paste with
a bad cell applies nothing and lists the bad cells. Fill down (Ctrl+D)
copies the first selected grade into the selected rows below (or the grade
above into a single row), also as one step.

Wire it with ``install_clipboard_actions(window)``.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QModelIndex, QObject, Qt
from PySide6.QtGui import QAction, QGuiApplication, QKeySequence
from PySide6.QtWidgets import QAbstractItemView, QMessageBox, QTableView

from app.actions import ActionSpec
from app.models.candidates import GridColumn
from app.models.roles import CANDIDATE_ROLE, WHOLE_ROLE
from app.shown import boxed
from core.io.clipboard import format_range, parse_range
from core.model.edits import GradeValue
from core.model.grades import CellError, parse_grades
from core.model.numbers import agreed, counted

if TYPE_CHECKING:
    from app.window_api import WindowApi

__all__ = ["ClipboardActions", "cell_text", "install_clipboard_actions"]

MAX_LISTED = 12


#: Whole numbers up to this size are copied without a decimal point (2, not
#: 2.0); every float this small is exactly an integer and reads back the same.
_WHOLE = 2.0**53


def cell_text(value: Any) -> str:
    """A model value as clipboard text: floats in full (round-trip) precision,
    whole numbers as integers (a grade of 2 is ``2``, as typed)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return ""
        if value.is_integer() and abs(value) < _WHOLE:
            return str(int(value))
        return repr(value)
    return str(value)


def _whole(index: QModelIndex) -> Any:
    """A cell's value as a copy takes it: its text whole (WHOLE_ROLE) where
    the view shows a long one cut, else what the view shows."""
    whole = index.data(WHOLE_ROLE)
    return index.data(Qt.ItemDataRole.DisplayRole) if whole is None else whole


class ClipboardActions(QObject):
    """Copy / Paste / Fill down on the window's candidate grids."""

    def __init__(self, window: WindowApi) -> None:
        super().__init__(window)
        self.setObjectName("clipboardActions")
        self.window = window
        self.views: list[QTableView] = [window.grid, window.not_retrieved_view]
        for view in self.views:
            # A rectangle to copy, a block of rows to paste or fill into.
            view.setSelectionMode(QAbstractItemView.SelectionMode.ContiguousSelection)
        key = QKeySequence.StandardKey
        self.actions: dict[str, QAction] = {}
        for spec, slot in (
            (ActionSpec("copy", "&Copy", "edit", key.Copy,
                        "Copy the selected cells (full precision, tab-separated)"), self.copy),
            (ActionSpec("paste", "&Paste grades", "edit", key.Paste,
                        "Paste a column of grades from a spreadsheet into the grade column"),
             self.paste),
            (ActionSpec("fill_down", "Fill &down", "edit", "Ctrl+D",
                        "Copy the first selected grade into the selected rows below"),
             self.fill_down),
        ):
            self.actions[spec.id] = window.add_action(spec, slot)

    # -- which view -------------------------------------------------------------------
    def view(self) -> QTableView | None:
        """The grid the user works in: the focused one, else the ranked grid."""
        for view in self.views:
            if view.hasFocus():
                return view
        return self.views[0] if self.views else None

    @staticmethod
    def _block(view: QTableView) -> tuple[int, int, int, int] | None:
        """(top, left, bottom, right) of the selection, or the current cell;
        left and right are visual columns (as the header shows them: the
        grid's Grade sits after Source, before Version and Score)."""
        indexes = view.selectionModel().selectedIndexes() if view.selectionModel() else []
        if not indexes:
            current = view.currentIndex()
            if not current.isValid():
                return None
            indexes = [current]
        rows = [i.row() for i in indexes]
        cols = [view.horizontalHeader().visualIndex(i.column()) for i in indexes]
        return min(rows), min(cols), max(rows), max(cols)

    # -- copy ---------------------------------------------------------------------------
    def copy_text(self, view: QTableView | None = None) -> str:
        """The selection as clipboard text (hidden columns left out)."""
        view = view or self.view()
        if view is None:
            return ""
        block = self._block(view)
        if block is None:
            return ""
        top, left, bottom, right = block
        model = view.model()
        header = view.horizontalHeader()
        columns = [header.logicalIndex(v) for v in range(left, right + 1)
                   if not view.isColumnHidden(header.logicalIndex(v))]
        rows = [[cell_text(_whole(model.index(r, c))) for c in columns]
                for r in range(top, bottom + 1)]
        return format_range(rows)

    def copy(self) -> None:
        text = self.copy_text()
        if text:
            QGuiApplication.clipboard().setText(text)

    # -- paste --------------------------------------------------------------------------
    def paste(self, text: str | None = None) -> bool:
        """Paste grades (from the clipboard, or ``text``) from the selected row down.

        Returns True when every pasted grade was applied (one undo step).
        """
        view = self.view()
        if view is None:
            return False
        if text is None:
            text = QGuiApplication.clipboard().text()
        block = self._block(view)
        if block is None:
            return self._refuse(self.tr("Select the grade cell to paste into."))
        top, _left, bottom, _right = block
        cells = parse_range(text)
        if not cells:
            return self._refuse(self.tr("The clipboard holds no cells."))
        if view.currentIndex().column() == GridColumn.NOTE:
            return self._paste_notes(view, cells, top, bottom)
        if any(any(c.strip() for c in row[1:]) for row in cells):
            return self._refuse(self.tr(
                "Paste one column of grades: the clipboard holds {0} columns.").format(
                    len(cells[0])))
        rubric = self.window.conventions.rubric
        grid, errors = parse_grades([row[:1] for row in cells], rubric)
        model = view.model()
        if len(grid) == 1 and bottom > top:
            grid = grid * (bottom - top + 1)  # one value into a selected block of rows
        available = model.rowCount() - top
        if len(grid) > available:
            return self._refuse(self.tr(
                "The paste has {0} but only {1} {2} the selected row; "
                "nothing was pasted.").format(counted(len(grid), "row"),
                                              counted(available, "candidate"),
                                              agreed(available, "follows")))
        targets = [int(model.index(top + r, GridColumn.GRADE).data(CANDIDATE_ROLE))
                   for r in range(len(grid))]
        if errors:
            return self._report(errors, view, top)
        values = [row[0] for row in grid]
        grades = [GradeValue.typed(v.grade, v.state, v.reason) for v in values if v is not None]
        return self._apply(targets, grades,
                           self.tr("paste {0}").format(counted(len(targets), "grade")))

    def _paste_notes(self, view: QTableView, cells: list[list[str]], top: int,
                     bottom: int) -> bool:
        """A column of notes pasted from the row ``top`` down (one note into
        every selected row), as one step: the text as it was copied, each
        cell a note (an empty cell takes the note away)."""
        if any(any(c.strip() for c in row[1:]) for row in cells):
            return self._refuse(self.tr(
                "Paste one column of notes: the clipboard holds {0} columns.").format(
                    len(cells[0])))
        notes = [row[0] if row else "" for row in cells]
        if len(notes) == 1 and bottom > top:
            notes *= bottom - top + 1
        model = view.model()
        available = model.rowCount() - top
        if len(notes) > available:
            return self._refuse(self.tr(
                "The paste has {0} but only {1} {2} the selected row; "
                "nothing was pasted.").format(counted(len(notes), "row"),
                                              counted(available, "candidate"),
                                              agreed(available, "follows")))
        targets = [int(model.index(top + r, GridColumn.NOTE).data(CANDIDATE_ROLE))
                   for r in range(len(notes))]
        if self.window.set_notes(targets, notes,
                                 text=self.tr("paste {0}").format(counted(len(notes), "note"))):
            return True
        return self._refuse(self.tr("Nothing was pasted: {0}").format(
            self.window.statusBar().currentMessage()))

    def _apply(self, targets: list[int], values: list[GradeValue], text: str) -> bool:
        """Set the grades through the window as one step (one undo, one
        re-evaluation); all of them, or none with the reason shown."""
        if self.window.set_grades(targets, values, note="pasted", text=text):
            return True
        return self._refuse(self.tr("Nothing was pasted: {0}").format(
            self.window.statusBar().currentMessage()))

    def _report(self, errors: list[CellError], view: QTableView, top: int) -> bool:
        model = view.model()
        lines = []
        for e in errors[:MAX_LISTED]:
            row = top + e.row
            source = model.index(row, GridColumn.SOURCE).data() if row < model.rowCount() else ""
            lines.append(self.tr("pasted row {0} (grid row {1}, {2}): {3!r}: {4}").format(
                e.row + 1, row + 1, source, e.text, e.problem))
        if len(errors) > MAX_LISTED:
            lines.append(self.tr("… and {0} more").format(len(errors) - MAX_LISTED))
        return self._refuse(self.tr("Nothing was pasted: {0}.\n\n{1}").format(
            counted(len(errors), "cell is not a grade", "cells are not grades"),
            "\n".join(lines)))

    def _refuse(self, text: str) -> bool:
        box = QMessageBox(QMessageBox.Icon.Warning, self.tr("Paste grades"), boxed(text),
                          QMessageBox.StandardButton.Ok, self.window)
        box.setObjectName("pasteErrorBox")
        box.exec()
        return False

    # -- fill down ------------------------------------------------------------------------
    def fill_down(self) -> bool:
        """Copy the top selected grade into the selected rows below it (one
        undo step); in the note column, the note."""
        view = self.view()
        if view is None:
            return False
        block = self._block(view)
        if block is None:
            return False
        top, _left, bottom, _right = block
        model = view.model()
        source_row = top if bottom > top else top - 1
        if source_row < 0:
            return False
        doc = self.window.document
        first = source_row + 1
        targets = [int(model.index(r, 0).data(CANDIDATE_ROLE)) for r in range(first, bottom + 1)]
        at = int(model.index(source_row, 0).data(CANDIDATE_ROLE))
        if view.currentIndex().column() == GridColumn.NOTE:  # the note, in the note column
            return self.window.set_notes(targets, [str(doc.note[at])], text=self.tr(
                "fill down {0}").format(counted(len(targets), "note")))
        source = GradeValue.of(doc, at)
        return self._apply(targets, [source] * len(targets),
                           self.tr("fill down {0}").format(counted(len(targets), "grade")))


def install_clipboard_actions(window: WindowApi) -> ClipboardActions:
    """Add Copy (Ctrl+C), Paste grades (Ctrl+V) and Fill down (Ctrl+D) to ``window``."""
    return ClipboardActions(window)
