"""The discount of a rank: ``1 / log2(rank + 1)``, and ``log2(rank + 1)`` as C's
``log2`` gives it for the peers that divide by it (each candidate's gain:
:mod:`core.engine.gains`; what a query's numbers are: :mod:`core.engine.results`)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import numpy.typing as npt

from core.model.conventions import Conventions
from core.model.presets import matching_presets

__all__ = ["block_discounts", "discount", "discount_of_some", "divides", "log2_block", "log2_of",
           "terms"]

FloatArray = npt.NDArray[np.float64]


def discount(rank: npt.ArrayLike) -> FloatArray:
    """``1 / log2(rank + 1)`` for 1-based ranks.

    Many whole-number ranks are looked up in a table of the same values
    (ranks repeat: one logarithm per distinct rank).

    >>> discount([1, 3]).tolist()
    [1.0, 0.5]
    """
    r = np.asarray(rank)
    if r.dtype.kind in "iu" and r.size > _FEW and int(r.min()) >= 1:
        return discount_of_some(r, r.size, int(r.max()))
    return _discount(r)


def discount_of_some(rank: npt.NDArray[np.integer[Any]], total: int, highest: int) -> FloatArray:
    """:func:`discount` of some of ``total`` whole-number ranks (each at
    least 1; the highest of all ``highest``), each as :func:`discount` gives
    it to all of them at once (looked up in its table, or worked out,
    alike: the one choice of the two): a sum of some of their terms is that
    of all of them with the others left out, bit for bit.

    >>> discount_of_some(np.array([1, 3]), 1000, 900).tolist()
    [1.0, 0.5]
    """
    if total > _FEW and highest <= _TABLE_LIMIT:
        looked_up: FloatArray = _table_to(highest)[rank]
        return looked_up
    return _discount(rank)


def block_discounts(m: int, total: int) -> FloatArray | None:
    """The discounts of ranks 1 to ``m`` as :func:`discount` gives them to
    ``total`` ranks that repeat 1 to ``m`` (lists of one length): a slice of
    its table, not to be written to; None where it computes them instead."""
    if total <= _FEW or m > _TABLE_LIMIT:
        return None
    return _table_to(m)[1:m + 1]


#: The presets whose peer divides each gain by ``log2(rank + 1)`` from C's
#: ``log2`` (trec_eval's ``m_ndcg.c`` and ``m_ndcg_cut.c``; ranx's numba
#: ``_dcg``) rather than multiply it by the discount: conventions that match
#: one (:func:`core.model.presets.matching_presets`) have their sums divide
#: too (:func:`log2_of`), so that each term, and so each sum made in the same
#: order (position by position from 0.0, as the peers' loops), is the peer's
#: bit for bit. (The product differs from the quotient by an ulp in about
#: one term of two where the gain is not a power of 2; numpy's ``log2``
#: differs from C's at rank 1620 and some larger ranks.)
DIVIDING_PRESETS = frozenset({"trec_eval", "ranx"})


def divides(conventions: Conventions) -> bool:
    """Whether the sums under ``conventions`` divide each gain by
    :func:`log2_of` (:data:`DIVIDING_PRESETS`)."""
    return not DIVIDING_PRESETS.isdisjoint(matching_presets(conventions))


def log2_of(rank: npt.NDArray[np.integer[Any]]) -> FloatArray:
    """``log2(rank + 1)`` for 1-based whole-number ranks, each as C's
    ``log2`` gives it (:data:`DIVIDING_PRESETS`), from a table grown to the
    largest rank asked."""
    out: FloatArray = _log2_to(int(rank.max(initial=0)))[rank]
    return out


def terms(gain: FloatArray, discounts: FloatArray, rank: npt.NDArray[np.integer[Any]],
          divide: bool) -> FloatArray:
    """The DCG's terms of ``gain`` at 1-based ``rank`` (each > 0): times
    ``discounts`` (the effective discount, 0 past k), or, where the sums
    divide (:func:`divides`: presets that never average ties, so a
    discount is its rank's own up to k), divided by :func:`log2_of` the rank
    where the discount is not 0: the terms the sums add, so a running sum of
    them ends at the DCG bit for bit."""
    if not divide:
        out: FloatArray = gain * discounts
        return out
    return np.where(discounts > 0, gain / log2_of(rank), gain * discounts)


def log2_block(m: int) -> FloatArray:
    """:func:`log2_of` ranks 1 to ``m`` (lists of one length): a slice of
    its table, not to be written to."""
    return _log2_to(m)[1:m + 1]


def _log2_to(high: int) -> FloatArray:
    """The table of C's ``log2(rank + 1)``, grown to hold rank ``high``: the
    ranks it lacks are worked out and appended, one ``math.log2`` each (no
    list of them: at 2M ranks, 0.12 s instead of 0.23 s and a 64 MB list)."""
    global _LOG2
    table = _LOG2  # (threads may grow it at once: each uses its own)
    if table.size <= high:
        n = max(high + 1, 2 * table.size)
        more = np.fromiter(map(math.log2, range(table.size + 1, n + 1)), dtype=np.float64,
                           count=n - table.size)
        table = _LOG2 = np.concatenate((table, more))
    return table


def _table_to(high: int) -> FloatArray:
    """The table of discounts, grown to hold rank ``high``."""
    global _TABLE
    table = _TABLE  # (threads may grow it at once: each uses its own)
    if table.size <= high:
        table = _TABLE = _table(max(high + 1, 2 * table.size))
    return table


def _discount(rank: npt.NDArray[np.generic]) -> FloatArray:
    out: FloatArray = 1.0 / np.log2(np.asarray(rank, dtype=np.float64) + 1.0)
    return out


def _table(n: int) -> FloatArray:
    """:func:`discount` of ranks 0 .. n - 1 (rank 0, never looked up, is inf)."""
    with np.errstate(divide="ignore"):
        return _discount(np.arange(n))


#: Discounts of ranks 0, 1, 2, ... (grown when a larger rank asks; ranks
#: beyond the limit are computed).
_TABLE = _table(1024)
_TABLE_LIMIT = 1 << 24
#: C's log2(rank + 1) of ranks 0, 1, 2, ... (:func:`log2_of`).
_LOG2 = np.fromiter(map(math.log2, range(1, 1025)), dtype=np.float64, count=1024)
#: This many ranks or fewer are computed, not looked up.
_FEW = 256
