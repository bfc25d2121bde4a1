"""The evaluate command: output formats, convention flags, and bad input.
The export command: tests/test_cli_export.py."""

from __future__ import annotations

import argparse
import io
import json
import math
import os
import subprocess
import sys

import pytest

from app.cli.main import build_parser, main
from app.opening import parse_args
from core.io.delimited import read_delimited
from core.model.examples import EXAMPLE_PATH
from tests.conftest import REPO

L = math.log2(3)


def run(args, capsys=None):
    out = io.StringIO()
    code = main(list(args), out=out)
    return code, out.getvalue()


def test_json_shape_and_values():
    code, text = run(["evaluate", str(EXAMPLE_PATH), "--k", "1", "--k", "all", "--format", "json"])
    assert code == 0
    data = json.loads(text)
    assert set(data) >= {"conventions", "queries", "summary"}
    assert data["conventions"]["cutoffs"] == ["1", "all"]
    a = next(q for q in data["queries"] if q["query"] == "case-A")
    assert a["status"] == "ok"
    assert (a["ranked"], a["judged"], a["unknown"]) == (3, 3, 0)
    assert [c["k"] for c in a["cutoffs"]] == [1, None]
    assert a["cutoffs"][1]["ndcg"] == pytest.approx((1 + 3 / L) / (3 + 1 / L), abs=1e-15)
    assert a["cutoffs"][0]["ndcg"] == pytest.approx(1 / 3, abs=1e-15)
    f = next(q for q in data["queries"] if q["query"] == "case-F-zero")
    assert f["status"] == "undefined"
    assert f["cutoffs"][0]["ndcg"] is None
    u = next(q for q in data["queries"] if q["query"] == "case-F-unknown")
    assert u["status"] == "unresolved"
    assert u["cutoffs"][0]["ndcg"] is None
    assert u["cutoffs"][0]["bounds"]["exact"] is True
    s = data["summary"][1]
    assert s["k"] is None
    assert s["included"] == 6
    assert s["excluded"] == {"undefined": 1, "unresolved": 1}


@pytest.mark.parametrize("form", ["csv", "xlsx"])
def test_example_prints_the_bundled_examples_path(form):
    """``ndcg-worksheet example`` prints where the bundled example is in
    this installation (an installed wheel has no resources/example.csv in
    the folder the README's commands run from), and evaluate takes it:
    case A's NDCG is the hand-derived value."""
    from app.launcher import COMMANDS
    from core.model.examples import EXAMPLE_WORKBOOK

    assert "example" in COMMANDS  # (run without loading Qt)
    code, text = run(["example", *(["--format", form] if form == "xlsx" else [])])
    assert code == 0
    path = text.removesuffix("\n")
    assert path == str(EXAMPLE_PATH if form == "csv" else EXAMPLE_WORKBOOK)
    code, text = run(["evaluate", path, "--k", "all", "--format", "json"])
    assert code == 0
    a = next(q for q in json.loads(text)["queries"] if q["query"] == "case-A")
    assert a["cutoffs"][0]["ndcg"] == pytest.approx((1 + 3 / L) / (3 + 1 / L), abs=1e-15)


def test_preset_and_flags_override():
    _, text = run([
        "evaluate", str(EXAMPLE_PATH), "--preset", "sklearn", "--ties", "pessimistic",
        "--format", "json",
    ])
    conv = json.loads(text)["conventions"]
    assert conv["ties"] == "pessimistic"
    assert conv["unknown"] == "zero"
    assert conv["zero_ideal"] == "zero"
    assert conv["matching_presets"] == []
    data = json.loads(text)
    f = next(q for q in data["queries"] if q["query"] == "case-F-zero")
    assert f["cutoffs"][0]["ndcg"] == 0.0  # zero ideal counted as 0 by name


def test_gain_table_flag():
    _, text = run(["evaluate", str(EXAMPLE_PATH), "--gain", "1=2,3=7", "--format", "json"])
    data = json.loads(text)
    b = next(q for q in data["queries"] if q["query"] == "case-B")
    assert b["cutoffs"][0]["ndcg"] == pytest.approx((7 / L + 2 / 2) / (7 + 2 / L), abs=1e-15)


def test_table_names_the_conventions():
    code, text = run(["evaluate", str(EXAMPLE_PATH), "--k", "2"])
    assert code == 0
    head = text.split("\n\n")[0]
    for word in ("linear gain", "log2 discount", "k = 2", "ranked candidates only",
                 "averaged over tie orders", "unresolved", "ideal DCG 0 is undefined"):
        assert word in head
    assert "case-A" in text
    assert "0.7967" in text
    assert "mean NDCG@2" in text


def test_csv_format():
    _, text = run(["evaluate", str(EXAMPLE_PATH), "--format", "csv"])
    lines = text.strip().split("\n")
    assert lines[0] == "query,k,dcg,idcg,ndcg,status,judged,total"
    row = next(line for line in lines if line.startswith("case-A,"))
    assert float(row.split(",")[4]) == pytest.approx((1 + 3 / L) / (3 + 1 / L), abs=1e-15)


BAD = [
    ("missing.csv", "query,source_id,grade\nq,a,1\n", "no 'score' column", "line 1"),
    ("text.csv", "query,source_id,score,grade\nq,a,1,high\n", "'high' is not a number",
     "line 2, column 'grade'"),
    ("nan.csv", "query,source_id,score,grade\nq,a,nan,1\n", "not a finite number",
     "line 2, column 'score'"),
    ("dup.csv", "query,source_id,score,grade\nq,a,1,1\nq,a,2,0\n", "twice", "rows 1 and 2"),
    ("empty.csv", "", "empty", "empty.csv"),
]


@pytest.mark.parametrize(("name", "text", "problem", "where"), BAD)
def test_bad_input_one_line(tmp_path, capsys, name, text, problem, where):
    path = tmp_path / name
    path.write_text(text)
    before = path.read_bytes()
    code, _ = run(["evaluate", str(path)])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1
    assert problem in err
    assert where in err
    assert str(path) in err
    assert path.read_bytes() == before


