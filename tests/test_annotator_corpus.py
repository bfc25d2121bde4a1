"""Annotators' sheets as they really arrive (tests/data/annotators/, made by
tests/data/make_annotators.py): each imported without flags (those that need
flags, with them) through the command line and through the wizard's
guessing function, compared with the grades it was written from."""

from __future__ import annotations

import csv
import io
import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import xlsxwriter

from app.cli.main import main
from core.io.annotator import import_annotations, preview, read_table
from core.io.annotator.command import import_sheet
from core.io.annotator.detect import read_guessed
from core.io.annotator.overrides import guess_mapping
from core.io.load import load_document
from core.io.workbook import read_workbook
from core.model.conventions import Rubric
from core.model.document import GradeState
from core.model.grades import read_grade
from core.model.numbers import counted

DATA = Path(__file__).parent / "data" / "annotators"
EXPECTED: dict[str, dict[str, Any]] = json.loads((DATA / "expected.json").read_text("utf-8"))
SHEETS = sorted(EXPECTED)
NAMES = {"min": "minimum", "max": "maximum"}


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    out = io.StringIO()
    code = main(args, out)
    return code, out.getvalue(), capsys.readouterr().err


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
        if value is None:
            assert row["grade"] == ""  # no annotator gave a number: empty, never 0
        else:
            assert float(row["grade"]) == pytest.approx(value, abs=1e-12), (q, s)
        for who, grade in judged[(q, s)].items():
            cell = row[f"grade_{who}"] if who else row["grade"]
            if isinstance(grade, str):  # no number: an annotator's unrateable mark said
                # in their grade_ column as they wrote it (read back as that mark), else blank
                if who and grade == "unrateable":
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


# -- an annotators' sheet as the judgments of a run -------------------------------------
def test_evaluate_a_run_with_a_sheet_as_qrels(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]):
    """The sheet (no flags) and TREC qrels of its consensus give the same numbers."""
    run = DATA / "run_12.run"
    expected = EXPECTED["run_12_judgments.xlsx"]
    qrels = tmp_path / "same.qrels"
    qrels.write_text("".join(f"{q} 0 {s} {v!r}\n" for q, s, v, _ in expected["candidates"]),
                     encoding="utf-8")
    code, from_sheet, err = run_cli(["evaluate", str(run), "--qrels",
                                     str(DATA / "run_12_judgments.xlsx"), "--format", "json"],
                                    capsys)
    assert code == 0
    # the columns left out, said (they were in import's --report alone)
    assert err == (f"ndcg-worksheet: note: {DATA / 'run_12_judgments.xlsx'}: left out, not "
                   "imported: Title (8 "
                   "distinct values, no role read from them)\n")
    code, from_qrels, _ = run_cli(["evaluate", str(run), "--qrels", str(qrels),
                                   "--format", "json"], capsys)
    assert code == 0
    a, b = json.loads(from_sheet), json.loads(from_qrels)
    # the sheet names each query's text (its Query column), the qrels none
    assert [q.pop("query_text") for q in a["queries"]] == [
        "noise cancelling headphones", "espresso grinder"]
    assert a["queries"] == b["queries"]
    assert a["summary"] == b["summary"]
    assert a["summary"][0]["included"] == 2
    doc = load_document(run, qrels=DATA / "run_12_judgments.xlsx")
    grades = {(q, s): v for q, s, v, _ in expected["candidates"]}
    for i in range(len(doc)):
        key = (doc.query_ids[int(doc.query[i])], str(doc.source_id[i]))
        assert doc.grade[i] == pytest.approx(grades[key])


def test_a_sheet_with_unknown_labels_as_qrels_is_one_line(capsys: pytest.CaptureFixture[str]):
    code, _out, err = run_cli(["evaluate", str(DATA / "run_12.run"), "--qrels",
                               str(DATA / "unknown_labels.csv")], capsys)
    assert code == 2
    assert err.count("\n") == 1
    assert "labels on no known scale and in no rubric: 'kinda' (3), 'spot on' (3), 'meh' (2)" \
        in err
    assert "ndcg-worksheet import unknown_labels.csv -o judgments.qrels" in err


def test_trec_qrels_are_still_read_as_trec(tmp_path: Path) -> None:
    from core.io.annotator.qrels import is_judgment_sheet

    qrels = tmp_path / "q.txt"
    qrels.write_text("7 0 B07001X 2\n", encoding="utf-8")
    assert not is_judgment_sheet(qrels)
    tabbed = tmp_path / "q.tsv"
    tabbed.write_text("7\t0\tB07001X\t2\n", encoding="utf-8")
    assert not is_judgment_sheet(tabbed)
    assert is_judgment_sheet(DATA / "qid_docno_rater_rating.csv")
    assert is_judgment_sheet(DATA / "excel_unicode_text.txt")
    assert is_judgment_sheet(DATA / "run_12_judgments.xlsx")


