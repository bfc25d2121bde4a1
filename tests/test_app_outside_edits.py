"""The window announces what reopening a workbook took from the spreadsheet.

A reviewer changes k and the gain rule in the Conventions sheet, as a person
would in Excel, and opens the file: the banner above the grid lists both
changes, the audit log holds them, its button shows the audit log, Close
hides it; an invalid cell is named in the banner and the stored conventions
stay. Opened at launch and through File > Open alike.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from app.main import build_window
from app.settings import Settings
from core.engine.evaluation import evaluate
from core.io.workbook import export_workbook
from core.model.conventions import GainRule
from core.model.examples import seed_document
from tests.test_workbook_reopen import _edit


@pytest.fixture
def book(tmp_path: Path) -> Path:
    path = tmp_path / "seed.xlsx"
    export_workbook(evaluate(seed_document()), path)
    return path


def _window(qtbot: Any, path: Path | None) -> Any:
    Settings().reviewer = "tester"
    w = build_window(path)
    qtbot.addWidget(w)
    w.show()
    return w


def test_conventions_edited_in_the_sheet_are_announced_at_launch(qtbot: Any, book: Path,
                                                                 tmp_path: Path) -> None:
    edited = tmp_path / "edited.xlsx"
    _edit(book, edited, {"gain_rule": "exponential", "cut_1": 3})
    w = _window(qtbot, edited)
    banner = w.outside_edits
    assert banner is not None
    assert banner.isVisible()
    text = banner.text.text()
    assert text.startswith("<b>Conventions edited in the spreadsheet are now the document's")
    assert "<br>gain rule = linear → exponential (edited in Conventions!B4)" in text
    assert "<br>cutoff 1 (k) = 1 → 3 (edited in Conventions!B8)" in text
    assert w.conventions.gain.rule is GainRule.EXPONENTIAL
    assert w.conventions.cutoffs[0] == 3
    outside = [e for e in w.document.audit if e.origin == "outside the app"]
    assert len(outside) == 2
    assert "edited.xlsx was edited outside the app" in w.statusBar().currentMessage()
    dock = w.docks["auditLogDock"]
    dock.hide()
    qtbot.mouseClick(banner.show_log, Qt.MouseButton.LeftButton)
    assert dock.isVisible()
    qtbot.mouseClick(banner.close_button, Qt.MouseButton.LeftButton)
    assert not banner.isVisible()
    w.session.mark_saved()


def test_a_refused_cell_is_named_and_an_unedited_book_says_nothing(qtbot: Any, book: Path,
                                                                   tmp_path: Path) -> None:
    w = _window(qtbot, book)
    assert w.outside_edits is not None
    assert not w.outside_edits.isVisible()
    bad = tmp_path / "bad.xlsx"
    _edit(book, bad, {"cut_1": -1})
    task = w.file_ops.open_path(bad, ask_to_save=False)
    assert task is not None
    qtbot.waitUntil(lambda: task.done, timeout=10_000)
    banner = w.outside_edits
    qtbot.waitUntil(banner.isVisible, timeout=5_000)
    text = banner.text.text()
    assert text.startswith("<b>Convention cells not taken")
    assert "sheet Conventions, row " in text
    assert "column B" in text
    assert w.conventions == seed_document().conventions
    # Another document shown: the banner goes.
    task = w.file_ops.open_path(book, ask_to_save=False)
    assert task is not None
    qtbot.waitUntil(lambda: task.done, timeout=10_000)
    assert not banner.isVisible()
    w.session.mark_saved()
