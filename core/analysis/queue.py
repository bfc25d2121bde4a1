"""The judging queue: which unknown grade to judge first, across all queries.

What is computed, exactly (cutoff index ``j``, the first cutoff by default):

- Per query, the interval of NDCG@k its unknown grades can still produce
  (:mod:`core.analysis.bounds`: exact over every combination of rubric grades
  when there are at most ``bounds.MAX_COMBINATIONS`` of them, else the
  guaranteed outer interval). A query without open unknown grades has its
  value as interval; a query that is undefined (or undefined whatever the
  unknown grades are) has none.
- The **mean's interval**: the weighted mean, under the declared weighting,
  of the per-query intervals of the queries that count (a weight, and an
  interval): ``low = sum(w_q * low_q) / W``, ``high = sum(w_q * high_q) / W``
  with ``W = sum(w_q)``. Queries are independent, so when no query can become
  undefined this is exactly the range of the mean over every completion of the
  unknown grades (a query that may become undefined is counted with the
  interval of its defined completions).
- Per unknown candidate ``i`` of query ``q``: ``worst_i``, the width of
  ``q``'s interval once ``i`` is judged, at worst over the grades it can get
  (the minimax of ``bounds.best_next_judgment``, for every candidate rather
  than the best one), and the **narrowing** of the mean's interval that
  judgment guarantees, ``w_q * (width_q - worst_i) / W``.
- The queue: the unknown candidates (grade state ``unknown``; unrateable ones
  are judged already) by narrowing, largest first; ties in query id order,
  then ranked before not ranked, better rank first, then row order. Under the
  ``zero`` and ``condensed`` unknown rules no unknown grade widens an interval:
  every narrowing is 0 and the queue keeps that order.

On a query with tie groups to reorder (pessimistic or optimistic ties) and
no exact interval, fixing one grade costs a full outer computation: only its
first :data:`MAX_SLOW` unknown candidates (the order of ``bounds``) are worked
out, the others have no narrowing (NaN) and come after every worked-out one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

# The per-query machinery of the bounds (one unknown fixed, in O(log n) on the
# fast path); the queue asks it for every candidate instead of the best one.
from core.analysis.bounds import MAX_COMBINATIONS, OneJudgment, OpenQuery
from core.analysis.pace import Pace, reviewer_pace
from core.engine.evaluation import Evaluation
from core.model.document import Document, GradeState, has_weight

__all__ = [
    "MAX_SLOW",
    "JudgingQueue",
    "Progress",
    "QueryJudgments",
    "first_unknown",
    "grids_order",
    "judging_queue",
    "next_unknown",
    "query_judgments",
    "reviewer_progress",
]

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
MAX_SLOW = 200


@dataclass(frozen=True)
class QueryJudgments:
    """One query's part of the queue.

    Attributes
    ----------
    query : int
    low, high : float or None
        The query's NDCG@k interval (None: undefined whatever the grades).
    exact : bool
        Whether the interval is exact (else a guaranteed outer one).
    rows : ndarray of int
        The query's unknown candidates, in document order.
    worst : ndarray of float
        Per row: the width of the query's interval once it is judged, at
        worst over its grades (NaN: not worked out).
    """

    query: int
    low: float | None
    high: float | None
    exact: bool
    rows: IntArray
    worst: FloatArray

    @property
    def width(self) -> float:
        return 0.0 if self.low is None or self.high is None else self.high - self.low


@dataclass(frozen=True)
class JudgingQueue:
    """The unknown candidates of a document in the order to judge them.

    Attributes
    ----------
    k : int or None
        The cutoff.
    low, high : float or None
        The mean NDCG@k's interval (None when no query counts).
    exact : bool
        Whether every counted query's interval is exact.
    weight : float
        ``W``, the total weight of the counted queries.
    rows : ndarray of int
        Candidate indices, first to judge first.
    narrowing : ndarray of float
        Per entry: how much its judgment narrows the mean's interval at
        least (NaN: not worked out).
    worst : ndarray of float
        Per entry: its query's interval width once it is judged, at worst.
    queries : tuple of QueryJudgments
        Per query, in document order (hand them back to
        :func:`judging_queue` to skip the queries an edit did not touch).
    settled : bool
        Whether no completion of the unknown grades can move the mean: it
        has a value and every counted query's interval is a single value,
        exactly (two bounds that differ in a late digit are not settled,
        however alike they print).
    """

    k: int | None
    low: float | None
    high: float | None
    exact: bool
    weight: float
    rows: IntArray
    narrowing: FloatArray
    worst: FloatArray
    queries: tuple[QueryJudgments, ...]
    settled: bool

    def __len__(self) -> int:
        return int(self.rows.size)


def query_judgments(ev: Evaluation, q: int, j: int = 0) -> QueryJudgments:
    """Query ``q``'s interval at cutoff index ``j`` and, for each of its
    unknown candidates, the interval width left at worst once it is judged."""
    doc = ev.doc
    members = doc.members(q)
    rows = members[doc.state[members] == GradeState.UNKNOWN].astype(np.int64)
    if ev.n_open[q] == 0:  # no unknown grade counts: the value is the interval
        v = float(ev.ndcg[q, j])
        value = None if np.isnan(v) else v
        return QueryJudgments(q, value, value, True, rows, np.zeros(rows.size))
    query = OpenQuery(ev, q, j)
    where = {int(i): n for n, i in enumerate(query.unknown.tolist())}
    cols = np.array([where.get(int(i), -1) for i in rows], dtype=np.int64)
    worst = np.full(rows.size, np.nan)
    grid = _grid(query.values, query.unknown.size)
    if grid is not None:
        values, undefined = query.ndcg(grid)
        defined = values[~undefined]
        low = None if defined.size == 0 else float(defined.min())
        high = None if defined.size == 0 else float(defined.max())
        listed = cols >= 0
        worst[listed] = _grid_worst(values, undefined, query.values.size,
                                    query.unknown.size)[cols[listed]]
        exact = True
    else:
        low, high = query.outer()
        if not query.groups:
            listed = cols >= 0
            worst[listed] = _fast_worst(OneJudgment(query), cols[listed])
        else:
            for r, n in enumerate(cols.tolist()):
                if 0 <= n < MAX_SLOW:
                    worst[r] = max(_width(query.outer({n: float(v)})) for v in query.values)
        exact = False
    width = 0.0 if low is None or high is None else high - low
    worst[cols < 0] = width  # outside the interval's inventory: its judgment changes nothing
    return QueryJudgments(q, low, high, exact, rows, worst)


def judging_queue(ev: Evaluation, j: int = 0, *,
                  reuse: Mapping[int, QueryJudgments] | None = None) -> JudgingQueue:
    """The document's unknown candidates in the order to judge them (see the
    module's description for what is computed).

    ``reuse`` maps queries to judgments worked out before on an evaluation
    whose grades of that query were the same (they are not computed again).

    Examples
    --------
    >>> from core.engine.evaluation import evaluate
    >>> from core.model.conventions import Conventions, Rubric
    >>> doc = Document.from_columns(
    ...     query=["a", "a", "b", "b"], source_id=["x", "y", "x", "y"],
    ...     score=[2.0, 1.0, 2.0, 1.0], grade=[1.0, None, None, 1.0],
    ...     conventions=Conventions(cutoffs=(2,), rubric=Rubric.parse("0,1")))
    >>> queue = judging_queue(evaluate(doc))
    >>> queue.rows.tolist(), [round(x, 4) for x in queue.narrowing.tolist()]
    ([2, 1], [0.1845, 0.0])
    """
    doc = ev.doc
    reuse = reuse or {}
    per_query = tuple(reuse[q] if q in reuse else query_judgments(ev, q, j)
                      for q in range(doc.n_queries))
    w = doc.query_weights(ev.conventions.weighting)
    lows = np.array([np.nan if p.low is None else p.low for p in per_query])
    highs = np.array([np.nan if p.high is None else p.high for p in per_query])
    counted = has_weight(w) & ~np.isnan(lows) if doc.n_queries else np.zeros(0, dtype=bool)
    total = float(w[counted].sum())
    low = high = None
    if total > 0:
        low = float((w[counted] * lows[counted]).sum() / total)
        high = float((w[counted] * highs[counted]).sum() / total)
    exact = all(p.exact for p, c in zip(per_query, counted.tolist(), strict=True) if c)
    settled = low is not None and bool((lows[counted] == highs[counted]).all())
    rows = [p.rows for p in per_query]
    worst = [p.worst for p in per_query]
    # An unbounded interval (core.analysis.outer.UNBOUNDED) still unbounded
    # once judged narrows by an amount not known: NaN, not worked out.
    with np.errstate(invalid="ignore"):
        weighted = [(float(w[p.query]) if counted[p.query] else 0.0) * (p.width - p.worst)
                    for p in per_query]
    all_rows = np.concatenate(rows) if rows else np.zeros(0, dtype=np.int64)
    all_worst = np.concatenate(worst) if worst else np.zeros(0)
    gain = np.concatenate(weighted) if weighted else np.zeros(0)
    order = _queue_order(doc, ev, all_rows, gain)
    narrowing = gain[order] / total if total > 0 else np.where(np.isnan(gain[order]), np.nan,
                                                               0.0)
    return JudgingQueue(ev.cutoffs[j], low, high, exact, total, all_rows[order], narrowing,
                        all_worst[order], per_query, settled)


def _queue_order(doc: Document, ev: Evaluation, rows: IntArray, gain: FloatArray) -> IntArray:
    """Worked-out entries by weighted narrowing, largest first; ties by query
    id, ranked before not ranked, rank, row."""
    by_id = np.empty(doc.n_queries, dtype=np.int64)
    by_id[sorted(range(doc.n_queries), key=doc.query_ids.__getitem__)] = np.arange(
        doc.n_queries)
    rank = ev.rank[rows].astype(np.int64)
    rank = np.where(rank > 0, rank, np.iinfo(np.int64).max)
    missing = np.isnan(gain)
    order: IntArray = np.lexsort((rows, rank, by_id[doc.query[rows]],
                                  -np.where(missing, 0.0, gain), missing))
    return order


def _grid(values: FloatArray, u: int) -> FloatArray | None:
    """Every combination of ``values`` for ``u`` unknown gains, in the order
    of ``bounds``' grid (the last varies fastest); None past its limit."""
    if values.size**u > MAX_COMBINATIONS:
        return None
    if u == 0:
        return np.zeros((1, 0))
    index = np.indices((values.size,) * u).reshape(u, -1).T
    grid: FloatArray = values[index]
    return grid


