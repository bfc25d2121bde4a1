"""Every gain rule is one declaration, and the workbook computes what the
engine computes: for each registered rule (and one declared here, in one
statement), a LibreOffice recalculation of the exported workbook equals the
engine, and the saved file reopens under the same rule. A rule whose
spreadsheet formula says something else fails the same check.

All workbooks go through one ``soffice`` call (module fixture).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from core.engine.evaluation import evaluate
from core.io.workbook import export_workbook, read_workbook
from core.model.conventions import Conventions, Gain
from core.model.document import Document
from core.model.gain_rules import GAIN_RULES, GainRule, register_gain_rule
from tests.libreoffice import read_values, recalculate
from tests.test_workbook_export import check_values, make_document

pytestmark = pytest.mark.libreoffice

#: The rules registered by the product (collected before any test adds one).
BUILT_IN = tuple(GAIN_RULES)


def _square(grades: np.ndarray, _table: Any) -> np.ndarray:
    return grades * np.abs(grades)


#: A new rule, declared in one statement: gain = grade * |grade|.
SQUARE = GainRule("signed-square", "signed square gain", "gain = grade * |grade|", _square,
                  "{g}*ABS({g})")
#: The same arithmetic with a spreadsheet formula that says something else.
WRONG = GainRule("wrong-square", "square gain, wrong formula", "gain = grade * |grade|",
                 _square, "{g}*2")


def _table(rule: GainRule) -> tuple[tuple[float, float], ...]:
    return ((0.0, 0.5), (1.0, 3.0), (3.0, 10.0)) if rule.takes_table else ()


def _cases(rule: GainRule) -> list[tuple[Document, Conventions]]:
    """The rule as it is (grades it can take), and with fractional grades
    truncated and negative gains as 0, on fractional and negative grades."""
    table = _table(rule)
    return [
        (make_document(300, negative=rule.accepts_negative),
         Conventions(gain=Gain(rule, table), cutoffs=(2, None))),
        (make_document(301, fractional=True, negative=True),
         Conventions(gain=Gain(rule, table, negative_as_zero=True, truncate=True),
                     ideal="judged", unknown="zero", cutoffs=(1, None))),
    ]


@pytest.fixture(scope="module")
def declared() -> Iterator[None]:
    """:data:`SQUARE` and :data:`WRONG` registered for this module, then removed."""
    register_gain_rule(SQUARE)
    register_gain_rule(WRONG)
    try:
        yield
    finally:
        del GAIN_RULES[SQUARE.value], GAIN_RULES[WRONG.value]


@pytest.fixture(scope="module")
def recalculated(declared: None, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    src = tmp_path_factory.mktemp("rules")
    out = tmp_path_factory.mktemp("rules-recalculated")
    jobs: dict[str, tuple[Path, Document, Conventions]] = {}
    for name in (*BUILT_IN, SQUARE.value, WRONG.value):
        for n, (doc, conv) in enumerate(_cases(GAIN_RULES[name])):
            path = src / f"{name}-{n}.xlsx"
            export_workbook(evaluate(doc, conv), path)
            jobs[f"{name}-{n}"] = (path, doc, conv)
    paths = recalculate([p for p, _, _ in jobs.values()], out)
    return {"jobs": jobs, "out": dict(zip(jobs, paths, strict=True))}


def _check(recalculated: dict[str, Any], key: str) -> None:
    _, doc, conv = recalculated["jobs"][key]
    saved = recalculated["out"][key]
    check_values(read_values(saved), doc, conv)
    assert read_workbook(saved).conventions == conv


def test_the_product_declares_its_rules() -> None:
    assert BUILT_IN[:3] == ("linear", "exponential", "table")


@pytest.mark.parametrize("case", [0, 1])
@pytest.mark.parametrize("name", BUILT_IN)
def test_every_rule_recalculates_to_the_engine(recalculated: dict[str, Any], name: str,
                                              case: int) -> None:
    _check(recalculated, f"{name}-{case}")


@pytest.mark.parametrize("case", [0, 1])
def test_a_rule_declared_once_recalculates_to_the_engine(recalculated: dict[str, Any],
                                                         case: int) -> None:
    _check(recalculated, f"{SQUARE.value}-{case}")
    # The rule is really used: the gains differ from linear gain's.
    _, doc, conv = recalculated["jobs"][f"{SQUARE.value}-{case}"]
    linear = evaluate(doc, conv.replace(gain=Gain(GainRule.LINEAR, (), conv.gain.negative_as_zero,
                                                  conv.gain.truncate)))
    assert not np.allclose(np.nan_to_num(evaluate(doc, conv).gain), np.nan_to_num(linear.gain))


def test_a_rule_whose_formula_differs_fails_the_check(recalculated: dict[str, Any]) -> None:
    with pytest.raises(AssertionError):
        _check(recalculated, f"{WRONG.value}-0")


def test_a_name_is_declared_once(declared: None) -> None:
    from core.errors import ConventionError

    with pytest.raises(ConventionError, match="already declared"):
        register_gain_rule(SQUARE)


def test_negative_as_zero_keeps_unknown_grades_unknown_bit_for_bit():
    # Negative gains become 0 (and -0.0 too, as before), NaN (an unknown
    # grade) stays NaN, the rest is untouched: one unmasked maximum.
    grades = np.array([np.nan, -2.0, -0.0, 0.0, 0.5, 3.0, -1e-300, np.nan])
    got = Gain(GainRule.LINEAR, (), negative_as_zero=True).apply(grades)
    assert got.tobytes() == np.array([np.nan, 0.0, 0.0, 0.0, 0.5, 3.0, 0.0, np.nan]).tobytes()
    assert np.isnan(grades[0])  # the grades are not written over
