"""Small sheets of one judge beside a column of whole numbers
(tests/sheetgen_small.py's :func:`one_judge_sheets`, the truth kept
aside): an unnamed rank, or a second judge's grades under a header naming
no one. A rank is never guessed for the ranking and grades are never
dropped as one: the judge's grades are imported with the rank left out,
or the import stops in one line naming the column and both ways; a
second judge's grades are imported or refused so, never left out. Where
the sheet (``Relevance (0-3)``) or ``--rubric`` declares the scale, a
rank whose values it does not hold (1..4 beside 0-3, 0..n-1 beside 1-5)
is no grades on it: left out, never refused (it was, as grades of a few
small queries could count so)."""

from __future__ import annotations

import contextlib
import csv
import io
import re
from pathlib import Path
from tempfile import TemporaryDirectory

from hypothesis import HealthCheck, event, example, given, settings

from app.cli.main import main
from tests.sheetgen_small import OneJudge, one_judge_sheets

#: The sheets drawn per run.
ONE_JUDGE_SHEETS = 60


def _import(sheet: OneJudge, tmp: Path, *flags: str) -> tuple[int, str, list[dict[str, str]]]:
    path, out = tmp / "judged.csv", tmp / "out.csv"
    with open(path, "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows(sheet.rows)
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code = main(["import", str(path), "-o", str(out), *sheet.flags, *flags], io.StringIO())
    rows = []
    if code == 0:
        with open(out, newline="", encoding="utf-8") as fh:
            rows = list(csv.DictReader(fh))
    return code, err.getvalue().replace(str(path), "judged.csv"), rows


def _graded(sheet: OneJudge, rows: list[dict[str, str]], *whose: str) -> None:
    """Every grade of the truth of ``whose``, imported as theirs (one
    judge: the grade column; two: a column each)."""
    assert len(rows) == len(sheet.truth), sheet.rows
    for row in rows:
        truth = sheet.truth[(row["query"], row["source_id"])]
        if len(whose) == 1:
            assert row["grade"] == str(truth[whose[0]]), (sheet.rows, row)
            assert not [k for k in row if k.startswith("grade_")], row
        else:
            got = sorted(float(row[k]) for k in row if k.startswith("grade_"))
            assert got == sorted(float(truth[w]) for w in whose), (sheet.rows, row)


RANKED = OneJudge(  # by hand: 1..4 and 1..3 typed down the rows, beside Relevance (0-3)
    [["query", "doc", "value", "Relevance (0-3)"], ["q1", "d1", 1, 2], ["q1", "d2", 2, 2],
     ["q1", "d3", 3, 0], ["q1", "d4", 4, 1], ["q2", "d5", 1, 3], ["q2", "d6", 2, 1],
     ["q2", "d7", 3, 0]], "rank", "Relevance (0-3)", "value", (0, 3), True, [],
    {(f"q{1 + (i > 3)}", f"d{i + 1}"): {"Relevance (0-3)": g, "value": v}
     for i, (v, g) in enumerate([(1, 2), (2, 2), (3, 0), (4, 1), (1, 3), (2, 1), (3, 0)])})


@settings(max_examples=ONE_JUDGE_SHEETS, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@example(RANKED)
@given(one_judge_sheets())
def test_one_judge_beside_a_count_keeps_the_grades_and_guesses_no_ranking(
        sheet: OneJudge) -> None:
    with TemporaryDirectory() as tmp:
        code, err, rows = _import(sheet, Path(tmp))
        event(f"{sheet.kind}: {'imported' if code == 0 else 'refused'}"
              + (" (off the declared scale)" if sheet.leaves_scale else ""))
        if sheet.kind == "rank":
            if code == 0:  # the judge's grades; the rank left out, no ranking guessed
                _graded(sheet, rows, sheet.judge)
                assert all(row["score"] == "" for row in rows), rows
                return
            assert not sheet.leaves_scale, err  # the line: no grades off the scale
            assert (code, err.count("\n")) == (2, 1), err
            assert f"{sheet.other}, counting each query's rows" in err, err
            assert f"--map rank={sheet.other} if it is the ranking" in err, err
            return
        if code == 0:  # a second judge's grades, never left out
            _graded(sheet, rows, sheet.judge, sheet.other)
            return
        assert (code, err.count("\n")) == (2, 1), err
        assert re.search(rf"\b{re.escape(sheet.other)}\b", err), err
        every = [m for m in re.findall(r"--annotators ([^\s;()]+)", err) if m.count(",") == 1]
        assert every, err
        code, err, rows = _import(sheet, Path(tmp), "--annotators", every[0])
        assert code == 0, err
        _graded(sheet, rows, sheet.judge, sheet.other)


def test_a_legend_declares_the_scale_a_rank_leaves(tmp_path: Path) -> None:
    """A binary legend above the header (0 = not relevant, 1 = relevant):
    ``value`` counting 1, 2 | 1, 2, 3 holds 2 and 3, no grade on it, so it
    is the rank's values, left out (it was refused: 'nothing tells which');
    without the legend the same sheet is refused as before (0-1 grades of
    two small queries could count 0, 1 or 1, 2 too)."""
    body = ["query,doc,value,relevance", "q1,d1,1,1", "q1,d2,2,0", "q2,d3,1,1", "q2,d4,2,0",
            "q2,d5,3,0"]
    sheet, out = tmp_path / "legend.csv", tmp_path / "out.csv"
    sheet.write_text("\n".join(["0 = not relevant, 1 = relevant", "", *body]) + "\n",
                     encoding="utf-8")
    assert main(["import", str(sheet), "-o", str(out)], io.StringIO()) == 0
    with open(out, newline="", encoding="utf-8") as fh:
        assert [(r["source_id"], r["grade"], r["score"]) for r in csv.DictReader(fh)] == [
            ("d1", "1", ""), ("d2", "0", ""), ("d3", "1", ""), ("d4", "0", ""), ("d5", "0", "")]
    sheet.write_text("\n".join(body) + "\n", encoding="utf-8")
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        assert main(["import", str(sheet), "-o", str(out)], io.StringIO()) == 2
    assert "value, counting each query's rows 1, 2, … (or 0, 1, …)" in err.getvalue()


def test_a_range_the_judges_grades_leave_declares_no_scale(tmp_path: Path) -> None:
    """A range in the grade column's header that its own grades leave
    ('Relevance (round 4-5)' over grades 0..3) is not their scale: a second
    judge's grades counting 1, 2, 3 beside it are refused naming both ways,
    as without the range; they were left out unsaid, as a rank's values off
    that scale (fails before: imported without them, exit 0)."""
    rows = ["q1,d1,3,1", "q1,d2,2,2", "q1,d3,0,3", "q2,d1,1,2", "q2,d2,0,1", "q2,d3,2,3"]
    sheet, out = tmp_path / "judged.csv", tmp_path / "out.csv"
    for header in ("Relevance (round 4-5)", "Relevance"):
        sheet.write_text("\n".join([f"query,doc,{header},R2", *rows]) + "\n",
                         encoding="utf-8")
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            assert main(["import", str(sheet), "-o", str(out)], io.StringIO()) == 2, header
        assert "is not used: R2, counting each query's rows" in err.getvalue(), header
        assert re.search(r"--annotators [^\s;()]+,R2 ", err.getvalue()), header
