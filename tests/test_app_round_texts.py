"""A conflict of a query's text in the Conflicts dock (pytest-qt): listed
beside the grades' and the notes' (kind 'text'), settled by Keep the base's
text or Take a reviewer's, one undoable step each, audited with the choice;
undo opens it again. Before, a merge dropped the reviewers' texts and the
dock had no such row."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QObject, Qt

from app.review.conflicts_view import ConflictColumn, ConflictsController
from core.analysis.rounds import Returned, merge
from core.model.document import Document
from tests.test_round_texts import FIXED, _base, _fix, _holder, _shares
from tests.test_rounds import WHEN, copy_of

#: A close that would ask gets Discard (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("never_block")

LEAD = "How do I renew my passport?"


def _merged() -> tuple[Document, str]:
    base = _base()
    shares = _shares(base)
    who = _holder(shares, "q00")
    _fix(shares[who], "q00", FIXED, who)
    later = copy_of(base)
    _fix(later, "q00", LEAD, "lead")
    result = merge(later, [Returned(f"{w}.xlsx", d) for w, d in shares.items()],
                   who="lead", when=WHEN)
    assert len(result.text_conflicts) == 1
    return result.document, who


def test_a_text_conflict_is_listed_and_settled_by_one_sides_text(qtbot, window):
    merged, who = _merged()
    window.set_document(merged)
    found = window.findChild(QObject, "conflictsController")
    assert isinstance(found, ConflictsController)
    view = found.view
    assert found.dock.isVisible()
    model = view.model
    assert model.rowCount() == 1
    joined = f"base: {LEAD} | {who}: {FIXED}"
    assert [model.index(0, c).data() for c in ConflictColumn] == [
        "q00", "—", "text", f"base: {LEAD}", f"{who}: {FIXED}", joined, "open"]
    assert "queries' texts (joined)" in view.message.text()
    rect = view.table.visualRect(model.index(0, ConflictColumn.QUERY))
    qtbot.mouseClick(view.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert list(view.choice_buttons) == ["base", who]
    assert [b.text() for b in view.choice_buttons.values()] == [
        "Keep the base's text  [Alt+1]", f"Take {who}'s text  [Alt+2]"]
    assert not view.edit_button.isVisible()
    q = merged.query_index("q00")
    steps = window.session.position
    qtbot.mouseClick(view.choice_buttons[who], Qt.MouseButton.LeftButton)
    assert merged.query_text(q) == FIXED
    assert window.session.position == steps + 1
    assert model.index(0, ConflictColumn.STATUS).data() == f"{who}'s text"
    entry = merged.audit[-1]
    assert (entry.about_text, entry.query, entry.before, entry.after, entry.note) == (
        True, "q00", f"text: {joined}", f"text: {FIXED}",
        f"text conflict resolved: {who}'s text: {FIXED}")
    qtbot.keyClick(window.grid, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert merged.query_text(q) == joined
    assert model.index(0, ConflictColumn.STATUS).data() == "open"
    assert merged.audit[-1].note == f"undo of text conflict resolved: {who}'s text: {FIXED}"
    view.table.setFocus()
    qtbot.keyClick(view.table, Qt.Key.Key_1, Qt.KeyboardModifier.AltModifier)
    assert merged.query_text(q) == LEAD
    assert model.index(0, ConflictColumn.STATUS).data() == "base's text"
    assert found.open_count() == 0
    window.session.mark_saved()
