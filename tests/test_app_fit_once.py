"""A fit of the grids' and the navigator's columns is painted with the
window's next paint, not again a turn later: a QTableView told of each
resized column repaints from it on a 0 ms timer, whose turn comes after
the paint (at the launch's arrival on the 2M run the grids and the
navigator were painted twice: docs/benchmarks.md, hopen6)."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QApplication, QDockWidget, QTableView

from app.models.queries import QueryColumn
from app.window import MainWindow
from core.io.example import load_example
from core.model.document import Document

#: A close that would ask gets Discard (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("never_block")


class _Paints(QObject):
    def __init__(self) -> None:
        super().__init__()
        self.seen: list[str] = []

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint:
            self.seen.append(watched.parent().objectName())
        return False


def _squeezed(view: QTableView) -> None:
    for col in range(view.horizontalHeader().count()):
        view.horizontalHeader().resizeSection(col, 30)


def test_fitted_columns_are_painted_once(qtbot: Any) -> None:
    window = MainWindow(load_example())
    qtbot.addWidget(window)
    window.resize(1100, 760)
    window.show()
    qtbot.waitExposed(window)
    views = (window.grid, window.navigator.view)
    for view in views:
        _squeezed(view)
    qtbot.wait(50)  # every squeeze laid out and painted
    paints = _Paints()
    for view in views:
        view.viewport().installEventFilter(paints)
    window.fit_columns()
    window.navigator.fit_columns()
    QApplication.processEvents()  # the window's paint, the fitted columns in it
    first = list(paints.seen)
    paints.seen.clear()
    QApplication.processEvents()  # what the first pass left: nothing to paint again
    assert sorted(set(first)) == ["candidateGrid", "queryList"]
    assert paints.seen == []
    assert window.grid.horizontalHeader().sectionSize(1) > 30  # fitted


def test_a_navigator_narrowed_past_its_status_has_its_scroll_bars_at_once(qtbot: Any) -> None:
    """The navigator's side column narrowed (the dock areas sized for the
    document at the launch's arrival): the status column it hides as it is
    resized takes the list's sideways scroll range with it at once, not on
    a 0 ms timer after the next paint (at the arrival on the 2M run the
    list was painted with a sideways scroll bar, then again without it)."""
    window = MainWindow(load_example())
    qtbot.addWidget(window)
    window.resize(1100, 760)
    window.show()
    qtbot.waitExposed(window)
    view, dock = window.navigator.view, window.findChild(QDockWidget, "queryNavigatorDock")
    window.resizeDocks([dock], [520], Qt.Orientation.Horizontal)
    qtbot.wait(50)
    assert not view.isColumnHidden(QueryColumn.STATUS)  # the room for it
    assert view.horizontalScrollBar().maximum() == 0
    window.resizeDocks([dock], [200], Qt.Orientation.Horizontal)
    layout = window.layout()
    assert layout is not None
    layout.activate()  # the docks' new widths, no event delivered yet
    assert view.width() < 200
    assert view.isColumnHidden(QueryColumn.STATUS)
    assert view.horizontalScrollBar().maximum() == 0  # (was the hidden column's width)


def _queries(n: int) -> Document:
    return Document.from_columns(
        query=[f"q{i:03d}" for i in range(n) for _ in range(2)],
        source_id=[f"d{i}" for i in range(2 * n)], score=[2.0, 1.0] * n, grade=[1.0, 0.0] * n)


def test_the_query_list_is_painted_once_when_a_longer_document_arrives(qtbot: Any) -> None:
    """A document with more queries than the navigator shows, and the side
    column narrowed (the launch's arrival): the list's vertical scroll bar
    and its new width take room from the stretched query ids, and the list
    is painted with the window's next paint only; each stretch was told to
    the view as a resized column, repainted on a 0 ms timer after that
    paint (~4 ms at the arrival on the 2M run: docs/benchmarks.md, hopen9)."""
    window = MainWindow(load_example())
    qtbot.addWidget(window)
    window.resize(1100, 760)
    window.show()
    qtbot.waitExposed(window)
    view = window.navigator.view
    assert view.verticalScrollBar().maximum() == 0  # (the example's few queries fit)
    qtbot.wait(50)
    paints = _Paints()
    view.viewport().installEventFilter(paints)
    window.set_document(_queries(120))
    # The side column narrowed as the launch's arrival sizes the dock areas.
    dock = window.findChild(QDockWidget, "queryNavigatorDock")
    window.resizeDocks([dock], [dock.width() - 40], Qt.Orientation.Horizontal)
    layout = window.layout()
    assert layout is not None
    layout.activate()
    QApplication.processEvents()  # the window's paint, the new list in it
    assert paints.seen == ["queryList"]
    paints.seen.clear()
    QApplication.processEvents()  # what the first pass left: nothing to paint again
    assert view.verticalScrollBar().maximum() > 0
    assert paints.seen == []
