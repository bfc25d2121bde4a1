"""Layouts against the import: sheets of blocks refused naming their rows,
small wide sheets as typed by hand, sheets without a header row, a
worksheet written and read back, a second column of grades and
checkboxes a column per annotator (each annotator's grades, never one
dropped).
"""

from __future__ import annotations

import contextlib
import csv
import io
import re
from dataclasses import replace
from pathlib import Path
from tempfile import TemporaryDirectory

from hypothesis import Phase, event, example, given, settings
from hypothesis import strategies as st

from app.cli.main import main
from core.model.numbers import number_text
from tests.sheetgen import (
    Drawn,
    sheets,
)
from tests.sheetgen_blocks import Blocks, block_sheets
from tests.sheetgen_small import Small, small_wide_sheets

# derandomize seeds each test's draws from its source: the tests call the
# helpers by the names they were written with, so they draw the same sheets
from tests.sheetimport import OFFERED as _OFFERED
from tests.sheetimport import PROFILE
from tests.sheetimport import grades_of as _grades
from tests.sheetimport import holds as _holds
from tests.sheetimport import run_sheet as _run

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


#: Long sheets of one judge drawn with a second column of grades beside theirs.
EXTRA_SHEETS = 10


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
