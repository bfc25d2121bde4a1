"""The editor opening a file at launch: read on a thread, evaluated once."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QMessageBox

from core.engine import evaluation
from core.errors import NdcgError
from core.model.conventions import TieRule


def _trec(tmp_path: Path) -> tuple[Path, Path]:
    run = tmp_path / "r.run"
    run.write_text("q1 Q0 a 1 3.0 t\nq1 Q0 b 2 2.0 t\nq2 Q0 c 1 1.0 t\n")
    qrels = tmp_path / "r.qrels"
    qrels.write_text("q1 0 a 2\nq1 0 b 0\nq2 0 c 1\n")
    return run, qrels


def test_a_run_opened_at_launch_is_evaluated_once(qtbot, tmp_path, monkeypatch):
    from app.main import build_window

    run, qrels = _trec(tmp_path)
    seen: list[int] = []
    original = evaluation.Evaluation.__init__

    def counting(self, doc, conventions, **options):  # type: ignore[no-untyped-def]
        seen.append(len(doc.score))
        original(self, doc, conventions, **options)

    monkeypatch.setattr(evaluation.Evaluation, "__init__", counting)
    window = build_window(run, qrels=qrels, preset="trec_eval")
    qtbot.addWidget(window)
    assert window.path == run
    assert window.document.n_queries == 2
    assert window.document.conventions.ties is TieRule.ID_DESC  # the preset's tie rule
    assert seen.count(3) == 1  # the three-candidate document: one evaluation
    assert window.session.evaluation.doc is window.document


def test_an_unreadable_run_opens_the_example_with_a_message(qtbot, tmp_path, monkeypatch):
    from app.main import build_window

    run, qrels = _trec(tmp_path)
    run.write_text("q1 Q0 a 1\n")  # four fields: line 1 named
    warned: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning",
                        staticmethod(lambda parent, title, text: warned.append(text)))
    window = build_window(run, qrels=qrels)
    qtbot.addWidget(window)
    assert window.path is None
    assert len(warned) == 1
    assert "line 1" in warned[0]
    assert "example opens instead" in warned[0]
    assert window.document.n_queries > 0


def test_a_run_is_shown_without_decoding_all_its_ids(qtbot, tmp_path):
    """The grid shows a query's ids one by one; the run's column of ids (two
    million in a real run) stays bytes while the window opens and grades."""
    from app.main import build_window

    run, qrels = _trec(tmp_path)
    window = build_window(run, qrels=qrels, preset="trec_eval")
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: window.grid_model.rowCount() == 2)
    assert window.grid_model.data(window.grid_model.index(0, 1)) == "a"
    doc = window.document
    assert doc.source_bytes() is not None
    assert type(doc.__dict__["_made_source_id"]).__name__ == "DecodedIds"


def test_the_add_ons_know_the_file_opened_at_launch(qtbot, tmp_path):
    """The add-ons are installed while the run is read: file operations still
    take the file's state (Save asks before writing over a file changed
    since) and keep the crash journal for it, as when installed after."""
    from app.main import build_window
    from core.io.identity import FileState, real_path

    run, qrels = _trec(tmp_path)
    window = build_window(run, qrels=qrels)
    qtbot.addWidget(window)
    ops = window.file_ops
    assert ops is not None
    assert ops.path == run
    assert ops.file_state == FileState.of(run)
    assert ops.journal.path == real_path(run)
    assert ops.journal.base == ops.file_state


def test_a_worksheet_changed_while_read_at_launch_is_known_as_changed(
        qtbot, tmp_path, monkeypatch):
    """The file's state is the one it had when the reading began (its digest
    is taken after the window's first paint): a grade a colleague changed while
    the file was read is not taken for what was read. Save asks before
    writing over it, and the crash journal is tied to the version read, so
    its edits are never replayed over the colleague's."""
    from app.file_formats import write_document
    from app.main import build_window
    from app.opening import READING, Reading, reading_key
    from core.io.journal import Journal
    from core.model.examples import seed_document
    from tests.test_app_saving import changed_by_a_colleague

    sheet = tmp_path / "sheet.csv"
    write_document(seed_document(), sheet)
    reading = READING[reading_key(sheet, None)] = Reading(sheet, None)
    assert reading().n_queries > 0  # read; then, before the window takes it:
    changed_by_a_colleague(sheet)
    colleague = sheet.read_bytes()
    asked: list[str] = []
    monkeypatch.setattr(QMessageBox, "question", staticmethod(
        lambda parent, title, text, *rest: asked.append(text) or QMessageBox.StandardButton.Cancel))
    window = build_window(sheet)
    qtbot.addWidget(window)
    assert window.path == sheet
    assert window.set_grade(0, 2.5)  # journaled against the version read
    ops = window.file_ops
    assert ops is not None
    assert not ops.save(blocking=True)
    assert len(asked) == 1
    assert "changed on disk since it was opened" in asked[0]
    assert sheet.read_bytes() == colleague
    ops.journal.close()
    assert Journal(sheet).is_stale()


