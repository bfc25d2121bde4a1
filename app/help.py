"""The Help menu: every keyboard shortcut in one list, and About.

The list is made from the window's actions (so it never goes out of date)
plus the keys the grid reads itself (digits, U, X, ...). Wire it with
``install_help(window)`` after the other add-ons, so their actions are listed.
"""

from __future__ import annotations

from enum import IntEnum
from typing import TYPE_CHECKING

from PySide6 import __version__ as pyside_version
from PySide6.QtCore import QObject
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QMessageBox, QVBoxLayout

from app.accessibility import label_control
from app.actions import HISTORY, ActionSpec, history_text
from app.review.common import RowsModel, read_only_table
from core.model.guidelines import digit_keys

if TYPE_CHECKING:
    from app.window_api import WindowApi

__all__ = ["GRID_KEYS", "PANEL_KEYS", "HelpMenu", "ShortcutColumn", "about_text", "install_help",
           "shortcut_rows"]

#: Keys the grid and the find bar read themselves (no menu action).
GRID_KEYS: tuple[tuple[str, str], ...] = (
    ("0 … 9", "grade the current row with that number and move to the next row"),
    ("U, Delete, Backspace", "mark the current row's grade unknown (never judged, not 0)"),
    ("X", "mark the current row unrateable (asks why)"),
    ("F2, double-click", "edit the grade: a number, a rubric label, 'unknown' or "
                         "'unrateable: reason'"),
    ("a letter, a digit (Note column)", "start a new note with it (keys type there: they "
                                        "grade nowhere else)"),
    ("F2, double-click (Note column)", "add to the note; Enter keeps it, Escape cancels"),
    ("Delete, Backspace (Note column)", "clear the note (Ctrl+Z puts it back)"),
    ("Shift+arrows", "select a block of cells (to copy, paste into or fill down)"),
    ("Enter, Shift+Enter", "in the find bar: next, previous match"),
    ("Escape", "close the find bar"),
)


#: Keys other panels read themselves: (keys, what they do, where).
PANEL_KEYS: tuple[tuple[str, str, str], ...] = (
    ("Alt+1 … Alt+9", "take that choice for the selected conflict (a reviewer's grade or "
                      "note, or keep both)", "Conflicts"),
    ("Tab, Shift+Tab", "the next, previous control of the panel (F6: the next panel)",
     "every panel"),
)


class ShortcutColumn(IntEnum):
    KEYS = 0
    WHAT = 1
    WHERE = 2


#: Qt's codes after F35 are dedicated keys (Help, Save, Copy, Back, media
#: keys); a standard shortcut lists them beside Ctrl+S or F1, but few
#: keyboards have them.
_DEDICATED_KEYS = 0x01000053


def _keys_text(action: QAction) -> str:
    """The action's shortcuts as the user types them (dedicated keys left out)."""
    shown = [k.toString(QKeySequence.SequenceFormat.NativeText) for k in action.shortcuts()
             if not k.isEmpty() and k[0].key().value < _DEDICATED_KEYS]  # type: ignore[index]
    return ", ".join(shown)


def _plain(text: str) -> str:
    return text.replace("&", "").rstrip("…").rstrip(".")


def shortcut_rows(window: WindowApi) -> list[tuple[str, str, str]]:
    """(keys, what they do, where) for every action with a shortcut, by menu,
    then the keys the grid and the other panels read themselves."""
    rows: list[tuple[str, str, str]] = []
    # Undo's and Redo's items name the step at hand ("Redo gain: exponential
    # gain"); the list says what the keys do.
    verbs = {spec.id: history_text(spec, None) for spec in HISTORY}
    for menu_id, menu in window.menus.items():
        for action in menu.actions():
            keys = _keys_text(action)
            if keys and not action.isSeparator():
                what = verbs.get(action.objectName(), action.text())
                rows.append((keys, _plain(what), _plain(menu.title()) or menu_id))
    rows += [(keys, what, window.tr("Grid")) for keys, what in GRID_KEYS]
    # Each digit's level, as the grade column's header says it (the declared
    # rubric's labels and the guidelines' descriptions).
    c = window.conventions
    rows += [(digit, window.tr("grade ") + what, window.tr("Grid"))
             for digit, what in digit_keys(c.rubric, c.guidelines)]
    rows += [(keys, what, window.tr(where)) for keys, what, where in PANEL_KEYS]
    return rows


def about_text() -> str:
    import importlib.metadata  # when asked: it takes 0.01 s to load

    try:
        version = importlib.metadata.version("ndcg-worksheet")
    except importlib.metadata.PackageNotFoundError:
        version = "(not installed)"
    return (
        f"<h3>NDCG Worksheet {version}</h3>"
        "<p>Grade ranked candidates and compute graded NDCG with every convention "
        "declared: the gain, the discount, the ideal list, ties, unknown grades and "
        "the zero ideal are chosen, shown and saved with the numbers.</p>"
        "<p>Presets reproduce trec_eval, scikit-learn and ranx; Review &gt; Explain a "
        "disagreement shows why their numbers differ.</p>"
        f"<p>Qt for Python (PySide6) {pyside_version}.</p>"
    )


class HelpMenu(QObject):
    """Help > Keyboard shortcuts and Help > About."""

    def __init__(self, window: WindowApi) -> None:
        super().__init__(window)
        self.setObjectName("helpMenu")
        self.window = window
        self.dialog: QDialog | None = None
        window.add_action(ActionSpec(
            "shortcuts", "&Keyboard shortcuts", "help", QKeySequence.StandardKey.HelpContents,
            "Every keyboard shortcut of the window and the grid"), self.show_shortcuts)
        window.add_action(ActionSpec("about", "&About NDCG Worksheet", "help", None,
                                     "Version and what this program does"), self.about)

    def shortcuts_dialog(self) -> QDialog:
        """The list of shortcuts (not shown; :meth:`show_shortcuts` shows it)."""
        dialog = QDialog(self.window)
        dialog.setObjectName("shortcutsDialog")
        dialog.setWindowTitle(self.tr("Keyboard shortcuts"))
        model = RowsModel(ShortcutColumn, {
            ShortcutColumn.KEYS: self.tr("Keys"),
            ShortcutColumn.WHAT: self.tr("What they do"),
            ShortcutColumn.WHERE: self.tr("Menu"),
        }, dialog)
        model.set_rows(shortcut_rows(self.window))
        table = read_only_table("shortcutsTable", model, dialog)
        label_control(table, self.tr("Keyboard shortcuts"))
        table.setWordWrap(False)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, dialog)
        buttons.rejected.connect(dialog.reject)
        layout = QVBoxLayout(dialog)
        layout.addWidget(QLabel(self.tr("Shortcuts work anywhere in the window; the grid's "
                                        "keys work when the grid has the focus."), dialog))
        layout.addWidget(table)
        layout.addWidget(buttons)
        width = sum(table.horizontalHeader().sectionSize(c) for c in range(3)) + 60
        # every column in view (a large font widens them), within the screen
        screen = dialog.screen().availableGeometry()
        dialog.resize(max(560, min(width, screen.width() - 40)), min(520, screen.height() - 40))
        return dialog

    def show_shortcuts(self) -> None:
        dialog = self.shortcuts_dialog()
        self.dialog = dialog
        try:
            dialog.exec()
        finally:
            self.dialog = None
            dialog.deleteLater()

    def about(self) -> None:
        QMessageBox.about(self.window, self.tr("About NDCG Worksheet"), about_text())


def install_help(window: WindowApi) -> HelpMenu:
    """Add the Help menu's Keyboard shortcuts (F1) and About."""
    return HelpMenu(window)
