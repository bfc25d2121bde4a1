"""Ordering for the engine: the ranked lists of every query at once, and
the sorts the ideal lists take where they are not counted
(:mod:`core.engine.ideal`).

Rows are sorted per query with stable integer sorts (floats are mapped to
integers that sort the same way); rows grouped by query in blocks of one
size (a run file, a matrix) are sorted block by block as a 2-D array. Ties
between equal scores are ordered as the declared tie rule says. Nothing here
depends on a cutoff; :mod:`core.engine.evaluation` does the arithmetic.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from core.engine.ranked import RankedRows
from core.model.conventions import Conventions, TieRule, UnknownRule
from core.model.document import Document
from core.model.ids import IdBytes

__all__ = [
    "Ahead",
    "block_rank",
    "give_order",
    "id_desc_order",
    "ideal_key",
    "list_rank",
    "list_starts",
    "order_ahead",
    "order_follows_grades",
    "order_ranked",
    "prefixes",
    "ranked_lists",
    "ranked_ties",
    "score_ties",
    "segment_rank",
    "sort_within_queries",
    "source_order_keys",
    "tie_runs",
    "tie_starts",
    "tied_positions",
    "ties_follow_gains",
    "uniform_blocks",
]

Blocks = tuple[int, int] | None

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
#: Ranks (1-based positions in a list) are int32: lists are far shorter.
RankArray = npt.NDArray[np.int32]


def ideal_key(gains: FloatArray, *, overwrite: bool = False) -> FloatArray:
    """Sort key of the ideal list: highest gain first, unknown (NaN) last
    (``overwrite``: in ``gains`` itself)."""
    key: FloatArray = np.negative(gains, out=gains if overwrite else None)
    key[np.isnan(key)] = np.inf
    return key


def block_rank(rows: int, size: int) -> tuple[RankArray, BoolArray]:
    """:func:`segment_rank` of ``rows`` consecutive blocks of ``size``."""
    within = np.arange(1, size + 1, dtype=np.int32)
    return np.tile(within, rows), np.tile(within == 1, rows)


def segment_rank(keys_sorted: IntArray) -> tuple[RankArray, BoolArray]:
    """1-based position within runs of equal keys, and the run starts."""
    m = keys_sorted.shape[0]
    first = np.ones(m, dtype=bool)
    if m > 1:
        np.not_equal(keys_sorted[1:], keys_sorted[:-1], out=first[1:])
    return _ranks(np.flatnonzero(first), m), first


def list_rank(starts: IntArray) -> RankArray:
    """1-based position within lists (``starts``: where each list starts,
    ascending, and where the last one ends)."""
    return _ranks(starts[:-1][starts[1:] > starts[:-1]], int(starts[-1]) if starts.size else 0)


def _ranks(heads: IntArray, m: int) -> RankArray:
    """1-based positions of ``m`` positions in runs starting at ``heads``
    (ascending, the first 0): ones, each run's first set back by the length
    of the run before it, summed in place (no full-length temporary beside
    the ranks)."""
    rank = np.ones(m, dtype=np.int32)
    rank[heads[1:]] -= np.diff(heads).astype(np.int32)
    np.cumsum(rank, dtype=np.int32, out=rank)
    return rank


def uniform_blocks(q: npt.NDArray[np.integer[Any]]) -> tuple[int, int] | None:
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
    ``blocks`` is :func:`uniform_blocks` of ``q`` when the caller knows it.
    """
    perm = _sort_within_queries(q, keys, blocks)
    return np.arange(q.shape[0]) if perm is None else perm


def _sort_within_queries(
    q: IntArray, keys: list[FloatArray], blocks: tuple[int, int] | bool | None
) -> IntArray | None:
    """:func:`sort_within_queries`; None when the rows are in that order
    already (a run file lists each query's rows by descending score)."""
    if blocks is True:
        blocks = uniform_blocks(q)
    if blocks and len(keys) == 1:
        rows, m = blocks
        grid_key = keys[0].reshape(rows, m)
        # NaN compares false, so a key holding one is sorted below.
        if bool(np.all(grid_key[:, 1:] >= grid_key[:, :-1])):
            return None
    int_keys = [_sortable(k) for k in keys]
    if blocks:
        rows, m = blocks
        grid = [k.reshape(rows, m) for k in int_keys]
        if len(grid) == 1:
            local = np.argsort(grid[0], axis=1, kind="stable")
        else:
            local = np.lexsort(grid, axis=1)
        local += (np.arange(rows) * m)[:, None]
        perm: IntArray = local.ravel()
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


