"""Peak memory of importing a large Label Studio JSON export.

Writes a Label Studio project's JSON export as its Export button does (a
task a record: its annotations, 1-3 a task by three annotators, one now
and then cancelled, a model's prediction, the task's bookkeeping), drawn
by the tests' generator (``tests/platformgen_json.py``), then runs the
command line's ``import`` on it in a fresh process under ``/usr/bin/time
-v`` and prints its peak resident memory (RSS), its CPU time (user +
sys: the host is shared, the wall is the load's), the wall time and the
file's size, over ``--repeat`` turns (the median and the range); beside it
the floor, ``json.load`` of the same file in a fresh process, measured
alike in turns alternating with the import's.

    python benchmarks/bench_import_json_memory.py [--tasks 200000] [--repeat 3]
        [--keep PATH]
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from random import Random

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests.platformgen_json import ls_project, ls_task  # noqa: E402

#: Documents a query (a ranked list's depth a task each).
PER_QUERY = 20


def write_export(path: Path, tasks: int, seed: int = 7) -> None:
    """``tasks`` tasks of a project of three annotators with one model's
    predictions (``tests.platformgen_json``'s Label Studio tasks), written
    as one JSON array, indented as Label Studio writes it."""
    p = ls_project(Random(seed), 3)
    p.models, p.every_model, p.drafting, p.draft_ids = 1, True, False, False
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("[")
        for n in range(tasks):
            ls_task(p, f"query {n // PER_QUERY:06d}", f"doc/{n:07d}")
            fh.write(("," if n else "") + "\n" + json.dumps(p.tasks.pop(), indent=1))
        fh.write("\n]\n")


#: The import, and the floor: the file parsed by ``json.load`` alone.
IMPORT = ("import sys; from app.cli.main import main; "
          "sys.exit(main(['import', sys.argv[1], '-o', sys.argv[2]]))")
JSON_LOAD = "import json, sys; json.load(open(sys.argv[1], encoding='utf-8'))"


def run(path: Path, out: Path, code: str = IMPORT) -> tuple[float, float, float]:
    """One run of ``code`` in a fresh process: (peak RSS in MiB, wall
    seconds, CPU seconds: user + sys)."""
    done = subprocess.run(["/usr/bin/time", "-v", sys.executable, "-c", code, str(path),
                           str(out)], cwd=REPO, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(done.stderr[-2000:])
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr)[1])
    wall = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): ([\d:.]+)", done.stderr)[1]
    secs = sum(float(x) * 60 ** k for k, x in enumerate(reversed(wall.split(":"))))
    cpu = sum(float(re.search(rf"{kind} time \(seconds\): ([\d.]+)", done.stderr)[1])
              for kind in ("User", "System"))
    return rss / 1024, secs, cpu


def shown(turns: list[tuple[float, float, float]]) -> str:
    """Turns' medians and ranges: peak RSS, CPU, wall."""
    rss, wall, cpu = zip(*turns, strict=True)
    return (f"peak RSS median {statistics.median(rss):,.0f} MiB ({min(rss):,.0f}-{max(rss):,.0f}), "
            f"CPU median {statistics.median(cpu):.1f} s ({min(cpu):.1f}-{max(cpu):.1f}), "
            f"wall median {statistics.median(wall):.1f} s ({min(wall):.1f}-{max(wall):.1f})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tasks", type=int, default=200_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--keep", type=Path, help="write the export here and keep it")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = args.keep or Path(tmp) / "project.json"
        if not path.exists():
            write_export(path, args.tasks)
        size = path.stat().st_size / 2**20
        turns, floor = [], []
        for _ in range(args.repeat):  # (alternating: the load falls on both alike)
            turns.append(run(path, Path(tmp) / "out.csv"))
            floor.append(run(path, Path(tmp) / "out.csv", JSON_LOAD))
    ratio = statistics.median(t[2] for t in turns) / statistics.median(f[2] for f in floor)
    print(f"{args.tasks:,} tasks, {size:,.1f} MiB: import: {shown(turns)}\n"
          f"  json.load (the floor): {shown(floor)}\n  import / json.load CPU: {ratio:.1f}x")


if __name__ == "__main__":
    main()
