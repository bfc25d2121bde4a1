"""Files as platforms and spreadsheets really leave them: an export opened
in Excel or Google Sheets and saved as a workbook, a JSON export's own
numbers. Each written here in code, as the program that makes it does."""

from __future__ import annotations

import contextlib
import csv
import io
import json
from pathlib import Path

import pytest
from openpyxl import Workbook

from app.cli.main import main

#: Tweets' ids: 19 digits, more than a spreadsheet's number keeps.
TWEETS = [1734567890123456789 + k for k in range(6)]


def _batch(ids: list[object]) -> list[list[object]]:
    """A Mechanical Turk batch of two workers judging six tweets for two
    queries: header first."""
    rows: list[list[object]] = [["WorkerId", "Input.query", "Input.doc_id", "Answer.relevance"]]
    for w in ("A1X9QW2LMZ3K7P", "A2B7NC4RT8VE1D"):
        rows += [[w, "q1" if k < 3 else "q2", i, (k + len(w)) % 3] for k, i in enumerate(ids)]
    return rows


def _import(path: Path, out: Path) -> tuple[int, str]:
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code = main(["import", str(path), "-o", str(out)], io.StringIO())
    return code, err.getvalue()


def test_long_ids_saved_as_numbers_are_refused(tmp_path: Path) -> None:
    """A batch's CSV of tweet ids opened in Excel and saved as a workbook
    holds each id as a number of 15 digits (1.73456789012346e+18): the six
    ids are one. Refused in one line naming the cell and what to do; it
    was refused as 8 of 12 judgments graded again, the id shown garbled."""
    wb = Workbook()
    for row in _batch([float(f"{i:.15g}") for i in TWEETS]):  # as Excel stores them
        wb.active.append(row)
    path = tmp_path / "batch.xlsx"
    wb.save(path)
    code, err = _import(path, tmp_path / "o.csv")
    assert code == 2
    assert err == (
        f"ndcg-worksheet: error: {path}, sheet 'Sheet', row 2, column 'C (Input.doc_id)': the "
        "id 1.73456789012346e+18 is a number of more than 15 digits: a spreadsheet keeps 15 "
        "digits of a number, so ids stored as numbers this long have lost their last digits "
        "(two of them may now be one) (store the column as text: import the file the sheet was "
        "made from (a CSV), or format the column as Text before the ids are pasted in)\n")


