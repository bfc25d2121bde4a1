"""A second id of each item beside the source (a product's SKU beside its
page's URL, as an e-commerce team's grading sheet has them) is said to be
one, with the flag that reads it as the source: a run names the items by
one of them, and only the user knows which.

Before (found by htrial5): ``SKU: 42 distinct values, no role read from
them``, the URL read as the source, and a run of SKUs evaluated against
the sheet found none of its 60 candidates judged, with nothing pointing at
the column that held them.
"""

from __future__ import annotations

from hypothesis import HealthCheck, assume, given, settings

from tests.sheetgen import Drawn, sheets
from tests.sheetimport import run_sheet

HEADER = "SKU"


def _with_skus(sheet: Drawn) -> tuple[Drawn, dict[tuple[str, str], str]]:
    """The drawn sheet with a last column of each item's SKU (the truth of
    which item each SKU names, kept aside)."""
    kinds = sheet.column_kinds
    q, s = kinds.index("query"), kinds.index("source")
    sku: dict[tuple[str, str], str] = {}
    rows = [[*sheet.rows[0], HEADER]]
    for row in sheet.rows[1:]:
        item = (str(row[q]), str(row[s]))
        rows.append([*row, sku.setdefault(item, f"SKU-{48213 + 37 * len(sku)}")])
    sheet.rows = rows
    return sheet, sku


def _left_out(report: dict, header: str) -> tuple[str, str]:
    column = next(c for c in report["columns"] if c["header"] == header)
    return column["reason"], column["flag"]


def test_a_sku_beside_a_url_names_the_flag_that_reads_it():
    """The grading sheet as a colleague keeps it: the URL is read as the
    source (a page's address before a code), the SKU offered by its flag;
    that flag reads the same grades by SKU."""
    sheet = Drawn(rows=[["Query", "SKU", "Product page", "Grade (0-3)"], *(
        [q, f"SKU-{q[:3]}{d}", f"https://shop.example.com/p/{q[:3]}{d}", (d + len(q)) % 4]
        for q in ("red running shoes", "wireless earbuds") for d in range(4))],
        layout="long", truth={})
    code, err, report, rows = run_sheet(sheet, ".csv")
    assert code == 0, err
    assert report is not None
    assert report["mapping"]["source_id"] == "Product page"
    assert _left_out(report, "SKU") == (
        "SKU: 8 distinct values, one per item as Product page: another id of each item; "
        "if a run names the items by these, pass --map source_id=SKU",
        "--map source_id=SKU")
    sheet.flags = ["--map", "source_id=SKU"]
    code, err, report, by_sku = run_sheet(sheet, ".csv")
    assert code == 0, err
    assert report is not None
    assert [r["source_id"] for r in by_sku[:2]] == ["SKU-red0", "SKU-red1"]
    assert [r["grade"] for r in by_sku] == [r["grade"] for r in rows]
    assert _left_out(report, "Product page")[1] == "--map source_id=C"


@settings(max_examples=24, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(sheets(headers="realistic").filter(
    lambda s: s.layout in ("long", "wide") and not s.flags and not s.ambiguous
    and not s.extra_grade and "source" in s.column_kinds))
def test_a_drawn_sheets_second_id_of_each_item_is_offered_as_the_source(sheet: Drawn) -> None:
    """Any drawn sheet (tests/sheetgen.py) with each item's SKU added as its
    last column: where the import reads the drawn source, the SKUs are left
    out with the flag that reads them as the source, and with that flag the
    judgments are the drawn ones, named by SKU."""
    sheet, sku = _with_skus(sheet)
    source = sheet.rows[0][sheet.column_kinds.index("source")]
    code, _err, report, _rows = run_sheet(sheet, ".csv")
    assume(code == 0 and report is not None and report["mapping"].get("source_id") == source)
    assert report is not None
    assert _left_out(report, HEADER)[1] == f"--map source_id={HEADER}"
    sheet.flags = ["--map", f"source_id={HEADER}"]
    code, err, report, rows = run_sheet(sheet, ".csv")
    assert code == 0, err
    assert {(r["query"], r["source_id"]) for r in rows} == {
        (q, sku[(q, s)]) for q, s in sheet.truth}


def test_a_judgment_record_id_is_no_id_of_the_item():
    """Each item judged once, a column of each judgment's record id (a
    platform's annotation_id, a UUID) is one per item too, by the values
    alone; its header names the judgment's record, so it is not offered as
    another id of the item (it was: 'annotation_id: 8 distinct values, one
    per item as Product page: another id of each item; ... pass --map
    source_id=annotation_id', which no run names its items by)."""
    ids = [f"{n:08x}-3b1c-4e7a-9f00-{n * 7919:012x}" for n in range(1, 9)]
    sheet = Drawn(rows=[["Query", "Product page", "Grade (0-3)", "annotation_id"], *(
        [q, f"https://shop.example.com/p/{q[:3]}{d}", (d + len(q)) % 4, ids.pop()]
        for q in ("red running shoes", "wireless earbuds") for d in range(4))],
        layout="long", truth={})
    code, err, report, _ = run_sheet(sheet, ".csv")
    assert code == 0, err
    reason, flag = _left_out(report, "annotation_id")
    assert (reason, flag) == ("annotation_id: 8 distinct values, no role read from them; "
                              "not imported", None)
