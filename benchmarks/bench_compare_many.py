"""Time ``compare`` of many runs against ranx's ``compare`` of the same runs.

``--runs`` TREC runs (default 10) of Q queries x C candidates (default 2,000 x
1,000) share one qrels file (J judged sources per query, grades 0-3). Run i
re-scores the same candidates: noise plus ``i / runs`` times the grade, so
the runs differ by steps; scores have six decimals (ties are rare: ranx orders
tied candidates its own way).

Each turn runs, as fresh processes reading the files (alternating, so that
other work on the machine weighs on both alike):

- ``ndcg-worksheet compare RUN... --qrels Q --preset ranx --k 10 --pairs all
  --resamples N --format json`` (every pair: the randomization test, the
  bootstrap interval, the t-test and Holm's correction);
- ranx: ``Qrels.from_file``, ``Run.from_file`` for each run and
  ``compare(qrels, runs, ["ndcg@10"], stat_test="fisher",
  n_permutations=N)`` (ranx tests each pair in both orders).

Each turn's times and their medians are printed, and the largest difference
between the two tools' randomization p-values (both Monte Carlo estimates
of the same p, so they differ by about sqrt(p (1 - p) / N)). Compiling ranx's
numba code (in every fresh process: about a minute on the build machine)
is timed apart: ranx's child compiles on a small copy first and times its
reading and comparing after that. The target compares our whole process
with ranx's compiled time (ranx's best case); the exit status is 1 when our
median is over it.

Run: ``python benchmarks/bench_compare_many.py`` (``--queries 50 --candidates
100 --runs 3 --resamples 1000`` for a quick look). ``--data DIR`` keeps the
generated files there (and reuses them).
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

import numpy as np

REPO = Path(__file__).resolve().parent.parent

RANX = """
import json, sys, time, warnings
warnings.simplefilter("ignore")
from ranx import Qrels, Run, compare
qrels_path, out_path, n, warm_qrels, warm_a, warm_b, *runs = sys.argv[1:]

def load_and_compare(qrels_path, runs, n):
    qrels = Qrels.from_file(qrels_path, kind="trec")
    loaded = []
    for path in runs:
        run = Run.from_file(path, kind="trec")
        run.name = path
        loaded.append(run)
    return compare(qrels, loaded, ["ndcg@10"], stat_test="fisher", n_permutations=n,
                   random_seed=0, make_comparable=False)

load_and_compare(warm_qrels, [warm_a, warm_b], 10)  # numba compiles here
t = time.perf_counter()
report = load_and_compare(qrels_path, runs, int(n))
seconds = time.perf_counter() - t
p = {f"{a}|{b}": report.comparisons[a, b]["ndcg@10"]["p_value"]
     for i, a in enumerate(runs) for b in runs[i + 1:]}
json.dump({"means": {r: report.results[r]["ndcg@10"] for r in runs}, "p": p,
           "seconds": seconds}, open(out_path, "w"))
