"""The import's guess of an annotators' sheet: labels read on one known
scale, level words in their order, the scale a header lists, numbered
labels, headers as tools write them, annotators named as guessed, the
better name winning a field, the delimiter, a sheet not starting at A1, a
platform's bookkeeping, numbered topics, a column declared the rank."""

from __future__ import annotations

import contextlib
import csv
import io
from pathlib import Path

import numpy as np
import pytest
import xlsxwriter

from core.io.annotator import (
    detect_mapping,
    import_annotations,
    preview,
)
from core.io.annotator.command import import_sheet
from core.io.annotator.write import write_worksheet_csv
from tests.annotator_cases import read_table_from_rows


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
