"""The NDCG engine: every candidate's rank, gain, discount and contribution,
and DCG, ideal DCG and NDCG per query at each declared cutoff.

All queries are evaluated at once with array operations (one sort for the
ranked lists, one for the ideal lists); no Python loop runs per candidate.
"""

from __future__ import annotations

import copy
import weakref
from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property

import numpy as np
import numpy.typing as npt

from core.errors import InputError
from core.model.conventions import (
    Conventions,
    IdealInventory,
    TieRule,
    UnknownRule,
    ZeroIdealRule,
    format_cutoff,
)
from core.model.document import Document, GradeState

__all__ = [
    "Evaluation",
    "QueryCutoff",
    "Status",
    "discount",
    "evaluate",
    "sort_within_queries",
    "source_order_keys",
]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]


class Status(StrEnum):
    """Why a query has, or has not, an NDCG value."""

    OK = "ok"
    UNDEFINED = "undefined"
    UNRESOLVED = "unresolved"

    @property
    def reason(self) -> str:
        return {
            "ok": "NDCG is defined",
            "undefined": "the ideal DCG is 0 (no positive gain to rank), so NDCG is 0/0",
            "unresolved": "some grades are unknown, so NDCG is not determined",
        }[self.value]


_STATUS = (Status.OK, Status.UNDEFINED, Status.UNRESOLVED)


def discount(rank: npt.ArrayLike) -> FloatArray:
    """``1 / log2(rank + 1)`` for 1-based ranks.

    >>> discount([1, 3]).tolist()
    [1.0, 0.5]
    """
    return 1.0 / np.log2(np.asarray(rank, dtype=np.float64) + 1.0)


@dataclass(frozen=True)
class QueryCutoff:
    """One query's numbers at one cutoff (``None`` where not determined)."""

    k: int | None
    dcg: float | None
    idcg: float | None
    ndcg: float | None
    status: Status


def _ideal_key(gains: FloatArray) -> FloatArray:
    """Sort key of the ideal list: highest gain first, unknown (NaN) last."""
    key: FloatArray = np.negative(gains)
    key[np.isnan(key)] = np.inf
    return key


def _block_rank(rows: int, size: int) -> tuple[IntArray, BoolArray]:
    """:func:`_segment_rank` of ``rows`` consecutive blocks of ``size``."""
    within = np.arange(1, size + 1)
    return np.tile(within, rows), np.tile(within == 1, rows)


def _segment_rank(keys_sorted: IntArray) -> tuple[IntArray, BoolArray]:
    """1-based position within runs of equal keys, and the run starts."""
    m = keys_sorted.shape[0]
    first = np.ones(m, dtype=bool)
    if m > 1:
        first[1:] = keys_sorted[1:] != keys_sorted[:-1]
    pos = np.arange(m)
    start = np.maximum.accumulate(np.where(first, pos, 0)) if m else pos
    return pos - start + 1, first


