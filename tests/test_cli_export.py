"""The export command: qrels and run written and read back, what qrels or a
CSV cannot hold said first in one line, states kept, an unknown suffix
refused. The evaluate command: tests/test_cli.py."""

from __future__ import annotations

import json

import pytest

from core.model.examples import EXAMPLE_PATH
from tests.test_cli import L, run


def test_export_qrels_and_run_round_trip(tmp_path):
    qrels, run_file = tmp_path / "out.qrels", tmp_path / "out.run"
    assert run(["export", str(EXAMPLE_PATH), "-o", str(qrels)])[0] == 0
    assert run(["export", str(EXAMPLE_PATH), "-o", str(run_file)])[0] == 0
    lines = qrels.read_text().splitlines()
    assert "case-A 0 A 3" in lines
    assert not any(line.startswith("case-F-unknown 0 B ") for line in lines)  # unknown
    code, text = run(["evaluate", str(run_file), "--qrels", str(qrels), "--format", "json",
                      "--unjudged", "unresolved"])
    assert code == 0
    a = next(q for q in json.loads(text)["queries"] if q["query"] == "case-A")
    assert a["cutoffs"][0]["ndcg"] == pytest.approx((1 + 3 / L) / (3 + 1 / L), abs=1e-15)
    u = next(q for q in json.loads(text)["queries"] if q["query"] == "case-F-unknown")
    assert u["status"] == "unresolved"  # the unknown grade stays unknown


def test_export_to_qrels_names_what_qrels_cannot_hold_first(tmp_path, capsys):
    """``export RUN --qrels Q --to qrels -o OUT``: the grades written back as
    qrels, what they cannot hold said on stderr; the run and qrels untouched."""
    run_file, qrels, out = tmp_path / "run.txt", tmp_path / "qrels.txt", tmp_path / "back"
    run_file.write_text("q1 Q0 a 1 3.0 bm25\nq1 Q0 b 2 2.0 bm25\nq1 Q0 c 3 1.0 bm25\n")
    qrels.write_text("q1 0 a 2\nq1 0 b 1.5\n")
    before = run_file.read_bytes(), qrels.read_bytes()
    code, text = run(["export", str(run_file), "--qrels", str(qrels), "--to", "qrels",
                      "-o", str(out)])
    assert code == 0
    assert out.read_text() == "q1 0 a 2\nq1 0 b 1.5\n"  # c is unjudged: left out
    assert capsys.readouterr().err.splitlines() == [
        "ndcg-worksheet: warning: not kept in the qrels written: 1 candidate not graded "
        "(unknown): left out",
        "ndcg-worksheet: warning: not kept in the qrels written: the ranking (the scores of "
        "3 candidates)",
        "ndcg-worksheet: warning: not kept in the qrels written: 1 grade that is not a whole "
        "number (written with its decimals; trec_eval reads whole numbers)",
    ]
    assert text.startswith(f"wrote {out}: 2 judgments")
    assert (run_file.read_bytes(), qrels.read_bytes()) == before
    code, _ = run(["export", str(run_file), "--qrels", str(qrels), "--to", "qrels",
                   "-o", str(qrels)])
    assert code == 2  # never over an input
    assert qrels.read_bytes() == before[1]


def test_export_csv_keeps_states(tmp_path):
    out_csv = tmp_path / "w.tsv"
    assert run(["export", str(EXAMPLE_PATH), "-o", str(out_csv)])[0] == 0
    assert "case-F-unknown\tB\tv1\t2.0\tunknown" in out_csv.read_text()


def test_export_to_csv_says_in_one_line_what_the_csv_does_not_keep(tmp_path, capsys):
    """An audited workbook of two annotators' grades exported to CSV: one
    warning line names what the CSV keeps and what it does not (their
    grades, the conventions declared), as the window asks before such a
    save (it wrote the CSV saying nothing); the CSV is written all the same."""
    sheet = tmp_path / "judged.csv"
    sheet.write_text("query,doc,Alice,Bob\nshoes,d1,3,1\nshoes,d2,1,2\nshoes,d3,0,3\n"
                     "hats,d4,2,2\n", encoding="utf-8")
    book, out_csv = tmp_path / "judged.xlsx", tmp_path / "w.csv"
    assert run(["import", str(sheet), "-o", str(book)])[0] == 0
    capsys.readouterr()
    code, text = run(["export", str(book), "-o", str(out_csv)])
    assert code == 0
    assert text == f"wrote {out_csv}: 4 candidates\n"
    assert capsys.readouterr().err == (
        "ndcg-worksheet: warning: the CSV written keeps the grades, notes and reasons, but "
        "not: the conventions declared (rubric: 0,1,2,3); the individual grades of 2 "
        "annotators (an audited workbook, .xlsx, keeps everything)\n")
    assert out_csv.read_text("utf-8").splitlines()[1] == "shoes,d1,,,2.0,,"
    run(["export", str(EXAMPLE_PATH), "-o", str(tmp_path / "plain.csv")])
    assert capsys.readouterr().err == ""  # nothing lost: nothing said


def test_export_unknown_suffix(tmp_path, capsys):
    code, _ = run(["export", str(EXAMPLE_PATH), "-o", str(tmp_path / "x.bin")])
    assert code == 2
    assert "--to" in capsys.readouterr().err
