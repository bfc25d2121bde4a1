"""The navigator's cells answered a call a cell
(:meth:`QueryListModel.multiData`, forwarded by
:meth:`QueryFilterProxy.multiData`): every role a cell is asked, through the
proxy or not, is what ``data`` answers; cell after cell through one delegate
(Qt hands each delegate's span of roles from cell to cell) the style option
is the one Qt's own ``multiData`` (a ``data`` call a role) fills; and the
navigator at usable, at 1280x800 and 1920x1080, is grabbed equal pixel for
pixel."""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Any

import numpy as np
import pytest
from PySide6.QtCore import (
    QAbstractTableModel,
    QModelRoleData,
    QModelRoleDataSpan,
    QSortFilterProxyModel,
    Qt,
)
from PySide6.QtWidgets import QApplication, QStyledItemDelegate, QStyleOptionViewItem, QWidget

import app.panels.navigator as navigator_module
from app.models.queries import QueryColumn, QueryFilterProxy, QueryListModel, RunColumns
from app.models.roles import (
    ALIGNMENT,
    BACKGROUND,
    DISPLAY,
    EDIT,
    FONT,
    FOREGROUND,
    SORT_ROLE,
    SPOKEN,
    TOOLTIP,
    WHOLE_ROLE,
)
from app.panels.navigator import QueryNavigator
from app.shown import CELL_SHOWN, QUERY_APART, shown_query
from core.engine.evaluation import Status, evaluate
from core.model.examples import seed_document
from tests.test_app_models import mixed_document
from tests.test_app_models_multidata import style_option
from tests.test_app_navigator_fit import _many_queries


class DataOnly(QueryListModel):
    """The navigator's model as it was: Qt's ``multiData``, which asks
    ``data`` a role at a time."""

    def multiData(self, index, roleDataSpan) -> None:  # type: ignore[no-untyped-def]
        QAbstractTableModel.multiData(self, index, roleDataSpan)


class DataOnlyProxy(QueryFilterProxy):
    """The navigator's proxy as it was: Qt's, which does not forward
    ``multiData`` (its ``data``, a role at a time, mapped to the source's)."""

    def multiData(self, index, roleDataSpan) -> None:  # type: ignore[no-untyped-def]
        QSortFilterProxyModel.multiData(self, index, roleDataSpan)


class Counted(QueryListModel):
    """The navigator's model, the roles asked of its ``data`` counted."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: list[int] = []

    def data(self, index, role=DISPLAY):  # type: ignore[no-untyped-def]
        self.asked.append(role)
        return super().data(index, role)


class CountedDataOnly(Counted, DataOnly):
    """The model as it was, the roles asked of its ``data`` counted."""


#: Every role the navigator answers, and some it does not (each must be cleared).
ROLES = [DISPLAY, FONT, FOREGROUND, BACKGROUND, ALIGNMENT, TOOLTIP, SORT_ROLE, WHOLE_ROLE,
         EDIT, SPOKEN, int(Qt.ItemDataRole.CheckStateRole),
         int(Qt.ItemDataRole.DecorationRole)]
DOCUMENTS = [seed_document, mixed_document, _many_queries]


def _runs(n: int) -> RunColumns:
    """Two compared runs' columns over ``n`` queries, a query not compared (NaN)."""
    ndcg = np.linspace(0, 1, 2 * n).reshape(2, n)
    delta = ndcg - 0.5
    ndcg[1, 0] = delta[1, 0] = np.nan
    return RunColumns(["B", "C"], ["b.run", "c.run"], 10, ndcg, delta)


def _models(make: Any, runs: bool, *, old: bool = False) -> tuple[Counted, QueryFilterProxy]:
    """``make``'s navigator models, sorted and filtered; ``old``: as they were."""
    ev = evaluate(make())
    model = CountedDataOnly() if old else Counted()
    model.set_evaluation(ev)
    if runs:
        model.set_runs(_runs(ev.doc.n_queries))
    proxy = DataOnlyProxy() if old else QueryFilterProxy()
    proxy.setSourceModel(model)
    # (sorted and filtered: a proxy's row is not its source's)
    proxy.sort(QueryColumn.NDCG, Qt.SortOrder.DescendingOrder)
    statuses = {ev.status(q, 0) for q in range(ev.doc.n_queries)}
    if len(statuses) > 1:
        proxy.set_statuses(set(Status) - {min(statuses, key=lambda s: s.value)})
    return model, proxy


