"""Generate the benchmarks' TREC runs and qrels, in three shapes of source id.

Every shape has ``--queries`` queries x ``--candidates`` retrieved candidates;
scores come from a coarse grid (2 decimals), so tied scores are common. The
qrels grade (0-3) about 30 % of the retrieved candidates per query (the rest
stay unjudged) and add 50 judged candidates per query that the run did not
retrieve. The shapes differ in the source ids only:

- ``shared``: ``D123``; 3 x candidates ids shared by every query (the ids a
  small test collection reuses);
- ``unique``: ``q12_345``; every query's ids its own (a run over a large
  collection, MS MARCO or a TREC web track: ids rarely repeat across
  queries);
- ``url``: web addresses of 60-120 characters, with the long common prefixes
  of real ones (a few hundred hosts, sections, dated paths); each query's its
  own.

Files go to ``OUT/SHAPE/run.txt`` and ``OUT/SHAPE/qrels.txt``.

Usage::

    python benchmarks/make_data.py [--ids shared unique url] [--queries 2000]
        [--candidates 1000] [--out benchmarks/data]
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
SHAPES = ("shared", "unique", "url")

_WORDS = [
    "news", "local", "world", "sport", "business", "science", "health", "travel", "style",
    "opinion", "archive", "review", "guide", "story", "video", "photo", "analysis", "feature",
    "interview", "report", "update", "live", "climate", "energy", "market", "policy", "election",
    "court", "city", "school", "family", "food", "music", "film",
]


def _shared(q: int, d: list[int], rng: np.random.Generator) -> list[str]:
    return [f"D{x}" for x in d]


def _unique(q: int, d: list[int], rng: np.random.Generator) -> list[str]:
    return [f"q{q}_{x}" for x in d]


def url_ids(q: int, d: list[int], rng: np.random.Generator) -> list[str]:
    """Addresses of 60-120 characters: host, section, date, query, slug."""
    n = len(d)
    hosts = rng.integers(0, 400, n).tolist()
    sections = rng.integers(0, len(_WORDS), (n, 2)).tolist()
    years = rng.integers(2005, 2025, n).tolist()
    months = rng.integers(1, 13, n).tolist()
    lengths = rng.integers(60, 121, n).tolist()
    slug_words = rng.integers(0, len(_WORDS), (n, 12)).tolist()
    out = []
    for x, h, (s1, s2), y, m, length, words in zip(
        d, hosts, sections, years, months, lengths, slug_words, strict=True
    ):
        head = (f"https://www.site{h}.example.com/{_WORDS[s1]}/{_WORDS[s2]}/"
                f"{y}/{m:02d}/q{q}-{x}-")
        text = (head + "-".join(_WORDS[w] for w in words))[:max(length, len(head) + 2)]
        out.append(text[:-1] + "x" if text.endswith("-") else text)
    return out


_IDS: dict[str, Callable[[int, list[int], np.random.Generator], list[str]]] = {
    "shared": _shared, "unique": _unique, "url": url_ids,
}


def make(out: Path, *, queries: int, candidates: int, ids: str = "shared",
         seed: int = 0) -> tuple[Path, Path]:
    """Write ``run.txt`` and ``qrels.txt`` into ``out``; returns their paths."""
    rng = np.random.default_rng(seed)
    id_rng = np.random.default_rng(seed + 1)
    name = _IDS[ids]
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
            judged = docs[rng.random(candidates) < judged_share]
            extra = np.setdiff1d(np.arange(candidates * 3), docs)
            extra = rng.choice(extra, not_retrieved, replace=False)
            judged_ids = np.concatenate([judged, extra])
            grades = rng.choice(4, judged_ids.size, p=grade_p)
            text = dict(zip(np.concatenate([docs, extra]).tolist(),
                            name(q, [*docs.tolist(), *extra.tolist()], id_rng), strict=True))
            run.write("".join(
                f"{qid} Q0 {text[d]} {r} {s:.2f} bench\n"
                for r, (d, s) in enumerate(zip(docs.tolist(), scores.tolist(), strict=True), 1)
            ))
            qrels.write("".join(
                f"{qid} 0 {text[d]} {g}\n"
                for d, g in zip(judged_ids.tolist(), grades.tolist(), strict=True)
            ))
    return run_path, qrels_path


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--ids", nargs="+", choices=SHAPES, default=list(SHAPES))
    p.add_argument("--queries", type=int, default=2000)
    p.add_argument("--candidates", type=int, default=1000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", type=Path, default=HERE / "data")
    args = p.parse_args()
    for shape in args.ids:
        run, qrels = make(args.out / shape, queries=args.queries, candidates=args.candidates,
                          ids=shape, seed=args.seed)
        print(f"wrote {run} ({run.stat().st_size / 1e6:.0f} MB) and {qrels} "
              f"({qrels.stat().st_size / 1e6:.0f} MB)")


if __name__ == "__main__":
    main()
