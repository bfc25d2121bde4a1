"""Re-evaluation after a few grades changed, reusing the previous results.

An editor re-evaluates after every grade edit. Where the ranked order and
the ideal inventory do not depend on grades (ties ``supplied``, ``average``
or ``id_desc``; unknown grades not ``condensed``), only the queries holding
the changed rows are evaluated again, and their numbers are spliced into a
copy of the previous :class:`~core.engine.Evaluation`; otherwise the whole
document is evaluated.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from functools import cached_property

import numpy as np
import numpy.typing as npt

from core.engine.evaluation import Evaluation, evaluate
from core.model.conventions import TieRule, UnknownRule

__all__ = ["reevaluate", "splice"]

IntArray = npt.NDArray[np.int64]

_ORDER_FREE_TIES = (TieRule.SUPPLIED, TieRule.AVERAGE, TieRule.ID_DESC)

#: Results that follow from scores, ranks and the inventory only (kept by
#: :func:`splice`).
_GRADE_FREE = frozenset({
    "n_total", "n_ranked", "n_retrieved", "n_inventory", "rank", "tie_size",
    "tie_first_rank", "discount", "_ideal_start",
})

#: Grade-dependent lazy results spliced by :func:`splice` when already
#: worked out: per query, or per candidate row.
_PER_QUERY = frozenset({"n_judged", "n_unknown", "n_unrateable"})
_SPLICED = _PER_QUERY | {"outside_rubric", "contribution", "ideal_rank", "ideal_contribution"}


def reevaluate(ev: Evaluation, rows: Sequence[int] | npt.ArrayLike) -> Evaluation:
    """The evaluation of ``ev.doc`` after the grades of ``rows`` changed.

    Equal to ``evaluate(ev.doc, ev.conventions)``; faster when the ranked
    order cannot depend on grades, since only the changed rows' queries are
    evaluated again. ``ev`` itself is left as it was.

    Parameters
    ----------
    ev : Evaluation
        The evaluation before the change (same document object, changed in
        place, and same conventions).
    rows : sequence of int
        Row indices whose grade, grade state or reason changed.

    Raises
    ------
    core.errors.InputError
        As :func:`core.engine.evaluate` does (e.g. a negative grade under
        exponential gain).

    Examples
    --------
    >>> from core.model.document import Document
    >>> doc = Document.from_columns(query=["A"] * 3, source_id=["B", "A", "C"],
    ...                             score=[3, 2, 1], grade=[1, 3, 0])
    >>> ev = evaluate(doc)
    >>> _ = doc.set_grade(2, 2.0, who="ana")
    >>> float(reevaluate(ev, [2]).ndcg[0, 0]) == float(evaluate(doc).ndcg[0, 0])
    True
    """
    doc, c = ev.doc, ev.conventions
    changed = np.unique(np.asarray(rows, dtype=np.int64).ravel())
    if (c.ties not in _ORDER_FREE_TIES or c.unknown is UnknownRule.CONDENSED
            or len(ev.gain) != len(doc) or not changed.size):
        return evaluate(doc, c)
    queries = np.unique(doc.query[changed])
    members = np.sort(np.concatenate([doc.members(int(q)) for q in queries]))
    # The changed queries alone, rows in document order: the same sorts and
    # sums run over the same values in the same order as in the whole.
    return splice(ev, Evaluation(doc.subset(members), c), members)


def splice(whole: Evaluation, part: Evaluation, members: IntArray) -> Evaluation:
    """``whole`` with the grade-dependent results of some queries taken from
    ``part``, an evaluation of ``doc.subset(members)`` under the same
    conventions (``members``: every row of those queries, in document order).

    Valid only while the ranked order and the ideal inventory do not depend
    on grades (see :func:`reevaluate`): what follows from scores and ranks
    alone is kept; gains, the ideal order within each query, and the
    per-query numbers are spliced in. ``whole`` itself is left as it was.
    """
    doc = whole.doc
    queries = np.unique(doc.query[members])
    new = copy.copy(whole)
    for name, attr in vars(Evaluation).items():
        if isinstance(attr, cached_property) and name not in _GRADE_FREE:
            old = new.__dict__.pop(name, None)
            # What this evaluation worked out already is spliced too (the
            # editor asks for it after every edit), per query or per row.
            if old is not None and name in _SPLICED:
                values = old.copy()
                values[queries if name in _PER_QUERY else members] = getattr(part, name)
                new.__dict__[name] = values
    new.gain = whole.gain.copy()
    new.gain[members] = part.gain
    new._numeric = whole._numeric.copy()
    new._numeric[members] = part._numeric
    new._sorted_gain = whole._sorted_gain.copy()
    bounds = np.searchsorted(whole._sorted_query, np.stack([queries, queries + 1]))
    for lo, hi in zip(bounds[0].tolist(), bounds[1].tolist(), strict=True):
        new._sorted_gain[lo:hi] = new.gain[whole.order[lo:hi]]
    if "ideal_order" in whole.__dict__:  # else worked out when asked, from the new gains
        new.__dict__["ideal_order"] = _spliced_ideal_order(whole, part, members, queries)
    new.n_open = whole.n_open.copy()
    new.n_open[queries] = part.n_open
    for name in ("dcg", "idcg", "ndcg", "status_code"):
        values = getattr(whole, name).copy()
        values[queries] = getattr(part, name)
        setattr(new, name, values)
    return new


def _spliced_ideal_order(whole: Evaluation, part: Evaluation, members: IntArray,
                         queries: IntArray) -> IntArray:
    """``whole``'s ideal order with the lists of ``queries`` taken from ``part``."""
    # The ideal lists keep their places (the inventory does not follow
    # grades); the changed queries' lists are re-sorted in the part.
    ideal: IntArray = whole.ideal_order.copy()
    # The ideal lists follow the queries in order, n_inventory long each.
    ideal_start = np.concatenate([[0], np.cumsum(whole.n_inventory)])
    ideal_bounds = np.stack([ideal_start[queries], ideal_start[queries + 1]])
    part_ideal = members[part.ideal_order]
    at = 0
    for lo, hi in zip(ideal_bounds[0].tolist(), ideal_bounds[1].tolist(), strict=True):
        ideal[lo:hi] = part_ideal[at:at + hi - lo]
        at += hi - lo
    return ideal
