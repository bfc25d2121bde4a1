"""The discount of a rank: ``1 / log2(rank + 1)`` (each candidate's gain:
:mod:`core.engine.gains`; what a query's numbers are: :mod:`core.engine.results`)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

__all__ = ["block_discounts", "discount"]

FloatArray = npt.NDArray[np.float64]


def discount(rank: npt.ArrayLike) -> FloatArray:
    """``1 / log2(rank + 1)`` for 1-based ranks.

    Many whole-number ranks are looked up in a table of the same values
    (ranks repeat: one logarithm per distinct rank).

    >>> discount([1, 3]).tolist()
    [1.0, 0.5]
    """
    r = np.asarray(rank)
    if r.dtype.kind in "iu" and r.size > _FEW:
        low, high = int(r.min()), int(r.max())
        if low >= 1 and high <= _TABLE_LIMIT:
            looked_up: FloatArray = _table_to(high)[r]
            return looked_up
    return _discount(r)


def block_discounts(m: int, total: int) -> FloatArray | None:
    """The discounts of ranks 1 to ``m`` as :func:`discount` gives them to
    ``total`` ranks that repeat 1 to ``m`` (lists of one length): a slice of
    its table, not to be written to; None where it computes them instead."""
    if total <= _FEW or m > _TABLE_LIMIT:
        return None
    return _table_to(m)[1:m + 1]


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
#: This many ranks or fewer are computed, not looked up.
_FEW = 256