"""


def write_files(folder: Path, nq: int, nc: int, judged: int, runs: int) -> tuple[Path, list[Path]]:
    """The qrels and ``runs`` run files (see the module's docstring)."""
    rng = np.random.default_rng(1)
    qrels = folder / "qrels.txt"
    paths = [folder / f"run{i}.txt" for i in range(runs)]
    files = [open(p, "w") for p in paths]  # noqa: SIM115 - closed below
    try:
        with open(qrels, "w") as fq:
            for q in range(nq):
                docs = rng.choice(3 * nc, size=nc, replace=False)
                grades = np.zeros(nc, dtype=np.int64)
                judged_at = rng.choice(nc, size=judged, replace=False)
                grades[judged_at] = rng.integers(0, 4, size=judged)
                fq.writelines(f"q{q} 0 d{docs[i]} {grades[i]}\n" for i in judged_at)
                for r, f in enumerate(files):
                    scores = np.round(rng.random(nc) + (r / runs) * grades, 6)
                    f.writelines(f"q{q} Q0 d{d} 0 {s:.6f} r{r}\n"
                                 for d, s in zip(docs.tolist(), scores.tolist(), strict=True))
    finally:
        for f in files:
            f.close()
    return qrels, paths


def timed(cmd: list[str], out: Path) -> tuple[float, float]:
    """Wall time and CPU time (user + system, all threads) of one process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with open(out, "w") as sink:
        t = time.perf_counter()
        subprocess.run(cmd, stdout=sink, check=True, cwd=REPO)
        wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def commands(folder: Path, qrels: Path, runs: list[Path], resamples: int,
             warm: tuple[Path, list[Path]]) -> tuple[list[str], list[str]]:
    names = [str(r) for r in runs]
    ours = [sys.executable, "-m", "app.launcher", "compare", *names, "--qrels", str(qrels),
            "--preset", "ranx", "--k", "10", "--pairs", "all", "--resamples", str(resamples),
            "--format", "json"]
    theirs = [sys.executable, "-c", RANX, str(qrels), str(folder / "ranx.json"),
              str(resamples), str(warm[0]), *(str(r) for r in warm[1]), *names]
    return ours, theirs


def agreement(folder: Path) -> str:
    """The largest gaps between the two tools' means and p-values."""
    ours = json.loads((folder / "ours.json").read_text())
    theirs = json.loads((folder / "ranx.json").read_text())
    cut = ours["cutoffs"][0]
    mean_gap = max(abs(m - theirs["means"][r]) for r, m in cut["means"].items())
    gaps = [abs(p["randomization"]["p_value"] - theirs["p"][f"{p['a']}|{p['b']}"])
            for p in cut["pairs"]]
    return (f"largest |mean ours - ranx| {mean_gap:.2e}; largest |p ours - p ranx| "
            f"{max(gaps):.4f} over {len(gaps)} pairs")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=10)
    p.add_argument("--queries", type=int, default=2000)
    p.add_argument("--candidates", type=int, default=1000)
    p.add_argument("--judged", type=int, default=200)
    p.add_argument("--resamples", type=int, default=10000)
    p.add_argument("--turns", type=int, default=3)
    p.add_argument("--data", type=Path, help="keep (and reuse) the generated files here")
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.data or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        t = time.perf_counter()
        qrels, runs = folder / "qrels.txt", [folder / f"run{i}.txt" for i in range(args.runs)]
        if not all(r.exists() for r in [qrels, *runs]):
            write_files(folder, args.queries, args.candidates, args.judged, args.runs)
        small = folder / "small"
        small.mkdir(exist_ok=True)
        s_qrels, s_runs = write_files(small, 50, 100, 20, 2)  # compiles all ranx uses
        print(f"{args.runs} runs of {args.queries} queries x {args.candidates} candidates, "
              f"{args.judged} judged per query, {args.resamples} resamples; files "
              f"{time.perf_counter() - t:.1f} s")
        ours_cmd, ranx_cmd = commands(folder, qrels, runs, args.resamples, (s_qrels, s_runs))
        walls: dict[str, list[float]] = {"ours": [], "ranx process": [], "ranx compiled": []}
        for turn in range(args.turns):
            wall, cpu = timed(ours_cmd, folder / "ours.json")
            walls["ours"].append(wall)
            print(f"turn {turn + 1}: ours {wall:.2f} s wall, {cpu:.2f} s CPU (whole process)")
            wall, cpu = timed(ranx_cmd, folder / "ranx.out")
            inner = json.loads((folder / "ranx.json").read_text())["seconds"]
            walls["ranx process"].append(wall)
            walls["ranx compiled"].append(inner)
            print(f"turn {turn + 1}: ranx {wall:.2f} s wall, {cpu:.2f} s CPU (whole process, "
                  f"numba compiling); {inner:.2f} s reading and comparing once compiled")
        print(agreement(folder))
    ours = statistics.median(walls["ours"])
    compiled = statistics.median(walls["ranx compiled"])
    print(f"median: ours {ours:.2f} s (whole process), ranx "
          f"{statistics.median(walls['ranx process']):.2f} s (whole process), {compiled:.2f} s "
          f"(once compiled); ours / ranx compiled {ours / compiled:.2f} (target <= 1)")
    return 0 if ours <= compiled else 1


if __name__ == "__main__":
    raise SystemExit(main())
