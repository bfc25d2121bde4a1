"""The guidelines in the window (issue 26, item 2): beside the grid, the
selected row's level highlighted as the reviewer moves and grades with the
keys; edited in the conventions panel as one undoable step."""

from __future__ import annotations

from typing import Any

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from app.guidelines_dock import GuidelinesView
from app.help import shortcut_rows
from app.models.audit import AuditColumn
from app.models.candidates import GridColumn
from app.models.roles import CANDIDATE_ROLE, TOOLTIP
from core.model.conventions import Conventions, Guideline, Guidelines
from core.model.examples import EXAMPLE_CONVENTIONS


def _view(w: Any) -> GuidelinesView:
    view = w.docks["guidelinesDock"].widget()
    assert isinstance(view, GuidelinesView)
    return view


def _select(qtbot: Any, w: Any, row: int) -> None:
    w.grid.setFocus()
    w.grid.setCurrentIndex(w.grid_model.index(row, GridColumn.GRADE))


def test_the_dock_lists_every_level_with_its_guideline(window) -> None:
    view = _view(window)
    texts = [view.levels_list.item(i).text() for i in range(view.levels_list.count())]
    g3 = EXAMPLE_CONVENTIONS.guidelines.for_grade(3.0)
    assert g3 is not None
    assert len(texts) == 4
    assert texts[3] == ("3 - direct support\nThe source states the claim itself, with its "
                        "evidence.\n  e.g. the claim quoted, or said in other words, with its "
                        "source")
    assert texts[0].startswith("0 - no support\nThe source does not address the claim")
    assert view.empty_note.isHidden()


def test_the_selected_row_s_level_follows_the_grid_and_the_digit_keys(qtbot, window) -> None:
    w = window
    try:
        _follow(qtbot, w)
    finally:
        w.session.mark_saved()  # a failed step must not leave the window asking to save


def _follow(qtbot: Any, w: Any) -> None:
    view = _view(w)
    # case-A in ranked order: B (grade 1), A (grade 3), C (grade 0).
    assert w.current_query_id == "case-A"
    _select(qtbot, w, 0)
    assert view.highlighted == 1.0
    assert view.highlighted_row() == 1
    assert view.current_label.text() == "case-A / B: grade 1 - partial support"
    qtbot.keyClick(w.grid, Qt.Key.Key_Down)
    assert view.highlighted == 3.0
    assert view.levels_list.item(3).font().bold()
    assert not view.levels_list.item(1).font().bold()
    # A digit grades the row and moves on: back up, the typed grade's level shows.
    qtbot.keyClick(w.grid, Qt.Key.Key_2)
    assert w.grid.currentIndex().row() == 2
    assert view.highlighted == 0.0
    qtbot.keyClick(w.grid, Qt.Key.Key_Up)
    assert view.highlighted == 2.0
    assert view.current_label.text() == "case-A / A: grade 2 - substantial support"
    # U marks the row unknown and moves on (C, grade 0); back up, no level.
    qtbot.keyClick(w.grid, Qt.Key.Key_U)
    assert view.highlighted == 0.0
    qtbot.keyClick(w.grid, Qt.Key.Key_Up)
    assert w.grid.currentIndex().row() == 1
    assert view.highlighted is None
    assert view.current_label.text() == "case-A / A: unknown"
    w.session.undo()  # the row's grade is 2 again
    assert view.highlighted == 2.0


def test_unknown_rows_highlight_no_level(qtbot, window) -> None:
    w = window
    w.set_query(w.document.query_index("case-F-unknown"))
    view = _view(w)
    _select(qtbot, w, 1)  # B, unknown
    assert view.highlighted is None
    assert view.highlighted_row() == -1
    assert view.current_label.text() == "case-F-unknown / B: unknown"


def test_a_guideline_edited_in_the_panel_is_one_undoable_step(qtbot, window) -> None:
    w = window
    panel = w.conventions_panel
    table = panel.guidelines_table
    w.docks["conventionsPanelDock"].raise_()
    table.setFocus()
    table.setCurrentIndex(table.model().index(1, 2))  # grade 1's description
    qtbot.keyClick(table, Qt.Key.Key_F2)
    editor = table.focusWidget()
    assert editor is not table
    editor.selectAll()
    qtbot.keyClicks(editor, "Part of it.")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    QApplication.processEvents()  # the delegate commits on a queued call
    assert w.conventions.guidelines.for_grade(1.0) == Guideline(
        1.0, "Part of it.", EXAMPLE_CONVENTIONS.guidelines.for_grade(1.0).examples)
    assert w.conventions.rubric == EXAMPLE_CONVENTIONS.rubric  # one field changed
    assert _view(w).levels_list.item(1).text().startswith("1 - partial support\nPart of it.")
    assert w.app_actions["undo"].text().endswith("guideline for grade 1")
    w.session.undo()
    assert w.conventions == EXAMPLE_CONVENTIONS
    assert _view(w).levels_list.item(1).text().startswith(
        "1 - partial support\nThe source supports part")


