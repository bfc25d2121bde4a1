"""The NDCG engine: every candidate's rank, gain, discount and contribution,
and DCG, ideal DCG and NDCG per query at each declared cutoff.

All queries are evaluated at once with array operations (one sort for the
ranked lists, one for the ideal lists); no Python loop runs per candidate.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from core.engine import released
from core.engine.counts import counts_by_pair, counts_in_spans, counts_where, span_sizes
from core.engine.discount import discount, divides, terms  # discount: re-exported
from core.engine.gains import check_totals, gains, gains_at, lifted
from core.engine.ideal import ideal_lists
from core.engine.lazy import GradeFree, Lazy, PerQuery, PerRow, Remade
from core.engine.order import (  # sort_within_queries, source_order_keys: re-exported
    RankArray,
    block_rank,
    ideal_key,
    list_rank,
    list_starts,
    prefixes,
    ranked_lists,
    ranked_ties,
    sort_within_queries,
    source_order_keys,
    tie_runs,
    tie_starts,
)
from core.engine.ranked import RankedRows
from core.engine.results import QueryCutoff, QueryResults, Status  # re-exported
from core.engine.sklearn_sums import SKLEARN, sklearn_dcg, sklearn_idcg
from core.engine.sums import (
    CHUNK,
    TieGroups,
    group_first,
    group_means,
    position_terms,
    sums_in_chunks,
    tie_group_dcg,
    tie_group_heads,
    tie_group_numbers,
    whole_chunks,
)
from core.model.conventions import (
    Conventions,
    IdealInventory,
    Rubric,
    TieRule,
    UnknownRule,
    format_cutoff,
)
from core.model.document import Document, GradeState
from core.model.presets import matching_presets
from core.model.rubric import outside_rubric

__all__ = [
    "Evaluation",
    "QueryCutoff",
    "QueryResults",
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
    ``contribution`` (gain x discount; the term the DCG adds,
    :meth:`position_terms`), ``ideal_rank``, ``ideal_contribution``,
    ``tie_size``. Per query and cutoff: ``dcg``, ``idcg``, ``ndcg`` (NaN where
    not determined) and ``status``, kept in :attr:`results`.

    Results worked out when asked say what a grade edit does to them
    (:mod:`core.engine.lazy`), so the splice after an edit
    (:func:`core.engine.splice.spliced`) needs no list of names.
    """

    #: Each candidate's gain (:func:`~core.engine.gains.gains`; NaN when unknown).
    gain: Remade[FloatArray] = Remade()
    #: Each ranked position's 1-based rank in its list (int32).
    _sorted_rank: Remade[RankArray] = Remade()

    def __init__(self, doc: Document, conventions: Conventions, *,
                 for_report: bool = False, lift: int = 0) -> None:
        self.doc = doc
        self.conventions = conventions
        self._lift = lift
        c = conventions
        # (compared with a plain int: an IntEnum member made numpy cast the
        # int8 states to int64 first, 16 MB and ~2 ms at 2.1M rows, hopen11)
        numeric = doc.state == int(GradeState.NUMBER)
        retrieved = ~np.isnan(doc.score)
        self._numeric = numeric
        self._retrieved = retrieved
        self.gain = gains(doc, c, numeric, lift)
        ranked = retrieved & numeric if c.unknown is UnknownRule.CONDENSED else retrieved
        inventory = ranked | ~retrieved if c.ideal is IdealInventory.JUDGED else ranked.copy()
        if c.unknown is UnknownRule.CONDENSED:
            inventory &= numeric
        self.ranked_mask = ranked
        self.inventory_mask = inventory
        # (the ideal lists then reuse the ranked rows' layout)
        self._inventory_is_ranked = c.ideal is IdealInventory.RANKED or bool(
            inventory.all() and ranked.all())
        n_open = (
            self._count(inventory & ~numeric) if c.unknown is UnknownRule.UNRESOLVED
            else np.zeros(doc.n_queries, dtype=np.int64)
        )
        # One step at a time, so that few full-length temporaries of large
        # inputs are alive at once.
        #: A peer's own order of arithmetic, where the conventions match its
        #: preset: scikit-learn's sums (:mod:`core.engine.sklearn_sums`), or
        #: each gain divided by C's log2 (:func:`core.engine.discount.divides`).
        self._sklearn = SKLEARN in matching_presets(c)
        self._divide = divides(c)
        blocks = self._rank_lists()
        self._blocks = blocks
        dcg = self._dcg_at_cutoffs()
        # The ranked gains gathered for the sums (a copy unless the ranked
        # rows are the first rows in their own order) are let go and gathered
        # again when asked: 16 MB at 2M candidates (trec_eval's tie order),
        # which sat under the ideal lists and, in compare, each side's life.
        if not np.may_share_memory(self._sorted_gain, self.gain):
            self._sorted_gain: FloatArray | None = None
        # Open grades, and a report to bound them: its bounds take the ideal
        # lists' gains (others, e.g. the editor's, would hold them for the
        # evaluation's life: 16 MB at 2M candidates).
        open_queries = n_open > 0
        idcg = self._idcg_at_cutoffs(blocks, keep=for_report and bool(open_queries.any()),
                                     unneeded=open_queries)
        #: Every query's numbers (:class:`~core.engine.results.QueryResults`).
        self.results = lifted(self, QueryResults.from_sums(
            dcg, idcg, n_open, c.zero_ideal, self.n_ranked == 0, c.unranked))
        check_totals(self)

    # -- the per-query results, by name ---------------------------------------------
    @property
    def dcg(self) -> FloatArray:
        """DCG per query (rows) and cutoff (columns)."""
        return self.results.dcg

    @property
    def idcg(self) -> FloatArray:
        """Ideal DCG per query and cutoff (NaN for a query with open grades)."""
        return self.results.idcg

    @property
    def ndcg(self) -> FloatArray:
        """NDCG per query and cutoff (NaN where not determined)."""
        return self.results.ndcg

    @property
    def status_code(self) -> npt.NDArray[np.int8]:
        """Each query's status code per cutoff (see :meth:`status`)."""
        return self.results.status_code

    @property
    def n_open(self) -> IntArray:
        """Per query: candidates whose grade is not known but counts (only
        under the ``unresolved`` rule; such a query has no NDCG)."""
        return self.results.n_open

    # -- the steps of __init__ ------------------------------------------------------------
    def _rank_lists(self) -> tuple[int, int] | None:
        """Order the ranked lists and find their tie groups where ties are
        averaged (otherwise every position stands alone and no group arrays
        are kept). Returns the ranked rows' uniform blocks (the ideal lists
        reuse them when they hold the same rows)."""
        order, q_sorted, rank, first, blocks = ranked_lists(
            self.doc, self.ranked_mask, self.gain, self.conventions.ties)
        self._rows = RankedRows(order)
        # (where each tie group starts: each reader numbers its positions'
        # groups, sums.tie_group_numbers)
        self._new_group: BoolArray | None = None
        if self.conventions.ties is TieRule.AVERAGE and order.size > 0:
            self._new_group = ranked_ties(self.doc, order, first)
        self._sorted_rank = rank
        # The first rows in their own order (a run in score order, ties
        # averaged) share the gain column rather than copy it, and keep no order.
        self._sorted_gain = self._rows.take(self.gain)
        self._sorted_query = q_sorted
        return blocks

    def _dcg_at_cutoffs(self) -> FloatArray:
        """DCG per query (rows) and cutoff (columns) over the ranked lists."""
        nq = self.doc.n_queries
        ks = self.cutoffs
        rank = self._sorted_rank
        q_sorted = self._sorted_query
        if self._new_group is not None:
            # Only groups that start within k add anything, so unknown gains
            # further down do not make DCG@k unknown.
            if self._sklearn:
                return sklearn_dcg(self.sorted_gain, q_sorted, rank, self._new_group, ks, nq)
            return tie_group_dcg(self.sorted_gain, q_sorted, rank, self._new_group, ks, nq)
        # (a chunk of whole lists at a time: no full-length copy of the gains)
        starts = np.searchsorted(q_sorted, np.arange(nq + 1))
        return sums_in_chunks(self.sorted_gain, rank, self._blocks, starts, ks, nq,
                              divide=self._divide)

    def _idcg_at_cutoffs(self, blocks: tuple[int, int] | None, keep: bool,
                         unneeded: BoolArray) -> FloatArray:
        """Ideal DCG per query and cutoff (open grades not yet set to NaN;
        ``unneeded``: the queries with open grades, whose ideal DCG is NaN
        then, which may be left unsummed).

        The ideal lists of all queries at once. Their totals need only the
        gains in order; which candidate stands where is worked out when asked
        (:attr:`ideal_order`), unless the sort finds it anyway. ``keep``: the
        gains in order are kept for :meth:`ideal_gains` (the bounds of open
        queries), and the contributions made a chunk at a time beside them.
        """
        nq = self.doc.n_queries
        sorted_gain, starts, ideal_rank, ideal_order, ideal_blocks = ideal_lists(
            self.doc, self.gain, self.inventory_mask, self._inventory_is_ranked, blocks,
            self._sorted_rank, lazy=not keep)
        if ideal_order is not None:
            self.__dict__["ideal_order"] = ideal_order
        self._ideal_blocks = ideal_blocks
        if ideal_rank is not None:  # (else worked out when asked)
            self.__dict__["_ideal_rank_sorted"] = ideal_rank
        self._kept_ideal: tuple[FloatArray, IntArray] | None = None
        if keep and isinstance(sorted_gain, np.ndarray):  # (always: lazy only if not keep)
            self._kept_ideal = sorted_gain, starts
        # Large inputs: unless kept, the contributions take the sorted gains'
        # place, or each chunk's lists are laid out from their counts in turn
        # (no whole list of negated keys or gains: 2 x 16 MB at 2M candidates).
        if self._sklearn:
            laid = sorted_gain if isinstance(sorted_gain, np.ndarray) else sorted_gain.gains(0, nq)
            return sklearn_idcg(laid, starts, self.cutoffs, nq)
        return sums_in_chunks(sorted_gain, ideal_rank, ideal_blocks, starts, self.cutoffs, nq,
                              overwrite=not keep, divide=self._divide, unneeded=unneeded)

    # -- counts per query (computed when asked) ----------------------------------------
    # (a document whose rows come query by query, in a few runs, a TREC run
    # joined with its qrels, counts a span at a time: Document.query_spans)
    def _count(self, mask: BoolArray) -> IntArray:
        spans = self.doc.query_spans()
        if spans is not None:
            return counts_in_spans(mask, spans)
        return counts_where(self.doc.query, mask, self.doc.n_queries)

    @GradeFree
    def n_total(self) -> IntArray:
        """Candidates per query."""
        spans = self.doc.query_spans()
        if spans is not None:
            return span_sizes(spans)
        counts: IntArray = np.bincount(self.doc.query, minlength=self.doc.n_queries)
        return counts.astype(np.int64)

    @GradeFree
    def n_ranked(self) -> IntArray:
        """Candidates in each ranked list."""
        return self._count(self.ranked_mask)

    @GradeFree
    def n_retrieved(self) -> IntArray:
        """Candidates with a predicted score."""
        return self._count(self._retrieved)

    @property
    def retrieved_mask(self) -> BoolArray:
        """The rows with a predicted score, under every unknown-grade rule
        (``ranked_mask`` drops the unknown ones under condensed), read where
        the document's scores may have been released."""
        return self._retrieved

    @PerQuery
    def _state_counts(self) -> IntArray:
        """Candidates per query (rows) in each grade state (columns, by
        :class:`~core.model.document.GradeState` value), in one count."""
        n, nq, state = len(GradeState), self.doc.n_queries, self.doc.state
        if self.doc.query_spans() is not None or (
                state.size and (int(state.min()) < 0 or int(state.max()) >= n)):
            return np.stack([self._count(state == int(s)) for s in GradeState], axis=1)
        return counts_by_pair(self.doc.query, state, nq, n)

    @PerQuery
    def n_judged(self) -> IntArray:
        """Candidates with a numeric grade."""
        return self._state_counts[:, GradeState.NUMBER].copy()

    @PerQuery
    def n_unknown(self) -> IntArray:
        return self._state_counts[:, GradeState.UNKNOWN].copy()

    @PerQuery
    def n_unrateable(self) -> IntArray:
        return self._state_counts[:, GradeState.UNRATEABLE].copy()

    @GradeFree
    def n_inventory(self) -> IntArray:
        """Candidates in each ideal inventory."""
        return self._count(self.inventory_mask)

    @Lazy
    def rubric(self) -> Rubric:
        """The grade scale: the declared rubric, or the one the document's
        grades imply (:meth:`~core.model.conventions.Conventions.rubric_for`)."""
        return self.conventions.rubric_for(self.doc.grade)

    @PerRow
    def outside_rubric(self) -> BoolArray:
        """Numeric grades that the declared rubric does not permit (see
        :func:`core.model.rubric.outside_rubric`)."""
        return outside_rubric(self.conventions.rubric, self.doc.grade, self.doc.ratings,
                              self._numeric)

    # -- per candidate, aligned with the document's rows (computed when asked) ------------
    def _scatter(self, values: npt.NDArray[np.generic], fill: float | int,
                 where: IntArray | None = None) -> npt.NDArray[np.generic]:
        # Ranks and tie sizes keep the engine's int32 (a list's length
        # bounds them: order.RankArray): 8 bytes a row less than int64 for
        # each of rank, tie_first_rank and ideal_rank, 16 MB at 2M rows.
        out = np.full(len(self.doc), fill, dtype=values.dtype)
        if where is None:  # the ranked order
            self._rows.put(out, values)
        else:
            out[where] = values
        return out

    @GradeFree
    def rank(self) -> RankArray:
        """1-based rank of each candidate (int32); 0 when not ranked."""
        ranks = self._sorted_rank
        if not self._rows.own:
            return self._scatter(ranks, 0)  # type: ignore[return-value]
        # The ranked rows are the first rows, in their own order (a run in
        # score order, ties averaged): the positions' ranks become a view of
        # the rows', one array rather than two (8 MB at 2M rows; compare
        # holds two evaluations), the ideal lists' too where they shared them.
        rank = np.zeros(len(self.doc), dtype=ranks.dtype)
        rank[:ranks.size] = ranks
        self._sorted_rank = rank[:ranks.size]
        if self.__dict__.get("_ideal_rank_sorted") is ranks:
            self.__dict__["_ideal_rank_sorted"] = self._sorted_rank
        return rank

    @GradeFree
    def tie_size(self) -> RankArray:
        """Size of each ranked candidate's tie group (1 when not tied; int32)."""
        size: npt.NDArray[np.integer[Any]]
        if self._new_group is None:
            size = np.ones(self._rows.size, dtype=np.int32)
        else:
            sizes = tie_group_heads(self._new_group)[1].astype(np.int32)
            size = np.repeat(sizes, sizes)
        return self._scatter(size, 0)  # type: ignore[return-value]

    @GradeFree
    def tie_first_rank(self) -> RankArray:
        """The first rank of each ranked candidate's tie group (int32)."""
        if self._new_group is None:
            return self.rank
        return self._scatter(group_first(self._new_group, self._sorted_rank), 0)  # type: ignore[return-value]

    @GradeFree
    def discount(self) -> FloatArray:
        """The effective (tie-averaged where declared) discount over the whole
        list; NaN when not ranked."""
        return self._scatter(self.effective_discount(None), np.nan)  # type: ignore[return-value]

    @PerRow
    def contribution(self) -> FloatArray:
        """Each candidate's term of the whole list's DCG (NaN when its gain
        is unknown or it is not ranked): :meth:`position_terms` (gain x discount,
        divided or taken at its own rank where the sums do so)."""
        return self._scatter(self.position_terms(None), np.nan)  # type: ignore[return-value]

    @Lazy
    def ideal_order(self) -> IntArray:
        """Candidate indices of every ideal list, query by query, best first."""
        inv = np.flatnonzero(self.inventory_mask)
        perm = sort_within_queries(self.doc.query[inv], [ideal_key(self.gain[inv])])
        order: IntArray = inv[perm]
        return order

    @PerRow
    def ideal_rank(self) -> RankArray:
        """Rank in the ideal list (int32); 0 when not in the ideal inventory."""
        return self._scatter(self._ideal_rank_sorted, 0, self.ideal_order)  # type: ignore[return-value]

    @PerRow
    def ideal_contribution(self) -> FloatArray:
        """gain x discount at the ideal rank; NaN outside the inventory."""
        rank = self._ideal_rank_sorted
        values = terms(self.gain[self.ideal_order], discount(rank), rank, self._divide)
        return self._scatter(values, np.nan, self.ideal_order)  # type: ignore[return-value]

    def contribution_at(self, k: int | None) -> FloatArray:
        """Each candidate's contribution to DCG@k (:meth:`position_terms`: 0 beyond
        k, NaN when its gain is unknown and it counts; NaN when not ranked)."""
        out = np.zeros(len(self.doc))
        if self._rows.released:
            self._terms_in_row_order(k, out)
        else:
            value = self.position_terms(k)
            self._rows.put(out, value)
            del value
        out[~self.ranked_mask] = np.nan
        return out

    def _terms_in_row_order(self, k: int | None, out: FloatArray) -> None:
        """:meth:`position_terms` written at the ranked rows of ``out``, from
        each row's own gain and rank a block of rows at a time, not through
        the order (ties not averaged: each term is its position's alone, so
        the same bits)."""
        rank = self.rank
        for lo in range(0, len(self.doc), CHUNK):
            rows = np.flatnonzero(self.ranked_mask[lo:lo + CHUNK])
            rows += lo
            out[rows] = position_terms(self.gain_at(rows), rank[rows], k, divide=self._divide)

    def release_order(self) -> None:
        """Let go of trec_eval's id order (:func:`core.engine.released.release_order`)."""
        released.release_order(self)

    def release_remade(self) -> None:
        """Let go of what is made again from what the evaluation keeps
        (:func:`core.engine.released.release_remade`)."""
        released.release_remade(self)

    def gain_at(self, rows: IntArray | slice) -> FloatArray:
        """The gains of ``rows`` (``gain[rows]``); where the gains were
        released (:meth:`release_remade`), worked out for those rows alone,
        the same bits, rather than made again for every row (compare's
        readers, a block of rows at a time: 16 MB a side at 2M rows)."""
        if not Evaluation.gain.is_released(self):
            return self.gain[rows]
        return gains_at(self.doc.grade[rows], self._numeric[rows], self.conventions, self._lift)

    def cumulative_dcg(self, q: int) -> FloatArray:
        """Running DCG down query ``q``'s ranked list, aligned with :meth:`ranked`:
        the sum of the contributions at ranks 1..r (NaN from the first unknown
        gain on)."""
        return np.cumsum(self.contribution[self.ranked(q)])

    # -- per query views ------------------------------------------------------------------
    @property
    def divides(self) -> bool:
        """Whether the sums divide each gain by C's ``log2(rank + 1)``
        (:func:`core.engine.discount.divides`): the terms to show with them."""
        return self._divide

    @property
    def cutoffs(self) -> tuple[int | None, ...]:
        return self.conventions.cutoffs

    def status(self, q: int, j: int = 0) -> Status:
        """Query ``q``'s status at the ``j``-th cutoff."""
        return self.results.status(q, j)

    def query_status(self, q: int) -> Status:
        """The query's worst status over the cutoffs."""
        return self.results.query_status(q)

    def status_table(self) -> tuple[list[list[Status]], list[Status]]:
        """Every query's status at each cutoff, and its worst one (as
        :meth:`status` and :meth:`query_status`, all at once)."""
        return self.results.status_table()

    def cutoff_results(self, q: int) -> list[QueryCutoff]:
        """Query ``q``'s numbers at each cutoff."""
        return self.results.cutoff_results(q, self.cutoffs)

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
        return self.ranked_between(*self.positions(q))

    def ranked_between(self, lo: int, hi: int) -> IntArray:
        """``order[lo:hi]``: the rows at those positions."""
        return self._rows.between(lo, hi)

    def ranked_at(self, positions: IntArray) -> IntArray:
        """``order[positions]``: the rows at those positions."""
        return self._rows.at(positions)

    @property
    def order(self) -> IntArray:
        """The rows of the ranked lists, query by query, each in ranked order
        (made when asked where they are the first rows in their own order:
        :class:`~core.engine.ranked.RankedRows`)."""
        return self._rows.rows

    def effective_discount(self, k: int | None, q: int | None = None, *,
                           span: tuple[int, int] | None = None,
                           at: IntArray | None = None) -> FloatArray:
        """The discount each position of :attr:`order` (with ``q``: of
        :meth:`positions` ``(q)`` only; with ``span``: of those positions, which
        hold whole queries; with ``at``: of those positions, ascending, which
        hold whole tie groups, as :meth:`within` gives them) takes at cutoff
        ``k``: the mean discount of its tie group's positions up to ``k`` where
        ties are averaged, else its own (0 past ``k``)."""
        if at is None:
            if span is not None:
                lo, hi = span
            else:
                lo, hi = self.positions(q) if q is not None else (0, self._rows.size)
            if self._new_group is not None and hi - lo > 2 * CHUNK:
                return self._effective_in_chunks(k, lo, hi)
            return self._effective(k, slice(lo, hi))
        return self._effective(k, at)

    def _effective_in_chunks(self, k: int | None, lo: int, hi: int) -> FloatArray:
        """:meth:`effective_discount` of positions ``lo`` to ``hi`` - 1 (whole
        queries) a chunk of whole queries at a time: the discounts and group
        means beside the result are a chunk's (and so are the int64 copies
        numpy's bincount makes of int32 group numbers); each group's mean is
        made in its chunk, from the same sum in the same order."""
        return self._in_chunks(lo, hi, lambda span: self._effective(k, span))

    def _in_chunks(self, lo: int, hi: int,
                   part: Callable[[slice], FloatArray]) -> FloatArray:
        """``part`` of positions ``lo`` to ``hi`` - 1 (whole queries), made a
        chunk of whole queries at a time (:func:`core.engine.sums.whole_chunks`)."""
        qs = self._sorted_query
        starts = np.searchsorted(qs, np.arange(int(qs[lo]), int(qs[hi - 1]) + 2))
        out = np.empty(hi - lo)
        for a, b in whole_chunks(starts):
            s, e = int(starts[a]), int(starts[b])
            out[s - lo:e - lo] = part(slice(s, e))
        return out

    def _effective(self, k: int | None, at_or_span: IntArray | slice) -> FloatArray:
        """:meth:`effective_discount` of the positions ``at_or_span`` (whole
        tie groups)."""
        rank = self._sorted_rank[at_or_span]
        d = discount(rank)
        if k is not None:
            d[rank > k] = 0.0
        if self._new_group is None:
            return d
        group, _, size = tie_group_numbers(self._new_group[at_or_span])
        eff: FloatArray = group_means(group, d, size)[group]
        return eff

    def position_terms(self, k: int | None, q: int | None = None, *,
              at: IntArray | None = None) -> FloatArray:
        """The term each position of :attr:`order` adds to DCG@k (with ``q``:
        of :meth:`positions` ``(q)`` only; with ``at``: of those positions,
        ascending, in whole tie groups): :func:`core.engine.sums.position_terms`,
        the values the sums add in position order, so that a list's terms
        added down it end at its DCG bit for bit (not under the sklearn
        preset, whose sums are scikit-learn's: :mod:`core.engine.sklearn_sums`).
        A chunk of whole queries at a time, as :meth:`effective_discount`."""
        if at is not None:
            return self._position_terms(k, at)
        lo, hi = self.positions(q) if q is not None else (0, self._rows.size)
        if hi - lo <= 2 * CHUNK:
            return self._position_terms(k, slice(lo, hi))
        return self._in_chunks(lo, hi, lambda span: self._position_terms(k, span))

    def _position_terms(self, k: int | None, at_or_span: IntArray | slice) -> FloatArray:
        """:meth:`position_terms` of the positions ``at_or_span`` (whole tie groups)."""
        rows = (self.ranked_between(at_or_span.start, at_or_span.stop)
                if isinstance(at_or_span, slice) else self.ranked_at(at_or_span))
        gain = self.gain_at(rows)
        groups = (None if self._new_group is None
                  else TieGroups.of(gain, self._new_group[at_or_span]))
        return position_terms(gain, self._sorted_rank[at_or_span], k, groups=groups,
                              divide=self._divide)

    def within(self, k: int, starts: IntArray) -> IntArray:
        """The positions of :attr:`order` whose effective discount at ``k``
        (:meth:`effective_discount`) may be more than 0, ascending, in whole
        tie groups: ranks 1 to ``k`` of each list and, where ties are
        averaged, the rest of a tie group that ``k`` cuts. ``starts``: where
        each list of some consecutive queries starts in :attr:`order`, and
        where the last one ends."""
        length = np.diff(starts)
        n = np.minimum(length, k)
        if self._new_group is not None:
            cut = np.flatnonzero(length > k)
            if cut.size:  # a group goes on to the next group's first position
                lo, hi = int(starts[0]), int(starts[-1])
                heads = np.append(np.flatnonzero(self._new_group[lo:hi]), hi - lo)
                n[cut] = heads[np.searchsorted(heads, starts[cut] - lo + k)] - (starts[cut] - lo)
        return prefixes(starts[:-1], n)

    @property
    def sorted_gain(self) -> FloatArray:
        """The gain of each position of :attr:`order` (NaN: unknown): gathered
        anew unless it shares the gain column."""
        kept = self._sorted_gain
        return kept if kept is not None else self._rows.take(self.gain)

    @GradeFree
    def _ideal_rank_sorted(self) -> RankArray:
        """The 1-based rank of each position of the ideal lists, worked out
        when first asked (the command line's evaluate never asks: 8 MB at 2M
        candidates, at the trec_eval preset's engine peak)."""
        blocks = self._ideal_blocks
        return block_rank(*blocks)[0] if blocks else list_rank(self._ideal_start)

    @GradeFree
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
        last, and where each query's list starts (and where the last one
        ends). An evaluation made ``for_report`` (:func:`evaluate`) hands
        the gains it laid out to the first caller (the report's bounds)
        rather than keep them for its life (16 MB at 2M candidates); other
        callers lay them out again."""
        kept, self._kept_ideal = self._kept_ideal, None
        if kept is not None:
            return kept
        # The gains of ideal_order, found by sorting the values only when
        # the order has not been worked out.
        if "ideal_order" in self.__dict__:
            order = self.ideal_order
            gains, query = self.gain[order], self.doc.query[order]
        else:
            return ideal_lists(self.doc, self.gain, self.inventory_mask,
                               self._inventory_is_ranked, self._blocks, self._sorted_rank)[:2]
        return gains, np.searchsorted(query, np.arange(self.doc.n_queries + 1))

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
        first, last = tie_runs(tie_starts(self.doc.score[self.ranked(q)]))
        return list(zip((first + 1).tolist(), (last + 1).tolist(), strict=True))

    @GradeFree
    def tie_start(self) -> BoolArray:
        """Where each tie group of :attr:`order` starts (a new query or a new
        score; :func:`core.engine.order.tie_starts`)."""
        if self._new_group is not None:
            return self._new_group
        return tie_starts(self._rows.take(self.doc.score), list_starts(self._sorted_query))

    def describe_k(self, k: int | None) -> str:
        return f"NDCG@{format_cutoff(k)}"


def evaluate(doc: Document, conventions: Conventions | None = None, *,
             for_report: bool = False) -> Evaluation:
    """Evaluate every query of ``doc`` under ``conventions``.

    Parameters
    ----------
    doc : Document
        Queries and candidates.
    conventions : Conventions, optional
        Defaults to the document's own.
    for_report : bool, optional
        A report of every query's bounds follows at once: the ideal lists'
        gains are kept for it (:meth:`Evaluation.ideal_gains`) rather than
        laid out again.

    Examples
    --------
    Case A of the seed: grades A=3, B=1, C=0 ranked B, A, C.

    >>> doc = Document.from_columns(query=["A"] * 3, source_id=["B", "A", "C"],
    ...                             score=[3, 2, 1], grade=[1, 3, 0])
    >>> float(evaluate(doc).ndcg[0, 0])  # (1 + 3/log2 3) / (3 + 1/log2 3)
    0.7967075809905066
    """
    return Evaluation(doc, conventions or doc.conventions, for_report=for_report)
