"""Issue 33's examples, each a sheet with its expected grades or its
one-line refusal: a ranking is never read from values (a price, Label
Studio's id, MTurk's NumberOfSimilarHITs, Appen's _unit_id), grade columns
are never dropped in silence, and the JSON report accounts for every
column and every row."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest

from app.cli.main import main
from core.errors import InputError

QUERIES = ["red running shoes", "usb c cable", "desk lamp"]
GRADES = [2, 0, 1, 3, 1, 2]  # per document of each query, hand-written


def _write(path: Path, rows: list[list[Any]]) -> Path:
    with open(path, "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows(rows)
    return path


def _import(path: Path, *flags: str, capsys: pytest.CaptureFixture[str]
            ) -> tuple[int, str, dict[str, Any], dict[tuple[str, str], dict[str, str]]]:
    out_csv, report = path.with_suffix(".out.csv"), path.with_suffix(".json")
    code = main(["import", str(path), "-o", str(out_csv), "--report", str(report), *flags],
                io.StringIO())
    err = capsys.readouterr().err
    data = json.loads(report.read_text("utf-8")) if report.exists() else {}
    rows = {}
    if code == 0:
        with open(out_csv, newline="", encoding="utf-8") as fh:
            rows = {(r["query"], r["source_id"]): r for r in csv.DictReader(fh)}
    return code, err, data, rows


def _column(report: dict[str, Any], header: str) -> dict[str, Any]:
    return next(c for c in report["columns"] if c["header"] == header)


def test_a_price_is_no_ranking(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows: list[list[Any]] = [["query", "product_id", "Price", "relevance"]]
    for qi, q in enumerate(QUERIES):
        for d, g in enumerate(GRADES):
            rows.append([q, f"B0{qi}{d}XK", round(10.34 + 45.91 * d + qi, 2), g])
    code, err, report, out = _import(_write(tmp_path / "esci.csv", rows), capsys=capsys)
    assert (code, err) == (0, "")
    assert report["ranking"] == "none: judgments only"
    assert all(r["score"] == "" for r in out.values())
    assert [float(out[(QUERIES[1], f"B01{d}XK")]["grade"]) for d in range(6)] == GRADES
    price = _column(report, "Price")
    assert price["role"] is None
    assert price["flag"] == "--map score=Price"
    assert price["reason"] == ("Price: numbers 10.34 to 241.89, one per item; if this is the "
                               "ranking, pass --map score=Price")
    # Declared, it is the score.
    code, err, report, out = _import(tmp_path / "esci.csv", "--map", "score=Price",
                                     capsys=capsys)
    assert code == 0
    assert report["ranking"] == "score"
    assert float(out[(QUERIES[0], "B003XK")]["score"]) == round(10.34 + 45.91 * 3, 2)
    assert _column(report, "Price")["reason"] == "declared"


def test_label_studio_s_annotation_id_is_no_ranking(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    rows: list[list[Any]] = [["id", "annotator", "query", "doc", "relevance", "lead_time"]]
    n = 0
    for q in QUERIES:
        for d, g in enumerate(GRADES[:5]):
            n += 1  # the task's id, 1 to 15: one per item, as a score would be
            for who, shift in (("ana@lab.example", 0), ("ben@lab.example", 1)):
                rows.append([n, who, q, f"{q[:3]}-{d}", min(3, g + shift), 4.75 + n + shift])
    code, err, report, out = _import(_write(tmp_path / "ls.csv", rows), capsys=capsys)
    assert (code, err) == (0, "")
    assert report["ranking"] == "none: judgments only"
    assert report["mapping"].get("score") is None
    assert report["mapping"].get("rank") is None
    row = out[("usb c cable", "usb-0")]
    assert (float(row["grade_ana@lab.example"]), float(row["grade_ben@lab.example"])) == (2, 3)
    assert _column(report, "id")["role"] is None
    assert _column(report, "id")["flag"] is None  # (an id: counting up, one per task)


def test_label_studio_s_last_comment_time_is_no_note(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """A task someone commented on has ``last_comment_updated_at``, a time
    stamp: no note of any judgment (was: read as the note, named so by
    "comment", the task's note was "1: 2026-11-30T12:01:00Z; 2: ..." once
    per annotator)."""
    tasks = []
    for qi, q in enumerate(QUERIES):
        for d, g in enumerate(GRADES[:4]):
            n = 4 * qi + d + 1
            tasks.append({
                "id": n, "data": {"query": q, "doc_id": f"{q[:3]}-{d}"},
                "annotations": [{"id": 100 + 2 * n + w, "completed_by": w + 1, "result": [{
                    "value": {"choices": [str(min(3, g + w))]}, "from_name": "relevance",
                    "to_name": "text", "type": "choices"}]} for w in range(2)],
                "comment_count": int(n == 3),
                "last_comment_updated_at": "2026-11-30T12:01:00.000000Z" if n == 3 else None})
    path = tmp_path / "ls.json"
    path.write_text(json.dumps(tasks), "utf-8")
    out_csv, report_path = tmp_path / "ls.csv", tmp_path / "report.json"
    code = main(["import", str(path), "-o", str(out_csv), "--report", str(report_path)],
                io.StringIO())
    assert (code, capsys.readouterr().err) == (0, "")
    report = json.loads(report_path.read_text("utf-8"))
    with open(out_csv, newline="", encoding="utf-8") as fh:
        out = {(r["query"], r["source_id"]): r for r in csv.DictReader(fh)}
    assert "note" not in report["mapping"]
    assert {r["note"] for r in out.values()} == {""}
    assert float(out[(QUERIES[0], "red-2")]["grade_2"]) == 2
    said = _column(report, "last_comment_updated_at")
    assert (said["role"], said["reason"]) == (
        None, "last_comment_updated_at: dates and times, not imported")


def test_mturk_s_number_of_similar_hits_is_no_rank(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    rows: list[list[Any]] = [["HITId", "WorkerId", "NumberOfSimilarHITs", "Input.query",
                              "Input.doc_id", "Answer.relevance", "WorkTimeInSeconds"]]
    for qi, q in enumerate(QUERIES):
        for d, g in enumerate(GRADES[:4]):
            rows.append([f"3HIT{qi}{d}", "A1X9QW2LMZ3K7P", d + 1, q, f"cw-{qi}-{d}", g, 30 + d])
    code, err, report, out = _import(_write(tmp_path / "mturk.csv", rows), capsys=capsys)
    assert (code, err) == (0, "")
    assert report["ranking"] == "none: judgments only"
    assert [float(out[("desk lamp", f"cw-2-{d}")]["grade"]) for d in range(4)] == GRADES[:4]
    hits = _column(report, "NumberOfSimilarHITs")
    assert hits["role"] is None
    assert hits["flag"] == "--map rank=NumberOfSimilarHITs"


def test_an_mturk_comment_box_no_one_filled_is_said_empty(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A HIT's optional comments box left blank on every assignment, in a
    batch with a rejected assignment: empty, as any empty column (was:
    "text only on rows that are no judgments (: skipped), no judgment's
    note", no kind of row named)."""
    rows: list[list[Any]] = [["HITId", "WorkerId", "AssignmentStatus", "Input.query",
                              "Input.doc_id", "Answer.relevance", "Answer.comments"]]
    for qi, q in enumerate(QUERIES):
        for d, g in enumerate(GRADES[:4]):
            for w, who in enumerate(("A1X9QW2LMZ3K7P", "A2B7NC4RT8VE1D")):
                status = "Rejected" if (qi, d, w) == (0, 1, 1) else "Approved"
                rows.append([f"3HIT{qi}{d}", who, status, q, f"cw-{qi}-{d}", g, ""])
    code, err, report, out = _import(_write(tmp_path / "mturk.csv", rows), capsys=capsys)
    assert (code, err) == (0, "")
    assert "note" not in report["mapping"]
    assert float(out[("usb c cable", "cw-1-3")]["grade_A2B7NC4RT8VE1D"]) == 3
    said = _column(report, "Answer.comments")
    assert (said["role"], said["reason"]) == (None, "empty: no row holds a value; not imported")


