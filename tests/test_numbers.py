"""The one number-to-text and the one text-to-number of the model."""

from __future__ import annotations

import math

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from core.model.numbers import NumberError, number_text, read_number


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


# -- read_number: the one grammar of grades, scores and qrels ------------------------------


@pytest.mark.parametrize(("text", "value"), [
    ("2", 2.0), ("-0.5", -0.5), ("+1", 1.0), (".5", 0.5), ("5.", 5.0), ("1e-3", 0.001),
    ("2E+2", 200.0), (" 3 ", 3.0), ("007", 7.0), ("1e308", 1e308), ("4.9e-324", 5e-324),
    ("0.1000000000000000055511151231257827", 0.1),
])
def test_read_number_accepts_the_grammar(text: str, value: float) -> None:
    assert read_number(text) == value


@pytest.mark.parametrize(("text", "reason"), [
    ("1_0", "not a number (digits grouped with '_'; write the digits alone)"),
    ("nan", "not a finite number"), ("-inf", "not a finite number"),
    ("Infinity", "not a finite number"), ("+NaN", "not a finite number"),
    ("1e999", "not a finite number (beyond the largest number, about 1.8e308)"),
    ("0x10", "not a number (not a decimal number)"),
    ("\u0661", "not a number (digits other than 0-9)"),
    ("\uff12", "not a number (digits other than 0-9)"),
    ("2,5", "not a number (a decimal comma; write 2.5)"),
    ("1,000", "not a number (a thousands separator or a decimal comma; write 1000 or 1.000)"),
    ("", "not a number"), ("-", "not a number"), (".", "not a number"), ("1e", "not a number"),
    ("1 0", "not a number"), ("+-1", "not a number"), ("1.2.3", "not a number"),
    ("high", "not a number"), ("50%", "not a number"),
])
def test_read_number_refuses_what_float_might_take(text: str, reason: str) -> None:
    with pytest.raises(NumberError) as info:
        read_number(text)
    assert info.value.reason == reason
    assert str(info.value) == reason


@pytest.mark.parametrize(("text", "value"), [("2,5", 2.5), ("-0,125", -0.125), ("0,125", 0.125),
                                             ("12,3456", 12.3456), ("2.5", 2.5)])
def test_a_decimal_comma_where_declared(text: str, value: float) -> None:
    assert read_number(text, decimal_comma=True) == value


@pytest.mark.parametrize("text", ["1,000", "12,345", "-100,000", "1,2,3", "1,5e3"])
def test_an_ambiguous_comma_is_refused_even_where_declared(text: str) -> None:
    with pytest.raises(NumberError):
        read_number(text, decimal_comma=True)


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_read_number_reads_what_we_write(x: float) -> None:
    for text in (number_text(x), repr(x), f"{x:e}"):
        back = read_number(text)
        assert back == float(text)
    assert read_number(number_text(x)) == x


@given(st.text(max_size=12))
@example("0\x1f")  # str.strip takes the separators 0x1c-0x1f for white space, float does not
def test_read_number_takes_nothing_float_refuses_and_never_underscores(text: str) -> None:
    try:
        value = read_number(text)
    except NumberError:
        return
    assert value == float(text)
    assert math.isfinite(value)
    assert "_" not in text
    assert all(c in "0123456789+-.eE" for c in text.strip())


@pytest.mark.parametrize("text", ["1_0=3", "nan=1", "1=inf", "0x1=2"])
def test_a_gain_table_reads_its_numbers_by_the_grammar(text: str) -> None:
    from core.errors import ConventionError
    from core.model.conventions import Gain

    with pytest.raises(ConventionError, match="not linear, exponential or a table"):
        Gain.parse(text)


@pytest.mark.parametrize("text", ["1_0", "nan=x", "0,inf"])
def test_a_rubric_reads_its_numbers_by_the_grammar(text: str) -> None:
    from core.errors import ConventionError
    from core.model.conventions import Rubric

    with pytest.raises(ConventionError, match="does not start with a number"):
        Rubric.parse(text)


@pytest.mark.parametrize(("text", "expected"), [("2,5", 2.5), (" 3 ", 3.0), ("1e0", 1.0)])
def test_an_annotator_cell_reads_numbers_by_the_grammar(text: str, expected: float) -> None:
    from core.io.annotator.cells import number

    assert number(text) == expected


@pytest.mark.parametrize(("text", "why"), [("1_0", "grouped with '_'"), ("1,000", "thousands"),
                                           ("nan", "not a finite number")])
def test_an_annotator_cell_outside_the_grammar_is_rejected(text: str, why: str) -> None:
    from core.io.annotator.cells import Reject, number

    with pytest.raises(Reject, match=why):
        number(text)


def test_a_rubric_copied_with_the_hints_n_says_to_give_the_grade() -> None:
    """The import's hint writes a label on no known scale as ``N=label``
    (``--rubric "0=irrelevant,...,N=cant_tell"``); typed as given, the
    refusal says N stands for the label's grade, with the entry to type."""
    from core.errors import ConventionError
    from core.model.conventions import Rubric

    with pytest.raises(ConventionError) as caught:
        Rubric.parse("0=irrelevant,1=partially_relevant,N=cant_tell")
    assert str(caught.value) == ("rubric entry 'N=cant_tell' does not start with a number: "
                                 "N stands for the grade to give 'cant_tell' (e.g. 2=cant_tell)")
