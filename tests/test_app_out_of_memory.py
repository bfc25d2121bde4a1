"""Memory running out wherever the window evaluates (the launch, File >
Open, a change of conventions and its undo, Compare) says so in one line
naming the file, with what to do; the document shown stays, unchanged, and
the session's history with it. The engine's evaluation is made to raise
MemoryError for the file's document only (its query ``huge``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog, QMessageBox

import core.engine.evaluation as engine
from core.model.choices import TieRule

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
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    sheet = _huge(tmp_path)
    window.set_grade(0, 3.0)  # an edit: the history it makes stays
    doc, ev = window.document, window.evaluation
    history = window.session.position, window.session.undo_text
    raised = _no_memory_for_huge(monkeypatch)
    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "exec", lambda box: shown.append(box.text()) or 0)
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
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    import core.analysis.compare as compare

    run = tmp_path / "b.csv"
    run.write_text("query,source_id,score,grade\ncase-A,A,1,2\n")

    def no_memory(*_a: Any, **_k: Any) -> None:
        raise MemoryError

    monkeypatch.setattr(compare, "compare", no_memory)
    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "exec", lambda box: shown.append(box.text()) or 0)
    monkeypatch.setattr(QFileDialog, "getOpenFileName",
                        staticmethod(lambda *a, **k: (str(run), "")))
    window.app_actions["compare_runs"].trigger()
    qtbot.waitUntil(lambda: bool(shown), timeout=20_000)
    assert shown == [f"{run}: not enough memory to compare it with the worksheet "
                     f"{HINT.format('compare it')}"]
    assert window.compare_view.view.comparison is None
