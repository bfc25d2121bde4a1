"""``--map FIELD=COLUMN`` declares each field once: the same field given two
columns is refused in one line naming both (the last won without a word,
the other column's grades imported as if the first had never been
given); the same column twice is one declaration. A field is one field
in any case and by its aliases (``Grade=``, ``grade=``, ``label=``), named
by its own name when refused. The sheet is written by hand."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from app.cli.main import main

#: Two grade columns that disagree on every row: which one was read shows.
SHEET = ("query,doc,R1,R2\n"
         "q1,d1,3,0\nq1,d2,1,2\nq1,d3,0,3\nq2,d4,2,1\nq2,d5,0,2\n")


def _import(tmp_path: Path, capsys: pytest.CaptureFixture[str],
            *flags: str) -> tuple[int, str, list[str]]:
    path, out = tmp_path / "graded.csv", tmp_path / "out.csv"
    path.write_text(SHEET, encoding="utf-8")
    code = main(["import", str(path), "-o", str(out), *flags], io.StringIO())
    err = capsys.readouterr().err
    if code != 0:
        return code, err, []
    with open(out, newline="", encoding="utf-8") as fh:
        return code, err, [r["grade"] for r in csv.DictReader(fh)]


def test_a_field_mapped_to_two_columns_is_refused_naming_both(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, err, grades = _import(tmp_path, capsys, "--map", "grade=R1", "--map", "grade=R2")
    assert (code, err, grades) == (
        2, "ndcg-worksheet: error: --map gives grade two columns, 'R1' and 'R2' (map each "
        "field to one column)\n", [])


def test_a_field_mapped_to_one_column_twice_reads_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, err, grades = _import(tmp_path, capsys, "--map", "grade=R2", "--map", " grade = R2")
    assert code == 0, err
    assert grades == ["0", "2", "3", "1", "2"]


@pytest.mark.parametrize(("first", "then", "said"), [
    ("Grade", "grade", " (as Grade) and 'R2'"),
    ("grade", "GRADE", " and 'R2' (as GRADE)"),
    ("label", "Grade", " (as label) and 'R2' (as Grade)")])
def test_a_field_in_two_writings_is_one_field(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], first: str, then: str,
        said: str) -> None:
    """``Grade=`` and ``grade=`` (or the alias ``label=``) name one field: two
    columns for it are refused by its own name, each writing said; before,
    the two were two keys and the last won, unsaid (R2's grades)."""
    code, err, grades = _import(tmp_path, capsys, "--map", f"{first}=R1", "--map", f"{then}=R2")
    assert (code, err, grades) == (
        2, f"ndcg-worksheet: error: --map gives grade two columns, 'R1'{said} (map each "
        "field to one column)\n", [])


def test_a_field_in_any_case_reads_its_column(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, err, grades = _import(tmp_path, capsys, "--map", "GRADE=R2", "--map", "Grade=R2",
                                "--map", "Query=query", "--report", str(tmp_path / "r.json"))
    assert code == 0, err
    assert grades == ["0", "2", "3", "1", "2"]
    report = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert report["mapping"]["grade"] == "R2"
    assert [(c["header"], c["role"], c["reason"]) for c in report["columns"]
            if c["header"] in ("query", "R2")] == [("query", "query", "declared"),
                                                   ("R2", "grade", "declared")]
