"""One current grade from several annotators' grades, by a declared rule.

The individual grades are kept (``Document.ratings``); this module only
computes the consensus that becomes the current grade, and the declared
rounding applied to it.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from core.model.conventions import ConsensusRule, Rounding
from core.model.document import GradeState

__all__ = ["apply_rounding", "consensus"]

FloatArray = npt.NDArray[np.float64]
StateArray = npt.NDArray[np.int8]


def apply_rounding(values: FloatArray, rounding: Rounding | str) -> FloatArray:
    """Round ``values`` by the declared rule (NaN stays NaN).

    Examples
    --------
    >>> x = np.array([0.5, 1.5, 2.5, -0.5, 1.25])
    >>> apply_rounding(x, "half-up").tolist()
    [1.0, 2.0, 3.0, 0.0, 1.0]
    >>> apply_rounding(x, "half-even").tolist()
    [0.0, 2.0, 2.0, -0.0, 1.0]
    """
    rule = Rounding(rounding)
    x = np.asarray(values, dtype=np.float64)
    if rule is Rounding.NONE:
        return x.copy()
    if rule is Rounding.HALF_UP:
        return np.floor(x + 0.5)
    if rule is Rounding.HALF_EVEN:
        return np.round(x)
    if rule is Rounding.FLOOR:
        return np.floor(x)
    return np.ceil(x)


def _majority(ratings: FloatArray) -> FloatArray:
    """Most frequent grade per row; a tie between grades goes to the lower."""
    n = ratings.shape[0]
    out = np.full(n, np.nan)
    if ratings.size == 0:
        return out
    # Sort each row (NaN last); count runs of equal values, keep the longest
    # run, the first (= lowest) on a tie.
    srt = np.sort(ratings, axis=1)
    best_count = np.zeros(n, dtype=np.int64)
    run = np.zeros(n, dtype=np.int64)
    for j in range(srt.shape[1]):
        col = srt[:, j]
        valid = ~np.isnan(col)
        same = np.zeros(n, dtype=bool) if j == 0 else col == srt[:, j - 1]
        run = np.where(valid, np.where(same, run + 1, 1), 0)
        better = run > best_count
        out = np.where(better, col, out)
        best_count = np.where(better, run, best_count)
    return out


def _median(ratings: FloatArray) -> FloatArray:
    """Median of the grades given per row (each row holds at least one).

    One sort along the annotators (NaN last), then the middle one or two of
    the ``k`` grades given: the same values as ``np.nanmedian``, without its
    per-row machinery for the few annotators of a workbook.
    """
    srt = np.sort(ratings, axis=1)
    k = np.count_nonzero(~np.isnan(srt), axis=1)
    rows = np.arange(len(srt))
    low = srt[rows, (k - 1) // 2]
    high = srt[rows, k // 2]
    with np.errstate(over="ignore", invalid="ignore"):
        out: FloatArray = np.where(low == high, low + 0.0, (low + high) / 2)  # no -0.0
    return out


def consensus(
    ratings: FloatArray,
    rule: ConsensusRule | str,
    rounding: Rounding | str = Rounding.NONE,
) -> tuple[FloatArray, StateArray]:
    """Combine annotators' grades into one grade per candidate.

    Parameters
    ----------
    ratings : ndarray of shape (n_candidates, n_annotators)
        Each annotator's grade; NaN where that annotator gave none.
    rule : ConsensusRule
        ``mean``, ``median``, ``majority`` (ties go to the lower grade),
        ``minimum`` or ``maximum``, over the grades given (NaN ignored).
    rounding : Rounding
        Applied to the consensus (``none`` keeps full precision).

    Returns
    -------
    grades : ndarray of float
        The consensus; NaN where no annotator gave a grade.
    states : ndarray of int8
        ``GradeState.NUMBER`` where a grade exists, ``GradeState.UNKNOWN``
        where no annotator graded the candidate (never 0).

    Examples
    --------
    >>> r = np.array([[3.0, 2.0, 2.0], [1.0, np.nan, 2.0], [np.nan, np.nan, np.nan]])
    >>> g, s = consensus(r, "mean", "none")
    >>> g.round(4).tolist()[:2], s.tolist()
    ([2.3333, 1.5], [0, 0, 1])
    >>> consensus(r, "majority")[0].tolist()[:2]
    [2.0, 1.0]
    >>> consensus(r, "mean", "half-up")[0].tolist()[:2]
    [2.0, 2.0]
    """
    rule = ConsensusRule(rule)
    r = np.asarray(ratings, dtype=np.float64)
    if r.ndim != 2:
        raise ValueError("ratings must be a 2-D array (candidates x annotators)")
    n = r.shape[0]
    graded = ~np.isnan(r)
    any_grade = graded.any(axis=1) if r.shape[1] else np.zeros(n, dtype=bool)
    every = bool(any_grade.all())
    out = np.full(n, np.nan)
    rows = r if every else r[any_grade]
    if rows.size:
        if rule is ConsensusRule.MEAN:
            val = np.nanmean(rows, axis=1)
        elif rule is ConsensusRule.MEDIAN:
            val = _median(rows)
        elif rule is ConsensusRule.MINIMUM:
            val = np.nanmin(rows, axis=1)
        elif rule is ConsensusRule.MAXIMUM:
            val = np.nanmax(rows, axis=1)
        else:
            val = _majority(rows)
        if every:
            out = apply_rounding(val, rounding)
        else:
            out[any_grade] = apply_rounding(val, rounding)
    states = np.where(any_grade, GradeState.NUMBER, GradeState.UNKNOWN).astype(np.int8)
    return out, states
