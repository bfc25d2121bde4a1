"""Our TREC run reader against pyarrow's CSV reader with the same checks
(issue 27, item 1: "where pyarrow's readers beat ours on TREC or CSV text,
use them").

Writes a TREC run of ``--queries`` x 1,000 lines (unique URL-like ids,
scores with 3 decimals so ties, one space between fields: the shape
pyarrow's reader can take at all; several spaces or tabs, which TREC
allows, it cannot), then times in turns:

- ``core.io.trec.read.read_run`` (our grammar of numbers, every check, the
  ids as the engine keeps them);
- ``pyarrow.csv.read_csv`` with every field as text, then what our reader
  checks at the least: scores cast to numbers and finite, no empty id, one
  row per (query, source). pyarrow's number grammar is not ours (``1_0``,
  ``nan``) and its ids are not yet the engine's: a floor of what a pyarrow
  path would cost, not its whole cost.

Prints the medians and their ratio (pyarrow / ours: above 1, ours is faster).

    python benchmarks/bench_trec_pyarrow.py [--queries 1000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pcsv

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.io.trec.read import read_run

PER_QUERY = 1000


def write_run(path: Path, queries: int) -> None:
    rng = np.random.default_rng(queries)
    with open(path, "w") as fh:
        for q in range(queries):
            score = np.round(rng.random(PER_QUERY), 3)
            fh.write("".join(
                f"q{q} Q0 https://www{q % 97}.example.com/doc/{q * PER_QUERY + i} {i + 1} "
                f"{score[i]} run1\n" for i in range(PER_QUERY)))


def arrow_checked(path: Path) -> pa.Table:
    names = ["query", "q0", "source", "rank", "score", "tag"]
    table = pcsv.read_csv(
        path, read_options=pcsv.ReadOptions(column_names=names),
        parse_options=pcsv.ParseOptions(delimiter=" "),
        convert_options=pcsv.ConvertOptions(column_types=dict.fromkeys(names, pa.string())))
    score = pc.cast(table["score"], pa.float64())
    if not pc.all(pc.is_finite(score)).as_py():
        raise ValueError("a score is not finite")
    for name in ("query", "source"):
        if pc.min(pc.utf8_length(table[name])).as_py() == 0:
            raise ValueError(f"an empty {name}")
    pair = pc.binary_join_element_wise(table["query"], table["source"], "\x00")
    if len(pc.unique(pair)) != len(pair):
        raise ValueError("a pair twice")
    return table


def timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--queries", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "run.txt"
        write_run(path, args.queries)
        ours, arrow = [], []
        for _ in range(args.repeat):  # in turns: other work weighs on both alike
            ours.append(timed(lambda: read_run(path)))
            arrow.append(timed(lambda: arrow_checked(path)))
    lines = args.queries * PER_QUERY
    print(f"{lines:,} lines, {path.name}; medians of {args.repeat}")
    print(f"ours (read_run):          {statistics.median(ours):.3f} s")
    print(f"pyarrow + checks (floor): {statistics.median(arrow):.3f} s")
    print(f"ratio pyarrow / ours: {statistics.median(arrow) / statistics.median(ours):.2f}")


if __name__ == "__main__":
    main()
