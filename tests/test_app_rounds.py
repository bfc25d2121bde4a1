"""A review round in the window (pytest-qt): the judging queue's Next button,
the conflicts view (take one grade, keep both, undo), and Hand out / Merge
from the Review menu."""

from __future__ import annotations

import json
from pathlib import Path

import openpyxl
import pytest
from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QFontMetricsF
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QLabel, QLineEdit, QPushButton

from app.accessibility import without_mnemonic
from app.models.candidates import GridColumn
from app.review.conflicts_view import ConflictColumn, ConflictsController
from app.review.queue_view import QueueColumn, QueueController, QueueView
from app.review.rounds import NOTE_WIDTH, RoundsController
from core.analysis.queue import judging_queue
from core.analysis.rounds import Returned, merge
from core.engine.evaluation import evaluate
from core.io.workbook import read_workbook
from core.model.assignment import Assignment, Share
from core.model.conventions import ConsensusRule
from core.model.document import Document, GradeState
from core.model.edits import SetNotes
from core.session import Worksheet
from tests.test_rounds import WHEN, base_doc, grade, hand_out, row, unknown_sources
from tests.test_rounds_files import edit_grades, notes_on_both_sides, unknown_of

#: A close that would ask gets Discard (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("never_block")


def controller(window, kind):  # type: ignore[no-untyped-def]
    found = window.findChild(QObject, {QueueController: "queueController",
                                       ConflictsController: "conflictsController",
                                       RoundsController: "roundsController"}[kind])
    assert isinstance(found, kind)
    return found


def current_candidate(window) -> int:  # type: ignore[no-untyped-def]
    index = window.grid.currentIndex()
    assert index.column() == GridColumn.GRADE
    return int(window.grid_model.candidates()[index.row()])


# -- the judging queue ---------------------------------------------------------------------
def test_queue_next_button_jumps_to_the_first_unknown(qtbot, window):
    doc = base_doc([2, 3, 1], seed=4)
    window.set_document(doc)
    queue = controller(window, QueueController)
    assert not queue.dock.isVisible()  # hidden until asked for
    window.app_actions["show_queue"].trigger()
    assert queue.dock.isVisible()
    expected = judging_queue(evaluate(doc)).rows.tolist()
    qtbot.waitUntil(lambda: queue.queue is not None, timeout=10000)
    model = queue.view.model
    assert model.candidates == expected
    assert model.rowCount() == 6
    first = expected[0]
    assert model.index(0, QueueColumn.SOURCE).data() == doc.source_id[first]
    qtbot.mouseClick(queue.view.next_button, Qt.MouseButton.LeftButton)
    assert window.current_query == int(doc.query[first])
    assert current_candidate(window) == first
    # grade it with a key in the grid: the queue is worked out again without it
    qtbot.keyClick(window.grid, "2")
    assert doc.state[first] == GradeState.NUMBER
    assert doc.grade[first] == 2.0
    qtbot.waitUntil(lambda: queue.queue is not None and first not in queue.queue.rows,
                    timeout=10000)
    after = judging_queue(evaluate(doc)).rows.tolist()
    assert model.candidates == after
    qtbot.mouseClick(queue.view.next_button, Qt.MouseButton.LeftButton)
    assert current_candidate(window) == after[0]
    # undo: the candidate is back in the queue
    window.session.undo()
    qtbot.waitUntil(lambda: queue.queue is not None and first in queue.queue.rows,
                    timeout=10000)
    assert model.candidates == expected
    assert "Mean NDCG@3 between" in queue.view.message.text()


def test_queue_shows_the_reviewers_progress(qtbot, window):
    doc = base_doc([2, 3], seed=1)
    doc.assignment = Assignment("id", "base.xlsx", WHEN, (Share("ana", ("q00",), 2),
                                                          Share("ben", ("q01",), 3)))
    doc.set_grade(row(doc, "q01", unknown_sources(doc, "q01")[0]), 1.0, who="ben")
    window.set_document(doc)
    queue = controller(window, QueueController)
    window.app_actions["show_queue"].trigger()
    qtbot.waitUntil(lambda: queue.queue is not None, timeout=10000)
    progress = queue.view.progress_model
    assert progress.rows() == [("ana", 0, 2, None, None, None), ("ben", 1, 3, None, None, None)]
    assert queue.view.progress_table.isVisible()


