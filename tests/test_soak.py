"""A long grading session in a fresh process must end with exit status 0.

PySide6 6.12.0 on Python 3.11 dropped a reference to a Python bool on every
``dataChanged`` emission; the editor aborted (exit 134) after a few hundred
keyboard grades or at exit. Only a long session in its own process shows
that, so ``tests/soak_app.py`` runs as a subprocess here (and, from
``.ci/run``, under every other Python the machine has). This file needs
nothing but pytest and the project's own dependencies.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

DRIVER = Path(__file__).resolve().parent / "soak_app.py"

#: What Qt's offscreen platform itself prints (no real window system to ask);
#: a real display does not print it. Anything else on stderr is noise a user
#: would see at every start.
OFFSCREEN_ONLY = ("This plugin does not support propagateSizeHints()",)


def run_driver(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", NDCG_SOAK_KEEP_HOME="1",
               HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"),
               XDG_DATA_HOME=str(home / "share"), XDG_STATE_HOME=str(home / "state"))
    env.pop("MPLBACKEND", None)  # the app must choose its own backend
    return subprocess.run([sys.executable, str(DRIVER), *args], env=env, text=True,
                          capture_output=True, timeout=180, check=False)


def assert_clean_exit(done: subprocess.CompletedProcess[str], expected: str) -> None:
    assert done.returncode == 0, (
        f"exit status {done.returncode} (negative: killed by signal {-done.returncode}; "
        f"134: aborted)\n{done.stderr[-3000:]}")
    assert done.stdout.strip() == expected
    noise = [line for line in done.stderr.splitlines() if line not in OFFSCREEN_ONLY]
    assert noise == [], "stderr must stay quiet"


def test_five_thousand_keyboard_grades_with_undo_redo_end_cleanly(tmp_path: Path) -> None:
    done = run_driver(tmp_path, "--edits", "5000", "--seed", "11")
    assert_clean_exit(done, "soak: 5000 key clicks, document matches the model")


def test_open_grade_save_reopen_close(tmp_path: Path) -> None:
    book = tmp_path / "graded.xlsx"
    done = run_driver(tmp_path, "--edits", "40", "--seed", "3", "--save", str(book))
    assert_clean_exit(done, "soak: 40 key clicks, document matches the model")
    assert book.stat().st_size > 0