def test_a_word_in_the_grade_column_names_the_grade_words_read(tmp_path, capsys):
    """A word of no grade in a worksheet's grade column ('N/A' was one, read
    since as the grid reads it, unrateable: tests/test_worksheet_grade_words.py):
    the hint named numbers alone ('use a plain decimal number'), and a grade
    not known was then written 0 (tried on the installed wheel); it names the
    words a grade cell may hold. A score's hint stays the number's."""
    path = tmp_path / "words.csv"
    path.write_text("query,source_id,score,grade\nq,a,1,2\nq,b,0.5,high\n")
    code, _ = run(["evaluate", str(path)])
    assert code == 2
    assert capsys.readouterr().err == (
        f"ndcg-worksheet: error: {path}, line 3, column 'grade': 'high' is not a number "
        "(a grade is a number; a grade not known is left empty or written 'unknown', "
        "one that cannot be judged 'unrateable')\n")
    path.write_text("query,source_id,score,grade\nq,a,1,2\nq,b,abc,1\n")
    code, _ = run(["evaluate", str(path)])
    assert capsys.readouterr().err.endswith("'abc' is not a number (use a plain decimal number)\n")


@pytest.mark.parametrize(("header", "hint"), [
    ("query,source_id,score,grade,Reason", "in the 'Reason' column"),
    ("query,source_id,score,grade", "in the reason column: add a 'reason' column, a field "
     "on every line")])
def test_a_grade_written_with_its_reason_says_where_the_reason_goes(
        tmp_path, capsys, header, hint):
    """A grade cell written as the audit says an unknown grade ('unknown:
    not read yet') is refused naming the file, line and column and saying
    to write the word there and the reason in the reason column (the
    file's, or one to add), which the worksheet reads (it named the words a
    grade cell may hold, not where the reason goes); written so, the file
    opens with the grade and its reason. ('unrateable: paywall' was refused
    so too; it is read as the grid reads it, tests/test_worksheet_grade_words.py.)"""
    path = tmp_path / "said.csv"
    blank = "," if header.endswith("Reason") else ""
    path.write_text(f"{header}\nq,a,1,2{blank}\nq,b,0.5,unrateable: paywall{blank}\n"
                    f"q,c,0.2,Unknown: not read yet{blank}\n")
    code, _ = run(["evaluate", str(path)])
    assert code == 2
    assert capsys.readouterr().err == (
        f"ndcg-worksheet: error: {path}, line 4, column 'grade': 'Unknown: not read yet' is "
        f"not a number (write 'Unknown' here and 'not read yet' {hint})\n")
    path.write_text(f"{header.removesuffix(',Reason')},Reason\nq,a,1,2,\n"
                    "q,b,0.5,unrateable,paywall\nq,c,0.2,unknown,not read yet\n")
    doc = read_delimited(path)
    assert [doc.said_grade(i) for i in range(3)] == [
        "2", "unrateable: paywall", "unknown: not read yet"]
    assert run(["evaluate", str(path)])[0] == 0
    path.write_text(f"{header}\nq,a,1,2{blank}\nq,b,0.5,unknown:{blank}\n")
    assert run(["evaluate", str(path)])[0] == 2  # (a word and no reason: the words a grade
    assert "a grade is a number; a grade not known" in capsys.readouterr().err  # may hold)


def test_an_annotators_csv_given_alone_names_both_ways_to_read_it(tmp_path, capsys):
    """``evaluate crowd.csv`` of annotators' judgments (a Google Forms
    export): the refusal names the import by the path as given, quoted for a
    shell, and the run to evaluate them with (it named ``import crowd.csv``
    alone, which fails from another folder, and not ``--qrels``: a new
    user's trial)."""
    folder = tmp_path / "round 4"
    folder.mkdir()
    sheet = folder / "crowd.csv"
    sheet.write_text("Timestamp,Email Address,Query ID,Document ID,Relevance\n"
                     "12/1/2026 9:00:00,ana@x.example,q1,d1,2\n")
    code, _ = run(["evaluate", str(sheet)])
    assert code == 2
    err = capsys.readouterr().err
    assert f"`ndcg-worksheet import '{sheet}' -o OUT.csv`" in err, err
    assert f"`ndcg-worksheet evaluate RUN --qrels '{sheet}'`" in err, err


def test_a_qrels_file_given_as_the_run_or_worksheet_says_it_is_qrels(tmp_path, capsys):
    """A TREC qrels file given where a run or a worksheet goes (`evaluate
    QRELS`, or compared as the second run, in the editor's Compare too) was
    read as a worksheet CSV: "line 1: no 'query' column in the header (q1 0
    d1 2)", with `import` to read annotators' judgments (tried on the
    installed wheel). It says what the file is, as a run given alone does."""
    sheet, qrels = tmp_path / "sheet.csv", tmp_path / "qrels.txt"
    sheet.write_text("query,source_id,score,grade\nq1,d1,3.0,2\nq1,d2,2.0,1\n")
    qrels.write_text("q1 0 d1 2\nq1 0 d2 1\n")
    before = qrels.read_bytes()
    said = (f"ndcg-worksheet: error: {qrels}: this looks like a TREC qrels file (query "
            "iteration source grade), not a run or a worksheet (give it as a run's "
            "judgments: evaluate RUN --qrels QRELS)\n")
    for args in (["evaluate", str(qrels)],
                 ["compare", str(sheet), str(qrels)]):
        code, _ = run(args)
        assert code == 2, args
        assert capsys.readouterr().err == said, args
    assert qrels.read_bytes() == before


