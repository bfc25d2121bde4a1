"""A reviewer who changes a convention in the side panel keeps their place in
the grid (pytest-qt, real key clicks): the current row stays, the guidelines
still show its level, and the next digit grades that row."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from core.model.conventions import GainRule

#: A close that would ask gets Discard (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("never_block")


def test_a_convention_change_keeps_the_grids_current_row(qtbot, window):
    grid, model = window.grid, window.grid_model
    grid.setFocus()
    grid.setCurrentIndex(model.index(0, grid.currentIndex().column()))
    qtbot.keyClick(grid, Qt.Key.Key_Down)  # case-A, rank 2: source A, grade 3
    assert grid.currentIndex().row() == 1
    candidate = model.candidate(1)
    assert window.document.source_text(candidate) == "A"

    gain = window.conventions_panel.combos["gain"]
    gain.setCurrentIndex(gain.findData(GainRule.EXPONENTIAL.value))
    assert window.conventions.gain.rule is GainRule.EXPONENTIAL  # the edit was applied

    assert grid.currentIndex().row() == 1  # was -1: the grid was reset
    assert model.candidate(grid.currentIndex().row()) == candidate
    guidelines = window.docks["guidelinesDock"].widget()
    assert guidelines.current_label.text() == "case-A / A: grade 3 - direct support"
    assert guidelines.highlighted == 3.0
    grid.setFocus()
    qtbot.keyClick(grid, Qt.Key.Key_1)
    assert window.document.grade[candidate] == 1.0  # the row the reviewer was on
    assert grid.currentIndex().row() == 2  # and the grid moved down, as a digit does
