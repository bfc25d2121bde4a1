"""A reviewer fixes a query's text (a typo in the question an import read
beside the id): one step of the session's one undo history
(:class:`~core.model.edits.SetQueryText`), undone and redone, journaled
and replayed after a crash, saved with the workbook; no number moves and
no audit entry is made (the text is no judgment).

Before: no edit of a query's text existed.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from core.engine.evaluation import evaluate
from core.io.journal import Journal
from core.io.workbook import export_workbook, read_workbook
from core.model.conventions import Conventions, Rubric
from core.model.document import Document
from core.model.edits import Kept, SetQueryText
from core.session import Changes, Worksheet

TYPO = "How do I renwe a passport?"
FIXED = "How do I renew a passport?"


def _document() -> Document:
    doc = Document.from_columns(query=["q017", "q017", "q9"], source_id=["a", "b", "c"],
                                score=[2.0, 1.0, 1.0], grade=[1.0, 2.0, 0.0])
    doc.query_texts = {"q017": TYPO}
    return doc


def test_a_text_fixed_is_one_step_undone_and_redone():
    session = Worksheet(_document())
    ndcg = session.evaluation.ndcg.copy()
    seen: list[Changes] = []
    session.subscribe(seen.append)
    changes = session.apply(SetQueryText(0, FIXED, who="ana"))
    assert session.document.query_texts == {"q017": FIXED}
    assert (changes.query_text, changes.queries.tolist(), changes.empty) == (True, [0], False)
    assert session.modified
    assert session.undo_text == "edit the query's text"
    assert session.document.audit == []
    np.testing.assert_array_equal(session.evaluation.ndcg, ndcg)
    session.apply(SetQueryText(1, "ninth query", who="ana"))  # q9 had none
    assert session.document.query_texts == {"q017": FIXED, "q9": "ninth query"}
    session.undo()
    session.undo()
    assert session.document.query_texts == {"q017": TYPO}
    assert not session.modified
    session.redo()
    assert session.document.query_texts == {"q017": FIXED}
    assert [c.origin for c in seen] == ["app", "app", "undo", "undo", "redo"]
    assert session.apply(SetQueryText(0, FIXED, who="ana")).empty  # the same: no step
    session.apply(SetQueryText(0, "", who="ana"))  # taken away
    assert session.document.query_texts == {}


def test_a_text_fixed_is_journaled_and_replayed(tmp_path: Path):
    book = tmp_path / "book.xlsx"
    export_workbook(evaluate(_document()), book)
    session = Worksheet(read_workbook(book))
    journal = Journal(book, directory=tmp_path / "journal")
    session.subscribe(lambda c: None if c.empty else journal.record(session.document, c))
    session.apply(SetQueryText(0, FIXED, who="ana"))
    session.apply(SetQueryText(1, "ninth query", who="ana"))
    session.undo()
    assert [e["kind"] for e in journal.entries()] == ["query_text"] * 3
    fresh = read_workbook(book)
    kept = Kept(fresh)
    result = journal.replay(fresh, kept)
    assert (result.applied, result.skipped) == (3, [])
    assert fresh.query_texts == {"q017": FIXED}
    assert not kept.unchanged()
    kept.put_back()
    assert fresh.query_texts == {"q017": TYPO}


def test_a_text_fixed_is_saved_with_the_workbook(tmp_path: Path):
    session = Worksheet(_document())
    session.apply(SetQueryText(0, FIXED, who="ana"))
    book = tmp_path / "book.ods"
    export_workbook(session.evaluation, book)
    assert read_workbook(book).query_texts == {"q017": FIXED}


def test_a_worksheet_csv_says_it_keeps_no_texts():
    """Saved as a worksheet CSV (or TREC qrels), the texts are lost: the
    editor's question before the save names them (never dropped in
    silence)."""
    from core.io.delimited import not_kept, qrels_not_kept

    doc = _document()
    assert not_kept(doc) == ["the texts of 1 query"]
    assert "the texts of 1 query" in qrels_not_kept(doc)
    doc.query_texts = {}
    assert not_kept(doc) == []


def test_a_reviewers_hand_out_keeps_the_texts_of_its_queries():
    """A review round's hand-out (each reviewer's workbook) keeps the
    texts of the queries it gives the reviewer, so the reviewer reads the
    question too."""
    from core.analysis.queue import judging_queue
    from core.analysis.rounds import plan_hand_out, reviewer_document

    doc = Document.from_columns(query=["q017", "q017", "q9", "q9"], source_id=list("abcd"),
                                score=[2.0, 1.0, 2.0, 1.0], grade=[1.0, None, None, 0.0],
                                conventions=Conventions(rubric=Rubric.parse("0,1,2")))
    doc.query_texts = {"q017": TYPO}
    ev = evaluate(doc)
    plan = plan_hand_out(doc, judging_queue(ev), ["ana", "ben"], when="2026-12-07T15:00:00")
    given = {r: reviewer_document(doc, ev, plan, r) for r in ("ana", "ben")}
    held = {r: d.query_ids for r, d in given.items()}
    assert sorted(q for ids in held.values() for q in ids) == ["q017", "q9"]
    for handed in given.values():
        assert handed.query_texts == ({"q017": TYPO} if "q017" in handed.query_ids else {})
