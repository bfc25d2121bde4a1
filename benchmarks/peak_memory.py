"""A command's peak memory measured so the figure holds: over heap layouts.

A process's peak resident memory (RSS) is where glibc's heap happened to
place the large numpy blocks, not only what the code needs at once: the
same code read 190.0 or 202.2 MB for ``evaluate`` on the 2,000 x 1,000 run
depending only on the path its ``.pyc`` files were compiled at (the
``co_filename`` strings' lengths shift the heap; docs/benchmarks.md, "After
the fifth session's merges"). A single turn can therefore move a ratio by
~0.05 with no change of the code. Two figures that hold:

- **peak RSS over layouts**: the command's tree (``core``, ``app``,
  ``resources``) copied and compiled at ``count`` paths of different
  lengths, one fresh process in each; the median and the range are the
  figure, not any one turn;
- **peak in use**: the largest total of the bytes Python and numpy hold at
  once (``tracemalloc``'s peak, numpy's data included), which no layout
  moves: the code's own need. tracemalloc costs CPU and memory of its own
  (not counted in its peak), so its turns are never the RSS turns.

``hold`` (MiB, for checking the method) keeps that much allocated in small
pieces in the heap from the process's start: a known change the figures
must show as itself.

Used by ``bench_compare.py --memory`` and ``bench_evaluate.py --layouts``.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

#: Runs ``app.launcher`` with ``sys.argv[2:]``, with tracemalloc on when
#: ``NDCG_TRACE_PEAK`` is set, after holding ``sys.argv[1]`` MiB in 64 KiB
#: pieces (under glibc's mmap threshold: in the heap); the traced peak is
#: written to standard error as the last line (the command's own ending
#: runs the exit handlers, then ends the process at once).
_RUNNER = """\
import atexit, os, runpy, sys
if os.environ.get("NDCG_TRACE_PEAK"):
    import tracemalloc
    tracemalloc.start()
    def _peak():
        sys.stderr.write(f"\\nPEAK_IN_USE {tracemalloc.get_traced_memory()[1]}\\n")
        sys.stderr.flush()
    atexit.register(_peak)
