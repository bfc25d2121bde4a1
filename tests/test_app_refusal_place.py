"""File > Open (Ctrl+O) under the sklearn preset of a worksheet (CSV or
Parquet) holding a negative grade: one message naming the file and the
place of the first refused grade, as the command line says it
(tests/test_refusal_place.py), and the document shown stays (our own
workbook opens under the conventions it holds); at launch too."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog, QMessageBox

from core.model.examples import seed_document
from core.model.presets import NEGATIVE_REFUSED_BY, preset
from tests.appboxes import Boxes
from tests.test_app_files import _window
from tests.test_app_sources import _ctrl
from tests.test_refusal_place import NAMED, WORKSHEET


@pytest.mark.parametrize("kind", ["csv", "parquet"])
def test_file_open_under_the_sklearn_preset_names_the_refused_grade(
        qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str):
    sheet = tmp_path / "negative.csv"
    sheet.write_text(WORKSHEET)
    place = f"{sheet}, line 2"
    if kind == "parquet":
        table = tmp_path / "negative.parquet"
        pq.write_table(pa.table({"query": ["q2", "q1", "q1", "q1", "q2"],
                                 "source_id": ["a", "a", "b", "c", "b"],
                                 "score": [3.0, 3.0, 2.0, 1.0, 2.0],
                                 "grade": [1.0, -1.0, 0.0, -0.5, 0.0]}), table)
        sheet, place = table, f"{table}, column 'grade': row 2"
    boxes = Boxes(monkeypatch)
    _refused_by_open(qtbot, monkeypatch, sheet, boxes)
    assert boxes.shown == [f"{place}: {NAMED}"]


def _refused_by_open(qtbot: Any, monkeypatch: pytest.MonkeyPatch, sheet: Path,
                     boxes: Boxes) -> None:
    """File > Open (Ctrl+O) of ``sheet`` in a window under the sklearn
    preset, File > Keep Conventions for Files Opened ticked (Open reads
    under the window's conventions then, else under the defaults): refused,
    a message shown, the document shown stays."""
    shown = seed_document()
    shown.conventions = preset("sklearn")
    window, ops = _window(qtbot, shown)
    ops.actions["keep_conventions"].trigger()
    window.show()
    qtbot.waitExposed(window)
    monkeypatch.setattr(QFileDialog, "getOpenFileName",
                        staticmethod(lambda *a, **k: (str(sheet), "")))
    _ctrl(qtbot, window, Qt.Key.Key_O)
    qtbot.waitUntil(lambda: bool(boxes.shown), timeout=10_000)
    assert window.document is shown
    assert window.path is None


def test_a_launch_under_the_sklearn_preset_names_the_refused_grade(
        qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    # `ndcg-worksheet RUN --qrels QRELS --preset sklearn`: the qrels' line;
    # the example opens instead.
    from app.main import build_window

    run, qrels = tmp_path / "run.txt", tmp_path / "qrels.txt"
    run.write_text("q1 Q0 d3 1 3.0 r\nq1 Q0 d1 2 2.0 r\n")
    qrels.write_text("q1 0 d1 1\nq1 0 d3 -1\n")
    warned: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning",
                        staticmethod(lambda parent, title, text: warned.append(text)))
    window = build_window(run, qrels=qrels, preset="sklearn")
    qtbot.addWidget(window)
    assert window.path is None
    assert warned == [
        f"{qrels}, line 2: 1 negative grade under the sklearn preset (grade -1 of source 'd3' "
        f"(query 'q1')): {NEGATIVE_REFUSED_BY['sklearn']} (correct the grades, or choose the "
        "trec_eval or ranx preset (negative gains count as 0) or the default conventions)"
        "\n\nThe bundled example opens instead."]


def test_file_open_with_a_pending_journal_refused_takes_no_digest(
        qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    # A session under the default conventions edited the worksheet and
    # ended without saving; File > Open of it under the sklearn preset
    # (evaluated in the window, its journal recovered first) refuses it:
    # the refused file's digest is not taken (it was, on a thread, for nothing).
    from core.io.identity import FileState
    from core.io.journal import Journal
    from tests.test_app_files import _finish

    sheet = tmp_path / "negative.csv"
    sheet.write_text(WORKSHEET)
    first, ops = _window(qtbot)
    _finish(qtbot, ops.open_path(sheet, ask_to_save=False))
    assert first.set_grade(4, 2.0)  # journaled; the session then "crashes"
    assert Journal(sheet).is_pending()
    digests: list[str] = []
    as_of = FileState.as_of.__func__  # type: ignore[attr-defined]

    def taken(cls: type[FileState], path: Any, then: Any) -> FileState:
        digests.append(str(path))
        return as_of(cls, path, then)

    monkeypatch.setattr(FileState, "as_of", classmethod(taken))
    boxes = Boxes(monkeypatch)
    boxes.answers.append(QMessageBox.StandardButton.Yes)
    _refused_by_open(qtbot, monkeypatch, sheet, boxes)
    assert len(boxes.questions) == 1
    assert "1 unsaved edit " in boxes.questions[0]
    assert boxes.shown == [f"{sheet}, line 2: {NAMED}"]
    assert digests == []
