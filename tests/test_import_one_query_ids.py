"""A project of one query: its candidates' ids and a position in its
ranking hold the same values. A counter runs on across queries and a
position starts again in each, so one query cannot show which a column
of 1..n down its candidates is; the import offers ``--map rank=COL`` for
one whose header names no record's key (``n``, ``value``, ``#``) and
never for a task's ``id``, ``inner_id`` or ``annotations.task`` (they were
offered as ``--map rank=id``), mapping neither. Drawn Label Studio
projects (tests/platformgen_json.py, ``queries=(1, 1)``).
"""

from __future__ import annotations

import json
from dataclasses import replace

from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from tests.platformgen_json import label_studio_json
from tests.sheetgen_drawn import Drawn
from tests.sheetimport import PROFILE
from tests.sheetimport import grades_of as _grades
from tests.sheetimport import run_sheet as _run
from tests.test_import_platforms import LABEL_STUDIO_IDS, _no_id_is_a_score

#: One-query projects drawn per test.
ONE_QUERY = 8

#: Headers a position in the ranking comes under that name no ranking nor
#: a record's key (a hand-made task's data).
POSITION_HEADERS = ["n", "#", "value", "run_a", "order_shown"]


def _imported(sheet: Drawn) -> dict:
    code, err, report, rows = _run(sheet, ".json")
    assert code == 0, err
    assert report is not None
    assert {(r["query"], r["source_id"]): _grades(r, True) for r in rows} == sheet.truth
    assert report["ranking"] == "none: judgments only", report["ranking"]
    return report


@settings(PROFILE, max_examples=ONE_QUERY, phases=[Phase.generate])
@given(label_studio_json(queries=(1, 1)))
def test_a_one_query_project_s_ids_are_offered_as_no_ranking(sheet: Drawn) -> None:
    """The task's ``id`` (from 1 in a small project), ``inner_id``,
    ``annotations.task`` and ``predictions.task`` count the one query's
    candidates 1..n: a record's id or a counter, with no flag."""
    report = _imported(sheet)
    _no_id_is_a_score(report)
    inner = next(c for c in report["columns"] if c["header"] == "inner_id")
    assert (inner["role"], inner["flag"]) == (None, None), inner
    assert inner["reason"].endswith("one per item, counting the one query's sources (a "
                                    "record's id or a counter: no ranking); not imported"), inner


@settings(PROFILE, max_examples=ONE_QUERY, phases=[Phase.generate])
@given(label_studio_json(queries=(1, 1)), st.sampled_from(POSITION_HEADERS), st.booleans())
def test_a_one_query_position_is_offered_as_the_rank(sheet: Drawn, header: str,
                                                     shuffled: bool) -> None:
    """A position 1..n in each task's data (in the tasks' order or not)
    beside the ids holding the same values: said to be maybe the ranking,
    ``--map rank=`` its flag, never mapped; the ids still offered as none."""
    tasks = json.loads(sheet.text or "[]")
    order = list(range(1, len(tasks) + 1))
    if shuffled:
        order = order[1:] + order[:1]
    for task, at in zip(tasks, order, strict=True):
        task["data"][header] = at
    report = _imported(replace(sheet, text=json.dumps(tasks, indent=1)))
    _no_id_is_a_score(report)
    column = next(c for c in report["columns"] if c["header"] == f"data.{header}")
    assert column["role"] is None, column
    assert column["flag"] == "--map rank=" + (f"data.{header}" if header != "#" else
                                              column["column"]), column
    assert "(a position in its ranking, or a counter: one query cannot tell); if this is " \
           "the ranking, pass --map rank=" in column["reason"], column
    assert not any(LABEL_STUDIO_IDS.fullmatch(c["header"]) and c["flag"]
                   for c in report["columns"])
