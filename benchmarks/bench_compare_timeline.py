"""The timeline of one ``compare`` command: each phase's wall span, its
thread's own CPU and the process's RSS at its end, on every thread.

Each step of the command (the reading, the joins, the evaluations, the
pieces of :func:`core.analysis.compare.compare` on its two lanes, the table)
is wrapped where the command calls it; one command then runs in this process
and the steps are printed in the order they started, a thread a column
(``T1`` is the main thread). What runs on one core while the other idles
shows as a stretch of wall with one thread's step alone.

Run: ``python benchmarks/bench_compare_timeline.py A B --qrels Q --preset
trec_eval --k 10 --k all --resamples 10000`` (any ``compare`` arguments;
bench_compare.py's ``--data`` folder holds two such runs). For two free cores
on a shared machine, start it in a session of its own whose autogroup is set
to nice -20 (docs/benchmarks.md, h37read and h39cmp)."""

from __future__ import annotations

import functools
import os
import sys
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

T0 = time.perf_counter()
C0 = time.process_time()

import app.cli.compare as command  # noqa: E402
import app.cli.main as cli  # noqa: E402
import core.analysis.compare.align as align  # noqa: E402
import core.analysis.compare.comparison as comparison  # noqa: E402
import core.io.pairs as pairs  # noqa: E402
import core.io.trec.alloc as alloc  # noqa: E402

#: (step, thread, start, end, thread CPU, RSS MiB at its end)
STEPS: list[tuple[str, str, float, float, float, float]] = []
#: Where the command calls each step: (module or class, names).
WRAPPED: list[tuple[Any, tuple[str, ...]]] = [
    (pairs, ("_judged_run",)),
    (alloc, ("hand_back",)),
    (command, ("evaluate_named", "compare", "print_comparison", "read_judged_pair")),
    (comparison, ("align_queries", "_side", "tie_facts", "keyed_rows", "_align",
                  "candidate_partners", "moves_at_a", "_statistics",
                  "resampling", "tie_sensitivity", "_after_matching", "_b_side",
                  "moves_at_b", "changes_but_order")),
    (comparison.Comparison, ("movement_counts", "query_deltas", "inventory")),
    (align.Matching, ("work",)),
]


def rss() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def wrap(owner: Any, name: str, label: str) -> None:
    step = getattr(owner, name)

    @functools.wraps(step)
    def timed(*args: Any, **kwargs: Any) -> Any:
        start, cpu = time.perf_counter(), time.thread_time()
        try:
            return step(*args, **kwargs)
        finally:
            STEPS.append((label, threading.current_thread().name, start - T0,
                          time.perf_counter() - T0, time.thread_time() - cpu, rss()))

    setattr(owner, name, timed)


def main() -> int:
    STEPS.append(("imports", "MainThread", 0.0, time.perf_counter() - T0,
                  time.process_time() - C0, rss()))
    wrap(pairs.QrelsColumns, "__init__", "QrelsColumns")
    wrap(pairs.Run, "__init__", "Run")
    for owner, names in WRAPPED:
        for name in names:
            wrap(owner, name, name)
    start, cpu = time.perf_counter(), time.process_time()
    with open(os.devnull, "w") as out:
        status = cli.main(["compare", *sys.argv[1:]], out=out)
    STEPS.append(("the command", "MainThread", start - T0, time.perf_counter() - T0,
                  time.process_time() - cpu, rss()))
    lanes: dict[str, str] = {}
    print("lane   start     end    wall     CPU   RSS MiB  step")
    for label, thread, t0, t1, used, mib in sorted(STEPS, key=lambda s: s[2]):
        lane = lanes.setdefault(thread, f"T{len(lanes) + 1}")
        print(f"{lane:4} {t0:7.3f} {t1:7.3f} {t1 - t0:7.3f} {used:7.3f} {mib:8.0f}  {label}")
    print(f"process: {time.process_time() - C0:.3f} s CPU in {time.perf_counter() - T0:.3f} s")
    return status


if __name__ == "__main__":
    raise SystemExit(main())
