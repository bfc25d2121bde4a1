"""An item every annotator declined (Argilla's ``discarded``, Prodigy's
``answer = ignore``, Label Studio's cancelled annotation) is still a
candidate, at its place, its grade unknown: dropped, every candidate
ranked below it moved up a place and the discounts changed in silence.
Each file written here in code, in the shape the tool's own export gives
it (as tests/test_declined_and_named.py writes them), with a rank."""

from __future__ import annotations

import contextlib
import csv
import io
import json
import math
from pathlib import Path
from typing import Any

import pytest

from app.cli.main import main

#: One query's four documents at ranks 1-4, two annotators' grades; the
#: second, at rank 2, declined by both (None: no value filled when declined).
Item = tuple[str, int, list[tuple[str, int | None, str]]]
_ITEMS: list[Item] = [
    ("d1", 1, [("u1", 3, "submitted"), ("u2", 3, "submitted")]),
    ("d2", 2, [("u1", 2, "discarded"), ("u2", None, "discarded")]),
    ("d3", 3, [("u1", 1, "submitted"), ("u2", 1, "submitted")]),
    ("d4", 4, [("u1", 0, "submitted"), ("u2", 0, "submitted")]),
]
_LABELS = ["Not relevant", "Somewhat relevant", "Relevant", "Highly relevant"]


def _argilla_v1(path: Path, items: list[Item]) -> None:
    """Argilla 1.x's ``format_as("datasets")`` as JSON Lines, the rank a field."""
    with open(path, "w", encoding="utf-8") as fh:
        for d, rank, rs in items:
            fh.write(json.dumps({
                "query": "q", "document": d, "rank": rank,
                "relevance": [{"user_id": u, "value": v, "status": s} for u, v, s in rs],
                "relevance-suggestion": None, "external_id": None, "metadata": "{}"}) + "\n")


def _argilla_v2(path: Path, items: list[Item]) -> None:
    """Argilla 2.x's ``records.to_list(flatten=True)``: a discarded response
    holding a value is in the lists with its status, one holding none is
    in no list."""
    with open(path, "w", encoding="utf-8") as fh:
        for k, (d, rank, rs) in enumerate(items):
            given = [(u, v, s) for u, v, s in rs if v is not None]
            fh.write(json.dumps({
                "id": f"rec-{k:03d}", "status": "completed", "query": "q", "document": d,
                "rank": rank, "relevance.responses": [v for _, v, _ in given],
                "relevance.responses.users": [u for u, _, _ in given],
                "relevance.responses.status": [s for _, _, s in given]}) + "\n")


def _prodigy(path: Path, items: list[Item]) -> None:
    """Prodigy's ``db-out`` of a choice task: an answer a line, the options,
    ``accept`` the chosen ids, ``answer = ignore`` (nothing accepted) for a
    task skipped, the rank in the task's ``meta``."""
    options = [{"id": g, "text": t} for g, t in enumerate(_LABELS)]
    with open(path, "w", encoding="utf-8") as fh:
        for k, (d, rank, rs) in enumerate(items):
            for u, v, s in rs:
                ignored = s == "discarded"
                fh.write(json.dumps({
                    "query": "q", "doc_id": d, "text": f"Passage {d}.", "meta": {"rank": rank},
                    "options": options, "accept": [] if ignored else [v],
                    "answer": "ignore" if ignored else "accept", "_input_hash": k,
                    "_task_hash": 1000 * k + len(u), "_view_id": "choice",
                    "_annotator_id": f"relevance-{u}", "_session_id": f"relevance-{u}"}) + "\n")


def _label_studio(path: Path, items: list[Item]) -> None:
    """A Label Studio project's JSON export: a cancelled annotation
    (``was_cancelled``, an empty ``result``) for a task skipped, the rank
    in the task's data."""
    tasks, n = [], 500
    for k, (d, rank, rs) in enumerate(items):
        annotations = []
        for u, v, s in rs:
            n += 1
            cancelled = s == "discarded"
            annotations.append({
                "id": n, "completed_by": {"id": int(u[1:]), "email": f"{u}@lab.example"},
                "result": [] if cancelled else [{
                    "value": {"choices": [_LABELS[v or 0]]}, "id": f"r{n}",
                    "from_name": "relevance", "to_name": "doc", "type": "choices"}],
                "was_cancelled": cancelled, "ground_truth": False, "task": 9000 + k})
        tasks.append({"id": 9000 + k, "annotations": annotations, "drafts": [],
                      "predictions": [], "data": {"query": "q", "doc": d, "rank": rank},
                      "cancelled_annotations": sum(a["was_cancelled"] for a in annotations)})
    path.write_text(json.dumps(tasks, indent=2), encoding="utf-8")


