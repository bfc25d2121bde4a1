"""Annotators' spreadsheets: layouts, labels, marks, consensus, report."""

from __future__ import annotations

import contextlib
import csv
import hashlib
import io
import math
import re
from pathlib import Path

import numpy as np
import pytest
import xlsxwriter
from hypothesis import given
from hypothesis import strategies as st

from core.analysis.consensus import apply_rounding, consensus
from core.errors import InputError
from core.io.annotator import (
    ColumnMapping,
    detect_mapping,
    import_annotations,
    preview,
    read_table,
)
from core.io.annotator.command import import_sheet
from core.io.annotator.write import write_worksheet_csv
from core.io.load import load_document
from core.model.conventions import Rubric
from core.model.document import GradeState
from core.model.presets import preset

RUBRIC = Rubric.parse("0=Not relevant,1=Somewhat relevant,2=Relevant,3=Highly relevant")
U, N, R = GradeState.UNKNOWN, GradeState.NUMBER, GradeState.UNRATEABLE


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# -- consensus arithmetic, hand values ----------------------------------------------------
RATINGS = np.array([
    [3.0, 2.0, 2.0],
    [1.0, np.nan, 2.0],
    [np.nan, np.nan, np.nan],
    [0.0, 3.0, np.nan],
    [1.0, 2.0, 3.0],
])


@pytest.mark.parametrize(("rule", "expected"), [
    ("mean", [7 / 3, 1.5, math.nan, 1.5, 2.0]),
    ("median", [2.0, 1.5, math.nan, 1.5, 2.0]),
    # majority: a tie between grades goes to the lower one
    ("majority", [2.0, 1.0, math.nan, 0.0, 1.0]),
    ("minimum", [2.0, 1.0, math.nan, 0.0, 1.0]),
    ("maximum", [3.0, 2.0, math.nan, 3.0, 3.0]),
])
def test_consensus_rules_by_hand(rule: str, expected: list[float]) -> None:
    grades, states = consensus(RATINGS, rule, "none")
    np.testing.assert_allclose(grades, expected, rtol=0, atol=1e-15)
    assert states.tolist() == [N, N, U, N, N]


@pytest.mark.parametrize(("rounding", "expected"), [
    ("none", [7 / 3, 1.5, math.nan, 1.5, 2.0]),
    ("half-up", [2.0, 2.0, math.nan, 2.0, 2.0]),
    ("half-even", [2.0, 2.0, math.nan, 2.0, 2.0]),
    ("floor", [2.0, 1.0, math.nan, 1.0, 2.0]),
    ("ceiling", [3.0, 2.0, math.nan, 2.0, 2.0]),
])
def test_consensus_rounding_by_hand(rounding: str, expected: list[float]) -> None:
    grades, _ = consensus(RATINGS, "mean", rounding)
    np.testing.assert_allclose(grades, expected)


def test_rounding_halves() -> None:
    x = np.array([0.5, 1.5, 2.5, 3.5, -1.5])
    assert apply_rounding(x, "half-up").tolist() == [1.0, 2.0, 3.0, 4.0, -1.0]
    assert apply_rounding(x, "half-even").tolist() == [0.0, 2.0, 2.0, 4.0, -2.0]


def test_majority_with_clear_winner_and_lone_grade() -> None:
    r = np.array([[2.0, 1.0, 2.0, 1.0, 1.0], [np.nan, np.nan, 3.0, np.nan, np.nan]])
    assert consensus(r, "majority")[0].tolist() == [1.0, 3.0]


@given(st.lists(st.lists(st.one_of(st.none(), st.integers(0, 4)), min_size=1, max_size=5),
                min_size=1, max_size=8).filter(lambda rows: len({len(r) for r in rows}) == 1))
def test_consensus_lies_between_min_and_max(rows: list[list[int | None]]) -> None:
    r = np.array([[np.nan if v is None else float(v) for v in row] for row in rows])
    lo, _ = consensus(r, "minimum")
    hi, states = consensus(r, "maximum")
    for rule in ("mean", "median", "majority"):
        g, s = consensus(r, rule)
        assert s.tolist() == states.tolist()
        ok = ~np.isnan(lo)
        assert np.all(g[ok] >= lo[ok])
        assert np.all(g[ok] <= hi[ok])
        assert np.all(np.isnan(g[~ok]))
        if rule == "majority":  # the majority is one of the given grades
            for i in np.flatnonzero(ok):
                assert g[i] in r[i]


# -- long and wide layouts ------------------------------------------------------------------
LONG_CSV = (
    "Topic,DocID,Annotator,Label,Rank,Note\n"
    "q1,d1,alice,Highly relevant,1,\n"
    "q1,d1,bob,2,1,looks fine\n"
    "q1,d2,alice,N/A,2,\n"
    "q1,d2,bob,?,2,\n"
    "q1,d3,alice,1,3,\n"
    "q1,d3,bob,Nope,3,\n"
    ",,,,,\n"
    "q2,d9,alice,RELEVANT,1,\n"
)


def test_long_layout_with_annotators(tmp_path: Path) -> None:
    path = tmp_path / "long.csv"
    path.write_text(LONG_CSV, encoding="utf-8")
    before = sha(path)
    m = detect_mapping(read_table(path))
    assert (m.query, m.source_id, m.annotator, m.grade, m.rank, m.note) == (0, 1, 2, 3, 4, 5)
    assert m.score is None
    assert m.layout == "long"
    res = import_annotations(path, rubric=RUBRIC, consensus="mean", rounding="none")
    doc, rep = res.document, res.report
    assert sha(path) == before
    assert doc.annotators == ["alice", "bob"]
    assert doc.ratings is not None
    np.testing.assert_array_equal(
        doc.ratings, [[3.0, 2.0], [np.nan, np.nan], [1.0, np.nan], [2.0, np.nan]])
    np.testing.assert_array_equal(doc.grade, [2.5, np.nan, 1.0, 2.0])
    assert doc.state.tolist() == [N, R, N, N]
    # unrateable keeps the mark as its reason; "?" is unknown, never 0
    assert doc.reason.tolist() == ["", "alice: N/A", "", ""]
    np.testing.assert_array_equal(doc.score, [-1.0, -2.0, -3.0, -1.0])
    assert any("score = -rank" in n for n in rep.notes)
    assert doc.note[0] == "bob: looks fine"
    assert rep.rows_read == 7
    assert rep.rows_imported == 7
    assert rep.blank_rows == 1
    assert rep.unmapped_labels == {"Nope": 1}
    (nope,) = rep.rejected
    assert (nope.row, nope.column) == (7, "Label")
    assert "not in the rubric" in nope.problem
    assert not rep.duplicates


def test_consensus_rule_and_rounding_are_declared(tmp_path: Path) -> None:
    path = tmp_path / "long.csv"
    path.write_text(LONG_CSV, encoding="utf-8")
    res = import_annotations(path, rubric=RUBRIC, consensus="maximum", rounding="floor")
    assert res.document.grade[0] == 3.0
    res = import_annotations(path, rubric=RUBRIC, consensus="mean", rounding="half-up")
    assert res.document.grade[0] == 3.0  # 2.5 rounds half up
    assert res.document.conventions.consensus.value == "mean"
    assert res.document.conventions.rounding.value == "half-up"
    assert res.document.original_grade[0] == 3.0
    assert any("round half up" in n for n in res.report.notes)
    assert res.document.ratings is not None
    assert res.document.ratings[0, 0] == 3.0


