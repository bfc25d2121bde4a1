"""The command line's quick ending (app/cli/ending.py): a process whose
command's work is done ends without the interpreter's teardown, its output
whole, its exit handlers run and its status kept; anything else ends as it
always did. Run in fresh interpreters: the quick ending ends the process."""

from __future__ import annotations

import io
import subprocess
import sys

from app.cli.main import main
from core.model.examples import EXAMPLE_PATH
from tests.conftest import REPO

_ARGS = ["evaluate", str(EXAMPLE_PATH), "--k", "1", "--k", "all", "--format", "json"]


def _fresh(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True,
                          text=True, timeout=120)


def _in_process(args: list[str]) -> str:
    out = io.StringIO()
    assert main(args, out) == 0
    return out.getvalue()


def test_the_quick_ending_keeps_the_output_the_exit_handlers_and_the_status():
    # Written to a buffered pipe and not flushed by the command itself: the
    # ending flushes it; an exit handler registered before still runs, once.
    proc = _fresh(
        "import atexit, os, sys\n"
        "from app.cli.ending import end\n"
        "from app.cli.main import main\n"
        "atexit.register(lambda: sys.stderr.write('handler ran\\n'))\n"
        f"status = end(main({_ARGS!r}))\n"
        "sys.stderr.write('not ended\\n')\n"
        "sys.exit(7)\n")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == _in_process(_ARGS)
    assert proc.stderr == "handler ran\n"


def test_the_entry_points_end_quickly_with_the_same_output():
    for module in ("app.cli.main", "app.cli", "app.launcher"):
        proc = subprocess.run([sys.executable, "-m", module, *_ARGS], cwd=REPO,
                              capture_output=True, text=True, timeout=120)
        assert (proc.returncode, proc.stderr) == (0, ""), module
        assert proc.stdout == _in_process(_ARGS), module


def test_the_usual_ending_where_a_thread_runs_or_the_command_did_not_say():
    proc = _fresh(
        "import sys, threading\n"
        "from app.cli import ending\n"
        "print(ending.end(3))\n"  # nothing_left not said
        "ending.nothing_left()\n"
        "go = threading.Event()\n"
        "t = threading.Thread(target=go.wait)\n"
        "t.start()\n"
        "print(ending.end(4))\n"  # another thread runs
        "go.set(); t.join()\n"
        "sys.exit(5)\n")
    assert (proc.returncode, proc.stdout) == (5, "3\n4\n")


def test_an_error_ends_as_it_always_did():
    proc = subprocess.run([sys.executable, "-m", "app.cli.main", "evaluate", "no-such-file.tsv"],
                          cwd=REPO, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.startswith("ndcg-worksheet: error: ")
    assert proc.stderr.count("\n") == 1
