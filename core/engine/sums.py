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

from core.engine.discount import block_discounts, discount, log2_block, log2_of
from core.engine.ideal import CountedLists
from core.engine.order import Blocks, block_rank, list_rank, prefixes

__all__ = ["CHUNK", "group_dcg", "sums_at_cutoffs", "sums_in_chunks", "tie_group_dcg",
           "tie_group_heads", "tie_group_numbers", "times_discount", "whole_chunks"]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


def times_discount(gain: FloatArray, rank: npt.NDArray[Any], blocks: Blocks, *,
                   divide: bool = False) -> FloatArray:
    """``gain`` (in place) times the discount of ``rank``; ranks in uniform
    ``blocks`` (:func:`core.engine.order.block_rank`) repeat one block's
    discounts. ``divide``: divided by ``log2(rank + 1)`` instead, as the
    peers of :data:`core.engine.discount.DIVIDING_PRESETS` do."""
    if blocks:
        one = log2_block(blocks[1]) if divide else block_discounts(blocks[1], rank.size)
        if one is not None:
            grid = gain.reshape(blocks)
            if divide:
                grid /= one
            else:
                grid *= one
            return gain
    # A chunk at a time: no full-length discounts beside the gains (16 MB
    # at 2M, where the trec_eval preset's engine peaked).
    edges = np.append(np.arange(0, rank.size, CHUNK), rank.size)
    for a, b in whole_chunks(edges):
        lo, hi = int(edges[a]), int(edges[b])
        if divide:
            gain[lo:hi] /= log2_of(rank[lo:hi])
        else:
            gain[lo:hi] *= discount(rank[lo:hi])
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


#: About this many positions are worked at once by the functions that take
#: whole lists a chunk at a time (:func:`whole_chunks`): the temporaries are
#: a chunk's, not the whole's (16 MB an array at 2M positions), and a chunk
#: is long enough that its discounts are its table's values, as the whole's
#: (:func:`core.engine.discount.discount`) and that numpy's calls per chunk
#: cost little.
CHUNK = 1 << 18


def whole_chunks(starts: npt.NDArray[Any], size: int = CHUNK) -> list[tuple[int, int]]:
    """Consecutive lists a chunk at a time: the first list of each chunk
    and the one after its last. ``starts``: where each list starts among
    the positions, and where the last one ends (ascending). Each chunk is
    at least ``size`` positions long but the last, which is at least half
    that unless it is the only one; a list is never split, so a sum per
    list made in its chunk is the sum made over the whole, bit for bit.

    >>> whole_chunks(np.array([0, 3, 5, 9, 10]), size=4)
    [(0, 2), (2, 4)]
    """
    n = starts.size - 1
    edges = [0]
    while edges[-1] < n:
        edges.append(min(int(np.searchsorted(starts, starts[edges[-1]] + size)), n))
    if len(edges) > 2 and starts[edges[-1]] - starts[edges[-2]] < size // 2:
        del edges[-2]
    return list(itertools.pairwise(edges))


