"""Generate the benchmark's TREC run and qrels.

The run has 2,000 queries x 1,000 retrieved candidates (2 million lines);
scores come from a coarse grid, so tied scores are common. The qrels grade
(0-3) about 30 % of the retrieved candidates per query (the rest stay
unjudged) and add 50 judged candidates per query that the run did not
retrieve.

Usage::

    python benchmarks/make_data.py [--queries 2000] [--candidates 1000] [--out benchmarks/data]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent


def make(out: Path, *, queries: int, candidates: int, seed: int = 0) -> tuple[Path, Path]:
    """Write ``run.txt`` and ``qrels.txt`` into ``out``; returns their paths."""
    rng = np.random.default_rng(seed)
    out.mkdir(parents=True, exist_ok=True)
    run_path, qrels_path = out / "run.txt", out / "qrels.txt"
    judged_share, not_retrieved = 0.3, 50
    grade_p = [0.55, 0.25, 0.13, 0.07]
    with open(run_path, "w") as run, open(qrels_path, "w") as qrels:
        for q in range(queries):
            qid = f"q{q:05d}"
            # Scores rounded to 2 decimals: many ties.
            scores = np.sort(np.round(rng.gamma(2.0, 2.0, candidates), 2))[::-1]
            docs = rng.permutation(candidates * 3)[:candidates]
            run.write("".join(
                f"{qid} Q0 D{d} {r} {s:.2f} bench\n"
                for r, (d, s) in enumerate(zip(docs.tolist(), scores.tolist(), strict=True), 1)
            ))
            judged = docs[rng.random(candidates) < judged_share]
            extra = np.setdiff1d(np.arange(candidates * 3), docs)
            extra = rng.choice(extra, not_retrieved, replace=False)
            ids = np.concatenate([judged, extra])
            grades = rng.choice(4, ids.size, p=grade_p)
            qrels.write("".join(
                f"{qid} 0 D{d} {g}\n" for d, g in zip(ids.tolist(), grades.tolist(), strict=True)
            ))
    return run_path, qrels_path


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--queries", type=int, default=2000)
    p.add_argument("--candidates", type=int, default=1000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", type=Path, default=HERE / "data")
    args = p.parse_args()
    run, qrels = make(args.out, queries=args.queries, candidates=args.candidates, seed=args.seed)
    print(f"wrote {run} ({run.stat().st_size / 1e6:.0f} MB) and {qrels}")


if __name__ == "__main__":
    main()
