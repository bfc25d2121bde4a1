"""A candidate marked unrateable with a reason (X, "paywall"): its audit
entry says the reason, as the grid's cell does ('unrateable: paywall'), in
the Audit sheet of the workbook saved and reopened, in the journal replayed,
and the merge of a copy still reads the grade alone (a new user's trial:
the entry said 'unrateable', the reason shown only in the grade cell)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from core.engine.evaluation import evaluate
from core.io.delimited import read_delimited
from core.io.journal import Journal
from core.io.workbook import export_workbook, read_workbook
from core.model.document import Document, GradeState
from core.model.edits import GradeValue, SetGrades
from core.session import Worksheet


def _doc() -> Document:
    return Document.from_columns(query=["q1"] * 3, source_id=["d1", "d2", "d3"],
                                 score=[3.0, 2.0, 1.0], grade=[2.0, 1.0, 0.0])


def _marked(doc: Document) -> Worksheet:
    session = Worksheet(doc)
    session.apply(SetGrades.of([1], [GradeValue.typed(None, GradeState.UNRATEABLE, "paywall")],
                               who="ana"))
    return session


def test_the_audit_entry_says_the_unrateable_reason(tmp_path: Path) -> None:
    session = _marked(_doc())
    doc = session.document
    assert [(e.source_id, e.before, e.after) for e in doc.audit] == [
        ("d2", "1", "unrateable: paywall")]
    session.apply(SetGrades.of([1], [GradeValue.typed(2.0, GradeState.NUMBER)], who="ana"))
    assert (doc.audit[-1].before, doc.audit[-1].after) == ("unrateable: paywall", "2")
    session.undo()  # the reason back, and said so
    assert (doc.audit[-1].before, doc.audit[-1].after) == ("2", "unrateable: paywall")
    # the Audit sheet of the workbook saved and reopened
    export_workbook(evaluate(doc), tmp_path / "book.xlsx")
    back = read_workbook(tmp_path / "book.xlsx")
    assert [(e.before, e.after) for e in back.audit] == [
        ("1", "unrateable: paywall"), ("unrateable: paywall", "2"),
        ("2", "unrateable: paywall")]


def test_the_journal_replays_the_entry_with_its_reason(tmp_path: Path) -> None:
    sheet = tmp_path / "sheet.csv"
    sheet.write_text("query,source_id,score,grade\nq1,d1,3,2\nq1,d2,2,1\nq1,d3,1,0\n",
                     encoding="utf-8")
    doc = read_delimited(sheet)
    journal = Journal(sheet, directory=tmp_path / "journals")
    entry = doc.set_grade(1, None, GradeState.UNRATEABLE, who="ana", reason="paywall")
    journal.record_grade(doc, 1, who=entry.who)
    fresh = read_delimited(sheet)
    journal.replay(fresh)
    assert [(e.before, e.after) for e in fresh.audit] == [("1", "unrateable: paywall")]


def test_a_copy_regrading_an_unrateable_candidate_merges_without_a_conflict() -> None:
    """The base's d2 unrateable (paywall) when the copy was sent; the copy
    grades it 2: its entry's from, 'unrateable: paywall', is the grade the
    base still holds, so the merge takes it, no conflict."""
    from core.analysis.rounds import Returned, merge

    base = _marked(_doc()).document
    copy = base.subset(np.arange(len(base), dtype=np.int64))
    copy.set_grade(1, 2.0, who="bo")
    assert copy.audit[-1].before == "unrateable: paywall"
    result = merge(base, [Returned("bo.xlsx", copy)], who="lead", when="2026-12-07T19:00:00")
    assert (result.taken, len(result.conflicts)) == (1, 0)
    assert result.document.grade[1] == 2.0


def test_the_merge_entry_taking_an_unrateable_mark_says_its_reason() -> None:
    """A reviewer's copy marks d3 unrateable, 'paywall': the merge's own
    entry ('taken from bo') says 'unrateable: paywall', as the reviewer's
    entry does (a new user's trial: the merged workbook's Audit sheet said
    the reason in ana's entry and 'unrateable' alone in the merge's, the
    Candidates sheet's cell 'unrateable' too)."""
    from core.analysis.rounds import Returned, merge

    base = _doc()
    copy = base.subset(np.arange(len(base), dtype=np.int64))
    copy.set_grade(2, None, GradeState.UNRATEABLE, who="bo", reason="paywall")
    result = merge(base, [Returned("bo.xlsx", copy)], who="lead", when="2026-12-07T19:00:00")
    assert [(e.who, e.before, e.after, e.note) for e in result.document.audit] == [
        ("bo", "0", "unrateable: paywall", ""),
        ("lead", "0", "unrateable: paywall", "taken from bo")]
    assert result.document.reason_text(2) == "paywall"
