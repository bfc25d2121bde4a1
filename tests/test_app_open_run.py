"""File > Open (Ctrl+O) of a run reads it as ``evaluate RUN --qrels QRELS``
does, asking for its qrels: ranx's and pytrec_eval's JSON run (it went to
the import wizard, which read it as an annotators' sheet) and a TREC run
(it was refused, naming ``--qrels``). Cancelling the qrels opens nothing."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog

from app.file_formats import Origin
from core.engine.evaluation import evaluate
from core.io.load import load_document
from tests.test_app_files import Boxes
from tests.test_app_open_evaluated import _window
from tests.test_app_sources import _ctrl

#: q1 ranks d1, d2, d3; the qrels grade d2 1 and d3 2 (d9: judged, not ranked);
#: q2 ranks e1 (judged 0).
RUN = {"q1": {"d1": 3.0, "d2": 2.5, "d3": 1.0}, "q2": {"e1": 0.5}}
QRELS = {"q1": {"d2": 1, "d3": 2, "d9": 1}, "q2": {"e1": 0}}


def _files(tmp_path: Path, kind: str) -> tuple[Path, Path]:
    if kind == "json":
        run, qrels = tmp_path / "run.json", tmp_path / "qrels.json"
        run.write_text(json.dumps(RUN))
        qrels.write_text(json.dumps(QRELS))
        return run, qrels
    run, qrels = tmp_path / "run.txt", tmp_path / "qrels.txt"
    run.write_text("".join(f"{q} Q0 {d} {r} {s} t\n" for q, ds in RUN.items()
                           for r, (d, s) in enumerate(ds.items(), 1)))
    qrels.write_text("".join(f"{q} 0 {d} {g}\n" for q, ds in QRELS.items()
                             for d, g in ds.items()))
    return run, qrels


def _answers(monkeypatch: pytest.MonkeyPatch, run: Path, qrels: Path | None) -> list[str]:
    """The open dialog answers ``run``, then the qrels dialog ``qrels``;
    their titles are kept."""
    titles: list[str] = []
    answers = [str(run), str(qrels or "")]

    def dialog(_parent: Any, title: str, *_a: Any, **_k: Any) -> tuple[str, str]:
        titles.append(title)
        return answers.pop(0), ""

    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(dialog))
    return titles


@pytest.mark.parametrize("kind", ["json", "trec"])
def test_file_open_of_a_run_asks_for_its_qrels(qtbot: Any, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch, kind: str):
    run, qrels = _files(tmp_path, kind)
    boxes = Boxes(monkeypatch)
    window = _window(qtbot)
    conventions = window.document.conventions
    monkeypatch.setattr(window.file_ops, "run_import_wizard", lambda p: pytest.fail(f"wizard {p}"))
    titles = _answers(monkeypatch, run, qrels)
    _ctrl(qtbot, window, Qt.Key.Key_O)
    task = window.file_ops.task
    assert task is not None
    qtbot.waitUntil(lambda: task.done, timeout=10_000)
    assert boxes.shown == []
    assert titles == ["Open worksheet", f"Open the qrels of {run.name}"]
    doc = window.document
    assert window.path == run
    assert doc.query_ids == ["q1", "q2"]
    # The run's rows in its order, then d9 (judged, not retrieved: no score).
    assert list(doc.source_id) == ["d1", "d2", "d3", "e1", "d9"]
    np.testing.assert_array_equal(doc.grade, [np.nan, 1.0, 2.0, 0.0, 1.0])
    np.testing.assert_array_equal(doc.score, [3.0, 2.5, 1.0, 0.5, np.nan])
    assert window.file_ops.origin is Origin.RUN
    assert window.file_ops.qrels == qrels.resolve()
    # What the command line reads from the same files, number for number.
    cli = evaluate(load_document(run, qrels=qrels, conventions=conventions))
    np.testing.assert_array_equal(window.session.evaluation.ndcg, cli.ndcg)


def test_file_open_of_a_run_without_its_qrels_opens_nothing(
        qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    run, _ = _files(tmp_path, "json")
    window = _window(qtbot)
    shown = window.document
    monkeypatch.setattr(window.file_ops, "run_import_wizard", lambda p: pytest.fail(f"wizard {p}"))
    titles = _answers(monkeypatch, run, None)
    window.file_ops.task = None
    assert window.file_ops.open_dialog() is None
    assert titles == ["Open worksheet", "Open the qrels of run.json"]
    assert window.document is shown
    assert window.file_ops.task is None


def test_file_open_of_a_run_offers_to_count_its_unjudged_candidates(
        qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    # d1, ranked first in q1, is judged nowhere: q1 is unresolved. The
    # launch on the run and its qrels offers the banner's choices; so does
    # File > Open of them in a window showing the example.
    from app.main import build_window

    run, qrels = _files(tmp_path, "trec")
    launched = build_window(run, qrels=qrels, review_docks=False)
    qtbot.addWidget(launched)
    assert not launched.unjudged_banner.isHidden()
    window = build_window(None, review_docks=False)
    qtbot.addWidget(window, before_close_func=lambda w: w.session.mark_saved())
    window.show()
    qtbot.waitExposed(window)
    assert window.unjudged_banner.isHidden()  # (the example: nothing unjudged)
    _answers(monkeypatch, run, qrels)
    _ctrl(qtbot, window, Qt.Key.Key_O)
    task = window.file_ops.task
    assert task is not None
    qtbot.waitUntil(lambda: task.done, timeout=10_000)
    assert window.path == run
    assert not window.unjudged_banner.isHidden()
    assert "1 of 4 retrieved candidates are not in the qrels" in window.unjudged_banner.text.text()
