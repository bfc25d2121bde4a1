"""Run many hostile inputs through one entry point, each in its own process,
with a time limit and a memory limit, as a user's shell would run them.

``python tests/hostile_harness.py`` reads a JSON list of cases on stdin::

    [{"id": "nan.csv/evaluate", "argv": ["evaluate", "/abs/nan.csv"],
      "entry": "cli", "timeout": 20, "memory_mb": 2048}, ...]

and writes one JSON result per case on stdout: the exit status (negative: the
signal that ended it), whether the time limit ended it, and what it wrote on
stdout and stderr. The harness imports the program once, then forks a child
per case (cheap), so a crash, an abort or a hang of one input ends only that
child; the child sets ``RLIMIT_AS`` and an alarm before it runs the entry
point. ``entry`` is ``cli`` (``app.cli.main.main(argv)``, the command line)
or ``window`` (``app.main.build_window(argv[0])`` on Qt's offscreen platform:
the message a user would see in a message box is written to stderr, and the
window must open on the bundled example).

``tests/hostile_cases.py`` is the way tests use it.
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import signal
import sys
import tempfile
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def _limit(case: dict[str, Any]) -> None:
    memory = int(case.get("memory_mb", 2048)) * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    signal.alarm(int(case.get("timeout", 20)))


def _run_cli(argv: list[str]) -> int:
    from app.cli.main import main

    return int(main(argv))


def _run_window(argv: list[str]) -> int:
    from PySide6.QtWidgets import QApplication, QMessageBox

    def report(_parent: Any, _title: str, text: str, *_a: Any, **_k: Any) -> Any:
        print(text.replace("\n", " "), file=sys.stderr)
        return QMessageBox.StandardButton.Ok

    QMessageBox.warning = staticmethod(report)  # type: ignore[method-assign]
    QMessageBox.critical = staticmethod(report)  # type: ignore[method-assign]
    app = QApplication.instance() or QApplication(["hostile"])
    from app.main import build_window

    window = build_window(argv[0], qrels=argv[1] if len(argv) > 1 else None)
    name = window.document.name
    print(f"opened: {name}")
    window.session.mark_saved()
    window.close()
    app.processEvents()
    return 0


def _child(case: dict[str, Any], out: int, err: int) -> None:
    os.dup2(out, 1)
    os.dup2(err, 2)
    code = 70
    try:
        _limit(case)
        entry = _run_window if case.get("entry") == "window" else _run_cli
        code = entry(list(case["argv"]))
    except SystemExit as exc:  # argparse
        code = exc.code if isinstance(exc.code, int) else 2
    except BaseException:
        import traceback

        traceback.print_exc()
        code = 1
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def run(case: dict[str, Any]) -> dict[str, Any]:
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child
            _child(case, out.fileno(), err.fileno())
        _, status = os.waitpid(pid, 0)
        out.seek(0)
        err.seek(0)
        signalled = os.WIFSIGNALED(status)
        code = -os.WTERMSIG(status) if signalled else os.WEXITSTATUS(status)
        return {
            "id": case["id"],
            "status": code,
            "timed_out": signalled and os.WTERMSIG(status) == signal.SIGALRM,
            "stdout": out.read().decode("utf-8", "replace"),
            "stderr": err.read().decode("utf-8", "replace"),
        }


def _import_commands() -> None:
    """Import every module of ``core`` and of the commands, and the libraries
    the commands import when a workbook comes (the commands import most of
    them only when they need them): in the parent, once, not in every child.
    Each child otherwise imported some 100-200 modules (0.4-1.1 s a case
    without bytecode caches, 0.02 s with them imported)."""
    import pkgutil

    import app.cli
    import core

    for package in (core, app.cli):
        for module in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            if not module.name.endswith(".__main__"):  # (runs the command line)
                _warm(module.name)
    for name in ("xlsxwriter.workbook", "python_calamine", "defusedxml.ElementTree",
                 "xml.etree.ElementTree"):
        _warm(name)


def _warm(name: str) -> None:
    """Import ``name`` if it can be: one that cannot (an optional extra not
    installed) is left to the child that needs it, which says so."""
    import importlib

    with contextlib.suppress(ImportError):
        importlib.import_module(name)


def main() -> int:
    cases = json.load(sys.stdin)
    # Import what every child needs once, before forking: the children start warm.
    import app.cli.main

    _import_commands()

    if any(c.get("entry") == "window" for c in cases):
        # The window's modules and the plotting library (seconds to import):
        # once here, not in every child.
        import matplotlib.pyplot  # noqa: F401

        import app.main
        import app.plot_dock
        import app.window  # noqa: F401
    json.dump([run(case) for case in cases], sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
