"""The conventions that every NDCG number depends on.

Each choice is an explicit value with a human label and its formula text
(:mod:`core.model.choices`, re-exported here), so that the side panel, the
result sentence, the command line and the Excel export all say the same thing
(see ``docs/conventions.md``). The peers' presets are in
:mod:`core.model.presets`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any, Self

import numpy as np
import numpy.typing as npt

from core.errors import ConventionError
from core.model.choices import (
    ConsensusRule,
    DiscountRule,
    IdealInventory,
    Rounding,
    TieRule,
    UnknownRule,
    Weighting,
    ZeroIdealRule,
)
from core.model.gain_rules import GAIN_RULES, GainRule, gain_rule
from core.model.numbers import number_text, read_number
from core.model.rubric import Rubric, RubricGrade

__all__ = [
    "ConsensusRule",
    "Conventions",
    "DiscountRule",
    "Gain",
    "GainRule",
    "IdealInventory",
    "Rounding",
    "Rubric",
    "RubricGrade",
    "TieRule",
    "UnknownRule",
    "Weighting",
    "ZeroIdealRule",
    "format_cutoff",
    "parse_cutoff",
]

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Gain:
    """How a raw grade becomes a gain.

    Parameters
    ----------
    rule : GainRule
        One of :data:`core.model.gain_rules.GAIN_RULES` (or its name):
        ``linear``, ``exponential``, ``table`` ...
    table : tuple of (grade, gain)
        The table of a rule that takes one (``table``); grades not in it
        keep gain = grade.
    negative_as_zero : bool
        Count negative gains as 0 (trec_eval only adds gains above 0).
    truncate : bool
        Truncate fractional grades toward zero first (trec_eval reads grades
        as whole numbers).

    Examples
    --------
    >>> Gain.parse("1=3,2=9").apply(np.array([0.0, 1.0, 2.0, 4.0])).tolist()
    [0.0, 3.0, 9.0, 4.0]
    """

    rule: GainRule = GainRule.LINEAR
    table: tuple[tuple[float, float], ...] = ()
    negative_as_zero: bool = False
    truncate: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "rule", gain_rule(self.rule))
        if self.rule.takes_table and not self.table:
            raise ConventionError("a gain table needs at least one grade=gain pair")
        if not self.rule.takes_table and self.table:
            raise ConventionError(f"{self.rule} gain takes no table")
        for grade, gain in self.table:
            if not (math.isfinite(grade) and math.isfinite(gain)):
                raise ConventionError("gain table entries must be finite numbers")

    @classmethod
    def parse(cls, text: str) -> Gain:
        """Read a rule's name (``linear``, ``exponential`` ...) or a table ``G=V,G=V``."""
        text = text.strip()
        rule = GAIN_RULES.get(text)
        if rule is not None and not rule.takes_table:
            return cls(rule)
        pairs: list[tuple[float, float]] = []
        for part in text.split(","):
            grade, sep, gain = part.partition("=")
            try:
                if not sep:
                    raise ValueError(part)
                pairs.append((read_number(grade), read_number(gain)))
            except ValueError as exc:
                raise ConventionError(
                    f"gain {text!r} is not "
                    + ", ".join(r.value for r in GAIN_RULES.values() if not r.takes_table)
                    + " or a table like 1=3,2=9"
                ) from exc
        grades = [g for g, _ in pairs]
        if len(set(grades)) != len(grades):
            raise ConventionError(f"gain table {text!r} names a grade twice")
        return cls(GainRule.TABLE, tuple(sorted(pairs)))

    @property
    def text(self) -> str:
        """The short form, as ``--gain`` takes it."""
        if self.rule is GainRule.TABLE:
            return ",".join(f"{number_text(g)}={number_text(v)}" for g, v in self.table)
        return self.rule.value

    @property
    def label(self) -> str:
        base = self.rule.label if self.rule is not GainRule.TABLE else f"gain table {self.text}"
        if self.truncate:
            base += ", fractional grades truncated"
        return base + (", negative gains count as 0" if self.negative_as_zero else "")

    @property
    def formula(self) -> str:
        base = self.rule.formula
        if self.rule is GainRule.TABLE:
            base = f"gain = table[grade] ({self.text}); other grades keep gain = grade"
        if self.truncate:
            base = "grade = trunc(grade); " + base
        return base + ("; gain = max(gain, 0)" if self.negative_as_zero else "")

    def accepts_negative(self) -> bool:
        """Whether negative grades have a meaning under this rule."""
        return self.rule.accepts_negative or self.negative_as_zero

    def apply(self, grades: FloatArray) -> FloatArray:
        """Transform grades (NaN stays NaN) into gains."""
        grades = np.asarray(grades, dtype=np.float64)
        if self.truncate:
            grades = np.trunc(grades)
        gains = np.asarray(self.rule.compute(grades, self.table), dtype=np.float64)
        if gains is grades:  # a rule that hands back its grades: negatives are set below
            gains = gains.copy()
        if self.negative_as_zero:
            np.maximum(gains, 0.0, out=gains, where=~np.isnan(gains))
        return gains


