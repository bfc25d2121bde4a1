"""File > Open's read stops with the same stop as the launch's
(core.io.stop): its Cancel, or the window closed while it reads, ends the
read at its reader's next look; running out of memory says so in one line,
with what to do."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPushButton

import app.import_wizard.wizard as wizard
from app.fileops import install_file_ops
from app.settings import Settings
from app.window import MainWindow
from core.io.stop import Stopped, check
from core.model.examples import seed_document
from tests.appboxes import Boxes


class SlowRead:
    """A read (in place of ``load_unless_foreign``) looking at its stop as
    the readers do, a hundredth of a second apart, for 20 s at most: what
    ended it."""

    def __init__(self) -> None:
        self.started = threading.Event()
        self.ended: list[str] = []

    def __call__(self, path: Path, conventions: Any, encoding: str | None = None) -> None:
        self.started.set()
        try:
            for _ in range(2000):
                check()
                threading.Event().wait(0.01)
        except Stopped:
            self.ended.append("stopped")
            raise
        self.ended.append("read to its end")


@pytest.fixture
def slow(monkeypatch: pytest.MonkeyPatch) -> SlowRead:
    read = SlowRead()
    monkeypatch.setattr(wizard, "load_unless_foreign", read)
    return read


def _window(qtbot: Any) -> MainWindow:
    Settings().reviewer = "ana"
    window = MainWindow(seed_document())
    qtbot.addWidget(window)
    window.file_ops = install_file_ops(window)
    window.show()
    qtbot.waitExposed(window)
    return window


def test_cancel_stops_the_read(qtbot: Any, tmp_path: Path, slow: SlowRead):
    sheet = tmp_path / "big.csv"
    sheet.write_text("query,source_id,grade\nq,d,1\n")
    window = _window(qtbot)
    doc = window.document
    task = window.file_ops.open_path(sheet, ask_to_save=False)
    assert task is not None
    assert slow.started.wait(10)
    cancel = task.dialog.findChild(QPushButton)
    assert cancel.text() == "Cancel"
    qtbot.mouseClick(cancel, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(slow.ended), timeout=30_000)
    assert slow.ended == ["stopped"]
    assert window.document is doc


def test_closing_the_window_during_the_read_stops_it(qtbot: Any, tmp_path: Path,
                                                     slow: SlowRead):
    sheet = tmp_path / "big.csv"
    sheet.write_text("query,source_id,grade\nq,d,1\n")
    window = _window(qtbot)
    task = window.file_ops.open_path(sheet, ask_to_save=False)
    assert task is not None
    assert slow.started.wait(10)
    cancelled: list[bool] = []
    task.cancelled.connect(lambda: cancelled.append(True))
    key = window.app_actions["close"].shortcut()[0]  # (Ctrl+W, or Ctrl+F4 offscreen)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    qtbot.keyClick(window, key.key(), key.keyboardModifiers())
    assert not window.isVisible()
    qtbot.waitUntil(lambda: bool(slow.ended), timeout=30_000)
    assert slow.ended == ["stopped"]
    assert cancelled == [True]


def test_running_out_of_memory_says_what_to_do(qtbot: Any, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch, boxes: Boxes):
    sheet = tmp_path / "huge.csv"
    sheet.write_text("query,source_id,grade\nq,d,1\n")
    shown = boxes.shown

    def no_memory(path: Path, conventions: Any, encoding: str | None = None) -> None:
        raise MemoryError

    monkeypatch.setattr(wizard, "load_unless_foreign", no_memory)
    window = _window(qtbot)
    doc = window.document
    task = window.file_ops.open_path(sheet, ask_to_save=False)
    assert task is not None
    qtbot.waitUntil(lambda: task.done, timeout=10_000)
    qtbot.waitUntil(lambda: bool(shown), timeout=10_000)
    assert shown == [f"{sheet}: not enough memory to read it (close other programs and open "
                     "it again, or open it on a machine with more memory)"]
    assert window.document is doc