def test_an_ods_named_xlsx_says_to_rename_it(tmp_path, capsys):
    """An OpenDocument spreadsheet under an .xlsx name said "the workbook
    lacks its [Content_Types].xml part (this is a zip file but not an .xlsx
    workbook)" (tried on the installed wheel), and nothing about what it is;
    an .xlsx under an .ods name already says to rename it. Now the same."""
    ods = tmp_path / "book.ods"
    assert run(["export", str(EXAMPLE_PATH), "-o", str(ods)])[0] == 0
    named = tmp_path / "book.xlsx"
    named.write_bytes(ods.read_bytes())
    capsys.readouterr()
    code, _ = run(["evaluate", str(named)])
    assert code == 2
    assert capsys.readouterr().err == (
        f"ndcg-worksheet: error: {named}: this is an OpenDocument spreadsheet (.ods) under an "
        ".xlsx name (rename it to .ods)\n")
    assert named.read_bytes() == ods.read_bytes()


def _zip(*names: str) -> bytes:
    import zipfile

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as z:
        for name in names:
            z.writestr(name, "x")
    return buffer.getvalue()


@pytest.mark.parametrize(("name", "data", "said"), [
    ("report.xlsx", b"%PDF-1.6\n%\xe2\xe3\xcf\xd3\n1 0 obj", "this is a PDF document, not an "
     ".xlsx workbook (a PDF keeps no sheet to read: save the spreadsheet it was printed from "
     "as .xlsx)"),
    ("report.ods", b"%PDF-1.4\n", "this is a PDF document, not an .ods workbook (a PDF keeps "
     "no sheet to read: save the spreadsheet it was printed from as .ods)"),
    ("page.xlsx", b"<!DOCTYPE html>\n<html><body>Sign in</body></html>", "this is a web page "
     "(HTML), not an .xlsx workbook (a download may have saved the page instead of the file: "
     "download the spreadsheet again)"),
    ("grades.xlsx", b"query,source_id,grade\nq1,d1,2\n", "this is a text file, not an .xlsx "
     "workbook (if it holds CSV or TSV, rename it to .csv or .tsv)"),
    ("notes.xlsx", _zip("a.txt"), "this is a zip archive holding a.txt, not an .xlsx workbook: "
     "it has no [Content_Types].xml (unpack it and name the file it holds, or export it again "
     "as .xlsx from the program that made it: Save As .xlsx in Excel or LibreOffice, File > "
     "Download > Microsoft Excel in Google Sheets)"),
    ("grades.xlsx", _zip("Index/Document.iwa", "Metadata/Properties.plist"), "this is an Apple "
     "Numbers document, not an .xlsx workbook: it has no [Content_Types].xml (export it from "
     "Numbers with File > Export To > Excel, and name the .xlsx)"),
    ("notes.ods", _zip("a.txt"), "this is a zip archive holding a.txt, not an .ods "
     "spreadsheet: it has no mimetype (unpack it and name the file it holds, or export it "
     "again as .xlsx from the program that made it: Save As .xlsx in Excel or LibreOffice, "
     "File > Download > Microsoft Excel in Google Sheets)"),
], ids=["pdf", "pdf-ods", "html", "text", "zip", "numbers", "zip-ods"])
def test_a_file_named_as_a_workbook_is_named_as_what_it_is(tmp_path, capsys, name, data,
                                                            said):
    """A PDF named .xlsx said "this is not an .xlsx workbook (it is not a
    zip file)", a zip of a text file "the workbook lacks its
    [Content_Types].xml part", with no word of what to do (a reviewer's day,
    item 6). Now what the file is, and what to do; the file unchanged."""
    path = tmp_path / name
    path.write_bytes(data)
    code, _ = run(["evaluate", str(path)])
    assert code == 2
    assert capsys.readouterr().err == f"ndcg-worksheet: error: {path}: {said}\n"
    assert path.read_bytes() == data


@pytest.mark.parametrize("suffix", ["xlsx", "ods"])
def test_an_empty_workbook_file_says_it_is_empty(tmp_path, capsys, suffix):
    """A workbook file of 0 bytes (a copy or a download cut short) said
    "this is not an .xlsx workbook (it is not a zip file)" (tried on the
    installed wheel); an empty CSV says it is empty. Now a workbook too."""
    path = tmp_path / f"book.{suffix}"
    path.write_bytes(b"")
    code, _ = run(["evaluate", str(path)])
    assert code == 2
    assert capsys.readouterr().err == (
        f"ndcg-worksheet: error: {path}: the file is empty (0 bytes) (save the workbook "
        f"again as .{suffix}: a copy or a download may have been cut short)\n")


def test_an_empty_qrels_file_is_said_as_an_empty_run_is(tmp_path, capsys):
    """A run evaluated with an empty qrels file (a redirect gone wrong) gave
    'mean NDCG@all = - over 0 queries' and nothing on stderr (tried on the
    installed wheel), where an empty run gets a note. It gets one too."""
    run_file, qrels = tmp_path / "run.txt", tmp_path / "qrels.txt"
    run_file.write_text("q1 Q0 d1 1 3.0 tag\nq1 Q0 d2 2 2.0 tag\n")
    qrels.write_bytes(b"")
    code, text = run(["evaluate", str(run_file), "--qrels", str(qrels)])
    assert code == 0
    assert "over 0 queries" in text
    assert capsys.readouterr().err == (
        f"ndcg-worksheet: note: {qrels}: the qrels have no line, so every query of the run "
        "is unjudged and left out\n")