def test_the_file_s_digest_is_taken_after_the_first_paint(qtbot, tmp_path):
    """Shown, the window takes the file's digest on a thread of its own;
    the state is then the file's as of the read."""
    import threading

    from app.main import build_window
    from core.io.identity import FileState

    run, qrels = _trec(tmp_path)
    window = build_window(run, qrels=qrels)
    qtbot.addWidget(window)
    ops = window.file_ops
    assert ops is not None
    taking = ops._later
    assert taking is not None
    assert taking._thread is None  # not before the window is up
    window.show()
    qtbot.waitUntil(lambda: taking._thread is not None)
    assert taking._thread is not threading.main_thread()
    assert ops.file_state == FileState.of(run)


def test_the_launcher_reads_a_run_before_qt_loads(tmp_path):
    """``ndcg-worksheet RUN --qrels QRELS`` starts reading the run before
    PySide6 (and the example's workbook reader) is imported: a fresh process,
    as the entry point runs it."""
    import subprocess
    import sys

    run, qrels = _trec(tmp_path)
    script = (
        "import sys; from app.launcher import prepare; from app.opening import READING; "
        f"prepare([{str(run)!r}, '--qrels', {str(qrels)!r}]); "
        "(reading,) = READING.values(); doc = reading(); "
        "print(doc.n_queries, 'PySide6' in sys.modules, "
        "'core.io.workbook.reader' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=True, cwd=Path(__file__).resolve().parent.parent).stdout
    assert out.split() == ["2", "False", "False"]


def test_the_review_docks_are_installed_while_the_run_is_read(qtbot, tmp_path, monkeypatch):
    """The window would wait for a long read: the review docks are installed
    meanwhile (once), not after the first paint."""
    import threading

    from PySide6.QtWidgets import QApplication

    import app.main as main_module
    import app.opening as opening

    run, qrels = _trec(tmp_path)
    docks_in = threading.Event()
    original_load, original_docks = opening.load, main_module.install_review_docks
    installed: list[bool] = []

    def slow_load(path, qrels, preset=None):  # type: ignore[no-untyped-def]
        assert docks_in.wait(20)  # the read ends only once the docks are in
        return original_load(path, qrels, preset)

    def docks(window):  # type: ignore[no-untyped-def]
        installed.append(window.document.n_queries == 2)  # the run not shown yet: False
        original_docks(window)
        docks_in.set()

    monkeypatch.setattr(opening, "load", slow_load)
    monkeypatch.setattr(main_module, "install_review_docks", docks)
    built = []
    # The event loop runs until the run is shown (the window is shown while it is read).
    monkeypatch.setattr(QApplication, "exec", lambda self: qtbot.waitUntil(
        lambda: built[-1].document.n_queries == 2) or 0)
    build = main_module.build_window
    monkeypatch.setattr(main_module, "build_window",
                        lambda *a, **k: built.append(build(*a, **k)) or built[-1])
    assert main_module.main([str(run), "--qrels", str(qrels)]) == 0
    (window,) = built
    qtbot.addWidget(window)
    qtbot.waitUntil(window.isVisible)
    assert "compareViewDock" in window.docks
    assert window.document.n_queries == 2
    QApplication.processEvents()  # the first paint: nothing installed again
    assert installed == [False]
    window.session.mark_saved()


def test_the_switch_interval_is_shorter_while_a_file_is_read(tmp_path, monkeypatch):
    """While the run is read beside the window's Python work, the reader
    takes the interpreter lock back after at most 1 ms (not Python's 5 ms);
    the interval the process had comes back once every reading is done,
    also when a reading fails."""
    import sys

    import app.opening as opening

    run, qrels = _trec(tmp_path)
    before = sys.getswitchinterval()
    seen: list[float] = []
    original = opening.load

    def load(path, qrels, preset=None):  # type: ignore[no-untyped-def]
        seen.append(sys.getswitchinterval())
        return original(path, qrels, preset)

    monkeypatch.setattr(opening, "load", load)
    assert opening.Reading(run, qrels)().n_queries == 2
    assert seen == [opening.READING_SWITCH_INTERVAL]
    assert seen[0] < before
    assert sys.getswitchinterval() == before
    run.write_text("q1 Q0 a 1\n")  # four fields: the reading raises
    with pytest.raises(NdcgError, match="line 1"):
        opening.Reading(run, qrels)()
    assert len(seen) == 2
    assert sys.getswitchinterval() == before


def test_the_launch_opens_the_run_once_for_its_head_and_once_to_read_it(tmp_path,
                                                                       monkeypatch):
    """The run's first bytes, read to tell a TREC run (for the reading's
    child), are the reading's: it opened the run three times before."""
    import app.opening as opening
    import core.io.files as files

    run, qrels = _trec(tmp_path)
    opened: list[str] = []
    real = files._open_plain
    monkeypatch.setattr(files, "_open_plain",
                        lambda path: opened.append(Path(path).name) or real(path))
    assert opening.Reading(run, qrels)().n_queries == 2
    assert sorted(opened) == sorted([run.name, qrels.name] * 2)
    opened.clear()
    run.write_text("q1 Q0 a 1\n")  # refused by the reading, with its line, as before
    with pytest.raises(NdcgError, match="line 1"):
        opening.Reading(run, qrels)()


def test_the_run_is_evaluated_on_the_reading_thread_under_its_preset(qtbot, tmp_path,
                                                                     monkeypatch):
    """The launch's reading thread evaluates the document it read (under the
    preset named) while the window is built: the window shows that
    evaluation, and evaluates nothing again."""
    import threading

    from app.main import build_window

    run, qrels = _trec(tmp_path)
    threads: list[str] = []
    original = evaluation.Evaluation.__init__

    def where(self, doc, conventions, **options):  # type: ignore[no-untyped-def]
        if len(doc.score) == 3:
            threads.append(threading.current_thread().name)
        original(self, doc, conventions, **options)

    monkeypatch.setattr(evaluation.Evaluation, "__init__", where)
    window = build_window(run, qrels=qrels, preset="trec_eval")
    qtbot.addWidget(window)
    assert threads == ["open-file"]
    ev = window.session.evaluation
    assert ev.doc is window.document
    assert ev.conventions is window.document.conventions
    assert ev.conventions.ties is TieRule.ID_DESC
    assert float(ev.ndcg[0, 0]) == 1.0  # a (2), b (0) in that order: ideal


def test_a_run_the_reading_thread_cannot_evaluate_is_reported_by_the_window(
        qtbot, tmp_path, monkeypatch):
    """An evaluation that fails on the reading thread is done again by the
    window, whose message box says why; the example opens instead."""
    from app.main import build_window
    from core.errors import InputError

    run, qrels = _trec(tmp_path)
    original = evaluation.Evaluation.__init__
    tries: list[int] = []

    def refuse(self, doc, conventions, **options):  # type: ignore[no-untyped-def]
        if len(doc.score) == 3:
            tries.append(3)
            raise InputError("r.qrels, line 2, column 4: no such grade; grade it again")
        original(self, doc, conventions, **options)

    warned: list[str] = []
    monkeypatch.setattr(evaluation.Evaluation, "__init__", refuse)
    monkeypatch.setattr(QMessageBox, "warning",
                        staticmethod(lambda parent, title, text: warned.append(text)))
    window = build_window(run, qrels=qrels)
    qtbot.addWidget(window)
    assert tries == [3, 3]  # the reading thread's, then the window's
    assert window.path is None
    assert len(warned) == 1
    assert "line 2, column 4" in warned[0]
    assert "example opens instead" in warned[0]
    assert window.file_ops.file_state is None  # (the run's, not the example's)


def _launch_held(monkeypatch, tmp_path, during):  # type: ignore[no-untyped-def]
    """``app.main.main`` on a TREC run whose read waits until ``during(window,
    reading, let_go)`` (run as the event loop, the window shown) lets it go;
    the window and the read."""
    import threading

    from PySide6.QtWidgets import QApplication

    import app.main as main_module
    import app.opening as opening
    from app.reading_state import ReadingState

    run, qrels = _trec(tmp_path)
    gate = threading.Event()
    original_load = opening.load

    def held_load(path, qrels, preset=None):  # type: ignore[no-untyped-def]
        assert gate.wait(20)
        return original_load(path, qrels, preset)

    monkeypatch.setattr(opening, "load", held_load)
    built: list = []
    build = main_module.build_window
    monkeypatch.setattr(main_module, "build_window",
                        lambda *a, **k: built.append(build(*a, **k)) or built[-1])
    states: list = []

    def event_loop(_app):  # type: ignore[no-untyped-def]
        (window,) = built
        state = window.findChild(ReadingState)
        states.append(state.reading)
        during(window, state.reading, gate.set)
        return 0

    monkeypatch.setattr(QApplication, "exec", event_loop)
    assert main_module.main([str(run), "--qrels", str(qrels)]) == 0
    return built[0], states[0]


def test_the_window_shows_while_the_run_is_read_and_takes_nothing_until_it_arrives(
        qtbot, tmp_path, monkeypatch):
    """Shown at once, greyed, saying what it reads: a grade key and a menu
    action's shortcut do nothing; Quit stays on. When the run arrives
    everything is on again and a digit typed on a grade cell grades it."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QApplication, QLabel

    from app.models.candidates import GridColumn

    def during(window, reading, let_go):  # type: ignore[no-untyped-def]
        qtbot.addWidget(window)
        qtbot.waitExposed(window)
        assert reading.busy
        assert window.document.n_queries == 0
        line = window.statusBar().findChild(QLabel, "readingLine")
        assert line is not None
        assert line.isVisible()
        assert line.text() == "Reading r.run…"
        assert not window.centralWidget().isEnabled()
        assert not any(d.isEnabled() for d in window.docks.values())
        on = [a.objectName() or a.text() for a in window.findChildren(type(
            window.app_actions["quit"])) if a.isEnabled() and a.shortcut().toString()]
        assert window.app_actions["quit"].isEnabled()
        assert window.app_actions["close"].isEnabled()
        assert not window.file_ops.actions["save_as"].isEnabled()
        assert not window.app_actions["undo"].isEnabled()
        window.activateWindow()
        qtbot.keyClick(window.grid, "2")  # a grade key on the greyed grid
        qtbot.keyClick(window, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)  # Find
        qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)  # Undo
        window.file_ops.actions["save_as"].trigger()  # (a dialog would wait here)
        assert not window.find_bar.isVisible()
        assert not window.session.can_undo
        assert on  # (Close's Ctrl+W at least)
        assert set(on) <= {a.objectName() or a.text() for a in (window.app_actions["quit"],
                                                                window.app_actions["close"])}
        let_go()
        qtbot.waitUntil(lambda: window.document.n_queries == 2)

    window, reading = _launch_held(monkeypatch, tmp_path, during)
    assert not reading.busy
    assert window.centralWidget().isEnabled()
    from PySide6.QtCore import QEvent

    from app.reading_state import ReadingState

    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    assert window.findChild(ReadingState) is None  # (nor the read's document kept by it)
    assert window.file_ops.actions["save_as"].isEnabled()
    assert window.statusBar().findChild(QLabel, "readingLine") is None or not \
        window.statusBar().findChild(QLabel, "readingLine").isVisible()
    # A grade typed on the first candidate's grade cell, as a person types it.
    grid = window.grid
    grid.setFocus()
    grid.setCurrentIndex(window.grid_model.index(0, GridColumn.GRADE))
    qtbot.waitUntil(lambda: QApplication.focusWidget() is grid)
    i = window.grid_model.candidate(0)
    before = window.document.grade[i]
    qtbot.keyClick(grid, "1")
    assert window.document.grade[i] == 1.0 != before
    window.session.mark_saved()


def test_the_activity_watch_waits_for_the_run_s_first_paint(qtbot, tmp_path, monkeypatch):
    """The greyed window shown while the run is read takes no input: the
    judgment clock's watch (once a Python call for every event of the
    window's first show, ~55 ms of it at 2M candidates; now the windows'
    own events) starts once the run is shown and painted, and then hears a
    key wherever it goes."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QApplication

    heard: list[float] = []

    def during(window, reading, let_go):  # type: ignore[no-untyped-def]
        qtbot.addWidget(window)
        qtbot.waitExposed(window)
        window.activity_clock.clock.active = heard.append
        for _ in range(2):  # painted greyed, the events it posted delivered
            QApplication.processEvents()
        assert not window.activity_clock.watching
        window.navigator.view.setFocus()
        qtbot.keyClick(window.windowHandle(), Qt.Key.Key_Down)
        assert heard == []
        let_go()
        qtbot.waitUntil(lambda: window.document.n_queries == 2)
        qtbot.waitUntil(lambda: window.activity_clock.watching)

    from PySide6.QtGui import QWindow

    import app.window as window_module
    from app.judgment_clock import ActivityClock

    passed: list[object] = []  # what the clock's filter is called for (from the start)

    class Counted(ActivityClock):
        def eventFilter(self, watched, event):  # type: ignore[no-untyped-def]
            passed.append(watched)
            return super().eventFilter(watched, event)

    monkeypatch.setattr(window_module, "ActivityClock", Counted)
    window, _reading = _launch_held(monkeypatch, tmp_path, during)
    for view in (window.navigator.view, window.grid):  # (through the window, to its focus)
        heard.clear()
        view.setFocus()
        qtbot.keyClick(window.windowHandle(), Qt.Key.Key_Down)
        assert heard
    # Only the grid's viewport (its first paint taking input), then the
    # windows: not every event of the window while it waited (~260 calls at
    # 2M candidates), nor of every widget after (9-53 an edit).
    viewport = window.grid.viewport()
    assert passed
    assert all(w is viewport or isinstance(w, QWindow) for w in passed)
    window.session.mark_saved()


