"""What an evaluation keeps of its ranked order and ranked gains
(core.engine.ranked.RankedRows; 16 MB a side each at 2M candidates)."""

from __future__ import annotations

import numpy as np

from core.engine.evaluation import evaluate
from core.engine.ranked import RankedRows
from core.model.conventions import Conventions, TieRule
from core.model.document import Document


def _doc() -> Document:
    # Rows in score order within each query; "q" has a tie (y, z) that the
    # id order puts z first: under id-desc ties the order is not the rows' own.
    return Document.from_columns(query=["q", "q", "q", "r", "r"],
                                 source_id=["x", "y", "z", "u", "v"],
                                 score=[3, 2, 2, 5, 1], grade=[0, 2, 1, 1, 3])


def test_rows_in_their_own_order_keep_no_array():
    own = RankedRows(np.arange(4))
    assert own.own
    assert own.size == 4
    np.testing.assert_array_equal(own.rows, [0, 1, 2, 3])
    np.testing.assert_array_equal(own.between(1, 3), [1, 2])
    np.testing.assert_array_equal(own.at(np.array([3, 1])), [3, 1])
    values = np.array([10.0, 11.0, 12.0, 13.0, 14.0])
    assert np.shares_memory(own.take(values), values)  # a view, not a copy
    out = np.zeros(5)
    own.put(out, np.array([1.0, 2.0, 3.0, 4.0]))
    np.testing.assert_array_equal(out, [1, 2, 3, 4, 0])
    other = RankedRows(np.array([0, 2, 1, 3]))
    assert not other.own
    np.testing.assert_array_equal(other.take(values), [10, 12, 11, 13])
    np.testing.assert_array_equal(other.between(1, 3), [2, 1])
    np.testing.assert_array_equal(other.at(np.array([2, 0])), [1, 0])
    out[:] = 0
    other.put(out, np.array([1.0, 2.0, 3.0, 4.0]))
    np.testing.assert_array_equal(out, [1, 3, 2, 4, 0])


def test_the_ranked_gains_are_shared_or_let_go_and_gathered_alike():
    doc = _doc()
    averaged = evaluate(doc, Conventions(ties=TieRule.AVERAGE))
    by_id = evaluate(doc, Conventions(ties=TieRule.ID_DESC))
    np.testing.assert_array_equal(averaged.order, [0, 1, 2, 3, 4])
    np.testing.assert_array_equal(by_id.order, [0, 2, 1, 3, 4])
    # Shared with the gain column, or made anew each time it is asked.
    assert np.shares_memory(averaged.sorted_gain, averaged.gain)
    assert by_id.sorted_gain is not by_id.sorted_gain
    for ev in (averaged, by_id):
        np.testing.assert_array_equal(ev.sorted_gain, ev.gain[ev.order])
        np.testing.assert_array_equal(ev.ranked(0), ev.order[:3])
        np.testing.assert_array_equal(ev.ranked_between(1, 4), ev.order[1:4])
        for k in (1, 2, None):
            eff = ev.effective_discount(k)
            want = np.zeros(len(doc))
            want[ev.order] = np.where(eff > 0, ev.gain[ev.order] * eff, 0.0)
            np.testing.assert_array_equal(ev.contribution_at(k), want)
    # The id order ranks z (grade 1) before y (grade 2): rank 2 and 3.
    np.testing.assert_array_equal(by_id.rank, [1, 3, 2, 1, 2])
    np.testing.assert_array_equal(averaged.rank, [1, 2, 3, 1, 2])
