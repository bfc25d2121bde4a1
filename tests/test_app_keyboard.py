"""Grading without the mouse (pytest-qt, real key clicks): F6 and Shift+F6
through the panels in screen order, Ctrl+J to the next unknown candidate and
a digit to grade it, Ctrl+Shift+J for the judging queue's next, Alt+1 to take
a conflict's first choice, every one of these keys listed under F1, and each
menu's items taken by their underlined letters (no letter twice in a menu)."""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import QApplication, QDockWidget, QMenu, QTableView

from app.keyboard import KeyboardNavigation
from app.review.conflicts_view import ConflictsController
from app.review.queue_view import QueueController
from core.analysis.queue import first_unknown, next_unknown
from core.engine.evaluation import evaluate
from core.model.document import Document, GradeState
from core.model.edits import GradeValue
from tests.test_app_rounds import merged_with_conflict
from tests.test_rounds import row

#: A close that would ask gets Discard (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("never_block")


def press(qtbot, key, modifier=Qt.KeyboardModifier.NoModifier) -> None:  # type: ignore[no-untyped-def]
    """A key typed where the focus is, as a person types it."""
    target = QApplication.focusWidget()
    assert target is not None
    qtbot.keyClick(target, key, modifier)


def pane_of(window, widget) -> QObject | None:  # type: ignore[no-untyped-def]
    nav = window.findChild(KeyboardNavigation, "keyboardNavigation")
    return next((p for p in nav.panes() if p is widget or p.isAncestorOf(widget)), None)


def doc_with_unknowns() -> Document:
    """Two queries; the grid's order is by score: q1 = c (3), a (2), b (1)."""
    return Document.from_columns(
        query=["q1", "q1", "q1", "q2", "q2"], source_id=["a", "b", "c", "x", "y"],
        score=[2.0, 1.0, 3.0, 2.0, 1.0], grade=[None, 1.0, None, 2.0, None])


def test_next_unknown_in_the_grids_order():
    ev = evaluate(doc_with_unknowns())
    assert next_unknown(ev) == 2  # q1's c, ranked first
    assert next_unknown(ev, after=2) == 0  # then a
    assert next_unknown(ev, after=0) == 4  # then q2's y
    assert next_unknown(ev, after=4) == 2  # wrapping around
    done = doc_with_unknowns()
    for i in (0, 2, 4):
        done.set_grade(i, None, GradeState.UNRATEABLE, who="x", reason="empty page")
    assert next_unknown(evaluate(done)) is None  # unrateable is judged
    assert [first_unknown(ev, q) for q in (0, 1)] == [2, 4]
    assert first_unknown(evaluate(done), 0) is None


def test_a_query_comes_with_its_first_unknown_not_retrieved_row_current(qtbot, window):
    """Coming to a query whose ranked candidates are all graded, the
    cursor is on the first unknown judged-but-not-retrieved one (the grids'
    order, as Next unknown's: core.analysis.queue.first_unknown), the
    keyboard's focus with it: a digit typed grades it. It stayed on the
    ranked grid's first row, graded (fails before)."""
    window.set_document(Document.from_columns(
        query=["q1", "q1", "q2", "q2", "q2", "q2"], source_id=["a", "b", "x", "y", "z", "w"],
        score=[2.0, 1.0, 2.0, 1.0, None, None], grade=[None, 1.0, 2.0, 0.0, 1.0, None]))
    doc = window.document
    window.set_query(0)
    window.grid.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is window.grid)
    press(qtbot, Qt.Key.Key_Down, Qt.KeyboardModifier.ControlModifier)  # Next query
    assert window.current_query == 1
    rest = window.not_retrieved_view
    assert int(window.not_retrieved_model.candidates()[rest.currentIndex().row()]) == 5  # w
    assert QApplication.focusWidget() is rest
    press(qtbot, Qt.Key.Key_3)
    assert doc.grade[5] == 3.0
    assert doc.grade[[2, 3, 4]].tolist() == [2.0, 0.0, 1.0]


