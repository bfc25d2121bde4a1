"""A query's text in compare's reports: ``compare RUN RUN --qrels SHEET
--format json`` names each query's text after its id (``query_text``) in
every cutoff's per-query rows, as ``evaluate --format json`` does; the
comparison workbook's Comparison sheet shows it in a column of its own
(T, after the hidden helpers, as the Queries sheet's column R), beside the
shared queries and those only one run holds. Run A's text names a query,
run B's where A has none. The table prints the id
alone, as evaluate's table does; with TREC qrels (no texts) nothing changes.

Before: no ``query_text`` key in compare's JSON, no text in the Comparison
sheet (the Queries sheets of A and B had them); then the lists of the
queries only in A or B gave their ids alone.
"""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import numpy as np
import openpyxl

from app.cli.main import main
from core.analysis.compare import compare
from core.io.workbook import SHEETS
from core.io.workbook.comparison import TEXT_COLUMN
from core.io.workbook.export import export_comparison_workbook
from core.io.workbook.layout import COMPARISON_HEADER_ROW, COMPARISON_SHEETS, QUERY_TEXT
from core.model.conventions import Conventions
from core.model.document import Document
from tests.test_import_query_text import QUESTIONS, _sheet


def _runs(tmp_path: Path) -> tuple[Path, Path]:
    paths = []
    for name, score in (("a.run", lambda d: 3.0 - d), ("b.run", lambda d: 1.0 + d)):
        path = tmp_path / name
        path.write_text("".join(f"{q} Q0 {q}#chunk-{d} {d + 1} {score(d)} bm25\n"
                                for q in ("q017", "q031") for d in range(3)), encoding="utf-8")
        paths.append(path)
    return paths[0], paths[1]


def _run(args: list[str]) -> str:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err):
        assert main(args, out) == 0, err.getvalue()
    return out.getvalue()


def test_compare_json_names_each_querys_text(tmp_path: Path) -> None:
    run_a, run_b = _runs(tmp_path)
    found = json.loads(_run(["compare", str(run_a), str(run_b), "--qrels",
                             str(_sheet(tmp_path)), "--k", "2", "--k", "all", "--resamples", "20",
                             "--format", "json"]))
    for cutoff in found["cutoffs"]:
        queries = cutoff["queries"]
        assert [list(q)[:3] for q in queries] == [["query", "query_text", "ndcg_a"]] * 2
        assert {q["query"]: q["query_text"] for q in queries} == {
            q: QUESTIONS[q] for q in ("q017", "q031")}


def test_the_table_names_the_query_by_its_id_as_evaluates(tmp_path: Path) -> None:
    run_a, run_b = _runs(tmp_path)
    sheet = str(_sheet(tmp_path))
    evaluated = _run(["evaluate", str(run_a), "--qrels", sheet])
    table = _run(["compare", str(run_a), str(run_b), "--qrels", sheet, "--resamples", "20"])
    for text in QUESTIONS.values():
        assert text not in evaluated
        assert text not in table
    assert "\nq017 " in evaluated
    assert "\nq017 " in table


def _document(texts: dict[str, str], scores: list[float]) -> Document:
    doc = Document.from_columns(query=["q1"] * 2 + ["q2"] * 2 + ["q3"] * 2,
                                source_id=["a", "b"] * 3, score=scores,
                                grade=[2.0, 0.0, 1.0, 3.0, 0.0, 1.0])
    doc.query_texts = texts
    return doc


def test_run_as_text_names_the_query_else_run_bs() -> None:
    c = compare(_document({"q1": "A's q1", "q3": "A's q3"}, [2, 1] * 3),
                _document({"q1": "B's q1", "q2": "B's q2"}, [1, 2] * 3),
                Conventions(cutoffs=(1,)), resamples=20)
    assert [c.query_text(i) for i in range(3)] == ["A's q1", "B's q2", "A's q3"]
    none = compare(_document({}, [2, 1] * 3), _document({}, [1, 2] * 3),
                   Conventions(cutoffs=(1,)), resamples=20)
    assert not none.has_query_texts
    assert none.query_text(0) == ""


def test_the_comparison_sheet_shows_the_texts(tmp_path: Path) -> None:
    run_a, run_b = _runs(tmp_path)
    book = tmp_path / "compared.xlsx"
    _run(["compare", str(run_a), str(run_b), "--qrels", str(_sheet(tmp_path)),
          "--k", "2", "--k", "all", "--resamples", "20", "--export", str(book)])
    wb = openpyxl.load_workbook(book)
    ws = wb[COMPARISON_SHEETS["comparison"]]
    top = COMPARISON_HEADER_ROW + 1  # (1-based)
    assert ws.cell(top, TEXT_COLUMN + 1).value == QUERY_TEXT
    rows = [(ws.cell(r, 1).value, ws.cell(r, TEXT_COLUMN + 1).value)
            for r in range(top + 1, top + 5)]
    assert rows == [(q, QUESTIONS[q]) for q in ("q017", "q017", "q031", "q031")]
    assert not ws.column_dimensions["T"].hidden
    assert ws.print_area.startswith(f"'{COMPARISON_SHEETS['comparison']}'!$A$1:$T$")
    # (the Queries sheets of A and B had them already)
    assert wb[SHEETS["queries"]]["R2"].value == QUESTIONS["q017"]


