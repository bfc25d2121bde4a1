"""Memory running out wherever the window evaluates (the launch, File >
Open, a change of conventions and its undo, Compare, a grade typed, the
recovery of a crash's edits) says so in one line naming the file, with what
to do; the document shown stays, unchanged, and the session's history with
it. The engine's evaluation is made to raise MemoryError for the file's
document only (its query ``huge``), or the grade edit's splice at one of its
writes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog, QMessageBox

import core.engine.evaluation as engine
from app.fileops import install_file_ops
from app.models.candidates import GridColumn
from app.window import MainWindow
from core.engine.writes import Writes
from core.io.delimited import read_delimited
from core.io.journal import Journal
from core.model.choices import TieRule
from core.model.document import Document
from tests.appboxes import Boxes
from tests.test_app_files import _grade
from tests.test_edit_out_of_memory import ARRAYS, _same

#: A close that would ask gets Discard (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("never_block")

HINT = "(close other programs and {0} again, or {0} on a machine with more memory)"


def _huge(tmp_path: Path) -> Path:
    sheet = tmp_path / "huge.csv"
    sheet.write_text("query,source_id,score,grade\nhuge,d1,0.9,2\nhuge,d2,0.5,0\n")
    return sheet


def _no_memory_for_huge(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """``evaluate`` (the engine's entry the reading task, the window and
    the session call) raising MemoryError on a document with the query
    ``huge``; the places it raised (the thread's name)."""
    import threading

    import app.window
    import core.session

    real = engine.evaluate
    raised: list[str] = []

    def evaluate(doc: Any, *args: Any, **kwargs: Any) -> Any:
        if "huge" in list(doc.query_ids):
            raised.append(threading.current_thread().name)
            raise MemoryError
        return real(doc, *args, **kwargs)

    for module in (engine, app.window, core.session):
        monkeypatch.setattr(module, "evaluate", evaluate)
    return raised


def test_the_launch_says_it_and_opens_the_example(qtbot: Any, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The reading thread's evaluation runs out (swallowed there), then the
    window's again on the main thread: one line, the example instead."""
    from app.main import build_window

    sheet = _huge(tmp_path)
    raised = _no_memory_for_huge(monkeypatch)
    warned: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning",
                        staticmethod(lambda parent, title, text: warned.append(text)))
    window = build_window(sheet)
    qtbot.addWidget(window)
    assert raised == ["open-file", "MainThread"]
    assert warned == [f"{sheet}: not enough memory to read it {HINT.format('open it')}"
                      "\n\nThe bundled example opens instead."]
    assert window.path is None
    assert "huge" not in window.document.query_ids
    window.session.mark_saved()


def test_file_open_says_it_and_keeps_the_document(window: Any, qtbot: Any, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch,
                                                  boxes: Boxes) -> None:
    sheet = _huge(tmp_path)
    window.set_grade(0, 3.0)  # an edit: the history it makes stays
    doc, ev = window.document, window.evaluation
    history = window.session.position, window.session.undo_text
    raised = _no_memory_for_huge(monkeypatch)
    shown = boxes.shown
    task = window.file_ops.open_path(sheet, ask_to_save=False)
    assert task is not None
    qtbot.waitUntil(lambda: bool(shown), timeout=10_000)
    assert raised[-1] == "MainThread"  # (after the read's worker, when it evaluated)
    assert shown == [f"{sheet}: not enough memory to read it {HINT.format('open it')}"]
    assert window.document is doc
    assert window.evaluation is ev
    assert (window.session.position, window.session.undo_text) == history
    assert window.path is None


def _huge_window(qtbot: Any) -> Any:
    """The window on the example as it is, its query ids with ``huge`` in
    them from now on (the engine then runs out of memory on it)."""
    from app.main import build_window
    from app.settings import Settings

    Settings().reviewer = "tester"
    window = build_window(None)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    return window


def test_a_change_of_conventions_and_its_undo_say_it_and_change_nothing(
        qtbot: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    window = _huge_window(qtbot)
    before = window.conventions
    other = TieRule.PESSIMISTIC if before.ties is TieRule.AVERAGE else TieRule.AVERAGE
    assert window.change_conventions(before.replace(ties=other)) is None
    changed, ev = window.conventions, window.evaluation
    history = window.session.position, window.session.undo_text, window.session.can_redo
    monkeypatch.setattr(window.document, "query_ids", [*window.document.query_ids[:-1], "huge"])
    _no_memory_for_huge(monkeypatch)
    said = f"not enough memory to evaluate it {HINT.format('try it')}"
    # The conventions panel's edit, as the user's choice sends it.
    assert window.change_conventions(before) == said
    assert window.conventions is changed
    assert window.evaluation is ev
    assert window.conventions_panel.conventions == changed  # the panel shows what applies
    assert (window.session.position, window.session.undo_text,
            window.session.can_redo) == history
    # Undo (its key) evaluates under the conventions before: refused alike.
    window.grid.setFocus()
    qtbot.keyClick(window.grid, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert window.statusBar().currentMessage() == said
    assert window.conventions is changed
    assert window.evaluation is ev
    assert (window.session.position, window.session.undo_text,
            window.session.can_redo) == history
    window.session.mark_saved()


def test_compare_says_it_naming_the_run(window: Any, qtbot: Any, tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch, boxes: Boxes) -> None:
    import core.analysis.compare as compare

    run = tmp_path / "b.csv"
    run.write_text("query,source_id,score,grade\ncase-A,A,1,2\n")

    def no_memory(*_a: Any, **_k: Any) -> None:
        raise MemoryError

    monkeypatch.setattr(compare, "compare", no_memory)
    shown = boxes.shown
    monkeypatch.setattr(QFileDialog, "getOpenFileName",
                        staticmethod(lambda *a, **k: (str(run), "")))
    window.app_actions["compare_runs"].trigger()
    qtbot.waitUntil(lambda: bool(shown), timeout=20_000)
    assert shown == [f"{run}: not enough memory to compare it with the worksheet "
                     f"{HINT.format('compare it')}"]
    assert window.compare_view.view.comparison is None


def _same_as_fresh(window: Any) -> None:
    """The window's evaluation is its document's, bit for bit."""
    fresh = engine.evaluate(window.document)
    for name in ARRAYS:
        _same(getattr(window.evaluation, name), getattr(fresh, name), name)


def test_a_grade_typed_as_memory_runs_out_says_it_and_leaves_the_numbers(
        window: Any, qtbot: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The splice into the window's evaluation runs out at the write after
    the edited query's gains (its per-row results written before them): the
    grade, the numbers shown and the history stay; typed again, it is made."""
    window.set_grade(window.grid_model.candidate(1), 3.0)  # (the splice's arrays its own)
    doc, i = window.document, window.grid_model.candidate(0)
    cell = window.grid_model.index(0, GridColumn.GRADE)
    grade, shown, ndcg = doc.grade[i], cell.data(), window.evaluation.ndcg.copy()
    history = window.session.position, window.session.undo_text
    window.grid.setCurrentIndex(cell)
    window.grid.setFocus()
    gain, real, written = window.evaluation.gain, Writes.write, []

    def write(writes: Writes, whole: Any, *args: Any) -> Any:
        if any(w is gain for w in written):
            raise MemoryError
        written.append(whole)
        return real(writes, whole, *args)

    with monkeypatch.context() as m:
        m.setattr(Writes, "write", write)
        qtbot.keyClick(window.grid, Qt.Key.Key_2)
    assert len(written) > 3  # (per-query copies, per-row results, the gains)
    assert window.statusBar().currentMessage() == (
        f"not enough memory to evaluate it {HINT.format('try it')}")
    assert doc.grade[i] == grade
    assert cell.data() == shown
    assert (window.session.position, window.session.undo_text) == history
    np.testing.assert_array_equal(window.evaluation.ndcg, ndcg)
    _same_as_fresh(window)
    qtbot.keyClick(window.grid, Qt.Key.Key_2)
    assert doc.grade[i] == 2.0
    assert window.session.position == history[0] + 1
    _same_as_fresh(window)


@pytest.mark.parametrize("where", ["evaluating", "replaying"])
def test_a_recovery_that_runs_out_leaves_the_file_as_saved_and_keeps_the_edits(
        qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str) -> None:
    """A crash left two edits; recovering them runs out of memory evaluating
    them, or replaying the second: the document opens as saved, says so, and
    its journal is kept: the next try recovers both."""
    boxes, sheet, entries, warned = _crashed(qtbot, tmp_path, monkeypatch)
    again, ops2 = _on_file(qtbot, sheet)
    original = again.document.grade.copy()
    boxes.answers = [QMessageBox.StandardButton.Yes]
    with monkeypatch.context() as m:
        if where == "evaluating":
            m.setattr(engine, "evaluate", _no_memory)
        else:
            _set_grade = Document.set_grade
            m.setattr(Document, "set_grade", lambda doc, i, *a, **k: _no_memory() if i == 3
                      else _set_grade(doc, i, *a, **k))
        assert not ops2.offer_recovery()
    assert warned == [f"{sheet}: not enough memory to recover its unsaved edits "
                      f"{HINT.format('open it')}\n\nIt opens as it was saved; the edits stay in "
                      "its crash journal: open it again before saving it to recover them."]
    np.testing.assert_array_equal(again.document.grade, original)
    assert again.document.audit == []
    assert not again.session.modified
    assert not again.session.can_undo
    _same_as_fresh(again)
    assert Journal(sheet).entries() == entries  # kept for a later try
    third, ops3 = _on_file(qtbot, sheet)
    boxes.answers = [QMessageBox.StandardButton.Yes]
    assert ops3.offer_recovery()
    assert (third.document.grade[0], third.document.grade[3]) == (2.5, 1.5)
    _same_as_fresh(third)


def test_file_open_recovering_runs_out_and_opens_the_file_as_saved(
        window: Any, qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """File > Open of a file a crash left edits of: the replay runs out at
    its second edit; the file opens as saved (not modified, no history), the
    journal kept."""
    boxes, sheet, entries, warned = _crashed(qtbot, tmp_path, monkeypatch)
    boxes.answers = [QMessageBox.StandardButton.Yes]
    set_grade = Document.set_grade
    monkeypatch.setattr(Document, "set_grade", lambda doc, i, *a, **k: _no_memory() if i == 3
                        else set_grade(doc, i, *a, **k))
    task = window.file_ops.open_path(sheet, ask_to_save=False)
    assert task is not None
    qtbot.waitUntil(lambda: window.path == sheet, timeout=10_000)
    assert len(warned) == 1
    assert warned[0].startswith(f"{sheet}: not enough memory to recover its unsaved edits")
    np.testing.assert_array_equal(window.document.grade, read_delimited(sheet).grade)
    assert window.document.audit == []
    assert not window.session.modified
    assert not window.session.can_undo
    _same_as_fresh(window)
    assert Journal(sheet).entries() == entries
    assert window.file_ops.journal.file != Journal(sheet).file  # later edits: their own


def _crashed(qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
             ) -> tuple[Boxes, Path, list[Any], list[str]]:
    """A sheet a crash left two edits of (rows 0 and 3: 2.5 and 1.5), in its
    journal; message boxes patched (the warnings' texts listed)."""
    from app.file_formats import write_document
    from core.model.examples import seed_document

    boxes = Boxes(monkeypatch)
    sheet = tmp_path / "sheet.csv"
    write_document(seed_document(), sheet)
    crashed, _ops = _on_file(qtbot, sheet)
    _grade(crashed, 0, 2.5)
    _grade(crashed, 3, 1.5)
    entries = Journal(sheet).entries()
    assert len(entries) == 2
    warned: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning",
                        staticmethod(lambda parent, title, text: warned.append(text)))
    return boxes, sheet, entries, warned


def _on_file(qtbot: Any, sheet: Path) -> tuple[Any, Any]:
    """A window built on ``sheet`` with its file actions (as at launch)."""
    window = MainWindow(read_delimited(sheet), sheet)
    qtbot.addWidget(window, before_close_func=lambda w: w.session.mark_saved())
    return window, install_file_ops(window)


def _no_memory(*_a: Any, **_k: Any) -> Any:
    raise MemoryError


def _save_or_discard(boxes: Boxes, window: Any, ops: Any, then: str) -> None:
    """The user's decision on the window's edits: Save, or close it discarding them."""
    if then == "save":
        boxes.answers = [QMessageBox.StandardButton.Save]  # CSV keeps less: save anyway
        assert ops.save(blocking=True)
    else:
        boxes.answers = [QMessageBox.StandardButton.Discard]  # "close anyway?"
        assert window.close()


@pytest.mark.parametrize("then", ["save", "discard"])
def test_edits_after_a_recovery_that_ran_out_go_to_a_journal_of_their_own(
        qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, then: str) -> None:
    """The recovery runs out; a grade is typed (a key click), then the file
    saved or the window closed discarding it: the unrecovered edits stay in
    the crash journal the message named, untouched (the new edit went to a
    journal of its own, which the save or the discard clears); after a
    discard the next open recovers them, after a save they are set aside."""
    boxes, sheet, entries, _warned = _crashed(qtbot, tmp_path, monkeypatch)
    kept = Journal(sheet).file
    kept_bytes = kept.read_bytes()
    again, ops2 = _on_file(qtbot, sheet)
    boxes.answers = [QMessageBox.StandardButton.Yes]
    with monkeypatch.context() as m:
        m.setattr(engine, "evaluate", _no_memory)
        assert not ops2.offer_recovery()
    i = again.grid_model.candidate(1)
    again.grid.setCurrentIndex(again.grid_model.index(1, GridColumn.GRADE))
    again.grid.setFocus()
    qtbot.keyClick(again.grid, Qt.Key.Key_2)
    assert again.document.grade[i] == 2.0
    assert kept.read_bytes() == kept_bytes
    assert ops2.journal.file != kept
    assert [e["grade"] for e in ops2.journal.entries()] == [2.0]
    _save_or_discard(boxes, again, ops2, then)
    assert not ops2.journal.exists()
    assert kept.read_bytes() == kept_bytes
    assert Journal(sheet).entries() == entries
    if then == "save":  # the file changed since they were made: never replayed over it
        assert Journal(sheet).is_stale()
        return
    third, ops3 = _on_file(qtbot, sheet)
    boxes.answers = [QMessageBox.StandardButton.Yes]
    assert ops3.offer_recovery()
    assert (third.document.grade[0], third.document.grade[3]) == (2.5, 1.5)


def test_a_view_running_out_after_a_grade_is_made_leaves_the_others_told(
        window: Any, qtbot: Any) -> None:
    """Memory runs out in a view told of a grade typed (a key click) once the
    session made it: the views after it are told all the same (the grid, the
    audit log, Undo's text, the title's modified flag), the window says it,
    and the grade is one step of the history, undone by Ctrl+Z."""
    doc, i = window.document, window.grid_model.candidate(0)
    grade = 2.0 if doc.grade[i] != 2.0 else 1.0
    cell = window.grid_model.index(0, GridColumn.GRADE)
    entries, position = window.audit_model.rowCount(), window.session.position
    failed: list[int] = []

    def runs_out(_changes: Any) -> None:
        if not failed:
            failed.append(1)
            raise MemoryError

    window.session._listeners.insert(1, runs_out)  # (after the query shown, before the views)
    window.grid.setCurrentIndex(cell)
    window.grid.setFocus()
    qtbot.keyClick(window.grid, Qt.Key.Key_2 if grade == 2.0 else Qt.Key.Key_1)
    assert failed == [1]
    assert doc.grade[i] == grade
    assert cell.data() == grade  # (the grid told)
    assert window.audit_model.rowCount() == entries + 1
    assert window.session.position == position + 1
    assert window.app_actions["undo"].isEnabled()
    assert window.session.undo_text in window.app_actions["undo"].text()
    assert window.isWindowModified()
    assert window.statusBar().currentMessage().startswith("not enough memory")
    _same_as_fresh(window)
    qtbot.keyClick(window.grid, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert window.session.position == position
    assert window.audit_model.rowCount() == entries + 2


@pytest.mark.parametrize("then", ["save", "discard"])
def test_edits_made_while_a_journal_was_kept_are_offered_with_it_next_time(
        qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, then: str) -> None:
    """The recovery runs out; a grade is typed (a key click) over one the
    kept journal changed, then the app ends unsaved: the next open offers
    both journals' edits (3), replays them in the order made (the typed
    grade wins) and keeps them until the user's Save or Discard, which
    clears both."""
    boxes, sheet, _entries, _warned = _crashed(qtbot, tmp_path, monkeypatch)
    again, ops2 = _on_file(qtbot, sheet)
    boxes.answers = [QMessageBox.StandardButton.Yes]
    with monkeypatch.context() as m:
        m.setattr(engine, "evaluate", _no_memory)
        assert not ops2.offer_recovery()
    row = next(r for r in range(again.grid_model.rowCount()) if again.grid_model.candidate(r) == 0)
    again.grid.setCurrentIndex(again.grid_model.index(row, GridColumn.GRADE))
    again.grid.setFocus()
    qtbot.keyClick(again.grid, Qt.Key.Key_2)
    assert again.document.grade[0] == 2.0
    ops2.journal.close()  # (the app ends here without saving)
    files = [j.file for j in Journal.written(sheet)]
    assert files == [Journal(sheet).file, ops2.journal.file]
    third, ops3 = _on_file(qtbot, sheet)
    boxes.questions.clear()
    boxes.answers = [QMessageBox.StandardButton.Yes]
    assert ops3.offer_recovery()
    assert boxes.questions == ["sheet.csv has 3 unsaved edits from a session that ended "
                               "without saving. Recover them?"]
    assert (third.document.grade[0], third.document.grade[3]) == (2.0, 1.5)
    assert third.session.modified
    assert all(f.exists() for f in files)  # until the user decides
    i = third.grid_model.candidate(1)
    third.grid.setCurrentIndex(third.grid_model.index(1, GridColumn.GRADE))
    third.grid.setFocus()
    qtbot.keyClick(third.grid, Qt.Key.Key_1)  # one more edit, journaled after them
    assert third.document.grade[i] == 1.0
    assert [j.file for j in Journal.written(sheet)][:2] == files
    original = read_delimited(sheet).grade
    _save_or_discard(boxes, third, ops3, then)
    assert Journal.written(sheet) == []
    saved = read_delimited(sheet).grade
    assert (saved[0], saved[3], saved[i]) == (
        (2.0, 1.5, 1.0) if then == "save" else (original[0], original[3], original[i]))
