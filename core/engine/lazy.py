"""Results worked out when first asked, each declaring what a grade edit
does to it.

An evaluation re-evaluated after a grade edit (:func:`core.engine.splice.spliced`)
keeps what follows from scores, ranks and the inventory, splices in the
edited queries' part of what it had worked out, and works the rest out again
when asked. Each result of :class:`~core.engine.evaluation.Evaluation`
worked out when asked is declared with one of these, so the splice needs no
list of names.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import cached_property
from typing import Any, ClassVar, Generic, TypeVar, overload

__all__ = ["GradeFree", "Lazy", "PerQuery", "PerRow", "Remade"]

_T = TypeVar("_T")


class Lazy(cached_property[_T]):
    """A result worked out when first asked; a grade edit drops it."""

    #: What :func:`core.engine.splice.spliced` does with it: keep, splice or drop.
    on_edit: ClassVar[str] = "drop"


class GradeFree(Lazy[_T]):
    """A result that follows from scores, ranks and the inventory only: a
    grade edit keeps it."""

    on_edit = "keep"


class PerQuery(Lazy[_T]):
    """An array with a value per query: a grade edit splices in the edited
    queries' values."""

    on_edit = "queries"


class PerRow(Lazy[_T]):
    """An array with a value per candidate: a grade edit splices in the edited
    queries' rows."""

    on_edit = "rows"


class _Remake:
    """Stands in for a released value: how to make it again (from its owner),
    and a lock, so that two threads reading it make it once."""

    def __init__(self, make: Callable[[Any], Any]) -> None:
        self.make = make
        self.lock = threading.Lock()


class Remade(Generic[_T]):
    """An attribute its owner may let go of (:meth:`release`) and that is made
    again when next read, by the function given then, and kept: for what
    follows cheaply from what the owner keeps (an evaluation's gains from the
    grades, its positions' ranks from the positions' queries)."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.slot = "_remade_" + name

    @overload
    def __get__(self, obj: None, owner: type | None = None) -> Remade[_T]: ...
    @overload
    def __get__(self, obj: object, owner: type | None = None) -> _T: ...
    def __get__(self, obj: object | None, owner: type | None = None) -> _T | Remade[_T]:
        if obj is None:
            return self
        value = obj.__dict__[self.slot]
        if isinstance(value, _Remake):
            with value.lock:
                value = obj.__dict__[self.slot]
                if isinstance(value, _Remake):
                    value = obj.__dict__[self.slot] = value.make(obj)
        made: _T = value
        return made

    def __set__(self, obj: object, value: _T) -> None:
        obj.__dict__[self.slot] = value

    def release(self, obj: object, make: Callable[[Any], _T]) -> None:
        """Let go of ``obj``'s value; ``make(obj)`` makes it again when read."""
        obj.__dict__[self.slot] = _Remake(make)

    def is_released(self, obj: object) -> bool:
        return isinstance(obj.__dict__.get(self.slot), _Remake)
