"""The grids' column widths a reviewer sets by hand (a header's edge
dragged) are kept within a session (the next query, a grade, a refit) and
across sessions, by grid and column key
(app/panels/kept_widths.py); a column no longer declared is ignored; View >
Reset column widths (Alt+V, W) lets them follow their contents again, in
this session and the next. Before, they were kept within a session only:
the next start fitted the Source column to its cap again.

The settings are the test's own (tests/conftest.py points QSettings at a
temporary folder), never the user's."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QSettings, Qt
from PySide6.QtWidgets import QApplication, QMenu

from app.main import build_window
from app.models.candidates import GridColumn
from app.settings import Settings
from tests.test_app_grid_layout import SCREENS, _open, _settle, _trec_run
from tests.test_app_keyboard import press

#: A close that would ask gets Discard (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("never_block")


def _drag_edge(qtbot, view, column: int, by: int) -> None:
    """Drag the right edge of ``column``'s header section ``by`` pixels, as
    a reviewer's mouse does (press, moves, release on the header)."""
    header = view.horizontalHeader()
    edge = header.sectionViewportPosition(column) + header.sectionSize(column) - 1
    y = header.height() // 2
    port = header.viewport()
    qtbot.mousePress(port, Qt.MouseButton.LeftButton, pos=QPoint(edge, y))
    for step in range(1, 5):
        qtbot.mouseMove(port, QPoint(edge + by * step // 4, y))
    qtbot.mouseRelease(port, Qt.MouseButton.LeftButton, pos=QPoint(edge + by, y))


def _session(qtbot, run: Path, qrels: Path):  # type: ignore[no-untyped-def]
    """A window on ``run`` as a start opens it (the layout and widths the
    last session left), at 1280x800, its columns fitted."""
    w = build_window(run, qrels=qrels)
    qtbot.addWidget(w)
    w.show()
    if not w.workplace._restored:
        w.workplace.reset(SCREENS["1280x800"])
    _settle(qtbot, w)
    w.fit_columns()  # as at the first show, now at the screen's size
    _settle(qtbot, w)
    return w


def _end(w) -> None:  # type: ignore[no-untyped-def]
    w.session.mark_saved()
    w.close()


def _own_settings(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The settings file is under this test run's temporary folders."""
    store = QSettings().fileName()
    assert store.startswith(str(tmp_path_factory.getbasetemp())), store


def test_a_width_dragged_by_hand_comes_back_in_the_next_session(qtbot, tmp_path,
                                                                tmp_path_factory):
    """The Source column dragged 90 px wider to read its URLs (capped at
    210 px at 1280x800) has that width at the next start, on every query
    (fails before: the next start fitted it to its cap again); the columns
    not dragged are fitted as before, and the judged-but-not-retrieved grid
    keeps none of the ranked grid's widths."""
    _own_settings(tmp_path_factory)
    run, qrels = _trec_run(tmp_path)
    w = _session(qtbot, run, qrels)
    source, gain = GridColumn.SOURCE, GridColumn.GAIN
    capped, gain_width = w.grid.columnWidth(source), w.grid.columnWidth(gain)
    _drag_edge(qtbot, w.grid, source, 90)
    dragged = w.grid.columnWidth(source)
    assert dragged >= capped + 80
    assert Settings().grid_column_widths == {"ranked": {"source": dragged}}
    _end(w)

    w = _session(qtbot, run, qrels)
    assert w.grid.columnWidth(source) == dragged
    assert w.grid.columnWidth(gain) == gain_width
    w.set_query(w.document.query_index("102"))
    _settle(qtbot, w)
    assert w.grid.columnWidth(source) == dragged
    assert w.grid_panel.kept.of(w.not_retrieved_view) == {}
    _end(w)


def test_a_column_no_longer_declared_is_ignored(qtbot, tmp_path):
    """Widths kept by a version whose grids had other columns (or a file
    edited by hand): a key no longer declared, a grid unknown, a width not
    a positive number are ignored; the known column takes its width."""
    Settings().grid_column_widths = {"ranked": {"source": 250, "relevance_gone": 300,
                                                "gain": 0},
                                     "a grid gone": {"source": 40}}
    store = QSettings()
    store.setValue("grid/column_widths", {**store.value("grid/column_widths"),
                                          "not_retrieved": {"note": 200, "version": "wide"}})
    store.sync()
    run, qrels = _trec_run(tmp_path)
    w = _session(qtbot, run, qrels)
    assert w.grid_panel.kept.of(w.grid) == {GridColumn.SOURCE: 250}
    assert w.grid.columnWidth(GridColumn.SOURCE) == 250
    assert w.grid_panel.kept.of(w.not_retrieved_view) == {GridColumn.NOTE: 200}
    _end(w)


def test_reset_column_widths_in_the_view_menu_forgets_them_now_and_next_time(
        qtbot, tmp_path):
    """Alt+V, W (View > Reset column widths): the dragged Source column
    goes back to its cap at once, and the next start fits it too."""
    run, qrels = _trec_run(tmp_path)
    w = _session(qtbot, run, qrels)
    source = GridColumn.SOURCE
    capped = w.grid.columnWidth(source)
    assert capped == w.grid_panel.source_most(w.grid)  # (query 101's URL is longer)
    _drag_edge(qtbot, w.grid, source, 90)
    assert w.grid.columnWidth(source) >= capped + 80
    action = w.app_actions["reset_column_widths"]
    assert action in w.menu("view").actions()
    w.grid.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is w.grid)
    press(qtbot, Qt.Key.Key_V, Qt.KeyboardModifier.AltModifier)
    qtbot.waitUntil(lambda: isinstance(QApplication.activePopupWidget(), QMenu))
    qtbot.keyClick(QApplication.activePopupWidget(), Qt.Key.Key_W)
    qtbot.waitUntil(lambda: QApplication.activePopupWidget() is None)
    _settle(qtbot, w)
    assert w.grid.columnWidth(source) == capped
    assert Settings().grid_column_widths == {}
    _end(w)

    w = _session(qtbot, run, qrels)  # (its cap: this window's room, restored)
    assert w.grid_panel.kept.of(w.grid) == {}
    assert w.grid.columnWidth(source) == w.grid_panel.source_most(w.grid) < capped + 80
    _end(w)


def test_a_column_the_reviewer_widened_keeps_its_width(qtbot, tmp_path):
    """At 1280x800 a reviewer drags the source column wider to read the
    URLs the cap elides: the next query, a grade and a refit keep that
    width (fails before: the next query put it back to its cap, 210 px);
    View > Reset layout gives it to the contents again."""
    w = _open(qtbot, "trec", tmp_path, "1280x800")
    grid = w.grid
    source = GridColumn.SOURCE
    capped = grid.columnWidth(source)
    _drag_edge(qtbot, grid, source, 90)
    dragged = grid.columnWidth(source)
    assert dragged >= capped + 80
    w.set_query(w.document.query_index("102"))
    _settle(qtbot, w)
    assert grid.columnWidth(source) == dragged
    grid.setCurrentIndex(w.grid_model.index(1, GridColumn.GRADE))
    grid.setFocus()
    qtbot.keyClick(grid, Qt.Key.Key_2)  # (shows the original grade: the columns refitted)
    qtbot.waitUntil(lambda: not grid.isColumnHidden(GridColumn.ORIGINAL))
    _settle(qtbot, w)
    w.fit_columns()
    assert grid.columnWidth(source) == dragged
    w.app_actions["reset_layout"].trigger()
    _settle(qtbot, w)
    w.fit_columns()
    assert grid.columnWidth(source) < dragged
    w.session.mark_saved()
