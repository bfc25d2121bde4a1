"""Why a grade is unknown: an item every annotator declined (Prodigy's
``ignore``, Argilla's ``discarded``, Label Studio's cancelled annotation),
judged only in rejected work or left as drafts keeps its unknown grade
(the numbers as before) and carries the reason beside it ("declined by 2
annotators"): in the document, the worksheet CSV, the workbook (.xlsx and
.ods) reopened, the journal, an undo, a hand-out; a grade typed replaces
the unknown and the audit keeps the reason. The files are those of
tests/test_declined_by_all.py, whose hand-derived NDCGs hold still."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pytest

from core.engine.evaluation import evaluate
from core.io.annotator import import_annotations
from core.io.delimited import read_delimited, write_delimited
from core.io.journal import Journal
from core.io.workbook import export_workbook, read_workbook
from core.model.choices import UnknownRule
from core.model.conventions import Conventions
from core.model.document import Document, GradeState
from core.model.edits import GradeValue, SetGrades
from core.model.grades import audit_grade, unknown_counted
from core.session import Worksheet
from tests.test_declined_by_all import _DRAFTS, _ITEMS, _SHAPES, _ZERO

#: The reason each shape's file gives d2 (rank 2 of 4): both annotators
#: declined it, save Argilla 2.x's flattened export, which lists a
#: discarded response only where it holds a value (u1's 2; u2's, none, is
#: in no list: one annotator seen declining).
_DECLINED = {"argilla 1.x": "declined by 2 annotators", "argilla 2.x": "declined by 1 annotator",
             "prodigy": "declined by 2 annotators", "label studio": "declined by 2 annotators"}


def _doc(shape: str, tmp_path: Path, items: list = _ITEMS) -> Document:
    write, ext, flags = _SHAPES[shape]
    path = tmp_path / f"export.{ext}"
    write(path, items)
    rubric = None
    if flags:  # (Label Studio's: the rubric named)
        from core.model.conventions import Rubric
        rubric = Rubric.parse(flags[1])
    return import_annotations(path, rubric=rubric).document


def _row(doc: Document, source: str) -> int:
    return int(np.flatnonzero(doc.source_id == source)[0])


@pytest.mark.parametrize("shape", list(_SHAPES))
def test_the_declined_item_carries_its_reason_beside_the_unknown_grade(
        shape: str, tmp_path: Path) -> None:
    """d2 is unknown with the reason the file gives; the others carry none;
    the numbers are as before (the unknown grade as 0: 3.5 / (3 + 1/log2 3))."""
    doc = _doc(shape, tmp_path)
    assert doc.source_id.tolist() == ["d1", "d2", "d3", "d4"]
    assert doc.state.tolist() == [0, 1, 0, 0]
    assert doc.reason.tolist() == ["", _DECLINED[shape], "", ""]
    assert doc.unknown_reasons(np.arange(4)) == {"declined": 1}
    assert unknown_counted(int(evaluate(doc).n_unknown[0]),
                           doc.unknown_reasons(doc.members(0))) == "1 unknown, 1 of them declined"
    conv = Conventions().replace(unknown=UnknownRule.ZERO)
    assert evaluate(doc, conv).ndcg[0, 0] == pytest.approx(_ZERO)


def test_rejected_work_and_drafts_say_so(tmp_path: Path) -> None:
    """Mechanical Turk's two rejected assignments of d2 (two workers) and
    Argilla's two drafts of d2 give their own reasons."""
    sheet = tmp_path / "Batch_1_batch_results.csv"
    lines = ["HITId,AssignmentId,WorkerId,AssignmentStatus,Input.query,Input.doc,Input.rank,"
             "Answer.relevance"]
    for k, (d, rank, rs) in enumerate(_ITEMS):
        for u, v, s in rs:
            lines.append(f"H{rank},A{k}{u},W{u},{'Rejected' if s == 'discarded' else 'Approved'},"
                         f"q,{d},{rank},{2 if v is None else v}")
    sheet.write_text("\n".join(lines) + "\n", encoding="utf-8")
    doc = import_annotations(sheet).document
    assert doc.reason.tolist() == ["", "rejected work only, by 2 annotators", "", ""]
    assert doc.unknown_reasons(np.arange(4)) == {"rejected": 1}
    drafts = _doc("argilla 1.x", tmp_path, _DRAFTS)
    assert drafts.reason.tolist() == ["", "drafts only, by 2 annotators", "", ""]
    assert unknown_counted(1, drafts.unknown_reasons(np.arange(4))) == (
        "1 unknown, 1 of them with drafts alone")