def test_import_says_the_ranking_it_reads(tmp_path):
    """A sheet whose ranking the import reads (Quepid's detailed export:
    its Doc Position, named so) says so where it says a sheet without one
    holds judgments only: a ranking changes every number, and the lines
    were silent about it (htrial5). Declared, it names the column."""
    sheet = tmp_path / "Shoe_Search_detailed.csv"
    sheet.write_text(
        "Team Name,Case Name,Case ID,Query Text,Doc ID,Doc Position,Title,Rating,price\r\n"
        + "".join(f"Search,Shoe Search,87,{q},SKU-{q[:3]}{d},{d},Shoe {d},{(d + len(q)) % 4},"
                  f"{19 + 7 * d}.99\r\n" for q in ("red shoes", "trail runners")
                  for d in range(1, 5)), encoding="utf-8")
    ranked = [line for line in run(["import", str(sheet), "-o", str(tmp_path / "out.csv")])[1]
              .splitlines() if line.startswith("the ranking")]
    assert ranked == ["the ranking: rank, Doc Position, named so; numbers 1 to 4 (--map "
                      "rank=none reads the sheet as judgments only)"]
    code, out = run(["import", str(sheet), "-o", str(tmp_path / "out.csv"),
                     "--map", "score=price", "--map", "rank=none"])
    assert code == 0
    assert ("the ranking: score, price, declared (--map score=none reads the sheet as "
            "judgments only)") in out.splitlines()


def test_a_ranking_left_out_as_declared_is_said_so(tmp_path):
    """The line a read ranking gives offers --map rank=none; taken, the
    column was said 'Doc Position (empty: no row holds a value)', its eight
    positions in plain sight (hreview18). It says the user left it out."""
    sheet = tmp_path / "Shoe_Search_detailed.csv"
    sheet.write_text(
        "Query Text,Doc ID,Doc Position,Rating\r\n"
        + "".join(f"{q},SKU-{q[:3]}{d},{d},{(d + len(q)) % 4}\r\n"
                  for q in ("red shoes", "trail runners") for d in range(1, 5)),
        encoding="utf-8")
    code, out = run(["import", str(sheet), "-o", str(tmp_path / "out.csv"),
                     "--map", "rank=none"])
    assert code == 0
    left = [line for line in out.splitlines() if line.startswith("left out")]
    assert left == ["left out, not imported: Doc Position (the rank as read, left out as "
                    "--map rank=none declares)"]


def test_import_never_writes_over_the_sheet_it_reads(tmp_path, capsys):
    """`import annot.csv -o annot.csv` replaced the annotators' sheet with
    the worksheet CSV (tried on the installed wheel: the raw grades, the
    sheet's own columns, gone); export already refuses its input as output.
    Refused the same, by any path to the file, the report too; nothing is
    written."""
    sheet = tmp_path / "annot.csv"
    sheet.write_text("Topic,Document,Relevance (Ana),Relevance (Ben)\n"
                     "q1,d1,2,2\nq1,d2,0,3\nq1,d3,1,0\n")
    before = sheet.read_bytes()
    for extra in (["-o", str(sheet)], ["-o", str(tmp_path / "." / "annot.csv")],
                  ["-o", str(tmp_path / "out.csv"), "--report", str(sheet)]):
        code, _ = run(["import", str(sheet), *extra])
        assert code == 2, extra
        err = capsys.readouterr().err
        assert err.endswith(": the output is the input file; nothing was written "
                            "(name another output file)\n"), err
        assert sheet.read_bytes() == before
    assert not (tmp_path / "out.csv").exists()


def test_negative_grade_under_exponential(tmp_path, capsys):
    path = tmp_path / "neg.csv"
    path.write_text("query,source_id,score,grade\nq,a,1,-1\n")
    code, _ = run(["evaluate", str(path), "--gain", "exponential"])
    assert code == 2
    assert "negative" in capsys.readouterr().err


def test_trec_run_needs_qrels(tmp_path, capsys):
    path = tmp_path / "run.txt"
    path.write_text("q1 Q0 d1 1 2.5 tag\n")
    code, _ = run(["evaluate", str(path)])
    assert code == 2
    assert "--qrels" in capsys.readouterr().err


@pytest.mark.parametrize("swapped", [False, True])
def test_a_run_given_as_qrels_is_named_so(tmp_path, capsys, swapped):
    """A TREC run given as the qrels (the two swapped, or a second run),
    tab-separated, is read as TREC text and refused saying to give the run
    first, as compare says it: not read as an annotators' sheet whose rank
    column counts 'like a rank, not a grade' with two imports to try."""
    run_file, other = tmp_path / "run.txt", tmp_path / "other.txt"
    run_file.write_text("q1\tQ0\td1\t1\t2.5\tbm25\r\nq1\tQ0\td2\t2\t1.5\tbm25\r\n")
    other.write_text("q1\t0\td1\t1\n" if swapped else "q1 Q0 d2 1 9 dense\n")
    code, _ = run(["evaluate", str(other if swapped else run_file), "--qrels", str(run_file)])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1
    assert "like a rank" not in err
    if swapped:  # whichever file is refused first, each says so
        assert err.endswith(": give the run first and its qrels after --qrels)\n")
    else:
        assert err == (f"ndcg-worksheet: error: {run_file}, line 1: expected 4 fields (query "
                       "iteration source grade), found 6 (this line is a run's (query Q0 "
                       "source rank score tag): give the run first and its qrels after "
                       "--qrels)\n")


@pytest.mark.parametrize(("line", "found"), [("q1\t0\td1", 3), ("q1\t0\td1\t2\t0.9", 5)])
def test_tab_separated_qrels_short_or_long_of_a_field_name_their_fields(tmp_path, capsys,
                                                                        line, found):
    """A tab-separated qrels line of 3 or 5 fields, the iteration 0 second,
    is a TREC qrels line wanting its fourth or holding a fifth field: read as
    an annotators' sheet it was 'no query column found in the header (q1, 0,
    d1)'."""
    run_file, qrels = tmp_path / "run.txt", tmp_path / "qrels.txt"
    run_file.write_text("q1 Q0 d1 1 2.5 t\n")
    qrels.write_text(f"{line}\n")
    code, _ = run(["evaluate", str(run_file), "--qrels", str(qrels)])
    err = capsys.readouterr().err
    assert code == 2
    assert (f"{qrels}, line 1: expected 4 fields (query iteration source grade), found "
            f"{found}") in err
    assert "header" not in err


