"""Every unresolved query's outer NDCG interval at once, and the one rule
of every outer interval (:func:`outer_interval`).

An outer interval bounds the NDCG of every completion of a query's unknown
grades from its extreme completions: each unknown gain at the scale's
lowest or highest value, four sums (DCG and ideal DCG, at least and at
most). :class:`OuterBounds` works them out for all queries in one pass per
cutoff, in chunks of whole queries; :mod:`core.analysis.bounds` gives the
exact intervals, a query's own and the next judgment, through the same rule.
"""

from __future__ import annotations

import math
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np
import numpy.typing as npt

from core.engine.discount import discount_of_some
from core.engine.evaluation import Evaluation, discount
from core.engine.gains import LIFT_BELOW, SUMS_BELOW
from core.engine.order import list_starts, tie_starts, ties_follow_gains
from core.engine.query_values import query_ideal
from core.engine.sums import whole_chunks
from core.model.conventions import ZeroIdealRule

__all__ = ["UNBOUNDED", "UNBOUNDED_TEXT", "OuterBounds", "outer_interval"]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
#: An outer bound no finite number is known to hold (its side's sign: -inf
#: below, inf above): an ideal DCG just above 0 is not ruled out, so an NDCG
#: of any size is not (:func:`outer_interval`). The reports name it
#: :data:`UNBOUNDED_TEXT`, never a number or JSON null (no NDCG).
UNBOUNDED = math.inf
UNBOUNDED_TEXT = "unbounded"