def test_a_grade_typed_replaces_the_unknown_and_the_audit_keeps_the_reason(
        tmp_path: Path) -> None:
    """Typing 2 for d2: a number, no reason; the audit entry's from says
    why it was unknown. Undo puts the reason back; typing unknown over the
    declined unknown changes nothing (no step)."""
    session = Worksheet(_doc("prodigy", tmp_path))
    doc, d2 = session.document, 1
    change = session.apply(SetGrades.of([d2], [GradeValue.typed(2.0, GradeState.NUMBER)],
                                        who="ana"))
    assert (doc.state[d2], doc.grade[d2], doc.reason[d2]) == (0, 2.0, "")
    entry = change.audit[0]
    assert (entry.before, entry.after) == ("unknown: declined by 2 annotators", "2")
    assert audit_grade(entry.before) == "unknown"
    session.undo()
    assert (doc.state[d2], doc.reason[d2]) == (1, "declined by 2 annotators")
    same = session.apply(SetGrades.of([d2], [GradeValue.typed(None, GradeState.UNKNOWN)],
                                      who="ana"))
    assert not len(same.rows)
    assert doc.reason[d2] == "declined by 2 annotators"


@pytest.mark.parametrize("suffix", [".xlsx", ".ods"])
def test_the_reason_is_kept_through_the_workbook(tmp_path: Path, suffix: str) -> None:
    """Saved and reopened: d2 unknown with its reason; after d3 is regraded
    and the workbook saved again, still; the numbers the same."""
    session = Worksheet(_doc("prodigy", tmp_path))
    path = tmp_path / f"book{suffix}"
    export_workbook(session.evaluation, path)
    back = read_workbook(path)
    assert back.reason.tolist() == ["", "declined by 2 annotators", "", ""]
    assert back.state.tolist() == [0, 1, 0, 0]
    session.apply(SetGrades.of([1], [GradeValue.typed(3.0, GradeState.NUMBER)], who="ana"))
    export_workbook(session.evaluation, path)
    again = read_workbook(path)
    assert again.reason.tolist() == ["", "", "", ""]
    assert again.audit[-1].before == "unknown: declined by 2 annotators"
    assert again.original_state.tolist() == [0, 1, 0, 0]


def test_the_reason_is_kept_in_the_worksheet_csv(tmp_path: Path) -> None:
    doc = _doc("label studio", tmp_path)
    path = tmp_path / "sheet.csv"
    write_delimited(doc, path)
    with open(path, newline="", encoding="utf-8") as fh:
        assert [r["reason"] for r in csv.DictReader(fh)] == ["", "declined by 2 annotators",
                                                             "", ""]
    assert read_delimited(path).reason.tolist() == ["", "declined by 2 annotators", "", ""]


def test_the_journal_puts_the_reason_back_with_an_undo(tmp_path: Path) -> None:
    """A grade typed then undone, journaled step by step: replayed on the
    imported document, d2 is unknown with its reason again (set_grade kept
    only an unrateable grade's reason: the undo's line lost it)."""
    session = Worksheet(_doc("prodigy", tmp_path))
    journal = Journal(tmp_path / "export.jsonl", directory=tmp_path / "journals")
    journal.record(session.document, session.apply(
        SetGrades.of([1], [GradeValue.typed(1.0, GradeState.NUMBER)], who="ana")))
    journal.record(session.document, session.undo())
    base = _doc("prodigy", tmp_path)
    assert journal.replay(base).applied == 2
    assert (base.state[1], base.reason[1]) == (1, "declined by 2 annotators")
    assert [e.before for e in base.audit] == ["unknown: declined by 2 annotators", "1"]


