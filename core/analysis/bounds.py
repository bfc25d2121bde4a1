"""What an unresolved query's NDCG could still be.

While some grades are unknown, a query has no NDCG, only the interval of
values its unknown grades could produce within the declared grade scale (the
rubric's grades), and the one judgment that would narrow that interval most.

With few unknowns every combination of grades is evaluated (the interval is
exact); with many, a guaranteed outer interval is given instead, marked as
not exact.

Gains below the normal range of floats are lifted by a power of two as the
engine lifts them (:func:`core.engine.gains.lifted`): each completion by its
own largest gain, a query's outer interval and next judgment when its known
gains and the grade scale's are all that small (:func:`_lifted`), so that an
interval is the one of the same gains scaled up, within [0, 1] as theirs.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, replace
from functools import cached_property

import numpy as np
import numpy.typing as npt

from core.analysis.outer import UNBOUNDED, UNBOUNDED_TEXT, OuterBounds, outer_interval
from core.engine.evaluation import Evaluation, Status, discount
from core.engine.gains import LIFT_BELOW, lift_exponents, lifted_parts
from core.engine.order import ties_follow_gains
from core.engine.query_values import query_ideal
from core.model.conventions import TieRule, ZeroIdealRule
from core.model.grades import GradeState

__all__ = ["UNBOUNDED", "UNBOUNDED_TEXT", "Bounds", "NextJudgment", "OneJudgment", "OpenQuery",
           "best_next_judgment", "ndcg_bounds", "outer_interval", "unresolved_bounds"]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
MAX_COMBINATIONS = 4096


@dataclass(frozen=True)
class Bounds:
    """The interval of NDCG@k an unresolved query could still reach
    (``low`` and ``high`` None: no completion has an NDCG;
    ``may_be_undefined``: some has none, its ideal DCG 0 or below; an
    outer ``low`` -inf or ``high`` inf: :data:`UNBOUNDED`, no finite bound
    on that side, where a gain may be negative)."""

    @property
    def unbounded(self) -> bool:
        """Whether a side has no finite bound (:data:`UNBOUNDED`)."""
        return any(v is not None and math.isinf(v) for v in (self.low, self.high))

    k: int | None
    low: float | None
    high: float | None
    exact: bool
    open: int
    may_be_undefined: bool = False


@dataclass(frozen=True)
class NextJudgment:
    """The unknown judgment whose answer narrows the interval most.

    ``widths`` maps each grade it could get to the interval width left;
    ``rank`` is the candidate's (0: judged but not retrieved).
    :attr:`by_rank`: every candidate tried has a grade that leaves the
    interval unbounded (:data:`UNBOUNDED`), so no width tells them apart and
    the best-ranked one is named; :attr:`why` says so in words.
    """

    index: int
    source_id: str
    worst_width: float
    widths: dict[float, float]
    rank: int = 0

    @property
    def by_rank(self) -> bool:
        """Whether it was chosen for its rank alone (no finite width)."""
        return math.isinf(self.worst_width)

    @property
    def why(self) -> str:
        """Why this candidate, in words, where it is named by rank
        (:attr:`by_rank`); else empty (the caller says the width its
        judgment narrows the interval to, rounded as it shows numbers)."""
        if not self.by_rank:
            return ""
        place = (f"the best-ranked unknown candidate (rank {self.rank})" if self.rank
                 else "the first listed unknown candidate, judged but not retrieved")
        return (f"it is {place}; no single judgment surely narrows the interval, since each "
                f"unknown candidate tried has a grade that would leave it {UNBOUNDED_TEXT} "
                "(a gain may be negative and the ideal DCG just above 0)")


class OpenQuery:
    """One query's ranked and ideal gains, with the unknown ones marked: the
    interval its unknown grades leave (:meth:`outer`, :meth:`ndcg` of a grid
    of completions); :mod:`core.analysis.queue` works on it too."""

    def __init__(self, ev: Evaluation, q: int, j: int, lift: int = 0) -> None:
        # Only query q's slices are worked on (what the whole document needs,
        # the rubric, the evaluation works out once; the query's ideal list is
        # sorted from its own rows, not every query's: an editor asks after
        # each edit, and the whole ideal order would be spliced into every
        # later evaluation, 16 MB at 2M candidates).
        c = ev.conventions
        self.k = ev.cutoffs[j]
        self.eff = ev.effective_discount(self.k, q)
        self.ranked = ev.ranked(q)
        self.inventory = query_ideal(ev, q)
        self.unknown = self.inventory[np.isnan(ev.gain[self.inventory])]
        self.gain = ev.gain
        # Where each ranked and each ideal position's candidate sits among the
        # unknown ones (-1: known), so a fill of the unknown gains is placed by
        # indexing, in the query's own size.
        self.ranked_col = _columns(self.ranked, self.unknown)
        self.inventory_col = _columns(self.inventory, self.unknown)
        self.values = _values(ev, lift)
        #: Whether a known gain is below 0 (the DCG may be negative, the
        #: NDCG past 1, whatever the scale: :func:`outer_interval`).
        with np.errstate(invalid="ignore"):  # (NaN: unknown)
            self.signed = bool((self.gain[self.inventory] < 0).any()
                               or (self.gain[self.ranked] < 0).any())
            #: Whether a known gain is below the normal range (its products
            #: with the discounts keep a few digits: :func:`outer_interval`).
            size = np.abs(np.concatenate((self.gain[self.inventory], self.gain[self.ranked])))
            self.few_digits = bool(((size > 0) & (size < LIFT_BELOW)).any())
        self.zero_ideal = c.zero_ideal
        #: The tie groups whose order follows the gains (positions a..b-1).
        self.groups: list[tuple[int, int]] = []
        self.descending = c.ties is TieRule.OPTIMISTIC
        if ties_follow_gains(c.ties):
            self.groups = [(a - 1, b) for a, b in ev.tie_groups(q)]

    @cached_property
    def may_lift(self) -> bool:
        """Whether a completion's gains may all be below the normal range:
        no known one in its list is in it, and some known or on the scale is
        below it but for 0."""
        known = np.abs(self.gain[self.inventory])
        with np.errstate(invalid="ignore"):  # (NaN: unknown)
            return not (known >= LIFT_BELOW).any() and bool(
                ((known > 0) & (known < LIFT_BELOW)).any()
                or ((self.values != 0) & (np.abs(self.values) < LIFT_BELOW)).any())

    def ndcg(self, fill: FloatArray) -> tuple[FloatArray, npt.NDArray[np.bool_]]:
        """NDCG for each row of ``fill`` (one gain per unknown candidate), and
        where there is none (ideal DCG 0 under the ``undefined`` rule, or
        below 0)."""
        rows = fill.shape[0]
        ranked = _placed(np.tile(self.gain[self.ranked], (rows, 1)), self.ranked_col, fill)
        inv = _placed(np.tile(self.gain[self.inventory], (rows, 1)), self.inventory_col, fill)
        # Each completion as the engine works it out: its gains lifted when
        # all are below the normal range (core.engine.gains.lifted).
        if self.may_lift:
            lift = lift_exponents(np.max(np.abs(inv), axis=1, initial=0.0))[:, None]
            ranked, inv = np.ldexp(ranked, lift), np.ldexp(inv, lift)
        for a, b in self.groups:
            part = np.sort(ranked[:, a:b], axis=1)
            ranked[:, a:b] = part[:, ::-1] if self.descending else part
        dcg = ranked @ self.eff
        inv = -np.sort(-inv, axis=1)
        if self.k is not None:
            inv = inv[:, : self.k]
        idcg = inv @ discount(np.arange(1, inv.shape[1] + 1))
        undefined = idcg == 0
        with np.errstate(divide="ignore", invalid="ignore"):
            out = dcg / idcg
        if self.zero_ideal is ZeroIdealRule.ZERO:
            out[undefined] = 0.0
            undefined[:] = False
        # An ideal DCG below 0 gives no NDCG either (the engine's status
        # negative: the ratio could pass 1), under either rule.
        return out, undefined | (idcg < 0)

    def grid(self) -> FloatArray | None:
        u = self.unknown.size
        if self.values.size**u > MAX_COMBINATIONS:
            return None
        return np.array(list(itertools.product(self.values, repeat=u)), dtype=np.float64).reshape(
            -1, u
        )

    def outer(self, fixed: dict[int, float] | None = None) -> tuple[float, float]:
        """A guaranteed interval from the extreme fills."""
        u = self.unknown.size
        low_fill = np.full((1, u), self.values[0])
        high_fill = np.full((1, u), self.values[-1])
        for n, v in (fixed or {}).items():
            low_fill[0, n] = high_fill[0, n] = v

        def totals(fill_dcg: FloatArray, fill_idcg: FloatArray) -> tuple[float, float]:
            ranked = _placed(self.gain[self.ranked][None, :].copy(), self.ranked_col, fill_dcg)[0]
            inv = _placed(self.gain[self.inventory][None, :].copy(), self.inventory_col,
                          fill_idcg)[0]
            inv = -np.sort(-inv)
            if self.k is not None:
                inv = inv[: self.k]
            # Tie order within a group changes DCG by at most the spread of its
            # discounts; bound it by sorting each group both ways.
            dcg_lo = dcg_hi = float(ranked @ self.eff)
            for a, b in self.groups:
                up = float(np.sort(ranked[a:b]) @ self.eff[a:b])
                down = float(np.sort(ranked[a:b])[::-1] @ self.eff[a:b])
                base = float(ranked[a:b] @ self.eff[a:b])
                dcg_lo += min(up, down) - base
                dcg_hi += max(up, down) - base
            idcg = float(inv @ discount(np.arange(1, inv.size + 1)))
            return (dcg_lo if fill_dcg is low_fill else dcg_hi), idcg

        dcg_min, idcg_max = totals(low_fill, high_fill)
        dcg_max, idcg_min = totals(high_fill, low_fill)
        return _interval(self.values, dcg_min, dcg_max, idcg_min, idcg_max, self)


class OneJudgment:
    """The outer interval when one unknown grade is fixed, each in O(log n):
    what :meth:`OpenQuery.outer` gives for ``{n: v}``, from the extreme fills
    worked out once (for queries without tie groups to reorder)."""

    def __init__(self, query: OpenQuery) -> None:
        self.query = query
        low, high = query.values[0], query.values[-1]
        self.low, self.high = float(low), float(high)
        u = query.unknown.size
        fills = {v: np.full((1, u), v) for v in (self.low, self.high)}
        ranked = {v: _placed(query.gain[query.ranked][None, :].copy(), query.ranked_col,
                             fills[v])[0] for v in fills}
        self.dcg = {v: float(ranked[v] @ query.eff) for v in fills}
        # The discount each unknown candidate's gain gets (0: not ranked, or past k).
        self.weight = np.zeros(u)
        mask = query.ranked_col >= 0
        self.weight[query.ranked_col[mask]] = query.eff[mask]
        self.ideal = {v: _SortedGains(-np.sort(-_placed(
            query.gain[query.inventory][None, :].copy(), query.inventory_col, fills[v])[0]),
            query.k) for v in fills}

    def widths(self, cols: IntArray) -> FloatArray:
        """The width of :meth:`outer` for each of ``cols`` (places among
        the unknown) fixed to each of the scale's gains (rows, ascending), at
        once: with one unknown gain fixed to ``v`` the ideal DCGs do not
        depend on which one, and the DCGs move by ``v`` times its discount."""
        values = self.query.values
        weight = self.weight[cols]
        out = np.empty((values.size, cols.size))
        for r, v in enumerate(values.tolist()):
            low, high = outer_interval(
                float(values[0]), self.dcg[self.low] + (v - self.low) * weight,
                self.dcg[self.high] + (v - self.high) * weight,
                self.ideal[self.low].replace(self.low, v),
                self.ideal[self.high].replace(self.high, v), self.query.signed,
                zero_reads_zero=self.query.zero_ideal is ZeroIdealRule.ZERO,
                few_digits=self.query.few_digits)
            out[r] = high - low
        return out

    def outer(self, n: int, v: float) -> tuple[float, float]:
        w = float(self.weight[n])
        dcg_min = self.dcg[self.low] + (v - self.low) * w
        dcg_max = self.dcg[self.high] + (v - self.high) * w
        idcg_max = self.ideal[self.high].replace(self.high, v)
        idcg_min = self.ideal[self.low].replace(self.low, v)
        return _interval(self.query.values, dcg_min, dcg_max, idcg_min, idcg_max, self.query)


class _SortedGains:
    """A list of gains, highest first, cut at k: its DCG after one gain is
    replaced by another, by prefix sums instead of sorting again."""

    def __init__(self, gains: FloatArray, k: int | None) -> None:
        m = gains.size
        d = np.zeros(m + 2)
        d[: m + 1] = discount(np.arange(1, m + 2))
        if k is not None:
            d[k:] = 0.0
        self.gains, self.d, self.m = gains, d, m
        self.at = np.concatenate([[0.0], np.cumsum(gains * d[:m])])  # t at t
        self.later = np.concatenate([[0.0], np.cumsum(gains * d[1:m + 1])])  # t at t+1
        before = np.concatenate([[0.0], d[: max(m - 1, 0)]])
        self.earlier = np.concatenate([[0.0], np.cumsum(gains * before)])  # t at t-1

    def replace(self, old: float, new: float) -> float:
        g, d, m = self.gains, self.d, self.m
        p = int(np.searchsorted(-g, -old, side="left"))  # g[p] == old
        r = int(np.searchsorted(-g, -new, side="left"))  # how many are above new
        r -= 1 if g[p] > new else 0  # ... not counting the one replaced
        if r <= p:  # new moves up: g[r..p-1] move one place down
            return float(self.at[r] + new * d[r] + self.later[p] - self.later[r]
                         + self.at[m] - self.at[p + 1])
        # new moves down: g[p+1..r] move one place up
        return float(self.at[p] + self.earlier[r + 1] - self.earlier[p + 1] + new * d[r]
                     + self.at[m] - self.at[r + 1])


def _interval(values: FloatArray, dcg_min: float, dcg_max: float, idcg_min: float,
              idcg_max: float, query: OpenQuery) -> tuple[float, float]:
    """:func:`outer_interval` of one query (its signs, zero-ideal rule and
    gains of few digits), as numbers."""
    low, high = outer_interval(float(values[0]), dcg_min, dcg_max, idcg_min, idcg_max,
                               query.signed, few_digits=query.few_digits,
                               zero_reads_zero=query.zero_ideal is ZeroIdealRule.ZERO)
    return float(low), float(high)


def _columns(rows: npt.NDArray[np.int64], unknown: npt.NDArray[np.int64],
             ) -> npt.NDArray[np.int64]:
    """For each of ``rows``, its position in ``unknown`` (-1 where absent)."""
    if unknown.size == 0:
        return np.full(rows.size, -1, dtype=np.int64)
    order = np.argsort(unknown, kind="stable")
    where = np.minimum(np.searchsorted(unknown[order], rows), unknown.size - 1)
    hit = unknown[order][where] == rows
    return np.where(hit, order[where], -1).astype(np.int64)


def _placed(gains: FloatArray, cols: npt.NDArray[np.int64], fill: FloatArray) -> FloatArray:
    """``gains`` (one row per fill) with the unknown positions taken from ``fill``."""
    mask = cols >= 0
    gains[:, mask] = fill[:, cols[mask]]
    return gains


def _values(ev: Evaluation, lift: int = 0) -> FloatArray:
    """The gains the declared grade scale allows, ascending (times 2^``lift``:
    those of an evaluation lifted by it, :func:`_lifted`)."""
    # Sorted, then equal neighbours dropped: np.unique would load numpy.ma
    # (~10 ms of the command's serial time) for these few values.
    values = np.sort(ev.conventions.gain.apply(np.array(ev.rubric.values)))
    keep = np.ones(values.shape, dtype=bool)
    np.not_equal(values[1:], values[:-1], out=keep[1:])
    return np.ldexp(values[keep], lift) if lift else values[keep]


def _lifted(ev: Evaluation, queries: IntArray, values: FloatArray | None = None,
            ) -> list[tuple[IntArray, IntArray, Evaluation, int]]:
    """The queries of ``queries`` whose known gains and grade scale are all
    below the normal range of floats, as the engine finds them
    (:func:`core.engine.gains.lifted_parts`, the scale's gains counted): each
    lift's queries, rows, lifted evaluation and lift. Their intervals are
    that evaluation's, with the scale's gains lifted too (NDCG ignores a
    common factor; the products with the discounts keep their digits).
    ``values``: the scale's gains, when known."""
    values = _values(ev) if values is None else values
    least = float(max(abs(values[0]), abs(values[-1]))) if values.size else 0.0
    return list(lifted_parts(ev, queries, least))


def _is_exact(values: FloatArray, u: int) -> bool:
    """Whether every completion of ``u`` unknown grades can be evaluated."""
    return u <= _most_exact(values)


def _most_exact(values: FloatArray) -> float:
    """The most unknown grades whose completions can all be evaluated
    (``values.size ** u <= MAX_COMBINATIONS``; any number when one value)."""
    if values.size <= 1:
        return math.inf
    u = -1
    while values.size ** (u + 1) <= MAX_COMBINATIONS:
        u += 1
    return u


def ndcg_bounds(ev: Evaluation, q: int, j: int = 0) -> Bounds:
    """The NDCG@k interval query ``q`` could still reach (cutoff index ``j``).

    For a query with no unknown grade counted, the interval is its value.
    The work is the query's own: its rows, and every completion of its
    unknown grades when there are few (the interval is then exact).
    """
    query = OpenQuery(ev, q, j)
    k = query.k
    u = int(query.unknown.size)
    if u == 0:
        v = ev.ndcg[q, j]
        value = None if np.isnan(v) else float(v)
        return Bounds(k, value, value, True, 0, value is None)
    if not _is_exact(query.values, u):
        lifted = _lifted(ev, np.array([q]), query.values)
        if lifted:  # (its evaluation lifted, where it is query 0)
            _, _, part, lift = lifted[0]
            (low, high), = OuterBounds(part, _values(part, lift), 0).at((k,))
        else:
            (low, high), = OuterBounds(ev, query.values, q).at((k,))
        return Bounds(k, float(low[0]), float(high[0]), False, u)
    return _exact_bounds(query)


def _exact_bounds(query: OpenQuery) -> Bounds:
    """The interval over every completion of the query's unknown grades."""
    k, u = query.k, int(query.unknown.size)
    grid = query.grid()
    assert grid is not None
    values, undefined = query.ndcg(grid)
    defined = values[~undefined]
    if defined.size == 0:
        return Bounds(k, None, None, True, u, True)
    return Bounds(k, float(defined.min()), float(defined.max()), True, u,
                  bool(undefined.any()))


def unresolved_bounds(ev: Evaluation) -> list[dict[int, Bounds]]:
    """:func:`ndcg_bounds` of every unresolved query, per cutoff index: the
    same intervals, with the outer ones worked out for all queries at once
    (one pass over the document per cutoff instead of one call per query).
    """
    # a query with no ranking (status unranked) has no interval to narrow
    unresolved = np.flatnonzero((ev.n_open > 0) & (ev.status_code.max(axis=1, initial=0)
                                                   == Status.UNRESOLVED.code))
    if not unresolved.size:  # (the grade scale, a pass over every grade, is not needed)
        return [{} for _ in ev.cutoffs]
    values = _values(ev)
    few = ev.n_open[unresolved] <= _most_exact(values)
    exact, outer = unresolved[few].tolist(), unresolved[~few]
    every = OuterBounds(ev, values).at(ev.cutoffs) if outer.size else None
    for queries, _rows, part, lift in _lifted(ev, outer, values):
        assert every is not None
        for (low, high), lifted in zip(every, OuterBounds(part, _values(part, lift)).at(
                ev.cutoffs), strict=True):
            low[queries], high[queries] = lifted
    n_open = ev.n_open[outer].tolist()  # (one conversion, not one per query and cutoff)
    out: list[dict[int, Bounds]] = []
    for j, k in enumerate(ev.cutoffs):
        found: dict[int, Bounds] = {}
        if every is not None:
            low, high = every[j]
            for q, lo, hi, u in zip(outer.tolist(), low[outer].tolist(), high[outer].tolist(),
                                    n_open, strict=True):
                found[q] = Bounds(k, lo, hi, False, u)
        for q in exact:
            found[q] = _exact_bounds(OpenQuery(ev, q, j))
        out.append(dict(sorted(found.items())))
    return out


def best_next_judgment(ev: Evaluation, q: int, j: int = 0) -> NextJudgment | None:
    """The unknown grade whose answer, whatever it is, leaves the narrowest
    interval (ties go to the better-ranked candidate).

    Only a grade still to be given is named: an unrateable candidate (looked
    at, could not be judged) takes part in the interval but is not asked for
    again, as in :func:`core.analysis.queue.judging_queue`.
    """
    lifted = _lifted(ev, np.array([q]))
    if not lifted:
        return _best_next_judgment(ev, q, j)
    _, rows, part, lift = lifted[0]
    best = _best_next_judgment(part, 0, j, lift)  # (its rows and gains given back)
    return None if best is None else replace(best, index=int(rows[best.index]), widths={
        math.ldexp(v, -lift): width for v, width in best.widths.items()})


def _best_next_judgment(ev: Evaluation, q: int, j: int, lift: int = 0) -> NextJudgment | None:
    query = OpenQuery(ev, q, j, lift)
    rank = ev.rank
    # The 200 best ranked (then the judged-not-retrieved, as listed): so the
    # one named by rank when no width tells them apart is the best ranked.
    asked = np.flatnonzero(ev.doc.state[query.unknown] == GradeState.UNKNOWN)
    ranks = rank[query.unknown[asked]].astype(np.int64)
    asked = asked[np.lexsort((asked, np.where(ranks > 0, ranks, np.iinfo(np.int64).max)))][:200]
    if asked.size == 0:
        return None
    grid = query.grid()
    if grid is not None:
        values, undefined = query.ndcg(grid)
    best: NextJudgment | None = None
    fast = OneJudgment(query) if grid is None and not query.groups else None
    at_once = fast.widths(asked).tolist() if fast is not None else None
    for a, n in enumerate(asked.tolist()):
        i = int(query.unknown[n])
        widths: dict[float, float] = {}
        for r, v in enumerate(query.values):
            if grid is not None:
                sel = (grid[:, n] == v) & ~undefined
                widths[float(v)] = float(np.ptp(values[sel])) if sel.any() else 0.0
            elif at_once is not None:
                widths[float(v)] = at_once[r][a]
            else:
                low, high = query.outer({n: float(v)})
                widths[float(v)] = high - low
        worst = max(widths.values())
        key = (worst, rank[i] if rank[i] else np.iinfo(np.int64).max)
        if best is None or key < (best.worst_width, rank[best.index] or np.iinfo(np.int64).max):
            best = NextJudgment(int(i), ev.doc.source_text(i), worst, widths, int(rank[i]))
    return best
