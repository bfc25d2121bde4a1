"""An annotators' export of JSON records (Label Studio's, Argilla's) given
where a worksheet goes (``evaluate export.json``) is named as what it is,
with the two commands that read it; it was read as a CSV: "line 1: no
'query' column in the header ([)", or a JSON Lines record of Argilla's,
holding a "query" key, printed whole as that header.
"""

from __future__ import annotations

import io
import json

import pytest

from app.cli.main import main

LABEL_STUDIO = [{"id": 4102, "data": {"query_id": "q017", "passage_id": "doc#chunk-12"},
                 "annotations": [{"completed_by": 3, "was_cancelled": False, "result": [
                     {"from_name": "relevance", "to_name": "passage", "type": "choices",
                      "value": {"choices": ["Relevant"]}}]}]}]
ARGILLA = {"id": "b1852f27", "status": "completed", "query": "How do I rotate keys, safely?",
           "query_id": "q017", "passage_id": "doc#chunk-12", "relevance.responses": [2]}


@pytest.mark.parametrize(("name", "text"), [
    ("project-12-at-2026-12-03.json", json.dumps(LABEL_STUDIO)),
    ("records.jsonl", json.dumps(ARGILLA) + "\n"),
])
def test_json_records_given_as_the_worksheet_are_named_so(tmp_path, capsys, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    assert main(["evaluate", str(path)], io.StringIO()) == 2
    err = capsys.readouterr().err
    assert err == (
        f"ndcg-worksheet: error: {path}: these are JSON records (an annotators' export, "
        "such as Label Studio's or Argilla's): judgments without a ranking, not a worksheet "
        f"(give them as a run's judgments: evaluate RUN --qrels {name}; or read them into a "
        f"worksheet: ndcg-worksheet import {name} -o OUT.xlsx)\n")


def test_json_that_holds_no_records_is_not_named_records(tmp_path, capsys):
    """Only what the import reads as records (a list, or one a line) is
    named so, with the two commands that read it: compare's own JSON report
    (an indented object) was said to be 'JSON records (an annotators'
    export ...)', its commands failing in turn, and a TREC run named .json
    too, where it was 'this looks like a TREC run file' (both fail before)."""
    report = tmp_path / "results.json"
    run = tmp_path / "bm25.run"
    run.write_text("q1 Q0 d1 1 2.5 bm25\nq1 Q0 d2 2 1.5 bm25\n", encoding="utf-8")
    qrels = tmp_path / "q.qrels"
    qrels.write_text("q1 0 d1 2\n", encoding="utf-8")
    qrels.write_text("q1 0 d1 2\nq1 0 d2 0\n", encoding="utf-8")
    with report.open("w", encoding="utf-8") as out:  # (compare's report)
        assert main(["compare", str(run), str(run), "--qrels", str(qrels), "--format",
                     "json"], out) == 0
    capsys.readouterr()
    assert main(["evaluate", str(report)], io.StringIO()) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"ndcg-worksheet: error: {report}: this is a report this program "
                          "wrote (ndcg-worksheet compare --format json)"), err
    named = tmp_path / "bm25.json"
    named.write_text(run.read_text(encoding="utf-8"), encoding="utf-8")
    assert main(["evaluate", str(named)], io.StringIO()) == 2
    assert capsys.readouterr().err == (
        f"ndcg-worksheet: error: {named}: this looks like a TREC run file (name its "
        "judgments with --qrels QRELS)\n")
