"""The rows of an evaluation's ranked lists in ranked order, as it keeps them.

The order is an array of row numbers, query by query, each list in ranked
order (:func:`core.engine.order.ranked_lists`). Where it is the first rows in
their own order (a run already in score order, ties averaged: the defaults'
usual case) no array is kept: it is the positions' own numbers, a slice where
values are taken or put, an ``arange`` only when the array itself is asked
for (16 MB less a side at 2M candidates for the evaluation's life; compare
holds two).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import numpy as np
import numpy.typing as npt

__all__ = ["RankedRows"]

IntArray = npt.NDArray[np.int64]
_A = TypeVar("_A", bound=np.generic)


class RankedRows:
    """The ranked lists' rows: :attr:`rows` (the order), ``size`` positions."""

    __slots__ = ("_order", "_remake", "size")

    def __init__(self, order: IntArray) -> None:
        self.size = order.size
        own = self.size > 0 and int(order[-1]) == self.size - 1 and bool(
            np.all(order[1:] > order[:-1]))
        self._order: IntArray | None = None if own else order
        self._remake: Callable[[], IntArray] | None = None

    @property
    def own(self) -> bool:
        """Whether the ranked rows are the first rows in their own order."""
        return self._order is None and self._remake is None

    @property
    def released(self) -> bool:
        """Whether the order was let go (:meth:`release`)."""
        return self._remake is not None

    def release(self, remake: Callable[[], IntArray]) -> None:
        """Let go of the order (8 bytes a position) where it is not the
        rows' own; ``remake`` makes it again, each time it is read (a pass
        over every position: for a caller that reads no more of it, as the
        command line's compare of two runs once each side is made)."""
        if self._order is not None:
            self._order, self._remake = None, remake

    def _kept(self) -> IntArray | None:
        """The order, or None where it is the rows' own."""
        return self._order if self._remake is None else self._remake()

    @property
    def rows(self) -> IntArray:
        """The order as an array (made anew where it is the rows' own)."""
        order = self._kept()
        return np.arange(self.size) if order is None else order

    def between(self, lo: int, hi: int) -> IntArray:
        """``rows[lo:hi]``: the rows at those positions."""
        order = self._kept()
        return np.arange(lo, hi) if order is None else order[lo:hi]

    def at(self, positions: IntArray) -> IntArray:
        """``rows[positions]``."""
        order = self._kept()
        return positions if order is None else order[positions]

    def take(self, values: npt.NDArray[_A]) -> npt.NDArray[_A]:
        """``values[rows]``: a view of ``values`` where the order is the
        rows' own (read it, or copy it before writing), else a new array."""
        order = self._kept()
        return values[: self.size] if order is None else values[order]

    def put(self, out: npt.NDArray[_A], values: npt.NDArray[_A]) -> None:
        """``out[rows] = values``."""
        order = self._kept()
        if order is None:
            out[: self.size] = values
        else:
            out[order] = values
