"""The reviewer's note typed in the editor (a session's note edit) is saved
to the workbook (.xlsx and .ods, column H and its audit entry) and to the
worksheet CSV, and reopened as written; no number moves."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import openpyxl
import pytest

from core.engine.evaluation import evaluate
from core.io.delimited import read_delimited, write_delimited
from core.io.workbook import SHEETS, export_workbook, read_workbook
from core.model.edits import SetNotes
from core.model.examples import seed_document
from core.reports.sentences import audit_sentence
from core.session import Worksheet

#: A note as people write them: a formula-like start, a line break, a tab,
#: quotes and letters beyond ASCII.
NOTE = '=not a formula; "seen" twice\nsecond line\tünïcode'


def _noted() -> Worksheet:
    session = Worksheet(seed_document())
    session.apply(SetNotes.of([1, 5], [NOTE, "ask the lead"], who="ana"))
    return session


@pytest.mark.parametrize("suffix", [".xlsx", ".ods"])
def test_a_note_typed_is_saved_in_the_workbook_and_reopened_as_written(
        tmp_path: Path, suffix: str):
    session = _noted()
    doc = session.document
    path = tmp_path / f"book{suffix}"
    export_workbook(session.evaluation, path)
    back = read_workbook(path)
    assert back.note.tolist() == doc.note.tolist()
    assert back.note[1] == NOTE
    assert back.note[5] == "ask the lead"
    assert back.audit == doc.audit  # the notes' entries, told from grades' (about_note)
    assert [e.about_note for e in back.audit] == [True, True]
    np.testing.assert_array_equal(back.grade, doc.grade)
    np.testing.assert_array_equal(back.original_grade, seed_document().original_grade)
    before, after = evaluate(seed_document()), evaluate(back)
    np.testing.assert_array_equal(after.ndcg, before.ndcg)
    assert audit_sentence(back.audit).startswith("2 changes recorded: 2 of notes")
    if suffix == ".xlsx":  # the Candidates sheet's column H holds it, as text
        ws = openpyxl.load_workbook(path)[SHEETS["candidates"]]
        notes = [c.value for c in ws["H"][1:]]
        assert NOTE in notes
        assert "ask the lead" in notes
        assert ws["H1"].value == "note"


def test_a_note_typed_is_saved_in_the_worksheet_csv(tmp_path: Path):
    session = _noted()
    path = tmp_path / "sheet.csv"
    write_delimited(session.document, path)
    back = read_delimited(path)
    assert back.note.tolist() == session.document.note.tolist()


@pytest.mark.libreoffice
def test_notes_typed_in_the_editor_survive_a_libreoffice_save(tmp_path: Path):
    """Once through LibreOffice (headless, .xlsx): the notes typed in the
    editor come back as written, their audit entries with them; a note a
    reviewer typed in LibreOffice's column H is read as before (taken,
    counted as a note edited in the spreadsheet, not logged as a grade)."""
    from core.io.workbook import reopened
    from tests.libreoffice import edit

    session = _noted()
    doc = session.document
    book = tmp_path / "book.xlsx"
    export_workbook(session.evaluation, book)
    ws = openpyxl.load_workbook(book)[SHEETS["candidates"]]
    row = next(r for r in range(2, ws.max_row + 1) if ws.cell(r, 8).value == "ask the lead")
    other = next(r for r in range(2, ws.max_row + 1) if not ws.cell(r, 8).value)
    query, source = ws.cell(other, 1).value, ws.cell(other, 2).value
    (saved,) = edit([(book, tmp_path / "saved.xlsx", [
        {"op": "set", "sheet": "Candidates", "cell": f"H{other}", "value": "typed in Calc"},
        {"op": "set", "sheet": "Candidates", "cell": f"F{row}", "value": 3},
    ])])
    back = read_workbook(saved)
    i = next(k for k in range(len(back)) if back.query_ids[int(back.query[k])] == query
             and back.source_id[k] == source)
    assert back.note[1] == NOTE
    assert back.note[5] == "ask the lead"
    assert back.note[i] == "typed in Calc"
    assert back.audit[:2] == doc.audit  # the editor's note entries, as written
    found = reopened(back)
    assert found is not None
    assert found.notes == 1
    assert [(e.query, e.source_id, e.after, e.about_note) for e in found.grades] == [
        (doc.query_ids[int(doc.query[5])], doc.source_text(5), "3", False)]
    np.testing.assert_array_equal(back.original_grade, seed_document().original_grade)
