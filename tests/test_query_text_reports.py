"""A query's text in what is made from a document: ``evaluate --format
json`` names it in each query's object after its id (``query_text``) where
the document has one, in the indented report and in the compact one (many
queries) alike (a query without one, a run's report and the CSV are as
before); a run graded with the open document (the editor's Open run) keeps
the texts of the queries it holds.

Before: no ``query_text`` key; a reader of the report saw ``q017`` alone;
the run graded with the document had no texts.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from app.cli.main import main
from core.engine.evaluation import evaluate
from core.io.pairs import run_with_judgments
from core.io.workbook import export_workbook
from core.model.conventions import Conventions
from core.model.document import Document
from core.reports.json import dump_evaluation_json, dump_json, evaluation_json

TEXT = 'How do I renew a "passport"\nissued abroad? ünïcode \x1b'


def _document(n_queries: int) -> Document:
    query = [f"q{q:04d}" for q in range(n_queries) for _ in range(3)]
    doc = Document.from_columns(query=query, source_id=["a", "b", "c"] * n_queries,
                                score=[3.0, 2.0, 1.0] * n_queries,
                                grade=[1.0, 0.0, 2.0] * n_queries)
    doc.query_texts = {f"q{q:04d}": f"{TEXT} {q}" for q in range(0, n_queries, 2)}
    return doc


@pytest.mark.parametrize("n_queries", [3, 600])  # indented, then compact (> 500)
def test_each_querys_object_names_its_text(n_queries: int):
    ev = evaluate(_document(n_queries), Conventions(cutoffs=(2, None)))
    whole, streamed = io.StringIO(), io.StringIO()
    dump_json(evaluation_json(ev), whole, rows=n_queries)
    dump_evaluation_json(ev, streamed)
    assert streamed.getvalue() == whole.getvalue()
    queries = json.loads(streamed.getvalue())["queries"]
    assert list(queries[0])[:3] == ["query", "query_text", "status"]
    assert queries[0]["query_text"] == f"{TEXT} 0"
    assert "query_text" not in queries[1]
    assert list(queries[1])[:2] == ["query", "status"]
    assert [q.get("query_text", "") for q in queries] == [
        f"{TEXT} {q}" if q % 2 == 0 else "" for q in range(n_queries)]


def test_evaluate_a_workbook_names_the_texts(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    book = tmp_path / "book.xlsx"
    export_workbook(evaluate(_document(3)), book)
    out = io.StringIO()
    assert main(["evaluate", str(book), "--format", "json"], out) == 0
    queries = json.loads(out.getvalue())["queries"]
    assert [q.get("query_text") for q in queries] == [f"{TEXT} 0", None, f"{TEXT} 2"]
    csv_out = io.StringIO()
    assert main(["evaluate", str(book), "--format", "csv"], csv_out) == 0
    assert csv_out.getvalue().splitlines()[0] == "query,k,dcg,idcg,ndcg,status,judged,total"


def test_a_run_graded_with_the_document_keeps_its_texts(tmp_path: Path):
    run = tmp_path / "bm25.run"
    run.write_text("q0001 Q0 a 1 3.5 bm25\nq0002 Q0 c 1 2.5 bm25\nq0009 Q0 a 1 1.0 bm25\n",
                   encoding="utf-8")
    graded = run_with_judgments(run, _document(3))
    assert graded.query_ids == ["q0001", "q0002"]
    assert graded.query_texts == {"q0002": f"{TEXT} 2"}


def test_a_run_judged_by_a_sheet_names_the_sheets_texts(tmp_path: Path):
    from tests.test_import_query_text import QUESTIONS, _sheet

    run = tmp_path / "bm25.run"
    run.write_text("".join(f"{q} Q0 {q}#chunk-{d} {d + 1} {3 - d}.0 bm25\n"
                           for q in ("q017", "q031") for d in range(3)), encoding="utf-8")
    out = io.StringIO()
    assert main(["evaluate", str(run), "--qrels", str(_sheet(tmp_path)), "--format", "json"],
                out) == 0
    queries = json.loads(out.getvalue())["queries"]
    # (q023: judged, never ranked, kept beside the ranked ones: its text too)
    assert {q["query"]: q["query_text"] for q in queries} == QUESTIONS
