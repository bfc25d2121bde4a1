"""The grid's column order and the columns shown (issue 26, item 1): the
key columns first by default; columns a reviewer hides (View > Columns, the
header's context menu) and moves, remembered across windows and undone by
View > Reset layout; a saved order naming columns unknown or missing; the
columns moved first repainted after a grade. Split from
tests/test_app_grid_layout.py, which keeps the columns in view on each
screen (the room each column and the docks get), and whose window steps
these tests take."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt

from app.main import build_window
from app.models.candidates import GridColumn
from app.panels.column_chooser import KEY_COLUMNS, default_order
from core.engine.columns import GRID_COLUMNS
from tests.test_app_grid_layout import KEYS, _open, _settle

#: A close that would ask gets Discard (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("never_block")


def test_the_default_order_puts_the_key_columns_first(window):
    header = window.grid.horizontalHeader()
    shown = [KEYS[header.logicalIndex(v)] for v in range(header.count())]
    assert shown == ["rank", "source", "grade", "original", "gain", "discount", "contribution",
                     "cumulative", "score", "note", "version", "state", "ideal_rank",
                     "ideal_gain", "ideal_contribution"]
    # The declarations keep their order (the workbook shares them).
    assert [KEYS[n] for n in range(len(KEYS))] == [c.key for c in GRID_COLUMNS if c.grid]
    # The grid of the judged-but-not-retrieved follows.
    lower = window.not_retrieved_view.horizontalHeader()
    assert [lower.logicalIndex(v) for v in range(lower.count())] == default_order(GRID_COLUMNS)


def _header_order(view) -> list[str]:
    header = view.horizontalHeader()
    return [KEYS[header.logicalIndex(v)] for v in range(header.count())
            if not header.isSectionHidden(header.logicalIndex(v))]


def test_hidden_and_moved_columns_are_remembered_and_reset(qtbot):
    w = build_window(None)
    qtbot.addWidget(w)
    w.show()
    _settle(qtbot, w)
    # Hide the version from View > Columns, as a keyboard user would reach it.
    menu = w.grid_columns.menu
    assert menu.objectName() == "columnsMenu"
    assert menu.menuAction() in w.menu("view").actions()
    version = w.grid_columns.actions["version"]
    assert version.isChecked()
    version.trigger()
    assert w.grid.isColumnHidden(GridColumn.VERSION)
    assert w.not_retrieved_view.isColumnHidden(GridColumn.VERSION)
    # The grade column is where grading happens: it cannot be hidden.
    assert not w.grid_columns.actions["grade"].isEnabled()
    # Drag the score header before the rank (a move of its section).
    header = w.grid.horizontalHeader()
    header.moveSection(header.visualIndex(GridColumn.SCORE), 0)
    expected = ["score", "rank", "source", "grade", "gain", "discount", "contribution",
                "cumulative", "note", "state", "ideal_rank", "ideal_gain", "ideal_contribution"]
    assert _header_order(w.grid) == expected
    lower = [k for k in expected if not GRID_COLUMNS[KEYS.index(k)].ranked_only]
    assert _header_order(w.not_retrieved_view) == lower
    # The header's context menu is the same menu.
    assert header.contextMenuPolicy() == Qt.ContextMenuPolicy.CustomContextMenu
    header.customContextMenuRequested.emit(QPoint(5, 5))
    assert menu.isVisible()
    menu.hide()
    w.session.mark_saved()
    assert w.close()

    again = build_window(None)
    qtbot.addWidget(again)
    again.show()
    _settle(qtbot, again)
    assert _header_order(again.grid) == expected
    assert _header_order(again.not_retrieved_view) == lower
    assert not again.grid_columns.actions["version"].isChecked()
    # View > Reset layout: the default order, every column shown, also next time.
    again.app_actions["reset_layout"].trigger()
    _settle(qtbot, again)
    default = [KEYS[n] for n in default_order(GRID_COLUMNS) if KEYS[n] != "original"]
    assert _header_order(again.grid) == default
    assert again.grid_columns.actions["version"].isChecked()
    again.session.mark_saved()
    assert again.close()
    third = build_window(None)
    qtbot.addWidget(third)
    assert _header_order(third.grid) == default
    third.session.mark_saved()


def test_a_saved_order_naming_unknown_or_missing_columns_still_shows_every_column(qtbot):
    from app.settings import Settings

    settings = Settings()
    settings.grid_column_order = ["gain", "no-such-column", "rank", "gain"]
    settings.grid_hidden_columns = ["grade", "ideal_gain", "nonsense"]
    w = build_window(None)
    qtbot.addWidget(w)
    order = _header_order(w.grid)
    assert order[0] == "gain"
    # The columns the saved order does not name follow their default neighbours.
    assert order.index("rank") < order.index("source") < order.index("grade")
    assert order.index("gain") + 1 == order.index("discount")
    assert sorted(order) == sorted(k for k in KEYS if k not in ("ideal_gain", "original"))
    assert not w.grid.isColumnHidden(GridColumn.GRADE)  # never hidden
    w.session.mark_saved()


def test_a_grade_repaints_every_moved_column_on_screen(qtbot, tmp_path, monkeypatch):
    """The grid repaints only the columns on screen after an edit; with the
    key columns moved first, those on screen are not a range of logical
    columns between the two at the viewport's edges (the gain, contribution
    and cumulative DCG of a graded row were left stale)."""
    from PySide6.QtWidgets import QTableView

    w = _open(qtbot, "example", tmp_path, "1280x800")
    w.set_query(w.document.query_index("case-A"))
    _settle(qtbot, w)
    repainted: list[tuple[int, int, int, int]] = []
    original = QTableView.dataChanged

    def spy(view, top_left, bottom_right, roles=()):
        if view is w.grid:
            repainted.append((top_left.row(), bottom_right.row(), top_left.column(),
                              bottom_right.column()))
        return original(view, top_left, bottom_right, roles)

    monkeypatch.setattr(QTableView, "dataChanged", spy)
    shown = w.grid.shown_logical()
    assert all(KEYS.index(k) in shown for k in KEY_COLUMNS)
    w.grid.setCurrentIndex(w.grid_model.index(1, GridColumn.GRADE))
    w.grid.setFocus()
    before = w.grid_model.index(1, GridColumn.CONTRIBUTION).data()
    qtbot.keyClick(w.grid, Qt.Key.Key_0 if before else Qt.Key.Key_3)
    assert w.grid_model.index(1, GridColumn.CONTRIBUTION).data() != before
    for key in ("gain", "contribution", "cumulative"):
        col = KEYS.index(key)
        assert any(r0 <= 1 <= r1 and c0 <= col <= c1 for r0, r1, c0, c1 in repainted), key
    w.session.mark_saved()