def test_unjudged_candidates_are_noted_with_the_flags_that_resolve_them(tmp_path, capsys):
    """A run whose candidates the qrels do not all judge leaves, under the
    defaults, a query unresolved and out of the means: a note on
    stderr says how many and names --unjudged zero|condensed, as the
    editor's banner does; not once --unjudged or a preset decides."""
    run_file, qrels = tmp_path / "run.txt", tmp_path / "qrels.txt"
    run_file.write_text("q1 Q0 d1 1 3 t\nq1 Q0 d2 2 2 t\nq1 Q0 d3 3 1 t\nq2 Q0 d1 1 1 t\n")
    qrels.write_text("q1 0 d1 1\nq2 0 d1 2\n")
    note = (f"ndcg-worksheet: note: {run_file}: 2 of 4 retrieved candidates are not in the "
            "qrels (unjudged), so NDCG is unresolved for 1 of 2 queries; --unjudged zero "
            "counts them as not relevant (as trec_eval does), --unjudged condensed drops "
            "them before ranking\n")
    code, text = run(["evaluate", str(run_file), "--qrels", str(qrels)])
    assert code == 0
    assert "mean NDCG@all = 1.0000 over 1 query" in text
    assert capsys.readouterr().err == note
    code, _ = run(["compare", str(run_file), str(run_file), "--qrels", str(qrels)])
    assert (code, capsys.readouterr().err) == (0, note * 2)
    for flags in (["--unjudged", "unresolved"], ["--preset", "trec_eval"]):
        code, _ = run(["evaluate", str(run_file), "--qrels", str(qrels), *flags])
        assert (code, capsys.readouterr().err) == (0, "")


def test_one_unjudged_candidate_is_noted_in_the_singular(tmp_path, capsys):
    """The note counts as the editor's banner does (counted, agreed): one
    candidate of one, in one query, is it, not them."""
    run_file, qrels = tmp_path / "run.txt", tmp_path / "qrels.txt"
    run_file.write_text("q1 Q0 d1 1 3 t\n")
    qrels.write_text("q1 0 d2 1\n")
    code, _ = run(["evaluate", str(run_file), "--qrels", str(qrels)])
    assert (code, capsys.readouterr().err) == (0, (
        f"ndcg-worksheet: note: {run_file}: 1 of 1 retrieved candidate is not in the qrels "
        "(unjudged), so NDCG is unresolved for 1 of 1 query; --unjudged zero counts it as "
        "not relevant (as trec_eval does), --unjudged condensed drops it before ranking\n"
        f"ndcg-worksheet: note: {run_file}: none of the run's 1 retrieved candidates is "
        "judged: the run's ids look like 'd1', the qrels' like 'd2'; if the two name the "
        "same items in two ways, import the judgments naming the column that holds the run's "
        "ids (ndcg-worksheet import SHEET --map source_id=COLUMN), else check that the run "
        "and the qrels are of the same collection\n"))


def test_a_run_whose_ids_the_qrels_never_use_shows_one_of_each(tmp_path, capsys):
    """A run of SKUs against qrels of the products' pages said only "60 of
    60 retrieved candidates are not in the qrels" (a new user's trial): with
    none, or at most one in twenty, of its candidates judged, a second note
    shows an id of each side and what to do, under any --unjudged rule; a run
    with more judged says no more than before."""
    run_file, qrels = tmp_path / "run.txt", tmp_path / "qrels.txt"
    skus = [f"SKU-{n}" for n in range(100, 140)]
    run_file.write_text("".join(f"q{q} Q0 {s} {r} {40 - r} bm25\n" for q in (1, 2)
                                for r, s in enumerate(skus, start=1)))
    pages = [f"https://shop.example.com/p/{s.lower()}" for s in skus]
    for judged in (0, 2, 5):  # of 80 retrieved: none, 1 in 40 (noted), 1 in 16 (not)
        qrels.write_text("".join(f"q{q} 0 {p} {n % 4}\n" for q in (1, 2)
                                 for n, p in enumerate(pages))
                         + "".join(f"q1 0 {s} 1\n" for s in skus[:judged]))
        for flags in ([], ["--unjudged", "zero"]):
            code, _ = run(["evaluate", str(run_file), "--qrels", str(qrels), *flags])
            notes = [line for line in capsys.readouterr().err.splitlines()
                     if "look like" in line]
            assert code == 0
            if judged == 5:
                assert notes == []
                continue
            share = "none of the run's 80 retrieved candidates is" if not judged else \
                "only 2 of the run's 80 retrieved candidates are"
            assert notes == [
                f"ndcg-worksheet: note: {run_file}: {share} judged: the run's ids look like "
                f"'{skus[judged]}', the qrels' like '{pages[0]}'; if the two name the same "
                "items in two ways, import the judgments naming the column that holds the "
                "run's ids (ndcg-worksheet import SHEET --map source_id=COLUMN), else check "
                "that the run and the qrels are of the same collection"]


def test_every_argument_of_every_command_says_what_it_takes():
    """A newcomer reading ``COMMAND --help`` finds each argument explained:
    compare's --qrels, --resamples and --seed, evaluate's --format, export's
    INPUT and --qrels and import's SHEET were listed bare."""
    import argparse

    from app.cli.main import build_parser

    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    bare = [(name, a.dest) for name, command in commands.choices.items()
            for a in command._actions if not a.help]
    from app.launcher import COMMANDS  # (the commands run without loading Qt)

    assert set(commands.choices) == {c for c in COMMANDS if not c.startswith("-")}
    assert len(commands.choices) == 7
    assert bare == []


