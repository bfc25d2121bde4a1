"""The import against the space of sheets (issue 33): sheets composed by
tests/sheetgen.py from column kinds drawn at random, written as CSV, xlsx
or JSON Lines, imported by the command line; the invariants hold for each.

Per CI run: 60 sheets (one fixed, derandomized profile), a few seconds.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import re
from dataclasses import replace
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, assume, event, example, given, settings
from hypothesis import strategies as st

from app.cli.main import main
from core.errors import InputError
from core.io.annotator import import_annotations
from core.io.annotator import importer as importer_module
from core.io.annotator import sheet_preview as preview_module
from core.io.annotator.legend import LabelsRead, read_labels
from core.io.annotator.names import ranking_field
from core.io.annotator.sheet_preview import preview
from core.io.safety import column_letters
from core.model.numbers import number_text
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
    Run,
    runs,
    sheets,
    write_sheet,
)
from tests.sheetgen_blocks import Blocks, block_sheets
from tests.sheetgen_legends import LEGENDS
from tests.sheetgen_small import Small, small_wide_sheets

#: The sheets tried per run (stated in docs/import.md).
SHEETS_PER_RUN = 60
PROFILE = settings(max_examples=SHEETS_PER_RUN, deadline=None, derandomize=True, database=None,
                   suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                         HealthCheck.filter_too_much])


def _run(sheet: Drawn | Run, suffix: str) -> tuple[int, str, dict | None, list[dict[str, str]]]:
    """Import the written sheet: exit code, stderr-like message, report, rows."""
    with TemporaryDirectory() as tmp:
        path = write_sheet(sheet, Path(tmp) / f"drawn{suffix}")
        out_csv, report = Path(tmp) / "out.csv", Path(tmp) / "report.json"
        err = io.StringIO()
        try:
            import contextlib

            with contextlib.redirect_stderr(err):
                code = main(["import", str(path), "-o", str(out_csv), "--report", str(report),
                             *sheet.flags], io.StringIO())
        except SystemExit as exc:  # argparse
            code = int(exc.code or 0)
        data = json.loads(report.read_text("utf-8")) if report.exists() else None
        rows = []
        if code == 0:
            with open(out_csv, newline="", encoding="utf-8") as fh:
                rows = list(csv.DictReader(fh))
        return code, err.getvalue().replace(str(path), "drawn" + suffix), data, rows


def _grades(row: dict[str, str], several: bool) -> list[float]:
    keys = [k for k in row if k.startswith("grade_")] if several else ["grade"]
    return sorted(float(row[k]) for k in keys if row[k] != "")


@PROFILE
@given(sheets(), st.sampled_from([".csv", ".xlsx", ".jsonl"]))
def test_the_import_never_invents_and_never_drops(sheet: Drawn, suffix: str) -> None:
    if sheet.layout == "transposed" and suffix == ".jsonl":
        suffix = ".csv"
    _holds(sheet, *_run(sheet, suffix), suffix)


#: Sheets drawn with times as whole seconds or milliseconds since 1970
#: under neutral headers (``col4``), beside numeric ids as often as not.
EPOCH_SHEETS = 12


@settings(PROFILE, max_examples=EPOCH_SHEETS)
@given(sheets(among=("epoch", "epoch_ms"), headers="neutral").filter(
    lambda s: s.layout != "transposed"), st.sampled_from([".csv", ".xlsx"]))
def test_times_since_1970_are_read_as_times_never_as_ids(sheet: Drawn, suffix: str) -> None:
    """1733480000, 1733480012, ... (or in milliseconds) under a header that
    says nothing: read from their values (large whole numbers in a narrow
    band, in row order but for a few, few repeats, not counting by one) as
    times, left out, never the query or the source id; the invariants hold."""
    code, err, report, rows = _run(sheet, suffix)
    _holds(sheet, code, err, report, rows, suffix)
    if code == 0 and report is not None:
        header = sheet.rows[0]
        epochs = {header[c] for c, kind in enumerate(sheet.column_kinds)
                  if kind.startswith("epoch")}
        assert epochs
        for column in report["columns"]:
            if column["header"] in epochs:
                assert not column["role"], column
                assert "dates and times" in column["reason"], column


#: Sheets drawn with a count of a few values (100-102) under a neutral header.
TALLY_SHEETS = 10
_QUERIES = ["solar panel efficiency", "best hiking boots", "python csv unicode"]


def _tallied(tally: list[int], grades: list[int], per_query: int) -> Drawn:
    """A long sheet of one judge, a count first (``col1``), then the query,
    the source and the grade, as the generator drew them (300 sheets
    tried, 16 failed on 82e76eb)."""
    rows = [[t, _QUERIES[i // per_query], f"doc-0{i // per_query}-{i:04d}", g]
            for i, (t, g) in enumerate(zip(tally, grades, strict=True))]
    truth = {(r[1], r[2]): [float(r[3])] for r in rows}
    return Drawn([["col1", "col2", "col3", "col4"], *rows], "long", truth, kinds=["tally"],
                 grade_headers=["col4"], column_kinds=["tally", "query", "source", "grade"])


def _ranked_wide() -> Drawn:
    """Two judges' columns, a count, the query, a rank (1..4 in each query)
    under ``weight`` (a quantity's name: no grades) and the source: the
    rank varies within each count's items, as someone judging them would,
    and the count was read as the source."""
    tally = [241, 240, 240, 240, 243, 243, 245, 245, 248, 246, 248, 247]
    rank = [4, 2, 3, 1, 3, 1, 4, 2, 3, 4, 2, 1]
    ana, ben = [1, 2, 5, 2, 2, 5, 1, 3, 2, 4, 3, 5], [1, 1, 1, 2, 1, 1, 1, 2, 2, 5, 5, 5]
    header = ["grade_ana_at_lab_example", "col2", "col3", "weight", "col5",
              "grade_ben_at_lab_example"]
    rows = [[a, t, _QUERIES[i // 4], r, f"doc-0{i // 4}-{i % 4:04d}", b]
            for i, (a, t, r, b) in enumerate(zip(ana, tally, rank, ben, strict=True))]
    return Drawn([header, *rows], "wide", {(r[2], r[4]): sorted([float(r[0]), float(r[5])])
                                           for r in rows},
                 grade_headers=[header[0], header[5]], kinds=["tally", "rank"],
                 column_kinds=["grade", "tally", "query", "rank", "source", "grade"])


@settings(PROFILE, max_examples=TALLY_SHEETS, phases=[Phase.explicit, Phase.generate])
# in runs as the query is, and first: one value holds a single item, no query's list
@example(_tallied([1200, 1200, 1201, 1203, 1204, 1204], [0, 3, 1, 2, 0, 3], 3), ".csv")
# each value lists two items, as a query does: refused, naming both
@example(_tallied([101, 101, 102, 102, 104, 104, 105, 105], [0, 3, 1, 2, 0, 3, 1, 1], 4),
         ".xlsx")
# the queries again, in numbers: the one in words is the query
@example(_tallied([101] * 4 + [104] * 4, [0, 3, 1, 2, 0, 3, 1, 1], 4), ".csv")
@example(_ranked_wide(), ".csv")
@given(sheets(among=("tally",), headers="neutral").filter(lambda s: s.layout != "transposed"),
       st.sampled_from([".csv", ".xlsx"]))
def test_a_count_of_few_values_is_never_the_source_id(sheet: Drawn, suffix: str) -> None:
    """101, 101, 102, 100, ... under ``col7``: it fixes the query and has more
    values than it, as a source id does, but several items share each of
    its values with no one else judging them: never the source id (the
    drawn truth's ids are), nor the query, unless it lists several items
    for each of its values, as a query does: then the import refuses in one
    line naming both columns (or reads the query, when the count says its
    queries in other words); never offered as the ranking (several items
    share each value: a ranking would tie them); the invariants hold."""
    code, err, report, rows = _run(sheet, suffix)
    if _both_queries(sheet, code, err, "tally"):
        return
    _holds(sheet, code, err, report, rows, suffix)
    if code == 0 and report is not None:
        tally = {sheet.rows[0][c] for c, kind in enumerate(sheet.column_kinds)
                 if kind == "tally"}
        assert tally
        assert report["mapping"]["source_id"] not in tally, report["mapping"]
        for column in report["columns"]:  # nor offered as the ranking: it ties items
            if column["header"] in tally:
                assert not (column["flag"] or "").startswith("--map score="), column


def _both_queries(sheet: Drawn, code: int, err: str, *others: str) -> bool:
    """Whether the import refused naming the drawn query's column and one
    of the ``others`` kinds' as both could be the query, in one line
    saying what to pass."""
    if code == 0 or "both could be the query" not in err:
        return False
    header = sheet.rows[0]
    kinds = {header[c]: kind for c, kind in enumerate(sheet.column_kinds)}
    named = err.split(": both could be the query")[0].rsplit(": ", 1)[-1].split(" or ")
    assert len(err.strip().splitlines()) == 1, err
    assert len(named) == 2, err
    assert "query" in [kinds[n] for n in named], err
    assert {kinds[n] for n in named} - {"query"} <= set(others), err
    assert "--map query=" in err, err
    return True


#: Sheets drawn with the queries as TREC topic numbers (1.., 51.., 301..)
#: under a neutral header, beside a count of a few values as often as not.
TOPIC_SHEETS = 10


@settings(PROFILE, max_examples=TOPIC_SHEETS, phases=[Phase.generate])
@given(st.booleans().flatmap(lambda tally: sheets(
    among=("tally",) if tally else (), headers="neutral", topics=True)).filter(
    lambda s: s.layout != "transposed"), st.sampled_from([".csv", ".xlsx"]))
def test_numeric_query_ids_are_read_as_the_query(sheet: Drawn, suffix: str) -> None:
    """1, 1, 1, 2, 2, 3, ... under ``col2``: small whole numbers, read like
    grades, but each on one run of rows listing several sources (a grade
    varies within a query): the query, without ``--map query=``; beside a
    count whose values list several items each, as a query's do, or a
    grade that is one value over each query, the import refuses naming
    both; the invariants hold."""
    code, err, report, rows = _run(sheet, suffix)
    if _both_queries(sheet, code, err, "tally", "grade"):
        return
    _holds(sheet, code, err, report, rows, suffix)
    if code == 0 and report is not None:
        query = sheet.rows[0][sheet.column_kinds.index("query")]
        assert report["mapping"]["query"] == query, report["mapping"]


#: Sheets drawn with a batch's number (over whole queries).
BATCH_SHEETS = 10


def _batches_within_queries() -> Drawn:
    """A HIT's batch of 2 rows under ``col2`` (12, 12, 13, 13, ...) whose
    runs each stay within one query of 4: what topic numbers beside their
    category in words would be, so the import names both that could be the
    query (drawn on this branch in some runs and not others: its truth now
    says it is ambiguous, and it is tried every run)."""
    grades = [0, 1, 3, 2, 2, 1, 2, 3]
    rows = [[g, 12 + i // 2, _QUERIES[i // 4], f"doc-0{i // 4}-{i:04d}"]
            for i, g in enumerate(grades)]
    return Drawn([["col1", "col2", "col3", "col4"], *rows], "long",
                 {(r[2], r[3]): [float(r[0])] for r in rows}, ambiguous=True,
                 kinds=["row_batch"], grade_headers=["col1"],
                 column_kinds=["grade", "row_batch", "query", "source"])


@settings(PROFILE, max_examples=BATCH_SHEETS, phases=[Phase.explicit, Phase.generate])
@example(_batches_within_queries(), ".csv")
# a batch of two queries each, under col4: once a second annotator's grades
@example(replace(_tallied([1] * 6 + [2] * 3, [0, 3, 1, 2, 0, 3, 1, 1, 2], 3),
               kinds=["batch"], column_kinds=["batch", "query", "source", "grade"]), ".csv")
@given(st.sampled_from(["batch", "row_batch"]).flatmap(lambda kind: sheets(among=(kind,))).filter(
    lambda s: s.layout != "transposed"), st.sampled_from([".csv", ".xlsx"]))
def test_a_batch_number_is_never_read_as_grades(sheet: Drawn, suffix: str) -> None:
    """1, 1, 1, 1, 2, 2, ... under ``batch`` or ``col6``: small whole numbers,
    one value over whole queries, or counting up over runs of rows that
    cut through a query's (a HIT's batch), where grades vary within
    a query across its documents: left out saying so, never a grade column
    (one more annotator's), and the grades imported are the drawn ones."""
    code, err, report, rows = _run(sheet, suffix)
    _holds(sheet, code, err, report, rows, suffix)
    assert code == 0 or not sheet.ambiguous or "batch" not in err, err
    if code != 0:
        return
    assert report is not None
    batches = {sheet.rows[0][c] for c, kind in enumerate(sheet.column_kinds)
               if kind in ("batch", "row_batch")}
    assert batches
    for column in report["columns"]:
        if column["header"] in batches:
            assert column["role"] is None, column
            assert "a batch's or a group's number" in column["reason"], column


#: Tiny sheets drawn with each annotator's grades the same for all of a
#: query's items.
FLAT_SHEETS = 10


@settings(PROFILE, max_examples=FLAT_SHEETS, phases=[Phase.explicit, Phase.generate])
@example(Drawn([["query", "doc", "col3"], *([f"q{q}", f"d{q}{d}", g] for q, g in enumerate(
    [2, 0, 3]) for d in range(2))], "long", {(f"q{q}", f"d{q}{d}"): [float(g)] for q, g in
                                             enumerate([2, 0, 3]) for d in range(2)},
               grade_headers=["col3"], column_kinds=["query", "source", "grade"]), ".csv")
@given(sheets(flat=True), st.sampled_from([".csv", ".xlsx"]))
def test_grades_constant_within_each_query_are_grades(sheet: Drawn, suffix: str) -> None:
    """q1's items all graded 2, q2's all 0, q3's all 3 (a tiny sheet): a
    grade column though it does not vary within a query (it was refused as
    'no grade column', taken for a batch's number); refused in one line
    only where it counts up down the sheet as a batch's number does (0, 0,
    1, 1) under a header that says nothing; the invariants hold."""
    if sheet.layout == "transposed":
        suffix = ".csv"
    code, err, report, rows = _run(sheet, suffix)
    _holds(sheet, code, err, report, rows, suffix)


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
        assert re.fullmatch(r"id: numbers 10\d\d to 10\d\d, one per item; if this is the "
                            r"ranking, pass --map score=id", said["id"]), said["id"]


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
    predictions a task doubled every annotation, refused as graded again)."""
    code, err, report, rows = _run(sheet, ".json")
    event("small ids" if '"id": 1,' in (sheet.text or "") else "large ids")
    event(f"{sheet.predicted_rows} predicted rows")
    event(f"{sum(not v for v in sheet.truth.values())} tasks every person cancelled")
    assert code == 0, err
    assert report is not None
    tally = report["rows"]
    assert tally["read"] == sum(map(len, sheet.truth.values())) + sheet.cancelled \
        + sheet.predicted_rows, tally
    assert tally["imported"] == tally["read"] - sheet.cancelled - sheet.predicted_rows, tally
    assert tally["ungraded"] == sheet.predicted_rows, tally
    # rows of a task's predictions are said to be what they are, and name no
    # one (an annotator '(no name)' was added, holding no grade)
    assert report["rows_predicted"] == {"rows": sheet.predicted_rows, "columns": [
        "predictions.result.value.choices"] if sheet.predicted_rows else []}, report
    assert "(no name)" not in report["annotators"], report["annotators"]
    assert sum(tally["skipped"].values()) == sheet.cancelled, tally
    assert all(c["role"] or c["reason"] for c in report["columns"])
    # a comment beside the choice: a column per control, each annotation
    # one row (a row per answer put the comments among the grades, refused)
    assert report["mapping"]["grade"] == sheet.grade_headers[0], report["mapping"]
    assert report["ranking"] == "none: judgments only"
    _counts_hold(report)
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
    stamped = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d")
    assert not any(stamped.search(r.get("note", "")) for r in rows), [r.get("note") for r in rows]


#: Sheets of blocks drawn: a pivot table's compact layout, titled blocks.
BLOCK_SHEETS = 16


@settings(PROFILE, max_examples=BLOCK_SHEETS, phases=[Phase.generate])
@given(block_sheets(), st.sampled_from([".csv", ".xlsx"]))
def test_sheets_of_blocks_are_refused_naming_their_rows(sheet: Blocks, suffix: str) -> None:
    """A pivot table's compact layout (each query written once, on its
    block's first row) and titled blocks (``Query: ...`` over a header of
    their own): refused in one line naming the rows that show the layout
    (the pivot's rows were rejected as 'the query is empty' saying nothing
    of why; the titled blocks read as 'one row per respondent and one
    column per item')."""
    code, err, _, _ = _run(sheet, suffix)  # type: ignore[arg-type]
    event(f"{sheet.kind} {suffix}")
    word = "line" if suffix == ".csv" else "row"
    assert code == 2, err
    assert err.count("\n") == 1, err  # one line
    if sheet.kind == "pivot":
        assert f" {word} {sheet.empty_at}, column " in err, err
        assert (f"the query is empty (written on {word} {sheet.query_at} only, at its block's "
                "head, as a pivot table's compact layout writes it: repeat it on each row, in "
                "Excel with Repeat All Item Labels)") in err, err
    else:
        again = f"{word}{'s' if len(sheet.again_at) > 1 else ''} " + ", ".join(
            map(str, sheet.again_at))
        assert (f": the header on {word} {sheet.header_at} is written again on {again}: the "
                "sheet is blocks of rows, each under a title row "
                f"({sheet.title[0]!r} on {word} {sheet.title[1]}), and no column says each "
                "row's query") in err, err


#: Small wide sheets drawn, as typed by hand (tests/sheetgen_small.py).
SMALL_SHEETS = 24


def _small(sheet: Small, tmp: Path, *flags: str) -> tuple[int, str, list[dict[str, str]]]:
    """Import the small sheet written as CSV: exit code, message, rows."""
    path, out = tmp / "small.csv", tmp / "out.csv"
    with open(path, "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows(sheet.rows)
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code = main(["import", str(path), "-o", str(out), *flags], io.StringIO())
    rows = []
    if code == 0:
        with open(out, newline="", encoding="utf-8") as fh:
            rows = list(csv.DictReader(fh))
    return code, err.getvalue().replace(str(path), "small.csv"), rows


def _every_grade(sheet: Small, rows: list[dict[str, str]]) -> None:
    """Each annotator's every grade of the truth, imported as theirs."""
    assert len(rows) == len(sheet.truth)
    for row in rows:
        by = sheet.truth[(row["query"], row["source_id"])]
        got = {who: row.get(f"grade_{who}") for who in by}
        assert got == {who: str(g) for who, g in by.items()}, (sheet.rows, row)


@settings(PROFILE, max_examples=SMALL_SHEETS, phases=[Phase.explicit, Phase.generate])
@example(Small([["query", "doc", "Alice", "Bob"], ["shoes", "d1", 3, 1], ["shoes", "d2", 1, 2],
                ["shoes", "d3", 0, 3], ["hats", "d4", 2, 2]], ["Alice", "Bob"],
               {("shoes", "d1"): {"Alice": 3, "Bob": 1}, ("shoes", "d2"): {"Alice": 1, "Bob": 2},
                ("shoes", "d3"): {"Alice": 0, "Bob": 3}, ("hats", "d4"): {"Alice": 2, "Bob": 2}}))
@given(small_wide_sheets())
def test_a_small_wide_sheet_never_drops_an_annotator(sheet: Small) -> None:
    """Two or three annotators' grades 0-3 under their first names, 2-6 rows
    typed by hand, often counting a query's documents 1, 2, … as a rank
    would: every grade of the truth is imported as its annotator's, or the
    import stops in one line naming each annotator's column and the flag
    that reads them all, which then does (Bob's 1, 2, 3 were left out as
    'whole numbers counting each query's sources', the sheet read as long:
    Alice's grades alone)."""
    with TemporaryDirectory() as tmp:
        code, err, rows = _small(sheet, Path(tmp))
        event("imported" if code == 0 else "refused")
        if code == 0:
            _every_grade(sheet, rows)
            return
        assert code == 2, err
        assert err.count("\n") == 1, err
        assert "small.csv: " in err, err
        assert all(re.search(rf"\b{who}\b", err) for who in sheet.annotators), err
        every = [m for m in re.findall(r"--annotators ([^\s;()]+)", err)
                 if m.count(",") == len(sheet.annotators) - 1]
        assert every, err
        code, err, rows = _small(sheet, Path(tmp), "--annotators", every[0])
        assert code == 0, err
        _every_grade(sheet, rows)


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
    tally = report["rows"]
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
PRODIGY_JSONL = 20


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


def _prodigy_features(lines: list[dict[str, Any]]) -> list[str]:
    """What a drawn Prodigy dataset holds, said as hypothesis' events."""
    first = lines[0]
    out = [first["_view_id"], "query in meta" if "query" in first["meta"] else "query a field"]
    if "options" in first:
        out.append(f"option ids {type(first['options'][0]['id']).__name__}")
    out += [name for name, holds in (
        ("no _annotator_id", "_annotator_id" not in first), ("textcat.teach", "score" in first),
        ("declined after choosing", any(x["answer"] == "reject" and x.get("accept")
                                        for x in lines)),
        ("a task ignored", any(x["answer"] == "ignore" for x in lines))) if holds]
    return out


def test_one_answer_per_column_needs_one_true_per_row(tmp_path: Path) -> None:
    """MTurk's radio button a column per choice (``Answer.rel.0`` ...): a
    row with two choices true, or none, has no known grade: refused in one
    line naming the row and the columns, never read as the first true
    (nor as labels ``true`` / ``false`` with a rubric of ``N=true``)."""
    head = "WorkerId,Input.query,Input.doc_id,Answer.rel.0,Answer.rel.1,Answer.rel.2\n"
    rows = ["w1,q1,d1,false,true,false", "w1,q1,d2,true,false,false",
            "w1,q2,d3,false,false,true", "w1,q2,d4,false,true,false"]
    sheet = tmp_path / "batch.csv"
    sheet.write_text(head + "\n".join(rows) + "\n", encoding="utf-8")
    report = tmp_path / "r.json"
    assert main(["import", str(sheet), "-o", str(tmp_path / "o.csv"), "--report",
                 str(report)], io.StringIO()) == 0
    columns = json.loads(report.read_text("utf-8"))["columns"]
    assert [(c["column"], c["role"], c["reason"]) for c in columns[3:]] == [
        ("D", "grade", "Answer.rel, named so; numbers 0 to 2")] + [
        (x, None, f"Answer.rel.{n}: columns D-F (Answer.rel.0 ... Answer.rel.2), one answer per "
         "column, read as one grade column 'Answer.rel' in D; not imported as a column of its "
         "own") for n, x in ((1, "E"), (2, "F"))]  # never 'empty: no row holds a value'
    for bad, said in (("w1,q2,d5,false,true,true", "true in E, F"),
                      ("w1,q2,d5,false,false,false", "no column true")):
        sheet = tmp_path / "batch.csv"
        sheet.write_text(head + "\n".join([*rows, bad]) + "\n", encoding="utf-8")
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            code = main(["import", str(sheet), "-o", str(tmp_path / "o.csv")], io.StringIO())
        assert code == 2
        assert err.getvalue() == (
            f"ndcg-worksheet: error: {sheet}, line 6, column 'D': columns D-F (Answer.rel.0 "
            f"... Answer.rel.2) hold one answer per column, true in the one chosen, and this "
            f"row has {said}, so its grade is not known (mark the one answer chosen on this "
            "row, or delete the row)\n")


@pytest.mark.parametrize(("choices", "column", "said"), [
    (["Answer.rel.0.on", "Answer.rel.1.on", "Answer.rel.2.on"], "Answer.rel", "the number"),
    (["Answer.rel0.on", "Answer.rel1.on", "Answer.rel2.on"], "Answer.rel", "the number"),
    (["rel_0-yes", "rel_1-yes", "rel_2-yes"], "rel", "the number"),
    (["Answer.not_relevant.on", "Answer.relevant.on", "Answer.highly_relevant.on"], "Answer",
     "the word"),
    (["rel-not relevant-yes", "rel-relevant-yes", "rel-highly relevant-yes"], "rel",
     "the word")])
def test_a_radio_buttons_choices_with_suffixes_are_one_grade_column(
        tmp_path: Path, choices: list[str], column: str, said: str) -> None:
    """MTurk's crowd radio buttons mark each choice ``.on`` (``Answer.rel.0.on``,
    ``Answer.rel2.on``, ``Answer.relevant.on``), others ``-yes`` or ``_N``: one
    grade column all the same, a numbered choice's grade its number, a
    word's the label it names. They were each one annotator's true/false
    grades (15 of 30 judgments rejected as repeats), or the first a
    checkbox of grade 1 and the others left out."""
    rows = ["w1,q1,d1,false,true,false", "w1,q1,d2,true,false,false",
            "w1,q2,d3,false,false,true", "w1,q2,d4,false,true,false",
            "w2,q1,d1,false,false,true", "w2,q2,d3,true,false,false"]
    sheet = tmp_path / "batch.csv"
    sheet.write_text("WorkerId,Input.query,Input.doc_id," + ",".join(choices) + "\n"
                     + "\n".join(rows) + "\n", encoding="utf-8")
    rows, data = _imported_with_report(sheet)
    got = [(r["source_id"], r["grade_w1"], r["grade_w2"]) for r in rows]
    assert got == [("d1", "1", "2"), ("d2", "0", ""), ("d3", "2", "0"), ("d4", "1", "")]
    assert [(c["column"], c["role"]) for c in data["columns"][3:]] == [
        ("D", "grade"), ("E", None), ("F", None)]
    assert data["columns"][3]["header"] == column
    assert [n for n in data["notes"] if "one answer per column" in n] == [
        f"columns D-F ({choices[0]} ... {choices[-1]}): one answer per column, true in the "
        f"one chosen; read as one grade column {column!r} in D, each row's grade {said} "
        + ("its true column ends with" if said == "the number" else
           "its true column names, a label read as the grade column's are")]


#: A radio button's six answers (w1's four, w2's two): the chosen choice's
#: place among three, and whether a checkbox beside it is ticked.
_CHOSEN = [("w1", "q1", "d1", 1, False), ("w1", "q1", "d2", 0, True),
           ("w1", "q2", "d3", 2, False), ("w1", "q2", "d4", 1, False),
           ("w2", "q1", "d1", 2, True), ("w2", "q2", "d3", 0, False)]


@pytest.mark.parametrize(("choices", "box", "marks", "column"), [
    (["Answer.rel.not_relevant", "Answer.rel.relevant", "Answer.rel.highly_relevant"], None,
     ("true", "false"), "Answer.rel"),
    (["Answer.rel.not_relevant", "Answer.rel.relevant", "Answer.rel.highly_relevant"], None,
     ("on", ""), "Answer.rel"),
    (["Answer.q1.not relevant", "Answer.q1.relevant", "Answer.q1.highly relevant"], None,
     ("on", ""), "Answer.q1"),
    (["Answer.rel.0.on", "Answer.rel.1.on", "Answer.rel.2.on"], "Answer.unsure.on",
     ("true", "false"), "Answer.rel"),
    (["Answer.rel.0.on", "Answer.rel.1.on", "Answer.rel.2.on"], "Answer.rel.unsure.on",
     ("true", "false"), "Answer.rel"),
    (["Answer.rel.0", "Answer.rel.1", "Answer.rel.2"], "Answer.rel.unsure", ("on", ""),
     "Answer.rel"),
    (["Answer.not_relevant.on", "Answer.relevant.on", "Answer.highly_relevant.on"],
     "Answer.unsure.on", ("true", "false"), "Answer"),
    (["rel-not relevant-yes", "rel-relevant-yes", "rel-highly relevant-yes"],
     "rel-unsure-yes", ("true", "false"), "rel")])
def test_radio_buttons_unmarked_or_beside_a_checkbox(
        tmp_path: Path, choices: list[str], box: str | None, marks: tuple[str, str],
        column: str) -> None:
    """A radio button's choices by word with no suffix (an HTML form's
    ``Answer.rel.relevant``, true / false or ``on`` / nothing) are one grade
    column (each its own annotator's grades before, 6 of 18 judgments
    rejected as repeats, or refused as labels ``on``); a checkbox beside
    numbered or worded choices (``Answer.unsure.on``, in their group or
    not) is no grade: left out saying so (beside ``Answer.rel.N.on`` in
    the group it dropped the group, 8 of 24 judgments rejected; among
    words it made them checkboxes, ``Answer.relevant.on`` read alone as a
    checkbox's grades, 0 or 1, in silence)."""
    head = ["WorkerId", "Input.query", "Input.doc_id", *choices, *([box] if box else [])]
    rows = [[w, q, d, *(marks[n != chosen] for n in range(3)),
             *([marks[not ticked]] if box else [])] for w, q, d, chosen, ticked in _CHOSEN]
    sheet = tmp_path / "batch.csv"
    sheet.write_text("\n".join(",".join(r) for r in [head, *rows]) + "\n", encoding="utf-8")
    rows, data = _imported_with_report(sheet)
    got = [(r["source_id"], r["grade_w1"], r["grade_w2"]) for r in rows]
    assert got == [("d1", "1", "2"), ("d2", "0", ""), ("d3", "2", "0"), ("d4", "1", "")]
    assert [(c["column"], c["role"]) for c in data["columns"][3:]] == [
        ("D", "grade"), ("E", None), ("F", None), *([("G", None)] if box else [])]
    assert data["columns"][3]["header"] == column
    if box:
        assert data["columns"][6]["reason"] == (
            f"{box}: a checkbox beside the radio button {column!r} of columns D-F "
            f"({choices[0]} ... {choices[-1]}), ticked on 2 rows: not one of its grades; not "
            "imported")


def test_a_checkbox_ticked_instead_of_a_choice_is_no_judgment(tmp_path: Path) -> None:
    """``Answer.unsure.on`` ticked where no choice is: the row holds no
    judgment (its grade unknown), never refused as a row of no choice,
    nor a grade; a row of no choice and nothing ticked is still refused."""
    head = "WorkerId,Input.query,Input.doc_id,Answer.rel.0.on,Answer.rel.1.on,Answer.rel.2.on," \
        "Answer.unsure.on\n"
    rows = ["w1,q1,d1,false,true,false,true", "w1,q1,d2,true,false,false,false",
            "w1,q2,d3,false,false,false,true", "w1,q2,d4,false,false,true,false"]
    sheet = tmp_path / "batch.csv"
    sheet.write_text(head + "\n".join(rows) + "\n", encoding="utf-8")
    out, report = tmp_path / "o.csv", tmp_path / "r.json"
    assert main(["import", str(sheet), "-o", str(out), "--report", str(report)],
                io.StringIO()) == 0
    with open(out, newline="", encoding="utf-8") as fh:
        assert [(r["source_id"], r["grade"]) for r in csv.DictReader(fh)] == [
            ("d1", "1"), ("d2", "0"), ("d3", ""), ("d4", "2")]
    data = json.loads(report.read_text("utf-8"))
    assert (data["judgments_read"], data["blank_grades"]) == (3, 1)
    sheet.write_text(head + "\n".join([*rows, "w1,q2,d5,false,false,false,false"]) + "\n",
                     encoding="utf-8")
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        assert main(["import", str(sheet), "-o", str(out)], io.StringIO()) == 2
    assert "line 6, column 'D'" in err.getvalue()
    assert "no column true" in err.getvalue()


def test_radio_buttons_words_are_read_as_their_scale(tmp_path: Path) -> None:
    """``Answer.rel.irrelevant`` | ``.partially`` | ``.relevant`` (no suffix,
    a group named as the grade): one grade column, its words a known
    scale's levels in order, irrelevant 0, partially 1, relevant 2 (it was
    refused, ``partially`` on no known scale, asking for --rubric; before
    that, as 6 of 18 judgments repeated: each column taken for an
    annotator named ``irrelevant``, ``partially``, ...)."""
    head = "WorkerId,Input.query,Input.doc_id,Answer.rel.irrelevant,Answer.rel.partially," \
        "Answer.rel.relevant"
    rows = [",".join([w, q, d, *("true" if n == c else "false" for n in range(3))])
            for w, q, d, c, _ in _CHOSEN]
    sheet = tmp_path / "batch.csv"
    sheet.write_text("\n".join([head, *rows]) + "\n", encoding="utf-8")
    out, report = tmp_path / "o.csv", tmp_path / "r.json"
    assert main(["import", str(sheet), "-o", str(out), "--report", str(report)],
                io.StringIO()) == 0
    assert json.loads(report.read_text("utf-8"))["rubric"] == {
        "irrelevant": 0.0, "partially": 1.0, "relevant": 2.0}
    with open(out, newline="", encoding="utf-8") as fh:
        got = [(r["source_id"], r["grade_w1"], r["grade_w2"]) for r in csv.DictReader(fh)]
    assert got == [("d1", "1", "2"), ("d2", "0", ""), ("d3", "2", "0"), ("d4", "1", "")]


def test_one_hot_columns_of_no_grade_stay_their_columns(tmp_path: Path) -> None:
    """``Input.is_mobile`` | ``Input.is_desktop`` (true in one a row, no
    suffix, words of no scale under a name of no grade) are no radio
    button of grades: their columns, the grades beside them imported."""
    sheet = tmp_path / "batch.csv"
    sheet.write_text("WorkerId,Input.query,Input.doc_id,Answer.relevance,Input.is_mobile,"
                     "Input.is_desktop\nw1,q1,d1,2,true,false\nw1,q1,d2,0,false,true\n"
                     "w1,q2,d3,3,false,true\nw1,q2,d4,1,true,false\n", encoding="utf-8")
    rows, report = _imported_with_report(sheet)
    assert [r["grade"] for r in rows] == ["2", "0", "3", "1"]
    assert [(c["header"], c["role"]) for c in report["columns"][3:]] == [
        ("Answer.relevance", "grade"), ("Input.is_mobile", None), ("Input.is_desktop", None)]


def test_annotators_checkboxes_numbered_are_no_radio_button(tmp_path: Path) -> None:
    """Google Sheets' checkboxes of two annotators numbered (``grade_1``,
    ``relevance 2``: no dot, no suffix marking a choice) are each one's
    binary grades, never one radio button's choices refused for rows of
    two trues (the suffixes' change first read them so)."""
    for a, b in (("grade_1", "grade_2"), ("relevance 1", "relevance 2")):
        sheet = tmp_path / "boxes.csv"
        sheet.write_text(f"query,doc_id,{a},{b}\nq1,d1,TRUE,TRUE\nq1,d2,FALSE,TRUE\n"
                         "q1,d3,TRUE,FALSE\nq2,d4,FALSE,FALSE\nq2,d5,TRUE,TRUE\n",
                         encoding="utf-8")
        out = tmp_path / "o.csv"
        assert main(["import", str(sheet), "-o", str(out)], io.StringIO()) == 0
        with open(out, newline="", encoding="utf-8") as fh:
            got = [[v for k, v in r.items() if k.startswith("grade_")]
                   for r in csv.DictReader(fh)]
        assert got == [["1", "1"], ["0", "1"], ["1", "0"], ["0", "0"], ["1", "1"]], (a, got)


def test_crowd_checkboxes_beside_the_grades_are_no_radio_button(tmp_path: Path) -> None:
    """MTurk's crowd checkboxes (``Answer.broken.on``, ``Answer.paywall.on``:
    none true on most rows, both on some) beside the grades are no radio
    button's words, though their prefix ``Answer`` names an answer: left as
    their columns, the grades imported (the suffixes' change first refused
    the sheet at its first row of no true)."""
    sheet = tmp_path / "batch.csv"
    sheet.write_text("WorkerId,Input.query,Input.doc_id,Answer.relevance,Answer.broken.on,"
                     "Answer.paywall.on\nw1,q1,d1,2,false,false\nw1,q1,d2,0,true,true\n"
                     "w1,q2,d3,3,false,false\nw1,q2,d4,1,true,false\n", encoding="utf-8")
    rows, report = _imported_with_report(sheet)
    assert [r["grade"] for r in rows] == ["2", "0", "3", "1"]
    assert [(c["header"], c["role"]) for c in report["columns"][3:]] == [
        ("Answer.relevance", "grade"), ("Answer.broken.on", None), ("Answer.paywall.on", None)]


def test_a_checkbox_per_choice_beside_the_grades_is_no_radio_button(tmp_path: Path) -> None:
    """A question of several answers exported a column per choice
    (``Answer.flags.0`` ...: two true on a row, or none) beside the grades'
    radio button is no grade's radio button: left as its columns, the
    grades imported (it stopped the import naming its row)."""
    head = ("WorkerId,Input.query,Input.doc_id,Answer.rel.0,Answer.rel.1,Answer.rel.2,"
            "Answer.flags.0,Answer.flags.1\n")
    rows = ["w1,q1,d1,false,true,false,true,true", "w1,q1,d2,true,false,false,false,false",
            "w1,q2,d3,false,false,true,true,false", "w1,q2,d4,false,true,false,false,true"]
    sheet = tmp_path / "batch.csv"
    sheet.write_text(head + "\n".join(rows) + "\n", encoding="utf-8")
    out, report = tmp_path / "o.csv", tmp_path / "r.json"
    assert main(["import", str(sheet), "-o", str(out), "--report", str(report)],
                io.StringIO()) == 0
    grades = [line.split(",")[:5:4] for line in out.read_text("utf-8").splitlines()[1:]]
    assert grades == [["q1", "1"], ["q1", "0"], ["q2", "2"], ["q2", "1"]]
    columns = json.loads(report.read_text("utf-8"))["columns"]
    assert [(c["column"], c["role"]) for c in columns[6:]] == [("G", None), ("H", None)]


#: Long sheets drawn with workers numbered 1..n, each judging one item per query.
LATIN_SHEETS = 10


@settings(PROFILE, max_examples=LATIN_SHEETS, phases=[Phase.generate])
@given(sheets(latin=True), st.sampled_from([".csv", ".xlsx"]))
def test_workers_numbered_one_to_n_are_who_judged(sheet: Drawn, suffix: str) -> None:
    """Workers 1..6, each judging one item of every query (2 or 3 of them
    each item): their numbers count each query's rows 1..n as a rank's
    would, and read like grades; they are who judged (or the import
    refuses in one line), never the ranking nor an annotator's grades."""
    code, err, report, rows = _run(sheet, suffix)
    _holds(sheet, code, err, report, rows, suffix)
    if code == 0:
        assert report is not None
        who = sheet.rows[0][sheet.column_kinds.index("who")]
        assert report["mapping"].get("annotator") == who, report["mapping"]


#: Sheets drawn with a rank (1..n within each query) under a header naming
#: no ranking, and runs of no grades (qid, pid, rank).
RANK_SHEETS = 10


def _in_stock(wide: bool) -> Drawn:
    """A true/false column (``in_stock``) whose true rows, and only those,
    carry a comment, beside a rank under ``value``: the comment answers
    nothing, so the true rows are judgments, not control tasks (the wide
    sheet as the generator drew it: 5 of its 6 judgments were skipped as
    control tasks)."""
    said = ["0 - Not relevant", "1 - Somewhat relevant", "2 - Highly relevant"]
    alice, bob, stock = [0, 2, 0, 1, 1, 2], [0, 2, 0, 2, 1, 2], [True] * 5 + [False]
    if not wide:
        alice, stock = [0, 2, 1, 3, 1, 2], [True, False, True, True, False, True]
    header = ["Input.doc_id", "search_term", "grade_Alice", "grade_Bob", "in_stock", "comment",
              "value"]
    rows = [[f"B0{i // 3}00{i % 3}XK{i % 3}", _QUERIES[i // 3], said[a] if wide else a,
             said[b], str(t).lower(), "page did not load" if t else "", i % 3 + 1]
            for i, (a, b, t) in enumerate(zip(alice, bob, stock, strict=True))]
    kinds = ["source", "query", "grade", "grade", "boolean", "text", "rank"]
    if not wide:  # one judge's grades under relevance
        header, kinds = [h for h in header if h != "grade_Bob"], kinds[:3] + kinds[4:]
        header[2] = "relevance"
        rows = [r[:3] + r[4:] for r in rows]
    truth = {(r[1], r[0]): sorted(float(said.index(g)) if isinstance(g, str) else float(g)
                                  for g in r[2:4 if wide else 3]) for r in rows}
    # (long: the rank 1, 2, 3 / 1, 2, 3 beside one judge's grades of two
    # queries of three is what grades do by chance: the import may refuse)
    return Drawn([header, *rows], "wide" if wide else "long", truth, kinds=["boolean", "text",
                                                                          "rank"],
                 ambiguous=not wide,
                 grade_headers=[h for h in header if h.startswith("grade") or h == "relevance"],
                 column_kinds=kinds)


@settings(PROFILE, max_examples=RANK_SHEETS, phases=[Phase.explicit, Phase.generate])
@example(_in_stock(wide=True), ".csv")
@example(_in_stock(wide=False), ".xlsx")
@given(sheets(among=("rank",)).filter(lambda s: s.layout != "transposed"),
       st.sampled_from([".csv", ".xlsx"]))
def test_a_rank_beside_grades_is_never_read_as_grades(sheet: Drawn, suffix: str) -> None:
    """3, 1, 2, 4 / 2, 1, 3 ... under ``value`` or ``col5``: small whole
    numbers, one per item, counting each query's items: left out (with the
    flag that would make it the ranking), never a grade column, and the
    grades imported are the drawn ones."""
    code, err, report, rows = _run(sheet, suffix)
    _holds(sheet, code, err, report, rows, suffix)
    if code != 0:  # refused where a reader would hesitate too (_holds checks it)
        return
    assert report is not None
    ranks = {sheet.rows[0][c] for c, kind in enumerate(sheet.column_kinds)
             if kind == "rank"} - {sheet.ranking}  # the drawn ranking may be a rank too
    assert ranks
    for column in report["columns"]:
        if column["header"] in ranks:
            assert column["role"] is None, column
            assert column["flag"].startswith("--map rank="), column


@settings(PROFILE, max_examples=RANK_SHEETS, phases=[Phase.generate])
@given(runs(), st.sampled_from([".tsv", ".csv"]))
def test_a_run_of_no_grades_is_refused_naming_its_rank(run: Run, suffix: str) -> None:
    """An MS MARCO-style run (qid, pid, rank), headerless or under headers
    naming no rank: never imported as judgments graded 1..n; refused in
    one line naming the file, the rank's column and the command that reads
    a run."""
    code, err, _, rows = _run(run, suffix)
    event(f"run {'headerless' if run.headerless else 'under headers'} {suffix}")
    assert (code, rows) == (2, []), err
    assert err.count("\n") == 1, err
    assert f"drawn{suffix}" in err
    assert "counts 1, 2, 3, … within each query, like a rank, not a grade" in err, err
    assert f"--map grade={run.rank_letter})" in err, err
    assert "ndcg-worksheet evaluate RUN --qrels QRELS" in err
    # a headerless run's row 1 (numbers under numbers) is data, never its header
    assert ("(no header: row 1 is data)" in err) == run.headerless, err


def _holds(sheet: Drawn, code: int, err: str, report: dict | None, rows: list[dict[str, str]],
           suffix: str) -> None:
    """The invariants of an imported (or refused) drawn sheet."""
    event(f"{sheet.layout} {suffix}: {'imported' if code == 0 else 'refused'}")
    if code != 0:
        # A refusal is one line naming the file and what to pass.
        assert code == 2, err
        lines = err.strip().splitlines()
        assert len(lines) == 1, err
        assert f"drawn{suffix}" in lines[0], err
        assert "pass " in lines[0], err
        # Refused only where a reader would hesitate too: a distractor that
        # reads as grades under a header that does not say what it is.
        assert sheet.ambiguous or sheet.extra_grade, err
        if sheet.extra_grade and not sheet.ambiguous:
            assert "--annotators" in lines[0], err
        return
    if sheet.extra_grade:  # imported: both columns of grades are used, one per annotator
        used = report["mapping"].get("annotators") or []
        assert set(sheet.grade_headers) <= set(used), "a column of grades dropped"
        assert sheet.ambiguous or len(used) == len(sheet.grade_headers), used
        return
    assert report is not None
    # The rows add up, every column is accounted for.
    tally = report["rows"]
    assert tally["read"] == len(sheet.rows) - 1 or sheet.layout in ("transposed", "survey")
    assert tally["read"] == tally["imported"] + tally["ungraded"] \
        + sum(tally["skipped"].values()) + tally["rejected"] + tally["blank"]
    assert [c["index"] for c in report["columns"]] == list(range(len(report["columns"])))
    assert all(c["role"] or c["reason"] for c in report["columns"])
    # No ranking without a name or a declaration; the one named or declared is used.
    mapping = report["mapping"]
    ranking_cols = [mapping.get("score"), mapping.get("rank")]
    for header in filter(None, ranking_cols):
        assert ranking_field(header) is not None or "--map" in sheet.flags, header
    declared = any(f.startswith(("score=", "rank=")) for f in sheet.flags)
    if sheet.ranking is not None and (sheet.ranking_named or declared):
        assert sheet.ranking in ranking_cols
        for row in rows:
            assert float(row["score"]) == sheet.ranking_values[(row["query"], row["source_id"])]
    else:
        assert report["ranking"] == "none: judgments only"
        assert all(r["score"] == "" for r in rows)
    # Every grade column used, and the grades are the drawn truth.
    if sheet.ambiguous and set(mapping.get("annotators") or ()) > set(sheet.grade_headers):
        # A distractor no header tells from grades, read as one more
        # annotator's: the drawn grades are used, and the report says the
        # columns were read from their values (no one could tell them apart).
        assert set(sheet.grade_headers) <= set(mapping["annotators"])
        assert any("read from their values" in g for g in report["guesses"])
        return
    if sheet.layout == "wide":
        assert sorted(mapping["annotators"]) == sorted(sheet.grade_headers)
    several = sheet.layout != "long" or max(map(len, sheet.truth.values())) > 1
    got = {(r["query"], r["source_id"]): _grades(r, several) for r in rows}
    assert got == sheet.truth


#: Long sheets drawn under neutral headers, then written without their
#: header row (as a script or a crowd platform's raw dump writes them).
HEADERLESS_SHEETS = 10


@settings(PROFILE, max_examples=HEADERLESS_SHEETS)
@given(sheets(headers="neutral").filter(
    lambda s: s.layout == "long" and not s.extra_grade and not s.ambiguous
    and s.ranking is None), st.sampled_from([".csv", ".xlsx"]))
def test_a_headerless_sheet_keeps_its_first_judgment(sheet: Drawn, suffix: str) -> None:
    """Row 1 of a sheet with no header is a judgment: it is imported (the
    report says there is no header), or the report says row 1 was taken as
    the header and how to say otherwise, or the import refuses in one line;
    never a judgment dropped in silence."""
    headerless = Drawn(sheet.rows[1:], sheet.layout, sheet.truth)
    code, err, report, rows = _run(headerless, suffix)
    event(f"headerless {suffix}: {'imported' if code == 0 else 'refused'}")
    if code != 0:
        assert code == 2, err
        assert len(err.strip().splitlines()) == 1, err
        assert f"drawn{suffix}" in err, err
        assert "pass " in err, err
        return
    assert report is not None
    event(f"header_row {report['header_row']}")
    if report["header_row"] != 0:
        assert any(g.startswith("row 1 taken as the header") for g in report["guesses"]), report
        return
    several = len(next(iter(sheet.truth.values()))) > 1
    got = {(r["query"], r["source_id"]): _grades(r, several) for r in rows}
    assert got == sheet.truth
    tally = report["rows"]
    assert tally["read"] == len(headerless.rows)


#: Sheets imported, written as a worksheet CSV and imported again.
ROUND_TRIP_SHEETS = 10


@settings(PROFILE, max_examples=ROUND_TRIP_SHEETS, phases=[Phase.generate])
@given(sheets().filter(lambda s: not s.ambiguous and not s.extra_grade),
       st.sampled_from([".csv", ".xlsx"]), st.integers(0, 10**6))
def test_the_worksheet_written_reads_back_the_same(sheet: Drawn, suffix: str,
                                                   drawn_row: int) -> None:
    """``import -o out.csv`` writes the worksheet's columns, the consensus
    under ``grade`` and each annotator's under ``grade_<name>``: imported
    again, it gives the same file (the same judgments, annotators and
    scores), the consensus left out as computed from the annotators'. With
    one row's grade changed after writing (adjudicated: one more, or a
    number where none was), the import is refused naming that row, never
    the grade replaced by the consensus."""
    if sheet.layout == "transposed":
        suffix = ".csv"
    code, err, _, rows = _run(sheet, suffix)
    assert code == 0, err
    header = list(rows[0]) if rows else []
    again = Drawn([header, *([r[h] for h in header] for r in rows)], "wide", sheet.truth)
    code, err, report, back = _run(again, ".csv")
    several = any(h.startswith("grade_") for h in header)
    event(f"round trip of {sheet.layout}: {sum(h.startswith('grade_') for h in header)} "
          "annotators' columns")
    assert code == 0, err
    assert back == rows
    if not several:
        return
    assert report is not None
    assert report["mapping"]["annotators"] == [h for h in header if h.startswith("grade_")]
    k = drawn_row % len(rows)
    was = rows[k]["grade"]
    now = number_text(float(was) + 1) if was else "2"
    adjudicated = [list(r.values()) for r in rows]
    adjudicated[k][header.index("grade")] = now
    code, err, _, out = _run(replace(again, rows=[header, *adjudicated]), ".csv")
    assert (code, out) == (2, [])
    assert f"drawn.csv, line {k + 2}, column 'grade': grade holds {now} for query " in err
    assert "(pass --map grade=E to take its grades, or --map grade=none" in err


#: Long sheets whose ranking (a score or a rank, named or declared) gives
#: one item's judgments two values.
SPLIT_SHEETS = 10


@settings(PROFILE, max_examples=SPLIT_SHEETS, phases=[Phase.generate])
@given(sheets(split=True, headers="realistic").filter(lambda s: not s.ambiguous),
       st.sampled_from([".csv", ".xlsx"]))
def test_a_ranking_disagreeing_with_itself_is_refused(sheet: Drawn, suffix: str) -> None:
    """A ranking scores (or ranks) each item once: one item's second
    judgment scored otherwise than its first is refused in one line naming
    the item, both rows and both values and the flag that leaves the
    column out, never one value kept (the first was kept, the other
    reported, before)."""
    assert sheet.split is not None
    assert sheet.ranking is not None
    query, source, first, second, was, now = sheet.split
    code, err, _, rows = _run(sheet, suffix)
    field = "score" if isinstance(was, float) else "rank"
    event(f"split {field} in {suffix}")
    assert (code, rows) == (2, []), err
    assert err.count("\n") == 1, err
    where = f"line {second}, column {sheet.ranking!r}" if suffix == ".csv" else \
        f"sheet 'Sheet', row {second}, column "  # a workbook's column says its letter too
    assert err.startswith(f"ndcg-worksheet: error: drawn{suffix}, {where}"), err
    assert (f"{sheet.ranking})'" if suffix == ".xlsx" else "") in err
    assert (f"gives query {query!r}, source {source!r} the {field} {number_text(float(was))} "
            f"on row {first} and {number_text(float(now))} on row {second}: a ranking "
            f"{field}s each item once") in err, err
    assert f"pass --map {field}=none to import the judgments without it" in err


#: Long sheets whose ranking leaves some items' first row blank, a later
#: row of theirs giving it.
GAP_SHEETS = 10


@settings(PROFILE, max_examples=GAP_SHEETS, phases=[Phase.generate])
@given(sheets(gaps=True, headers="realistic").filter(lambda s: not s.ambiguous),
       st.sampled_from([".csv", ".xlsx", ".jsonl"]))
def test_an_items_ranking_is_the_number_its_rows_give(sheet: Drawn, suffix: str) -> None:
    """An item whose first row leaves the score (or rank) blank takes the
    number a later row of its gives, never the blank (its score was lost in
    silence before 6bdef84), and each blank row is reported as a conflict
    naming the row that gives the number; every judgment is imported."""
    assert sheet.gaps
    code, err, report, rows = _run(sheet, suffix)
    field = "score" if isinstance(sheet.gaps[0][4], float) else "rank"
    event(f"gaps in a {field} in {suffix}")
    _holds(sheet, code, err, report, rows, suffix)
    assert code == 0, err
    assert report is not None
    got = {(r["query"], r["source_id"]): float(r["score"]) for r in rows}
    for query, source, _, _, value in sheet.gaps:
        assert got[(query, source)] == (value if field == "score" else -value)
    conflicts = sorted((i["row"], i["problem"]) for i in report["issues"]
                       if i["kind"] == "conflict")
    assert conflicts == sorted(
        (blank, f"no {field} here, where row {giving} gives the same candidate "
         f"{number_text(float(value))}; that {field} is kept")
        for _, _, blank, giving, value in sheet.gaps)


#: Long sheets of one judge drawn with a second column of grades beside theirs.
EXTRA_SHEETS = 10
_OFFERED = re.compile(r"--(annotators|map) ([^\s);]+[^\s);,])")


@settings(PROFILE, max_examples=EXTRA_SHEETS, phases=[Phase.generate])
@given(sheets(extra=True), st.sampled_from([".csv", ".xlsx"]))
def test_grades_left_unused_are_refused_saying_what_to_type(sheet: Drawn, suffix: str) -> None:
    """A second column of grades (``R2``, ``check``, ``grade_Dana``) beside
    the grade column: used, or refused in one line naming the file, the
    workbook's sheet, the column left unused and each way on: every flag
    the line offers imports the sheet (``--annotators`` both columns,
    ``--map grade=COLUMN`` the drawn grades alone, ``--map grade=none``
    the other column's), and the way to take the grade column alone is
    always among them (it said ``--map grade=COLUMN``, which no one can
    type, and never ``--map grade=none``)."""
    code, err, report, rows = _run(sheet, suffix)
    _holds(sheet, code, err, report, rows, suffix)
    if code == 0 or "of grades like" not in err:
        return
    header = sheet.rows[0]
    extra = header[sheet.column_kinds.index("extra grade")]
    grade = header[sheet.column_kinds.index("grade")]
    assert extra in err, err
    assert suffix != ".xlsx" or "sheet 'Sheet'" in err, err
    offered = _OFFERED.findall(err)
    maps = [v for k, v in offered if k == "map"]
    assert [m for m in maps if m != "grade=none"], err  # the grade column alone, named
    alone = [_header_of(header, m.split("=", 1)[1]) for m in maps if m != "grade=none"]
    assert set(alone) <= {grade, extra}, err
    for flag, value in offered:
        again = replace(sheet, flags=[*sheet.flags, f"--{flag}", value])
        code2, err2, report2, rows2 = _run(again, suffix)
        assert code2 == 0, (err, err2)
        assert report2 is not None
        used = report2["mapping"].get("annotators") or [report2["mapping"].get("grade")]
        if flag == "annotators":
            assert {grade, extra} <= set(used), (err, used)
        elif value == "grade=none":  # the other column is the grades
            assert used == sorted({grade, extra} - set(alone)), (err, used)
        else:
            assert used == alone, (err, used)
            if used == [grade]:  # the drawn grades, no more and no fewer
                got = {(r["query"], r["source_id"]): _grades(r, False) for r in rows2}
                assert got == sheet.truth
    event("grade=none offered" if "grade=none" in maps else "grade=none not offered")


def _header_of(header: list[str], ref: str) -> str:
    """The header a refusal's column reference (a header or a letter) names."""
    return ref if ref in header else header[ord(ref) - ord("A")]


#: Sheets drawn for each role with a formula in one cell of its column.
FORMULA_SHEETS = 4
_ROLES = ("query", "source", "who", "grade", "score", "rank")


@pytest.mark.parametrize("role", _ROLES)
@settings(PROFILE, max_examples=FORMULA_SHEETS, phases=[Phase.generate])
@given(sheet=sheets().filter(lambda s: s.layout != "transposed" and not s.ambiguous
                             and not s.extra_grade), data=st.data())
def test_a_formula_is_reported_under_its_own_cell(role: str, sheet: Drawn,
                                                  data: st.DataObject) -> None:
    """A formula typed into one cell of the query, the source, who judged,
    a grade or the ranking (a workbook's ``=A1``): the report's issue, the
    judgments it rejects and the one-line refusal name that cell's row and
    column, never the grade's column for a row rejected by its query (it
    said ``column 'C (relevance)'`` for a formula in A3)."""
    assume(role in sheet.column_kinds)
    c = data.draw(st.sampled_from([c for c, kind in enumerate(sheet.column_kinds)
                                   if kind == role]), label="column")
    r = data.draw(st.integers(1, len(sheet.rows) - 1), label="row")
    rows = [list(row) for row in sheet.rows]
    rows[r][c] = "=A1"
    name = f"{column_letters(c + 1)} ({sheet.rows[0][c]})"
    code, err, report, _ = _run(replace(sheet, rows=rows), ".xlsx")
    event(f"{sheet.column_kinds[c]}: {'refused' if code else 'imported'}")
    if report is None:  # refused before reading the rows: the formula was not the reason
        assert "formula" not in err, err
        return
    formulas = [i for i in report["issues"] if i["kind"] == "formula"]
    assert [(i["row"], i["column"]) for i in formulas] == [(r + 1, name)], formulas
    for rejected in report["rejected"]:
        assert rejected["row"] == r + 1, rejected
    if code != 0 and "rejected, so nothing was written" in err:
        assert f"row {r + 1}, column {name!r}:" in err, err


#: Sheets drawn with a legend of their grade scale, right or lacking a grade.
LEGEND_SHEETS = 16


def _legend_sheet_named() -> Drawn:
    """A wide sheet under neutral headers beside a sheet ``Legend`` whose
    header names a field (``Grade`` | ``Meaning``): the judgments' sheet is
    read, never the legend's (it was chosen for its header, and refused as
    having no query column; drawn in some runs and not others)."""
    grades = [(1, 1), (1, 3), (4, 5), (1, 4), (2, 2), (4, 4), (3, 5), (2, 1), (5, 5)]
    rows: list[list[Any]] = [["grade_ben_at_lab_example", "grade_ana_at_lab_example", "col3",
                              "col4"]]
    rows += [[b, a, _QUERIES[i // 3], f"B0{i // 3}00{i % 3}XK{i % 3}"]
             for i, (b, a) in enumerate(grades)]
    return Drawn(rows, "wide", {(r[2], r[3]): sorted([float(r[0]), float(r[1])])
                                for r in rows[1:]}, grade_headers=rows[0][:2],
                 column_kinds=["grade", "grade", "query", "source"],
                 legend_sheet=[["Grade", "Meaning"], *([g, t] for g, t in LEGENDS["1-5"])])


@settings(PROFILE, max_examples=LEGEND_SHEETS, phases=[Phase.explicit, Phase.generate])
@example(_legend_sheet_named(), ".xlsx")
@given(st.sampled_from(["right", "wrong"]).flatmap(lambda kind: sheets(legend=kind)),
       st.sampled_from([".csv", ".xlsx"]))
def test_a_legend_on_the_sheet_is_the_scale(sheet: Drawn, suffix: str) -> None:
    """"0 = not relevant, 1 = partial, ..., 3 = perfect" in one cell, one
    level a row or a grade beside its label a row, above the header, on a
    sheet of its own or in a column beside the judgments: the grades'
    scale, the report saying it was read from the legend and where, the
    drawn grades imported; a legend lacking a grade the sheet gives is
    refused in one line naming the legend, the file, the row and column
    of a cell holding it and --rubric."""
    if sheet.legend_sheet is not None:
        suffix = ".xlsx"  # a sheet of its own: a workbook's
    code, err, report, rows = _run(sheet, suffix)
    place = "above" if sheet.above else "sheet" if sheet.legend_sheet else "beside"
    event(f"legend {place} "
          f"{'wrong' if sheet.legend_lacks is not None else 'right'}: "
          f"{'refused' if code else 'imported'}")
    if sheet.legend_lacks is not None and code != 0 and "legend" in err:
        assert len(err.strip().splitlines()) == 1, err
        assert f"drawn{suffix}" in err, err
        assert "--rubric" in err, err
        assert "has no grade" in err, err
        return
    assert sheet.legend_lacks is None or sheet.ambiguous or sheet.extra_grade, err
    _holds(sheet, code, err, report, rows, suffix)
    if code == 0:
        assert report is not None
        assert report["header_row"] == len(sheet.above) + 1, report["header_row"]
        assert report["scale"].startswith("the sheet's legend ("), report["scale"]
        said = {"sheet": "of sheet 'Legend'", "beside": "of column"}  # (or columns)
        for where, words in said.items():
            assert (words in report["scale"]) == (where == place), report["scale"]


#: Sheets drawn with a legend of their labels without grades.
WORD_LEGEND_SHEETS = 12


@settings(PROFILE, max_examples=WORD_LEGEND_SHEETS, phases=[Phase.explicit, Phase.generate])
@given(st.sampled_from(["labels", "labels wrong"]).flatmap(lambda kind: sheets(legend=kind)),
       st.sampled_from([".csv", ".xlsx"]))
def test_a_legend_of_labels_is_their_vocabulary_never_their_grades(sheet: Drawn,
                                                                   suffix: str) -> None:
    """"From best to worst: Vital / Useful / Marginal / Useless" (or
    stating no order), in one cell or a label a row, above the header, on a
    sheet of its own or in a column beside the judgments: labels on a known
    scale read on the scale it lists, the report naming it; labels on none
    refused in one line naming the legend and a --rubric, the legend's
    stated order proposed one grade apart (and so imported as drawn), never
    read as grades without it; a label the legend lacks refused naming it."""
    if sheet.legend_sheet is not None:
        suffix = ".xlsx"  # a sheet of its own: a workbook's
    code, err, report, rows = _run(sheet, suffix)
    place = "above" if sheet.above else "sheet" if sheet.legend_sheet else "beside"
    known = "highly relevant" in {w.casefold() for w in sheet.legend_words} or (
        sheet.legend_lacks_label == "Highly relevant")
    event(f"labels legend {place} {'known' if known else 'words'} "
          f"{sheet.legend_order or 'no order'} "
          f"{'wrong' if sheet.legend_lacks_label else 'right'}: "
          f"{'refused' if code else 'imported'}")
    if code != 0 and "legend" not in err:  # refused before: a distractor like grades
        assert sheet.ambiguous or sheet.extra_grade, err
        return
    assert "legend" not in err or len(err.strip().splitlines()) == 1, err
    if sheet.legend_lacks_label is not None:
        assert code != 0, report
        assert f"has no label {sheet.legend_lacks_label!r}" in err, err
        assert f"drawn{suffix}" in err, err
        assert "--rubric" in err, err
        return
    if known:
        _holds(sheet, code, err, report, rows, suffix)
        assert report is not None
        assert code == 0
        assert report["legend_labels"]["labels"] == list(sheet.legend_words), report
        assert "as the sheet's legend (" in report["scale"], report["scale"]
        return
    assert code != 0
    assert "lists the labels, not their grades" in err, err
    example = re.search(r'--rubric "([^"]+)"', err)
    assert example is not None, err
    if not sheet.legend_order:
        assert example[1] == ",".join(f"N={w}" for w in sheet.legend_words), err
        return
    rising = sheet.legend_words[::-1 if sheet.legend_order == "best first" else 1]
    assert example[1] == ",".join(f"{g}={w}" for g, w in enumerate(rising)), err
    assert [w.casefold() for w in rising] == ["useless", "marginal", "useful", "vital"]
    sheet.flags = [*sheet.flags, "--rubric", example[1]]
    _holds(sheet, *_run(sheet, suffix), suffix)


#: Sheets of labels on no known scale beside numbers like grades drawn per run.
UNREAD_SHEETS = 8


@settings(PROFILE, max_examples=UNREAD_SHEETS, phases=[Phase.generate])
@given(sheets(unread=True), st.sampled_from([".csv", ".xlsx"]))
def test_labels_no_scale_reads_are_never_passed_over_for_numbers(sheet: Drawn,
                                                                 suffix: str) -> None:
    """A grade column named so (``relevance``) of labels on no known scale
    (Vital / Useful / ...) beside a column of numbers 1 to 4 named as
    nothing: never imported with the numbers as the grades (it was, the
    labels ignored): refused in one line naming the grade column and a
    --rubric, and the numbers' column with the ``--map grade=`` that takes
    them; each way imports what it says: the rubric of the drawn truth the
    drawn grades, ``--map grade=`` the numbers."""
    code, err, _, rows = _run(sheet, suffix)
    header = sheet.rows[0]
    grade = header[sheet.column_kinds.index("grade")]
    numbers = sheet.column_kinds.index("numbers")
    assert code != 0, rows
    assert len(err.strip().splitlines()) == 1, err
    assert f"column '{grade}'" in err or f"({grade})'" in err, err
    assert "labels on no known scale" in err, err
    assert "--rubric" in err, err
    maps = [v for k, v in _OFFERED.findall(err) if k == "map"]
    event("numbers named" if maps else "numbers not named (another column like grades)")
    if maps:
        ours = f"grade={column_letters(numbers + 1)}"
        assert ours in maps, err  # and any other column like grades
        assert f"{column_letters(numbers + 1)} ({header[numbers]})" in err, err
        code2, err2, _, rows2 = _run(replace(sheet, flags=[*sheet.flags, "--map", ours]),
                                     suffix)
        assert code2 == 0, err2
        q, d = sheet.column_kinds.index("query"), sheet.column_kinds.index("source")
        assert {(r["query"], r["source_id"]): _grades(r, False) for r in rows2} == {
            (str(r[q]), str(r[d])): [float(r[numbers])] for r in sheet.rows[1:]}
    truth = replace(sheet, flags=[*sheet.flags, "--rubric",
                                  "0=Useless,1=Marginal,2=Useful,3=Vital"])
    _holds(truth, *_run(truth, suffix), suffix)


#: Sheets graded in labels under a header that names no grade, drawn per run.
UNNAMED_SHEETS = 8


@settings(PROFILE, max_examples=UNNAMED_SHEETS, phases=[Phase.generate])
@given(sheets(unnamed=True), st.sampled_from([".csv", ".xlsx"]))
def test_labels_under_a_header_naming_no_grade_are_read_by_their_values(
        sheet: Drawn, suffix: str) -> None:
    """A long sheet's grades in labels under ``verdict``, ``outcome``, ...:
    the one column of a few labels repeated, varying within a query, is
    the grade column, its labels read as labels are: a known scale's
    imported as drawn; labels on none refused in one line naming the
    column and a --rubric, which given imports the drawn grades. They were
    refused as 'no grade column found', the column unnamed."""
    code, err, _, _ = _run(sheet, suffix)
    grade = sheet.rows[0][sheet.column_kinds.index("grade")]
    event(f"{'refused' if code else 'imported'}")
    if code == 0:
        _holds(sheet, *_run(sheet, suffix), suffix)
        return
    assert len(err.strip().splitlines()) == 1, err
    assert f"column '{grade}'" in err or f"({grade})'" in err, err
    assert "labels on no known scale" in err, err
    assert "--rubric" in err, err
    truth = replace(sheet, flags=[*sheet.flags, "--rubric",
                                  "0=Useless,1=Marginal,2=Useful,3=Vital"])
    _holds(truth, *_run(truth, suffix), suffix)


def test_several_columns_of_labels_none_named_are_refused_naming_each(tmp_path: Path) -> None:
    """Two columns of a few labels repeated under headers naming nothing
    (``verdict``, ``device``), no other grades: neither is picked; the
    refusal names both and the flags that take one."""
    sheet = tmp_path / "two.csv"
    sheet.write_text("query,doc_id,verdict,device\n" + "".join(
        f"q{i // 4},d{i},{v},{d}\n" for i, (v, d) in enumerate(zip(
            ["relevant", "partly", "not", "relevant", "not", "partly", "relevant", "not"],
            ["mobile", "desktop"] * 4, strict=True))), encoding="utf-8")
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        assert main(["import", str(sheet), "-o", str(tmp_path / "o.csv")], io.StringIO()) == 2
    assert err.getvalue() == (
        f"ndcg-worksheet: error: {sheet}: no grade column found in the header on row 1 (A "
        "(query), B (doc_id), C (verdict), D (device)); columns C (verdict) and D (device) "
        "each hold a few labels repeated, varying within a query as grades do, so none was "
        "taken for the grades (if one holds them, pass --map grade=C and --rubric giving each "
        "label its grade)\n")


#: Sheets drawn with labels, legends and keys, whose preview is compared with the import.
READ_ALIKE_SHEETS = 12


@settings(PROFILE, max_examples=READ_ALIKE_SHEETS, phases=[Phase.generate])
@given(st.sampled_from([{"legend": "right"}, {"legend": "labels"}, {"key": True},
                        {"unnamed": True}, {}]).flatmap(lambda kw: sheets(**kw)))
def test_the_preview_reads_the_labels_as_the_import_does(sheet: Drawn) -> None:
    """The wizard's preview and the import read a sheet's labels by one
    rule (``legend.read_labels``: the sheet's legend of its grades, else
    the known scales within a legend of labels, else the numbers' range):
    the same grade for each label, the same rubric, the same words."""
    with TemporaryDirectory() as tmp:
        path = write_sheet(sheet, Path(tmp) / "drawn.xlsx")
        try:
            result = import_annotations(path)
        except InputError:
            return  # refused: nothing read to compare
        seen = preview(path)
    report = result.report
    event(report.scale.split(" (")[0][:40] or "no scale")
    assert seen.label_grades == report.labels
    assert seen.rubric == result.document.conventions.rubric
    assert seen.scale == report.scale
    assert seen.vocabulary == report.vocabulary


def test_the_label_rule_is_declared_once(monkeypatch: pytest.MonkeyPatch,
                                         tmp_path: Path) -> None:
    """The preview and the import each ask ``legend.read_labels`` how the
    labels read (the rule was written twice, in ``detect.preview``, now
    ``sheet_preview.preview``, and in
    ``importer._read_labels``), once, for the same grade columns."""
    asked: list[tuple[str, list[list[str]]]] = []

    def spy(who: str) -> Any:
        def read(*args: Any) -> LabelsRead:
            asked.append((who, [[str(c) for c in col] for col in args[2]]))
            return read_labels(*args)
        return read

    monkeypatch.setattr(preview_module, "read_labels", spy("preview"))
    monkeypatch.setattr(importer_module, "read_labels", spy("import"))
    sheet = tmp_path / "labels.csv"
    sheet.write_text("query,doc_id,relevance\nq1,d1,Relevant\nq1,d2,Not relevant\n"
                     "q2,d3,Highly relevant\n", encoding="utf-8")
    seen, result = preview(sheet), import_annotations(sheet)
    assert [who for who, _ in asked] == ["preview", "import"]
    assert asked[0][1] == asked[1][1] == [["Relevant", "Not relevant", "Highly relevant"]]
    assert seen.label_grades == result.report.labels == {
        "Relevant": 1.0, "Not relevant": 0.0, "Highly relevant": 2.0}


#: Sheets of checkboxes (one column per annotator) drawn per run.
CHECKBOX_SHEETS = 6


@settings(PROFILE, max_examples=CHECKBOX_SHEETS, phases=[Phase.generate])
@given(sheets(checkbox=True), st.sampled_from([".csv", ".xlsx"]))
def test_checkbox_columns_are_each_annotators_binary_grades(sheet: Drawn, suffix: str) -> None:
    """Google Sheets' checkboxes, a column per annotator (``Relevant?
    (Alice)``, true or false): each annotator's binary grades, true 1, the
    annotator named by the header's name (it was refused: 'no grade column
    found'), the report saying the scale."""
    code, err, report, rows = _run(sheet, suffix)
    assert code == 0, err
    _holds(sheet, code, err, report, rows, suffix)
    assert report is not None
    assert report["annotators"] == [h.removeprefix("Relevant? (").removesuffix(")")
                                    for h in sheet.grade_headers], report["annotators"]
    assert report["scale"] == "the scale false / true (a checkbox: true 1)", report["scale"]


#: Sheets drawn with a fifth of their grade cells blank.
BLANK_SHEETS = 10


@settings(PROFILE, max_examples=BLANK_SHEETS, phases=[Phase.generate])
@given(sheets(blanks=True), st.sampled_from([".csv", ".xlsx", ".jsonl"]))
def test_a_blank_grade_cell_is_no_judgment_read(sheet: Drawn, suffix: str) -> None:
    """A grade cell left blank is no judgment: the report counts the
    judgments read as the cells that hold one, and the blank cells apart
    (each an unknown grade); the drawn judgments imported. A blank cell
    was counted as a judgment read and imported."""
    code, err, report, rows = _run(sheet, suffix)
    _holds(sheet, code, err, report, rows, suffix)
    if code != 0:
        return
    assert report is not None
    event(f"{sheet.layout}: {sheet.blank_cells} blank")
    if sheet.ambiguous and set(report["mapping"].get("annotators") or ()) > set(
            sheet.grade_headers):
        return  # a distractor no header tells from grades read as one more annotator's
        # (as _holds allows): its cells are judgments read too
    judgments = sum(len(v) for v in sheet.truth.values())
    assert (report["judgments_read"], report["imported"], report["blank_grades"]) == (
        judgments, judgments, sheet.blank_cells)


def test_blank_grade_cells_counted_as_read_hold_on_rows_not_read(tmp_path: Path) -> None:
    """The blank grade cells and the rows of every grade blank, told as the
    grades are read, hold on the rows whose cells are not all read: a row
    rejected for its score (its grades blank: no judgment), a candidate's
    second row, spaces for a blank, an unrateable mark beside a blank."""
    sheet = tmp_path / "wide.csv"
    sheet.write_text("query,doc,score,grade_ana,grade_ben\n"
                     "q1,d1,0.9,2,1\nq1,d2,0.8,,\nq1,d3,0.7, ,3\nq2,d4,abc,,\nq2,d5,0.5,3,\n"
                     "q2,d5,0.5,,\nq2,d6,0.4,N/A,\n", encoding="utf-8")
    report = tmp_path / "r.json"
    assert main(["import", str(sheet), "-o", str(tmp_path / "o.csv"), "--report", str(report),
                 "--allow-rejected"], io.StringIO()) == 0
    data = json.loads(report.read_text("utf-8"))
    assert {k: data[k] for k in ("judgments_read", "imported", "blank_grades", "rows")} == {
        "judgments_read": 5, "imported": 5, "blank_grades": 9, "rows": {
            "read": 7, "imported": 4, "ungraded": 2, "skipped": {}, "rejected": 1, "blank": 0}}


def test_blank_grade_cells_are_said_in_the_headline(tmp_path: Path) -> None:
    """The command line's first line says the blank grade cells apart from
    the judgments read (it said 8 judgments read and imported of 6), and
    the rows that hold nothing else apart from the rows imported, as the
    report's tally does (it counted them imported: 8 of 8)."""
    sheet = tmp_path / "blanks.csv"
    sheet.write_text("query,doc_id,relevance\nq1,d1,2\nq1,d2,\nq1,d3,0\nq1,d4,2\nq2,d5,0\n"
                     "q2,d6,\nq2,d7,2\nq2,d8,1\n", encoding="utf-8")
    out = io.StringIO()
    report = tmp_path / "r.json"
    assert main(["import", str(sheet), "-o", str(tmp_path / "o.csv"), "--report",
                 str(report)], out) == 0
    assert out.getvalue().splitlines()[0] == (
        f"{sheet}: long layout, header on row 1; 6 judgments read in 8 rows: 6 imported, "
        "0 rejected; 2 grade cells blank (no judgment: unknown grades), 2 rows with no grade "
        "at all (their candidates kept with unknown grades: grade them in the editor); 0 "
        "blank rows skipped; 8 candidates")
    got = json.loads(report.read_text(encoding="utf-8"))
    assert got["rows"] == {"read": 8, "imported": 6, "ungraded": 2, "skipped": {},
                           "rejected": 0, "blank": 0}
    assert (got["judgments_read"], got["imported"], got["blank_grades"]) == (6, 6, 2)


def test_a_row_of_annotators_all_blank_is_counted_ungraded(tmp_path: Path) -> None:
    """One grade per annotator: a row with one blank cell of two imports the
    other judgment; a row with both blank imports none, counted apart."""
    sheet = tmp_path / "wide.csv"
    sheet.write_text("query,doc_id,grade_ana,grade_ben\nq1,d1,2,1\nq1,d2,,1\nq1,d3,,\n",
                     encoding="utf-8")
    report = tmp_path / "r.json"
    assert main(["import", str(sheet), "-o", str(tmp_path / "o.csv"), "--report",
                 str(report)], io.StringIO()) == 0
    got = json.loads(report.read_text(encoding="utf-8"))
    assert (got["rows"]["imported"], got["rows"]["ungraded"], got["blank_grades"]) == (2, 1, 3)


def test_a_respondent_who_left_every_item_blank_is_a_row_ungraded(tmp_path: Path) -> None:
    """One row per respondent: the rows counted are the file's, as the rows
    read are (the rows imported counted each respondent's items: 20 of 4
    rows read); a respondent with every item blank is a row ungraded."""
    grid = Path(__file__).parent / "data" / "annotators" / "google_forms_grid.csv"
    lines = grid.read_text(encoding="utf-8").splitlines()
    cells = lines[2].split(",")
    lines[2] = ",".join(cells[:2] + [""] * (len(cells) - 2))  # omar.s left every item blank
    sheet = tmp_path / "grid.csv"
    sheet.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out, report = io.StringIO(), tmp_path / "r.json"
    assert main(["import", str(sheet), "-o", str(tmp_path / "o.csv"), "--report",
                 str(report)], out) == 0
    assert ("15 judgments read in 4 rows: 15 imported, 0 rejected; 5 grade cells blank (no "
            "judgment: unknown grades), 1 row with no grade at all (its candidate kept with an "
            "unknown grade: grade it in the editor); "
            ) in out.getvalue().splitlines()[0]
    got = json.loads(report.read_text(encoding="utf-8"))
    assert (got["rows_read"], got["rows"]["imported"], got["rows"]["ungraded"]) == (4, 3, 1)
    rep = import_annotations(sheet).report  # the wizard's counts
    assert (rep.rows_read, rep.rows_imported, rep.rows_ungraded) == (4, 3, 1)


def test_labels_beside_the_grades_saying_them_again_are_said_so(tmp_path: Path) -> None:
    """A column of labels each always beside one grade of the grade column
    (``relevant`` by every 2, ``partly`` by every 1, ``not`` by every 0):
    the grades again in words, accounted for as such (it was '3 distinct
    values, no role read from them'); the grades imported from the
    numbers. Labels that do not follow the grades stay a column no role
    reads."""
    table = [[*r, {2: "relevant", 1: "partly", 0: "not"}[r[2]]] for r in _KEYED[1:]]
    sheet = tmp_path / "worded.csv"
    with open(sheet, "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows([["query", "doc_id", "relevance", "col4"], *table])
    out, report = tmp_path / "o.csv", tmp_path / "r.json"
    assert main(["import", str(sheet), "-o", str(out), "--report", str(report)],
                io.StringIO()) == 0
    record = json.loads(report.read_text("utf-8"))["columns"][3]
    assert (record["role"], record["reason"]) == (None, (
        "col4: labels each always beside one grade of relevance (not = 0, partly = 1, "
        "relevant = 2): the grades again in words; not imported"))
    with open(out, newline="", encoding="utf-8") as fh:
        assert [r["grade"] for r in csv.DictReader(fh)] == [str(r[2]) for r in _KEYED[1:]]
    table[0][3] = "partly"  # a 2 beside partly: the labels follow no grade
    with open(sheet, "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows([["query", "doc_id", "relevance", "col4"], *table])
    assert main(["import", str(sheet), "-o", str(out), "--report", str(report)],
                io.StringIO()) == 0
    record = json.loads(report.read_text("utf-8"))["columns"][3]
    assert record["reason"] == "col4: 3 distinct values, no role read from them; not imported"


#: Long sheets drawn with each row's grade said again in words of its own.
WORDED_SHEETS = 8


@settings(PROFILE, max_examples=WORDED_SHEETS, phases=[Phase.generate])
@given(sheets(among=("worded",)).filter(lambda s: "worded" in s.column_kinds),
       st.sampled_from([".csv", ".xlsx"]))
def test_the_grades_again_in_words_are_accounted_for(sheet: Drawn, suffix: str) -> None:
    """A column saying each row's grade again in words of its own (``nope``
    by every 0, ``ok`` by every 2): the invariants hold, and beside a grade
    column of numbers it is accounted for as the grades again in words."""
    code, err, report, rows = _run(sheet, suffix)
    _holds(sheet, code, err, report, rows, suffix)
    if code != 0 or report is None or report["mapping"].get("annotators"):
        return
    record = report["columns"][sheet.column_kinds.index("worded")]
    grade = sheet.rows[1][sheet.column_kinds.index("grade")]
    numbers = isinstance(grade, int)
    event(f"grades in {'numbers' if numbers else 'labels'}: {record['reason'][:60]}")
    assert record["role"] is None, record
    assert ("the grades again in words" in record["reason"]) == numbers, record


#: Sheets drawn with a key of their scale's labels beside the judgments.
KEY_SHEETS = 10


@settings(PROFILE, max_examples=KEY_SHEETS, phases=[Phase.generate])
@given(sheets(key=True), st.sampled_from([".csv", ".xlsx"]))
def test_a_key_of_labels_beside_the_judgments_is_a_legend(sheet: Drawn, suffix: str) -> None:
    """A key of the scale's labels in a column beside the judgments
    (``Legend``, ``Key`` or no header; a label a row, given its meaning or
    not, under a title or not): accounted for as the scale's legend, never
    a role; the drawn grades imported."""
    code, err, report, rows = _run(sheet, suffix)
    _holds(sheet, code, err, report, rows, suffix)
    if code != 0:
        return
    assert report is not None
    record = report["columns"][sheet.column_kinds.index("key")]
    event(f"key {record['header'] or '(no header)'}")
    assert record["role"] is None, record
    assert "the grade scale's legend (rows 2-" in record["reason"], record


_KEYED = [["query", "doc_id", "relevance"], *(
    [q, f"d{i}", g] for i, (q, g) in enumerate(
        [("solar", 2), ("solar", 1), ("solar", 0), ("solar", 2), ("boots", 0), ("boots", 1),
         ("boots", 2), ("boots", 0)]))]


@pytest.mark.parametrize(("key", "rows"), [
    (["Legend", "Highly relevant", "Somewhat relevant", "Not relevant"], 9),  # a note's
    (["Key", "Key:", "Highly relevant", "Somewhat relevant", "Not relevant"], 9),  # a note's
    (["Legend", "Highly relevant = the answer", "Somewhat relevant = partly",
      "Not relevant = off topic"], 9),  # read as a note on 3 rows
    (["", "Highly relevant", "Somewhat relevant", "Not relevant"], 9),  # no header
    (["Legend", "Highly relevant", "Somewhat relevant", "Not relevant"], 4),  # to the end
    (["Legend", "Legend (best first)", "relevant", "partly", "not"], 9)])
def test_a_key_of_labels_beside_the_judgments_is_its_legend(
        tmp_path: Path, key: list[str], rows: int) -> None:
    """A key beside the judgments (``Legend`` | ``Highly relevant`` ...) of
    labels the grades, numbers, do not hold: the grade scale's legend, left
    out saying so. It was a note of the rows beside it, a column left out
    as '3 distinct values', or (as long as the sheet) a grade column left
    unused, the sheet refused."""
    table = [[*r, key[i] if i < len(key) else ""] for i, r in enumerate(_KEYED[:rows])]
    sheet = tmp_path / "keyed.csv"
    with open(sheet, "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows(table)
    out, report = tmp_path / "o.csv", tmp_path / "r.json"
    assert main(["import", str(sheet), "-o", str(out), "--report", str(report)],
                io.StringIO()) == 0
    record = json.loads(report.read_text("utf-8"))["columns"][3]
    assert (record["role"], record["reason"]) == (None, (
        f"{key[0] or 'D'}: the grade scale's legend (rows 2-{len(key)} of column D"
        f"{f' ({key[0]})' if key[0] else ''}), not imported"))
    with open(out, newline="", encoding="utf-8") as fh:
        assert [r["grade"] for r in csv.DictReader(fh)] == [str(r[2]) for r in _KEYED[1:rows]]


def _pairs_beside(levels: list[tuple[int, str]]) -> Drawn:
    """A wide sheet of two annotators with its legend beside the judgments
    as a grade beside its label a row, under ``Grade`` | ``Meaning``."""
    grades = [(2, 2), (0, 1), (1, 1), (3, 2), (0, 0), (1, 0), (2, 3)]
    rows: list[list[Any]] = [["query", "doc", "ann1", "ann2", "", "Grade", "Meaning"]]
    rows += [[_QUERIES[i // 3], f"d{i}", a, b, "", *(levels[i] if i < len(levels) else ("", ""))]
             for i, (a, b) in enumerate(grades)]
    return Drawn(rows, "wide", {(r[0], r[1]): sorted([float(r[2]), float(r[3])])
                                for r in rows[1:]}, grade_headers=["ann1", "ann2"])


def test_a_legend_of_grades_beside_labels_beside_the_judgments() -> None:
    """A legend in two columns beside the judgments (``Grade`` | ``Meaning``,
    ``0`` | ``not relevant`` a row) is the scale, as in one column, and no
    column of grades: its ``Grade`` was taken for the grade column, the
    sheet refused for its annotators' columns left unused (--annotators
    Grade,ann1,ann2 offered), and without that header its grades were
    ignored with a hint to take them as the ranking. One lacking a grade
    the sheet gives is refused naming it."""
    levels = [(0, "not relevant"), (1, "partly"), (2, "relevant"), (3, "highly relevant")]
    code, err, report, rows = _run(_pairs_beside(levels), ".xlsx")
    assert code == 0, err
    assert report is not None
    assert report["scale"] == (
        "the sheet's legend (rows 2-5 of columns F (Grade) and G (Meaning): "
        "0=not relevant,1=partly,2=relevant,3=highly relevant)")
    assert report["mapping"]["annotators"] == ["ann1", "ann2"]
    assert {(r["query"], r["source_id"]): sorted([float(r["grade_ann1"]), float(r["grade_ann2"])])
            for r in rows} == _pairs_beside(levels).truth
    code, err, report, rows = _run(_pairs_beside(levels[:3]), ".xlsx")
    assert code != 0
    assert err.strip() == (
        "ndcg-worksheet: error: drawn.xlsx, sheet 'Sheet', row 5, column 'C (ann1)': "
        "the sheet's legend (rows 2-4 of columns F (Grade) and G (Meaning): "
        "0=not relevant,1=partly,2=relevant) has no grade '3', which C (ann1) holds "
        "(pass --rubric with the scale the grades are on (e.g. --rubric "
        "\"0=not relevant,1=partly,2=relevant,3\"), "
        "or correct the legend or the grade)"), err
    # the hint followed as shown: the example's rubric reads every grade
    hinted = _pairs_beside(levels[:3])
    hinted.flags = [*hinted.flags, "--rubric", "0=not relevant,1=partly,2=relevant,3"]
    code, err, report, rows = _run(hinted, ".xlsx")
    assert code == 0, err
    assert report is not None
    assert report["issues"] == []  # (the legend's rubric alone: 3 flagged outside the scale)
    assert {(r["query"], r["source_id"]): sorted([float(r["grade_ann1"]), float(r["grade_ann2"])])
            for r in rows} == hinted.truth


def test_a_legend_lacking_a_label_hints_a_rubric_that_reads_it() -> None:
    """Grades written as the legend's labels, one the legend lacks: the hint's
    example is the legend with that label as the next grade, and the import
    run with it as shown reads every grade (the legend alone left the label
    unread)."""
    levels = [(0, "not relevant"), (1, "partly"), (2, "relevant"), (3, "highly relevant")]
    sheet = _pairs_beside(levels[:3])
    for row in sheet.rows[1:]:
        row[2:4] = [levels[g][1] for g in row[2:4]]
    flags = sheet.flags = [*sheet.flags, "--annotators", "ann1,ann2"]
    code, err, _, _ = _run(sheet, ".xlsx")
    assert code != 0
    example = "0=not relevant,1=partly,2=relevant,3=highly relevant"
    assert f'(e.g. --rubric "{example}")' in err, err
    for rubric, read in (("0=not relevant,1=partly,2=relevant", False), (example, True)):
        sheet.flags = [*flags, "--rubric", rubric]
        code, err, report, rows = _run(sheet, ".xlsx")
        assert (code == 0 and report is not None and not report["unmapped_labels"]
                and {i["kind"] for i in report["issues"]} == {"label mapped"}) == read, (
            rubric, err, report)
    assert {(r["query"], r["source_id"]): sorted([float(r["grade_ann1"]), float(r["grade_ann2"])])
            for r in rows} == sheet.truth


def test_legends_that_disagree_are_named_in_one_line(tmp_path: Path) -> None:
    """A legend above the header (0-3) and one on a sheet of its own (0-4):
    none is read, and the command line says so in one line naming each
    legend's sheet and place, its levels and what to do (it was a note in
    --report only, naming neither sheet)."""
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    sheet.title = "Judgments"
    for row in (["Scale: 0 = not relevant, 1 = partial, 2 = relevant, 3 = perfect"], [],
                ["query", "doc_id", "relevance"], ["q1", "d1", 2], ["q1", "d2", 1],
                ["q1", "d3", 0], ["q2", "d4", 3], ["q2", "d5", 1], ["q2", "d6", 0]):
        sheet.append(row)
    legend = book.create_sheet("Legend")
    for row in (["Grade", "Meaning"], [0, "bad"], [1, "fair"], [2, "good"], [3, "excellent"],
                [4, "perfect"]):
        legend.append(row)
    path = tmp_path / "two legends.xlsx"
    book.save(path)
    out, report = io.StringIO(), tmp_path / "report.json"
    assert main(["import", str(path), "-o", str(tmp_path / "out.csv"), "--report",
                 str(report)], out) == 0
    line = ("the sheet's legends list different grades: cell A1 of sheet 'Judgments' "
            "(0=not relevant,1=partial,2=relevant,3=perfect) and rows 2-6 of sheet 'Legend' "
            "(0=bad,1=fair,2=good,3=excellent,4=perfect), so none was read as the scale: "
            "pass --rubric with the scale the grades are on, or correct the legend that is "
            "wrong")
    assert line in out.getvalue().splitlines(), out.getvalue()
    data = json.loads(report.read_text("utf-8"))
    assert line in data["notes"]
    assert data["scale"] == "the grade columns' numbers, 0 to 3", data["scale"]


def test_a_legend_typed_into_a_csv_without_quotes_is_read(tmp_path: Path) -> None:
    """``Scale: 0 = not relevant, 1 = partial, ...`` typed as a CSV line with
    no quotes is split into cells: read as one legend across them (it was
    not read, and a 4 beside a 0-3 legend imported in silence); a legend of
    labels across a row after its title alike."""
    sheet = tmp_path / "typed.csv"
    sheet.write_text("Scale: 0 = not relevant, 1 = partial, 2 = relevant, 3 = perfect\n\n"
                     "query,doc,relevance\nq1,d1,2\nq1,d2,1\nq2,d3,0\nq2,d4,4\n", encoding="utf-8")
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        assert main(["import", str(sheet), "-o", str(tmp_path / "out.csv")], io.StringIO()) == 2
    assert err.getvalue() == (
        f"ndcg-worksheet: error: {sheet}, line 7, column 'relevance': the sheet's legend "
        "(cells A1-D1: 0=not relevant,1=partial,2=relevant,3=perfect) has no grade '4', which "
        "relevance holds (pass --rubric with the scale the grades are on (e.g. --rubric "
        "\"0=not relevant,1=partial,2=relevant,3=perfect,4\"), or correct the legend or the "
        "grade)\n")
    sheet.write_text("Legend (worst first):,Useless,Marginal,Useful,Vital\n\n"
                     "query,doc,relevance\nq1,d1,Vital\nq1,d2,Useful\nq2,d3,Useless\n"
                     "q2,d4,Marginal\n", encoding="utf-8")
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        assert main(["import", str(sheet), "-o", str(tmp_path / "out.csv")], io.StringIO()) == 2
    assert "the sheet's legend (cells A1-E1: Useless / Marginal / Useful / Vital, worst " \
        "first, no grades) lists the labels, not their grades" in err.getvalue(), err.getvalue()
    assert '--rubric "0=Useless,1=Marginal,2=Useful,3=Vital" if they are one grade apart' \
        in err.getvalue()


def _imported_with_report(sheet: Path) -> tuple[list[dict[str, str]], dict[str, Any]]:
    """``import SHEET`` beside it: the rows imported and the report."""
    out, report = sheet.with_name("o.csv"), sheet.with_name("r.json")
    assert main(["import", str(sheet), "-o", str(out), "--report", str(report)],
                io.StringIO()) == 0
    with open(out, newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    return rows, json.loads(report.read_text("utf-8"))


#: Sheets drawn with one grade off the range their header declares.
OFF_RANGE_SHEETS = 8


@settings(PROFILE, max_examples=OFF_RANGE_SHEETS)
@given(sheets(off_range=True).filter(lambda s: not s.ambiguous),
       st.sampled_from([".csv", ".xlsx"]))
def test_a_grade_off_its_headers_range_is_refused_naming_its_cell(sheet: Drawn,
                                                                  suffix: str) -> None:
    """A 4 under ``Relevance (0-3)``: refused in one line naming the row,
    the column, the value and the range the header declares, and what to
    do (it was imported without a word, the scale widened to 0-4); with
    ``--rubric`` declaring the scale, the user's scale wins and the
    grades drawn are imported as written."""
    assert sheet.off_range is not None
    row, value = sheet.off_range
    code, err, _, rows = _run(sheet, suffix)
    assert code == 2, err
    assert len(err.strip().splitlines()) == 1, err
    where = f"row {row}, column '" if suffix == ".xlsx" else f"line {row}, column 'Relevance"
    assert where in err, err
    assert f"grade {value} is outside the range 0-3 the column's header declares" in err, err
    assert "fix the cell, or pass --rubric 0,1,2,3,4 declaring the scale" in err, err
    declared = replace(sheet, flags=[*sheet.flags, "--rubric", "0,1,2,3,4"])
    code, err, _, rows = _run(declared, suffix)
    assert code == 0, err
    written = {float(v) for r in rows for k, v in r.items() if k.startswith("grade") and v}
    assert value in written, err
    assert len(rows) == len(sheet.truth), err


def test_the_rubric_a_negative_grade_off_range_suggests_can_be_typed(tmp_path: Path) -> None:
    """A -1 under ``Relevance (0-3)``: the refusal's ``--rubric`` is one the
    command line takes as written (``--rubric=-1,0,1,2,3``: argparse reads
    ``--rubric -1,...`` as an option, "expected one argument"), and it
    imports the sheet (fails before: the hint said ``--rubric -1,0,1,2,3``)."""
    sheet, out = tmp_path / "judged.csv", tmp_path / "out.csv"
    sheet.write_text("query,doc,Relevance (0-3)\nq1,d1,0\nq1,d2,3\nq1,d3,-1\n"
                     "q2,d1,1\nq2,d2,2\n", encoding="utf-8")
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        assert main(["import", str(sheet), "-o", str(out)], io.StringIO()) == 2
    hinted = re.search(r"pass (--rubric\S*)(?: (\S+))? declaring the scale", err.getvalue())
    assert hinted is not None, err.getvalue()
    assert hinted.group(1) == "--rubric=-1,0,1,2,3", err.getvalue()
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        assert main(["import", str(sheet), "-o", str(out), *filter(None, hinted.groups())],
                    io.StringIO()) == 0, err.getvalue()
    assert "-1" in out.read_text("utf-8")
