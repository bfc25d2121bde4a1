"""Speed and memory of ``ndcg-worksheet evaluate`` against the peers.

1. Whole processes, side by side: ``python -m app.cli.main evaluate RUN --qrels
   QRELS --preset trec_eval --k 10 --k all --format json`` against a
   pytrec_eval script (``parse_run`` + ``parse_qrel`` + ``ndcg`` and
   ``ndcg_cut.10``, results dumped as JSON). Wall time and peak resident
   memory of each child (``os.wait4``), median and maximum over repeats;
   the two outputs' means are checked to agree.
2. In memory, same process: the engine with ties averaged (``sklearn``
   preset, k=10) against ``sklearn.metrics.ndcg_score(ignore_ties=False)``
   on a 2,000 x 1,000 matrix with many tied scores.

Usage (after ``python benchmarks/make_data.py``)::

    python benchmarks/bench_evaluate.py [--repeat 3] [--data benchmarks/data]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
# Part 2 imports core in this process: this checkout's, not whichever one is
# installed (part 1's children already run with cwd=REPO).
sys.path.insert(0, str(REPO))

PYTREC_SCRIPT = """\
import json, sys
import pytrec_eval
with open(sys.argv[1]) as f:
    run = pytrec_eval.parse_run(f)
with open(sys.argv[2]) as f:
    qrels = pytrec_eval.parse_qrel(f)
result = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg", "ndcg_cut.10"}).evaluate(run)
json.dump(result, sys.stdout)
"""


def run_child(argv: list[str], out_path: Path) -> tuple[float, float]:
    """Run one process; (wall seconds, peak RSS in MB)."""
    with open(out_path, "w") as out:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, stdout=out, cwd=REPO)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        raise SystemExit(f"{argv[:4]} failed with status {proc.returncode}")
    return wall, usage.ru_maxrss / 1024  # Linux reports KiB


def processes(run: Path, qrels: Path, repeat: int) -> None:
    ours_cmd = [sys.executable, "-m", "app.cli.main", "evaluate", str(run), "--qrels", str(qrels),
                "--preset", "trec_eval", "--k", "10", "--k", "all", "--format", "json"]
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "pytrec_bench.py"
        script.write_text(PYTREC_SCRIPT)
        peer_cmd = [sys.executable, str(script), str(run), str(qrels)]
        ours_out, peer_out = Path(tmp) / "ours.json", Path(tmp) / "peer.json"
        times: dict[str, list[float]] = {"ours": [], "pytrec_eval": []}
        rss: dict[str, list[float]] = {"ours": [], "pytrec_eval": []}
        for _ in range(repeat):  # interleaved, so both see the same machine state
            for name, cmd, out in (("ours", ours_cmd, ours_out),
                                   ("pytrec_eval", peer_cmd, peer_out)):
                wall, peak = run_child(cmd, out)
                times[name].append(wall)
                rss[name].append(peak)
        ours = json.loads(ours_out.read_text())
        peer = json.loads(peer_out.read_text())
    check_agreement(ours, peer)
    print(f"1. whole process, {run.name} + {qrels.name}, {repeat} runs each")
    print(f"   ours:        {' '.join(ours_cmd[1:])}")
    print("   pytrec_eval: parse_run + parse_qrel + evaluate(ndcg, ndcg_cut.10) + json.dump")
    for name in times:
        print(f"   {name:<12} wall {statistics.median(times[name]):6.2f} s (median; "
              f"{min(times[name]):.2f}-{max(times[name]):.2f})   "
              f"peak RSS {max(rss[name]):7.1f} MB")
    t = statistics.median(times["ours"]) / statistics.median(times["pytrec_eval"])
    m = max(rss["ours"]) / max(rss["pytrec_eval"])
    print(f"   ratio ours/pytrec_eval: time {t:.2f}, memory {m:.2f}")


def check_agreement(ours: dict, peer: dict) -> None:  # type: ignore[type-arg]
    """Same queries and the same means (1e-9) as pytrec_eval."""
    assert len(ours["queries"]) == len(peer)
    for s in ours["summary"]:
        name = "ndcg" if s["k"] is None else f"ndcg_cut_{s['k']}"
        theirs = float(np.mean([v[name] for v in peer.values()]))
        assert abs(s["mean"] - theirs) <= 1e-9, (name, s["mean"], theirs)


def in_memory(n_queries: int, n_candidates: int, repeat: int) -> None:
    from sklearn.metrics import ndcg_score

    from core.analysis.aggregate import summarize
    from core.engine.evaluation import evaluate
    from core.model.document import Document
    from core.model.presets import preset

    rng = np.random.default_rng(1)
    y_true = rng.choice(4, (n_queries, n_candidates), p=[0.55, 0.25, 0.13, 0.07]).astype(float)
    y_score = rng.integers(0, 20, (n_queries, n_candidates)).astype(float)  # ~50 per tie group
    start = time.perf_counter()
    doc = Document.from_columns(
        query=np.repeat([f"q{i}" for i in range(n_queries)], n_candidates).tolist(),
        source_id=np.tile([f"c{j}" for j in range(n_candidates)], n_queries).astype(object),
        score=y_score.ravel(), grade=y_true.ravel(),
    )
    build = time.perf_counter() - start
    conv = preset("sklearn", cutoffs=(10,))
    ours_t, peer_t = [], []
    for _ in range(repeat):
        start = time.perf_counter()
        mean = summarize(evaluate(doc, conv))[0].mean
        ours_t.append(time.perf_counter() - start)
        start = time.perf_counter()
        theirs = ndcg_score(y_true, y_score, k=10, ignore_ties=False)
        peer_t.append(time.perf_counter() - start)
    assert mean is not None
    assert abs(mean - theirs) <= 1e-9, (mean, theirs)
    o, p = statistics.median(ours_t), statistics.median(peer_t)
    print(f"2. in memory, {n_queries} x {n_candidates} candidates, ties averaged, k=10 "
          f"(mean {mean:.6f} both)")
    print(f"   ours (evaluate + summarize)        {o:6.2f} s (median of {repeat}); "
          f"building the Document {build:.2f} s once")
    print(f"   sklearn ndcg_score(ignore_ties=False) {p:6.2f} s")
    print(f"   ratio ours/sklearn: time {o / p:.2f}")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--data", type=Path, default=HERE / "data")
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--skip-processes", action="store_true")
    args = p.parse_args()
    run, qrels = args.data / "run.txt", args.data / "qrels.txt"
    if not args.skip_processes:
        if not run.exists():
            raise SystemExit(f"{run} is missing: run python benchmarks/make_data.py first")
        processes(run, qrels, args.repeat)
    in_memory(2000, 1000, args.repeat)


if __name__ == "__main__":
    main()
