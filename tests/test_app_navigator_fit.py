"""The navigator measures its columns once per document, sort and font: the
query ids' width its size hint asks for is the one Qt measures then, and
each query's status is the evaluation's, after an edit too."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QStyleOptionViewItem

from app.models.queries import QueryColumn
from app.panels.fit import text_margins, text_width
from app.panels.navigator import QueryNavigator
from core.engine.evaluation import Status, evaluate
from core.engine.incremental import reevaluate
from core.model.document import Document, GradeState


def _document() -> Document:
    # q-long-... unresolved (an unknown grade), q2 ok, q3 undefined (no relevant).
    return Document.from_columns(
        query=["q-long-" + "x" * 30, "q-long-" + "x" * 30, "q2", "q3"],
        source_id=["a", "b", "c", "d"], score=[2.0, 1.0, 1.0, 1.0],
        grade=[1.0, None, 2.0, 0.0])


def _live_ids_width(nav: QueryNavigator) -> int:
    return max(nav.view.sizeHintForColumn(QueryColumn.QUERY), 0)


def test_the_ids_width_is_measured_with_the_columns(qtbot: Any) -> None:
    doc = _document()
    nav = QueryNavigator(lambda: 4)
    qtbot.addWidget(nav)
    nav.resize(420, 400)
    nav.set_evaluation(evaluate(doc))
    hint = nav.sizeHint().width()
    nav.show()
    qtbot.waitExposed(nav)
    assert nav._ids_width == _live_ids_width(nav) > 0
    assert nav.sizeHint().width() == hint  # shown or not, the same rows measured
    # A click on a header sorts and refits; a larger font refits too.
    header = nav.view.horizontalHeader()
    x = header.sectionViewportPosition(QueryColumn.QUERY) + 5
    qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(x, 5))
    assert nav._ids_width == _live_ids_width(nav)
    large = QFont(nav.font())
    large.setPointSizeF(large.pointSizeF() * 2)
    nav.setFont(large)
    qtbot.waitUntil(lambda: nav._ids_width == _live_ids_width(nav) and nav.sizeHint().width()
                    > hint)


def test_a_status_changed_by_an_edit_is_shown(qtbot: Any) -> None:
    doc = _document()
    nav = QueryNavigator(lambda: 4)
    qtbot.addWidget(nav)
    ev = evaluate(doc)
    nav.set_evaluation(ev)
    model = nav.model

    def status(q: int) -> Any:
        return model.data(model.index(q, QueryColumn.STATUS))

    assert [ev.status(q, 0) for q in range(3)] == [Status.UNRESOLVED, Status.OK,
                                                     Status.UNDEFINED]
    unresolved = status(0)
    assert model.data(model.index(0, QueryColumn.NDCG)) == "unresolved"
    assert doc.set_grade(1, 0.0, who="t")  # the unknown grade given: q-long-... is ok
    nav.set_evaluation(reevaluate(ev, [1]), queries=[0])
    assert status(0) != unresolved
    assert status(0) == status(1)  # ok, as q2
    assert isinstance(model.data(model.index(0, QueryColumn.NDCG)), float)
    assert doc.set_grade(2, None, GradeState.UNKNOWN, who="t")  # q2 unresolved now
    nav.set_evaluation(evaluate(doc))  # every query refreshed (the same document)
    assert status(1) == unresolved


def _many_queries() -> Document:
    """260 queries (more than the 200 rows Qt measures) with ids short, of 40
    characters and more (the side column's cap), past the cells' 200 (shown
    elided), in other scripts; every status the main cutoff can have."""
    ids = ["q", "W" * 41, "é" * 39 + "x", "x" * 250, "東京の天気 weather", "مرحبا بالعالم",
           "emoji 🙂🙃 mix", "a\u0301b\u0301c\u0301 combining"]
    ids += [f"query-{n:03d}-" + "mwi"[n % 3] * (n % 47) for n in range(len(ids), 260)]
    query, grade = [], []
    for n, q in enumerate(ids):
        got = [[2.0, 1.0], [0.0, 0.0], [1.0, None], [None, None], [3.0, 0.0, 1.0]][n % 5]
        query += [q] * len(got)
        grade += got
    return Document.from_columns(query=query, source_id=[f"d{i}" for i in range(len(query))],
                                 score=[float(-i) for i in range(len(query))], grade=grade)


def test_the_columns_are_measured_as_qt_measures_them(qtbot: Any) -> None:
    """The widths the navigator works out from its font's metrics are the
    ones ``sizeHintForColumn`` gives, over the same rows: not shown (the
    first 200), shown and scrolled (the rows on screen and around them),
    sorted, with compared runs' columns, at a larger font."""
    import numpy as np

    from app.models.queries import RunColumns
    from app.panels.fit import measured_rows, text_widths

    doc = _many_queries()
    nav = QueryNavigator(lambda: 4)
    qtbot.addWidget(nav)
    nav.resize(420, 500)
    nav.set_evaluation(evaluate(doc))
    view = nav.view

    def same() -> None:
        columns = range(nav.model.columnCount())
        assert text_widths(view, columns) == {c: view.sizeHintForColumn(c) for c in columns}

    assert measured_rows(view) == list(range(200))
    same()
    nav.show()
    qtbot.waitExposed(nav)
    view.scrollTo(nav.proxy.index(240, 0))
    rows = measured_rows(view)
    assert len(rows) == 200
    assert {240, 259} <= set(rows)
    assert 0 not in rows
    same()
    view.sortByColumn(QueryColumn.NDCG, Qt.SortOrder.DescendingOrder)
    same()
    n = doc.n_queries
    nav.show_runs(RunColumns(["B"], ["b.run"], 10, np.linspace(0, 1, n)[None, :],
                             np.linspace(-1, 1, n)[None, :]))
    same()
    large = QFont(nav.font())
    large.setPointSizeF(large.pointSizeF() * 1.7)
    nav.setFont(large)
    same()
    # The query ids: the longest shown whole up to the cap, the 250-character one elided.
    widths = text_widths(view, [QueryColumn.QUERY], rows=[3])
    assert widths[QueryColumn.QUERY] > text_widths(view, [QueryColumn.QUERY], rows=[1])[0]


def test_a_text_repeated_in_another_font_is_measured_in_it(qtbot: Any) -> None:
    """text_widths measures each text once per font: the same words in a
    larger font (a cell's font role), in the same column and in the next,
    come out as wide as Qt's own measure of them, not as the first seen."""
    from PySide6.QtGui import QStandardItem, QStandardItemModel
    from PySide6.QtWidgets import QTableView

    from app.panels.fit import text_widths

    model = QStandardItemModel(3, 2)
    large = QFont()
    large.setPointSizeF(large.pointSizeF() * 2.5)
    for row, column, font in ((0, 0, None), (1, 0, large), (2, 0, None), (0, 1, None),
                              (1, 1, None), (2, 1, large)):
        item = QStandardItem("the same words")
        if font is not None:
            item.setFont(font)
        model.setItem(row, column, item)
    view = QTableView()
    qtbot.addWidget(view)
    view.setModel(model)
    widths = text_widths(view, [0, 1])
    assert widths == {c: view.sizeHintForColumn(c) for c in (0, 1)}
    assert widths[0] > text_widths(view, [0], rows=[0])[0]


def test_a_long_id_is_asked_for_as_wide_as_qt_measures_it(qtbot: Any) -> None:
    """An id of 40 characters wider than the least the ids ask for
    (:data:`IDS_ASKED`) is asked for whole: 40 W's at 9 pt, 474.4 px, were
    measured in whole pixels rounded to the nearest (474), one short of the
    cell Qt sizes for them, and the id read "WWWW…WWWW"."""
    from app.panels.fit import header_widths
    from app.panels.navigator import IDS_ASKED

    doc = Document.from_columns(query=["W" * 40, "q2"], source_id=["a", "b"],
                                score=[1.0, 1.0], grade=[1.0, 2.0])
    nav = QueryNavigator(lambda: 4)
    qtbot.addWidget(nav)
    nav.set_evaluation(evaluate(doc))
    nav.show()
    qtbot.waitExposed(nav)
    whole = _live_ids_width(nav)
    assert whole > IDS_ASKED
    asked = nav._ids_extra() + header_widths(nav.view)[QueryColumn.QUERY]
    assert asked == whole


def test_a_status_is_shown_in_the_longest_form_its_ndcg_cell_holds(qtbot: Any) -> None:
    """In a number's width (the navigator at 1280x800 once a grade is marked
    unknown) an unresolved query's NDCG cell reads "unres.", an undefined
    one's "undef." (was: the word elided, "unr…ved"); given the room, the
    label: the word with its symbol."""
    nav = QueryNavigator(lambda: 4)
    qtbot.addWidget(nav)
    nav.resize(420, 400)
    nav.set_evaluation(evaluate(_document()))
    nav.show()
    qtbot.waitExposed(nav)
    view = nav.view

    def shown(q: int) -> str:
        index = view.model().index(q, QueryColumn.NDCG)  # (the sorting proxy's)
        option = QStyleOptionViewItem()
        option.initFrom(view)
        option.rect = view.visualRect(index)
        option.widget = view
        view.itemDelegateForColumn(QueryColumn.NDCG).initStyleOption(option, index)
        return option.text

    number = text_width(view.font(), "0.0000") + text_margins(view)
    view.setColumnWidth(QueryColumn.NDCG, number)
    assert [shown(0), shown(2)] == ["unres.", "undef."]
    view.setColumnWidth(QueryColumn.NDCG, 3 * number)
    assert [shown(0), shown(2)] == ["? unresolved", "∅ undefined"]


def test_a_status_is_shown_whole_in_the_columns_fitted_to_it(qtbot: Any) -> None:
    """The NDCG column fitted to its widest word and the Status column to
    its widest label show them whole: the cell's rect leaves out the grid's
    line, which the fit's margins count, and the NDCG column fitted to
    "unresolved" read "unres." (fails before); the Status column reads
    "? unresolved" (whoever draws it: the same delegate once it gives way
    to the grid's every column in its short forms). The NDCG cell says a
    status only where the Status column is hidden (hdesk13)."""
    nav = QueryNavigator(lambda: 4)
    qtbot.addWidget(nav)
    nav.resize(600, 400)
    nav.set_evaluation(evaluate(_document()))
    nav.show()
    qtbot.waitExposed(nav)
    view = nav.view

    def shown(q: int, column: int) -> str:
        index = view.model().index(q, column)
        option = QStyleOptionViewItem()
        option.initFrom(view)
        option.rect = view.visualRect(index)
        option.widget = view
        view.itemDelegateForIndex(index).initStyleOption(option, index)
        return option.text

    assert not view.isColumnHidden(QueryColumn.STATUS)
    assert [shown(0, QueryColumn.STATUS), shown(2, QueryColumn.STATUS)] == [
        "? unresolved", "∅ undefined"]
    # said once: the NDCG cell says a status where the Status column is hidden
    assert [shown(0, QueryColumn.NDCG), shown(2, QueryColumn.NDCG)] == ["", ""]
    # (beside the status, a number's width: hdesk14) Too narrow for the
    # status, the navigator hides it and gives the NDCG column its words.
    nav.resize(nav.minimumWidth(), 400)
    qtbot.waitUntil(lambda: view.isColumnHidden(QueryColumn.STATUS))
    assert [shown(0, QueryColumn.NDCG), shown(2, QueryColumn.NDCG)] == [
        "unresolved", "undefined"]


def test_the_fit_reads_the_models_texts_not_its_cells(qtbot: Any,
                                                      monkeypatch: Any) -> None:
    """The navigator's columns are fitted from the model's own texts for the
    rows Qt measures (:meth:`QueryListModel.shown`), no cell asked through
    ``data`` (2,318 calls at the launch's arrival: ~26 ms): the widths are
    Qt's own (``sizeHintForColumn``), on the example and on ids long and in
    other scripts, at two font sizes, sorted and filtered."""
    from app.models.queries import QueryListModel
    from app.panels.fit import header_widths, measured_rows
    from app.panels.navigator import IDS_CHARACTERS

    asked = [0]
    data = QueryListModel.data

    def counted(self: QueryListModel, index: Any, role: int = 0) -> Any:
        asked[0] += 1
        return data(self, index, role)

    # (patched before the models are made: PySide looks an override up once)
    monkeypatch.setattr(QueryListModel, "data", counted)
    for doc in (_document(), _many_queries()):
        for scale in (1.0, 1.7):
            nav = QueryNavigator(lambda: 4)
            qtbot.addWidget(nav)
            nav.resize(420, 500)
            font = QFont(nav.font())
            font.setPointSizeF(font.pointSizeF() * scale)
            nav.setFont(font)
            nav.set_evaluation(evaluate(doc))
            view = nav.view
            for step in ("as read", "sorted", "filtered"):
                if step == "sorted":
                    view.sortByColumn(QueryColumn.NDCG, Qt.SortOrder.DescendingOrder)
                if step == "filtered":
                    nav.filter_edit.setText("2")  # (q2; query-002-, -012-, ...)
                asked[0] = 0
                nav.fit_columns()
                assert asked[0] == 0
                hidden = view.isColumnHidden(QueryColumn.STATUS)
                view.setColumnHidden(QueryColumn.STATUS, False)  # (measured shown)
                qt = {c: view.sizeHintForColumn(c) for c in range(len(QueryColumn))}
                needs = header_widths(view)
                view.setColumnHidden(QueryColumn.STATUS, hidden)
                assert nav._ids_width == qt[QueryColumn.QUERY]
                # (and any status of the evaluation whole, measured or not)
                assert nav._status_width == max(needs[QueryColumn.STATUS],
                                                min(320, qt[QueryColumn.STATUS]),
                                                nav._widest_status())
                assert nav._ndcg_width == max(needs[QueryColumn.NDCG],
                                              min(320, qt[QueryColumn.NDCG]))
                assert view.columnWidth(QueryColumn.JUDGED) == max(
                    needs[QueryColumn.JUDGED], min(320, qt[QueryColumn.JUDGED]))
                ids = [str(nav.model.index(r, 0).data())[:IDS_CHARACTERS]
                       for r in range(min(200, doc.n_queries))]
                assert nav._ids_most == max(text_width(view.font(), t) for t in ids) + (
                    text_margins(view))
                assert len(measured_rows(view)) == min(200, nav.proxy.rowCount()) > 0


def test_the_headers_widths_ask_each_header_once(qtbot: Any, monkeypatch: Any) -> None:
    """``header_widths`` asks each column's header once without the sort
    arrow and the sorted column's once more with it (it asked every column
    twice: the navigator's size hint asks them at each layout); the widths
    are the same: the arrow's room in the sorted column alone."""
    from app.models.queries import QueryListModel
    from app.panels.fit import header_widths

    asked = [0]
    header_data = QueryListModel.headerData

    def counted(self: QueryListModel, section: int, orientation: Any, role: int = 0) -> Any:
        asked[0] += role == Qt.ItemDataRole.DisplayRole  # (once a hint)
        return header_data(self, section, orientation, role)

    # (patched before the model is made: PySide looks an override up once)
    monkeypatch.setattr(QueryListModel, "headerData", counted)
    nav = QueryNavigator(lambda: 4)
    qtbot.addWidget(nav)
    nav.set_evaluation(evaluate(_document()))
    view, columns = nav.view, len(QueryColumn)
    header = view.horizontalHeader()
    view.sortByColumn(QueryColumn.JUDGED, Qt.SortOrder.AscendingOrder)
    asked[0] = 0
    header.sectionSizeHint(QueryColumn.QUERY)
    assert asked[0] == 1
    with_arrow = [header.sectionSizeHint(c) for c in range(columns)]
    asked[0] = 0
    widths = header_widths(view)
    shown = sum(not view.isColumnHidden(c) for c in range(columns))  # (a hidden one's: -1)
    assert asked[0] == shown + 1
    header.setSortIndicatorShown(False)
    without = [header.sectionSizeHint(c) for c in range(columns)]
    header.setSortIndicatorShown(True)
    assert widths == [with_arrow[c] if c == QueryColumn.JUDGED else without[c]
                      for c in range(columns)]
    assert with_arrow[QueryColumn.JUDGED] > without[QueryColumn.JUDGED]


def test_a_status_past_the_rows_measured_is_not_cut(qtbot: Any) -> None:
    """2,000 queries whose unresolved ones come after the ~1,000 rows Qt's
    fit measures: at 1280x800 the Status column was fitted to the statuses
    measured and read "? unr…olved" once scrolled to them (fails before:
    the column 2-14 px short). It is as wide as any status the evaluation
    shows, whole, or hidden."""
    n = 2000
    doc = Document.from_columns(
        query=[f"query-{q:04d}" for q in range(n) for _ in range(2)],
        source_id=["a", "b"] * n, score=[2.0, 1.0] * n,
        grade=[g for q in range(n) for g in ((1.0, None) if q >= n - 50 else (1.0, 0.0))])
    nav = QueryNavigator(lambda: 4)
    qtbot.addWidget(nav)
    nav.resize(420, 400)
    nav.set_evaluation(evaluate(doc))
    nav.show()
    qtbot.waitExposed(nav)
    nav.fit_columns()
    view = nav.view
    assert not view.isColumnHidden(QueryColumn.STATUS)
    view.scrollToBottom()
    index = nav.proxy.index(nav.proxy.rowCount() - 1, QueryColumn.STATUS)
    assert index.data() == "? unresolved"
    option = QStyleOptionViewItem()
    option.initFrom(view)
    assert text_width(option.font, "? unresolved") + text_margins(view) <= view.columnWidth(
        QueryColumn.STATUS)


def test_an_id_without_a_text_is_kept_whole_beside_queries_with_texts(qtbot: Any) -> None:
    """The least the query cells keep before the status gives way is the
    id and a text's start where the query has a text, and the id whole
    where it has none, as without texts: the long id without a text was
    left out of that least, elided for the status (its least 'q2 · What…'
    alone)."""
    from app.shown import shown_query

    doc = _document()
    doc.query_texts = {"q2": "What does the grace period mean in the refund policy?"}
    nav = QueryNavigator(lambda: 4)
    qtbot.addWidget(nav)
    nav.resize(342, 400)
    nav.set_evaluation(evaluate(doc))
    margins = text_margins(nav.view)
    long_id = text_width(nav.view.font(), "q-long-" + "x" * 30) + margins
    assert nav._ids_most == long_id
    assert nav._ids_least == long_id > text_width(
        nav.view.font(), shown_query("q2", "What…")) + margins
    doc = _document()  # (another document: refitted)
    doc.query_texts = {"q2": "What does it mean?", "q-long-" + "x" * 30: "a text"}
    nav.set_evaluation(evaluate(doc))
    assert nav._ids_least == text_width(nav.view.font(), shown_query(
        "q-long-" + "x" * 30, "a te…")) + margins
