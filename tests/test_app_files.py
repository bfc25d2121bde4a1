"""Open, Save, Save As, Export, recent files, recovery, and work off the UI thread."""

from __future__ import annotations

import errno
import os
import threading
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PySide6.QtCore import Qt, QThreadPool, QTimer
from PySide6.QtWidgets import QMessageBox, QPushButton

from app.file_formats import write_document
from app.fileops import FileOps, install_file_ops
from app.settings import Settings
from app.window import MainWindow
from app.workers import Task, error_text, run_task
from core.errors import InputError
from core.io.delimited import read_delimited
from core.io.journal import Journal
from core.model.document import Document, GradeState
from core.model.examples import seed_document
from tests.appboxes import Boxes


@pytest.fixture
def sheet(tmp_path: Path) -> Path:
    path = tmp_path / "sheet.csv"
    write_document(seed_document(), path)
    return path


def _window(qtbot: Any, doc: Document | None = None) -> tuple[MainWindow, FileOps]:
    Settings().reviewer = "ana"
    window = MainWindow(doc or seed_document())
    # Closing a modified window asks a question: leave it clean for the teardown.
    qtbot.addWidget(window, before_close_func=lambda w: w.session.mark_saved())
    return window, install_file_ops(window)


def _finish(qtbot: Any, task: Task | None) -> None:
    assert task is not None
    qtbot.waitUntil(lambda: task.done, timeout=10_000)


def _grade(window: MainWindow, index: int, grade: float | None,
           state: GradeState = GradeState.NUMBER, reason: str = "") -> None:
    assert window.set_grade(index, grade, state, reason=reason)


# -- workers ---------------------------------------------------------------------------
def test_task_runs_off_the_ui_thread_and_the_ui_keeps_answering(qtbot: Any):
    main = threading.get_ident()
    release = threading.Event()
    seen: dict[str, Any] = {}

    def work(progress: Any, cancelled: Any) -> int:
        seen["thread"] = threading.get_ident()
        progress(1, 4)
        # Only the UI thread's timer below can release this: if the UI were
        # blocked by the task the wait would never end.
        assert release.wait(10)
        progress(4, 4)
        return 42

    results: list[int] = []
    task = run_task(None, "working", work, on_done=results.append)
    QTimer.singleShot(0, release.set)
    qtbot.waitUntil(lambda: results == [42], timeout=10_000)
    assert seen["thread"] != main
    assert task.done


def test_cancel_drops_the_result(qtbot: Any):
    gate = threading.Event()
    results: list[Any] = []
    cancelled: list[bool] = []

    def work(progress: Any, is_cancelled: Any) -> str:
        gate.wait(10)
        progress(1, 1)  # raises Cancelled: the work stops here
        return "late"

    task = run_task(None, "working", work, on_done=results.append,
                    on_cancel=lambda: cancelled.append(True))
    button = task.dialog.findChild(QPushButton)
    assert button.text() == "Cancel"
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert cancelled == [True]
    assert task.done
    gate.set()
    QThreadPool.globalInstance().waitForDone(10_000)
    qtbot.wait(20)
    assert results == []


def test_failure_reaches_the_ui_thread_as_the_typed_error(qtbot: Any):
    errors: list[BaseException] = []

    def work(progress: Any, cancelled: Any) -> None:
        raise InputError("'x' is not a number", file="a.csv", line=3, column="score")

    run_task(None, "working", work, on_done=lambda r: None, on_error=errors.append)
    qtbot.waitUntil(lambda: bool(errors), timeout=10_000)
    assert error_text(errors[0]) == "a.csv, line 3, column 'score': 'x' is not a number"
    assert error_text(OSError(errno.EACCES, "Permission denied", "/x")) == (
        "/x: Permission denied")


def test_progress_drives_the_dialog(qtbot: Any):
    release = threading.Event()
    task_box: list[Task] = []

    def work(progress: Any, cancelled: Any) -> None:
        progress(30, 120)
        release.wait(10)

    task = run_task(None, "working", work, on_done=lambda r: None)
    task_box.append(task)
    qtbot.waitUntil(lambda: task.dialog.maximum() == 120, timeout=10_000)
    assert task.dialog.value() == 30
    release.set()
    qtbot.waitUntil(lambda: task.done, timeout=10_000)


