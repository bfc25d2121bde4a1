"""Annotators' sheets as they really arrive (tests/data/annotators/, made by
tests/data/make_annotators.py): each imported without flags (those that need
flags, with them) through the command line and through the wizard's
guessing function, compared with the grades it was written from; what
cannot be read without flags, the outputs and the flags that shape them.
A sheet as a run's qrels is tests/test_annotator_qrels.py's; surveys and
transposed sheets tests/test_annotator_surveys.py's; formulas and hidden
rows in workbooks tests/test_annotator_workbooks.py's."""

from __future__ import annotations

import csv
import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from core.io.annotator import import_annotations, preview, read_table
from core.io.annotator.detect import read_guessed
from core.io.annotator.overrides import guess_mapping
from core.io.workbook import read_workbook
from core.model.conventions import Rubric
from core.model.document import GradeState
from core.model.grades import read_grade
from core.model.numbers import counted
from tests.annotator_cases import DATA, EXPECTED, SHEETS, run_cli, write_csv

NAMES = {"min": "minimum", "max": "maximum"}


def _by_candidate(expected: dict[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
    """(query, source) -> annotator -> grade or state, as the sheet was written."""
    out: dict[tuple[str, str], dict[str, Any]] = {}
    for q, s, who, grade in expected["judgments"]:
        out.setdefault((q, s), {})[who] = grade
    return out


def _mapping_names(mapping: Any, header: list[str]) -> dict[str, Any]:
    names: dict[str, Any] = {}
    for field in ("query", "source_id", "grade", "annotator", "score", "rank", "status",
                  "version", "note", "reason", "query_text"):
        col = getattr(mapping, field)
        if col is not None:
            names[field] = header[col]
    if mapping.grades:
        names["annotators"] = [header[c] for c, _ in mapping.grades]
    return names


def _flag_values(flags: list[str], name: str) -> list[str]:
    return [flags[i + 1] for i, f in enumerate(flags) if f == name]


def test_the_corpus_is_the_issue_s_kinds_and_at_least_fifteen() -> None:
    assert len(SHEETS) >= 15
    suffixes = {Path(n).suffix for n in SHEETS}
    assert suffixes >= {".xlsx", ".csv", ".tsv", ".txt"}
    layouts = {e["layout"] for e in EXPECTED.values()}
    assert layouts == {"long", "wide"}
    reading = {"--map", "--rubric", "--annotators", "--header-row", "--sheet"}
    need = sorted(n for n, e in EXPECTED.items() if reading & set(e["flags"]))
    # Only these need to be told how to read them (the others at most choose a consensus).
    assert need == ["unknown_labels.csv"]


# -- the command line -------------------------------------------------------------------
@pytest.mark.parametrize("name", SHEETS)
def test_command_line_import_gives_the_written_grades(name: str, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]):
    expected = EXPECTED[name]
    sheet = DATA / name
    before = sheet.read_bytes()
    out_csv, report_path = tmp_path / "out.csv", tmp_path / "report.json"
    args = ["import", str(sheet), "-o", str(out_csv), "--report", str(report_path),
            *expected["flags"]]
    if expected["rejected"]:  # written only when the user allows the rejections
        code, out, err = run_cli(args, capsys)
        n = len(expected["rejected"])
        assert (code, out, out_csv.exists()) == (2, "", False), err
        assert f"{n} of the " in err
        assert "rejected, so nothing was written; the first: " in err
        assert "(pass --allow-rejected to import the other " in err
        assert err.count("\n") == 1, err
        args.append("--allow-rejected")
    code, out, err = run_cli(args, capsys)
    assert sheet.read_bytes() == before
    report = json.loads(report_path.read_text("utf-8"))
    # (a sheet whose queries have texts: the CSV leaves them out, and says so)
    said = ("" if not report["mapping"].get("query_text") else
            "ndcg-worksheet: warning: the CSV written keeps no query text: the texts of "
            f"{counted(len({r['query'] for r in csv.DictReader(out_csv.open(encoding='utf-8'))}))} "
            "read from the sheet are left out (an audited workbook, .xlsx, keeps them)\n")
    assert (code, err) == (0, said), err
    assert report["sheet"] == expected["sheet"]
    assert report["header_row"] == expected["header_row"]
    assert report["layout"] == expected["layout"]
    assert report["mapping"] == expected["mapping"]
    # Nothing dropped: every judgment read is imported or rejected with its place.
    assert report["imported"] + len(report["rejected"]) == report["judgments_read"]
    assert [[r["row"], r["column"]] for r in report["rejected"]] == expected["rejected"]
    assert all(r["reason"] for r in report["rejected"])
    assert [s["row"] for s in report["skipped"]] == expected["skipped"]
    if expected["rubric"] is not None:  # read from the file, declared in the document
        assert f"rubric: {expected['rubric']}" in report["notes"]
    # Rows the platform marks as not judgments: skipped, counted by kind.
    assert report["excluded"] == expected["excluded"]
    if expected["excluded"]:
        assert "rows the platform marks as not judgments, skipped" in out
    for label, grade in expected["labels"].items():
        assert report["rubric"][label] == grade, label
    assert f"{len(report['rejected'])} rejected" in out

    with open(out_csv, newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert list(rows[0])[:5] == ["query", "source_id", "version", "score", "grade"]
    # No ranking is made up: without a score or rank the scores stay empty.
    if expected["ranking"]:
        assert report["ranking"] == expected["ranking"]
        assert all(r["score"] for r in rows)
    else:
        assert report["ranking"] == "none: judgments only"
        assert all(r["score"] == "" for r in rows)
        assert "judgments only" in out
    got = {(r["query"], r["source_id"]): r for r in rows}
    assert len(got) == len(rows) == len(expected["candidates"])
    judged = _by_candidate(expected)
    for q, s, value, state in expected["candidates"]:
        row = got[(q, s)]
        assert row["state"] == state, (q, s)
        if value is None:  # no annotator gave a number: empty, never 0; the state's word
            # where one marked it unrateable (the worksheet reader reads the grade alone)
            assert row["grade"] == ("unrateable" if state == "unrateable" else ""), (q, s)
        else:
            assert float(row["grade"]) == pytest.approx(value, abs=1e-12), (q, s)
        for who, grade in judged[(q, s)].items():
            cell = row[f"grade_{who}"] if who else row["grade"]
            if isinstance(grade, str):  # no number: an annotator's unrateable mark said
                # in their grade_ column as they wrote it (read back as that mark), else blank;
                # one annotator's (no grade_ column): the grade column's state word
                if grade == "unrateable":
                    assert read_grade(cell).state is GradeState.UNRATEABLE, (q, s, who, cell)
                else:
                    assert cell == "", (q, s, who)
            else:
                assert float(cell) == grade, (q, s, who)


# -- the wizard's guessing function -----------------------------------------------------
@pytest.mark.parametrize("name", SHEETS)
def test_the_wizard_s_guess_gives_the_written_grades(name: str):
    """What the wizard proposes (sheet, header row, mapping, rubric from the
    labels), then the import it runs with that rubric declared."""
    expected = EXPECTED[name]
    flags = expected["flags"]
    p = preview(DATA / name)
    assert p.sheet == expected["sheet"]
    assert p.header_row + 1 == expected["header_row"]
    fields = dict(x.split("=", 1) for x in _flag_values(flags, "--map"))
    mapping = p.mapping
    if fields:  # what the user chooses in the mapping page
        mapping = guess_mapping(read_guessed(DATA / name), fields=fields)
    assert _mapping_names(mapping, p.header) == expected["mapping"]
    declared = _flag_values(flags, "--rubric")
    if declared:  # labels on no known scale: the wizard names them for the user
        assert set(p.unmapped) == set(expected["labels"])
        rubric = Rubric.parse(declared[0])
    else:
        assert p.unmapped == {}
        for label, grade in expected["labels"].items():
            assert p.label_grades[label] == grade, label
        rubric = p.rubric
    if expected["rubric"] is not None:  # read from the file: its labels' scale, its numbers
        assert p.rubric is not None
        assert p.rubric.text == expected["rubric"]
    rule = NAMES.get(expected["consensus"], expected["consensus"])
    result = import_annotations(DATA / name, mapping, sheet=p.sheet, rubric=rubric,
                                consensus=rule, rounding=expected["rounding"], guess=False)
    doc, report = result.document, result.report
    assert report.judgments_imported + len(report.rejected_judgments) == report.judgments_read
    assert [[r, c] for r, c, _ in report.rejected_judgments] == expected["rejected"]
    index = {(doc.query_ids[int(doc.query[i])], str(doc.source_id[i])): i
             for i in range(len(doc))}
    judged = _by_candidate(expected)
    states = {"number": GradeState.NUMBER, "unknown": GradeState.UNKNOWN,
              "unrateable": GradeState.UNRATEABLE}
    for q, s, value, state in expected["candidates"]:
        i = index[(q, s)]
        assert doc.state[i] == states[state], (q, s)
        if value is not None:
            assert doc.grade[i] == pytest.approx(value, abs=1e-12)
        for who, grade in judged[(q, s)].items():
            got = (doc.ratings[i, doc.annotators.index(who)] if who and doc.ratings is not None
                   else doc.grade[i])
            if isinstance(grade, str):
                assert math.isnan(got), (q, s, who)
            else:
                assert got == grade, (q, s, who)


# -- what cannot be read without flags: one clear line each ----------------------------
def test_unknown_labels_without_a_rubric_is_one_line_naming_them(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    sheet = DATA / "unknown_labels.csv"
    code, out, err = run_cli(["import", str(sheet), "-o", str(tmp_path / "o.csv")], capsys)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1
    # the first such label's line and column named, as every refusal does
    assert err.startswith(f"ndcg-worksheet: error: {sheet}, line 2, column 'label': labels on "
                          "no known scale")
    for label in ("'meh'", "'kinda'", "'spot on'"):
        assert label in err
    assert "--rubric" in err
    assert not (tmp_path / "o.csv").exists()


def test_no_recognisable_query_column_is_one_line_naming_the_flag(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    """Neither the headers nor the values tell the query: every column holds
    a different value on every row, so none groups the others."""
    sheet = tmp_path / "ids.csv"
    sheet.write_text("who,thing,judge1\na1,b1,1\na2,b2,2\na3,b3,0\n", encoding="utf-8")
    code, out, err = run_cli(["import", str(sheet), "-o", str(tmp_path / "o.csv")], capsys)
    assert code == 2
    assert out == ""
    assert err == (f"ndcg-worksheet: error: {sheet}: no query column found in the header on "
                   "row 1 (A (who), B (thing), C (judge1)) (pass --map "
                   "query=COLUMN, or name the column query/qid/query_id/topic; --header-row N "
                   "if the header is another row)\n")


def test_a_mapped_column_that_does_not_exist_is_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    sheet = DATA / "no_query_column.csv"
    code, _out, err = run_cli(["import", str(sheet), "-o", str(tmp_path / "o.csv"),
                               "--map", "query=Topic"], capsys)
    assert code == 2
    assert err.count("\n") == 1
    assert "no column 'Topic' in the header (A (who), B (thing)" in err


# -- the outputs -------------------------------------------------------------------------
def test_the_workbook_keeps_every_annotator_s_grade(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]):
    out = tmp_path / "batch7.xlsx"
    code, text, _ = run_cli(["import", str(DATA / "issue_batch7.xlsx"), "-o", str(out)],
                            capsys)
    assert code == 0
    assert f"wrote {out}: 20 candidates" in text
    doc = read_workbook(out)
    assert doc.annotators == ["Annotator A", "Annotator B", "Annotator C"]
    judged = _by_candidate(EXPECTED["issue_batch7.xlsx"])
    assert doc.ratings is not None
    for i in range(len(doc)):
        key = (doc.query_ids[int(doc.query[i])], str(doc.source_id[i]))
        want = [judged[key][w] for w in doc.annotators]
        want = [np.nan if isinstance(g, str) else g for g in want]
        np.testing.assert_array_equal(doc.ratings[i], want)
    assert doc.conventions.rubric == Rubric.parse(
        "0=Not relevant,1=Relevant,2=Highly relevant")


def test_consensus_and_rounding_spellings(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    """The issue's spellings (min, max, ceil) are the conventions' minimum,
    maximum, ceiling."""
    sheet = DATA / "wide_grade_columns.csv"
    grades = {}
    for rule, rounding in (("min", "ceil"), ("minimum", "ceiling"), ("max", "none")):
        out = tmp_path / f"{rule}-{rounding}.csv"
        assert run_cli(["import", str(sheet), "-o", str(out), "--consensus", rule,
                        "--rounding", rounding], capsys)[0] == 0
        with open(out, newline="", encoding="utf-8") as fh:
            grades[rule] = [r["grade"] for r in csv.DictReader(fh)]
    # by hand: alice, bob, chen = (2,3,2) (1,?,2) (0,-,skip) (n/a,,1) (3,3,2) (1,2,)
    assert grades["min"] == grades["minimum"] == ["2", "1", "0", "1", "2", "1"]
    assert grades["max"] == ["3", "2", "0", "1", "3", "2"]


def test_reading_never_changes_the_sheets() -> None:
    before = {n: (DATA / n).read_bytes() for n in SHEETS}
    for name in SHEETS:
        read_table(DATA / name)
    assert {n: (DATA / n).read_bytes() for n in SHEETS} == before


def test_a_rubric_declared_by_the_user_wins(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]):
    """The issue: '--rubric' with the labels spelt otherwise still reads them
    (case and spaces ignored), and the user's grades win over the known scale."""
    sheet = DATA / "issue_batch7.xlsx"
    out = tmp_path / "o.csv"
    code, _text, err = run_cli(["import", str(sheet), "-o", str(out), "--rubric",
                                "1=not relevant,2=relevant,3=HIGHLY RELEVANT",
                                "--consensus", "median"], capsys)
    assert (code, err) == (0, "")
    with open(out, newline="", encoding="utf-8") as fh:
        got = {(r["query"], r["source_id"]): r["grade"] for r in csv.DictReader(fh)}
    judged = _by_candidate(EXPECTED["issue_batch7.xlsx"])
    for key, grades in judged.items():
        nums = sorted(g + 1 for g in grades.values() if not isinstance(g, str))
        want = "" if not nums else float(np.median(nums))
        assert (float(got[key]) if got[key] not in ("", "unrateable") else "") == want, key


def test_import_writes_trec_qrels_of_the_consensus(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]):
    out = tmp_path / "run12.qrels"
    code, _text, err = run_cli(["import", str(DATA / "run_12_judgments.xlsx"), "-o", str(out)],
                               capsys)
    # what the qrels lose is said first, as export -o OUT.qrels says it
    assert code == 0
    assert err.splitlines() == [
        "ndcg-worksheet: warning: not kept in the qrels written: " + lost for lost in (
            "the ranking (the scores of 8 candidates)",
            "2 grades that are not whole numbers (written with their decimals; trec_eval "
            "reads whole numbers)",
            "the conventions declared (rubric: 0=Bad,1=Fair,2=Good,3=Excellent,4=Perfect)",
            "the individual grades of 2 annotators", "the texts of 2 queries")]
    want = {(q, s): v for q, s, v, _ in EXPECTED["run_12_judgments.xlsx"]["candidates"]}
    lines = [line.split() for line in out.read_text("utf-8").splitlines()]
    assert {(q, s): float(g) for q, it, s, g in lines if it == "0"} == want
    # ids with spaces cannot be qrels ids: one line naming the sheet and the flag
    code, _text, err = run_cli(["import", str(DATA / "label_studio_export.csv"), "-o",
                                str(tmp_path / "ls.qrels")], capsys)
    assert code == 2
    assert err.count("\n") == 1
    assert "the query 'what is ndcg' holds spaces" in err
    assert "--map query=COLUMN" in err
    assert not (tmp_path / "ls.qrels").exists()


def test_keep_imports_the_rows_the_platform_marks(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]):
    """Toloka's control tasks and its rejected assignment are skipped by
    default; --keep control,rejected imports them as judgments."""
    sheet = DATA / "toloka_assignments.tsv"
    report_path = tmp_path / "r.json"
    code, out, err = run_cli(["import", str(sheet), "-o", str(tmp_path / "o.csv"), "--report",
                              str(report_path)], capsys)
    assert (code, err) == (0, "")
    assert "skipped: 6 control, 1 rejected (pass --keep control,rejected to import them)" in out
    report = json.loads(report_path.read_text("utf-8"))
    assert report["imported"] == 30 - 7
    assert report["skipped"][0]["reason"] == (
        "a control task (a test question with a known answer): GOLDEN:relevance is '2'")
    code, out, err = run_cli(["import", str(sheet), "-o", str(tmp_path / "o.csv"), "--report",
                              str(report_path), "--keep", "control,rejected"], capsys)
    assert (code, err) == (0, "")
    report = json.loads(report_path.read_text("utf-8"))
    assert (report["imported"], report["excluded"], report["skipped"]) == (30, {}, [])
    code, out, err = run_cli(["import", str(sheet), "-o", str(tmp_path / "o.csv"),
                              "--keep", "golden"], capsys)
    assert code == 2
    assert ("'golden' is no kind of row (kinds: control, rejected, preview, cancelled, "
            "skipped, draft)") in err


def test_order_rows_declares_the_row_order_a_ranking(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]):
    sheet = DATA / "judgments_no_score.csv"
    out_csv = tmp_path / "o.csv"
    code, out, err = run_cli(["import", str(sheet), "-o", str(out_csv), "--order", "rows"],
                             capsys)
    assert (code, err) == (0, "")
    assert "the row order is the ranking, as --order rows declares" in out
    with open(out_csv, newline="", encoding="utf-8") as fh:
        scores = [r["score"] for r in csv.DictReader(fh)]
    # each candidate's first row (header on row 1, two assessors per url)
    assert scores == ["-2", "-4", "-6", "-8", "-10", "-12"]


