"""Importing a 100,000-candidate annotators' workbook versus reading its cells.

Writes a wide workbook with xlsxwriter (query, doc, score, three annotators'
grades, some as text labels and marks, a note), then times

- python-calamine alone reading every cell (the floor), and
- ``import_annotations`` (safety checks, formula scan, calamine, mapping,
  labels, consensus, document),

and prints the ratio (target: at most 1.5). The two are timed in turns
(read, import, read, import, ...) so that other work on the machine weighs
on both alike; the medians of ``--repeat`` runs each and the median of the
per-turn ratios are printed.

    python benchmarks/bench_import.py [--candidates 100000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import python_calamine
import xlsxwriter

from core.io.annotator import import_annotations
from core.model.conventions import Rubric

LABELS = ["Not relevant", "Somewhat relevant", "Relevant", "Highly relevant"]


def write_workbook(path: Path, n: int) -> None:
    wb = xlsxwriter.Workbook(str(path), {"constant_memory": True})
    ws = wb.add_worksheet("Judgments")
    ws.write_row(0, 0, ["query", "docid", "score", "grade_alice", "grade_bob",
                        "grade_chen", "note"])
    per_query = 100
    for i in range(n):
        r = i + 1
        q = i // per_query
        ws.write_string(r, 0, f"q{q:05d}")
        ws.write_string(r, 1, f"doc-{i:07d}")
        ws.write_number(r, 2, 1.0 - (i % per_query) / per_query)
        ws.write_number(r, 3, (i * 7) % 4)
        if i % 10 == 0:
            ws.write_string(r, 4, LABELS[i % 4])
        elif i % 97 == 0:
            ws.write_string(r, 4, "n/a")
        else:
            ws.write_number(r, 4, (i * 5) % 4)
        if i % 3:
            ws.write_number(r, 5, (i * 3) % 4)
        if i % 50 == 0:
            ws.write_string(r, 6, "checked twice")
    wb.close()


def read_cells(path: Path) -> int:
    with python_calamine.CalamineWorkbook.from_path(str(path)) as book:
        rows = book.get_sheet_by_index(0).to_python()
    return len(rows)


def timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--candidates", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    rubric = Rubric.parse(",".join(f"{g}={label}" for g, label in enumerate(LABELS)))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "annotators.xlsx"
        start = time.perf_counter()
        write_workbook(path, args.candidates)
        written = time.perf_counter() - start
        result = import_annotations(path, rubric=rubric, consensus="median")
        assert len(result.document) == args.candidates
        assert result.document.annotators == ["alice", "bob", "chen"]
        reads, imports = [], []
        for _ in range(args.repeat):
            reads.append(timed(lambda: read_cells(path)))
            imports.append(timed(lambda: import_annotations(path, rubric=rubric,
                                                            consensus="median")))
        size = path.stat().st_size
    t_read, t_import = statistics.median(reads), statistics.median(imports)
    ratio = statistics.median(i / r for r, i in zip(reads, imports, strict=True))
    print(f"workbook: {args.candidates} candidates x 7 columns, {size / 1024**2:.1f} MiB, "
          f"written in {written:.2f} s (xlsxwriter)")
    print(f"calamine read of all cells: {t_read:.3f} s (median of {args.repeat})")
    print(f"import_annotations:         {t_import:.3f} s (median of {args.repeat})")
    print(f"ratio: {ratio:.2f} (median of the per-turn ratios; target <= 1.5)")
    return 0 if ratio <= 1.5 else 1


if __name__ == "__main__":
    raise SystemExit(main())
