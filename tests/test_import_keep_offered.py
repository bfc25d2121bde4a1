"""``--keep KIND`` (the wizard's Keep boxes) is offered only for the kinds
of skipped rows it would import something of: rows holding a grade in the
grade column. Label Studio's drafts hold their choice in a column of their
own (``drafts.result.value.choices``): kept, each was a candidate of
unknown grade judged by ``draft (record 1 (id 1))``, so the hint said
``pass --keep draft to import them`` and the wizard showed its box for
nothing. Argilla's draft responses are in the grade column: still offered.
A draft's choice is not read as a grade when kept: it is unfinished work,
and the grade column is one per sheet."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from core.io.annotator import preview
from tests.platformgen_json import label_studio_json, prodigy_jsonl
from tests.sheetgen_drawn import Drawn
from tests.sheetimport import PROFILE, run_sheet
from tests.test_declined_by_all import _DRAFTS, _SHAPES, _import, _run
from tests.test_platform_exports_detected import _label_studio


def _drafted(path: Path) -> None:
    """A Label Studio export of d1-d4, ana's and ben's annotations, cy's
    draft (ana's choice of d1) on the first two tasks, as the Export button
    writes a draft."""
    _label_studio(path, {"d1": [3, 2], "d2": [0, 1], "d3": [1, 2], "d4": [2, 2]},
                  predictions=0)
    tasks = json.loads(path.read_text("utf-8"))
    result = tasks[0]["annotations"][0]["result"]
    for k, task in enumerate(tasks[:2]):
        task["drafts"] = [{
            "id": 90 + k, "user": "cy@x.example", "created_username": "cy@x.example, 3",
            "created_ago": "2 days", "result": result, "lead_time": 12.5,
            "was_postponed": False, "import_id": None,
            "created_at": "2024-03-01T10:00:00.000000Z",
            "updated_at": "2024-03-01T10:00:00.000000Z", "task": task["id"],
            "annotation": None}]
    path.write_text(json.dumps(tasks, indent=1), encoding="utf-8")


def test_label_studio_drafts_are_not_offered_to_keep(tmp_path: Path) -> None:
    path = tmp_path / "project.json"
    _drafted(path)
    code, said, err = _run(["import", str(path), "-o", str(tmp_path / "o.csv")])
    assert code == 0, err
    assert ("rows the platform marks as not judgments, skipped: 2 draft (the draft rows hold "
            "no grade in the grade column: nothing to keep)") in said.splitlines()
    assert "--keep" not in said
    assert preview(path).marked == {}  # (no Keep box: it was {'draft': 2})


def test_argilla_drafts_are_still_offered_to_keep(tmp_path: Path) -> None:
    said, _report, _rows, _out = _import("argilla 2.x", tmp_path, items=_DRAFTS)
    assert "skipped: 3 draft (pass --keep draft to import them)" in said
    assert "nothing to keep" not in said
    write, ext, _flags = _SHAPES["argilla 2.x"]
    path = tmp_path / f"again.{ext}"
    write(path, _DRAFTS)
    assert preview(path).marked == {"draft": 3}


def test_keep_draft_given_by_hand_is_refused_saying_why(tmp_path: Path) -> None:
    """``--keep draft`` typed where the drafts hold no grade in the grade
    column: refused in one line naming the rows, the grade column and what
    to do. It imported the drafts as annotators ``draft (record 1 (id 1))``
    and ``draft (record 2 (id 2))`` of no grade, exit 0."""
    path = tmp_path / "project.json"
    _drafted(path)
    code, said, err = _run(["import", str(path), "-o", str(tmp_path / "o.csv"),
                            "--keep", "draft"])
    assert (code, said) == (2, ""), (code, said)
    assert err.count("\n") == 1, err
    assert f"{path}: --keep draft: the 2 draft rows hold no grade in the grade column " \
           "(annotations.result.value.choices): nothing to keep" in err, err
    assert "(leave --keep draft out; a draft is work saved and not submitted: submit it in " \
           "the annotation tool and export again to import its grade)" in err, err
    assert not (tmp_path / "o.csv").exists()


@settings(PROFILE, max_examples=6, phases=[Phase.generate])
@given(label_studio_json(drafts_as_ids=True).filter(
    lambda s: "drafts only" in s.unknown_reasons.values()))
def test_drafts_as_ids_say_drafts_only(sheet: Drawn) -> None:
    """A task with drafts alone exported as their ids (``"drafts": [701,
    702]``): its item of unknown grade says ``drafts only`` (who drafted
    unknown), as one exported whole says ``drafts only, by 2 annotators``;
    it said nothing. No other item gains a reason. The report says them as
    it says whole drafts, in one line: ``2 items with draft responses alone
    (saved, not submitted: pending): kept as unknown, at their places``
    (it said nothing of them)."""
    code, err, report, rows = run_sheet(sheet, ".json")
    assert code == 0, err
    said = {(r["query"], r["source_id"]): r["reason"] for r in rows if r["reason"]}
    assert said == sheet.unknown_reasons, said
    assert report is not None
    alone = sum(1 for r in sheet.unknown_reasons.values() if r == "drafts only")
    lines = [n for n in report["notes"] if "with draft responses alone" in n]
    assert len(lines) == 1, report["notes"]
    assert lines[0].startswith(
        f"{alone} item{'s' if alone > 1 else ''} with draft responses alone (saved, not "
        "submitted: pending): kept as unknown, at"), lines


@settings(PROFILE, max_examples=5, phases=[Phase.generate])
@given(st.booleans().flatmap(lambda ids: label_studio_json(drafts_as_ids=ids).filter(
    lambda s: any(r.startswith("declined by 1 annotator; drafts only")
                  for r in s.unknown_reasons.values()))))
def test_a_cancelled_annotation_beside_drafts_says_both(sheet: Drawn) -> None:
    """A task whose one annotation was cancelled, with drafts beside it:
    ``declined by 1 annotator; drafts only`` (``, by N annotators`` where
    the drafts are exported whole), both reasons. As ids it said only
    ``declined by 1 annotator``: the drafts' ids were looked for on rows
    imported, and the cancelled annotation's row, the task's one, is
    skipped."""
    code, err, _report, rows = run_sheet(sheet, ".json")
    assert code == 0, err
    said = {(r["query"], r["source_id"]): r["reason"] for r in rows if r["reason"]}
    assert said == sheet.unknown_reasons, said


def test_keep_draft_of_one_draft_row_is_refused_in_the_singular(tmp_path: Path) -> None:
    """One draft row: '--keep draft: the 1 draft row holds no grade'; it
    said 'the 1 draft row hold no grade'."""
    path = tmp_path / "project.json"
    _drafted(path)
    tasks = json.loads(path.read_text("utf-8"))
    tasks[1]["drafts"] = []
    path.write_text(json.dumps(tasks, indent=1), encoding="utf-8")
    code, _said, err = _run(["import", str(path), "-o", str(tmp_path / "o.csv"),
                             "--keep", "draft"])
    assert code == 2, err
    assert "--keep draft: the 1 draft row holds no grade in the grade column " \
           "(annotations.result.value.choices): nothing to keep" in err, err


@settings(PROFILE, max_examples=8, phases=[Phase.generate])
@given(prodigy_jsonl(people=(1, 1), annotator_ids=False).filter(
    lambda s: s.kinds == ["prodigy choice"] and s.cancelled > 0))
def test_keep_skipped_in_a_file_of_one_annotator_keeps_rows_naming_no_one(sheet: Drawn) -> None:
    """A Prodigy dataset of one annotator, no ``_annotator_id`` (its one
    session read as no column of who judged): every row is that
    annotator's, so ``--keep skipped`` keeps the tasks ignored or declined
    as theirs, as it does where ``_annotator_id`` names them: the rows
    holding a choice (a task declined after choosing) as judgments, the
    others as their items of no grade. It was refused ('the 1 skipped row
    holds no grade ...: nothing to keep', exit 2), where main imported."""
    lines = [json.loads(line) for line in sheet.text.splitlines()]
    code, err, report, rows = run_sheet(
        replace(sheet, flags=[*sheet.flags, "--keep", "skipped"]), ".jsonl")
    assert code == 0, err
    assert report is not None
    assert (report["skipped"], report["excluded"]) == ([], {})
    assert report["judgments_read"] == sum(1 for line in lines if line["accept"])
    assert report["blank_grades"] == sum(1 for line in lines if not line["accept"])
    assert {(r["query"], r["source_id"]) for r in rows} == set(sheet.truth)