def _report_lines(path: Path) -> list[str]:
    import openpyxl

    from core.io.workbook import SHEETS

    wb = openpyxl.load_workbook(path, read_only=True)
    try:
        return [str(r[0]) for r in wb[SHEETS["report"]].iter_rows(max_col=1, values_only=True)
                if r[0] is not None]
    finally:
        wb.close()


def test_order_rows_is_said_and_kept_by_the_workbook(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]):
    sheet = DATA / "judgments_no_score.csv"
    declared, plain = tmp_path / "declared.xlsx", tmp_path / "plain.xlsx"
    for out, extra in ((declared, ["--order", "rows"]), (plain, [])):
        code, _out, err = run_cli(["import", str(sheet), "-o", str(out), *extra], capsys)
        assert (code, err) == (0, "")
    said = [line for line in _report_lines(declared) if line.startswith("Ranking:")]
    assert said == ["Ranking: the sheet's row order, declared a ranking when the judgments "
                    "were imported (score = -row number): no run supplied it."]
    assert not [line for line in _report_lines(plain) if line.startswith("Ranking:")]
    back = read_workbook(declared)
    assert back.ranking == "rows"
    assert back.score.tolist() == [-2.0, -4.0, -6.0, -8.0, -10.0, -12.0]
    assert read_workbook(plain).ranking == ""
    # saved again by the app, the declaration stays
    from core.engine.evaluation import evaluate
    from core.io.workbook import export_workbook

    again = tmp_path / "again.xlsx"
    export_workbook(evaluate(back), again)
    assert read_workbook(again).ranking == "rows"
    assert any(line.startswith("Ranking: the sheet's row order") for line in _report_lines(again))


