"""Columns made when first read.

A :class:`~core.model.document.Document` read from a million-row TREC run
for its NDCG never needs its empty note and reason columns, nor its source
ids as Python text; they are given :class:`Unmade` and made on first read
(then kept).
"""

from __future__ import annotations

from typing import Generic, TypeVar, overload

import numpy as np
import numpy.typing as npt

from core.model.ids import IdBytes

__all__ = ["Column", "DecodedIds", "EmptyTexts", "Released", "Unmade"]

_T = TypeVar("_T")


class Unmade:
    """A column not made yet; :meth:`make` makes it (on its first read)."""

    def make(self) -> npt.NDArray[np.object_]:
        raise NotImplementedError

    def take(self, rows: npt.NDArray[np.int64]) -> Unmade:
        """The column of ``rows`` only, still not made."""
        raise NotImplementedError


class EmptyTexts(Unmade):
    """``n`` empty texts (a version, note or reason column nobody set)."""

    def __init__(self, n: int) -> None:
        self.n = n

    def make(self) -> npt.NDArray[np.object_]:
        out = np.empty(self.n, dtype=object)
        out.fill("")
        return out

    def take(self, rows: npt.NDArray[np.int64]) -> Unmade:
        return EmptyTexts(rows.size)


class DecodedIds(Unmade):
    """Ids kept as bytes, as text."""

    def __init__(self, ids: IdBytes) -> None:
        self.ids = ids

    def make(self) -> npt.NDArray[np.object_]:
        out = np.empty(len(self.ids), dtype=object)
        out[:] = self.ids.texts()
        return out

    def take(self, rows: npt.NDArray[np.int64]) -> Unmade:
        return DecodedIds(self.ids.take(rows))


class Released(Unmade):
    """A column let go of for the rest of the document's life
    (:meth:`~core.model.document.Document.release_scores`): reading it is an
    error that says so, never a column made anew."""

    def __init__(self, what: str) -> None:
        self.what = what

    def make(self) -> npt.NDArray[np.object_]:
        raise RuntimeError(f"this document's {self.what} were released (a caller that had "
                           "read all it needed of them let them go): keep them to read them")

    def take(self, rows: npt.NDArray[np.int64]) -> Unmade:
        return self


class Column(Generic[_T]):
    """A field of :class:`Document` that may be given :class:`Unmade`: it is
    made when first read and kept (a million-row run read for its NDCG never
    makes its empty note columns nor its source ids as Python text)."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.slot = "_made_" + name

    @overload
    def __get__(self, obj: None, owner: type | None = None) -> Column[_T]: ...
    @overload
    def __get__(self, obj: object, owner: type | None = None) -> _T: ...
    def __get__(self, obj: object | None, owner: type | None = None) -> _T | Column[_T]:
        if obj is None:
            raise AttributeError("no default")  # a dataclass field without a default
        value = obj.__dict__[self.slot]
        if isinstance(value, Unmade):
            value = obj.__dict__[self.slot] = value.make()
        made: _T = value
        return made

    def __set__(self, obj: object, value: _T | Unmade) -> None:
        obj.__dict__[self.slot] = value

    def is_made(self, obj: object) -> bool:
        return not isinstance(obj.__dict__[self.slot], Unmade)

    def text(self, obj: object, i: int) -> str:
        """Row ``i``'s text of ``obj``'s text column, a column of empty texts
        (:class:`EmptyTexts`) not made to tell (a grid shows a few rows of
        millions: the column of 2,000,000 empty texts is 16 MiB)."""
        if isinstance(obj.__dict__[self.slot], EmptyTexts):
            return ""
        return str(np.asarray(self.__get__(obj))[i])

    def blank(self, obj: object, rows: npt.NDArray[np.int64]) -> bool:
        """Whether ``rows`` of ``obj``'s text column are all empty: a column
        of empty texts (:class:`EmptyTexts`) is not made to tell."""
        if isinstance(obj.__dict__[self.slot], EmptyTexts):
            return True
        return bool((np.asarray(self.__get__(obj))[rows] == "").all())

    def take(self, obj: object, rows: npt.NDArray[np.int64]) -> _T | Unmade:
        """A copy of ``rows`` of ``obj``'s column, left unmade if it is."""
        value = obj.__dict__[self.slot]
        if isinstance(value, Unmade):
            return value.take(rows)
        taken: _T = value[rows].copy()
        return taken