def parse_cutoff(text: str | int | None) -> int | None:
    """``"all"`` or None -> None; a positive whole number -> int."""
    if text is None:
        return None
    if isinstance(text, int) and not isinstance(text, bool):
        value = text
    else:
        raw = str(text).strip().lower()
        if raw in ("all", "none", ""):
            return None
        try:
            value = int(raw)
        except ValueError as exc:
            raise ConventionError(
                f"cutoff {text!r} is not a positive whole number or 'all'"
            ) from exc
    if value < 1:
        raise ConventionError(f"cutoff {value} must be at least 1")
    return value


def format_cutoff(k: int | None) -> str:
    return "all" if k is None else str(k)


@dataclass(frozen=True)
class Conventions:
    """Every choice an NDCG number depends on.

    Examples
    --------
    >>> c = Conventions(cutoffs=(10, None))
    >>> c.ties.value, c.ideal.value, c.unknown.value, c.cutoffs
    ('average', 'ranked', 'unresolved', (10, None))

    The peers' conventions are :mod:`core.model.presets`.
    """

    gain: Gain = field(default_factory=Gain)
    discount: DiscountRule = DiscountRule.LOG2
    cutoffs: tuple[int | None, ...] = (None,)
    ideal: IdealInventory = IdealInventory.RANKED
    ties: TieRule = TieRule.AVERAGE
    unknown: UnknownRule = UnknownRule.UNRESOLVED
    zero_ideal: ZeroIdealRule = ZeroIdealRule.UNDEFINED
    weighting: Weighting = Weighting.EQUAL
    rubric: Rubric | None = None
    consensus: ConsensusRule = ConsensusRule.MEAN
    rounding: Rounding = Rounding.NONE
    preset: str | None = None

    def __post_init__(self) -> None:
        if not self.cutoffs:
            raise ConventionError("declare at least one cutoff (a number or 'all')")
        cutoffs = tuple(parse_cutoff(k) for k in self.cutoffs)
        if len(set(cutoffs)) != len(cutoffs):
            raise ConventionError("a cutoff is declared twice")
        object.__setattr__(self, "cutoffs", cutoffs)
        for name, kind in (
            ("discount", DiscountRule),
            ("ideal", IdealInventory),
            ("ties", TieRule),
            ("unknown", UnknownRule),
            ("zero_ideal", ZeroIdealRule),
            ("weighting", Weighting),
            ("consensus", ConsensusRule),
            ("rounding", Rounding),
        ):
            value = getattr(self, name)
            try:
                object.__setattr__(self, name, kind(value))
            except ValueError as exc:
                choices = ", ".join(m.value for m in kind)
                raise ConventionError(f"{name} {value!r} is not one of {choices}") from exc

    def replace(self, **changes: Any) -> Self:
        return replace(self, **changes)

    def rubric_for(self, grades: FloatArray) -> Rubric:
        """The declared rubric, or one derived from the grades seen.

        Whole-number grades give every whole number from min(0, lowest) to the
        highest; otherwise the distinct grades seen and 0.
        """
        if self.rubric is not None:
            return self.rubric
        seen = np.unique(grades[~np.isnan(grades)])
        if seen.size == 0:
            return Rubric.from_values((0.0, 1.0))
        if np.all(seen == np.round(seen)) and seen[-1] - min(seen[0], 0) <= 100:
            low = int(min(seen[0], 0.0))
            return Rubric.from_values(range(low, int(seen[-1]) + 1))
        return Rubric.from_values([0.0, *seen.tolist()])

    def describe(self) -> list[tuple[str, str, str]]:
        """(convention, choice label, formula) rows for people."""
        cut = ", ".join(format_cutoff(k) for k in self.cutoffs)
        rows = [
            ("gain", self.gain.label, self.gain.formula),
            ("discount", self.discount.label, self.discount.formula),
            ("cutoffs", f"k = {cut}", "the same k cuts the actual and the ideal list"),
            ("ideal inventory", self.ideal.label, self.ideal.formula),
            ("ties", self.ties.label, self.ties.formula),
            ("unknown grades", self.unknown.label, self.unknown.formula),
            ("zero ideal", self.zero_ideal.label, self.zero_ideal.formula),
            ("aggregation", self.weighting.label, self.weighting.formula),
        ]
        rows.append((
            "consensus", f"{self.consensus.label}, {self.rounding.label}",
            f"{self.consensus.formula}; {self.rounding.formula}",
        ))
        if self.rubric is not None:
            rows.append(("rubric", self.rubric.text, "grades outside the rubric are flagged"))
        if self.preset:
            rows.append(("preset", self.preset, "the starting point these conventions came from"))
        return rows

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready mapping; :meth:`from_dict` reads it back."""
        return {
            "gain": self.gain.text,
            "negative_gain_as_zero": self.gain.negative_as_zero,
            "truncate_grades": self.gain.truncate,
            "discount": self.discount.value,
            "cutoffs": [format_cutoff(k) for k in self.cutoffs],
            "ideal": self.ideal.value,
            "ties": self.ties.value,
            "unknown": self.unknown.value,
            "zero_ideal": self.zero_ideal.value,
            "weighting": self.weighting.value,
            "rubric": self.rubric.text if self.rubric is not None else None,
            "consensus": self.consensus.value,
            "rounding": self.rounding.value,
            "preset": self.preset,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Conventions:
        try:
            gain = Gain.parse(str(data.get("gain", "linear")))
            if data.get("negative_gain_as_zero"):
                gain = replace(gain, negative_as_zero=True)
            if data.get("truncate_grades"):
                gain = replace(gain, truncate=True)
            rubric = data.get("rubric")
            return cls(
                gain=gain,
                discount=DiscountRule(data.get("discount", "log2")),
                cutoffs=tuple(parse_cutoff(k) for k in data.get("cutoffs", ["all"])),
                ideal=IdealInventory(data.get("ideal", "ranked")),
                ties=TieRule(data.get("ties", "average")),
                unknown=UnknownRule(data.get("unknown", "unresolved")),
                zero_ideal=ZeroIdealRule(data.get("zero_ideal", "undefined")),
                weighting=Weighting(data.get("weighting", "equal")),
                rubric=Rubric.parse(rubric) if rubric else None,
                consensus=ConsensusRule(data.get("consensus", "mean")),
                rounding=Rounding(data.get("rounding", "none")),
                preset=data.get("preset") or None,
            )
        except (ValueError, TypeError) as exc:
            raise ConventionError(f"stored conventions are not readable: {exc}") from exc


FIELD_NAMES: tuple[str, ...] = tuple(f.name for f in fields(Conventions))