def _uniform_blocks(q: IntArray) -> tuple[int, int] | None:
    """(blocks, size) when ``q`` is grouped in consecutive blocks of one size."""
    n = q.shape[0]
    if n < 2 or not bool(np.all(q[1:] >= q[:-1])):
        return None
    sizes = np.bincount(q)
    sizes = sizes[sizes > 0]
    m = int(sizes[0])
    return (n // m, m) if bool(np.all(sizes == m)) else None


_MAGNITUDE = np.int64(0x7FFFFFFFFFFFFFFF)


def _sortable(key: FloatArray) -> IntArray:
    """Whole numbers that sort as the float ``key`` does (stable integer sorts
    are faster than float ones); -0.0 equals 0.0 and NaN sorts last."""
    key = np.add(key, 0.0, dtype=np.float64)  # -0.0 -> 0.0, and a copy
    nan = np.isnan(key)
    if nan.any():
        key[nan] = np.inf
    bits = key.view(np.int64)
    flip: IntArray = bits >> 63  # in place from here: keys are large
    flip &= _MAGNITUDE
    flip ^= bits
    return flip


def sort_within_queries(
    q: IntArray, keys: list[FloatArray], blocks: tuple[int, int] | bool | None = True
) -> IntArray:
    """A stable permutation ordering positions by ``q``, then by ``keys``
    (most significant last, as :func:`numpy.lexsort`), then by position.

    Rows grouped by query in blocks of one size (the usual run file or
    matrix) are sorted block by block as a 2-D array, several times faster
    than a global multi-key sort; other layouts take one stable pass a key.
    ``blocks`` is :func:`_uniform_blocks` of ``q`` when the caller knows it.
    """
    int_keys = [_sortable(k) for k in keys]
    if blocks is True:
        blocks = _uniform_blocks(q)
    if blocks:
        rows, m = blocks
        grid = [k.reshape(rows, m) for k in int_keys]
        if len(grid) == 1:
            local = np.argsort(grid[0], axis=1, kind="stable")
        else:
            local = np.lexsort(grid, axis=1)
        perm: IntArray = (local + (np.arange(rows) * m)[:, None]).ravel()
        return perm
    perm = np.arange(q.shape[0])
    for key in int_keys:
        perm = perm[np.argsort(key[perm], kind="stable")]
    return perm[np.argsort(q[perm], kind="stable")]


def source_order_keys(doc: Document, rows: IntArray) -> IntArray:
    """Code-point order of the source ids of ``rows`` (equal ids, equal keys).

    The whole document's keys are computed once and kept when many rows ask
    (an editor re-evaluates often; source ids never change).
    """
    cached = _SOURCE_RANKS.get(doc)
    if cached is None and rows.size * 5 > len(doc):
        # Python's sort of the distinct ids beats numpy's fixed-width unicode
        # sort by far when ids repeat across queries, and is no slower otherwise.
        ids = doc.source_codes()[1].tolist()
        cached = np.empty(len(ids), dtype=np.int64)
        cached[sorted(range(len(ids)), key=ids.__getitem__)] = np.arange(len(ids))
        _SOURCE_RANKS[doc] = cached
    if cached is not None:
        return cached[doc.source_codes()[0][rows]]
    ids = doc.source_id[rows].tolist()
    rank = {s: i for i, s in enumerate(sorted(set(ids)))}
    return np.fromiter(map(rank.__getitem__, ids), np.int64, rows.size)


#: Per document: each distinct source id's place in code-point order.
_SOURCE_RANKS: weakref.WeakKeyDictionary[Document, IntArray] = weakref.WeakKeyDictionary()


def _order_ranked(
    doc: Document, idx: IntArray | None, gains: FloatArray, ties: TieRule,
    blocks: tuple[int, int] | None,
) -> IntArray:
    """Order the ranked candidates ``idx`` (None: every row): query, score
    descending, then ties."""
    q = doc.query if idx is None else doc.query[idx]
    neg_score = -doc.score if idx is None else np.negative(doc.score[idx], out=None)
    g = gains if idx is None else gains[idx]
    if ties is TieRule.PESSIMISTIC:
        perm = sort_within_queries(q, [g, neg_score], blocks)
    elif ties is TieRule.OPTIMISTIC:
        perm = sort_within_queries(q, [-g, neg_score], blocks)
    else:
        perm = sort_within_queries(q, [neg_score], blocks)
    order = perm if idx is None else idx[perm]
    if ties is TieRule.ID_DESC and order.size > 1:
        qs = doc.query[order]
        ss = doc.score[order]
        same = (qs[1:] == qs[:-1]) & (ss[1:] == ss[:-1])
        if same.any():
            # Only tied candidates need their ids compared (strings are slow).
            tied = np.zeros(order.size, dtype=bool)
            tied[1:] |= same
            tied[:-1] |= same
            pos = np.flatnonzero(tied)
            group = np.cumsum(np.r_[True, ~same])[pos]
            code = source_order_keys(doc, order[pos])
            sub = np.lexsort((-code, group))
            order[pos] = order[pos][sub]
    return order


#: Results that follow from scores, ranks and the inventory only (kept by
#: :meth:`Evaluation.with_queries_from`).
_GRADE_FREE = frozenset({
    "n_total", "n_ranked", "n_retrieved", "n_inventory", "rank", "tie_size",
    "tie_first_rank", "discount",
})

#: Grade-dependent lazy results spliced by :meth:`Evaluation.with_queries_from`
#: when already worked out: per query, or per candidate row.
_PER_QUERY = frozenset({"n_judged", "n_unknown", "n_unrateable"})
_SPLICED = _PER_QUERY | {"outside_rubric", "contribution", "ideal_rank", "ideal_contribution"}


class Evaluation:
    """The engine's results for one document under one set of conventions.

    Per candidate (aligned with the document's rows): ``rank`` (0 when not
    ranked), ``gain`` (NaN when unknown), ``discount`` (the effective,
    tie-averaged discount over the whole list; NaN when not ranked),
    ``contribution`` (gain x discount), ``ideal_rank``, ``ideal_contribution``,
    ``tie_size``. Per query and cutoff: ``dcg``, ``idcg``, ``ndcg`` (NaN where
    not determined) and ``status``.
    """

    def __init__(self, doc: Document, conventions: Conventions) -> None:
        self.doc = doc
        self.conventions = conventions
        c = conventions
        n = len(doc)
        nq = doc.n_queries
        numeric = doc.state == GradeState.NUMBER
        if not c.gain.accepts_negative():
            bad = np.flatnonzero(numeric & (doc.grade < 0))
            if bad.size:
                i = int(bad[0])
                raise InputError(
                    f"grade {doc.grade[i]:g} of source {doc.source_id[i]!r} (query "
                    f"{doc.query_ids[int(doc.query[i])]!r}) is negative, which "
                    f"{c.gain.label} cannot take",
                    hint="choose linear gain or a gain table, or correct the grade",
                )
        if numeric.all():
            gain = c.gain.apply(doc.grade)
        else:
            gain = np.full(n, np.nan)
            gain[numeric] = c.gain.apply(doc.grade[numeric])
            if c.unknown is UnknownRule.ZERO:
                gain[~numeric] = 0.0
        self.gain = gain
        retrieved = ~np.isnan(doc.score)
        ranked = retrieved & numeric if c.unknown is UnknownRule.CONDENSED else retrieved
        inventory = ranked | ~retrieved if c.ideal is IdealInventory.JUDGED else ranked.copy()
        if c.unknown is UnknownRule.CONDENSED:
            inventory &= numeric
        self.ranked_mask = ranked
        self.inventory_mask = inventory

        # Ranked lists, all queries at once. Rows grouped in equal blocks (a
        # run file, a matrix) keep their query column through the sort.
        every = bool(ranked.all())
        idx = None if every else np.flatnonzero(ranked)
        q_ranked = doc.query if idx is None else doc.query[idx]
        blocks = _uniform_blocks(q_ranked)
        order = _order_ranked(doc, idx, gain, c.ties, blocks)
        self.order = order
        if blocks:
            q_sorted = q_ranked
            rank, first = _block_rank(*blocks)
        else:
            q_sorted = doc.query[order]
            rank, first = _segment_rank(q_sorted)
        # Tie groups (only where ties are averaged; otherwise every position
        # stands alone and no group arrays are kept).
        averaged = c.ties is TieRule.AVERAGE and order.size > 0
        self._sorted_group: IntArray | None = None
        self._group_size: IntArray | None = None
        self._new_group: BoolArray | None = None
        if averaged:
            s_sorted = doc.score[order]
            new_group = first.copy()
            if order.size > 1:
                new_group[1:] |= s_sorted[1:] != s_sorted[:-1]
            del s_sorted
            group = np.cumsum(new_group) - 1
            group_size = np.bincount(group)
            self._sorted_group, self._group_size, self._new_group = group, group_size, new_group
        self._sorted_rank = rank
        sorted_discount = discount(rank)
        self._sorted_gain = gain[order]
        self._sorted_query = q_sorted

        # Ideal lists, all queries at once. Their totals need only the gains
        # in order; which candidate stands where is worked out when asked.
        same_rows = every and bool(inventory.all())
        inv = np.arange(n) if same_rows else np.flatnonzero(inventory)
        inv_key = _ideal_key(gain if same_rows else gain[inv])
        inv_query = doc.query if same_rows else doc.query[inv]
        if not same_rows:
            blocks = _uniform_blocks(inv_query)
        if blocks:
            rows, m = blocks
            sorted_gain = np.sort(inv_key.reshape(rows, m), axis=1).ravel()
            sorted_gain = np.negative(sorted_gain, out=sorted_gain)
            ideal_query = inv_query
        else:
            self.__dict__["ideal_order"] = inv[sort_within_queries(inv_query, [inv_key], blocks)]
            sorted_gain = gain[self.ideal_order]
            ideal_query = doc.query[self.ideal_order]
        del inv, inv_key
        sorted_gain[np.isneginf(sorted_gain)] = np.nan  # unknown gains
        ideal_rank = _block_rank(*blocks)[0] if blocks else _segment_rank(ideal_query)[0]
        self._ideal_rank_sorted = ideal_rank
        ideal_discount = discount(ideal_rank)

        self._numeric = numeric
        self._retrieved = retrieved
        #: Per query: candidates whose grade is not known but counts (only
        #: under the ``unresolved`` rule; such a query has no NDCG).
        self.n_open = (
            self._count(inventory & ~numeric) if c.unknown is UnknownRule.UNRESOLVED
            else np.zeros(nq, dtype=np.int64)
        )

        # Per query and cutoff.
        ks = c.cutoffs
        self.dcg = np.empty((nq, len(ks)))
        self.idcg = np.empty((nq, len(ks)))
        if averaged:
            # DCG@k = sum over tie groups of (sum of the group's gains) x (sum
            # of its positions' discounts up to k) / (its size); only groups
            # that start within k add anything, so unknown gains further down
            # do not make DCG@k unknown.
            starts = np.flatnonzero(new_group)
            group_gain = np.bincount(group, weights=self._sorted_gain, minlength=starts.size)
            group_query = q_sorted[starts]
        else:
            contrib_all = self._sorted_gain * sorted_discount
            del sorted_discount
        # Large inputs: keep few full-length temporaries alive at once.
        icontrib_all = np.multiply(sorted_gain, ideal_discount, out=sorted_gain)
        del ideal_discount, first, q_ranked, idx
        for j, k in enumerate(ks):
            keep = rank <= k if k is not None else None
            if averaged:
                d = sorted_discount if keep is None else sorted_discount[keep]
                g = group if keep is None else group[keep]
                disc = np.bincount(g, weights=d, minlength=starts.size)
                with np.errstate(invalid="ignore"):
                    per_group = np.where(disc > 0, group_gain * disc / group_size, 0.0)
                self.dcg[:, j] = np.bincount(group_query, weights=per_group, minlength=nq)
            else:
                self.dcg[:, j] = np.bincount(
                    q_sorted if keep is None else q_sorted[keep],
                    weights=contrib_all if keep is None else contrib_all[keep], minlength=nq,
                )
            ikeep = ideal_rank <= k if k is not None else None
            self.idcg[:, j] = np.bincount(
                ideal_query if ikeep is None else ideal_query[ikeep],
                weights=icontrib_all if ikeep is None else icontrib_all[ikeep], minlength=nq,
            )
        unresolved = self.n_open > 0
        self.idcg[unresolved, :] = np.nan
        with np.errstate(divide="ignore", invalid="ignore"):
            ndcg = self.dcg / self.idcg
        zero = self.idcg == 0
        ndcg[zero] = 0.0 if c.zero_ideal is ZeroIdealRule.ZERO else np.nan
        ndcg[unresolved, :] = np.nan
        self.ndcg = ndcg
        status = np.zeros((nq, len(ks)), dtype=np.int8)
        if c.zero_ideal is ZeroIdealRule.UNDEFINED:
            status[zero] = 1
        status[unresolved, :] = 2
        self.status_code = status

    # -- helpers ------------------------------------------------------------------------
    def _effective_discount(self, k: int | None) -> FloatArray:
        """Per ranked position: the mean discount of its tie group's positions
        up to ``k`` (the plain discount where ties are not averaged)."""
        rank = self._sorted_rank
        d = discount(rank)
        if k is not None:
            d = np.where(rank <= k, d, 0.0)
        if self._sorted_group is None or self._group_size is None:
            return d
        sums = np.bincount(self._sorted_group, weights=d, minlength=self._group_size.size)
        eff: FloatArray = (sums / self._group_size)[self._sorted_group]
        return eff

    # -- counts per query (computed when asked) ----------------------------------------
    def _count(self, mask: BoolArray) -> IntArray:
        counts: IntArray = np.bincount(self.doc.query[mask], minlength=self.doc.n_queries)
        return counts.astype(np.int64)

    @cached_property
    def n_total(self) -> IntArray:
        """Candidates per query."""
        counts: IntArray = np.bincount(self.doc.query, minlength=self.doc.n_queries)
        return counts.astype(np.int64)

    @cached_property
    def n_ranked(self) -> IntArray:
        """Candidates in each ranked list."""
        return self._count(self.ranked_mask)

    @cached_property
    def n_retrieved(self) -> IntArray:
        """Candidates with a predicted score."""
        return self._count(self._retrieved)

    @cached_property
    def n_judged(self) -> IntArray:
        """Candidates with a numeric grade."""
        return self._count(self._numeric)

    @cached_property
    def n_unknown(self) -> IntArray:
        return self._count(self.doc.state == GradeState.UNKNOWN)

    @cached_property
    def n_unrateable(self) -> IntArray:
        return self._count(self.doc.state == GradeState.UNRATEABLE)

    @cached_property
    def n_inventory(self) -> IntArray:
        """Candidates in each ideal inventory."""
        return self._count(self.inventory_mask)

    @cached_property
    def outside_rubric(self) -> BoolArray:
        """Numeric grades that the declared rubric does not permit."""
        rubric = self.conventions.rubric
        if rubric is None:
            return np.zeros(len(self.doc), dtype=bool)
        outside: BoolArray = self._numeric & ~rubric.contains(self.doc.grade)
        return outside

    # -- per candidate, aligned with the document's rows (computed when asked) ------------
    def _scatter(self, values: npt.NDArray[np.generic], fill: float | int,
                 where: IntArray) -> npt.NDArray[np.generic]:
        out = np.full(len(self.doc), fill, dtype=values.dtype)
        out[where] = values
        return out

    @cached_property
    def rank(self) -> IntArray:
        """1-based rank of each candidate; 0 when not ranked."""
        return self._scatter(self._sorted_rank, 0, self.order)  # type: ignore[return-value]

    @cached_property
    def tie_size(self) -> IntArray:
        """Size of each ranked candidate's tie group (1 when not tied)."""
        if self._sorted_group is None or self._group_size is None:
            size = np.ones(self.order.size, dtype=np.int64)
        else:
            size = self._group_size[self._sorted_group]
        return self._scatter(size, 0, self.order)  # type: ignore[return-value]

    @cached_property
    def tie_first_rank(self) -> IntArray:
        """The first rank of each ranked candidate's tie group."""
        if self._sorted_group is None or self._new_group is None:
            return self.rank
        first_rank = self._sorted_rank[np.flatnonzero(self._new_group)]
        return self._scatter(first_rank[self._sorted_group], 0, self.order)  # type: ignore[return-value]

    @cached_property
    def discount(self) -> FloatArray:
        """The effective (tie-averaged where declared) discount over the whole
        list; NaN when not ranked."""
        return self._scatter(self._effective_discount(None), np.nan, self.order)  # type: ignore[return-value]

    @cached_property
    def contribution(self) -> FloatArray:
        """gain x discount over the whole list (NaN when either is unknown)."""
        out: FloatArray = self.gain * self.discount
        return out

    @cached_property
    def ideal_order(self) -> IntArray:
        """Candidate indices of every ideal list, query by query, best first."""
        inv = np.flatnonzero(self.inventory_mask)
        perm = sort_within_queries(self.doc.query[inv], [_ideal_key(self.gain[inv])])
        order: IntArray = inv[perm]
        return order

    @cached_property
    def ideal_rank(self) -> IntArray:
        """Rank in the ideal list; 0 when not in the ideal inventory."""
        return self._scatter(self._ideal_rank_sorted, 0, self.ideal_order)  # type: ignore[return-value]

    @cached_property
    def ideal_contribution(self) -> FloatArray:
        """gain x discount at the ideal rank; NaN outside the inventory."""
        values = self.gain[self.ideal_order] * discount(self._ideal_rank_sorted)
        return self._scatter(values, np.nan, self.ideal_order)  # type: ignore[return-value]

    def contribution_at(self, k: int | None) -> FloatArray:
        """Each candidate's contribution to DCG@k (0 beyond k, NaN when its
        gain is unknown and it counts)."""
        out = np.zeros(len(self.doc))
        eff = self._effective_discount(k)
        out[self.order] = np.where(eff > 0, self._sorted_gain * eff, 0.0)
        out[~self.ranked_mask] = np.nan
        return out

    def cumulative_dcg(self, q: int) -> FloatArray:
        """Running DCG down query ``q``'s ranked list, aligned with :meth:`ranked`:
        the sum of the contributions at ranks 1..r (NaN from the first unknown
        gain on)."""
        return np.cumsum(self.contribution[self.ranked(q)])

    # -- per query views ------------------------------------------------------------------
    @property
    def cutoffs(self) -> tuple[int | None, ...]:
        return self.conventions.cutoffs

    def status(self, q: int, j: int = 0) -> Status:
        return _STATUS[int(self.status_code[q, j])]

    def query_status(self, q: int) -> Status:
        """The query's worst status over the cutoffs."""
        return _STATUS[int(self.status_code[q].max())]

    def cutoff_results(self, q: int) -> list[QueryCutoff]:
        def val(x: float) -> float | None:
            return None if np.isnan(x) else float(x)

        return [
            QueryCutoff(
                k,
                val(self.dcg[q, j]),
                val(self.idcg[q, j]),
                val(self.ndcg[q, j]),
                self.status(q, j),
            )
            for j, k in enumerate(self.cutoffs)
        ]

    @property
    def sorted_query(self) -> IntArray:
        """The query of each position of :attr:`order` (ascending)."""
        return self._sorted_query

    def positions(self, q: int) -> tuple[int, int]:
        """The slice of :attr:`order` that holds query ``q``'s ranked candidates."""
        lo, hi = np.searchsorted(self._sorted_query, [q, q + 1])
        return int(lo), int(hi)

    def ranked(self, q: int) -> IntArray:
        """Candidate indices of query ``q`` in evaluated order."""
        lo, hi = self.positions(q)
        return self.order[lo:hi]

    def effective_discount(self, k: int | None) -> FloatArray:
        """The discount each position of :attr:`order` takes at cutoff ``k``:
        the mean discount of its tie group's positions up to ``k`` where ties
        are averaged, else its own (0 past ``k``)."""
        return self._effective_discount(k)

    def with_queries_from(self, part: Evaluation, members: IntArray) -> Evaluation:
        """This evaluation with the grade-dependent results of some queries
        taken from ``part``, an evaluation of ``doc.subset(members)`` under
        the same conventions (``members``: every row of those queries, in
        document order).

        Valid only while the ranked order and the ideal inventory do not
        depend on grades (see :func:`core.engine.incremental.reevaluate`): what
        follows from scores and ranks alone is kept; gains, the ideal order
        within each query, and the per-query numbers are spliced in.
        """
        doc = self.doc
        queries = np.unique(doc.query[members])
        new = copy.copy(self)
        for name, attr in vars(Evaluation).items():
            if isinstance(attr, cached_property) and name not in _GRADE_FREE:
                old = new.__dict__.pop(name, None)
                # What this evaluation worked out already is spliced too (the
                # editor asks for it after every edit), per query or per row.
                if old is not None and name in _SPLICED:
                    values = old.copy()
                    values[queries if name in _PER_QUERY else members] = getattr(part, name)
                    new.__dict__[name] = values
        new.gain = self.gain.copy()
        new.gain[members] = part.gain
        new._numeric = self._numeric.copy()
        new._numeric[members] = part._numeric
        new._sorted_gain = self._sorted_gain.copy()
        bounds = np.searchsorted(self._sorted_query, np.stack([queries, queries + 1]))
        for lo, hi in zip(bounds[0].tolist(), bounds[1].tolist(), strict=True):
            new._sorted_gain[lo:hi] = new.gain[self.order[lo:hi]]
        # The ideal lists keep their places (the inventory does not follow
        # grades); the changed queries' lists are re-sorted in the part.
        ideal = self.ideal_order.copy()
        # The ideal lists follow the queries in order, n_inventory long each.
        ideal_start = np.concatenate([[0], np.cumsum(self.n_inventory)])
        ideal_bounds = np.stack([ideal_start[queries], ideal_start[queries + 1]])
        part_ideal = members[part.ideal_order]
        at = 0
        for lo, hi in zip(ideal_bounds[0].tolist(), ideal_bounds[1].tolist(), strict=True):
            ideal[lo:hi] = part_ideal[at:at + hi - lo]
            at += hi - lo
        new.__dict__["ideal_order"] = ideal
        new.n_open = self.n_open.copy()
        new.n_open[queries] = part.n_open
        for name in ("dcg", "idcg", "ndcg", "status_code"):
            values = getattr(self, name).copy()
            values[queries] = getattr(part, name)
            setattr(new, name, values)
        return new

    def ideal(self, q: int) -> IntArray:
        """Candidate indices of query ``q``'s ideal list, best first."""
        qs = self.doc.query[self.ideal_order]
        lo, hi = np.searchsorted(qs, [q, q + 1])
        return self.ideal_order[lo:hi]

    def not_retrieved(self, q: int) -> IntArray:
        """Judged-but-not-retrieved candidates of query ``q``."""
        members = self.doc.members(q)
        return members[np.isnan(self.doc.score[members])]

    def tie_groups(self, q: int) -> list[tuple[int, int]]:
        """(first rank, last rank) of every tie group of two or more."""
        idx = self.ranked(q)
        firsts = {
            (int(self.tie_first_rank[i]), int(self.tie_first_rank[i] + self.tie_size[i] - 1))
            for i in idx
            if self.tie_size[i] > 1
        }
        if self.conventions.ties is not TieRule.AVERAGE:
            # Groups are not merged in the arithmetic, but equal scores still tie.
            scores = self.doc.score[idx]
            out, start = [], 0
            for r in range(1, len(idx) + 1):
                if r == len(idx) or scores[r] != scores[start]:
                    if r - start > 1:
                        out.append((start + 1, r))
                    start = r
            return out
        return sorted(firsts)

    def describe_k(self, k: int | None) -> str:
        return f"NDCG@{format_cutoff(k)}"


def evaluate(doc: Document, conventions: Conventions | None = None) -> Evaluation:
    """Evaluate every query of ``doc`` under ``conventions``.

    Parameters
    ----------
    doc : Document
        Queries and candidates.
    conventions : Conventions, optional
        Defaults to the document's own.

    Examples
    --------
    Case A of the seed: grades A=3, B=1, C=0 ranked B, A, C.

    >>> doc = Document.from_columns(query=["A"] * 3, source_id=["B", "A", "C"],
    ...                             score=[3, 2, 1], grade=[1, 3, 0])
    >>> float(evaluate(doc).ndcg[0, 0])  # (1 + 3/log2 3) / (3 + 1/log2 3)
    0.7967075809905066
    """
    return Evaluation(doc, conventions or doc.conventions)