def test_a_second_cutoff_after_k_says_how_cutoffs_are_given(capsys):
    """``--k 5 10`` (trec_eval lists cutoffs as ndcg_cut.5,10) was refused
    with the program's usage and 'unrecognized arguments: 10' alone."""
    with pytest.raises(SystemExit) as ended:
        run(["evaluate", str(EXAMPLE_PATH), "--k", "5", "10"])
    err = capsys.readouterr().err
    assert ended.value.code == 2
    assert err.startswith("usage: ndcg-worksheet evaluate ")
    assert err.endswith("ndcg-worksheet evaluate: error: unrecognized arguments: 10 (a flag "
                        "takes one value: give several cutoffs as --k 5 --k 10, or --k 5,10)\n")
    with pytest.raises(SystemExit):
        run(["evaluate", str(EXAMPLE_PATH), "10"])
    assert capsys.readouterr().err.endswith("error: unrecognized arguments: 10\n")


def _single_value_options() -> list[tuple[str, argparse.Action]]:
    """Every flag of one value of every command (argparse's store and
    switch actions, whatever class each is made of: a value, or a switch
    with its --no- form), by command; append, count, store_true and help
    are meant to repeat or say the same again, and a flag of one choice
    (--discount log2, --order rows) can only say it again."""
    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return [(name, a) for name, command in commands.choices.items() for a in command._actions
            if a.option_strings and isinstance(a, (argparse._StoreAction,
                                                   argparse.BooleanOptionalAction))
            and (a.choices is None or len(a.choices) > 1)]


def _two_values(action: argparse.Action) -> tuple[str, str]:
    """Two different values ``action`` takes (its first two choices, two
    numbers, two words)."""
    if action.choices:
        return tuple(map(str, list(action.choices)[:2]))  # type: ignore[return-value]
    for pair in (("2", "3"), ("0.25", "0.5"), ("a.csv", "b.csv")):
        try:
            if action.type is None or action.type(pair[0]) != action.type(pair[1]):
                return pair
        except (TypeError, ValueError, argparse.ArgumentTypeError):
            continue
    raise AssertionError(f"no two values for {action.option_strings}")


@pytest.mark.parametrize(("command", "action"), _single_value_options(),
                         ids=lambda x: x if isinstance(x, str) else x.option_strings[0])
def test_every_single_value_option_given_twice_is_refused(capsys, command, action):
    """``--gain linear --gain exponential`` computed exponential gains,
    unsaid (argparse keeps a flag's last value): every command's flag of
    one value refuses a second, different one in one line naming the flag
    and both values, as --qrels does."""
    if isinstance(action, argparse.BooleanOptionalAction):
        given = action.option_strings[:2]
        argv, said = [command, *given], given
    else:
        said = list(_two_values(action))
        argv = [command, action.option_strings[-1], said[0], action.option_strings[0], said[1]]
    with pytest.raises(SystemExit) as ended:
        main(argv, io.StringIO())
    err = capsys.readouterr().err.strip().splitlines()
    assert ended.value.code == 2
    assert err[-1].startswith(f"ndcg-worksheet {command}: error: argument "
                              f"{'/'.join(action.option_strings)}: given twice, "), err[-1]
    assert all(repr(action.type(v) if action.type and not action.choices else v) in err[-1]
               for v in said), err[-1]


def test_options_meant_to_repeat_keep_repeating(tmp_path):
    """--k, --map and --names are given once per value (a cutoff each, a
    column each); a flag given twice with the same value says it again."""
    args = build_parser().parse_args(["evaluate", "x.csv", "--k", "5", "--k", "10",
                                      "--format", "json", "--format", "json"])
    assert (args.convention_cutoffs, args.format) == (["5", "10"], "json")
    args = build_parser().parse_args(["evaluate", "x.csv", "--discount", "log2", "--discount",
                                      "log2"])
    assert args.convention_discount == "log2"
    args = build_parser().parse_args(["import", "x.csv", "-o", "o.csv", "--map", "grade=C", "--map",
                                      "query=A", "--names", "1=Ana", "--names", "2=Ben"])
    assert (args.map, args.names) == (["grade=C", "query=A"], ["1=Ana", "2=Ben"])
    assert not any(k.startswith("_") for k in vars(args))


def test_the_editor_s_preset_given_twice_is_refused(capsys):
    with pytest.raises(SystemExit) as ended:
        parse_args(["x.csv", "--preset", "trec_eval", "--preset", "sklearn"])
    assert ended.value.code == 2
    assert capsys.readouterr().err.strip().splitlines()[-1] == (
        "ndcg-worksheet: error: argument --preset: given twice, 'trec_eval' and 'sklearn': "
        "one value is read, give it once")


@pytest.mark.parametrize("command", ["evaluate", "export", "compare", "split", "merge"])
def test_qrels_given_twice_is_refused_not_the_last_taken(tmp_path, capsys, command):
    """``--qrels annotators.json --qrels llm.jsonl`` (two judges' files, as
    a new user tried) read the LLM's alone, unsaid; the same file twice is fine."""
    qrels_a, qrels_b = tmp_path / "a.qrels", tmp_path / "b.qrels"
    qrels_a.write_text("q1 0 d1 1\n")
    qrels_b.write_text("q1 0 d1 3\n")
    run_file = tmp_path / "run.txt"
    run_file.write_text("q1 Q0 d1 1 2.5 tag\n")
    args = {"evaluate": ["evaluate", str(run_file)], "compare": ["compare", str(run_file)],
            "export": ["export", str(run_file), "-o", str(tmp_path / "out.csv")],
            "split": ["split", str(run_file), "--reviewers", "ana", "-o", str(tmp_path / "r")],
            "merge": ["merge", str(run_file), "-o", str(tmp_path / "m.xlsx")]}[command]
    with pytest.raises(SystemExit) as ended:
        run([*args, "--qrels", str(qrels_a), "--qrels", str(qrels_b)])
    err = capsys.readouterr().err
    assert ended.value.code == 2
    assert err.endswith(f"error: argument --qrels: given twice, {str(qrels_a)!r} and "
                        f"{str(qrels_b)!r}: one file of judgments is read (to read two judges' "
                        "sheets together, join their rows into one sheet with a column naming "
                        "who judged: each is then an annotator)\n")
    if command == "evaluate":
        assert run([*args, "--qrels", str(qrels_a), "--qrels", str(qrels_a)])[0] == 0


