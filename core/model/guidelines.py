"""The grading guidelines: what each grade means, in words, with examples.

A convention like the others (:data:`core.model.conventions.FIELDS`), held
apart from the rubric on purpose: a grade's meaning does not depend on whether
the set of grades is declared or derived from the grades seen (a derived 0-3
scale can carry guidelines too), and declaring or editing the rubric never
clears a description (each edit changes one field). :func:`levels` puts the
two together: every level of the scale with its label, description and
examples, the one list the panel, the workbook and the grading view show.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from core.errors import ConventionError
from core.model.numbers import number_text
from core.model.rubric import Rubric

__all__ = ["Guideline", "Guidelines", "Level", "described", "digit_keys", "levels"]


def _clean_examples(examples: Iterable[str]) -> tuple[str, ...]:
    return tuple(e.strip() for e in examples if e.strip())


@dataclass(frozen=True)
class Guideline:
    """What grade ``value`` means: a description and examples (each one line)."""

    value: float
    description: str = ""
    examples: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not math.isfinite(self.value):
            raise ConventionError("a guideline's grade must be a finite number")
        object.__setattr__(self, "value", float(self.value))
        object.__setattr__(self, "description", self.description.strip())
        object.__setattr__(self, "examples", _clean_examples(self.examples))

    @property
    def empty(self) -> bool:
        return not self.description and not self.examples

    @property
    def text(self) -> str:
        """The description and the examples in one line (the audit log's words)."""
        parts = [self.description] if self.description else []
        if self.examples:
            parts.append("examples: " + "; ".join(self.examples))
        return " | ".join(parts) or "(none)"


@dataclass(frozen=True)
class Guidelines:
    """The guidelines of the grades that have any, in grade order.

    Examples
    --------
    >>> g = Guidelines.from_json([{"grade": 2, "description": "answers it",
    ...                            "examples": ["a recipe for the dish asked"]}])
    >>> g.for_grade(2.0).description, g.for_grade(1.0)
    ('answers it', None)
    >>> g.to_json()
    [{'grade': 2.0, 'description': 'answers it', 'examples': ['a recipe for the dish asked']}]
    """

    entries: tuple[Guideline, ...] = ()

    def __post_init__(self) -> None:
        kept = sorted((g for g in self.entries if not g.empty), key=lambda g: g.value)
        values = [g.value for g in kept]
        if len(set(values)) != len(values):
            raise ConventionError("the guidelines describe a grade twice")
        object.__setattr__(self, "entries", tuple(kept))

    def __bool__(self) -> bool:
        return bool(self.entries)

    def for_grade(self, value: float) -> Guideline | None:
        return next((g for g in self.entries if g.value == value), None)

    def with_guideline(self, guideline: Guideline) -> Guidelines:
        """These guidelines with grade ``guideline.value``'s replaced (an
        empty one removes it)."""
        others = tuple(g for g in self.entries if g.value != guideline.value)
        return Guidelines((*others, guideline))

    def to_json(self) -> list[dict[str, Any]]:
        return [{"grade": g.value, "description": g.description, "examples": list(g.examples)}
                for g in self.entries]

    @classmethod
    def from_json(cls, data: Any) -> Guidelines:
        """Read what :meth:`to_json` wrote; raises :class:`ConventionError`
        naming the entry that is not such a record."""
        if not isinstance(data, list):
            raise ConventionError(f"guidelines {data!r:.40} are not a list")
        out = []
        for i, item in enumerate(data):
            out.append(_entry(item, i))
        return cls(tuple(out))

    @property
    def summary(self) -> str:
        """Which grades are described (``grades 0, 1, 3 described``; "" for none):
        the conventions' rows say this much, the sheet and the panel the rest."""
        if not self.entries:
            return ""
        grades = ", ".join(number_text(g.value) for g in self.entries)
        return f"grade{'s' if len(self.entries) > 1 else ''} {grades} described"

    @property
    def text(self) -> str:
        """One line per grade described (the Report's and ``describe()``'s words)."""
        return "; ".join(f"{number_text(g.value)}: {g.text}" for g in self.entries)


def _entry(item: Any, i: int) -> Guideline:
    keys = {"grade": (int, float), "description": (str,), "examples": (list,)}
    if not isinstance(item, Mapping) or set(item) != set(keys) or any(
            type(item[k]) not in kinds for k, kinds in keys.items()):
        raise ConventionError(f"guideline {i} is not a record of grade (a number), "
                              "description (text) and examples (a list of texts)")
    examples = item["examples"]
    if not all(isinstance(e, str) for e in examples):
        raise ConventionError(f"guideline {i}'s examples are not all texts")
    if isinstance(item["grade"], bool) or not math.isfinite(item["grade"]):
        raise ConventionError(f"guideline {i}'s grade is not a finite number")
    return Guideline(float(item["grade"]), item["description"], tuple(examples))


@dataclass(frozen=True)
class Level:
    """One level of the grading scale as a grader reads it."""

    value: float
    label: str = ""
    description: str = ""
    examples: tuple[str, ...] = ()

    @property
    def title(self) -> str:
        """``2 - substantial support`` (the grade alone when it has no label)."""
        grade = number_text(self.value)
        return f"{grade} - {self.label}" if self.label else grade


def levels(rubric: Rubric, guidelines: Guidelines) -> tuple[Level, ...]:
    """Each grade of ``rubric`` with its label and its guideline, then the
    grades the guidelines describe that the rubric lacks (described, so
    shown; they are outside the rubric)."""
    out = []
    for grade in rubric.grades:
        g = guidelines.for_grade(grade.value) or Guideline(grade.value)
        out.append(Level(grade.value, grade.label, g.description, g.examples))
    out += [Level(g.value, "", g.description, g.examples) for g in guidelines.entries
            if rubric.label_for(g.value) is None]
    return tuple(sorted(out, key=lambda lv: lv.value))


def described(level: Level, description: str | None = None,
              examples: Iterable[str] | None = None) -> Guideline:
    """Level ``level``'s guideline with its description or examples replaced."""
    return Guideline(level.value, level.description if description is None else description,
                     level.examples if examples is None else tuple(examples))


def digit_keys(rubric: Rubric | None, guidelines: Guidelines) -> tuple[tuple[str, str], ...]:
    """(digit, what it sets) for each whole grade 0-9 the declared rubric
    or the guidelines name: ``("2", "2 - substantial support: The source
    supports most of the claim.")`` (the digit keys' tooltips and F1's rows).

    >>> digit_keys(Rubric.parse("0=off,1=on"), Guidelines((Guideline(1, "answers it"),)))
    (('0', '0 - off'), ('1', '1 - on: answers it'))
    """
    if rubric is None:
        if not guidelines:
            return ()
        rubric = Rubric.from_values(g.value for g in guidelines.entries)
    return tuple(
        (number_text(lv.value), lv.title + (f": {lv.description}" if lv.description else ""))
        for lv in levels(rubric, guidelines) if lv.value in range(10))
