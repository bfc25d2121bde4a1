"""A Label Studio task's annotations beside its model's predictions, in any
counts: each annotation is one row of its user's grade, each prediction a
row of its own (left out as a model's answer, counted), never a judgment
copied onto the other list's rows. One annotation beside two predictions
was copied onto both prediction rows and refused ("query 'q1' lists 'd1'
again"); one prediction beside two annotations was merged into their rows.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

from app.cli.main import main
from core.io.annotator.records import records_rows

LABELS = ["Not relevant", "Somewhat relevant", "Highly relevant"]


def _annotation(ann: int, user: int, grade: int) -> dict[str, Any]:
    return {"id": ann, "completed_by": user, "was_cancelled": False, "result": [
        {"from_name": "relevance", "to_name": "text", "type": "choices",
         "value": {"choices": [LABELS[grade]]}}]}


def _prediction(pid: int, model: int, grade: int, task: int) -> dict[str, Any]:
    return {"id": pid, "model_version": f"ranker-v{model}", "score": 0.5 + model / 10,
            "task": task,
            "result": [{"from_name": "relevance", "to_name": "text", "type": "choices",
                        "value": {"choices": [LABELS[grade]]}}]}


def _task(tid: int, doc: str, grades: list[int], predicted: list[int]) -> dict[str, Any]:
    return {"id": tid, "data": {"query": "q1", "doc": doc},
            "annotations": [_annotation(10 * tid + w, 7 + w, g) for w, g in enumerate(grades)],
            "predictions": [_prediction(100 * tid + m, m + 1, g, tid)
                            for m, g in enumerate(predicted)]}


#: 1 annotation + 2 predictions, 2 + 1, 3 + 3 (each prediction's choice
#: another grade than any annotator's, so a prediction read as a grade shows).
TASKS = [_task(1, "d1", [2], [0, 0]), _task(2, "d2", [1, 0], [2]),
         _task(3, "d3", [0, 2, 2], [1, 1, 1])]


def test_records_give_each_annotation_and_each_prediction_its_own_row() -> None:
    rows = records_rows(json.dumps(TASKS), "project.json")
    header, data = rows[0], rows[1:]
    grade = header.index("annotations.result.value.choices")
    predicted = header.index("predictions.result.value.choices")
    who = header.index("annotations.completed_by")
    got = [(r[header.index("data.doc")], r[who], r[grade], r[predicted]) for r in data]
    assert got == [
        ("d1", 7.0, "Highly relevant", None),
        ("d1", None, None, "Not relevant"), ("d1", None, None, "Not relevant"),
        ("d2", 7.0, "Somewhat relevant", None), ("d2", 8.0, "Not relevant", None),
        ("d2", None, None, "Highly relevant"),
        ("d3", 7.0, "Not relevant", None), ("d3", 8.0, "Highly relevant", None),
        ("d3", 9.0, "Highly relevant", None),
        ("d3", None, None, "Somewhat relevant"), ("d3", None, None, "Somewhat relevant"),
        ("d3", None, None, "Somewhat relevant")]


def _imported(tmp_path: Path, tasks: list[dict[str, Any]]) -> tuple[dict[str, Any], dict]:
    """Each imported candidate's annotators' grades, and the report."""
    path, out, report = tmp_path / "project.json", tmp_path / "out.csv", tmp_path / "r.json"
    path.write_text(json.dumps(tasks, indent=1), encoding="utf-8")
    err = io.StringIO()
    code = main(["import", str(path), "-o", str(out), "--report", str(report)], err)
    assert code == 0, err.getvalue()
    with out.open(newline="", encoding="utf-8") as fh:
        got = {r["source_id"]: {k: r[k] for k in r if k.startswith("grade_") and r[k]}
               for r in csv.DictReader(fh)}
    return got, json.loads(report.read_text("utf-8"))


def test_one_annotation_beside_two_predictions_is_imported(tmp_path: Path) -> None:
    got, data = _imported(tmp_path, TASKS)
    assert got == {"d1": {"grade_7": "2"}, "d2": {"grade_7": "1", "grade_8": "0"},
                   "d3": {"grade_7": "0", "grade_8": "2", "grade_9": "2"}}
    assert data["rows"] == {"read": 3, "imported": 3, "ungraded": 0, "skipped": {},
                            "rejected": 0, "blank": 0}, data["rows"]  # (its tasks)
    tally = data["table_rows"]  # (a row each annotation and prediction)
    assert (tally["read"], tally["imported"], tally["ungraded"]) == (12, 6, 6), tally
    assert data["rows_predicted"] == {"rows": 6, "columns": [
        "predictions.result.value.choices"]}, data["rows_predicted"]
    assert data["annotators"] == ["7", "8", "9"], data["annotators"]


def _declining(tid: int, query: str, doc: str, grade: int | None) -> dict[str, Any]:
    """A task annotator 7 grades (``grade``; None: declines), 8 declines,
    beside one prediction naming the task by its id."""
    annotations = [_annotation(10 * tid + w, 7 + w, 0) for w in range(2)]
    for a in annotations[0 if grade is None else 1:]:
        a.update(was_cancelled=True, result=[])
    if grade is not None:
        annotations[0]["result"][0]["value"]["choices"] = [LABELS[grade]]
    return {"id": tid, "data": {"query": query, "doc": doc}, "annotations": annotations,
            "predictions": [_prediction(100 * tid, 1, 0, tid)]}


def test_a_predictions_task_id_counting_its_rows_is_no_annotators_grades(
        tmp_path: Path) -> None:
    """One prediction a task of a small project numbering its tasks from 1:
    the predictions' rows hold ``predictions.task`` 1, 2, 3, 4, as a few
    rows of grades may; it is the model's, never an annotator's grades left
    unused (it was: '1 more column of grades like
    annotations.result.value.choices's is not used: predictions.task')."""
    tasks = [_declining(1, "q1", "d1", 0), _declining(2, "q1", "d2", 1),
             _declining(3, "q2", "d3", 2), _declining(4, "q2", "d4", None)]
    got, data = _imported(tmp_path, tasks)
    assert got == {"d1": {"grade_7": "0"}, "d2": {"grade_7": "1"}, "d3": {"grade_7": "2"},
                   "d4": {}}
    # the tasks: d4's two annotations declined beside its prediction, no grade
    assert (data["rows"]["read"], data["rows"]["imported"], data["rows"]["ungraded"]) == (
        4, 3, 1), data["rows"]
    tally = data["table_rows"]
    assert (tally["read"], tally["imported"], tally["ungraded"]) == (12, 3, 4), tally
    assert sum(tally["skipped"].values()) == 5, tally
    assert data["rows_predicted"] == {"rows": 4, "columns": [
        "predictions.result.value.choices"]}, data["rows_predicted"]
