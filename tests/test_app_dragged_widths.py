"""A side column's width the user set by dragging its handle is the user's
(hdesk5, item 2): when the grid needs more room (a query's rows overflow
it and its scroll bar takes their width; the first edit shows the original
grade) the other side column gives way, never the dragged one; where the
other cannot give enough the grid scrolls and the status bar says so. A
width restored with the layout the user left counts as theirs; View >
Reset layout forgets it."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtWidgets import QApplication

from app.main import build_window
from app.settings import Settings
from tests.conftest import doc_of

#: A close that would ask gets Discard (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("never_block")

LEFT, RIGHT = Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea


def _settle(qtbot, w) -> None:
    qtbot.waitExposed(w)
    qtbot.wait(1)
    QApplication.processEvents()


def _rows() -> list[tuple[str, str, float, int]]:
    """A query of two rows, then one of 40 (its rows overflow the grid)."""
    rows = [("short", s, 2.0 - i, 1) for i, s in enumerate("ab")]
    return rows + [("long", f"d{i}", 40.0 - i, i % 3) for i in range(40)]


def _window(qtbot, *, restore: bool = False):
    w = build_window(None)
    qtbot.addWidget(w)
    w.show()
    w.set_document(doc_of(_rows()))
    if not (restore and w.workplace.restore(QRect(0, 0, 1280, 800))):
        w.workplace.reset(QRect(0, 0, 1280, 800))
    _settle(qtbot, w)
    w.set_query(w.document.query_index("short"))
    _settle(qtbot, w)
    return w


def _drag_handle(qtbot, w, dock, to: int) -> None:
    """Drag the handle right of ``dock`` (a left side column) with the mouse
    until the dock is ``to`` pixels wide (a move is laid out at the event
    loop's next turn, as a user's hand gives it)."""
    y = dock.geometry().center().y()
    handle = QPoint(dock.geometry().right() + 3, y)  # (the 6 px handle before the grid)
    assert w.isSeparator(handle)
    assert w.childAt(handle) is None  # the window's own
    qtbot.mousePress(w, Qt.MouseButton.LeftButton, pos=handle)
    end = handle.x() + to - dock.width()
    step = 8 if end > handle.x() else -8
    for x in [*range(handle.x(), end, step), end]:
        qtbot.mouseMove(w, QPoint(x, y))
        qtbot.wait(1)
    qtbot.mouseRelease(w, Qt.MouseButton.LeftButton, pos=QPoint(end, y))
    _settle(qtbot, w)


def test_a_dragged_navigator_keeps_its_width_when_the_rows_overflow(qtbot):
    """A navigator dragged to 640 px at 1280x800 was narrowed to 608 when a
    query's rows overflowed the grid (its scroll bar's room); now the
    summary's column gives it."""
    w = _window(qtbot)
    nav = w.docks["queryNavigatorDock"]
    summary = w.docks["summaryPanelDock"]
    _drag_handle(qtbot, w, nav, 640)
    assert nav.width() == 640
    assert w.workplace.dragged == {LEFT}
    assert Settings().dragged_sides == ["left"]
    right = summary.width()
    w.set_query(w.document.query_index("long"))
    _settle(qtbot, w)
    qtbot.waitUntil(lambda: summary.width() < right)
    assert nav.width() == 640
    w.session.mark_saved()


def test_where_nothing_else_gives_the_grid_scrolls_and_says_so(qtbot):
    """Both side columns dragged wide: neither is narrowed; the grid lacks
    the room and the status bar says why and what gives it back."""
    w = _window(qtbot)
    nav, summary = w.docks["queryNavigatorDock"], w.docks["summaryPanelDock"]
    _drag_handle(qtbot, w, nav, 640)
    w.workplace.dragged.add(RIGHT)  # (as a drag of the right handle)
    widths = nav.width(), summary.width()
    w.set_query(w.document.query_index("long"))
    _settle(qtbot, w)
    qtbot.waitUntil(lambda: "keep the widths you gave them" in w.statusBar().currentMessage())
    assert (nav.width(), summary.width()) == widths
    assert "View > Reset layout" in w.statusBar().currentMessage()
    w.session.mark_saved()


def test_a_restored_dragged_width_is_the_user_s_and_reset_forgets_it(qtbot):
    w = _window(qtbot)
    _drag_handle(qtbot, w, w.docks["queryNavigatorDock"], 640)
    w.session.mark_saved()
    w.close()
    again = _window(qtbot, restore=True)
    nav = again.docks["queryNavigatorDock"]
    assert again.workplace.dragged == {LEFT}
    assert nav.width() == 640
    again.set_query(again.document.query_index("long"))
    _settle(qtbot, again)
    qtbot.wait(50)
    assert nav.width() == 640
    again.reset_layout()
    assert again.workplace.dragged == set()
    assert Settings().dragged_sides == []
    again.session.mark_saved()


def test_a_drag_is_kept_with_its_layout_when_the_window_never_closes(qtbot):
    """A window closed as laid out at first, then one where the navigator
    is dragged to 640 px and that never closes (a crash): the next start
    restores the layout the drag was kept with, the 640 px counted as the
    user's. The dragged sides were saved at the drag's end and the layout
    only at a close: the next start restored the first layout's navigator
    (235 px) and counted it as dragged, never narrowed for the grid."""
    first = _window(qtbot)
    nav = first.docks["queryNavigatorDock"]
    laid_out = nav.width()
    assert laid_out < 600
    first.session.mark_saved()
    first.close()
    crashed = _window(qtbot, restore=True)
    _drag_handle(qtbot, crashed, crashed.docks["queryNavigatorDock"], 640)
    assert crashed.workplace.dragged == {LEFT}
    crashed.session.mark_saved()
    crashed.hide()  # (no closeEvent: nothing saved at a close)
    again = _window(qtbot, restore=True)
    assert again.workplace.dragged == {LEFT}
    assert again.docks["queryNavigatorDock"].width() == 640
    again.reset_layout()  # (forgotten at once: the layout saved keeps no side as dragged)
    assert Settings().dragged_sides == []
    again.session.mark_saved()


def test_the_side_columns_give_way_but_not_a_kept_one():
    from app.dock_homes import SIDE_LEAST, narrowed_sides

    bottom = Qt.DockWidgetArea.BottomDockWidgetArea
    sizes = {LEFT: 640, RIGHT: 300, bottom: 110}  # (with 6 px handles: 952 of 1280)
    # The grid 32 px short: the right column gives them either way.
    assert narrowed_sides(sizes, 1280, 360, 6, kept={LEFT}) == {LEFT: 640, RIGHT: 268, bottom: 110}
    # 272 short: the right one to its least, then the left gives the rest,
    # unless it is kept (the grid scrolls for the 122 px left).
    assert narrowed_sides(sizes, 1280, 600, 6) == {LEFT: 518, RIGHT: SIDE_LEAST, bottom: 110}
    assert narrowed_sides(sizes, 1280, 600, 6, kept={LEFT}) == {
        LEFT: 640, RIGHT: SIDE_LEAST, bottom: 110}
    assert narrowed_sides(sizes, 1280, 600, 6, kept={LEFT, RIGHT}) == sizes
