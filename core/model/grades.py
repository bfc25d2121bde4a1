"""Rectangular ranges as spreadsheets put them on the clipboard, and pasted grades.

Excel and LibreOffice copy a range as tab-separated text: one line per row,
cells separated by tabs, a cell that holds a tab, a line break or a quote
wrapped in double quotes (inner quotes doubled), lines ended by ``\\r\\n``
(Excel) or ``\\n`` (LibreOffice on Linux), usually with a line break after the
last row. :func:`parse_range` reads that back into a rectangle of strings;
:func:`format_range` writes one.

:func:`read_grade` reads text as a grade through the rubric: numbers, rubric
labels, blank / ``unknown`` and ``N/A`` / ``unrateable`` (the grammar the
grid's editor, pasting and a workbook's grade cells share). :func:`parse_grade`
makes a bad pasted cell a :class:`CellError` value (with row and column)
instead of an exception, so a paste can report every bad cell at once.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from core.model.conventions import Rubric
from core.model.document import GradeState
from core.model.numbers import number_text

__all__ = [
    "UNKNOWN_WORDS",
    "UNRATEABLE_WORDS",
    "CellError",
    "PastedGrade",
    "format_range",
    "parse_grade",
    "parse_grades",
    "parse_range",
    "read_grade",
]

UNKNOWN_WORDS = frozenset({"unknown", "?", "not judged", "unjudged"})
UNRATEABLE_WORDS = frozenset(
    {"unrateable", "unratable", "n/a", "na", "#n/a", "not rateable", "not ratable", "cannot judge"}
)
_DECIMAL_COMMA = re.compile(r"^[+-]?\d+,\d+$")


def parse_range(text: str) -> list[list[str]]:
    """Split clipboard text into a rectangle of cells.

    Rows may end with ``\\r\\n``, ``\\n`` or ``\\r``; one final line break is
    not a row. Quoted cells may hold tabs, line breaks and doubled quotes. A
    quote that does not open a well-formed quoted cell is kept as text. Short
    rows are padded with empty cells so the result is rectangular.

    Examples
    --------
    >>> parse_range('1\\t"two\\tlines\\nhere"\\r\\n3\\r\\n')
    [['1', 'two\\tlines\\nhere'], ['3', '']]
    >>> parse_range("")
    []
    >>> parse_range("\\n")
    [['']]
    """
    if text == "":
        return []
    rows: list[list[str]] = []
    row: list[str] = []
    i, n = 0, len(text)
    while True:
        cell, i = _cell(text, i, n)
        row.append(cell)
        if i >= n:
            rows.append(row)
            break
        ch = text[i]
        if ch == "\t":
            i += 1
            continue
        # a line break: \r\n, \n or \r
        i += 2 if text.startswith("\r\n", i) else 1
        rows.append(row)
        row = []
        if i >= n:
            break
    width = max(len(r) for r in rows)
    return [r + [""] * (width - len(r)) for r in rows]


def _cell(text: str, i: int, n: int) -> tuple[str, int]:
    """One cell starting at ``i``; returns it and the index of its end."""
    if i < n and text[i] == '"':
        parts: list[str] = []
        j = i + 1
        while j < n:
            k = text.find('"', j)
            if k < 0:
                break
            parts.append(text[j:k])
            if k + 1 < n and text[k + 1] == '"':
                parts.append('"')
                j = k + 2
                continue
            end = k + 1
            if end >= n or text[end] in "\t\r\n":
                return "".join(parts), end
            break
        # not a well-formed quoted cell: fall through and take it literally
    j = i
    while j < n and text[j] not in "\t\r\n":
        j += 1
    return text[i:j], j


def format_range(rows: Sequence[Sequence[str]], *, line_end: str = "\n") -> str:
    """Join a rectangle of cells as clipboard text (the inverse of :func:`parse_range`).

    Cells holding a tab, a line break or a quote are quoted; every row,
    including the last, ends with ``line_end``.

    Examples
    --------
    >>> format_range([["a", "b\\tc"], ["d", ""]])
    'a\\t"b\\tc"\\nd\\t\\n'
    """
    out: list[str] = []
    for row in rows:
        out.append("\t".join(_quote(str(c)) for c in row) + line_end)
    return "".join(out)


def _quote(cell: str) -> str:
    if any(c in cell for c in '\t\r\n"'):
        return '"' + cell.replace('"', '""') + '"'
    return cell


@dataclass(frozen=True)
class PastedGrade:
    """A grade read from pasted text: the value (None unless a number), its state, a reason."""

    grade: float | None
    state: GradeState
    reason: str = ""


@dataclass(frozen=True)
class CellError:
    """A pasted cell that is not a grade.

    Attributes
    ----------
    row, column : int
        0-based position inside the pasted range.
    text : str
        What the cell held.
    problem : str
        Why it is not a grade, in one sentence.
    """

    row: int
    column: int
    text: str
    problem: str

    def __str__(self) -> str:
        return f"row {self.row + 1}, column {self.column + 1}: {self.text!r}: {self.problem}"


def read_grade(text: str, rubric: Rubric | None = None, *,
               outside_rubric: bool = False) -> PastedGrade:
    """Read text as a grade: the one grammar of the grid's editor, pasted
    cells and a workbook's grade cells.

    Accepted: a finite number (``2``, ``2.5``, ``2,5``); a rubric label
    (case-insensitive); ``N=label`` as the rubric prints it; blank,
    ``unknown`` or ``?`` (state unknown); ``N/A``, ``unrateable`` or
    ``unrateable: reason`` (state unrateable, with the reason). With a rubric,
    a number outside it is refused unless ``outside_rubric``.

    Raises
    ------
    ValueError
        Why the text is not a grade, in one sentence.

    Examples
    --------
    >>> r = Rubric.parse("0=no,1=partial,2=direct")
    >>> read_grade("unrateable: page gone", r)
    PastedGrade(grade=None, state=<GradeState.UNRATEABLE: 2>, reason='page gone')
    >>> read_grade("7", r, outside_rubric=True).grade
    7.0
    """
    cell = text.strip()
    folded = cell.casefold()
    if not cell or folded in UNKNOWN_WORDS:
        return PastedGrade(None, GradeState.UNKNOWN)
    head, colon, tail = cell.partition(":")
    if folded in UNRATEABLE_WORDS or (colon and head.strip().casefold() in UNRATEABLE_WORDS):
        return PastedGrade(None, GradeState.UNRATEABLE, tail.strip())
    value = _number(cell)
    if value is None and rubric is not None:
        value = rubric.value_for_label(cell)
        if value is None:
            number, eq, label = cell.partition("=")
            value = _number(number) if eq else None
            if value is not None and (rubric.label_for(value) or "").casefold() != (
                label.strip().casefold()
            ):
                raise ValueError("the number and the rubric label disagree")
    if value is None:
        raise ValueError("not a grade; " + (
            f"use a number or a rubric label ({rubric.text})" if rubric is not None
            else "use a number, blank/unknown or N/A"))
    if not math.isfinite(value):
        raise ValueError("not a finite number")
    if rubric is not None and not outside_rubric and rubric.label_for(value) is None:
        allowed = ", ".join(number_text(v) for v in rubric.values)
        raise ValueError(f"{number_text(value)} is not a grade of the rubric ({allowed})")
    return PastedGrade(value, GradeState.NUMBER)


def parse_grade(
    text: str, rubric: Rubric | None = None, *, row: int = 0, column: int = 0
) -> PastedGrade | CellError:
    """Read one pasted cell as a grade (:func:`read_grade`); a cell that is
    not one becomes a :class:`CellError` at ``row``, ``column``.

    With a rubric, a number outside it is an error (a pasted column of
    scores, not grades, is the usual cause).

    Examples
    --------
    >>> r = Rubric.parse("0=no,1=partial,2=direct")
    >>> parse_grade("partial", r)
    PastedGrade(grade=1.0, state=<GradeState.NUMBER: 0>, reason='')
    >>> parse_grade("N/A", r).state.label
    'unrateable'
    >>> print(parse_grade("0.87", r, row=2, column=0))
    row 3, column 1: '0.87': 0.87 is not a grade of the rubric (0, 1, 2)
    """
    try:
        return read_grade(text, rubric)
    except ValueError as exc:
        return CellError(row, column, text, str(exc))


def _number(text: str) -> float | None:
    text = text.strip()
    if _DECIMAL_COMMA.match(text):
        text = text.replace(",", ".")
    try:
        return float(text)
    except ValueError:
        return None


def parse_grades(
    rows: Sequence[Sequence[str]], rubric: Rubric | None = None
) -> tuple[list[list[PastedGrade | None]], list[CellError]]:
    """Read a rectangle of pasted cells as grades.

    Returns the grid (None where a cell was bad) and the errors, one per
    bad cell, in reading order.
    """
    grid: list[list[PastedGrade | None]] = []
    errors: list[CellError] = []
    for r, row in enumerate(rows):
        out: list[PastedGrade | None] = []
        for c, text in enumerate(row):
            got = parse_grade(text, rubric, row=r, column=c)
            if isinstance(got, CellError):
                errors.append(got)
                out.append(None)
            else:
                out.append(got)
        grid.append(out)
    return grid, errors
