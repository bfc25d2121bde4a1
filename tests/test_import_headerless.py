"""Import never drops row 1: a sheet whose first row reads as data against
the rows below (numbers under numbers, ids of the same shape as their
column) has no header, and row 1's judgment is imported; a first row that
nothing tells from data (words over words, no field named) is taken as the
header and the report says so with the flag that says otherwise. The
judgments here are written by hand."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from app.cli.main import main
from core.io.annotator.detect import UNTOLD_HEADER, detect_mapping, read_guessed

#: (query, doc, grade): two TREC topics, the first judgment on row 1.
GRADED = [("q1", "doc1", 2), ("q1", "doc2", 0), ("q1", "doc3", 1), ("q2", "doc4", 3),
          ("q2", "doc5", 1)]


def _import(path: Path, capsys: pytest.CaptureFixture[str],
            *flags: str) -> tuple[int, str, dict, list[list[str]]]:
    out, report = path.with_suffix(".out.csv"), path.with_suffix(".json")
    code = main(["import", str(path), "-o", str(out), "--report", str(report), *flags],
                io.StringIO())
    err = capsys.readouterr().err
    if code != 0:
        return code, err, {}, []
    lines = [x.split(",") for x in out.read_text("utf-8").splitlines()]
    return code, err, json.loads(report.read_text("utf-8")), lines


@pytest.mark.parametrize("sep", [",", "\t"])
def test_a_headerless_sheet_of_grades_imports_row_1(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], sep: str) -> None:
    path = tmp_path / ("graded.csv" if sep == "," else "graded.tsv")
    path.write_text("".join(f"{q}{sep}{d}{sep}{g}\n" for q, d, g in GRADED), "utf-8")
    code, err, report, lines = _import(path, capsys)
    assert code == 0, err
    head = lines[0]
    got = [(r[head.index("query")], r[head.index("source_id")], int(r[head.index("grade")]))
           for r in lines[1:]]
    assert got == GRADED  # 5 judgments, q1/doc1 graded 2 among them
    assert report["header_row"] == 0
    assert report["rows"] == {"read": 5, "imported": 5, "ungraded": 0, "skipped": {}, "rejected": 0,
                              "blank": 0}
    assert [(c["column"], c["header"], c["role"]) for c in report["columns"]] == [
        ("A", "", "query"), ("B", "", "source_id"), ("C", "", "grade")]


def test_a_header_over_the_same_rows_stays_the_header(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "named.csv"
    path.write_text("topic,docno,col3\n" + "".join(f"{q},{d},{g}\n" for q, d, g in GRADED),
                    "utf-8")
    code, err, report, lines = _import(path, capsys)
    assert code == 0, err
    assert report["header_row"] == 1
    assert report["rows"]["read"] == 5
    assert len(lines) == 6


def test_words_over_words_keep_row_1_as_header_and_say_so(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "words.csv"
    rows = ["cats,wiki,good", "cats,news,bad", "dogs,blog,good", "dogs,shop,bad"]
    path.write_text("".join(f"{r}\n" for r in rows), "utf-8")
    code, err, report, _ = _import(path, capsys, "--map", "query=A", "--map", "source_id=B",
                                   "--map", "grade=C", "--rubric", "0=bad,1=good")
    assert code == 0, err
    assert report["header_row"] == 1
    assert report["rows"]["read"] == 3
    assert f"header: {UNTOLD_HEADER}" in report["guesses"], report["guesses"]
    code, err, report, lines = _import(path, capsys, "--header-row", "0", "--map", "query=A",
                                       "--map", "source_id=B", "--map", "grade=C",
                                       "--rubric", "0=bad,1=good")
    assert code == 0, err
    assert report["header_row"] == 0
    assert report["rows"]["read"] == 4
    assert sorted((r[0], r[1], r[4]) for r in lines[1:]) == [
        ("cats", "news", "0"), ("cats", "wiki", "1"), ("dogs", "blog", "1"),
        ("dogs", "shop", "0")]


def test_a_code_naming_a_field_under_its_kind_is_data(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``doc-001`` reads as a source's name (``doc``), but its column below
    holds the same shape: row 1 is data (TREC topics 1..3; the columns
    declared, the query's numbers reading like grades)."""
    path = tmp_path / "topics.csv"
    graded = [(1, "doc-001", 2), (1, "doc-002", 0), (1, "doc-003", 1), (2, "doc-004", 3),
              (2, "doc-005", 1), (3, "doc-006", 0), (3, "doc-007", 2)]
    path.write_text("".join(f"{q},{d},{g}\n" for q, d, g in graded), "utf-8")
    code, err, report, lines = _import(path, capsys, "--map", "query=A", "--map",
                                       "source_id=B", "--map", "grade=C")
    assert code == 0, err
    assert report["header_row"] == 0
    assert sorted((int(r[0]), r[1], int(r[4])) for r in lines[1:]) == graded


