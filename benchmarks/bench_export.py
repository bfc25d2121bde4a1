"""Audited workbook export vs xlsxwriter writing the same cells bare.

    python benchmarks/bench_export.py [--candidates 100000] [--repeat 3]

The audited export (``core.io.workbook.export_workbook``: engine, layout, live
formulas with cached results, formats, validation, protection, defined names,
Queries/Summary/Audit sheets, JSON metadata, atomic write) is timed against
two baselines over the same candidates:

- ``bare formulas``: xlsxwriter writing the Candidates sheet's same cells
  (the same text, numbers, formula text and cached results) in a plain loop,
  with no formats, validation, protection, names or other sheets;
- ``bare values``: xlsxwriter writing a grid of the same shape with plain
  values only (what an export without formulas would cost).

Prints medians and the ratios; the target is audited / bare formulas <= 1.5.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.engine.evaluation import evaluate
from core.io.workbook import export_workbook
from core.io.workbook.formulas import row_formulas
from core.io.workbook.values import candidate_values, row_layout
from core.model.conventions import Conventions
from core.model.document import Document


def make(n: int, per_query: int = 100, seed: int = 0) -> Document:
    rng = np.random.default_rng(seed)
    q = np.repeat(np.arange(n // per_query + 1), per_query)[:n]
    score = np.round(rng.random(n), 2)  # ties
    score[rng.random(n) < 0.05] = np.nan  # judged but not retrieved
    grade = rng.integers(0, 4, n).astype(float)
    grade[rng.random(n) < 0.02] = np.nan  # unknown
    return Document.from_columns(
        query=[f"q{x}" for x in q], source_id=[f"doc-{i}" for i in range(n)], score=score,
        grade=grade, version=["v1"] * n,
        conventions=Conventions(cutoffs=(10, None), unknown="zero"),
    )


def bare(path: Path, doc: Document, formulas: bool) -> None:
    import xlsxwriter

    ev = evaluate(doc)
    perm, blocks = row_layout(doc, ev)
    vals = candidate_values(doc, ev, perm, blocks)
    cached = {c: np.nan_to_num(v.astype(np.float64), nan=0.0).tolist()
              for c, v in zip(range(6, 27), [vals[k] for k in (
                  "judged", "rank", "rank", "gain", "discount", "contribution", "ideal rank",
                  "ideal gain", "ideal contribution", "tie group", "ranked", "ranked so far",
                  "position discount", "inventory", "judged", "gain known", "inventory gain",
                  "avg gain", "avg x discount", "avg known", "grade used")], strict=True)}
    wb = xlsxwriter.Workbook(str(path), {"constant_memory": True})
    ws = wb.add_worksheet("Candidates")
    qids = doc.query_ids
    query = doc.query[perm].tolist()
    sid = doc.source_id[perm].tolist()
    score = np.nan_to_num(doc.score[perm]).tolist()
    grade = np.nan_to_num(doc.grade[perm]).tolist()
    block_of = np.repeat(np.arange(len(blocks)), [hi - lo for lo, hi in blocks]).tolist()
    pos = vals["ideal rank"].tolist()
    for i in range(perm.size):
        r = i + 1
        ws.write_string(r, 0, qids[query[i]])
        ws.write_string(r, 1, sid[i])
        ws.write_string(r, 2, "v1")
        ws.write_number(r, 3, score[i])
        ws.write_number(r, 4, grade[i])
        ws.write_number(r, 5, grade[i])
        ws.write_string(r, 7, "")
        ws.write_number(r, 12, pos[i])
        ws.write_number(r, 15, pos[i])
        if formulas:
            lo, hi = blocks[block_of[i]]
            for col, f in row_formulas(r + 1, lo + 2, hi + 1):
                ws.write_formula(r, col, f, None, cached[col][i])
        else:
            for col in (6, 8, 9, 10, 11, 13, 14, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26):
                ws.write_number(r, col, cached[col][i])
    wb.close()


def timed(fn, repeat: int) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--candidates", type=int, default=100_000)
    p.add_argument("--repeat", type=int, default=3)
    args = p.parse_args()
    doc = make(args.candidates)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        audited = timed(lambda: export_workbook(evaluate(doc), out / "audited.xlsx"), args.repeat)
        formulas = timed(lambda: bare(out / "bare_f.xlsx", doc, True), args.repeat)
        values = timed(lambda: bare(out / "bare_v.xlsx", doc, False), args.repeat)
        size = (out / "audited.xlsx").stat().st_size
    n = args.candidates
    print(f"{n} candidates, {doc.n_queries} queries, median of {args.repeat}")
    print(f"audited export       {audited:7.2f} s  ({size / 1e6:.1f} MB)")
    print(f"bare formulas        {formulas:7.2f} s")
    print(f"bare values          {values:7.2f} s")
    print(f"ratio audited / bare formulas = {audited / formulas:.2f} (target <= 1.5)")
    print(f"ratio audited / bare values   = {audited / values:.2f}")


if __name__ == "__main__":
    main()
