"""``evaluate`` of a large Parquet run on one process, on Dask and on Spark.

For each size (candidates in the run; 10M and 50M by default), writes a
Parquet run of 1,000 candidates a query with unique URL-like source ids
and tied scores, and Parquet qrels judging about a fifth of them (grades
0-3; the rest are unjudged, so the default conventions leave those queries
unresolved and compute their bounds) plus one judged source per query the
run did not retrieve. Then runs, as whole processes, in turns::

    python -m app.cli.main evaluate RUN --qrels QRELS --format json
    ... --engine dask --workers 2
    ... --engine spark --cluster local[2]

and reports wall time and the peak resident memory of the driver (the
command's own process) and of each worker: Dask's worker processes, Spark's
JVM (its executors are threads there in local mode) and its Python workers.
The driver's peak is the kernel's (``ru_maxrss``); the workers' are sampled
every 0.1 s over the process tree (psutil), so a peak shorter than that can
be missed. The three JSON outputs are checked equal.

Usage::

    python benchmarks/bench_scale.py [--rows 10000000 50000000] [--data DIR]
        [--engines local dask spark] [--preset trec_eval]

``--preset``: a preset's conventions (``--preset`` of ``evaluate``) instead
of the defaults; the defaults are the heavier (every query here has
unjudged candidates, so its bounds are computed).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np
import psutil
import pyarrow as pa
import pyarrow.parquet as pq

REPO = Path(__file__).resolve().parent.parent
PER_QUERY = 1000
BLOCK = 1_000_000  # rows written at a time (and the row groups' size)


def write_data(rows: int, folder: Path) -> tuple[Path, Path]:
    """The run and qrels of ``rows`` candidates (see the module's text)."""
    run_path, qrels_path = folder / f"run-{rows}.parquet", folder / f"qrels-{rows}.parquet"
    if run_path.exists() and qrels_path.exists():
        return run_path, qrels_path
    rng = np.random.default_rng(rows)
    run_schema = pa.schema([("query", pa.string()), ("source_id", pa.string()),
                            ("score", pa.float64())])
    qrels_schema = pa.schema([("query", pa.string()), ("source_id", pa.string()),
                              ("grade", pa.float64())])
    with pq.ParquetWriter(run_path, run_schema) as run_w, \
            pq.ParquetWriter(qrels_path, qrels_schema) as qrels_w:
        for start in range(0, rows, BLOCK):
            n = min(BLOCK, rows - start)
            row = np.arange(start, start + n)
            q = row // PER_QUERY
            query = np.char.add("q", q.astype(str))
            source = np.char.add(np.char.add(np.char.add(
                "https://www", (q % 97).astype(str)), ".example.com/doc/"), row.astype(str))
            score = np.round(rng.random(n), 2)  # ties
            run_w.write_table(pa.table({"query": query, "source_id": source, "score": score},
                                       schema=run_schema))
            judged = rng.random(n) < 0.2
            first = row % PER_QUERY == 0  # one judged source per query the run lacks
            jq = np.concatenate([query[judged], query[first]])
            js = np.concatenate([source[judged], np.char.add(source[first], "-unretrieved")])
            grade = rng.integers(0, 4, judged.sum() + first.sum()).astype(np.float64)
            qrels_w.write_table(pa.table({"query": jq, "source_id": js, "grade": grade},
                                         schema=qrels_schema))
    return run_path, qrels_path


class Peaks:
    """Peak resident memory of a process and its descendants, sampled."""

    def __init__(self, pid: int) -> None:
        self.root = psutil.Process(pid)
        self.peak: dict[int, tuple[str, int]] = {}
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._sample, daemon=True)
        self.thread.start()

    def _sample(self) -> None:
        while not self.done.is_set():
            try:
                procs = [self.root, *self.root.children(recursive=True)]
            except psutil.Error:
                return
            for p in procs:
                try:
                    rss, name = p.memory_info().rss, _kind(p)
                except psutil.Error:
                    continue
                if rss > self.peak.get(p.pid, ("", 0))[1]:
                    self.peak[p.pid] = (name, rss)
            time.sleep(0.1)

    def stop(self) -> dict[str, list[int]]:
        self.done.set()
        self.thread.join()
        out: dict[str, list[int]] = {}
        for pid, (name, rss) in self.peak.items():
            out.setdefault("driver" if pid == self.root.pid else name, []).append(rss)
        return out


def _kind(p: psutil.Process) -> str:
    cmd = " ".join(p.cmdline())
    if "resource_tracker" in cmd:
        return "helper"
    if "java" in p.name():
        return "spark JVM"
    if "pyspark" in cmd or "daemon" in cmd:
        return "spark python worker"
    if "dask" in cmd or "distributed" in cmd or "multiprocessing" in cmd or "spawn" in cmd:
        return "dask worker"
    return p.name()


def run_once(engine: str, run: Path, qrels: Path, out: Path,
             preset: str | None = None) -> tuple[float, dict[str, list[int]]]:
    argv = [sys.executable, "-m", "app.cli.main", "evaluate", str(run), "--qrels", str(qrels),
            "--format", "json", *(["--preset", preset] if preset else [])]
    if engine == "dask":
        argv += ["--engine", "dask", "--workers", "2"]
    elif engine == "spark":
        argv += ["--engine", "spark", "--cluster", "local[2]"]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    with open(out, "w") as fh:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, stdout=fh, stderr=subprocess.DEVNULL, cwd=REPO, env=env)
        peaks = Peaks(proc.pid)
        # The kernel's own peak of the driver (sampling can miss a short one).
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = code = os.waitstatus_to_exitcode(status)
        wall = time.perf_counter() - start
    memory = peaks.stop()
    memory["driver"] = [*memory.get("driver", []), usage.ru_maxrss * 1024]
    if code:
        raise SystemExit(f"{engine} failed with status {code}: {' '.join(argv)}")
    return wall, memory


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, nargs="+", default=[10_000_000, 50_000_000])
    ap.add_argument("--engines", nargs="+", default=["local", "dask", "spark"])
    ap.add_argument("--preset", help="a preset's conventions (default: the defaults)")
    ap.add_argument("--data", type=Path, help="where the Parquet files are kept (default: a "
                    "temporary folder, removed after)")
    args = ap.parse_args()
    tmp = tempfile.TemporaryDirectory()
    folder = args.data or Path(tmp.name)
    folder.mkdir(parents=True, exist_ok=True)
    mib = 1 << 20
    print(f"conventions: {args.preset or 'the defaults'}")
    print("| candidates | engine | wall s | driver peak MiB | worker peaks MiB |")
    print("| --- | --- | --- | --- | --- |")
    for rows in args.rows:
        run, qrels = write_data(rows, folder)
        results = {}
        for engine in args.engines:
            out = folder / f"out-{rows}-{engine}.json"
            wall, memory = run_once(engine, run, qrels, out, args.preset)
            results[engine] = json.loads(out.read_text())
            driver = max(memory.pop("driver")) / mib
            workers = "; ".join(f"{name}: {', '.join(f'{r / mib:.0f}' for r in sorted(v))}"
                                for name, v in sorted(memory.items()))
            print(f"| {rows:,} | {engine} | {wall:.1f} | {driver:.0f} | {workers or '-'} |",
                  flush=True)
        first = next(iter(results.values()))
        for engine, result in results.items():
            if result != first:
                raise SystemExit(f"{engine} gave other numbers than {args.engines[0]}")
    tmp.cleanup()


if __name__ == "__main__":
    main()
