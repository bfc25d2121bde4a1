"""A derandomized Hypothesis test draws the same examples whatever else the
run has imported (tests/conftest.py's ``_draws_of_the_test_alone``).

Hypothesis (6.131 on) draws about one value in twenty from the literals of
the modules imported so far from outside site-packages (``core``, ``app``:
its "local constants", collected again each time ``sys.modules`` grows), so
a test with ``derandomize=True`` drew other examples after other test files
had imported other modules: tests/test_import_properties.py's batch test,
run alone and after tests/test_workbook_export.py, drew the same first 4
sheets and 8 others (how two rare failures slipped through a session).
"""

from __future__ import annotations

import importlib
import sys

from hypothesis import given, settings
from hypothesis import strategies as st

#: A module of literals, imported between two runs of the same test.
LITERALS = '''
WORDS = ("alpha-{n}", "beta-{n}", "gamma-{n}", "delta-{n}", "epsilon-{n}")
NUMBERS = ({n}1, {n}23, {n}456, -{n}7, {n}89012)
'''


def _draws() -> list[tuple[int, str]]:
    drawn: list[tuple[int, str]] = []

    @settings(max_examples=100, derandomize=True, database=None)
    @given(st.integers(), st.text(max_size=12))
    def record(number: int, text: str) -> None:
        drawn.append((number, text))

    record()
    return drawn


def test_a_derandomized_test_draws_alike_whatever_was_imported(tmp_path, monkeypatch):
    # (tmp_path is outside site-packages: Hypothesis takes it for the
    # project's code; before, the second run drew other integers and texts)
    first = _draws()
    for n in (3, 4):
        (tmp_path / f"drawn_literals_{n}.py").write_text(LITERALS.format(n=n))
    monkeypatch.syspath_prepend(str(tmp_path))
    for n in (3, 4):
        importlib.import_module(f"drawn_literals_{n}")
    again = _draws()
    for n in (3, 4):
        monkeypatch.delitem(sys.modules, f"drawn_literals_{n}")
    assert again == first
    assert len(first) == 100