def test_the_reading_hears_of_the_window_s_close_without_a_filter(qtbot, tmp_path,
                                                                  monkeypatch):
    """While the run is read the window's close reaches the reading state by
    the window's signal: its Python filter on the window was called for each
    of the window's events while it waited (~260 at 2M candidates, beside
    the read). Closing it still stops the read (the test below)."""
    from PySide6.QtWidgets import QApplication

    import app.reading_state as reading_state

    passed: list[object] = []

    class Counted(reading_state.ReadingState):
        def eventFilter(self, watched, event):  # type: ignore[no-untyped-def]
            passed.append(event.type())
            return super().eventFilter(watched, event)

    monkeypatch.setattr(reading_state, "ReadingState", Counted)

    def during(window, reading, let_go):  # type: ignore[no-untyped-def]
        qtbot.addWidget(window)
        qtbot.waitExposed(window)
        window.resize(900, 700)
        for _ in range(3):
            QApplication.processEvents()
        let_go()
        qtbot.waitUntil(lambda: window.document.n_queries == 2)

    window, _reading = _launch_held(monkeypatch, tmp_path, during)
    assert passed == []
    window.session.mark_saved()


def test_what_the_start_made_is_out_of_the_collector_s_reach_while_the_editor_runs(
        qtbot, tmp_path, monkeypatch):
    """The modules and classes the start imported are frozen for the event
    loop's life (a full collection walked them: ~25 ms of every start), and
    given back to the collector when it ends."""
    import gc

    frozen: list[int] = []

    def during(window, reading, let_go):  # type: ignore[no-untyped-def]
        qtbot.addWidget(window)
        frozen.append(gc.get_freeze_count())
        let_go()
        qtbot.waitUntil(lambda: window.document.n_queries == 2)

    assert gc.get_freeze_count() == 0
    window, _reading = _launch_held(monkeypatch, tmp_path, during)
    assert frozen[0] > 10_000  # (every module's functions and classes)
    assert gc.get_freeze_count() == 0
    window.session.mark_saved()


