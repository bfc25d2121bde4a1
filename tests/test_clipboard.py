"""Clipboard ranges as Excel / LibreOffice write them, and pasted grade text."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.io.clipboard import format_range, parse_range
from core.model.conventions import Rubric
from core.model.document import GradeState
from core.model.grades import (
    CellError,
    PastedGrade,
    parse_grade,
    parse_grades,
)

RUBRIC = Rubric.parse("0=no support,1=partial support,2=substantial support,3=direct support")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", []),
        ("\r\n", [[""]]),
        ("3", [["3"]]),
        ("3\r\n", [["3"]]),
        ("1\t2\r\n3\t4\r\n", [["1", "2"], ["3", "4"]]),  # Excel
        ("1\t2\n3\t4\n", [["1", "2"], ["3", "4"]]),  # LibreOffice on Linux
        ("1\t2\r3\t4", [["1", "2"], ["3", "4"]]),  # old Mac line ends, no final break
        ("a\t\r\n\tb\r\n", [["a", ""], ["", "b"]]),  # empty cells at both edges
        ("a\tb\tc\nd\n", [["a", "b", "c"], ["d", "", ""]]),  # ragged: padded
        ("1\n\n2\n", [["1"], [""], ["2"]]),  # an empty row in the middle stays
        ('"two\nlines"\t"has\ttab"\r\n', [["two\nlines", "has\ttab"]]),
        ('"say ""hi"""\tx\n', [['say "hi"', "x"]]),
        ('"a\r\nb"\r\n', [["a\r\nb"]]),
        ('say "hi"\tx', [['say "hi"', "x"]]),  # unquoted inner quotes stay
        ('"hi" there\t2', [['"hi" there', "2"]]),  # not a well-formed quoted cell
        ('"open\t2', [['"open', "2"]]),  # an unterminated quote is text
        ('""\t1\n', [["", "1"]]),
    ],
)
def test_parse_range(text: str, expected: list[list[str]]):
    assert parse_range(text) == expected


def test_format_range_quotes_only_what_needs_it():
    # As LibreOffice copies: a tab or a line break quotes a cell, a quote
    # inside other text does not; one that begins it (after blanks) does.
    rows = [["q1", "d 1", "0.30000000000000004"], ["tab\there", 'a "b"', "line\nbreak"],
            ['"q"', ' "r', "\r"]]
    assert format_range(rows) == (
        'q1\td 1\t0.30000000000000004\n"tab\there"\ta "b"\t"line\nbreak"\n'
        '"""q"""\t" ""r"\t"\r"\n'
    )
    assert format_range(rows, line_end="\r\n").count("\r\n") == 3


cells = st.text(alphabet=st.sampled_from(list('ab "\t\n\r1.,é')), max_size=6)


@given(
    st.integers(1, 4).flatmap(
        lambda width: st.lists(st.lists(cells, min_size=width, max_size=width), min_size=1,
                               max_size=5)
    ),
    st.sampled_from(["\n", "\r\n"]),
)
def test_format_then_parse_round_trips(rows: list[list[str]], line_end: str):
    assert parse_range(format_range(rows, line_end=line_end)) == rows


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2", PastedGrade(2.0, GradeState.NUMBER)),
        (" 3 ", PastedGrade(3.0, GradeState.NUMBER)),
        ("1.0", PastedGrade(1.0, GradeState.NUMBER)),
        ("0", PastedGrade(0.0, GradeState.NUMBER)),
        ("Partial Support", PastedGrade(1.0, GradeState.NUMBER)),
        ("direct support", PastedGrade(3.0, GradeState.NUMBER)),
        ("2=substantial support", PastedGrade(2.0, GradeState.NUMBER)),
        ("", PastedGrade(None, GradeState.UNKNOWN)),
        ("  ", PastedGrade(None, GradeState.UNKNOWN)),
        ("unknown", PastedGrade(None, GradeState.UNKNOWN)),
        ("?", PastedGrade(None, GradeState.UNKNOWN)),
        ("N/A", PastedGrade(None, GradeState.UNRATEABLE)),
        ("#N/A", PastedGrade(None, GradeState.UNRATEABLE)),
        ("Unrateable", PastedGrade(None, GradeState.UNRATEABLE)),
        ("unrateable: in Finnish", PastedGrade(None, GradeState.UNRATEABLE, "in Finnish")),
    ],
)
def test_parse_grade_with_rubric(text: str, expected: PastedGrade):
    assert parse_grade(text, RUBRIC) == expected


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("0.87", "0.87 is not a grade of the rubric (0, 1, 2, 3)"),
        ("4", "4 is not a grade of the rubric (0, 1, 2, 3)"),
        ("-1", "-1 is not a grade of the rubric (0, 1, 2, 3)"),
        ("relevant", "not a grade; use a number, a rubric label (0=no support,1=partial "
                     "support,2=substantial support,3=direct support), blank/unknown or N/A"),
        ("2=partial support", "the number and the rubric label disagree"),
        ("nan", "not a finite number"),
        ("inf", "not a finite number"),
    ],
)
def test_bad_cells_become_errors_with_positions(text: str, problem: str):
    got = parse_grade(text, RUBRIC, row=4, column=1)
    assert got == CellError(4, 1, text, problem)
    assert str(got).startswith(f"row 5, column 2: {text!r}: ")


