"""An evaluation after a grade edit: the edited queries' results spliced into
the previous evaluation's.

:func:`core.engine.incremental.reevaluate` evaluates again only the queries
an edit touched, as a part of their own, and hands it here: the per-query
record splices its own rows (:meth:`core.engine.results.QueryResults.spliced`),
and each result worked out when asked is kept, spliced per query or per row,
or dropped, as it declares (:mod:`core.engine.lazy`). Written in place, each
write can be taken back (:class:`core.engine.writes.Writes`): all or nothing.
"""

from __future__ import annotations

import copy
from functools import cached_property

import numpy as np
import numpy.typing as npt

from core.engine.evaluation import Evaluation
from core.engine.lazy import GradeFree, Lazy
from core.engine.writes import Writes

__all__ = ["spliced"]

IntArray = npt.NDArray[np.int64]


def spliced(ev: Evaluation, part: Evaluation, members: IntArray, *,
            in_place: bool = False) -> Evaluation:
    """``ev`` with the grade-dependent results of some queries taken from
    ``part``, an evaluation of ``ev.doc.subset(members)`` under the same
    conventions (``members``: every row of those queries, in document
    order). ``ev`` is left as it was, unless ``in_place``.

    Valid only while the ranked order and the ideal inventory do not depend
    on grades (:func:`core.engine.order.order_follows_grades`): what
    follows from scores and ranks alone is kept; gains, the ideal order
    within each query and the per-query numbers are spliced in; results
    worked out when asked say what an edit does to them (:class:`~core.engine.lazy.Lazy`).

    ``in_place``: the per-candidate arrays are written where those
    queries' rows are and shared with the result rather than copied (the
    cost follows those rows); ``ev`` is then spent: only its document,
    conventions and per-query numbers stay as they were (all of it does
    when this raises: :class:`~core.engine.writes.Writes`).
    """
    writes = Writes(in_place)
    try:
        return _splice(ev, part, members, writes)
    except BaseException:  # all or nothing: ev's arrays as they were
        writes.undo()
        raise


def _splice(ev: Evaluation, part: Evaluation, members: IntArray, writes: Writes) -> Evaluation:
    """:func:`spliced`, writing through ``writes`` (undone if a step raises)."""
    queries = np.unique(ev.doc.query[members])
    new = copy.copy(ev)
    new.results = ev.results.spliced(queries, part.results)  # (writes nothing)
    for name, attr in vars(type(ev)).items():
        if not isinstance(attr, cached_property):
            continue
        # A plain cached_property says nothing: it is worked out again.
        on_edit = attr.on_edit if isinstance(attr, Lazy) else "drop"
        if on_edit == "keep":
            continue
        old = new.__dict__.pop(name, None)
        # What ev worked out already is spliced too (the editor asks for it
        # after every edit), per query or per row (per-query arrays are
        # short: always copied).
        if old is not None and on_edit != "drop":
            value = getattr(part, name)
            new.__dict__[name] = (Writes(False).put(old, queries, value)
                                  if on_edit == "queries" else writes.put(old, members, value))
    new._kept_ideal = None  # (the gains before the edit)
    # (a copy where the gains are the document's read-only grades)
    new.gain = writes.put(ev.gain, members, part.gain)
    new._numeric = writes.put(ev._numeric, members, part._numeric)
    if ev._sorted_gain is not None:  # (else gathered from the new gains when asked)
        # Kept only as a view of the gains (rows in their own order): the
        # same where they were written in place, else one of the new ones.
        new._sorted_gain = (ev._sorted_gain if new.gain is ev.gain
                            else new._rows.take(new.gain))
    if "ideal_order" in ev.__dict__:  # else worked out when asked, from the new gains
        new.__dict__["ideal_order"] = _spliced_ideal_order(ev, part, members, queries, writes)
    # Grade-free results worked out on ev during the splice (the ideal
    # lists' starts: a count over every row) are the new one's too.
    for name, attr in vars(type(ev)).items():
        if isinstance(attr, GradeFree) and name in ev.__dict__:
            new.__dict__.setdefault(name, ev.__dict__[name])
    return new


def _spliced_ideal_order(ev: Evaluation, part: Evaluation, members: IntArray,
                         queries: IntArray, writes: Writes) -> IntArray:
    """``ev``'s ideal order with ``queries``' lists from ``part`` (through ``writes``)."""
    # The ideal lists keep their places (the inventory does not follow
    # grades); the changed queries' lists are re-sorted in the part.
    ideal: IntArray = ev.ideal_order if writes.in_place else ev.ideal_order.copy()
    ideal_bounds = np.stack([ev._ideal_start[queries], ev._ideal_start[queries + 1]])
    part_ideal = members[part.ideal_order]
    at = 0
    for lo, hi in zip(ideal_bounds[0].tolist(), ideal_bounds[1].tolist(), strict=True):
        writes.write(ideal, slice(lo, hi), part_ideal[at:at + hi - lo])
        at += hi - lo
    return ideal