def test_f6_cycles_the_panels_in_screen_order(qtbot, window):
    window.grid.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is window.grid)
    nav = window.findChild(KeyboardNavigation, "keyboardNavigation")
    panes = nav.panes()
    assert len(panes) >= 3  # the navigator, the grid, the right-hand panels
    xs = [p.mapTo(window, p.rect().topLeft()).x() for p in panes]
    assert xs == sorted(xs)
    seen = [pane_of(window, window.grid)]
    for _ in range(len(panes)):
        press(qtbot, Qt.Key.Key_F6)
        seen.append(pane_of(window, QApplication.focusWidget()))
    assert seen[-1] is seen[0]  # round the whole window, back to the grid
    assert set(seen) == set(panes)
    press(qtbot, Qt.Key.Key_F6, Qt.KeyboardModifier.ShiftModifier)
    assert pane_of(window, QApplication.focusWidget()) is seen[-2]  # one panel back
    navigator = window.findChild(QDockWidget, "queryNavigatorDock") or window.navigator
    assert any(p is navigator or p.isAncestorOf(window.navigator) for p in seen)


def test_grading_the_unknown_ones_with_ctrl_j_and_digits(qtbot, window):
    window.set_document(doc_with_unknowns())
    window.grid.setFocus()
    doc = window.document
    shown = window.grid_model.candidates()
    window.grid.setCurrentIndex(window.grid_model.index(0, window.grid.currentIndex().column()))
    assert int(shown[0]) == 2  # on c, unknown: the next one after it is a
    for expected, key in ((0, Qt.Key.Key_1), (4, Qt.Key.Key_0), (2, Qt.Key.Key_3)):
        press(qtbot, Qt.Key.Key_J, Qt.KeyboardModifier.ControlModifier)
        shown = window.grid_model.candidates()
        assert int(shown[window.grid.currentIndex().row()]) == expected
        assert window.current_query == int(doc.query[expected])
        press(qtbot, key)
    assert doc.state.tolist() == [GradeState.NUMBER] * 5
    assert doc.grade.tolist() == [1.0, 1.0, 3.0, 2.0, 0.0]
    press(qtbot, Qt.Key.Key_J, Qt.KeyboardModifier.ControlModifier)
    assert "No grade is unknown" in window.statusBar().currentMessage()


def test_a_digit_on_a_querys_last_row_moves_on_to_the_next_query(qtbot, window):
    """A digit grades the row and moves down; on a query's last row it moves
    to the next query (the query list's order), onto its first row still
    unknown, as the status bar says, so a reviewer typing on grades the next
    query instead of grading that last row again or the new query's graded
    first row; after the list's last query it stays."""
    window.set_document(doc_with_unknowns())
    doc = window.document
    window.set_query(0)
    window.grid.setFocus()
    assert window.grid.currentIndex().row() == 0
    for key in (Qt.Key.Key_3, Qt.Key.Key_2, Qt.Key.Key_0):  # q1: c, a, b
        press(qtbot, key)
    assert doc.grade[[2, 0, 1]].tolist() == [3.0, 2.0, 0.0]
    assert window.current_query == 1
    assert window.grid_model.candidates().tolist() == [3, 4]  # q2: x (graded 2), y
    assert window.grid.currentIndex().row() == 1  # y, the first unknown
    assert window.statusBar().currentMessage() == (
        "Query q1: its last row graded; now query q2")
    press(qtbot, Qt.Key.Key_1)  # y, the last row of the last query
    assert doc.grade[[3, 4]].tolist() == [2.0, 1.0]  # x kept its grade
    assert doc.grade[1] == 0.0  # q1's last row kept its grade
    assert window.current_query == 1
    assert window.grid.currentIndex().row() == 1
    assert window.statusBar().currentMessage() == (
        "Query q2: its last row graded; it is the last query in the list")


