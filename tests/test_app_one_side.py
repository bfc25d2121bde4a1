"""A narrow window has one side column (issue 29: a 1920x1080 screen at 2x
scale is 960x540): the summary and the conventions are tabs in the left
column beside the queries, each as wide as the column, so that no button,
filter box or tab title is cut and the grid keeps its key columns; resizing
the window across Workplace.one_side_below() moves them over and back and
loses nothing."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtGui import QFont, QFontMetricsF
from PySide6.QtWidgets import QAbstractButton, QApplication, QStyle, QTabBar

from app.dock_homes import ONE_SIDE_BELOW, STACKED_FROM, DockHome, one_side_home
from app.models.audit import AuditColumn
from app.panels.column_chooser import KEY_COLUMNS
from app.panels.fit import elided_headers
from core.engine.results import Status
from tests.test_app_grid_layout import _outside

LEFT, RIGHT = Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea
BOTTOM = Qt.DockWidgetArea.BottomDockWidgetArea
SIDE = ("summaryPanelDock", "conventionsPanelDock")


#: A close that would ask gets Discard (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("never_block")


def _settle(qtbot, w) -> None:
    qtbot.waitExposed(w)
    qtbot.wait(1)  # the deferred moves and column fits (timers at 0 ms) run
    QApplication.processEvents()


def _sized(qtbot, w, width: int, height: int) -> None:
    """``w`` resized as a reviewer drags its edge (not maximized)."""
    w.setWindowState(Qt.WindowState.WindowNoState)
    w.setGeometry(0, 0, width, height)
    _settle(qtbot, w)
    qtbot.waitUntil(lambda: w.workplace.one_side == (width < w.workplace.one_side_below()))
    _settle(qtbot, w)


def _cut_controls(dock) -> list[str]:
    """Buttons and check boxes of ``dock`` (in front) narrower than their
    text asks, or reaching past the dock's right edge; line edits narrower
    than their placeholder."""
    cut = []
    for button in dock.findChildren(QAbstractButton):
        if not button.isVisible() or button.parent() is dock:  # (the title bar's)
            continue
        right = button.mapTo(dock, QPoint(button.width(), 0)).x()
        if button.width() < button.sizeHint().width() or right > dock.width():
            cut.append(f"{button.text() or button.accessibleName()}: {button.width()} "
                       f"of {button.sizeHint().width()}, right edge {right} of {dock.width()}")
    return cut


def _elided_tabs(w) -> list[str]:
    """Tab titles in ``w``'s dock tab bars shown shorter than they are (a
    tab scrolled out of a bar is whole: the bar's arrows bring it back)."""
    cut = []
    for bar in w.findChildren(QTabBar):
        if not bar.isVisible():
            continue
        # A tab asks for its text and the style's room beside it (a tab's size hint).
        room = bar.style().pixelMetric(QStyle.PixelMetric.PM_TabBarTabHSpace, None, bar)
        for i in range(bar.count()):
            rect, text = bar.tabRect(i), bar.tabText(i)
            if rect.width() < bar.fontMetrics().horizontalAdvance(text) + room:
                cut.append(text)
    return cut


def test_a_dock_s_home_in_one_side_column():
    nav = DockHome(LEFT)
    homes = {"nav": nav, "summary": DockHome(RIGHT),
             "conventions": DockHome(RIGHT, below="summary", stacked_from=STACKED_FROM),
             "compare": DockHome(RIGHT, tab_with="summary", hidden=True),
             "audit": DockHome(BOTTOM)}
    moved = {n: one_side_home(h, homes) for n, h in homes.items()}
    assert moved["nav"] == nav
    assert moved["audit"] == homes["audit"]
    # The right column's first dock below the left one's (behind it when short).
    assert moved["summary"] == DockHome(LEFT, below="nav", stacked_from=STACKED_FROM)
    # One below it: a tab behind it (three docks stacked would be slivers).
    assert moved["conventions"] == DockHome(LEFT, tab_with="summary")
    assert moved["compare"] == DockHome(LEFT, tab_with="summary", hidden=True)


