"""Reading cells: a grade cell's value as a grade (:class:`GradeReader`),
numbers, and coding a column's values so each distinct one is read once."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from core.io.annotator.model import ColumnMapping, cell_text
from core.io.annotator.report import (
    CELL_REJECTED,
    FRACTIONAL,
    LABEL,
    MARK,
    OUTSIDE_SCALE,
)
from core.model.conventions import Rubric
from core.model.document import GradeState

__all__ = [
    "FEW_VALUES",
    "Cell",
    "Grade",
    "GradeReader",
    "Reject",
    "codes",
    "filled",
    "float_cells",
    "number",
    "objects",
]


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
    """A cell as a finite number (a decimal comma read as a point); :class:`Reject` otherwise."""
    if isinstance(value, bool):
        raise Reject(f"{value!r} is a true/false value, not a number")
    if isinstance(value, (int, float)):
        x = float(value)
    else:
        text = str(value).strip()
        try:
            x = float(text.replace(",", ".")) if text.count(",") == 1 and "." not in text \
                else float(text)
        except ValueError:
            raise Reject(f"{text!r} is not a number") from None
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

    def __init__(self, mapping: ColumnMapping, rubric: Rubric | None) -> None:
        self.rubric = rubric
        self.unknown_marks = {m.strip().casefold() for m in mapping.unknown_marks}
        self.unrateable_marks = {m.strip().casefold() for m in mapping.unrateable_marks}
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
        elif key in self.unrateable_marks:
            g = Grade(math.nan, GradeState.UNRATEABLE, text)
        else:
            try:
                g = Grade(number(text), GradeState.NUMBER)
            except Reject as exc:
                lab = rubric.value_for_label(text) if rubric is not None else None
                if lab is not None:
                    g = Grade(lab, GradeState.NUMBER)
                elif key in _NOT_FINITE:
                    return Cell(None, ((CELL_REJECTED, f"{exc}; not imported", text),))
                else:
                    return Cell(None, ((
                        CELL_REJECTED, f"label {text!r} is not in the rubric"
                        + (f" ({rubric.text})" if rubric is not None
                           else " (no rubric declared)") + "; not imported", text),),
                        unmapped=text)
        if g.state is GradeState.UNRATEABLE:
            return g, [(MARK, f"{text!r} read as unrateable (reason kept)", text)]
        if g.state is GradeState.UNKNOWN and text:
            return g, [(MARK, f"{text!r} read as unknown", text)]
        if g.state is GradeState.NUMBER and text and not _PLAIN_NUMBER.match(text):
            return g, [(LABEL, f"label {text!r} read as grade {cell_text(g.value)}", text)]
        return g, []
