"""The conflicts a merge left open: a dock to resolve each.

A merged workbook (``ndcg-worksheet merge``, or Review > Merge returned
workbooks) records the candidates two reviewers graded differently outside
an overlap query; the base's grade stayed. Each is a row: query, source, the
base's grade, each reviewer's, the grade now and where it stands
(:func:`core.analysis.rounds.conflict_status`). The buttons under the table
settle the selected conflict: one reviewer's grade, or both kept as ratings
(their declared consensus); each is one undoable edit
(:meth:`app.window_api.WindowApi.set_grades`), written to the audit log.
"""

from __future__ import annotations

from enum import IntEnum
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from app.accessibility import label_control
from app.actions import ActionSpec
from app.review.common import RowsModel, read_only_table
from app.shown import shown_id
from core.analysis.rounds import (
    BOTH,
    Resolution,
    conflict_row,
    conflict_status,
    resolutions,
)
from core.model.assignment import Conflict
from core.model.document import Document, grade_text
from core.model.edits import GradeValue

if TYPE_CHECKING:
    from app.window_api import WindowApi

__all__ = ["ConflictColumn", "ConflictsController", "ConflictsModel", "ConflictsView",
           "install_conflicts"]

_OPEN = "open"  # a tone of app.models.looks


class ConflictColumn(IntEnum):
    QUERY = 0
    SOURCE = 1
    BASE = 2
    GRADES = 3
    NOW = 4
    STATUS = 5


class ConflictsModel(RowsModel):
    """One row per conflict of the document's round, open ones highlighted."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(ConflictColumn, {
            ConflictColumn.QUERY: self.tr("query"),
            ConflictColumn.SOURCE: self.tr("source"),
            ConflictColumn.BASE: self.tr("base grade"),
            ConflictColumn.GRADES: self.tr("reviewers' grades"),
            ConflictColumn.NOW: self.tr("grade now"),
            ConflictColumn.STATUS: self.tr("resolved by"),
        }, parent)
        self.conflicts: list[Conflict] = []

    def set_document(self, doc: Document) -> None:
        self.conflicts = list(doc.assignment.conflicts) if doc.assignment is not None else []
        rows: list[tuple[Any, ...]] = []
        brushes: list[str | None] = []
        for c in self.conflicts:
            i = conflict_row(doc, c)
            status = conflict_status(doc, c)
            now = "" if i is None else grade_text(float(doc.grade[i]), int(doc.state[i]))
            rows.append((c.query, c.source_id, c.base.text,
                         ", ".join(f"{g.reviewer}: {g.text}" for g in c.values), now,
                         self._status_text(status)))
            brushes.append(_OPEN if status == "open" else None)
        self.set_rows(rows, brushes)

    def _status_text(self, status: str) -> str:
        if status == "open":
            return self.tr("open")
        if status == BOTH:
            return self.tr("both, as ratings")
        if status == "changed":
            return self.tr("another grade")
        if status == "gone":
            return self.tr("candidate gone")
        return self.tr("{0}'s grade").format(status)

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Rows stay in the merge's order, so that a selection stays put."""


