"""The Comparison dock's sizes: at 1280x800 and 1920x1080 its per-query
table's headers are whole and it never scrolls sideways, its rows are one line
(ids cut in the middle), it has room for its table, and a run's numbers are
whole beside the other run's unresolved queries. Every other size and font:
tests/test_app_sizes.py."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFont

from core.io.pairs import load_pair
from tests.test_app_sizes import _at, _settle

pytestmark = pytest.mark.usefixtures("never_block")


def _comparison_shown(qtbot, monkeypatch, tmp_path, w, width: int, height: int):  # type: ignore[no-untyped-def]
    """The Comparison dock's view of the example against tests/test_app_review's
    run B, the window at ``width`` x ``height``, the dock in front."""
    from tests.test_app_review import _compare, _run_lines

    _at(qtbot, w, width, height)
    run = tmp_path / "b.run"
    run.write_text("\n".join(_run_lines()) + "\n")
    view = _compare(qtbot, monkeypatch, w, run)
    w.docks["compareViewDock"].show()
    w.docks["compareViewDock"].raise_()
    _settle(qtbot, w)
    return view


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (1920, 1080)])
def test_the_comparison_table_headers_are_whole_and_it_does_not_scroll(
        qtbot, window, monkeypatch, tmp_path, width: int, height: int):
    """At 1280x800 the Comparison dock's per-query table cut its "delta
    (B - A)" header and scrolled sideways to its outcome column: every
    sortable header reserved room for a sort arrow (ResizeToContents). Its
    headers are whole (the delta's "B − A"), each column shown in view, at
    1280x800 and 1920x1080, the outcome too (it was hidden at both: the
    NDCG columns' words and the query ids are elided first, its "not
    comparable" is "—", the NDCG headers "A" and "B")."""
    from app.panels.fit import elided_headers, text_margins
    from app.review.compare_view import CompareColumn

    w = window
    view = _comparison_shown(qtbot, monkeypatch, tmp_path, w, width, height)
    table = view.table
    assert table.model().rowCount() > 0
    assert elided_headers(table) == []
    assert table.horizontalScrollBar().maximum() == 0
    shown = [c for c in CompareColumn if not table.isColumnHidden(c)]
    last = shown[-1]
    right = table.columnViewportPosition(last) + table.columnWidth(last)
    assert right <= table.viewport().width(), (right, table.viewport().width())
    # every column shown, the outcome whole: the NDCG columns' words and
    # the query ids are elided, whole on hover
    assert shown == list(CompareColumn)
    model = table.model()
    said = [model.index(r, CompareColumn.OUTCOME).data() for r in range(model.rowCount())]
    assert said == ["win", *["tie"] * 5, "—", "—"]
    assert all(table.fontMetrics().horizontalAdvance(text) < table.columnWidth(
        CompareColumn.OUTCOME) for text in said)
    assert table.model().headerData(CompareColumn.DELTA, Qt.Orientation.Horizontal) == "B − A"
    query = table.model().index(0, CompareColumn.QUERY)
    assert query.data(Qt.ItemDataRole.ToolTipRole) == query.data()
    # Elided, each id still reads as itself: cut at its end, 'case-D-doubled',
    # 'case-D-plus-one', 'case-F-zero' and 'case-F-unknown' all read "case-…"
    # at 1280x800 (both ends kept, as the navigator and the grid keep them).
    ids = [table.model().index(r, CompareColumn.QUERY).data()
           for r in range(table.model().rowCount())]
    room = table.columnWidth(CompareColumn.QUERY) - 8  # (the cell's margins)
    metrics = table.fontMetrics()
    shown_ids = {metrics.elidedText(q, table.textElideMode(), room) for q in ids}
    assert len(shown_ids) == len(ids), sorted(shown_ids)
    # An undefined NDCG and an unresolved one are whole words, apart, at
    # every cutoff (the combo box stepped with the Down key): elided, both
    # read "u…d" at 1280x800 (under Xvfb), whole only on hover.
    from PySide6.QtWidgets import QStyleOptionViewItem

    from app.models.looks import LOOK_OF_LABEL

    def statuses_shown() -> list[str]:
        out = []
        for r in range(model.rowCount()):
            for c in (CompareColumn.NDCG_A, CompareColumn.NDCG_B):
                index = model.index(r, c)
                if not isinstance(index.data(), str):
                    continue
                option = QStyleOptionViewItem()
                option.initFrom(table)
                option.rect = table.visualRect(index)
                option.widget = table
                table.itemDelegateForColumn(c).initStyleOption(option, index)
                look = LOOK_OF_LABEL[index.data()]
                assert option.text in (look.label, look.text, look.short), option.text
                assert option.fontMetrics.horizontalAdvance(option.text) + text_margins(
                    table) <= table.columnWidth(c), (option.text, table.columnWidth(c))
                out.append(option.text)
        return out

    assert statuses_shown() in (["∅ undefined"] * 2 + ["? unresolved"] * 2,
                                ["undefined"] * 2 + ["unresolved"] * 2,
                                ["undef."] * 2 + ["unres."] * 2)
    view.cutoff.setFocus()
    qtbot.keyClick(view.cutoff, Qt.Key.Key_Down)
    qtbot.waitUntil(lambda: view.cutoff.currentIndex() == 1)
    _settle(qtbot, w)
    assert len(statuses_shown()) == 4
    assert elided_headers(table) == []
    w.session.mark_saved()


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (1920, 1080)])
def test_the_comparison_s_rows_are_one_line_ids_cut_in_the_middle(
        qtbot, window, monkeypatch, tmp_path, width: int, height: int):
    """The Comparison dock's ids went on two lines where one had not the
    room (rows two lines tall: "case-D-" over "doubled" beside one line of
    numbers), and its statuses ("undef.", "unres.") sat left among
    right-aligned numbers. Now a row is one line, as the other docks'; an
    id that has not the room is cut in the middle, ID_LEAST characters kept
    at least, whole on hover; a status is right-aligned as the numbers of
    its column. (Fails before: two lines, wrapped, statuses left.)"""
    from PySide6.QtWidgets import QStyleOptionViewItem

    from app.panels.fit import text_margins
    from app.review.compare_view import ID_LEAST, CompareColumn

    w = window
    view = _comparison_shown(qtbot, monkeypatch, tmp_path, w, width, height)
    table, model = view.table, view.table.model()
    metrics = table.fontMetrics()
    assert table.rowHeight(0) < 2 * metrics.lineSpacing()
    assert table.textElideMode() == Qt.TextElideMode.ElideMiddle
    room = table.columnWidth(CompareColumn.QUERY) - text_margins(table)
    shown = []
    for r in range(model.rowCount()):
        index = model.index(r, CompareColumn.QUERY)
        option = QStyleOptionViewItem()
        option.initFrom(table)
        option.rect = table.visualRect(index)
        option.widget = table
        table.itemDelegateForIndex(index).initStyleOption(option, index)  # what is painted
        assert not option.features & QStyleOptionViewItem.ViewItemFeature.WrapText
        query = index.data()
        assert index.data(Qt.ItemDataRole.ToolTipRole) == query
        cut = metrics.elidedText(query, Qt.TextElideMode.ElideMiddle, room)
        assert cut == query or (cut[:3] == query[:3] and cut[-3:] == query[-3:]), cut
        assert len(cut.replace("…", "")) >= min(len(query), ID_LEAST - 2), cut
        shown.append(cut)
    assert len(set(shown)) == len(shown), shown
    right = int(Qt.AlignmentFlag.AlignRight.value)
    statuses = [(r, c) for r in range(model.rowCount())
                for c in (CompareColumn.NDCG_A, CompareColumn.NDCG_B)
                if isinstance(model.index(r, c).data(), str)]
    assert len(statuses) == 4
    for r, c in statuses:
        assert int(model.index(r, c).data(Qt.ItemDataRole.TextAlignmentRole) or 0) & right
    w.session.mark_saved()


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (1920, 1080)])
def test_a_comparison_shown_has_room_for_its_per_query_table(
        qtbot, window, monkeypatch, tmp_path, width: int, height: int):
    """h40layout: at 1920x1080 the Comparison dock, tabbed with the summary
    above the conventions, had the summary's share of the column (~470 px):
    its per-query table, under the paired statistics, showed about three
    rows (the dock scrolled). Shown, it has the most the upper group may
    have (65 %: the conventions keep 35 %; 400 of 972 px before); at 1280x800
    it is a tab with the column's whole height. The per-query table shows
    seven rows or more, as in the whole column at 1280x800.

    h43win: the dock scrolls, and at 1920x1080 its last line in view, "Select
    a query to see its candidate changes.", was cut at the dock's bottom (8
    of its 14 px shown under Xvfb): it is whole in view, above the fold."""
    from PySide6.QtCore import QPoint
    from PySide6.QtWidgets import QScrollArea

    from tests.test_app_review import _compare, _run_lines

    w = window
    _at(qtbot, w, width, height)
    run = tmp_path / "b.run"
    run.write_text("\n".join(_run_lines()) + "\n")
    view = _compare(qtbot, monkeypatch, w, run)
    _settle(qtbot, w)
    dock, conventions = w.docks["compareViewDock"], w.docks["conventionsPanelDock"]
    assert not dock.visibleRegion().isEmpty()
    table = view.table
    rows = table.viewport().height() / table.verticalHeader().defaultSectionSize()
    assert rows >= 7, rows
    area = view.findChild(QScrollArea, "compareScroll")
    title = view.changes_title
    assert title.text() == "Select a query to see its candidate changes."
    top = title.mapTo(area.viewport(), QPoint(0, 0)).y()
    bottom = top + title.heightForWidth(title.width())
    assert title.height() >= title.heightForWidth(title.width())
    assert top >= 0
    assert bottom <= area.viewport().height(), (top, bottom, area.viewport().height())
    if height >= 900:  # stacked: the conventions below, in view
        column = dock.height() + conventions.height()
        assert not conventions.visibleRegion().isEmpty()
        assert dock.height() >= 0.6 * column, (dock.height(), column)
        assert conventions.height() >= 0.3 * column
    else:
        assert w.tabifiedDockWidgets(dock)
        assert dock.height() > 0.8 * w.centralWidget().height()
