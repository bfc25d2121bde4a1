"""The window shown while the run opened at launch is read (the read held
until the test lets it go): it takes nothing until the run arrives, the
activity watch waits for the run's first paint, a close is heard and leaves
nothing behind, what the start made is out of the collector's reach, a
failed or too large run opens the example, no other file opens meanwhile,
the brushes are made while it waits. The run read and evaluated at launch:
tests/test_app_launch_open.py."""

from __future__ import annotations

from PySide6.QtWidgets import QMessageBox

from tests.launching import held_read, windows_built
from tests.test_app_launch_open import _trec


def _launch_held(monkeypatch, tmp_path, during):  # type: ignore[no-untyped-def]
    """``app.main.main`` on a TREC run whose read waits until ``during(window,
    reading, let_go)`` (run as the event loop, the window shown) lets it go;
    the window and the read."""

    from PySide6.QtWidgets import QApplication

    import app.main as main_module
    from app.reading_state import ReadingState

    run, qrels = _trec(tmp_path)
    gate, built = held_read(monkeypatch), windows_built(monkeypatch)
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
