"""Surveys and transposed sheets (a column per item, a row per
respondent): the pattern their items were read by, a quiz's score that is
no ranking, their header rows told by what they hold, Prolific's ids,
timings and attention checks, a slider's grades; their problems named by
the file's own row and column."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
import pytest
import xlsxwriter

from core.io.annotator import import_annotations, preview
from core.io.annotator.command import import_sheet
from core.io.annotator.detect import read_guessed
from core.io.annotator.overrides import guess_mapping
from tests.annotator_cases import DATA, run_cli, write_csv


def test_a_transposed_sheet_says_the_pattern_its_items_were_read_by(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    report_path = tmp_path / "r.json"
    code, out, err = run_cli(["import", str(DATA / "google_forms_grid.csv"), "-o",
                              str(tmp_path / "o.csv"), "--report", str(report_path)], capsys)
    assert (code, err) == (0, "")
    # the sheet is said as it is (it said 'long layout'), and so are the
    # columns read from its items (they said 'query, named so')
    assert out.startswith(f"{DATA / 'google_forms_grid.csv'}: one row per respondent (read as "
                          "one row per respondent and item), header on row 1; 20 judgments "
                          "read in 4 rows: "), out
    report = json.loads(report_path.read_text("utf-8"))
    assert report["guesses"][1:4] == [
        "query: query, read from the items' headers; 2 values, each on 10 rows on average",
        "source id: source_id, read from the items' headers; 5 values, each on 4 rows on "
        "average", "grade: grade, read from the items' cells; 4 distinct values"]
    notes = report["notes"]
    assert ("one row per respondent, one column per item: the 5 items of columns 'Rate each "
            "result for: cheap flights to rome [https://fly.example/rome]' ... 'Rate each "
            "result for: wool socks [https://blog.example/merino]' read from their headers as "
            "query [source], one row per respondent and item (the rows and columns this report "
            "names are the file's own)") in notes


def _data_rows(name: str) -> list[list[str]]:
    """The rows of ``tests/data/annotators/NAME`` (a CSV file), to edit."""
    with open(DATA / name, newline="", encoding="utf-8") as fh:
        return list(csv.reader(fh))


@pytest.mark.parametrize("points", ["{} / 5", "{}"])
def test_a_quiz_score_in_a_survey_is_no_ranking(tmp_path: Path, points: str):
    """Google Forms in quiz mode writes each respondent's points under
    ``Score`` (``3 / 5``, or ``3``) after the e-mail: one value per
    respondent over all of its items, it ranks none of them. It is left
    out saying so, and the grid's judgments are read as without it (the
    points were read as the ranking's scores, each item's the first
    respondent's; ``3 / 5`` rejected every row)."""
    rows = _data_rows("google_forms_grid.csv")
    for n, r in enumerate(rows):
        r.insert(2, "Score" if n == 0 else points.format((3 * n) % 6))
    sheet = write_csv(tmp_path / "quiz.csv", rows)
    result = import_annotations(sheet)
    original = import_annotations(DATA / "google_forms_grid.csv").document
    doc = result.document
    assert list(doc.source_id) == list(original.source_id)
    assert np.array_equal(doc.ratings, original.ratings, equal_nan=True)
    assert np.isnan(doc.score).all()
    assert result.report.mapping.score is None
    why = {c.header: (c.role, c.reason) for c in result.report.columns}
    assert why["Score"] == ("", "Score: named as a ranking's score, but one value per "
                            "respondent (a survey's row), the same over all of its items: it "
                            "ranks no item; not imported")


