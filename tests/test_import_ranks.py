"""A rank is never read as a grade: an MS MARCO-style run (qid, pid, rank;
rank 1..n within each query) imported as an annotators' sheet is refused
in one line saying it is a ranking and how a run is read, headerless or
under headers; a real grade column of 1, 2, 3 in small queries stays the
grade. The grades and ranks here are written by hand."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from app.cli.main import main

#: Four queries of 7 passages (MS MARCO's ids), ranked 1..7: in row order
#: for three, shuffled for the last (a run sorted by passage id).
RUN = [(qid, pid, rank)
       for qid, base in (("1048585", 7187158), ("2", 1181374), ("524332", 3542906))
       for rank, pid in enumerate(range(base, base + 70, 10), start=1)] + [
    ("1048642", 8000000 + i, rank) for i, rank in enumerate((3, 1, 7, 2, 6, 4, 5))]


def _write(path: Path, lines: list[str]) -> Path:
    path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    return path


def _import(path: Path, capsys: pytest.CaptureFixture[str], *flags: str) -> tuple[int, str]:
    out = path.with_suffix(".out.csv")
    code = main(["import", str(path), "-o", str(out), *flags], io.StringIO())
    err = capsys.readouterr().err
    assert out.exists() == (code == 0)
    return code, err


def _graded(path: Path, truth: dict[tuple[str, str], int],
            capsys: pytest.CaptureFixture[str]) -> dict[tuple[str, str], int]:
    """The grades imported from ``truth`` written under query,doc,col3."""
    _write(path, ["query,doc,col3"] + [f"{q},{d},{g}" for (q, d), g in truth.items()])
    code, err = _import(path, capsys)
    assert code == 0, err
    lines = path.with_suffix(".out.csv").read_text("utf-8").splitlines()
    head = lines[0].split(",")
    return {(r[0], r[1]): int(r[head.index("grade")]) for r in (x.split(",") for x in lines[1:])}


def test_a_headerless_ms_marco_run_is_refused(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path / "run.tsv", [f"{q}\t{p}\t{r}" for q, p, r in RUN])
    before = path.read_bytes()
    code, err = _import(path, capsys)
    assert code == 2
    assert err == (
        f"ndcg-worksheet: error: {path}: no grade column found in the columns A, B, C (no "
        "header: row 1 is data); column C counts 1, 2, 3, … within each query, like "
        "a rank, not a grade (a run is read by `ndcg-worksheet "
        "evaluate RUN --qrels QRELS`; to import it as the ranking of graded judgments, pass "
        "--map rank=C with --map grade=COLUMN; if it does hold grades, pass --map grade=C)\n")
    assert path.read_bytes() == before


@pytest.mark.parametrize(("header", "said"), [
    ("rank", "(A (qid), B (pid), C (rank)); C (rank) is the rank, a ranking, not a grade"),
    ("col3", "(A (qid), B (pid), C (col3)); column C (col3) counts 1, 2, 3, … within each "
             "query, like a rank, not a grade"),
])
def test_a_run_under_headers_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                        header: str, said: str) -> None:
    path = _write(tmp_path / "run.csv", [f"qid,pid,{header}"]
                  + [f"{q},{p},{r}" for q, p, r in RUN])
    code, err = _import(path, capsys)
    assert code == 2
    assert err.count("\n") == 1
    assert err.startswith(f"ndcg-worksheet: error: {path}: no grade column found in the header")
    assert said in err
    assert "`ndcg-worksheet evaluate RUN --qrels QRELS`" in err
    # Declared the rank, it is one (no grade column still): the flag is not offered again.
    code, err = _import(path, capsys, "--map", "rank=C")
    assert code == 2
    assert "is the rank, a ranking, not a grade" in err
    assert "--map rank=C" not in err


def test_declared_grades_are_taken_as_said(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path / "run.csv", ["qid,pid,col3"] + [f"{q},{p},{r}" for q, p, r in RUN])
    code, err = _import(path, capsys, "--map", "grade=col3")
    assert (code, err) == (0, "")
    grades = (tmp_path / "run.out.csv").read_text("utf-8").splitlines()
    assert len(grades) == 1 + len(RUN)


def test_small_queries_graded_one_to_three_stay_grades(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Every query of 2 or 3 rows happens to hold 1..n once: as grades do by
    # chance on a 1-3 scale in small queries. Nothing longer counts.
    truth = {("q1", "d1"): 1, ("q1", "d2"): 2, ("q2", "d3"): 2, ("q2", "d4"): 1,
             ("q2", "d5"): 3, ("q3", "d6"): 1, ("q3", "d7"): 2, ("q4", "d8"): 3,
             ("q4", "d9"): 1, ("q4", "d10"): 2, ("q5", "d11"): 3, ("q5", "d12"): 1,
             ("q5", "d13"): 2}
    assert _graded(tmp_path / "small.csv", truth, capsys) == truth


def test_four_distinct_grades_with_a_gap_stay_grades(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Three queries of 4 rows on a 1-5 scale, each graded 1, 2, 3, 5 in
    # some order: one value short of counting 1..5 in a query too small
    # for a gap to say rank (only a query of 6 rows or more may miss one).
    grades = {"q1": (1, 2, 3, 5), "q2": (2, 1, 5, 3), "q3": (5, 3, 2, 1)}
    truth = {(q, f"{q}-d{i}"): g for q, gs in grades.items() for i, g in enumerate(gs)}
    assert _graded(tmp_path / "gap.csv", truth, capsys) == truth


def test_grades_alike_within_each_query_stay_grades(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # A tiny sheet whose queries' items were each graded alike: a grade
    # column though it does not vary within a query (it was refused as 'no
    # grade column', taken for a batch's number over whole queries).
    truth = {("q1", "d1"): 2, ("q1", "d2"): 2, ("q2", "d3"): 0, ("q2", "d4"): 0,
             ("q3", "d5"): 3, ("q3", "d6"): 3}
    assert _graded(tmp_path / "alike.csv", truth, capsys) == truth


def test_one_value_per_query_counting_up_is_refused_naming_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # 1, 1, 2, 2, 3, 3 over three queries: a batch's number as much as
    # grades alike within each query; nothing tells, the import asks.
    path = _write(tmp_path / "up.csv", ["query,doc,col3", "q1,d1,1", "q1,d2,1", "q2,d3,2",
                                        "q2,d4,2", "q3,d5,3", "q3,d6,3"])
    code, err = _import(path, capsys)
    assert code == 2
    assert err == (
        f"ndcg-worksheet: error: {path}: no grade column found in the header on row 1 (A "
        "(query), B (doc), C (col3)); column C (col3) holds one value over each query's rows, "
        "counting up down the sheet: a batch's number, or grades the same for all of a "
        "query's documents (if they are grades, pass --map grade=C; if another column holds "
        "them, pass --map grade=COLUMN)\n")
    code, err = _import(path, capsys, "--map", "grade=C")
    assert (code, err) == (0, "")


def test_a_batch_cutting_through_queries_is_no_grade(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # col4 numbers the rows' batches, 3 rows each, across queries of 4: it
    # varies within a query as grades do, but counts up down the rows (it
    # was read as the grade and col3's grades left out as a ranking's).
    grades = [2, 0, 2, 1, 0, 2, 1, 3, 0, 2, 1, 1]
    path = _write(tmp_path / "hit.csv", ["col1,col2,col3,col4"] + [
        f"q{i // 4},d{i},{g},{i // 3 + 1}" for i, g in enumerate(grades)])
    code, err = _import(path, capsys, "--report", str(tmp_path / "r.json"))
    assert code == 0, err
    lines = path.with_suffix(".out.csv").read_text("utf-8").splitlines()[1:]
    assert [int(line.split(",")[4]) for line in lines] == grades
    report = (tmp_path / "r.json").read_text("utf-8")
    assert ("col4: numbers 1 to 4, counting up down the rows in runs that cut through a "
            "query's rows (a batch's or a group's number") in report


def test_a_rank_beside_a_query_two_columns_could_be_asks_for_the_query(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Two workers' grades (1-5, under col6) beside a rank under ``output``
    and a count of a few values per query (col2: 101, 103 | 104, 106, two
    items each) that could be the query as col4 could: which is the query
    decides what is a rank (a rank counts within a query), so the import
    asks for the query, naming both; it said 'no grade column found ...
    output is the rank', and the grades are read once the query is said."""
    grades = [1, 1, 3, 4, 4, 1, 3, 2, 4, 3, 5, 3, 1, 5, 5, 5]
    lines = ["col1,col2,output,col4,col5,col6,col7"]
    for i, g in enumerate(grades):
        q, d = divmod(i // 2, 4)
        lines.append(f"{[41823377, 45519020][i % 2]},{[101, 103, 104, 106][q * 2 + d // 2]},"
                     f"{4 - d},{['solar panel efficiency', 'best hiking boots'][q]},"
                     f"{1733499586 + 97 * i},{g},https://site{q}.example/page/{d}")
    sheet = _write(tmp_path / "sheet.csv", lines)
    code, err = _import(sheet, capsys)
    assert (code, err) == (2, f"ndcg-worksheet: error: {sheet}: col2 or col4: both could be the "
                           "query (each is fixed by the source id and comes in runs, 4 and 2 "
                           "values) and nothing in their values tells them apart (pass --map "
                           "query=COLUMN for the one meant)\n")
    assert _import(sheet, capsys, "--map", "query=col4") == (0, "")


def test_a_sheet_given_as_qrels_is_told_how_to_declare_its_column(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``evaluate --qrels SHEET`` takes no --map: a sheet whose query column
    is not found is told to import it first with the flag (it said "or
    choose it in the import mapping", words of the window); and that way
    works."""
    sheet = _write(tmp_path / "judged.csv", ["q,doc,grade", "q1,a,1", "q1,b,0"])
    run = _write(tmp_path / "r.run", ["q1 Q0 a 1 2.0 r", "q1 Q0 b 2 1.0 r"])
    code = main(["evaluate", str(run), "--qrels", str(sheet)], io.StringIO())
    err = capsys.readouterr().err
    assert code == 2
    assert err == (
        f"ndcg-worksheet: error: {sheet}, line 1: no query column found in the header (q, doc, "
        "grade) (name it e.g. query/qid/query_id/topic, or import it first (`ndcg-worksheet "
        "import SHEET --map query=COLUMN -o QRELS`) and give QRELS as the qrels)\n")
    qrels = tmp_path / "judged.qrels"
    assert main(["import", str(sheet), "--map", "query=A", "-o", str(qrels)], io.StringIO()) == 0
    assert qrels.read_text("utf-8").split() == ["q1", "0", "a", "1", "q1", "0", "b", "0"]


def test_a_ranking_given_as_qrels_is_told_to_import_it_first(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``evaluate --qrels SHEET`` on a sheet whose third column counts 1..n
    in each query: the hint said "pass --map grade=C", a flag evaluate does
    not take; it says the import to run first, and that way works. The
    wizard says the same as its controls."""
    from app.import_wizard.hints import in_the_wizard

    sheet = _write(tmp_path / "run.csv", ["qid,pid,col3"] + [f"{q},{p},{r}" for q, p, r in RUN])
    run = _write(tmp_path / "r.run", ["2 Q0 1181374 1 2.0 r", "2 Q0 1181384 2 1.0 r"])
    code = main(["evaluate", str(run), "--qrels", str(sheet)], io.StringIO())
    err = capsys.readouterr().err
    assert code == 2
    hint = (
        "a run is read by `ndcg-worksheet evaluate RUN --qrels QRELS`; to import it as the "
        "ranking of graded judgments, import it first (`ndcg-worksheet import SHEET --map "
        "rank=C --map grade=COLUMN -o QRELS`) and give QRELS as the qrels; if it does hold "
        "grades, import it first (`ndcg-worksheet import SHEET --map grade=C -o QRELS`) and "
        "give QRELS as the qrels")
    assert err == (
        f"ndcg-worksheet: error: {sheet}, line 1: no grade column found in the header (qid, "
        "pid, col3); column C (col3) counts 1, 2, 3, … within each query, like a rank, not a "
        f"grade ({hint})\n")
    assert in_the_wizard(hint) == (
        "a run is read by File > Open… (it asks for the run's qrels); to import it as the "
        "ranking of graded judgments, choose “C” as the Rank with its column as the Grade "
        "(long layout); if it does hold grades, choose “C” as the Grade (long layout)")
    qrels = tmp_path / "run.qrels"
    assert main(["import", str(sheet), "--map", "grade=C", "-o", str(qrels)], io.StringIO()) == 0
    assert main(["evaluate", str(run), "--qrels", str(qrels)], io.StringIO()) == 0


def test_a_small_wide_sheet_typed_by_hand_keeps_every_annotator(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Alice and Bob grading 0-3, four rows typed by hand: Bob's 1, 2, 3
    over shoes counts its documents as a rank would, but his 2 over hats,
    a query of one document, is no rank of it (a rank there is 1): both
    are annotators' grades, read wide (Bob's grades were left out as
    'whole numbers counting each query's sources', the sheet read as long:
    Alice's alone)."""
    sheet = _write(tmp_path / "a.csv", ["query,doc,Alice,Bob", "shoes,d1,3,1", "shoes,d2,1,2",
                                        "shoes,d3,0,3", "hats,d4,2,2"])
    assert _import(sheet, capsys) == (0, "")
    lines = sheet.with_suffix(".out.csv").read_text("utf-8").splitlines()
    assert lines[0].endswith(",grade_Alice,grade_Bob")
    assert [line.split(",")[-2:] for line in lines[1:]] == [
        ["3", "1"], ["1", "2"], ["0", "3"], ["2", "2"]]


def test_a_small_sheet_whose_grades_could_be_a_rank_is_refused_naming_both_ways(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Carol and Dan, two queries of two documents: Dan's 1, 2 and 1, 2
    count each query's documents as a rank does and as grades do one time
    in sixteen: nothing tells, so the import stops in one line naming the
    column and both flags (Dan's grades were dropped as a rank's values);
    each flag then reads the sheet as said. Beside a rank named so, Bob's
    1, 2, 3 and 1, 2 are refused the same way, no second ranking offered."""
    sheet = _write(tmp_path / "b.csv", ["query,doc,Carol,Dan", "q1,a,2,1", "q1,b,1,2",
                                        "q2,c,3,1", "q2,d,0,2"])
    assert _import(sheet, capsys) == (2, (
        f"ndcg-worksheet: error: {sheet}: 1 more column of grades like Carol's is not used: "
        "Dan, counting each query's rows 1, 2, … (or 0, 1, …) as a rank does and as grades of "
        "a few small queries may: nothing tells which (pass --annotators Carol,Dan if each is "
        "one annotator's grades, --map grade=Carol to take Carol alone and leave Dan out, or "
        "--map rank=Dan if it is the ranking)\n"))
    assert _import(sheet, capsys, "--annotators", "Carol,Dan")[0] == 0
    lines = sheet.with_suffix(".out.csv").read_text("utf-8").splitlines()
    assert [line.split(",")[-2:] for line in lines[1:]] == [
        ["2", "1"], ["1", "2"], ["3", "1"], ["0", "2"]]
    assert _import(sheet, capsys, "--map", "rank=Dan")[0] == 0
    lines = sheet.with_suffix(".out.csv").read_text("utf-8").splitlines()
    assert [line.split(",")[3:5] for line in lines[1:]] == [
        ["-1", "2"], ["-2", "1"], ["-1", "3"], ["-2", "0"]]
    ranked = _write(tmp_path / "c.csv", ["query,rank,doc,Alice,Bob,Eve", "q1,1,a,3,1,2",
                                         "q1,2,b,1,2,2", "q1,3,c,0,3,1", "q2,1,d,2,1,0",
                                         "q2,2,e,2,2,3"])
    code, err = _import(ranked, capsys)
    assert code == 2
    assert err.endswith(": 1 more column of grades like Alice, Eve's is not used: Bob, counting "
                        "each query's rows 1, 2, … (or 0, 1, …) as a rank does and as grades of "
                        "a few small queries may: nothing tells which (pass --annotators "
                        "Alice,Eve,Bob if each is one annotator's grades, --annotators Alice,Eve "
                        "to take Alice, Eve only and leave Bob out)\n"), err


def test_two_columns_of_grades_that_could_both_be_ranks_are_named_together(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Ana's and Ben's grades each count both queries' documents (2, 1, 3 /
    0, 1, 2 and 1, 2, 3 / 1, 2, 3): refused naming both, with the flag that
    reads them as annotators' grades (it named Ana alone, its way out
    --map grade=C, Ben's grades dropped)."""
    sheet = _write(tmp_path / "f.csv", ["Query,Document,Ana,Ben", "q1,a,2,1", "q1,b,1,2",
                                        "q1,c,3,3", "q2,d,0,1", "q2,e,1,2", "q2,f,2,3"])
    code, err = _import(sheet, capsys)
    assert code == 2
    assert err.endswith(
        "; columns C (Ana) and D (Ben) each count 1, 2, 3, … within each query, as a rank does "
        "and as grades of a few small queries may (if each holds one annotator's grades, pass "
        "--annotators C,D; if C (Ana) is the ranking, pass --map rank=C with --map grade=D)\n"), err
    assert _import(sheet, capsys, "--annotators", "C,D")[0] == 0


def test_a_few_rows_counting_up_in_runs_are_grades_as_read(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Eve's 0, 1, 1, 1, 1, 2 count up down six rows in runs, as a batch's
    number does, and as grades 0-3 do about one time in two hundred: read
    as grades (they were left out as a batch's number, and with Carol's
    counting each query's rows as a rank's would, the import refused as
    holding no grade, naming Carol alone); Carol's are refused as could
    be a rank, naming the flag that reads both, which does."""
    sheet = _write(tmp_path / "i.csv", ["topic,Document,rank,Carol,Eve", "q1,d1,1,1,0",
                                        "q1,d2,2,3,1", "q1,d3,3,0,1", "q1,d4,4,2,1",
                                        "red scarf,d5,1,1,1", "red scarf,d6,2,0,2"])
    code, err = _import(sheet, capsys)
    assert code == 2
    assert ": 1 more column of grades like Eve's is not used: Carol, counting each " in err, err
    assert "(pass --annotators Eve,Carol if each is one annotator's grades, " in err, err
    assert _import(sheet, capsys, "--annotators", "Eve,Carol")[0] == 0
    lines = sheet.with_suffix(".out.csv").read_text("utf-8").splitlines()
    assert lines[0].endswith(",grade_Eve,grade_Carol")
    assert [line.split(",")[-2] for line in lines[1:]] == ["0", "1", "1", "1", "1", "2"]
