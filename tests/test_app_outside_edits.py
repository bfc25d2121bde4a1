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

import openpyxl
import pytest
from PySide6.QtCore import Qt

from app.main import build_window
from app.models.audit import when_text
from app.settings import Settings
from core.engine.evaluation import evaluate
from core.io.workbook import export_workbook
from core.model.audit import AuditEntry
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
    assert "<br>cutoffs = 1, 2, all → 3, 2, all (edited in Conventions!B8)" in text
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
    # (the status bar went on saying 'see the banner above the grid')
    assert "banner" not in w.statusBar().currentMessage()
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


def test_show_the_audit_log_brings_the_spreadsheet_edits_into_view(qtbot: Any,
                                                                   tmp_path: Path) -> None:
    """A reviewer's book with a long audit log, a grade then changed in
    LibreOffice: the banner's button shows the audit log with the grade
    edited in the spreadsheet selected and in view (it showed the log's first
    rows, which are the reviewer's own grades, and the edit 40 rows down)."""
    doc = seed_document()
    doc.audit.extend(AuditEntry("tester", f"2026-12-06T09:{n:02d}:00+00:00", "case-A", "A",
                                "unknown", "3") for n in range(40))
    book, edited = tmp_path / "long.xlsx", tmp_path / "edited.xlsx"
    export_workbook(evaluate(doc), book)
    wb = openpyxl.load_workbook(book)
    ws = wb["Candidates"]
    header = [c.value for c in ws[1]]
    row = next(r for r in range(2, ws.max_row + 1)
               if (ws.cell(r, 1).value, ws.cell(r, 2).value) == ("case-B", "C"))
    ws.cell(row, header.index("current grade") + 1).value = 2
    wb.save(edited)
    w = _window(qtbot, edited)
    w.resize(1280, 800)
    banner = w.outside_edits
    assert banner is not None
    assert banner.isVisible()
    view = w.audit_view
    qtbot.waitUntil(lambda: view.audit_model.rowCount() == 41, timeout=5_000)
    assert view.rowAt(0) == 0  # the log opens at its first entry
    banner.show_log.setFocus()
    qtbot.keyClick(banner.show_log, Qt.Key.Key_Space)
    selected = sorted({i.row() for i in view.selectionModel().selectedRows()})
    assert selected == [40]
    entry = view.audit_model.entry(40)
    assert (entry.query, entry.source_id, entry.after, entry.origin) == (
        "case-B", "C", "2", "outside the app")
    rect = view.visualRect(view.audit_model.index(40, 0))
    assert view.viewport().rect().contains(rect)
    # Its time is when reopening saw it, and says so; the reviewer's own say theirs.
    seen = view.audit_model.index(40, 0)
    assert seen.data() == f"seen on reopening, {when_text(entry.when)}"
    assert seen.data(Qt.ItemDataRole.ToolTipRole) == f"seen on reopening, {entry.when}"
    assert view.audit_model.index(39, 0).data() == when_text("2026-12-06T09:39:00+00:00")
    w.session.mark_saved()


def test_an_edit_in_the_spreadsheet_is_logged_once_over_unsaved_reopens(
        qtbot: Any, book: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A grade and the gain rule changed in the spreadsheet, the workbook
    opened, closed unsaved and opened again twice: the log holds each edit
    once, at the time it was first seen (each reopen logged it anew, 'seen
    on reopening' a later time each time); saved with Ctrl+S and reopened,
    still once, at that time. Each reading is a later second here."""
    ticks = iter(range(10, 60))

    def later() -> str:
        return f"2026-12-06T21:00:{next(ticks)}+00:00"

    monkeypatch.setattr("core.model.document.timestamp", later)
    monkeypatch.setattr("core.io.workbook.sheet_conventions.timestamp", later)
    edited = tmp_path / "edited.xlsx"
    _edit(book, edited, {"gain_rule": "exponential"})
    wb = openpyxl.load_workbook(edited)
    ws = wb["Candidates"]
    column = [c.value for c in ws[1]].index("current grade") + 1
    ws.cell(2, column).value = 2  # case-A, B: 1 -> 2
    wb.save(edited)

    def outside(w: Any) -> list[tuple[str, str, str, str]]:
        return [(e.query, e.before, e.after, e.when) for e in w.document.audit
                if e.origin == "outside the app"]

    logged = [("—", "gain rule = linear", "gain rule = exponential", "2026-12-06T21:00:10+00:00"),
              ("case-A", "1", "2", "2026-12-06T21:00:11+00:00")]
    w = _window(qtbot, edited)  # at launch
    assert outside(w) == logged

    def reopen() -> None:  # File > Open, the document unmodified
        task = w.file_ops.open_path(edited, ask_to_save=False)
        assert task is not None
        qtbot.waitUntil(lambda: task.done, timeout=10_000)

    reopen()
    reopen()
    assert outside(w) == logged
    assert w.outside_edits.isVisible()  # still announced
    before = edited.read_bytes()
    w.grid.setFocus()
    qtbot.keyClick(w.grid, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: edited.read_bytes() != before, timeout=10_000)
    reopen()
    assert outside(w) == logged
    assert not w.outside_edits.isVisible()  # the workbook holds them now


def test_an_annotators_grade_edited_in_the_sheet_is_named_and_not_taken(
        qtbot: Any, tmp_path: Path) -> None:
    """The Annotators sheet records the import: an annotator's grade typed
    there is named in the banner (its cell and what to do), no grade moves."""
    from tests.test_workbook_annotators import imported

    doc = imported(tmp_path)
    book = tmp_path / "annot.xlsx"
    export_workbook(evaluate(doc), book)
    wb = openpyxl.load_workbook(book)
    wb["Annotators"]["D4"] = 3
    wb.save(book)
    w = _window(qtbot, book)
    banner = w.outside_edits
    assert banner is not None
    assert banner.isVisible()
    assert banner.text.text() == (
        "<b>sheet Annotators, row 4, column D: edited, not read as a grade: this sheet "
        "records the annotators' grades as imported, and the next save writes them again "
        "(change the grade in the Candidates sheet's current grade column).</b>")
    assert w.document.grade.tolist()[:3] == doc.grade.tolist()[:3]
    assert not [e for e in w.document.audit if e.origin == "outside the app"]
    w.session.mark_saved()
