"""The editor's responsiveness and memory on large worksheets.

    QT_QPA_PLATFORM=offscreen python benchmarks/bench_app.py [--repeat 15]

1. Open: a 100,000-candidate worksheet CSV (1,000 queries x 100 candidates).
   Reading the file is timed apart; then the time from "file read" to "first
   query shown" (window built, evaluated, shown, events processed and painted).
   Target: under 1 s.
2. Edit: a grade change (undo command) in a 1,000-candidate query, until every
   view has processed its signals and repainted (median of ``--repeat``, wall
   and CPU time), in documents of ``--edit-queries`` such queries (1, 100,
   1,000 and 2,000: up to 2,000,000 candidates). Target: 16 ms.
3. Memory: peak RSS of a process that builds a 1,000,000-candidate document
   and shows it in the window (a fresh subprocess). Target: under 1 GiB.
4. With ``--open-run DIR`` (``DIR/run.txt`` and ``DIR/qrels.txt``, e.g. the
   2,000 x 1,000 unique-id run of ``make_data.py``): the editor opening it in
   a fresh process, as ``ndcg-worksheet RUN --qrels QRELS`` does (splash,
   read, evaluate, window), and File > Open of the same document saved as a
   worksheet CSV (progress dialog, read off the UI thread, window refreshed),
   each in turns with ``evaluate RUN --qrels QRELS --preset trec_eval``. Per
   process: time from its start to the first paint of the progress indication
   (the splash, the progress dialog), to the window usable (shown with the
   run's document in it, every part taking input, its events processed and
   painted, the event loop running: a window shown while the run is still
   read does not count), and peak RSS. Targets: progress
   within 0.5 s, usable within 1.5x the evaluate command, under 1 GiB.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))


def make_document(queries: int, per_query: int, seed: int = 0):  # type: ignore[no-untyped-def]
    from core.model.conventions import Conventions, Rubric
    from core.model.document import Document

    rng = np.random.default_rng(seed)
    n = queries * per_query
    qids = [f"q{q:05d}" for q in range(queries)]
    query = np.repeat(np.arange(queries), per_query)
    sid = np.empty(n, dtype=object)
    sid[:] = [f"D{i}" for i in range(n)]
    score = np.round(rng.gamma(2.0, 2.0, n), 2)
    grade = rng.choice(4, n, p=[0.55, 0.25, 0.13, 0.07]).astype(np.float64)
    grade[rng.random(n) < 0.02] = np.nan
    return Document.from_columns(
        query=[qids[q] for q in query.tolist()], source_id=sid, score=score, grade=grade,
        conventions=Conventions(cutoffs=(10, None), rubric=Rubric.parse("0,1,2,3")),
        name="bench", check=False,
    )


def _app():  # type: ignore[no-untyped-def]
    from PySide6.QtWidgets import QApplication

    home = tempfile.mkdtemp(prefix="bench-app-")
    os.environ["XDG_STATE_HOME"] = home
    from PySide6.QtCore import QSettings

    app = QApplication.instance() or QApplication(["bench"])
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, home)
    from app.settings import Settings

    Settings().reviewer = "bench"
    return app


def _settle(window) -> None:  # type: ignore[no-untyped-def]
    """Deliver every posted event, paints included, once (as the event loop
    would after an edit)."""
    from PySide6.QtWidgets import QApplication

    QApplication.processEvents()
    QApplication.processEvents()  # paints posted while the first pass ran


def bench_open(tmp: Path) -> dict[str, float]:
    from app.clipboard_actions import install_clipboard_actions
    from app.fileops import install_file_ops
    from app.find import install_find
    from app.window import MainWindow
    from core.io.delimited import write_delimited
    from core.io.load import load_document

    _app()
    path = tmp / "bench-100k.csv"
    write_delimited(make_document(1000, 100), path)
    t0 = time.perf_counter()
    doc = load_document(path)
    t1 = time.perf_counter()
    window = MainWindow(doc, path)
    install_file_ops(window)
    install_clipboard_actions(window)
    install_find(window)
    window.resize(1400, 860)
    window.show()
    _settle(window)
    t2 = time.perf_counter()
    assert window.grid_model.rowCount() == 100
    window.session.mark_saved()
    window.close()
    return {"read": t1 - t0, "shown": t2 - t1}


def bench_edit(queries: int, repeat: int) -> tuple[list[float], list[float]]:
    """Wall and CPU seconds of ``repeat`` grade edits, each until every view
    has processed its signals and repainted, in a document of ``queries``
    1,000-candidate queries."""
    from app.fileops import install_file_ops
    from app.window import MainWindow

    _app()
    window = MainWindow(make_document(queries, 1000))
    install_file_ops(window)  # the journal is part of an edit's cost
    window.resize(1400, 860)
    window.show()
    _settle(window)
    model = window.grid_model
    times, cpu = [], []
    for n in range(repeat + 2):
        i = model.candidate(n % model.rowCount())
        grade = float((int(np.nan_to_num(window.document.grade[i])) + 1) % 4)
        t0, c0 = time.perf_counter(), time.process_time()
        window.set_grade(i, grade)
        _settle(window)
        times.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    window.session.mark_saved()
    window.close()
    return times[2:], cpu[2:]  # the first edits warm caches


MEMORY_CHILD = """
import sys, resource
sys.path.insert(0, {repo!r})
from benchmarks.bench_app import _app, _settle, make_document
from app.fileops import install_file_ops
from app.window import MainWindow
app = _app()
doc = make_document(1000, 1000)
built = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
window = MainWindow(doc)
install_file_ops(window)
window.resize(1400, 860)
window.show()
_settle(window)
window.set_grade(window.grid_model.candidate(0), 3.0)
_settle(window)
print(built, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
window.session.mark_saved()
"""


def bench_memory() -> tuple[float, float]:
    out = subprocess.run(
        [sys.executable, "-c", MEMORY_CHILD.format(repo=str(REPO))], capture_output=True,
        text=True, check=True, env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
    ).stdout.split()
    built, peak = (int(x) / 1024 for x in out[-2:])  # ru_maxrss is in KiB on Linux
    return built, peak


#: Part 4's child: ``argv`` = start time (the parent's ``time.time()`` just
#: before starting it), mode (``launch`` or ``menu``), file, [qrels]. Prints
#: ``progress usable`` in seconds since the start.
OPEN_CHILD = """
import sys, time
T0 = float(sys.argv[1])
mode, path = sys.argv[2], sys.argv[3]
sys.path.insert(0, {repo!r})
import app  # first, as the entry point: its numpy settings precede numpy
if mode == "launch":  # what app.launcher does before Qt loads (the run read from now on)
    from app.launcher import prepare
    prepare([path, "--qrels", sys.argv[4]])
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication
from benchmarks.bench_app import _app, _settle
import app.main as main_module
marks = {{}}

class FirstPaint(QObject):
    # Application-wide only until the progress indication is painted: a Python
    # filter called for every event costs the process tens of milliseconds
    # (the editor has none); the window's Show is watched on the window alone.
    def eventFilter(self, obj, event):
        if (event.type() == QEvent.Type.Paint and "progress" not in marks
                and obj.objectName() in ("startSplash", "taskProgress")):
            marks["progress"] = time.time() - T0
            qapp.removeEventFilter(self)
        if (mode == "launch" and event.type() == QEvent.Type.Show
                and obj.objectName() == "mainWindow"):
            marks["shown"] = 1
            ready(obj)
        return False

def ready(window):
    # Usable: the window shown AND the run's document in it (a window shown
    # while the file is still read is not usable), then its events and paints
    # settled; whichever of the two comes last (the build before the
    # window shown while reading set the document before its Show).
    if ("shown" in marks and "usable" not in marks and "ready" not in marks
            and window.document.n_queries):
        marks["ready"] = 1
        QTimer.singleShot(0, usable)  # once the window is up and events run

qapp = _app()
spy = FirstPaint()
qapp.installEventFilter(spy)
build_window = main_module.build_window

def watched_window(*args, **kwargs):
    window = build_window(*args, **kwargs)
    window.installEventFilter(spy)
    window.document_replaced.connect(lambda _doc: ready(window))
    return window

main_module.build_window = watched_window

def usable():
    window = next(w for w in QApplication.topLevelWidgets() if w.objectName() == "mainWindow")
    _settle(window)
    # Not flattered: the run shown, every part of the window taking input.
    assert window.isVisible() and window.document.n_queries > 1000
    assert window.centralWidget().isEnabled() and window.file_ops.actions["save_as"].isEnabled()
    marks["usable"] = time.time() - T0
    window.session.mark_saved()
    print(marks.get("progress", -1.0), marks["usable"])
    sys.stdout.flush()
    qapp.exit(0)

if mode == "launch":
    sys.exit(main_module.main([path, "--qrels", sys.argv[4]]))
window = main_module.build_window()
window.resize(1400, 860)
window.show()
_settle(window)
T0 = time.time()  # File > Open starts now
task = window.file_ops.open_path(main_module.Path(path), ask_to_save=False)
task.finished.connect(lambda _: QTimer.singleShot(0, usable))
sys.exit(qapp.exec())
"""


def _timed(argv: list[str], env: dict[str, str]) -> tuple[float, float, float, list[str]]:
    """Run ``argv`` (``{t0}`` in it becomes the start time); its wall time,
    CPU time (user + system, every thread), peak RSS (MiB) and output words."""
    with tempfile.TemporaryFile("w+") as out:
        t0 = time.time()
        proc = subprocess.Popen([a.replace("{t0}", repr(t0)) for a in argv], stdout=out,
                                cwd=REPO, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.time() - t0
        if os.waitstatus_to_exitcode(status):
            raise SystemExit(f"{argv[:4]} failed: {os.waitstatus_to_exitcode(status)}")
        out.seek(0)
        cpu = usage.ru_utime + usage.ru_stime
        return wall, cpu, usage.ru_maxrss / 1024, out.read().split()


def bench_open_run(folder: Path, turns: int, *, menu: bool = True) -> None:
    """Part 4: the editor opening a large run, at launch and by File > Open."""
    run, qrels = folder / "run.txt", folder / "qrels.txt"
    py = sys.executable
    child = OPEN_CHILD.format(repo=str(REPO))
    with tempfile.TemporaryDirectory() as tmp_name:
        # As installed: the bytecode compiled (into the temporary folder).
        env = {**os.environ, "QT_QPA_PLATFORM": "offscreen",
               "PYTHONPYCACHEPREFIX": str(Path(tmp_name) / "pycache")}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        subprocess.run([py, "-m", "compileall", "-q", "app", "core", "benchmarks"], cwd=REPO,
                       env=env, check=True, stdout=subprocess.DEVNULL)
        csv = Path(tmp_name) / "worksheet.csv"
        subprocess.run([py, "-m", "app.cli.main", "export", str(run), "--qrels", str(qrels),
                        "-o", str(csv)], cwd=REPO, check=True, stdout=subprocess.DEVNULL,
                       env=env)
        rows: dict[str, list[tuple[float, float, float, float]]] = {}
        commands = {
            "evaluate --preset trec_eval": [py, "-m", "app.cli.main", "evaluate", str(run),
                                            "--qrels", str(qrels), "--preset", "trec_eval",
                                            "--format", "json"],
            "launch: app.main RUN --qrels": [py, "-c", child, "{t0}", "launch", str(run),
                                             str(qrels)],
            "File > Open (worksheet CSV)": [py, "-c", child, "{t0}", "menu", str(csv)],
        }
        if not menu:
            del commands["File > Open (worksheet CSV)"]
        for _ in range(turns):  # in turns: all see the same machine
            for name, argv in commands.items():
                wall, cpu, rss, words = _timed(argv, env)
                progress, usable = (float(w) for w in words[-2:]) if words[-1:] and \
                    name != "evaluate --preset trec_eval" else (0.0, wall)
                rows.setdefault(name, []).append((progress, usable, cpu, rss))
    _report_open_run(run, turns, rows)


def _report_open_run(run: Path, turns: int,
                     rows: dict[str, list[tuple[float, float, float, float]]]) -> None:
    """Part 4's lines: per command the medians over the turns, and each
    ratio to evaluate's as the median of the per-turn ratios (on a shared
    machine the turns' speeds differ more than the commands'). CPU is the
    whole process's (the editor's CPU counts its event loop until usable
    and its exit)."""
    evaluate = rows["evaluate --preset trec_eval"]
    print(f"4. opening {run} ({run.stat().st_size / 1e6:.0f} MB) with its qrels, "
          f"{turns} turns, load average {os.getloadavg()[0]:.1f}")
    for name, got in rows.items():
        prog = statistics.median(g[0] for g in got)
        use = statistics.median(g[1] for g in got)
        cpu = statistics.median(g[2] for g in got)
        wall_x = statistics.median(g[1] / e[1] for g, e in zip(got, evaluate, strict=True))
        cpu_x = statistics.median(g[2] / e[2] for g, e in zip(got, evaluate, strict=True))
        print(f"   {name:<30} progress {prog:5.2f} s  usable {use:5.2f} s "
              f"({min(g[1] for g in got):.2f}-{max(g[1] for g in got):.2f}; "
              f"{wall_x:.2f}x evaluate)  CPU {cpu:5.2f} s ({cpu_x:.2f}x)  "
              f"peak RSS {max(g[3] for g in got):6.0f} MiB")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--open-run", type=Path, metavar="DIR",
                        help="part 4 only: open DIR/run.txt with DIR/qrels.txt")
    parser.add_argument("--turns", type=int, default=3, help="turns of part 4")
    parser.add_argument("--no-menu", action="store_true", help="part 4 without File > Open")
    parser.add_argument("--edit-queries", type=int, nargs="+", default=[1, 100, 1000, 2000],
                        metavar="N", help="part 2's documents: N queries of 1,000 candidates")
    parser.add_argument("--edit-only", action="store_true", help="part 2 only")
    args = parser.parse_args()
    if args.open_run is not None:
        bench_open_run(args.open_run, args.turns, menu=not args.no_menu)
        return 0
    if not args.edit_only:
        # First, while this process is small: a child's peak RSS counts the
        # parent it was forked from.
        built, peak = bench_memory()
        with tempfile.TemporaryDirectory() as tmp:
            opened = bench_open(Path(tmp))
        print(f"open 100,000 candidates: read {opened['read']:.2f} s; "
              f"read -> first query shown {opened['shown']:.3f} s (target < 1 s)")
    for queries in args.edit_queries:
        t, cpu = bench_edit(queries, args.repeat)
        print(f"grade edit, 1,000-candidate query in {queries * 1000:,} candidates: "
              f"median {statistics.median(t) * 1e3:.1f} ms, max {max(t) * 1e3:.1f} ms "
              f"(target 16 ms); CPU median {statistics.median(cpu) * 1e3:.1f} ms, "
              f"load average {os.getloadavg()[0]:.1f}")
    if not args.edit_only:
        print(f"1,000,000 candidates: peak RSS {built:.0f} MiB after building the document, "
              f"{peak:.0f} MiB with the window shown and one edit (target < 1024 MiB)")
    print(f"(this process: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