def test_a_label_studio_json_export_is_judgments_given_as_qrels(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A Label Studio JSON export, indented as it is written (its first
    line "["), given as the qrels of a TREC run and of a JSON run whose
    query ids are questions: its annotations are the judgments, as the
    same export as CSV gives (was: read as TREC qrels, "line 1: expected 4
    fields (query iteration source grade), found 1"); ranx's JSON qrels
    stay qrels."""
    import json

    from core.io.annotator.qrels import is_judgment_sheet

    tasks, run, trec = [], {}, []
    for qi, (query, qid) in enumerate((("how do I reset my password", "q1"),
                                       ("vpn drops every hour", "q2"))):
        for d, grade in enumerate((2, 0, 1)):
            doc, score = f"kb-{qi}{d}#p1", 9.5 - d
            tasks.append({"id": len(tasks) + 1, "data": {"query": qid, "doc_id": doc},
                          "annotations": [{"completed_by": w + 1, "result": [{
                              "from_name": "rel", "to_name": "text", "type": "choices",
                              "value": {"choices": [str(grade)]}}]} for w in range(2)]})
            run.setdefault(query, {})[doc] = score
            trec.append(f"{qid} Q0 {doc} 0 {score} bm25\n")
    export = tmp_path / "project-3-at-2026-12-07.json"
    export.write_text(json.dumps(tasks, indent=2), encoding="utf-8")
    assert is_judgment_sheet(export)
    ranx = tmp_path / "qrels.json"
    ranx.write_text(json.dumps({"q1": {"kb-00#p1": 2}}), encoding="utf-8")
    assert not is_judgment_sheet(ranx)
    (tmp_path / "run.txt").write_text("".join(trec), encoding="utf-8")
    code, text, err = run_cli(["evaluate", str(tmp_path / "run.txt"), "--qrels", str(export),
                               "--format", "csv"], capsys)
    assert code == 0
    assert err == (  # the columns left out, said (they were in import's --report alone)
        f"ndcg-worksheet: note: {export}: 4 columns left out, not imported: id, "
        "annotations.result.from_name, annotations.result.to_name, annotations.result.type "
        f"(`ndcg-worksheet import {export.name} -o OUT.csv --report REPORT.json` says why "
        "each); id: numbers 1 to 6, one per item; if this is the ranking, pass --map score=id\n")
    # grades 2, 0, 1 ranked so: DCG 2 + 1/2, ideal 2 + 1/log2(3)
    assert "\nq1,all,2.5,2.6309297535714578,0.9502344167898356,ok,3,3\n" in text
    for task in tasks:  # the questions themselves as the ids, beside a JSON run
        task["data"]["query"] = {"q1": "how do I reset my password",
                                 "q2": "vpn drops every hour"}[task["data"]["query"]]
    export.write_text(json.dumps(tasks, indent=2), encoding="utf-8")
    (tmp_path / "run.json").write_text(json.dumps(run), encoding="utf-8")
    code, text, err = run_cli(["evaluate", str(tmp_path / "run.json"), "--qrels", str(export),
                               "--format", "csv"], capsys)
    assert code == 0
    assert "left out, not imported: id, " in err
    assert ("\nhow do I reset my password,all,2.5,2.6309297535714578,0.9502344167898356,ok,"
            "3,3\n") in text


def test_runs_are_compared_on_an_annotators_sheet(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """``compare RUN RUN --qrels SHEET`` (and three runs) joins each run
    with the sheet's judgments as ``evaluate RUN --qrels SHEET`` does: the
    same means (was: the sheet read as TREC qrels, "line 1: expected 4
    fields (query iteration source grade), found 1"); a query the sheet
    does not judge named as the sheet, not a temporary copy."""
    sheet = tmp_path / "judgments.csv"
    sheet.write_text("query,doc,annotator,grade\n" + "".join(
        f"q{q},d{q}{d},{who},{(q + d + w) % 4}\n" for q in range(1, 4) for d in range(4)
        for w, who in enumerate(("ana", "ben"))), encoding="utf-8")
    runs = []
    for name, order in (("a", (0, 1, 2, 3)), ("b", (3, 2, 1, 0)), ("c", (1, 0, 3, 2))):
        path = tmp_path / f"run_{name}.txt"
        path.write_text("".join(f"q{q} Q0 d{q}{d} 0 {10 - r} {name}\n" for q in range(1, 4)
                                for r, d in enumerate(order)), encoding="utf-8")
        runs.append(str(path))
    means = []
    for run in runs:
        code, text, err = run_cli(["evaluate", run, "--qrels", str(sheet), "--format", "json"],
                                  capsys)
        assert (code, err) == (0, "")
        means.append(json.loads(text)["summary"][0]["mean"])
    assert len(set(means)) == 3
    code, text, err = run_cli(["compare", runs[0], runs[1], "--qrels", str(sheet),
                               "--format", "json"], capsys)
    assert (code, err) == (0, "")
    got = json.loads(text)
    assert (got["cutoffs"][0]["mean_a"]["mean"], got["cutoffs"][0]["mean_b"]["mean"]) == (
        means[0], means[1])
    code, text, err = run_cli(["compare", *runs, "--qrels", str(sheet), "--format", "json"],
                              capsys)
    assert (code, err) == (0, "")
    assert list(json.loads(text)["cutoffs"][0]["means"].values()) == means
    other = tmp_path / "other.txt"
    other.write_text("q9 Q0 x 0 1 z\n", encoding="utf-8")
    code, text, err = run_cli(["compare", runs[0], str(other), "--qrels", str(sheet)], capsys)
    assert code == 2
    assert f"no query of the run {other} has judgments in this file" in err
    assert str(sheet) in err
    assert ".qrels" not in err


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
        assert (float(got[key]) if got[key] else "") == want, key


def test_import_writes_trec_qrels_of_the_consensus(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]):
    out = tmp_path / "run12.qrels"
    code, _text, err = run_cli(["import", str(DATA / "run_12_judgments.xlsx"), "-o", str(out)],
                               capsys)
    assert (code, err) == (0, "")
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
    assert f"{records}, line 1: record 1: lists of different lengths side by side: " \
        "relevance.responses (2), relevance.responses.users (1)" in err


def test_a_transposed_sheet_says_the_pattern_its_items_were_read_by(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    report_path = tmp_path / "r.json"
    code, out, err = run_cli(["import", str(DATA / "google_forms_grid.csv"), "-o",
                              str(tmp_path / "o.csv"), "--report", str(report_path)], capsys)
    assert (code, err) == (0, "")
    # the sheet is said as it is (it said 'long layout'), and so are the
    # columns read from its items (they said 'query, named so')
    assert out.startswith(f"{DATA / 'google_forms_grid.csv'}: one row per respondent (read as "
                          "one row per respondent and item), header on row 1; 20 judgments "
                          "read in 4 rows: "), out
    report = json.loads(report_path.read_text("utf-8"))
    assert report["guesses"][1:4] == [
        "query: query, read from the items' headers; 2 values, each on 10 rows on average",
        "source id: source_id, read from the items' headers; 5 values, each on 4 rows on "
        "average", "grade: grade, read from the items' cells; 4 distinct values"]
    notes = report["notes"]
    assert ("one row per respondent, one column per item: the 5 items of columns 'Rate each "
            "result for: cheap flights to rome [https://fly.example/rome]' ... 'Rate each "
            "result for: wool socks [https://blog.example/merino]' read from their headers as "
            "query [source], one row per respondent and item (the rows and columns this report "
            "names are the file's own)") in notes


def test_labels_beside_a_grade_named_so_are_said_left_out(tmp_path: Path):
    """``relevance`` of labels on no known scale beside ``grade`` of numbers:
    the column named ``grade`` is the grades, and the labels' column says
    why it is left out and the flag that takes it (it said '4 distinct
    values, no role read from them')."""
    labels = ["Vital", "Useful", "Marginal", "Useless"]
    rows = [["query", "doc", "relevance", "grade"]]
    rows += [[f"q{q}", f"d{q}{d}", labels[(q + d) % 4], 1 + (q * d) % 4]
             for q in range(2) for d in range(4)]
    report = import_annotations(_csv(tmp_path / "both.csv", rows)).report
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
    report = import_annotations(_csv(tmp_path / "gold.csv", rows)).report
    assert [c.reason for c in report.columns if c.header == "Input.gold"] == [
        "Input.gold: a known answer given with the task (gold, to check the workers), not a "
        "grade of this sheet's annotators; not imported"]
    assert report.judgments_imported == 12


def _data_rows(name: str) -> list[list[str]]:
    """The rows of ``tests/data/annotators/NAME`` (a CSV file), to edit."""
    with open(DATA / name, newline="", encoding="utf-8") as fh:
        return list(csv.reader(fh))


def _csv(path: Path, rows: list[list[Any]]) -> Path:
    with open(path, "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows(rows)
    return path


@pytest.mark.parametrize("points", ["{} / 5", "{}"])
def test_a_quiz_score_in_a_survey_is_no_ranking(tmp_path: Path, points: str):
    """Google Forms in quiz mode writes each respondent's points under
    ``Score`` (``3 / 5``, or ``3``) after the e-mail: one value per
    respondent over all of its items, it ranks none of them. It is left
    out saying so, and the grid's judgments are read as without it (the
    points were read as the ranking's scores, each item's the first
    respondent's; ``3 / 5`` rejected every row)."""
    rows = _data_rows("google_forms_grid.csv")
    for n, r in enumerate(rows):
        r.insert(2, "Score" if n == 0 else points.format((3 * n) % 6))
    sheet = _csv(tmp_path / "quiz.csv", rows)
    result = import_annotations(sheet)
    original = import_annotations(DATA / "google_forms_grid.csv").document
    doc = result.document
    assert list(doc.source_id) == list(original.source_id)
    assert np.array_equal(doc.ratings, original.ratings, equal_nan=True)
    assert np.isnan(doc.score).all()
    assert result.report.mapping.score is None
    why = {c.header: (c.role, c.reason) for c in result.report.columns}
    assert why["Score"] == ("", "Score: named as a ranking's score, but one value per "
                            "respondent (a survey's row), the same over all of its items: it "
                            "ranks no item; not imported")


def test_a_quiz_score_that_rejects_every_row_is_named_with_its_flag(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    """Google Forms' responses one judgment per submission, in quiz mode:
    ``Score`` (``1 / 1``) is taken by its name for the ranking and rejects
    every row; the refusal names the flag that leaves it out (it said
    'check the header row and the column mapping'), which imports the
    judgments as without the column."""
    rows = _data_rows("google_forms_responses.csv")
    for n, r in enumerate(rows):
        r.insert(2, "Score" if n == 0 else f"{n % 2} / 1")
    sheet = _csv(tmp_path / "quiz_responses.csv", rows)
    code, out, err = run_cli(["import", str(sheet), "-o", str(tmp_path / "o.csv")], capsys)
    assert (code, out) == (2, "")
    assert err == (f"ndcg-worksheet: error: {sheet}: no candidate rows to import (first "
                   "problem: row 2, column 'Score': '1 / 1' is not a number; row rejected) "
                   "(pass --map score=none if Score holds no ranking)\n")
    result = import_sheet(sheet, fields={"score": "none"})
    original = import_annotations(DATA / "google_forms_responses.csv").document
    assert np.array_equal(result.document.ratings, original.ratings, equal_nan=True)


def test_a_transposed_sheet_whose_headers_name_no_item_is_refused_without_useless_flags(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    sheet = tmp_path / "survey.csv"
    sheet.write_text("ResponseId,Q1_1,Q1_2,Q1_3,Q2_1\nR_a,1,2,3,4\nR_b,2,2,1,3\nR_c,4,3,3,1\n",
                     encoding="utf-8")
    code, out, err = run_cli(["import", str(sheet), "-o", str(tmp_path / "o.csv")], capsys)
    assert (code, out) == (2, "")
    assert err == (
        f"ndcg-worksheet: error: {sheet}, line 1: one row per respondent and one column per "
        "item (4 columns of grades: Q1_1, Q1_2, Q1_3, ...), but the headers do not say which "
        "query and source each item is (write each item's header as 'query [source]' or "
        "'query - source' (as a survey's grid question names its rows), or turn the sheet "
        "into one row per judgment)\n")
    assert "--map" not in err


def test_judgments_without_a_ranking_claim_no_ndcg() -> None:
    """The sheet's row order is no ranking: nothing is ranked, and no query
    has an NDCG under the default conventions (join a run to evaluate)."""
    from core.engine.evaluation import evaluate

    doc = import_annotations(DATA / "judgments_no_score.csv").document
    assert np.isnan(doc.score).all()
    ev = evaluate(doc)
    assert np.isnan(ev.ndcg).all()
    assert {ev.status(q).value for q in range(doc.n_queries)} == {"unranked"}


def test_a_formula_in_a_transposed_workbook_is_still_refused(tmp_path: Path) -> None:
    import xlsxwriter

    path = tmp_path / "grid.xlsx"
    wb = xlsxwriter.Workbook(str(path))
    ws = wb.add_worksheet("Form Responses 1")
    ws.write_row(0, 0, ["Email Address", "Rate: q1 [http://a.example]",
                        "Rate: q1 [http://b.example]", "Rate: q2 [http://c.example]"])
    ws.write_row(1, 0, ["ana@x.example", 1, 2, 0])
    ws.write_string(2, 0, "ben@x.example")
    ws.write_formula(2, 1, "=1+1", None, 2)
    ws.write_row(2, 2, [2, 1])
    wb.close()
    report = import_annotations(path).report
    # Ben's first item is row 5 of the reshaped table (the header, Ana's three
    # items, then Ben's first); the report names the workbook's own cell, B3.
    # The formula is refused, never read as its value.
    assert [(i.kind, i.row, i.column) for i in report.formulas] == [
        ("formula", 3, "B (Rate: q1 [http://a.example])")]
    assert "cell B3 holds" in report.formulas[0].problem
    assert report.rejected_judgments[0][:2] == (3, "B (Rate: q1 [http://a.example])")
    assert report.judgments_imported == 5


def test_a_transposed_sheet_s_problems_name_the_file_s_row_and_column(tmp_path: Path):
    """Each problem of a sheet with one row per respondent names the file's
    row and the item's column (its letter and header), not the row of the
    table it was reshaped into."""
    sheet = tmp_path / "grid.csv"
    sheet.write_text(
        "Timestamp,Email Address,Rate: q1 [http://a.example],Rate: q1 [http://b.example],"
        "Rate: q2 [http://c.example]\n"
        "3/1/2024 9:00:00,ana@x.example,1,2,0\n"
        "3/1/2024 9:05:00,ben@x.example,2,1.5,1\n"
        "3/1/2024 9:09:00,cy@x.example,0,1,banana\n"
        "3/1/2024 9:12:00,dee@x.example,3,2,2\n"
        "3/1/2024 9:15:00,eli@x.example,1,0,3\n"
        "3/1/2024 9:22:00,ana@x.example,2,2,2\n", encoding="utf-8")
    mapping = guess_mapping(read_guessed(sheet), fields={"annotator": "Email Address"})
    report = import_annotations(sheet, mapping).report
    c, d, e = ("C (Rate: q1 [http://a.example])", "D (Rate: q1 [http://b.example])",
               "E (Rate: q2 [http://c.example])")
    # Ben's 1.5 (row 3), Cy's banana (row 4), Ana again (row 7, first on row 2): in the
    # reshaped table these were rows 6, 10 and 17-19.
    assert [(i.kind, i.row, i.column) for i in report.issues] == [
        ("fractional", 3, d), ("cell rejected", 4, e), ("conflict", 7, c), ("duplicate", 7, d),
        ("conflict", 7, e)]
    assert [(r, col) for r, col, _ in report.rejected_judgments] == [(4, e), (7, c), (7, d),
                                                                      (7, e)]
    assert all("(first on row 2)" in why for _, _, why in report.rejected_judgments[1:])
    assert (report.rows_read, report.header_row) == (6, 1)
    assert str(report.issues[1]).startswith(f"row 4, column {e!r}: label 'banana'")


def test_survey_header_rows_are_told_by_what_they_hold(tmp_path: Path):
    """The Qualtrics export with its status given as numbers and its third
    header row's objects keyed otherwise: the extra header rows are still
    told by what they hold (objects; texts over columns of grades), the items
    read from the question texts, and the preview and test responses skipped
    by the other column of statuses (DistributionChannel)."""
    rows = _data_rows("qualtrics_export.csv")
    status = rows[0].index("Status")
    for r in rows[3:]:
        r[status] = {"IP Address": "0", "Survey Preview": "1", "Survey Test": "2"}[r[status]]
    rows[2] = [c.replace('"ImportId"', '"colKey"') for c in rows[2]]
    sheet = _csv(tmp_path / "survey_numeric.csv", rows)
    report = import_annotations(sheet).report
    assert report.excluded == {"preview": 2}
    assert report.skipped_rows == [
        (4, "a preview response, not a respondent's: DistributionChannel is 'preview'"),
        (8, "a preview response, not a respondent's: DistributionChannel is 'test'")]
    # counted by kind, the value left out (was: "not a respondent'…'test'")
    assert report.row_tally is not None
    assert report.row_tally.skipped == (
        ("a preview response, not a respondent's: DistributionChannel is '…'", 2),)
    assert any("read from their headers as query - source; header rows 1, 2, 3, the items "
               "named on row 2" in n for n in report.notes)
    # respondent 3 left one item blank: no judgment (it was counted as one read)
    assert (report.judgments_read, report.blank_grades, report.rows_read) == (23, 1, 4)
    assert preview(sheet).marked == {"preview": 2}  # what the wizard offers to keep
    original = import_annotations(DATA / "qualtrics_export.csv").document
    doc = import_annotations(sheet).document
    assert doc.query_ids == original.query_ids == ["standing desk converter",
                                                   "how to descale a kettle"]
    assert np.array_equal(doc.ratings, original.ratings, equal_nan=True)
    kept = import_annotations(
        sheet, guess_mapping(read_guessed(sheet)).replace(keep=("preview",))).report
    assert (kept.excluded, kept.judgments_read, kept.blank_grades) == ({}, 35, 1)


@pytest.mark.parametrize("whole", [False, True])
def test_survey_through_prolific_with_timing_and_attention_check(tmp_path: Path, whole: bool):
    """The Qualtrics export as a Prolific study writes it: the participant's
    ``PROLIFIC_PID`` (whose ``pid`` is no passage id), a timing question
    (``Timing - First Click`` ... ``Timing - Click Count``: seconds and a
    count, no items) and an attention check beside the items. The same six
    items and grades are read as without them (refused before: 'the headers
    do not say which query and source each item is'; with the PID kept
    apart, the click count was an item 'Timing', 'Click Count'). Timings in
    whole seconds (``2.000``, ``40.000``: each column alone reads like
    grades) are no items either (they were an item 'Timing' of four
    sources, with grades 2 to 45)."""
    rows = _data_rows("qualtrics_export.csv")
    timing = ["First Click", "Last Click", "Page Submit", "Click Count"]
    rows[0] += [f"Q3_{t}" for t in timing] + ["Q4", "PROLIFIC_PID", "STUDY_ID",
                                              "RecipientEmail"]
    rows[1] += [f"Timing - {t}" for t in timing] + [
        "Attention check: choose Somewhat relevant", "PROLIFIC_PID", "STUDY_ID",
        "Recipient Email"]
    rows[2] += [json.dumps({"ImportId": f"QID3_{t.upper().replace(' ', '_')}"}) for t in timing] + [
        '{"ImportId":"QID4"}', '{"ImportId":"PROLIFIC_PID"}', '{"ImportId":"STUDY_ID"}',
        '{"ImportId":"recipientEmail"}']
    for n, r in enumerate(rows[3:]):
        seconds = [2 + 3 * n, 40 + 7 * n, 52 + 5 * n] if whole else [2.5 + n, 40.75 + n, 41.125 + n]
        r += [*(f"{x:.3f}" for x in seconds), str(6 + n),
              "Somewhat relevant", f"5f8a1c2b3d4e5f6a7b8c9d{n:02d}", "672b0c9a1f2e3d4c5b6a7980", ""]
    sheet = _csv(tmp_path / "prolific_qualtrics.csv", rows)
    result = import_annotations(sheet)
    original = import_annotations(DATA / "qualtrics_export.csv").document
    doc = result.document
    assert doc.query_ids == original.query_ids == ["standing desk converter",
                                                   "how to descale a kettle"]
    assert list(doc.source_id) == list(original.source_id)
    assert np.array_equal(doc.ratings, original.ratings, equal_nan=True)
    assert (result.report.judgments_read, result.report.blank_grades,
            result.report.excluded) == (23, 1, {"preview": 2})
    roles = {c.header: c.role for c in result.report.columns}
    assert roles["Q3_Click Count"] == ""  # not imported
    # the participant's id, one per response, names the people (test_import_crowd_people.py)
    assert (roles["PROLIFIC_PID"], roles["ResponseId"]) == ("annotator", "")
    # each column left out says why, as in a sheet read as it is (all said
    # 'no role; not imported' once the sheet was reshaped)
    why = {c.header: c.reason for c in result.report.columns}
    assert why["StartDate"] == "StartDate: dates and times, not imported"
    assert why["Q3_Last Click"] == (
        "Q3_Last Click: numbers " + ("40 to 75" if whole else "40.75 to 45.75")
        + ", the same on all of each annotator's rows (PROLIFIC_PID): said of who judged, "
        "not of a judgment (no ranking); not imported")
    assert why["RecipientEmail"] == "empty: no row holds a value; not imported"


@pytest.mark.parametrize("timing", [False, True])
def test_a_survey_graded_on_a_slider_keeps_its_items(tmp_path: Path, timing: bool):
    """Items graded 0-100 on a slider spread over many levels, every query
    alike: none is left out as a timing question is (a query's numbers on no
    scale of few levels are no items only where the survey's other queries
    sit on one), beside a timing question to the millisecond or not."""
    pages = ["https://a.example/1", "https://a.example/2", "https://b.example/1"]
    header = ["ResponseId", *(f"q{n // 2 + 1} - {u}" for n, u in enumerate(pages)),
              *(["Timing - First Click", "Timing - Page Submit"] if timing else [])]
    grades = [[15, 40, 85], [0, 72, 100], [33, 50, 64], [90, 7, 48]]
    rows = [header, *([f"R_{i}", *g, *(["2.125", "41.750"] if timing else [])]
                      for i, g in enumerate(grades))]
    result = import_annotations(_csv(tmp_path / "slider.csv", rows))
    doc = result.document
    assert doc.query_ids == ["q1", "q2"]
    assert list(doc.source_id) == pages
    assert doc.ratings is not None
    assert doc.ratings.T.tolist() == grades


def test_a_sheet_with_its_query_and_source_named_by_a_word_stays_as_it_is(tmp_path: Path):
    """The other side of the Prolific case: 'Topic no' and 'Doc URL' name
    the query and the source by one word each, and the grade columns'
    headers ('Annotator A - grade') fit 'query - source': the sheet is
    still read as it is, one column per annotator, never one row per
    respondent with 'Annotator A' for a query."""
    rows = [["Topic no", "Doc URL", "Annotator A - grade", "Annotator B - grade"]]
    rows += [[str(t), f"https://ex.example/{t}/{d}", (t + d) % 4, (t + 2 * d) % 4]
             for t in (401, 402) for d in range(4)]
    sheet = _csv(tmp_path / "two_annotators.csv", rows)
    result = import_annotations(sheet)
    assert result.report.layout == "wide"
    assert result.document.query_ids == ["401", "402"]
    assert result.document.annotators == ["Annotator A", "Annotator B"]


def test_one_formula_grade_is_one_judgment_rejected_with_what_to_do(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    """An Excel sheet whose one grade is a formula: nothing is written but
    the one line with the count, the cell and what to do (the other 3 were
    written and the exit status was 0 before); with --allow-rejected, the
    summary line says '1 judgment rejected' (not '1 judgments'), names its
    cell and says what to do."""
    sheet = tmp_path / "team.xlsx"
    wb = xlsxwriter.Workbook(str(sheet))
    ws = wb.add_worksheet("Judgments")
    ws.write_row(0, 0, ["query", "doc", "judge", "label", "grade"])
    for n, (doc, judge, label) in enumerate([("a", "ana", "Good"), ("b", "ana", "Bad"),
                                             ("a", "ben", "Fair"), ("b", "ben", "Good")]):
        ws.write_row(n + 1, 0, ["kettle descale", doc, judge, label])
        if n == 2:
            ws.write_formula(n + 1, 4, f'=IF(D{n + 2}="Fair",1,0)', None, 1)
        else:
            ws.write(n + 1, 4, {"Good": 2, "Bad": 0}[label])
    wb.close()
    code, out, err = run_cli(["import", str(sheet), "-o", str(tmp_path / "o.csv")], capsys)
    assert (code, out) == (2, "")
    assert err == (f"ndcg-worksheet: error: {sheet}, sheet 'Judgments', row 4, column "
                   "'E (grade)': 1 of the 4 judgments read was rejected, so nothing was "
                   "written; the first: cell E4 holds the formula '=IF(D4=\"Fair\",1,0)'; "
                   "formulas are never evaluated; cell not imported; paste the cells as values "
                   "in the spreadsheet to import them (pass --allow-rejected to import the "
                   "other 3 without it, or fix the sheet; pass --report REPORT.json for the "
                   "list)\n")
    assert not (tmp_path / "o.csv").exists()
    code, out, err = run_cli(["import", str(sheet), "-o", str(tmp_path / "o.csv"),
                              "--allow-rejected"], capsys)
    assert (code, err) == (0, "")
    assert ("\n1 judgment rejected, the first on row 4, column 'E (grade)': cell E4 holds the "
            "formula '=IF(D4=\"Fair\",1,0)'; formulas are never evaluated; cell not imported; "
            "paste the cells as values in the spreadsheet to import them; pass --report "
            "REPORT.json for the list\n") in out


def test_prodigy_tasks_ignored_or_declined_are_skipped_and_counted(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    """Prodigy's ``answer = ignore`` (and ``reject`` beside the choice that is
    the grade) gives no judgment: skipped and counted, never an unknown grade;
    ``--keep skipped`` reads them all the same."""
    sheet, report_path = DATA / "prodigy_choice.jsonl", tmp_path / "r.json"
    code, out, err = run_cli(["import", str(sheet), "-o", str(tmp_path / "o.csv"),
                              "--report", str(report_path)], capsys)
    assert (code, err) == (0, "")
    assert "skipped: 2 skipped (pass --keep skipped to import them)" in out
    report = json.loads(report_path.read_text("utf-8"))
    assert [(s["row"], s["reason"]) for s in report["skipped"]] == [
        (6, "a task the annotator skipped or declined, no judgment: answer is 'ignore'"),
        (11, "a task the annotator skipped or declined, no judgment: answer is 'reject'")]
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
    assert result.report.skipped_rows == [
        (4, "a task the annotator skipped or declined, no judgment: answer is 'ignore'")]
    assert result.report.judgments_read == result.report.judgments_imported == 5
    got = {str(s): float(g) for s, g in zip(result.document.source_id, result.document.grade,
                                            strict=True)}
    assert got == {"d0": 0.5, "d1": 1.0, "d2": 0.0}


def test_a_long_sheet_s_second_header_row_is_no_judgment(tmp_path: Path):
    """A row of column descriptions under the header (texts no answer repeats,
    over a column of grades) is one more header row: left out, said in the
    notes, never a rejected judgment; the rows keep the file's numbers."""
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
    assert report.blank_rows == 1
    assert ("row 2 below the header on row 1 read as more header rows (texts no answer "
            "repeats, where the rows below hold grades and numbers), not as judgments"
            ) in report.notes
    assert report.notes.count("rubric: 0,1,2,3") == 1


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


def computed_sheet(path: Path) -> Path:
    """Three judgments whose grade column is computed from their labels by
    a formula (never evaluated: every judgment rejected)."""
    wb = xlsxwriter.Workbook(str(path))
    ws = wb.add_worksheet("Judgments")
    ws.write_row(0, 0, ["query", "doc", "label", "grade"])
    for r, label in enumerate(["Bad", "Good", "Fair"], start=1):
        ws.write_row(r, 0, ["q1", f"d{r}", label])
        ws.write_formula(r, 3, f'=IF(C{r + 1}="Bad",0,IF(C{r + 1}="Fair",1,2))', None, 0)
    wb.close()
    return path


def test_a_sheet_whose_every_judgment_is_rejected_is_refused_and_nothing_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    """A grade column computed by formulas (never evaluated) rejects every
    judgment: the command line refuses in one line with the count and the
    first rejected cell instead of writing a worksheet of unknown grades; the
    report still lists each one, even under --allow-rejected. One judgment
    left standing is imported when the rejection is allowed."""
    sheet = computed_sheet(tmp_path / "computed.xlsx")
    out_csv, rep = tmp_path / "o.csv", tmp_path / "r.json"
    code, out, err = run_cli(["import", str(sheet), "-o", str(out_csv), "--report", str(rep)],
                             capsys)
    assert (code, out) == (2, "")
    assert err == (f"ndcg-worksheet: error: {sheet}, sheet 'Judgments', row 2, column "
                   "'D (grade)': all 3 judgments read were rejected, so nothing was written; "
                   "the first: cell D2 holds the formula '=IF(C2=\"Bad\",0,IF(C2=\"Fair\",1,2))'"
                   "; formulas are never evaluated; cell not imported; paste the cells as "
                   f"values in the spreadsheet to import them (every one is in {rep})\n")
    assert not out_csv.exists()
    assert len(json.loads(rep.read_text("utf-8"))["rejected"]) == 3
    code, _, err = run_cli(["import", str(sheet), "-o", str(out_csv), "--allow-rejected"],
                           capsys)
    assert code == 2
    assert "all 3 judgments read were rejected, so nothing was written" in err
    assert not out_csv.exists()
    wb = xlsxwriter.Workbook(str(sheet))
    ws = wb.add_worksheet("Judgments")
    ws.write_row(0, 0, ["query", "doc", "grade"])
    ws.write_row(1, 0, ["q1", "d1", 2])
    ws.write_formula(2, 2, "=1+1", None, 2)
    ws.write_row(2, 0, ["q1", "d2"])
    wb.close()
    code, out, err = run_cli(["import", str(sheet), "-o", str(out_csv)], capsys)
    assert (code, out_csv.exists()) == (2, False)
    assert "row 3, column 'C (grade)': 1 of the 2 judgments read was rejected" in err
    code, out, err = run_cli(["import", str(sheet), "-o", str(out_csv), "--allow-rejected"],
                             capsys)
    assert code == 0
    assert "2 judgments read in 2 rows: 1 imported, 1 rejected" in out
    assert out_csv.exists()
    # --help says what README and docs/import.md say: never when every one was.
    with pytest.raises(SystemExit):
        main(["import", "--help"], io.StringIO())
    assert (
        "--allow-rejected write the output even though some judgments were rejected "
        "(without them; each is listed in --report), not when every one was; by default "
        "an import with rejected judgments writes nothing and exits with status 2") in " ".join(
            capsys.readouterr().out.split())


def filtered_sheet(path: Path) -> Path:
    """An Excel sheet of 3 annotators' grades as openpyxl writes it: an
    autofilter over it whose rows of 'chen' are hidden (rows 4, 7, 10, 13),
    and its column A (an internal id) hidden by hand."""
    import openpyxl

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Judgments"
    ws.append(["internal_id", "query", "doc", "annotator", "grade"])
    for n, (q, d, who) in enumerate(((q, d, who) for q in ("q1", "q2") for d in ("a", "b")
                                     for who in ("ana", "ben", "chen")), start=1):
        ws.append([f"x{n}", q, d, who, (n * 7) % 4])
    ws.auto_filter.ref = f"A1:E{ws.max_row}"
    ws.auto_filter.add_filter_column(3, ["ana", "ben"])
    for row in range(2, ws.max_row + 1):
        ws.row_dimensions[row].hidden = ws.cell(row, 4).value == "chen"
    ws.column_dimensions["A"].hidden = True
    wb.save(path)
    return path


HIDDEN_SAID = ("4 rows (4, 7, 10, 13) and 1 column (A) hidden in the sheet (it has a "
               "filter): read all the same, as if shown")


def test_rows_hidden_by_a_filter_and_hidden_columns_are_said_and_read(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    sheet = filtered_sheet(tmp_path / "filtered.xlsx")
    out_csv, rep = tmp_path / "o.csv", tmp_path / "r.json"
    code, out, _ = run_cli(["import", str(sheet), "-o", str(out_csv), "--report", str(rep)],
                           capsys)
    assert code == 0
    lines = out.splitlines()
    assert "12 judgments read in 12 rows: 12 imported, 0 rejected" in lines[0]
    assert lines[1] == HIDDEN_SAID
    report = json.loads(rep.read_text("utf-8"))
    assert report["hidden"] == {"rows": [4, 7, 10, 13], "columns": ["A"], "filtered": True}
    assert report["annotators"] == ["ana", "ben", "chen"]
    result = import_annotations(sheet)
    assert result.report.summary()[1] == HIDDEN_SAID
    shown = tmp_path / "shown.xlsx"
    import openpyxl

    wb = openpyxl.load_workbook(sheet)
    ws = wb.active
    for row in range(2, ws.max_row + 1):
        ws.row_dimensions[row].hidden = False
    ws.column_dimensions["A"].hidden = False
    ws.auto_filter.ref = None
    wb.save(shown)
    code, out, _ = run_cli(["import", str(shown), "-o", str(out_csv)], capsys)
    assert code == 0
    assert "hidden in the sheet" not in out
    assert import_annotations(shown).report.to_json()["hidden"] is None


@pytest.mark.parametrize("size", [5, 97])
def test_hidden_rows_are_found_across_the_pieces_a_sheet_is_unpacked_in(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, size: int):
    """A row's start tag cut between two pieces is still seen hidden."""
    import core.io.safety.hidden as hidden
    from core.io.safety import check_xlsx

    sheet = filtered_sheet(tmp_path / "filtered.xlsx")
    part = check_xlsx(sheet).parts["Judgments"]
    whole = hidden.stream_part

    def pieces(*args: Any) -> Any:
        data = b"".join(whole(*args))
        return (data[i:i + size] for i in range(0, len(data), size))

    monkeypatch.setattr(hidden, "stream_part", pieces)
    found = hidden.xlsx_hidden(sheet, part, str(sheet))
    assert (found.rows, found.columns, found.filtered) == ([4, 7, 10, 13], [1], True)
