"""Speed and memory of ``ndcg-worksheet evaluate`` against the peers.

1. Whole processes, side by side, for each shape of source id that
   ``make_data.py`` writes (shared, unique, URL): ``python -m app.cli.main
   evaluate RUN --qrels QRELS --k 10 --k 100 --k all --format json`` with
   the trec_eval preset and with the default conventions (unknown grades
   unresolved, so every query's bounds are computed), against a pytrec_eval
   script (``parse_run`` + ``parse_qrel`` + ``ndcg`` and ``ndcg_cut.10,100``,
   results dumped as JSON). The three run in turns (pytrec_eval, ours with
   the preset, ours by default; the next turn starts with the second, and
   so on: a process right after the peer's pays for the memory it handed
   back), so all see the same state of the machine; wall time, CPU time and
   peak resident memory of each child (``os.wait4``), medians; the preset's
   means are checked against pytrec_eval's. Both sides run as installed: their bytecode compiled
   (ours into a temporary cache, whatever ``PYTHONDONTWRITEBYTECODE`` says),
   one untimed turn first.
2. In memory, same process: the engine with ties averaged (``sklearn``
   preset, k=10) against ``sklearn.metrics.ndcg_score(ignore_ties=False)``
   on a 2,000 x 1,000 matrix with many tied scores.
3. With ``--scale DIR``: ours alone on a larger run (e.g. 10,000 queries x
   1,000 from ``make_data.py --queries 10000 --ids unique --out DIR``) next
   to the 2,000-query one of the same shape, both conventions.
4. With ``--layouts N``: ours' peak memory as a figure that holds
   (:mod:`peak_memory`): part 1's commands once in each of N copies of the
   tree compiled at paths of different lengths (the heap's layout alone
   moves a process's peak RSS by up to ~17 MB here), the median and range
   of the peak RSS, and the peak of the bytes in use (``tracemalloc``),
   which no layout moves. Part 1's peak RSS is one layout's.

Usage (after ``python benchmarks/make_data.py``)::

    python benchmarks/bench_evaluate.py [--repeat 3] [--shapes shared unique url]
        [--data benchmarks/data] [--skip-memory-part] [--scale benchmarks/data/10m]
        [--layouts 8]
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
result = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg", "ndcg_cut.10,100"}).evaluate(run)
json.dump(result, sys.stdout)
"""

CUTOFFS = ["--k", "10", "--k", "100", "--k", "all"]


class Child:
    """One command, its environment and its measurements."""

    def __init__(self, name: str, argv: list[str], env: dict[str, str]) -> None:
        self.name, self.argv, self.env = name, argv, env
        self.wall: list[float] = []
        self.cpu: list[float] = []
        self.rss: list[float] = []

    def run(self, out_path: Path, *, timed: bool = True) -> None:
        with open(out_path, "w") as out:
            start = time.perf_counter()
            proc = subprocess.Popen(self.argv, stdout=out, cwd=REPO, env=self.env)
            _, status, usage = os.wait4(proc.pid, 0)
            wall = time.perf_counter() - start
        if os.waitstatus_to_exitcode(status):
            raise SystemExit(f"{self.name} failed with status {os.waitstatus_to_exitcode(status)}")
        if timed:
            self.wall.append(wall)
            self.cpu.append(usage.ru_utime + usage.ru_stime)
            self.rss.append(usage.ru_maxrss / 1024)  # Linux reports KiB

    def line(self) -> str:
        w = self.wall
        return (f"   {self.name:<22} wall {statistics.median(w):6.2f} s ({min(w):.2f}-"
                f"{max(w):.2f})  cpu {statistics.median(self.cpu):6.2f} s  "
                f"peak RSS {max(self.rss):7.1f} MB")


def environments(tmp: Path) -> tuple[dict[str, str], dict[str, str]]:
    """(ours, peer): ours with its bytecode compiled into ``tmp`` (as an
    installed package has it), the peer as it is installed."""
    ours = dict(os.environ, PYTHONPYCACHEPREFIX=str(tmp / "pycache"))
    ours.pop("PYTHONDONTWRITEBYTECODE", None)
    subprocess.run([sys.executable, "-m", "compileall", "-q", "app", "core"], cwd=REPO,
                   env=ours, check=True)
    return ours, dict(os.environ)


