"""The reviewer's note in the editor: the grid's Note column (the workbook's
column H, declared once), read and written in place with real keys (F2, or
start typing; Enter keeps it, Escape cancels; Delete clears it), one step of
the session each (Ctrl+Z, Ctrl+Shift+Z), audited, journaled (recovered after
a crash), pasted as one step; a note never moves a number."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication, QLineEdit, QMessageBox

from app.models.candidates import GridColumn
from app.models.roles import CANDIDATE_ROLE
from app.panels.fit import note_width
from app.panels.grid import NOTE_MOST
from app.settings import Settings
from app.window import MainWindow
from core.engine.columns import COLUMNS, GRID_COLUMNS
from core.io.journal import Journal
from core.model.examples import seed_document
from tests.appboxes import Boxes
from tests.test_app_clipboard import active_window
from tests.test_app_files import _finish
from tests.test_app_files import _window as _file_window

CTRL = Qt.KeyboardModifier.ControlModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier


@pytest.fixture
def window(qtbot: Any) -> MainWindow:
    win = active_window(qtbot, seed_document())
    win.set_query(win.document.query_index("case-A"))
    return win


def _note_cell(win: MainWindow, row: int) -> Any:
    grid = win.grid
    grid.setCurrentIndex(win.grid_model.index(row, GridColumn.NOTE))
    grid.setFocus()
    return grid


def _editor() -> QLineEdit:
    editor = QApplication.focusWidget()
    assert isinstance(editor, QLineEdit)
    assert editor.objectName() == "noteEditor"
    return editor


def _type(qtbot: Any, win: MainWindow, row: int, text: str) -> None:
    """Type ``text`` on row ``row``'s note cell as a reviewer does: the first
    key opens the editor (with it typed), the others go to the editor."""
    grid = _note_cell(win, row)
    qtbot.keyClicks(grid, text[0])
    qtbot.keyClicks(_editor(), text[1:])
    _enter(qtbot)


def _enter(qtbot: Any) -> None:
    """Enter in the note's editor: the delegate keeps the text once the
    editor has had the key (a queued call), then the editor closes."""
    qtbot.keyClick(_editor(), Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not isinstance(QApplication.focusWidget(), QLineEdit))


def test_the_note_column_is_the_workbook_s_and_shown_after_the_score(window: MainWindow):
    note = next(c for c in COLUMNS if c.key == "note")
    assert note.sheet == ("H", "note")
    assert GRID_COLUMNS[GridColumn.NOTE] is note
    header = window.grid.horizontalHeader()
    assert not window.grid.isColumnHidden(GridColumn.NOTE)
    assert header.visualIndex(GridColumn.NOTE) == header.visualIndex(GridColumn.SCORE) + 1
    assert window.grid_columns.actions["note"].isChecked()
    assert window.grid_model.flags(window.grid_model.index(0, GridColumn.NOTE)) & (
        Qt.ItemFlag.ItemIsEditable)
    # F1 lists the note's keys with the grade's
    from app.help import shortcut_rows

    keys = [row[0] for row in shortcut_rows(window)]
    assert "F2, double-click (Note column)" in keys
    assert "Delete, Backspace (Note column)" in keys


def test_a_note_typed_enter_keeps_it_and_ctrl_z_takes_it_back(qtbot: Any, window: MainWindow):
    doc, model = window.document, window.grid_model
    ndcg, grades = window.evaluation.ndcg.copy(), doc.grade.copy()
    i = model.candidate(1)
    _type(qtbot, window, 1, "2 sources disagree")  # a digit types, it grades nothing
    assert doc.note[i] == "2 sources disagree"
    assert model.index(1, GridColumn.NOTE).data() == "2 sources disagree"
    np.testing.assert_array_equal(doc.grade, grades)
    np.testing.assert_array_equal(window.evaluation.ndcg, ndcg)
    entry = doc.audit[-1]
    assert (entry.who, entry.query, entry.source_id, entry.before, entry.after, entry.origin,
            entry.about_note) == ("ana", "case-A", doc.source_text(i), "no note",
                                  "note: 2 sources disagree", "app", True)
    assert len(doc.audit) == 1
    assert window.isWindowModified()
    assert window.app_actions["undo"].text().startswith("&Undo note case-A/")
    assert window.audit_model.rowCount() == 1
    qtbot.keyClick(window.grid, Qt.Key.Key_Z, CTRL)
    assert doc.note[i] == ""
    assert doc.audit[-1].origin == "undo"
    assert not window.isWindowModified()
    assert window.grid.currentIndex().column() == GridColumn.NOTE
    qtbot.keyClick(window.grid, Qt.Key.Key_Z, CTRL | SHIFT)
    assert doc.note[i] == "2 sources disagree"
    assert [e.origin for e in doc.audit] == ["app", "undo", "redo"]
    np.testing.assert_array_equal(doc.grade, grades)


def test_f2_edits_the_note_escape_cancels_delete_clears(qtbot: Any, window: MainWindow):
    doc, model = window.document, window.grid_model
    i = model.candidate(0)
    _type(qtbot, window, 0, "first")
    grid = _note_cell(window, 0)
    qtbot.keyClick(grid, Qt.Key.Key_F2)
    editor = _editor()
    qtbot.wait(1)  # (the cursor put at the note's end, once the view selected it all)
    assert editor.text() == "first"
    assert not editor.hasSelectedText()
    assert editor.cursorPosition() == len("first")
    qtbot.keyClicks(editor, " and more")
    qtbot.keyClick(editor, Qt.Key.Key_Escape)
    assert doc.note[i] == "first"
    assert window.session.position == 1
    qtbot.keyClick(grid, Qt.Key.Key_F2)
    qtbot.wait(1)
    qtbot.keyClicks(_editor(), ", read twice")
    _enter(qtbot)
    assert doc.note[i] == "first, read twice"
    qtbot.keyClick(grid, Qt.Key.Key_Delete)
    assert doc.note[i] == ""
    assert window.session.position == 3
    assert window.session.undo_text == f"clear the note of case-A/{doc.source_text(i)}"
    assert doc.grade[i] == seed_document().grade[i]  # Delete on a note is not "unknown"


def test_a_long_note_is_elided_and_whole_on_hover(qtbot: Any, window: MainWindow):
    long = "the snippet says one thing, the page another; " * 6 + "\nsecond line"
    assert window.set_note(window.grid_model.candidate(2), long)
    index = window.grid_model.index(2, GridColumn.NOTE)
    shown = index.data()
    assert "\n" not in shown
    assert "⏎ second line" in shown
    assert index.data(Qt.ItemDataRole.ToolTipRole) == long
    most = note_width(window.grid, NOTE_MOST)
    assert window.grid.columnWidth(GridColumn.NOTE) <= most
    # widened to the note, as far as the other columns leave (never past 36 characters)
    assert window.grid.columnWidth(GridColumn.NOTE) == window.grid_panel.note_most(window.grid)
    assert window.grid.fontMetrics().horizontalAdvance(shown) > most  # so it is elided
    assert index.data(Qt.ItemDataRole.EditRole) == long  # the editor starts from the whole
    # Its editor spans the cells beside it, up to the view's edge (not a
    # slit), also once the view lays its editors out again (a resize, a
    # scroll: Qt put it back over its cell alone).
    grid = _note_cell(window, 2)
    qtbot.keyClick(grid, Qt.Key.Key_F2)
    editor = _editor()
    assert editor.text() == long
    edge = grid.viewport().width() - editor.geometry().left()
    wide = min(edge, editor.fontMetrics().horizontalAdvance(long) + 16)
    assert editor.width() == wide
    assert editor.width() > grid.columnWidth(GridColumn.NOTE)
    grid.updateEditorGeometries()
    assert editor.width() == wide
    qtbot.keyClick(editor, Qt.Key.Key_Escape)
    assert window.document.note[window.grid_model.candidate(2)] == long


def test_notes_pasted_are_one_step(qtbot: Any, window: MainWindow):
    doc, model = window.document, window.grid_model
    QGuiApplication.clipboard().setText("looked twice\n\nask the lead\n")
    grid = _note_cell(window, 0)
    qtbot.keyClick(grid, Qt.Key.Key_V, CTRL)
    rows = [model.candidate(r) for r in range(3)]
    assert [doc.note[i] for i in rows] == ["looked twice", "", "ask the lead"]
    assert window.session.position == 1
    assert window.session.undo_text == "paste 3 notes"
    assert [e.about_note for e in doc.audit] == [True, True]  # the empty note was no change
    qtbot.keyClick(grid, Qt.Key.Key_Z, CTRL)
    assert [doc.note[i] for i in rows] == ["", "", ""]


def test_a_note_typed_before_a_crash_is_recovered_with_its_audit_entry(
        qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    from app.file_formats import write_document

    boxes = Boxes(monkeypatch)
    sheet = tmp_path / "sheet.csv"
    write_document(seed_document(), sheet)
    window, ops = _file_window(qtbot)
    _finish(qtbot, ops.open_path(sheet))
    window.show()
    qtbot.waitExposed(window)
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    window.set_query(window.document.query_index("case-A"))
    i = window.grid_model.candidate(1)
    _type(qtbot, window, 1, "why: a stale copy")
    assert [e["kind"] for e in Journal(sheet).entries()] == ["note"]
    expected = list(window.document.audit)

    # A new session (the old one crashed: the journal is still there).
    boxes.answers = [QMessageBox.StandardButton.Yes]
    window2, ops2 = _file_window(qtbot)
    _finish(qtbot, ops2.open_path(sheet))
    assert "1 unsaved edit" in boxes.questions[0]
    doc = window2.document
    assert doc.note[i] == "why: a stale copy"
    assert doc.audit == expected
    assert window2.session.modified


def test_fill_down_in_the_note_column_fills_the_note(qtbot: Any, window: MainWindow):
    doc, model = window.document, window.grid_model
    grades = doc.grade.copy()
    _type(qtbot, window, 0, "same source")
    grid = _note_cell(window, 1)
    qtbot.keyClick(grid, Qt.Key.Key_D, CTRL)  # the note above into the row
    assert doc.note[model.candidate(1)] == "same source"
    assert window.session.undo_text == "fill down 1 note"
    np.testing.assert_array_equal(doc.grade, grades)  # not the grade above


def test_a_grid_of_a_document_without_notes_makes_no_note_column(qtbot: Any):
    """A run read for its NDCG keeps its empty notes unmade (core.model.lazy):
    the grid's Note column read them, and showing a query made the column of
    every candidate's empty note (16 MiB at 2,000,000 candidates: the grade
    edit's benchmark grew from 394 to 410 MiB). A note typed makes it."""
    from core.model.document import Document

    n = 3000
    doc = Document.from_columns(query=[f"q{i // 100}" for i in range(n)],
                                source_id=[f"d{i}" for i in range(n)],
                                score=[float(n - i) for i in range(n)],
                                grade=[float(i % 4) for i in range(n)])
    column = vars(Document)["note"]
    Settings().reviewer = "ana"
    win = MainWindow(doc)
    qtbot.addWidget(win, before_close_func=lambda w: w.session.mark_saved())
    win.show()
    qtbot.waitExposed(win)
    win.fit_columns()
    model = win.grid_model
    assert model.index(0, GridColumn.NOTE).data() == ""
    assert model.index(0, GridColumn.NOTE).data(Qt.ItemDataRole.ToolTipRole) is None
    qtbot.wait(50)  # (painted)
    assert not column.is_made(doc)
    assert win.set_note(int(model.index(1, GridColumn.NOTE).data(CANDIDATE_ROLE)), "why")
    assert column.is_made(doc)
    assert model.index(1, GridColumn.NOTE).data() == "why"


