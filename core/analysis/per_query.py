"""An evaluation as one row per query and cutoff, and the means from those rows.

The per-query table is what a cluster's workers send back (``app/scale``)
and what the library API returns (:mod:`core.tables`): everything a mean
needs (NDCG, status, the query's weight) and everything a reader asks of a
query (DCG, ideal DCG, the interval of an unresolved query, the counts).
Its columns are declared once, in :data:`COLUMNS`; :func:`summarize_rows`
gives the very means :func:`core.analysis.aggregate.summarize` gives on the
whole evaluation (the same arithmetic on the same values, in query order).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import numpy.typing as npt

from core.analysis.aggregate import CutoffSummary, summarize_values
from core.analysis.bounds import unresolved_bounds
from core.engine.evaluation import Evaluation
from core.engine.results import STATUS_BY_CODE
from core.model.conventions import Conventions, format_cutoff

__all__ = ["COLUMNS", "STATUS_TEXT", "per_query_rows", "summarize_rows"]

#: The per-query table's columns, with what each holds: ``text``, ``number``
#: (float64, NaN where there is none), ``count`` (int64) or ``flag`` (bool).
#: ``k`` is the cutoff as written (``10``, ``all``); ``low``, ``high`` and
#: ``exact`` are the interval of an unresolved query (NaN, NaN, False for
#: the others; -inf or inf: an outer side with no finite bound,
#: :data:`core.analysis.bounds.UNBOUNDED`); ``weight`` is the query's weight under the conventions'
#: weighting.
COLUMNS: tuple[tuple[str, str], ...] = (
    ("query", "text"), ("k", "text"), ("dcg", "number"), ("idcg", "number"),
    ("ndcg", "number"), ("status", "text"), ("low", "number"), ("high", "number"),
    ("exact", "flag"), ("ranked", "count"), ("judged", "count"), ("unknown", "count"),
    ("unrateable", "count"), ("total", "count"), ("weight", "number"),
)
#: A status code's text (the engine's codes index it).
STATUS_TEXT = tuple(s.value for s in STATUS_BY_CODE)

Rows = dict[str, Any]


def _nan(x: float | None) -> float:
    return math.nan if x is None else float(x)


def per_query_rows(ev: Evaluation) -> Rows:
    """The per-query table of ``ev``: :data:`COLUMNS` as parallel columns
    (lists of text, numpy arrays), query by query in the document's order,
    each query's cutoffs in the conventions' order."""
    nq, nk = ev.doc.n_queries, len(ev.cutoffs)
    low = np.full((nq, nk), np.nan)
    high = np.full((nq, nk), np.nan)
    exact = np.zeros((nq, nk), dtype=bool)
    for j, found in enumerate(unresolved_bounds(ev)):
        for q, b in found.items():
            low[q, j], high[q, j], exact[q, j] = _nan(b.low), _nan(b.high), b.exact
    texts = np.array(STATUS_TEXT, dtype=object)

    def each(values: npt.NDArray[Any]) -> npt.NDArray[Any]:
        return np.repeat(values, nk)

    return {
        "query": [q for q in ev.doc.query_ids for _ in range(nk)],
        "k": [format_cutoff(k) for k in ev.cutoffs] * nq,
        "dcg": ev.dcg.ravel().copy(), "idcg": ev.idcg.ravel().copy(),
        "ndcg": ev.ndcg.ravel().copy(), "status": texts[ev.status_code.ravel()].tolist(),
        "low": low.ravel(), "high": high.ravel(), "exact": exact.ravel(),
        "ranked": each(ev.n_ranked), "judged": each(ev.n_judged),
        "unknown": each(ev.n_unknown), "unrateable": each(ev.n_unrateable),
        "total": each(ev.n_total),
        "weight": each(ev.doc.query_weights(ev.conventions.weighting)),
    }


def summarize_rows(rows: Rows, conventions: Conventions) -> list[CutoffSummary]:
    """The means of a per-query table made under ``conventions`` (its rows in
    query order, each query's cutoffs in the conventions' order), as
    :func:`~core.analysis.aggregate.summarize` gives them."""
    nk = len(conventions.cutoffs)
    ndcg = np.asarray(rows["ndcg"], dtype=np.float64).reshape(-1, nk)
    code = {text: i for i, text in enumerate(STATUS_TEXT)}
    status = np.array([code[s] for s in rows["status"]], dtype=np.int8).reshape(-1, nk)
    weights = np.asarray(rows["weight"], dtype=np.float64)[::nk]
    return summarize_values(ndcg, status, conventions.cutoffs, weights, conventions.weighting)
