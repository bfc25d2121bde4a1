"""A radio button's choices a column each (Mechanical Turk's
``Answer.rel.0`` ..., Qualtrics' and forms' suffixes), read as one grade
column, and checkboxes beside them, written out by hand (split from
tests/test_import_platforms.py, whose drawn platforms' exports it sits
beside)."""

from __future__ import annotations

import contextlib
import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest

from app.cli.main import main


def _imported_with_report(sheet: Path) -> tuple[list[dict[str, str]], dict[str, Any]]:
    """``import SHEET`` beside it: the rows imported and the report."""
    out, report = sheet.with_name("o.csv"), sheet.with_name("r.json")
    assert main(["import", str(sheet), "-o", str(out), "--report", str(report)],
                io.StringIO()) == 0
    with open(out, newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    return rows, json.loads(report.read_text("utf-8"))


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
    report, out = tmp_path / "r.json", io.StringIO()
    assert main(["import", str(sheet), "-o", str(tmp_path / "o.csv"), "--report",
                 str(report)], out) == 0
    assert "left out" not in out.getvalue()  # E, F read in D: they were said left out
    columns = json.loads(report.read_text("utf-8"))["columns"]
    assert [(c["column"], c["role"], c["reason"]) for c in columns[3:]] == [
        ("D", "grade", "Answer.rel, named so; numbers 0 to 2")] + [
        (x, "grade (read in D)", f"Answer.rel.{n}: columns D-F (Answer.rel.0 ... Answer.rel.2), "
         "one answer per column, read as one grade column 'Answer.rel' in D; not imported as a "
         "column of its own") for n, x in ((1, "E"), (2, "F"))]  # never 'empty: ...'
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
        ("D", "grade"), ("E", "grade (read in D)"), ("F", "grade (read in D)")]
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
        ("D", "grade"), ("E", "grade (read in D)"), ("F", "grade (read in D)"),
        *([("G", None)] if box else [])]
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