def order_ranked(
    doc: Document, idx: IntArray | None, gains: FloatArray, ties: TieRule,
    blocks: tuple[int, int] | None, q: IntArray | None = None,
) -> IntArray:
    """Order the ranked candidates ``idx`` (None: every row; ``q``: their
    queries, when the caller has them): query, score descending, then ties.
    The result may be ``idx`` itself, reordered, or the order worked out
    ahead for the document's first rows (:func:`give_order`)."""
    if q is None:
        q = doc.query if idx is None else doc.query[idx]
    given = _GIVEN.pop(doc, None)
    _GIVEN_TIES.pop(doc, None)
    n = q.shape[0]
    if given is not None and given.ties is ties and given.rows == n and (
            idx is None or (n > 0 and int(idx[-1]) == n - 1)):  # idx ascends: the first n rows
        order = np.arange(n) if given.order is None else given.order
        if given.groups is not None:
            _GIVEN_TIES[doc] = order, given.groups
        return order
    if idx is None:
        neg_score = np.negative(doc.score)
    else:
        neg_score = doc.score[idx]
        np.negative(neg_score, out=neg_score)
    g = None if not ties_follow_gains(ties) else gains if idx is None else gains[idx]
    return _ordered(q, idx, neg_score, g, ties, blocks,
                    lambda rows, group: id_desc_order(doc, rows, group))


#: Tie groups of ranked lists (:func:`score_ties`): where each starts.
TieGroups = BoolArray


class Ahead(NamedTuple):
    """A run's ranking worked out before its document exists
    (:func:`order_ahead`): the tie rule, the order (None: the rows in their
    own order), where its tie groups start (ties averaged; else None) and
    the count of rows ordered."""

    ties: TieRule
    order: IntArray | None
    groups: TieGroups | None
    rows: int


def order_ahead(q: IntArray, score: FloatArray, ids: IdBytes, ties: TieRule) -> Ahead:
    """What :func:`order_ranked` (and, ties averaged, :func:`score_ties`)
    gives under ``ties`` (a rule that does not follow gains) for a document
    whose first rows, all ranked, are these (their query codes ``q``,
    ``score`` and ``ids`` as UTF-8 bytes): a run's, worked out while it is
    joined with its qrels (:func:`give_order` hands it over)."""
    blocks = uniform_blocks(q)
    order: IntArray | None
    if ties is TieRule.ID_DESC:
        order = _ordered(q, None, np.negative(score), None, ties, blocks, ids.sort_descending)
    elif blocks and bool(np.all((grid := score.reshape(blocks))[:, 1:] <= grid[:, :-1])):
        # The rows in order already (a run file's): None, and checked on the
        # scores themselves, without the negated copy :func:`_sort_within_queries`
        # compares (16 MB at the join's peak). NaN compares false, so a list
        # holding one is sorted, as there.
        order = None
    else:
        order = _sort_within_queries(q, [np.negative(score)], blocks)
    groups = None
    if ties is TieRule.AVERAGE and q.size > 0:
        # The starts ranked_lists gives: blocks of one query each, else runs of a query.
        groups = score_ties(score, order,
                            list_starts(q if blocks or order is None else q[order]))
    return Ahead(ties, order, groups, q.size)


def give_order(doc: Document, ahead: Ahead) -> None:
    """Hand :func:`order_ranked` the order of ``doc``'s first
    ``ahead.rows`` rows under ``ahead.ties``, worked out ahead
    (:func:`order_ahead`): taken by the document's next ranking if it ranks
    those rows under that rule, else dropped; its tie groups with it
    (:func:`ranked_ties`)."""
    _GIVEN[doc] = ahead


def ranked_ties(doc: Document, order: IntArray, first: BoolArray) -> TieGroups:
    """:func:`score_ties` of ``doc``'s ranked ``order`` (query starts
    ``first``), or the groups worked out ahead with that very order
    (:func:`give_order`)."""
    given = _GIVEN_TIES.pop(doc, None)
    if given is not None and given[0] is order:
        return given[1]
    return score_ties(doc.score, order, first)


