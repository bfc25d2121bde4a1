"""File > Open gives the file it opens its own conventions, never the
previous document's: a run (with its qrels) or a worksheet CSV opened over
the bundled example took the example's cutoffs (@1, @2, full), its rubric
(no support ... direct support) and its guidelines. A file declaring none
gets the defaults (the launch's preset's, when one was named), a workbook
of ours its own; File > Keep Conventions for Files Opened, ticked, keeps
the window's. The status bar says which it opened with."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog

from app.file_formats import write_document
from app.fileops import install_file_ops
from app.settings import Settings
from app.window import MainWindow
from core.io.example import load_example
from core.model.conventions import Conventions
from core.model.presets import apply_preset
from tests.test_app_open_run import _launch
from tests.test_app_sources import _ctrl


def _example_window(qtbot: Any) -> MainWindow:
    Settings().reviewer = "ana"
    window = MainWindow(load_example(), None)
    qtbot.addWidget(window, before_close_func=lambda w: w.session.mark_saved())
    window.file_ops = install_file_ops(window)
    window.show()
    qtbot.waitExposed(window)
    return window


def _run(tmp_path: Path) -> tuple[Path, Path]:
    run, qrels = tmp_path / "run.txt", tmp_path / "qrels.txt"
    run.write_text("q1 Q0 d1 1 3.0 t\nq1 Q0 d2 2 2.5 t\nq1 Q0 d3 3 1.0 t\nq2 Q0 e1 1 0.5 t\n")
    qrels.write_text("q1 0 d2 1\nq1 0 d3 2\nq2 0 e1 0\n")
    return run, qrels


def _open(qtbot: Any, window: MainWindow, monkeypatch: pytest.MonkeyPatch,
          *answers: Path) -> None:
    """File > Open… by Ctrl+O, its dialogs answering ``answers`` in turn."""
    said = [str(a) for a in answers]
    monkeypatch.setattr(QFileDialog, "getOpenFileName",
                        staticmethod(lambda *_a, **_k: (said.pop(0), "")))
    _ctrl(qtbot, window, Qt.Key.Key_O)
    task = window.file_ops.task
    assert task is not None
    qtbot.waitUntil(lambda: task.done and window.path == answers[0], timeout=10_000)


def test_a_run_opened_over_the_example_takes_the_defaults(
        qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    window = _example_window(qtbot)
    assert window.document.conventions.cutoffs == (1, 2, None)  # the example's own
    _open(qtbot, window, monkeypatch, *_run(tmp_path))
    assert window.document.conventions == Conventions()
    assert window.session.evaluation.conventions == Conventions()
    assert window.statusBar().currentMessage() == (
        "Opened run.txt under the default conventions (File > Keep Conventions for Files "
        "Opened keeps the window's)")


def test_a_worksheet_opened_takes_the_launch_preset(
        qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A worksheet CSV keeps no conventions: opened in the window of
    ``ndcg-worksheet --preset trec_eval`` (the example under trec_eval's),
    it opens under trec_eval's over the defaults, not the example's."""
    sheet = tmp_path / "sheet.csv"
    sheet.write_text("query,source_id,score,grade\nq1,d1,3,1\nq1,d2,2,0\n", encoding="utf-8")
    said: list[str] = []

    def during(window: Any) -> None:
        assert window.document.conventions.cutoffs == (1, 2, None)  # the example's
        _open(qtbot, window, monkeypatch, sheet)
        said.append(window.statusBar().currentMessage())

    window = _launch(monkeypatch, qtbot, ["--preset", "trec_eval"], during)
    assert window.document.conventions == apply_preset(Conventions(), "trec_eval")
    assert said == ["Opened sheet.csv under the trec_eval preset (File > Keep Conventions "
                    "for Files Opened keeps the window's)"]


def test_a_workbook_of_ours_opens_under_its_own(
        qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    example = load_example()
    example.conventions = example.conventions.replace(cutoffs=(3, None))
    book = tmp_path / "own.xlsx"
    write_document(example, book)
    window = _example_window(qtbot)
    _open(qtbot, window, monkeypatch, book)
    assert window.document.conventions.cutoffs == (3, None)
    assert window.statusBar().currentMessage() == "Opened own.xlsx under its own conventions"


def test_keep_conventions_keeps_the_window_s(
        qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    window = _example_window(qtbot)
    shown = window.document.conventions
    keep = window.file_ops.actions["keep_conventions"]
    assert keep.isCheckable()
    assert not keep.isChecked()
    keep.trigger()  # File > Keep Conventions for Files Opened
    _open(qtbot, window, monkeypatch, *_run(tmp_path))
    assert window.document.conventions == shown
    assert window.statusBar().currentMessage() == (
        "Opened run.txt under the conventions kept from the window (as File > Keep "
        "Conventions for Files Opened says)")


def test_a_run_judged_by_an_annotators_sheet_takes_its_rubric_and_says_so(
        qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The qrels asked for are a Label Studio-like sheet of labels: the run
    takes the sheet's rubric (the example's, no support ... direct support,
    stays behind), and the status bar says where it came from rather than
    'under the default conventions' alone."""
    window = _example_window(qtbot)
    run, _ = _run(tmp_path)
    sheet = tmp_path / "judgments.csv"
    sheet.write_text("annotator,query,source,relevance\nana,q1,d2,Somewhat relevant\n"
                     "ana,q1,d3,Relevant\nana,q2,e1,Not relevant\nana,q2,e9,Highly relevant\n")
    _open(qtbot, window, monkeypatch, run, sheet)
    rubric = window.document.conventions.rubric
    assert rubric is not None
    assert [g.label for g in rubric.grades] == [
        "Not relevant", "Somewhat relevant", "Relevant", "Highly relevant"]
    assert window.statusBar().currentMessage() == (
        "Opened run.txt under the default conventions and the rubric of judgments.csv "
        "(File > Keep Conventions for Files Opened keeps the window's)")
