"""The desk at the sizes reviewers' screens have (hdesk12): what a reviewer
reads at 1280x800 to 1920x1080 beside long ids, texts and annotators'
grades. The grid's columns in view on their own: tests/test_app_grid_layout.py."""

from __future__ import annotations

import dataclasses

import pytest
from PySide6.QtCore import QRect
from PySide6.QtWidgets import QApplication

from app.main import build_window
from app.models.candidates import GridColumn
from app.models.queries import QueryColumn
from app.panels.fit import elided_headers
from core.engine.columns import GRID_COLUMNS

#: A close that would ask gets Discard (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("never_block")

SCREENS = {"1920x1080": QRect(0, 0, 1920, 1080), "1280x800": QRect(0, 0, 1280, 800)}


def _settle(qtbot, w) -> None:
    qtbot.waitExposed(w)
    qtbot.wait(1)
    QApplication.processEvents()


def _url_rows() -> list[tuple[str, str, float, float | None]]:
    """Twelve queries of 12 candidates, their ids 40-character URLs
    (``https://docs.example.com/helpers/pa-0100``: the sections differ, so
    the ends alone do not tell them apart), every third one unjudged."""
    rows = []
    for q in range(12):
        for r in range(12):
            section = ("helpers/pa", "travel/pas", "govdocs/pa")[(q + r) % 3]
            source = f"https://docs.example.com/{section}-{q:02d}{r:02d}"
            assert len(source) == 40
            rows.append((f"q{q:03d}", source, 10.0 - r, None if r % 3 == 0 else r % 4))
    return rows


def _urls_window(qtbot, screen: str):
    from tests.conftest import doc_of

    w = build_window(None)
    qtbot.addWidget(w)
    w.show()
    doc = doc_of(_url_rows())
    w.set_document(dataclasses.replace(doc, query_texts={
        q: f"How do I renew a passport that expired while I was living abroad ({q})?"
        for q in doc.query_ids}))
    w.workplace.reset(SCREENS[screen])
    _settle(qtbot, w)
    w.fit_columns()
    _settle(qtbot, w)
    return w


def _in_view(grid) -> list[str]:
    port = grid.viewport().width()
    return [c.key for n, c in enumerate(GRID_COLUMNS) if not c.edits_only
            and grid.columnViewportPosition(n) >= 0
            and grid.columnViewportPosition(n) + grid.columnWidth(n) <= port]


def test_at_1920x1080_the_source_ids_read_whole_beside_every_column(qtbot):
    """40-character URLs at 1920x1080: the grid held every column with the
    source cut to its least, 16 characters (104 px, 'htt…rs/pa-0100'),
    while the navigator (395 px) and the summary (384) were past the widths
    where they still read (321 and 312): fails before (104 < 271). The
    sides give way to the ids too, down to where they read (the navigator's
    statuses in their short forms, whole on hover): the ids whole, every
    column still in view, the navigator's status and headers whole."""
    w = _urls_window(qtbot, "1920x1080")
    grid = w.grid
    ids = grid.sizeHintForColumn(GridColumn.SOURCE)  # (the ids in view, whole)
    assert ids > grid.fontMetrics().averageCharWidth() * 40
    assert grid.columnWidth(GridColumn.SOURCE) >= ids
    assert _in_view(grid) == [c.key for c in GRID_COLUMNS if not c.edits_only]
    nav = w.navigator.view
    assert not nav.isColumnHidden(QueryColumn.STATUS)
    assert nav.columnViewportPosition(QueryColumn.STATUS) + nav.columnWidth(
        QueryColumn.STATUS) <= nav.viewport().width()
    assert elided_headers(nav) == elided_headers(grid) == []
    assert w.docks["summaryPanelDock"].width() >= w.summary_panel.sizeHint().width()
    w.session.mark_saved()


def test_the_sides_give_way_to_the_ids_read_whole_as_to_the_whole_set():
    """The sides as at 1920x1080 beside 40-character URLs (the probe's
    widths): the whole set (1129 px) fits beside them as they are; with the
    ids whole (1296 px) the navigator gives its 74 px past its floor, the
    summary its 72, then the navigator 21 of its short floor's 39 (the
    short step taken only where it holds the set: with 19 px more it would
    need 40, and is not). Fails before (no grid_read)."""
    from PySide6.QtCore import Qt

    from app.dock_homes import narrowed_sides

    left, right = Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea
    bottom = Qt.DockWidgetArea.BottomDockWidgetArea
    sizes = {left: 395, right: 384, bottom: 110}
    floors, shorts = {left: 321, right: 312}, {left: 282, right: 312}
    given = {"floors": floors, "shorts": shorts}
    assert narrowed_sides(sizes, 1920, 562, 6, grid_whole=1129, **given) == sizes
    assert narrowed_sides(sizes, 1920, 562, 6, grid_whole=1129, grid_read=1296,
                          **given) == {left: 300, right: 312, bottom: 110}
    assert narrowed_sides(sizes, 1920, 562, 6, grid_whole=1129, grid_read=1296 + 19,
                          **given) == {left: 321, right: 312, bottom: 110}


def _annotated():
    """Two queries graded by three annotators who disagree (the grade
    their mean)."""
    import numpy as np

    from core.model.document import Document

    ratings = np.array([[0, 1, 1], [2, 2, 3], [1, 1, 1], [3, 2, 3], [0, 0, 1]], dtype=float)
    doc = Document.from_columns(
        query=["q1", "q1", "q1", "q2", "q2"], source_id=["a", "b", "c", "a", "d"],
        score=[3, 2, 1, 2, 1], grade=list(ratings.mean(axis=1)), name="three judges")
    doc.annotators = ["ana", "ben", "cara"]
    doc.ratings = ratings
    return doc


@pytest.mark.parametrize("screen", ["1280x800", "1920x1080"])
def test_annotators_grades_leave_the_summary_in_front(qtbot, screen):
    """An annotators' sheet opened at 1280x800 (the summary, the conventions
    and the judges tabs of one column): the judges' tab, shown one tab away,
    brought the conventions in front of the summary (fails before: the
    summary behind a tab, the reviewer's NDCG of the query out of sight).
    At 1920x1080 (the conventions below the summary) the conventions stay
    in front of the judges, as before."""
    w = build_window(None)
    qtbot.addWidget(w)
    w.show()
    w.workplace.reset(SCREENS[screen])
    _settle(qtbot, w)
    w.set_document(_annotated())
    _settle(qtbot, w)
    docks = w.docks
    judges = docks["judgesViewDock"]
    assert judges.isVisible()
    assert judges.visibleRegion().isEmpty()  # (one tab away)
    for name in ("summaryPanelDock", "conventionsPanelDock"):
        front = not docks[name].visibleRegion().isEmpty()
        assert front is (name == "summaryPanelDock" or screen == "1920x1080"), name
    w.session.mark_saved()
