"""A query's text beside its id (a Label Studio task's ``data.query``
beside ``data.query_id``, a shared sheet's Question beside its Query ID) is
the query's text, kept in the document beside its id
(:attr:`~core.model.document.Document.query_texts`), not a batch's or a
group's number.

Before: ``ignored: data.query: 6 distinct values, one value over each
query's sources (a batch's or a group's number: grades vary within a
query)``, of a column of long questions; then ``...: the query named
another way (its text); not imported``: nothing kept it.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from app.cli.main import main
from core.errors import InputError
from core.io.annotator import import_annotations
from tests.sheetgen import Drawn, sheets, write_sheet

QUESTIONS = {
    "q017": "How do I rotate the API keys for the EU region, without downtime?",
    "q023": 'What does the "grace period" mean in the refund policy?',
    "q031": "Wie konfiguriere ich SSO mit Okta für Teams über 50 Nutzer?",
}


def _sheet(tmp_path, batch=False):
    lines = ["annotator,query_id,question,passage_id,relevance" + (",batch" if batch else "")]
    for n, (q, text) in enumerate(QUESTIONS.items()):
        quoted = '"' + text.replace('"', '""') + '"'
        for d, (ana, ben) in enumerate([(2, 3), (0, 1), (1, 1)]):
            for who, grade in (("ana", ana), ("ben", ben)):
                extra = f",{n + 1}" if batch else ""
                lines.append(f"{who},{q},{quoted},{q}#chunk-{d},{grade}{extra}")
    path = tmp_path / "annotations.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _reason(report, header):
    return next(c["reason"] for c in report.to_json()["columns"] if c["header"] == header)


def _role(report, header):
    return next(c["role"] for c in report.to_json()["columns"] if c["header"] == header)


def test_the_question_beside_the_query_id_is_the_querys_text(tmp_path):
    result = import_annotations(_sheet(tmp_path))
    assert result.document.query_ids == list(QUESTIONS)
    assert result.document.query_texts == QUESTIONS
    assert [result.document.query_text(q) for q in range(3)] == list(QUESTIONS.values())
    assert _role(result.report, "question") == "query_text"
    assert _reason(result.report, "question") == (
        "question, read from its values: 3 distinct values, one per query (query_id), the "
        "same on each of its rows: the query's text, shown beside its id")


def test_a_query_given_two_texts_keeps_the_first_and_says_so(tmp_path):
    path = _sheet(tmp_path)
    lines = path.read_text(encoding="utf-8").splitlines()
    # q031's last row, retyped
    lines[-1] = lines[-1].replace("über 50 Nutzer", "ueber 50 Nutzer")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = import_annotations(path)
    assert result.document.query_texts == QUESTIONS
    assert ("query 'q031' has two texts in column 'question' (rows 14 and 19): the first is "
            "kept; give each query one text to keep another") in result.report.notes


def test_a_sheet_of_questions_alone_takes_them_as_the_ids(tmp_path):
    path = tmp_path / "questions.csv"
    path.write_text("question,passage_id,relevance\n" + "".join(
        f'"{text.replace(chr(34), 2 * chr(34))}",p{d},{d}\n'
        for text in QUESTIONS.values() for d in range(3)), encoding="utf-8")
    result = import_annotations(path)
    assert result.document.query_ids == list(QUESTIONS.values())
    assert result.document.query_texts == {}
    assert result.document.query_text(0) == ""


def test_a_label_studio_tasks_query_beside_its_query_id(tmp_path):
    tasks = [{"id": 9000 + k, "data": {"query_id": q, "query": text, "doc": f"{q}-d{d}"},
              "annotations": [{"id": 500 + k, "completed_by": who, "was_cancelled": False,
                               "result": [{"value": {"choices": [["No", "Yes"][(d + who) % 2]]},
                                           "from_name": "relevance", "to_name": "doc",
                                           "type": "choices"}]} for who in (3, 7)]}
             for k, ((q, text), d) in enumerate(
                 (item, d) for item in QUESTIONS.items() for d in range(2))]
    path = tmp_path / "project-12.json"
    path.write_text(json.dumps(tasks), encoding="utf-8")
    result = import_annotations(path)
    assert result.document.query_ids == list(QUESTIONS)
    assert result.document.query_texts == QUESTIONS


def test_a_batch_number_per_query_stays_a_batchs_number(tmp_path):
    result = import_annotations(_sheet(tmp_path, batch=True))
    assert "a batch's or a group's number" in _reason(result.report, "batch")


@settings(max_examples=16, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(sheets(among=("query_text",), headers="realistic").filter(
    lambda s: bool(s.query_texts) and not s.flags), st.sampled_from([".csv", ".xlsx"]))
def test_a_drawn_sheets_query_text_is_kept(sheet: Drawn, suffix: str) -> None:
    """A drawn sheet (tests/sheetgen.py) with each query's text in a column
    of its own: the import keeps the drawn texts by the drawn queries, and
    the judgments' truth as before (or refuses where a reader would
    hesitate: a distractor reading as grades)."""
    with TemporaryDirectory() as tmp:
        path = write_sheet(sheet, Path(tmp) / f"drawn{suffix}")
        try:
            result = import_annotations(path)
        except InputError:
            assume(not (sheet.ambiguous or sheet.extra_grade))
            raise
    doc = result.document
    assert doc.query_texts == sheet.query_texts
    assert set(doc.query_ids) == set(sheet.query_texts)


def _argilla(path: Path) -> None:
    path.write_text("".join(json.dumps({
        "id": f"rec-{q}-{d}", "status": "completed", "query_id": q, "query": text,
        "document": f"{q}-doc{d}", "relevance.responses": [d % 3, (d + 1) % 3],
        "relevance.responses.users": ["u1", "u2"],
        "relevance.responses.status": ["submitted", "submitted"]}) + "\n"
        for q, text in QUESTIONS.items() for d in range(3)), encoding="utf-8")


def _prodigy(path: Path) -> None:
    options = [{"id": g, "text": t} for g, t in enumerate(
        ["Not relevant", "Relevant", "Highly relevant"])]
    path.write_text("".join(json.dumps({
        "query": text, "meta": {"query_id": q}, "doc_id": f"{q}-d{d}", "text": f"Passage {d}",
        "options": options, "accept": [(d + (who == "bob")) % 3], "answer": "accept",
        "_annotator_id": f"rel-{who}", "_session_id": f"rel-{who}"}) + "\n"
        for q, text in QUESTIONS.items() for d in range(3) for who in ("alice", "bob")),
        encoding="utf-8")


def _google_sheet(path: Path) -> None:
    rows = ["Timestamp,Email Address,Query ID,Question,Result URL,How relevant is this result?"]
    rows += [f'3/4/2024 10:{d}{n}:00,{who},{q},"{text.replace(chr(34), 2 * chr(34))}",'
             f"https://x.example/{q}/{d},{(d + n) % 4}"
             for q, text in QUESTIONS.items() for d in range(3)
             for n, who in enumerate(("ana@x.example", "ben@x.example"))]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")


@pytest.mark.parametrize(("name", "write"), [
    ("argilla.jsonl", _argilla), ("prodigy.jsonl", _prodigy), ("responses.csv", _google_sheet)])
def test_platform_exports_with_an_id_beside_the_question(tmp_path: Path, name: str,
                                                         write: Any) -> None:
    """Argilla records (``query_id`` beside ``query``), Prodigy tasks
    (``meta.query_id`` beside ``query``), a Google Sheet of form responses
    (Query ID beside Question): the ids are the queries, the texts kept."""
    path = tmp_path / name
    write(path)
    result = import_annotations(path)
    assert result.document.query_ids == list(QUESTIONS)
    assert result.document.query_texts == QUESTIONS


def test_an_import_to_csv_names_what_the_csv_does_not_keep(tmp_path: Path, capsys) -> None:
    """A worksheet CSV keeps the grades, notes, reasons and each annotator's
    grade, but no query text: the texts read beside the ids are left out,
    said in one warning line (the conventions are said with the guidelines,
    where there are some). In a new user's trial an import -o judged.csv of
    a sheet with a Query column beside its Query ID dropped them unsaid."""
    sheet = tmp_path / "a.csv"
    sheet.write_text("Query ID,Query,Doc ID,Ana,Ben\n"
                     "q1,how do I renew a passport,d1,2,3\n"
                     "q1,how do I renew a passport,d2,0,1\n"
                     "q2,lost passport abroad,d1,1,1\n"
                     "q2,lost passport abroad,d3,3,2\n", encoding="utf-8")
    code = main(["import", str(sheet), "-o", str(tmp_path / "out.csv")], io.StringIO())
    assert code == 0
    assert capsys.readouterr().err == (
        "ndcg-worksheet: warning: the CSV written keeps no query text: the texts of 2 queries "
        "read from the sheet are left out (an audited workbook, .xlsx, keeps them)\n")
    assert "grade_Ana,grade_Ben" in (tmp_path / "out.csv").read_text().splitlines()[0]