def _grid_worst(values: FloatArray, undefined: npt.NDArray[np.bool_], grades: int,
                u: int) -> FloatArray:
    """For each of the ``u`` unknown gains, the widest range of the defined
    NDCG ``values`` (one per combination of :func:`_grid`) left once it is
    fixed, over its ``grades`` values (0 where none is defined): the values as
    a tensor with one axis per unknown, each axis in turn in front."""
    tensor = np.where(undefined, np.nan, values).reshape((grades,) * u)
    worst = np.zeros(u)
    for n in range(u):
        per_grade = np.moveaxis(tensor, n, 0).reshape(grades, -1)
        width = np.fmax.reduce(per_grade, axis=1) - np.fmin.reduce(per_grade, axis=1)
        worst[n] = float(np.nan_to_num(width, nan=0.0).max())
    return worst


def _fast_worst(fast: OneJudgment, cols: IntArray) -> FloatArray:
    """``max over grades of the width of fast.outer(n, grade)`` for each of
    ``cols``, at once (:meth:`OneJudgment.widths`), 0 at least."""
    worst: FloatArray = np.maximum(0.0, fast.widths(cols).max(axis=0, initial=0.0))
    return worst


def _width(interval: tuple[float, float]) -> float:
    return interval[1] - interval[0]


# -- the next candidate to judge, in the order the grid shows them ------------------------
def grids_order(ev: Evaluation, q: int) -> IntArray:
    """Query ``q``'s candidates in the order the grids show them: the
    ranked list, then the judged-but-not-retrieved ones.

    Examples
    --------
    >>> from core.engine.evaluation import evaluate
    >>> doc = Document.from_columns(query=["a", "a", "a"], source_id=["x", "y", "z"],
    ...                             score=[1.0, None, 2.0], grade=[1.0, None, 2.0])
    >>> grids_order(evaluate(doc), 0).tolist()
    [2, 0, 1]
    """
    return np.concatenate([ev.ranked(q), ev.not_retrieved(q)]).astype(np.int64)


