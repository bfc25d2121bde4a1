"""The ideal lists of every query at once: each query's inventory, highest
gain first (unknown last), from counts of each (query, gain) where the
gains take a handful of values, else sorted (:mod:`core.engine.order`'s
sorts). Where they are counted, the lists need never be laid out whole:
:class:`CountedLists` lays out a span of queries when asked.
"""

from __future__ import annotations

from typing import Any, Literal, NamedTuple, overload

import numpy as np
import numpy.typing as npt

from core.engine.counts import block_counts, counts_by_pair
from core.engine.order import (
    Blocks,
    BoolArray,
    FloatArray,
    IntArray,
    RankArray,
    ideal_key,
    sort_within_queries,
    uniform_blocks,
)
from core.model.document import Document

__all__ = ["CountedLists", "IdealLists", "ideal_lists"]

#: Each row's place among a few distinct values (int8 when counted by
#: comparisons, :func:`_places`).
CodeArray = npt.NDArray[np.integer[Any]]


#: The ideal lists are laid out from counts when the gains take at most this
#: many distinct values.
_FEW_VALUES = 1 << 16
#: ... and the (query, value) counts are at most this many times the rows.
_COUNTS_PER_ROW = 4
#: Rows sampled to guess the distinct values before checking every row.
_SAMPLE = 4096


