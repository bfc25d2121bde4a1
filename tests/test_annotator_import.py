"""Annotators' spreadsheets: long and wide layouts, the mapping corrected,
unrateable marks, a ranking read over rows, encodings and formulas, which
workbooks go to the import, the findings and the report. Consensus is
tests/test_annotator_consensus.py's; the guess of labels, headers and
delimiters tests/test_annotator_guess.py's; every cell accounted for
tests/test_annotator_cells.py's."""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import pytest
import xlsxwriter

from core.errors import InputError
from core.io.annotator import (
    ColumnMapping,
    detect_mapping,
    import_annotations,
    preview,
    read_table,
)
from core.io.annotator.command import import_sheet
from core.io.load import load_document
from core.model.conventions import Rubric
from core.model.presets import preset
from tests.annotator_cases import N, R, U

RUBRIC = Rubric.parse("0=Not relevant,1=Somewhat relevant,2=Relevant,3=Highly relevant")


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


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
