"""The window's undo stack over the session's history.

Every user edit is applied by :class:`core.session.Worksheet` (one step, one
record of what changed) and then pushed here as an :class:`EditCommand`, so
Qt's Undo/Redo actions, their texts and the stack's clean state (the modified
flag) follow the session's own history step for step: ``undo()`` and
``redo()`` only ask the session, which writes the audit log's compensating
entries. The edit is applied *before* the push, so an edit the session
refuses (a grade the conventions cannot take, conventions the document
cannot be evaluated under) never reaches the stack.
"""

from __future__ import annotations

from PySide6.QtGui import QUndoCommand, QUndoStack

from core.model.edits import Edit
from core.session import Changes, Worksheet

__all__ = ["EditCommand", "push_edit"]


class EditCommand(QUndoCommand):
    """One applied step of the session's history."""

    def __init__(self, session: Worksheet, text: str) -> None:
        super().__init__(text)
        self.session = session
        self._pushing = True

    def redo(self) -> None:
        if self._pushing:  # QUndoStack.push calls redo: the step is applied already
            self._pushing = False
            return
        self.session.redo()

    def undo(self) -> None:
        self.session.undo()


def push_edit(stack: QUndoStack, session: Worksheet, edit: Edit) -> Changes:
    """Apply ``edit`` and push it as one undo step (nothing is pushed when it
    changes nothing). Raises what :meth:`Worksheet.apply` raises."""
    changes = session.apply(edit)
    if not changes.empty:
        stack.push(EditCommand(session, edit.text or changes.text))
    return changes