# -- open ------------------------------------------------------------------------------
def test_open_shows_the_file_and_remembers_it(qtbot: Any, sheet: Path, boxes: Boxes):
    window, ops = _window(qtbot)
    _finish(qtbot, ops.open_path(sheet))
    assert window.path == sheet
    assert window.document.query_ids[0] == "case-A"
    np.testing.assert_array_equal(window.document.grade, read_delimited(sheet).grade)
    assert Settings().recent_files[0] == str(sheet.resolve())
    assert not window.session.modified
    assert boxes.shown == []
    assert boxes.questions == []


def test_open_error_is_one_message_with_the_input_error_text(qtbot: Any, tmp_path: Path,
                                                             boxes: Boxes):
    bad = tmp_path / "bad.csv"
    bad.write_text("query,source_id,score,grade\nq1,d1,abc,1\n")
    before = bad.read_bytes()
    window, ops = _window(qtbot)
    doc = window.document
    _finish(qtbot, ops.open_path(bad))
    assert boxes.shown == [f"{bad}, line 2, column 'score': 'abc' is not a number "
                           "(use a plain decimal number)"]
    assert window.document is doc  # nothing replaced
    assert bad.read_bytes() == before  # an input file is never changed


def test_recent_files_menu_and_a_vanished_file(qtbot: Any, sheet: Path, tmp_path: Path,
                                               boxes: Boxes):
    other = tmp_path / "other.tsv"
    write_document(seed_document(), other)
    window, ops = _window(qtbot)
    _finish(qtbot, ops.open_path(sheet))
    _finish(qtbot, ops.open_path(other))
    assert ops.recent_files == [str(other.resolve()), str(sheet.resolve())]
    ops.recent_menu.aboutToShow.emit()
    entries = [a.data() for a in ops.recent_menu.actions()]
    assert entries == [str(other.resolve()), str(sheet.resolve())]
    ops.recent_menu.actions()[1].trigger()
    _finish(qtbot, ops.task)
    assert window.path == sheet.resolve()
    sheet.unlink()
    assert ops.open_recent(str(sheet.resolve())) is None
    assert "the file is no longer there" in boxes.shown[-1]
    assert ops.recent_files == [str(other.resolve())]


def test_actions_are_in_the_file_menu_with_standard_shortcuts(qtbot: Any):
    window, ops = _window(qtbot)
    menu = window.menuBar().actions()[0].menu()
    names = [a.objectName() or (a.menu().objectName() if a.menu() else "") for a in
             menu.actions() if not a.isSeparator()]
    assert names[:5] == ["open", "recentMenu", "save", "save_as", "exportMenu"]
    assert ops.actions["save"].shortcut().toString() == "Ctrl+S"
    assert ops.actions["open"].shortcut().toString() == "Ctrl+O"


# -- save ------------------------------------------------------------------------------
def test_save_writes_the_edits_clears_the_journal_and_the_modified_flag(
        qtbot: Any, sheet: Path, boxes: Boxes):
    window, ops = _window(qtbot)
    ops.actions["keep_conventions"].trigger()  # the CSV opens under the example's cutoffs
    _finish(qtbot, ops.open_path(sheet))
    _grade(window, 0, 2.5)
    _grade(window, 4, None, GradeState.UNRATEABLE, "paywall")
    assert window.session.modified
    assert Journal.pending(sheet)
    boxes.answers = [QMessageBox.StandardButton.Save]  # CSV keeps less: save anyway
    assert ops.save(blocking=True)
    assert "the original grade of 2 edited candidates" in boxes.questions[0]
    assert "the conventions declared (cutoffs: k = 1, 2, all" in boxes.questions[0]
    assert not window.session.modified
    assert not Journal(sheet).exists()
    back = read_delimited(sheet)
    assert back.grade[0] == 2.5
    assert (back.state[4], back.reason[4]) == (GradeState.UNRATEABLE, "paywall")
    assert boxes.shown == []
    assert window.statusBar().currentMessage() == f"Saved {sheet.name} in {sheet.parent}"
    _grade(window, 1, 0.0)
    assert ops.save(blocking=True)  # the format was accepted once for this file
    assert len(boxes.questions) == 1


