"""A query text elided in the navigator's column is whole on hover (found
in a new user's trial at 1280x800: "what ye…ll fall")."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent
from PySide6.QtGui import QHelpEvent
from PySide6.QtWidgets import QApplication, QToolTip

from app.models.queries import QueryColumn
from app.panels.navigator import QueryNavigator
from core.engine.evaluation import evaluate
from core.model.document import Document

LONG = "what ye sow, so shall ye reap, and as ye stumble so shall ye fall"


def _tip(view: Any, row: int) -> str:
    QToolTip.hideText()
    rect = view.visualRect(view.model().index(row, QueryColumn.QUERY))
    QApplication.sendEvent(view.viewport(), QHelpEvent(
        QEvent.Type.ToolTip, rect.center(), view.viewport().mapToGlobal(rect.center())))
    return QToolTip.text()


def test_an_elided_query_is_whole_on_hover(qtbot: Any) -> None:
    doc = Document.from_columns(query=[LONG, "q2"], source_id=["a", "b"], score=[1.0, 1.0],
                                grade=[1.0, 0.0])
    nav = QueryNavigator(lambda: 4)
    qtbot.addWidget(nav)
    nav.resize(280, 400)
    nav.set_evaluation(evaluate(doc))
    nav.show()
    qtbot.waitExposed(nav)
    view = nav.view
    rows = {view.model().index(r, QueryColumn.QUERY).data(): r for r in range(2)}
    assert view.fontMetrics().horizontalAdvance(LONG) > view.columnWidth(QueryColumn.QUERY)
    assert _tip(view, rows["q2"]) == ""  # a query shown whole needs no tooltip
    assert _tip(view, rows[LONG]) == LONG


MEDIUM = "how to descale a kettle without vinegar"


def _window_at(qtbot: Any, path: Any, width: int, height: int) -> Any:
    """The window on ``path`` as at a first start on a ``width`` x ``height`` screen."""
    from PySide6.QtCore import QRect

    from app.main import build_window

    w = build_window(path)
    qtbot.addWidget(w)
    w.show()
    w.workplace.reset(QRect(0, 0, width, height))
    qtbot.waitExposed(w)
    w.fit_columns()
    QApplication.processEvents()
    return w


def test_a_wide_screen_gives_query_texts_the_room_the_grid_spares(qtbot: Any,
                                                                   tmp_path: Any) -> None:
    # At 1920x1080 the grid shows every column with room to spare; the
    # navigator asked for 160 px of query text (20 characters) and cut a
    # 39-character query in the middle.


    path = tmp_path / "long.csv"
    rows = ["query,source_id,version,score,grade,note,reason"]
    rows += [f'"{q}",doc{d},,{4 - d},{d % 3},,' for q in (LONG, MEDIUM, "q3") for d in range(4)]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    w = _window_at(qtbot, path, 1920, 1080)
    view = w.navigator.view
    width = view.columnWidth(QueryColumn.QUERY)
    assert view.fontMetrics().horizontalAdvance(MEDIUM) + 8 <= width
    grid = w.grid
    last = max(range(grid.model().columnCount()), key=grid.columnViewportPosition)
    assert grid.columnViewportPosition(last) + grid.columnWidth(last) <= grid.viewport().width()
    w.session.mark_saved()


def test_the_status_header_is_whole_once_there_is_room(qtbot: Any) -> None:
    """A document set while the navigator is too narrow for its status
    column (the window before its first show: hidden by the document
    before) and then shown wider:
    the status is shown at its header's width at least (it was measured
    hidden, 0 px, and shown at Qt's least section, 26 px: "Statu" at
    1280x800 and 1920x1080 from a fresh configuration)."""
    from app.panels.fit import elided_headers, header_widths

    doc = Document.from_columns(query=[], source_id=[])  # (the window behind the wizard)
    nav = QueryNavigator(lambda: 4)
    qtbot.addWidget(nav)
    nav.resize(170, 400)
    nav.show()
    qtbot.waitExposed(nav)
    nav.set_evaluation(evaluate(Document.from_columns(query=[LONG], source_id=["a"])))
    assert nav.view.isColumnHidden(QueryColumn.STATUS)
    nav.set_evaluation(evaluate(doc))  # another document, fitted while the status is hidden
    nav.resize(330, 400)
    view = nav.view
    qtbot.waitUntil(lambda: view.width() > 300)
    assert not view.isColumnHidden(QueryColumn.STATUS)
    assert view.columnWidth(QueryColumn.STATUS) >= header_widths(view)[QueryColumn.STATUS] > 26
    assert elided_headers(view) == []


#: Ids of 40 characters (README: "up to 40 characters"), the first two told
#: apart by their ends, the third wider than 40 of the font's average characters.
FORTY = ("what ye sow, so shall ye reap proverb 01", "what ye sow, so shall ye reap proverb 10",
         "symptoms of vitamin d deficiency adult 3")


def test_at_1280x800_ids_of_40_characters_take_the_status_column_room(
        qtbot: Any, tmp_path: Any) -> None:
    # At 1280x800 the ids were cut to ~16 characters ("what ye …overb 01")
    # beside a Status column saying "? unresolved" again after the NDCG
    # column's "unresolved": the status gives way to the ids (the NDCG
    # column says it), the ids are cut in the middle (both ends kept: the
    # two stay told apart) and whole on hover.
    from PySide6.QtCore import QRect, Qt

    from app.panels.fit import text_margins

    assert {len(q) for q in FORTY} == {40}
    path = tmp_path / "forty.csv"
    rows = ["query,source_id,score,grade"]
    rows += [f'"{q}",doc{d},{4 - d},{"" if d == 1 else d % 3}' for q in FORTY for d in range(4)]
    path.write_text("\n".join(rows) + "\n")
    w = _window_at(qtbot, path, 1280, 800)
    view = w.navigator.view
    assert view.isColumnHidden(QueryColumn.STATUS)
    ndcg = [view.model().index(r, QueryColumn.NDCG).data() for r in range(3)]
    assert ndcg == ["unresolved"] * 3  # the status said in words
    width = view.columnWidth(QueryColumn.QUERY)
    metrics = view.fontMetrics()
    # The ids take what the other columns leave (no sideways scroll): 28
    # characters and more (they had 18, 130 px at 9 pt, beside the status).
    assert view.horizontalScrollBar().maximum() == 0
    assert width >= 28 * metrics.averageCharWidth()
    shown = [metrics.elidedText(q, Qt.TextElideMode.ElideMiddle, width - 8) for q in FORTY[:2]]
    assert shown[0] != shown[1]
    assert [s[-2:] for s in shown] == ["01", "10"]
    assert all(s.startswith("what ye sow") for s in shown)
    rows_of = {view.model().index(r, QueryColumn.QUERY).data(): r for r in range(3)}
    assert [_tip(view, rows_of[q]) for q in FORTY] == list(FORTY)
    # At 1920x1080 the three are whole beside the status (the third was cut:
    # 40 average characters were asked for).
    w.workplace.reset(QRect(0, 0, 1920, 1080))
    w.fit_columns()
    QApplication.processEvents()
    assert not view.isColumnHidden(QueryColumn.STATUS)
    width = view.columnWidth(QueryColumn.QUERY)
    assert max(metrics.horizontalAdvance(q) for q in FORTY) + text_margins(view) <= width
    room = width - text_margins(view)
    assert [metrics.elidedText(q, Qt.TextElideMode.ElideMiddle, room) for q in FORTY] == list(FORTY)
    w.session.mark_saved()
