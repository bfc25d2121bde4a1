"""What the cells of an imported sheet say: a blank grade cell is no
judgment read, a formula is reported under its own cell, a grade off its
header's range is refused naming its cell, and an item's ranking is the
one number its rows give (a blank first row read from a later one, two
values refused).
"""

from __future__ import annotations

import contextlib
import io
import json
import re
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import Phase, assume, event, given, settings
from hypothesis import strategies as st

from app.cli.main import main
from core.io.annotator import import_annotations
from core.io.safety import column_letters
from core.model.numbers import number_text
from tests.sheetgen import (
    Drawn,
    sheets,
)

# derandomize seeds each test's draws from its source: the tests call the
# helpers by the names they were written with, so they draw the same sheets
from tests.sheetimport import PROFILE
from tests.sheetimport import holds as _holds
from tests.sheetimport import run_sheet as _run

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
    # (JSON Lines: a record a line, no header line: the sheet's row r is line r - 1)
    unit, back = ("line", 1) if suffix == ".jsonl" else ("row", 0)
    assert conflicts == sorted(
        (blank - back, f"no {field} here, where {unit} {giving - back} gives the same "
         f"candidate {number_text(float(value))}; that {field} is kept")
        for _, _, blank, giving, value in sheet.gaps)


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
        "0 rejected; 2 grade cells blank (no judgment: unknown grades), all of them on the 2 "
        "rows with no grade at all (their candidates kept with unknown grades: grade them in "
        "the editor); 0 blank rows skipped; 8 candidates")
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
    report, out = tmp_path / "r.json", io.StringIO()
    assert main(["import", str(sheet), "-o", str(tmp_path / "o.csv"), "--report",
                 str(report)], out) == 0
    # The row with no grade at all said once, within the blank cells (it
    # read "3 grade cells blank ..., 1 row with no grade at all", as if 4).
    assert ("3 grade cells blank (no judgment: unknown grades), 2 of them on the 1 row with "
            "no grade at all (its candidate kept") in out.getvalue().splitlines()[0]
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
            "judgment: unknown grades), all of them on the 1 row with no grade at all (its "
            "candidate kept with an unknown grade: grade it in the editor); "
            ) in out.getvalue().splitlines()[0]
    got = json.loads(report.read_text(encoding="utf-8"))
    assert (got["rows_read"], got["rows"]["imported"], got["rows"]["ungraded"]) == (4, 3, 1)
    rep = import_annotations(sheet).report  # the wizard's counts
    assert (rep.rows_read, rep.rows_imported, rep.rows_ungraded) == (4, 3, 1)


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