@pytest.mark.parametrize("runs", [False, True])
@pytest.mark.parametrize("make", DOCUMENTS)
def test_every_role_of_every_cell_is_what_data_answers(qtbot: Any, make: Any,
                                                       runs: bool) -> None:
    model, proxy = _models(make, runs)
    assert 0 < proxy.rowCount() <= model.rowCount()
    for source, place in ((model, lambda r, c: model.index(r, c)),
                          (proxy, lambda r, c: proxy.index(r, c))):
        for row in range(source.rowCount()):
            for col in range(source.columnCount()):
                index = place(row, col)
                # each role alone, as asked through a span of one (PySide
                # makes no longer span: the delegates' test asks seven), the
                # span holding what the cell before left in it
                for role in ROLES:
                    asked = QModelRoleData(role)
                    asked.setData("the cell before's")
                    source.multiData(index, QModelRoleDataSpan(asked))
                    assert asked.data() == source.data(index, role), (row, col, role)


@pytest.mark.parametrize("runs", [False, True])
@pytest.mark.parametrize("make", DOCUMENTS)
def test_a_cell_painted_is_filled_as_a_role_at_a_time_fills_it(qtbot: Any, make: Any,
                                                               runs: bool) -> None:
    """Through the proxy, cell after cell through one delegate, the style
    option as Qt's own ``multiData`` fills it, and no ``data`` call."""
    (model, proxy), (old_model, old_proxy) = _models(make, runs), _models(make, runs, old=True)
    views = []
    for view_model in (proxy, old_proxy):
        nav = QueryNavigator(lambda: 4)
        qtbot.addWidget(nav)
        nav.view.setModel(view_model)
        views.append(nav.view)
    delegates = QStyledItemDelegate(), QStyledItemDelegate()
    for row in range(proxy.rowCount()):
        for col in range(proxy.columnCount()):
            model.asked.clear()
            new = style_option(views[0], delegates[0], proxy.index(row, col))
            assert model.asked == []  # (seven roles through data before)
            old = style_option(views[1], delegates[1], old_proxy.index(row, col))
            assert new == old, (row, col)
    assert old_model.asked  # (the proxy as Qt's: a role at a time)


def test_the_view_asks_the_proxys_multidata(qtbot: Any) -> None:
    """A paint of the navigator asks its model's ``data`` only what its
    delegates ask themselves (the query column's whole id), none of the
    seven roles of each cell's style option."""
    nav = QueryNavigator(lambda: 4)
    qtbot.addWidget(nav)
    counted = Counted()
    nav.model = counted  # (as the navigator's own, before any document)
    nav.proxy.setSourceModel(counted)
    nav.resize(420, 600)
    nav.set_evaluation(evaluate(_many_queries()))
    nav.show()
    qtbot.waitExposed(nav)
    counted.asked.clear()
    nav.view.viewport().grab()
    assert set(counted.asked) == {WHOLE_ROLE}


class CountedCells(QueryListModel):
    """The navigator's model, the cells asked their whole id counted."""

    def __init__(self) -> None:
        super().__init__()
        self.whole: Counter[int] = Counter()

    def data(self, index, role=DISPLAY):  # type: ignore[no-untyped-def]
        if role == WHOLE_ROLE:
            self.whole[index.row()] += 1
        return super().data(index, role)


