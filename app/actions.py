"""The window's actions, declared once (id, text, shortcut, menu); menus and
the toolbar are built from this table. Add-ons (file operations, clipboard,
find, review docks) declare theirs as :class:`ActionSpec` values too and add
them with :meth:`app.window.MainWindow.add_action`."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication, QObject
from PySide6.QtGui import QAction, QKeySequence

__all__ = ["ACTIONS", "MENUS", "ActionSpec", "build_actions", "make_action"]

Key = QKeySequence.StandardKey


@dataclass(frozen=True)
class ActionSpec:
    """One action: its id (also its objectName), text, shortcut and menu."""

    id: str
    text: str
    menu: str
    shortcut: QKeySequence.StandardKey | str | None = None
    tip: str = ""
    toolbar: bool = False


#: Menu ids in menu-bar order, with their titles.
MENUS: dict[str, str] = {
    "file": "&File",
    "edit": "&Edit",
    "grade": "&Grade",
    "query": "&Query",
    "review": "&Review",
    "view": "&View",
}

ACTIONS: tuple[ActionSpec, ...] = (
    ActionSpec("close", "&Close window", "file", Key.Close, "Close the window"),
    ActionSpec("quit", "&Quit", "file", Key.Quit, "Quit NDCG Worksheet"),
    ActionSpec("set_reviewer", "Set &reviewer name…", "edit", None,
               "The name the audit log records with every grade change"),
    ActionSpec("copy_sentence", "Copy result &sentence", "edit", "Ctrl+Shift+C",
               "Copy the current query's result sentence", toolbar=True),
    ActionSpec("grade_unknown", "Mark &unknown", "grade", None,
               "Set the selected grade to unknown (key U or Delete in the grid)"),
    ActionSpec("grade_unrateable", "Mark un&rateable…", "grade", None,
               "Set the selected grade to unrateable, with a reason (key X in the grid)"),
    ActionSpec("previous_query", "&Previous query", "query", "Ctrl+Up",
               "Show the previous query of the navigator", toolbar=True),
    ActionSpec("next_query", "&Next query", "query", "Ctrl+Down",
               "Show the next query of the navigator", toolbar=True),
    ActionSpec("next_unresolved", "Next &unresolved query", "query", "Ctrl+U",
               "Show the next query whose NDCG waits for unknown grades"),
)


def _tr(text: str) -> str:
    return QCoreApplication.translate("actions", text)


def make_action(spec: ActionSpec, parent: QObject) -> QAction:
    """The QAction of ``spec`` (objectName = id, shortcut, tips)."""
    action = QAction(_tr(spec.text), parent)
    action.setObjectName(spec.id)
    if isinstance(spec.shortcut, QKeySequence.StandardKey):
        action.setShortcuts(spec.shortcut)
    elif spec.shortcut:
        action.setShortcut(QKeySequence(spec.shortcut))
    if spec.tip:
        action.setStatusTip(_tr(spec.tip))
        action.setToolTip(_tr(spec.tip))
    return action


def build_actions(parent: QObject) -> dict[str, QAction]:
    """One QAction per :data:`ACTIONS` entry, keyed by id (objectName = id)."""
    return {spec.id: make_action(spec, parent) for spec in ACTIONS}
