"""A record's own list of values (a Label Studio task's ``comment_authors``,
its ``drafts`` exported as ids) is one cell, and the same kind of cell on
every record: a list of one reads ``[4]`` as a list of two reads ``[4, 5]``.
Before, a list became one cell only where it held two or more values, so
the column read ``4`` on one task and ``[4, 5]`` on another. A list of one
value on every record of the file (Prodigy's ``accept: [2]``) is still that
value."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import Phase, event, given, settings

from core.io.annotator import import_annotations
from core.io.annotator.records import records_table
from tests.platformgen_json import label_studio_json
from tests.sheetgen_drawn import Drawn
from tests.sheetimport import PROFILE
from tests.test_platform_exports_detected import _label_studio

#: The fields of a task that are lists of values (people's or drafts' ids).
LISTS = ("comment_authors", "drafts")


def _cells(text: str, header: str) -> set[str]:
    """The texts of column ``header``'s filled cells in the table the
    export ``text`` is read as."""
    table = records_table(text, "project.json", None)
    if header not in table.rows[0]:
        return set()
    c = table.rows[0].index(header)
    return {str(r[c]) for r in table.rows[1:] if c < len(r) and r[c] not in (None, "")}


def test_a_task_s_list_of_one_is_a_list_as_a_list_of_two(tmp_path: Path):
    """Tasks commented on by user 4 alone and by users 4 and 5: the column
    holds ``[4]`` and ``[4, 5]`` (it held the number 4 and ``[4, 5]``), and
    is left out, accounted for, as before."""
    path = tmp_path / "project.json"
    _label_studio(path, {"d1": [3, 2], "d2": [0, 1], "d3": [1, 2], "d4": [2, 2]},
                  predictions=1)
    tasks = json.loads(path.read_text("utf-8"))
    for k, task in enumerate(tasks):
        task.update({"comment_count": k % 2 + 1, "comment_authors": [4, 5][:k % 2 + 1]})
    path.write_text(json.dumps(tasks, indent=1), encoding="utf-8")
    assert _cells(path.read_text("utf-8"), "comment_authors") == {"[4]", "[4, 5]"}
    report = import_annotations(path).report
    authors = next(c for c in report.columns if c.header == "comment_authors")
    assert (authors.role, authors.reason) == (
        "", "comment_authors: 2 distinct values, no role read from them; not imported")


@settings(PROFILE, max_examples=24, phases=[Phase.generate])
@given(label_studio_json())
def test_drawn_tasks_lists_are_lists_on_every_task(sheet: Drawn) -> None:
    """In a drawn Label Studio export, the filled cells of a task's list
    of values (its 1-2 commenters, its 1-2 drafts' ids) are lists on every
    task or on none (one value on every task: that value)."""
    text = sheet.text or "[]"
    for header in LISTS:
        cells = _cells(text, header)
        kinds = {c.startswith("[") for c in cells}
        event(f"{header}: {'lists' if kinds == {True} else 'values' if kinds else 'none'}")
        assert len(kinds) <= 1, (header, cells)
