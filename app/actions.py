"""The window's actions, declared once (id, text, shortcut, menu); menus and
the toolbar are built from this table. Add-ons (file operations, clipboard,
find, review docks) declare theirs as :class:`ActionSpec` values too and add
them with :meth:`app.window.MainWindow.add_action`."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication, QObject
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMainWindow, QMenu, QToolBar

__all__ = ["ACTIONS", "HISTORY", "MENUS", "ActionSpec", "build_actions", "build_menus",
           "history_text", "make_action"]

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
    #: Keys added to a standard shortcut's, wherever the platform lacks them.
    also: tuple[str, ...] = ()


#: Menu ids in menu-bar order, with their titles.
MENUS: dict[str, str] = {
    "file": "&File",
    "edit": "&Edit",
    "grade": "&Grade",
    "query": "&Query",
    "review": "&Review",
    "view": "&View",
    "help": "&Help",
}

#: Undo and Redo, at the top of the Edit menu; their texts and enabled states
#: follow the session's history (the window sets them after every step).
HISTORY: tuple[ActionSpec, ...] = (
    ActionSpec("undo", "&Undo", "edit", Key.Undo, "Undo the last step"),
    # Ctrl+Y as well, as in spreadsheets: Linux desktops' Redo is Ctrl+Shift+Z alone.
    ActionSpec("redo", "&Redo", "edit", Key.Redo, "Apply again the step last undone",
               also=("Ctrl+Y",)),
)

ACTIONS: tuple[ActionSpec, ...] = (
    ActionSpec("close", "&Close window", "file", Key.Close, "Close the window"),
    ActionSpec("quit", "&Quit", "file", Key.Quit, "Quit NDCG Worksheet"),
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
    ActionSpec("edit_query_text", "Edit query &text…", "query", None,
               "Fix the current query's text, shown beside its id (one undoable step)"),
    ActionSpec("reset_layout", "&Reset layout", "view", None,
               "Put every panel back where it was at the first start"),
    ActionSpec("reset_column_widths", "Reset column &widths", "view", None,
               "Let the grids' columns you sized by hand follow their contents again"),
)


def _tr(text: str) -> str:
    return QCoreApplication.translate("actions", text)


def make_action(spec: ActionSpec, parent: QObject) -> QAction:
    """The QAction of ``spec`` (objectName = id, shortcut, tips)."""
    action = QAction(_tr(spec.text), parent)
    action.setObjectName(spec.id)
    if isinstance(spec.shortcut, QKeySequence.StandardKey):
        keys = QKeySequence.keyBindings(spec.shortcut)  # (the desktop's scheme)
        keys += [k for k in map(QKeySequence, spec.also) if k not in keys]
        action.setShortcuts(keys)
    elif spec.shortcut:
        action.setShortcut(QKeySequence(spec.shortcut))
    if spec.tip:
        action.setStatusTip(_tr(spec.tip))
        action.setToolTip(_tr(spec.tip))
    return action


def build_actions(parent: QObject) -> dict[str, QAction]:
    """One QAction per :data:`ACTIONS` entry, keyed by id (objectName = id)."""
    return {spec.id: make_action(spec, parent) for spec in ACTIONS}


def history_text(spec: ActionSpec, step: str | None) -> str:
    """Undo's or Redo's text: "&Undo grade q1/d3: 1 → 3" (the bare verb when
    there is no step), as Qt's own undo actions say it."""
    return f"{_tr(spec.text)} {step}" if step else _tr(spec.text)


def build_menus(window: QMainWindow, actions: dict[str, QAction],
                ) -> tuple[dict[str, QMenu], QToolBar]:
    """The menu bar (one menu per :data:`MENUS` entry, objectName ``<id>Menu``)
    and the main toolbar, filled from :data:`ACTIONS`; Undo and Redo
    (:data:`HISTORY`, added to ``actions``, disabled until there is a step)
    open the Edit menu."""
    for spec in HISTORY:
        actions[spec.id] = make_action(spec, window)
        actions[spec.id].setEnabled(False)
    undo, redo = actions["undo"], actions["redo"]
    menus: dict[str, QMenu] = {}
    for menu_id, title in MENUS.items():
        menu = window.menuBar().addMenu(_tr(title))
        menu.setObjectName(f"{menu_id}Menu")
        menus[menu_id] = menu
    menus["edit"].addAction(undo)
    menus["edit"].addAction(redo)
    menus["edit"].addSeparator()
    toolbar = QToolBar(_tr("Main"), window)
    toolbar.setObjectName("mainToolBar")
    window.addToolBar(toolbar)
    for spec in ACTIONS:
        menus[spec.menu].addAction(actions[spec.id])
        if spec.toolbar:
            toolbar.addAction(actions[spec.id])
    menus["view"].addSeparator()  # the docks' show/hide entries follow
    return menus, toolbar
