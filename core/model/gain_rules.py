"""The gain rules: how a grade becomes a gain, each declared once.

A :class:`GainRule` holds all a rule is: its name (what files, the command
line and the JSON say), its label and formula text for people, the engine's
arithmetic and the spreadsheet formula of the workbook's gain column. The
engine (:meth:`core.model.conventions.Gain.apply`), the workbook's formulas
(:func:`core.io.workbook.formulas.gain_formula`), its Conventions sheet and
Report, the conventions panel and the command line all read
:data:`GAIN_RULES`; a new rule is one :func:`register_gain_rule` call
(``docs/architecture.md``, "Add a gain rule").
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from core.errors import ConventionError

__all__ = ["GAIN_RULES", "GainRule", "gain_rule", "gain_rules", "register_gain_rule"]

FloatArray = npt.NDArray[np.float64]
#: A gain table: (grade, gain) pairs.
GainTable = tuple[tuple[float, float], ...]


@dataclass(frozen=True, eq=False)
class GainRule:
    """One gain rule.

    Parameters
    ----------
    value : str
        Its name, as files, ``--gain`` and the Conventions sheet's cell say it.
    label, formula : str
        For people: ``exponential gain``, ``gain = 2^grade - 1``.
    compute : callable
        ``compute(grades, table)``: the gains of finite ``grades`` (NaN stays
        NaN); ``table`` is the declared gain table (empty unless the rule
        takes one). Truncation and negative gains as 0 are applied around it.
    excel : str
        The same arithmetic as a spreadsheet formula, ``{g}`` standing for
        the grade's cell; the gain table is the names ``gain_grades`` and
        ``gain_values``. It must work in Excel and LibreOffice alike.
    takes_table : bool
        Whether the rule reads the gain table (then a table is required).
    accepts_negative : bool
        Whether a negative grade has a meaning under the rule.

    Rules compare by identity: each is registered once, under its name.
    """

    value: str
    label: str
    formula: str
    compute: Callable[[FloatArray, GainTable], FloatArray]
    excel: str
    takes_table: bool = False
    accepts_negative: bool = True

    LINEAR: ClassVar[GainRule]
    EXPONENTIAL: ClassVar[GainRule]
    TABLE: ClassVar[GainRule]

    def __str__(self) -> str:
        return self.value

    def __repr__(self) -> str:
        return f"GainRule({self.value!r})"

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return gain_rule, (self.value,)

    def excel_of(self, cell: str) -> str:
        """The rule's spreadsheet formula for the grade in ``cell``."""
        return self.excel.replace("{g}", cell)


#: Every gain rule, by name, in the order people are offered them.
GAIN_RULES: dict[str, GainRule] = {}


def register_gain_rule(rule: GainRule) -> GainRule:
    """Add ``rule`` to :data:`GAIN_RULES` (a name taken twice is an error)."""
    if rule.value in GAIN_RULES:
        raise ConventionError(f"gain rule {rule.value!r} is already declared")
    if "{g}" not in rule.excel:
        raise ConventionError(f"gain rule {rule.value!r}: its spreadsheet formula never "
                              "reads the grade ({g})")
    GAIN_RULES[rule.value] = rule
    return rule


def gain_rules() -> Iterator[GainRule]:
    """The registered rules, in order."""
    return iter(tuple(GAIN_RULES.values()))


def gain_rule(value: str | GainRule) -> GainRule:
    """The rule called ``value`` (a rule is returned as it is).

    Raises
    ------
    ConventionError
        When no rule has that name.
    """
    if isinstance(value, GainRule):
        return value
    try:
        return GAIN_RULES[str(value)]
    except KeyError:
        names = ", ".join(GAIN_RULES)
        raise ConventionError(f"gain rule {value!r} is not one of {names}") from None


def _linear(grades: FloatArray, _table: GainTable) -> FloatArray:
    return grades.copy()


def _exponential(grades: FloatArray, _table: GainTable) -> FloatArray:
    with np.errstate(over="ignore"):  # an infinite gain is the engine's error to name
        return np.exp2(grades) - 1.0


def _table(grades: FloatArray, table: GainTable) -> FloatArray:
    gains = grades.copy()
    for grade, gain in table:
        gains[grades == grade] = gain
    return gains


GainRule.LINEAR = register_gain_rule(GainRule(
    "linear", "linear gain", "gain = grade", _linear, "{g}"))
GainRule.EXPONENTIAL = register_gain_rule(GainRule(
    "exponential", "exponential gain", "gain = 2^grade - 1", _exponential, "POWER(2,{g})-1",
    accepts_negative=False))
GainRule.TABLE = register_gain_rule(GainRule(
    "table", "gain table", "gain = table[grade]; grades not in the table keep gain = grade",
    _table, "IF(COUNTIF(gain_grades,{g})>0,SUMIF(gain_grades,{g},gain_values),{g})",
    takes_table=True))
