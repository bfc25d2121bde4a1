"""Writes into arrays that can be taken back: an update made in place is
all or nothing.

An edit's re-evaluation (:func:`core.engine.splice.spliced`)
writes the changed queries' rows into the arrays the previous evaluation
holds, so that an edit costs its queries' rows rather than the document's
length. Each write keeps the values it replaces (its rows only), and when a
later step raises (MemoryError partway, say) :meth:`Writes.undo` puts them
back: the arrays are as they were, bit for bit.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["Writes"]

Index = npt.NDArray[np.int64] | slice


class Writes:
    """Writes of values into arrays at some rows, undone together.

    Parameters
    ----------
    in_place : bool
        Write into the arrays given; else into copies of them (nothing to
        undo: the arrays given are never written).

    Examples
    --------
    >>> a = np.arange(5.0)
    >>> w = Writes(in_place=True)
    >>> w.put(a, np.array([1, 3]), np.array([9.0, 9.0])) is a
    True
    >>> w.put(a, slice(0, 2), np.array([7.0, 7.0])).tolist()
    [7.0, 7.0, 2.0, 9.0, 4.0]
    >>> w.undo()
    >>> a.tolist()
    [0.0, 1.0, 2.0, 3.0, 4.0]
    """

    def __init__(self, in_place: bool) -> None:
        self.in_place = in_place
        self._before: list[tuple[npt.NDArray[Any], Index, npt.NDArray[Any]]] = []

    def put(self, whole: npt.NDArray[Any], at: Index, values: npt.NDArray[Any] | Any
            ) -> npt.NDArray[Any]:
        """``whole`` (a copy unless in place, or where ``whole`` is read-only)
        with ``values`` at ``at``.

        >>> ro = np.zeros(3)
        >>> ro.flags.writeable = False
        >>> Writes(in_place=True).put(ro, slice(0, 1), 1.0).tolist(), ro.tolist()
        ([1.0, 0.0, 0.0], [0.0, 0.0, 0.0])
        """
        own = self.in_place and whole.flags.writeable
        return self.write(whole if own else whole.copy(), at, values)

    def write(self, whole: npt.NDArray[Any], at: Index, values: npt.NDArray[Any] | Any
              ) -> npt.NDArray[Any]:
        """``values`` written at ``at`` into ``whole`` itself (one :meth:`put`
        made in place, or a copy it made), to be undone with the rest."""
        # The values replaced, copied before the write (if that raises,
        # nothing is written).
        self._before.append((whole, at, np.array(whole[at], copy=True)))
        whole[at] = values
        return whole

    def undo(self) -> None:
        """Put back what every write replaced, the last written first."""
        while self._before:
            whole, at, before = self._before.pop()
            whole[at] = before
