"""A grade the sklearn preset refuses (a negative grade: scikit-learn's
``ndcg_score`` refuses it) is named with its file and its place in any
input: a text file's line (compressed too), a workbook's sheet, row and
grade column, a Parquet table's row and grade column; from ``evaluate`` and
from ``compare`` (tests/test_app_refusal_place.py: the window).

Each place is derived by hand from the rows written here (and, for the
workbook, read back from the cell with openpyxl).
"""

from __future__ import annotations

import gzip
import io
from pathlib import Path

import openpyxl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from app.cli.main import main
from app.file_formats import write_document
from core.io.delimited import read_delimited
from core.model.presets import NEGATIVE_REFUSED_BY

#: q1: grades -1 (row 1, line 2), 0, -0.5 (line 4); q2: 1, 0.
WORKSHEET = "query,source_id,grade,score\nq1,a,-1,3\nq1,b,0,2\nq1,c,-0.5,1\nq2,a,1,3\nq2,b,0,2\n"
NAMED = ("2 negative grades under the sklearn preset (grade -1 of source 'a' (query 'q1'); "
         f"grade -0.5 of source 'c' (query 'q1')): {NEGATIVE_REFUSED_BY['sklearn']} (correct "
         "the grades, or choose the trec_eval or ranx preset (negative gains count as 0) or "
         "the default conventions)")
RUN = "q1 Q0 d3 1 3.0 r\nq1 Q0 d1 2 2.0 r\nq1 Q0 d2 3 1.0 r\n"


def said(capsys: pytest.CaptureFixture[str], *args: str | Path) -> str:
    """What the command line says on stderr (exit status 2, nothing on stdout)."""
    out = io.StringIO()
    assert main([str(a) for a in args], out=out) == 2
    assert out.getvalue() == ""
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    return err.removeprefix("ndcg-worksheet: error: ").rstrip("\n")


@pytest.fixture
def sheet(tmp_path: Path) -> Path:
    path = tmp_path / "negative.csv"
    path.write_text(WORKSHEET)
    return path


def test_our_workbook_names_the_sheet_row_and_grade_column(tmp_path, sheet, capsys):
    book = tmp_path / "negative.xlsx"
    write_document(read_delimited(sheet), book)
    cells = openpyxl.load_workbook(book)["Candidates"]
    assert [cells["A2"].value, cells["B2"].value, cells["F2"].value] == ["q1", "a", -1]
    assert said(capsys, "evaluate", book, "--preset", "sklearn") == (
        f"{book}, sheet 'Candidates', row 2, column 'F (current grade)': {NAMED}")


def test_a_parquet_worksheet_names_the_row_and_grade_column(tmp_path, capsys):
    table = tmp_path / "negative.parquet"
    pq.write_table(pa.table({"query": ["q2", "q2", "q1", "q1", "q1"],
                             "source_id": ["a", "b", "a", "b", "c"],
                             "score": [3.0, 2.0, 3.0, 2.0, 1.0],
                             "grade": [1.0, 0.0, -1.0, 0.0, -0.5]}), table)
    assert said(capsys, "evaluate", table, "--preset", "sklearn") == (
        f"{table}, column 'grade': row 3: {NAMED}")


def test_parquet_qrels_name_the_row_of_their_relevance_column(tmp_path, capsys):
    run, qrels = tmp_path / "run.txt", tmp_path / "qrels.parquet"
    run.write_text(RUN)
    pq.write_table(pa.table({"query_id": ["q1", "q1", "q1"], "doc_id": ["d1", "d3", "d2"],
                             "relevance": [1, -1, 0]}), qrels)
    assert said(capsys, "evaluate", run, "--qrels", qrels, "--preset", "sklearn").startswith(
        f"{qrels}, column 'relevance': row 2: 1 negative grade under the sklearn preset "
        "(grade -1 of source 'd3' (query 'q1'))")


def test_gz_qrels_name_the_line_of_the_decompressed_text(tmp_path, capsys):
    run, qrels = tmp_path / "run.txt", tmp_path / "qrels.txt.gz"
    run.write_text(RUN)
    qrels.write_bytes(gzip.compress(b"q0 0 d3 2\nq1 0 d1 1\nq1 0 d2 0\nq1 0 d3 -1\n"))
    assert said(capsys, "evaluate", run, "--qrels", qrels, "--preset", "sklearn").startswith(
        f"{qrels}, line 4: 1 negative grade under the sklearn preset")


def test_a_run_and_qrels_hold_the_query_and_candidate_in_the_same_fields():
    # line_of finds a line of either with one pair of fields, the readers'.
    from core.io.locate import _TREC_QUERY, _TREC_SOURCE
    from core.io.trec.read import QRELS_FIELDS, RUN_FIELDS

    assert RUN_FIELDS[1:3] == QRELS_FIELDS[1:3] == (_TREC_QUERY, _TREC_SOURCE) == (0, 2)


def test_compare_names_the_qrels_line(tmp_path, capsys):
    run, other, qrels = tmp_path / "run.txt", tmp_path / "other.txt", tmp_path / "qrels.txt"
    run.write_text(RUN)
    other.write_text(RUN.replace("3.0", "0.5"))
    qrels.write_text("q1 0 d1 1\nq1 0 d2 0\nq1 0 d3 -1\n")
    assert said(capsys, "compare", run, other, "--qrels", qrels, "--preset", "sklearn",
                "--resamples", "100").startswith(
        f"{qrels}, line 3: 1 negative grade under the sklearn preset")
    third = tmp_path / "third.txt"
    third.write_text(RUN)
    assert said(capsys, "compare", run, other, third, "--qrels", qrels, "--preset", "sklearn",
                "--resamples", "100").startswith(f"{qrels}, line 3: 1 negative grade")


def test_compare_of_worksheets_names_the_one_whose_grades_are_refused(tmp_path, sheet, capsys):
    fine = tmp_path / "fine.csv"
    fine.write_text(WORKSHEET.replace("-", ""))
    for runs in ((fine, sheet), (sheet, fine), (fine, fine, sheet)):
        assert said(capsys, "compare", *runs, "--preset", "sklearn", "--resamples", "100") == (
            f"{sheet}, line 2: {NAMED}")


def test_an_annotators_workbook_names_the_sheet_row_and_grade_column(tmp_path, capsys):
    """An annotators' sheet, imported on reading (a title over the header on
    row 2, two annotators' columns, their mean the grade): the refused
    grade is named by the sheet, the file's row and the column of the
    negative one, as the import read them (it named the file only)."""
    book = tmp_path / "judged.xlsx"
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Batch 7"
    ws.append(["Relevance judgments, batch 7"])
    ws.append(["query", "doc_id", "score", "grade_ana", "grade_ben"])
    for row in (["q1", "a", 3, 2, 2], ["q1", "b", 2, 0, 1], ["q1", "c", 1, 0, -2],
                ["q2", "a", 3, 1, 1], ["q2", "b", 2, 0, 0]):
        ws.append(row)
    wb.save(book)
    assert openpyxl.load_workbook(book)["Batch 7"]["E5"].value == -2
    assert said(capsys, "evaluate", book, "--preset", "sklearn").startswith(
        f"{book}, sheet 'Batch 7', row 5, column 'E (grade_ben)': 1 negative grade under the "
        "sklearn preset (grade -1 of source 'c' (query 'q1'))")

