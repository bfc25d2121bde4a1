"""Work still running when the application quits is told to stop and waited
for before PySide deletes the objects Python holds (app.workers.drain): a
worker that emitted its result on a signal object deleted under it crashed
the process at exit (about once in 100-150 launches of a 2M run quit right
after it was shown). Checked in a fresh process, as the quit happens there."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
import weakref
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QThreadPool
from PySide6.QtWidgets import QProgressDialog, QWidget

from app import workers
from app.workers import run_task

REPO = Path(__file__).resolve().parent.parent

SCRIPT = """
import time
from PySide6.QtCore import QThreadPool, QTimer
from PySide6.QtWidgets import QApplication, QWidget
from app.workers import LatestJob, run_task

app = QApplication([])
holder = QWidget()
job = LatestJob(holder)
job.submit("key", lambda: time.sleep(1.0))

ended = []

def work(progress, cancelled):
    end = time.monotonic() + 30.0
    while time.monotonic() < end and not cancelled():
        time.sleep(0.01)
    ended.append("told to stop" if cancelled() else "ran out")

task = run_task(holder, "Working", work, on_done=print)
QTimer.singleShot(100, app.quit)
app.exec()
print("job busy", job._pool.activeThreadCount())
print("tasks busy", QThreadPool.globalInstance().activeThreadCount())
print("task", *ended)
"""


def test_work_still_running_at_quit_is_stopped_and_waited_for() -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                          env=env, cwd=REPO, timeout=60)
    assert done.returncode == 0, done.stderr
    # The job (a second of work) waited for; the task, polling its stop,
    # stopped and waited for (its thirty seconds not run out), no callback.
    assert done.stdout.splitlines() == ["job busy 0", "tasks busy 0", "task told to stop"]


def test_stop_tells_the_work_and_runs_no_callback(qtbot: Any) -> None:
    """Task.stop (the quit's): the work sees its stop, no cancelled (nor
    finished, nor failed) callback runs, the task is done."""
    seen: list[str] = []
    told = threading.Event()

    def work(_progress: Any, cancelled: Any) -> str:
        while not cancelled():
            time.sleep(0.005)
        told.set()
        return "told to stop"

    task = run_task(None, "Working…", work, on_done=lambda r: seen.append(f"done {r}"),
                    on_error=lambda e: seen.append(f"failed {e}"),
                    on_cancel=lambda: seen.append("cancelled"))
    task.stop()
    assert task.done
    assert told.wait(30)
    QThreadPool.globalInstance().waitForDone()
    qtbot.wait(50)  # (a result queued to the UI thread would be delivered here)
    assert seen == []


class _FakePool:
    """A pool whose work never ends: each wait lasts all it is allowed."""

    def __init__(self, clock: list[float]) -> None:
        self.clock = clock
        self.waited: list[int] = []

    def waitForDone(self, msecs: int = -1) -> bool:
        self.waited.append(msecs)
        self.clock[0] += msecs / 1000
        return False


def test_the_whole_quit_waits_one_deadline_and_says_so(monkeypatch: pytest.MonkeyPatch,
                                                       qtbot: Any) -> None:
    """Three pools whose work never ends wait DRAIN_MS in all (before:
    DRAIN_MS each, 30 s), and after SAY_AFTER_MS the quit says what it
    waits for."""
    clock = [100.0]
    pools = [_FakePool(clock) for _ in range(3)]
    monkeypatch.setattr(workers, "_POOLS", weakref.WeakSet(pools))
    monkeypatch.setattr(workers, "_LIVE", set())
    monkeypatch.setattr(workers, "_now", lambda: clock[0], raising=False)
    said: list[list[str]] = []

    def notice(labels: list[str]) -> Any:
        said.append(labels)
        return QWidget()

    monkeypatch.setattr(workers, "quit_notice", notice, raising=False)
    workers.drain()
    assert sum(sum(p.waited) for p in pools) == workers.DRAIN_MS
    assert said == [[]]  # no task: the notice says "the work in progress"


def test_the_quit_notice_names_the_export_it_waits_for(qtbot: Any,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Work that looks at no stop (here: until the notice is up) keeps the
    quit waiting; the notice names it, then closes."""
    release = threading.Event()
    shown: list[Any] = []
    real_notice = workers.quit_notice

    def notice(labels: list[str]) -> Any:
        widget = real_notice(labels)
        shown.append((widget.labelText(), widget.isVisible()))
        release.set()
        return widget

    monkeypatch.setattr(workers, "quit_notice", notice)
    monkeypatch.setattr(workers, "_LIVE", set())  # (this test's task only)
    holder = QWidget()
    qtbot.addWidget(holder)
    run_task(holder, "Exporting book.xlsx…", lambda _p, _c: release.wait(30),
             on_done=lambda _r: None)
    workers.drain()
    assert shown == [("Finishing before quitting:\nExporting book.xlsx…", True)]
    assert QThreadPool.globalInstance().activeThreadCount() == 0
    assert holder.findChild(QProgressDialog, "quitNotice") is None