def test_closing_while_the_run_is_read_leaves_nothing_behind(qtbot, tmp_path, monkeypatch):
    """Close (its shortcut) while the run is read: the window goes, the read
    stops before its next piece (core.io.stop: none is read after it), the
    document is dropped (not evaluated, never shown) and the reading thread
    has ended when the editor returns (a child process that helped it
    reaped: none is left; tests/test_trec_fork.py stops one mid-read)."""
    import os
    import threading

    from PySide6.QtWidgets import QApplication

    from core.io.stop import Stopped
    from core.io.trec import scan

    pieces: list[int] = []
    read_piece = scan._read_piece
    monkeypatch.setattr(scan, "_read_piece", lambda *a: pieces.append(1) or read_piece(*a))
    # The children this launch forks (not any other test's: an earlier test's
    # Spark or Dask child in this process is not this one's).
    forked: list[int] = []
    fork = os.fork
    monkeypatch.setattr(os, "fork", lambda: forked.append(fork()) or forked[-1])

    def during(window, reading, let_go):  # type: ignore[no-untyped-def]
        qtbot.addWidget(window)
        qtbot.waitExposed(window)
        key = window.app_actions["close"].shortcut()[0]  # (Ctrl+W, or Ctrl+F4 offscreen)
        window.activateWindow()
        qtbot.waitUntil(window.isActiveWindow)
        qtbot.keyClick(window, key.key(), key.keyboardModifiers())
        assert not window.isVisible()
        let_go()

    window, reading = _launch_held(monkeypatch, tmp_path, during)
    assert not reading.busy
    assert "open-file" not in [t.name for t in threading.enumerate()]
    assert pieces == []  # stopped before its first piece
    assert isinstance(reading._box[0], Stopped)
    assert reading.evaluation is None  # dropped before its evaluation
    # What the reading's thread said as it ended, delivered (an event loop
    # that goes on: another window open) shows nothing in the closed window.
    QApplication.sendPostedEvents()
    assert window.document.n_queries == 0  # never shown in the closed window
    # Stopped before its first piece, the read forked no helper (one stopped
    # mid-read is reaped: tests/test_trec_fork.py).
    assert forked == []


