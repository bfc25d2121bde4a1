"""Preferences: the reviewer's name, the digits shown, moving on after a grade.

The reviewer's name defaults to the operating system's user name
(:func:`app.settings.login_name`): grading never stops to ask for it. It is
shown in the status bar; clicking it, or Edit > Preferences…, opens the
dialog that changes it.

Wire it with ``install_preferences(window)``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QSpinBox,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.accessibility import underline_letters
from app.actions import ActionSpec
from app.panels.wheel import guard_wheel
from app.settings import Settings, login_name

if TYPE_CHECKING:
    from app.window_api import WindowApi

__all__ = ["Preferences", "PreferencesDialog", "install_preferences"]


class PreferencesDialog(QDialog):
    """The preferences form (objectName ``preferencesDialog``); :meth:`apply`
    writes what it shows to the settings."""

    def __init__(self, settings: Settings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("preferencesDialog")
        self.setWindowTitle(self.tr("Preferences"))
        self.settings = settings
        self.reviewer = QLineEdit(settings.reviewer, self)
        self.reviewer.setObjectName("reviewerEdit")
        self.reviewer.setPlaceholderText(login_name())
        self.reviewer.setToolTip(self.tr(
            "Recorded in the audit log with every grade change; empty: your user name "
            "({0})").format(login_name()))
        self.decimals = QSpinBox(self)
        self.decimals.setObjectName("decimalsSpin")
        self.decimals.setRange(0, 15)
        self.decimals.setValue(settings.decimals)
        self.decimals.setToolTip(self.tr("Digits shown after the point (display only: values "
                                         "keep full precision, Copy gives all digits)"))
        self.advance = QCheckBox(self.tr("Move to the next row after a grade key"), self)
        self.advance.setObjectName("advanceCheck")
        self.advance.setChecked(settings.advance_after_grade)
        self.advance.setToolTip(self.tr(
            "A grade typed in the grid (a digit, Mark unknown, Mark unrateable) moves the "
            "cursor to the next row; after a query's last row, to the next query"))
        form = QFormLayout()
        form.addRow(self.tr("Reviewer name:"), self.reviewer)
        form.addRow(self.tr("Decimals shown:"), self.decimals)
        form.addRow(self.advance)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        # (It said "Changes apply to the next grade": the digits change at OK.)
        layout.addWidget(QLabel(self.tr("A new reviewer name applies from the next grade on; "
                                        "grades already in the audit log keep theirs."), self))
        layout.addWidget(buttons)
        guard_wheel(self)
        underline_letters(self)  # (Alt+R: the name, Alt+D: the decimals, ...)

    def apply(self) -> None:
        self.settings.reviewer = self.reviewer.text()
        self.settings.decimals = self.decimals.value()
        self.settings.advance_after_grade = self.advance.isChecked()


class Preferences(QObject):
    """The preferences action and the reviewer's name in the status bar."""

    def __init__(self, window: WindowApi) -> None:
        super().__init__(window)
        self.setObjectName("preferences")
        self.window = window
        self.dialog: PreferencesDialog | None = None
        self.button = QToolButton(window)
        self.button.setObjectName("reviewerButton")
        self.button.setAutoRaise(True)
        self.button.setToolTip(self.tr("The name the audit log records with every grade "
                                       "change (click to change it)"))
        self.button.clicked.connect(self.open)
        window.statusBar().addPermanentWidget(self.button)
        self.action = window.add_action(ActionSpec(
            "preferences", "Pr&eferences…", "edit", QKeySequence.StandardKey.Preferences,
            "The reviewer's name, the digits shown, moving on after a grade"), self.open)
        self.show_reviewer()

    def show_reviewer(self) -> None:
        self.button.setText(self.tr("Reviewer: {0}").format(self.window.reviewer()))

    def open(self) -> bool:
        """The dialog; True when its changes were applied."""
        dialog = PreferencesDialog(self.window.settings, self.window)
        self.dialog = dialog
        try:
            accepted = dialog.exec() == int(QDialog.DialogCode.Accepted.value)
            if accepted:
                dialog.apply()
                self.window.refresh_display_settings()
                self.show_reviewer()
        finally:
            self.dialog = None
            dialog.deleteLater()
        return accepted


def install_preferences(window: WindowApi) -> Preferences:
    """Add Edit > Preferences… and the reviewer's name in the status bar."""
    return Preferences(window)
