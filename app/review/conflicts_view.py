"""The conflicts a merge left open: a dock to resolve each.

A merged workbook (``ndcg-worksheet merge``, or Review > Merge returned
workbooks) records the candidates two reviewers graded differently outside
an overlap query (the base's grade stayed), the notes changed on both
sides (the merged note joins them, each labelled), and the queries' texts
changed on both sides or by reviewers differently (the merged text joins
them, each labelled). Each is a row, the open
ones first, the settled greyed below them: query, source (``—`` for a text),
its kind (grade, note or text), the base's, each reviewer's, the grade, note
or text now and where it stands (:func:`core.analysis.rounds.conflict_status`,
:func:`~core.analysis.rounds.note_conflict_status`,
:func:`~core.analysis.rounds.text_conflict_status`; a note written by hand
said by whose note it kept, :func:`~core.analysis.rounds.note_edit_kept`).
The buttons under the table settle the selected conflict: one side's grade
or note, both kept (a grade's as ratings, their declared consensus; notes
each on its own line, named as whose note), or, for a note, Edit note (the
grid's note cell, to write another); a text's, Keep the base's text (mine)
or Take a reviewer's (theirs), no "both" (a text is one question);
each is one undoable edit (:meth:`app.window_api.WindowApi.set_grades`,
:meth:`~app.window_api.WindowApi.set_notes`,
:meth:`~app.window_api.WindowApi.set_query_text`), written to the audit log
with the choice.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtGui import QKeySequence, QResizeEvent, QShortcut
from PySide6.QtWidgets import QLabel, QPushButton, QVBoxLayout, QWidget

from app.accessibility import label_control
from app.actions import ActionSpec
from app.delegates import NumberDelegate
from app.flow_layout import FlowLayout
from app.models.candidates import GridColumn
from app.models.looks import brush
from app.models.roles import DISPLAY
from app.panels.fit import fit_rows_to_font
from app.review.common import RowsModel, WidthFit, read_only_table
from app.shown import shown_id
from core.analysis.rounds import (
    BOTH,
    NoteResolution,
    Resolution,
    TextResolution,
    conflict_row,
    conflict_status,
    note_conflict_status,
    note_edit_kept,
    note_resolutions,
    resolutions,
    text_conflict_status,
    text_resolutions,
)
from core.model.assignment import Conflict, NoteConflict, TextConflict
from core.model.document import Document, grade_text
from core.model.edits import GradeValue

if TYPE_CHECKING:
    from app.window_api import WindowApi

__all__ = ["ConflictColumn", "ConflictsController", "ConflictsModel", "ConflictsView",
           "install_conflicts"]

_OPEN = "open"  # a tone of app.models.looks
#: The statuses of a conflict nothing settled (core.analysis.rounds): its
#: candidate keeping the base's grade or the merged note, or gone from the
#: document (its disagreement unanswered: listed and counted among the open
#: ones, not greyed with the settled; it has no choice to take).
UNSETTLED = frozenset({"open", "gone"})
#: How a line break of a note shows in the table's one-line cells.
_LINE_BREAK = " \u21b5 "


class ConflictColumn(IntEnum):
    QUERY = 0
    SOURCE = 1
    KIND = 2
    BASE = 3
    GRADES = 4
    NOW = 5
    STATUS = 6


#: A conflict of any kind the dock lists.
AnyConflict = Conflict | NoteConflict | TextConflict
#: A way of settling one.
AnyResolution = Resolution | NoteResolution | TextResolution


def status_of(doc: Document, c: AnyConflict) -> str:
    """Where conflict ``c`` (of a grade, a note or a text) stands in ``doc``."""
    if isinstance(c, TextConflict):
        return text_conflict_status(doc, c)
    if isinstance(c, NoteConflict):
        return note_conflict_status(doc, c)
    return conflict_status(doc, c)


def candidate_of(doc: Document, c: AnyConflict) -> int | None:
    """The candidate row a conflict is about (a text's: its query's first
    row); None when the document has none."""
    if isinstance(c, TextConflict):
        if c.query not in doc.query_ids:
            return None
        rows = doc.members(doc.query_index(c.query))
        return int(rows[0]) if rows.size else None
    return conflict_row(doc, c)


def _one_line(note: str) -> str:
    return note.replace("\r\n", "\n").replace("\n", _LINE_BREAK)


class ConflictsModel(RowsModel):
    """One row per conflict of the document's round, open ones highlighted."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(ConflictColumn, {
            ConflictColumn.QUERY: self.tr("query"),
            ConflictColumn.SOURCE: self.tr("source"),
            ConflictColumn.KIND: self.tr("of"),
            ConflictColumn.BASE: self.tr("base"),
            ConflictColumn.GRADES: self.tr("reviewers'"),
            ConflictColumn.NOW: self.tr("now"),
            ConflictColumn.STATUS: self.tr("resolved by"),
        }, parent)
        self.header_tips = {
            ConflictColumn.KIND: self.tr("What the sides differ in: the grade, the note or "
                                         "the query's text"),
            ConflictColumn.BASE: self.tr("The base's grade; the base's note, named by who "
                                         "rewrote it since the round went out; the base's "
                                         "text"),
            ConflictColumn.GRADES: self.tr("Each reviewer's grade, note or text"),
            ConflictColumn.NOW: self.tr("The candidate's grade or note now, the query's "
                                        "text now"),
        }
        #: The conflicts as the rows list them: the open ones (those whose
        #: candidate is gone among them), then the settled (each part the
        #: grades', then the notes', then the texts').
        self.conflicts: list[AnyConflict] = []
        #: Whether each row's conflict is settled (greyed, listed last).
        self.settled: list[bool] = []

    def set_document(self, doc: Document) -> None:
        """The round's conflicts, the open ones first (in the merge's
        order; one whose candidate is gone is not settled: :data:`UNSETTLED`),
        then those settled, greyed: a resolved one stays listed,
        with what settled it, below the work left."""
        a = doc.assignment
        every: list[AnyConflict] = (
            [*a.conflicts, *a.note_conflicts, *a.text_conflicts] if a is not None else [])
        statuses = [status_of(doc, c) for c in every]
        order = sorted(range(len(every)), key=lambda n: statuses[n] not in UNSETTLED)
        self.conflicts = [every[n] for n in order]
        self.settled = [statuses[n] not in UNSETTLED for n in order]
        rows: list[tuple[Any, ...]] = []
        for n in order:
            c, status = every[n], statuses[n]
            rows.append(self._text_row(doc, c, status) if isinstance(c, TextConflict)
                        else self._note_row(doc, c, status) if isinstance(c, NoteConflict)
                        else self._grade_row(doc, c, status))
        self.set_rows(rows, [None if done else _OPEN for done in self.settled])

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = DISPLAY) -> Any:
        if (role == Qt.ItemDataRole.ForegroundRole and index.isValid()
                and 0 <= index.row() < len(self.settled) and self.settled[index.row()]):
            return brush("muted")
        return super().data(index, role)

    def _grade_row(self, doc: Document, c: Conflict, status: str) -> tuple[Any, ...]:
        i = conflict_row(doc, c)
        now = "" if i is None else grade_text(float(doc.grade[i]), int(doc.state[i]))
        return (c.query, c.source_id, self.tr("grade"), c.base.text,
                ", ".join(f"{g.reviewer}: {g.text}" for g in c.values), now,
                self._status_text(status, self.tr("grade")))

    def _note_row(self, doc: Document, c: NoteConflict, status: str) -> tuple[Any, ...]:
        i = conflict_row(doc, c)
        now = "" if i is None else _one_line(str(doc.note[i])) or self.tr("no note")
        base = (f"{c.base_who}: {_one_line(c.base) or self.tr('no note')}" if c.base_who
                else _one_line(c.base) or self.tr("no note"))
        status_text = (self._edited(c, str(doc.note[i])) if status == "changed"
                       and i is not None else self._status_text(status, self.tr("note"), c.every))
        return (c.query, c.source_id, self.tr("note"), base,
                " | ".join(f"{who}: {_one_line(n) or self.tr('no note')}"
                           for who, n in c.values), now, status_text)

    def _text_row(self, doc: Document, c: TextConflict, status: str) -> tuple[Any, ...]:
        none = self.tr("no text")
        now = (_one_line(doc.query_texts.get(c.query, "")) or none
               if c.query in doc.query_ids else "")
        base = _one_line(c.base) or none
        said = {"open": self.tr("open"), "changed": self.tr("another text"),
                "gone": self.tr("query gone")}.get(status)
        return (c.query, "—", self.tr("text"),
                f"{TextConflict.BASE}: {base}" if c.base_changed else base,
                " | ".join(f"{who}: {_one_line(t) or none}" for who, t in c.values), now,
                said or self.tr("{0}'s {1}").format(status, self.tr("text")))

    def _edited(self, c: NoteConflict, note: str) -> str:
        """A note conflict settled by a note written by hand: whose note it
        kept ("ana's, edited"), every one ("both kept, edited"), or none
        ("rewritten"); it said "edited" whatever the hand had done."""
        kept = note_edit_kept(c, note)
        if not kept:
            return self.tr("rewritten")
        if len(kept) == len(c.sides) > 1:
            return self.tr("{0} kept, edited").format(c.every)
        return self.tr("{0}, edited").format(" and ".join(f"{who}'s" for who in kept))

    def _status_text(self, status: str, kind: str, every: str = "both") -> str:
        if status == "open":
            return self.tr("open")
        if status == BOTH:
            return self.tr("{0} kept").format(every) if kind == self.tr("note") else self.tr(
                "both, as ratings")
        if status == "changed":
            return self.tr("another grade")
        if status == "gone":
            return self.tr("candidate gone")
        return self.tr("{0}'s {1}").format(status, kind)

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
        # The notes (the base's, the reviewers', now) give way, elided and
        # whole on hover, so that what settled each stays in view: at
        # 1280x800 the table scrolled sideways, "resolved by" out of view.
        self.table.setItemDelegate(NumberDelegate(lambda: 4, self))
        fit_rows_to_font(self.table)
        WidthFit(self.table, lambda: (ConflictColumn.BASE, ConflictColumn.GRADES,
                                      ConflictColumn.NOW),
                 self.fontMetrics().horizontalAdvance("check the date") + 12)
        # Room for a grade's and a note's conflict at once: at 1280x800 the
        # dock's share showed one row, the other scrolled away.
        rows = self.table.verticalHeader().defaultSectionSize()
        self.table.setMinimumHeight(
            self.table.horizontalHeader().sizeHint().height() + 3 * rows
            + 2 * self.table.frameWidth())
        #: The selected conflict's choices, then Edit note… and Show
        #: candidate, wrapped onto a second row where the dock has not their
        #: room (at 1280x800 a note's three choices pushed the last two past
        #: the dock's edge).
        self.buttons = FlowLayout()
        self.go_button = QPushButton(self.tr("&Show candidate"), self)
        self.go_button.setObjectName("conflictShowButton")
        #: A note conflict's last way: the candidate's note cell in the grid,
        #: its editor open on the merged note.
        self.edit_button = QPushButton(self.tr("Edi&t note…"), self)
        self.edit_button.setObjectName("conflictEditNote")
        self.edit_button.setToolTip(self.tr("Write the note yourself, in the grid's note cell"))
        self.edit_button.hide()
        layout = QVBoxLayout(self)
        layout.addWidget(self.message)
        layout.addWidget(self.table, 1)
        layout.addLayout(self.buttons)
        self.buttons.addWidget(self.edit_button)
        self.buttons.addWidget(self.go_button)
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

    def set_choices(self, choices: Sequence[AnyResolution]) -> dict[str, QPushButton]:
        """One button per resolution (objectName ``conflictTake_<label>``);
        Edit note… with a note conflict's."""
        for button in self.choice_buttons.values():
            self.buttons.removeWidget(button)
            button.hide()
            button.deleteLater()  # (it may be the one whose click got us here)
        self.choice_buttons = {}
        for n, r in enumerate(choices, start=1):
            if isinstance(r, TextResolution):
                text = (self.tr("Keep the base's text") if r.label == TextConflict.BASE
                        else self.tr("Take {0}'s text").format(r.label))
            elif isinstance(r, NoteResolution):
                text = (self.tr("Keep both, each labelled") if r.label == BOTH
                        else self.tr("Take {0}'s note").format(r.label))
            else:
                text = (self.tr("Keep both as ratings: {0}").format(r.text.split(": ", 1)[-1])
                        if r.label == BOTH else self.tr("Take {0}").format(r.text))
            if n <= len(self.keys):  # (listed under F1)
                text = self.tr("{0}  [Alt+{1}]").format(text, n)
            button = QPushButton(text, self)
            button.setObjectName(f"conflictTake_{r.label}")
            button.setToolTip(r.text)
            self.buttons.addWidget(button)
            button.show()  # (a layout shows a new child only at the next event loop turn)
            self.choice_buttons[r.label] = button
        for last in (self.edit_button, self.go_button):  # (after the choices)
            self.buttons.removeWidget(last)
            self.buttons.addWidget(last)
        self.go_button.setEnabled(bool(choices))
        self.edit_button.setVisible(any(isinstance(r, NoteResolution) for r in choices))
        self._fit_height()
        return self.choice_buttons

    def _fit_height(self) -> None:
        """As tall at least as its texts, the table's rows and the buttons'
        rows take at its width: a dock's height is the window's to give, and
        wrapped onto a second row the buttons lay over the table's rows."""
        layout = self.layout()
        if layout is None:
            return
        margins = layout.contentsMargins()
        rows = self.buttons.heightForWidth(self.width() - margins.left() - margins.right())
        self.setMinimumHeight(layout.minimumSize().height()
                              - self.buttons.minimumSize().height() + rows)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            self._fit_height()


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
            "The candidates reviewers graded or noted differently: take one side's or keep "
            "both"),
            self.open)
        window.document_replaced.connect(self.document_replaced)
        # (after every step: a grade, a note, undo, redo, conventions: the
        # consensus a "both" shows)
        window.evaluation_changed.connect(lambda _ev: self.refresh())
        self.view.table.selectionModel().currentRowChanged.connect(
            lambda current, _previous: self._select(current.row()))
        self.view.table.doubleClicked.connect(lambda index: self.show_candidate(index.row()))
        self.view.go_button.clicked.connect(lambda: self.show_candidate(self.selected()))
        self.view.edit_button.clicked.connect(lambda: self.edit_note(self.selected()))
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
        return sum(status_of(doc, c) in UNSETTLED for c in self.view.model.conflicts)

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
        elif all(type(c) is Conflict for c in self.view.model.conflicts):
            self.view.message.setText(self.tr(
                "{0} of {1} conflicts open: reviewers gave these candidates different grades "
                "outside an overlap query, and the base's grade stayed. Select one, then take "
                "one reviewer's grade or keep both as ratings.").format(self.open_count(), n))
        elif not any(isinstance(c, TextConflict) for c in self.view.model.conflicts):
            self.view.message.setText(self.tr(
                "{0} of {1} conflicts open: different grades (the base's stayed) or notes "
                "(joined). Select one, then take one side's or keep both.").format(
                self.open_count(), n))
        else:
            self.view.message.setText(self.tr(
                "{0} of {1} conflicts open: different grades (the base's stayed), notes or "
                "queries' texts (joined). Select one, then take one side's (or keep both, "
                "of a grade or a note).").format(self.open_count(), n))
        gone = sum(status_of(doc, c) == "gone" for c in self.view.model.conflicts)
        if gone:
            self.view.message.setText(self.tr(
                "{0} {1} of them without its candidate (no longer in the document): nothing "
                "to take there.").format(self.view.message.text(), gone))
        settled = n - self.open_count()
        if n and settled:
            self.view.message.setText(self.tr("{0} Settled ones are greyed, below the open "
                                              "ones.").format(self.view.message.text()))
        # (the row selected stays: a conflict just settled moves below, and the
        # next open one takes its place, its buttons one Alt+digit away)
        if 0 <= selected < n:
            self.view.table.selectRow(selected)
        self._select(selected if 0 <= selected < n else -1)

    def selected(self) -> int:
        index = self.view.table.currentIndex()
        return index.row() if index.isValid() else -1

    def _select(self, r: int) -> None:
        conflicts = self.view.model.conflicts
        doc = self.window.document
        choices: Sequence[AnyResolution] = []
        if 0 <= r < len(conflicts) and candidate_of(doc, c := conflicts[r]) is not None:
            choices = (text_resolutions(c) if isinstance(c, TextConflict)
                       else note_resolutions(c) if isinstance(c, NoteConflict)
                       else resolutions(doc, c))
        buttons = self.view.set_choices(choices)
        for choice in choices:
            buttons[choice.label].clicked.connect(
                lambda _c=False, row=r, ch=choice: self.resolve(row, ch))

    def resolve(self, r: int, choice: AnyResolution) -> bool:
        """Settle conflict ``r`` with ``choice``: one undoable edit."""
        c = self.view.model.conflicts[r]
        i = candidate_of(self.window.document, c)
        if i is None:
            return False
        if isinstance(c, TextConflict):
            assert isinstance(choice, TextResolution)
            return self.window.set_query_text(
                self.window.document.query_index(c.query), choice.query_text,
                why=f"text conflict resolved: {choice.text}")
        assert not isinstance(c, TextConflict)
        where = f"{shown_id(c.query)}/{shown_id(c.source_id)}"
        if isinstance(choice, NoteResolution):
            return self.window.set_notes(
                [i], [choice.note], why=f"note conflict resolved: {choice.text}",
                text=f"resolve the note of {where}: {choice.text}")
        assert isinstance(choice, Resolution)
        value = GradeValue.typed(choice.grade, choice.state, choice.reason)
        return self.window.set_grades(
            [i], [value], note=f"conflict resolved: {choice.text}",
            text=f"resolve {where}: {choice.text}")

    def show_candidate(self, r: int) -> None:
        conflicts = self.view.model.conflicts
        if 0 <= r < len(conflicts):
            i = candidate_of(self.window.document, conflicts[r])
            if i is not None:
                self.window.select_candidate(i)


    def edit_note(self, r: int) -> None:
        """Open the grid's note cell of note conflict ``r``'s candidate, to
        write the note by hand (an edit like any other; it settles it)."""
        conflicts = self.view.model.conflicts
        if not 0 <= r < len(conflicts) or not isinstance(c := conflicts[r], NoteConflict):
            return
        i = conflict_row(self.window.document, c)
        if i is None:
            return
        self.window.select_candidate(i, column=GridColumn.NOTE)
        panel = self.window.grid_panel
        for view, model in ((self.window.grid, panel.model),
                            (self.window.not_retrieved_view, panel.not_retrieved_model)):
            index = view.currentIndex()
            if model.row_of(i) == index.row() and index.column() == GridColumn.NOTE:
                view.edit(index)
                return


def install_conflicts(window: WindowApi) -> ConflictsController:
    """Add the conflicts dock and action to ``window``."""
    return ConflictsController(window)

