"""Each run's values at its partner rows in the other: gathered once, then counted.

Once :mod:`~core.analysis.compare.align` has matched each candidate of A
with its partner in B (and B's with A's), B's ranks and gains are gathered
at A's rows and A's first ranks at B's (:class:`Across`, a block of rows at
a time: :func:`across_blocks`), once for every cutoff; the movement of
candidates in and out of the cut at each cutoff is counted from those
arrays (:func:`movement_counts`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from core.analysis.compare.align import (
    BoolArray,
    FloatArray,
    IntArray,
    KeyedRows,
    Matching,
    PartnerArray,
    QueryAlignment,
    QueryOfRow,
    candidate_partners,
)
from core.engine.discount import terms
from core.engine.evaluation import Evaluation
from core.engine.order import prefixes

__all__ = [
    "Across",
    "AtA",
    "across_blocks",
    "align_candidates",
    "contributions_at",
    "first_at_b",
    "gather_across",
    "gather_at_a",
    "movement_counts",
]


@dataclass
class Across:
    """Each side's values at its partner rows, gathered once for every cutoff
    (:func:`gather_across`). For A's rows: ``partner`` the partner row (-1
    where none, see ``has_b``: the partners themselves, not a copy), B's
    ``rank_b`` and ``first_b`` (first rank of the tie group), 0 without a
    partner, and ``same_gain`` (B's gain equals A's,
    or both are unknown; an unknown gain of A's counts as equal to a missing
    partner's); for B's rows A's ``first_a_at_b`` (0 without a partner).
    Rank 0: not ranked. (The gains are compared once here rather than B's
    kept: 2 MB held instead of 16 at 2M rows.)"""

    partner: PartnerArray
    has_b: BoolArray
    rank_b: PartnerArray
    first_b: PartnerArray
    same_gain: BoolArray
    first_a_at_b: PartnerArray


def gather_across(ev_a: Evaluation, ev_b: Evaluation, pa: PartnerArray, pb: PartnerArray,
                  ) -> Across:
    """Gather B's ranks and gains at A's rows (and A's first ranks at B's) through
    the partners ``pa`` (A's row -> B's) and ``pb`` (B's row -> A's)."""
    return Across(*gather_at_a(ev_a, ev_b, pa), first_at_b(ev_a, pb))


#: :class:`Across`'s fields of A's rows, in its order (:func:`gather_at_a`).
AtA = tuple[PartnerArray, BoolArray, PartnerArray, PartnerArray, BoolArray]


def gather_at_a(ev_a: Evaluation, ev_b: Evaluation, pa: PartnerArray) -> AtA:
    """:class:`Across`'s fields of A's rows (``partner`` to ``same_gain``).
    The partners are clamped to row 0 a block at a time where read (a clamped
    copy of them was 8 MB at 2M rows, kept beside them in :class:`Across`)."""
    no_a = pa < 0
    rank_b = _ranks32(ev_b.rank, pa)
    rank_b[no_a] = 0
    if ev_b.tie_first_rank is ev_b.rank:  # ties not averaged: each its own group
        first_b = rank_b
    else:
        first_b = _ranks32(ev_b.tie_first_rank, pa)
        first_b[no_a] = 0
    same_gain = np.empty(pa.size, dtype=bool)
    for part in across_blocks(pa.size):  # B's gains a block at a time
        ga, gb = ev_a.gain[part], ev_b.gain[np.maximum(pa[part], 0)]
        gb[no_a[part]] = np.nan
        same_gain[part] = (ga == gb) | (np.isnan(ga) & np.isnan(gb))
    return pa, ~no_a, rank_b, first_b, same_gain


def first_at_b(ev_a: Evaluation, pb: PartnerArray) -> PartnerArray:
    """:attr:`Across.first_a_at_b`: A's first ranks at B's rows (0 without a partner)."""
    first = _ranks32(ev_a.tie_first_rank, pb)
    first[pb < 0] = 0
    return first


def _ranks32(values: PartnerArray, rows: PartnerArray) -> PartnerArray:
    """``values[rows]`` (ranks, fewer than 2**31) as int32, a block of rows
    at a time (at 2M rows, tracemalloc: 8 MB at the peak; all rows gathered
    then narrowed 24 MB; ``np.take(..., out=int32)`` 40 MB); a row -1 (no
    partner) reads row 0."""
    out = np.empty(rows.size, dtype=np.int32)
    for part in across_blocks(rows.size):
        out[part] = values[np.maximum(rows[part], 0)]
    return out


#: Rows whose values are gathered across at once (B's ranks, gains and
#: grades at A's rows): ~2 MB temporaries where all rows' took 16 MB each.
_ACROSS = 1 << 18


def across_blocks(n: int) -> list[slice]:
    """``n`` rows in blocks of :data:`_ACROSS`."""
    return [slice(lo, min(n, lo + _ACROSS)) for lo in range(0, n, _ACROSS)]


def align_candidates(
    ev_a: Evaluation, ev_b: Evaluation, queries: QueryAlignment,
    keyed: list[KeyedRows | None] | Matching | None = None,
) -> tuple[PartnerArray, PartnerArray, Across]:
    """Match the candidates of the shared queries by source id.

    Returns each row of A's partner in B (-1: none), each row of B's partner
    in A, and the values gathered across (:func:`gather_across`). ``keyed``:
    A's and B's :func:`keyed_rows`, when the caller worked them out already
    (the list is emptied once they are used: their memory goes back before
    the gathering), or their :class:`Matching`, which the caller's thread
    may be sharing.
    """
    pa, pb = candidate_partners(ev_a, ev_b, queries, keyed)
    return pa, pb, gather_across(ev_a, ev_b, pa, pb)


def movement_counts(
    ev_a: Evaluation,
    ev_b: Evaluation,
    queries: QueryAlignment,
    across: Across,
    k: int | None,
    average: bool,
) -> dict[str, IntArray]:
    """Per shared query: how many candidates moved, were regraded, entered or
    left the cut at ``k`` (arrays aligned with ``queries.common``).

    ``average``: ties are averaged (a candidate at the same rank with the same
    gain then moved if its tie group, and so its contribution, changed).
    """
    n = len(queries.common)
    row_common_a, row_common_b = queries.row_common_a, queries.row_common_b

    def inside(first: IntArray | PartnerArray) -> BoolArray:  # ranked, its group starting by k
        out: BoolArray = first > 0
        if k is not None:
            out &= first <= k
        return out

    a_in = inside(ev_a.tie_first_rank)
    a_in &= row_common_a >= 0
    b_in = inside(across.first_b)  # A's rows whose partner is in B's cut
    both = a_in & b_in
    same_gain = across.same_gain
    same_rank = ev_a.rank == across.rank_b
    moved = both & ~same_rank
    regraded = both & same_rank & ~same_gain
    if average:
        # Same rank and gain but another contribution: its tie group changed
        # (only averaged ties share contributions), made at those rows only.
        same = both & same_rank & same_gain
        for part in across_blocks(same.size):
            rows = np.flatnonzero(same[part]) + part.start
            x_a = contributions_at(ev_a, k, rows)
            x_b = contributions_at(ev_b, k, across.partner[rows])  # (each has one)
            moved[rows[(x_a != x_b) & ~(np.isnan(x_a) & np.isnan(x_b))]] = True
    entered = inside(ev_b.tie_first_rank)
    entered &= row_common_b >= 0
    entered &= ~inside(across.first_a_at_b)
    return {
        "moved": _per_query(row_common_a, moved, n),
        "regraded": _per_query(row_common_a, regraded, n),
        "entered": _per_query(row_common_b, entered, n),
        "left": _per_query(row_common_a, a_in & ~b_in, n),
    }


def contributions_at(ev: Evaluation, k: int | None, rows: IntArray) -> FloatArray:
    """``ev.contribution_at(k)[rows]`` for ranked ``rows`` (their tie groups
    starting by ``k``), made at their tie groups' positions only: the same
    discounts summed in the same order, times the same gains. (The whole
    column of both sides was 2 x 16 MB at 2M rows, held while the table was
    counted, and its making as much again beside it.)"""
    head = np.searchsorted(ev.sorted_query, ev.doc.query[rows])
    head += ev.tie_first_rank[rows] - 1  # each row's tie group's first position
    heads, group = np.unique(head, return_inverse=True)
    size = _group_sizes(ev.tie_start, heads)
    start = np.cumsum(size) - size  # where each group's positions begin in ``at``
    # (a group's positions share its mean discount: its first one's is read)
    eff = ev.effective_discount(k, at=prefixes(heads, size))[start[group]]
    # (the sums' own terms where they divide: core.engine.discount.terms; the
    # ranks read then only, not a column made for every comparison)
    value = (terms(ev.gain[rows], eff, ev.rank[rows], divide=True) if ev.divides
             else ev.gain[rows] * eff)
    value[~(eff > 0)] = 0.0
    return value


def _group_sizes(tie_start: BoolArray, heads: IntArray) -> IntArray:
    """The size of the tie groups starting at positions ``heads`` (ascending;
    ``tie_start``: where each group starts) from the starts between the first
    and the end of the last (not ``Evaluation.tie_size``: a column kept)."""
    if heads.size == 0:
        return np.zeros(0, dtype=np.int64)
    lo, last = int(heads[0]), int(heads[-1])
    after = tie_start[last + 1:]
    end = last + 1 + (int(np.argmax(after)) if after.any() else after.size)
    starts = np.append(np.flatnonzero(tie_start[lo:end]) + lo, end)
    return starts[np.searchsorted(starts, heads) + 1] - heads


def _per_query(row_common: QueryOfRow, mask: BoolArray, n: int) -> IntArray:
    """How many of the rows in ``mask`` each of the ``n`` shared queries
    holds, a block of rows at a time: bincount copies the int32 query
    numbers to int64 (at 2M rows, most of them moved: 20 MiB at once)."""
    counts = np.zeros(n, dtype=np.int64)
    for part in across_blocks(mask.size):
        counts += np.bincount(row_common[part][mask[part]], minlength=n)
    return counts

