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


def test_a_wide_screen_gives_query_texts_the_room_the_grid_spares(qtbot: Any,
                                                                   tmp_path: Any) -> None:
    # At 1920x1080 the grid shows every column with room to spare; the
    # navigator asked for 160 px of query text (20 characters) and cut a
    # 39-character query in the middle.
    from PySide6.QtCore import QRect

    from app.main import build_window

    path = tmp_path / "long.csv"
    rows = ["query,source_id,version,score,grade,note,reason"]
    rows += [f'"{q}",doc{d},,{4 - d},{d % 3},,' for q in (LONG, MEDIUM, "q3") for d in range(4)]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    w = build_window(path)
    qtbot.addWidget(w)
    w.show()
    w.workplace.reset(QRect(0, 0, 1920, 1080))
    qtbot.waitExposed(w)
    w.fit_columns()
    QApplication.processEvents()
    view = w.navigator.view
    width = view.columnWidth(QueryColumn.QUERY)
    assert view.fontMetrics().horizontalAdvance(MEDIUM) + 8 <= width
    grid = w.grid
    last = max(range(grid.model().columnCount()), key=grid.columnViewportPosition)
    assert grid.columnViewportPosition(last) + grid.columnWidth(last) <= grid.viewport().width()
    w.session.mark_saved()