#: Orders worked out ahead, by document (:func:`give_order`).
_GIVEN: weakref.WeakKeyDictionary[Document, Ahead] = weakref.WeakKeyDictionary()
#: Tie groups of an order taken from :data:`_GIVEN`, until the ranking asks.
_GIVEN_TIES: weakref.WeakKeyDictionary[Document, tuple[IntArray, TieGroups]] = (
    weakref.WeakKeyDictionary())


def _ordered(q: IntArray, idx: IntArray | None, neg_score: FloatArray, gains: FloatArray | None,
             ties: TieRule, blocks: tuple[int, int] | None,
             by_id: Callable[[IntArray, npt.NDArray[np.integer[Any]]], IntArray]) -> IntArray:
    """:func:`order_ranked` on the rows' queries ``q``, negated scores and
    (ties following gains) gains; ``by_id`` orders tied rows by id."""
    if gains is not None:
        keys = [gains if ties is TieRule.PESSIMISTIC else -gains, neg_score]
    else:
        keys = [neg_score]
    perm = _sort_within_queries(q, keys, blocks)
    if perm is None:
        order = np.arange(q.shape[0]) if idx is None else idx
    else:
        order = perm if idx is None else idx[perm]
    if ties is TieRule.ID_DESC and order.size > 1:
        # Queries stay in place in uniform blocks.
        qs = q if perm is None or blocks else q[perm]
        ss = neg_score if perm is None else neg_score[perm]
        del neg_score, keys
        starts = tie_starts(ss, list_starts(qs))
        del qs, ss
        _id_desc_ties(by_id, order, starts)
    return order


def _id_desc_ties(by_id: Callable[[IntArray, npt.NDArray[np.integer[Any]]], IntArray],
                  order: IntArray, starts: BoolArray) -> None:
    """Put tied candidates of ``order`` (tie groups starting at ``starts``,
    :func:`tie_starts`) in descending order of their ids (``by_id``: rows
    and their groups to the permutation, :func:`id_desc_order`), in place."""
    if starts.all():
        return
    # Only tied candidates need their ids compared (strings are slow).
    pos, group = tied_positions(starts)
    rows = order[pos]
    if order.size < 2**31:
        # int32 beside the sort's own temporaries, where the trec_eval
        # preset's engine peaks (1.33M tied rows of 2M: 10 MB less).
        pos, rows = pos.astype(np.int32), rows.astype(np.int32)
    perm = by_id(rows, group)
    del group
    order[pos] = rows[perm]


# -- tie groups ------------------------------------------------------------------------
def ties_follow_gains(ties: TieRule) -> bool:
    """Whether ``ties`` orders equal scores by gain (``pessimistic``,
    ``optimistic``): then a grade can move a candidate within its tie group.
    The other rules order them by row, by id or not at all (``average``)."""
    return ties in (TieRule.PESSIMISTIC, TieRule.OPTIMISTIC)


def order_follows_grades(c: Conventions) -> bool:
    """Whether grades can change a ranked list or an ideal inventory under
    ``c``: ties ordered by gain (:func:`ties_follow_gains`), or candidates
    without a grade removed (``condensed``). Otherwise a grade edit changes
    gains only, and the edited queries' numbers alone."""
    return ties_follow_gains(c.ties) or c.unknown is UnknownRule.CONDENSED


def list_starts(q: IntArray) -> BoolArray:
    """Where each list starts in positions ordered by query (``q``)."""
    first = np.ones(q.shape[0], dtype=bool)
    if q.shape[0] > 1:
        np.not_equal(q[1:], q[:-1], out=first[1:])
    return first


def tie_starts(scores: FloatArray, first: BoolArray | None = None) -> BoolArray:
    """Where each tie group starts in ranked lists: ``scores`` in ranked
    order, ``first`` where each list starts (None: one list). A tie group is
    a run of equal scores within one list; every position is in one, most
    alone. The one place tie groups are found: the engine's averaged ties
    (:func:`score_ties`), trec_eval's id order, compare's tie rules, the
    editor's and the bounds' tie groups (``Evaluation.tie_groups``)."""
    if first is None:
        starts = np.zeros(scores.shape[0], dtype=bool)
        starts[:1] = True
    else:
        starts = first.copy()
    if scores.shape[0] > 1:
        starts[1:] |= scores[1:] != scores[:-1]
    return starts