def _distinct(key: FloatArray) -> tuple[FloatArray, CodeArray]:
    """The distinct values of ``key`` (ascending) and each row's place among
    them. The values of a sample are tried first: checking that every row
    holds one of them is linear, where finding them all is a sort."""
    step = max(key.size // _SAMPLE, 1)
    values = np.unique(key[::step])
    code = _placed(values, key)
    if code is None:
        values = np.unique(key)
        code = np.searchsorted(values, key)
    return values, code


def _placed(values: FloatArray, key: FloatArray) -> CodeArray | None:
    """Each of ``key``'s place among ``values`` (ascending); None where one
    of ``key`` is none of them."""
    code = _places(values, key)
    np.minimum(code, values.size - 1, out=code)
    return code if _holds(values, code, key) else None


def _holds(values: FloatArray, code: CodeArray, key: FloatArray, block: int = 1 << 18) -> bool:
    """Whether ``values[code]`` equals ``key`` (as :func:`numpy.array_equal`),
    a block at a time: no full-length copy (16 MB at 2M rows)."""
    return all(bool(np.array_equal(values[code[lo:lo + block]], key[lo:lo + block]))
               for lo in range(0, key.size, block))


#: Up to this many sorted values, a key's place among them is counted by
#: comparisons (one pass each) rather than found by a binary search.
_COMPARED = 8


def _places(values: FloatArray, key: FloatArray) -> CodeArray:
    """How many of ``values`` (ascending) are below each of ``key``: its
    place by :func:`numpy.searchsorted` (the same comparisons) where it is
    not NaN (:func:`_distinct` checks every place it is given)."""
    if values.size > _COMPARED or (values.size and np.isnan(values[-1])):  # (NaN: last)
        found: IntArray = np.searchsorted(values, key)
        return found
    # (at most _COMPARED places: int8, 2 MB at 2M rows beside the keys
    # rather than 16, where the trec_eval preset's engine peaked)
    code = np.zeros(key.size, dtype=np.int8)
    for v in values.tolist():
        code += key > v
    return code


def _sorted_by_query(q: IntArray, code: CodeArray, values: FloatArray,
                     n_queries: int) -> tuple[FloatArray, IntArray] | None:
    """``values[code]`` sorted by query (``q``), then ascending, and where
    each query's rows start (and the last one's end; ``code`` is reused);
    None when they do not fit one integer.

    Each row is one integer (its query, then its value's place among the
    distinct values), so one plain sort orders them all.
    """
    bits = values.size.bit_length()
    if n_queries.bit_length() + bits > 63:
        return None
    packed = (code if code.dtype == np.int64 else code.astype(np.int64)).view(np.uint64)
    high = q.astype(np.uint64)
    high <<= np.uint64(bits)
    packed |= high
    del high
    packed.sort()
    place = packed & np.uint64((1 << bits) - 1)
    sorted_key: FloatArray = values[place]
    del place
    packed >>= np.uint64(bits)
    return sorted_key, np.searchsorted(packed.view(np.int64), np.arange(n_queries + 1))


def _laid_out(q: IntArray, key: FloatArray, n_queries: int
              ) -> tuple[FloatArray, IntArray] | None:
    """``key`` sorted by query (``q``), then ascending, and where each
    query's rows start (and the last one's end); None when the key takes too
    many distinct values.

    Usually no sort: the rows of each (query, value) are counted, and the
    values laid out that many times each, query by query (a key takes a
    handful of values: the grades' gains). The result is the sorted one,
    value for value. Many queries of few rows sort packed integers instead.
    """
    distinct = _few_distinct(key)
    if distinct is None:
        return None
    values, code = distinct
    counts = _value_counts(q, values, code, n_queries)
    if counts is None:
        return _sorted_by_query(q, code, values, n_queries)
    return _lay_out(values, counts, n_queries)


def _few_distinct(key: FloatArray) -> tuple[FloatArray, CodeArray] | None:
    """:func:`_distinct` of ``key``; None when it is empty or takes too many
    distinct values to be laid out (:func:`_laid_out`)."""
    if not key.size:
        return None
    values, code = _distinct(key)
    return None if values.size > _FEW_VALUES else (values, code)


def _value_counts(q: IntArray, values: FloatArray, code: CodeArray, n_queries: int
                  ) -> IntArray | None:
    """The rows of each (query, value), from each row's place among the
    values (``code``), query by query; None for many queries of few rows
    (sorted instead, :func:`_sorted_by_query`)."""
    if n_queries * values.size > _COUNTS_PER_ROW * code.size + 1024:
        return None
    # (counted a block of rows at a time: no full-length cell numbers beside
    # the codes, 16 MB at 2M rows)
    counts: IntArray = counts_by_pair(q, code, n_queries, values.size).ravel()
    return counts


def _lay_out(values: FloatArray, counts: IntArray, n_queries: int
             ) -> tuple[FloatArray, IntArray]:
    """Each query's values, ascending, each as many times as ``counts``
    (:func:`_value_counts`) says, and where each query's start (and the last
    one's end: no query column, 16 MB at 2M rows where the trec_eval preset
    peaked; the sums make a chunk's at a time)."""
    return _key_span(values, counts, 0, n_queries), _count_starts(values.size, counts, n_queries)


def _key_span(values: FloatArray, counts: IntArray, a: int, b: int) -> FloatArray:
    """Queries ``a`` to ``b`` - 1's values laid out (:func:`_lay_out`)."""
    n = values.size
    span: FloatArray = np.repeat(np.tile(values, b - a), counts[a * n:b * n])
    return span


def _count_starts(n_values: int, counts: IntArray, n_queries: int) -> IntArray:
    """Where each query's laid-out values start (and the last one's end)."""
    per_query = counts.reshape(n_queries, n_values).sum(axis=1)
    return np.concatenate(([0], np.cumsum(per_query)))


class CountedLists(NamedTuple):
    """Every query's ideal list as the rows of each (query, distinct key)
    (:func:`ideal_lists`, ``counted``): a span of whole lists is laid out
    when asked (:func:`core.engine.sums.sums_in_chunks`), so that neither
    the negated keys nor the laid-out lists are made whole (16 MB each at
    2M candidates, where the trec_eval preset's read peaks)."""

    values: FloatArray  # (the distinct keys, ascending: ideal_key)
    counts: IntArray  # (rows of each (query, value), query by query)
    starts: IntArray  # (where each query's list starts, and the last one ends)

    def gains(self, a: int, b: int) -> FloatArray:
        """Queries ``a`` to ``b`` - 1's ideal lists: gains best first,
        NaN where unknown (as :func:`ideal_lists` lays them out)."""
        gain = _key_span(self.values, self.counts, a, b)
        np.negative(gain, out=gain)
        gain[np.isneginf(gain)] = np.nan  # unknown gains
        return gain


def _counted_lists(q: IntArray, gains: FloatArray, rows: IntArray | slice,
                   n_queries: int) -> CountedLists | None:
    """:func:`_value_counts` of the ideal keys of ``gains`` at ``rows``
    (whose queries are ``q``), their values guessed from a sample as
    :func:`_distinct` does, each key and place made a block of rows at a
    time; None where the sample's values miss a row or the counts would
    be too many (then the keys are made whole)."""
    n = q.size
    if not n:
        return None
    gather = isinstance(rows, np.ndarray)

    def part(s: slice) -> FloatArray:  # (no full-length copy where rows are indices)
        taken: FloatArray = gains[rows[s]] if isinstance(rows, np.ndarray) else gains[rows][s]
        return taken

    values = np.unique(ideal_key(part(slice(None, None, max(n // _SAMPLE, 1))),
                                 overwrite=gather))
    if n_queries * values.size > _COUNTS_PER_ROW * n + 1024:
        return None
    missed: list[slice] = []

    def cells(s: slice) -> IntArray:
        code = None if missed else _placed(values, ideal_key(part(s), overwrite=gather))
        if code is None:
            missed.append(s)
            return np.zeros(0, dtype=np.int64)
        cell = np.multiply(q[s], values.size, dtype=np.int64)
        cell += code
        return cell

    counts = block_counts(cells, n, n_queries * values.size)
    if missed:
        return None
    return CountedLists(values, counts, _count_starts(values.size, counts, n_queries))


def _rows(mask: BoolArray) -> IntArray | slice:
    """The rows where ``mask`` holds: a slice when they are the first rows
    (every row; the ranked rows of a joined run, followed by the judged rows
    it did not retrieve), else their indices."""
    n = int(np.count_nonzero(mask))
    return slice(0, n) if bool(mask[:n].all()) else np.flatnonzero(mask)


IdealLists = tuple[FloatArray, IntArray, RankArray | None, IntArray | None, Blocks]


@overload
def ideal_lists(
    doc: Document, gains: FloatArray, inventory: BoolArray, same_rows: bool, blocks: Blocks,
    ranks: RankArray | None = None, *, lazy: Literal[False] = False,
) -> IdealLists: ...


@overload
def ideal_lists(
    doc: Document, gains: FloatArray, inventory: BoolArray, same_rows: bool, blocks: Blocks,
    ranks: RankArray | None = None, *, lazy: bool,
) -> tuple[FloatArray | CountedLists, IntArray, RankArray | None, IntArray | None, Blocks]: ...


def ideal_lists(
    doc: Document, gains: FloatArray, inventory: BoolArray, same_rows: bool, blocks: Blocks,
    ranks: RankArray | None = None, *, lazy: bool = False,
) -> tuple[FloatArray | CountedLists, IntArray, RankArray | None, IntArray | None, Blocks]:
    """Every query's ideal list at once, highest gain first.

    ``same_rows``: the inventory holds the ranked list's rows, whose
    ``blocks`` and ``ranks`` (:func:`block_rank`, when given) are then
    reused. Returns the gains in ideal order (NaN where
    unknown), where each query's list starts (and where the last one ends),
    the 1-based rank of each position when it is ``ranks`` (None otherwise:
    :func:`list_rank` of the starts, or :func:`block_rank`, make them when
    asked), the candidate indices in that order
    when a sort found them (None when only the gains were laid out: which
    candidate stands where is worked out when asked), and the lists'
    uniform blocks (:func:`uniform_blocks`).

    ``lazy``: where the lists are laid out from counts (a handful of
    distinct gains, lists of unequal lengths), the gains are returned as
    :class:`CountedLists`, each span laid out when asked.
    """
    inv = _rows(inventory)
    inv_query = doc.query[inv]
    if not same_rows:
        blocks = uniform_blocks(inv_query)
    # Lists of one length sort as the rows of a 2-D array, faster than they
    # are counted (measured: 36 against 49 ms at 2,000 x 1,000).
    counted = None if blocks else _counted_lists(inv_query, gains, inv, doc.n_queries)
    if counted is not None:
        laid = counted if lazy else counted.gains(0, doc.n_queries)
        return laid, counted.starts, None, None, blocks
    inv_key = (ideal_key(gains[inv], overwrite=True) if isinstance(inv, np.ndarray)
               else ideal_key(gains[inv]))
    ideal_order: IntArray | None = None
    distinct = None if blocks else _few_distinct(inv_key)
    laid_out = None
    if distinct is not None:
        # The codes stand for the keys from here: 16 MB less at 2M rows
        # beside the laid-out lists, where the trec_eval preset peaks.
        values, code = distinct
        del inv_key, distinct
        counts = _value_counts(inv_query, values, code, doc.n_queries)
        if counts is None:
            laid_out = _sorted_by_query(inv_query, code, values, doc.n_queries)
            if laid_out is None:  # (packed keys too wide: sorted instead)
                inv_key = values[code]
        del code
        if counts is not None:
            laid_out = _lay_out(values, counts, doc.n_queries)
    every_query = np.arange(doc.n_queries + 1)
    if blocks:
        rows, m = blocks
        grid = inv_key.reshape(rows, m)
        grid.sort(axis=1)
        sorted_gain = np.negative(inv_key, out=inv_key)
        starts = np.searchsorted(inv_query, every_query)
    elif laid_out is not None:
        sorted_gain, starts = laid_out
        sorted_gain = np.negative(sorted_gain, out=sorted_gain)
    else:
        perm = sort_within_queries(inv_query, [inv_key], blocks)
        ideal_order = inv[perm] if isinstance(inv, np.ndarray) else perm
        sorted_gain = gains[ideal_order]
        starts = np.searchsorted(doc.query[ideal_order], every_query)
    del inv, inv_query
    sorted_gain[np.isneginf(sorted_gain)] = np.nan  # unknown gains
    sorted_gain = sorted_gain.astype(np.float64, copy=False)
    ideal_rank = ranks if blocks and same_rows else None
    return sorted_gain, starts, ideal_rank, ideal_order, blocks
