"""Time ``compare`` of two runs against ``evaluate`` of one of them.

Two TREC runs of Q queries x C candidates each (default 2,000 x 1,000) share
one qrels file (J judged sources per query, grades 0-3). Run B re-scores A's
candidates with noise and swaps a tenth of them for sources A did not
retrieve; scores are floats rounded to 4 decimals, so some queries hold tied
scores (the tie-rule check re-evaluates those).

The target (compare within 2x of evaluate) is measured as a user meets it:
``N`` turns (``--processes N``, default 7) of the two commands, each a fresh
process reading the files and printing its table to a file,

- ``ndcg-worksheet evaluate A --qrels Q --preset trec_eval --k 10 --k all``
- ``ndcg-worksheet compare A B --qrels Q ... --resamples 10000``

alternating, so that other work on the machine weighs on both alike; each
turn's ratio and their median are printed, and the exit status is 1 when the
median is over 2. Then, for information, the same in memory (both documents
read once, outside the timings; best of ``--repeat``):

- ``evaluate(doc_a, conventions)``
- ``compare(doc_a, doc_b, conventions, resamples=N)`` (both evaluations, the
  alignment, the randomization test, the bootstrap, the tie-rule check and
  what changed).

Memory (``--layouts N``, default 8; 0 skips it): issue 36 asks compare's
peak memory within 1.5x one evaluate's. A single process's peak RSS is not
a figure that holds: where glibc's heap places the large numpy blocks moves
it by up to ~20 MB with no change of the code (the path the ``.pyc`` files were
compiled at is enough), a ratio by ~0.05. So each command (evaluate and
compare, trec_eval preset and default conventions, the commands above with
``--format table``) runs once in each of N copies of the tree compiled at
paths of different lengths (:mod:`peak_memory`): the peak RSS's median and
range over the layouts, the ratio of the medians and the median of the
layouts' ratios; and, in one more turn under ``tracemalloc``, the peak of
the bytes Python and numpy hold at once, which no layout moves (the same
code at other paths: within 0.01 MB; 8 MiB held more: +7.9-8.4 MB). The
RSS medians of the same code over sets of 8 layouts stay within ~4 MB
(evaluate's trec_eval-preset peak is two-valued, ~193.6 or 203-210 MB: its
median read 201.7 in one set of six). The ratio that answers the target
is the RSS medians'; the in-use one says whether a change lowered what the
code needs (RSS carries ~40 MB of the interpreter's and libraries' own on
both sides, so the in-use ratio reads higher).

Run: ``python benchmarks/bench_compare.py`` (``--queries 200`` for a quick
look; ``--processes 0`` for the in-memory part only). ``--data DIR`` keeps the
generated files there (and reuses them).
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import peak_memory

from core.analysis.compare import compare
from core.engine.evaluation import evaluate
from core.io.trec import Run, document_from_trec
from core.model.presets import preset


def write_files(folder: Path, nq: int, nc: int, judged: int, seed: int) -> tuple[Path, Path, Path]:
    rng = np.random.default_rng(seed)
    qrels, run_a, run_b = folder / "qrels.txt", folder / "a.txt", folder / "b.txt"
    pool = 3 * nc
    with open(qrels, "w") as fq, open(run_a, "w") as fa, open(run_b, "w") as fb:
        for q in range(nq):
            docs = rng.choice(pool, size=nc + nc // 10, replace=False)
            judged_docs = rng.choice(docs, size=judged, replace=False)
            grades = rng.integers(0, 4, size=judged)
            fq.writelines(f"q{q} 0 d{d} {g}\n" for d, g in zip(judged_docs, grades, strict=True))
            a_docs = docs[:nc]
            a_scores = np.round(np.sort(rng.random(nc))[::-1] * 100, 4)
            fa.writelines(
                f"q{q} Q0 d{d} {r} {float(s)!r} a\n"
                for r, (d, s) in enumerate(zip(a_docs, a_scores, strict=True), 1)
            )
            b_docs = docs[nc // 10:]
            b_scores = np.round(
                np.concatenate([a_scores[nc // 10:], rng.random(nc // 10) * 100])
                + rng.normal(0, 5, nc), 4,
            )
            order = np.argsort(-b_scores, kind="stable")
            fb.writelines(
                f"q{q} Q0 d{b_docs[i]} {r} {float(b_scores[i])!r} b\n"
                for r, i in enumerate(order, 1)
            )
    return run_a, run_b, qrels


def best(fn: object, repeat: int) -> tuple[float, float]:
    """Best wall time and best CPU time (all threads) of ``repeat`` runs."""
    wall, cpu = [], []
    for _ in range(repeat):
        t, c = time.perf_counter(), time.process_time()
        fn()  # type: ignore[operator]
        wall.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
    return min(wall), min(cpu)


def processes(folder: Path, turns: int, preset: str, resamples: int) -> float:
    """Turns of the two commands as fresh processes; prints the ratios."""
    # The entry point's module, run by this interpreter (a version manager's
    # shim in front of ``ndcg-worksheet`` would add its own start-up to both).
    command = [sys.executable, "-m", "app.launcher"]
    common = ["--qrels", str(folder / "qrels.txt"), "--preset", preset, "--k", "10", "--k", "all"]
    evaluate_cmd = [*command, "evaluate", str(folder / "a.txt"), *common]
    compare_cmd = [*command, "compare", str(folder / "a.txt"), str(folder / "b.txt"), *common,
                   "--resamples", str(resamples)]

    def run(cmd: list[str]) -> tuple[float, float]:
        """Wall time and CPU time (user + system, all threads) of one run."""
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        with open(folder / "out.txt", "w") as out:
            t = time.perf_counter()
            subprocess.run(cmd, stdout=out, check=True)
            wall = time.perf_counter() - t
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
        return wall, cpu

    run(evaluate_cmd)  # warm the page cache
    ratios, cpu_ratios = [], []
    for turn in range(turns):
        (t_eval, c_eval), (t_cmp, c_cmp) = run(evaluate_cmd), run(compare_cmd)
        ratios.append(t_cmp / t_eval)
        cpu_ratios.append(c_cmp / c_eval)
        print(f"turn {turn + 1}: evaluate {t_eval:.2f} s ({c_eval:.2f} s CPU), compare "
              f"{t_cmp:.2f} s ({c_cmp:.2f} s CPU), ratio {t_cmp / t_eval:.2f} "
              f"(CPU {c_cmp / c_eval:.2f})")
    median = statistics.median(ratios)
    print(f"median ratio compare / evaluate (whole processes): {median:.2f} "
          f"wall, {statistics.median(cpu_ratios):.2f} CPU (target <= 1.3, issue 36)")
    return median


def memory(folder: Path, count: int, resamples: int) -> None:
    """The memory part: evaluate and compare over ``count`` layouts, both
    presets (:func:`peak_memory.part`)."""
    common = ["--qrels", str(folder / "qrels.txt"), "--k", "10", "--k", "all"]
    commands, ratios = {}, []
    for name, conv in (("trec_eval", ["--preset", "trec_eval"]), ("defaults", [])):
        commands[f"evaluate {name}"] = ["evaluate", str(folder / "a.txt"), *common, *conv]
        commands[f"compare {name}"] = ["compare", str(folder / "a.txt"), str(folder / "b.txt"),
                                       *common, *conv, "--resamples", str(resamples)]
        ratios.append((f"compare {name}", f"evaluate {name}"))
    print(f"memory: each command once in each of {count} layouts (target: compare within 1.5x "
          "evaluate, issue 36)")
    peak_memory.part(commands, count, ratios=ratios)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--queries", type=int, default=2000)
    p.add_argument("--candidates", type=int, default=1000)
    p.add_argument("--judged", type=int, default=200)
    p.add_argument("--resamples", type=int, default=10000)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--preset", default="trec_eval")
    p.add_argument("--processes", type=int, default=7, metavar="N",
                   help="turns of the two commands as processes (0: in memory only)")
    p.add_argument("--layouts", type=int, default=8, metavar="N",
                   help="the memory part's layouts (0: no memory part)")
    p.add_argument("--data", type=Path, help="keep (and reuse) the generated files here")
    args = p.parse_args()
    conv = preset(args.preset, cutoffs=(10, None))
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.data or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        t = time.perf_counter()
        ra, rb, qr = folder / "a.txt", folder / "b.txt", folder / "qrels.txt"
        if args.data is None or not rb.exists():
            write_files(folder, args.queries, args.candidates, args.judged, 1)
        median = (processes(folder, args.processes, args.preset, args.resamples)
                  if args.processes else 0.0)
        if args.layouts:
            memory(folder, args.layouts, args.resamples)
        doc_a = document_from_trec(Run(ra), qr)
        doc_b = document_from_trec(Run(rb), qr)
        setup = time.perf_counter() - t
    print(f"{args.queries} queries x {args.candidates} candidates per run "
          f"({len(doc_a)} and {len(doc_b)} rows with the judged-not-retrieved), "
          f"{args.judged} judged per query; preset {args.preset}, cutoffs 10 and all; "
          f"set-up {setup:.1f} s")
    evaluate(doc_a, conv)  # warm-up
    t_eval, c_eval = best(lambda: evaluate(doc_a, conv), args.repeat)
    result = compare(doc_a, doc_b, conv, resamples=args.resamples)
    t_cmp, c_cmp = best(
        lambda: compare(doc_a, doc_b, conv, resamples=args.resamples), args.repeat
    )
    ties = result.ties[0]
    print(f"queries with tied scores: {ties.with_ties}; "
          f"randomization: {result.tests[0].method}, {result.tests[0].resamples} sign vectors")
    print(f"evaluate(A):            {t_eval:.3f} s wall, {c_eval:.3f} s CPU "
          f"(best of {args.repeat})")
    print(f"compare(A, B, N={args.resamples}): {t_cmp:.3f} s wall, {c_cmp:.3f} s CPU "
          f"(best of {args.repeat})")
    print(f"ratio compare / evaluate in memory: {t_cmp / t_eval:.2f} wall, "
          f"{c_cmp / c_eval:.2f} CPU")
    return 0 if median <= 2.0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