def test_a_painted_query_asks_its_whole_id_once_and_a_text_is_cut_at_its_end(qtbot: Any) -> None:
    """A painted query's cell asks its whole id once (whether it holds a
    line break's mark: ``IdDelegate.paint``), not again to fill its style
    option: only a cell showing the separator of an id and its text can be
    one cut at its end (twice a cell before, ~0.3 ms of the navigator's
    repaint, hopen15). A query with a text is still cut at its end, an id
    alone, holding the separator itself or not, in its middle."""
    doc = _many_queries()
    doc = dataclasses.replace(doc, query_texts={
        "q": "how do I renew a passport", doc.query_ids[10]: "a text"})
    doc.query_ids[9] = "query-009 · itself"  # (an id holding the separator, no text)
    texts = {q: doc.query_text(q) for q in range(doc.n_queries)}
    nav = QueryNavigator(lambda: 4)
    qtbot.addWidget(nav)
    counted = CountedCells()
    nav.model = counted  # (as the navigator's own, before any document)
    nav.proxy.setSourceModel(counted)
    nav.resize(420, 600)
    nav.set_evaluation(evaluate(doc))
    nav.show()
    qtbot.waitExposed(nav)
    view, proxy = nav.view, nav.proxy
    painted = range(view.rowAt(0), view.rowAt(view.viewport().height() - 1) + 1)
    shown = [proxy.mapToSource(proxy.index(row, 0)).row() for row in painted]
    assert {0, 9, 10} <= set(shown)
    assert len(shown) > 12
    counted.whole.clear()
    view.viewport().grab()
    # (asked again where the cell shows the separator: a text, or an id holding it)
    assert counted.whole == Counter({q: 2 if QUERY_APART in shown_query(
        doc.query_ids[q], texts[q], CELL_SHOWN) else 1 for q in shown})
    assert sorted(q for q in shown if counted.whole[q] == 2) == [0, 9, 10]
    delegate = view.itemDelegateForColumn(QueryColumn.QUERY)
    modes = {}
    for row, q in zip(painted, shown, strict=True):
        option = QStyleOptionViewItem()
        view.initViewItemOption(option)
        delegate.initStyleOption(option, proxy.index(row, QueryColumn.QUERY))
        modes[q] = option.textElideMode
    right, middle = Qt.TextElideMode.ElideRight, Qt.TextElideMode.ElideMiddle
    assert modes == {q: right if texts[q] else middle for q in shown}


def _window_at(qtbot: Any, size: tuple[int, int], old: bool, monkeypatch: Any) -> Any:
    """The main window on the bundled example as at a first start on a
    screen of ``size``; ``old``: its navigator's model and proxy as they were."""
    from PySide6.QtCore import QRect

    from app.main import build_window

    if old:
        monkeypatch.setattr(navigator_module, "QueryListModel", DataOnly)
        monkeypatch.setattr(navigator_module, "QueryFilterProxy", DataOnlyProxy)
    try:
        w = build_window(None)
    finally:
        monkeypatch.setattr(navigator_module, "QueryListModel", QueryListModel)
        monkeypatch.setattr(navigator_module, "QueryFilterProxy", QueryFilterProxy)
    qtbot.addWidget(w, before_close_func=lambda shown: shown.session.mark_saved())
    w.show()
    w.workplace.reset(QRect(0, 0, *size))
    qtbot.waitExposed(w)
    w.fit_columns()
    QApplication.processEvents()
    assert isinstance(w.navigator.model, DataOnly) is old
    assert isinstance(w.navigator.proxy, DataOnlyProxy) is old
    return w


@pytest.mark.parametrize("size", [(1280, 800), (1920, 1080)])
def test_the_navigator_paints_as_a_role_at_a_time_paints_it(qtbot: Any, monkeypatch: Any,
                                                            size: tuple[int, int]) -> None:
    windows = [_window_at(qtbot, size, old, monkeypatch) for old in (False, True)]
    # (neither window the active one: a selection's colours follow it)
    elsewhere = QWidget()
    qtbot.addWidget(elsewhere)
    elsewhere.show()
    elsewhere.activateWindow()
    qtbot.waitUntil(elsewhere.isActiveWindow)
    navigators = [w.navigator for w in windows]
    assert navigators[0].size() == navigators[1].size()
    new, old = (nav.grab().toImage() for nav in navigators)
    assert new == old
    # sorted by NDCG, a status filtered out, the runs' columns shown
    n = windows[0].navigator.model.rowCount()
    for nav in navigators:
        nav.view.sortByColumn(QueryColumn.NDCG, Qt.SortOrder.DescendingOrder)
        nav.status_boxes[Status.OK].setChecked(False)
        nav.status_boxes[Status.OK].setChecked(True)
        nav.show_runs(_runs(n))
    QApplication.processEvents()
    new, old = (nav.grab().toImage() for nav in navigators)
    assert new == old
    assert new.width() == navigators[0].width() > 0
