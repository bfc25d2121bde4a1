"""The NDCG engine: every candidate's rank, gain, discount and contribution,
and DCG, ideal DCG and NDCG per query at each declared cutoff.

All queries are evaluated at once with array operations (one sort for the
ranked lists, one for the ideal lists); no Python loop runs per candidate.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

import numpy as np
import numpy.typing as npt

from core.engine.gains import check_totals, gains
from core.engine.order import (  # sort_within_queries, source_order_keys: re-exported
    ideal_key,
    ideal_lists,
    ranked_lists,
    score_ties,
    sort_within_queries,
    source_order_keys,
)
from core.engine.values import (  # Status, QueryCutoff, discount: re-exported
    _STATUS,
    QueryCutoff,
    Status,
    discount,
)
from core.model.conventions import (
    Conventions,
    IdealInventory,
    Rubric,
    TieRule,
    UnknownRule,
    ZeroIdealRule,
    format_cutoff,
)
from core.model.document import Document, GradeState
from core.model.rubric import outside_rubric

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
        self.conventions = c = conventions
        numeric = doc.state == GradeState.NUMBER
        retrieved = ~np.isnan(doc.score)
        self._numeric = numeric
        self._retrieved = retrieved
        self.gain = gains(doc, c, numeric)
        ranked = retrieved & numeric if c.unknown is UnknownRule.CONDENSED else retrieved
        inventory = ranked | ~retrieved if c.ideal is IdealInventory.JUDGED else ranked.copy()
        if c.unknown is UnknownRule.CONDENSED:
            inventory &= numeric
        self.ranked_mask = ranked
        self.inventory_mask = inventory
        #: Per query: candidates whose grade is not known but counts (only
        #: under the ``unresolved`` rule; such a query has no NDCG).
        self.n_open = (
            self._count(inventory & ~numeric) if c.unknown is UnknownRule.UNRESOLVED
            else np.zeros(doc.n_queries, dtype=np.int64)
        )
        # One step at a time, so that few full-length temporaries of large
        # inputs are alive at once.
        blocks = self._blocks = self._rank_lists()
        self.dcg = self._dcg_at_cutoffs()
        self.idcg = self._idcg_at_cutoffs(blocks)
        self.ndcg, self.status_code = self._ndcg_and_status()
        check_totals(self)

    # -- the steps of __init__ ------------------------------------------------------------
    def _rank_lists(self) -> tuple[int, int] | None:
        """Order the ranked lists and find their tie groups where ties are
        averaged (otherwise every position stands alone and no group arrays
        are kept). Returns the ranked rows' uniform blocks (the ideal lists
        reuse them when they hold the same rows)."""
        order, q_sorted, rank, first, blocks = ranked_lists(
            self.doc, self.ranked_mask, self.gain, self.conventions.ties)
        self.order = order
        self._sorted_group: IntArray | None = None
        self._group_size: IntArray | None = None
        self._new_group: BoolArray | None = None
        if self.conventions.ties is TieRule.AVERAGE and order.size > 0:
            self._sorted_group, self._group_size, self._new_group = score_ties(
                self.doc.score, order, first)
        self._sorted_rank = rank
        self._sorted_gain = self.gain[order]
        self._sorted_query = q_sorted
        return blocks

    def _dcg_at_cutoffs(self) -> FloatArray:
        """DCG per query (rows) and cutoff (columns) over the ranked lists."""
        nq = self.doc.n_queries
        ks = self.cutoffs
        rank, q_sorted = self._sorted_rank, self._sorted_query
        group, group_size = self._sorted_group, self._group_size
        sorted_discount = discount(rank)
        dcg = np.empty((nq, len(ks)))
        if group is not None and group_size is not None and self._new_group is not None:
            # DCG@k = sum over tie groups of (sum of the group's gains) x (sum
            # of its positions' discounts up to k) / (its size); only groups
            # that start within k add anything, so unknown gains further down
            # do not make DCG@k unknown.
            starts = np.flatnonzero(self._new_group)
            group_gain = np.bincount(group, weights=self._sorted_gain, minlength=starts.size)
            group_query = q_sorted[starts]
            disc_all = np.bincount(group, weights=sorted_discount, minlength=starts.size)
            first_rank = rank[starts]
            for j, k in enumerate(ks):
                dcg[:, j] = _group_dcg(k, starts, first_rank, group_size, group_gain,
                                       group_query, disc_all, sorted_discount, nq)
            return dcg
        contrib_all = sorted_discount
        contrib_all *= self._sorted_gain
        for j, k in enumerate(ks):
            keep = rank <= k if k is not None else None
            dcg[:, j] = np.bincount(
                q_sorted if keep is None else q_sorted[keep],
                weights=contrib_all if keep is None else contrib_all[keep], minlength=nq,
            )
        return dcg

    def _idcg_at_cutoffs(self, blocks: tuple[int, int] | None) -> FloatArray:
        """Ideal DCG per query and cutoff (NaN for a query with open grades).

        The ideal lists of all queries at once. Their totals need only the
        gains in order; which candidate stands where is worked out when asked
        (:attr:`ideal_order`), unless the sort finds it anyway.
        """
        nq = self.doc.n_queries
        same_rows = bool(self.ranked_mask.all()) and bool(self.inventory_mask.all())
        sorted_gain, ideal_query, ideal_rank, ideal_order = ideal_lists(
            self.doc, self.gain, self.inventory_mask, same_rows, blocks)
        if ideal_order is not None:
            self.__dict__["ideal_order"] = ideal_order
        self._ideal_rank_sorted = ideal_rank
        # Large inputs: the contributions take the sorted gains' place.
        icontrib_all = np.multiply(sorted_gain, discount(ideal_rank), out=sorted_gain)
        idcg = np.empty((nq, len(self.cutoffs)))
        for j, k in enumerate(self.cutoffs):
            ikeep = ideal_rank <= k if k is not None else None
            idcg[:, j] = np.bincount(
                ideal_query if ikeep is None else ideal_query[ikeep],
                weights=icontrib_all if ikeep is None else icontrib_all[ikeep], minlength=nq,
            )
        idcg[self.n_open > 0, :] = np.nan
        return idcg

    def _ndcg_and_status(self) -> tuple[FloatArray, npt.NDArray[np.int8]]:
        """NDCG = DCG / ideal DCG per query and cutoff, and each one's status
        code (an index into :data:`_STATUS`)."""
        c = self.conventions
        unresolved = self.n_open > 0
        with np.errstate(divide="ignore", invalid="ignore"):
            ndcg = self.dcg / self.idcg
        zero = self.idcg == 0
        ndcg[zero] = 0.0 if c.zero_ideal is ZeroIdealRule.ZERO else np.nan
        ndcg[unresolved, :] = np.nan
        status = np.zeros(ndcg.shape, dtype=np.int8)
        if c.zero_ideal is ZeroIdealRule.UNDEFINED:
            status[zero] = 1
        status[unresolved, :] = 2
        return ndcg, status

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
    def rubric(self) -> Rubric:
        """The grade scale: the declared rubric, or the one the document's
        grades imply (:meth:`~core.model.conventions.Conventions.rubric_for`)."""
        return self.conventions.rubric_for(self.doc.grade)

    @cached_property
    def outside_rubric(self) -> BoolArray:
        """Numeric grades that the declared rubric does not permit (see
        :func:`core.model.rubric.outside_rubric`)."""
        return outside_rubric(self.conventions.rubric, self.doc.grade, self.doc.ratings,
                              self._numeric)

    # -- per candidate, aligned with the document's rows (computed when asked) ------------
    def _scatter(self, values: npt.NDArray[np.generic], fill: float | int,
                 where: IntArray) -> npt.NDArray[np.generic]:
        dtype = np.int64 if values.dtype.kind in "iu" else values.dtype  # (ranks: int32)
        out = np.full(len(self.doc), fill, dtype=dtype)
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
        return self._scatter(self.effective_discount(None), np.nan, self.order)  # type: ignore[return-value]

    @cached_property
    def contribution(self) -> FloatArray:
        """gain x discount over the whole list (NaN when either is unknown)."""
        out: FloatArray = self.gain * self.discount
        return out

    @cached_property
    def ideal_order(self) -> IntArray:
        """Candidate indices of every ideal list, query by query, best first."""
        inv = np.flatnonzero(self.inventory_mask)
        perm = sort_within_queries(self.doc.query[inv], [ideal_key(self.gain[inv])])
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
        eff = self.effective_discount(k)
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

    def status_table(self) -> tuple[list[list[Status]], list[Status]]:
        """Every query's status at each cutoff, and its worst one (as
        :meth:`status` and :meth:`query_status`, all at once)."""
        codes = self.status_code
        at_cutoffs = [[_STATUS[c] for c in row] for row in codes.tolist()]
        worst = [_STATUS[c] for c in codes.max(axis=1, initial=0).tolist()]
        return at_cutoffs, worst

    def cutoff_results(self, q: int) -> list[QueryCutoff]:
        def val(x: float) -> float | None:
            return None if np.isnan(x) else float(x)

        return [QueryCutoff(k, val(self.dcg[q, j]), val(self.idcg[q, j]), val(self.ndcg[q, j]),
                            self.status(q, j)) for j, k in enumerate(self.cutoffs)]

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

    def effective_discount(self, k: int | None, q: int | None = None, *,
                           span: tuple[int, int] | None = None) -> FloatArray:
        """The discount each position of :attr:`order` (with ``q``: of
        :meth:`positions` ``(q)`` only; with ``span``: of those positions, which
        hold whole queries) takes at cutoff ``k``: the mean discount of its
        tie group's positions up to ``k`` where ties are averaged, else its
        own (0 past ``k``)."""
        if span is not None:
            lo, hi = span
        else:
            lo, hi = self.positions(q) if q is not None else (0, self.order.size)
        rank = self._sorted_rank[lo:hi]
        d = discount(rank)
        if k is not None:
            d[rank > k] = 0.0
        if self._sorted_group is None or self._group_size is None:
            return d
        group = self._sorted_group[lo:hi]
        first = int(group[0]) if lo and group.size else 0  # a query holds whole tie groups
        if first:
            group = group - first
        size = self._group_size[first:(first + int(group[-1]) + 1) if group.size else 0]
        sums = np.bincount(group, weights=d, minlength=size.size).astype(np.float64, copy=False)
        sums /= size
        eff: FloatArray = sums[group]
        return eff

    @property
    def sorted_gain(self) -> FloatArray:
        """The gain of each position of :attr:`order` (NaN: unknown)."""
        return self._sorted_gain

    @cached_property
    def _ideal_start(self) -> IntArray:
        """Where each query's ideal list starts in :attr:`ideal_order` (the
        lists follow the queries in order, :attr:`n_inventory` long each)."""
        return np.concatenate([[0], np.cumsum(self.n_inventory)])

    def ideal_range(self, q: int) -> tuple[int, int]:
        """The slice of :attr:`ideal_order` that holds query ``q``'s ideal list."""
        lo, hi = self._ideal_start[q:q + 2].tolist()
        return int(lo), int(hi)

    def ideal_gains(self) -> tuple[FloatArray, IntArray]:
        """Every query's ideal list as gains, best first and unknown (NaN)
        last, with the query of each position: the gains of
        :attr:`ideal_order`, found by sorting the values only when the order
        has not been worked out."""
        if "ideal_order" in self.__dict__:
            order = self.ideal_order
            return self.gain[order], self.doc.query[order]
        same_rows = bool(self.ranked_mask.all()) and bool(self.inventory_mask.all())
        gains, query, _, _ = ideal_lists(self.doc, self.gain, self.inventory_mask, same_rows,
                                         self._blocks)
        return gains, query

    def ideal(self, q: int) -> IntArray:
        """Candidate indices of query ``q``'s ideal list, best first."""
        lo, hi = self.ideal_range(q)
        return self.ideal_order[lo:hi]

    def not_retrieved(self, q: int) -> IntArray:
        """Judged-but-not-retrieved candidates of query ``q``."""
        members = self.doc.members(q)
        return members[np.isnan(self.doc.score[members])]

    def tie_groups(self, q: int) -> list[tuple[int, int]]:
        """(first rank, last rank) of every tie group of two or more in query
        ``q``'s ranked list: runs of equal scores (under every tie rule; only
        ``average`` merges them in the arithmetic), from the query's rows."""
        scores = self.doc.score[self.ranked(q)]
        if scores.size < 2:
            return []
        starts = np.flatnonzero(np.concatenate([[True], scores[1:] != scores[:-1]]))
        ends = np.append(starts[1:], scores.size)
        long = ends - starts > 1
        return list(zip((starts[long] + 1).tolist(), ends[long].tolist(), strict=True))

    def describe_k(self, k: int | None) -> str:
        return f"NDCG@{format_cutoff(k)}"


def _group_dcg(k: int | None, starts: IntArray, first_rank: npt.NDArray[Any],
               size: IntArray, gain: npt.NDArray[Any], query: npt.NDArray[Any],
               disc_all: npt.NDArray[Any], sorted_discount: FloatArray,
               nq: int) -> FloatArray:
    """DCG@k per query from tie groups (their first positions ``starts`` and
    ranks, sizes, gain totals, queries and discount totals): groups wholly
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
            pos = np.repeat(starts[g] - np.cumsum(n) + n, n) + np.arange(int(n.sum()))
            owner = np.repeat(np.arange(cut.size), n)
            disc[cut] = np.bincount(owner, weights=sorted_discount[pos], minlength=cut.size)
    g_gain, g_size = (gain, size) if k is None else (gain[within], size[within])
    # In place: one array as long as the groups, not three.
    with np.errstate(invalid="ignore"):  # an infinite gain times a zero discount
        per_group = np.multiply(g_gain, disc, dtype=np.float64)
        per_group /= g_size
    per_group[disc <= 0] = 0.0
    q = query if k is None else query[within]
    out: FloatArray = np.bincount(q, weights=per_group, minlength=nq).astype(np.float64,
                                                                             copy=False)
    return out


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