def test_a_declared_query_has_its_source_read_around_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """TREC topics 1..3 read like grades, so the query is declared
    (``--map query=A``); the source id is then the column that fixes it
    (B: 7 values, one topic each), the grade C. It said 'no source id
    column found' before."""
    path = tmp_path / "topics.tsv"
    graded = [(1, "doc-001", 2), (1, "doc-002", 0), (1, "doc-003", 1), (2, "doc-004", 3),
              (2, "doc-005", 1), (3, "doc-006", 0), (3, "doc-007", 2)]
    path.write_text("".join(f"{q}\t{d}\t{g}\n" for q, d, g in graded), "utf-8")
    code, err, report, lines = _import(path, capsys, "--map", "query=A")
    assert code == 0, err
    assert report["mapping"] == {"query": "A", "source_id": "B", "grade": "C"}
    assert sorted((int(r[0]), r[1], int(r[4])) for r in lines[1:]) == graded


def test_trec_topics_are_found_as_the_query_without_a_declaration(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """TREC topics 1..3 read like grades, but each is one run of rows
    listing several documents, where the grades vary: A is the query with
    no ``--map query=`` (it said 'no query column found' before)."""
    path = tmp_path / "topics.tsv"
    graded = [(1, "doc-001", 2), (1, "doc-002", 0), (1, "doc-003", 1), (2, "doc-004", 3),
              (2, "doc-005", 1), (3, "doc-006", 0), (3, "doc-007", 2)]
    path.write_text("".join(f"{q}\t{d}\t{g}\n" for q, d, g in graded), "utf-8")
    code, err, report, lines = _import(path, capsys)
    assert code == 0, err
    assert report["mapping"] == {"query": "A", "source_id": "B", "grade": "C"}
    assert sorted((int(r[0]), r[1], int(r[4])) for r in lines[1:]) == graded


def test_topics_beside_a_count_listing_items_alike_are_refused_naming_both(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Beside the topics, a count (101, 101, 102, 102 / 104, ...) also comes
    in runs fixed by the document, each value listing two: nothing tells
    which is the query; one line names both and the flag, and the
    declaration imports it."""
    path = tmp_path / "topics.csv"
    rows = [(1, "doc-001", 2, 101), (1, "doc-002", 0, 101), (1, "doc-003", 1, 102),
            (1, "doc-004", 3, 102), (2, "doc-005", 1, 104), (2, "doc-006", 0, 104),
            (2, "doc-007", 2, 105), (2, "doc-008", 2, 105)]
    path.write_text("col1,col2,col3,col4\n" + "".join(f"{q},{d},{g},{n}\n" for q, d, g, n in rows),
                    "utf-8")
    code, err, _, _ = _import(path, capsys)
    assert code == 2
    assert err.count("\n") == 1, err
    assert "col4 or col1: both could be the query" in err, err
    assert "pass --map query=COLUMN for the one meant" in err, err
    # each left out with the flag that makes it the query (not the ranking's)
    assert detect_mapping(read_guessed(path)).left_out == (
        (0, "col1: could be the query, as col4 could; if it is, pass --map query=col1",
         "--map query=col1"),
        (3, "col4: could be the query, as col1 could; if it is, pass --map query=col4",
         "--map query=col4"))
    code, err, report, lines = _import(path, capsys, "--map", "query=col1")
    assert code == 0, err
    assert (report["mapping"]["source_id"], report["mapping"]["grade"]) == ("col2", "col3")
    assert sorted((int(r[0]), r[1], int(r[4])) for r in lines[1:]) == [r[:3] for r in rows]