def test_a_run_that_fails_while_the_window_waits_opens_the_example(qtbot, tmp_path,
                                                                    monkeypatch):
    """The read fails once the window is shown and waiting: the one-line
    message names the line, the example opens instead, the window takes
    input again and says nothing more of reading."""
    from PySide6.QtWidgets import QLabel

    warned: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning",
                        staticmethod(lambda parent, title, text: warned.append(text)))

    def during(window, reading, let_go):  # type: ignore[no-untyped-def]
        qtbot.addWidget(window)
        qtbot.waitExposed(window)
        (tmp_path / "r.run").write_text("q1 Q0 a 1\n")  # four fields: line 1 named
        let_go()
        qtbot.waitUntil(lambda: window.document.n_queries > 0)

    window, _reading = _launch_held(monkeypatch, tmp_path, during)
    assert len(warned) == 1
    assert "line 1" in warned[0]
    assert "example opens instead" in warned[0]
    assert window.path is None
    # Nor is the run the file the example was read from (its digest not taken).
    assert window.file_ops.file_state is None
    assert window.centralWidget().isEnabled()
    assert window.statusBar().findChild(QLabel, "readingLine") is None or not \
        window.statusBar().findChild(QLabel, "readingLine").isVisible()


def test_nothing_opens_another_file_while_the_run_is_read(qtbot, tmp_path, monkeypatch):
    """While the window waits for its run, neither File > Open Recent (a
    submenu: filled afresh each time it opens) nor a file dropped on the
    window opens another file (the run arriving would then replace it):
    both take files again once the run is shown."""
    from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl
    from PySide6.QtGui import QDragEnterEvent, QDropEvent
    from PySide6.QtWidgets import QApplication

    from app.settings import Settings

    other = tmp_path / "other.csv"
    other.write_text("query,source_id,grade\nq9,d1,1\n", encoding="utf-8")
    Settings().recent_files = [str(other)]
    dropped: list[str] = []

    def drop(window):  # type: ignore[no-untyped-def]
        """``other`` dragged from a file manager and dropped: whether taken."""
        mime = QMimeData()
        mime.setUrls([QUrl.fromLocalFile(str(other))])
        taken = []
        for kind in (QDragEnterEvent, QDropEvent):
            event = kind(QPoint(40, 40) if kind is QDragEnterEvent else QPointF(40, 40),
                         Qt.DropAction.CopyAction, mime, Qt.MouseButton.NoButton,
                         Qt.KeyboardModifier.NoModifier)
            QApplication.sendEvent(window, event)
            taken.append(event.isAccepted())
        return any(taken)

    def during(window, reading, let_go):  # type: ignore[no-untyped-def]
        qtbot.addWidget(window)
        qtbot.waitExposed(window)
        window.file_drop.file_dropped.disconnect()  # (what a drop opens: said, not opened)
        window.file_drop.file_dropped.connect(dropped.append)
        assert window.menu("file").menuAction().isEnabled()  # (Close and Quit are in it)
        assert not window.file_ops.recent_menu.menuAction().isEnabled()
        assert not window.acceptDrops()
        assert not drop(window)
        assert dropped == []
        assert window.file_ops.task is None
        let_go()
        qtbot.waitUntil(lambda: window.document.n_queries == 2)

    window, _reading = _launch_held(monkeypatch, tmp_path, during)
    assert window.file_ops.recent_menu.menuAction().isEnabled()
    assert window.acceptDrops()
    assert drop(window)
    assert dropped == [str(other)]


