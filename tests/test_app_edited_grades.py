"""The grades a reviewer changed, at a glance (hpol4, item 1): once a grade
differs from its original the grids show the original grade beside the
grade, and mark the edited grade with a shape (not a colour alone) that a
screen reader says too; an undo that puts every grade back hides the column
again. The column is the one the workbook shows (declared once)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QStyleOptionViewItem

from app.main import build_window
from app.models.candidates import GridColumn
from app.models.looks import brush
from core.engine.columns import COLUMNS, EDITED_MARK, GRID_COLUMNS

pytestmark = pytest.mark.usefixtures("never_block")


def _window(qtbot):
    w = build_window(None)
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    QApplication.processEvents()
    return w


def _grade_text(w, row: int) -> str:
    """The grade cell's text as its delegate draws it."""
    index = w.grid_model.index(row, GridColumn.GRADE)
    option = QStyleOptionViewItem()
    w.grid.itemDelegateForColumn(GridColumn.GRADE).initStyleOption(option, index)
    return option.text


def test_the_original_grade_column_is_the_workbook_s() -> None:
    original = next(c for c in COLUMNS if c.key == "original")
    assert original in GRID_COLUMNS
    assert original.edits_only
    assert original.sheet == ("E", "original grade")
    assert GRID_COLUMNS[GridColumn.ORIGINAL] is original


def test_an_edited_grade_shows_its_original_beside_it_and_is_marked(qtbot):
    w = _window(qtbot)
    w.set_query(w.document.query_index("case-A"))
    grid, model = w.grid, w.grid_model
    header = grid.horizontalHeader()
    assert grid.isColumnHidden(GridColumn.ORIGINAL)  # nothing edited: no column
    assert not w.not_retrieved_view.isColumnHidden(GridColumn.GRADE)
    assert w.not_retrieved_view.isColumnHidden(GridColumn.ORIGINAL)
    was = model.index(1, GridColumn.GRADE).data()
    assert EDITED_MARK not in _grade_text(w, 1)
    grid.setCurrentIndex(model.index(1, GridColumn.GRADE))
    grid.setFocus()
    qtbot.keyClick(grid, Qt.Key.Key_0 if was else Qt.Key.Key_3)
    QApplication.processEvents()
    new = 0.0 if was else 3.0
    assert model.index(1, GridColumn.GRADE).data() == new
    # The original beside the grade, in both grids, as it was read.
    assert not grid.isColumnHidden(GridColumn.ORIGINAL)
    assert not w.not_retrieved_view.isColumnHidden(GridColumn.ORIGINAL)
    assert header.visualIndex(GridColumn.ORIGINAL) == header.visualIndex(GridColumn.GRADE) + 1
    assert model.index(1, GridColumn.ORIGINAL).data() == was
    assert model.index(1, GridColumn.ORIGINAL).data(Qt.ItemDataRole.ToolTipRole) == (
        f"edited: originally {was:g}, now {new:g}")
    # The edited grade marked by a shape, and said so; the others not.
    assert _grade_text(w, 1).startswith(f"{EDITED_MARK} {new:g}")
    assert EDITED_MARK not in _grade_text(w, 0)
    spoken = model.index(1, GridColumn.GRADE).data(Qt.ItemDataRole.AccessibleDescriptionRole)
    assert f"edited: originally {was:g}" in spoken
    assert "edited" not in model.index(0, GridColumn.GRADE).data(
        Qt.ItemDataRole.AccessibleDescriptionRole)
    assert model.index(0, GridColumn.ORIGINAL).data(Qt.ItemDataRole.ToolTipRole).endswith(
        "as first read, not edited")
    # An original still current is muted (the mark is the cue; the tone helps).
    fore = Qt.ItemDataRole.ForegroundRole
    assert model.index(0, GridColumn.ORIGINAL).data(fore) == brush("muted")
    assert model.index(1, GridColumn.ORIGINAL).data(fore) is None
    # Undone: every grade is its original again, the column goes.
    qtbot.keyClick(grid, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    QApplication.processEvents()
    assert model.index(1, GridColumn.GRADE).data() == was
    assert grid.isColumnHidden(GridColumn.ORIGINAL)
    assert EDITED_MARK not in _grade_text(w, 1)
    w.session.mark_saved()


def test_a_column_the_reviewer_hid_stays_hidden_after_an_edit(qtbot):
    w = _window(qtbot)
    original = w.grid_columns.actions["original"]
    w.set_query(w.document.query_index("case-A"))
    w.grid.setCurrentIndex(w.grid_model.index(0, GridColumn.GRADE))
    w.grid.setFocus()
    was = w.grid_model.index(0, GridColumn.GRADE).data()
    qtbot.keyClick(w.grid, Qt.Key.Key_0 if was else Qt.Key.Key_2)
    assert w.grid_columns.edited
    assert original.isChecked()  # shown by the edit, and ticked so
    original.trigger()  # unticked: hidden, and stays so
    assert w.grid.isColumnHidden(GridColumn.ORIGINAL)
    qtbot.keyClick(w.grid, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    w.grid.setCurrentIndex(w.grid_model.index(0, GridColumn.GRADE))
    qtbot.keyClick(w.grid, Qt.Key.Key_0 if was else Qt.Key.Key_2)
    assert w.grid_columns.edited
    assert w.grid.isColumnHidden(GridColumn.ORIGINAL)
    assert not original.isChecked()
    assert EDITED_MARK in _grade_text(w, 0)  # the mark all the same
    original.trigger()
    assert not w.grid.isColumnHidden(GridColumn.ORIGINAL)
    w.session.mark_saved()


def test_the_original_ticked_before_any_edit_shows_at_once(qtbot):
    """Before an edit the Original entry is not ticked (its column waits
    for one, as its tooltip says); ticked, the column shows at once, each
    grade as first read under its header, and stays when an undo puts every
    grade back, in the next window too, until Default columns. Ticked
    before, it showed nothing until the first edit."""
    w = _window(qtbot)
    original = w.grid_columns.actions["original"]
    assert not original.isChecked()
    assert "once a grade is edited" in original.toolTip()
    w.set_query(w.document.query_index("case-A"))
    original.trigger()  # as the Columns menu's entry, clicked
    assert original.isChecked()
    assert not w.grid.isColumnHidden(GridColumn.ORIGINAL)
    assert not w.not_retrieved_view.isColumnHidden(GridColumn.ORIGINAL)
    assert not w.grid_columns.edited
    model = w.grid_model
    assert [model.index(r, GridColumn.ORIGINAL).data() for r in range(model.rowCount())] == [
        model.index(r, GridColumn.GRADE).data() for r in range(model.rowCount())] == [1.0, 3.0, 0.0]
    assert model.headerData(GridColumn.ORIGINAL, Qt.Orientation.Horizontal) == "Original"
    w.grid.setCurrentIndex(model.index(0, GridColumn.GRADE))
    w.grid.setFocus()
    qtbot.keyClick(w.grid, Qt.Key.Key_2)
    qtbot.keyClick(w.grid, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert not w.grid_columns.edited
    assert not w.grid.isColumnHidden(GridColumn.ORIGINAL)
    w.session.mark_saved()
    w.close()
    again = _window(qtbot)  # remembered (the settings kept it)
    assert again.grid_columns.actions["original"].isChecked()
    assert not again.grid.isColumnHidden(GridColumn.ORIGINAL)
    again.grid_columns.default_action.trigger()
    assert again.grid.isColumnHidden(GridColumn.ORIGINAL)
    assert not again.grid_columns.actions["original"].isChecked()
    again.session.mark_saved()