def test_a_grid_of_a_run_without_versions_makes_no_version_column(qtbot: Any):
    """A TREC run gives no versions: its empty versions stay unmade
    (core.model.lazy), as its empty notes do. The grid's Version column read
    them, and the launch on the 2,000,000-candidate run made the column of
    every candidate's empty version as the query arrived (16 MiB, ~8 ms of
    the main thread at the arrival). A document with versions shows them."""
    from core.model.document import Document

    n = 3000
    queries, sources = [f"q{i // 100}" for i in range(n)], [f"d{i}" for i in range(n)]
    doc = Document.from_columns(query=queries, source_id=sources,
                                score=[float(n - i) for i in range(n)],
                                grade=[float(i % 4) for i in range(n)])
    column = vars(Document)["version"]
    win = MainWindow(doc)
    qtbot.addWidget(win, before_close_func=lambda w: w.session.mark_saved())
    win.show()
    qtbot.waitExposed(win)
    win.fit_columns()
    model = win.grid_model
    assert model.index(0, GridColumn.VERSION).data() == ""
    qtbot.wait(50)  # (painted)
    assert not column.is_made(doc)
    versioned = Document.from_columns(query=queries[:2], source_id=sources[:2],
                                      version=["v1", "v2"], score=[2.0, 1.0])
    win.set_document(versioned)
    assert [model.index(r, GridColumn.VERSION).data() for r in range(2)] == ["v1", "v2"]
