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
