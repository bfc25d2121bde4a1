"""Hostile and broken .ods inputs (tests/data/hostile/ods/, written by
tests/data/make_hostile_ods.py) as a user meets them: through ``evaluate``,
``export``, ``import`` and the window, each in its own process with a time
and a memory limit (tests/hostile_cases.py). A refused file gives exit
status 2 and one line naming the problem (the window opens on the example
and says it); a file that is not refused opens; never a traceback, a signal
or a hang, and the input is never changed. The safety checks
(:func:`core.io.safety.check_ods`) refuse every unsafe file before a reader
sees it: a truncated archive, a ``content.xml`` zip bomb, a billion cells
declared by repeated rows and cells, entity bombs; formulas in id or grade
cells are refused by the import, never evaluated.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from core.errors import InputError
from core.io.safety import check_ods
from tests.hostile_cases import (
    assert_checked,
    assert_corpus,
    check,
    corpus_script,
    digests,
    run_side_by_side,
)

CORPUS = Path(__file__).resolve().parent / "data" / "hostile" / "ods"
EXPECTED: dict[str, dict[str, Any]] = json.loads((CORPUS / "expected.json").read_text())
#: Refused files that pass the safety checks: the import refuses them.
READER_DECIDES = {"formula_query.ods", "formula_grade.ods"}
#: Files run through the window: one read, one refused by the checks.
WINDOW_SAMPLE = {"good.ods", "repeated_bomb.ods"}
CLI_MB, WINDOW_MB = 1536, 2048


def test_corpus_is_complete_small_and_reproducible() -> None:
    assert_corpus(CORPUS, corpus_script(CORPUS, "make_hostile_ods").build(), EXPECTED,
                  "make_hostile_ods.py")
    assert {n for n, e in EXPECTED.items() if e["refused"]} >= READER_DECIDES


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_the_safety_checks_decide_before_any_reader(name: str) -> None:
    assert_checked(check_ods, CORPUS / name, EXPECTED[name], name in READER_DECIDES,
                   InputError)


def test_the_area_a_reader_would_allocate_counts_repeats() -> None:
    found = check_ods(CORPUS / "merged_and_repeated.ods")
    # 1,048,000 empty repeated rows past the data add nothing.
    rows, columns = found.used["Judgments"]
    assert rows == 4
    assert 4 <= columns <= 400 // 19  # the rows' bytes bound their cells
    assert check_ods(CORPUS / "two_sheets.ods").sheets == ["Judgments", "Ratings"]


def _cases(out: Path) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    cli, window = [], []
    for name, expected in sorted(EXPECTED.items()):
        path = str(CORPUS / name)
        cli.append({"id": f"{name}/evaluate", "argv": ["evaluate", path], "timeout": 30,
                    "memory_mb": CLI_MB})
        # a formula's judgment is rejected: the rest written only when allowed
        allow = ["--allow-rejected"] if name in READER_DECIDES else []
        cli.append({"id": f"{name}/import", "timeout": 30, "memory_mb": CLI_MB,
                    "argv": ["import", path, "-o", str(out / f"{name}.out.qrels"), *allow]})
        if not expected["refused"] or name in ("repeated_bomb.ods", "content_bomb.ods"):
            cli.append({"id": f"{name}/export", "timeout": 40, "memory_mb": CLI_MB,
                        "argv": ["export", path, "-o", str(out / f"{name}.out.xlsx")]})
        if name in WINDOW_SAMPLE:
            window.append({"id": f"{name}/window", "argv": [path], "entry": "window",
                           "timeout": 60, "memory_mb": WINDOW_MB})
    return cli, window


def test_every_file_through_the_command_line_and_the_window(tmp_path: Path) -> None:
    inputs = sorted(CORPUS.iterdir())
    before = digests(inputs)
    cli, window = _cases(tmp_path)
    outcomes = run_side_by_side(window, cli)
    problems = []
    for case in cli + window:
        name, how = case["id"].rsplit("/", 1)
        expected = dict(EXPECTED[name])
        outcome = outcomes[case["id"]]
        if how == "import" and name in READER_DECIDES:
            # The import reads the rest and names the formula's cell, row rejected.
            expected = {"refused": False, "phrases": []}
            if "formulas are never evaluated; " not in outcome.stdout:
                problems.append(f"{case['id']}: the formula is not named: {outcome.stdout}")
        found = check(outcome, refused=expected["refused"],
                      phrases=tuple(expected["phrases"]),
                      entry="window" if how == "window" else "cli")
        if how in ("export", "import"):
            suffix = "xlsx" if how == "export" else "qrels"
            written = (tmp_path / f"{name}.out.{suffix}").exists()
            if written == expected["refused"]:
                found.append("an output was written" if written else "no output was written")
        problems += [f"{case['id']}: {p}" for p in found]
    assert digests(inputs) == before, "an input file changed"
    assert not problems, "\n".join(problems)
