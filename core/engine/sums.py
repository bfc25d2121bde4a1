"""Per-query sums at each cutoff, in position order: the DCG and ideal DCG
of lists laid out query by query (:mod:`core.engine.order`), each term
added in the order :func:`numpy.bincount` adds it, so that every way of
working a sum out (2-D running sums of lists of one length, tie groups'
totals, blocks of whole queries) gives the very same bits.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import numpy.typing as npt

from core.engine.discount import block_discounts, discount
from core.engine.order import Blocks, prefixes

__all__ = ["group_dcg", "group_discounts", "sums_at_cutoffs", "sums_in_chunks",
           "times_discount"]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


def times_discount(gain: FloatArray, rank: npt.NDArray[Any], blocks: Blocks) -> FloatArray:
    """``gain`` (in place) times the discount of ``rank``; ranks in uniform
    ``blocks`` (:func:`core.engine.order.block_rank`) repeat one block's
    discounts."""
    one = block_discounts(blocks[1], rank.size) if blocks else None
    if one is None or not blocks:
        # A chunk at a time: no full-length discounts beside the gains (16 MB
        # at 2M, where the trec_eval preset's engine peaked); each chunk's
        # discounts are the whole's (a table's values, each chunk being long).
        edges = _chunk_edges(np.arange(0, rank.size, CHUNK), rank.size)
        for lo, hi in itertools.pairwise(edges):
            gain[lo:hi] *= discount(rank[lo:hi])
    else:
        grid = gain.reshape(blocks)
        grid *= one
    return gain


def sums_at_cutoffs(values: FloatArray, query: npt.NDArray[Any], rank: npt.NDArray[Any],
                     blocks: Blocks, cutoffs: tuple[int | None, ...], nq: int) -> FloatArray:
    """Per query (rows) and cutoff (columns): the sum of ``values`` at ranks
    up to the cutoff, each added in position order to 0.0 (as
    :func:`numpy.bincount` adds). Lists in uniform blocks take running sums
    of their rows (``values`` is overwritten): the same additions in the
    same order."""
    out = np.zeros((nq, len(cutoffs)))
    if blocks:
        rows, m = blocks
        with np.errstate(over="ignore", invalid="ignore"):  # as bincount: check_totals says
            running = np.cumsum(values.reshape(rows, m), axis=1, out=values.reshape(rows, m))
        at = query[::m]  # (queries in ascending order, one block each)
        for j, k in enumerate(cutoffs):
            out[at, j] = running[:, (m if k is None else min(k, m)) - 1]
        # A running sum starts at its first value, bincount at 0.0: the
        # same number, but 0.0 where only -0.0 were added.
        out += 0.0
        return out
    for j, k in enumerate(cutoffs):
        keep = rank <= k if k is not None else None
        out[:, j] = np.bincount(query if keep is None else query[keep],
                                weights=values if keep is None else values[keep], minlength=nq)
    return out


def group_dcg(k: int | None, starts: IntArray, first_rank: npt.NDArray[Any],
               size: IntArray, gain: npt.NDArray[Any], query: npt.NDArray[Any],
               disc_all: npt.NDArray[Any], rank: npt.NDArray[Any], nq: int) -> FloatArray:
    """DCG@k per query from tie groups (their first positions ``starts`` and
    ranks, sizes, gain totals, queries and discount totals; ``rank``: each
    position's): groups wholly
    within k take their discount total, the one group per query that k cuts
    the sum of its positions up to k (in position order, as the totals), the
    groups after k nothing; only the groups that start within k are summed."""
    if k is None:
        disc = disc_all
    else:
        within = np.flatnonzero(first_rank <= k)
        disc = disc_all[within]
        cut = np.flatnonzero(first_rank[within] + size[within] - 1 > k)
        if cut.size:
            disc = disc.astype(np.float64)  # a copy
            g = within[cut]
            n = k - first_rank[g] + 1  # positions of each cut group within k
            pos = prefixes(starts[g], n)
            owner = np.repeat(np.arange(cut.size), n)
            disc[cut] = np.bincount(owner, weights=discount(rank[pos]), minlength=cut.size)
    if k is not None:  # the groups that start within k
        gain = gain[within]
        size = size[within]
        query = query[within]
    # In place: one array as long as the groups, not three.
    with np.errstate(invalid="ignore"):  # an infinite gain times a zero discount
        per_group = np.multiply(gain, disc, dtype=np.float64)
        per_group /= size
    per_group[disc <= 0] = 0.0
    sums = np.bincount(query, weights=per_group, minlength=nq)
    out: FloatArray = sums.astype(np.float64, copy=False)
    return out


#: About this many positions are multiplied and summed at once by
#: :func:`sums_in_chunks`.
CHUNK = 1 << 18


def sums_in_chunks(gains: FloatArray, query: npt.NDArray[Any], rank: npt.NDArray[Any],
                   blocks: Blocks, starts: IntArray, cutoffs: tuple[int | None, ...],
                   nq: int) -> FloatArray:
    """:func:`sums_at_cutoffs` of ``gains`` times their discounts
    (:func:`times_discount`), ``gains`` left as they are: a chunk of whole
    lists at a time (``starts``: where each query's list starts, and where
    the last one ends), so that the temporaries are a chunk's. Each query's
    terms are summed in one chunk, in the same order, and a chunk gives
    0.0 to the queries of the others: the very same bits."""
    out = np.zeros((nq, len(cutoffs)))
    for lo, hi in itertools.pairwise(_chunk_edges(starts, gains.size)):
        part_blocks = ((hi - lo) // blocks[1], blocks[1]) if blocks else None
        part = times_discount(gains[lo:hi].copy(), rank[lo:hi], part_blocks)
        out += sums_at_cutoffs(part, query[lo:hi], rank[lo:hi], part_blocks, cutoffs, nq)
    return out


def _chunk_edges(starts: IntArray, total: int) -> list[int]:
    """Where the chunks of :func:`sums_in_chunks` start, and where the last
    one ends: at the start of a list, each chunk at least :data:`CHUNK`
    positions long but the last, which is at least half that unless it is
    the only one (the discounts of a chunk are those of the whole: a table's
    values, :func:`core.engine.discount.discount`)."""
    edges = [0]
    while edges[-1] < total:
        i = int(np.searchsorted(starts, edges[-1] + CHUNK))
        edges.append(int(starts[i]) if i < starts.size else total)
    if len(edges) > 2 and edges[-1] - edges[-2] < CHUNK // 2:
        del edges[-2]
    return edges


def group_discounts(group: IntArray, starts: IntArray, rank: npt.NDArray[Any]) -> FloatArray:
    """Per tie group (``group``: each position's, numbered in order;
    ``starts``: where each one starts), the sum of its positions' discounts
    in position order, as one bincount adds them, but a chunk of whole
    groups at a time: no full-length array of discounts (16 MB at 2M
    positions, at the engine's peak under the default conventions)."""
    out = np.empty(starts.size)
    for lo, hi in itertools.pairwise(_chunk_edges(starts, group.size)):
        first, last = int(group[lo]), int(group[hi - 1])
        out[first:last + 1] = np.bincount(group[lo:hi] - first, weights=discount(rank[lo:hi]),
                                          minlength=last + 1 - first)
    return out
