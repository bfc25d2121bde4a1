"""Each run's values at its partner rows in the other, and the moves counted from them.

Once :mod:`~core.analysis.compare.align` has matched each candidate of A
with its partner in B (and B's with A's), B's ranks and gains are read at
A's rows and A's first ranks at B's a block of rows at a time
(:func:`across_blocks`), and the candidates that moved, were regraded,
entered or left the cut are counted per shared query for every cutoff
(:func:`moves_at_a`, :func:`moves_at_b`): compare keeps the counts, not the
values read across (at 2M rows a side they were 20-27 MiB held through the
report). :func:`gather_across` gathers those values whole (:class:`Across`)
for :func:`~core.analysis.compare.changes.what_changed`.
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
    candidate_partners,
)
from core.engine.evaluation import Evaluation
from core.engine.order import prefixes

__all__ = [
    "MOVES",
    "Across",
    "AtA",
    "across_blocks",
    "align_candidates",
    "contributions_at",
    "first_at_b",
    "gather_across",
    "gather_at_a",
    "moves_at_a",
    "moves_at_b",
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
    """:class:`Across`'s fields of A's rows (``partner`` to ``same_gain``),
    :func:`_at_a` a block of rows at a time (the partners clamped where
    read: a clamped copy of them was 8 MB at 2M rows)."""
    has_b = np.empty(pa.size, dtype=bool)
    rank_b = np.empty(pa.size, dtype=np.int32)
    averaged = ev_b.tie_first_rank is not ev_b.rank
    first_b = np.empty(pa.size, dtype=np.int32) if averaged else rank_b
    same_gain = np.empty(pa.size, dtype=bool)
    for part in across_blocks(pa.size):
        _, has_b[part], rank_b[part], first_b[part], same_gain[part] = _at_a(
            ev_a, ev_b, pa[part], part)
    return pa, has_b, rank_b, first_b, same_gain


def _at_a(ev_a: Evaluation, ev_b: Evaluation, pa: PartnerArray, part: slice) -> AtA:
    """:class:`Across`'s fields of A's rows ``part`` (``pa``: their partners):
    B's ranks and first ranks (int32; 0 without a partner), and whether the
    gains are the same (an unknown gain of A's counts as equal to a missing
    partner's)."""
    no_b = pa < 0
    rows = np.maximum(pa, 0)
    rank_b = ev_b.rank[rows].astype(np.int32, copy=False)
    rank_b[no_b] = 0
    if ev_b.tie_first_rank is ev_b.rank:  # ties not averaged: each its own group
        first_b = rank_b
    else:
        first_b = ev_b.tie_first_rank[rows].astype(np.int32, copy=False)
        first_b[no_b] = 0
    ga, gb = ev_a.gain_at(part), ev_b.gain_at(rows)
    gb[no_b] = np.nan
    same_gain = (ga == gb) | (np.isnan(ga) & np.isnan(gb))
    return pa, ~no_b, rank_b, first_b, same_gain


def first_at_b(ev_a: Evaluation, pb: PartnerArray) -> PartnerArray:
    """:attr:`Across.first_a_at_b`: A's first ranks at B's rows (0 without a partner)."""
    out = np.empty(pb.size, dtype=np.int32)
    for part in across_blocks(pb.size):
        out[part] = _first_at(ev_a.tie_first_rank, pb[part])
    return out


def _first_at(first: PartnerArray, rows: PartnerArray) -> PartnerArray:
    """``first[rows]`` (ranks, fewer than 2**31) as int32, 0 where a row is
    -1 (no partner)."""
    out = first[np.maximum(rows, 0)].astype(np.int32, copy=False)
    out[rows < 0] = 0
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


#: The kinds of :func:`moves_at_a` and :func:`moves_at_b` per shared query, in
#: the order :meth:`Comparison.movement_counts` gives them.
MOVES = ("moved", "regraded", "entered", "left")


def moves_at_a(
    ev_a: Evaluation,
    ev_b: Evaluation,
    queries: QueryAlignment,
    pa: PartnerArray,
    cutoffs: tuple[int | None, ...],
    average: bool,
) -> tuple[list[dict[str, IntArray]], BoolArray]:
    """Per cutoff and shared query, how many of A's candidates moved, were
    regraded or left the cut (B's ranks and gains read at A's rows through
    the partners ``pa``, a block of rows at a time: none of them kept), and
    which shared queries hold a candidate of A at another rank in B (rank 0:
    not ranked, or no partner).

    ``average``: ties are averaged (a candidate at the same rank with the
    same gain then moved if its tie group, and so its contribution, changed).
    """
    n = len(queries.common)
    counts = [{kind: np.zeros(n, dtype=np.int64) for kind in ("moved", "regraded", "left")}
              for _ in cutoffs]
    order_q = np.zeros(n, dtype=bool)
    for part in across_blocks(pa.size):
        _, _, rank_b, first_b, same_gain = _at_a(ev_a, ev_b, pa[part], part)
        q = queries.row_common_a[part]
        shared = q >= 0
        same_rank = ev_a.rank[part] == rank_b
        order_q[q[shared & ~same_rank]] = True
        first_a = ev_a.tie_first_rank[part]
        for k, out in zip(cutoffs, counts, strict=True):
            a_in = _inside(first_a, k)
            a_in &= shared
            b_in = _inside(first_b, k)  # A's rows whose partner is in B's cut
            both = a_in & b_in
            moved = both & ~same_rank
            if average:
                # Same rank and gain but another contribution: its tie group
                # changed (only averaged ties share contributions).
                rows = np.flatnonzero(both & same_rank & same_gain)
                x_a = contributions_at(ev_a, k, rows + part.start)
                x_b = contributions_at(ev_b, k, pa[part][rows])  # (each has one)
                moved[rows[(x_a != x_b) & ~(np.isnan(x_a) & np.isnan(x_b))]] = True
            out["moved"] += np.bincount(q[moved], minlength=n)
            out["regraded"] += np.bincount(q[both & same_rank & ~same_gain], minlength=n)
            out["left"] += np.bincount(q[a_in & ~b_in], minlength=n)
    return counts, order_q


def moves_at_b(
    ev_a: Evaluation,
    ev_b: Evaluation,
    queries: QueryAlignment,
    pb: PartnerArray,
    cutoffs: tuple[int | None, ...],
) -> tuple[list[IntArray], BoolArray]:
    """Per cutoff and shared query, how many of B's candidates entered the
    cut (A's first ranks read at B's rows through the partners ``pb``, a
    block of rows at a time), and which shared queries hold a candidate
    ranked in B without a partner in A."""
    n = len(queries.common)
    entered = [np.zeros(n, dtype=np.int64) for _ in cutoffs]
    order_q = np.zeros(n, dtype=bool)
    for part in across_blocks(pb.size):
        q = queries.row_common_b[part]
        shared = q >= 0
        first_a = _first_at(ev_a.tie_first_rank, pb[part])
        order_q[q[shared & (pb[part] < 0) & ev_b.ranked_mask[part]]] = True
        first_b = ev_b.tie_first_rank[part]
        for k, out in zip(cutoffs, entered, strict=True):
            mask = _inside(first_b, k)
            mask &= shared
            mask &= ~_inside(first_a, k)
            out += np.bincount(q[mask], minlength=n)
    return entered, order_q


def _inside(first: IntArray | PartnerArray, k: int | None) -> BoolArray:
    """Ranked, its tie group starting by ``k``."""
    out: BoolArray = first > 0
    if k is not None:
        out &= first <= k
    return out


def contributions_at(ev: Evaluation, k: int | None, rows: IntArray | PartnerArray,
                     ) -> FloatArray:
    """``ev.contribution_at(k)[rows]`` for ranked ``rows`` (their tie groups
    starting by ``k``), made at their tie groups' positions only: the same
    terms (:meth:`~core.engine.evaluation.Evaluation.position_terms`) of
    whole tie groups, so the same bits. (The whole
    column of both sides was 2 x 16 MB at 2M rows, held while the table was
    counted, and its making as much again beside it.)"""
    head = np.searchsorted(ev.sorted_query, ev.doc.query[rows])
    head += ev.tie_first_rank[rows] - 1  # each row's tie group's first position
    heads, group = np.unique(head, return_inverse=True)
    size = _group_sizes(ev.tie_start, heads)
    start = np.cumsum(size) - size  # where each group's positions begin in ``at``
    # (each row's place among its groups' positions: its group's start there
    # plus its place in its group)
    place = start[group] + (ev.rank[rows] - ev.tie_first_rank[rows])
    return ev.position_terms(k, at=prefixes(heads, size))[place]


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
