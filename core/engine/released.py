"""What an evaluation lets go of while a caller holds it beside other large
work, each array made again from what the evaluation keeps when it is read.

The command line's compare of two runs holds the first run's evaluation
while the second is read, joined and evaluated, and both through
:func:`~core.analysis.compare.compare`: at 2M rows a side, trec_eval's id
order (16 MB), the positions' ranks (8 MB) and the trec_eval preset's gains
(16 MB) follow from what the evaluation keeps anyway (each row's rank, the
positions' queries, the document's grades). The evaluation's friend: it
reads the evaluation's private arrays, as its own methods would.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from core.engine.gains import gains
from core.engine.order import RankArray, segment_rank

#: An :class:`~core.engine.evaluation.Evaluation` (whose module imports this one).
Evaluation = Any

__all__ = ["release_order", "release_remade"]

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]


def release_order(ev: Evaluation) -> None:
    """Let go of ``ev``'s ranked order (8 bytes a ranked candidate: 16 MB at
    2M) where it is not the rows' own and ties are not averaged (trec_eval's
    id order), for a caller that reads no more of it than the contributions
    (:meth:`~core.engine.evaluation.Evaluation.contribution_at`, then worked
    out from each row's rank): the command line's compare of two runs, once
    each side is made (:func:`core.analysis.compare.compare_side`). The
    ranks are kept; any other reader of the order makes it again from them,
    a pass over every position each time."""
    if ev._new_group is not None or ev._rows.own:
        return
    rank, q_sorted, ranked = ev.rank, ev._sorted_query, ev.ranked_mask
    query, nq = ev.doc.query, ev.doc.n_queries

    def remake() -> IntArray:
        rows = np.flatnonzero(ranked)
        place = np.searchsorted(q_sorted, np.arange(nq))[query[rows]]
        place += rank[rows]
        place -= 1
        order = np.empty(rows.size, dtype=np.int64)
        order[place] = rows
        return order

    ev._rows.release(remake)


def release_remade(ev: Evaluation) -> None:
    """Let go of what is made again from what ``ev`` keeps, for a caller
    that holds it beside other large work (the command line's compare of
    two runs, once each side is made, while the other run is joined and
    evaluated): the positions' ranks (4 bytes a ranked candidate: 8 MB at
    2M, from the positions' queries) and, where the gains are a column of
    their own (unknown grades counted as 0: the trec_eval preset), the
    gains (16 MB at 2M, from the grades). Each is made again when next read
    (a pass over the rows), then kept; compare's readers of some rows'
    gains work out those alone
    (:meth:`~core.engine.evaluation.Evaluation.gain_at`). The ranks stay
    where the rows' ranks or the ideal lists' share them (the ranked rows
    the first rows in their own order, as under the default conventions):
    nothing would be let go."""
    cls = type(ev)
    ranks = ev._sorted_rank
    if not any(np.may_share_memory(ranks, kept) for kept in (
            ev.__dict__.get("_ideal_rank_sorted"), ev.__dict__.get("rank"))
            if kept is not None):
        cls._sorted_rank.release(ev, _positions_ranks)
    if not np.may_share_memory(ev.gain, ev.doc.grade):
        cls.gain.release(ev, _gains_again)


def _positions_ranks(ev: Evaluation) -> RankArray:
    """The positions' ranks made again: each position's place in its list
    (the ranked lists are runs of one query)."""
    return segment_rank(ev._sorted_query)[0]


def _gains_again(ev: Evaluation) -> FloatArray:
    """The gains made again from the document's grades."""
    return gains(ev.doc, ev.conventions, ev._numeric, ev._lift)
