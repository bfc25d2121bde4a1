"""Hostile and broken .xlsx inputs (tests/data/hostile/xlsx/, written by
tests/data/make_hostile_xlsx.py) as a user meets them: through ``evaluate``,
``export`` and the window, each in its own process with a time and a memory
limit (tests/hostile_cases.py). A refused file gives exit status 2 and one
line naming the problem (the window opens on the example and says it); a
file that is not refused opens; never a traceback, a signal or a hang, and
the input is never changed.

Every file goes through ``evaluate``. ``export`` and the window add to that
only for files that are read (a refused file fails in the same loading call
before anything is written or shown), so by default ``export`` runs on the
files that are read (one of those read as good.xlsx is) and a few refused
ones, and the window on a sample of both; ``HOSTILE_ALL=1`` runs every file
through all three (about five minutes: each window case costs about 2 s, as
the harness's children import the plotting backend anew, and each command
line case 0.3 s, importing the workbook writer anew).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from core.errors import InputError
from core.io.safety import check_xlsx
from tests.hostile_cases import (
    assert_checked,
    assert_corpus,
    check,
    corpus_script,
    digests,
    run_side_by_side,
)

CORPUS = Path(__file__).resolve().parent / "data" / "hostile" / "xlsx"
EXPECTED: dict[str, dict[str, Any]] = json.loads((CORPUS / "expected.json").read_text())
#: Refused files that pass the safety checks: the reader refuses them.
READER_DECIDES = {
    "escaped_target.xlsx",  # calamine does not undo %-escapes in a target
    "workbook_part_renamed.xlsx",  # calamine opens xl/workbook.xml by name
    "sheet_xml_broken.xlsx", "formula_grade.xlsx", "formula_query.xlsx",
    "prefixed_formula.xlsx", "control_chars_grade.xlsx", "control_chars_sheet_name.xlsx",
    "own_candidates_is_metadata.xlsx", "error_cells.xlsx",
    "own_ids_swapped.xlsx",  # ids edited in place: the rows' cells tell
}
#: Files that are read and that export and the window meet as good.xlsx.
PLAIN_GOOD = {"stored_parts.xlsx", "absolute_target.xlsx", "dimension_too_small.xlsx",
              "strings_count_small_lie.xlsx", "missing_theme.xlsx", "external_link.xlsx",
              "sheet_part_renamed.xlsx"}
#: Refused files also run through export by default.
REFUSED_SAMPLE = {"far_cell.xlsx", "strings_unique_count_huge.xlsx",
                  "own_far_cell_candidates.xlsx", "lying_size.xlsx"}
#: Files run through the window by default: those whose cells the window
#: shows differently (the app's own, a million-row sheet, a huge cell,
#: control characters, prefixes) and two refused ones.
WINDOW_SAMPLE = {"good.xlsx", "own.xlsx", "own_candidates_renamed.xlsx",
                 "no_refs_far_row.xlsx", "huge_cell_text.xlsx", "control_chars_ids.xlsx",
                 "prefixed_sheet.xlsx", "far_cell.xlsx", "own_far_cell_candidates.xlsx"}
CLI_MB, WINDOW_MB = 1536, 2048  # all pass at 1024 and 2048 (measured)


def test_corpus_is_complete_small_and_reproducible() -> None:
    built = corpus_script(CORPUS, "make_hostile_xlsx").build()
    assert_corpus(CORPUS, built, EXPECTED, "make_hostile_xlsx.py")
    assert len(EXPECTED) >= 60
    refused = [n for n, e in EXPECTED.items() if e["refused"]]
    assert set(refused) >= READER_DECIDES | REFUSED_SAMPLE
    assert set(EXPECTED) >= WINDOW_SAMPLE | PLAIN_GOOD


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_the_safety_checks_decide_before_any_reader(name: str) -> None:
    """check_xlsx alone: it refuses with the message a user sees, or passes
    a file that is read (or that only the reader can refuse)."""
    assert_checked(check_xlsx, CORPUS / name, EXPECTED[name], name in READER_DECIDES,
                   InputError)


def _cases(out: Path, everything: bool) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    cli, window = [], []
    for name, expected in sorted(EXPECTED.items()):
        path = str(CORPUS / name)
        cli.append({"id": f"{name}/evaluate", "argv": ["evaluate", path], "timeout": 30,
                    "memory_mb": CLI_MB})
        read = not expected["refused"]
        if everything or (read and name not in PLAIN_GOOD) or name in REFUSED_SAMPLE:
            cli.append({"id": f"{name}/export", "timeout": 40, "memory_mb": CLI_MB,
                        "argv": ["export", path, "-o", str(out / f"{name}.out.xlsx")]})
        if everything or name in WINDOW_SAMPLE:
            window.append({"id": f"{name}/window", "argv": [path], "entry": "window",
                           "timeout": 60, "memory_mb": WINDOW_MB})
    return cli, window


def test_every_file_through_the_command_line_and_the_window(tmp_path: Path) -> None:
    everything = os.environ.get("HOSTILE_ALL") == "1"
    inputs = sorted(CORPUS.iterdir())
    before = digests(inputs)
    cli, window = _cases(tmp_path, everything)
    outcomes = run_side_by_side(window, cli)
    problems = []
    for case in cli + window:
        name, how = case["id"].rsplit("/", 1)
        expected = EXPECTED[name]
        found = check(outcomes[case["id"]], refused=expected["refused"],
                      phrases=tuple(expected["phrases"]),
                      entry="window" if how == "window" else "cli")
        if how == "export":
            written = (tmp_path / f"{name}.out.xlsx").exists()
            if written == expected["refused"]:
                found.append("an output was written" if written else "no output was written")
        problems += [f"{case['id']}: {p}" for p in found]
    assert digests(inputs) == before, "an input file changed"
    assert not problems, "\n".join(problems)
