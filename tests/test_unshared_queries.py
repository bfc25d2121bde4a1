"""Queries the run and the qrels do not share are counted, never dropped in
silence.

A query the qrels judge and the run never ranks is in the document with its
judged rows and no ranking: ``--unranked`` decides it (``undefined``: status
``unranked``, excluded and counted; ``zero``: NDCG 0 and averaged in, which
is trec_eval ``-c`` and ranx's ``make_comparable=True``). A query the run
ranks and the qrels never judge is left out under every rule, as trec_eval
(with or without ``-c``) and ranx (``make_comparable=True``) leave it out,
and counted as ``unjudged`` beside every mean.
"""

from __future__ import annotations

import io
import json
import math
from pathlib import Path

import openpyxl
import pytest

from app.cli.main import main
from tests.test_trec_reference import QRELS, RESULTS_TRUNC, TOL, expected_rows

L = math.log2(3)
#: The issue's files: the qrels judge q1, q2, q3; the run ranks q1 and q9.
QRELS_TEXT = "q1 0 a 2\nq1 0 b 1\nq2 0 c 1\nq3 0 d 0\nq3 0 e 3\n"
RUN_TEXT = "q1 Q0 b 1 3.0 r\nq1 Q0 a 2 2.0 r\nq9 Q0 z 1 1.0 r\n"
#: q1 ranks b (1) above a (2): (1 + 2/L) / (2 + 1/L).
Q1 = (1 + 2 / L) / (2 + 1 / L)


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path]:
    run, qrels = tmp_path / "run.txt", tmp_path / "qrels.txt"
    run.write_text(RUN_TEXT)
    qrels.write_text(QRELS_TEXT)
    return run, qrels


def _evaluate(run: Path, qrels: Path, *args: str) -> str:
    out = io.StringIO()
    assert main(["evaluate", str(run), "--qrels", str(qrels), *args], out=out) == 0
    return out.getvalue()


def test_the_table_and_the_means_line_count_them(files: tuple[Path, Path]) -> None:
    text = _evaluate(*files)
    rows = {line.split()[0]: line.split()[1:] for line in text.splitlines()
            if line[:2] in ("q1", "q2", "q3", "q9")}
    assert rows == {"q1": ["ok", "2/2", f"{Q1:.4f}"], "q2": ["unranked", "1/1", "unranked"],
                    "q3": ["unranked", "2/2", "unranked"]}
    assert (f"mean NDCG@all = {Q1:.4f} over 1 query (equal-query mean; excluded: "
            "2 unranked, 1 unjudged)") in text
    assert ("unjudged: 1 query the run ranks and the qrels never judge, left out as "
            "trec_eval and ranx leave it ('q9')") in text


def test_the_json_counts_them(files: tuple[Path, Path]) -> None:
    data = json.loads(_evaluate(*files, "--format", "json"))
    assert [(q["query"], q["status"]) for q in data["queries"]] == [
        ("q1", "ok"), ("q2", "unranked"), ("q3", "unranked")]
    assert data["unjudged_queries"] == ["q9"]
    (s,) = data["summary"]
    assert (s["included"], s["excluded"]) == (1, {"unranked": 2, "unjudged": 1})
    assert s["mean"] == pytest.approx(Q1, abs=1e-15)
    assert "over 1 of 4 queries" in s["sentence"]


