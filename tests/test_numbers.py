"""The one number-to-text of the model."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.model.numbers import number_text


@pytest.mark.parametrize(
    ("x", "text"),
    [
        (0.0, "0"),
        (-0.0, "0"),
        (3.0, "3"),
        (-2.0, "-2"),
        (2.5, "2.5"),
        (0.1, "0.1"),
        (1e-7, "1e-07"),
        (1e20, "100000000000000000000"),
        (7, "7"),
        (float("nan"), "nan"),
        (float("inf"), "inf"),
        (float("-inf"), "-inf"),
    ],
)
def test_number_text(x, text):
    assert number_text(x) == text


def test_number_text_reads_numpy_floats():
    import numpy as np

    assert number_text(np.float64(4.0)) == "4"
    assert number_text(np.float32(0.5)) == "0.5"


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_number_text_reads_back(x):
    back = float(number_text(x))
    assert back == x
    assert math.copysign(1.0, back) == math.copysign(1.0, x) or x == 0.0
