"""The examples in core's and the app's docstrings run and print what they show.

A docstring's example is documentation a reader trusts: one that no longer
holds (``paired_t_test`` once showed ``0.074180`` where Python prints
``0.07418``) must fail here, not mislead.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import core

# app's modules with examples (the rest of app needs Qt objects to say much).
APP_MODULES = ("app.shown", "app.settings")


def _modules_with_examples() -> list[str]:
    names = [m.name for m in pkgutil.walk_packages(core.__path__, prefix="core.")]
    return sorted(names) + list(APP_MODULES)


@pytest.mark.parametrize("name", _modules_with_examples())
def test_docstring_examples_hold(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, report=True)
    assert result.failed == 0, f"{name}: {result.failed} of {result.attempted} examples fail"


def test_examples_are_found() -> None:
    attempted = sum(
        doctest.testmod(importlib.import_module(name), report=False).attempted
        for name in ("core.analysis.compare.statistics", "app.shown"))
    assert attempted >= 2
