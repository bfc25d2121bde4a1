"""Reopening a workbook a spreadsheet program re-saved vs reopening our own export.

    python benchmarks/bench_reopen_resaved.py [--candidates 100000] [--repeat 1]

Writes the audited workbook of ``bench_export.make_real(N)`` (URL-like ids,
1,000 candidates per query, 70 % unjudged), has LibreOffice re-save it as
.xlsx with no edit (``soffice --convert-to xlsx``: shared strings, its own
styles, as any spreadsheet program saves), then times, each in a process of
its own, in turns:

- ``own``: ``read_workbook`` of our export (its Candidates sheet read in one
  streaming pass, ``plain_rows``);
- ``resaved``: ``read_workbook`` of the re-saved file (python-calamine);
- ``additions``: ``read_additions`` of the re-saved file, which the next save
  over it reads (openpyxl, since a re-saved file may hold a person's colours).

Prints each wall time and peak RSS, the medians, and the ratios to ``own``.
The target (issue 24): ``resaved`` <= 2x ``own`` at 100,000 candidates.
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

STEPS = ("own", "resaved", "additions")


def _child(step: str, path: str) -> None:
    start = time.perf_counter()
    if step == "additions":
        from core.io.workbook.additions import read_additions

        read_additions(path)
    else:
        from core.io.workbook import read_workbook

        read_workbook(path)
    wall = time.perf_counter() - start
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"wall": wall, "rss_mb": rss}))


def _prepare(n: int, folder: Path) -> tuple[Path, Path]:
    sys.path.insert(0, str(REPO / "benchmarks"))
    from bench_export import make_real

    from core.engine.evaluation import evaluate
    from core.io.workbook import export_workbook
    from tests.libreoffice import _convert

    own = folder / "own" / "book.xlsx"
    own.parent.mkdir()
    export_workbook(evaluate(make_real(n)), own)
    (resaved,) = _convert([own], folder / "resaved", "xlsx", timeout=1800)
    return own, resaved


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--candidates", type=int, default=100_000)
    p.add_argument("--repeat", type=int, default=1)
    p.add_argument("--child", nargs=2, metavar=("STEP", "PATH"), help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.child:
        _child(*args.child)
        return
    with tempfile.TemporaryDirectory(prefix="bench-resaved-") as tmp:
        start = time.perf_counter()
        own, resaved = _prepare(args.candidates, Path(tmp))
        print(f"{args.candidates:,} candidates: export and LibreOffice re-save "
              f"{time.perf_counter() - start:.1f} s; {own.stat().st_size / 1e6:.1f} MB ours, "
              f"{resaved.stat().st_size / 1e6:.1f} MB re-saved")
        times: dict[str, list[float]] = {s: [] for s in STEPS}
        for _ in range(args.repeat):
            for step in STEPS:
                path = own if step == "own" else resaved
                out = subprocess.run([sys.executable, __file__, "--child", step, str(path)],
                                     capture_output=True, text=True, check=True, cwd=REPO)
                got = json.loads(out.stdout.strip().splitlines()[-1])
                times[step].append(got["wall"])
                print(f"  {step:10s} {got['wall']:7.2f} s  {got['rss_mb']:7.0f} MB")
        base = statistics.median(times["own"])
        for step in STEPS:
            m = statistics.median(times[step])
            print(f"median {step:10s} {m:7.2f} s  {m / base:5.2f}x own")


if __name__ == "__main__":
    main()
