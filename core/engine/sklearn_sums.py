"""The sums of conventions that match the ``sklearn`` preset, in
scikit-learn's own order (``sklearn.metrics._ranking``: ``_dcg_sample_scores``
and ``_tie_averaged_dcg``), so that each query's NDCG is ``ndcg_score``'s of
that query alone, bit for bit:

- the discount is ``1 / (ln(r + 1) / ln 2)`` (numpy's ``log``), zero after k;
- a tie group's DCG is its mean gain (the gains added in position order,
  over its size) times its discount, a difference of the discounts' running
  sum; a query's DCG the numpy sum (pairwise) of its groups';
- the ideal DCG is the BLAS dot product of the discounts and the gains
  sorted best first.

A loop per query (a sum and a dot product each: their order of additions
is numpy's and the BLAS's, not one a bincount makes). scikit-learn's own
values for a query among others in one call can differ in the last bit (its
ideal DCG is then one matrix product): the one-query call is the peer here.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import numpy.typing as npt

from core.engine.sums import tie_group_numbers

__all__ = ["SKLEARN", "sklearn_dcg", "sklearn_idcg"]

FloatArray = npt.NDArray[np.float64]

#: The preset whose sums this module makes.
SKLEARN = "sklearn"


def _discount(n: int) -> FloatArray:
    """scikit-learn's discounts of ranks 1 to ``n``, worked as it works them."""
    out: FloatArray = 1 / (np.log(np.arange(n) + 2) / np.log(2))
    return out


def sklearn_dcg(gain: FloatArray, query: npt.NDArray[Any], rank: npt.NDArray[Any],
                new_group: npt.NDArray[np.bool_], cutoffs: tuple[int | None, ...],
                nq: int) -> FloatArray:
    """DCG per query and cutoff of ranked lists whose ties are averaged
    (``gain``, ``query``, 1-based ``rank`` of each position, ascending by
    query; where each tie group starts), as ``_tie_averaged_dcg``."""
    out = np.zeros((nq, len(cutoffs)))
    if gain.size == 0:
        return out
    group, heads, size = tie_group_numbers(new_group)
    mean = np.bincount(group, weights=gain, minlength=heads.size) / size
    end = rank[heads] - 1 + size - 1  # (each group's last position, 0-based)
    first = rank[heads] == 1
    running = np.cumsum(_discount(int(rank.max())))
    bounds = np.searchsorted(query[heads], np.arange(nq + 1))
    for j, k in enumerate(cutoffs):
        at = running[end if k is None else np.minimum(end, k - 1)]
        disc = at.copy()
        disc[1:] -= at[:-1]
        disc[first] = at[first]
        per_group = mean * disc
        out[:, j] = [per_group[a:b].sum() for a, b in itertools.pairwise(bounds)]
    return out


def sklearn_idcg(gain: FloatArray, starts: npt.NDArray[Any], cutoffs: tuple[int | None, ...],
                 nq: int) -> FloatArray:
    """Ideal DCG per query and cutoff of the ideal lists (``gain`` best first,
    query by query; ``starts``: where each list starts, and where the last
    one ends), as ``discount.dot(ranked.T)``."""
    out = np.zeros((nq, len(cutoffs)))
    every = _discount(int(np.diff(starts).max(initial=0)))
    spans = list(itertools.pairwise(starts.tolist()))
    for j, k in enumerate(cutoffs):
        disc = every.copy()
        if k is not None:
            disc[k:] = 0
        out[:, j] = [disc[:b - a].dot(gain[a:b]) for a, b in spans]
    return out
