"""A JSON export's rows read with each record, and each row's object, let
go once read (``records.records_rows``: a 200,000-task Label Studio
export's peak memory fell by a fifth, docs/benchmarks.md) are the rows the
plain reading gives: every record held until the last is read, every row's
object until the table is built. Drawn exports of each tool, their rows,
cells (as repr says them: 1.0 is no 1), legends, places and groups
compared."""

from __future__ import annotations

from typing import Any

from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from core.io.annotator import records as R
from core.io.annotator.positions import RecordPlaces
from tests.platformgen_json import argilla_jsonl, doccano_jsonl, label_studio_json, prodigy_jsonl
from tests.sheetgen_drawn import Drawn
from tests.sheetimport import PROFILE

#: Exports drawn (of the four tools together).
EXPORTS = 24


def _plain(text: str) -> tuple[list[list[Any]], dict[str, tuple[str, ...]], list[int],
                                 dict[int, str], dict[str, bool]]:
    """The plain reading: every record parsed and held, flattened and
    spread by the module's own steps, the header the columns in the order
    first seen, each row's cells under it."""
    listed: dict[str, tuple[str, ...]] = {}
    places, ids, groups = [0], {}, {}
    records = list(R._records(text, "drawn"))
    found: set[str] = set()
    for _, rec in records:
        R._controls(rec, "", found)
    held: set[str] = set()
    for _, rec in records:
        R._containers(rec, "", held)
    columns: dict[str, None] = {}
    out = []
    for at, rec in records:
        rows = [r for row in R._flatten(rec, "", frozenset(found), listed, frozenset(held))
                for r in R._spread(row)]
        R.model_groups(rec, "", groups)
        for row in rows:
            columns.update(dict.fromkeys(row))
        out.extend(rows)
        places.extend([at] * len(rows))
        if ident := R._record_id(rec):
            ids[at] = ident
    header = list(columns)
    return ([header, *[[R._cell(r.get(c)) for c in header] for r in out]], listed, places,
            ids, groups)


@settings(PROFILE, max_examples=EXPORTS, phases=[Phase.generate])
@given(st.one_of(label_studio_json(), argilla_jsonl(), prodigy_jsonl(), doccano_jsonl()))
def test_records_let_go_once_read_give_the_plain_rows(sheet: Drawn) -> None:
    text = sheet.text or ""
    listed: dict[str, tuple[str, ...]] = {}
    places: tuple[list[int], dict[int, str]] = ([0], {})
    groups: dict[str, bool] = {}
    rows = R.records_rows(text, "drawn", listed, places, groups)
    want_rows, want_listed, want_places, want_ids, want_groups = _plain(text)
    assert repr(rows) == repr(want_rows)
    assert (listed, places[0], places[1], groups) == (want_listed, want_places, want_ids,
                                                      want_groups)
    table = R.records_table(text, "drawn", None)
    assert repr(table.rows) == repr(want_rows)
    assert table.records == RecordPlaces(R._unit(text), tuple(want_places), want_ids)