def test_the_same_qrels_written_two_ways_is_one_file(tmp_path, monkeypatch):
    """The same file twice is fine, however it is written: 'a.qrels' and
    './a.qrels' (a shell's completion beside a typed name) were refused as
    two judges' sheets (hreview18)."""
    (tmp_path / "a.qrels").write_text("q1 0 d1 1\n")
    (tmp_path / "run.txt").write_text("q1 Q0 d1 1 2.5 tag\n")
    monkeypatch.chdir(tmp_path)
    code, out = run(["evaluate", "run.txt", "--qrels", "a.qrels", "--qrels",
                     str(tmp_path / "a.qrels")])
    assert code == 0
    assert run(["evaluate", "run.txt", "--qrels", "a.qrels", "--qrels", "./a.qrels"]) == (
        code, out)


def test_bad_trec_score(tmp_path, capsys):
    run_file, qrels = tmp_path / "run.txt", tmp_path / "qrels.txt"
    run_file.write_text("q1 Q0 d1 1 2.5 tag\nq1 Q0 d2 2 x tag\n")
    qrels.write_text("q1 0 d1 1\n")
    code, _ = run(["evaluate", str(run_file), "--qrels", str(qrels)])
    err = capsys.readouterr().err
    assert code == 2
    assert "line 2" in err
    assert "score" in err


def test_bad_cutoff(capsys):
    code, _ = run(["evaluate", str(EXAMPLE_PATH), "--k", "0"])
    assert code == 2
    assert "cutoff 0" in capsys.readouterr().err


def test_unreadable_file_is_one_line_without_traceback(tmp_path):
    path = tmp_path / "binary.csv"
    path.write_bytes(b"\x00\x01\x02garbage")
    proc = subprocess.run(
        [sys.executable, "-m", "app.cli.main", "evaluate", str(path)],
        cwd=REPO, capture_output=True, text=True,
    )
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert "binary" in proc.stderr
    assert proc.stderr.count("\n") == 1


def _fresh(statements: str, unloaded: tuple[str, ...]) -> str:
    """Run ``statements`` in a fresh interpreter and assert that no module
    starting with one of ``unloaded`` was imported; its output."""
    code = (
        "import sys\n"
        f"{statements}\n"
        f"loaded = [m for m in sys.modules if m.startswith({unloaded!r})]\n"
        "assert not loaded, f'loaded for nothing: {loaded}'\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True,
                          text=True)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def _launch_fresh(args: list[str], unloaded: tuple[str, ...]) -> str:
    """Run the launcher on ``args`` in a fresh interpreter and assert that no
    module starting with one of ``unloaded`` was imported; its output."""
    return _fresh(f"from app.launcher import main\nassert main({args!r}) == 0", unloaded)


def test_entry_point_dispatches_commands_without_qt():
    out = _launch_fresh(["evaluate", str(EXAMPLE_PATH), "--format", "csv"],
                        ("PySide6", "core.analysis.rounds", "core.analysis.compare",
                         "core.io.workbook"))
    assert "case-A" in out


def test_evaluate_with_trec_qrels_loads_nothing_of_the_annotators_importer():
    # Telling TREC qrels from an annotators' sheet reads the first line only.
    data = REPO / "tests" / "data" / "trec_eval"
    out = _launch_fresh(["evaluate", str(data / "results.test"), "--qrels",
                         str(data / "qrels.test"), "--preset", "trec_eval", "--format", "csv"],
                        ("core.io.annotator",))
    assert out.splitlines()[1].startswith("301,all,10.7146451553")


def test_evaluate_with_bounds_loads_no_masked_arrays_nor_the_writers():
    # The defaults bound the queries with unknown grades: the grade scale's
    # few gains are made distinct without np.unique, which loads numpy.ma
    # (~10 ms of the command's serial time); reading TREC files loads none
    # of their writers (hashlib for the atomic write, ~4 ms).
    data = REPO / "tests" / "data" / "trec_eval"
    out = _launch_fresh(["evaluate", str(data / "results.test"), "--qrels",
                         str(data / "qrels.test"), "--format", "json"],
                        ("numpy.ma.", "core.io.trec.write", "hashlib"))
    assert '"bounds"' in out


def test_parsing_a_command_loads_none_of_what_commands_compute_with():
    # Every command's parser is built first: it loads neither the engine nor
    # a report, the reader, the workbook checks or the installation's metadata.
    _fresh("from app.cli.main import build_parser\n"
           "build_parser().parse_args(['evaluate', 'run', '--qrels', 'qrels'])",
           ("core.engine", "core.analysis", "core.reports.json", "core.io.load", "core.io.trec",
            "core.io.safety", "core.tables", "importlib.metadata"))


def test_a_bad_flag_is_said_before_the_files_are_read(tmp_path, capsys):
    # The flags are checked before anything is read (then the run's problem
    # comes before the qrels').
    missing = [str(tmp_path / "run.txt"), "--qrels", str(tmp_path / "qrels.txt")]
    assert run(["evaluate", *missing, "--k", "zero"])[0] == 2
    assert capsys.readouterr().err.strip().endswith(
        "error: cutoff 'zero' is not a positive whole number or 'all'")
    (tmp_path / "qrels.txt").write_text("q 0 a 1\n")
    assert run(["evaluate", *missing])[0] == 2
    assert f"{tmp_path / 'run.txt'}: cannot read the file" in capsys.readouterr().err