def test_the_digit_keys_say_their_level(window) -> None:
    w = window
    tip = w.grid_model.headerData(GridColumn.GRADE, Qt.Orientation.Horizontal, TOOLTIP)
    lines = tip.split("\n")
    assert lines[0].startswith("the reviewer's grade (a judgment)")
    assert lines[1:] == [
        "0: 0 - no support: The source does not address the claim, or contradicts it.",
        "1: 1 - partial support: The source supports part of the claim, or only mentions it; "
        "a reader needs other sources to accept it.",
        "2: 2 - substantial support: The source supports most of the claim; what it leaves "
        "out a reader could infer.",
        "3: 3 - direct support: The source states the claim itself, with its evidence."]
    # A cell's tooltip says its grade's guideline.
    cell = w.grid_model.index(0, GridColumn.GRADE).data(TOOLTIP)  # case-A/B, grade 1
    assert cell.startswith("grade 1.0: partial support; The source supports part of the claim")
    # F1 lists each digit with its level, after the grid's own keys.
    rows = [r for r in shortcut_rows(w) if r[2] == "Grid"]
    assert ("3", "grade 3 - direct support: The source states the claim itself, with its "
            "evidence.", "Grid") in rows
    assert [r[0] for r in rows][-4:] == ["0", "1", "2", "3"]


def test_without_guidelines_the_digits_say_the_labels(window) -> None:
    w = window
    w.change_conventions(w.conventions.replace(guidelines=Guidelines()))
    tip = w.grid_model.headerData(GridColumn.GRADE, Qt.Orientation.Horizontal, TOOLTIP)
    assert tip.split("\n")[1:] == ["0: 0 - no support", "1: 1 - partial support",
                                   "2: 2 - substantial support", "3: 3 - direct support"]
    assert not _view(w).empty_note.isHidden()
    w.session.undo()


def test_the_guidelines_model_passes_the_model_tester(qtmodeltester) -> None:
    from app.models.guidelines import GuidelinesModel

    model = GuidelinesModel()
    model.set_levels(EXAMPLE_CONVENTIONS.levels(np.array([0.0, 3.0])))
    qtmodeltester.check(model)
    assert model.index(0, 3).data() == "a page on the same topic that never states the claim"


def test_without_a_rubric_the_panel_lists_the_scale_the_grades_define(qtbot) -> None:
    from app.panels.conventions import ConventionsPanel

    panel = ConventionsPanel()
    qtbot.addWidget(panel)
    edits: list[Any] = []
    panel.conventions_edited.connect(lambda new, what: edits.append((new, what)))
    panel.set_conventions(Conventions())
    panel.set_grades_seen(np.array([2.0, np.nan, 0.0]))
    model = panel.guidelines_model
    assert [model.index(r, 0).data() for r in range(model.rowCount())] == ["0", "1", "2"]
    assert model.setData(model.index(2, 3), "a full answer; a recipe")
    new, what = edits[-1]
    assert what == "guideline for grade 2"
    assert new == Conventions(guidelines=Guidelines((
        Guideline(2.0, "", ("a full answer", "a recipe")),)))


def test_a_consensus_grade_reads_at_the_display_rounding(qtbot, window) -> None:
    """A fraction of a grade (a consensus of three annotators, 4/3) reads in
    the dock's header as the grid shows it (1.3333 at four decimals, 1.33 at
    two), never at full precision (``grade 1.3333333333333333``)."""
    w = window
    try:
        view = _view(w)
        _select(qtbot, w, 0)
        i = w.grid.currentIndex().data(CANDIDATE_ROLE)
        assert w.set_grade(i, 4 / 3)
        _select(qtbot, w, 1)
        _select(qtbot, w, 0)
        assert view.current_label.text() == "case-A / B: grade 1.3333"
        cell = w.grid_model.index(0, GridColumn.GRADE)
        shown = w.grid.itemDelegateForColumn(GridColumn.GRADE)
        assert shown.displayText(cell.data(), None) == "1.3333"
        log = w.audit_view  # the change's after, as the grid shows it
        after = log.model().index(log.model().rowCount() - 1, AuditColumn.AFTER)
        assert after.data() == repr(4 / 3)
        assert log.itemDelegateForColumn(AuditColumn.AFTER).displayText(after.data(), None) == (
            "1.3333")
        assert w.app_actions["undo"].text().endswith("case-A/B: 1 → 1.3333")
        w.settings.decimals = 2
        w.refresh_display_settings()
        _select(qtbot, w, 1)
        _select(qtbot, w, 0)
        assert view.current_label.text() == "case-A / B: grade 1.33"
    finally:
        w.session.mark_saved()