class ConflictsView(QWidget):
    """The conflicts table and the buttons that settle the selected one
    (objectName ``conflictsView``)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("conflictsView")
        self.message = QLabel(self)
        self.message.setObjectName("conflictsMessage")
        self.message.setWordWrap(True)
        self.model = ConflictsModel(self)
        self.table = read_only_table("conflictsTable", self.model, self)
        label_control(self.table, self.tr("Conflicts between reviewers"))
        self.buttons = QHBoxLayout()
        self.go_button = QPushButton(self.tr("&Show candidate"), self)
        self.go_button.setObjectName("conflictShowButton")
        layout = QVBoxLayout(self)
        layout.addWidget(self.message)
        layout.addWidget(self.table, 1)
        row = QHBoxLayout()
        row.addLayout(self.buttons)
        row.addStretch(1)
        row.addWidget(self.go_button)
        layout.addLayout(row)
        #: The buttons of the selected conflict's resolutions, by label.
        self.choice_buttons: dict[str, QPushButton] = {}
        #: Alt+1 ... Alt+9 press the selected conflict's choices while the focus
        #: is in this panel (F6 brings it there).
        self.keys = [QShortcut(QKeySequence(f"Alt+{n}"), self, context=(
            Qt.ShortcutContext.WidgetWithChildrenShortcut)) for n in range(1, 10)]
        for n, key in enumerate(self.keys):
            key.activated.connect(lambda n=n: self._press(n))

    def _press(self, n: int) -> None:
        buttons = list(self.choice_buttons.values())
        if n < len(buttons) and buttons[n].isEnabled():
            buttons[n].click()

    def set_choices(self, choices: list[Resolution]) -> dict[str, QPushButton]:
        """One button per resolution (objectName ``conflictTake_<label>``)."""
        for button in self.choice_buttons.values():
            self.buttons.removeWidget(button)
            button.hide()
            button.deleteLater()  # (it may be the one whose click got us here)
        self.choice_buttons = {}
        for n, r in enumerate(choices, start=1):
            text = (self.tr("Keep both as ratings ({0})").format(r.text.split(") ", 1)[-1])
                    if r.label == BOTH else self.tr("Take {0}").format(r.text))
            if n <= len(self.keys):  # (listed under F1)
                text = self.tr("{0}  [Alt+{1}]").format(text, n)
            button = QPushButton(text, self)
            button.setObjectName(f"conflictTake_{r.label}")
            button.setToolTip(r.text)
            self.buttons.addWidget(button)
            button.show()  # (a layout shows a new child only at the next event loop turn)
            self.choice_buttons[r.label] = button
        self.go_button.setEnabled(bool(choices))
        return self.choice_buttons


class ConflictsController(QObject):
    """Keeps the conflicts dock in step with the window's document."""

    def __init__(self, window: WindowApi) -> None:
        super().__init__(window)
        self.setObjectName("conflictsController")
        self.window = window
        self.view = ConflictsView(window)
        self.dock = window.add_dock("conflictsDock", window.tr("Con&flicts"), self.view,
                                    Qt.DockWidgetArea.BottomDockWidgetArea,
                                    tab_with="auditLogDock", hidden=True)
        self.action = window.add_action(ActionSpec(
            "show_conflicts", "Con&flicts of the merge", "review", None,
            "The candidates reviewers graded differently: take one grade or keep both"),
            self.open)
        window.document_replaced.connect(self.document_replaced)
        window.grade_changed.connect(lambda _i: self.refresh())
        self.view.table.selectionModel().currentRowChanged.connect(
            lambda current, _previous: self._select(current.row()))
        self.view.table.doubleClicked.connect(lambda index: self.show_candidate(index.row()))
        self.view.go_button.clicked.connect(lambda: self.show_candidate(self.selected()))
        self.document_replaced(window.document)

    def open(self) -> None:
        self.dock.show()
        self.dock.raise_()

    def document_replaced(self, doc: Document) -> None:
        self.refresh()
        if self.open_count() and self.window.isVisible():
            self.open()  # a merge left conflicts: they are one look away

    def open_count(self) -> int:
        doc = self.window.document
        return sum(conflict_status(doc, c) == "open" for c in self.view.model.conflicts)

    def refresh(self) -> None:
        """Statuses again (after a grade changed), the selection kept."""
        selected = self.selected()
        doc = self.window.document
        self.view.model.set_document(doc)
        n = len(self.view.model.conflicts)
        if not n:
            self.view.message.setText(self.tr(
                "No conflict: this document is not a merged review round, or its reviewers "
                "agreed wherever they graded the same candidate."))
        else:
            self.view.message.setText(self.tr(
                "{0} of {1} conflicts open: reviewers gave these candidates different grades "
                "outside an overlap query, and the base's grade stayed. Select one, then take "
                "one reviewer's grade or keep both as ratings.").format(self.open_count(), n))
        if 0 <= selected < n:
            self.view.table.selectRow(selected)
        self._select(selected if 0 <= selected < n else -1)

    def selected(self) -> int:
        index = self.view.table.currentIndex()
        return index.row() if index.isValid() else -1

    def _select(self, r: int) -> None:
        conflicts = self.view.model.conflicts
        doc = self.window.document
        choices = []
        if 0 <= r < len(conflicts) and conflict_row(doc, conflicts[r]) is not None:
            choices = resolutions(doc, conflicts[r])
        buttons = self.view.set_choices(choices)
        for choice in choices:
            buttons[choice.label].clicked.connect(
                lambda _c=False, row=r, ch=choice: self.resolve(row, ch))

    def resolve(self, r: int, choice: Resolution) -> bool:
        """Settle conflict ``r`` with ``choice``: one undoable edit."""
        c = self.view.model.conflicts[r]
        i = conflict_row(self.window.document, c)
        if i is None:
            return False
        value = GradeValue.typed(choice.grade, choice.state, choice.reason)
        return self.window.set_grades(
            [i], [value], note=f"conflict resolved: {choice.text}",
            text=f"resolve {shown_id(c.query)}/{shown_id(c.source_id)}: {choice.text}")

    def show_candidate(self, r: int) -> None:
        conflicts = self.view.model.conflicts
        if 0 <= r < len(conflicts):
            i = conflict_row(self.window.document, conflicts[r])
            if i is not None:
                self.window.select_candidate(i)


def install_conflicts(window: WindowApi) -> ConflictsController:
    """Add the conflicts dock and action to ``window``."""
    return ConflictsController(window)

