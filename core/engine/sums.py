"""Per-query sums at each cutoff, in position order: the DCG and ideal DCG
of lists laid out query by query (:mod:`core.engine.order`), each term
added in the order :func:`numpy.bincount` adds it, so that every way of
working a sum out (2-D running sums of lists of one length, tie groups'
totals, blocks of whole queries) gives the very same bits.
"""

from __future__ import annotations

import itertools
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from core.engine.discount import block_discounts, discount, log2_block, log2_of, terms
from core.engine.ideal import CountedLists
from core.engine.order import Blocks, block_rank, list_rank

__all__ = ["CHUNK", "TieGroups", "group_first", "group_means", "mixed_groups", "position_terms",
           "sums_at_cutoffs", "sums_in_chunks", "tie_group_dcg", "tie_group_heads",
           "tie_group_numbers", "times_discount", "whole_chunks"]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
_V = TypeVar("_V", bound=np.generic)


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


def whole_chunks(starts: npt.NDArray[Any], size: int | None = None) -> list[tuple[int, int]]:
    """Consecutive lists a chunk at a time: the first list of each chunk
    and the one after its last. ``starts``: where each list starts among
    the positions, and where the last one ends (ascending). Each chunk is
    at least ``size`` positions long (None: :data:`CHUNK`, read when called,
    so that a test's smaller one takes effect) but the last, which is at
    least half that unless it is the only one; a list is never split, so a
    sum per list made in its chunk is the sum made over the whole, bit for
    bit.

    >>> whole_chunks(np.array([0, 3, 5, 9, 10]), size=4)
    [(0, 2), (2, 4)]
    """
    size = CHUNK if size is None else size
    n = starts.size - 1
    edges = [0]
    while edges[-1] < n:
        edges.append(min(int(np.searchsorted(starts, starts[edges[-1]] + size)), n))
    if len(edges) > 2 and starts[edges[-1]] - starts[edges[-2]] < size // 2:
        del edges[-2]
    return list(itertools.pairwise(edges))