def test_without_a_scale_the_dock_says_so_and_invents_no_level(qtbot, window) -> None:
    """An empty document (the window behind the import wizard) and one whose
    every grade is unknown have no scale: the dock lists no level 0 or 1 (the
    stand-in the arithmetic uses) but says there is no scale yet; the first
    grade typed (a real key click) defines one, 0 to 2."""
    from core.model.document import Document

    w = window
    view = _view(w)
    w.set_document(Document.from_columns(query=[], source_id=[]))
    assert w.conventions.rubric is None
    assert view.levels_list.count() == 0
    assert view.empty_note.isVisibleTo(view)
    assert view.empty_note.text().startswith("No scale yet: no rubric is declared and no "
                                             "candidate has a grade.")
    # the Conventions panel's guidelines editor no more than the dock (it
    # listed the levels 0 and 1)
    panel = w.conventions_panel
    assert panel.guidelines_model.rowCount() == 0
    assert panel.formulas["guidelines"].text().startswith("No scale yet: no rubric is declared")
    try:
        w.set_document(Document.from_columns(query=["q", "q"], source_id=["a", "b"],
                                             score=[2.0, 1.0], grade=[None, None]))
        assert view.levels_list.count() == 0
        assert view.empty_note.text().startswith("No scale yet")
        _select(qtbot, w, 0)
        qtbot.keyClick(w.grid, Qt.Key.Key_2)
        assert w.document.grade[0] == 2.0
        texts = [view.levels_list.item(i).text() for i in range(view.levels_list.count())]
        assert texts == ["0", "1", "2"]
        assert [lv.value for lv in panel.guidelines_model.levels()] == [0.0, 1.0, 2.0]
        assert panel.formulas["guidelines"].text().startswith("Double-click a description")
        _select(qtbot, w, 0)  # (the key moved the cursor on)
        assert view.highlighted_row() == 2
        assert view.empty_note.text().startswith("No guidelines yet")
        # Undo takes the only grade back: no scale again, in both places.
        qtbot.keyClick(w.grid, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
        assert np.isnan(w.document.grade[0])
        assert view.levels_list.count() == 0
        assert view.empty_note.text().startswith("No scale yet")
        assert panel.guidelines_model.rowCount() == 0
        assert panel.formulas["guidelines"].text().startswith("No scale yet")
    finally:
        w.session.mark_saved()


def test_the_dock_and_the_panel_list_each_document_s_scale(qtbot, window) -> None:
    """Both take the scale the window's evaluation worked out (one look at
    the grades for the summary, the dock and the panel): a new document's
    grades define a new scale in each, a rubric declared replaces it and
    its undo brings the grades' scale back."""
    from core.model.conventions import Rubric
    from core.model.document import Document

    w = window
    view, panel = _view(w), w.conventions_panel

    def listed() -> tuple[list[float], list[float]]:
        shown = [float(view.levels_list.item(i).text().split()[0])
                 for i in range(view.levels_list.count())]
        return shown, [lv.value for lv in panel.guidelines_model.levels()]

    try:
        w.set_document(Document.from_columns(query=["q", "q"], source_id=["a", "b"],
                                             score=[2.0, 1.0], grade=[2.0, 0.0]))
        assert listed() == ([0.0, 1.0, 2.0], [0.0, 1.0, 2.0])
        w.set_document(Document.from_columns(query=["q", "q", "r"], source_id=["a", "b", "c"],
                                             score=[2.0, 1.0, 1.0], grade=[4.0, 0.0, None]))
        assert listed() == ([0.0, 1.0, 2.0, 3.0, 4.0], [0.0, 1.0, 2.0, 3.0, 4.0])
        w.change_conventions(w.conventions.replace(rubric=Rubric.parse("0,1")), "rubric")
        assert listed() == ([0.0, 1.0], [0.0, 1.0])
        w.app_actions["undo"].trigger()
        assert listed() == ([0.0, 1.0, 2.0, 3.0, 4.0], [0.0, 1.0, 2.0, 3.0, 4.0])
        w.set_document(Document.from_columns(query=["q"], source_id=["a"], score=[1.0],
                                             grade=[1.0]))
        assert listed() == ([0.0, 1.0], [0.0, 1.0])
    finally:
        w.session.mark_saved()