def test_at_2x_on_a_1920x1080_screen_nothing_is_cut(qtbot, window):
    w = window
    w.workplace.reset(QRect(0, 0, 960, 540))
    _settle(qtbot, w)
    w.fit_columns()
    _settle(qtbot, w)
    assert w.workplace.one_side
    nav = w.docks["queryNavigatorDock"]
    assert {w.dockWidgetArea(w.docks[n]) for n in (*SIDE, "queryNavigatorDock")} == {LEFT}
    # A 540 px window is short: tabs, the queries in front, each the column's height.
    assert set(w.tabifiedDockWidgets(nav)) >= {w.docks[n] for n in SIDE}
    assert not nav.visibleRegion().isEmpty()
    # The grid keeps its key columns; the side column gets the rest, not 150 px.
    assert _outside(w.grid, KEY_COLUMNS) == []
    assert elided_headers(w.grid) == []
    assert nav.width() >= 300
    assert w.centralWidget().width() >= w.grid_panel.key_width()  # (566 px at 9 pt)
    assert w.centralWidget().width() >= 0.6 * w.width()
    # The navigator's filter: its field shows its placeholder whole, its status boxes whole.
    field = w.navigator.filter_edit
    assert field.width() >= field.fontMetrics().horizontalAdvance(field.placeholderText()) + 12
    assert _cut_controls(nav) == []
    assert set(w.navigator.status_boxes) == set(Status)
    assert elided_headers(w.navigator.view) == []
    assert _elided_tabs(w) == []
    bar = next(b for b in w.findChildren(QTabBar) if b.isVisible() and b.count() == 3
               and b.tabText(0) == "Queries")
    assert all(bar.rect().contains(bar.tabRect(i)) for i in range(3))  # all three in view
    # The summary and the conventions, each in front in turn.
    for name in SIDE:
        dock = w.docks[name]
        dock.raise_()
        _settle(qtbot, w)
        assert not dock.visibleRegion().isEmpty(), name
        assert dock.width() == nav.width()
        assert _cut_controls(dock) == [], name
    copy = w.summary_panel.copy_button
    assert copy.isVisible()
    assert copy.width() >= copy.sizeHint().width()
    assert elided_headers(w.summary_panel.table) == []
    # A graded candidate's audit entry: the note keeps its header and its
    # text in the narrow log (the log scrolls), not squeezed to "N…".
    assert w.set_grade(0, 2.0, note="read the full text")
    _settle(qtbot, w)
    log = w.audit_view
    assert elided_headers(log) == []
    note = log.columnWidth(AuditColumn.NOTE)
    assert note >= log.fontMetrics().horizontalAdvance("read the full text") + 6
    w.session.mark_saved()


def test_many_docks_in_a_column_keep_their_titles_whole(qtbot, window):
    """Review docks opened beside the summary: their tabs scroll (arrows)
    rather than each title being cut to a few letters."""
    w = window
    w.workplace.reset(QRect(0, 0, 960, 540))
    _settle(qtbot, w)
    for name in ("compareViewDock", "runsViewDock", "judgesViewDock"):
        w.docks[name].show()
    _settle(qtbot, w)
    bars = [b for b in w.findChildren(QTabBar) if b.isVisible()]
    column = next(b for b in bars if b.count() == 6)
    assert [column.tabText(i) for i in range(6)] == [
        "Queries", "Summary", "Conventions", "Comparison", "Runs compared", "Judges"]
    for bar in bars:
        assert bar.elideMode() == Qt.TextElideMode.ElideNone
        assert bar.usesScrollButtons()
    assert _elided_tabs(w) == []
    # Their least sizes fit the column: the window is not pushed past its
    # screen (the comparison scrolls in a short dock; the runs' buttons have a
    # row of their own), the grid keeps its key columns.
    assert (w.width(), w.height()) == (960, 540)
    for name in ("compareViewDock", "runsViewDock", "judgesViewDock"):
        least = w.docks[name].minimumSizeHint()
        assert least.width() <= 320, (name, least)
        assert least.height() <= 300, (name, least)
    assert _outside(w.grid, KEY_COLUMNS) == []


def test_a_large_font_counts_as_a_narrower_window(qtbot, window):
    """The width is counted in characters of the window's font: at 16 pt a
    1920 px screen holds about as many as a 1100 px one at 9 pt, and two
    side columns would cut the query ids and the summary's table."""
    w = window
    w.workplace.reset(QRect(0, 0, 1920, 1080))
    _settle(qtbot, w)
    average = QFontMetricsF(w.font()).averageCharWidth()
    assert w.workplace.one_side_below() == round(ONE_SIDE_BELOW * average)
    assert 1100 < w.workplace.one_side_below() < 1280  # (9 pt: ~6 px a character)
    assert not w.workplace.one_side
    usual = QFont(w.font())
    large = QFont(usual)
    large.setPointSizeF(16)
    w.setFont(large)  # as a 16 pt system font does: the docks follow at once
    qtbot.waitUntil(lambda: w.workplace.one_side)
    _settle(qtbot, w)
    assert w.workplace.one_side_below() > 1920
    assert {w.dockWidgetArea(w.docks[n]) for n in SIDE} == {LEFT}
    summary = w.docks["summaryPanelDock"]
    assert summary.y() > w.docks["queryNavigatorDock"].y()  # 1080 px tall: below the queries
    assert _cut_controls(w.docks["queryNavigatorDock"]) == []
    assert _cut_controls(summary) == []
    assert elided_headers(w.navigator.view) == []
    assert elided_headers(w.summary_panel.table) == []
    assert _elided_tabs(w) == []
    w.setFont(usual)
    qtbot.waitUntil(lambda: not w.workplace.one_side)
    assert {w.dockWidgetArea(w.docks[n]) for n in SIDE} == {RIGHT}