def sums_in_chunks(gains: FloatArray | CountedLists, rank: npt.NDArray[Any] | None, blocks: Blocks,
                   starts: IntArray, cutoffs: tuple[int | None, ...], nq: int, *,
                   overwrite: bool = False, divide: bool = False,
                   unneeded: npt.NDArray[np.bool_] | None = None) -> FloatArray:
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
    turn (and overwritten). ``divide``: as :func:`times_discount`'s.
    ``unneeded``: the queries whose sums are not asked for: a chunk of
    only such queries is not summed (its queries' sums left 0.0)."""
    out = np.zeros((nq, len(cutoffs)))
    for a, b in whole_chunks(starts):
        if unneeded is not None and unneeded[a:b].all():
            continue
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


def group_first(starts: npt.NDArray[np.bool_], values: npt.NDArray[_V],
                size: int | None = None) -> npt.NDArray[_V]:
    """Each position's value at the start of its tie group (``starts``:
    whole groups, the first position one; ``values``: a value a position):
    ``np.repeat(values[heads], sizes)`` of :func:`tie_group_heads`, worked
    out ``size`` positions at a time (None: :data:`CHUNK`) with no array of
    the groups: their heads and sizes (intp) were four times the int32 ranks
    this makes, 32 MB at 2M positions in unique groups, which a comparison
    of two runs under averaged ties made on both lanes at once.

    >>> group_first(np.array([True, False, True, True, False]), np.array([1, 2, 3, 4, 5]))
    array([1, 1, 3, 4, 4])
    """
    size = CHUNK if size is None else size
    out = np.empty(starts.size, dtype=values.dtype)
    head = 0  # where the group open at the chunk's start began
    for lo in range(0, starts.size, size):
        hi = min(lo + size, starts.size)
        at = np.arange(lo, hi)
        at[~starts[lo:hi]] = head
        np.maximum.accumulate(at, out=at)
        np.take(values, at, out=out[lo:hi])
        head = int(at[-1])
    return out


def tie_group_dcg(gain: FloatArray, query: npt.NDArray[Any], rank: npt.NDArray[Any],
                  new_group: npt.NDArray[np.bool_],
                  cutoffs: tuple[int | None, ...], nq: int) -> FloatArray:
    """DCG per query (rows) and cutoff (columns) of ranked lists whose ties
    are averaged (``gain``, ``query``, ``rank`` of each position, ascending
    by query; where each tie group starts): the sum of each position's term
    (:func:`position_terms`), added in position order from 0.0, so that the
    contributions the editor shows, added down a list, end at the DCG bit
    for bit.

    A chunk of whole queries at a time: the per-position arrays (the
    terms, discounts, group numbers: 16 MB each at 2M candidates, where the
    default conventions' engine peaked) are a chunk's. Each query's terms
    are added in position order within its chunk: the very bits of one
    bincount over the whole."""
    out = np.zeros((nq, len(cutoffs)))
    starts = np.searchsorted(query, np.arange(nq + 1))
    for a, b in whole_chunks(starts):
        lo, hi = int(starts[a]), int(starts[b])
        if lo == hi:  # (no ranked position at all)
            continue
        g, r, owner, new = gain[lo:hi], rank[lo:hi], query[lo:hi] - a, new_group[lo:hi]
        # A query with an unknown gain (NaN) ranked within k has DCG@k
        # unknown whatever its other terms: only the others' terms are made
        # (whole queries, so whole tie groups; each sum as before).
        unknown = first_unknown_rank(g, r, owner, b - a)
        if unknown is not None:
            kept = unknown > min(_last(k) for k in cutoffs)
            if not kept.any():
                out[a:b] = np.nan
                continue
            if not kept.all():
                at = np.flatnonzero(kept[owner])
                g, r, owner, new = g[at], r[at], owner[at], new[at]
        groups = TieGroups.of(g, new)
        d = discount(r)  # (once for every cutoff)
        first = (r[groups.heads][groups.group] if any(k is not None for k in cutoffs)
                 else None)  # (each position's group's first rank)
        for j, k in enumerate(cutoffs):
            # Only the groups that start by k add anything: the others'
            # terms are 0.0, and a sum from 0.0 is the same without them.
            counted = None if first is None or k is None else first <= k
            if unknown is not None:
                known = (unknown > _last(k))[owner]
                counted = known if counted is None else counted & known
            if counted is None:
                t = position_terms(g, r, k, groups=groups, disc=d)
                column = np.bincount(owner, weights=t, minlength=b - a)
            else:
                at = np.flatnonzero(counted)
                t = position_terms(g[at], r[at], k, groups=groups.take(at), disc=d[at])
                column = np.bincount(owner[at], weights=t, minlength=b - a)
            out[a:b, j] = column
            if unknown is not None:
                out[a:b, j][unknown <= _last(k)] = np.nan
    return out


def _last(k: int | None) -> int:
    """The last rank cutoff ``k`` counts (None: every rank)."""
    return _NO_RANK - 1 if k is None else k


#: Above every rank (:func:`first_unknown_rank` of a list with no unknown gain).
_NO_RANK = np.iinfo(np.int64).max


def first_unknown_rank(gain: FloatArray, rank: npt.NDArray[Any], owner: npt.NDArray[Any],
                       n: int) -> IntArray | None:
    """Per list (``owner``: each position's list, 0 to ``n`` - 1, ascending,
    ranks ascending within each), the rank of its first unknown gain (NaN),
    :data:`_NO_RANK` where it has none; None where no gain is unknown.

    >>> first_unknown_rank(np.array([1.0, np.nan, np.nan, 2.0]), np.array([1, 2, 3, 1]),
    ...                    np.array([0, 0, 0, 1]), 3).tolist()[:1]
    [2]
    """
    nan = np.flatnonzero(np.isnan(gain))
    if not nan.size:
        return None
    whose = owner[nan]
    first = np.ones(nan.size, dtype=bool)
    np.not_equal(whose[1:], whose[:-1], out=first[1:])
    out = np.full(n, _NO_RANK, dtype=np.int64)
    out[whose[first]] = rank[nan[first]]
    return out


class TieGroups:
    """The tie groups of some positions (whole groups): each position's
    group (numbered from 0), where each group starts, its size, and whether
    each position's group mixes gains (:func:`mixed_groups`)."""

    __slots__ = ("group", "heads", "mixed", "size")

    def __init__(self, group: IntArray, heads: IntArray, size: IntArray,
                 mixed: npt.NDArray[np.bool_]) -> None:
        self.group, self.heads, self.size, self.mixed = group, heads, size, mixed

    def take(self, at: IntArray) -> TieGroups:
        """The groups of positions ``at`` (whole groups, ascending), numbered
        as here."""
        return TieGroups(self.group[at], self.heads, self.size, self.mixed[at])

    @classmethod
    def of(cls, gain: FloatArray, new_group: npt.NDArray[np.bool_]) -> TieGroups:
        """The groups of positions of ``gain`` (``new_group``: where each
        group starts)."""
        group, heads, size = tie_group_numbers(new_group)
        return cls(group, heads, size, mixed_groups(gain, new_group, heads)[group])


def mixed_groups(gain: FloatArray, new_group: npt.NDArray[np.bool_],
                 heads: IntArray) -> npt.NDArray[np.bool_]:
    """Whether each tie group (``heads``: where each starts; ``new_group``:
    whole groups) holds more than one gain: a position but its group's
    first has a gain other than the one before (NaN equals nothing, so a
    group with an unknown gain mixes). A group of one gain is the same list
    in every order of its ties.

    >>> mixed_groups(np.array([1.0, 1.0, 2.0, 3.0]), np.array([True, False, True, False]),
    ...              np.array([0, 2])).tolist()
    [False, True]
    """
    moved = np.zeros(gain.size, dtype=bool)
    np.not_equal(gain[1:], gain[:-1], out=moved[1:])
    moved &= ~new_group
    if not heads.size:
        return np.zeros(0, dtype=bool)
    out: npt.NDArray[np.bool_] = np.logical_or.reduceat(moved, heads)
    return out


def group_means(group: npt.NDArray[np.integer[Any]], values: FloatArray,
                size: npt.NDArray[np.integer[Any]]) -> FloatArray:
    """Each tie group's mean of ``values`` (positions numbered by ``group``,
    the groups' sizes ``size``): their sum in position order over the size.
    The mean discount up to k of a group is this, for the discount shown
    (:meth:`core.engine.evaluation.Evaluation.effective_discount`) and the
    contributions of a group of mixed gains (:func:`position_terms`) alike,
    so that such a contribution is its gain times the discount shown, bit
    for bit."""
    sums: FloatArray = np.bincount(group, weights=values, minlength=size.size).astype(
        np.float64, copy=False)
    sums /= size
    return sums


def position_terms(gain: FloatArray, rank: npt.NDArray[Any], k: int | None, *,
                   groups: TieGroups | None = None, divide: bool = False,
                   disc: FloatArray | None = None) -> FloatArray:
    """The term each position adds to DCG@k: its contribution, the one
    declared value the sums add (in position order) and the editor shows
    and adds down a list. ``gain``, 1-based ``rank`` of positions in whole
    lists (or whole tie groups, ``groups``: where ties are averaged);
    ``disc``: their discounts, when known (not written to).

    - Ties not averaged (``groups`` None): the gain times its rank's
      discount, or divided by C's ``log2(rank + 1)`` where the sums divide
      (``divide``: :func:`core.engine.discount.terms`).
    - Ties averaged: in a group of mixed gains, the gain times the group's
      mean discount up to k (the expected value over every order of the
      group); in a group of one gain, the gain times its rank's own discount
      (every order is the same list: so a perfect ranking of tied equal
      grades sums as its ideal list does, to NDCG 1 bit for bit).

    0 where the discount is 0 (past k; a tie group starting past k), whatever
    the gain (unknown gains further down do not make DCG@k unknown).

    >>> position_terms(np.array([3.0, 1.0, 1.0]), np.array([1, 2, 3]), 2).tolist()
    [3.0, 0.6309297535714575, 0.0]
    """
    d = discount(rank) if disc is None else disc
    if k is not None:
        d = np.where(rank > k, 0.0, d)
    if groups is None:
        out = terms(gain, d, rank, divide)
    else:
        d = np.where(groups.mixed, group_means(groups.group, d, groups.size)[groups.group], d)
        with np.errstate(invalid="ignore"):  # an infinite gain times a zero discount
            out = gain * d
    if k is not None:  # (every discount of a whole list is above 0)
        out[~(d > 0)] = 0.0
    return out