#: The labels' grades, declared: the label of grade 2 is given only on the
#: declined item, so the scale read from the labels held would be 0-2
#: (Prodigy's records list their options, all four: read as the scale).
_RUBRIC = ("--rubric", ",".join(f"{g}={t}" for g, t in enumerate(_LABELS)))
#: Each shape: its writer, the file's extension, the flags it is imported
#: with (none declares a column: Prodigy's choice, ``accept``, is the grade
#: whatever its ``answer`` holds).
_SHAPES = {"argilla 1.x": (_argilla_v1, "jsonl", ()), "argilla 2.x": (_argilla_v2, "jsonl", ()),
           "prodigy": (_prodigy, "jsonl", ()),
           "label studio": (_label_studio, "json", _RUBRIC)}


#: Where each shape's file holds d2, the declined item, as the import
#: names it: a JSON Lines file's line (Prodigy: an answer a line, u1's
#: first), a JSON array's record and its task id (never the row of the
#: table built from the records: row 4 under the header it adds).
_D2 = {"argilla 1.x": "line 2", "argilla 2.x": "line 2", "prodigy": "line 3",
       "label studio": "record 2 (id 9001)"}


def _run(args: list[str]) -> tuple[int, str, str]:
    said, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err):
        code = main(args, said)
    return code, said.getvalue(), err.getvalue()