def test_a_lossy_save_declined_writes_nothing(qtbot: Any, sheet: Path, boxes: Boxes):
    window, ops = _window(qtbot)
    _finish(qtbot, ops.open_path(sheet))
    before = sheet.read_bytes()
    _grade(window, 0, 2.5)
    boxes.answers = [QMessageBox.StandardButton.Cancel]
    assert not ops.save(blocking=True)
    assert sheet.read_bytes() == before
    assert window.session.modified


def _no_temp_files(folder: Path) -> bool:
    return not [p for p in folder.iterdir() if p.name.endswith(".tmp")]


@pytest.mark.parametrize("failure", ["disk full on replace", "disk full mid-write",
                                     "permission denied"])
def test_a_failed_save_leaves_the_old_file_byte_identical(
        qtbot: Any, sheet: Path, boxes: Boxes, monkeypatch: pytest.MonkeyPatch, failure: str):
    window, ops = _window(qtbot)
    _finish(qtbot, ops.open_path(sheet))
    before = sheet.read_bytes()
    _grade(window, 0, 2.5)
    boxes.answers = [QMessageBox.StandardButton.Save]  # CSV keeps less: save anyway
    if failure == "disk full on replace":
        def replace(src: Any, dst: Any) -> None:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        monkeypatch.setattr(os, "replace", replace)
        expected = "could not save: the disk is full; the previous file is unchanged"
    elif failure == "disk full mid-write":
        real = Path.write_bytes  # a worksheet CSV is written as bytes in its encoding

        def half(self: Path, data: bytes) -> int:
            real(self, data[: len(data) // 2])
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        monkeypatch.setattr(Path, "write_bytes", half)
        expected = "could not save: the disk is full; the previous file is unchanged"
    else:
        import tempfile

        def denied(*args: Any, **kwargs: Any) -> Any:
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))
        monkeypatch.setattr(tempfile, "mkstemp", denied)
        expected = "cannot write here: permission denied (choose a folder you can write to)"
    assert not ops.save(blocking=True)
    assert boxes.shown == [f"{sheet}: {expected}"]
    assert sheet.read_bytes() == before
    assert _no_temp_files(sheet.parent)
    assert window.session.modified  # still modified
    assert Journal.pending(sheet)  # and the edit is still journaled


def test_save_as_moves_the_document_and_export_does_not(qtbot: Any, sheet: Path,
                                                        tmp_path: Path, boxes: Boxes):
    window, ops = _window(qtbot)
    _finish(qtbot, ops.open_path(sheet))
    _grade(window, 2, 3.0)
    exported = tmp_path / "copy.tsv"
    _finish(qtbot, ops.export(exported))
    assert read_delimited(exported).grade[2] == 3.0
    assert window.path == sheet
    assert window.session.modified
    assert Journal.pending(sheet)
    target = tmp_path / "renamed.csv"
    boxes.answers = [QMessageBox.StandardButton.Save]  # CSV keeps less: save anyway
    assert ops.save_as(target, blocking=True)
    assert window.path == target
    assert ops.path == target
    assert not window.session.modified
    assert read_delimited(target).grade[2] == 3.0
    assert read_delimited(sheet).grade[2] == 0.0  # the old file is as it was
    assert not Journal(sheet).exists()
    assert not Journal(target).exists()
    _grade(window, 2, 1.0)
    assert Journal.pending(target)  # edits now journal under the new name


def test_untitled_save_goes_to_save_as(qtbot: Any, tmp_path: Path, boxes: Boxes,
                                       monkeypatch: pytest.MonkeyPatch):
    from PySide6.QtWidgets import QFileDialog

    target = tmp_path / "new"
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        staticmethod(lambda *a, **k: (str(target), "Worksheet TSV (*.tsv)")))
    window, ops = _window(qtbot)
    _grade(window, 0, 2.0)
    assert Journal.pending(None)
    boxes.answers = [QMessageBox.StandardButton.Save]  # TSV keeps less: save anyway
    assert ops.save(blocking=True)
    assert window.path == tmp_path / "new.tsv"
    assert read_delimited(tmp_path / "new.tsv").grade[0] == 2.0
    assert not Journal.pending(None)