def test_next_query_lands_on_the_first_row_still_to_grade(qtbot, window):
    """Next query (Ctrl+Down), Previous query (Ctrl+Up) and the navigator put
    the cursor on the query's first unknown row in rank order, not on a row
    graded already (a digit typed at once replaced x's grade); on the first
    row when none is unknown. Ctrl+Z gives the grade back and shows its cell."""
    window.set_document(doc_with_unknowns())
    doc = window.document
    window.grid.setFocus()
    assert window.grid.currentIndex().row() == 0  # q1's c, unknown
    press(qtbot, Qt.Key.Key_3)  # c; the cursor on a, the second row
    press(qtbot, Qt.Key.Key_Down, Qt.KeyboardModifier.ControlModifier)  # Next query
    assert window.current_query == 1
    assert window.grid.currentIndex().row() == 1  # y, not x graded 2
    assert QApplication.focusWidget() is window.grid
    press(qtbot, Qt.Key.Key_1)
    assert doc.grade[[3, 4]].tolist() == [2.0, 1.0]  # y got it, x kept its 2
    press(qtbot, Qt.Key.Key_Up, Qt.KeyboardModifier.ControlModifier)  # Previous query
    assert window.current_query == 0
    assert int(window.grid_model.candidates()[window.grid.currentIndex().row()]) == 0  # a
    press(qtbot, Qt.Key.Key_Down, Qt.KeyboardModifier.ControlModifier)  # q2: none unknown
    assert window.current_query == 1
    assert window.grid.currentIndex().row() == 0
    press(qtbot, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)  # y's 1 taken back
    assert doc.state[4] == GradeState.UNKNOWN
    assert doc.grade[3] == 2.0
    assert window.current_query == 1
    assert window.grid.currentIndex().row() == 1
    assert window.statusBar().currentMessage() == (
        "Undid grade q2/y: unknown → 1 (the grade is unknown again)")
    nav = window.navigator.view  # q1 taken in the navigator with the mouse
    qtbot.mouseClick(nav.viewport(), Qt.MouseButton.LeftButton,
                     pos=nav.visualRect(nav.model().index(0, 0)).center())
    assert window.current_query == 0
    assert window.grid.currentIndex().row() == 1  # a, after c graded 3
    assert doc.grade[2] == 3.0


