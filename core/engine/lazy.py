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

from functools import cached_property
from typing import ClassVar, TypeVar

__all__ = ["GradeFree", "Lazy", "PerQuery", "PerRow"]

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