def tied_positions(starts: BoolArray) -> tuple[IntArray, npt.NDArray[np.integer[Any]]]:
    """The positions in tie groups of two or more (groups starting at
    ``starts``, :func:`tie_starts`) and each one's group, numbered 0, 1, ...
    in order."""
    tied = ~starts  # tied with the position before
    tied[:-1] |= tied[1:].copy()  # ... or with the one after
    pos = np.flatnonzero(tied)
    del tied
    group: npt.NDArray[np.integer[Any]] = np.cumsum(
        starts[pos], dtype=np.int32 if pos.size < 2**31 else np.int64)
    group -= 1
    return pos, group


def prefixes(first: IntArray, n: IntArray) -> IntArray:
    """The positions ``first[i]``, ``first[i] + 1``, ... (``n[i]`` of them)
    of every ``i``, one run after the other (runs of lists, tie groups)."""
    n = np.asarray(n, dtype=np.int64)
    step = np.repeat(np.asarray(first, dtype=np.int64) - np.cumsum(n) + n, n)
    step += np.arange(step.size)
    return step


def tie_runs(starts: BoolArray) -> tuple[IntArray, IntArray]:
    """The first and the last position (0-based, both included) of each tie
    group of two or more (groups starting at ``starts``, :func:`tie_starts`)."""
    first = np.flatnonzero(starts)
    end = np.append(first[1:], starts.shape[0])
    long = end - first > 1
    return first[long], end[long] - 1


def id_desc_order(doc: Document, rows: IntArray,
                  group: npt.NDArray[np.integer[Any]]) -> IntArray:
    """The stable permutation of ``rows`` that orders them by ``group``
    (ascending) and, within a group, by source id descending (code-point
    order): trec_eval's tie order. A run's ids kept as UTF-8 bytes are sorted
    as bytes (their order is the text's), without decoding them."""
    ids = doc.source_bytes()
    if ids is not None and ids.is_utf8():
        return ids.sort_descending(rows, group)
    perm: IntArray = np.lexsort((-source_order_keys(doc, rows), group))
    return perm


def ranked_lists(
    doc: Document, ranked: BoolArray, gains: FloatArray, ties: TieRule
) -> tuple[IntArray, IntArray, RankArray, BoolArray, Blocks]:
    """Every query's ranked list at once.

    Returns the candidate indices in evaluated order (query by query), the
    query of each position, its 1-based rank, whether it starts its query,
    and the uniform blocks of the ranked rows (:func:`uniform_blocks`).
    """
    # Rows grouped in equal blocks (a run file, a matrix) keep their query
    # column through the sort.
    idx = None if bool(ranked.all()) else np.flatnonzero(ranked)
    # The ranked rows first (a joined run: the judged rows it did not
    # retrieve follow) share the document's query column, as all rows do.
    q_ranked = (doc.query if idx is None
                else doc.query[: idx.size] if idx.size and idx[-1] == idx.size - 1
                else doc.query[idx])
    blocks = uniform_blocks(q_ranked)
    order = order_ranked(doc, idx, gains, ties, blocks, q_ranked)
    if blocks:
        rank, first = block_rank(*blocks)
        return order, q_ranked, rank, first, blocks
    # (the rows' own order, as a run in score order with lists of unequal
    # lengths under averaged ties: a view, not 8 bytes a position more)
    q_sorted = doc.query[: order.size] if RankedRows(order).own else doc.query[order]
    rank, first = segment_rank(q_sorted)
    return order, q_sorted, rank, first, blocks


def score_ties(
    scores: FloatArray, order: IntArray | None, first: BoolArray
) -> TieGroups:
    """Tie groups of the ranked lists (``order``, None: the rows in their
    own order; query starts ``first``): where each starts (a new query or a
    new score). Their numbers and sizes are made by each reader for its
    positions (:func:`core.engine.sums.tie_group_numbers`): an evaluation
    keeps 1 byte a position, not 9 (int32 numbers and sizes as well: 15 MB
    at 2M positions, from the join's order ahead to the evaluation's end)."""
    return tie_starts(scores if order is None else scores[order], first)