# -- journal and recovery ----------------------------------------------------------------
def test_every_step_of_the_history_is_journaled_and_recovered(qtbot: Any, sheet: Path,
                                                            boxes: Boxes):
    window, ops = _window(qtbot)
    _finish(qtbot, ops.open_path(sheet))
    _grade(window, 0, 2.5)
    _grade(window, 1, None, GradeState.UNKNOWN)
    _grade(window, 5, None, GradeState.UNRATEABLE, "in Finnish")
    window.session.undo()  # row 5 back to its grade
    window.session.undo()  # row 1 back
    window.session.redo()  # row 1 unknown again
    kinds = [(e["source_id"], e["state"]) for e in Journal(sheet).entries()]
    assert len(kinds) == 6
    expected = window.document

    # A new session (the old one crashed: the journal is still there).
    boxes.answers = [QMessageBox.StandardButton.Yes]
    window2, ops2 = _window(qtbot)
    _finish(qtbot, ops2.open_path(sheet))
    assert "6 unsaved edits" in boxes.questions[0]
    doc = window2.document
    np.testing.assert_array_equal(doc.grade, expected.grade)
    np.testing.assert_array_equal(doc.state, expected.state)
    assert doc.reason.tolist() == expected.reason.tolist()
    assert window2.session.modified  # recovered edits are not saved yet
    assert [a.who for a in doc.audit] == ["ana"] * 6


def test_declining_recovery_discards_the_journal(qtbot: Any, sheet: Path, boxes: Boxes):
    window, ops = _window(qtbot)
    _finish(qtbot, ops.open_path(sheet))
    _grade(window, 0, 2.5)
    boxes.answers = [QMessageBox.StandardButton.No]
    window2, ops2 = _window(qtbot)
    _finish(qtbot, ops2.open_path(sheet))
    assert window2.document.grade[0] == 1.0
    assert not window2.session.modified
    assert not Journal(sheet).exists()


def test_an_edit_undone_before_closing_is_not_offered_back(qtbot: Any, sheet: Path,
                                                           boxes: Boxes):
    """Edit a grade, undo it, close: the window is unmodified and closes
    without asking, but its journal (edit, undo) stayed and the next open
    asked to recover 2 edits that change nothing."""
    window, ops = _window(qtbot)
    _finish(qtbot, ops.open_path(sheet))
    _grade(window, 0, 2.5)
    window.session.undo()
    assert not window.session.modified
    assert window.close()
    window2, ops2 = _window(qtbot)
    _finish(qtbot, ops2.open_path(sheet))
    assert boxes.questions == []
    assert boxes.shown == []
    assert window2.document.grade[0] == 1.0
    assert not window2.session.modified
    assert Journal.written(sheet) == []  # gone, not offered again


def test_a_window_closed_unmodified_removes_a_journal_of_edits_undone_or_saved(
        qtbot: Any, sheet: Path, boxes: Boxes):
    """Edit, undo, close: the journal (edit, undo) stayed on disk until the
    file was opened again; so did one of an edit saved and another undone.
    Now the close removes each; a journal of an edit kept (a crash: the
    window never closed) stays."""
    window, ops = _window(qtbot)
    _finish(qtbot, ops.open_path(sheet))
    _grade(window, 0, 2.5)
    window.session.undo()
    assert len(Journal(sheet).entries()) == 2
    assert window.close()
    assert Journal.written(sheet) == []

    window, ops = _window(qtbot)
    _finish(qtbot, ops.open_path(sheet))
    _grade(window, 0, 2.5)
    boxes.answers = [QMessageBox.StandardButton.Save]  # (CSV keeps less: save anyway)
    assert ops.save(blocking=True)
    _grade(window, 3, 3.0)
    window.session.undo()
    assert len(Journal(sheet).entries()) == 2  # (against the file as saved)
    assert window.close()
    assert Journal.written(sheet) == []
    assert read_delimited(sheet).grade[0] == 2.5

    window, ops = _window(qtbot)
    _finish(qtbot, ops.open_path(sheet))
    _grade(window, 3, 3.0)
    window.session.undo()
    window.session.redo()  # modified: a crash now leaves the edit to recover
    assert Journal(sheet).is_pending()