# -- the conflicts view ---------------------------------------------------------------------
def test_queue_words_the_cores_settled_mean_not_the_printed_bounds(qtbot):
    """The view words :attr:`JudgingQueue.settled` (it compared low == high
    itself): bounds 1e-9 apart, alike at 4 decimals, are an interval; a
    grade below the cutoff cannot change the mean. Its bounds are written
    with the digits that tell them apart (they read "between 1.0000 and
    1.0000 ... by at least 0.0000": core.model.numbers.apart_digits)."""
    from tests.test_queue import _settling

    view = QueueView(lambda: 4)
    qtbot.addWidget(view)
    doc, conv = _settling(1e-9)
    ev = evaluate(doc, conv)
    view.show_queue(doc, ev, judging_queue(ev))
    assert view.message.text() == (
        "Mean NDCG@1 between 0.999999999 and 1.000000000; 1 unknown grade. Judging the "
        "first narrows it by at least 0.000000001.")
    doc, conv = _settling(0.0)  # a weighs nothing: its grade cannot move the mean
    ev = evaluate(doc, conv)
    view.show_queue(doc, ev, judging_queue(ev))
    assert view.message.text() == "Mean NDCG@1 1.0000: the 1 unknown grade cannot change it."


def merged_with_conflict() -> tuple[Document, str, str]:
    """A merged document with one open conflict (ben 0, cara 2 on q, x) and
    one taken grade."""
    doc = base_doc([3, 3], seed=8)
    doc.conventions = doc.conventions.replace(consensus=ConsensusRule.MEAN)
    ben = hand_out(doc, ["ben"])[1]["ben"]
    cara = hand_out(doc, ["cara"])[1]["cara"]
    q = ben.query_ids[0]
    x, y = unknown_sources(ben, q)[:2]
    grade(ben, q, x, 0.0, "ben")
    grade(ben, q, y, 1.0, "ben")
    grade(cara, q, x, 2.0, "cara")
    result = merge(doc, [Returned("ben.xlsx", ben), Returned("cara.xlsx", cara)],
                   who="lead", when=WHEN)
    assert len(result.conflicts) == 1
    return result.document, q, x