def test_long_ids_as_text_are_read_exactly(tmp_path: Path) -> None:
    """The same batch as its CSV (ids as text), and as JSON Lines whose ids
    are JSON numbers: each id exact, six items (JSON's were made floats,
    1.7345678901234568e+18, the ids one: 8 of 12 judgments refused as
    graded again)."""
    path = tmp_path / "batch.csv"
    with open(path, "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows(_batch([str(i) for i in TWEETS]))
    lines = tmp_path / "batch.jsonl"
    header, *rows = _batch(list(TWEETS))
    lines.write_text("".join(json.dumps(dict(zip(header, r, strict=True))) + "\n"
                             for r in rows), encoding="utf-8")
    for sheet in (path, lines):
        out = tmp_path / "o.csv"
        code, err = _import(sheet, out)
        assert code == 0, err
        with open(out, newline="", encoding="utf-8") as fh:
            assert [r["source_id"] for r in csv.DictReader(fh)] == [str(i) for i in TWEETS]


#: Each item's two workers' grades (0-2), as the batch below answers them.
_GRADES = {("q1", "d1"): [1, 2], ("q1", "d2"): [0, 0], ("q2", "d3"): [2, 1], ("q2", "d4"): [1, 0]}
_LEVELS = ["Not relevant", "Somewhat relevant", "Highly relevant"]


def _task_answers(form: str) -> list[list[object]]:
    """A Mechanical Turk batch of a Crowd HTML form, its answers one JSON
    cell a row (``Answer.taskAnswers``): a crowd-classifier's label, or a
    radio group's choices true / false with a checkbox beside them."""
    rows: list[list[object]] = [["HITId", "AssignmentId", "WorkerId", "AssignmentStatus",
                                 "WorkTimeInSeconds", "Input.query", "Input.doc_id",
                                 "Answer.taskAnswers", "Approve", "Reject"]]
    for n, ((q, d), grades) in enumerate(_GRADES.items()):
        for w, grade in enumerate(grades):
            answer = ({"relevance": {"label": _LEVELS[grade]}} if form == "classifier" else
                      {"rel": {str(k): k == grade for k in range(3)},
                       "unsure": {"on": n == w}})
            rows.append([f"3HIT{n}", f"3ASG{n}{w}", ["A1X9QW2LMZ3K7P", "A2B7NC4RT8VE1D"][w],
                         "Submitted", 30 + n, q, d, json.dumps([answer]), "", ""])
    return rows


@pytest.mark.parametrize(("form", "grade", "left"), [
    ("classifier", "Answer.taskAnswers.relevance.label", []),
    ("radio", "Answer.taskAnswers.rel", ["Answer.taskAnswers.unsure.on"])])
def test_a_crowd_forms_json_answers_are_read_as_their_fields(
        tmp_path: Path, form: str, grade: str, left: list[str]) -> None:
    """A Crowd HTML form's batch holds each row's answers as JSON in one
    column, ``Answer.taskAnswers``: read as a column per answer, the grade
    among them (a radio group's choices one grade column, its checkbox left
    out). It was refused as 'no grade column found', HITId and
    Answer.taskAnswers each said to hold a few labels."""
    path = tmp_path / "batch.csv"
    with open(path, "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows(_task_answers(form))
    out, report = tmp_path / "o.csv", tmp_path / "r.json"
    assert main(["import", str(path), "-o", str(out), "--report", str(report)],
                io.StringIO()) == 0
    with open(out, newline="", encoding="utf-8") as fh:
        got = {(r["query"], r["source_id"]): [int(r["grade_A1X9QW2LMZ3K7P"]),
                                              int(r["grade_A2B7NC4RT8VE1D"])]
               for r in csv.DictReader(fh)}
    assert got == _GRADES
    data = json.loads(report.read_text("utf-8"))
    assert data["mapping"]["grade"] == grade
    assert [c["header"] for c in data["columns"] if c["header"] in left
            and c["role"] is None and "a checkbox beside the radio button" in c["reason"]] == left
    assert any(n.startswith("column H (Answer.taskAnswers): each row's answers as JSON, read "
                            f"as a column per answer beside it: H ({grade}") for n in data["notes"])
    # the answers beside their column, the file's columns after it moved
    # right, said so: the report's columns read in order (the answers after
    # the second were after the last column: choices in H, K and L)
    letters = {c["header"]: c["column"] for c in data["columns"]}
    if form == "radio":
        assert any(n.startswith("columns H-J (Answer.taskAnswers.rel.0 ... Answer."
                                "taskAnswers.rel.2): one answer per column") for n in data["notes"])
        assert any(n.endswith("K (Answer.taskAnswers.unsure.on); the file's columns I-J after "
                              "it are read as L-M") for n in data["notes"]), data["notes"]
        assert [letters[h] for h in (*left, "Approve", "Reject")] == ["K", "L", "M"]
    else:
        assert [letters[h] for h in ("Approve", "Reject")] == ["I", "J"]


def test_label_studio_csv_of_a_multiple_choice_control(tmp_path: Path) -> None:
    """Label Studio's CSV export writes a choice control that allows several
    answers as JSON, ``{"choices": ["Highly relevant"]}``: one choice is
    that label, read on its scale (it was refused as labels on no known
    scale, '{"choices": ["Somewhat relevant"]}' and two more)."""
    rows: list[list[object]] = [["annotation_id", "annotator", "created_at", "id", "lead_time",
                                 "query", "doc", "relevance", "updated_at"]]
    for k, ((q, d), grades) in enumerate(_GRADES.items()):
        for w, grade in enumerate(grades):
            rows.append([len(rows), w + 1, "2024-03-01T10:00:00.000000Z", k + 1, 3.5 + w, q, d,
                         json.dumps({"choices": [_LEVELS[grade]]}),
                         "2024-03-01T10:00:30.000000Z"])
    path = tmp_path / "project-3-at-2024-03-01.csv"
    with open(path, "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows(rows)
    out = tmp_path / "o.csv"
    code, err = _import(path, out)
    assert code == 0, err
    with open(out, newline="", encoding="utf-8") as fh:
        got = {(r["query"], r["source_id"]): [int(r["grade_1"]), int(r["grade_2"])]
               for r in csv.DictReader(fh)}
    assert got == _GRADES


def test_a_column_of_empty_json_objects_is_left_as_it_is(tmp_path: Path) -> None:
    """A column of ``{}`` on every row (an export's empty ``meta``) holds
    no answers: left as it is, the grades beside it imported (reading JSON
    answers raised a ValueError on it: no field to write)."""
    path = tmp_path / "export.csv"
    path.write_text("query,doc,relevance,meta\nq1,d1,2,{}\nq1,d2,0,{}\nq2,d3,1,{}\n",
                    encoding="utf-8")
    out = tmp_path / "o.csv"
    code, err = _import(path, out)
    assert code == 0, err
    with open(out, newline="", encoding="utf-8") as fh:
        assert [r["grade"] for r in csv.DictReader(fh)] == ["2", "0", "1"]
