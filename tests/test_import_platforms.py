"""Crowd and annotation platforms' exports against the import: Qualtrics,
Mechanical Turk, Label Studio, Appen, Google Forms, Toloka sheets drawn
by tests/platformgen.py and Label Studio, Argilla, Doccano and Prodigy
JSON drawn by tests/platformgen_json.py, imported by the command line
(tests/sheetimport.py). A radio button's choices a column each, and
checkboxes beside them, written out by hand: tests/test_import_radio_buttons.py.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import Phase, event, given, settings
from hypothesis import strategies as st

from tests.platformgen import (
    BOOKKEEPING,
    LABEL_STUDIO_COUNTS,
    MTURK_COMMENTS,
    PLATFORMS,
    platform_sheets,
)
from tests.platformgen_json import (
    argilla_jsonl,
    doccano_jsonl,
    label_studio_json,
    prodigy_jsonl,
)
from tests.sheetgen import (
    Drawn,
)

# derandomize seeds each test's draws from its source: the tests call the
# helpers by the names they were written with, so they draw the same sheets
from tests.sheetimport import PROFILE
from tests.sheetimport import grades_of as _grades
from tests.sheetimport import holds as _holds
from tests.sheetimport import run_sheet as _run

#: Platforms' exports drawn: Qualtrics (alone or through Prolific), Mechanical
#: Turk, Label Studio, Appen, Google Forms, Toloka: 6 of each (drawn among
#: all, some platforms went undrawn; at 3, no Qualtrics export drew the study
#: arm that named its respondents before hreview4's fix, at 6 one does).
PLATFORM_SHEETS = 6


@pytest.mark.parametrize("platform", PLATFORMS)
def test_platform_exports_are_read_as_their_judgments(platform: str) -> None:
    """A Qualtrics export (three header rows, metadata columns, preview
    responses; through Prolific, its ids, a timing question and an
    attention check), a Mechanical Turk batch (HIT and assignment
    bookkeeping, times and seconds, Approve and Reject), a Label Studio
    export (users' numbers, task ids, lead times, the task's counts), an
    Appen full report, a Google Forms grid or a Toloka pool's assignments:
    the judgments drawn, no more and no fewer, never refused; every column
    accounted for."""

    @settings(PROFILE, max_examples=PLATFORM_SHEETS, phases=[Phase.generate])
    @given(platform_sheets(platform), st.sampled_from([".csv", ".xlsx"]))
    def check(sheet: Drawn, suffix: str) -> None:
        _platform_holds(sheet, suffix)

    check()


def _platform_holds(sheet: Drawn, suffix: str) -> None:
    """The invariants of a platform's export (see
    :func:`test_platform_exports_are_read_as_their_judgments`)."""
    code, err, report, rows = _run(sheet, suffix)
    event(f"{sheet.kinds[0]} {suffix}")
    assert code == 0, err
    _holds(sheet, code, err, report, rows, suffix)  # each respondent's grades, no preview's
    assert report is not None
    _radio_holds(sheet, report)
    kept = {c["header"]: c["reason"] for c in report["columns"] if c["header"] in BOOKKEEPING}
    assert len(kept) == 3 * (sheet.kinds[0] == "prolific"), kept
    for header, reason in kept.items():  # never "a grade combined from several"
        if reason.endswith(" on every row, not imported"):
            continue  # all participants alike (as drawn small): said as any constant column
        assert reason.startswith((f"{header}: numbers ", f"{header}: the number ")), reason
        assert reason.endswith(", the platform's bookkeeping of each participant's work, "
                               "one value per annotator (no judgment, no ranking); not "
                               "imported"), reason
    _counts_hold(report)
    _own_reasons(sheet, report)
    _leftovers_hold(sheet, report)
    # A study's arm (participant_group: control, treatment) names no one: it
    # once named the people by their arm, and past the rows looked at merged them.
    assert "participant_group" not in json.dumps(report["mapping"]), report["mapping"]
    assert not {"control", "treatment"} & set(report.get("annotators") or []), report


#: Appen (Figure Eight) full reports drawn, as CSV and as a workbook.
APPEN_SHEETS = 6


@settings(PROFILE, max_examples=APPEN_SHEETS, phases=[Phase.generate])
@given(platform_sheets("appen"), st.sampled_from([".csv", ".xlsx"]))
def test_appen_reports_skip_test_questions_and_tainted_work(sheet: Drawn, suffix: str) -> None:
    """An Appen job's full report: the test questions (``_golden``) and the
    tainted work (``_tainted``) skipped and counted under their columns'
    names, each flag column with its own reason, the test questions'
    answer and its reason left out saying what they are; the judgments
    drawn, no more, no fewer."""
    code, err, report, rows = _run(sheet, suffix)
    assert code == 0, err
    _holds(sheet, code, err, report, rows, suffix)
    assert report is not None
    _own_reasons(sheet, report)
    said = {c["header"]: c["reason"] for c in report["columns"]}
    assert said["relevance_gold_reason"] == (
        "relevance_gold_reason: text only on rows that are no judgments (control: skipped), "
        "no judgment's reason; not imported")


def _leftovers_hold(sheet: Drawn, report: dict) -> None:
    """What fooled the import once, now drawn: a survey's people counted
    without its preview responses (they were counted: '6 people' for 4
    respondents); a comments box no one filled said empty beside a
    rejected assignment (it was 'text only on rows that are no judgments
    (: skipped)'); a Label Studio task's id one per item where a chunk is
    retrieved for two questions (it was 'varying between one item's
    judgments')."""
    said = {c["header"]: c["reason"] for c in report["columns"]}
    if sheet.kinds[0] in ("qualtrics", "prolific"):
        n = len(next(iter(sheet.truth.values())))
        who = next(g for g in report["guesses"] if g.startswith("annotator: "))
        assert who.endswith(f"; {n} people, each item judged by {n} of them"), who
    if MTURK_COMMENTS in said:
        assert said[MTURK_COMMENTS] == "empty: no row holds a value; not imported", said
    if sheet.kinds[0] == "labelstudio":
        assert re.fullmatch(r"id: numbers 10\d\d to 10\d\d, one per item, each naming one "
                            r"item and counting up \(a record's id or a counter: no ranking\); "
                            r"not imported", said["id"]), said["id"]
        _no_id_is_a_score(report)


#: A Label Studio export's ids, as its CSV and JSON exports name them (the
#: task's ``id``, ``inner_id``, ``annotations.task``, ``predictions.task``;
#: an annotation's, a prediction's, a draft's), ``drafts`` where a task
#: lists its drafts by their ids.
LABEL_STUDIO_IDS = re.compile(r"(.*[._])?(id|inner_id|task)|drafts")


def _no_id_is_a_score(report: dict) -> None:
    """No column of ids is offered as the ranking, a score or a rank
    (``pass --map score=id`` was said of the task's ``id``, ``inner_id``,
    ``annotations.task``, whole numbers counting up one per task: a new
    user's trial; in a project of one query, ``--map rank=id``); a
    model's ``predictions.score``, one per item, still is."""
    for c in report["columns"]:
        if LABEL_STUDIO_IDS.fullmatch(c["header"]):
            said = (c["flag"] or "") + c["reason"]
            assert "score=" not in said, c
            assert "rank=" not in said, c
        if c["header"] == "predictions.score" and ", one per item;" in c["reason"]:
            assert c["flag"] == "--map score=predictions.score", c
        # a task's count of its predictions (0-3) is no ranking either: read
        # as the number of the task's prediction rows, where the export holds
        # them (JSON; it was 'pass --map score=total_predictions'; a CSV
        # export holds no predictions to count, and it is offered still)
        if c["header"] == "total_predictions" and any(
                h["header"].startswith("predictions.") for h in report["columns"]):
            assert "score=" not in (c["flag"] or "") + c["reason"], c


@settings(PROFILE, max_examples=12, phases=[Phase.generate])
@given(label_studio_json(shuffled=True))
def test_label_studio_ids_in_no_order_are_no_score(sheet: Drawn) -> None:
    """A Label Studio export whose tasks are in no order of their ids (a
    sort in the tool): the task's ``id`` and ``inner_id`` hold every number
    of a run, ``annotations.task`` and ``predictions.task`` the same but
    on the tasks without annotations or predictions, ``drafts`` its drafts'
    ids: none is offered as a score (``annotations.task: numbers 14908 to
    14913, one per item; if this is the ranking, pass --map
    score=annotations.task`` and ``--map score=drafts`` were said, where
    the ids neither counted up with no gap nor rose down the rows)."""
    code, err, report, _rows = _run(sheet, ".json")
    assert code == 0, err
    assert report is not None
    _no_id_is_a_score(report)


@settings(PROFILE, max_examples=10, phases=[Phase.generate])
@given(platform_sheets(platform="appen"), st.randoms(use_true_random=False))
def test_appen_unit_ids_in_no_order_with_gaps_are_no_score(sheet: Drawn, rnd: Any) -> None:
    """An Appen report sorted by another column, its ``_unit_id`` with gaps
    (units deleted from the job: each id 1-9 past the last): the ids
    neither count up nor rise down the rows, and were offered as a score
    ('_unit_id: numbers 2350000103 to 2350000161, one per item; if this is
    the ranking, pass --map score=_unit_id'); said as a record's id."""
    head, body = sheet.rows[0], [list(r) for r in sheet.rows[1:]]
    unit = head.index("_unit_id")
    spaced: dict[Any, int] = {}
    last = 2350000100
    for r in body:
        if r[unit] not in spaced:
            last = spaced[r[unit]] = last + rnd.randint(1, 9)
        r[unit] = spaced[r[unit]]
    rnd.shuffle(body)
    code, err, report, _rows = _run(replace(sheet, rows=[head, *body]), ".csv")
    assert code == 0, err
    assert report is not None
    said = next(c for c in report["columns"] if c["header"] == "_unit_id")
    assert said["flag"] is None, said["reason"]
    assert "a record's id" in said["reason"], said


def _own_reasons(sheet: Drawn, report: dict) -> None:
    """Each column is said as it is: a flag column with its own reason
    (Appen's ``_tainted`` was given ``_golden``'s), a column holding text
    never 'empty' (the test questions' ``relevance_gold_reason`` was), and
    the rows skipped counted under the flag column's header, in a workbook
    too (``C is '…'``: its header was cut)."""
    data = sheet.rows[1:] if sheet.kinds[0] not in ("qualtrics", "prolific") else []
    for c in report["columns"]:
        if (c["role"] or "").startswith("skip ("):
            assert c["reason"].startswith(f"{c['header']}:"), c
        if any(c["index"] < len(r) and str(r[c["index"]]).strip() for r in data):
            assert not c["reason"].startswith("empty"), c
    for kind in report["rows"]["skipped"]:
        assert not re.search(r": [A-Z]{1,3} is ", kind), kind


def _counts_hold(report: dict) -> None:
    """A Label Studio task's counts (``total_annotations``, its cancelled
    annotations and predictions) are no grades: left out saying what their
    values are, with no flag making them the grade (``total_annotations``
    was 'a grade combined from several' with ``--map grade=J``,
    ``total_predictions`` 'a model's answer given with the task')."""
    for c in report["columns"]:
        if c["header"] in LABEL_STUDIO_COUNTS:
            assert c["role"] is None, c
            assert "grade=" not in (c["flag"] or ""), c
            assert "combined" not in c["reason"], c
            assert "a model's answer" not in c["reason"], c
        if c["header"] == "total_annotations":
            assert c["reason"].endswith(
                ", one per item, each the number of the item's judgments (a count of them, no "
                "grade); not imported"), c


def _radio_holds(sheet: Drawn, report: dict) -> None:
    """The radio button's note is the one expected, and a checkbox beside
    its choices is left out as one, never a grade."""
    radio = [n for n in report["notes"] if "one answer per column" in n]
    assert radio == sheet.notes, report["notes"]  # (a radio button's: the one expected)
    if sheet.checkbox is not None:
        box = next(c for c in report["columns"] if c["header"] == sheet.checkbox)
        assert box["role"] is None, box
        assert box["reason"].startswith(
            f"{sheet.checkbox}: a checkbox beside the radio button "
            f"{sheet.grade_headers[0]!r} of {sheet.notes[0].split(': ')[0]}, ticked on "), box


#: Mechanical Turk batches drawn answered with a radio button a column per
#: choice (numbered or by word, marked ``.on`` or ``-yes`` or not; true,
#: a workbook's boolean or ``on``), half with a checkbox beside it.
RADIO_SHEETS = 12


@settings(PROFILE, max_examples=RADIO_SHEETS, phases=[Phase.generate])
@given(platform_sheets("mturk radio"), st.sampled_from([".csv", ".xlsx"]))
def test_a_radio_buttons_choices_are_one_grade_column(sheet: Drawn, suffix: str) -> None:
    """A radio button's choices a column each, however headed and marked
    (``Answer.rel.0``, ``Answer.rel.not_relevant`` of ``on`` / nothing,
    ``rel-highly_relevant-yes``), are one grade column, the drawn
    judgments; a checkbox beside them (``Answer.unsure.on``, in the
    choices' group or not) is left out as a checkbox, never a grade (a
    group by word with one was read as checkboxes, the grades lost, or
    beside numbered choices dropped the whole group)."""
    code, err, report, rows = _run(sheet, suffix)
    event(f"{sheet.rows[0][18]} {sheet.checkbox} {sheet.rows[1][18]!r}")
    assert code == 0, err
    _holds(sheet, code, err, report, rows, suffix)
    assert report is not None
    _radio_holds(sheet, report)


#: Label Studio projects' JSON exports drawn (half of them numbering from 1).
LABEL_STUDIO_JSON = 10


@settings(PROFILE, max_examples=LABEL_STUDIO_JSON, phases=[Phase.generate])
@given(label_studio_json())
def test_label_studio_json_exports_are_read_as_their_annotations(sheet: Drawn) -> None:
    """A Label Studio JSON export (a task a record, its annotations a list
    of objects with their own ids): every annotation is a row, its choice
    the grade of its user, a cancelled one skipped; never a task's
    annotations taken for a list of choices' names because the task's
    ``id`` or ``inner_id`` is one of their ids (a project numbering from 1:
    task 1's annotations 1 and 2 were dropped, its grades unknown, and an
    annotator '(no name)' added, exit 0). A model's predictions beside the
    annotations are none of them: their choice left out as a model's
    answer, their score no ranking (it was the ranking, named so; two
    predictions a task doubled every annotation, refused as graded again).
    A task's drafts (saved, not submitted) are no judgment: each skipped,
    counted, a task with drafts alone an item of unknown grade saying
    so (``drafts only, by 2 annotators``)."""
    _label_studio_json_holds(sheet)


@settings(PROFILE, max_examples=6, phases=[Phase.generate])
@given(st.integers(3, 4).flatmap(lambda n: label_studio_json(predictions=n)))
def test_label_studio_tasks_of_three_predictions_or_more(sheet: Drawn) -> None:
    """Every task with 3-4 models' predictions, a row each naming no one
    and grading nothing: the models' work, never a person's judgments
    read again (a hand-made task of three predictions was listed as
    '(no name) graded 'd1' for 'q1' again', once per prediction row after
    the first); the invariants of the test above hold."""
    _label_studio_json_holds(sheet)


def _label_studio_json_holds(sheet: Drawn) -> None:
    """The invariants of :func:`test_label_studio_json_exports_are_read_as_their_annotations`."""
    code, err, report, rows = _run(sheet, ".json")
    event("small ids" if '"id": 1,' in (sheet.text or "") else "large ids")
    event(f"{sheet.predicted_rows} predicted rows")
    event(f"{sum(not v for v in sheet.truth.values())} tasks of no grade (cancelled, drafts)")
    assert code == 0, err
    assert report is not None
    # the tasks counted as the user counts them (its records), each annotation
    # and prediction as the table built from them (a row each)
    assert (report["rows_are"], report["rows"]["read"]) == (
        "records", len(json.loads(sheet.text or "[]"))), report["rows"]
    tally = report["table_rows"]
    assert tally["read"] == sum(map(len, sheet.truth.values())) + sheet.cancelled \
        + sheet.predicted_rows + sheet.bare_rows, tally
    assert tally["imported"] == tally["read"] - sheet.cancelled - sheet.predicted_rows \
        - sheet.bare_rows, tally
    assert tally["ungraded"] == sheet.predicted_rows + sheet.bare_rows, tally
    # rows of a task's predictions are said to be what they are, and name no
    # one (an annotator '(no name)' was added, holding no grade)
    assert report["rows_predicted"] == {"rows": sheet.predicted_rows, "columns": [
        "predictions.result.value.choices"] if sheet.predicted_rows else []}, report
    assert "(no name)" not in report["annotators"], report["annotators"]
    # nor among the findings: a task's prediction rows were '(no name) graded
    # 'doc/0-1' for 'q1' again', duplicates of a person (2 predictions or more)
    assert not [i for i in report["issues"] if "(no name)" in i["problem"]], report["issues"]
    assert sum(tally["skipped"].values()) == sheet.cancelled, tally
    assert all(c["role"] or c["reason"] for c in report["columns"])
    # a comment beside the choice: a column per control, each annotation
    # one row (a row per answer put the comments among the grades, refused)
    assert report["mapping"]["grade"] == sheet.grade_headers[0], report["mapping"]
    assert report["ranking"] == "none: judgments only"
    _counts_hold(report)
    _no_id_is_a_score(report)
    # null on every annotation: empty, never offered as the grades (it was 'a
    # model's answer given with the task' for its word, with --map grade=V)
    parent = next(c for c in report["columns"] if c["header"] == "annotations.parent_prediction")
    assert (parent["reason"], parent["flag"]) == ("empty: no row holds a value; not imported", None)
    for c in report["columns"]:
        if c["header"] == "predictions.result.value.choices":
            assert c["reason"].endswith(": a model's answer given with the task (a prediction, "
                                        "to pre-annotate it), not a grade of this sheet's "
                                        "annotators; not imported"), c
    got = {(r["query"], r["source_id"]): _grades(r, True) for r in rows}
    assert got == sheet.truth
    _reasons_hold(sheet, rows)
    # each cancelled annotation and each draft skipped at its task's record
    # (its position in the array), never a row of the table built from the
    # records; a draft is work saved, not submitted: no grade, and no one's
    # grades left unused (its choice), nor who judged (its user: the drafts'
    # users were read as who judged, the import refused)
    tasks = json.loads(sheet.text or "[]")
    _places_hold(report, sorted([k + 1 for k, task in enumerate(tasks)
                                 for a in task["annotations"] if a["was_cancelled"]]
                                + [k + 1 for k, task in enumerate(tasks) for d in task["drafts"]
                                   if isinstance(d, dict)]))
    drafts = sum(isinstance(d, dict) for task in tasks for d in task["drafts"])
    event(f"{min(drafts, 3)}{'+' if drafts > 3 else ''} drafts")
    event("drafts as ids" if any(isinstance(d, int) for t in tasks for d in t["drafts"])
          else "drafts as objects")
    event(f"{max(len(t['comment_authors']) for t in tasks)} commenters at most")
    assert report["excluded"].get("draft", 0) == drafts, report["excluded"]
    assert not any(c["header"].startswith("drafts.") and c["role"] not in (None, "skip (draft)")
                   for c in report["columns"]), report["columns"]
    # the time of a task's last comment is no note ("1: 2024-03-10T09:..."),
    # whatever its header's word "comment" says (Label Studio's comments)
    assert report["mapping"].get("note") != "last_comment_updated_at", report["mapping"]
    # who completed an annotation, said as an object (its id, e-mail,
    # initials) or a number, and who updated it: who judged, named another
    # way (they were 'numbers 1 to 3, varying between one item's judgments');
    # told only where two people at least judged (the rows kept)
    who = report["mapping"]["annotator"]
    for c in report["columns"] if len(report["annotators"]) > 1 else []:
        if c["header"] != who and c["header"].startswith((
                "annotations.completed_by", "annotations.updated_by")) and c["reason"] != (
                "empty: no row holds a value; not imported"):
            assert c["reason"] == (
                f"{c['header']}: one value per annotator ({who}), the same on each of their "
                "rows: who judged, named another way; not imported"), c
    # the notes are the comment box's texts, never who commented on the task
    # (comment_authors, user ids: notes '(no name): 2; (no name): 2')
    assert report["mapping"].get("note") in (None, "annotations.result.comment.value.text")
    assert not any("(no name)" in r.get("note", "") for r in rows), [r.get("note") for r in rows]
    stamped = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d")
    assert not any(stamped.search(r.get("note", "")) for r in rows), [r.get("note") for r in rows]


#: Argilla datasets' records drawn as JSON Lines.
ARGILLA_JSONL = 8


@settings(PROFILE, max_examples=ARGILLA_JSONL, phases=[Phase.generate])
@given(argilla_jsonl())
def test_argilla_records_are_read_as_their_responses(sheet: Drawn) -> None:
    """An Argilla dataset's JSON Lines (the responses as lists side by side,
    a pending record with none): every response a row, its user who judged,
    a pending record a row with no grade, a discarded response a row
    skipped; every record a candidate, one every user discarded too (it
    gave none); a model's suggestion, its score
    and its agent no one's grades (``relevance.suggestion.agent`` was read
    as the grades of an annotator named ``suggestion.agent``, the import
    refused as labels on no known scale, 'bm25-ranker')."""
    code, err, report, rows = _run(sheet, ".jsonl")
    event(f"{sheet.predicted_rows} pending")
    event(f"{sum(not v for v in sheet.truth.values())} discarded by every user")
    assert code == 0, err
    assert report is not None
    assert (report["rows_are"], report["rows"]["read"]) == (  # (a record a line)
        "lines", len((sheet.text or "").splitlines())), report["rows"]
    tally = report["table_rows"]
    assert tally["read"] == sum(map(len, sheet.truth.values())) + sheet.predicted_rows \
        + sheet.cancelled, tally
    assert tally["ungraded"] == sheet.predicted_rows, tally
    assert sum(tally["skipped"].values()) == sheet.cancelled, tally
    assert len(rows) == len((sheet.text or "").splitlines()), rows  # every record listed
    assert report["mapping"]["grade"] == "relevance.responses", report["mapping"]
    assert report["mapping"]["annotator"] == "relevance.responses.users", report["mapping"]
    for c in report["columns"]:
        if "suggestion" in c["header"]:
            assert c["role"] is None, c
    got = {(r["query"], r["source_id"]): _grades(r, True) for r in rows}
    assert {k: v for k, v in got.items() if v} == {k: v for k, v in sheet.truth.items() if v}
    assert all(got[k] == [] for k, v in sheet.truth.items() if not v)  # kept, no grade
    _reasons_hold(sheet, rows)
    # each response discarded or saved as a draft skipped at its record's line
    records = [json.loads(line) for line in (sheet.text or "").splitlines()]
    _places_hold(report, [n + 1 for n, record in enumerate(records)
                          for s in record["relevance.responses.status"] if s != "submitted"])


#: Doccano projects' exports drawn as JSON Lines.
DOCCANO_JSONL = 6


@settings(PROFILE, max_examples=DOCCANO_JSONL, phases=[Phase.generate])
@given(doccano_jsonl())
def test_doccano_exports_are_read_as_their_labels(sheet: Drawn) -> None:
    """A Doccano text classification export (a record a document, its
    ``label`` a list of the one chosen, ``Comments`` beside): each record a
    row, its label the grade on its scale, a record not labelled yet a row
    with no grade (its candidate kept, the grade unknown)."""
    code, err, report, rows = _run(sheet, ".jsonl")
    assert code == 0, err
    assert report is not None
    tally = report["rows"]
    assert (tally["read"], tally["ungraded"]) == (
        len(sheet.truth) + sheet.predicted_rows, sheet.predicted_rows), tally
    assert report["mapping"]["grade"] == "label", report["mapping"]
    assert report["rubric"] == {"Not relevant": 0.0, "Partially relevant": 1.0, "Relevant": 2.0}
    got = {(r["query"], r["source_id"]): _grades(r, False) for r in rows}
    assert {k: v for k, v in got.items() if v} == sheet.truth


#: Prodigy datasets drawn as ``db-out`` writes them.
PRODIGY_JSONL = 40


@settings(PROFILE, max_examples=PRODIGY_JSONL, phases=[Phase.generate])
@given(prodigy_jsonl())
def test_prodigy_answers_are_read_as_their_choices(sheet: Drawn) -> None:
    """A Prodigy dataset's ``db-out`` (a line per annotator per task): each
    line a row, the option chosen (``accept``) or the binary answer the
    grade of the annotator its named session names, a task ignored or
    declined a row skipped; every task an item, one every annotator
    ignored or declined too (no grade); Prodigy's hashes and timestamps
    none of them read as grades or as the ranking (a file of judgments
    only; ``textcat.teach``'s model score is read as the ranking, named
    so)."""
    code, err, report, rows = _run(sheet, ".jsonl")
    lines = [json.loads(line) for line in (sheet.text or "").splitlines()]
    for feature in _prodigy_features(lines):
        event(feature)
    event(f"{sum(not v for v in sheet.truth.values())} declined by every annotator")
    if code != 0 and "_annotator_id" not in lines[0]:
        # few tasks judged twice: the sessions not read as who judged
        # unasked, but named by the refusal with the flag that takes them
        event("refused, the sessions named")
        assert len(err.strip().splitlines()) == 1, err
        assert "lists 'doc-" in err, err
        assert "(pass --map annotator=_session_id if " in err, err
        # the task listed again and its first: the lines of one task in the file
        again, first = (int(n) for n in re.findall(
            r", line (\d+), column .* again \(first on line (\d+)\)", err)[0])
        assert first < again, err
        assert _task(lines[first - 1]) == _task(lines[again - 1]), err
        sheet = replace(sheet, flags=[*sheet.flags, "--map", "annotator=_session_id"])
        code, err, report, rows = _run(sheet, ".jsonl")
    assert code == 0, err
    assert report is not None
    tally = report["rows"]
    assert tally["read"] == sum(map(len, sheet.truth.values())) + sheet.cancelled, tally
    assert (tally["imported"], tally["ungraded"]) == (tally["read"] - sheet.cancelled, 0), tally
    assert sum(tally["skipped"].values()) == sheet.cancelled, tally
    assert len(rows) == len(sheet.truth), rows  # every task listed
    assert report["mapping"]["grade"] == sheet.grade_headers[0], report["mapping"]
    # who judged: the named sessions (``relevance-alice``), no one else
    sessions = {line["_session_id"] for line in lines}
    judged = len({line["_session_id"] for line in lines if line["answer"] != "ignore" and (
        line["answer"] == "accept" or "label" in line)})  # (binary: reject is a grade)
    assert report["mapping"].get("annotator") in (("_annotator_id", "_session_id") if judged > 1
                                                  else (None, "_annotator_id", "_session_id"))
    assert set(report["annotators"]) <= sessions, report
    for c in report["columns"]:
        if c["header"].startswith(("_input_hash", "_task_hash", "_timestamp", "_view_id")):
            assert c["role"] is None, c
    if not any("score" in line for line in lines):
        assert report["ranking"] == "none: judgments only", report["ranking"]
    got = {(r["query"], r["source_id"]): _grades(r, "annotator" in report["mapping"])
           for r in rows}
    assert got == sheet.truth
    _reasons_hold(sheet, rows)
    # each task ignored or declined skipped at its line in the file
    _places_hold(report, [n + 1 for n, line in enumerate(lines) if line["answer"] == "ignore" or (
        line["answer"] != "accept" and "label" not in line)])


def _places_hold(report: dict[str, Any], places: list[int]) -> None:
    """The rows skipped are the drawn file's places of the judgments it
    declines (a JSON Lines file's lines, a JSON array's records), as the
    file holds them: they were the rows of the table built from the records,
    a header added (Prodigy's line 16 said 'line 17')."""
    assert sorted(s["row"] for s in report["skipped"]) == places, report["skipped"]
    assert report["rows_are"] in ("lines", "records"), report["rows_are"]


def _prodigy_features(lines: list[dict[str, Any]]) -> list[str]:
    """What a drawn Prodigy dataset holds, said as hypothesis' events."""
    first = lines[0]
    out = [first["_view_id"], "query in meta" if "query" in first["meta"] else "query a field"]
    if "options" in first:
        out.append(f"option ids {type(first['options'][0]['id']).__name__}")
    out += [name for name, holds in (
        ("no _annotator_id", "_annotator_id" not in first), ("textcat.teach", "score" in first),
        ("few judged twice", len(lines) < 1.5 * len({_task(x) for x in lines})),
        ("mostly ignored", sum(x["answer"] == "ignore" for x in lines) * 2 > len(lines)),
        ("declined after choosing", any(x["answer"] == "reject" and x.get("accept")
                                        for x in lines)),
        ("a task ignored", any(x["answer"] == "ignore" for x in lines))) if holds]
    return out


def _reasons_hold(sheet: Drawn, rows: list[dict[str, str]]) -> None:
    """Each item no one judged says why beside its unknown grade, as the
    truth kept aside says (``declined by 2 annotators``, ``drafts only, by
    1 annotator``); no other row gives a reason."""
    said = {(r["query"], r["source_id"]): r["reason"] for r in rows if r["reason"]}
    for reason in sheet.unknown_reasons.values():
        event(f"unknown: {reason.split(' by ')[0].rstrip(',')}")
    assert said == sheet.unknown_reasons, said
    assert all(rows[i]["state"] == "unknown" for i, r in enumerate(rows) if r["reason"])


def _task(line: dict[str, Any]) -> tuple[str, str]:
    """A Prodigy line's task: its query and document, as fields or in ``meta``."""
    where = line["meta"] if "query" in line["meta"] else line
    return where["query"], where["doc_id"]


def test_one_control_task_is_said_in_the_singular(tmp_path: Path) -> None:
    """A Toloka pool's assignments with one control task: its known answer's
    column is said left out on 1 row, never '1 rows' (a new user's trial)."""
    from core.io.annotator import import_annotations

    lines = ["INPUT:query_id\tINPUT:doc\tOUTPUT:relevance\tGOLDEN:relevance\tASSIGNMENT:worker_id"]
    lines += [f"q{q}\td{q}{d}\t{(q + d + w) % 3}\t\tw{w}" for q in range(2) for d in range(3)
              for w in range(3)]
    lines.append("ctrl\tc1\t2\t2\tw0")
    path = tmp_path / "assignments.tsv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    report = import_annotations(path).report
    golden = next(c for c in report.columns if c.header == "GOLDEN:relevance")
    assert golden.reason == ("GOLDEN:relevance: grades on 1 row only, the known answers of "
                             "control tasks")
