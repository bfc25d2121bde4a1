"""An annotator's column of grades among marks is never read as the query's
text (himpf): a wide sheet's columns under the annotators' bare names, the
last one grading each query's items alike and marking every item of some
queries (``N/A``, ``?``, ``paywall`` declared ``--unrateable paywall``), is
one value per query, as a query's text is; read so, its grades were
dropped without a word but a warning about the query texts. Drawn by
tests/sheetgen.py (``sheets(marks=True)``), imported by the command line:
every drawn grade is imported, each mark is kept as that annotator's, and
no query text is read from the column."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st

from tests.sheetgen import Drawn, sheets
from tests.sheetimport import PROFILE
from tests.sheetimport import run_sheet as _run
from tests.test_cli import run

#: Wide sheets drawn with marks among the last annotator's grades, per run.
MARKED_SHEETS = 25


def _ben() -> Drawn:
    """The review's sheet (hreview17): ana grades, ben's 1 on q1's items,
    N/A on q2's, paywall on q3's."""
    marks = {"q1": "1", "q2": "N/A", "q3": "paywall"}
    ana = {("q1", "d1"): 2, ("q1", "d2"): 1, ("q2", "d1"): 3, ("q2", "d2"): 2,
           ("q3", "d1"): 0, ("q3", "d2"): 3}
    rows = [["query", "doc_id", "ana", "ben"],
            *([q, d, g, marks[q]] for (q, d), g in ana.items())]
    truth = {(q, d): sorted([float(g), *([1.0] if q == "q1" else [])])
             for (q, d), g in ana.items()}
    return Drawn(rows, "wide", truth, flags=["--unrateable", "paywall"],
                 grade_headers=["ana", "ben"],
                 marks={(q, d, "ben"): marks[q] for q, d in ana if q != "q1"})


@settings(PROFILE, max_examples=MARKED_SHEETS)
@example(_ben(), ".csv")
@given(sheets(marks=True), st.sampled_from([".csv", ".xlsx"]))
def test_every_drawn_grade_is_imported_beside_the_marks(sheet: Drawn, suffix: str) -> None:
    code, err, report, rows = _run(sheet, suffix)
    if code != 0:  # refused (grades counting each query's rows as a rank does, a
        # distractor reading as grades): in one line, with what to pass; never dropped
        assert code == 2, err
        assert len(err.strip().splitlines()) == 1, err
        assert "pass " in err, err
        return
    assert report is not None
    assert report["mapping"].get("query_text") not in sheet.grade_headers, report["mapping"]
    # the drawn annotators' columns (a distractor reading as grades under a
    # bare header may be one more annotator's: not this test's matter)
    names = [f"grade_{h}" for h in sheet.grade_headers]
    assert set(names) <= set(rows[0]), (list(rows[0]), err)
    by_item = {(r["query"], r["source_id"]): r for r in rows}
    assert set(by_item) == set(sheet.truth)
    for item, grades in sheet.truth.items():
        got = sorted(float(by_item[item][k]) for k in names
                     if by_item[item][k] not in ("",) and _number(by_item[item][k]))
        assert got == grades, (item, by_item[item], err)
    for (q, d, who), mark in sheet.marks.items():  # no grade; an unknown '?' is blank
        cell = by_item[(q, d)][f"grade_{who}"]
        assert not _number(cell), (q, d, who, mark, cell)
        assert mark in cell if mark != "?" else cell == "", (q, d, who, mark, cell)


def _number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def test_a_column_that_could_be_text_or_grades_is_refused_naming_both(
        tmp_path: Path, capsys: Any) -> None:
    """ben's 1 on q1, N/A on q2, 'what is ndcg' on q3: one value per query
    and words, yet two values of three read as grades beside ana's. Read as
    the query's text, ben's 1s were dropped unsaid ('long layout ... 6
    imported'); now refused in one line naming the column and both readings,
    and either flag the line offers reads it."""
    path = tmp_path / "judged.csv"
    path.write_text("query,doc_id,ana,ben\nq1,d1,2,1\nq1,d2,1,1\nq2,d1,3,N/A\n"
                    "q2,d2,2,N/A\nq3,d1,0,what is ndcg\nq3,d2,2,what is ndcg\n",
                    encoding="utf-8")
    out = str(tmp_path / "out.csv")
    assert run(["import", str(path), "-o", out])[0] == 2
    assert capsys.readouterr().err == (
        f"ndcg-worksheet: error: {path}, column 'ben': 'ben' could be the query's text (3 "
        "distinct values, one per query) or one more annotator's grades (numbers on the "
        "scale of the grades beside it, among marks): nothing tells which (pass --map "
        "query_text=ben if it is the query's text, or --annotators ana,ben if it holds "
        "grades)\n")
    code, text = run(["import", str(path), "--map", "query_text=ben", "-o", out])
    assert code == 0
    assert "6 imported" in text.splitlines()[0]
    code, _ = run(["import", str(path), "--annotators", "ana,ben", "-o", out])
    assert code == 2  # ben's grades read: his words refused by name, as any label
    assert "column 'ben': labels on no known scale" in capsys.readouterr().err