def test_a_hand_out_carries_the_reason(tmp_path: Path) -> None:
    """Each reviewer's workbook of a round holds d2 with its reason."""
    from core.analysis.queue import judging_queue
    from core.analysis.rounds import plan_hand_out, reviewer_document

    doc = _doc("prodigy", tmp_path)
    ev = evaluate(doc)
    plan = plan_hand_out(doc, judging_queue(ev), ["ana"], when="2026-12-07T19:00:00")
    handed = reviewer_document(doc, ev, plan, "ana")
    assert handed.reason.tolist()[_row(handed, "d2")] == "declined by 2 annotators"
    path = tmp_path / "ana.xlsx"
    export_workbook(evaluate(handed), path)
    assert read_workbook(path).reason.tolist()[_row(handed, "d2")] == "declined by 2 annotators"


def test_a_copy_graded_where_the_item_was_declined_merges_as_any_unknown(
        tmp_path: Path) -> None:
    """A copy of the base mailed to ana, who grades d2 3: the merge takes
    it (no conflict with the base, whose d2 is still the unknown sent) and
    counts d2 among the unknown ones handed out. The entry's from says
    "unknown: declined by 2 annotators": read as "unknown", not as a grade
    the base had since changed."""
    from core.analysis.rounds import Returned, merge

    base = _doc("prodigy", tmp_path)
    ana = base.subset(np.arange(len(base), dtype=np.int64))
    ana.set_grade(1, 3.0, who="ana")
    result = merge(base, [Returned("ana.xlsx", ana)], who="lead", when="2026-12-07T19:00:00")
    assert (result.taken, len(result.conflicts)) == (1, 0)
    assert result.document.grade[1] == 3.0
    assert [(r.assigned, r.graded) for r in result.reviewers] == [(1, 1)]


def test_a_run_judged_by_the_sheet_carries_the_reason(tmp_path: Path) -> None:
    """A run given the export as its judgments (evaluate RUN --qrels SHEET,
    compare, the editor's run opened with a sheet): d2, ranked by the run
    and declined by both annotators in the sheet, is unknown there too, and
    says why; d5, which the sheet never lists, is unknown with no reason;
    the numbers are those of the join (the reason changes none)."""
    from core.io.annotator.qrels import run_with_judgments

    write, ext, _ = _SHAPES["prodigy"]
    sheet = tmp_path / f"export.{ext}"
    write(sheet, _ITEMS)
    run = tmp_path / "run.txt"
    run.write_text("".join(f"q Q0 d{i} {i} {10 - i} bm25\n" for i in range(1, 6)),
                   encoding="utf-8")
    doc = run_with_judgments(run, sheet)
    assert doc.source_id.tolist() == ["d1", "d2", "d3", "d4", "d5"]
    assert doc.state.tolist() == [0, 1, 0, 0, 1]
    assert doc.reason.tolist() == ["", "declined by 2 annotators", "", "", ""]
    assert unknown_counted(int(evaluate(doc).n_unknown[0]), doc.unknown_reasons(
        doc.members(0))) == "2 unknown, 1 of them declined"


@pytest.mark.libreoffice
def test_the_reason_survives_a_libreoffice_round_trip(tmp_path: Path) -> None:
    """The workbook (.xlsx and .ods) opened in LibreOffice (through UNO), d3
    regraded 2 there and saved in its format: reopened, d3's edit is taken
    and d2 is still unknown, declined by 2 annotators."""
    import openpyxl

    from core.io.workbook import SHEETS
    from tests.libreoffice import edit

    doc = _doc("prodigy", tmp_path)
    jobs = []
    for suffix in (".xlsx", ".ods"):
        book = tmp_path / f"book{suffix}"
        export_workbook(evaluate(doc), book)
        jobs.append((book, tmp_path / f"lo{suffix}"))
    ws = openpyxl.load_workbook(jobs[0][0])[SHEETS["candidates"]]
    at = next(r for r in range(2, ws.max_row + 1) if ws.cell(r, 2).value == "d3")
    assert ws.cell(1, 6).value == "current grade"
    change = [{"op": "set", "sheet": "Candidates", "cell": f"F{at}", "value": 2}]
    for back in map(read_workbook, edit([(a, b, change) for a, b in jobs])):
        assert back.state.tolist() == [0, 1, 0, 0]
        assert back.grade[2] == 2.0
        assert back.reason.tolist() == ["", "declined by 2 annotators", "", ""]