def test_the_comparisons_numbers_are_whole_beside_a_runs_unresolved_queries(
        qtbot, window, monkeypatch, tmp_path):
    """At 10 pt and 1280x800 (a GTK desktop's font under Xvfb) run A's NDCG
    read "0.…99" beside B's "unresolved": the NDCG columns gave way down to a
    number's width measured in whole pixels (45 px for 45.4), one short of
    what the cell needs. Every column of numbers is as wide as Qt's own
    size hint for it."""
    from app.review.compare_view import CompareColumn
    from tests.test_app_review import _compare

    w = window
    large = QFont(w.font())
    large.setPointSizeF(10)
    w.setFont(large)
    runs = {"a": [], "b": []}
    qrels = []
    for q in range(1, 6):  # B ranks documents the qrels do not judge: unresolved
        for r in range(10):
            runs["a"].append(f"{q} Q0 D{q}{r:02d} {r + 1} {20 - r} a")
            runs["b"].append(f"{q} Q0 D{q}{(r * 3) % 17:02d} {r + 1} {20 - r} b")
            qrels.append(f"{q} 0 D{q}{r:02d} {(r * 7 + q) % 4}")
    for name, lines in {**runs, "qrels": qrels}.items():
        (tmp_path / f"{name}.txt").write_text("\n".join(lines) + "\n")
    a, _b = load_pair(tmp_path / "a.txt", tmp_path / "b.txt", tmp_path / "qrels.txt")
    w.set_document(a)
    _at(qtbot, w, 1280, 800)
    view = _compare(qtbot, monkeypatch, w, tmp_path / "b.txt")
    w.docks["compareViewDock"].show()
    w.docks["compareViewDock"].raise_()
    _settle(qtbot, w)
    table, model = view.table, view.table.model()
    column_a = [model.index(r, CompareColumn.NDCG_A).data() for r in range(model.rowCount())]
    assert all(isinstance(v, float) for v in column_a), column_a
    assert {model.index(r, CompareColumn.NDCG_B).data()
            for r in range(model.rowCount())} == {"? unresolved"}
    assert table.columnWidth(CompareColumn.NDCG_A) < table.columnWidth(CompareColumn.NDCG_B)
    assert table.columnWidth(CompareColumn.NDCG_A) >= table.sizeHintForColumn(
        CompareColumn.NDCG_A)
    w.session.mark_saved()
