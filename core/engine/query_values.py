"""One query's per-candidate values, worked out from that query's rows only.

:class:`~core.engine.evaluation.Evaluation` keeps ranks, discounts,
contributions and ideal ranks as whole-document arrays, computed when first
asked; an editor showing one query of a large run needs a few hundred of
them. :func:`query_values` gives the same numbers for the rows of one query
(equal to the whole-document arrays at those rows).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from core.engine.discount import discount, terms
from core.engine.evaluation import Evaluation
from core.engine.order import ideal_key

__all__ = ["QueryValues", "query_ideal", "query_values"]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class QueryValues:
    """Values of some candidates of one query, aligned with ``rows``.

    ``rank``, ``discount``, ``contribution``, ``ideal_rank`` and
    ``ideal_contribution`` equal the evaluation's whole-document arrays at
    ``rows``; ``cumulative`` is the running DCG down the query's ranked list
    (:meth:`Evaluation.cumulative_dcg`): the contributions added in rank
    order, ending at the query's DCG bit for bit where its sums add them in
    that order (every preset but sklearn's).
    """

    rows: IntArray
    rank: IntArray
    discount: FloatArray
    contribution: FloatArray
    ideal_rank: IntArray
    ideal_contribution: FloatArray
    cumulative: FloatArray


def _place(rows: IntArray, listed: IntArray) -> tuple[IntArray, BoolArray]:
    """Each of ``rows``' position in ``listed`` (distinct candidates), and
    whether it is listed at all (where not, the position is 0)."""
    if not listed.size:
        return np.zeros(rows.size, dtype=np.int64), np.zeros(rows.size, dtype=bool)
    sorter = np.argsort(listed, kind="stable")
    at = np.searchsorted(listed, rows, sorter=sorter)
    at[at == listed.size] = 0
    pos = sorter[at].astype(np.int64)
    found: BoolArray = listed[pos] == rows
    pos[~found] = 0
    return pos, found


def query_ideal(ev: Evaluation, q: int) -> IntArray:
    """Candidate indices of query ``q``'s ideal list, best first: equal to
    :meth:`Evaluation.ideal` without sorting every query's list (its slice
    where every query's list is worked out already)."""
    if "ideal_order" in ev.__dict__:
        return ev.ideal(q)
    members = ev.doc.members(q)
    inv = members[ev.inventory_mask[members]]
    order: IntArray = inv[np.argsort(ideal_key(ev.gain[inv]), kind="stable")]
    return order


def query_values(ev: Evaluation, q: int, rows: npt.ArrayLike) -> QueryValues:
    """The values of candidates ``rows`` (all of query ``q``) under ``ev``.

    Examples
    --------
    >>> from core.engine.evaluation import evaluate
    >>> from core.model.document import Document
    >>> doc = Document.from_columns(query=["A"] * 3, source_id=["B", "A", "C"],
    ...                             score=[3, 2, 1], grade=[1, 3, 0])
    >>> v = query_values(evaluate(doc), 0, [0, 1, 2])
    >>> v.rank.tolist(), v.ideal_rank.tolist()
    ([1, 2, 3], [2, 1, 3])
    """
    rows = np.asarray(rows, dtype=np.int64)
    gain = ev.gain[rows]
    ranked = ev.ranked(q)
    eff = ev.effective_discount(None, q)
    pos, found = _place(rows, ranked)
    rank = np.where(found, pos + 1, 0).astype(np.int64)
    disc = np.where(found, eff[pos] if eff.size else 0.0, np.nan)
    # (the sums' own terms, core.engine.sums.position_terms: added down the
    # list they end at the DCG bit for bit)
    own = ev.position_terms(None, q)
    cumulative: FloatArray = np.cumsum(own)
    contribution = np.where(found, own[pos] if own.size else 0.0, np.nan)
    ideal = query_ideal(ev, q)
    ipos, ifound = _place(rows, ideal)
    ideal_rank = np.where(ifound, ipos + 1, 0).astype(np.int64)
    ideal_disc = discount(ideal_rank[ifound])
    ideal_contribution = np.full(rows.size, np.nan)
    ideal_contribution[ifound] = terms(gain[ifound], ideal_disc, ideal_rank[ifound], ev.divides)
    return QueryValues(rows=rows, rank=rank, discount=disc, contribution=contribution,
                       ideal_rank=ideal_rank, ideal_contribution=ideal_contribution,
                       cumulative=cumulative)