def first_unknown(ev: Evaluation, q: int) -> int | None:
    """Query ``q``'s first candidate whose grade is unknown in the grids'
    order (:func:`grids_order`: a not-retrieved one when every ranked one
    is judged); None when none is. The row a reviewer grades next on
    coming to the query.

    Examples
    --------
    >>> from core.engine.evaluation import evaluate
    >>> doc = Document.from_columns(query=["a", "a", "a"], source_id=["x", "y", "z"],
    ...                             score=[1.0, None, 2.0], grade=[1.0, None, 2.0])
    >>> first_unknown(evaluate(doc), 0)
    1
    """
    rows = grids_order(ev, q)
    unknown = ev.doc.state[rows] == GradeState.UNKNOWN
    return int(rows[int(unknown.argmax())]) if unknown.any() else None


def next_unknown(ev: Evaluation, after: int | None = None) -> int | None:
    """The first candidate whose grade is unknown after candidate ``after``
    (None: from the start), query by query in document order, within a query
    in ranked order and then the judged-but-not-retrieved ones (the grids'
    order), wrapping around once; None when no grade is unknown. An
    unrateable candidate is judged: never named.

    Examples
    --------
    >>> from core.engine.evaluation import evaluate
    >>> doc = Document.from_columns(query=["a", "a", "b"], source_id=["x", "y", "x"],
    ...                             score=[1.0, 2.0, 1.0], grade=[None, None, 2.0])
    >>> next_unknown(evaluate(doc)), next_unknown(evaluate(doc), after=1)
    (1, 0)
    """
    doc = ev.doc
    unknown = doc.state == GradeState.UNKNOWN
    if not unknown.any():
        return None
    start = 0 if after is None else int(doc.query[after])
    for step in range(doc.n_queries + 1):
        q = (start + step) % doc.n_queries
        if not unknown[doc.members(q)].any():
            continue
        rows = grids_order(ev, q).tolist()
        if step == 0 and after is not None:
            rows = rows[rows.index(after) + 1:] if after in rows else rows
        for i in rows:
            if unknown[i]:
                return int(i)
    return None


