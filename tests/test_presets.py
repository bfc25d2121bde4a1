"""The presets and the one rule of what choosing a preset sets."""

from __future__ import annotations

import pytest

from core.errors import ConventionError
from core.model.conventions import (
    FIELD_NAMES,
    ConsensusRule,
    Conventions,
    Gain,
    Guideline,
    Guidelines,
    Rounding,
    Rubric,
    TieRule,
    Weighting,
)
from core.model.presets import PRESET_FIELDS, PRESETS, apply_preset, matching_presets, preset

KEPT = ("cutoffs", "rubric", "guidelines", "weighting", "consensus", "rounding")

MINE = Conventions(
    gain=Gain.parse("exponential"),
    cutoffs=(5, None),
    ties=TieRule.PESSIMISTIC,
    weighting=Weighting.IMPORTANCE,
    rubric=Rubric.parse("0=no,1=some,2=all"),
    guidelines=Guidelines((Guideline(1, "some of the answer"),)),
    consensus=ConsensusRule.MEDIAN,
    rounding=Rounding.HALF_EVEN,
)


def test_every_field_is_set_by_the_preset_or_kept():
    assert sorted((*PRESET_FIELDS, *KEPT, "preset")) == sorted(FIELD_NAMES)


@pytest.mark.parametrize("name", list(PRESETS))
def test_apply_preset_sets_the_arithmetic_and_keeps_the_rest(name):
    new = apply_preset(MINE, name)
    for f in PRESET_FIELDS:
        assert getattr(new, f) == getattr(PRESETS[name], f)
    for f in KEPT:
        assert getattr(new, f) == getattr(MINE, f)
    assert new.preset == name
    assert matching_presets(new) == matching_presets(new)
    assert name in matching_presets(new)
    assert apply_preset(new, name) == new


def test_apply_preset_to_the_defaults_is_the_preset():
    for name, stored in PRESETS.items():
        assert apply_preset(Conventions(), name) == stored
        assert preset(name) == stored


def test_unknown_preset():
    with pytest.raises(ConventionError, match="not one of trec_eval, sklearn, ranx"):
        apply_preset(MINE, "galago")
    with pytest.raises(ConventionError, match="not one of"):
        preset("galago")


def test_matching_presets_variants():
    trec = PRESETS["trec_eval"]
    table = trec.replace(gain=Gain(Gain.parse("1=3,2=9").rule, Gain.parse("1=3,2=9").table,
                                   negative_as_zero=True, truncate=True))
    assert matching_presets(table) == ["trec_eval"]
    burges = PRESETS["ranx"].replace(
        gain=Gain(Gain.parse("exponential").rule, negative_as_zero=True, truncate=True))
    assert matching_presets(burges) == ["ranx"]
    assert matching_presets(Conventions()) == []
