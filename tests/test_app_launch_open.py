"""The editor opening a file at launch: read on a thread, evaluated once. The
window shown while the run is read: tests/test_app_launch_waiting.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QMessageBox

from core.engine import evaluation
from core.errors import NdcgError
from core.model.conventions import TieRule
from tests.launching import windows_built


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
    built = windows_built(monkeypatch)
    # The event loop runs until the run is shown (the window is shown while it is read).
    monkeypatch.setattr(QApplication, "exec", lambda self: qtbot.waitUntil(
        lambda: built[-1].document.n_queries == 2) or 0)
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
