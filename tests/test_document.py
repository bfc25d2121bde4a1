"""The document's own helpers: per-query weights."""

from __future__ import annotations

import numpy as np
import pytest

from core.model.conventions import Weighting
from core.model.document import Document


def _doc() -> Document:
    return Document.from_columns(
        query=["a", "a", "b", "c"], source_id=["x", "y", "x", "z"],
        frequency={"a": 3.0, "b": 0.0, "ghost": 9.0},
        importance={"c": 0.5},
    )


@pytest.mark.parametrize(
    ("weighting", "expected"),
    [
        (Weighting.EQUAL, [1.0, 1.0, 1.0]),
        (Weighting.FREQUENCY, [3.0, 0.0, np.nan]),
        (Weighting.IMPORTANCE, [np.nan, np.nan, 0.5]),
        ("frequency", [3.0, 0.0, np.nan]),
    ],
)
def test_query_weights(weighting, expected):
    w = _doc().query_weights(weighting)
    assert w.dtype == np.float64
    np.testing.assert_array_equal(w, np.array(expected))


def test_query_weights_is_a_new_array_and_follows_subset():
    doc = _doc()
    w = doc.query_weights(Weighting.FREQUENCY)
    w[:] = -1.0
    assert doc.frequency[0] == 3.0
    part = doc.subset(np.array([2, 3]))
    np.testing.assert_array_equal(part.query_weights(Weighting.FREQUENCY), [0.0, np.nan])