def sums_in_chunks(gains: FloatArray | CountedLists, rank: npt.NDArray[Any] | None, blocks: Blocks,
                   starts: IntArray, cutoffs: tuple[int | None, ...], nq: int, *,
                   overwrite: bool = False, divide: bool = False) -> FloatArray:
    """:func:`sums_at_cutoffs` of ``gains`` times their discounts
    (:func:`times_discount`) of lists laid out query by query (``starts``:
    where each query's list starts, and where the last one ends), a chunk
    of whole lists at a time, so that the temporaries (the query of each
    position among them) are a chunk's. ``gains`` are left as they are
    unless ``overwrite``. Each query's terms are summed in one chunk, in
    the same order, and a chunk gives 0.0 to the queries of the others: the
    very same bits. ``rank`` None: each chunk's ranks are made from
    ``starts`` (or ``blocks``) too. ``gains`` as
    :class:`~core.engine.ideal.CountedLists`: each chunk's laid out in
    turn (and overwritten). ``divide``: as :func:`times_discount`'s."""
    out = np.zeros((nq, len(cutoffs)))
    for a, b in whole_chunks(starts):
        lo, hi = int(starts[a]), int(starts[b])
        part_blocks = ((hi - lo) // blocks[1], blocks[1]) if blocks else None
        part_rank = (rank[lo:hi] if rank is not None
                     else block_rank(*part_blocks)[0] if part_blocks
                     else list_rank(starts[a:b + 1] - lo))
        part = times_discount(gains.gains(a, b) if isinstance(gains, CountedLists)
                              else gains[lo:hi] if overwrite else gains[lo:hi].copy(),
                              part_rank, part_blocks, divide=divide)
        query = np.repeat(np.arange(a, b), np.diff(starts[a:b + 1]))
        out += sums_at_cutoffs(part, query, part_rank, part_blocks, cutoffs, nq)
    return out


def tie_group_numbers(starts: npt.NDArray[np.bool_]) -> tuple[IntArray, IntArray, IntArray]:
    """The tie group of each position (``starts``: where each group starts;
    whole groups, ascending), numbered from 0 (intp: bincount's own type),
    where each group starts and its size.

    >>> [a.tolist() for a in tie_group_numbers(np.array([True, False, True, True, False]))]
    [[0, 0, 1, 2, 2], [0, 2, 3], [2, 1, 2]]
    """
    group = np.cumsum(starts, dtype=np.intp)
    group -= 1
    return (group, *tie_group_heads(starts))


def tie_group_heads(starts: npt.NDArray[np.bool_]) -> tuple[IntArray, IntArray]:
    """Where each tie group starts (``starts``: whole groups) and its size.

    >>> [a.tolist() for a in tie_group_heads(np.array([True, False, True, True, False]))]
    [[0, 2, 3], [2, 1, 2]]
    """
    heads = np.flatnonzero(starts)
    return heads, np.diff(heads, append=starts.size)


def tie_group_dcg(gain: FloatArray, query: npt.NDArray[Any], rank: npt.NDArray[Any],
                  new_group: npt.NDArray[np.bool_],
                  cutoffs: tuple[int | None, ...], nq: int) -> FloatArray:
    """DCG per query (rows) and cutoff (columns) of ranked lists whose ties
    are averaged (``gain``, ``query``, ``rank`` of each position, ascending
    by query; where each tie group starts): DCG@k is the sum over tie
    groups of the group's gain total times the total of its positions'
    discounts up to k over its size (:func:`group_dcg`). A list whose every
    tie group holds one gain is the same list in every order of its ties:
    its DCG is the sum of its gains times their own discounts, added in
    position order as the ideal list's are (:func:`_one_gain_lists`), so
    that a perfect ranking of tied equal grades reads NDCG 1 bit for bit.

    A chunk of whole queries at a time: the per-group arrays (five of 9 MB
    at 2M candidates in 1.2M groups, where the default conventions' engine
    peaked) are a chunk's. Each group's totals and each query's sum are
    added in position order within its chunk: the very bits of one
    bincount over the whole."""
    out = np.zeros((nq, len(cutoffs)))
    starts = np.searchsorted(query, np.arange(nq + 1))
    for a, b in whole_chunks(starts):
        lo, hi = int(starts[a]), int(starts[b])
        if lo == hi:  # (no ranked position at all)
            continue
        local, heads, size = tie_group_numbers(new_group[lo:hi])
        r, g = rank[lo:hi], gain[lo:hi]
        totals = np.bincount(local, weights=g, minlength=heads.size)
        d = discount(r)
        discounts = np.bincount(local, weights=d, minlength=heads.size)
        del local
        owner = query[lo:hi][heads] - a
        plain = _one_gain_lists(g, d, new_group[lo:hi], starts[a:b] - lo, query[lo:hi] - a, r)
        for j, k in enumerate(cutoffs):
            out[a:b, j] = group_dcg(k, heads, r[heads], size, totals, owner, discounts, r,
                                    b - a)
            if plain is not None:
                lists, term, term_rank, term_query = plain
                at = term if k is None else np.where(term_rank <= k, term, 0.0)
                out[a + lists, j] = np.bincount(term_query, weights=at, minlength=b - a)[lists]
    return out


def _one_gain_lists(gain: FloatArray, disc: FloatArray, new_group: npt.NDArray[np.bool_],
                    first: IntArray, query: npt.NDArray[Any], rank: npt.NDArray[Any],
                    ) -> tuple[IntArray, FloatArray, npt.NDArray[Any], npt.NDArray[Any]] | None:
    """The lists (``first``: where each starts, numbered from 0 in
    ``query``) with a tie group of two or more whose every such group
    holds one gain (no position but a group's first has a gain other than
    the one before; NaN equals nothing), and their positions' gains times
    discounts ``disc``, ranks and lists, in position order; None when there
    is none. Each a pass over the positions reduced per list (a mask
    gathered took 1.1 ms a chunk of 2^18 positions at 1,000 a list)."""
    tied = ~new_group
    moved = np.zeros(gain.size, dtype=bool)
    np.not_equal(gain[1:], gain[:-1], out=moved[1:])
    moved &= tied
    filled = np.flatnonzero(np.diff(first, append=gain.size) > 0)  # (reduceat: no empty list)
    one = np.zeros(first.size, dtype=bool)
    one[filled] = np.logical_or.reduceat(tied, first[filled]) & ~np.logical_or.reduceat(
        moved, first[filled])
    lists = np.flatnonzero(one)
    if not lists.size:
        return None
    rows = np.flatnonzero(one[query])
    return lists, gain[rows] * disc[rows], rank[rows], query[rows]


def group_dcg(k: int | None, starts: IntArray, first_rank: npt.NDArray[Any],
               size: npt.NDArray[np.integer[Any]], gain: npt.NDArray[Any], query: npt.NDArray[Any],
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