def test_a_file_opened_over_one_unmodified_removes_its_journal_of_edits_undone(
        qtbot: Any, sheet: Path, tmp_path: Path, boxes: Boxes):
    """File > Open over a document whose edits were all undone replaces it
    without asking, as a close does: its journal stayed on disk until that
    file was opened again. The next file's own is left alone."""
    other = tmp_path / "other.csv"
    write_document(seed_document(), other)
    window, ops = _window(qtbot)
    _finish(qtbot, ops.open_path(sheet))
    _grade(window, 0, 2.5)
    window.session.undo()
    _finish(qtbot, ops.open_path(other))
    assert window.path == other
    assert boxes.questions == []
    assert Journal.written(sheet) == []
    _grade(window, 1, 0.0)  # the new file's edits journaled as before
    assert [e["source_id"] for e in Journal(other).entries()] == [
        window.document.source_text(1)]


def test_an_edit_undone_in_a_file_changed_since_is_still_set_aside(
        qtbot: Any, sheet: Path, boxes: Boxes):
    """A journal made on a version of the file another tool saved over is
    never replayed, nor thrown away: set aside and said, whatever it holds."""
    window, ops = _window(qtbot)
    _finish(qtbot, ops.open_path(sheet))
    _grade(window, 0, 2.5)
    window.session.undo()
    other = seed_document()
    other.grades_to_edit()[2] = 3.0
    write_document(other, sheet)  # another tool saved it (the window still open)
    assert window.close()
    assert len(Journal(sheet).entries()) == 2  # (stale: kept at the close)
    window2, ops2 = _window(qtbot)
    _finish(qtbot, ops2.open_path(sheet))
    assert boxes.questions == []
    assert len(boxes.shown) == 1
    assert "changed on disk" in boxes.shown[0]
    assert "2 unsaved edits" in boxes.shown[0]
    assert window2.document.grade[2] == 3.0
    aside = list(Journal(sheet).directory.glob("*.stale-*.jsonl"))
    assert len(aside) == 1
    assert len(aside[0].read_text().splitlines()) == 3


def test_an_edit_undone_beside_one_kept_offers_the_one_kept(qtbot: Any, sheet: Path,
                                                           boxes: Boxes):
    """A journal whose replay changes something is offered whole: the edit
    undone comes back as undone, the other as made."""
    window, ops = _window(qtbot)
    _finish(qtbot, ops.open_path(sheet))
    _grade(window, 0, 2.5)
    _grade(window, 2, 2.0)
    window.session.undo()  # row 2 back to 0; row 0 stays 2.5
    boxes.answers = [QMessageBox.StandardButton.Yes]
    window2, ops2 = _window(qtbot)  # (the first one crashed: its journal is there)
    _finish(qtbot, ops2.open_path(sheet))
    assert len(boxes.questions) == 1
    assert "3 unsaved edits" in boxes.questions[0]
    doc = window2.document
    assert (doc.grade[0], doc.grade[2]) == (2.5, 0.0)
    assert window2.session.modified


def test_opening_over_unsaved_changes_asks_first(qtbot: Any, sheet: Path, boxes: Boxes):
    window, ops = _window(qtbot)
    _grade(window, 0, 2.5)
    boxes.answers = [QMessageBox.StandardButton.Cancel]
    assert ops.open_path(sheet) is None
    assert window.path is None
    assert window.document.grade[0] == 2.5
    boxes.answers = [QMessageBox.StandardButton.Discard]
    _finish(qtbot, ops.open_path(sheet))
    assert window.path == sheet
    assert not Journal.pending(None)  # the discarded untitled edits are gone


def test_closing_with_unsaved_changes_can_save_through_the_file_ops(
        qtbot: Any, sheet: Path, boxes: Boxes):
    window, ops = _window(qtbot)
    _finish(qtbot, ops.open_path(sheet))
    _grade(window, 3, 3.0)
    assert window.isWindowModified()
    boxes.answers = [QMessageBox.StandardButton.Save, QMessageBox.StandardButton.Save]
    assert window.close()
    assert read_delimited(sheet).grade[3] == 3.0
    assert not Journal(sheet).exists()


