"""The numbers behind the plots, computed here so that the app only draws.

Each function returns :class:`Series` (plain tuples of floats; NaN where a
value is not determined), following the conventions of the evaluation it is
given.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from core.engine.evaluation import Evaluation, evaluate
from core.model.conventions import format_cutoff

__all__ = [
    "Series",
    "contribution_series",
    "ndcg_by_k",
    "ndcg_distribution",
    "sorted_deltas",
]


@dataclass(frozen=True)
class Series:
    """One plotted series: a name, x values and y values."""

    name: str
    x: tuple[float, ...]
    y: tuple[float, ...]


def contribution_series(ev: Evaluation, q: int, j: int = 0,
                        max_rank: int | None = None) -> tuple[Series, Series]:
    """Contribution per rank of the actual and the ideal list at cutoff ``j``
    (ranks 1 .. ``max_rank`` at most).

    The actual list's contributions are tie-averaged where the conventions say
    so; unknown gains give NaN.
    """
    k = ev.cutoffs[j]
    ranked = ev.ranked(q)
    contrib = ev.contribution_at(k)[ranked]
    ideal = ev.ideal(q)
    icontrib = ev.ideal_contribution[ideal].copy()
    irank = ev.ideal_rank[ideal]
    if k is not None:
        icontrib[irank > k] = 0.0
        keep = min(len(ranked), k)
        contrib, ranked = contrib[:keep], ranked[:keep]
        icontrib, irank = icontrib[:k], irank[:k]
    if max_rank is not None:  # both lists are in rank order
        contrib, ranked = contrib[:max_rank], ranked[:max_rank]
        icontrib, irank = icontrib[:max_rank], irank[:max_rank]
    at = f"@{format_cutoff(k)}"
    actual = Series(
        f"actual{at}", tuple(float(r) for r in ev.rank[ranked]), tuple(map(float, contrib))
    )
    best = Series(f"ideal{at}", tuple(map(float, irank)), tuple(map(float, icontrib)))
    return actual, best


def ndcg_by_k(ev: Evaluation, q: int, max_k: int | None = None) -> Series:
    """NDCG@k of query ``q`` for k = 1 .. the length of its ranked list."""
    n = int(ev.n_ranked[q])
    if max_k is not None:
        n = min(n, max_k)
    if n == 0:
        return Series("NDCG@k", (), ())
    sub = ev.doc.subset(ev.doc.members(q))
    ks = tuple(range(1, n + 1))
    curve = evaluate(sub, ev.conventions.replace(cutoffs=ks)).ndcg[0]
    return Series("NDCG@k", tuple(float(k) for k in ks), tuple(map(float, curve)))


def ndcg_distribution(ev: Evaluation, j: int = 0, bins: int = 10) -> tuple[Series, int]:
    """A histogram of the defined NDCG values at cutoff ``j`` over [0, 1].

    Returns the series (x = left bin edges, y = counts) and how many queries
    were left out because their NDCG is undefined or unresolved.
    """
    values = ev.ndcg[:, j]
    defined = values[~np.isnan(values)]
    counts, edges = np.histogram(np.clip(defined, 0.0, 1.0), bins=bins, range=(0.0, 1.0))
    name = f"NDCG@{format_cutoff(ev.cutoffs[j])}"
    series = Series(name, tuple(map(float, edges[:-1])), tuple(float(c) for c in counts))
    return series, int(values.size - defined.size)


def sorted_deltas(
    queries: Sequence[str], deltas: Sequence[float]
) -> tuple[Series, tuple[str, ...]]:
    """Per-query deltas sorted from the largest loss to the largest gain
    (undetermined deltas dropped); also returns the queries in that order."""
    d = np.asarray(deltas, dtype=np.float64)
    keep = np.flatnonzero(~np.isnan(d))
    order = keep[np.argsort(d[keep], kind="stable")]
    names = tuple(queries[int(i)] for i in order)
    series = Series("delta", tuple(float(x) for x in range(1, len(order) + 1)),
                    tuple(map(float, d[order])))
    return series, names
