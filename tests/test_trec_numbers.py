"""The TREC reader's number parser: every token parsed as Python's
``float`` parses it, or refused as the number grammar refuses it; plain
decimals, one word and one byte at a time, by hand and drawn.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.io.trec import scan


def parse(tokens: list[bytes]) -> np.ndarray | None:
    """The tokens parsed, their lengths not given (as the sheet scanner
    calls it) and given (as the TREC scanner does): the same either way."""
    width = -(-max(max(len(t) for t in tokens), 1) // 8) * 8
    m = np.array(tokens, dtype=f"S{width}").view(np.uint8).reshape(len(tokens), width)
    got = scan.parse_numbers(m.copy())
    given = scan.parse_numbers(m, np.array([len(t) for t in tokens], dtype=np.int64))
    assert (got is None) == (given is None)
    assert got is None or given is None or got.tobytes() == given.tobytes()
    return got


@given(st.lists(st.floats(allow_nan=False, allow_infinity=False), min_size=1, max_size=20),
       st.sampled_from(["{!r}", "{:.2f}", "{:.6g}", "{:.0f}", "{:+.3f}", "{:.15g}", "{:e}"]))
def test_numbers_parse_as_float_does(values, fmt):
    tokens = [fmt.format(v).encode() for v in values]
    expected = np.array([float(t) for t in tokens])
    got = parse(tokens)
    if not np.isfinite(expected).all():  # e.g. the largest double to 15 digits
        assert got is None
        return
    assert got is not None
    assert got.tobytes() == expected.tobytes()


@given(st.lists(st.text("0123456789.-+eE", min_size=1, max_size=20), min_size=1, max_size=8))
def test_numbers_parse_any_token_as_float_does(texts):
    """Tokens of digits, dots, signs and exponents: the same value as float,
    bit for bit, or refused where float refuses (or overflows)."""
    assert_parsed_as_float([t.encode() for t in texts])


def assert_parsed_as_float(tokens: list[bytes]) -> None:
    """The parser gives float's values bit for bit, or refuses where float
    refuses (or overflows)."""
    try:
        expected = np.array([float(t) for t in tokens])
    except ValueError:
        assert parse(tokens) is None
        return
    got = parse(tokens)
    if not np.isfinite(expected).all():
        assert got is None
        return
    assert got is not None
    assert got.tobytes() == expected.tobytes()


DIGITS = st.text("0123456789", max_size=18)


@given(st.lists(st.tuples(st.sampled_from(["", "+", "-"]), DIGITS, st.booleans(), DIGITS),
                min_size=1, max_size=12))
def test_plain_decimals_parse_as_float_does(parts):
    """Signs, digits and a dot anywhere, across the 8-byte words the parser
    reads at once (up to 37 bytes): float's value bit for bit, or refused
    where float refuses."""
    assert_parsed_as_float([f"{sign}{whole}{'.' if dot else ''}{frac}".encode()
                            for sign, whole, dot, frac in parts])


def test_plain_decimals_by_hand():
    tokens = [b"17.63", b"-0.5", b"+12345678.9", b"123456789012345", b"1234567890.12345",
              b".5", b"7.", b"-0", b"00000000000000000001", b"1234567890123456"]
    got = parse(tokens)
    assert got is not None
    assert got.tolist() == [17.63, -0.5, 12345678.9, 123456789012345.0, 1234567890.12345,
                            0.5, 7.0, -0.0, 1.0, 1234567890123456.0]
    assert np.signbit(got[7])


def test_plain_decimals_of_one_word_by_hand():
    """Tokens of at most 8 bytes (read as one word): a sign, a dot at
    either end, eight digits, a sign and seven."""
    tokens = [b"17.63", b"-0.5", b"+1234.5", b".5", b"7.", b"-0", b"12345678", b"-1234567",
              b"0.000001", b"9", b"-.25", b"1234567."]
    got = parse(tokens)
    assert got is not None
    assert got.tolist() == [17.63, -0.5, 1234.5, 0.5, 7.0, -0.0, 12345678.0, -1234567.0,
                            0.000001, 9.0, -0.25, 1234567.0]
    assert np.signbit(got[5])
    for bad in (b"1.2.", b"+", b"-.", b"1-2", b"12e", b"..5"):
        assert parse([b"1.5", bad]) is None, bad


def test_numbers_of_one_byte():
    """A qrels' grades, one digit each, are read as they stand; a lone
    sign, dot or letter among them is refused."""
    got = parse([b"0", b"3", b"1", b"9", b"0"])
    assert got is not None
    assert got.tolist() == [0.0, 3.0, 1.0, 9.0, 0.0]
    assert not np.signbit(got).any()
    for bad in (b"-", b".", b"+", b"e", b"x", b"/", b":"):
        assert parse([b"1", bad]) is None, bad


@pytest.mark.parametrize("token", [b"1,5", b"-", b".", b"1.2.3", b"nan", b"inf", b"--1", b"0x1",
                                   b"1e400", b"\xe9", b"1_000", b"1_0", b"infinity", b"NaN"])
def test_numbers_refuse_what_the_number_grammar_refuses(token):
    # float takes '1_000' (digits grouped) and 'infinity': the grammar
    # (core.model.numbers.read_number) does not
    assert parse([b"1", token]) is None


def test_numbers_accept_what_float_accepts():
    tokens = [b"+.5", b"5.", b"-0", b"007", b"1E3", b"123456789012345678"]
    got = parse(tokens)
    assert got is not None
    assert got.tobytes() == np.array([float(t) for t in tokens]).tobytes()
