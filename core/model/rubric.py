"""The rubric: the permitted grades and their words, and which grades it
does not permit (flagged, never dropped)."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from core.errors import ConventionError
from core.model.numbers import number_text, read_number

__all__ = ["Rubric", "RubricGrade", "outside_rubric"]

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class RubricGrade:
    """One permitted grade and the words that define it."""

    value: float
    label: str = ""


def _placeholder(value: str, label: str, before: list[RubricGrade]) -> str:
    """Where an entry's number is the import hint's placeholder ``N``
    (``N=cant_tell``, copied as given), what to type: the next whole grade
    after those before it."""
    if value.strip() != "N" or not label.strip():
        return ""
    grade = int(max((g.value for g in before), default=-1)) + 1
    return f": N stands for the grade to give {label.strip()!r} (e.g. {grade}={label.strip()})"


@dataclass(frozen=True)
class Rubric:
    """The permitted grades; grades outside it are flagged, not dropped.

    Examples
    --------
    >>> r = Rubric.parse("0=no support,1=partial,2=direct")
    >>> r.values, r.label_for(1.0)
    ((0.0, 1.0, 2.0), 'partial')
    """

    grades: tuple[RubricGrade, ...]

    def __post_init__(self) -> None:
        if not self.grades:
            raise ConventionError("a rubric needs at least one grade")
        values = [g.value for g in self.grades]
        if len(set(values)) != len(values):
            raise ConventionError("a rubric names a grade twice")
        if not all(math.isfinite(v) for v in values):
            raise ConventionError("rubric grades must be finite numbers")
        object.__setattr__(self, "grades", tuple(sorted(self.grades, key=lambda g: g.value)))

    @classmethod
    def parse(cls, text: str) -> Rubric:
        """Read ``0=no support,1=partial,2=direct`` or ``0,1,2,3``."""
        grades = []
        for part in text.split(","):
            value, _, label = part.partition("=")
            try:
                grades.append(RubricGrade(read_number(value), label.strip()))
            except ValueError as exc:
                raise ConventionError(
                    f"rubric entry {part!r} does not start with a number"
                    + _placeholder(value, label, grades)
                ) from exc
        return cls(tuple(grades))

    @classmethod
    def from_values(cls, values: Iterable[float]) -> Rubric:
        return cls(tuple(RubricGrade(float(v)) for v in sorted(set(values))))

    @property
    def values(self) -> tuple[float, ...]:
        return tuple(g.value for g in self.grades)

    @property
    def text(self) -> str:
        return ",".join(
            number_text(g.value) + (f"={g.label}" if g.label else "") for g in self.grades
        )

    def label_for(self, value: float) -> str | None:
        for grade in self.grades:
            if grade.value == value:
                return grade.label
        return None

    def value_for_label(self, label: str) -> float | None:
        wanted = label.strip().casefold()
        for grade in self.grades:
            if grade.label and grade.label.casefold() == wanted:
                return grade.value
        return None

    def contains(self, grades: FloatArray) -> npt.NDArray[np.bool_]:
        return np.isin(np.asarray(grades, dtype=np.float64), np.array(self.values))


def outside_rubric(rubric: Rubric | None, grade: FloatArray, ratings: FloatArray | None,
                   numeric: BoolArray) -> BoolArray:
    """Which of the numeric grades ``grade`` (``numeric``: which are numbers)
    ``rubric`` does not permit (none without a rubric); ``ratings``: the
    annotators' grades, a row per candidate and NaN where one gave none.

    A candidate with annotators' ratings is judged by its ratings: it is
    flagged when one of them is outside the rubric, or when its grade is
    neither in the rubric nor between the lowest and highest rating (a mean
    or median of permitted grades, such as 5/3, is not flagged; a grade typed
    over the consensus is judged as any other).
    """
    if rubric is None:
        return np.zeros(len(grade), dtype=bool)
    outside: BoolArray = numeric & ~rubric.contains(grade)
    if ratings is None or not ratings.size:
        return outside
    rated = ~np.isnan(ratings)
    rows = np.flatnonzero(rated.any(axis=1))
    if rows.size == 0:
        return outside
    r = ratings[rows]
    bad_rating = (rated[rows] & ~rubric.contains(np.nan_to_num(r))).any(axis=1)
    mine = grade[rows]
    inside_range = (mine >= np.nanmin(r, axis=1)) & (mine <= np.nanmax(r, axis=1))
    outside[rows] = numeric[rows] & (bad_rating | (outside[rows] & ~inside_range))
    return outside