def test_two_scales_fitting_alike_are_named_with_the_rubric_to_pass(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    sheet = tmp_path / "only_relevant.csv"
    sheet.write_text("query,doc,annotator,label\nq1,d1,a,Relevant\nq1,d1,b,Relevant\n"
                     "q1,d2,a,\nq1,d2,b,Relevant\nq2,d3,a,Relevant\n", encoding="utf-8")
    code, _out, err = run_cli(["import", str(sheet), "-o", str(tmp_path / "o.csv")], capsys)
    assert code == 2
    assert err.count("\n") == 1
    assert ("the labels fit two known scales that grade them otherwise: not relevant / "
            "relevant / highly relevant (0=Not relevant,1=Relevant,2=Highly relevant); "
            "irrelevant / partially relevant / relevant (0=Irrelevant,1=Partially relevant,"
            "2=Relevant)") in err
    assert '--rubric "0=Irrelevant,1=Partially relevant,2=Relevant"' in err
    code, _out, err = run_cli(["import", str(sheet), "-o", str(tmp_path / "o.csv"),
                               "--rubric", "0=Irrelevant,1=Partially relevant,2=Relevant"],
                              capsys)
    assert (code, err) == (0, "")


def test_lists_that_do_not_pair_are_one_line_naming_file_row_and_columns(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    """A cell of two ratings beside a cell of one user: which rating is
    whose cannot be told; one line names the place and what was found."""
    sheet = tmp_path / "argilla.csv"
    sheet.write_text('query,document,relevance.responses,relevance.responses.users\n'
                     'q1,d1,"[2, 1]","[""u1"", ""u2""]"\n'
                     'q1,d2,"[0, 3]","[""u1""]"\n', encoding="utf-8")
    code, out, err = run_cli(["import", str(sheet), "-o", str(tmp_path / "o.csv")], capsys)
    assert (code, out) == (2, "")
    assert err == (f"ndcg-worksheet: error: {sheet}, line 3: lists of different lengths side "
                   "by side: relevance.responses (2), relevance.responses.users (1) (each "
                   "rating needs its user, in lists of one length)\n")
    records = tmp_path / "argilla.jsonl"
    records.write_text('{"query": "q1", "document": "d1", "relevance.responses": [2, 1], '
                       '"relevance.responses.users": ["u1"]}\n', encoding="utf-8")
    code, out, err = run_cli(["import", str(records), "-o", str(tmp_path / "o.csv")], capsys)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1
    assert f"{records}, line 1: lists of different lengths side by side: " \
        "relevance.responses (2), relevance.responses.users (1)" in err


def test_labels_beside_a_grade_named_so_are_said_left_out(tmp_path: Path):
    """``relevance`` of labels on no known scale beside ``grade`` of numbers:
    the column named ``grade`` is the grades, and the labels' column says
    why it is left out and the flag that takes it (it said '4 distinct
    values, no role read from them')."""
    labels = ["Vital", "Useful", "Marginal", "Useless"]
    rows = [["query", "doc", "relevance", "grade"]]
    rows += [[f"q{q}", f"d{q}{d}", labels[(q + d) % 4], 1 + (q * d) % 4]
             for q in range(2) for d in range(4)]
    report = import_annotations(write_csv(tmp_path / "both.csv", rows)).report
    assert report.mapping is not None
    assert report.mapping.grade == 3
    assert [(c.reason, c.flag) for c in report.columns if c.header == "relevance"] == [(
        "relevance: labels on no known scale (Marginal, Useful, Useless, Vital), beside grade, "
        "the grade column by its name; not imported (if relevance holds the grades, pass "
        "--map grade=C with --rubric giving each label its grade)", "--map grade=C")]


def test_a_gold_answer_is_said_as_one(tmp_path: Path):
    """Mechanical Turk's ``Input.gold`` (a control task's known answer, given
    with the task) is left out as what it is, never as 'a grade combined
    from several' (the annotators' consensus it is not)."""
    rows = [["HITId", "WorkerId", "Input.query", "Input.doc_id", "Input.gold",
             "Answer.relevance"]]
    rows += [[f"H{q}{d}", w, f"q{q}", f"d{q}{d}", 2 if d == 0 else "", (q + d + k) % 4]
             for q in range(2) for d in range(3) for k, w in enumerate(("W1", "W2"))]
    report = import_annotations(write_csv(tmp_path / "gold.csv", rows)).report
    assert [c.reason for c in report.columns if c.header == "Input.gold"] == [
        "Input.gold: a known answer given with the task (gold, to check the workers), not a "
        "grade of this sheet's annotators; not imported"]
    assert report.judgments_imported == 12


def test_prodigy_tasks_ignored_or_declined_are_skipped_and_counted(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    """Prodigy's ``answer = ignore`` (and ``reject`` beside the choice that is
    the grade) gives no judgment: skipped and counted, never an unknown grade;
    ``--keep skipped`` reads them all the same."""
    sheet, report_path = DATA / "prodigy_choice.jsonl", tmp_path / "r.json"
    code, out, err = run_cli(["import", str(sheet), "-o", str(tmp_path / "o.csv"),
                              "--report", str(report_path)], capsys)
    assert (code, err) == (0, "")
    # their rows hold no grade (accept: []): --keep skipped imports no judgment
    # of them (below), so it is not offered (it was 'pass --keep skipped')
    assert ("skipped: 2 skipped (the skipped rows hold no grade in the grade column: nothing "
            "to keep)") in out
    report = json.loads(report_path.read_text("utf-8"))
    assert [(s["row"], s["reason"]) for s in report["skipped"]] == [
        (5, "a task the annotator skipped or declined, no judgment: answer is 'ignore'"),
        (10, "a task the annotator skipped or declined, no judgment: answer is 'reject'")]
    assert report["judgments_read"] == report["imported"] == 13
    doc = import_annotations(sheet).document
    carol = doc.annotators.index("relevance-carol")
    # carol judged one task: her other two records give no grade, not an unknown one
    assert int(np.count_nonzero(~np.isnan(doc.ratings[:, carol]))) == 1
    assert not (doc.state == GradeState.UNKNOWN).any()
    code, out, err = run_cli(["import", str(sheet), "-o", str(tmp_path / "o.csv"),
                              "--report", str(report_path), "--keep", "skipped"], capsys)
    assert (code, err) == (0, "")
    report = json.loads(report_path.read_text("utf-8"))
    # the tasks ignored or declined hold no grade: no judgment read (they were 2 more)
    assert (report["excluded"], report["judgments_read"], report["blank_grades"]) == ({}, 13, 2)
    # a binary task: the answer is the grade (accept / reject), ignore is no grade
    binary = tmp_path / "binary.jsonl"
    binary.write_text("".join(json.dumps(
        {"query": "q1", "doc_id": f"d{d}", "text": "...", "answer": answer,
         "_annotator_id": who, "_view_id": "classification"}) + "\n"
        for d, who, answer in [(0, "ana", "accept"), (0, "ben", "reject"), (1, "ana", "ignore"),
                               (1, "ben", "accept"), (2, "ana", "reject"), (2, "ben", "reject")]),
        encoding="utf-8")
    result = import_annotations(binary, rubric=Rubric.parse("0=reject,1=accept"))
    assert result.report.excluded == {"skipped": 1}
    assert result.report.skipped_rows == [  # (ana's ignore: line 3 of the file)
        (3, "a task the annotator skipped or declined, no judgment: answer is 'ignore'")]
    assert result.report.judgments_read == result.report.judgments_imported == 5
    got = {str(s): float(g) for s, g in zip(result.document.source_id, result.document.grade,
                                            strict=True)}
    assert got == {"d0": 0.5, "d1": 1.0, "d2": 0.0}


def test_a_long_sheet_s_second_header_row_is_no_judgment(tmp_path: Path):
    """A row of column descriptions under the header (texts no answer repeats,
    over a column of grades) is one more header row: the header's, said in
    the notes, never a rejected judgment nor a blank row (it was counted as
    one); the columns keep the names above it; the rows keep the file's
    numbers."""
    sheet = tmp_path / "described.csv"
    lines = ["query,doc_id,annotator,relevance",
             "The search as typed,Id of the page in the index,Who judged,"
             "How well the page answers the search (see the guidelines)"]
    lines += [f"q{q},d{d},{who},{(q + d + k) % 4}" for q in range(2) for d in range(3)
              for k, who in enumerate(("ana", "ben"))]
    sheet.write_text("\n".join(lines) + "\n", encoding="utf-8")
    report = import_annotations(sheet).report
    assert (report.judgments_read, report.judgments_imported) == (12, 12)
    assert report.rejected_judgments == []
    assert report.blank_rows == 0
    assert ("rows 1-2 read as one header; row 2 describing the columns, read as no names; "
            "no judgment read from them") in report.notes
    assert report.headline().startswith(f"{sheet}: long layout, header on rows 1-2 (read as "
                                        "one); 12 judgments read in 12 rows")
    assert [c.header for c in report.columns] == ["query", "doc_id", "annotator", "relevance"]
    assert report.notes.count("rubric: 0,1,2,3") == 1


def test_a_first_row_graded_by_a_word_under_named_columns_is_a_judgment(tmp_path: Path):
    """A first query of three rows, its first graded by a word (a new
    user's trial: ``unsure``, declared unrateable; ``?``, unknown): its id
    is like the ids below and its query comes again on the next rows, so
    the row is data, not a second header row ('1 blank row skipped', the
    judgment gone, before)."""
    for word, state in (("unsure", GradeState.UNRATEABLE), ("?", GradeState.UNKNOWN)):
        sheet = tmp_path / "first.csv"
        sheet.write_text(f"query_id,passage_id,grade\nq1,doc-0131,{word}\nq1,doc-0061,2\n"
                         "q1,doc-0254,0\nq2,doc-0007,3\nq2,doc-0099,1\nq2,doc-0100,2\n",
                         encoding="utf-8")
        mapping = guess_mapping(read_guessed(sheet))
        if word == "unsure":  # --unrateable unsure
            mapping = mapping.replace(unrateable_marks=(*mapping.unrateable_marks, "unsure"))
        result = import_annotations(sheet, mapping)
        report = result.report
        assert (report.judgments_read, report.blank_rows) == (6, 0), word
        doc = result.document
        assert [str(s) for s in doc.source_id] == ["doc-0131", "doc-0061", "doc-0254",
                                                   "doc-0007", "doc-0099", "doc-0100"]
        assert GradeState(doc.state[0]) == state, word
        assert not any("more header rows" in n for n in report.notes), word


def test_a_list_of_ratings_without_its_users_is_one_line_naming_the_column(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    sheet = tmp_path / "ratings.csv"
    sheet.write_text('query,document,relevance.responses\nq1,d1,"[2, 1]"\nq1,d2,3\n'
                     'q2,d3,"[0, 1, 1]"\n', encoding="utf-8")
    code, out, err = run_cli(["import", str(sheet), "-o", str(tmp_path / "o.csv")], capsys)
    assert (code, out) == (2, "")
    assert err.startswith(f"ndcg-worksheet: error: {sheet}, line 2, column "
                          "'relevance.responses': the grade column 'relevance.responses' holds "
                          "a list of ratings ([2, 1]) with no list of their users beside it")
    assert err.count("\n") == 1