def test_a_tall_narrow_window_puts_the_summary_below_the_queries(qtbot, window):
    w = window
    w.workplace.reset(QRect(0, 0, 1000, 1100))
    _settle(qtbot, w)
    nav, summary, conventions = (w.docks[n] for n in ("queryNavigatorDock", *SIDE))
    assert w.workplace.one_side
    assert summary.x() == nav.x()
    assert summary.y() >= nav.y() + nav.height() - 1  # below it, both in view
    assert not nav.visibleRegion().isEmpty()
    assert not summary.visibleRegion().isEmpty()
    assert w.tabifiedDockWidgets(summary) == [conventions]
    assert conventions.visibleRegion().isEmpty()


def test_resizing_across_the_width_moves_the_panels_and_keeps_the_work(qtbot, window):
    w = window
    _settle(qtbot, w)
    assert not w.workplace.one_side  # 1280x800: two side columns
    assert w.dockWidgetArea(w.docks["summaryPanelDock"]) == RIGHT
    # Some work: a grade, a query shown, the cursor in a convention box.
    q = w.document.query_index("case-E")
    w.set_query(q)
    row = w.grid_model.candidate(0)
    assert w.set_grade(row, 0.0, note="off topic")
    steps = w.session.position
    conventions = w.docks["conventionsPanelDock"]
    conventions.raise_()
    combo = w.conventions_panel.combos["discount"]
    combo.setFocus()
    qtbot.waitUntil(combo.hasFocus)
    summary_text = w.summary_panel.sentence.text()
    w.docks["guidelinesDock"].close()  # a dock the reviewer closed stays closed

    _sized(qtbot, w, 960, 540)
    assert {w.dockWidgetArea(w.docks[n]) for n in SIDE} == {LEFT}
    assert w.session.position == steps
    assert w.current_query == q
    assert w.document.grade[row] == 0.0
    assert w.summary_panel.sentence.text() == summary_text
    assert w.docks["guidelinesDock"].isHidden()
    # The focus stays where it was, its dock brought in front.
    assert combo.hasFocus()
    assert not conventions.visibleRegion().isEmpty()
    assert _outside(w.grid, KEY_COLUMNS) == []  # the grid's columns fitted again
    assert _elided_tabs(w) == []
    # Undo still undoes the grade.
    w.app_actions["undo"].trigger()
    assert w.session.position == steps - 1
    assert w.document.grade[row] != 0.0

    _sized(qtbot, w, 1280, 800)
    summary = w.docks["summaryPanelDock"]
    assert {w.dockWidgetArea(w.docks[n]) for n in SIDE} == {RIGHT}
    assert w.height() < STACKED_FROM  # short: the conventions behind the summary again
    assert w.tabifiedDockWidgets(summary) == [conventions]
    assert w.dockWidgetArea(w.docks["queryNavigatorDock"]) == LEFT
    assert w.tabifiedDockWidgets(w.docks["queryNavigatorDock"]) == []
    assert w.docks["guidelinesDock"].isHidden()
    w.app_actions["redo"].trigger()
    assert w.session.position == steps
    assert w.document.grade[row] == 0.0
    w.session.mark_saved()


def test_a_panel_the_reviewer_moved_stays_where_they_put_it(qtbot, window):
    w = window
    summary = w.docks["summaryPanelDock"]
    w.addDockWidget(BOTTOM, summary)  # dragged under the grid
    _sized(qtbot, w, 960, 540)
    assert w.dockWidgetArea(summary) == BOTTOM
    assert w.dockWidgetArea(w.docks["conventionsPanelDock"]) == LEFT
    _sized(qtbot, w, 1280, 800)
    assert w.dockWidgetArea(summary) == BOTTOM
    assert w.dockWidgetArea(w.docks["conventionsPanelDock"]) == RIGHT


def test_a_layout_left_in_one_side_column_is_restored_so(qtbot):
    from app.main import build_window

    w = build_window(None)
    qtbot.addWidget(w)
    w.show()
    _sized(qtbot, w, 960, 540)
    nav = w.docks["queryNavigatorDock"]
    w.resizeDocks([nav], [280], Qt.Orientation.Horizontal)
    _settle(qtbot, w)
    width = nav.width()
    assert w.close()
    again = build_window(None)
    qtbot.addWidget(again)
    again.show()
    _settle(qtbot, again)
    assert again.workplace.one_side
    assert {again.dockWidgetArea(again.docks[n]) for n in SIDE} == {LEFT}
    assert again.docks["queryNavigatorDock"].width() == width
    # Wider again: two columns.
    _sized(qtbot, again, 1280, 800)
    assert {again.dockWidgetArea(again.docks[n]) for n in SIDE} == {RIGHT}
    again.session.mark_saved()



def test_at_1280x800_the_queries_panel_cuts_no_status_box(qtbot, window):
    """The four status filters (ok, undefined, unresolved, no ranking) side
    by side were cut to "undefi", "unresol" in a 290 px side column."""
    w = window
    _settle(qtbot, w)
    assert not w.workplace.one_side
    nav = w.docks["queryNavigatorDock"]
    assert set(w.navigator.status_boxes) == set(Status)
    assert _cut_controls(nav) == []
    w.session.mark_saved()
