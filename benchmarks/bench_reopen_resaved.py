"""Reopening a workbook a spreadsheet program re-saved vs reopening our own export.

    python benchmarks/bench_reopen_resaved.py [--candidates 100000] [--repeat 1]
        [--workdir DIR] [--steps own,ods,...]

Writes the audited workbook of ``bench_export.make_real(N)`` (URL-like ids,
1,000 candidates per query, 70 % unjudged), has LibreOffice re-save it as
.xlsx with no edit (``soffice --convert-to xlsx``: shared strings, its own
styles, as any spreadsheet program saves), then times, each in a process of
its own, in turns:

- ``own``: ``read_workbook`` of our export (its Candidates sheet read in one
  streaming pass, ``plain_rows``);
- ``resaved``: ``read_workbook`` of the re-saved file (its Candidates sheet
  read up to the note column, ``saved_rows``);
- ``calamine``: the same with ``saved_rows`` turned off, so python-calamine
  parses the whole sheet and the formula scan runs (the path before
  ``saved_rows``, and still the one for a sheet that reader leaves alone);
- ``additions``: ``read_additions`` of the re-saved file, which the next save
  over it reads (nothing of a person's in it: not parsed);
- ``added``: ``read_additions`` of the export saved by LibreOffice with a
  sheet and a Candidates column added (openpyxl parses it, the Candidates
  sheet without our cells of no person's fill: ``additions_copy``);
- ``ods``: ``read_workbook`` of the export saved by LibreOffice in its own
  format (``soffice --convert-to ods``): content.xml checked and its
  metadata, Conventions and Candidates cells read in one streaming pass
  (``ods_rows``);
- ``ods_calamine``: the same with that reader turned off, so the check
  scans content.xml and python-calamine parses all of it.

Prints each wall time and peak RSS, the medians, and the ratios to ``own``
(of the medians, and the median of each turn's ratio).
The targets: ``resaved`` <= 2x ``own`` at 100,000 candidates (issue 24);
``ods`` <= 2x ``own`` at 100,000 candidates (issue 34).
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

STEPS = ("own", "resaved", "calamine", "additions", "added", "ods", "ods_calamine")
#: The workbook each step reads (the re-saved one unless named here).
STEP_FILES = {"own": "own", "added": "added", "ods": "ods", "ods_calamine": "ods"}


def _child(step: str, path: str) -> None:
    start = time.perf_counter()
    if step in ("additions", "added"):
        from core.io.workbook.additions import read_additions

        read_additions(path)
    else:
        from core.io.workbook import read_workbook

        if step == "calamine":
            import core.io.workbook.reader as reader

            reader.read_saved_candidates = lambda *_args: None  # type: ignore[assignment]
        if step == "ods_calamine":
            import core.io.workbook.reader as reader

            reader.read_ods = lambda *_args, **_kw: None  # type: ignore[assignment]
        read_workbook(path)
    wall = time.perf_counter() - start
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"wall": wall, "rss_mb": rss}))


#: A reviewer's additions LibreOffice makes for the ``added`` step.
ADDED = [
    {"op": "add_sheet", "name": "My notes"},
    {"op": "set", "sheet": "My notes", "cell": "A1", "value": "ask Ann"},
    {"op": "set", "sheet": "Candidates", "cell": "AB1", "value": "my comment"},
    {"op": "set", "sheet": "Candidates", "cell": "AB5", "value": "check this"},
]


def _prepare(n: int, folder: Path, steps: tuple[str, ...]) -> dict[str, Path]:
    """Our export of ``make_real(n)``, and of LibreOffice's re-save of it,
    its save with a sheet and a column added and its save as .ods those the
    steps read, in ``folder`` (each made once: a folder that holds them is
    used as it is)."""
    files = {k: folder / k / "book.xlsx" for k in ("own", "resaved", "added")}
    files["ods"] = folder / "ods" / "book.ods"
    wanted = {STEP_FILES.get(s, "resaved") for s in steps}
    sys.path.insert(0, str(REPO / "benchmarks"))
    from bench_export import make_real

    from core.engine.evaluation import evaluate
    from core.io.workbook import export_workbook
    from tests.libreoffice import convert, edit

    if not files["own"].exists():
        files["own"].parent.mkdir(parents=True, exist_ok=True)
        export_workbook(evaluate(make_real(n)), files["own"])
    if not files["resaved"].exists() and "resaved" in wanted:
        convert([files["own"]], folder / "resaved", "xlsx", timeout=1800)
    if not files["ods"].exists() and "ods" in wanted:
        convert([files["own"]], folder / "ods", "ods", timeout=1800)
    if not files["added"].exists() and "added" in wanted:
        files["added"].parent.mkdir(parents=True, exist_ok=True)
        edit([(files["own"], files["added"], ADDED)], timeout=3600)
    return {k: p for k, p in files.items() if k in wanted}


def _run(files: dict[str, Path], repeat: int, steps: tuple[str, ...]) -> None:
    """Each step in turns, in processes of their own; the medians, and the
    median of each turn's ratio to ``own`` (steadier than a ratio of medians
    when the machine's speed drifts between turns)."""
    times: dict[str, list[float]] = {s: [] for s in steps}
    for _ in range(repeat):
        for step in steps:
            path = files[STEP_FILES.get(step, "resaved")]
            out = subprocess.run([sys.executable, __file__, "--child", step, str(path)],
                                 capture_output=True, text=True, check=True, cwd=REPO)
            got = json.loads(out.stdout.strip().splitlines()[-1])
            times[step].append(got["wall"])
            print(f"  {step:10s} {got['wall']:7.2f} s  {got['rss_mb']:7.0f} MB", flush=True)
    base = statistics.median(times["own"])
    for step in steps:
        m = statistics.median(times[step])
        turns = statistics.median(t / o for t, o in zip(times[step], times["own"], strict=True))
        print(f"median {step:10s} {m:7.2f} s  {m / base:5.2f}x own  (turns: {turns:5.2f}x)")


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--candidates", type=int, default=100_000)
    p.add_argument("--repeat", type=int, default=1)
    p.add_argument("--workdir", type=Path, help="keep the two workbooks here (and reuse "
                   "them when they are there: LibreOffice's re-save of 100,000 candidates "
                   "takes minutes)")
    p.add_argument("--steps", default=",".join(STEPS),
                   help="the steps to run, own first (default: all)")
    p.add_argument("--child", nargs=2, metavar=("STEP", "PATH"), help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.child:
        _child(*args.child)
        return
    steps = tuple(args.steps.split(","))
    if steps[0] != "own" or not set(steps) <= set(STEPS):
        p.error(f"--steps: own first, then any of {', '.join(STEPS)}")
    with tempfile.TemporaryDirectory(prefix="bench-resaved-") as tmp:
        start = time.perf_counter()
        files = _prepare(args.candidates, args.workdir or Path(tmp), steps)
        print(f"{args.candidates:,} candidates: export and LibreOffice's saves "
              f"{time.perf_counter() - start:.1f} s; "
              + ", ".join(f"{p.stat().st_size / 1e6:.1f} MB {k}" for k, p in files.items()),
              flush=True)
        _run(files, args.repeat, steps)


if __name__ == "__main__":
    main()
