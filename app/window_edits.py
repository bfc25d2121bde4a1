"""The main window's edits: what a reviewer does in the window (a grade
typed, a note, a paste, a change of conventions) made one step of the session's
history (:class:`core.session.Worksheet`), or refused with the reason in the
status bar. The views follow the session's records of what changed
(:mod:`app.window`); nothing here refreshes a view.

:class:`EditingWindow` is the base of :class:`app.window.MainWindow` that
implements :class:`~app.window_api.WindowApi`'s editing members.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QInputDialog

from app.deferred import DeferredView
from app.delegates import grade_words
from app.judgment_clock import ActivityClock
from app.opening import out_of_memory
from app.panels.conventions import ConventionsPanel
from app.settings import login_name
from app.shown import shown_id
from app.window_api import WindowApi
from core.errors import NdcgError
from core.model.conventions import Conventions
from core.model.document import GradeState
from core.model.edits import (
    Edit,
    GradeValue,
    SetConventions,
    SetGrades,
    SetNotes,
    SetQueryText,
)
from core.model.numbers import counted

__all__ = ["EditingWindow"]


class EditingWindow(WindowApi):
    """The window's editing members (a base of :class:`app.window.MainWindow`,
    which makes what is declared here)."""

    #: The decimals shown (read once from the settings).
    _decimals: int
    #: The active seconds each typed grade took.
    activity_clock: ActivityClock
    #: The conventions panel, once made.
    _conventions: DeferredView[ConventionsPanel]

    def reviewer(self) -> str:
        """The name the audit log records: the one set in the preferences, else
        the operating system's user name (grading never stops to ask)."""
        return self.settings.reviewer or login_name()

    def set_grade(self, index: int, grade: float | None, state: GradeState = GradeState.NUMBER,
                  *, reason: str | None = None, note: str = "") -> bool:
        """Set candidate ``index``'s grade as one undoable step; False if refused.

        Refused (with a status-bar message) when the unrateable reason is
        cancelled or the grade is invalid under the conventions (e.g. negative
        under exponential gain).
        """
        state = GradeState(state)
        if state is GradeState.NUMBER and (grade is None or grade != grade):
            return False
        if state is GradeState.UNRATEABLE and reason is None:
            reason = self._ask_reason()
            if reason is None:
                return False
        value = GradeValue.typed(grade, state, reason)
        before = GradeValue.of(self.document, index)
        d = self._decimals
        label = self._label(index)
        return self.set_grades([index], [value], note=note,
                               text=f"grade {label}: {grade_words(before.text, d)} → "
                                    f"{grade_words(value.text, d)}",
                               seconds=self.activity_clock.lap())

    def set_grades(self, rows: list[int], values: list[GradeValue], *, note: str = "",
                   text: str = "", seconds: float | None = None) -> bool:
        """Give ``rows`` the grades ``values`` as one undoable step (a paste, a
        fill-down: one re-evaluation, one refresh); False if refused (the
        reason is in the status bar). ``seconds``: the active time a typed
        grade took (a paste or fill-down is not timed)."""
        return self._push(SetGrades.of(rows, values, who=self.reviewer(), note=note,
                                       text=text or f"set {counted(len(rows), 'grade')}",
                                       seconds=seconds)) is None

    def set_note(self, index: int, note: str) -> bool:
        """Give candidate ``index`` the reviewer's note ``note`` as one
        undoable step (audited, journaled; no number changes); False if
        refused."""
        label = self._label(index)
        return self.set_notes([index], [note], text=(
            f"note {label}" if note else f"clear the note of {label}"))

    def set_notes(self, rows: list[int], notes: list[str], *, text: str = "",
                  why: str = "") -> bool:
        """Give ``rows`` the notes ``notes`` (one per row, or one for all) as
        one undoable step (a paste); False if refused. ``why``: the audit
        entries' note (a note conflict resolved)."""
        return self._push(SetNotes.of(rows, notes, who=self.reviewer(),
                                      text=text or f"set {counted(len(rows), 'note')}",
                                      why=why)) is None

    def set_query_text(self, q: int, text: str, *, why: str = "") -> bool:
        """Give query ``q`` the text ``text`` ("" takes it away) as one
        undoable step (journaled, saved with the workbook; no number
        changes); False if refused. ``why``: the audit entry's note (a text
        conflict resolved; a text fixed by hand logs none)."""
        name = shown_id(self.document.query_ids[q])
        return self._push(SetQueryText(q, text, who=self.reviewer(), text=(
            f"text of {name}" if text else f"clear the text of {name}"), why=why)) is None

    def edit_query_text(self) -> bool:
        """Ask for the current query's text (its text as it is, to fix a
        typo) and set it (:meth:`set_query_text`); False when cancelled."""
        q, doc = self.current_query, self.document
        if q < 0:
            return False
        text, ok = QInputDialog.getMultiLineText(
            self, self.tr("Query text"),
            self.tr("The text of query {0} (shown beside its id, never in the numbers):")
            .format(shown_id(doc.query_ids[q])), doc.query_text(q))
        return ok and self.set_query_text(q, text.strip())

    def _label(self, index: int) -> str:
        """Candidate ``index`` as the Edit menu names it (``q1/d3``)."""
        doc = self.document
        return (f"{shown_id(doc.query_ids[int(doc.query[index])])}/"
                f"{shown_id(doc.source_text(index))}")

    def change_conventions(self, new: Conventions, text: str = "") -> str | None:
        """Push an undoable change of conventions; the error text if refused."""
        if new == self.conventions:
            return None
        problem = self._push(SetConventions(new, text or "change conventions",
                                            who=self.reviewer()))
        if problem is not None and (panel := self._conventions.made) is not None:
            panel.set_conventions(self.conventions)
            panel.show_error(problem)
        return problem

    def _push(self, edit: Edit) -> str | None:
        """Apply ``edit`` as one step of the session's history; the error text
        (also shown in the status bar) if the session refused it."""
        return self._step(lambda: self.session.apply(edit))

    def _step(self, step: Callable[[], object]) -> str | None:
        """Take one step (an edit, Undo, Redo): the views follow the session's
        record of it; the error text (also in the status bar) if refused."""
        try:
            step()
        except NdcgError as exc:
            problem = str(exc)
        except MemoryError:  # (a step not made changes nothing; one made, whose view ran
            # out after, stays, every other view told of it: Worksheet._tell)
            problem = str(out_of_memory(self.path, to="evaluate it", again="try it"))
        else:
            return None
        self.show_message(problem, 10000)
        return problem

    def _ask_reason(self) -> str | None:
        text, ok = QInputDialog.getText(
            self, self.tr("Unrateable"), self.tr("Why can this candidate not be judged?"),
            text=self.settings.last_unrateable_reason)
        if not ok:
            return None
        self.settings.last_unrateable_reason = text.strip()
        return text.strip()