def test_wide_xlsx_layout_and_rubric_labels(tmp_path: Path) -> None:
    path = tmp_path / "wide.xlsx"
    wb = xlsxwriter.Workbook(str(path))
    ws = wb.add_worksheet("Judgments")
    ws.write_row(0, 0, ["Project: demo"])
    ws.write_row(2, 0, ["qid", "url", "score", "Grade Alice", "Bob rating", "Grade (Chen)"])
    ws.write_row(3, 0, ["q1", "http://a", 0.9, 3, "relevant", 2.5])
    ws.write_row(4, 0, ["q1", "http://b", 0.4, "n/a", "skip", ""])
    ws.write_row(5, 0, ["q1", "http://c", 0.4, 7, 1, 1])
    wb.close()
    before = sha(path)
    p = preview(path)
    assert p.sheets == ["Judgments"]
    assert p.header_row == 2
    assert p.n_rows == 3
    assert p.mapping.grades == ((3, "Alice"), (4, "Bob"), (5, "Chen"))
    assert p.mapping.layout == "wide"
    assert p.rows[0][:2] == ["q1", "http://a"]
    res = import_annotations(path, rubric=RUBRIC, consensus="median")
    doc, rep = res.document, res.report
    assert sha(path) == before
    assert doc.annotators == ["Alice", "Bob", "Chen"]
    np.testing.assert_array_equal(doc.score, [0.9, 0.4, 0.4])
    np.testing.assert_array_equal(doc.grade, [2.5, np.nan, 1.0])
    assert doc.state.tolist() == [N, R, N]
    assert doc.reason[1] == "Alice: n/a; Bob: skip"
    assert [(i.row, i.column) for i in rep.outside_scale] == [
        (4, "F (Grade (Chen))"), (6, "D (Grade Alice)")]
    assert all("outside the rubric" in i.problem for i in rep.outside_scale)
    (frac,) = rep.fractional
    assert (frac.row, frac.column) == (4, "F (Grade (Chen))")


def test_mapping_corrected_by_the_user(tmp_path: Path) -> None:
    path = tmp_path / "odd.tsv"
    path.write_text("who\tthing\tjudge1\tjudge2\nq1\ta\t1\t0\nq1\tb\t2\t2\n", encoding="utf-8")
    with pytest.raises(InputError, match="no query column"):
        import_annotations(path)
    mapping = ColumnMapping(query=0, source_id=1, grades=((2, "j1"), (3, "j2")))
    res = import_annotations(path, mapping, consensus="minimum")
    assert res.document.grade.tolist() == [0.0, 2.0]
    assert res.report.delimiter == "\t"
    # Without a score or rank column the judgments are not a ranking: the
    # scores stay empty and the report says so ...
    np.testing.assert_array_equal(res.document.score, [np.nan, np.nan])
    assert res.report.ranking == ""
    assert any(n.startswith("judgments only: no score or rank column") for n in
               res.report.notes)
    # ... unless the user declares the row order a ranking.
    res = import_annotations(path, mapping.replace(rows_ranked=True), consensus="minimum")
    np.testing.assert_array_equal(res.document.score, [-2.0, -3.0])
    assert res.report.ranking == "rows"
    assert any("the row order was declared a ranking (--order rows)" in n
               for n in res.report.notes)


def test_single_grade_column_no_annotator(tmp_path: Path) -> None:
    path = tmp_path / "plain.csv"
    path.write_text("query;doc;relevance;score\nq1;a;1;2,5\nq1;b;-;1\nq1;c;;0\nq1;a;1;2,5\n",
                    encoding="utf-8")
    res = import_annotations(path)
    doc, rep = res.document, res.report
    assert rep.delimiter == ";"
    assert doc.annotators == []
    assert doc.ratings is None
    np.testing.assert_array_equal(doc.grade, [1.0, np.nan, np.nan])
    assert doc.state.tolist() == [N, R, U]
    assert doc.reason.tolist() == ["", "-", ""]
    np.testing.assert_array_equal(doc.score, [2.5, 1.0, 0.0])
    (dup,) = rep.duplicates
    assert dup.row == 5
    assert "first on row 2" in dup.problem
    with pytest.raises(InputError, match=r"plain.csv, line 5.*lists 'a' again"):
        import_annotations(path, strict=True)


def test_the_headline_counts_one_in_the_singular(tmp_path: Path) -> None:
    """"1 judgment read in 1 row ... 1 blank row and 1 row without a
    judgment ... 1 candidate" (was "1 judgments read in 1 rows")."""
    path = tmp_path / "one.csv"
    path.write_text("query,doc,grade\nq1,d1,2\n\nTotal,,2\n", encoding="utf-8")
    rep = import_annotations(path).report
    assert rep.headline() == (
        f"{path}: long layout, header on row 1; 1 judgment read in 1 row: 1 imported, "
        "0 rejected; 1 blank row and 1 row without a judgment skipped; 1 candidate")


def test_declared_marks_can_be_changed(tmp_path: Path) -> None:
    path = tmp_path / "m.csv"
    path.write_text("query,doc,grade\nq,a,skip\nq,b,?\n", encoding="utf-8")
    m = detect_mapping(read_table(path)).replace(unknown_marks=("", "skip"),
                                                unrateable_marks=("?",))
    doc = import_annotations(path, m).document
    assert doc.state.tolist() == [U, R]
    assert doc.reason.tolist() == ["", "?"]


def test_the_grade_words_are_the_grammar_s(tmp_path: Path) -> None:
    # One list of words for typed, pasted and imported grades (core.model.grades).
    from core.model.grades import read_grade

    words = ["not judged", "Unjudged", "TBD", "#N/A", "not rateable", "Skip", "3"]
    path = tmp_path / "words.csv"
    path.write_text("query,doc,grade\n" + "".join(f"q,d{i},{w}\n" for i, w in enumerate(words)),
                    encoding="utf-8")
    doc = import_annotations(path).document
    assert doc.state.tolist() == [int(read_grade(w).state) for w in words] == [U, U, U, R, R, R, N]


def test_conflicting_grades_of_one_annotator(tmp_path: Path) -> None:
    path = tmp_path / "c.csv"
    path.write_text("query,doc,annotator,grade\nq,a,x,1\nq,a,x,1\nq,a,x,2\n", encoding="utf-8")
    rep = import_annotations(path).report
    assert [i.kind for i in rep.issues] == ["duplicate", "conflict"]
    assert [i.row for i in rep.issues] == [3, 4]


