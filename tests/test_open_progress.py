"""Opening a large file paints its progress dialog before the reading starts."""

from __future__ import annotations

import threading

from PySide6.QtWidgets import QProgressDialog

import app.open_progress as open_progress
from app.open_progress import PaintFirst


def test_a_large_file_waits_for_its_dialog(qtbot, tmp_path, monkeypatch):
    monkeypatch.setattr(open_progress, "LARGE_FILE", 10)
    path = tmp_path / "big.csv"
    path.write_text("x" * 20)
    gate = PaintFirst(path)
    started = threading.Event()
    seen_visible: list[bool] = []
    dialog = QProgressDialog("Opening big.csv…", "Cancel", 0, 0)
    qtbot.addWidget(dialog)

    def work(progress, cancelled):
        seen_visible.append(dialog.isVisible())
        started.set()
        return "read"

    results: list[str] = []
    thread = threading.Thread(target=lambda: results.append(gate.wrap(work)(None, None)))
    thread.start()
    assert not started.wait(0.2)  # held back: the dialog is not shown yet
    gate.show(dialog)
    thread.join()
    assert results == ["read"]
    assert seen_visible == [True]  # the work started once the dialog showed


def test_a_small_file_starts_at_once_without_a_dialog(qtbot, tmp_path):
    path = tmp_path / "small.csv"
    path.write_text("query,source_id\n")
    gate = PaintFirst(path)
    assert gate.wrap(lambda progress, cancelled: 42)(None, None) == 42
    dialog = QProgressDialog("Opening small.csv…", "Cancel", 0, 0)
    qtbot.addWidget(dialog)
    gate.show(dialog)
    assert not dialog.isVisible()  # the task's own delay decides


def test_a_missing_file_is_not_held_back(tmp_path):
    gate = PaintFirst(tmp_path / "missing.csv")
    assert gate.wrap(lambda progress, cancelled: "tried")(None, None) == "tried"
