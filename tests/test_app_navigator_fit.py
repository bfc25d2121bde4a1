"""The navigator measures its columns once per document, sort and font: the
query ids' width its size hint asks for is the one Qt measures then, and
each query's status is the evaluation's, after an edit too."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QFont

from app.models.queries import QueryColumn
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
