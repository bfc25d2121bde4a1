"""Annotation tools' exports as the tools write them: a response the
annotator declined (Argilla's ``discarded``), who judged named by a
number (Label Studio's ``completed_by``). Each file written here in code,
in the shape the tool's own export code gives it."""

from __future__ import annotations

import contextlib
import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest

from app.cli.main import main

#: Two annotators' responses to six records: (user, value, status); the
#: second record's u2 filled a grade and then discarded the record, the
#: fourth's u1 discarded it with nothing filled.
_RESPONSES: list[tuple[str, str, list[tuple[str, int | None, str]]]] = [
    ("best budget phone", "phone-review", [("u1", 2, "submitted"), ("u2", 1, "submitted")]),
    ("best budget phone", "phone-news", [("u1", 0, "submitted"), ("u2", 3, "discarded")]),
    ("best budget phone", "phone-top10", [("u1", 3, "submitted"), ("u2", 2, "submitted")]),
    ("fix squeaky door", "hinge-oil", [("u1", None, "discarded"), ("u2", 2, "submitted")]),
    ("fix squeaky door", "door-shop", [("u1", 1, "submitted"), ("u2", 0, "submitted")]),
    ("fix squeaky door", "door-forum", [("u1", 2, "submitted"), ("u2", 1, "submitted")]),
]


def _argilla_v1(path: Path) -> None:
    """Argilla 1.x's ``FeedbackDataset.format_as("datasets")`` written as JSON
    Lines: a question's column a list of ``{user_id, value, status}``, its
    suggestion and the suggestion's metadata beside, ``external_id`` and
    ``metadata`` (a JSON text)."""
    with open(path, "w", encoding="utf-8") as fh:
        for q, d, rs in _RESPONSES:
            fh.write(json.dumps({
                "query": q, "document": d,
                "relevance": [{"user_id": u, "value": v, "status": s} for u, v, s in rs],
                "relevance-suggestion": None,
                "relevance-suggestion-metadata": {"type": None, "score": None, "agent": None},
                "external_id": None, "metadata": "{}"}) + "\n")


def _argilla_v2(path: Path) -> None:
    """Argilla 2.x's ``records.to_list(flatten=True)`` (its Hub and JSON
    export) as JSON Lines: the record's ``status``, the responses as lists
    side by side, ``relevance.responses.status`` among them. A discarded
    response holding no value is in no list (``Record.responses`` lists a
    user's answers only), so the fourth record has u2's alone."""
    with open(path, "w", encoding="utf-8") as fh:
        for k, (q, d, rs) in enumerate(_RESPONSES):
            given = [(u, v, s) for u, v, s in rs if v is not None]
            fh.write(json.dumps({
                "id": f"rec-{k:03d}", "status": "completed", "_server_id": f"5c1e-{k:04d}",
                "query": q, "document": d,
                "relevance.responses": [v for _, v, _ in given],
                "relevance.responses.users": [u for u, _, _ in given],
                "relevance.responses.status": [s for _, _, s in given]}) + "\n")