@pytest.mark.parametrize("parquet", ["run", "qrels", "both"])
def test_parquet_files_count_them_as_trec_text_does(files: tuple[Path, Path], parquet: str
                                                    ) -> None:
    """The same run and qrels as Parquet (either or both): the same queries,
    statuses, unjudged names and means as the TREC text (the columnar join
    had kept only the shared queries and said nothing of the others)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    run, qrels = files
    if parquet in ("run", "both"):
        rows = [line.split() for line in RUN_TEXT.splitlines()]
        run = run.with_suffix(".parquet")
        pq.write_table(pa.table({"query": [r[0] for r in rows], "source_id": [r[2] for r in rows],
                                 "score": [float(r[4]) for r in rows]}), run)
    if parquet in ("qrels", "both"):
        rows = [line.split() for line in QRELS_TEXT.splitlines()]
        qrels = qrels.with_suffix(".parquet")
        pq.write_table(pa.table({"query": [r[0] for r in rows], "source_id": [r[2] for r in rows],
                                 "grade": [float(r[3]) for r in rows]}), qrels)
    text = json.loads(_evaluate(*files, "--format", "json"))
    ours = json.loads(_evaluate(run, qrels, "--format", "json"))
    assert [(q["query"], q["status"]) for q in ours["queries"]] == [
        ("q1", "ok"), ("q2", "unranked"), ("q3", "unranked")]
    assert ours["unjudged_queries"] == text["unjudged_queries"] == ["q9"]
    assert ours["summary"] == text["summary"]


def test_unranked_zero_is_trec_eval_minus_c_and_ranx_made_comparable(
        files: tuple[Path, Path]) -> None:
    """``--unranked zero``: q2 and q3 score 0 and are averaged in; q9 stays
    out. ranx with ``make_comparable=True`` gives the same three values (and
    refuses the files as they are: "Qrels and Run query ids do not match")."""
    from ranx import Qrels, Run
    from ranx import evaluate as ranx_evaluate

    data = json.loads(_evaluate(*files, "--preset", "ranx", "--format", "json"))
    ours = {q["query"]: q["cutoffs"][0]["ndcg"] for q in data["queries"]}
    qrels = {"q1": {"a": 2, "b": 1}, "q2": {"c": 1}, "q3": {"d": 0, "e": 3}}
    run = {"q1": {"b": 3.0, "a": 2.0}, "q9": {"z": 1.0}}
    with pytest.raises(AssertionError, match="do not match"):
        ranx_evaluate(Qrels(qrels), Run(run), "ndcg")
    peer = ranx_evaluate(Qrels(qrels), Run(run), "ndcg", make_comparable=True, return_mean=False)
    assert list(ours) == ["q1", "q2", "q3"]
    assert list(ours.values()) == pytest.approx(peer.tolist(), abs=1e-12)
    (s,) = data["summary"]
    assert (s["included"], s["excluded"]) == (3, {"unjudged": 1})
    assert s["mean"] == pytest.approx(Q1 / 3, abs=1e-15)


def _trunc_run(tmp_path: Path) -> Path:
    """results.trunc with its 6 fields (trec_eval skips the junk after the
    tag, which our reader refuses): it ranks 301 and 303, not 302."""
    run = tmp_path / "results.trunc"
    run.write_text("".join(" ".join(line.split()[:6]) + "\n"
                           for line in RESULTS_TRUNC.read_text().splitlines()))
    return run


def test_the_trec_eval_preset_equals_trec_eval_minus_c(tmp_path: Path) -> None:
    """out.test.aqc is trec_eval ``-c`` on results.trunc (302 judged, never
    ranked, counts as 0 in "all"): the preset (``--unranked zero``) gives
    its every NDCG row, "all" included, 302 among the queries at 0."""
    text = _evaluate(_trunc_run(tmp_path), QRELS, "--preset", "trec_eval", "--format", "json")
    data = json.loads(text)
    expected = expected_rows("out.test.aqc")
    ours = {(None, q["query"]): q["cutoffs"][0]["ndcg"] for q in data["queries"]}
    ours[(None, "all")] = data["summary"][0]["mean"]
    assert {key for key in expected if key[0] is None} == set(ours)
    assert all(abs(ours[key] - expected[key]) <= TOL for key in ours)
    assert ours[(None, "302")] == 0.0
    assert data["summary"][0]["excluded"] == {}


def test_unranked_undefined_is_trec_eval_without_minus_c(tmp_path: Path) -> None:
    """trec_eval without ``-c`` (pytrec_eval here) evaluates the queries in
    both files only: ``--unranked undefined`` gives its mean, 302 counted
    as unranked."""
    import pytrec_eval

    run = _trunc_run(tmp_path)
    data = json.loads(_evaluate(run, QRELS, "--preset", "trec_eval", "--unranked", "undefined",
                                "--format", "json"))
    qrels: dict[str, dict[str, int]] = {}
    for line in QRELS.read_text().splitlines():
        q, _, d, g = line.split()
        qrels.setdefault(q, {})[d] = int(g)
    ranked: dict[str, dict[str, float]] = {}
    for line in run.read_text().splitlines():
        q, _, d, _, score, _ = line.split()
        ranked.setdefault(q, {})[d] = float(score)
    peer = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg"}).evaluate(ranked)
    (s,) = data["summary"]
    assert sorted(peer) == ["301", "303"]
    assert (s["included"], s["excluded"]) == (2, {"unranked": 1})
    assert s["mean"] == pytest.approx(sum(v["ndcg"] for v in peer.values()) / 2, abs=1e-12)


def test_the_workbook_counts_them(files: tuple[Path, Path], tmp_path: Path) -> None:
    out = tmp_path / "book.xlsx"
    assert main(["export", str(files[0]), "--qrels", str(files[1]), "-o", str(out)],
                out=io.StringIO()) == 0
    ws = openpyxl.load_workbook(out, data_only=True)["Summary"]
    head = [c.value for c in ws[1]]
    equal = next(row for row in ws.iter_rows(min_row=2, values_only=True) if row[0] == "equal")
    counts = dict(zip(head, equal, strict=True))
    assert (counts["included"], counts["excluded: unranked"], counts["excluded: unjudged"]) \
        == (1, 2, 1)


def test_the_editors_footer_counts_them(qtbot, files: tuple[Path, Path]) -> None:  # type: ignore[no-untyped-def]
    """The window opened on the two files: the navigator lists q1, q2, q3
    (q2 and q3 with no ranking) and the footer counts q9."""
    from PySide6.QtWidgets import QLabel

    from app.models.looks import STATUS_LOOK
    from app.window import MainWindow
    from core.engine.evaluation import Status
    from core.io.load import load_document

    window = MainWindow(load_document(files[0], qrels=files[1]))
    qtbot.addWidget(window)
    footer = window.findChild(QLabel, "aggregateFooter")
    assert footer is not None
    assert footer.text().endswith(
        f"NDCG@all {Q1:.4f} over 1 of 4 queries (excluded: 2 unranked, 1 unjudged)")
    ev = window.evaluation
    assert [(q, ev.query_status(i)) for i, q in enumerate(ev.doc.query_ids)] == [
        ("q1", Status.OK), ("q2", Status.UNRANKED), ("q3", Status.UNRANKED)]
    assert STATUS_LOOK[Status.UNRANKED].label == "– no ranking"


# -- compare: the queries neither document holds are counted ---------------------------------

#: Run B of the comparison ranks q1 (a above b), q2 and q8; with RUN_TEXT (q1, q9)
#: against QRELS_TEXT (q1, q2, q3): q3 is judged and ranked by neither run, q9
#: (A) and q8 (B) are ranked and never judged; q2 is in B's document only.
RUN_B_TEXT = "q1 Q0 a 1 3.0 r\nq1 Q0 b 2 2.0 r\nq2 Q0 c 1 1.0 r\nq8 Q0 y 1 1.0 r\n"


def _compare(run_a: Path, run_b: Path, qrels: Path, *args: str) -> str:
    out = io.StringIO()
    assert main(["compare", str(run_a), str(run_b), "--qrels", str(qrels),
                 "--resamples", "50", *args], out=out) == 0
    return out.getvalue()


def test_compare_names_the_queries_it_leaves_out(files: tuple[Path, Path]) -> None:
    run, qrels = files
    run_b = run.with_name("run_b.txt")
    run_b.write_text(RUN_B_TEXT)
    text = _compare(run, run_b, qrels)
    assert "Queries: 1 in both, 0 only in A, 1 only in B (q2)\n" in text
    assert ("Not compared: 1 query judged but ranked by neither run (q3), 2 queries ranked "
            "but never judged (q9, q8)\n") in text
    data = json.loads(_compare(run, run_b, qrels, "--format", "json"))
    assert (data["queries_in_both"], data["queries_only_in_a"], data["queries_only_in_b"]
            ) == (1, [], ["q2"])
    assert data["queries_not_compared"] == {"judged_ranked_by_neither": ["q3"],
                                            "ranked_never_judged": ["q9", "q8"]}
    # What is compared does not change: q1 alone, b above a (A) against a above b (B).
    (q1,) = data["cutoffs"][0]["queries"]
    assert (q1["query"], q1["ndcg_a"], q1["ndcg_b"]) == ("q1", pytest.approx(Q1, abs=1e-15), 1.0)


def test_compare_of_runs_sharing_every_query_says_nothing_more(files: tuple[Path, Path]) -> None:
    run, qrels = files
    qrels.write_text("q1 0 a 2\nq1 0 b 1\nq9 0 z 1\n")
    text = _compare(run, run, qrels)
    assert "Queries: 2 in both, 0 only in A, 0 only in B\n" in text
    assert "Not compared" not in text
    data = json.loads(_compare(run, run, qrels, "--format", "json"))
    assert data["queries_not_compared"] == {"judged_ranked_by_neither": [],
                                            "ranked_never_judged": []}


@pytest.mark.parametrize("suffix", [".xlsx", ".ods"])
def test_the_comparison_workbook_names_them(files: tuple[Path, Path], suffix: str) -> None:
    """The exported comparison lists, below the queries one run only holds,
    q3 (judged, ranked by neither run) and q9, q8 (ranked, never judged),
    and its Report says so; .ods is written from the same sheets."""
    from python_calamine import CalamineWorkbook

    run, qrels = files
    run_b = run.with_name("run_b.txt")
    run_b.write_text(RUN_B_TEXT)
    book = run.with_name("pair" + suffix)
    _compare(run, run_b, qrels, "--export", str(book))
    wb = CalamineWorkbook.from_path(str(book))
    sheet = wb.get_sheet_by_name("Comparison").to_python()
    firsts = [row[0] for row in sheet if row and row[0] not in (None, "")]
    at = firsts.index("queries only in A (not compared): 0")
    assert firsts[at:] == [
        "queries only in A (not compared): 0",
        "queries only in B (not compared): 1", "q2",
        "queries judged but ranked by neither run (not compared): 1", "q3",
        "queries ranked but never judged (not compared): 2", "q9", "q8"]
    report = [str(c) for row in wb.get_sheet_by_name("Report").to_python() for c in row]
    assert any("0 only in A, 1 only in B are not); not compared either: 1 query judged but "
               "ranked by neither run (q3), 2 queries ranked but never judged (q9, q8); "
               in cell for cell in report)


@pytest.mark.parametrize("form", ["parquet", "lines"])
def test_compare_counts_them_from_parquet_and_irregular_files(
        files: tuple[Path, Path], form: str) -> None:
    """Parquet files (read by the columnar join) and text the column-wise
    reader cannot take (read line by line) name the
    same queries as the regular text (an id longer than the column-wise
    reader's widest, 512 bytes, sends a file to the line reader)."""
    run, qrels = files
    run_b = run.with_name("run_b.txt")
    run_b.write_text(RUN_B_TEXT)
    if form == "parquet":
        import pyarrow as pa
        import pyarrow.parquet as pq

        rows = [line.split() for line in RUN_B_TEXT.splitlines()]
        run_b = run_b.with_suffix(".parquet")
        pq.write_table(pa.table({"query": [r[0] for r in rows], "source_id": [r[2] for r in rows],
                                 "score": [float(r[4]) for r in rows]}), run_b)
    else:
        long_id = "x" * 600
        run.write_text(RUN_TEXT + f"q1 Q0 {long_id} 3 0.5 r\n")
        qrels.write_text(QRELS_TEXT + f"q1 0 {long_id} 0\n")
        from core.io.trec import QrelsColumns, Run

        assert Run(run)._table is None
        assert QrelsColumns(qrels)._table is None
    data = json.loads(_compare(run, run_b, qrels, "--format", "json"))
    assert data["queries_not_compared"] == {"judged_ranked_by_neither": ["q3"],
                                            "ranked_never_judged": ["q9", "q8"]}


def test_compare_of_many_runs_names_them_in_every_format(files: tuple[Path, Path]) -> None:
    """Three runs (A, B and A again under another name): q3 is judged and
    ranked by no run, q9 and q8 ranked and never judged."""
    run, qrels = files
    run_b, run_c = run.with_name("run_b.txt"), run.with_name("run_c.txt")
    run_b.write_text(RUN_B_TEXT)
    run_c.write_text(RUN_TEXT)
    runs = [str(run), str(run_b), str(run_c)]

    def report(fmt: str) -> str:
        out = io.StringIO()
        assert main(["compare", *runs, "--qrels", str(qrels), "--resamples", "50",
                     "--format", fmt], out=out) == 0
        return out.getvalue()

    phrase = ("Not compared: 1 query judged but ranked by no run (q3), 2 queries ranked but "
              "never judged (q9, q8)")
    text = report("table")
    assert "Queries compared: 1 held by every run; 1 held by some runs only, not compared\n" in text
    assert f"\n{phrase}\n" in text
    assert f" 1 query held by some runs only was not compared. {phrase}." in report("markdown")
    data = json.loads(report("json"))
    assert (data["queries_compared"], data["queries_dropped"]) == (1, 1)
    assert data["queries_not_compared"] == {"judged_ranked_by_neither": ["q3"],
                                            "ranked_never_judged": ["q9", "q8"]}
    book = run.with_name("runs.xlsx")
    assert main(["compare", *runs, "--qrels", str(qrels), "--resamples", "50",
                 "--export", str(book)], out=io.StringIO()) == 0
    first = [row[0] for row in openpyxl.load_workbook(book, read_only=True)["Report"]
             .iter_rows(values_only=True) if row]
    assert ("1 query held by every run is compared; 1 held by some runs only is not; "
            "not compared either: " + phrase.removeprefix("Not compared: ")) in first


def _write_parquet(text: str, path: Path, columns: tuple[str, str, str],
                   fields: tuple[int, int, int]) -> Path:
    import pyarrow as pa
    import pyarrow.parquet as pq

    rows = [line.split() for line in text.splitlines()]
    q, s, v = fields
    pq.write_table(pa.table({columns[0]: [r[q] for r in rows], columns[1]: [r[s] for r in rows],
                             columns[2]: [float(r[v]) for r in rows]}), path)
    return path


@pytest.mark.parametrize("unshared", [False, True])
@pytest.mark.parametrize("form", ["columns", "lines", "parquet"])
def test_each_join_names_the_queries_it_leaves_out(files: tuple[Path, Path], form: str,
                                                   unshared: bool) -> None:
    """The issue's files (the run ranks q1 and q9, the qrels judge q1, q2,
    q3), joined by the column-wise join, the line-by-line join (an id of
    600 bytes) and the Parquet join: q9 is ranked and never judged, q2 and
    q3 judged and never ranked; with ``unshared`` the document holds q2 and
    q3 (so only q9 is left out) and names q9 among its unjudged queries,
    which are the first of the queries left out (derived, not kept twice)."""
    from core.io.columnar import document_from_tables
    from core.io.trec import Run, document_from_trec

    run, qrels = files
    if form == "lines":
        run.write_text(RUN_TEXT + f"q1 Q0 {'x' * 600} 3 0.5 r\n")
        assert Run(run)._table is None
    if form == "parquet":
        run = _write_parquet(RUN_TEXT, run.with_suffix(".parquet"),
                             ("query", "source_id", "score"), (0, 2, 4))
        doc = document_from_tables(run, qrels, unshared=unshared)
    else:
        doc = document_from_trec(run, qrels, unshared=unshared)
    assert doc.query_ids == (["q1", "q2", "q3"] if unshared else ["q1"])
    assert doc.queries_left_out == (("q9",), () if unshared else ("q2", "q3"))
    assert doc.unjudged_queries == (("q9",) if unshared else ())
    # Said once: the unjudged queries are the first of those left out, not a copy of them.
    doc.queries_left_out = ("q7", "q8"), doc.queries_left_out[1]
    assert doc.unjudged_queries == (("q7", "q8") if unshared else ())


def test_compare_of_parquet_reads_each_file_once(
        files: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """Run A, run B and the qrels as Parquet: each file is read once (the
    qrels once for both runs' joins, after run A); the queries left out come
    from the joins (they were read again, every file whole, for the count)."""
    import core.io.columnar as columnar

    run, qrels = files
    fields = ("query", "source_id", "score"), (0, 2, 4)
    run_a = _write_parquet(RUN_TEXT, run.with_suffix(".parquet"), *fields)
    run_b = _write_parquet(RUN_B_TEXT, run.with_name("run_b.parquet"), *fields)
    judged = _write_parquet(QRELS_TEXT, qrels.with_suffix(".parquet"),
                            ("query", "source_id", "grade"), (0, 2, 3))
    read: list[str] = []
    real = columnar.read_parquet

    def counted(path: str | Path, *more: tuple[str, ...]) -> object:
        read.append(Path(path).name)
        return real(path, *more)

    monkeypatch.setattr(columnar, "read_parquet", counted)
    data = json.loads(_compare(run_a, run_b, judged, "--format", "json"))
    assert read == ["run.parquet", "qrels.parquet", "run_b.parquet"]
    assert data["queries_not_compared"] == {"judged_ranked_by_neither": ["q3"],
                                            "ranked_never_judged": ["q9", "q8"]}
