"""Each convention field declared once (:data:`FIELDS`): setting one field
changes only that field, the JSON record round-trips, and each command-line
flag sets its own field over any preset."""

from __future__ import annotations

import argparse
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.cli.options import add_convention_arguments, conventions_from_args
from core.model.conventions import (
    FIELD,
    FIELDS,
    Conventions,
    Gain,
    Guideline,
    Guidelines,
    Rubric,
    format_cutoff,
)
from core.model.gain_rules import GainRule
from core.model.presets import PRESET_FIELDS, PRESETS


def _value(f: Any) -> st.SearchStrategy[Any]:
    """Values field ``f`` may take."""
    if f.kind == "choice":
        return st.sampled_from(f.choices())
    if f.kind == "flag":
        return st.booleans()
    if f.kind == "gain":
        table = st.lists(st.tuples(st.integers(-2, 5).map(float), st.integers(0, 20).map(float)),
                         min_size=1, max_size=4, unique_by=lambda p: p[0])
        return st.one_of(
            st.sampled_from([(r, ()) for r in f.choices() if not r.takes_table]),
            table.map(lambda t: (GainRule.TABLE, tuple(sorted(t)))))
    if f.kind == "cutoffs":
        return st.lists(st.one_of(st.integers(1, 100), st.none()), min_size=1, max_size=4,
                        unique=True).map(tuple)
    if f.kind == "rubric":
        return st.one_of(st.none(), st.lists(st.integers(-1, 4), min_size=1, max_size=5,
                                             unique=True).map(Rubric.from_values))
    if f.kind == "guidelines":
        guideline = st.builds(Guideline, st.integers(-1, 4).map(float),
                              st.text(max_size=12), st.lists(st.text(max_size=8), max_size=2))
        return st.lists(guideline, max_size=4, unique_by=lambda g: g.value).map(
            lambda gs: Guidelines(tuple(gs)))
    return st.one_of(st.none(), st.sampled_from(list(PRESETS)))


@st.composite
def conventions(draw: st.DrawFn) -> Conventions:
    c = PRESETS[draw(st.sampled_from(list(PRESETS)))] if draw(st.booleans()) else Conventions()
    for f in draw(st.lists(st.sampled_from(FIELDS), max_size=6)):
        c = f.set(c, draw(_value(f)))
    return c


@pytest.mark.parametrize("name", [f.name for f in FIELDS])
@given(data=st.data())
def test_setting_a_field_changes_only_that_field(name: str, data: st.DataObject) -> None:
    f = FIELD[name]
    c = data.draw(conventions())
    value = data.draw(_value(f))
    new = f.set(c, value)
    assert f.get(new) == value
    for other in FIELDS:
        if other is not f:
            assert other.get(new) == other.get(c), other.name


@given(conventions())
def test_the_json_record_round_trips(c: Conventions) -> None:
    record = c.to_dict()
    assert list(record) == [f.key for f in FIELDS]
    assert Conventions.from_dict(record) == c


def test_presets_set_the_fields_declared_preset() -> None:
    assert PRESET_FIELDS == ("gain", "discount", "ideal", "ties", "unknown", "zero_ideal",
                             "unranked")


def _cli_text(f: Any, value: Any) -> list[str]:
    if f.kind == "flag":
        return [f.flag if value else "--no-" + f.flag[2:]]
    if f.kind == "cutoffs":
        return [a for k in value for a in (f.flag, format_cutoff(k))]
    if f.kind == "choice":
        return [f.flag, value.value]
    if f.kind == "gain":  # "--gain=-1=0,2=5": a table may start with a minus
        return [f"{f.flag}={Gain(*value).text}"]
    return [f"{f.flag}={value.text}"]  # the rubric


@pytest.mark.parametrize("name", [f.name for f in FIELDS if f.flag])
@given(data=st.data())
def test_each_flag_sets_its_field_over_a_preset(name: str, data: st.DataObject) -> None:
    f = FIELD[name]
    preset = data.draw(st.sampled_from(list(PRESETS)))
    value = data.draw(_value(f).filter(lambda v: v is not None))
    p = argparse.ArgumentParser()
    add_convention_arguments(p)
    got = conventions_from_args(p.parse_args(["--preset", preset, *_cli_text(f, value)]),
                                Conventions())
    assert got == f.set(PRESETS[preset], value)


@given(st.lists(st.one_of(st.integers(-130, 130).map(float),
                          st.sampled_from([0.5, -0.0, 2.25, float("nan")])), max_size=30))
def test_the_rubric_derived_from_the_grades_seen(grades: list[float]) -> None:
    """Without a declared rubric: whole-number grades spanning at most 100
    give every whole number from min(0, lowest) to the highest; otherwise
    the distinct grades seen and 0 (the oracle reads the distinct grades with
    np.unique; rubric_for needs only the lowest and highest for the first)."""
    import numpy as np

    g = np.array(grades, dtype=np.float64)
    seen = np.unique(g[~np.isnan(g)])
    if seen.size == 0:
        expected: Any = (0.0, 1.0)
    elif np.all(seen == np.round(seen)) and seen[-1] - min(seen[0], 0) <= 100:
        expected = range(int(min(seen[0], 0)), int(seen[-1]) + 1)
    else:
        expected = [0.0, *seen.tolist()]
    assert Conventions().rubric_for(g) == Rubric.from_values(expected)