@pytest.mark.parametrize(("field", "first", "then"), [("score", "0.9", "0.8"), ("rank", "1", "2")])
def test_a_ranking_that_disagrees_with_itself_is_refused(tmp_path: Path, field: str, first: str,
                                                         then: str) -> None:
    """One item's two judgments (ann's, ben's) under a score of 0.9 and 0.8
    (or ranks 1 and 2): not one ranking. The first was kept and the other
    reported as a conflict (a rank's not even that); now one line naming
    the item, both rows and values, and the way out."""
    path = tmp_path / "long.csv"
    other = "0.5" if field == "score" else "2"
    path.write_text(f"query,doc,annotator,grade,{field}\nq1,d1,ann,2,{first}\nq1,d2,ann,1,"
                    f"{other}\nq1,d1,ben,3,{then}\nq1,d2,ben,0,{other}\n", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        import_sheet(path)
    assert str(caught.value) == (
        f"{path}, line 4, column '{field}': the {field} column '{field}' gives query 'q1', "
        f"source 'd1' the {field} {first} on row 2 and {then} on row 4: a ranking {field}s each "
        f"item once, so this column is not one ranking (pass --map {field}=none to import the "
        f"judgments without it, or fix the sheet so each item's rows give one {field})")
    doc = import_sheet(path, fields={field: "none"}).document
    assert doc.annotators == ["ann", "ben"]
    np.testing.assert_array_equal(doc.grade, [2.5, 0.5])
    assert np.isnan(doc.score).all()
    # the same value on both rows is one ranking, read as before
    path.write_text(path.read_text("utf-8").replace(f"ben,3,{then}", f"ben,3,{first}"), "utf-8")
    doc = import_sheet(path).document
    np.testing.assert_array_equal(doc.score, [0.9, 0.5] if field == "score" else [-1, -2])


def test_an_items_score_is_the_number_its_rows_give(tmp_path: Path) -> None:
    """An item's first row gives no score, its second 0.5: the item's score
    is 0.5 (the blank first row's was kept, and the ranking lost the item's
    score in silence), the blank row reported as a conflict naming the row
    that gives it; an item whose first row gives the number reads as before."""
    path = tmp_path / "long.csv"
    path.write_text("query,doc,annotator,grade,score\nq1,a,x,1,\nq1,a,y,2,0.5\n"
                    "q1,b,x,0,0.3\nq1,b,y,0,\n", encoding="utf-8")
    result = import_annotations(path)
    np.testing.assert_array_equal(result.document.score, [0.5, 0.3])
    conflicts = [(i.row, i.problem) for i in result.report.issues if i.kind == "conflict"]
    assert conflicts == [
        (2, "no score here, where row 3 gives the same candidate 0.5; that score is kept"),
        (5, "no score here, where row 4 gives the same candidate 0.3; that score is kept")]


def test_a_ranking_disagreeing_after_a_blank_first_row_is_refused(tmp_path: Path) -> None:
    """The item's first row gives no score, its later rows 0.5 and 1: they
    disagree all the same (the check compared each row with the first row
    only, so a blank first row let 0.5 and 1 through; found by the
    hypothesis test below)."""
    path = tmp_path / "long.csv"
    path.write_text("query,doc,annotator,grade,score\nq2,a,x,0,\nq2,a,y,1,0.5\n"
                    "q2,a,z,1,1\n", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        import_sheet(path)
    assert str(caught.value).startswith(
        f"{path}, line 4, column 'score': the score column 'score' gives query 'q2', source 'a' "
        "the score 0.5 on row 3 and 1 on row 4: a ranking scores each item once")


@pytest.mark.parametrize(("encoding", "bom"), [("utf-8", False), ("utf-8", True),
                                               ("cp1252", False)])
def test_csv_encodings(tmp_path: Path, encoding: str, bom: bool) -> None:
    path = tmp_path / "enc.csv"
    data = "requête,document,note\nq€,dé,2\n".encode(encoding)
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + data)
    m = ColumnMapping(query=0, source_id=1, grade=2)
    res = import_annotations(path, m)
    assert res.document.query_ids == ["q€"]
    assert res.document.source_id[0] == "dé"
    assert res.report.encoding == {"utf-8": "utf-8-sig" if bom else "utf-8"}.get(
        encoding, encoding)


def test_formula_in_grade_cell_is_refused_not_evaluated(tmp_path: Path) -> None:
    path = tmp_path / "f.xlsx"
    wb = xlsxwriter.Workbook(str(path))
    ws = wb.add_worksheet()
    ws.write_row(0, 0, ["query", "doc", "grade"])
    ws.write_row(1, 0, ["q", "a", 2])
    ws.write_row(2, 0, ["q", "b"])
    ws.write_formula(2, 2, "=1+2", None, 3)
    ws.write_formula(3, 0, '="q"', None, "q")
    ws.write_row(3, 1, ["c", 1])
    wb.close()
    rep = import_annotations(path).report
    f1, f2 = sorted(rep.formulas, key=lambda i: i.row)
    assert (f1.row, f1.column, f1.value) == (3, "C (grade)", "=1+2")
    assert f1.problem == ("cell C3 holds the formula '=1+2'; formulas are never evaluated; cell "
                          "not imported; paste the cells as values in the spreadsheet to import "
                          "them")  # what to do: a grade column computed from labels, say
    assert (f2.row, f2.value) == (4, '="q"')
    assert "row rejected" in f2.problem
    doc = import_annotations(path).document
    assert doc.source_id.tolist() == ["a", "b"]
    assert doc.state.tolist() == [N, U]


def test_load_document_routes_foreign_workbooks(tmp_path: Path) -> None:
    path = tmp_path / "team.xlsx"
    wb = xlsxwriter.Workbook(str(path))
    ws = wb.add_worksheet()
    ws.write_row(0, 0, ["query", "docid", "rating", "score"])
    ws.write_row(1, 0, ["q1", "d1", 2, 0.5])
    ws.write_row(2, 0, ["q1", "d2", 0, 0.7])
    wb.close()
    before = sha(path)
    doc = load_document(path, conventions=preset("sklearn"))
    assert sha(path) == before
    assert doc.source_id.tolist() == ["d1", "d2"]
    assert doc.grade.tolist() == [2.0, 0.0]
    assert doc.conventions.preset == "sklearn"
    notes = doc.import_report.notes
    assert any("not an NDCG Worksheet workbook" in n for n in notes)


def test_load_document_routes_on_not_own_workbook(tmp_path: Path, monkeypatch) -> None:
    """The typed error routes an .xlsx to the importer, whatever its message says."""
    import core.io.workbook as workbook
    from core.errors import NotOwnWorkbook

    path = tmp_path / "team.xlsx"
    wb = xlsxwriter.Workbook(str(path))
    ws = wb.add_worksheet()
    ws.write_row(0, 0, ["query", "docid", "rating", "score"])
    ws.write_row(1, 0, ["q1", "d1", 2, 0.5])
    wb.close()

    def not_ours(p: object) -> None:
        raise NotOwnWorkbook("no metadata sheet", file=str(p))

    monkeypatch.setattr(workbook, "read_workbook", not_ours)
    doc = load_document(path)
    assert doc.source_id.tolist() == ["d1"]
    assert "(no metadata sheet)" in doc.import_report.notes[0]


def test_findings_are_reported_in_reading_order(tmp_path: Path) -> None:
    """Row by row; in a row each grade column left to right (the score, one
    per item, is the same on its second row: a score differing there is
    refused, test_a_ranking_that_disagrees_with_itself_is_refused)."""
    path = tmp_path / "order.csv"
    path.write_text("query,doc,score,grade_a,grade_b\n"
                    "q,d1,0.5,Relevant,7\n"
                    "q,d1,0.5,2,n/a\n"
                    "q,d2,0.3,Nope,1\n", encoding="utf-8")
    rep = import_annotations(path, rubric=RUBRIC).report
    assert [(i.row, i.kind, i.column) for i in rep.issues] == [
        (2, "label mapped", "grade_a"), (2, "outside scale", "grade_b"),
        (3, "duplicate", "grade_a"), (3, "mark", "grade_b"),
        (3, "conflict", "grade_b"),
        (4, "cell rejected", "grade_a"),
    ]
    assert rep.unmapped_labels == {"Nope": 1}
    assert "first on row 2" in rep.issues[2].problem
    # A label the declared rubric maps is not a finding to look at; the rest are.
    assert [(i.row, i.kind) for i in rep.to_review()] == [
        (2, "outside scale"), (3, "duplicate"), (3, "mark"), (3, "conflict"),
        (4, "cell rejected")]
    assert "label mapped" not in " ".join(rep.summary())
    # Their tally says what it counts (it read "mark: 1" alone in a new user's trial).
    assert ("issues to look at, each listed with its row and column: outside scale 1, "
            "duplicate 1, mark 1, conflict 1, cell rejected 1") in rep.summary()


def test_a_clean_form_export_has_no_finding_to_review() -> None:
    # 22 labelled rows, read on a known scale (said once), nothing wrong.
    path = Path(__file__).parent / "data" / "annotators" / "google_forms_responses.csv"
    rep = import_annotations(path).report
    assert len(rep.of_kind("label mapped")) == 22  # kept in the report's JSON
    assert rep.to_review() == []
    assert any(line.startswith("labels read as grades (the scale ") for line in rep.summary())


def test_workbook_with_an_empty_second_sheet(tmp_path: Path) -> None:
    path = tmp_path / "two.xlsx"
    wb = xlsxwriter.Workbook(str(path))
    ws = wb.add_worksheet("Judgments")
    ws.write_row(0, 0, ["query", "doc", "grade"])
    ws.write_row(1, 0, ["q", "a", 2])
    wb.add_worksheet("Notes")
    wb.close()
    res = import_annotations(path)
    assert res.document.grade.tolist() == [2.0]


# -- guessing: labels, headers, delimiters ---------------------------------------------
def test_labels_read_on_one_known_scale_by_hand() -> None:
    from core.io.annotator.scales import guess_labels

    g = guess_labels({"Highly relevant": 1, "Relevant": 1, "Not relevant": 1})
    assert g.grades == {"Highly relevant": 2.0, "Relevant": 1.0, "Not relevant": 0.0}
    # 'Relevant' is 2 next to 'Partially relevant' and 'Irrelevant'
    g = guess_labels({"Irrelevant": 1, "Partially relevant": 1, "Relevant": 1})
    assert g.grades == {"Irrelevant": 0.0, "Partially relevant": 1.0, "Relevant": 2.0}
    # ... and 2 of 0-3 next to 'partial' and 'highly relevant'
    g = guess_labels({"partial": 2, "relevant": 1, "HIGHLY  RELEVANT": 1, "meh": 4})
    assert g.grades == {"partial": 1.0, "relevant": 2.0, "HIGHLY  RELEVANT": 3.0}
    assert g.unmapped == {"meh": 4}
    assert g.rubric is not None
    assert g.rubric.text == "0=Not relevant,1=partial,2=relevant,3=HIGHLY RELEVANT"
    g = guess_labels({"Perfect": 1, "bad": 1, "Good": 1})
    assert g.grades == {"Perfect": 4.0, "bad": 0.0, "Good": 2.0}
    assert g.rubric is not None
    assert g.rubric.values == (0.0, 1.0, 2.0, 3.0, 4.0)
    g = guess_labels({"No support": 1, "Partial support": 1, "Direct support": 1})
    assert list(g.grades.values()) == [0.0, 1.0, 2.0]
    g = guess_labels({"Yes": 1, "No": 1})
    assert g.grades == {"Yes": 1.0, "No": 0.0}


#: Level words platforms and forms use, each set in its order (worst first):
#: read 0, 1, 2 ... (they were refused as labels on no known scale).
GRADED_WORDS = [
    ("irrelevant", "partially", "relevant"),  # MTurk's Answer.rel.partially
    ("Not relevant", "Partially", "Highly relevant"),
    ("Not relevant", "Partially relevant", "Fully relevant"),
    ("Irrelevant", "Somewhat relevant", "Very relevant"),
    ("Not relevant", "Moderately relevant", "Highly relevant"),
    ("Not at all relevant", "Somewhat relevant", "Extremely relevant"),
    ("Off topic", "Partially relevant", "Relevant"),
    ("Not relevant", "Slightly relevant", "Moderately relevant", "Highly relevant"),
    ("Irrelevant", "Related", "Highly relevant", "Perfectly relevant"),  # TREC DL
]


@pytest.mark.parametrize("words", GRADED_WORDS)
def test_level_words_come_out_in_their_order(words: tuple[str, ...]) -> None:
    """A graded scale's words (``Not relevant`` / ``Partially`` / ``Highly
    relevant``) read in their order, whatever order the sheet meets them."""
    from core.io.annotator.scales import guess_labels

    g = guess_labels(dict.fromkeys(reversed(words), 1))
    assert g.grades == {w: float(n) for n, w in enumerate(words)}
    assert not g.unmapped


def test_two_words_of_one_level_are_asked_for_never_one_grade() -> None:
    """``Slightly relevant`` and ``Somewhat relevant`` both on a sheet are
    two levels, though every known scale holding both has them as one: no
    scale is read, the user is asked for each label's grade (both were 1)."""
    from core.io.annotator.scales import guess_labels

    words = ("Not relevant", "Slightly relevant", "Somewhat relevant", "Highly relevant")
    g = guess_labels(dict.fromkeys(words, 1))
    assert g.grades == {}
    assert list(g.unmapped) == list(words)


#: Two annotators' labels: 3 of the 4 levels of Not relevant ... Highly
#: relevant, never Relevant.
THREE_OF_FOUR = ("query,doc,annotator,{}\nq1,a,x,Not relevant\nq1,b,x,Highly relevant\n"
                 "q1,c,x,Somewhat relevant\nq2,d,x,Highly relevant\nq2,e,x,Not relevant\n"
                 "q2,f,x,Somewhat relevant\nq1,a,y,Not relevant\nq1,b,y,Highly relevant\n"
                 "q1,c,y,Not relevant\nq2,d,y,Somewhat relevant\nq2,e,y,Not relevant\n"
                 "q2,f,y,Highly relevant\n")


def test_labels_take_the_scale_their_header_lists(tmp_path: Path) -> None:
    """Labels using 3 of a scale's 4 levels read on the 3-level scale they
    fill best (Highly relevant = 2), and the report says it was that choice
    and the --rubric of the 4-level scale that holds them too; where the
    grade column's header lists the 4 levels in order, they are the scale
    (Highly relevant = 3: it was 2, the header unread)."""
    sheet = tmp_path / "labels.csv"
    sheet.write_text(THREE_OF_FOUR.format("relevance"), encoding="utf-8")
    report = import_sheet(sheet).report
    assert report.labels == {"Not relevant": 0, "Highly relevant": 2, "Somewhat relevant": 1}
    four = "0=Not relevant,1=Somewhat relevant,2=Relevant,3=Highly relevant"
    assert report.scale == (
        "the scale not relevant / somewhat relevant / highly relevant, the one the labels "
        "fill best (they are 3 of the 4 levels of not relevant / somewhat relevant / relevant "
        f"/ highly relevant too: pass --rubric \"{four}\" if that is their scale)")
    declared = import_sheet(sheet, rubric=four).document
    assert declared.grade.tolist() == [0, 3, 0.5, 2, 0, 2]  # the means, Highly relevant 3
    sheet.write_text(THREE_OF_FOUR.format(
        "relevance (Not relevant; Somewhat relevant; Relevant; Highly relevant)"),
        encoding="utf-8")
    result = import_sheet(sheet)
    assert result.report.labels == {"Not relevant": 0, "Highly relevant": 3,
                                    "Somewhat relevant": 1}
    assert result.report.scale == ("the scale not relevant / somewhat relevant / relevant / "
                                   "highly relevant, as the sheet lists its levels")
    assert result.document.conventions.rubric is not None
    assert result.document.conventions.rubric.text == four
    np.testing.assert_array_equal(result.document.grade, declared.grade)
    # the wizard's preview reads them alike
    proposed = preview(sheet)
    assert proposed.label_grades["Highly relevant"] == 3.0
    assert proposed.rubric is not None
    assert proposed.rubric.text == four


def test_numbered_labels_give_their_number() -> None:
    from core.io.annotator.scales import guess_labels, numbered_label

    assert numbered_label("2 - Relevant") == (2.0, "Relevant")
    assert numbered_label("3: Perfect") == (3.0, "Perfect")
    assert numbered_label("(1) Partial") == (1.0, "Partial")
    assert numbered_label("Relevant (2)") == (2.0, "Relevant")
    assert numbered_label("0,5 - half") == (0.5, "half")
    for text in ("2", "2.5", "Relevant", "2 -", "N/A", "3 3"):
        assert numbered_label(text) is None, text
    # the numbered labels' words read on a scale bring its missing level
    g = guess_labels({"1 - Somewhat relevant": 1, "2 - Relevant": 1, "3 - Highly relevant": 1,
                      "Relevant": 2})
    assert g.grades["Relevant"] == 2.0
    assert g.rubric is not None
    assert g.rubric.text == ("0=Not relevant,1=Somewhat relevant,2=Relevant,"
                             "3=Highly relevant")


@pytest.mark.parametrize(("header", "field", "annotator"), [
    ("Input.query", "query", None), ("Input.doc_id", "source_id", None),
    ("Answer.relevance", "grade", None), ("WorkerId", "annotator", None),
    ("AssignmentStatus", "status", None), ("Query Text", "query", None),
    ("Doc ID", "source_id", None), ("Doc URL", "source_id", None),
    ("Relevance (0-3)", "grade", None), ("Rater", "annotator", None),
    ("Annotator A", None, "Annotator A"), ("Rater 2", None, "Rater 2"),
    ("grade_alice", None, "alice"), ("Bob rating", None, "Bob"),
    # a Qualtrics response id written back as grade_<name>: its 'r' is not grade's
    ("grade_R_01a2b3c4d5e6f70", None, "R_01a2b3c4d5e6f70"),
    ("Final grade", None, None), ("Consensus label", None, None), ("HITId", None, None),
    ("Reviewer notes", "note", None), ("Case ID", None, None), ("Title", None, None),
    ("Relevance judgments \u2013 batch 7 (sent by Vendor X \u2026)", None, None),
    # Label Studio's JSON export: counts of comments, not notes ('1: 0; 3: 0' was
    # the note of every candidate)
    ("comment_count", None, None), ("unresolved_comment_count", None, None),
    # and the time of a task's last comment, no note (its date was each
    # annotator's note of the task)
    ("last_comment_updated_at", None, None), ("Comment date", None, None),
    # and its choice, the grade ('no grade column found' without --map grade=D)
    ("annotations.result.value.choices", "grade", None),
])
def test_headers_as_tools_write_them(header: str, field: str | None,
                                     annotator: str | None) -> None:
    from core.io.annotator.names import name_field

    named = name_field(header)
    assert (named.field, named.annotator) == (field, annotator)


def test_a_worksheet_written_reads_back_annotators_of_any_name(tmp_path: Path) -> None:
    """The worksheet CSV the import writes names each annotator's column
    ``grade_<name>``, whatever the name: read back, those are the grades
    and the names, even when a name reads as no annotator's (a wide sheet's
    column ``grade_ben_at_lab_example``, read from its values, written as
    ``grade_grade_ben_at_lab_example``: refused before as '2 more columns
    of grades like grade's are not used')."""
    sheet = tmp_path / "written.csv"
    sheet.write_text(
        "query,source_id,version,score,grade,state,reason,note,"
        "grade_grade_ben_at_lab_example,grade_grade_ana_at_lab_example\n"
        "q one,d1,,,1.5,number,,,1,2\nq one,d2,,,0,number,,,0,0\n"
        "q two,d3,,,2.5,number,,,3,2\nq two,d4,,,1,number,,,2,0\n", encoding="utf-8")
    doc = import_annotations(sheet).document
    assert doc.annotators == ["grade_ben_at_lab_example", "grade_ana_at_lab_example"]
    assert doc.ratings is not None
    assert doc.ratings.tolist() == [[1, 2], [0, 0], [3, 2], [2, 0]]


def test_annotators_declared_by_their_headers_are_named_as_guessed(tmp_path: Path) -> None:
    """``--annotators grade_ana,grade_ben`` names the annotators as the
    guess does (ana, ben), never after the whole header: the worksheet
    written then said ``grade_grade_ana``, and read back with the same flag
    ``grade_grade_grade_ana``. A column whose header names no one keeps it,
    without the writer's prefix (``grade_ben_at_lab_example``, too long for
    a name, is ``ben_at_lab_example``'s): written, read back, the same."""
    sheet = tmp_path / "wide.csv"
    sheet.write_text("query,doc,grade_ana,grade_ben,grade_ben_at_lab_example\n"
                     "q1,d1,1,1,0\nq1,d2,3,1,2\nq1,d3,0,0,1\nq2,d4,2,2,2\nq2,d5,2,3,3\n"
                     "q2,d6,0,0,0\n", encoding="utf-8")
    flag = ["grade_ana", "grade_ben", "grade_ben_at_lab_example"]
    names = ["ana", "ben", "ben_at_lab_example"]
    assert import_sheet(sheet, annotators=flag).document.annotators == names
    out = tmp_path / "out.csv"
    write_worksheet_csv(import_sheet(sheet, annotators=flag).document, out)
    header = out.read_text(encoding="utf-8").splitlines()[0].split(",")
    assert header[-3:] == flag
    again = import_sheet(out, annotators=flag).document
    assert again.annotators == names
    assert again.ratings is not None
    assert again.ratings.tolist() == [[1, 1, 0], [3, 1, 2], [0, 0, 1], [2, 2, 2], [2, 3, 3],
                                      [0, 0, 0]]


#: A worksheet CSV as the import writes it, whose row 3 (q1, d2) holds an
#: adjudicated grade: 3 typed in by a lead reviewer, the annotators at 1 and 2.
ADJUDICATED = ("query,source_id,version,score,grade,state,reason,note,grade_ana,grade_ben\n"
               "q1,d1,,3,1,number,,,1,1\nq1,d2,,2,3,number,,,1,2\n"
               "q2,d3,,1,,unknown,,,,\nq2,d4,,0.5,2.5,number,,,2,3\n")


def test_an_adjudicated_grade_is_never_replaced_by_the_consensus(tmp_path: Path) -> None:
    """The ``grade`` column of a worksheet CSV is left out as its annotators'
    consensus only where it is that consensus on every row: 3 beside 1 and 2
    (mean 1.5) is a judgment, refused in one line naming the file, the
    column, the row, its query and source and both values, and what to do
    (imported as 1.5 in silence before); the file is left as it was."""
    sheet = tmp_path / "adjudicated.csv"
    sheet.write_text(ADJUDICATED, encoding="utf-8")
    with pytest.raises(InputError) as err:
        import_annotations(sheet)
    assert str(err.value) == (
        f"{sheet}, line 3, column 'grade': grade holds 3 for query q1, source d2 where the "
        "mean of the annotators' grades (ana, ben; no rounding) is 1.5: a grade given there, "
        "not their consensus, is never replaced by a computed one (pass --map grade=E to take "
        "its grades, or --map grade=none to leave it out and compute the consensus from the "
        "annotators' grades)")
    assert sheet.read_text(encoding="utf-8") == ADJUDICATED
    # a blank consensus beside a computed number differs too, and a number
    # beside no grade at all: each refused
    for row, was, now in ((2, "q1,d1,,3,1,", "q1,d1,,3,,"), (4, "q2,d3,,1,,", "q2,d3,,1,2,")):
        sheet.write_text(ADJUDICATED.replace("q1,d2,,2,3,", "q1,d2,,2,1.5,").replace(was, now),
                         encoding="utf-8")
        with pytest.raises(InputError, match=rf"line {row}, column 'grade': grade holds "):
            import_annotations(sheet)


def test_a_consensus_saved_back_by_a_spreadsheet_is_still_the_consensus(
        tmp_path: Path) -> None:
    """A worksheet CSV opened and saved by Excel keeps 15 significant digits:
    the mean of 1, 2 and 2 (5/3) comes back as 1.66666666666667, still the
    consensus (left out and computed again, 5/3 to the last bit); a grade
    that differs in the 14th digit is another number, refused."""
    head = "query,source_id,version,score,grade,state,reason,note,grade_a,grade_b,grade_c\n"
    rows = "q1,d1,,2,{},number,,,1,2,2\nq1,d2,,1,0,number,,,0,0,0\n"
    sheet = tmp_path / "saved-by-excel.csv"
    sheet.write_text(head + rows.format("1.66666666666667"), encoding="utf-8")
    doc = import_annotations(sheet).document
    assert doc.annotators == ["a", "b", "c"]
    assert doc.grade.tolist() == [5 / 3, 0.0]
    sheet.write_text(head + rows.format("1.66666666666666"), encoding="utf-8")
    with pytest.raises(InputError, match=r"line 2, column 'grade': grade holds 1\.66666666666666 "):
        import_annotations(sheet)


def test_an_adjudicated_grade_is_taken_or_left_out_as_the_user_says(tmp_path: Path) -> None:
    """The two ways the refusal names: ``--map grade=E`` takes the
    adjudicated grades, ``--map grade=none`` leaves them out for the
    annotators' consensus (no grade column at all before)."""
    sheet = tmp_path / "adjudicated.csv"
    sheet.write_text(ADJUDICATED, encoding="utf-8")
    taken = import_sheet(sheet, fields={"grade": "E"}).document
    assert taken.grade[:2].tolist() == [1, 3]
    left = import_sheet(sheet, fields={"grade": "none"}).document
    assert left.annotators == ["ana", "ben"]
    assert left.grade[:2].tolist() == [1, 1.5]
    # the consensus under the rule declared: the median of 1 and 2 is 1.5
    # too, the minimum 1 (row 3's grade 3 is neither)
    with pytest.raises(InputError, match="grade holds 3 .* where the lowest annotator grade "
                       r"\(ana, ben; no rounding\) is 1:"):
        import_sheet(sheet, consensus="minimum")


def test_a_grade_left_out_as_declared_says_so(tmp_path: Path) -> None:
    """``--map grade=none`` leaves the adjudicated grade out: the report's
    column says it was declared so, not that the guess took it for the
    annotators' consensus ('a grade combined from several', which it is
    not: 3 beside 1 and 2), and the annotators' columns, named so, say
    why they were taken, not 'declared'; without the flag, the consensus
    the tool wrote beside them is still said to be combined."""
    sheet = tmp_path / "adjudicated.csv"
    sheet.write_text(ADJUDICATED, encoding="utf-8")
    report = import_sheet(sheet, fields={"grade": "none"}).report
    columns = {c.header: (c.role, c.reason, c.flag) for c in report.columns}
    assert columns["grade"] == (
        "", "grade: left out as declared (--map grade=none), not imported: the consensus is "
        "computed from the annotators' own grades", "--map grade=E")
    assert columns["grade_ana"] == ("grade (ana)", "ana, ben, named so: one column of grades "
                                    "per annotator", "")
    assert "ignored: grade: left out as declared (--map grade=none), not imported: the " \
        "consensus is computed from the annotators' own grades" in report.guesses()
    written = ADJUDICATED.replace("q1,d2,,2,3,", "q1,d2,,2,1.5,").replace(
        "q2,d4,,0.5,2.5,", "q2,d4,,0.5,2.5,")
    sheet.write_text(written, encoding="utf-8")
    columns = {c.header: c.reason for c in import_sheet(sheet).report.columns}
    assert columns["grade"] == ("grade: a grade combined from several, not imported (the "
                                "consensus is computed from the annotators' own)")
    declared = import_sheet(sheet, annotators=["grade_ana", "grade_ben"]).report
    assert {c.header: c.reason for c in declared.columns}["grade_ben"] == "declared"


def test_a_named_grade_column_left_out_gives_way_to_the_annotators(tmp_path: Path) -> None:
    """A grade column named so (``relevance``) beside annotators' columns
    named so wins the guess, and the import asks which; ``--map
    grade=none`` leaves it out, so the annotators' columns are the grades
    (it was refused as 'no grade column found', they named no more), the
    column said left out as declared."""
    sheet = tmp_path / "named.csv"
    sheet.write_text("query,doc,relevance,grade_ana,grade_ben\nq1,d1,1,1,1\nq1,d2,3,1,2\n"
                     "q1,d5,0,0,1\nq2,d3,2,2,2\nq2,d4,2,2,3\nq2,d6,0,0,0\n", encoding="utf-8")
    with pytest.raises(InputError) as refused:
        import_sheet(sheet)
    assert str(refused.value) == (
        f"{sheet}: 2 more columns of grades like relevance's are not used: grade_ana, "
        "grade_ben (pass --annotators relevance,grade_ana,grade_ben if each is one "
        "annotator's grades, --map grade=relevance to take relevance alone and leave "
        "grade_ana, grade_ben out, or --map grade=none to leave relevance out)")
    result = import_sheet(sheet, fields={"grade": "none"})
    assert result.document.annotators == ["ana", "ben"]
    assert result.document.grade.tolist() == [1, 1.5, 0.5, 2, 2.5, 0]
    why = {c.header: (c.role, c.reason) for c in result.report.columns}
    assert why["relevance"] == ("", "relevance: left out as declared (--map grade=none), not "
                                "imported: the consensus is computed from the annotators' own "
                                "grades")


def test_a_written_consensus_under_another_rule_is_refused_under_the_mean(
        tmp_path: Path) -> None:
    """A worksheet written with ``--consensus maximum`` read back under the
    mean: its grades are not the mean's, so refused, never recomputed, the
    rules they are the consensus under named; read under the maximum it was
    written with, they are left out as its consensus."""
    sheet = tmp_path / "maximum.csv"
    sheet.write_text(ADJUDICATED.replace("q1,d2,,2,3,", "q1,d2,,2,2,").replace(
        "q2,d4,,0.5,2.5,", "q2,d4,,0.5,3,"), encoding="utf-8")
    with pytest.raises(InputError) as err:
        import_annotations(sheet)
    assert "line 3, column 'grade': grade holds 2 for query q1, source d2 where the mean" in str(
        err.value)
    # every rule and rounding under which it is the consensus, named
    # (half-up and ceiling take 1.5 to 2 and 2.5 to 3): none picked for the user
    assert str(err.value).endswith(
        "(on every row it is what --consensus mean --rounding half-up, or --consensus mean "
        "--rounding ceiling, or --consensus median --rounding half-up, or --consensus median "
        "--rounding ceiling, or --consensus maximum computes: pass the one it was written "
        "with; or pass --map grade=E to take its grades, or --map grade=none to leave it out "
        "and compute the consensus from the annotators' grades)")
    doc = import_sheet(sheet, consensus="maximum").document
    assert doc.grade[[0, 1, 3]].tolist() == [1, 2, 3]
    assert doc.state[2] == GradeState.UNKNOWN


def test_the_better_name_wins_a_field() -> None:
    # Label Studio: 'id' is the task, 'doc' the document; Query ID over Query.
    table = read_table_from_rows([["annotation_id", "id", "query", "doc", "relevance"],
                                  ["1", "7", "q", "d", "Relevant"]])
    m = detect_mapping(table)
    assert (m.query, m.source_id, m.grade) == (2, 3, 4)
    table = read_table_from_rows([["Query", "Query ID", "Document ID", "Label"],
                                  ["cheap flights", "17", "p1", "Good"]])
    m = detect_mapping(table)
    assert (m.query, m.source_id, m.grade) == (1, 2, 3)


def read_table_from_rows(rows: list[list[object]]):
    from core.io.annotator.model import Table

    return Table(file="t.csv", rows=[list(r) for r in rows])


@pytest.mark.parametrize(("text", "delimiter"), [
    ("Batch 7, sent by X\n\nquery;doc;score;grade\nq;d;0,5;2\nq;e;0,25;1\n", ";"),
    ("query,doc,grade\nq,d,1\n", ","),
    ("query\tdoc\tnote\nq\td\tgood, really, good\nq\te\tok\n", "\t"),
    ("qid|docno|rating\n1|d1|2\n", "|"),
    ("query,doc,note\nq,d,a;b;c;d;e\nq,e,f;g;h;i;j\nq,f,k;l;m;n;o\n", ","),
    ("Batch 7, from X\nquery;doc;score;grade\nq;d;0,5;2\nq;e;1;1\nq;f;0,25;0\n", ";"),
    ("just one column\nvalue\n", ","),
])
def test_the_delimiter_splits_the_lines_alike(text: str, delimiter: str) -> None:
    from core.io.annotator.read import sniff_delimiter

    assert sniff_delimiter(text, Path("x.csv")) == delimiter


def test_a_sheet_not_starting_at_a1_keeps_its_row_numbers(tmp_path: Path) -> None:
    path = tmp_path / "offset.xlsx"
    wb = xlsxwriter.Workbook(str(path))
    ws = wb.add_worksheet()
    ws.write_row(2, 2, ["query", "doc", "grade"])
    ws.write_row(3, 2, ["q", "a", 2])
    ws.write_row(4, 2, ["q", "b", "nope"])
    wb.close()
    rep = import_annotations(path).report
    assert rep.header_row == 3
    assert [(r, c) for r, c, _ in rep.rejected_judgments] == [(5, "E (grade)")]


# -- nothing dropped, whatever the cells ------------------------------------------------
_CELL = st.sampled_from(["0", "1", "2", "3", "1.5", "", "n/a", "?", "-", "skip", "Relevant",
                         "Highly relevant", "meh", "2 - Relevant", "nan", "x"])


@given(st.lists(st.tuples(st.sampled_from(["q1", "q2", ""]), st.sampled_from(["a", "b", "c", ""]),
                          _CELL, _CELL, st.sampled_from(["0.5", "", "abc", "1"])),
                min_size=1, max_size=12),
       st.booleans())
def test_every_judgment_read_is_imported_or_rejected(rows: list[tuple[str, ...]],
                                                      wide: bool) -> None:
    """imported + rejected = judgments read; a rejected judgment names its row,
    column and reason; no grade is ever 0 unless a 0 was written."""
    from core.io.annotator import import_table

    if wide:
        header = ["query", "doc", "grade_x", "grade_y", "score"]
        data = [list(r) for r in rows]
    else:
        header = ["query", "doc", "annotator", "grade", "score"]
        data = [[q, d, who, g, s] for q, d, gx, gy, s in rows
                for who, g in (("x", gx), ("y", gy))]
    table = read_table_from_rows([header, *data])
    if not any(q and d and s != "abc" for q, d, *_, s in rows):  # no row can be imported
        with pytest.raises(InputError, match="no candidate rows"):
            import_table(table)
        return
    scored: dict[tuple[str, str], set[str]] = {}
    for q, d, *_, s in rows:
        if q and d and s in ("0.5", "1"):
            scored.setdefault((q, d), set()).add(s)
    if any(len(v) > 1 for v in scored.values()):  # one item scored twice: no ranking
        with pytest.raises(InputError, match="a ranking scores each item once"):
            import_table(table)
        return
    result = import_table(table)
    rep = result.report
    assert rep.judgments_imported + len(rep.rejected_judgments) == rep.judgments_read
    assert all(row >= 2 and column and why for row, column, why in rep.rejected_judgments)
    doc = result.document
    zeros = sum(r[2:4].count("0") for r in rows)
    assert int(np.sum(doc.grade == 0)) <= zeros


def test_consensus_grades_are_judged_by_their_ratings_against_the_rubric() -> None:
    from core.engine.evaluation import evaluate
    from core.model.document import Document

    nan = math.nan
    doc = Document.from_columns(
        query=["q"] * 6, source_id=list("abcdef"), score=[6, 5, 4, 3, 2, 1],
        # b: mean of 1, 2, 2 (not a rubric grade, inside its ratings: fine);
        # c: a rating of 5 outside the rubric; d: typed 7 over ratings 1 and 2;
        # e: typed 2, in the rubric; f: no ratings, grade 9 outside the rubric.
        grade=[2, 5 / 3, 2, 7, 2, 9],
    )
    doc.annotators = ["ann", "bob", "cy"]
    doc.ratings = np.array([[2, 2, nan], [1, 2, 2], [1, 5, nan], [1, 2, nan],
                            [0, 0, 1], [nan, nan, nan]], dtype=float)
    doc.conventions = doc.conventions.replace(rubric=Rubric.parse("0,1,2,3"))
    assert evaluate(doc).outside_rubric.tolist() == [False, False, True, True, False, True]


def _with_error_values(path: Path, cells: dict[str, str]) -> None:
    """A workbook whose ``cells`` hold Excel error values without a formula
    (as Excel stores a typed ``#N/A``, or a sheet saved as values)."""
    import zipfile

    wb = xlsxwriter.Workbook(path.with_suffix(".tmp.xlsx"))
    ws = wb.add_worksheet()
    ws.write_row(0, 0, ["query", "docid", "grade"])
    for r, (q, d, g) in enumerate([("q1", "d1", 2), ("q1", "d2", 1), ("q1", "d3", 0),
                                   ("q2", "d1", 3)], start=1):
        ws.write_row(r, 0, [q, d, g])
    wb.close()
    with zipfile.ZipFile(path.with_suffix(".tmp.xlsx")) as src, \
            zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as out:
        for info in src.infolist():
            data = src.read(info.filename)
            if info.filename == "xl/worksheets/sheet1.xml":
                for ref, error in cells.items():
                    data, n = re.subn(rb'<c r="' + ref.encode() + rb'"[^>]*>.*?</c>',
                                      f'<c r="{ref}" t="e"><v>{error}</v></c>'.encode(), data)
                    assert n == 1
            out.writestr(info, data)


def test_error_values_are_refused_cells_never_blanks(tmp_path: Path) -> None:
    path = tmp_path / "errors.xlsx"
    _with_error_values(path, {"C3": "#DIV/0!", "A4": "#REF!"})
    before = path.read_bytes()
    res = import_annotations(path)
    problems = [(i.row, i.column, i.problem) for i in res.report.rejected]
    assert problems == [
        (3, "C (grade)", "cell C3 holds the error value '#DIV/0!', not data; cell not imported"),
        (4, "A (query)", "cell A4 holds the error value '#REF!', not data; row rejected"),
    ]
    doc = res.document
    pairs = {(doc.query_ids[int(q)], s): (g, int(st_)) for q, s, g, st_ in
             zip(doc.query, doc.source_id, doc.grade, doc.state, strict=True)}
    assert set(pairs) == {("q1", "d1"), ("q1", "d2"), ("q2", "d1")}
    assert pairs[("q1", "d1")] == (2.0, GradeState.NUMBER)
    assert pairs[("q1", "d2")][1] == GradeState.UNKNOWN
    assert path.read_bytes() == before


def test_a_quoted_export_with_one_unclosed_quote_keeps_its_commas(tmp_path: Path) -> None:
    """A Mechanical Turk batch (every field quoted, ``RequesterAnnotation``
    holding ``BatchId:…;OriginalHitTemplateId:…;`` on every line) with a
    worker's comment cut short before its closing quote: still read with
    commas, so the import names the broken line's cell (it was read with
    semicolons, the header one column, and refused as 'no query column
    found')."""
    header = ["HITId", "RequesterAnnotation", "WorkerId", "Input.query", "Input.url",
              "Answer.relevance.label"]
    lines = [",".join(f'"{h}"' for h in header)]
    for n in range(8):
        fields = [f"3ZQA{n // 2:04d}", "BatchId:5123456;OriginalHitTemplateId:928390909;",
                  f"A{n % 2}B2C3D4E5F6", "descale a kettle", f"https://ex.example/{n // 2}",
                  ("Relevant", "Not relevant")[n % 2]]
        lines.append(",".join(f'"{f}"' for f in fields))
    lines[5] = lines[5][:-1] + " (see"  # the closing quote lost
    path = tmp_path / "Batch_5123456_batch_results.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    table = read_table(path)
    assert table.delimiter == ","
    assert table.rows[0] == header
    report = import_annotations(path).report
    assert list(report.unmapped_labels) == ['Relevant (see\n3ZQA0002"']
    first = next(i for i in report.issues if i.value == 'Relevant (see\n3ZQA0002"')
    assert (first.row, first.column) == (6, "Answer.relevance.label")


def test_a_sheet_past_the_size_limit_is_refused_as_every_text_file_is(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """One limit for every text reader (core.io.files.MAX_BYTES): a sheet
    past it is refused in the one line a run or qrels file past it is (the
    importer kept its own MAX_TEXT_BYTES beside it, and read the file)."""
    import io

    from app.cli.main import main
    from core.io import files
    from core.io.textfile import read_detected

    sheet = tmp_path / "sheet.csv"
    sheet.write_text("query,doc_id,relevance\nq1,d1,2\nq1,d2,0\n", encoding="utf-8")
    limit = sheet.stat().st_size - 1
    monkeypatch.setattr(files, "MAX_BYTES", limit)
    line = f"{sheet}: the file is larger than {limit / 1024**3:g} GiB (split it into smaller files)"
    with pytest.raises(InputError) as caught:
        read_detected(sheet)
    assert str(caught.value) == line
    assert main(["import", str(sheet), "-o", str(tmp_path / "out.csv")], io.StringIO()) == 2
    assert capsys.readouterr().err == f"ndcg-worksheet: error: {line}\n"
    assert not (tmp_path / "out.csv").exists()


def test_a_platforms_bookkeeping_is_left_out_for_what_it_is(tmp_path: Path) -> None:
    """Prolific's Total approvals (and rejections, and approval rate) joined
    onto a long sheet: one value for each participant's rows, left out as
    their bookkeeping (was "a grade combined from several", with --map
    grade=E as its flag, for the word "total")."""
    path = tmp_path / "prolific.csv"
    rows = ["query,doc,annotator,grade,Total approvals,Total rejections,Approval rate"]
    counts = {"5f1a": "312,2,99.4", "60b2": "1204,0,100", "6123": "87,2,97.8"}
    for k, (q, d) in enumerate((q, d) for q in ("q1", "q2") for d in ("a", "b", "c")):
        rows += [f"{q},{d},{who},{(k + j) % 4},{c}" for j, (who, c) in enumerate(counts.items())]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    rep = import_annotations(path).report
    assert rep.annotators == ["5f1a", "60b2", "6123"]
    tail = ", the platform's bookkeeping of each participant's work, one value per annotator " \
        "(no judgment, no ranking); not imported"
    assert [(c.letter, c.role, c.reason, c.flag) for c in rep.columns[4:]] == [
        ("E", "", "Total approvals: numbers 87 to 1204" + tail, ""),
        ("F", "", "Total rejections: numbers 0 to 2" + tail, ""),
        ("G", "", "Approval rate: numbers 97.8 to 100" + tail, "")]


@pytest.mark.parametrize("layout", ["long", "survey"])
def test_a_source_listed_under_two_queries_keeps_who_judged_it(tmp_path: Path,
                                                                layout: str) -> None:
    """doc1 judged for two queries (a TREC docno under two topics) by three
    participants named by PROLIFIC_PID, no header naming an annotator: who
    judged is read from the values per item (query, source), so each
    participant's grade is kept. Grouped by the source alone, doc1's rows
    for q1 and q2 looked like one person judging one item twice: who judged
    was not read, and 12 of the 18 judgments were set aside as repeats."""
    people = ("5f1a0c3b9d8e7f6a5b4c3d2e", "60b2dd11aa22bb33cc44dd55", "6123ef9988776655443322aa")
    items = [(q, d) for q in ("q1", "q2") for d in ("doc1", "doc2", "doc3")]
    grade = {(it, w): (k + j) % 4 for k, it in enumerate(items) for j, w in enumerate(people)}
    if layout == "long":
        text = "query,doc,PROLIFIC_PID,grade\n" + "".join(
            f"{q},{d},{w},{grade[((q, d), w)]}\n" for q, d in items for w in people)
    else:
        text = "PROLIFIC_PID," + ",".join(f"{q} - {d}" for q, d in items) + "\n" + "".join(
            w + "," + ",".join(str(grade[(it, w)]) for it in items) + "\n" for w in people)
    path = tmp_path / "shared.csv"
    path.write_text(text, encoding="utf-8")
    res = import_annotations(path)
    assert res.report.judgments_imported == 18
    assert not res.report.rejected_judgments
    assert res.document.annotators == list(people)
    assert res.document.source_id.tolist() == [d for _, d in items]
    assert res.document.ratings is not None
    np.testing.assert_array_equal(res.document.ratings, [[grade[(it, w)] for w in people]
                                                         for it in items])


def test_judgments_under_numbered_topics_are_never_taken_for_a_legend(
        tmp_path: Path) -> None:
    """A workbook of an Instructions sheet and the judgments, TREC-style:
    numbered topics beside document numbers (``301 | FBIS3-10082 | 1``).
    Each row reads like a legend's level (a whole number beside a label),
    but a legend names each grade once and the topic repeats: the judgments'
    sheet is chosen, all 12 judgments imported. Before, it was taken for a
    sheet of the legend only, the Instructions sheet chosen and refused as
    having no query column."""
    path = tmp_path / "trec.xlsx"
    wb = xlsxwriter.Workbook(str(path))
    notes = wb.add_worksheet("Instructions")
    for r, text in enumerate(("How to grade", "Read each document, then grade it.",
                              "Use the drop-down in the grade column.")):
        notes.write(r, 0, text)
    judged = wb.add_worksheet("Judgments")
    judged.write_row(0, 0, ("topic", "docno", "grade"))
    rows = [(t, d, (3 * i + j) % 3) for i, t in enumerate((301, 302, 303))
            for j, d in enumerate(("FBIS3-10082", "FT921-3", "LA0101-77", "FR940104-0-1"))]
    for r, row in enumerate(rows, start=1):
        judged.write_row(r, 0, row)
    wb.close()
    res = import_annotations(path)
    assert res.report.judgments_imported == 12
    assert res.document.query_ids == ["301", "302", "303"]
    assert res.document.source_id.tolist() == [d for _, d, _ in rows]
    assert res.document.grade.tolist() == [float(g) for *_, g in rows]


def test_a_column_declared_the_rank_that_the_guess_took_for_grades(tmp_path: Path) -> None:
    """``--map rank=output`` where the guess had read ``output`` (1-3, each
    item's place in a small query) as the grades, beside labels on no known
    scale under ``verdict``: the grades are looked for around the declared
    rank, and the labels asked for (it was refused, 'no grade column found
    ...; B (output) is the rank': the declared column taken from the grades
    and no other looked for; 1 of the 8 drawn sheets of
    test_labels_under_a_header_naming_no_grade_are_read_by_their_values
    failed so, now and then); with their --rubric, imported."""
    from app.cli.main import main

    labels = ["Useless", "Marginal", "Useful", "Vital"]
    lines = ["query,output,who,doc,verdict"]
    for q in range(2):
        for d, rank in enumerate((3, 1, 2)):
            for w in range(2):
                lines.append(f"q{q},{rank},w{w},d{q}{d},{labels[(d + 2 * w + q) % 4]}")
    path = tmp_path / "judged.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out, err = tmp_path / "o.csv", io.StringIO()
    with contextlib.redirect_stderr(err):
        assert main(["import", str(path), "-o", str(out), "--map", "rank=output"],
                    io.StringIO()) == 2
    assert f"{path}, line 2, column 'verdict': labels on no known scale" in err.getvalue()
    assert main(["import", str(path), "-o", str(out), "--map", "rank=output", "--rubric",
                 "0=Useless,1=Marginal,2=Useful,3=Vital"], io.StringIO()) == 0
    with open(out, newline="", encoding="utf-8") as fh:
        got = [(r["source_id"], r["score"], r["grade_w0"], r["grade_w1"])
               for r in csv.DictReader(fh)]
    assert got == [("d00", "-3", "0", "2"), ("d01", "-1", "1", "3"), ("d02", "-2", "2", "0"),
                   ("d10", "-3", "1", "3"), ("d11", "-1", "2", "0"), ("d12", "-2", "3", "1")]
