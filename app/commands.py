"""Undo commands: every user edit goes through one of these on one QUndoStack.

Commands call the window's non-undoable ``apply_*`` methods, so nothing
recurses. Undoing a grade change restores the previous grade, state and
reason exactly and *appends* a compensating audit entry (origin ``undo``);
redoing appends another (origin ``redo``). The audit log is append-only, so it
always tells the truth about what happened, including the change of mind.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Protocol

from PySide6.QtGui import QUndoCommand

from core.model.conventions import Conventions
from core.model.document import Document, GradeState, grade_text

__all__ = ["ChangeConventionsCommand", "GradeValue", "SetGradeCommand", "WorksheetEditor"]


@dataclass(frozen=True)
class GradeValue:
    """A grade cell's full content: number (or None), state and reason."""

    grade: float | None
    state: GradeState
    reason: str = ""

    @classmethod
    def of(cls, doc: Document, index: int) -> GradeValue:
        state = GradeState(int(doc.state[index]))
        value = float(doc.grade[index])
        return cls(None if state is not GradeState.NUMBER or math.isnan(value) else value,
                   state, str(doc.reason[index]))

    @property
    def text(self) -> str:
        return grade_text(math.nan if self.grade is None else self.grade, int(self.state))


class WorksheetEditor(Protocol):
    """What the commands edit (the main window implements it)."""

    def apply_grade(self, index: int, value: GradeValue, *, who: str, note: str,
                    origin: str) -> None: ...

    def apply_conventions(self, conventions: Conventions) -> None: ...


class SetGradeCommand(QUndoCommand):
    """Set one candidate's grade (logged in the audit log by the document)."""

    def __init__(self, editor: WorksheetEditor, index: int, before: GradeValue,
                 after: GradeValue, *, who: str, note: str = "", label: str = "") -> None:
        super().__init__(f"grade {label or index}: {before.text} → {after.text}")
        self.editor = editor
        self.index = index
        self.before = before
        self.after = after
        self.who = who
        self.note = note
        self._done_once = False

    def redo(self) -> None:
        origin = "redo" if self._done_once else "app"
        note = self.note if not self._done_once else f"redo: {self.note}".rstrip(": ")
        self._done_once = True
        self.editor.apply_grade(self.index, self.after, who=self.who, note=note, origin=origin)

    def undo(self) -> None:
        self.editor.apply_grade(
            self.index, self.before, who=self.who,
            note=f"undo of {self.before.text} → {self.after.text}", origin="undo",
        )


class ChangeConventionsCommand(QUndoCommand):
    """Replace the conventions (every view recomputes)."""

    def __init__(self, editor: WorksheetEditor, before: Conventions, after: Conventions,
                 text: str = "") -> None:
        super().__init__(text or "change conventions")
        self.editor = editor
        self.before = before
        self.after = after

    def redo(self) -> None:
        self.editor.apply_conventions(self.after)

    def undo(self) -> None:
        self.editor.apply_conventions(self.before)
