"""Two tools' exports whose columns were guessed wrongly (found by a
property run): Label Studio's with two model predictions a task (the
annotator column not found, every annotation refused as a repeat), and
Prodigy's choice task whose answers are ``accept`` and ``ignore`` alone
(``answer`` taken as the grade column, refused as labels on no known
scale). Each file written here in the shape the tool's export gives it."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from app.cli.main import main
from core.errors import InputError
from core.io.annotator import import_annotations
from core.model.conventions import Rubric

_LABELS = ["Not relevant", "Somewhat relevant", "Relevant", "Highly relevant"]


def _label_studio(path: Path, grades: dict[str, list[int | None]], *,
                  predictions: int, predicted: int | None = None,
                  queries: dict[str, str] | None = None) -> None:
    """A Label Studio JSON export: a task per document of query ``q``, an
    annotation by ana and by ben (None: cancelled, its result empty), and
    ``predictions`` model predictions a task (each a model's choice and
    score: no one's judgment), on the first ``predicted`` tasks only (None:
    on every one); each document's query ``queries`` says (``q`` by
    default)."""
    tasks: list[dict[str, Any]] = []
    n = 0
    for k, (doc, given) in enumerate(grades.items()):
        annotations = []
        for who, g in zip(("ana", "ben"), given, strict=True):
            n += 1
            annotations.append({
                "id": n, "completed_by": {"id": 1 + len(who) * (who == "ben"),
                                          "email": f"{who}@lab.example"},
                "result": [] if g is None else [{
                    "value": {"choices": [_LABELS[g]]}, "id": f"r{n}",
                    "from_name": "relevance", "to_name": "text", "type": "choices"}],
                "was_cancelled": g is None, "ground_truth": False, "task": k + 1})
        tasks.append({
            "id": k + 1, "annotations": annotations, "drafts": [],
            "predictions": [{"id": 3000 + 2 * k + m, "model_version": f"ranker-v{m + 1}",
                             "score": 0.9 - 0.1 * k - 0.01 * m, "result": [{
                                 "value": {"choices": [_LABELS[m]]}, "from_name": "relevance",
                                 "to_name": "text", "type": "choices"}], "task": k + 1}
                            for m in range(predictions if predicted is None or k < predicted
                                           else 0)],
            "data": {"query": (queries or {}).get(doc, "q"), "doc": doc},
            "total_predictions": predictions})
    path.write_text(json.dumps(tasks, indent=1), encoding="utf-8")


def test_label_studio_two_predictions_a_task_read_the_annotators(tmp_path: Path):
    """Two predictions a task give rows of their own naming no one (each a
    model's choice): who judged is read from ``completed_by`` on the rows
    naming someone (it was found on none: 0.75 of the rows filled, each
    task's two prediction rows a repeated (item, no one) pair, and every
    annotation refused as the item listed again). The predictions are no
    grade and no annotator: left out, their rows counted as a model's."""
    path = tmp_path / "project.json"
    grades: dict[str, list[int | None]] = {
        "d1": [3, 2], "d2": [0, 1], "d3": [1, None], "d4": [2, 2]}
    _label_studio(path, grades, predictions=2)
    result = import_annotations(path)
    doc, report = result.document, result.report
    assert report.mapping is not None
    assert report.mapping.annotator is not None
    assert report.column_names[report.mapping.annotator] == "annotations.completed_by.email"
    assert doc.annotators == ["ana@lab.example", "ben@lab.example"]
    assert report.rejected_judgments == []
    assert (report.judgments_read, report.judgments_imported) == (7, 7)
    # each task's two predictions: rows of no grade, a model's, said so
    assert report.rows_predicted == 8
    assert report.predicted_columns == ["predictions.result.value.choices"]
    got = {str(s): [None if np.isnan(x) else float(x) for x in row]
           for s, row in zip(doc.source_id, doc.ratings, strict=True)}
    assert got == {"d1": [3.0, 2.0], "d2": [0.0, 1.0], "d3": [1.0, None], "d4": [2.0, 2.0]}
    # the models' choices (Not relevant, Somewhat relevant) are no grade of anyone's
    assert doc.ratings.shape == (4, 2)


def test_label_studio_predictions_of_the_first_task_alone_are_no_legend(tmp_path: Path):
    """A model's two predictions of the first task alone fill their columns
    on two rows near the top, the rest blank: in a JSON export every row is
    a record, never a legend (the predictions' ids and model versions were
    read as a legend '3000=ranker-v1,3001=ranker-v2' that the labels were
    not on, and the import refused, exit 2; their choices, Not relevant /
    Somewhat relevant, as a legend of labels lacking Highly relevant)."""
    path = tmp_path / "project.json"
    grades: dict[str, list[int | None]] = {
        "d1": [3, 2], "d2": [0, 1], "d3": [1, None], "d4": [2, 2]}
    _label_studio(path, grades, predictions=2, predicted=1)
    result = import_annotations(path)
    doc, report = result.document, result.report
    assert report.vocabulary is None
    assert doc.annotators == ["ana@lab.example", "ben@lab.example"]
    assert (report.judgments_read, report.judgments_imported) == (7, 7)
    assert report.rows_predicted == 2
    got = {str(s): [None if np.isnan(x) else float(x) for x in row]
           for s, row in zip(doc.source_id, doc.ratings, strict=True)}
    assert got == {"d1": [3.0, 2.0], "d2": [0.0, 1.0], "d3": [1.0, None], "d4": [2.0, 2.0]}


def test_label_studio_was_cancelled_on_one_querys_tasks_is_no_querys_text(tmp_path: Path):
    """Every annotation of q2's tasks cancelled, none of q1's: the
    ``was_cancelled`` column (false on q1's rows, true on q2's) is one to
    one with the query, yet a true/false flag, never its text. It was read
    as the query's text ('True', 'False' shown beside the ids) and so not as
    the flag: the cancelled rows counted as rows of no grade, not skipped,
    and q2's tasks lost why they are unknown."""
    path = tmp_path / "project.json"
    grades: dict[str, list[int | None]] = {
        "d1": [3, 2], "d2": [0, 1], "d3": [None, None], "d4": [None, None]}
    _label_studio(path, grades, predictions=0, queries={"d3": "q2", "d4": "q2"})
    result = import_annotations(path)
    doc, report = result.document, result.report
    assert report.mapping is not None
    assert report.mapping.query_text is None
    assert doc.query_texts == {}
    assert report.excluded == {"cancelled": 4}
    assert (report.judgments_read, report.judgments_imported) == (4, 4)
    assert doc.source_id.tolist() == ["d1", "d2", "d3", "d4"]
    assert doc.state.tolist() == [0, 0, 1, 1]
    assert doc.reason.tolist() == ["", "", "declined by 2 annotators",
                                   "declined by 2 annotators"]


def _prodigy(path: Path, answers: list[tuple[str, str, int | str | None]],
             queries: dict[str, str] | None = None, *, annotator_ids: bool = True) -> None:
    """Prodigy's ``db-out`` of a choice task (the ``choice`` interface): a
    line per answer, the task's ``options`` (id, text), ``accept`` the ids
    selected, ``answer`` the annotator's decision on the task (accept;
    ignore, None: skipped, nothing selected; or the answer given, nothing
    selected: ``reject``), the hashes Prodigy writes; each document's
    query ``queries`` says (``q`` by default); the annotator's named
    session in ``_session_id`` and, unless not ``annotator_ids`` (Prodigy
    before 1.11), ``_annotator_id``."""
    options = [{"id": g, "text": t} for g, t in enumerate(_LABELS)]
    with open(path, "w", encoding="utf-8") as fh:
        for doc, who, g in answers:
            fh.write(json.dumps({
                "query": (queries or {}).get(doc, "q"), "doc_id": doc,
                "text": f"Passage {doc}.", "options": options,
                "accept": [g] if isinstance(g, int) else [],
                "answer": "ignore" if g is None else g if isinstance(g, str) else "accept",
                "_input_hash": int(doc[1:]), "_task_hash": 1000 + int(doc[1:]),
                "_view_id": "choice", **({"_annotator_id": f"relevance-{who}"}
                                         if annotator_ids else {}),
                "_session_id": f"relevance-{who}"}) + "\n")


def test_prodigy_choice_answers_accept_and_ignore_alone_grade_by_the_choice(tmp_path: Path):
    """A choice task whose answers are ``accept`` and ``ignore`` alone: the
    grade is the option selected (``accept``), never the answer (it was
    taken for the grade column, refused: "labels on no known scale:
    'accept'"; ``_input_hash`` 0..3 read as grades too, so the choice's
    column did not win); without --map or --rubric."""
    path = tmp_path / "db-out.jsonl"
    _prodigy(path, [("d1", "u1", 3), ("d1", "u2", 3), ("d2", "u1", None), ("d2", "u2", None),
                    ("d3", "u1", 1), ("d3", "u2", 1), ("d4", "u1", 0), ("d4", "u2", 0)])
    result = import_annotations(path)
    report = result.report
    assert report.mapping is not None
    assert report.mapping.grade is not None
    assert report.column_names[report.mapping.grade] == "accept"
    assert report.rejected_judgments == []
    assert (report.judgments_read, report.judgments_imported) == (6, 6)
    assert report.excluded == {"skipped": 2}
    got = {str(s): g for s, g in zip(result.document.source_id, result.document.grade.tolist(),
                                     strict=True)}
    # the labels on the known scale the options list whole: Relevant, chosen
    # by no one, is a level all the same (read from the labels chosen, the
    # scale was 0-2 and Highly relevant 2)
    assert "rubric: 0=Not relevant,1=Somewhat relevant,2=Relevant,3=Highly relevant" \
        in report.notes
    assert report.scale == (
        "the scale not relevant / somewhat relevant / relevant / highly relevant, as the "
        "sheet's legend (options, the choices each record lists: Not relevant / Somewhat "
        "relevant / Relevant / Highly relevant, no grades) lists its levels")
    assert {s: g for s, g in got.items() if s != "d2"} == {"d1": 3.0, "d3": 1.0, "d4": 0.0}
    assert np.isnan(got["d2"])  # declined by both: kept, its grade unknown


def test_prodigy_answers_one_per_query_are_no_query_text(tmp_path: Path):
    """A query whose every task was ignored or declined beside one whose
    every task was accepted: ``answer`` (accept / ignore / reject) holds
    one value per query, but marks rows, never the query's text (it was
    read as the text, shown beside the query's id, and the tasks ignored or
    declined were rows of no grade, 'unknown grades', not skipped: drawn
    by tests/platformgen_json.prodigy_jsonl)."""
    path = tmp_path / "db-out.jsonl"
    _prodigy(path, [("d1", "u1", 3), ("d1", "u2", 3), ("d2", "u1", 0), ("d2", "u2", 1),
                    ("d3", "u1", None), ("d3", "u2", "reject"), ("d4", "u1", "reject"),
                    ("d4", "u2", None)], queries={"d3": "q2", "d4": "q2"})
    result = import_annotations(path)
    report, doc = result.report, result.document
    assert report.mapping is not None
    assert report.mapping.query_text is None
    assert report.column_names[report.mapping.grade] == "accept"
    assert (report.judgments_read, report.judgments_imported) == (4, 4)
    assert report.excluded == {"skipped": 4}
    assert doc.query_texts == {}
    got = {str(s): [None if np.isnan(x) else float(x) for x in row]
           for s, row in zip(doc.source_id, doc.ratings, strict=True)}
    assert got == {"d1": [3.0, 3.0], "d2": [0.0, 1.0], "d3": [None, None], "d4": [None, None]}


def test_prodigy_binary_task_s_label_is_the_question_its_answer_the_grade(tmp_path: Path):
    """A binary classification task (``classification``: the task's
    ``label``, RELEVANT on every line, and the answer accept / reject):
    the answer is the grade (by the rubric), ignore a task skipped, the
    label the question asked, no grade (``label`` was the grade column by
    its name: refused as 'labels on no known scale: RELEVANT', and where
    the teach recipe's score was beside it every row was skipped, reject
    read as declined: drawn by tests/platformgen_json.prodigy_jsonl)."""
    path = tmp_path / "db-out.jsonl"
    answers = [("d1", "u1", "accept"), ("d1", "u2", "accept"), ("d2", "u1", "reject"),
               ("d2", "u2", "ignore"), ("d3", "u1", "reject"), ("d3", "u2", "accept")]
    path.write_text("".join(json.dumps({
        "text": f"Passage {doc}.", "label": "RELEVANT", "meta": {"query": "q", "doc_id": doc},
        "_input_hash": 7919 * int(doc[1:]), "_task_hash": -104729 * int(doc[1:]),
        "answer": answer, "_view_id": "classification", "_timestamp": 1709800000 + 60 * k,
        "_annotator_id": f"relevance-{who}", "_session_id": f"relevance-{who}"}) + "\n"
        for k, (doc, who, answer) in enumerate(answers)), encoding="utf-8")
    result = import_annotations(path, rubric=Rubric.parse("0=reject,1=accept"))
    report, doc = result.report, result.document
    assert report.mapping is not None
    assert report.column_names[report.mapping.grade] == "answer"
    assert (report.judgments_read, report.judgments_imported) == (5, 5)
    assert report.excluded == {"skipped": 1}
    got = {str(s): [None if np.isnan(x) else float(x) for x in row]
           for s, row in zip(doc.source_id, doc.ratings, strict=True)}
    assert got == {"d1": [1.0, 1.0], "d2": [0.0, None], "d3": [0.0, 1.0]}


@pytest.mark.parametrize("answers", [
    # every task given the same choice: one label on every row
    [("d1", "u1", 0), ("d1", "u2", 0), ("d2", "u1", 0), ("d2", "u2", None),
     ("d3", "u1", 0), ("d3", "u2", 0)],
    # three choices, each once, on the first rows: no legend of the scale
    [("d1", "u1", 3), ("d2", "u1", 1), ("d3", "u1", 0), ("d1", "u2", None),
     ("d2", "u2", None), ("d3", "u2", None)],
    # the top choice alone, most tasks ignored: the options listed give the
    # scale (Highly relevant was 2, of the known 3-level scale the one label
    # fills best, where the records list 4 levels)
    [("d1", "u1", 3), ("d1", "u2", 3), ("d2", "u1", None), ("d2", "u2", None),
     ("d3", "u1", None), ("d3", "u2", None)],
], ids=["one choice", "three choices on rows 2-4", "the top choice alone"])
def test_prodigy_choices_few_or_one_are_the_grades(tmp_path: Path,
                                                   answers: list[tuple[str, str, int | None]]):
    """The options chosen (``accept``) are the grades however few they are:
    one label chosen on every task, or three labels each once on the first
    rows (``answer``, accept / ignore, stayed the grade column, refused as
    'labels on no known scale: accept': the one label was no column of
    grades, the three were read as a legend of the scale in rows 2-4 of
    ``accept``; drawn by tests/platformgen_json.prodigy_jsonl)."""
    path = tmp_path / "db-out.jsonl"
    _prodigy(path, list(answers))
    result = import_annotations(path)
    report, doc = result.report, result.document
    assert report.mapping is not None
    assert report.column_names[report.mapping.grade] == "accept"
    given = [(d, g) for d, _, g in answers if g is not None]
    assert (report.judgments_read, report.judgments_imported) == (len(given), len(given))
    assert report.excluded == {"skipped": len(answers) - len(given)}
    got = {str(s): g for s, g in zip(doc.source_id, doc.grade.tolist(), strict=True)}
    want = {d: [float(g) for e, g in given if e == d] for d, _, _ in answers}
    assert {s: g for s, g in got.items() if not np.isnan(g)} == {
        d: sum(g) / len(g) for d, g in want.items() if g}
    assert all(np.isnan(got[d]) for d, g in want.items() if not g)


def test_prodigy_sessions_few_judged_twice_are_named_by_the_refusal(tmp_path: Path):
    """Prodigy before 1.11 (``_session_id`` alone) where one task of six
    was judged twice: the sessions are too few to read as who judged
    (unasked), so ben's line of d2 is d2 listed again, refused; the
    refusal names ``_session_id`` and the ``--map`` that takes it, in one
    line (it said only "pass --allow-rejected", which drops ben's
    judgment), and the import with that flag reads both people's grades
    (drawn by tests/platformgen_json.prodigy_jsonl: few overlaps)."""
    path = tmp_path / "db-out.jsonl"
    _prodigy(path, [("d1", "ana", 2), ("d2", "ana", 1), ("d3", "ana", 3), ("d4", "ana", 0),
                    ("d5", "ana", 1), ("d6", "ana", 2), ("d2", "ben", 2), ("d5", "ben", None)],
             {"d1": "q1", "d2": "q1", "d3": "q1", "d4": "q2", "d5": "q2", "d6": "q2"},
             annotator_ids=False)
    out = tmp_path / "out.csv"
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        assert main(["import", str(path), "-o", str(out)], io.StringIO()) == 2
    (said,) = err.getvalue().splitlines()  # (ben's d2 on line 7, ana's on line 2)
    assert said.startswith(
        f"ndcg-worksheet: error: {path}, line 7, column 'doc_id': 1 of the 7 judgments read was "
        "rejected, so nothing was written; the first: query 'q1' lists 'd2' again (first on "
        "line 2); "), said
    assert said.endswith(
        "the first row is kept (pass --map annotator=_session_id if I (_session_id) names who "
        "judged each row (an item's rows then its judgments), or pass --allow-rejected to "
        "import the other 6 without it, or fix the sheet; pass --report REPORT.json for the "
        "list)"), said
    assert main(["import", str(path), "-o", str(out), "--map", "annotator=_session_id"],
                io.StringIO()) == 0
    lines = out.read_text("utf-8").splitlines()
    assert [line.split(",")[:2] + line.split(",")[-2:] for line in lines] == [
        ["query", "source_id", "grade_relevance-ana", "grade_relevance-ben"],
        ["q1", "d1", "2", ""], ["q1", "d2", "1", "2"], ["q1", "d3", "3", ""],
        ["q2", "d4", "0", ""], ["q2", "d5", "1", ""], ["q2", "d6", "2", ""]]


def _binary(path: Path, answers: list[tuple[str, str, str]]) -> None:
    """Prodigy's ``db-out`` of a binary classification task (the
    ``classification`` interface): a line per answer, the task's ``label``
    and the answer (accept, reject, ignore) to it."""
    with open(path, "w", encoding="utf-8") as fh:
        for doc, who, answer in answers:
            fh.write(json.dumps({
                "text": f"Passage {doc}.", "label": "RELEVANT",
                "meta": {"query": "q", "doc_id": doc}, "_input_hash": int(doc[1:]),
                "_task_hash": 1000 + int(doc[1:]), "answer": answer,
                "_view_id": "classification", "_annotator_id": f"relevance-{who}",
                "_session_id": f"relevance-{who}"}) + "\n")


def test_prodigy_answers_no_rule_reads_raise_from_the_api_as_the_command_line_refuses(
        tmp_path: Path):
    """A binary task's answers, most tasks ignored, imported without the
    rubric that grades accept and reject: no judgment stands. The
    command line refuses it in one line; import_annotations raised
    nothing and returned a document of unknown grades, every judgment
    'rejected' (drawn by tests/platformgen_json.prodigy_jsonl, mostly
    ignored). Now it raises the same InputError, naming the file, the
    first rejected line and its field; with the rubric, the grades."""
    path = tmp_path / "db-out.jsonl"
    _binary(path, [("d1", "ana", "accept"), ("d2", "ana", "ignore"), ("d3", "ana", "reject"),
                   ("d1", "ben", "ignore"), ("d2", "ben", "ignore"), ("d3", "ben", "accept")])
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        assert main(["import", str(path), "-o", str(tmp_path / "o.csv")], io.StringIO()) == 2
    with pytest.raises(InputError) as raised:
        import_annotations(path)
    said = ("labels on no known scale and not in the rubric: 'accept' (2 cells), 'reject' "
            "(1 cell) (give every label its grade with --rubric, e.g. --rubric "
            "\"N=accept,N=reject\"; or, for a label that says the item could not be judged "
            "(a paywall, a broken page), pass --unrateable \"LABEL\")")
    assert (raised.value.file, raised.value.column) == (str(path), "answer")
    assert str(raised.value).endswith(f", column 'answer': {said}")
    assert err.getvalue() == f"ndcg-worksheet: error: {raised.value}\n"
    doc = import_annotations(path, rubric=Rubric.parse("0=reject,1=accept")).document
    got = {str(s): [None if np.isnan(x) else float(x) for x in row]
           for s, row in zip(doc.source_id, doc.ratings, strict=True)}
    assert got == {"d1": [1.0, None], "d2": [None, None], "d3": [0.0, 1.0]}



def test_argilla_users_beside_pending_records_are_who_judged(tmp_path: Path):
    """Argilla 2.x's flattened records, every completed one answered by two
    users and 2 records of 6 pending (no response: rows naming no one, no
    grade, 2 of the 10): the users' column is who judged, its blanks the
    pending rows' (it was filled on 8 rows of 10, under the 9 a column
    naming people needed: not read, and every second response refused as
    the item listed again; drawn by tests/platformgen_json.argilla_jsonl,
    1 of 100 draws)."""
    path = tmp_path / "records.jsonl"
    users = ["0000387a-0000-4b7e-a1c2-000000010aee", "00004000-0001-4b7e-a1c2-000000000bb1"]
    grades = {"d1": [0, 2], "d2": [1, 1], "d3": [2, 1], "d4": [3, 0], "d5": [], "d6": []}
    with open(path, "w", encoding="utf-8") as fh:
        for k, (d, given) in enumerate(grades.items()):
            fh.write(json.dumps({
                "id": f"rec-{k:03d}", "status": "completed" if given else "pending",
                "query": "q1" if k < 3 else "q2", "document": d,
                "relevance.responses": given, "relevance.responses.users": users[:len(given)],
                "relevance.responses.status": ["submitted"] * len(given)}) + "\n")
    result = import_annotations(path)
    report, doc = result.report, result.document
    assert report.mapping is not None
    assert report.mapping.annotator is not None
    assert report.column_names[report.mapping.annotator] == "relevance.responses.users"
    assert not report.duplicates
    got = {str(s): [None if np.isnan(x) else float(x) for x in row]
           for s, row in zip(doc.source_id, doc.ratings, strict=True)}
    assert got == {"d1": [0.0, 2.0], "d2": [1.0, 1.0], "d3": [2.0, 1.0], "d4": [3.0, 0.0],
                   "d5": [None, None], "d6": [None, None]}


def test_label_studio_comment_authors_are_no_note(tmp_path: Path):
    """A task's ``comment_authors`` (the ids of who commented on it, ana's
    1; its ``comment_count`` beside) names people, not a note: left out and
    accounted for, every note empty (it was read as the note column, each
    commented task's note ``(no name): 1; (no name): 1``: the prediction
    rows naming no one, the text their user id). The export holds no
    comment's text to read."""
    path = tmp_path / "project.json"
    _label_studio(path, {"d1": [3, 2], "d2": [0, 1], "d3": [1, 2], "d4": [2, 2]},
                  predictions=2)
    tasks = json.loads(path.read_text("utf-8"))
    for k, task in enumerate(tasks):
        task.update({"comment_count": int(k != 1), "comment_authors": [1] if k != 1 else []})
    path.write_text(json.dumps(tasks, indent=1), encoding="utf-8")
    result = import_annotations(path)
    report = result.report
    assert report.mapping is not None
    assert report.mapping.note is None, report.column_names
    assert set(result.document.note) == {""}
    authors = next(c for c in report.columns if c.header == "comment_authors")
    assert (authors.role, authors.reason) == (
        "", "comment_authors: the number 1 on 12 rows of 16, no role read from it; not imported")


def test_label_studio_count_of_predictions_is_no_ranking(tmp_path: Path):
    """A task's ``total_predictions`` (3, 0, 1, 2, 1: each the number of its
    models' predictions) is a count of the task's prediction rows, told by
    its values beside them, not by its header's word: never offered as the
    ranking (it was 'if this is the ranking, pass --map
    score=total_predictions')."""
    path = tmp_path / "project.json"
    _label_studio(path, {"d1": [3, 2], "d2": [0, 1], "d3": [1, 2], "d4": [2, 2],
                         "d5": [1, 1]}, predictions=3)
    tasks = json.loads(path.read_text("utf-8"))
    for task, n in zip(tasks, [3, 0, 1, 2, 1], strict=True):
        task["predictions"] = task["predictions"][:n]
        task["total_predictions"] = n
    path.write_text(json.dumps(tasks, indent=1), encoding="utf-8")
    report = import_annotations(path).report
    counted = next(c for c in report.columns if c.header == "total_predictions")
    assert (counted.role, counted.flag, counted.reason) == (
        "", "", "total_predictions: numbers 0 to 3, one per item, each the number of the "
        "item's rows filling predictions.id (a count of them, no grade nor ranking); not "
        "imported")