def _import(path: Path, tmp_path: Path, *extra: str) -> tuple[int, str, str, dict[str, Any],
                                                              list[dict[str, str]]]:
    out, report = tmp_path / "o.csv", tmp_path / "r.json"
    said, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err):
        code = main(["import", str(path), "-o", str(out), "--report", str(report), *extra],
                    said)
    if code:
        return code, said.getvalue(), err.getvalue(), {}, []
    with open(out, newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    return code, said.getvalue(), err.getvalue(), json.loads(report.read_text("utf-8")), rows


@pytest.mark.parametrize("version", ["1.x", "2.x"])
def test_an_argilla_response_discarded_is_declined_not_a_grade(tmp_path: Path,
                                                               version: str) -> None:
    """A response whose status is ``discarded`` is the annotator declining
    the record: no grade of theirs (the value filled before the discard,
    3, was imported as u2's grade; a discard with nothing filled was a
    blank grade, said as 'no judgment: unknown grades'), their grade of it
    unknown, the others' kept, and the report saying each declined row."""
    path = tmp_path / "relevance.jsonl"
    (_argilla_v1 if version == "1.x" else _argilla_v2)(path)
    code, said, err, report, rows = _import(path, tmp_path)
    assert code == 0, err
    got = {r["source_id"]: (r["grade_u1"], r["grade_u2"], r["grade"], r["state"]) for r in rows}
    assert got["phone-news"] == ("0", "", "0", "number")
    assert got["hinge-oil"] == ("", "2", "2", "number")
    assert got["phone-review"] == ("2", "1", "1.5", "number")
    column = "relevance.status" if version == "1.x" else "relevance.responses.status"
    declined = "a task the annotator skipped or declined, no judgment"
    skipped = [(s["row"], s["reason"]) for s in report["skipped"]]
    # (the file's lines: u2's discard of phone-news, u1's of hinge-oil, in no list in 2.x)
    assert skipped == ([(2, f"{declined}: {column} is 'discarded'"),
                        (4, f"{declined}: {column} is 'discarded'")] if version == "1.x"
                       else [(2, f"{declined}: {column} is 'discarded'")])
    assert report["table_rows"]["skipped"] == {f"{declined}: {column} is '…'": len(skipped)}
    assert report["table_rows"]["ungraded"] == 0  # (never a blank grade)
    assert "rows the platform marks as not judgments, skipped: " \
        f"{len(skipped)} skipped (pass --keep skipped to import them)" in said


#: Label Studio's users: id -> (email, first name, last name).
_USERS = {3: ("ana@lab.example", "Ana", "Lopez"), 7: ("ben@lab.example", "Ben", "Ng"),
          12: ("cara@lab.example", "Cara", "Diaz")}
_ITEMS = [("laptop for video editing", "reviews/creator"), ("laptop for video editing",
          "shop/gaming"), ("laptop for video editing", "forum/gpu"),
          ("best hiking boots", "blog/boots"), ("best hiking boots", "shop/boots")]
_LABELS = ["Irrelevant", "Partially relevant", "Relevant"]


def _grade(k: int, user: int) -> int:
    return (k + user) % 3


def _label_studio(path: Path, *, full: bool) -> None:
    """A Label Studio project's JSON export: a task a record, its
    ``annotations`` each with ``completed_by`` the user's id (``full``:
    the user as an object, ``id``, ``email``, ``first_name``,
    ``last_name``, as Label Studio 1.0's export and the API's
    ``completed_by=full`` write it), the annotation's bookkeeping
    (``updated_by``, ``lead_time``, ``task``) and the task's beside."""
    tasks, n = [], 500
    for k, (q, d) in enumerate(_ITEMS):
        annotations = []
        for user, (email, first, last) in _USERS.items():
            n += 1
            annotations.append({
                "id": n, "completed_by": {"id": user, "email": email, "first_name": first,
                                          "last_name": last} if full else user,
                "result": [{"value": {"choices": [_LABELS[_grade(k, user)]]}, "id": f"r{n}",
                            "from_name": "relevance", "to_name": "doc", "type": "choices",
                            "origin": "manual"}],
                "was_cancelled": False, "ground_truth": False,
                "created_at": "2024-03-02T10:01:00.000000Z", "lead_time": 5.5 + k,
                "task": 9000 + k, "project": 12, "updated_by": user})
        tasks.append({"id": 9000 + k, "annotations": annotations, "drafts": [],
                      "predictions": [], "data": {"query": q, "doc": d}, "meta": {},
                      "created_at": "2024-03-01T10:00:00.000000Z", "inner_id": k + 1,
                      "total_annotations": 3, "cancelled_annotations": 0, "project": 12})
    path.write_text(json.dumps(tasks, indent=2), encoding="utf-8")


def _label_studio_min(path: Path) -> None:
    """Label Studio's JSON-MIN export: an annotation a record, the task's
    data, the choice, ``annotator`` the user's id (the converter's
    ``_get_annotator(item, int_id=True)``), the annotation's id and times."""
    records, n = [], 500
    for k, (q, d) in enumerate(_ITEMS):
        for user in _USERS:
            n += 1
            records.append({"query": q, "doc": d, "id": 9000 + k,
                            "relevance": _LABELS[_grade(k, user)], "annotator": user,
                            "annotation_id": n, "created_at": "2024-03-02T10:01:00.000000Z",
                            "updated_at": "2024-03-02T10:01:30.000000Z", "lead_time": 5.5 + k})
    path.write_text(json.dumps(records, indent=2), encoding="utf-8")


@pytest.mark.parametrize("shape", ["json", "json-min"])
def test_label_studio_users_named_by_their_ids_are_said_so(tmp_path: Path, shape: str) -> None:
    """Where the export holds the users' ids alone, the annotators keep
    them as their names (nothing else names them), and the report says so
    with the flag that names them (they were '3', '7', '12' in silence)."""
    path = tmp_path / "project-12.json"
    _label_studio(path, full=False) if shape == "json" else _label_studio_min(path)
    code, said, err, report, rows = _import(path, tmp_path)
    assert code == 0, err
    assert report["annotators"] == ["3", "7", "12"]
    column = "annotations.completed_by" if shape == "json" else "annotator"
    note = (f"the annotators are named by numbers alone (3, 7, 12, in {column}), as a "
            "platform's user ids are (Label Studio's completed_by where its export holds no "
            "e-mail): pass --names 3=NAME,7=NAME,12=NAME to name them")
    assert note in report["notes"]
    assert f"\n{note}\n" in said
    assert [r["grade_7"] for r in rows] == [str(_grade(k, 7)) for k in range(len(_ITEMS))]


def test_label_studio_users_as_objects_are_named_by_their_emails(tmp_path: Path) -> None:
    """``completed_by`` as the user's object: the annotators are the
    e-mails, the id and the names said to name them another way, and no
    note of numbers."""
    path = tmp_path / "project-12.json"
    _label_studio(path, full=True)
    code, _said, err, report, _rows = _import(path, tmp_path)
    assert code == 0, err
    assert report["annotators"] == ["ana@lab.example", "ben@lab.example", "cara@lab.example"]
    assert not any("numbers alone" in n for n in report["notes"])


def test_names_given_at_the_import_name_the_annotators(tmp_path: Path) -> None:
    """``--names 3=ana@lab.example,...`` (repeatable): the annotators are
    named so, their grades under those names, the report saying so and no
    note of numbers; a name for no annotator read, or one name for two,
    is refused in one line (two people would be merged)."""
    path = tmp_path / "project-12.json"
    _label_studio(path, full=False)
    code, said, err, report, rows = _import(path, tmp_path, "--names",
                                            "3=ana@lab.example,7=ben@lab.example",
                                            "--names", "12=Cara Diaz")
    assert code == 0, err
    assert report["annotators"] == ["ana@lab.example", "ben@lab.example", "Cara Diaz"]
    assert [r["grade_Cara Diaz"] for r in rows] == [str(_grade(k, 12)) for k in range(5)]
    assert ("annotators named at the import: 3 as ana@lab.example, 7 as ben@lab.example, 12 "
            "as Cara Diaz") in report["notes"]
    assert "numbers alone" not in said
    code, _said, err, _report, _rows = _import(path, tmp_path, "--names", "3=ana,99=zed")
    assert (code, err) == (2, f"ndcg-worksheet: error: {path}: --names '99': no annotator "
                           "of that name was read (the annotators: 3, 7, 12) (name them as "
                           "the import lists them, --names ID=NAME,...)\n")
    code, _said, err, _report, _rows = _import(path, tmp_path, "--names", "3=ana,7=ana")
    assert (code, err) == (2, f"ndcg-worksheet: error: {path}: --names: '3' and '7' would "
                           "both be named 'ana' (give each annotator a name of their own)\n")
    code, _said, err, _report, _rows = _import(path, tmp_path, "--names", "3=ana,7=ben",
                                               "--names", "3=cara")
    assert (code, err) == (2, "ndcg-worksheet: error: --names gives '3' two names, 'ana' and "
                           "'cara' (give each annotator one name)\n")
    code, _said, err, _report, _rows = _import(path, tmp_path, "--names", "3")
    assert (code, err) == (2, "ndcg-worksheet: error: --names '3' is not ID=NAME (e.g. "
                           "--names 7=ana@lab.example,12=ben@lab.example)\n")


def test_names_given_to_a_sheet_naming_no_annotator_say_so(tmp_path: Path) -> None:
    """``--names`` beside a sheet that names nobody (one grade column, no
    annotator column): refused in one line saying the sheet names no
    annotator (it listed the annotators read as none: 'the annotators: ')."""
    path = tmp_path / "graded.csv"
    path.write_text("query,doc,grade\nq1,d1,1\nq1,d2,0\n", encoding="utf-8")
    code, _said, err, _report, _rows = _import(path, tmp_path, "--names", "3=ana")
    assert (code, err) == (2, f"ndcg-worksheet: error: {path}: --names '3': the sheet names "
                           "no annotator (no column of who judged, nor one grade column "
                           "each) (pass --names where the import lists annotators, or leave "
                           "it out)\n")


def test_the_wizard_says_the_names_flag_as_the_command_lines(tmp_path: Path) -> None:
    """The wizard, which has no field naming the annotators, says the note's
    flag as the command line's (it said 'pass --names ...' as though one of
    its controls took it)."""
    from app.import_wizard.hints import in_the_wizard

    path = tmp_path / "project-12.json"
    _label_studio_min(path)
    _code, _said, _err, report, _rows = _import(path, tmp_path)
    note = next(n for n in report["notes"] if "numbers alone" in n)
    assert in_the_wizard(note).endswith(
        "e-mail): import the file with the command line's --names 3=NAME,7=NAME,12=NAME to "
        "name them")
