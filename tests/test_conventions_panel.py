"""The conventions panel edits one field of the current conventions: real
clicks on its controls, under every preset."""

from __future__ import annotations

from dataclasses import replace

import pytest
from PySide6.QtCore import Qt

from app.panels.conventions import ConventionsPanel
from core.model.conventions import Conventions
from core.model.presets import PRESETS


@pytest.fixture
def panel(qtbot):  # type: ignore[no-untyped-def]
    p = ConventionsPanel()
    qtbot.addWidget(p)
    p.show()
    edits: list[Conventions] = []

    def take(new: Conventions, _what: str) -> None:
        edits.append(new)
        p.set_conventions(new)  # as the window does once the edit is applied

    p.conventions_edited.connect(take)
    p.edits = edits  # type: ignore[attr-defined]
    return p


@pytest.mark.parametrize("name", ["trec_eval", "ranx"])
def test_negative_gains_off_and_on_keeps_truncation(qtbot, panel, name: str) -> None:
    """The bug: toggling "negative gains count as 0" rebuilt the gain and
    dropped trec_eval's and ranx's truncation of fractional grades."""
    start = PRESETS[name]
    assert start.gain.truncate
    assert start.gain.negative_as_zero
    panel.set_conventions(start)
    box = panel.negative_as_zero
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton)
    assert panel.edits[-1].gain.negative_as_zero is False
    assert panel.edits[-1].gain.truncate is True
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton)
    assert panel.edits[-1] == start
    # Truncation has its own control, and it changes only truncation.
    qtbot.mouseClick(panel.truncate, Qt.MouseButton.LeftButton)
    assert panel.edits[-1] == start.replace(gain=replace(start.gain, truncate=False))