_hold = [bytearray(65536) for _ in range(int(sys.argv[1]) * 16)]
sys.argv = ["app.launcher", *sys.argv[2:]]
runpy.run_module("app.launcher", run_name="__main__", alter_sys=True)
"""


@dataclass(frozen=True)
class Peaks:
    """One command's peaks: RSS in each layout, and the in-use peaks (MB,
    10^6 bytes, as ``/usr/bin/time`` counts)."""

    rss: tuple[float, ...]
    in_use: tuple[float, ...]
    cpu: tuple[float, ...]

    @property
    def rss_median(self) -> float:
        return statistics.median(self.rss)

    @property
    def in_use_median(self) -> float:
        return statistics.median(self.in_use) if self.in_use else float("nan")

    def line(self, name: str) -> str:
        text = (f"   {name:<24} peak RSS {self.rss_median:6.1f} MB median of {len(self.rss)} "
                f"layouts ({min(self.rss):.1f}-{max(self.rss):.1f}), CPU "
                f"{statistics.median(self.cpu):.2f} s")
        if self.in_use:
            text += (f"; in use {self.in_use_median:6.1f} MB "
                     f"({min(self.in_use):.1f}-{max(self.in_use):.1f})")
        return text


def layouts(root: Path, count: int, source: Path = REPO) -> list[Path]:
    """``count`` compiled copies of ``source``'s ``core``, ``app`` and
    ``resources`` under ``root``, each at a path of another length (made
    once: kept and reused when present)."""
    trees = []
    for i in range(count):
        tree = root / ("t" + "_" * (11 * i)) / "tree"
        if not (tree / "app" / "launcher.py").exists():
            if tree.exists():
                shutil.rmtree(tree)
            for name in ("core", "app", "resources"):
                shutil.copytree(source / name, tree / name, symlinks=True,
                                ignore=shutil.ignore_patterns("__pycache__"))
            env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
            subprocess.run([sys.executable, "-m", "compileall", "-q", "core", "app"], cwd=tree,
                           env=env, check=True, stdout=subprocess.DEVNULL)
        trees.append(tree)
    return trees


def _run(tree: Path, args: Sequence[str], hold: int, trace: bool,
         out: Path) -> tuple[float, float, float | None]:
    """One fresh process of the command from ``tree``: (peak RSS MB, CPU s,
    traced peak MB or None)."""
    env = {k: v for k, v in os.environ.items() if k != "NDCG_TRACE_PEAK"}
    env["PYTHONPATH"] = str(tree)
    if trace:
        env["NDCG_TRACE_PEAK"] = "1"
    with open(out, "w") as stdout, open(out.with_suffix(".err"), "w+") as stderr:
        proc = subprocess.Popen([sys.executable, "-c", _RUNNER, str(hold), *args],
                                stdout=stdout, stderr=stderr, cwd=tree, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        stderr.seek(0)
        lines = stderr.read().splitlines()
    if os.waitstatus_to_exitcode(status):
        raise SystemExit(f"{' '.join(args)} failed: {lines[-1:] or status}")
    peak = None
    if trace:
        last = lines[-1].split() if lines else []
        if last[:1] != ["PEAK_IN_USE"]:
            raise SystemExit(f"{' '.join(args)}: no traced peak on standard error")
        peak = int(last[1]) / 1e6
    return usage.ru_maxrss * 1024 / 1e6, usage.ru_utime + usage.ru_stime, peak


def measure(trees: Sequence[Path], commands: dict[str, list[str]], out: Path, *,
            traced: int = 1, hold: int = 0) -> dict[str, Peaks]:
    """Each command once in each tree, the commands alternating within a
    tree (so the machine's state weighs on all alike); then ``traced``
    turns of each under tracemalloc (in the first trees)."""
    rss: dict[str, list[float]] = {name: [] for name in commands}
    cpu: dict[str, list[float]] = {name: [] for name in commands}
    in_use: dict[str, list[float]] = {name: [] for name in commands}
    for tree in trees:
        for name, args in commands.items():
            r, c, _ = _run(tree, args, hold, False, out)
            rss[name].append(r)
            cpu[name].append(c)
    for tree in trees[:traced]:
        for name, args in commands.items():
            _, _, peak = _run(tree, args, hold, True, out)
            assert peak is not None
            in_use[name].append(peak)
    return {name: Peaks(tuple(rss[name]), tuple(in_use[name]), tuple(cpu[name]))
            for name in commands}


def ratio_line(name: str, num: Peaks, den: Peaks) -> str:
    """The ratio of two commands' peaks, RSS by layout (the median of the
    per-layout ratios and their range) and in use."""
    per = [a / b for a, b in zip(num.rss, den.rss, strict=True)]
    text = (f"   {name:<24} peak RSS {statistics.median(per):.3f}x median of the layouts' "
            f"ratios ({min(per):.3f}-{max(per):.3f}); medians {num.rss_median:.1f} / "
            f"{den.rss_median:.1f} MB = {num.rss_median / den.rss_median:.3f}x")
    if num.in_use and den.in_use:
        text += f"; in use {num.in_use_median / den.in_use_median:.3f}x"
    return text


def stamp() -> str:
    """The time and the load, for a figure's record."""
    return f"{time.strftime('%H:%M:%S', time.gmtime())} UTC, load {os.getloadavg()[0]:.1f}"


def part(commands: dict[str, list[str]], count: int, *, traced: int = 1, hold: int = 0,
         ratios: Sequence[tuple[str, str]] = ()) -> dict[str, Peaks]:
    """The commands measured over ``count`` layouts made in a temporary
    folder (``measure``), one line each and one per ``(numerator,
    denominator)`` of ``ratios``."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        trees = layouts(Path(tmp), count)
        print(f"   {count} layouts compiled; {stamp()}")
        peaks = measure(trees, commands, Path(tmp) / "out.txt", traced=traced, hold=hold)
    for name, found in peaks.items():
        print(found.line(name))
    for num, den in ratios:
        print(ratio_line(f"{num} / {den}", peaks[num], peaks[den]))
    print(f"   {stamp()}")
    return peaks