def test_undo_and_redo_show_the_cell_they_changed(qtbot, window):
    """Undo and Redo select the grade cell they changed, in its query, and
    say what they did: after a query's last row graded moved the grid on to
    the next query, Ctrl+Z goes back to that row (not the query's first),
    and the status bar no longer says "now query q2"."""
    window.set_document(doc_with_unknowns())
    doc = window.document
    window.set_query(0)
    window.grid.setFocus()
    for key in (Qt.Key.Key_3, Qt.Key.Key_2, Qt.Key.Key_0):  # q1: c, a, b (b was 1)
        press(qtbot, key)
    assert window.current_query == 1
    press(qtbot, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert doc.grade[1] == 1.0
    assert window.current_query == 0
    current = window.grid.currentIndex()
    assert int(window.grid_model.candidates()[current.row()]) == 1  # b, q1's third row
    assert current.row() == 2
    assert QApplication.focusWidget() is window.grid
    assert window.statusBar().currentMessage() == "Undid grade q1/b: 1 → 0 (the grade is 1 again)"
    press(qtbot, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)  # a, q1's second row
    assert doc.state[0] == GradeState.UNKNOWN
    assert window.grid.currentIndex().row() == 1
    assert window.statusBar().currentMessage() == (
        "Undid grade q1/a: unknown → 2 (the grade is unknown again)")
    window.grid.setCurrentIndex(window.grid_model.index(0, window.grid.currentIndex().column()))
    press(qtbot, Qt.Key.Key_Y, Qt.KeyboardModifier.ControlModifier)  # Redo
    assert doc.grade[0] == 2.0
    assert window.current_query == 0
    assert window.grid.currentIndex().row() == 1

    assert window.statusBar().currentMessage() == (
        "Redid grade q1/a: unknown → 2 (the grade is 2 again)")


def test_an_undone_grade_says_what_the_grade_is_now(qtbot, window):
    """'Undid grade q1/a: 1.3333 → 2' read as if the grade were 2 now: the
    status says what the undo left (the audit entry's after), one grade's
    or how many went back."""
    window.set_document(doc_with_unknowns())
    doc = window.document
    window.set_query(0)
    assert window.set_grade(0, 4 / 3)
    assert window.set_grade(0, 2.0)
    assert window.set_grades([0, 1], [GradeValue(3.0, GradeState.NUMBER)] * 2)
    window.grid.setFocus()
    press(qtbot, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert window.statusBar().currentMessage() == (
        "Undid set 2 grades (2 grades back as they were)")
    press(qtbot, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert doc.grade[0] == 4 / 3
    assert window.statusBar().currentMessage() == (
        "Undid grade q1/a: 1.3333 → 2 (the grade is 1.3333 again)")
    press(qtbot, Qt.Key.Key_Y, Qt.KeyboardModifier.ControlModifier)
    assert window.statusBar().currentMessage() == (
        "Redid grade q1/a: 1.3333 → 2 (the grade is 2 again)")


def test_undo_into_a_query_the_filter_hides_leaves_no_other_query_selected(qtbot, window):
    """Undo shows the grade it changed in its query; where the queries'
    filter hides that query, no query of the list is selected: it kept
    the query filtered for (4104 of a Quepid case at 1366x768) selected
    over the grid of the undone one (4101), and a digit typed then graded
    4101's row."""
    window.set_document(doc_with_unknowns())
    window.set_query(0)
    window.grid.setFocus()
    press(qtbot, Qt.Key.Key_3)  # q1's c (ranked first)
    nav = window.navigator
    qtbot.keyClicks(nav.filter_edit, "q2")
    window.set_query(1)
    assert [i.row() for i in nav.view.selectionModel().selectedRows()] == [0]  # q2, alone
    window.grid.setFocus()
    press(qtbot, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert window.document.state[2] == GradeState.UNKNOWN
    assert window.current_query == 0  # the grid shows q1, which the filter hides
    assert nav.view.selectionModel().selectedRows() == []
    assert not nav.view.currentIndex().isValid()
    nav.filter_edit.clear()  # shown again, q1 is the grid's query still
    assert window.current_query == 0


@pytest.fixture
def linux_desktop_keys(monkeypatch):  # type: ignore[no-untyped-def]
    """The standard shortcuts as a Linux desktop (X11, Wayland) gives them:
    Redo is Ctrl+Shift+Z alone there (the offscreen platform's scheme, the
    tests', is Windows', which has Ctrl+Y too): Qt's own answer replaced.
    Asked before ``window``."""
    from PySide6.QtGui import QKeySequence

    Key = QKeySequence.StandardKey
    desktop = {Key.Undo: ["Ctrl+Z"], Key.Redo: ["Ctrl+Shift+Z"]}
    real = QKeySequence.keyBindings
    monkeypatch.setattr(QKeySequence, "keyBindings", lambda key: (
        [QKeySequence(k) for k in desktop[key]] if key in desktop else real(key)))


def test_ctrl_y_redoes_on_a_linux_desktop(linux_desktop_keys, qtbot, window):
    """Ctrl+Y redoes, as in spreadsheets, where the desktop's Redo is
    Ctrl+Shift+Z alone (tried under Xvfb: Ctrl+Y did nothing); Ctrl+Shift+Z
    still redoes."""
    window.set_document(doc_with_unknowns())
    doc = window.document
    window.set_query(0)
    window.grid.setFocus()
    press(qtbot, Qt.Key.Key_3)  # q1's c, ranked first
    press(qtbot, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert doc.state[2] == GradeState.UNKNOWN
    press(qtbot, Qt.Key.Key_Y, Qt.KeyboardModifier.ControlModifier)
    assert doc.grade[2] == 3.0
    assert window.statusBar().currentMessage() == (
        "Redid grade q1/c: unknown → 3 (the grade is 3 again)")
    press(qtbot, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    shift_ctrl = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    press(qtbot, Qt.Key.Key_Z, shift_ctrl)
    assert doc.grade[2] == 3.0


def test_ctrl_z_in_the_cutoffs_field_undoes_the_change_typed_there(
        linux_desktop_keys, qtbot, window):
    """Cutoffs typed in their field and Enter, then Ctrl+Z with the focus still
    there undoes that change, and Ctrl+Shift+Z redoes it, the focus staying in
    the field (tried under Xvfb: Ctrl+Z did nothing, the field taking the key
    for its own history, empty once the change was shown). A text refused,
    then the document's own cutoffs typed over it: Ctrl+Z put the refused text
    back in the field, with no error, the cutoffs unchanged."""
    panel = window.conventions_panel
    field = panel.cutoffs_edit
    assert window.conventions.cutoffs == (1, 2, None)
    window.activateWindow()
    panel.scroll_area.ensureWidgetVisible(field)
    field.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is field)
    shift_ctrl = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier

    def type_in(text: str) -> None:
        field.selectAll()
        qtbot.keyClicks(field, text)
        press(qtbot, Qt.Key.Key_Return)

    type_in("1, 3, all")
    assert window.conventions.cutoffs == (1, 3, None)
    press(qtbot, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert window.conventions.cutoffs == (1, 2, None)
    assert field.text() == "1, 2, all"
    assert QApplication.focusWidget() is field
    press(qtbot, Qt.Key.Key_Z, shift_ctrl)
    assert window.conventions.cutoffs == (1, 3, None)
    assert field.text() == "1, 3, all"
    type_in("/tmp/saved.ods")  # refused at the field
    assert "/tmp/saved.ods" in panel.field_errors["cutoffs"].text()
    type_in("1, 3, all")  # the document's own: no change, the error gone
    assert not panel.field_errors["cutoffs"].text()
    press(qtbot, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert window.conventions.cutoffs == (1, 2, None)
    assert field.text() == "1, 2, all"
    # A text being typed is the field's own to undo, as in any field.
    field.selectAll()
    qtbot.keyClicks(field, "5")
    press(qtbot, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert field.text() == "1, 2, all"
    assert window.conventions.cutoffs == (1, 2, None)


def _left(view: QTableView) -> bool:
    """The focus is neither on ``view`` nor inside it."""
    focus = QApplication.focusWidget()
    return focus is not view and not view.isAncestorOf(focus)


def test_tab_leaves_the_tables_one_reads_and_moves_in_the_grade_grid(qtbot, window):
    """Tab and Shift+Tab move the focus on from a table one reads or edits
    beside a form (the summary's cutoffs, the query list, the rubric and the
    guidelines), as from any other control; only the grade grid keeps Tab
    moving from cell to cell (Tab from the query list goes on to it:
    Shift+Tab there moves back a cell). Every view that takes Tab for its
    cells is a grade grid."""
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    for name in ("cutoffTable", "queryList", "rubricTable", "guidelinesTable"):
        view = window.findChild(QTableView, name)
        view.setFocus()
        assert QApplication.focusWidget() is view, name
        press(qtbot, Qt.Key.Key_Tab)
        assert _left(view), name
        view.setFocus()
        press(qtbot, Qt.Key.Key_Backtab, Qt.KeyboardModifier.ShiftModifier)
        assert _left(view), name
        press(qtbot, Qt.Key.Key_Tab)
        assert QApplication.focusWidget() is view, name
    window.grid.setFocus()
    column = window.grid.currentIndex().column()
    press(qtbot, Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is window.grid
    assert window.grid.currentIndex().column() > column  # the next shown column
    taking_tab = {v.objectName() for v in window.findChildren(QTableView) if v.tabKeyNavigation()}
    assert taking_tab == {"candidateGrid", "notRetrievedGrid"}


def test_the_queues_next_from_the_keyboard(qtbot, window):
    window.set_document(doc_with_unknowns())
    queue = window.findChild(QueueController, "queueController")
    window.grid.setFocus()
    both = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    press(qtbot, Qt.Key.Key_J, both)
    qtbot.waitUntil(lambda: queue.queue is not None, timeout=10000)
    qtbot.waitUntil(lambda: window.grid.hasFocus(), timeout=5000)
    first = int(queue.queue.rows[0])
    shown = window.grid_model.candidates()
    assert int(shown[window.grid.currentIndex().row()]) == first
    assert queue.dock.isVisible()


def test_the_queue_says_one_unknown_grade_and_a_mean_it_cannot_change(qtbot, window):
    """The bundled example's one unknown grade (case-F-unknown's B, at rank
    2) cannot change its NDCG@1: Ctrl+Shift+J showed "Mean NDCG@1 between
    0.4524 and 0.4524; 1 unknown grades. Judging the first narrows it by at
    least 0.0000"."""
    queue = window.findChild(QueueController, "queueController")
    window.grid.setFocus()
    both = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    press(qtbot, Qt.Key.Key_J, both)
    qtbot.waitUntil(lambda: queue.queue is not None and queue.view.message.text() != "",
                    timeout=10000)
    assert len(queue.queue) == 1
    assert queue.view.message.text() == (
        "Mean NDCG@1 0.4524: the 1 unknown grade cannot change it.")
    window.set_document(doc_with_unknowns())  # three unknown grades, a mean they move
    qtbot.waitUntil(lambda: "3 unknown grades" in queue.view.message.text(), timeout=10000)
    assert queue.view.message.text().startswith("Mean NDCG@all between 0.7500 and 1.0000; ")


def test_a_conflict_resolved_with_alt_1(qtbot, window):
    merged, q, x = merged_with_conflict()
    window.set_document(merged)
    conflicts = window.findChild(ConflictsController, "conflictsController")
    conflicts.view.table.setFocus()
    conflicts.view.table.selectRow(0)
    assert set(conflicts.view.choice_buttons) == {"ben", "cara", "both"}
    press(qtbot, Qt.Key.Key_2, Qt.KeyboardModifier.AltModifier)  # Take cara's grade
    i = row(merged, q, x)
    assert (merged.state[i], merged.grade[i]) == (GradeState.NUMBER, 2.0)
    assert merged.audit[-1].note == "conflict resolved: cara's grade: 2"


def test_f1_lists_the_keyboard_grading_keys(qtbot, window):
    dialog = window.help_menu.shortcuts_dialog()
    qtbot.addWidget(dialog)
    rows = dialog.findChild(QTableView, "shortcutsTable").model().rows()
    by_what = {what: (keys, where) for keys, what, where in rows}
    assert by_what["Next pane"][0] == "F6"
    assert by_what["Previous pane"][0] == "Shift+F6"
    assert by_what["Next unknown candidate"][0] == "Ctrl+J"
    assert by_what["Judge the queue's next"][0] == "Ctrl+Shift+J"
    assert any(keys.startswith("Alt+1") and where == "Conflicts" for keys, _w, where in rows)


def test_f1_lists_undo_and_redo_by_their_verbs_not_the_step_at_hand(qtbot, window):
    """F1 after a change undone listed Ctrl+Shift+Z as "Redo gain: exponential
    gain" (seen under Xvfb on the installed wheel): the menu item's text
    names the step at hand; the list says what the keys do."""
    window.set_document(doc_with_unknowns())
    window.set_query(0)
    window.grid.setFocus()
    press(qtbot, Qt.Key.Key_3)
    press(qtbot, Qt.Key.Key_2)
    press(qtbot, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert window.app_actions["undo"].text().startswith("&Undo grade ")
    assert window.app_actions["redo"].text().startswith("&Redo grade ")
    dialog = window.help_menu.shortcuts_dialog()
    qtbot.addWidget(dialog)
    rows = dialog.findChild(QTableView, "shortcutsTable").model().rows()
    edit = [what for _keys, what, where in rows if where == "Edit"]
    assert edit[:2] == ["Undo", "Redo"]


def _from_the_menu(qtbot, window, action_id: str) -> None:  # type: ignore[no-untyped-def]
    """Edit > ``action_id`` as a person picks it: the menu opened with Alt+E,
    the item reached with the Down key, Enter."""
    menu = window.menus["edit"]
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_E, Qt.KeyboardModifier.AltModifier)
    qtbot.waitUntil(menu.isVisible)
    action = window.app_actions[action_id]
    for _ in range(len(menu.actions())):
        if menu.activeAction() is action:
            break
        qtbot.keyClick(menu, Qt.Key.Key_Down)
    assert menu.activeAction() is action
    qtbot.keyClick(menu, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not menu.isVisible())


def test_undo_from_the_edit_menu_leaves_the_focus_where_it_was(qtbot, window):
    """As in LibreOffice Calc, Edit > Undo and Redo from the menu do what
    Ctrl+Z and Ctrl+Y do: the cell they changed current and in view, the
    keyboard focus where it was. The menu's Undo moved the focus from the
    navigator's filter, where the reviewer was typing, to the grid (the next
    digit typed graded a candidate there); from the grid it stays in the
    grid; and Ctrl+Z from the navigator's list leaves it there too."""
    window.set_document(doc_with_unknowns())
    doc = window.document
    window.set_query(0)
    window.grid.setFocus()
    press(qtbot, Qt.Key.Key_3)  # q1's c: 3
    press(qtbot, Qt.Key.Key_2)  # q1's a: 2
    typed = window.navigator.filter_edit
    typed.setFocus()
    qtbot.keyClicks(typed, "q")
    _from_the_menu(qtbot, window, "undo")
    assert doc.state[0] == GradeState.UNKNOWN  # a's 2 undone
    assert QApplication.focusWidget() is typed
    assert window.grid.currentIndex().row() == 1  # a, q1's second row
    qtbot.keyClicks(typed, "1")
    assert typed.text() == "q1"
    assert doc.state[0] == GradeState.UNKNOWN
    _from_the_menu(qtbot, window, "redo")
    assert doc.grade[0] == 2.0
    assert QApplication.focusWidget() is typed
    window.grid.setFocus()
    _from_the_menu(qtbot, window, "undo")
    assert doc.state[0] == GradeState.UNKNOWN
    assert QApplication.focusWidget() is window.grid
    queries = window.navigator.view
    queries.setFocus()
    press(qtbot, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)  # c's 3 undone
    assert doc.state[2] == GradeState.UNKNOWN
    assert QApplication.focusWidget() is queries
    assert window.grid.currentIndex().row() == 0  # c, q1's first row


def mnemonics(menu: QMenu, path: str,
              without: list[str] | None = None) -> list[tuple[str, str]]:
    """(where, letter) for every visible item of ``menu`` and its submenus
    that has an underlined letter (``&&`` is a literal ampersand); those
    that have none are added to ``without`` (but a placeholder: an item
    off that is no check box, "(no recent files)")."""
    found = []
    for action in menu.actions():
        if action.isSeparator() or not action.isVisible():
            continue
        letter = re.search(r"&(.)", action.text().replace("&&", ""))
        if letter:
            found.append((path, letter.group(1).lower()))
        elif without is not None and (action.isEnabled() or action.isCheckable()):
            without.append(f"{path} > {action.text()}")
        if action.menu():
            found += mnemonics(action.menu(), f"{path} > {action.text()}", without)
    return found


def test_no_menu_underlines_one_letter_twice(window):
    """A letter underlined twice in a menu does not take an item: Qt moves
    between the two and the reviewer must press Return (Query: 'Next
    &unresolved query' and 'Next &unknown candidate'; File, Edit and Review
    had one such pair each)."""
    without: list[str] = []
    seen = [(path, letter) for top in window.menuBar().actions()
            for path, letter in mnemonics(top.menu(), top.text(), without)]
    twice = sorted({entry for entry in seen if seen.count(entry) > 1})
    assert twice == []
    assert len(seen) > 30  # (every menu's items were read)
    # Every item has one: the View menu's panels (Queries, Summary, ...)
    # and the grid's columns had none, so Alt+V could not reach them.
    assert without == []


def test_view_menu_items_by_their_letters(qtbot, window):
    """Alt+V then Q hides the query list and shows it again; Alt+V, C, V
    shows the grid's Version column; the dock's title has no ampersand."""
    dock = window.docks["queryNavigatorDock"]
    assert dock.windowTitle() == "Queries"

    def by_letters(*keys: Qt.Key) -> None:
        window.grid.setFocus()
        qtbot.waitUntil(lambda: QApplication.focusWidget() is window.grid)
        press(qtbot, Qt.Key.Key_V, Qt.KeyboardModifier.AltModifier)
        qtbot.waitUntil(lambda: isinstance(QApplication.activePopupWidget(), QMenu))
        assert QApplication.activePopupWidget().title() == "&View"
        for key in keys:
            qtbot.keyClick(QApplication.activePopupWidget(), key)
        qtbot.waitUntil(lambda: QApplication.activePopupWidget() is None)

    assert dock.isVisible()
    by_letters(Qt.Key.Key_Q)
    assert not dock.isVisible()
    by_letters(Qt.Key.Key_Q)
    assert dock.isVisible()
    action = window.grid_columns.actions["version"]
    shown = action.isChecked()
    by_letters(Qt.Key.Key_C, Qt.Key.Key_V)
    assert action.isChecked() is not shown
    column = [c.key for c in window.grid_columns.columns].index("version")
    assert window.grid.isColumnHidden(column) is shown


def test_query_menu_items_by_their_letters(qtbot, window):
    """Alt+Q then U takes the next unresolved query, Alt+Q then C the next
    unknown candidate, each at once (U highlighted one of two items)."""
    window.set_document(doc_with_unknowns())
    window.set_query(0)
    window.grid.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is window.grid)
    # (q2 lands on y, its first unknown; the next unknown after it is q1's c)
    for key, query, candidate in ((Qt.Key.Key_U, 1, 4), (Qt.Key.Key_C, 0, 2)):
        press(qtbot, Qt.Key.Key_Q, Qt.KeyboardModifier.AltModifier)
        qtbot.waitUntil(lambda: isinstance(QApplication.activePopupWidget(), QMenu))
        menu = QApplication.activePopupWidget()
        assert menu.title() == "&Query"
        qtbot.keyClick(menu, key)
        qtbot.waitUntil(lambda: QApplication.activePopupWidget() is None)
        assert window.current_query == query
        shown = window.grid_model.candidates()
        assert int(shown[window.grid.currentIndex().row()]) == candidate