# -- progress of a round's reviewers -----------------------------------------------------
@dataclass(frozen=True)
class Progress:
    """How far a reviewer is: ``graded`` of the ``assigned`` unknown grades,
    and at what pace (their timed judgments in the audit log)."""

    reviewer: str
    graded: int
    assigned: int
    pace: Pace

    @property
    def minutes_left(self) -> float | None:
        """The unknown grades left times the median time per judgment, in
        minutes (None until a judgment is timed)."""
        median = self.pace.median_seconds
        return None if median is None else (self.assigned - self.graded) * median / 60.0


def reviewer_progress(doc: Document) -> list[Progress]:
    """Per reviewer of the document's round (:attr:`Document.assignment`): of
    the unknown grades handed out in their queries, how many are known now
    (an overlap query counts for both its reviewers), and their pace
    (:func:`core.analysis.pace.reviewer_pace`). Empty without a round.

    Examples
    --------
    >>> from core.model.assignment import Assignment, Share
    >>> doc = Document.from_columns(query=["a", "a", "b"], source_id=["x", "y", "x"],
    ...                             grade=[1.0, None, None])
    >>> doc.assignment = Assignment("id", "base", "now", (Share("ana", ("a", "b"), 3),))
    >>> [(p.reviewer, p.graded, p.assigned, p.pace.timed) for p in reviewer_progress(doc)]
    [('ana', 1, 3, 0)]
    """
    if doc.assignment is None:
        return []
    unknown = np.bincount(doc.query[doc.state == GradeState.UNKNOWN], minlength=doc.n_queries)
    index = {qid: q for q, qid in enumerate(doc.query_ids)}
    shares = doc.assignment.shares
    paces = reviewer_pace(doc.audit, [s.reviewer for s in shares])
    out = []
    for share, pace in zip(shares, paces, strict=True):
        left = sum(int(unknown[index[q]]) for q in share.queries if q in index)
        out.append(Progress(share.reviewer, min(max(share.unknown - left, 0), share.unknown),
                            share.unknown, pace))
    return out
