"""A model's work given with the task (Label Studio's ``predictions``,
Argilla's ``relevance.suggestion``) is told by the records' shape, not by
its name: exports drawn by tests/platformgen_json.py, their model's group
renamed with words the import has never seen (as the next tool names it),
read as the same exports are (``records.model_groups``: an object naming
its model, ``model_version`` or ``agent``, and no person). Before, only the
words ``prediction`` and ``suggestion`` told it: renamed, a prediction's
choice was read as grades and its score as the ranking.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from hypothesis import Phase, event, given, settings
from hypothesis import strategies as st

from core.io.annotator.model import PREDICTED
from tests.platformgen_json import argilla_jsonl, label_studio_json
from tests.sheetgen_drawn import Drawn
from tests.sheetimport import PROFILE
from tests.sheetimport import grades_of as _grades
from tests.sheetimport import run_sheet as _run

#: Names no word list of the import holds, for a model's group.
UNSEEN = ["model_outputs", "preannotations", "auto_labels", "ml_backend_results", "hints",
          "machine"]

#: Exports drawn a test.
EXPORTS = 8


def _renamed(obj: Any, old: str, new: str) -> Any:
    """``obj`` with each key ``old`` (or ``old.`` followed by more) renamed
    to ``new`` (Argilla's flat ``relevance.suggestion.score`` keys too)."""
    if isinstance(obj, dict):
        return {(new + k[len(old):] if k == old or k.startswith(f"{old}.") else k):
                _renamed(v, old, new) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_renamed(v, old, new) for v in obj]
    return obj


def _same_reading(sheet: Drawn, renamed: Drawn, suffix: str, old: str, new: str) -> None:
    """The renamed export imports as the drawn one does: the same exit,
    grades, rows predicted, ranking (none), and its model's answer said to
    be one (under its new name)."""
    code, err, report, rows = _run(sheet, suffix)
    code2, err2, report2, rows2 = _run(renamed, suffix)
    assert (code, err) == (0, ""), err
    assert (code2, err2.replace(new, old)) == (code, err), err2
    assert report is not None
    assert report2 is not None
    several = "annotator" in report["mapping"]
    assert {(r["query"], r["source_id"]): (_grades(r, several), r["reason"]) for r in rows2} == {
        (r["query"], r["source_id"]): (_grades(r, several), r["reason"]) for r in rows}
    assert report2["rows"] == report["rows"], (report2["rows"], report["rows"])
    assert report2["ranking"] == report["ranking"] == "none: judgments only"
    assert report2["mapping"] == report["mapping"]
    assert report2["rows_predicted"]["rows"] == report["rows_predicted"]["rows"]
    said = {c["header"].replace(new, old, 1): (c["role"], c["reason"].replace(new, old))
            for c in report2["columns"]}
    assert said == {c["header"]: (c["role"], c["reason"]) for c in report["columns"]}
    answers = [c for c in report2["columns"] if c["reason"].endswith(PREDICTED)]
    event(f"{len(answers)} model's answer columns")
    assert all(c["header"].startswith(new) for c in answers), answers


@settings(PROFILE, max_examples=EXPORTS, phases=[Phase.generate])
@given(label_studio_json(), st.sampled_from(UNSEEN))
def test_label_studio_predictions_renamed_are_read_by_their_shape(sheet: Drawn,
                                                                  name: str) -> None:
    """A Label Studio export's ``predictions`` (each a model's
    ``model_version``, ``score`` and choice, no person) under another name
    are still a model's: its choice no grade, its score no ranking."""
    tasks = json.loads(sheet.text or "[]")
    event("predictions" if any(t["predictions"] for t in tasks) else "no predictions")
    renamed = replace(sheet, text=json.dumps(_renamed(tasks, "predictions", name), indent=1))
    _same_reading(sheet, renamed, ".json", "predictions", name)


@settings(PROFILE, max_examples=EXPORTS, phases=[Phase.generate])
@given(argilla_jsonl(), st.sampled_from(UNSEEN))
def test_argilla_suggestions_renamed_are_read_by_their_shape(sheet: Drawn, name: str) -> None:
    """An Argilla dataset's ``relevance.suggestion`` (its value, ``.score``
    and ``.agent``, no ``.users``) under another name is still a model's."""
    lines = [json.loads(line) for line in (sheet.text or "").splitlines()]
    event("suggested" if "relevance.suggestion" in lines[0] else "no suggestion")
    text = "".join(json.dumps(_renamed(line, "relevance.suggestion", f"relevance.{name}"))
                   + "\n" for line in lines)
    _same_reading(sheet, replace(sheet, text=text), ".jsonl", "relevance.suggestion",
                  f"relevance.{name}")


@settings(PROFILE, max_examples=EXPORTS, phases=[Phase.generate])
@given(label_studio_json(), st.sampled_from(["model_version", "agent"]))
def test_a_tasks_data_naming_the_ranker_is_no_models_answer(sheet: Drawn, key: str) -> None:
    """A task's ``data`` naming the model that ranked its document (its
    ``model_version`` or ``agent``, as a ranker's output imported for review
    carries it) is the item judged, no model's answer: its query and its
    document are read as without it. It holds no answer (no grade, no value
    of its own), so it is no model's group: every data field was left out
    as a model's, the task's id read as the document."""
    tasks = json.loads(sheet.text or "[]")
    for task in tasks:
        task["data"][key] = "bm25-v3"
    code, err, report, rows = _run(sheet, ".json")
    code2, err2, report2, rows2 = _run(replace(sheet, text=json.dumps(tasks, indent=1)), ".json")
    assert (code2, err2) == (code, err) == (0, ""), err2
    assert report is not None
    assert report2 is not None
    # (the field's name reads as the documents' version, the same on every row)
    assert {f: c for f, c in report2["mapping"].items() if f != "version"} == report["mapping"]
    assert report2["ranking"] == report["ranking"]
    several = "annotator" in report["mapping"]
    assert {(r["query"], r["source_id"]): (_grades(r, several), r["reason"]) for r in rows2} == {
        (r["query"], r["source_id"]): (_grades(r, several), r["reason"]) for r in rows}


def _nested(flat: dict[str, Any]) -> dict[str, Any]:
    """An Argilla record as its nested export writes it (``responses`` of
    a question a list of objects, ``value``, ``user_id``, ``status``; its
    ``suggestions`` an object, ``value``, ``score``, ``agent``), from the
    flat one (tests/platformgen_json.argilla_jsonl)."""
    out = {k: v for k, v in flat.items() if not k.startswith("relevance.")}
    out["responses"] = {"relevance": [
        {"value": v, "user_id": u, "status": s} for v, u, s in zip(
            flat["relevance.responses"], flat["relevance.responses.users"],
            flat["relevance.responses.status"], strict=True)]}
    if "relevance.suggestion" in flat:
        out["suggestions"] = {"relevance": {
            "value": flat["relevance.suggestion"], "score": flat["relevance.suggestion.score"],
            "agent": flat["relevance.suggestion.agent"]}}
    return out


@settings(PROFILE, max_examples=EXPORTS, phases=[Phase.generate])
@given(argilla_jsonl())
def test_argilla_nested_suggestions_are_a_models(sheet: Drawn) -> None:
    """An Argilla dataset exported nested (a suggestion an object of its
    ``value``, ``score`` and ``agent``, no person) reads as the flat export
    does: the suggestion's value is the model's answer, no annotator's
    grades (it was a second column of grades beside the responses': 'no
    grade column found among the records' fields')."""
    lines = [json.loads(line) for line in (sheet.text or "").splitlines()]
    event("suggested" if "relevance.suggestion" in lines[0] else "no suggestion")
    text = "".join(json.dumps(_nested(line)) + "\n" for line in lines)
    code, err, report, rows = _run(sheet, ".jsonl")
    code2, err2, report2, rows2 = _run(replace(sheet, text=text), ".jsonl")
    assert (code2, code) == (0, 0), (err2, err)
    assert report is not None
    assert report2 is not None
    several = "annotator" in report["mapping"]
    assert {(r["query"], r["source_id"]): (_grades(r, several), r["reason"]) for r in rows2} == {
        (r["query"], r["source_id"]): (_grades(r, several), r["reason"]) for r in rows}
    assert report2["ranking"] == report["ranking"] == "none: judgments only"
    answers = [c["header"] for c in report2["columns"] if c["reason"].endswith(PREDICTED)]
    assert answers == (["suggestions.relevance.value"] if "suggestions" in text else []), answers
