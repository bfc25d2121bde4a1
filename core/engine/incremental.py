"""Re-evaluation after a few grades changed, reusing the previous results.

An editor re-evaluates after every grade edit. Where the ranked order and
the ideal inventory do not depend on grades (not
:func:`~core.engine.order.order_follows_grades`), only the queries holding
the changed rows are evaluated again, and their numbers are spliced into a
copy of the previous evaluation (:func:`~core.engine.splice.spliced`);
otherwise the whole document is evaluated.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from core.engine.evaluation import Evaluation, evaluate
from core.engine.order import order_follows_grades
from core.engine.splice import spliced

__all__ = ["reevaluate"]


def reevaluate(ev: Evaluation, rows: Sequence[int] | npt.ArrayLike, *,
               in_place: bool = False) -> Evaluation:
    """The evaluation of ``ev.doc`` after the grades of ``rows`` changed.

    Equal to ``evaluate(ev.doc, ev.conventions)``; faster when the ranked
    order cannot depend on grades, since only the changed rows' queries are
    evaluated again. ``ev`` itself is left as it was, unless ``in_place``.

    Parameters
    ----------
    ev : Evaluation
        The evaluation before the change (same document object, changed in
        place, and same conventions).
    rows : sequence of int
        Row indices whose grade, grade state or reason changed.
    in_place : bool
        Write the changed queries' rows into ``ev``'s per-candidate arrays
        and share them with the result instead of copying them (an edit then
        costs its queries' rows, not the document's length); ``ev`` is spent
        (see :func:`~core.engine.splice.spliced`). Nothing is
        written when the re-evaluation raises.

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
    if order_follows_grades(c) or len(ev.gain) != len(doc) or not changed.size:
        return evaluate(doc, c)
    queries = np.unique(doc.query[changed])
    members = np.sort(np.concatenate([doc.members(int(q)) for q in queries]))
    # The changed queries alone, rows in document order: the same sorts and
    # sums run over the same values in the same order as in the whole.
    # The part is worked out (and may raise) before anything is written.
    return spliced(ev, Evaluation(doc.subset(members), c), members, in_place=in_place)

