"""File > Open evaluates the document on its worker, as the launch does
(app.opening), unless a crash journal may change its grades once shown."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QFileDialog, QMessageBox

from app.file_formats import write_document
from app.fileops import install_file_ops
from app.settings import Settings
from app.window import MainWindow
from core.engine import evaluation
from core.engine.evaluation import evaluate
from core.io.journal import Journal
from core.model.conventions import Conventions
from core.model.examples import seed_document
from core.model.presets import apply_preset


def _window(qtbot: Any) -> MainWindow:
    Settings().reviewer = "ana"
    window = MainWindow(seed_document())
    qtbot.addWidget(window, before_close_func=lambda w: w.session.mark_saved())
    window.file_ops = install_file_ops(window)
    window.show()
    qtbot.waitExposed(window)
    return window


def _open_with_ctrl_o(qtbot: Any, window: MainWindow, path: Path | tuple[Path, Path],
                      monkeypatch: Any) -> None:
    """File > Open… by its shortcut, the dialog answering ``path`` (a run
    and its qrels: the one, then the other)."""
    answers = iter(path if isinstance(path, tuple) else [path])
    monkeypatch.setattr(QFileDialog, "getOpenFileName",
                        staticmethod(lambda *_a, **_k: (str(next(answers)), "")))
    window.activateWindow()
    window.windowHandle().requestActivate()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    window.grid.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is window.grid)
    qtbot.keyClick(window.grid, Qt.Key.Key_O, Qt.KeyboardModifier.ControlModifier)
    task = window.file_ops.task
    assert task is not None
    qtbot.waitUntil(lambda: task.done, timeout=10_000)


def _threads_evaluating(monkeypatch: Any, n: int) -> list[str]:
    """The threads that evaluate a document of ``n`` candidates from now on."""
    threads: list[str] = []
    original = evaluation.Evaluation.__init__

    def where(self, doc, conventions, **options):  # type: ignore[no-untyped-def]
        if len(doc.score) == n:
            threads.append(threading.current_thread().name)
        original(self, doc, conventions, **options)

    monkeypatch.setattr(evaluation.Evaluation, "__init__", where)
    return threads


def test_file_open_evaluates_on_its_worker(qtbot, tmp_path, monkeypatch):
    sheet = tmp_path / "sheet.csv"
    doc = seed_document()
    assert doc.set_grade(0, 3.0, who="ana")  # not the example's own numbers
    write_document(doc, sheet)
    window = _window(qtbot)
    threads = _threads_evaluating(monkeypatch, len(doc.score))
    _open_with_ctrl_o(qtbot, window, sheet, monkeypatch)
    assert window.path == sheet
    # Once, on the worker (the window took that evaluation, evaluating nothing).
    assert len(threads) == 1
    assert threads[0] != threading.main_thread().name
    ev = window.session.evaluation
    assert ev.doc is window.document
    assert ev.conventions is window.document.conventions
    fresh = evaluate(window.document)
    np.testing.assert_array_equal(ev.ndcg, fresh.ndcg)
    assert float(window.document.grade[0]) == 3.0


def test_file_open_with_a_pending_journal_evaluates_the_recovered_grades(
        qtbot, tmp_path, monkeypatch):
    sheet = tmp_path / "sheet.csv"
    write_document(seed_document(), sheet)
    first = _window(qtbot)
    _open_with_ctrl_o(qtbot, first, sheet, monkeypatch)
    before = first.session.evaluation.ndcg.copy()
    assert first.set_grade(0, 0.0)  # journaled; the session then "crashes"
    assert Journal(sheet).is_pending()
    monkeypatch.setattr(QMessageBox, "question",
                        staticmethod(lambda *_a: QMessageBox.StandardButton.Yes))
    second = _window(qtbot)
    threads = _threads_evaluating(monkeypatch, len(seed_document().score))
    _open_with_ctrl_o(qtbot, second, sheet, monkeypatch)
    assert float(second.document.grade[0]) == 0.0  # recovered
    # Not on the worker: the window evaluated the document with its recovered grade.
    assert threads == [threading.main_thread().name]
    ev = second.session.evaluation
    assert ev.doc is second.document
    np.testing.assert_array_equal(ev.ndcg, evaluate(second.document).ndcg)
    assert not np.array_equal(ev.ndcg, before, equal_nan=True)


@pytest.mark.parametrize("preset", [None, "trec_eval", "sklearn", "ranx"])
def test_file_open_of_a_run_ranks_it_beside_its_join(qtbot, tmp_path, monkeypatch, preset):
    # A run opened with its qrels: the join is given the tie rule the
    # document is evaluated under (the conventions it opens with: the
    # defaults under the launch's preset), so its ranked order is worked out
    # beside the join and the evaluation on the worker takes it, as at launch
    # (app.opening.run_ties) and in evaluate: the evaluation a fresh read's.
    from core.engine import order
    from core.io.load import load_document
    from core.io.trec import join

    run, qrels = tmp_path / "run.txt", tmp_path / "qrels.txt"
    run.write_text("q1 Q0 b 1 2 t\nq1 Q0 a 2 2 t\nq1 Q0 c 3 1 t\nq1 Q0 d 4 3 t\n"
                   "q2 Q0 x 1 5 t\nq2 Q0 y 2 5 t\n")
    qrels.write_text("q1 0 a 2\nq1 0 c 1\nq1 0 b 0\nq1 0 d 2\nq2 0 x 3\nq2 0 y 1\n")
    window = _window(qtbot)
    window.file_ops.preset = preset
    monkeypatch.setattr(join, "_AHEAD_FROM", 0)
    handed: list[Any] = []
    give = join.give_order
    monkeypatch.setattr(join, "give_order",
                        lambda doc, ahead: (handed.append(ahead), give(doc, ahead)))
    _open_with_ctrl_o(qtbot, window, (run, qrels), monkeypatch)
    assert window.path == run
    doc, conv = window.document, window.document.conventions
    assert conv.ties is (Conventions() if preset is None
                         else apply_preset(Conventions(), preset)).ties
    assert [ahead.ties for ahead in handed] == [conv.ties]
    assert doc not in order._GIVEN  # taken by the evaluation on the worker
    ev, fresh = window.session.evaluation, evaluate(load_document(run, qrels=qrels), conv)
    assert ev.order.tolist() == fresh.order.tolist()
    for name in ("dcg", "idcg", "ndcg", "status_code"):
        assert getattr(ev, name).tobytes() == getattr(fresh, name).tobytes(), name