def outer_interval(low_value: float, dcg_min: Any, dcg_max: Any, idcg_min: Any,
                   idcg_max: Any, signed: Any = False, *, zero_reads_zero: Any = True,
                   few_digits: Any = False) -> tuple[FloatArray, FloatArray]:
    """The outer NDCG interval (low, high) from the extreme DCGs and ideal
    DCGs (numbers or arrays, elementwise), the unknown gains filled with the
    scale's lowest gain ``low_value`` and its highest: DCG at least over ideal
    DCG at most, and DCG at most over ideal DCG at least (at most 1). With an
    ideal DCG that may be 0, only [low or 0 at most, 1] holds. The one rule
    of every outer interval: a query's, a query's with one grade fixed
    (:class:`core.analysis.bounds.OneJudgment`), all queries' at once
    (:class:`OuterBounds`) and the judging queue's.

    Where a gain may be below 0 (a negative gain on the scale, or
    ``signed``: a known one), the DCG may be negative and the NDCG past 1:
    the interval is the four sums' corners (DCG over an ideal DCG in
    [at least, at most]) while the ideal DCG at least is above 0. Below,
    an ideal DCG just above 0 is not ruled out and no finite bound holds on
    a side the DCG can reach: that side is :data:`UNBOUNDED` (-inf or
    inf), a status the reports name, never a number. The other side, where
    the DCG cannot cross 0 (at least 0: the low side; at most 0: the high
    one), is the DCG there over the ideal DCG at most: every completion
    with an NDCG has an ideal DCG in (0, at most], so its ratio is on that
    side of it. It is 0 instead where an ideal DCG of 0 reads NDCG 0
    (``zero_reads_zero``: the ``zero`` rule; a completion's may be 0), and
    where no ideal DCG above 0 is possible (no completion has an NDCG).

    So it is too when one of the four sums is of gains below the normal
    range of floats alone (known gains that small, on a grade scale that is
    not: :func:`core.analysis.bounds._lifted` lifts a query whose scale is
    that small too), whose products with the discounts kept a few digits:
    its ratio could leave out an NDCG a completion has (the side that
    cannot cross 0 is then 0, the one value sure to hold). Where a known
    gain is below the normal range (``few_digits``: nonzero, below
    :data:`core.engine.gains.LIFT_BELOW` in size) a DCG sum below
    ``SUMS_BELOW`` in size, 0 included, has no sure sign (its terms' products
    with the discounts lost their digits: 5e-324 at rank 2 adds 5e-324, not
    3.2e-324, so -5e-324, 5e-324 ranked sum to 0 for a DCG below 0): such a
    loose side is unbounded too, where 0 was said."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):  # (loose, or past 1)
        low = np.divide(dcg_min, idcg_max)
        high = np.divide(dcg_max, idcg_min)
        # The corners, where the DCG may be negative (the smaller ideal DCG
        # makes a negative DCG's ratio smaller, a positive one's larger).
        low_signed = np.where(np.asarray(dcg_min) >= 0, low, np.divide(dcg_min, idcg_min))
        over_most = np.divide(dcg_max, idcg_max)
        high_signed = np.where(np.asarray(dcg_max) >= 0, high, over_most)
    tiny: Any = False
    for total in (dcg_min, dcg_max, idcg_min, idcg_max):
        size = np.abs(total)
        tiny = tiny | ((size > 0) & (size < SUMS_BELOW))
    loose = (np.asarray(idcg_min) <= 0) | tiny
    signed = (low_value < 0) | np.asarray(signed)
    low_loose = np.where(np.asarray(idcg_max) > 0, np.minimum(0.0, low), 0.0)
    # The side of a loose signed interval the DCG cannot cross 0 on: its
    # ratio over the ideal DCG at most, where that holds (the docstring).
    ratio_holds = ~tiny & (np.asarray(idcg_max) > 0) & ~np.asarray(zero_reads_zero)
    # A DCG sum of no sure sign (few digits, below the normal range): either.
    unsure_min = np.asarray(few_digits) & (np.abs(dcg_min) < SUMS_BELOW)
    unsure_max = np.asarray(few_digits) & (np.abs(dcg_max) < SUMS_BELOW)
    low = np.where(signed, np.where(loose, np.where((np.asarray(dcg_min) >= 0) & ~unsure_min,
                                                    np.where(ratio_holds, low, 0.0),
                                                    -UNBOUNDED),
                                    low_signed),
                   np.where(loose, low_loose, low))
    high = np.where(signed, np.where(loose, np.where((np.asarray(dcg_max) <= 0) & ~unsure_max,
                                                     np.where(ratio_holds, over_most, 0.0),
                                                     UNBOUNDED),
                                     high_signed),
                    np.where(loose, 1.0, np.minimum(1.0, high)))
    return low, high


def _few_digits(query: IntArray, gain: FloatArray, nq: int) -> npt.NDArray[np.bool_]:
    """Per query, whether a known gain is below the normal range of floats
    (nonzero, below :data:`core.engine.gains.LIFT_BELOW` in size): its
    products with the discounts keep a few digits (:func:`outer_interval`)."""
    with np.errstate(invalid="ignore"):  # (NaN: unknown)
        size = np.abs(gain)
        few = (size > 0) & (size < LIFT_BELOW)
    if not few.any():
        return np.zeros(nq, dtype=bool)
    out: npt.NDArray[np.bool_] = np.bincount(query[few], minlength=nq) > 0
    return out


def _known_and_open(query: IntArray, unknown: npt.NDArray[np.bool_], gain: FloatArray,
                    at: IntArray | None, e_at: FloatArray, nq: int,
                    ) -> tuple[FloatArray, FloatArray]:
    """Per query, the sum of the known gains' discounted values and the sum
    of the unknown ones' discounts, at positions ``at`` (all: None) with
    discounts ``e_at``: one sum over the positions, each query's known and
    unknown parts in bins of their own (bin 2q + unknown), in row order.

    The same numbers as a sum each with the other part's terms at 0 (a sum
    from +0.0 never is -0.0, so adding +0.0 leaves it unchanged): one pass
    of ``np.bincount`` instead of two and no masked assignment (measured
    with :class:`_IdealChunk`'s shared arrays: the defaults' 30 chunks at 2M
    candidates, three cutoffs, ~115 -> ~100 ms of CPU).
    """
    q_at = query if at is None else query[at]
    u_at = unknown if at is None else unknown[at]
    weights = np.where(u_at, e_at, e_at * (gain if at is None else gain[at]))
    both = _sums(2 * q_at + u_at, weights, 2 * nq).reshape(nq, 2)
    return both[:, 0], both[:, 1]


def _sums(index: IntArray, weights: FloatArray, n: int) -> FloatArray:
    """The sum of ``weights`` per ``index`` (0 to ``n`` - 1), in row order."""
    return np.bincount(index, weights=weights, minlength=n).astype(np.float64, copy=False)


class OuterBounds:
    """Guaranteed (outer) intervals of every query, or of query ``q`` alone,
    from the extreme completions: each unknown gain at the scale's lowest or
    highest value. Queries are worked in chunks of whole queries (the
    temporary arrays are a chunk's), each summed in row order, so a query
    alone gets the very same numbers."""

    #: About this many positions are worked at once (per thread: 1 << 16
    #: rather than 1 << 18 took the default conventions' report from 44 to
    #: 11 MiB above the evaluation, traced, for the same CPU time), in
    #: chunks of whole queries as the engine's sums make them
    #: (:func:`core.engine.sums.whole_chunks`).
    CHUNK = 1 << 16

    def __init__(self, ev: Evaluation, values: FloatArray, q: int | None = None) -> None:
        self.ev, self.q = ev, q
        self.low_value, self.high_value = float(values[0]), float(values[-1])
        self.tied = ties_follow_gains(ev.conventions.ties)
        self.zero_reads_zero = ev.conventions.zero_ideal is ZeroIdealRule.ZERO
        if q is None:
            nq = ev.doc.n_queries
            # The engine's own ideal lists (not sorted again), and only where
            # each list starts (a chunk's queries are made again from it).
            self.ideal_gain, self.ideal_start = ev.ideal_gains()
            self.ranked_start = np.searchsorted(ev.sorted_query, np.arange(nq + 1))
            self.chunks = whole_chunks(self.ranked_start, self.CHUNK)
        else:
            ideal = query_ideal(ev, q)
            self.ideal_gain = ev.gain[ideal]
            self.ideal_start = np.array([0, ideal.size])
            self.ranked_start = np.array(ev.positions(q))
            self.chunks = [(q, q + 1)]
        longest = int(np.diff(self.ideal_start).max()) if self.ideal_start.size > 1 else 0
        self.cumulative = np.concatenate(([0.0], np.cumsum(discount(np.arange(1, longest + 1)))))

    def at(self, cutoffs: tuple[int | None, ...]) -> list[tuple[FloatArray, FloatArray]]:
        """(low, high) per query (of all queries, or of ``q`` alone) at each
        of ``cutoffs``."""
        n = len(self.ideal_start) - 1
        out = [(np.empty(n), np.empty(n)) for _ in cutoffs]
        base = self.chunks[0][0]

        def chunk(a: int, b: int) -> None:
            i, j = a - base, b - base
            for (low, high), bounds in zip(out, self._chunk(cutoffs, a, b, i, j), strict=True):
                low[i:j], high[i:j] = bounds

        if len(self.chunks) == 1:
            chunk(*self.chunks[0])
        else:  # chunks of whole queries, each writing its own slices: two at once
            with ThreadPoolExecutor(max_workers=2) as pool:
                list(pool.map(chunk, *zip(*self.chunks, strict=True)))
        return out

    def _chunk(self, cutoffs: tuple[int | None, ...], a: int, b: int, i: int,
               j: int) -> list[tuple[FloatArray, FloatArray]]:
        """Queries ``a`` to ``b`` - 1 (``i`` to ``j`` - 1 of this object's)."""
        ev, nq = self.ev, b - a
        plo, phi = int(self.ranked_start[i]), int(self.ranked_start[j])
        query = ev.sorted_query[plo:phi] - a
        gain = ev.gain[ev.ranked_between(plo, phi)]  # (sorted_gain's: kept or not)
        unknown = np.isnan(gain)
        ilo, ihi = int(self.ideal_start[i]), int(self.ideal_start[j])
        ideal_query = np.repeat(np.arange(nq), np.diff(self.ideal_start[i:j + 1]))
        ideal = _IdealChunk(self.ideal_gain[ilo:ihi], ideal_query, nq, self.cumulative)
        # Queries with a known gain below 0 (NaN, unknown, is not): their
        # DCG may be negative whatever the scale (one pass each, where the
        # scale is not negative already).
        signed: Any = self.low_value < 0
        if not signed:
            with np.errstate(invalid="ignore"):
                signed = ((np.bincount(query[gain < 0], minlength=nq) > 0)
                          | (np.bincount(ideal_query[ideal.gain < 0], minlength=nq) > 0))
        few_digits = _few_digits(query, gain, nq) | _few_digits(ideal_query, ideal.gain, nq)
        out = []
        for k in cutoffs:
            # Positions past k add nothing (their discount is 0): the sums
            # skip them, in the same row order (a sum that starts at 0 is the
            # same without its terms equal to 0), and only the heads of the
            # lists are looked at (ev.within) unless tie groups are reordered.
            if k is None or self.tied:
                eff = ev.effective_discount(k, span=(plo, phi))
                at = np.flatnonzero(eff) if k is not None else None
                e_at = eff if at is None else eff[at]
            else:
                head = ev.within(k, self.ranked_start[i:j + 1])
                e_at = ev.effective_discount(k, at=head)
                nonzero = np.flatnonzero(e_at)
                at, e_at = head[nonzero] - plo, e_at[nonzero]
            known_sum, open_sum = _known_and_open(query, unknown, gain, at, e_at, nq)
            dcg_min = known_sum + self.low_value * open_sum
            dcg_max = known_sum + self.high_value * open_sum
            if self.tied:
                dcg_min += self._tie_shift(query, gain, eff, plo, phi, nq, self.low_value, True)
                dcg_max += self._tie_shift(query, gain, eff, plo, phi, nq, self.high_value,
                                           False)
            out.append(outer_interval(self.low_value, dcg_min, dcg_max,
                                      ideal.idcg(self.low_value, k),
                                      ideal.idcg(self.high_value, k), signed,
                                      zero_reads_zero=self.zero_reads_zero,
                                      few_digits=few_digits))
        return out

    def _tie_shift(self, query: IntArray, gain: FloatArray, eff: FloatArray, plo: int,
                   phi: int, nq: int, value: float, low: bool) -> FloatArray:
        """Per query, how much lower (``low``) or higher any order of its tie
        groups of two or more can make DCG (unknown gains at ``value``),
        bounded by sorting each group both ways."""
        fill = np.where(np.isnan(gain), value, gain)
        score = self.ev.doc.score[self.ev.ranked_between(plo, phi)]
        new = tie_starts(score, list_starts(query))
        group = np.cumsum(new) - 1
        size = np.bincount(group)
        pos = np.flatnonzero(size[group] > 1)
        heads = np.flatnonzero(new[pos])
        local = np.repeat(np.arange(heads.size), np.diff(heads, append=pos.size))
        start = heads[local]
        mirror = start + (start + size[group[pos]] - 1) - np.arange(pos.size)
        f, e = fill[pos], eff[pos]
        asc = f[np.lexsort((f, local))]
        up = _sums(local, asc * e, heads.size)
        down = _sums(local, asc[mirror] * e, heads.size)
        base = _sums(local, f * e, heads.size)
        shift = (np.minimum(up, down) if low else np.maximum(up, down)) - base
        return _sums(query[pos[heads]], shift, nq)


class _IdealChunk:
    """Some queries' ideal lists (known gains best first, unknown last) and
    their ideal DCG@k with every unknown gain at a value: the known gains
    above it keep their ranks, the rest move down by the number of unknowns,
    which fill the ranks between.

    Only the known gains other than 0 are looked at past the counts: a
    gain of 0 (or unknown, 0 in the sums) adds +0.0 or -0.0, and a sum from
    +0.0 is the same without them (measured at 2M candidates, 30% judged,
    the default conventions' 30 chunks, three cutoffs, serial: this class's
    ~58 -> ~27 ms of CPU)."""

    def __init__(self, gain: FloatArray, query: IntArray, nq: int,
                 cumulative: FloatArray) -> None:
        self.gain, self.query, self.nq, self.cumulative = gain, query, nq, cumulative
        self.unknown = np.isnan(gain)
        self.u = np.bincount(query[self.unknown], minlength=nq)
        #: Where each query's list starts, and where the last one ends.
        self.starts = np.searchsorted(query, np.arange(nq + 1))
        length = np.diff(self.starts)
        # The known gains other than 0: where, their queries and ranks.
        at = np.flatnonzero(np.where(self.unknown, 0.0, gain))
        self.at_query = query[at]
        self.at_gain = gain[at]
        self.at_rank = at + 1 - self.starts[self.at_query]
        self.moved = self.u[self.at_query]  # (how far each moves when it does)
        #: The known gains of 0 per query (above a value below 0).
        self.zeros = length - self.u - np.bincount(self.at_query, minlength=nq)
        # How many positions and their highest rank once moved (a list's
        # last, unknown where any is, moves down by its unknowns): each
        # discount is the one all positions would be given at once
        # (core.engine.discount.discount_of_some).
        self.total, self.highest = gain.size, int((length + self.u).max(initial=0))
        self.filled: dict[float, tuple[IntArray, FloatArray, IntArray]] = {}

    def _fill(self, value: float) -> tuple[IntArray, FloatArray, IntArray]:
        """Each known gain's (other than 0) rank and contribution with
        unknowns at ``value``, and how many known gains stand above it per
        query."""
        if value not in self.filled:
            # The gains above the value lead their lists (best first): the
            # rest are the ones whose rank exceeds their count, and move down
            # (no per-position gather of the count, no count in floats;
            # measured: OuterBounds.at ~148 -> ~123 ms CPU at 2M candidates).
            higher = self.at_gain > value
            above = np.bincount(self.at_query[higher], minlength=self.nq)
            if value < 0:
                above += self.zeros
            rank = self.at_rank + np.where(higher, 0, self.moved)
            del higher
            contribution = self.at_gain * discount_of_some(rank, self.total, self.highest)
            self.filled[value] = rank, contribution, above
        return self.filled[value]

    def idcg(self, value: float, k: int | None) -> FloatArray:
        rank, contribution, above = self._fill(value)
        query = self.at_query
        if k is not None:
            # Only the gains standing within k add anything (the others 0).
            within = np.flatnonzero(rank <= k)
            query, contribution = query[within], contribution[within]
        idcg = _sums(query, contribution, self.nq)
        first, last = above, above + self.u
        if k is not None:
            first, last = np.minimum(first, k), np.minimum(last, k)
        filled: FloatArray = idcg + value * (self.cumulative[last] - self.cumulative[first])
        return filled