@pytest.mark.parametrize("user_set", [False, True])
def test_numpy_settings_unless_the_user_says(user_set):
    # One BLAS thread (numpy's spinning OpenBLAS threads take a core from the
    # readers) and no huge-page advice (slow faults on a VM), unless the
    # user's environment says otherwise.
    env = {k: v for k, v in os.environ.items()
           if k not in ("OPENBLAS_NUM_THREADS", "NUMPY_MADVISE_HUGEPAGE")}
    if user_set:
        env.update(OPENBLAS_NUM_THREADS="2", NUMPY_MADVISE_HUGEPAGE="1")
    code = (
        "import os, app.cli.main, numpy, threadpoolctl\n"
        "print(os.environ['OPENBLAS_NUM_THREADS'],"
        " numpy._core.multiarray._get_madvise_hugepage(),"
        " sorted({i['num_threads'] for i in threadpoolctl.threadpool_info()"
        " if i['internal_api'] == 'openblas'}))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True,
                          text=True, env=env)
    assert proc.returncode == 0, proc.stderr
    blas, huge, threads = proc.stdout.split(maxsplit=2)
    assert (blas, huge) == (("2", "True") if user_set else ("1", "False"))
    if not user_set:
        assert threads.strip() == "[1]"


def test_a_worksheet_csv_of_annotators_opened_says_their_grades_are_not_read(tmp_path, capsys):
    """The worksheet CSV an import wrote, opened by evaluate (or export):
    one warning line names the annotators' columns it does not read and
    the import that keeps them (their grades were dropped saying nothing);
    the numbers are the consensus column's, as before."""
    sheet = tmp_path / "judged by two.csv"
    sheet.write_text("query,doc,Alice,Bob\nshoes,d1,3,1\nshoes,d2,1,2\nshoes,d3,0,3\n"
                     "hats,d4,2,2\n", encoding="utf-8")
    written = tmp_path / "w.csv"
    assert run(["import", str(sheet), "-o", str(written)])[0] == 0
    capsys.readouterr()
    assert run(["evaluate", str(written), "--format", "json"])[0] == 0
    assert capsys.readouterr().err == (
        f"ndcg-worksheet: warning: {written}: grade_Alice, grade_Bob: the grades of 2 "
        "annotators, not read when the worksheet is opened (its grade column is the grade); "
        f"to keep each annotator's grades, import it: ndcg-worksheet import {written} -o "
        "OUT.xlsx\n")
    assert run(["import", str(written), "-o", str(tmp_path / "kept.xlsx")])[0] == 0
    capsys.readouterr()
    assert run(["evaluate", str(EXAMPLE_PATH)])[0] == 0
    assert capsys.readouterr().err == ""


def test_running_out_of_memory_says_what_to_do(monkeypatch, capsys):  # type: ignore[no-untyped-def]
    """A command that runs out of memory ends in one line with status 2,
    saying what to do, as the editor's message does (app.opening.out_of_memory)."""
    import app.cli.main as cli

    def too_large(args, out):  # type: ignore[no-untyped-def]
        raise MemoryError

    monkeypatch.setattr(cli, "cmd_evaluate", too_large)
    assert main(["evaluate", str(EXAMPLE_PATH)], io.StringIO()) == 2
    assert capsys.readouterr().err == (
        "ndcg-worksheet: error: not enough memory for this input (close other programs and "
        "run it again, or run it on a machine with more memory)\n")


@pytest.mark.parametrize("content", ["", "\n \n"])
def test_a_run_with_no_line_is_said_so_naming_it(tmp_path, capsys, content):
    """An empty run (or one of blank lines) with --qrels: evaluate notes in
    one line that the run has no line (it reported every query unranked
    and said nothing of why); compare refuses it naming the run (it named
    the qrels: 'no query of the run ... has judgments in this file')."""
    qrels, run, empty = tmp_path / "qrels.txt", tmp_path / "run.txt", tmp_path / "empty.txt"
    qrels.write_text("q1 0 d1 1\nq1 0 d2 0\n")
    run.write_text("q1 Q0 d1 1 2.0 r\nq1 Q0 d2 2 1.0 r\n")
    empty.write_text(content)
    out = io.StringIO()
    assert main(["evaluate", str(empty), "--qrels", str(qrels)], out=out) == 0
    assert "q1     unranked" in out.getvalue()
    assert capsys.readouterr().err == (f"ndcg-worksheet: note: {empty}: the run has no line, so "
                                       "every query of the qrels is unranked\n")
    assert main(["evaluate", str(run), "--qrels", str(qrels)], out=io.StringIO()) == 0
    assert capsys.readouterr().err == ""
    for runs in ([run, empty], [run, run, empty]):
        assert main(["compare", *map(str, runs), "--qrels", str(qrels)], out=io.StringIO()) == 2
        err = capsys.readouterr().err
        assert err.splitlines() == [f"ndcg-worksheet: error: {empty}: the run has no line (it "
                                    "ranks no query) (name a run with a line per query, "
                                    "candidate and score)"]


@pytest.mark.parametrize("command", ["evaluate", "export", "split", "merge"])
def test_each_commands_help_example_runs_as_written(command, tmp_path, capsys):
    """Each command's --help shows an example, its lines whole (not run into
    the text), and they run as written in an empty folder."""
    from app.cli.main import EXAMPLES

    with pytest.raises(SystemExit):
        main([command, "--help"])
    helped = capsys.readouterr().out
    assert "Example:\n" + "\n".join(f"  {line}" for line in EXAMPLES[command]) in helped
    script = "set -e\nndcg-worksheet() { \"$PY\" -m app.launcher \"$@\"; }\n" + "\n".join(
        EXAMPLES[command])
    env = {**os.environ, "PY": sys.executable, "PYTHONPATH": str(REPO)}
    proc = subprocess.run(["bash", "-c", script], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    made = {"evaluate": None, "export": "audited.xlsx", "split": "round1/base-ben.xlsx",
            "merge": "merged.xlsx"}[command]
    if made is None:
        assert "NDCG@10" in proc.stdout
    else:
        assert (tmp_path / made).stat().st_size > 0