def test_a_quiz_score_that_rejects_every_row_is_named_with_its_flag(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    """Google Forms' responses one judgment per submission, in quiz mode:
    ``Score`` (``1 / 1``) is taken by its name for the ranking and rejects
    every row; the refusal names the flag that leaves it out (it said
    'check the header row and the column mapping'), which imports the
    judgments as without the column."""
    rows = _data_rows("google_forms_responses.csv")
    for n, r in enumerate(rows):
        r.insert(2, "Score" if n == 0 else f"{n % 2} / 1")
    sheet = write_csv(tmp_path / "quiz_responses.csv", rows)
    code, out, err = run_cli(["import", str(sheet), "-o", str(tmp_path / "o.csv")], capsys)
    assert (code, out) == (2, "")
    assert err == (f"ndcg-worksheet: error: {sheet}: no candidate rows to import (first "
                   "problem: row 2, column 'Score': '1 / 1' is not a number; row rejected) "
                   "(pass --map score=none if Score holds no ranking)\n")
    result = import_sheet(sheet, fields={"score": "none"})
    original = import_annotations(DATA / "google_forms_responses.csv").document
    assert np.array_equal(result.document.ratings, original.ratings, equal_nan=True)


def test_a_transposed_sheet_whose_headers_name_no_item_is_refused_without_useless_flags(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    sheet = tmp_path / "survey.csv"
    sheet.write_text("ResponseId,Q1_1,Q1_2,Q1_3,Q2_1\nR_a,1,2,3,4\nR_b,2,2,1,3\nR_c,4,3,3,1\n",
                     encoding="utf-8")
    code, out, err = run_cli(["import", str(sheet), "-o", str(tmp_path / "o.csv")], capsys)
    assert (code, out) == (2, "")
    assert err == (
        f"ndcg-worksheet: error: {sheet}, line 1: one row per respondent and one column per "
        "item (4 columns of grades: Q1_1, Q1_2, Q1_3, ...), but the headers do not say which "
        "query and source each item is (write each item's header as 'query [source]' or "
        "'query - source' (as a survey's grid question names its rows), or turn the sheet "
        "into one row per judgment)\n")
    assert "--map" not in err


def test_a_formula_in_a_transposed_workbook_is_still_refused(tmp_path: Path) -> None:

    path = tmp_path / "grid.xlsx"
    wb = xlsxwriter.Workbook(str(path))
    ws = wb.add_worksheet("Form Responses 1")
    ws.write_row(0, 0, ["Email Address", "Rate: q1 [http://a.example]",
                        "Rate: q1 [http://b.example]", "Rate: q2 [http://c.example]"])
    ws.write_row(1, 0, ["ana@x.example", 1, 2, 0])
    ws.write_string(2, 0, "ben@x.example")
    ws.write_formula(2, 1, "=1+1", None, 2)
    ws.write_row(2, 2, [2, 1])
    wb.close()
    report = import_annotations(path).report
    # Ben's first item is row 5 of the reshaped table (the header, Ana's three
    # items, then Ben's first); the report names the workbook's own cell, B3.
    # The formula is refused, never read as its value.
    assert [(i.kind, i.row, i.column) for i in report.formulas] == [
        ("formula", 3, "B (Rate: q1 [http://a.example])")]
    assert "cell B3 holds" in report.formulas[0].problem
    assert report.rejected_judgments[0][:2] == (3, "B (Rate: q1 [http://a.example])")
    assert report.judgments_imported == 5


def test_a_transposed_sheet_s_problems_name_the_file_s_row_and_column(tmp_path: Path):
    """Each problem of a sheet with one row per respondent names the file's
    row and the item's column (its letter and header), not the row of the
    table it was reshaped into."""
    sheet = tmp_path / "grid.csv"
    sheet.write_text(
        "Timestamp,Email Address,Rate: q1 [http://a.example],Rate: q1 [http://b.example],"
        "Rate: q2 [http://c.example]\n"
        "3/1/2024 9:00:00,ana@x.example,1,2,0\n"
        "3/1/2024 9:05:00,ben@x.example,2,1.5,1\n"
        "3/1/2024 9:09:00,cy@x.example,0,1,banana\n"
        "3/1/2024 9:12:00,dee@x.example,3,2,2\n"
        "3/1/2024 9:15:00,eli@x.example,1,0,3\n"
        "3/1/2024 9:22:00,ana@x.example,2,2,2\n", encoding="utf-8")
    mapping = guess_mapping(read_guessed(sheet), fields={"annotator": "Email Address"})
    report = import_annotations(sheet, mapping).report
    c, d, e = ("C (Rate: q1 [http://a.example])", "D (Rate: q1 [http://b.example])",
               "E (Rate: q2 [http://c.example])")
    # Ben's 1.5 (row 3), Cy's banana (row 4), Ana again (row 7, first on row 2): in the
    # reshaped table these were rows 6, 10 and 17-19.
    assert [(i.kind, i.row, i.column) for i in report.issues] == [
        ("fractional", 3, d), ("cell rejected", 4, e), ("conflict", 7, c), ("duplicate", 7, d),
        ("conflict", 7, e)]
    assert [(r, col) for r, col, _ in report.rejected_judgments] == [(4, e), (7, c), (7, d),
                                                                      (7, e)]
    assert all("(first on row 2)" in why for _, _, why in report.rejected_judgments[1:])
    assert (report.rows_read, report.header_row) == (6, 1)
    assert str(report.issues[1]).startswith(f"row 4, column {e!r}: label 'banana'")


def test_a_value_reading_like_a_row_is_quoted_as_the_file_holds_it(tmp_path: Path):
    """The reshaped table's places are said as the file's, but a value a
    message quotes is the respondent's own words: Cy's cell reading 'row 9'
    (row 9 of the reshaped table is the file's row 4) stays 'row 9'."""
    sheet = tmp_path / "grid.csv"
    sheet.write_text(
        "Timestamp,Email Address,Rate: q1 [http://a.example],Rate: q1 [http://b.example],"
        "Rate: q2 [http://c.example]\n"
        "3/1/2024 9:00:00,ana@x.example,1,2,0\n"
        "3/1/2024 9:05:00,ben@x.example,2,1,1\n"
        "3/1/2024 9:09:00,cy@x.example,0,1,row 9\n"
        "3/1/2024 9:12:00,dee@x.example,3,2,2\n"
        "3/1/2024 9:15:00,eli@x.example,1,0,3\n", encoding="utf-8")
    mapping = guess_mapping(read_guessed(sheet), fields={"annotator": "Email Address"})
    report = import_annotations(sheet, mapping).report
    e = "E (Rate: q2 [http://c.example])"
    assert [str(i) for i in report.issues] == [
        f"row 4, column {e!r}: label 'row 9' is not in the rubric (none declared) nor on a "
        "known scale; not imported"]
    assert report.rejected_judgments == [
        (4, e, "label 'row 9' is not in the rubric (none declared) nor on a known scale; "
               "not imported")]


def test_survey_header_rows_are_told_by_what_they_hold(tmp_path: Path):
    """The Qualtrics export with its status given as numbers and its third
    header row's objects keyed otherwise: the extra header rows are still
    told by what they hold (objects; texts over columns of grades), the items
    read from the question texts, and the preview and test responses skipped
    by the other column of statuses (DistributionChannel)."""
    rows = _data_rows("qualtrics_export.csv")
    status = rows[0].index("Status")
    for r in rows[3:]:
        r[status] = {"IP Address": "0", "Survey Preview": "1", "Survey Test": "2"}[r[status]]
    rows[2] = [c.replace('"ImportId"', '"colKey"') for c in rows[2]]
    sheet = write_csv(tmp_path / "survey_numeric.csv", rows)
    report = import_annotations(sheet).report
    assert report.excluded == {"preview": 2}
    assert report.skipped_rows == [
        (4, "a preview response, not a respondent's: DistributionChannel is 'preview'"),
        (8, "a preview response, not a respondent's: DistributionChannel is 'test'")]
    # counted by kind, the value left out (was: "not a respondent'…'test'")
    assert report.row_tally is not None
    assert report.row_tally.skipped == (
        ("a preview response, not a respondent's: DistributionChannel is '…'", 2),)
    assert any("read from their headers as query - source; header rows 1, 2, 3, the items "
               "named on row 2" in n for n in report.notes)
    # respondent 3 left one item blank: no judgment (it was counted as one read)
    assert (report.judgments_read, report.blank_grades, report.rows_read) == (23, 1, 4)
    assert preview(sheet).marked == {"preview": 2}  # what the wizard offers to keep
    original = import_annotations(DATA / "qualtrics_export.csv").document
    doc = import_annotations(sheet).document
    assert doc.query_ids == original.query_ids == ["standing desk converter",
                                                   "how to descale a kettle"]
    assert np.array_equal(doc.ratings, original.ratings, equal_nan=True)
    kept = import_annotations(
        sheet, guess_mapping(read_guessed(sheet)).replace(keep=("preview",))).report
    assert (kept.excluded, kept.judgments_read, kept.blank_grades) == ({}, 35, 1)


@pytest.mark.parametrize("whole", [False, True])
def test_survey_through_prolific_with_timing_and_attention_check(tmp_path: Path, whole: bool):
    """The Qualtrics export as a Prolific study writes it: the participant's
    ``PROLIFIC_PID`` (whose ``pid`` is no passage id), a timing question
    (``Timing - First Click`` ... ``Timing - Click Count``: seconds and a
    count, no items) and an attention check beside the items. The same six
    items and grades are read as without them (refused before: 'the headers
    do not say which query and source each item is'; with the PID kept
    apart, the click count was an item 'Timing', 'Click Count'). Timings in
    whole seconds (``2.000``, ``40.000``: each column alone reads like
    grades) are no items either (they were an item 'Timing' of four
    sources, with grades 2 to 45)."""
    rows = _data_rows("qualtrics_export.csv")
    timing = ["First Click", "Last Click", "Page Submit", "Click Count"]
    rows[0] += [f"Q3_{t}" for t in timing] + ["Q4", "PROLIFIC_PID", "STUDY_ID",
                                              "RecipientEmail"]
    rows[1] += [f"Timing - {t}" for t in timing] + [
        "Attention check: choose Somewhat relevant", "PROLIFIC_PID", "STUDY_ID",
        "Recipient Email"]
    rows[2] += [json.dumps({"ImportId": f"QID3_{t.upper().replace(' ', '_')}"}) for t in timing] + [
        '{"ImportId":"QID4"}', '{"ImportId":"PROLIFIC_PID"}', '{"ImportId":"STUDY_ID"}',
        '{"ImportId":"recipientEmail"}']
    for n, r in enumerate(rows[3:]):
        seconds = [2 + 3 * n, 40 + 7 * n, 52 + 5 * n] if whole else [2.5 + n, 40.75 + n, 41.125 + n]
        r += [*(f"{x:.3f}" for x in seconds), str(6 + n),
              "Somewhat relevant", f"5f8a1c2b3d4e5f6a7b8c9d{n:02d}", "672b0c9a1f2e3d4c5b6a7980", ""]
    sheet = write_csv(tmp_path / "prolific_qualtrics.csv", rows)
    result = import_annotations(sheet)
    original = import_annotations(DATA / "qualtrics_export.csv").document
    doc = result.document
    assert doc.query_ids == original.query_ids == ["standing desk converter",
                                                   "how to descale a kettle"]
    assert list(doc.source_id) == list(original.source_id)
    assert np.array_equal(doc.ratings, original.ratings, equal_nan=True)
    assert (result.report.judgments_read, result.report.blank_grades,
            result.report.excluded) == (23, 1, {"preview": 2})
    roles = {c.header: c.role for c in result.report.columns}
    assert roles["Q3_Click Count"] == ""  # not imported
    # the participant's id, one per response, names the people (test_import_crowd_people.py)
    assert (roles["PROLIFIC_PID"], roles["ResponseId"]) == ("annotator", "")
    # each column left out says why, as in a sheet read as it is (all said
    # 'no role; not imported' once the sheet was reshaped)
    why = {c.header: c.reason for c in result.report.columns}
    assert why["StartDate"] == "StartDate: dates and times, not imported"
    assert why["Q3_Last Click"] == (
        "Q3_Last Click: numbers " + ("40 to 75" if whole else "40.75 to 45.75")
        + ", the same on all of each annotator's rows (PROLIFIC_PID): said of who judged, "
        "not of a judgment (no ranking); not imported")
    assert why["RecipientEmail"] == "empty: no row holds a value; not imported"


@pytest.mark.parametrize("timing", [False, True])
def test_a_survey_graded_on_a_slider_keeps_its_items(tmp_path: Path, timing: bool):
    """Items graded 0-100 on a slider spread over many levels, every query
    alike: none is left out as a timing question is (a query's numbers on no
    scale of few levels are no items only where the survey's other queries
    sit on one), beside a timing question to the millisecond or not."""
    pages = ["https://a.example/1", "https://a.example/2", "https://b.example/1"]
    header = ["ResponseId", *(f"q{n // 2 + 1} - {u}" for n, u in enumerate(pages)),
              *(["Timing - First Click", "Timing - Page Submit"] if timing else [])]
    grades = [[15, 40, 85], [0, 72, 100], [33, 50, 64], [90, 7, 48]]
    rows = [header, *([f"R_{i}", *g, *(["2.125", "41.750"] if timing else [])]
                      for i, g in enumerate(grades))]
    result = import_annotations(write_csv(tmp_path / "slider.csv", rows))
    doc = result.document
    assert doc.query_ids == ["q1", "q2"]
    assert list(doc.source_id) == pages
    assert doc.ratings is not None
    assert doc.ratings.T.tolist() == grades


def test_a_sheet_with_its_query_and_source_named_by_a_word_stays_as_it_is(tmp_path: Path):
    """The other side of the Prolific case: 'Topic no' and 'Doc URL' name
    the query and the source by one word each, and the grade columns'
    headers ('Annotator A - grade') fit 'query - source': the sheet is
    still read as it is, one column per annotator, never one row per
    respondent with 'Annotator A' for a query."""
    rows = [["Topic no", "Doc URL", "Annotator A - grade", "Annotator B - grade"]]
    rows += [[str(t), f"https://ex.example/{t}/{d}", (t + d) % 4, (t + 2 * d) % 4]
             for t in (401, 402) for d in range(4)]
    sheet = write_csv(tmp_path / "two_annotators.csv", rows)
    result = import_annotations(sheet)
    assert result.report.layout == "wide"
    assert result.document.query_ids == ["401", "402"]
    assert result.document.annotators == ["Annotator A", "Annotator B"]
