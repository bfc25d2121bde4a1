"""Which rows belong to which query: each row's query code, and each
query's rows in row order (:meth:`~core.model.document.Document.members`,
:meth:`~core.model.document.Document.query_spans`), found without a sort
where the rows already come query by query in a few runs."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

__all__ = ["QueryMembers", "query_codes_of"]

IntArray = npt.NDArray[np.int64]


class QueryMembers:
    """:meth:`~core.model.document.Document.members`: each query's rows in row order. Where the
    rows come in a few runs of ascending query codes (a TREC run joined
    with its qrels: the ranked rows query by query, then the judged ones
    no run ranked), each run's span of each query, the rows made when
    asked; else a stable sort's order kept (8 bytes a row: 16 MB at 2M
    rows a document, and the sort's ~0.1 s, saved in the first case)."""

    #: Runs of ascending codes past which the order is sorted and kept.
    RUNS = 8

    def __init__(self, order: IntArray | None, bounds: IntArray) -> None:
        self.order, self.bounds = order, bounds  # bounds: (runs, queries + 1)

    @classmethod
    def of(cls, query: IntArray, n: int) -> QueryMembers:
        spans = cls.spans(query, n)
        if spans is not None:
            return cls(None, spans)
        order = np.argsort(query, kind="stable")
        return cls(order, np.searchsorted(query[order], np.arange(n + 1))[None, :])

    @classmethod
    def spans(cls, query: IntArray, n: int) -> IntArray | None:
        """Each run of ascending codes' bounds of each query, (runs, n + 1);
        None past :attr:`RUNS` runs."""
        heads = np.flatnonzero(query[1:] < query[:-1]) + 1
        if heads.size >= cls.RUNS:
            return None
        edges = [0, *heads.tolist(), query.size]
        return np.stack([lo + np.searchsorted(query[lo:hi], np.arange(n + 1))
                         for lo, hi in itertools.pairwise(edges)])

    def __getitem__(self, q: int) -> IntArray:
        if self.order is not None:
            return self.order[self.bounds[0, q]:self.bounds[0, q + 1]]
        spans = [np.arange(b[q], b[q + 1]) for b in self.bounds]
        return spans[0] if len(spans) == 1 else np.concatenate(spans)


def query_codes_of(
    query: Sequence[str], query_order: Sequence[str] | None,
    query_codes: npt.NDArray[np.int64] | None, copy: bool,
) -> tuple[dict[str, int], IntArray]:
    """The distinct query ids (id -> code, ``query_order`` first, then first
    seen first) and each row's code."""
    qids: dict[str, int] = {}
    for q in query_order or ():
        qids.setdefault(str(q), len(qids))
    if query_codes is not None:
        for q in query:
            qids.setdefault(str(q), len(qids))
        if len(qids) != len(query) or query_order:
            raise ValueError("query_codes need the distinct query ids, in order")
        qidx = np.array(query_codes, dtype=np.int64, copy=copy or None)
        if len(qidx) and (qidx.min() < 0 or qidx.max() >= len(qids)):
            raise ValueError("a query code is out of range")
        return qids, qidx
    n = len(query)
    try:
        firsts = dict.fromkeys(query)  # distinct ids, first seen first
    except TypeError:  # unhashable ids: their text is the id
        firsts = dict.fromkeys(str(q) for q in query)
        query = [str(q) for q in query]
    for q in firsts:
        qids.setdefault(str(q), len(qids))
    if all(type(q) is str for q in firsts):
        qidx = np.fromiter(map(qids.__getitem__, query), np.int64, n)
    else:
        qidx = np.fromiter((qids[str(q)] for q in query), np.int64, n)
    return qids, qidx
