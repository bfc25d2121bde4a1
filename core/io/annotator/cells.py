"""Reading cells: a grade cell's value as a grade (:class:`GradeReader`),
numbers, and coding a column's values so each distinct one is read once."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from functools import reduce
from itertools import pairwise
from typing import Any

import numpy as np
import numpy.typing as npt

from core.io.annotator.model import ColumnMapping, cell_text
from core.io.annotator.report import (
    CELL_REJECTED,
    FRACTIONAL,
    LABEL,
    MARK,
    MARK_READ,
    OUTSIDE_SCALE,
)
from core.io.annotator.scales import (
    LEVEL_NAMES,
    label_key,
    number_range,
    numbered_label,
)
from core.model.conventions import Rubric
from core.model.document import GradeState
from core.model.grades import marked_reason
from core.model.numbers import NumberError, number_text, read_number

__all__ = [
    "FEW_VALUES",
    "MAX_LEVELS",
    "Cell",
    "Grade",
    "GradeReader",
    "Reject",
    "blank_cell",
    "codes",
    "few_levels",
    "filled",
    "float_cells",
    "grade_like",
    "number",
    "number_rubric",
    "objects",
    "text_labels",
]


def blank_cell(cell: object) -> bool:
    """Whether a grade cell is left blank (nothing, or spaces): no judgment."""
    return cell is None or (type(cell) is str and not cell.strip())


def filled(raw: Sequence[Any], *cols: int | None) -> bool:
    """Whether the key cells hold something (then the row is not blank)."""
    for c in cols:
        if c is None or c >= len(raw):
            return False
        v = raw[c]
        if v is None or (isinstance(v, str) and not v.strip()):
            return False
    return True


class Reject(Exception):
    """A cell that is not what its column needs (the message says why)."""


def number(value: Any) -> float:
    """A cell as a finite number by the one number grammar
    (:func:`core.model.numbers.read_number`, a decimal comma read as a point);
    :class:`Reject` otherwise."""
    if isinstance(value, bool):
        raise Reject(f"{value!r} is a true/false value, not a number")
    if isinstance(value, (int, float)):
        x = float(value)
    else:
        text = str(value).strip()
        try:
            x = read_number(text, decimal_comma=True)
        except NumberError as exc:
            raise Reject(f"{text!r} is {exc.reason}") from None
    if not math.isfinite(x):
        raise Reject(f"{cell_text(value)!r} is not a finite number (NaN or infinite)")
    return x


@dataclass
class Grade:
    """A grade as read: its value (NaN unless a number), state and reason."""

    value: float = math.nan
    state: GradeState = GradeState.UNKNOWN
    reason: str = ""


#: Grade columns with at most this many distinct values are read value by value.
FEW_VALUES = 2000
_PLAIN_NUMBER = re.compile(r"^[\s+\-\d.,eE]+$")


@dataclass(frozen=True)
class Cell:
    """How one grade cell's value reads: its grade (None: not imported) and
    the report's findings about it as (kind, problem, value shown)."""

    grade: Grade | None
    issues: tuple[tuple[str, str, str], ...] = ()
    unmapped: str | None = None

    @property
    def value(self) -> float:
        return math.nan if self.grade is None else float(self.grade.value)

    @property
    def state(self) -> int:
        return int(GradeState.UNKNOWN if self.grade is None else self.grade.state)

    @property
    def wordy(self) -> bool:
        """Whether the report or the reasons need this cell's row."""
        return bool(self.issues) or self.unmapped is not None or (
            self.grade is not None and self.grade.state is GradeState.UNRATEABLE)


def objects(values: list[str]) -> npt.NDArray[np.object_]:
    """Texts as an array of objects (numpy would make them fixed-width strings)."""
    out = np.empty(len(values), dtype=object)
    out[:] = values
    return out


def float_cells(values: Sequence[Any]) -> npt.NDArray[np.float64]:
    """The float cells as numbers; NaN for every other cell."""
    if set(map(type, values)) <= {float}:
        return np.array(values, dtype=np.float64)
    nan = math.nan
    return np.array([v if type(v) is float else nan for v in values], dtype=np.float64)


def codes(values: Sequence[Any], *, signed_zero: bool = True,
          ) -> tuple[npt.NDArray[np.int64], list[Any]]:
    """A code per value, equal for equal values of one type, and each code's first value.

    ``signed_zero``: keep 0.0 and -0.0 apart (they compare equal).
    """
    if set(map(type, values)) <= {str, float}:  # no 1 == 1.0 == True to tell apart
        distinct = list(dict.fromkeys(values))
        if not signed_zero or not any(type(v) is float and v == 0 for v in distinct):
            code_of = dict(zip(distinct, range(len(distinct)), strict=True))
            return np.fromiter(map(code_of.__getitem__, values), np.int64,
                               len(values)), distinct
    seen: dict[Any, int] = {}
    try:
        codes = [seen.setdefault(v if type(v) is str else (type(v), v, repr(v)), len(seen))
                 for v in values]
    except TypeError:  # an unhashable cell (only from a hand-built Table)
        return np.arange(len(values), dtype=np.int64), list(values)
    firsts: list[Any] = [None] * len(seen)
    for v, c in zip(values, codes, strict=True):
        if firsts[c] is None:
            firsts[c] = v
    return np.array(codes, dtype=np.int64), firsts



