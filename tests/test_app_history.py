"""One undo history, the session's: Undo and Redo, their Edit-menu texts and
the modified flag read from it, with real key clicks; and a replaced document
(File > Open) reaching every view through the session's record of it."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QFileDialog

from app.file_formats import write_document
from app.fileops import FileOps, install_file_ops
from app.models.candidates import GridColumn
from app.settings import Settings
from app.window import MainWindow
from core.io.load import load_document
from core.model.conventions import Gain, GainRule
from core.model.document import Document
from core.model.examples import seed_document
from core.session import Changes

CTRL, SHIFT = Qt.KeyboardModifier.ControlModifier, Qt.KeyboardModifier.ShiftModifier


@pytest.fixture
def book(tmp_path: Path) -> Path:
    path = tmp_path / "sheet.xlsx"  # a workbook keeps everything: Save asks nothing
    write_document(seed_document(), path)
    return path


def _open(qtbot: Any, path: Path) -> tuple[MainWindow, FileOps]:
    Settings().reviewer = "ana"
    window = MainWindow(seed_document())
    qtbot.addWidget(window, before_close_func=lambda w: w.session.mark_saved())
    ops = install_file_ops(window)
    task = ops.open_path(path)
    assert task is not None
    qtbot.waitUntil(lambda: task.done, timeout=20_000)
    window.show()
    qtbot.waitExposed(window)
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)  # the shortcuts' context
    return window, ops


def _edit_menu(window: MainWindow) -> list[tuple[str, bool]]:
    return [(a.text(), a.isEnabled()) for a in window.menu("edit").actions()[:2]]


def _keys(qtbot: Any, window: MainWindow, key: Qt.Key, modifiers: Any = CTRL) -> None:
    window.grid.setFocus()
    qtbot.keyClick(window.grid, key, modifiers)


def test_grade_undo_redo_save_and_the_saved_position(qtbot: Any, book: Path):
    window, ops = _open(qtbot, book)
    doc = window.document
    assert window.current_query_id == "case-A"
    # case-A ranks B, A, C (grades 1, 3, 0): the first row is B.
    i = window.grid_model.candidate(0)
    assert (doc.source_text(i), doc.grade[i]) == ("B", 1.0)
    assert not window.isWindowModified()
    assert _edit_menu(window) == [("&Undo", False), ("&Redo", False)]

    window.grid.setCurrentIndex(window.grid_model.index(0, GridColumn.GRADE))
    window.grid.setFocus()
    qtbot.keyClick(window.grid, Qt.Key.Key_3)
    assert doc.grade[i] == 3.0
    assert window.isWindowModified()
    assert _edit_menu(window) == [("&Undo grade case-A/B: 1 → 3", True), ("&Redo", False)]

    _keys(qtbot, window, Qt.Key.Key_Z)  # Ctrl+Z: back to the file as opened
    assert doc.grade[i] == 1.0
    assert not window.isWindowModified()
    assert _edit_menu(window) == [("&Undo", False), ("&Redo grade case-A/B: 1 → 3", True)]

    _keys(qtbot, window, Qt.Key.Key_Z, CTRL | SHIFT)  # Ctrl+Shift+Z
    assert doc.grade[i] == 3.0
    assert window.isWindowModified()

    _keys(qtbot, window, Qt.Key.Key_S)  # Ctrl+S: written off the UI thread
    qtbot.waitUntil(lambda: not window.isWindowModified(), timeout=20_000)
    assert load_document(book).grade[i] == 3.0
    assert _edit_menu(window)[0] == ("&Undo grade case-A/B: 1 → 3", True)

    _keys(qtbot, window, Qt.Key.Key_Z)  # back past the save: modified
    assert doc.grade[i] == 1.0
    assert window.isWindowModified()
    _keys(qtbot, window, Qt.Key.Key_Z, CTRL | SHIFT)  # redo to the saved position: clean
    assert doc.grade[i] == 3.0
    assert not window.isWindowModified()

    # Undo, then a new edit: the saved state was on the redo tail it drops.
    _keys(qtbot, window, Qt.Key.Key_Z)
    window.grid.setCurrentIndex(window.grid_model.index(2, GridColumn.GRADE))
    window.grid.setFocus()
    qtbot.keyClick(window.grid, Qt.Key.Key_2)
    assert window.isWindowModified()
    assert _edit_menu(window)[1] == ("&Redo", False)
    _keys(qtbot, window, Qt.Key.Key_Z)
    assert doc.grade[i] == 1.0
    assert not window.session.can_undo
    assert window.isWindowModified()  # no state of the history is on disk now
    assert ops.path == window.path == book


def _other_document() -> Document:
    doc = Document.from_columns(
        query=["q1", "q1", "q2", "q2", "q2"], source_id=["a", "b", "c", "d", "e"],
        score=[0.9, 0.1, 0.8, 0.5, 0.2], grade=[0.0, 2.0, 1.0, None, 3.0], name="other")
    doc.conventions = doc.conventions.replace(gain=Gain(GainRule.EXPONENTIAL))
    return doc


def test_opening_a_file_reaches_every_view_through_the_session(
        qtbot: Any, book: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    window, ops = _open(qtbot, book)
    window.grid.setCurrentIndex(window.grid_model.index(0, GridColumn.GRADE))
    window.grid.setFocus()
    qtbot.keyClick(window.grid, Qt.Key.Key_3)
    _keys(qtbot, window, Qt.Key.Key_S)
    qtbot.waitUntil(lambda: not window.isWindowModified(), timeout=20_000)
    other = tmp_path / "other.xlsx"
    write_document(_other_document(), other)

    seen: dict[str, Any] = {}
    replaced: list[Document] = []
    window.document_replaced.connect(replaced.append)

    def views(changes: Changes) -> None:
        # Told after the window's own subscriptions: every view shows the new
        # document already, from this record alone.
        if changes.document:
            seen.update(
                navigator=window.navigator.model.rowCount(),
                grid=[window.grid_model.data(window.grid_model.index(r, GridColumn.SOURCE))
                      for r in range(window.grid_model.rowCount())],
                summary=window.summary_panel.title.text(),
                footer=window.footer.text(),
                audit=window.audit_model.rowCount(),
                conventions=window.conventions_panel.conventions,
                replaced=len(replaced))

    window.session.subscribe(views)
    monkeypatch.setattr(QFileDialog, "getOpenFileName",
                        staticmethod(lambda *_a, **_k: (str(other), "")))
    _keys(qtbot, window, Qt.Key.Key_O)  # Ctrl+O: File > Open
    assert ops.task is not None
    qtbot.waitUntil(lambda: window.path == other, timeout=20_000)

    assert seen["navigator"] == 2
    assert seen["grid"] == ["a", "b"]  # q1 shown, ranked by score
    assert "q1" in seen["summary"]
    # q1 ranks a (grade 0) over b (grade 2): NDCG = 1/log2(3); q2 waits for d's grade.
    assert "NDCG@all 0.6309 over 1 of 2 queries (excluded: 1 unresolved)" in seen["footer"]
    assert seen["audit"] == 0  # the other file's log: empty
    assert seen["conventions"].gain.rule is GainRule.EXPONENTIAL
    assert seen["replaced"] == 1  # the same record, the views first: then add-ons hear
    assert replaced == [window.document]
    assert window.current_query_id == "q1"
    assert not window.isWindowModified()
    assert _edit_menu(window) == [("&Undo", False), ("&Redo", False)]
    assert window.windowTitle().startswith("other.xlsx[*]")
    assert ops.path == other


def test_a_convention_changed_in_the_panel_is_audited_saved_and_reopened(
        qtbot: Any, book: Path):
    """A change of conventions (and its undo and redo) is in the audit log as
    grades are, and the saved workbook's Audit sheet and Report say it."""
    import openpyxl

    from core.io.workbook import SHEETS
    window, _ops = _open(qtbot, book)
    combo = window.conventions_panel.combos["ties"]
    was, before = window.conventions.ties, len(window.document.audit)
    combo.setFocus()
    qtbot.keyClick(combo, Qt.Key.Key_Down)  # the next tie rule
    now = window.conventions.ties
    assert now != was
    _keys(qtbot, window, Qt.Key.Key_Z)
    assert window.conventions.ties == was
    _keys(qtbot, window, Qt.Key.Key_Z, CTRL | SHIFT)
    log = window.document.audit[before:]
    change, back = f"ties = {was.value}", f"ties = {now.value}"
    assert [(e.who, e.query, e.source_id, e.before, e.after, e.origin) for e in log] == [
        ("ana", "—", "—", change, back, "app"), ("ana", "—", "—", back, change, "undo"),
        ("ana", "—", "—", change, back, "redo")]
    assert window.audit_model.rowCount() == before + 3  # the audit log's view shows them

    _keys(qtbot, window, Qt.Key.Key_S)
    qtbot.waitUntil(lambda: not window.isWindowModified(), timeout=20_000)
    reopened = load_document(book)
    assert reopened.conventions.ties == now
    assert reopened.audit[before:] == log  # kept, not taken again as a spreadsheet edit
    wb = openpyxl.load_workbook(book)
    try:
        report = [c for row in wb[SHEETS["report"]].iter_rows(values_only=True) for c in row]
        audit = list(itertools.takewhile(  # (the entries, down to the blank row)
            any, wb[SHEETS["audit"]].iter_rows(min_row=2, values_only=True)))
    finally:
        wb.close()
    assert "3 changes recorded: 3 of conventions (ties): see the Audit sheet." in report
    assert [r[4:6] for r in audit] == [(change, back), (back, change), (change, back)]
