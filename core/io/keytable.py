"""A hash index of distinct 64-bit keys for joins.

The Parquet join (:mod:`core.io.columnar`) finds which run pairs the qrels
judge by probing a table of the judged pairs' keys: keys in no order cost
no cache misses of a binary search. (The TREC join sorts both files by
query instead, since TREC files list a query's rows together.)
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

__all__ = ["KeyTable"]

U64Array = npt.NDArray[np.uint64]
IntArray = npt.NDArray[np.int64]
_MIX = np.uint64(0x9E3779B97F4A7C15)


class KeyTable:
    """Rows of distinct 64-bit keys in an open-addressing table (linear
    probing, at most a third full), filled and probed for many keys at once."""

    #: Keys probed at once (bounds the temporary arrays).
    BLOCK = 1 << 20

    def __init__(self, keys: U64Array) -> None:
        bits = max((3 * keys.size).bit_length(), 4)
        self.keys = keys
        self.mask = (1 << bits) - 1
        self.shift = np.uint64(64 - bits)
        self.slots = np.full(1 << bits, -1, dtype=np.int32)
        pending = np.arange(keys.size, dtype=np.int32)
        slot = self._home(keys)
        while pending.size:
            free = np.flatnonzero(self.slots[slot] < 0)
            self.slots[slot[free]] = pending[free]  # one of several writers wins
            placed = np.zeros(pending.size, dtype=bool)
            placed[free[self.slots[slot[free]] == pending[free]]] = True
            pending = pending[~placed]
            slot = (slot[~placed] + 1) & self.mask

    def _home(self, keys: U64Array) -> IntArray:
        home = keys * _MIX
        home >>= self.shift
        slot: IntArray = home.view(np.int64)
        return slot

    def find(self, keys: U64Array) -> npt.NDArray[np.int32]:
        """The row holding each key; -1 where none does."""
        found = np.empty(keys.size, dtype=np.int32)
        for lo in range(0, keys.size, self.BLOCK):
            found[lo:lo + self.BLOCK] = self._find(keys[lo:lo + self.BLOCK])
        return found

    def _find(self, keys: U64Array) -> npt.NDArray[np.int32]:
        found = np.full(keys.size, -1, dtype=np.int32)
        pending = np.arange(keys.size)
        slot = self._home(keys)
        while pending.size:
            row = self.slots[slot]
            taken = np.flatnonzero(row >= 0)
            hit = self.keys[row[taken]] == keys[pending[taken]]
            found[pending[taken[hit]]] = row[taken[hit]]
            go_on = taken[~hit]
            pending, slot = pending[go_on], (slot[go_on] + 1) & self.mask
        return found
