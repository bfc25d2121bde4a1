"""Start-up (issue 35 item 6): the probe the start-up benchmark reads, and
what the editor does not load before its window is painted (no time is
asserted: ``benchmarks/bench_startup.py`` measures it)."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent

#: Loaded only when used: the workbook writer and its libraries, the
#: comparison, plotting, the many-runs report, the annotators' importer (the
#: editor's dialogs know its suffixes from core.io.suffixes); after the first paint: the
#: review docks (app.main.install_review_docks) and the rounds and
#: disagreements they offer; subprocess (the desktop entry's cache refresh).
NOT_AT_START = ("openpyxl", "xlsxwriter", "matplotlib", "core.io.workbook.export",
                "core.analysis.compare", "core.analysis.compare.many", "core.reports.runs",
                "app.review.compare_view", "app.review.queue_view", "app.review.rounds",
                "core.analysis.rounds", "core.analysis.explain", "core.analysis.agreement",
                "core.io.annotator", "subprocess")

CHILD = f"""
import sys
import app.main
import app.startup_probe as probe

report = probe._report


def loaded_then_report():  # what is loaded at the first paint
    print("loaded:", ",".join(m for m in {NOT_AT_START!r} if m in sys.modules))
    report()


probe._report = loaded_then_report
sys.exit(app.main.main([]))
"""


def test_the_probe_quits_after_the_first_paint_of_the_example_loading_no_writer():
    # The environment carries the isolated settings of conftest.
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "NDCG_WORKSHEET_STARTUP_PROBE": "1",
           "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-c", CHILD], cwd=REPO, env=env, timeout=120,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "loaded: "  # none of them
    assert lines[1].startswith("first paint cpu=")


def test_reading_a_workbook_loads_neither_the_writer_nor_the_comparison():
    done = subprocess.run(
        [sys.executable, "-c", "import sys; from core.io.example import load_example; "
         "doc = load_example(); print(doc.n_queries, sorted(m for m in sys.modules if "
         "m.startswith(('core.io.workbook.export', 'core.analysis.compare', 'openpyxl', "
         "'xlsxwriter'))))"],
        cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)}, timeout=60,
        capture_output=True, text=True, check=True)
    assert done.stdout.split(" ", 1)[1].strip() == "[]"


def test_the_workbook_package_still_offers_every_name():
    import core.io.workbook as workbook

    for name in workbook.__all__:
        home = importlib.import_module(f"core.io.workbook.{workbook._HOMES.get(name, 'reopened')}")
        assert getattr(workbook, name) is getattr(home, name), name
    assert callable(workbook.reopened)  # the function, not its module
    with pytest.raises(AttributeError, match="no_such_name"):
        workbook.no_such_name  # noqa: B018


LAUNCH_CHILD = """
import sys
from app.launcher import prepare

args = sys.argv[1:]
prepare(args)  # as app.launcher.main: the run read from now on, the core imported
before = set(sys.modules)
import app.main
import app.startup_probe as probe

report = probe._report


def after_qt_then_report():  # core modules imported after PySide6, to the first paint
    print("after Qt:", ",".join(sorted(m for m in sys.modules if m.startswith("core.")
                                       and m != "core.resources" and m not in before)))
    report()


probe._report = after_qt_then_report
sys.exit(app.main.main(args))
"""


def _small_run(tmp_path: Path) -> tuple[Path, Path]:
    """A run of 4 queries x 12 candidates and its qrels (every third
    candidate judged), as TREC text in ``tmp_path``."""
    run, qrels = tmp_path / "run.txt", tmp_path / "qrels.txt"
    run.write_text("".join(f"q{q} Q0 d{d} {d + 1} {30 - d} r\n"
                           for q in range(4) for d in range(12)), encoding="utf-8")
    qrels.write_text("".join(f"q{q} 0 d{d} {(q + d) % 4}\n"
                             for q in range(4) for d in range(0, 12, 3)), encoding="utf-8")
    return run, qrels


def test_a_run_launched_with_its_qrels_imports_its_core_before_qt_and_no_workbook_checker(
        tmp_path: Path) -> None:
    # PySide6's import hook reads the source of every module imported after
    # it: the core the window uses is imported by app.launcher.prepare, and
    # the workbook checker (core.io.safety, the additions' reader) only when
    # a workbook is saved over (before, app.file_formats and app.save_checks
    # imported them at the window's build: 19 modules after Qt).
    run, qrels = _small_run(tmp_path)
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "NDCG_WORKSHEET_STARTUP_PROBE": "1",
           "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-c", LAUNCH_CHILD, str(run), "--qrels", str(qrels)],
                          cwd=REPO, env=env, timeout=120, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "after Qt: "  # none
    assert lines[1].startswith("first paint cpu=")


#: Imported where they are used, never at a run's launch: socket (a save
#: beside LibreOffice's lock: core.io.atomic.stale_lock), statistics (a
#: review round's pace: core.analysis.pace.reviewer_pace), html (the banner
#: of a workbook edited outside the app: app.outside_edits). Made after
#: PySide6's import hook, they were ~9.5 ms of the main thread's CPU before
#: the first paint (hopen15).
NOT_AT_LAUNCH = ("socket", "selectors", "statistics", "fractions", "decimal", "html")

ARRIVED_CHILD = f"""
import sys
from app.launcher import prepare

args = sys.argv[1:]
prepare(args)
import app.main
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

build = app.main.build_window


def watched(*a, **k):  # the window, asked what is loaded once its document is shown
    window = build(*a, **k)

    def arrived():
        if not window.document.n_queries:  # (still read)
            QTimer.singleShot(10, arrived)
            return
        QApplication.processEvents()
        print("loaded:", ",".join(m for m in {NOT_AT_LAUNCH!r} if m in sys.modules))
        window.session.mark_saved()
        QApplication.exit(0)

    QTimer.singleShot(0, arrived)
    return window


app.main.build_window = watched
sys.exit(app.main.main(args))
"""


def test_a_run_launched_with_its_qrels_loads_no_module_only_a_save_or_a_round_needs(
        tmp_path: Path) -> None:
    run, qrels = _small_run(tmp_path)
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-c", ARRIVED_CHILD, str(run), "--qrels", str(qrels)],
                          cwd=REPO, env=env, timeout=120, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["loaded: "]  # none of them, the run shown