def _import(shape: str, tmp_path: Path, *extra: str, items: list[Item] = _ITEMS,
            ) -> tuple[str, dict[str, Any], list[dict[str, str]], Path]:
    write, ext, flags = _SHAPES[shape]
    path, out, report = tmp_path / f"export.{ext}", tmp_path / "o.csv", tmp_path / "r.json"
    write(path, items)
    code, said, err = _run(["import", str(path), "-o", str(out), "--report", str(report),
                            *flags, *extra])
    assert code == 0, err
    with open(out, newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    return said, json.loads(report.read_text("utf-8")), rows, out


def _ndcg(out: Path, unjudged: str) -> str:
    code, said, err = _run(["evaluate", str(out), "--unjudged", unjudged])
    assert code == 0, err
    return next(line for line in said.splitlines() if line.startswith("q ")).split()[-1] \
        if unjudged != "unresolved" else said


#: By hand: grades 3, ?, 1, 0 at ranks 1-4, gains the grades, 1/log2(r+1).
#: The unknown grade as 0: DCG = 3 + 0 + 1/2 + 0 = 3.5; the ideal of the
#: ranked candidates' gains 3, 1, 0, 0 = 3 + 1/log2(3); 3.5 / 3.63093 = 0.9639.
#: Condensed (the unknown left out, the others moved up): 3, 1, 0 ideal: 1.
#: Unresolved (the default): no NDCG, the bounds 0.9639 (a 0) to 1 (a 3:
#: 3 + 3/log2(3) + 1/2 over the same).
_ZERO = 3.5 / (3 + 1 / math.log2(3))


@pytest.mark.parametrize("shape", list(_SHAPES))
def test_an_item_every_annotator_declined_stays_at_its_rank_unknown(tmp_path: Path,
                                                                    shape: str) -> None:
    """The item declined by both annotators at rank 2 of 4 is a candidate
    with an unknown grade (it was no candidate: d3 and d4 moved up to ranks
    2 and 3, NDCG 1.0000 under every convention); its rows stay counted as
    skipped, and the import says it kept the item."""
    said, report, rows, out = _import(shape, tmp_path)
    got = [(r["source_id"], r["score"], r["grade"], r["state"]) for r in rows]
    assert got == [("d1", "-1", "3", "number"), ("d2", "-2", "", "unknown"),
                   ("d3", "-3", "1", "number"), ("d4", "-4", "0", "number")]
    note = [n for n in report["notes"] if "declined by every annotator" in n]
    assert note == [f"1 item declined by every annotator: kept as unknown, at its place "
                    f"({_D2[shape]}); the unknown-grade convention decides its gain"]
    assert note[0] in said
    assert report["candidates"] == 4
    assert sum(report["table_rows"]["skipped"].values()) == len(report["skipped"]) \
        == (2 if shape != "argilla 2.x" else 1)
    assert report["table_rows"]["ungraded"] == 0
    assert f"{_ZERO:.4f}" == "0.9639"
    assert _ndcg(out, "zero") == "0.9639"
    assert _ndcg(out, "condensed") == "1.0000"
    default = _ndcg(out, "unresolved")
    assert "q      unresolved  3/4     [0.9639, 1.0000]" in default


def test_keep_skipped_reads_the_declined_rows_as_before(tmp_path: Path) -> None:
    """``--keep skipped`` imports the declined rows as judgments (their
    filled values read as grades, as it did): the item's one value filled
    before the discard, 2, is its grade, and nothing is said kept."""
    _said, report, rows, _out = _import("argilla 1.x", tmp_path, "--keep", "skipped")
    got = {r["source_id"]: (r["grade_u1"], r["grade_u2"], r["state"]) for r in rows}
    assert got["d2"] == ("2", "", "number")
    assert not any("declined by every annotator" in n for n in report["notes"])


def test_an_item_every_annotator_declined_is_kept_without_a_ranking_too(tmp_path: Path) -> None:
    """Without a rank (judgments only, the order no ranking) the item is
    kept all the same, for the same accounting: four candidates, its grade
    unknown, the report counting it (it was three candidates)."""
    path, out, report = tmp_path / "export.jsonl", tmp_path / "o.csv", tmp_path / "r.json"
    _argilla_v1(path, _ITEMS)
    lines = [json.loads(line) for line in path.read_text("utf-8").splitlines()]
    path.write_text("".join(json.dumps({k: v for k, v in line.items() if k != "rank"}) + "\n"
                            for line in lines), encoding="utf-8")
    code, _said, err = _run(["import", str(path), "-o", str(out), "--report", str(report)])
    assert code == 0, err
    with open(out, newline="", encoding="utf-8") as fh:
        got = [(r["source_id"], r["score"], r["grade"], r["state"]) for r in csv.DictReader(fh)]
    assert got == [("d1", "", "3", "number"), ("d2", "", "", "unknown"),
                   ("d3", "", "1", "number"), ("d4", "", "0", "number")]
    notes = json.loads(report.read_text("utf-8"))["notes"]
    assert sum("1 item declined by every annotator: kept as unknown" in n for n in notes) == 1


#: Argilla's response statuses (its ``ResponseStatus``: draft, submitted,
#: discarded): u2's grade of d1 and both grades of d2 saved as drafts.
_DRAFTS: list[Item] = [
    ("d1", 1, [("u1", 3, "submitted"), ("u2", 1, "draft")]),
    ("d2", 2, [("u1", 2, "draft"), ("u2", 2, "draft")]),
    ("d3", 3, [("u1", 1, "submitted"), ("u2", 1, "submitted")]),
    ("d4", 4, [("u1", 0, "submitted"), ("u2", 0, "submitted")]),
]


@pytest.mark.parametrize("version", ["1.x", "2.x"])
def test_an_argilla_draft_is_pending_not_a_grade(tmp_path: Path, version: str) -> None:
    """A response saved as a draft is not the annotator's judgment yet: no
    grade of theirs (d1's mean was 2, u2's draft 1 read; d2 graded 2 from
    two drafts), the row skipped and counted as a draft (``--keep draft``
    reads it), an item with drafts alone kept at its place, unknown."""
    said, report, rows, out = _import(f"argilla {version}", tmp_path, items=_DRAFTS)
    got = [(r["source_id"], r["grade_u1"], r["grade_u2"], r["grade"], r["state"]) for r in rows]
    assert got == [("d1", "3", "", "3", "number"), ("d2", "", "", "", "unknown"),
                   ("d3", "1", "1", "1", "number"), ("d4", "0", "0", "0", "number")]
    column = "relevance.status" if version == "1.x" else "relevance.responses.status"
    draft = "a draft response, saved and not submitted, no judgment yet"
    assert [(s["row"], s["reason"]) for s in report["skipped"]] == [
        (r, f"{draft}: {column} is 'draft'") for r in (1, 2, 2)]  # (u2's of d1, both of d2)
    assert report["excluded"] == {"draft": 3}
    assert "skipped: 3 draft (pass --keep draft to import them)" in said
    note = ("1 item with draft responses alone (saved, not submitted: pending): kept as "
            "unknown, at its place (line 2); the unknown-grade convention decides its gain")
    assert note in report["notes"]
    assert note in said
    assert _ndcg(out, "zero") == "0.9639"  # (3, ?, 1, 0 as above)
    _said, report, rows, _out = _import(f"argilla {version}", tmp_path, "--keep", "draft",
                                        items=_DRAFTS)
    assert [r["grade"] for r in rows] == ["2", "2", "1", "0"]  # (read all the same)


def test_a_document_s_own_status_draft_marks_nothing(tmp_path: Path) -> None:
    """``draft`` marks a row only among a form's response statuses (beside
    ``submitted`` or ``discarded``): a document's own status (draft /
    published) is no platform's mark, every row imported."""
    sheet = tmp_path / "judged.csv"
    sheet.write_text("query,doc_id,doc_status,annotator,relevance\n" + "".join(
        f"q,d{d},{'draft' if d % 2 else 'published'},{who},{(d + k) % 4}\n"
        for d in range(4) for k, who in enumerate(("ana", "ben"))), encoding="utf-8")
    out, report = tmp_path / "o.csv", tmp_path / "r.json"
    code, _said, err = _run(["import", str(sheet), "-o", str(out), "--report", str(report)])
    assert code == 0, err
    got = json.loads(report.read_text("utf-8"))
    assert (got["skipped"], got["excluded"], got["imported"]) == ([], {}, 8)


def test_an_item_judged_only_in_rejected_work_stays_at_its_rank(tmp_path: Path) -> None:
    """Mechanical Turk's batch results: both assignments of d2's HIT
    rejected. The item is kept at its rank (read from the CSV's text, the
    rejected rows' own), unknown, said so; it gave no candidate (3)."""
    sheet = tmp_path / "Batch_4711_batch_results.csv"
    lines = ["HITId,AssignmentId,WorkerId,AssignmentStatus,Input.query,Input.doc,Input.rank,"
             "Answer.relevance"]
    k = 0
    for d, rank, rs in _ITEMS:
        for u, v, s in rs:
            k += 1
            status = "Rejected" if s == "discarded" else "Approved"
            lines.append(f"H{rank},A{k},W{u},{status},q,{d},{rank},{v if v is not None else 2}")
    sheet.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out, report = tmp_path / "o.csv", tmp_path / "r.json"
    code, said, err = _run(["import", str(sheet), "-o", str(out), "--report", str(report)])
    assert code == 0, err
    with open(out, newline="", encoding="utf-8") as fh:
        got = [(r["source_id"], r["score"], r["grade"], r["state"]) for r in csv.DictReader(fh)]
    assert got == [("d1", "-1", "3", "number"), ("d2", "-2", "", "unknown"),
                   ("d3", "-3", "1", "number"), ("d4", "-4", "0", "number")]
    note = ("1 item judged only in work the platform rejected: kept as unknown, at its place "
            "(row 4); the unknown-grade convention decides its gain")
    assert note in json.loads(report.read_text("utf-8"))["notes"]
    assert note in said
    assert _ndcg(out, "zero") == "0.9639"


def test_a_survey_s_items_judged_only_by_spam_are_kept_and_said_by_the_file_s_rows(
        tmp_path: Path) -> None:
    """A Qualtrics export (one row per respondent, the items its columns)
    whose every response is ``Status = Spam``: the six items are kept,
    unknown, and the note names the file's row (4, the first response's),
    not a reshaped table's (one row per respondent and item)."""
    data = Path(__file__).parent / "data" / "annotators" / "qualtrics_export.csv"
    with open(data, newline="", encoding="utf-8") as fh:
        table = list(csv.reader(fh))
    status = table[0].index("Status")
    for row in table[3:]:
        row[status] = "Spam"
    sheet = tmp_path / "survey.csv"
    with open(sheet, "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows(table)
    out, report = tmp_path / "o.csv", tmp_path / "r.json"
    code, _said, err = _run(["import", str(sheet), "-o", str(out), "--report", str(report)])
    assert code == 0, err
    with open(out, newline="", encoding="utf-8") as fh:
        assert [r["state"] for r in csv.DictReader(fh)] == ["unknown"] * 6
    assert ("6 items judged only in work the platform rejected: kept as unknown, at their "
            "places (row 4); the unknown-grade convention decides their gains"
            ) in json.loads(report.read_text("utf-8"))["notes"]


@pytest.mark.parametrize("shape", list(_SHAPES))
def test_an_item_declined_by_all_whose_rank_is_no_number_is_said(shape: str, tmp_path: Path,
                                                                   ) -> None:
    """The declined item's rank ``n/a``: it is kept with no rank (an
    unranked candidate) and one line says so, naming the row, the column and
    the value (it was kept unranked in silence; a judged row's ``n/a``
    rejects its row)."""
    items = [_ITEMS[0], ("d2", "n/a", _ITEMS[1][2]), *_ITEMS[2:]]
    said, report, rows, _ = _import(shape, tmp_path, items=items)
    got = [(r["source_id"], r["score"], r["state"]) for r in rows]
    assert got == [("d1", "-1", "number"), ("d2", "", "unknown"), ("d3", "-3", "number"),
                   ("d4", "-4", "number")]
    column = {"prodigy": "meta.rank", "label studio": "data.rank"}.get(shape, "rank")
    note = (f"{_D2[shape]}, column {column!r}: 'n/a' is not a number; the item declined by every "
            "annotator is kept with no rank: an unranked candidate, outside the ranked list "
            "(give it its number in the sheet to rank it)")
    assert note in report["notes"]
    assert note in said


@pytest.mark.parametrize("version", ["1.x", "2.x"])
def test_an_argilla_export_of_drafts_alone_imports_no_grade(tmp_path: Path, version: str) -> None:
    """Every response exported still a draft (the column's statuses
    ``draft`` alone, no ``submitted`` beside it): the header names a
    response's status (``relevance.status``, ``relevance.responses.status``),
    so each is a draft as among submitted ones, no grade read (they were
    imported as grades, d1's mean 2), every item kept at its place, unknown."""
    items: list[Item] = [(d, r, [("u1", g, "draft"), ("u2", 1, "draft")])
                         for d, r, g in (("d1", 1, 3), ("d2", 2, 2), ("d3", 3, 0))]
    said, report, rows, _out = _import(f"argilla {version}", tmp_path, items=items)
    assert [(r["source_id"], r["score"], r["grade"], r["state"]) for r in rows] == [
        ("d1", "-1", "", "unknown"), ("d2", "-2", "", "unknown"), ("d3", "-3", "", "unknown")]
    assert report["excluded"] == {"draft": 6}
    assert ("3 items with draft responses alone (saved, not submitted: pending): kept as "
            "unknown, at their places (lines 1, 2, 3)") in said  # (a record a line)


def test_an_item_declined_by_all_without_a_rank_is_said_unranked(tmp_path: Path) -> None:
    """An item every annotator declined whose rows hold no rank (``n/a``)
    is kept, unknown, but has no place among the ranked: the note says it
    is unranked, where it said 'at its place (row 4)' of an item the
    evaluation leaves out of the ranking (d1, d3, d4 at ranks 1-3: 1.0)."""
    sheet = tmp_path / "judged.csv"
    sheet.write_text("query,doc,rank,annotator,grade,status\n" + "".join(
        f"q,d{d},{rank},{who},{grade},{status}\n"
        for d, rank, grade, status in ((1, "1", "3", "submitted"), (2, "n/a", "", "discarded"),
                                       (3, "3", "1", "submitted"), (4, "4", "0", "submitted"))
        for who in ("u1", "u2")), encoding="utf-8")
    out, report = tmp_path / "o.csv", tmp_path / "r.json"
    code, said, err = _run(["import", str(sheet), "-o", str(out), "--report", str(report)])
    assert code == 0, err
    with open(out, newline="", encoding="utf-8") as fh:
        assert [(r["source_id"], r["score"], r["state"]) for r in csv.DictReader(fh)] == [
            ("d1", "-1", "number"), ("d2", "", "unknown"), ("d3", "-3", "number"),
            ("d4", "-4", "number")]
    note = ("1 item declined by every annotator: kept as unknown, unranked (row 4: rank holds "
            "no number); the unknown-grade convention decides its gain")
    assert note in json.loads(report.read_text("utf-8"))["notes"]
    assert note in said