def test_conflicts_view_takes_one_grade_or_keeps_both(qtbot, window):
    merged, q, x = merged_with_conflict()
    window.set_document(merged)
    conflicts = controller(window, ConflictsController)
    assert conflicts.dock.isVisible()  # a merge left a conflict: shown at once
    view = conflicts.view
    assert view.model.rowCount() == 1
    assert view.model.index(0, ConflictColumn.GRADES).data() == "ben: 0, cara: 2"
    assert view.model.index(0, ConflictColumn.STATUS).data() == "open"
    assert "1 of 1 conflicts open" in view.message.text()
    rect = view.table.visualRect(view.model.index(0, ConflictColumn.QUERY))
    qtbot.mouseClick(view.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert set(view.choice_buttons) == {"ben", "cara", "both"}
    i = row(merged, q, x)
    steps = window.session.position
    qtbot.mouseClick(view.choice_buttons["cara"], Qt.MouseButton.LeftButton)
    assert (merged.state[i], merged.grade[i]) == (GradeState.NUMBER, 2.0)
    assert window.session.position == steps + 1
    assert view.model.index(0, ConflictColumn.STATUS).data() == "cara's grade"
    entry = merged.audit[-1]
    assert (entry.query, entry.source_id, entry.before, entry.after) == (q, x, "unknown", "2")
    assert entry.note == "conflict resolved: cara's grade: 2"
    assert "0 of 1 conflicts open" in view.message.text()
    # undo: open again
    qtbot.keyClick(window.grid, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert merged.state[i] == GradeState.UNKNOWN
    assert view.model.index(0, ConflictColumn.STATUS).data() == "open"
    # keep both: the consensus (mean) of the two ratings
    (both,) = [b for b in view.findChildren(QPushButton, "conflictTake_both")
               if b.isVisible()]
    assert both is view.choice_buttons["both"]
    # the grade it gives said as the consensus's, never '(1)', read as one rating
    assert both.text() == "Keep both as ratings: consensus (mean) 1  [Alt+3]"
    qtbot.mouseClick(both, Qt.MouseButton.LeftButton)
    assert merged.grade[i] == 1.0
    assert merged.ratings is not None
    assert merged.ratings[i].tolist() == [0.0, 2.0]
    assert view.model.index(0, ConflictColumn.STATUS).data() == "both, as ratings"
    assert window.session.position == steps + 1  # the undone step was replaced
    # Show candidate
    window.set_query(1 - int(merged.query[i]))
    qtbot.mouseClick(view.go_button, Qt.MouseButton.LeftButton)
    assert current_candidate(window) == i


def merged_with_both_kinds() -> tuple[Document, tuple[str, str], tuple[str, str]]:
    """A merged document with a grade conflict (ana 0, ben 2) and a note
    conflict (the lead rewrote the note after the copies went out, ana
    wrote another): two copies of the base."""
    from tests.test_rounds import copy_of

    doc = base_doc([3, 3], seed=8)
    ana, ben = copy_of(doc), copy_of(doc)
    q = doc.query_ids[0]
    x, y = unknown_sources(doc, q)[:2]
    grade(ana, q, x, 0.0, "ana")
    grade(ben, q, x, 2.0, "ben")
    Worksheet(ana).apply(SetNotes.of([row(ana, q, y)], ["page moved"], who="ana"))
    Worksheet(doc).apply(SetNotes.of([row(doc, q, y)], ["check the date"], who="lead"))
    result = merge(doc, [Returned("ana.xlsx", ana), Returned("ben.xlsx", ben)],
                   who="lead", when=WHEN)
    assert len(result.conflicts) == len(result.note_conflicts) == 1
    return result.document, (q, x), (q, y)


def test_a_note_conflict_is_listed_and_resolved_as_a_grade_conflict(qtbot, window):
    """The Conflicts dock lists the note conflict under the grade's (kind
    'note'), its buttons take the lead's or ana's note or keep both, each
    one step of the history, audited with the choice; undo opens it again;
    Edit note… opens the grid's note cell, and a note written there settles
    it too. (Before, the dock listed the grade conflict alone: fails.)"""
    merged, (q, _x), (_, y) = merged_with_both_kinds()
    window.set_document(merged)
    conflicts = controller(window, ConflictsController)
    assert conflicts.dock.isVisible()
    view = conflicts.view
    model = view.model
    assert model.rowCount() == 2
    assert [model.index(r, ConflictColumn.KIND).data() for r in range(2)] == ["grade", "note"]
    assert [model.index(1, c).data() for c in (
        ConflictColumn.QUERY, ConflictColumn.SOURCE, ConflictColumn.BASE,
        ConflictColumn.GRADES, ConflictColumn.NOW, ConflictColumn.STATUS)] == [
        q, y, "lead: check the date", "ana: page moved",
        "lead: check the date | ana: page moved", "open"]
    assert "2 of 2 conflicts open" in view.message.text()
    rect = view.table.visualRect(model.index(1, ConflictColumn.QUERY))
    qtbot.mouseClick(view.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert list(view.choice_buttons) == ["lead", "ana", "both"]
    assert [b.text() for b in view.choice_buttons.values()] == [
        "Take lead's note  [Alt+1]", "Take ana's note  [Alt+2]",
        "Keep both, each labelled  [Alt+3]"]
    assert view.edit_button.isVisible()
    i = row(merged, q, y)
    steps = window.session.position
    qtbot.mouseClick(view.choice_buttons["ana"], Qt.MouseButton.LeftButton)
    assert merged.note[i] == "page moved"
    assert window.session.position == steps + 1
    assert model.index(1, ConflictColumn.STATUS).data() == "ana's note"
    entry = merged.audit[-1]
    assert (entry.query, entry.source_id, entry.before, entry.after, entry.note) == (
        q, y, "note: lead: check the date | ana: page moved", "note: page moved",
        "note conflict resolved: ana's note: page moved")
    assert window.session.undo_text == f"resolve the note of {q}/{y}: ana's note: page moved"
    assert "1 of 2 conflicts open" in view.message.text()
    qtbot.keyClick(window.grid, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert merged.note[i] == "lead: check the date | ana: page moved"
    assert model.index(1, ConflictColumn.STATUS).data() == "open"
    view.table.setFocus()
    qtbot.keyClick(view.table, Qt.Key.Key_3, Qt.KeyboardModifier.AltModifier)
    # (each side named as whose note it is: the open note differed only by
    # its separator, "lead: check the date\nana: page moved")
    assert merged.note[i] == "lead's note: check the date\nana's note: page moved"
    assert model.index(1, ConflictColumn.STATUS).data() == "both kept"
    assert model.index(1, ConflictColumn.NOW).data() == (
        "lead's note: check the date \u21b5 ana's note: page moved")
    assert window.session.position == steps + 1
    # Edit note…: the grid's note cell, its editor open on the note
    qtbot.mouseClick(view.edit_button, Qt.MouseButton.LeftButton)
    editor = window.grid.findChild(QLineEdit, "noteEditor")
    assert editor is not None
    assert editor.isVisible()
    assert editor.text() == "lead's note: check the date\nana's note: page moved"
    editor.selectAll()
    qtbot.keyClicks(editor, "both: the page moved on the date")
    assert editor.hasFocus()
    qtbot.keyClick(editor, Qt.Key.Key_Return)  # (kept by a queued call)
    qtbot.waitUntil(lambda: merged.note[i] == "both: the page moved on the date")
    # which side the hand kept (it said "edited", whatever it kept)
    assert model.index(1, ConflictColumn.STATUS).data() == "ana's, edited"
    assert window.session.position == steps + 2
    # the grade conflict's row and buttons are as they were
    view.table.selectRow(0)
    assert list(view.choice_buttons) == ["ana", "ben", "both"]
    assert not view.edit_button.isVisible()
    assert model.index(0, ConflictColumn.GRADES).data() == "ana: 0, ben: 2"


def test_a_settled_conflict_is_greyed_below_the_open_ones(qtbot, window):
    """A conflict settled stays listed, with what settled it, but below the
    open ones and greyed; the row selected is then the next open one, its
    buttons one Alt+digit away (fails before: the settled grade conflict
    stayed first, in the open ones' colours, and stayed selected); undo
    lists it first again."""
    from app.models.looks import brush

    merged, (_q, x), (_, y) = merged_with_both_kinds()
    window.set_document(merged)
    view = controller(window, ConflictsController).view
    model = view.model
    rect = view.table.visualRect(model.index(0, ConflictColumn.QUERY))
    qtbot.mouseClick(view.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert list(view.choice_buttons) == ["ana", "ben", "both"]
    qtbot.mouseClick(view.choice_buttons["ben"], Qt.MouseButton.LeftButton)
    assert [(model.index(r, ConflictColumn.SOURCE).data(),
             model.index(r, ConflictColumn.STATUS).data()) for r in range(2)] == [
        (y, "open"), (x, "ben's grade")]
    muted = brush("muted").color()
    assert model.index(1, ConflictColumn.QUERY).data(Qt.ItemDataRole.ForegroundRole).color() == (
        muted)
    assert model.index(0, ConflictColumn.QUERY).data(Qt.ItemDataRole.ForegroundRole) is None
    assert view.table.currentIndex().row() == 0
    assert list(view.choice_buttons) == ["lead", "ana", "both"]  # the note's, next
    assert view.message.text() == (
        "1 of 2 conflicts open: different grades (the base's stayed) or notes (joined). "
        "Select one, then take one side's or keep both. Settled ones are greyed, below the "
        "open ones.")
    qtbot.keyClick(window.grid, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert [model.index(r, ConflictColumn.SOURCE).data() for r in range(2)] == [x, y]
    assert model.index(0, ConflictColumn.QUERY).data(Qt.ItemDataRole.ForegroundRole) is None


def test_the_conflicts_dock_fits_its_table_and_buttons_at_1280x800(qtbot, window):
    """In the dock's 595 px at 1280x800 the table scrolled sideways, what
    settled each ('resolved by') out of view, and a note's three choices
    pushed Edit note… and Show candidate past the dock's edge (fails
    before): the notes give way, elided, whole on hover; the buttons wrap
    onto a second row, below the table, none over another."""
    merged, _x, _y = merged_with_both_kinds()
    window.set_document(merged)
    conflicts = controller(window, ConflictsController)
    view, dock = conflicts.view, conflicts.dock
    dock.setFloating(True)
    dock.resize(595, 300)
    qtbot.waitUntil(lambda: abs(view.width() - 595) < 30)
    table = view.table
    rect = table.visualRect(view.model.index(1, ConflictColumn.QUERY))
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert list(view.choice_buttons) == ["lead", "ana", "both"]
    qtbot.wait(1)
    QApplication.processEvents()
    assert view.width() < 620  # (the buttons in one row widened it past the dock)
    assert table.horizontalHeader().length() <= table.viewport().width()
    assert not table.horizontalScrollBar().isVisible()
    buttons = [*view.choice_buttons.values(), view.edit_button, view.go_button]
    boxes = [b.geometry() for b in buttons]
    for button, box in zip(buttons, boxes, strict=True):
        assert button.isVisible()
        assert view.rect().contains(box), button.text()
        assert box.top() > table.geometry().bottom(), button.text()
        assert not any(box.intersects(other) for other in boxes if other != box)
    assert len({box.top() for box in boxes}) == 2  # (wrapped onto a second row)
    window.session.mark_saved()


def test_no_conflict_says_so(window):
    conflicts = controller(window, ConflictsController)
    assert conflicts.view.model.rowCount() == 0
    assert not conflicts.dock.isVisible()
    assert conflicts.view.message.text().startswith("No conflict")


# -- hand out and merge from the menu ---------------------------------------------------------
def _ok(dialog) -> None:  # type: ignore[no-untyped-def]
    dialog.button_box.button(QDialogButtonBox.StandardButton.Ok).click()


def test_the_round_dialogs_show_their_note_wide_and_no_empty_room(qtbot, window):
    """Hand out opened 305 px wide at 1280x800 (its note in six lines, the
    folder's field 120 px), and a dialog sized for a narrower width than
    it shows kept the difference empty above its buttons: both at least
    NOTE_WIDTH average characters wide, the notes in three and four lines,
    as tall as their contents at that width."""
    rounds = controller(window, RoundsController)
    for dialog, note_lines in ((rounds.show_hand_out(), 3), (rounds.show_merge(), 4)):
        qtbot.addWidget(dialog)
        qtbot.waitExposed(dialog)
        least = round(QFontMetricsF(dialog.font()).averageCharWidth() * NOTE_WIDTH)
        assert dialog.width() >= least
        assert dialog.height() == dialog.layout().totalHeightForWidth(dialog.width())
        note = max(dialog.findChildren(QLabel), key=lambda label: len(label.text()))
        lines = note.height() / QFontMetricsF(note.font()).lineSpacing()
        assert (dialog.objectName(), round(lines)) == (dialog.objectName(), note_lines)
        dialog.reject()


def test_hand_out_and_merge_from_the_review_menu(qtbot, window, tmp_path: Path):
    doc = base_doc([3, 2, 4], seed=2)
    window.set_document(doc)
    rounds = controller(window, RoundsController)
    dialog = rounds.show_hand_out()
    qtbot.keyClicks(dialog.reviewers, "ana,ana")
    dialog.folder.setText(str(tmp_path / "round"))
    _ok(dialog)
    # The dialog stays, nothing written; the error names no command-line flag
    # as a column (it read "column '--reviewers': the reviewer ...", the
    # command line's place in the dialog, and in `split` alike).
    assert dialog.error.text() == "the reviewer 'ana' is named twice (name each reviewer once)"
    assert dialog.isVisible()
    assert not (tmp_path / "round").exists()
    dialog.reviewers.setText("ana, ben")
    _ok(dialog)
    assert not dialog.isVisible()
    qtbot.waitUntil(lambda: rounds.last_hand_out is not None, timeout=20000)
    books = {r: tmp_path / "round" / f"untitled-{r}.xlsx" for r in ("ana", "ben")}
    assert all(p.exists() for p in books.values())
    ana = read_workbook(books["ana"])
    assert ana.assignment is not None
    assert ana.assignment.shares == (rounds.last_hand_out.share("ana"),)
    q = ana.query_ids[0]
    s = unknown_of(ana, q)[0]
    edit_grades(books["ana"], {(q, s): 3})
    notes = openpyxl.load_workbook(books["ana"])
    notes.create_sheet("Ana's notes")["A1"] = "ask about q"
    notes.save(books["ana"])
    merge_dialog = rounds.show_merge()
    merge_dialog.files.addItems([str(p) for p in books.values()])
    merge_dialog.output.setText(str(tmp_path / "merged.xlsx"))
    merge_dialog.report.setText(str(tmp_path / "merge.json"))
    _ok(merge_dialog)
    qtbot.waitUntil(lambda: window.path == tmp_path / "merged.xlsx", timeout=20000)
    assert rounds.last_merge is not None
    assert (rounds.last_merge.changes_found, rounds.last_merge.taken) == (1, 1)
    shown = window.document
    assert shown.grade[row(shown, q, s)] == 3.0
    assert shown.assignment is not None
    assert [x.reviewer for x in shown.assignment.shares] == ["ana", "ben"]
    report = json.loads((tmp_path / "merge.json").read_text())
    assert (report["changes_found"], report["taken"], report["refused"]) == (1, 1, [])
    assert report["base"] == "untitled.xlsx"
    # What the reviewer added to her workbook is in the merged one.
    kept = openpyxl.load_workbook(tmp_path / "merged.xlsx")["Ana's notes"]
    assert kept["A1"].value == "ask about q"


def test_hand_out_again_never_replaces_a_graded_workbook(qtbot, window, tmp_path: Path):
    """Hand out again into the round's folder replaced the workbooks the
    reviewers had graded (as split did): refused in the dialog, naming the
    file and what to do, nothing written; a workbook still as handed out
    is written again."""
    window.set_document(base_doc([3, 2, 4], seed=2))
    rounds = controller(window, RoundsController)
    folder = tmp_path / "round"
    books = {r: folder / f"untitled-{r}.xlsx" for r in ("ana", "ben")}
    for _ in range(2):  # the second time over workbooks still as handed out
        rounds.last_hand_out = None
        dialog = rounds.show_hand_out()
        qtbot.keyClicks(dialog.reviewers, "ana, ben")
        dialog.folder.setText(str(folder))
        _ok(dialog)
        assert not dialog.isVisible()
        qtbot.waitUntil(lambda: rounds.last_hand_out is not None, timeout=20000)
    ana = read_workbook(books["ana"])
    q = ana.query_ids[0]
    edit_grades(books["ana"], {(q, unknown_of(ana, q)[0]): 1})
    graded = books["ana"].read_bytes()
    ben = books["ben"].stat().st_mtime_ns
    dialog = rounds.show_hand_out()
    qtbot.keyClicks(dialog.reviewers, "ana, ben")
    dialog.folder.setText(str(folder))
    _ok(dialog)
    assert dialog.isVisible()
    assert dialog.error.text() == (
        f"not replaced, so that no reviewer's work is lost: {books['ana']} was graded by ana "
        "(1 grade changed) (choose another folder; or merge them first with Review > Merge "
        "returned workbooks…; or tick Replace)")
    assert books["ana"].read_bytes() == graded
    assert books["ben"].stat().st_mtime_ns == ben
    # Replace, ticked with a real click, as split's --replace.
    qtbot.mouseClick(dialog.replace, Qt.MouseButton.LeftButton)
    assert dialog.replace.isChecked()
    rounds.last_hand_out = None
    _ok(dialog)
    assert not dialog.isVisible()
    qtbot.waitUntil(lambda: rounds.last_hand_out is not None, timeout=20000)
    again = read_workbook(books["ana"])
    assert not again.audit
    assert unknown_of(again, q) == unknown_of(ana, q)  # handed out afresh


def test_merging_two_copies_of_the_document_gives_conflicts(qtbot, window, tmp_path: Path):
    """The same workbook sent to two colleagues without Hand out: Review > Merge
    takes them as reviewers of the whole document; different grades are
    conflicts, shown at once in the conflicts view."""
    import shutil

    from core.io.workbook import export_workbook

    base = tmp_path / "base.xlsx"
    export_workbook(evaluate(base_doc([3, 2], seed=4)), base)
    doc = read_workbook(base)
    window.set_document(doc)
    q = doc.query_ids[0]
    s = unknown_of(doc, q)
    copies = [tmp_path / "ana.xlsx", tmp_path / "ben.xlsx"]
    for path, grades in zip(copies, ({(q, s[0]): 1, (q, s[1]): 2}, {(q, s[0]): 3}), strict=True):
        shutil.copy(base, path)
        edit_grades(path, grades)
    rounds = controller(window, RoundsController)
    dialog = rounds.show_merge()
    dialog.files.addItems([str(p) for p in copies])
    dialog.output.setText(str(tmp_path / "merged.xlsx"))
    assert not dialog.as_ratings.isChecked()
    _ok(dialog)
    qtbot.waitUntil(lambda: window.path == tmp_path / "merged.xlsx", timeout=20000)
    result = rounds.last_merge
    assert result is not None
    assert (result.changes_found, result.taken, result.refused) == (3, 1, ())
    (conflict,) = result.conflicts
    assert (conflict.query, conflict.source_id) == (q, s[0])
    assert [(g.reviewer, g.text) for g in conflict.values] == [("ana", "1"), ("ben", "3")]
    conflicts = controller(window, ConflictsController)
    assert conflicts.dock.isVisible()
    shown = window.document
    assert shown.grade[row(shown, q, s[1])] == 2.0


def test_merge_again_never_replaces_a_merged_workbook_resolved_since(qtbot, window,
                                                                     tmp_path: Path):
    """Review > Merge over a merged workbook whose conflict the lead
    resolved and saved replaced it, the resolution lost (as merge -o did):
    refused in the dialog naming the file and what to do, nothing written;
    Replace, ticked with a real click, replaces it. A merged workbook still
    as written is written again."""
    import shutil

    from core.io.workbook import export_workbook

    base = tmp_path / "base.xlsx"
    export_workbook(evaluate(base_doc([3, 2], seed=4)), base)
    doc = read_workbook(base)
    q = doc.query_ids[0]
    s = unknown_of(doc, q)
    copies = [tmp_path / "ana.xlsx", tmp_path / "ben.xlsx"]
    for path, grade_of in zip(copies, (1, 3), strict=True):
        shutil.copy(base, path)
        edit_grades(path, {(q, s[0]): grade_of})
    rounds = controller(window, RoundsController)
    merged = tmp_path / "merged.xlsx"

    def merge_into(*, replace: bool = False):  # type: ignore[no-untyped-def]
        window.set_document(doc, base)
        rounds.last_merge = None
        dialog = rounds.show_merge()
        dialog.files.addItems([str(p) for p in copies])
        dialog.output.setText(str(merged))
        if replace:
            qtbot.mouseClick(dialog.replace, Qt.MouseButton.LeftButton)
            assert dialog.replace.isChecked()
        _ok(dialog)
        return dialog

    for _ in range(2):  # the second time over the merged workbook as written
        assert not merge_into().isVisible()
        qtbot.waitUntil(lambda: window.path == merged, timeout=20000)
    # the lead resolves the conflict (ana's grade) and saves
    conflicts = controller(window, ConflictsController)
    view = conflicts.view
    rect = view.table.visualRect(view.model.index(0, ConflictColumn.QUERY))
    qtbot.mouseClick(view.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.mouseClick(view.choice_buttons["ana"], Qt.MouseButton.LeftButton)
    assert window.save_handler is not None
    assert window.save_handler()
    resolved = merged.read_bytes()
    dialog = merge_into()
    assert dialog.isVisible()
    assert dialog.error.text() == (
        f"not replaced, so that no one's work is lost: {merged} was edited since it was "
        "merged (its audit log or notes changed) (name another merged workbook, or tick "
        "Replace)")
    assert merged.read_bytes() == resolved
    dialog.reject()
    assert not merge_into(replace=True).isVisible()
    qtbot.waitUntil(lambda: rounds.last_merge is not None and window.path == merged,
                    timeout=20000)
    again = read_workbook(merged)
    assert again.state[row(again, q, s[0])] == GradeState.UNKNOWN  # open again


def test_merge_takes_and_writes_ods_as_the_command_line_does(qtbot, window, tmp_path: Path,
                                                             monkeypatch):
    """Review > Merge offers every workbook the readers take (core's one list:
    .xlsx, .xlsm, .ods), and writes the merged workbook as .ods when asked,
    as ``merge -o MERGED.ods`` does."""
    from PySide6.QtWidgets import QFileDialog

    from app.file_formats import ODS_FILTER, XLSX_FILTER
    from core.io.workbook import export_workbook

    base = tmp_path / "base.xlsx"
    export_workbook(evaluate(base_doc([3, 2], seed=4)), base)
    window.set_document(read_workbook(base))
    ana = read_workbook(base)
    q = ana.query_ids[0]
    s = unknown_of(ana, q)[0]
    ana.set_grade(row(ana, q, s), 2.0, who="ana")
    export_workbook(evaluate(ana), tmp_path / "ana.ods")
    asked: dict[str, str] = {}

    def open_names(_parent, _title, _folder, filters):  # type: ignore[no-untyped-def]
        asked["open"] = filters
        return [str(tmp_path / "ana.ods")], filters

    def save_name(_parent, _title, _name, filters, chosen):  # type: ignore[no-untyped-def]
        asked["save"] = filters
        return str(tmp_path / "merged"), ODS_FILTER  # typed without a suffix

    monkeypatch.setattr(QFileDialog, "getOpenFileNames", staticmethod(open_names))
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(save_name))
    dialog = controller(window, RoundsController).show_merge()
    add, browse = (b for b in dialog.findChildren(QPushButton)
                   if without_mnemonic(b.text()) in ("Add…", "Browse…") and b.accessibleName() in (
                       "Add returned workbooks", "Browse for the merged workbook file"))
    add.setFocus()
    qtbot.keyClick(add, Qt.Key.Key_Space)
    assert asked["open"] == "Workbooks (*.xlsx *.xlsm *.ods)"
    assert dialog.paths() == [str(tmp_path / "ana.ods")]
    browse.setFocus()
    qtbot.keyClick(browse, Qt.Key.Key_Space)
    assert asked["save"].split(";;") == [XLSX_FILTER, ODS_FILTER]
    assert dialog.output.text() == str(tmp_path / "merged.ods")
    _ok(dialog)
    qtbot.waitUntil(lambda: window.path == tmp_path / "merged.ods", timeout=20000)
    shown = window.document
    assert shown.grade[row(shown, q, s)] == 2.0
    assert (tmp_path / "merged.ods").read_bytes()[:2] == b"PK"


def test_a_note_changed_on_both_sides_is_reported_by_the_merge(qtbot, window, tmp_path: Path):
    """The lead writes a note after mailing a copy, the reviewer another on
    the same candidate: Review > Merge says there is a note conflict, and
    the merged workbook it opens holds both notes, labelled (the reviewer's
    alone had replaced the lead's, no word said: fails before)."""
    from core.io.workbook import export_workbook

    base = tmp_path / "base.xlsx"
    export_workbook(evaluate(base_doc([3, 2], seed=4)), base)
    ana = tmp_path / "ana.xlsx"
    q, s = notes_on_both_sides(base, ana)
    window.set_document(read_workbook(base), base)
    rounds = controller(window, RoundsController)
    messages: list[str] = []
    window.statusBar().messageChanged.connect(messages.append)
    dialog = rounds.show_merge()
    dialog.files.addItems([str(ana)])
    dialog.output.setText(str(tmp_path / "merged.xlsx"))
    _ok(dialog)
    qtbot.waitUntil(lambda: window.path == tmp_path / "merged.xlsx", timeout=20000)
    result = rounds.last_merge
    assert result is not None
    assert [(c.query, c.source_id, c.values) for c in result.note_conflicts] == [
        (q, s, (("ana", "page moved"),))]
    # (said last: the merged workbook's "Opened ..." had replaced it at once)
    assert window.statusBar().currentMessage().endswith(
        "; 1 note conflict (both notes kept, joined)"), messages
    shown = window.document
    assert shown.note[row(shown, q, s)] == "lead: check the date | ana: page moved"
    # the merged workbook Merge opened lists it in the Conflicts dock, shown
    conflicts = controller(window, ConflictsController)
    assert conflicts.dock.isVisible()
    model = conflicts.view.model
    assert [(model.index(r, ConflictColumn.KIND).data(), model.index(r, ConflictColumn.STATUS)
             .data()) for r in range(model.rowCount())] == [("note", "open")]


def test_a_conflict_whose_candidate_is_gone_stays_among_the_open_ones(qtbot, window):
    """A conflict whose candidate left the document is not settled: nothing
    answered its reviewers' disagreement. It is listed among the open ones,
    in their colours, counted open, and the message says there is nothing to
    take (fails before: it was greyed below the note conflict still open,
    and counted settled, '1 of 2 conflicts open')."""
    from dataclasses import replace

    merged, _grade, (_, y) = merged_with_both_kinds()
    a = merged.assignment
    assert a is not None
    merged.assignment = replace(a, conflicts=tuple(
        replace(c, source_id="removed-later") for c in a.conflicts))
    window.set_document(merged)
    view = controller(window, ConflictsController).view
    model = view.model
    assert [(model.index(r, ConflictColumn.SOURCE).data(),
             model.index(r, ConflictColumn.STATUS).data()) for r in range(2)] == [
        ("removed-later", "candidate gone"), (y, "open")]
    assert model.settled == [False, False]
    assert model.index(0, ConflictColumn.QUERY).data(Qt.ItemDataRole.ForegroundRole) is None
    assert view.message.text() == (
        "2 of 2 conflicts open: different grades (the base's stayed) or notes (joined). "
        "Select one, then take one side's or keep both. 1 of them without its candidate "
        "(no longer in the document): nothing to take there.")
    rect = view.table.visualRect(model.index(0, ConflictColumn.QUERY))
    qtbot.mouseClick(view.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert view.choice_buttons == {}
    assert not view.go_button.isEnabled()
