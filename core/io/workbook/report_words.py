"""The conventions in words, as formulas over the Conventions sheet's named
cells (the Report says what the sheet holds now, not what it held at
export), each with the words the exported conventions give."""

from __future__ import annotations

from typing import Any

from core.engine.evaluation import Evaluation
from core.io.workbook.words import Text, choice_text, join, when
from core.model.conventions import (
    ConsensusRule,
    DiscountRule,
    IdealInventory,
    Rounding,
    TieRule,
    UnknownRule,
    Weighting,
    ZeroIdealRule,
    format_cutoff,
)
from core.model.gain_rules import gain_rules

__all__ = ["conventions_words", "cutoff_text", "weighting_text"]


def _words(kind: Any, extra: dict[str, str] | None = None) -> dict[str, str]:
    """Each choice of ``kind`` (a :mod:`core.model.choices` enum, or the gain rules) as
    "label (formula)", with ``extra`` words after some."""
    return {m.value: f"{m.label} ({m.formula}{(extra or {}).get(m.value, '')})" for m in kind}


def cutoff_text(j: int, ev: Evaluation) -> Text:
    """Cutoff ``j`` (0-based) as the Conventions sheet holds it: a number or all."""
    name = f"cut_{j + 1}"
    return Text(f'IF(ISNUMBER({name}),{name},"all")', format_cutoff(ev.cutoffs[j]))


def weighting_text(ev: Evaluation) -> Text:
    """The declared weighting's label (the means fall back to equal weights)."""
    return choice_text("weighting", ev.conventions.weighting.value,
                       {m.value: m.label for m in Weighting},
                       "(not a weighting; these are equal-query means)")


def conventions_words(ev: Evaluation) -> list[tuple[str, Text]]:
    """(convention, its words) for each convention the Report lists."""
    c = ev.conventions
    g = c.gain
    order = {m.value: "; rows in the order fixed at export" for m in TieRule
             if m is not TieRule.AVERAGE}
    gain = join([
        choice_text("gain_rule", g.rule.value, _words(gain_rules(), {
            "table": "; the table is in the Conventions sheet"}),
            "is not a gain rule; the formulas compute linear gain"),
        when("truncate_grades", g.truncate, ", fractional grades truncated first", ""),
        when("negative_gain_zero", g.negative_as_zero, ", negative gains count as 0", ""),
    ])
    cutoffs: list[Text | str] = ["k = "]
    for j in range(len(c.cutoffs)):
        cutoffs += [", "] if j else []
        cutoffs.append(cutoff_text(j, ev))
    cutoffs.append("; the same k cuts the actual and the ideal list")
    rubric = c.rubric.text if c.rubric is not None else ""
    version = ev.doc.judgment_version
    return [
        ("gain", gain),
        ("discount", choice_text("discount_rule", c.discount.value, _words(DiscountRule),
                                 "is not a discount rule; the formulas use log2")),
        ("cutoffs", join(cutoffs)),
        ("ideal inventory", choice_text("ideal_rule", c.ideal.value, _words(IdealInventory),
                                        "is not an ideal inventory; the formulas use ranked")),
        ("ties", choice_text("tie_rule", c.ties.value, _words(TieRule, order),
                             "is not a tie rule; the rows keep the order fixed at export")),
        ("unknown grades", choice_text("unknown_rule", c.unknown.value, _words(UnknownRule),
                                       "is not a rule for unknown grades")),
        ("zero ideal", choice_text("zero_ideal_rule", c.zero_ideal.value,
                                   _words(ZeroIdealRule), "is not a zero-ideal rule")),
        ("weighting", choice_text("weighting", c.weighting.value, _words(Weighting),
                                  "is not a weighting; the means weigh queries equally")),
        ("consensus", join([
            choice_text("consensus_rule", c.consensus.value, _words(ConsensusRule),
                        "is not a consensus rule"), "; ",
            choice_text("rounding_rule", c.rounding.value, _words(Rounding),
                        "is not a rounding rule")])),
        ("rubric", when('rubric_text=""', not rubric, "derived from the grades seen",
                        Text("rubric_text", rubric))),
        ("judgment version", when('judgment_version=""', not version, "not declared",
                                  Text("judgment_version", version))),
        ("preset", when('preset=""', not c.preset, "none (each convention declared)",
                        Text("preset", c.preset or ""))),
    ]