def test_save_as_retitles_the_window(qtbot: Any, sheet: Path, tmp_path: Path, boxes: Boxes):
    window, ops = _window(qtbot)
    _finish(qtbot, ops.open_path(sheet))
    assert window.windowTitle().startswith("sheet.csv")
    boxes.answers = [QMessageBox.StandardButton.Save]  # TSV keeps less: save anyway
    assert ops.save_as(tmp_path / "graded.tsv", blocking=True)
    assert window.windowTitle().startswith("graded.tsv")
    assert not window.isWindowModified()


def test_save_as_workbook_and_reopen(qtbot: Any, sheet: Path, tmp_path: Path, boxes: Boxes):
    window, ops = _window(qtbot)
    _finish(qtbot, ops.open_path(sheet))
    _grade(window, 0, 2.0)
    _grade(window, 4, None, GradeState.UNRATEABLE, "blank page")
    book = tmp_path / "graded.xlsx"
    assert ops.save_as(book, blocking=True)
    assert book.read_bytes()[:2] == b"PK"
    window2, ops2 = _window(qtbot)
    _finish(qtbot, ops2.open_path(book))
    assert boxes.shown == []
    doc = window2.document
    assert window2.path == book
    assert doc.grade[0] == 2.0
    assert (doc.state[4], doc.reason[4]) == (GradeState.UNRATEABLE, "blank page")


def test_a_window_built_on_a_file_offers_recovery(qtbot: Any, sheet: Path, boxes: Boxes):
    window, ops = _window(qtbot)
    _finish(qtbot, ops.open_path(sheet))
    _grade(window, 0, 2.5)
    # The app is started again on the same file (as build_window(path) does).
    boxes.answers = [QMessageBox.StandardButton.Yes]
    again = MainWindow(read_delimited(sheet), sheet)
    qtbot.addWidget(again, before_close_func=lambda w: w.session.mark_saved())
    ops2 = install_file_ops(again)
    assert ops2.offer_recovery()
    assert again.document.grade[0] == 2.5
    assert again.session.modified
    assert again.evaluation.doc is again.document
    _grade(again, 1, 0.0)
    assert len(Journal(sheet).entries()) == 2  # the journal goes on where it was


def test_a_window_built_on_a_file_offers_no_edit_undone(qtbot: Any, sheet: Path,
                                                        boxes: Boxes):
    window, ops = _window(qtbot)
    _finish(qtbot, ops.open_path(sheet))
    _grade(window, 0, 2.5)
    window.session.undo()
    again = MainWindow(read_delimited(sheet), sheet)  # the app started again on it
    qtbot.addWidget(again, before_close_func=lambda w: w.session.mark_saved())
    ops2 = install_file_ops(again)
    assert not ops2.offer_recovery()
    assert boxes.questions == []
    assert Journal.written(sheet) == []
    assert (again.document.grade[0], again.document.audit) == (1.0, [])
    assert not again.session.modified


def _journal_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "journal-fsync" and t.is_alive()]


def test_a_closed_window_leaves_no_journal_thread(qtbot: Any, tmp_path: Path):
    """Each window's journal forces its edits to disk on a helper thread
    (core.io.journal._sync_loop); a window closed unmodified (its edit
    undone, or marked saved as the tests' windows are) left it waiting for
    ever: six were found alive in one test worker."""
    from app.main import build_window

    Settings().reviewer = "ana"
    before = set(_journal_threads())
    for n in range(4):
        sheet = tmp_path / f"sheet{n}.csv"  # (each its own journal: none offered back)
        write_document(seed_document(), sheet)
        window = build_window(sheet, review_docks=False)
        qtbot.addWidget(window)
        window.show()
        _grade(window, 0, 2.0)
        assert window.file_ops.journal._syncer is not None  # started by the edit
        window.session.undo()  # back to the file: closing does not ask
        assert not window.session.modified
        assert window.close()
    assert len(set(_journal_threads()) - before) == 0