def test_a_pivot_table_s_blocks_are_refused_naming_where_the_query_is(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A pivot table's compact layout writes each query once, on its
    block's first row, the blocks apart by a total and a blank row: never
    filled down, the refusal names the row the query is written on and the
    Excel setting that repeats it (was: "the query is empty; row rejected"
    alone); one row whose query is blank by a slip says no such thing."""
    rows: list[list[Any]] = [["Query", "Document", "Ana", "Ben"]]
    for qi, q in enumerate(QUERIES):
        rows += [[q if d == 0 else "", f"D{qi}{d}", g, min(3, g + 1)]
                 for d, g in enumerate(GRADES[:4])]
        rows += [[f"{q} Total", "", "", ""], ["", "", "", ""]]
    code, err, _, _ = _import(_write(tmp_path / "pivot.csv", rows), capsys=capsys)
    assert code == 2
    assert err.startswith(
        f"ndcg-worksheet: error: {tmp_path / 'pivot.csv'}, line 3, column 'Query': 18 of "
        "the 24 judgments read were rejected, so nothing was written; the first: the query is "
        "empty (written on line 2 only, at its block's head, as a pivot table's compact "
        "layout writes it: repeat it on each row, in Excel with Repeat All Item Labels); row "
        "rejected (pass --allow-rejected")
    rows = [["Query", "Document", "Ana", "Ben"]]
    rows += [[q if (qi, d) != (1, 2) else "", f"D{qi}{d}", g, min(3, g + 1)]
             for qi, q in enumerate(QUERIES) for d, g in enumerate(GRADES[:4])]
    code, err, _, _ = _import(_write(tmp_path / "slip.csv", rows), capsys=capsys)
    assert code == 2
    assert "the first: the query is empty; row rejected (" in err


def test_a_sheet_of_titled_blocks_is_refused_as_blocks(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Each query's rows under a title row ("Query: red running shoes")
    and a header of their own, the blocks apart by blank rows: refused in
    one line saying so (was: "one row per respondent and one column per
    item (3 columns of grades: Rank, Ana, Ben, ...), but the headers do not
    say which query and source each item is")."""
    rows: list[list[Any]] = []
    for qi, q in enumerate(QUERIES):
        rows += [[f"Query: {q}"], ["Rank", "Document", "Ana", "Ben"]]
        rows += [[d + 1, f"D{qi}{d}", g, min(3, g + 1)] for d, g in enumerate(GRADES[:4])]
        rows.append([])
    code, err, _, _ = _import(_write(tmp_path / "blocks.csv", rows), capsys=capsys)
    assert code == 2
    assert err == (
        f"ndcg-worksheet: error: {tmp_path / 'blocks.csv'}, line 2: the header on line 2 is "
        "written again on lines 9, 16: the sheet is blocks of rows, each under a title row "
        "('Query: red running shoes' on line 1), and no column says each row's query (stack "
        "the blocks under one header row, with a column that names each row's query, and "
        "import that)\n")
    # the import wizard's way: the guessed mapping (no query) imported
    from core.io.annotator import detect_mapping, import_table
    from core.io.annotator.detect import read_guessed

    table = read_guessed(tmp_path / "blocks.csv")
    mapping = detect_mapping(table)
    assert mapping.query is None
    with pytest.raises(InputError) as caught:
        import_table(table, mapping)
    assert (caught.value.line, caught.value.problem.split(":")[0]) == (
        2, "the header on line 2 is written again on lines 9, 16")


def test_appen_s_unit_id_is_no_score(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows: list[list[Any]] = [["_unit_id", "_worker_id", "_trust", "relevance", "query",
                              "doc_id"]]
    for qi, q in enumerate(QUERIES):
        for d, g in enumerate(GRADES):
            for who in (41823377, 45519020):
                rows.append([2350000100 + 10 * qi + d, who, 0.9 - 0.01 * d, g, q, f"D{qi}{d}"])
    code, err, report, out = _import(_write(tmp_path / "appen.csv", rows), capsys=capsys)
    assert (code, err) == (0, "")
    assert report["ranking"] == "none: judgments only"
    assert float(out[("red running shoes", "D03")]["grade_41823377"]) == 3
    assert _column(report, "_unit_id")["flag"] is None  # (rising down the rows, alike)
    tally = report["rows"]
    assert tally == {"read": 36, "imported": 36, "ungraded": 0, "skipped": {}, "rejected": 0,
                     "blank": 0}


def test_more_grade_columns_than_used_stop_the_import(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows: list[list[Any]] = [["query", "doc", "relevance", "R2", "R3", "notes"]]
    for q in QUERIES:
        for d, g in enumerate(GRADES):
            rows.append([q, f"{q[:3]}{d}", g, (g + 1) % 4, (g + 2) % 4, ""])
    sheet = _write(tmp_path / "three.csv", rows)
    code, err, _, _ = _import(sheet, capsys=capsys)
    assert code == 2
    assert err == (
        f"ndcg-worksheet: error: {sheet}: 2 more columns of grades like relevance's are not "
        "used: R2, R3 (pass --annotators relevance,R2,R3 if each is one annotator's grades, "
        "--map grade=relevance to take relevance alone and leave R2, R3 out)\n")
    code, err, _, out = _import(sheet, "--map", "grade=relevance", capsys=capsys)
    assert (code, err) == (0, "")
    assert float(out[("usb c cable", "usb3")]["grade"]) == 3
    code, err, report, out = _import(sheet, "--annotators", "relevance,R2,R3", capsys=capsys)
    assert (code, err) == (0, "")
    assert [float(out[("usb c cable", "usb3")][f"grade_{w}"]) for w in
            ("relevance", "R2", "R3")] == [3, 0, 1]
    assert [(c["column"], c["role"], c["reason"]) for c in report["columns"]] == [
        ("A", "query", "query, named so; 3 values, each on 6 rows on average"),
        ("B", "source_id", "doc, named so; 18 values, each on one row"),
        ("C", "grade (relevance)", "declared"), ("D", "grade (R2)", "declared"),
        ("E", "grade (R3)", "declared"), ("F", "note", "notes, named so; 0 cells filled")]


def test_a_rank_that_is_no_rank_is_refused(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    rows: list[list[Any]] = [["query", "doc", "rank", "grade"]]
    for q in QUERIES:
        for d, g in enumerate(GRADES):
            rows.append([q, f"{q[:3]}{d}", 1.5 + d, g])
    sheet = _write(tmp_path / "rank.csv", rows)
    code, err, _, _ = _import(sheet, capsys=capsys)
    assert code == 2
    assert err.count("\n") == 1
    assert "the rank column 'rank' holds '1.5', not a whole number" in err
    assert "--map rank=none" in err
    code, err, after, _ = _import(sheet, "--map", "rank=none", capsys=capsys)
    assert (code, err) == (0, "")
    assert after["ranking"] == "none: judgments only"


def test_a_sheet_of_no_judgments_is_refused(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    rows: list[list[Any]] = [["query", "product", "title", "Price", "stock"]]
    for q in QUERIES:
        for d in range(6):  # stock 0-4 reads like grades: its name says it is none
            rows.append([q, f"{q[:3]}{d}", f"{q} model {d}", 10.5 + d * 3.25, (d * 3) % 5])
    sheet = _write(tmp_path / "catalogue.csv", rows)
    code, err, _, _ = _import(sheet, capsys=capsys)
    assert code == 2
    assert err.startswith(f"ndcg-worksheet: error: {sheet}: no grade column found")
    assert err.count("\n") == 1
    assert "pass --map grade=COLUMN" in err


def test_a_ranking_is_read_from_its_name_in_any_writing() -> None:
    from core.io.annotator.names import ranking_field

    named = {"score": "score", "bm25_score": "score", "retrieval.score": "score",
             "bm25Score": "score", "rank (run A)": "rank", "position_in_serp": "rank",
             "Rank": "rank", "Model Score": "score"}
    assert {h: ranking_field(h) for h in named} == named
    for header in ("Price", "id", "_unit_id", "NumberOfSimilarHITs", "quality_score",
                   "worker rank", "_trust", "value"):
        assert ranking_field(header) is None, header
