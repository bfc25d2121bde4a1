"""Opening a large worksheet CSV against opening the same TREC run (issue 27, item 7).

The editor opens a file with ``core.io.load.load_document(path, qrels=...,
encoding=DETECT)`` on a thread (``app.main._load``) and shows the document
it returns. This script times that call, in fresh processes, in turns:

- the TREC run with its qrels (``make_data.py``'s 2,000 x 1,000 unique-id
  run: 2,000,000 ranked candidates and ~100,000 judged, not retrieved);
- the same document as a worksheet CSV, as the product exports it
  (``ndcg-worksheet export RUN --qrels QRELS -o WS.csv``: 2,100,000 rows);

and prints each one's median wall time of the call, with the first and
last, the ratio of the medians, and the peak resident memory of each process
(``ru_maxrss``: interpreter, numpy and the document included). Each child
imports ``app`` first, as the editor's entry point does.

    python benchmarks/make_data.py --ids unique --out /tmp/data
    python benchmarks/bench_open_csv.py --data /tmp/data/unique [--turns 3]

The worksheet CSV is written beside the data (``worksheet.csv``) once;
``--sheet PATH`` times another (say, the export with quoted notes added).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

CHILD = """
import sys, time
sys.path.insert(0, {repo!r})
import app  # the entry point's settings (one BLAS thread, ...)
from core.io.load import load_document
from core.io.textfile import DETECT
path, qrels = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else None)
t0 = time.perf_counter()
doc = load_document(path, qrels=qrels, encoding=DETECT)
print(time.perf_counter() - t0, len(doc), doc.n_queries)
"""


def _timed(argv: list[str]) -> tuple[float, float, int]:
    """The call's seconds, the child's peak RSS (MiB) and the document's rows."""
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, cwd=REPO)
    _, status, usage = os.wait4(proc.pid, 0)
    out = proc.stdout.read().decode() if proc.stdout else ""
    if os.waitstatus_to_exitcode(status):
        raise SystemExit(f"{argv[3:]} failed: {os.waitstatus_to_exitcode(status)}")
    seconds, rows, _ = out.split()
    return float(seconds), usage.ru_maxrss / 1024, int(rows)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True,
                        help="a folder with run.txt and qrels.txt (make_data.py)")
    parser.add_argument("--turns", type=int, default=3)
    parser.add_argument("--sheet", type=Path,
                        help="time this worksheet CSV instead (e.g. the export with notes added)")
    args = parser.parse_args()
    run, qrels = args.data / "run.txt", args.data / "qrels.txt"
    sheet = args.sheet or args.data / "worksheet.csv"
    py = sys.executable
    if not sheet.exists():
        subprocess.run([py, "-m", "app.cli.main", "export", str(run), "--qrels", str(qrels),
                        "-o", str(sheet)], cwd=REPO, check=True, stdout=subprocess.DEVNULL)
    child = CHILD.format(repo=str(REPO))
    commands = {"TREC run + qrels": [py, "-c", child, str(run), str(qrels)],
                "worksheet CSV": [py, "-c", child, str(sheet)]}
    got: dict[str, list[tuple[float, float, int]]] = {}
    for _ in range(args.turns):  # in turns: both see the same machine
        for name, argv in commands.items():
            got.setdefault(name, []).append(_timed(argv))
    base = statistics.median(s for s, _, _ in got["TREC run + qrels"])
    print(f"opening {sheet} ({sheet.stat().st_size / 1e6:.0f} MB) and {run} "
          f"({run.stat().st_size / 1e6:.0f} MB) with its qrels, {args.turns} turns, "
          f"load average {os.getloadavg()[0]:.1f}")
    for name, rows in got.items():
        secs = [s for s, _, _ in rows]
        mid = statistics.median(secs)
        print(f"   {name:<18} {rows[0][2]:,} rows  {mid:6.2f} s ({min(secs):.2f}-{max(secs):.2f}; "
              f"{mid / base:.2f}x the run)  peak RSS {max(r for _, r, _ in rows):6.0f} MiB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