def test_a_run_too_large_for_memory_while_the_window_waits_opens_the_example(
        qtbot, tmp_path, monkeypatch):
    """The read runs out of memory once the window is shown and waiting:
    one line naming the file says so (as ``evaluate`` does), the example
    opens instead and the window takes input again, its grids shown."""
    import app.opening as opening

    warned: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning",
                        staticmethod(lambda parent, title, text: warned.append(text)))

    def no_memory(path, qrels, preset=None):  # type: ignore[no-untyped-def]
        raise MemoryError

    monkeypatch.setattr(opening, "load", no_memory)

    def during(window, reading, let_go):  # type: ignore[no-untyped-def]
        qtbot.addWidget(window)
        qtbot.waitExposed(window)
        let_go()
        qtbot.waitUntil(lambda: window.document.n_queries > 0)

    window, _reading = _launch_held(monkeypatch, tmp_path, during)
    assert warned == [f"{tmp_path / 'r.run'}: not enough memory to read it (close other "
                      "programs and open it again, or open it on a machine with more "
                      "memory)\n\nThe bundled example opens instead."]
    assert window.path is None
    assert window.centralWidget().isEnabled()
    assert window.grid_panel.split.isVisible()


def test_the_tones_brushes_are_made_while_the_window_waits_for_the_run(
        qtbot, tmp_path, monkeypatch):
    """The brushes the models paint with are made while the greyed window
    waits (a process's first QBrush costs PySide ~4 ms), not at the run's
    arrival: every tone's, for the palette in use, before the read is let go."""
    from app.models import looks

    monkeypatch.setattr(looks, "_brushes", {})

    def during(window, reading, let_go):  # type: ignore[no-untyped-def]
        qtbot.addWidget(window)
        qtbot.waitExposed(window)
        qtbot.waitUntil(lambda: len(looks._brushes) == len(looks.TONES))
        assert reading.busy
        assert window.document.n_queries == 0
        dark = looks.dark_in_use()
        assert set(looks._brushes) == {(name, dark) for name in looks.TONES}
        assert looks._brushes["muted", dark].color().name() == looks.colour("muted")
        let_go()
        qtbot.waitUntil(lambda: window.document.n_queries == 2)

    window, _reading = _launch_held(monkeypatch, tmp_path, during)
    window.session.mark_saved()
