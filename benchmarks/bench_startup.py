"""Start-up: the editor opening on the bundled example against a minimal
PySide6 window with a table and a dock (issue 35 item 6).

    python benchmarks/bench_startup.py [--repeat 5] [--command "CMD ..."]

Each turn starts the minimal window and then the editor, each a fresh
process (offscreen, fresh settings, compiled bytecode), and times it from
just before the process is started to the line ``first paint`` it prints
once its window has been shown and painted, with the processor time the
process had used by then, which a busy machine inflates less than the wall
time (the editor prints the line when
``NDCG_WORKSHEET_STARTUP_PROBE`` is set: :mod:`app.startup_probe`). Prints
the median of each and the ratio. Target: at most 3.5x.

``--command`` launches the editor some other way, e.g. the PyInstaller
bundle's executable: it is measured the same way (the probe is asked for
through the environment). Given more than once, each command is measured in
every turn (e.g. two builds side by side, on the same machine state). Each
runs in this repository's folder, which ``python -m`` puts first on the
path: measure another checkout with ``sh -c 'cd OTHER && exec python -m
app.launcher'``. The minimal window always runs on this Python.
"""

from __future__ import annotations

import argparse
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

#: A minimal PySide6 window: a main window with a filled table and a dock.
MINIMAL = """
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QApplication, QDockWidget, QMainWindow, QTableView
from PySide6.QtCore import Qt
from app.startup_probe import quit_after_first_paint

qapp = QApplication([])
window = QMainWindow()
model = QStandardItemModel(20, 6)
for row in range(20):
    for column in range(6):
        model.setItem(row, column, QStandardItem(f"{row}.{column}"))
table = QTableView()
table.setModel(model)
window.setCentralWidget(table)
dock = QDockWidget("Dock")
dock.setWidget(QTableView())
window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
window.resize(1000, 700)
quit_after_first_paint(window)
window.show()
qapp.exec()
"""


def time_to_first_paint(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Seconds from starting ``argv`` to its ``first paint`` line, and the
    processor seconds the line says the process had used by then."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            cwd=REPO, env=env, text=True)
    assert proc.stdout is not None
    for line in proc.stdout:
        if line.startswith("first paint"):
            elapsed = time.perf_counter() - t0
            cpu = float(line.split("cpu=")[1])
            break
    else:
        raise SystemExit(f"{argv[:4]} exited ({proc.wait()}) without painting its window")
    proc.stdout.close()
    if proc.wait(timeout=60):
        raise SystemExit(f"{argv[:4]} failed: exit status {proc.returncode}")
    return elapsed, cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="turns (default 5)")
    parser.add_argument("--command", metavar="CMD", action="append",
                        help="how to launch the editor (default: this Python -m app.launcher); "
                        "repeat to measure several side by side")
    args = parser.parse_args()
    minimal = "minimal window"
    commands = {minimal: [sys.executable, "-c", MINIMAL]}
    for command in args.command or [f"{shlex.quote(sys.executable)} -m app.launcher"]:
        commands[command] = shlex.split(command)
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "QT_QPA_PLATFORM": os.environ.get("QT_QPA_PLATFORM", "offscreen"),
               "NDCG_WORKSHEET_STARTUP_PROBE": "1", "PYTHONPATH": str(REPO),
               "PYTHONPYCACHEPREFIX": str(Path(tmp) / "pycache")}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        # As installed: the bytecode compiled before the first turn.
        subprocess.run([sys.executable, "-m", "compileall", "-q", "app", "core"], cwd=REPO,
                       env=env, check=True, stdout=subprocess.DEVNULL)
        times: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
        for turn in range(args.repeat):
            # Fresh settings each time: no layout or recent file restored.
            for i, (name, argv) in enumerate(commands.items()):
                home = Path(tmp) / f"{i}-{turn}"
                turn_env = {**env, "XDG_CONFIG_HOME": str(home / "config"),
                            "XDG_STATE_HOME": str(home / "state"),
                            "XDG_DATA_HOME": str(home / "data")}
                times[name].append(time_to_first_paint(argv, turn_env))
    print(f"start-up to the first paint, {args.repeat} turns, load average "
          f"{os.getloadavg()[0]:.1f}")
    base = statistics.median(t for t, _ in times[minimal])
    base_cpu = statistics.median(c for _, c in times[minimal])
    for name, got in times.items():
        median = statistics.median(t for t, _ in got)
        cpu = statistics.median(c for _, c in got)
        ratio = "" if name == minimal else (f"  ratio {median / base:.2f}x (target: at most "
                                            f"3.5x); processor time {cpu / base_cpu:.2f}x")
        print(f"   {name}\n      median {median:.3f} s ({' '.join(f'{t:.3f}' for t, _ in got)})"
              f", processor {cpu:.3f} s" + ratio)
    return 0


if __name__ == "__main__":
    sys.exit(main())