def test_without_texts_the_comparison_sheet_has_no_column(tmp_path: Path) -> None:
    run_a, run_b = _runs(tmp_path)
    qrels = tmp_path / "judged.qrels"
    qrels.write_text("".join(f"{q} 0 {q}#chunk-{d} {d}\n" for q in ("q017", "q031")
                             for d in range(3)), encoding="utf-8")
    book = tmp_path / "compared.xlsx"
    found = json.loads(_run(["compare", str(run_a), str(run_b), "--qrels", str(qrels),
                             "--resamples", "20", "--format", "json", "--export", str(book)]))
    assert all("query_text" not in q for c in found["cutoffs"] for q in c["queries"])
    ws = openpyxl.load_workbook(book)[COMPARISON_SHEETS["comparison"]]
    assert ws.cell(COMPARISON_HEADER_ROW + 1, TEXT_COLUMN + 1).value is None
    assert ws.print_area.startswith(f"'{COMPARISON_SHEETS['comparison']}'!$A$1:$N$")


def _listed(ws, title: str) -> list[tuple[object, object]]:
    """The rows of the Comparison sheet's list titled ``title``: its title's
    text column, then each query and its text."""
    top = next(r for r in range(1, ws.max_row + 1)
               if str(ws.cell(r, 1).value).startswith(title))
    n = int(str(ws.cell(top, 1).value).rsplit(": ", 1)[1])
    return [(ws.cell(r, 1).value, ws.cell(r, TEXT_COLUMN + 1).value)
            for r in range(top, top + n + 1)]


def test_the_queries_only_one_run_holds_are_listed_with_their_texts(tmp_path: Path) -> None:
    """q023 ranked by A alone, q031 by B alone: each list names the query's
    text from the run that holds it (the sheet's), as the per-query rows do;
    the queries judged but ranked by neither have none to give."""
    paths = []
    for name, queries in (("a.run", ("q017", "q023")), ("b.run", ("q017", "q031"))):
        path = tmp_path / name
        path.write_text("".join(f"{q} Q0 {q}#chunk-{d} {d + 1} {3.0 - d} bm25\n"
                                for q in queries for d in range(3)), encoding="utf-8")
        paths.append(path)
    book = tmp_path / "compared.xlsx"
    _run(["compare", str(paths[0]), str(paths[1]), "--qrels", str(_sheet(tmp_path)),
          "--resamples", "20", "--export", str(book)])
    ws = openpyxl.load_workbook(book)[COMPARISON_SHEETS["comparison"]]
    assert _listed(ws, "queries only in A") == [
        ("queries only in A (not compared): 1", QUERY_TEXT), ("q023", QUESTIONS["q023"])]
    assert _listed(ws, "queries only in B") == [
        ("queries only in B (not compared): 1", QUERY_TEXT), ("q031", QUESTIONS["q031"])]
    assert ws.cell(COMPARISON_HEADER_ROW + 2, TEXT_COLUMN + 1).value == QUESTIONS["q017"]
    last = max(r for r in range(1, ws.max_row + 1) if ws.cell(r, 1).value == "q031")
    assert ws.print_area.startswith(f"'{COMPARISON_SHEETS['comparison']}'!$A$1:$T${last + 1}")


def test_a_text_of_a_query_only_one_run_holds_opens_the_column(tmp_path: Path) -> None:
    """The shared queries without texts, a query only in B with one: the
    column is there for it (its header over the per-query rows too)."""
    a = _document({}, [2, 1] * 3).subset(np.arange(4))
    b = _document({"q3": "B's q3"}, [1, 2] * 3).subset(np.array([0, 1, 4, 5]))
    c = compare(a, b, Conventions(cutoffs=(1,)), resamples=20)
    assert (c.only_a, c.only_b) == (["q2"], ["q3"])
    assert [c.text_of(q) for q in ("q1", "q2", "q3")] == ["", "", "B's q3"]
    book = tmp_path / "compared.xlsx"
    export_comparison_workbook(c, book)
    ws = openpyxl.load_workbook(book)[COMPARISON_SHEETS["comparison"]]
    assert ws.cell(COMPARISON_HEADER_ROW + 1, TEXT_COLUMN + 1).value == QUERY_TEXT
    assert ws.cell(COMPARISON_HEADER_ROW + 2, TEXT_COLUMN + 1).value is None
    assert _listed(ws, "queries only in A") == [
        ("queries only in A (not compared): 1", None), ("q2", None)]
    assert _listed(ws, "queries only in B") == [
        ("queries only in B (not compared): 1", QUERY_TEXT), ("q3", "B's q3")]