#: Words that read as a number Python accepts but no grade can be.
_NOT_FINITE = ("nan", "inf", "-inf", "+inf", "infinity")


class GradeReader:
    """How grade cells read under a mapping's marks and a rubric.

    Called with a cell's value, it gives a :class:`Cell`: the grade and what
    the report says about it. Whole numbers of the scale (``plain_keys``)
    need no checks: the import reads them in bulk, without calling it.
    """

    def __init__(self, mapping: ColumnMapping, rubric: Rubric | None,
                 labels: dict[str, float] | None = None) -> None:
        self.rubric = rubric
        self.unknown_marks = {m.strip().casefold() for m in mapping.unknown_marks}
        self.unrateable_marks = {m.strip().casefold() for m in mapping.unrateable_marks}
        #: The rubric's labels (:func:`~core.io.annotator.scales.label_key`)
        #: -> grade, the user's declaration: read before the unrateable
        #: marks (``3=cant_tell`` is grade 3, as in read_grade).
        self.declared = {label_key(g.label): g.value for g in (rubric.grades if rubric else ())
                         if g.label}
        #: Label -> grade: the rubric's labels, then the labels guessed from the sheet.
        self.labels = dict(self.declared)
        for key, grade in (labels or {}).items():
            self.labels.setdefault(key, grade)
        self.scale = set(rubric.values) if rubric is not None else None
        self.plain_keys = np.array(sorted(float(v) for v in (
            self.scale if self.scale is not None else map(float, range(-10, 101)))
            if float(v).is_integer()), dtype=np.float64)
        self.plain_set = set(self.plain_keys.tolist())
        #: 0.0 is a plain grade: -0.0 then reads as 0.0, not apart from it.
        self.zero_plain = 0.0 in self.plain_set

    def __call__(self, value: Any) -> Cell:
        """How one grade cell's value reads, and what the report says about it."""
        found: list[tuple[str, str, str]] = []
        if type(value) is float and value in self.plain_set:
            return Cell(Grade(value + 0.0, GradeState.NUMBER))  # -0.0 reads as 0.0
        if type(value) is float and math.isfinite(value):
            g = Grade(value, GradeState.NUMBER)
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            x = float(value)
            if not math.isfinite(x):
                return Cell(None, ((CELL_REJECTED, f"grade {cell_text(value)!r} is not a finite "
                                    "number; not imported", cell_text(value)),))
            g = Grade(x, GradeState.NUMBER)
        else:
            read = self._text(cell_text(value).strip())
            if isinstance(read, Cell):
                return read
            g, found = read
        if g.state is GradeState.NUMBER:
            if self.scale is not None and g.value not in self.scale:
                found.append((OUTSIDE_SCALE, f"grade {cell_text(g.value)} is outside the rubric "
                              f"({self.rubric.text if self.rubric else ''}); imported, flagged",
                              cell_text(value)))
            if not float(g.value).is_integer():
                found.append((FRACTIONAL, f"grade {cell_text(g.value)} is fractional; "
                              "imported as is", cell_text(value)))
        return Cell(g, tuple(found))

    def _text(self, text: str) -> Cell | tuple[Grade, list[tuple[str, str, str]]]:
        """A text cell: a mark, a number or a rubric label (with the finding
        it makes), or a refused :class:`Cell`."""
        rubric = self.rubric
        key = text.casefold()
        if key in self.unknown_marks:
            g = Grade()
        elif label_key(text) in self.declared:
            g = Grade(self.declared[label_key(text)], GradeState.NUMBER)
        elif key in self.unrateable_marks:
            g = Grade(math.nan, GradeState.UNRATEABLE, text)
        else:
            try:
                g = Grade(number(text), GradeState.NUMBER)
            except Reject as exc:
                lab = self.labels.get(label_key(text))
                numbered = numbered_label(text) if lab is None else None
                if lab is not None:
                    g = Grade(lab, GradeState.NUMBER)
                elif numbered is not None:
                    g = Grade(numbered[0], GradeState.NUMBER)
                elif (given := marked_reason(text, self.unrateable_marks)):
                    # ``unrateable: paywall`` (no label of the sheet's), as the
                    # grid, a workbook and a worksheet CSV read it and write.py
                    # writes a mark no default reads: the reason is the mark
                    g = Grade(math.nan, GradeState.UNRATEABLE, given)
                elif key in _NOT_FINITE:
                    return Cell(None, ((CELL_REJECTED, f"{exc}; not imported", text),))
                else:
                    return Cell(None, ((
                        CELL_REJECTED, f"label {text!r} is not in the rubric"
                        + (f" ({rubric.text})" if rubric is not None
                           else " (none declared) nor on a known scale") + "; not imported",
                        text),), unmapped=text)
        if g.state is not GradeState.NUMBER and text:
            return g, [(MARK, f"{text!r} {MARK_READ[g.state.label]}", text)]
        if g.state is GradeState.NUMBER and text and not _PLAIN_NUMBER.match(text):
            return g, [(LABEL, f"label {text!r} read as grade {cell_text(g.value)}", text)]
        return g, []


