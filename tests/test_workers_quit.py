"""Work still running when the application quits is told to stop and waited
for before PySide deletes the objects Python holds (app.workers.drain): a
worker that emitted its result on a signal object deleted under it crashed
the process at exit (about once in 100-150 launches of a 2M run quit right
after it was shown). Checked in a fresh process, as the quit happens there."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

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

def work(progress, cancelled):
    end = time.monotonic() + 5.0
    while time.monotonic() < end and not cancelled():
        time.sleep(0.01)
    return "told to stop" if cancelled() else "ran out"

task = run_task(holder, "Working", work, on_done=print)
QTimer.singleShot(100, app.quit)
started = time.monotonic()
app.exec()
print("job busy", job._pool.activeThreadCount())
print("tasks busy", QThreadPool.globalInstance().activeThreadCount())
print("waited under 3 s", time.monotonic() - started < 3.0)
"""


def test_work_still_running_at_quit_is_stopped_and_waited_for() -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                          env=env, cwd=REPO, timeout=60)
    assert done.returncode == 0, done.stderr
    # The job (a second of work) waited for; the task, polling its stop,
    # stopped and waited for, not left to run its five seconds.
    assert done.stdout.splitlines() == ["job busy 0", "tasks busy 0", "waited under 3 s True"]