def processes(data: Path, shape: str, repeat: int) -> dict[str, float]:
    """Part 1 for one shape; returns the ratios."""
    run, qrels = data / shape / "run.txt", data / shape / "qrels.txt"
    if not run.exists():
        raise SystemExit(f"{run} is missing: run python benchmarks/make_data.py first")
    ours_cmd = [sys.executable, "-m", "app.cli.main", "evaluate", str(run), "--qrels", str(qrels),
                *CUTOFFS, "--format", "json"]
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        env, peer_env = environments(tmp)
        script = tmp / "pytrec_bench.py"
        script.write_text(PYTREC_SCRIPT)
        children = [
            Child("pytrec_eval", [sys.executable, str(script), str(run), str(qrels)], peer_env),
            Child("ours --preset trec_eval", [*ours_cmd, "--preset", "trec_eval"], env),
            Child("ours (default)", ours_cmd, env),
        ]
        outs = [tmp / f"out{i}.json" for i in range(len(children))]
        for child, out in zip(children, outs, strict=True):
            child.run(out, timed=False)
        # In turns, so all see the same machine state, each turn starting one
        # further along: whichever runs right after the peer's exit pays
        # (on this VM) for faulting in the memory it handed back, so no
        # command may always follow the same one.
        pairs = list(zip(children, outs, strict=True))
        for turn in range(repeat):
            for child, out in pairs[turn % len(pairs):] + pairs[:turn % len(pairs)]:
                child.run(out)
        peer = json.loads(outs[0].read_text())
        check_agreement(json.loads(outs[1].read_text()), peer)
        default = json.loads(outs[2].read_text())
    size = run.stat().st_size / 1e6
    print(f"1. whole process, {shape} ids ({run.parent.name}/run.txt, {size:.0f} MB), "
          f"{repeat} turns; {len(peer)} queries, default: "
          f"{sum(s['excluded'].get('unresolved', 0) for s in default['summary'][:1])} unresolved")
    ratios: dict[str, float] = {}
    for child in children:
        print(child.line())
    p = children[0]
    for child in children[1:]:
        t = statistics.median(child.wall) / statistics.median(p.wall)
        c = statistics.median(child.cpu) / statistics.median(p.cpu)
        m = max(child.rss) / max(p.rss)
        ratios[child.name] = t
        print(f"   ratio {child.name} / pytrec_eval: wall {t:.2f}, cpu {c:.2f}, memory {m:.2f}")
    return ratios


def check_agreement(ours: dict, peer: dict) -> None:  # type: ignore[type-arg]
    """Same queries and the same means (1e-9) as pytrec_eval."""
    assert len(ours["queries"]) == len(peer)
    for s in ours["summary"]:
        name = "ndcg" if s["k"] is None else f"ndcg_cut_{s['k']}"
        theirs = float(np.mean([v[name] for v in peer.values()]))
        assert abs(s["mean"] - theirs) <= 1e-9, (name, s["mean"], theirs)


def scale(data: Path, big: Path, shape: str, repeat: int) -> None:
    """Part 3: ours on the larger run next to the 2,000-query one."""
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        env, _ = environments(tmp)
        for label, conv in (("--preset trec_eval", ["--preset", "trec_eval"]),
                            ("default", [])):
            children = []
            for where in (data / shape, big):
                run, qrels = where / "run.txt", where / "qrels.txt"
                with open(run, "rb") as f:
                    lines = sum(1 for _ in f)
                children.append(Child(
                    f"{lines / 1e6:.0f}M candidates",
                    [sys.executable, "-m", "app.cli.main", "evaluate", str(run), "--qrels",
                     str(qrels), *CUTOFFS, *conv, "--format", "json"], env))
            out = tmp / "out.json"
            for _ in range(repeat):
                for child in children:
                    child.run(out)
            print(f"3. scale, {shape} ids, {label}, {repeat} turns")
            for child in children:
                print(child.line())
            small, large = children
            wall = statistics.median(large.wall) / statistics.median(small.wall)
            cpu = statistics.median(large.cpu) / statistics.median(small.cpu)
            print(f"   ratio: wall {wall:.2f}, cpu {cpu:.2f}; peak {max(large.rss) / 1024:.2f} GiB")


def layouts(data: Path, shape: str, count: int) -> None:
    """Part 4: ours' peak memory over ``count`` layouts, both conventions."""
    import peak_memory

    run, qrels = data / shape / "run.txt", data / shape / "qrels.txt"
    args = ["evaluate", str(run), "--qrels", str(qrels), *CUTOFFS, "--format", "json"]
    print(f"4. peak memory over {count} layouts, {shape} ids")
    peak_memory.part({"ours --preset trec_eval": [*args, "--preset", "trec_eval"],
                      "ours (default)": args}, count)


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
    p.add_argument("--shapes", nargs="+", default=["shared", "unique", "url"])
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--skip-processes", action="store_true")
    p.add_argument("--skip-memory-part", action="store_true")
    p.add_argument("--scale", type=Path, help="a larger run's folder (part 3)")
    p.add_argument("--scale-shape", default="unique")
    p.add_argument("--layouts", type=int, default=0, metavar="N",
                   help="part 4: ours' peak memory over N layouts (0: skipped)")
    args = p.parse_args()
    print(f"load average at start: {os.getloadavg()[0]:.1f}")
    if not args.skip_processes:
        for shape in args.shapes:
            processes(args.data, shape, args.repeat)
    if not args.skip_memory_part:
        in_memory(2000, 1000, args.repeat)
    if args.scale:
        scale(args.data, args.scale, args.scale_shape, args.repeat)
    if args.layouts:
        for shape in args.shapes:
            layouts(args.data, shape, args.layouts)
    print(f"load average at end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