def _number_text(text: str) -> bool:
    try:
        number(text)
    except Reject:
        return text.casefold() in _NOT_FINITE
    return True


def text_labels(columns: Iterable[Sequence[Any]], mapping: ColumnMapping) -> dict[str, int]:
    """The labels of grade cells (text -> cells holding it, stripped): the
    texts that are neither a number nor one of the mapping's marks, and a
    workbook's true/false values (a checkbox's: ``True``, ``False``)."""
    marks = {m.strip().casefold() for m in (*mapping.unknown_marks, *mapping.unrateable_marks)}
    counts: Counter[str] = Counter()
    for cells in columns:
        counts.update(v if type(v) is str else str(v) for v in cells if type(v) in (str, bool))
    out: dict[str, int] = {}
    for value, n in counts.items():
        text = value.strip()
        if text and text.casefold() not in marks and not _number_text(text):
            out[text] = out.get(text, 0) + n
    return out


#: The most levels a scale of grades has (a 0-10 scale has 11).
MAX_LEVELS = 12


def grade_like(values: Sequence[Any], marks: set[str], words: AbstractSet[str] = frozenset(),
               ) -> bool:
    """Whether a column's filled cells read as grades: nearly all a grade
    mark, a small whole or half number, a numbered label, a known scale's
    label or one of ``words`` (the labels a legend on the sheet lists,
    compared by :func:`label_key`), with at most :data:`MAX_LEVELS`
    distinct values."""
    if not values:
        return False
    good = 0
    distinct: set[Any] = set()
    for v in values:
        text = cell_text(v).strip()
        if text.casefold() in marks:
            good += 1
            continue
        try:
            x = number(v)
        except Reject:
            key = label_key(text)
            if key in LEVEL_NAMES or key in words or numbered_label(text) is not None:
                good += 1
                distinct.add(key)
            continue
        if -10 <= x <= 100 and (2 * x).is_integer():
            good += 1
            distinct.add(x)
    if good >= 0.8 * len(values) and 0 < len(distinct) <= MAX_LEVELS:
        return True
    if not words:
        return False
    # a column of a few labels, two of them at least the legend's: graded,
    # its labels the legend lacks refused by name (never the column dropped)
    keys = {label_key(cell_text(v).strip()) for v in values} - marks
    return len(keys & words) >= 2 and len(keys) <= MAX_LEVELS


def few_levels(numbers: Iterable[float]) -> bool:
    """Whether whole or half numbers sit on a scale of few levels: at most
    :data:`MAX_LEVELS` from the least to the greatest in the step they all
    share (0-3, 1-5, 0-10, 0, 25, ... 100), as one question's grades do;
    seconds (1, 14, 37) spread over many levels of which they fill few."""
    halves = sorted({round(2 * x) for x in numbers})
    if len(halves) < 2:
        return True
    step = reduce(math.gcd, (b - a for a, b in pairwise(halves)))
    return (halves[-1] - halves[0]) // step + 1 <= MAX_LEVELS


def number_rubric(columns: Iterable[Sequence[Any]], header: Sequence[str],
                  mapping: ColumnMapping) -> tuple[Rubric | None, str]:
    """The rubric grade columns of whole numbers give: their range, widened
    to a range their headers write (``Rating (1-5)``), and how it was read;
    (None, "") when they hold anything but whole numbers and marks. Each
    distinct value is read once."""
    marks = {m.strip().casefold() for m in (*mapping.unknown_marks, *mapping.unrateable_marks)}
    values: list[float] = []
    for cells in columns:
        for v in codes(list(cells))[1]:
            if cell_text(v).strip().casefold() in marks:
                continue
            try:
                values.append(number(v))
            except Reject:
                return None, ""
    names = " ".join(header[c] for c, _ in mapping.sources() if c < len(header))
    rubric = number_range(values, names)
    if rubric is None:
        return None, ""
    lo, hi = (number_text(x) for x in (rubric.values[0], rubric.values[-1]))
    return rubric, f"the grade columns' numbers, {lo} to {hi}"