def test_without_a_rubric_any_finite_number_and_decimal_comma():
    assert parse_grade("2,5") == PastedGrade(2.5, GradeState.NUMBER)
    assert parse_grade("0.87") == PastedGrade(0.87, GradeState.NUMBER)
    assert parse_grade("1e1") == PastedGrade(10.0, GradeState.NUMBER)
    assert parse_grade("-2") == PastedGrade(-2.0, GradeState.NUMBER)
    bad = parse_grade("partial")
    assert isinstance(bad, CellError)
    assert bad.problem == "not a grade; use a number, blank/unknown or N/A"
    assert isinstance(parse_grade("1,000,5"), CellError)  # thousands separators are not guessed


def test_parse_grades_reports_every_bad_cell_and_keeps_the_good_ones():
    rows = parse_range("3\tpartial support\r\nbogus\t\r\nN/A\t9\r\n")
    grid, errors = parse_grades(rows, RUBRIC)
    assert grid == [
        [PastedGrade(3.0, GradeState.NUMBER), PastedGrade(1.0, GradeState.NUMBER)],
        [None, PastedGrade(None, GradeState.UNKNOWN)],
        [PastedGrade(None, GradeState.UNRATEABLE), None],
    ]
    assert [(e.row, e.column, e.text) for e in errors] == [(1, 0, "bogus"), (2, 1, "9")]


@given(st.sampled_from(RUBRIC.grades))
def test_every_rubric_value_and_label_reads_back(grade):
    assert parse_grade(repr(grade.value), RUBRIC) == PastedGrade(grade.value, GradeState.NUMBER)
    assert parse_grade(grade.label.upper(), RUBRIC) == PastedGrade(grade.value, GradeState.NUMBER)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("tbd", PastedGrade(None, GradeState.UNKNOWN)),
        ("TODO", PastedGrade(None, GradeState.UNKNOWN)),
        ("-", PastedGrade(None, GradeState.UNRATEABLE)),
        ("Skip", PastedGrade(None, GradeState.UNRATEABLE)),
        ("skipped: duplicate page", PastedGrade(None, GradeState.UNRATEABLE, "duplicate page")),
        ("can't judge", PastedGrade(None, GradeState.UNRATEABLE)),
        ("-1", PastedGrade(-1.0, GradeState.NUMBER)),
    ],
)
def test_the_annotator_import_words_paste_too(text: str, expected: PastedGrade):
    assert parse_grade(text) == expected


def test_every_default_annotator_mark_reads_as_the_same_state():
    from core.io.annotator import UNKNOWN_MARKS, UNRATEABLE_MARKS

    for mark in UNKNOWN_MARKS:
        assert parse_grade(mark.upper(), RUBRIC) == PastedGrade(None, GradeState.UNKNOWN), mark
    for mark in UNRATEABLE_MARKS:
        got = parse_grade(f" {mark.upper()} ", RUBRIC)
        assert got == PastedGrade(None, GradeState.UNRATEABLE), mark
