"""Counting rows per query (or per any small code) a block of rows at a
time, so that the temporaries are a block's rather than full-length copies
of a column (issue 36: 16 MiB each at 2M rows, at the report's peak)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

#: Rows counted at a time by :func:`block_counts`.
COUNT_BLOCK = 1 << 18


def block_counts(values: Callable[[slice], IntArray], n_rows: int, n: int) -> IntArray:
    """How many of the values of rows 0 to ``n_rows`` - 1 are each of 0 to
    ``n`` - 1, counted a block of rows at a time: the temporaries are a
    block's, not a full-length copy of the query column (16 MiB at 2M rows,
    on top of the report's other arrays: issue 36). Counts are whole
    numbers, so the blocks add up to the very same.

    >>> q = np.array([0, 2, 2, 1, 2])
    >>> block_counts(lambda s: q[s], q.size, 4).tolist()
    [1, 1, 3, 0]
    """
    counts = np.zeros(n, dtype=np.int64)
    for lo in range(0, max(n_rows, 1), COUNT_BLOCK):
        counts += np.bincount(values(slice(lo, lo + COUNT_BLOCK)), minlength=n)
    return counts


def counts_where(query: IntArray, mask: BoolArray, nq: int) -> IntArray:
    """Rows per query (0 to ``nq`` - 1) where ``mask`` holds."""
    return block_counts(lambda s: query[s][mask[s]], query.size, nq)


def counts_by_pair(query: IntArray, code: npt.NDArray[np.integer[Any]], nq: int,
                   n: int) -> IntArray:
    """Rows per query (rows) and ``code`` (columns, 0 to ``n`` - 1), in one
    count: each row's cell is its query times ``n`` plus its code.

    >>> counts_by_pair(np.array([0, 1, 1]), np.array([2, 0, 2], np.int8), 2, 3).tolist()
    [[0, 0, 1], [1, 0, 1]]
    """
    def cells(s: slice) -> IntArray:
        cell = np.multiply(query[s], n, dtype=np.int64)
        cell += code[s]
        return cell

    return block_counts(cells, query.size, nq * n).reshape(nq, n)


def counts_in_spans(mask: BoolArray, spans: IntArray) -> IntArray:
    """Rows per query where ``mask`` holds, each query's rows being a span
    in each run of rows (:meth:`~core.model.document.Document.query_spans`):
    a sum a span (``np.add.reduceat``) rather than a count a row
    (``bincount`` of the masked rows' queries: 3.2 -> ~0.7 ms at 2.1M rows,
    the editor's arrival, docs/benchmarks.md, hopen10).

    >>> spans = np.array([[0, 2, 2, 3], [3, 3, 5, 5]])
    >>> counts_in_spans(np.array([True, True, False, True, True]), spans).tolist()
    [2, 2, 0]
    """
    counts = np.zeros(spans.shape[1] - 1, dtype=np.int64)
    for bounds in spans:
        lo, hi = int(bounds[0]), int(bounds[-1])
        filled = bounds[:-1] < bounds[1:]  # (reduceat gives an empty span a row)
        if lo == hi:
            continue
        # (the spans laid end to end: each filled one's sum runs to the next's
        # start). The sum casts the whole run's bytes to its type first, 2
        # bytes a row where no span is longer than 16 bits count, not 4:
        # 0.27 -> 0.13 ms and 7.6 -> 3.8 MiB at 2M rows (hopen11)
        longest = int(np.diff(bounds).max())
        wide = np.uint16 if longest < 1 << 16 else np.int32 if hi - lo < 1 << 31 else np.int64
        counts[filled] += np.add.reduceat(mask[lo:hi].view(np.uint8),
                                          bounds[:-1][filled] - lo, dtype=wide)
    return counts


def span_sizes(spans: IntArray) -> IntArray:
    """Rows per query, each query's rows being a span in each run of rows.

    >>> span_sizes(np.array([[0, 2, 2, 3], [3, 3, 5, 5]])).tolist()
    [2, 2, 1]
    """
    sizes: IntArray = np.diff(spans, axis=1).sum(axis=0, dtype=np.int64)
    return sizes
