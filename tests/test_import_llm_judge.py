"""An LLM judge's JSON Lines (query, passage id, grade 0-3, some grades
missing or a word such as "unsure", and the model's rationale on every
line): the rationale is each candidate's note, never left out.

Before: ``left out, not imported: rationale (40 distinct values, no role
read from them)``: a note is read from its values only where some rows have
none (a reviewer's comment box), and a judge's rationale fills every line,
as a passage's text does, which is no note. Its header is the one hint
that tells the two apart (a note changes no number, so a name may say it).
"""

from __future__ import annotations

import json
from pathlib import Path
from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.io.annotator.command import import_sheet
from core.model.document import GradeState

RATIONALE_HEADERS = ("rationale", "explanation", "reasoning", "justification")
VERBS = ("mentions", "explains step by step", "omits", "contradicts", "only links to")


def _judge_lines(rnd: Random, header: str, passage: bool) -> tuple[list[dict[str, object]],
                                                                  dict[tuple[str, str], str]]:
    """A judge's lines, a rationale on each, and the rationale by (query, passage)."""
    lines, truth = [], {}
    for q in range(rnd.randint(2, 5)):
        qid, text = f"q{q + 1}", f"question number {q + 1} about topic {rnd.randint(1, 99)}"
        for pid in rnd.sample(range(1, 500), rnd.randint(3, 8)):
            doc = f"doc-{pid:04d}"
            grade: object = rnd.choice([0, 1, 2, 3, 3, 2, None, "unsure"])
            why = (f"The passage {rnd.choice(VERBS)} what '{text}' asks; "
                   f"confidence {rnd.randint(40, 99)}%.")
            line: dict[str, object] = {"query_id": qid, "query": text, "passage_id": doc,
                                       "grade": grade, header: why}
            if passage:
                line["passage"] = f"Passage {doc}: text of a chunk, {rnd.randint(1, 9)} lines."
            lines.append(line)
            truth[(qid, doc)] = why
    return lines, truth


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**16), header=st.sampled_from(RATIONALE_HEADERS),
       passage=st.booleans())
def test_an_llm_judges_rationale_is_each_candidates_note(tmp_path_factory, seed: int,
                                                          header: str, passage: bool) -> None:
    lines, truth = _judge_lines(Random(seed), header, passage)
    path = Path(tmp_path_factory.mktemp("llm")) / "judge.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    result = import_sheet(path, unrateable=("unsure",))
    doc = result.document
    notes = {(doc.query_ids[int(doc.query[i])], doc.source_id[i]): doc.note_text(i)
             for i in range(len(doc))}
    assert notes == truth
    roles = {c["header"]: c["role"] for c in result.report.to_json()["columns"]}
    assert roles[header] == "note"
    if passage:  # the passage's text, on every line too, stays no one's note
        assert roles["passage"] != "note"


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
