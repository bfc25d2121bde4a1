"""Accessible to every reviewer (issue 29): every control named for a screen
reader, in the main window, its docks and every dialog and wizard page."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QDialog, QPushButton, QWidget, QWizard

from app.accessibility import spoken_name, unnamed_controls
from app.help import HelpMenu
from app.import_wizard.report import ImportReportDialog
from app.import_wizard.wizard import ImportWizard
from app.preferences import PreferencesDialog
from app.review.rounds import HandOutDialog, MergeDialog
from core.io.annotator import import_annotations, preview
from core.model.conventions import Conventions

WIDE_CSV = """query,doc,model_conf,grade_alice,grade_bob,notes
q1,d1,0.9,relevant,relevant,
q1,d2,0.7,partial,not relevant,checked
q2,d4,0.5,relevant,5,
"""


@pytest.fixture
def wide_csv(tmp_path: Path) -> Path:
    path = tmp_path / "wide.csv"
    path.write_text(WIDE_CSV, encoding="utf-8")
    return path


def _opened(qtbot: Any, window: Any, action: str, kind: type[QDialog]) -> QDialog:
    """The dialog ``action`` opens (not modal), as the reviewer opens it."""
    window.app_actions[action].trigger()
    dialog = window.findChild(kind)
    assert dialog is not None, f"{action} opened no {kind.__name__}"
    qtbot.addWidget(dialog)
    return dialog


def test_the_audit_finds_a_control_without_a_name(qtbot: Any):
    """The audit itself can fail: a bare box and a symbol-only button are
    found, the same controls named are not."""
    from PySide6.QtWidgets import QComboBox, QLabel, QVBoxLayout

    root = QWidget()
    qtbot.addWidget(root)
    combo = QComboBox(root)
    combo.setObjectName("bare")
    combo.addItem("linear gain")  # its current text is not its name
    arrow = QPushButton("▲", root)
    arrow.setObjectName("arrow")
    QVBoxLayout(root).addWidget(combo)
    assert [n.split()[0] for n in unnamed_controls(root)] == ["bare", "arrow"]
    label = QLabel("&Gain:", root)
    label.setBuddy(combo)
    arrow.setAccessibleName("Previous match")
    assert unnamed_controls(root) == []
    assert spoken_name(combo) == "Gain"


def test_every_control_of_the_main_window_and_its_docks_is_named(window: Any):
    assert unnamed_controls(window) == []


def test_the_grid_and_the_convention_boxes_say_what_they_are(window: Any):
    """The controls the issue found nameless, by the names a reviewer hears."""
    panel = window.conventions_panel
    assert spoken_name(panel.gain_combo) == "Gain rule"
    assert spoken_name(panel.combos["zero_ideal"]) == "Zero ideal"
    assert spoken_name(panel.combos["rounding"]) == "Consensus rounding"
    assert spoken_name(panel.rubric_table) == "Rubric (grade labels)"
    assert spoken_name(window.navigator.filter_edit) == "Filter queries"
    assert spoken_name(window.grid) == "Candidates"
    assert spoken_name(window.audit_view) == "Audit log"


def test_every_dialog_control_is_named(qtbot: Any, window: Any):
    dialogs: list[QDialog] = [PreferencesDialog(window.settings, window),
                              _opened(qtbot, window, "hand_out", HandOutDialog),
                              _opened(qtbot, window, "merge_returned", MergeDialog)]
    help_menu = window.findChild(HelpMenu)
    dialogs.append(help_menu.shortcuts_dialog())
    for dialog in dialogs:
        qtbot.addWidget(dialog)
        assert (dialog.objectName(), unnamed_controls(dialog)) == (dialog.objectName(), [])


def test_every_wizard_page_and_the_report_are_named(qtbot: Any, window: Any, wide_csv: Path):
    wizard = ImportWizard(wide_csv, Conventions(), "", window)
    qtbot.addWidget(wizard)
    wizard.show()
    qtbot.waitUntil(lambda: not wizard.busy, timeout=10_000)
    seen = []
    for _page in (ImportWizard.SHEET, ImportWizard.MAPPING, ImportWizard.REPORT):
        seen.append(wizard.currentId())
        assert (wizard.currentId(), unnamed_controls(wizard.currentPage())) == (
            wizard.currentId(), [])
        if wizard.currentId() != ImportWizard.REPORT:
            wizard.button(QWizard.WizardButton.NextButton).click()
            qtbot.waitUntil(lambda: not wizard.busy, timeout=10_000)
    assert seen == [ImportWizard.SHEET, ImportWizard.MAPPING, ImportWizard.REPORT]
    result = import_annotations(wide_csv, preview(wide_csv).mapping)
    report = ImportReportDialog(result.report, window)
    qtbot.addWidget(report)
    assert unnamed_controls(report) == []
