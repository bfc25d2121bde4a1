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
    assert skipped == ([(5, f"{declined}: {column} is 'discarded'"),
                        (8, f"{declined}: {column} is 'discarded'")] if version == "1.x"
                       else [(5, f"{declined}: {column} is 'discarded'")])
    assert report["rows"]["skipped"] == {f"{declined}: {column} is '…'": len(skipped)}
    assert report["rows"]["ungraded"] == 0  # (never a blank grade)
    assert "rows the platform marks as not judgments, skipped: " \
        f"{len(skipped)} skipped (pass --keep skipped to import them)" in said
