"""An LLM judge's JSON Lines (query, passage id, grade 0-3, some grades
missing or a word such as "unsure"): every line is a judgment.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.io.annotator.command import import_sheet
from core.model.document import GradeState


@pytest.mark.parametrize("suffix", [".jsonl", ".json"])
def test_a_first_record_graded_by_a_word_is_a_judgment_not_a_header_row(tmp_path: Path,
                                                                        suffix: str) -> None:
    # Before: "row 2 below the header on row 1 read as more header rows (texts
    # no answer repeats, where the rows below hold grades and numbers), not
    # as judgments": a JSON export's keys are its header, and its first
    # record (its grade a word, the grades below numbers) was lost.
    lines = [{"query_id": "q1", "passage_id": "doc-0131", "grade": "unsure"},
             {"query_id": "q1", "passage_id": "doc-0061", "grade": 2},
             {"query_id": "q1", "passage_id": "doc-0254", "grade": 0},
             {"query_id": "q2", "passage_id": "doc-0007", "grade": 3},
             {"query_id": "q2", "passage_id": "doc-0099", "grade": 1}]
    path = tmp_path / f"judge{suffix}"
    text = (json.dumps(lines) if suffix == ".json"
            else "".join(json.dumps(x) + "\n" for x in lines))
    path.write_text(text, encoding="utf-8")
    result = import_sheet(path, unrateable=("unsure",))
    doc = result.document
    assert [(doc.query_ids[int(doc.query[i])], doc.source_id[i]) for i in range(len(doc))] == [
        (x["query_id"], x["passage_id"]) for x in lines]
    assert doc.state[0] == GradeState.UNRATEABLE
    assert not any("header rows" in note for note in result.report.notes)
