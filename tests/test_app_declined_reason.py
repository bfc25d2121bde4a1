"""What the editor shows of an unknown grade's reason: an item both
annotators declined in Prodigy (``answer = ignore``) reads "unknown:
declined by 2 annotators" in its grade cell and its tooltip, an item no one
graded plain "unknown"; the navigator's judged count and the summary count
them ("3 unknown, 2 of them declined"). A grade typed replaces it, the
audit log keeps why it was unknown, an undo brings the reason back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QStyleOptionViewItem

from app.main import build_window
from app.models.candidates import GridColumn
from app.models.queries import QueryColumn
from app.models.roles import TOOLTIP
from core.engine.columns import EDITED_MARK
from core.engine.evaluation import evaluate
from core.io.annotator import import_annotations
from core.io.workbook import export_workbook

pytestmark = pytest.mark.usefixtures("never_block")

_LABELS = ["Not relevant", "Somewhat relevant", "Relevant", "Highly relevant"]
#: One query, six documents ranked 1-6, two annotators: d2 and d4 ignored
#: by both, d5 accepted by both with no option chosen (no grade: unknown,
#: no reason known), d3 graded 1 and 2 (the mean, 1.5).
_ITEMS = [("d1", [3, 3]), ("d2", ["ignore", "ignore"]), ("d3", [1, 2]),
          ("d4", ["ignore", "ignore"]), ("d5", [None, None]), ("d6", [0, 0])]


def _book(folder: Path) -> Path:
    options = [{"id": g, "text": t} for g, t in enumerate(_LABELS)]
    src = folder / "prodigy.jsonl"
    with open(src, "w", encoding="utf-8") as fh:
        for rank, (d, values) in enumerate(_ITEMS, 1):
            for k, (who, v) in enumerate(zip(("ana", "ben"), values, strict=True)):
                fh.write(json.dumps({
                    "query": "q", "doc_id": d, "text": f"Passage {d}.", "meta": {"rank": rank},
                    "options": options, "accept": [] if v in ("ignore", None) else [v],
                    "answer": "ignore" if v == "ignore" else "accept", "_input_hash": rank,
                    "_task_hash": 10 * rank + k, "_view_id": "choice",
                    "_annotator_id": f"rel-{who}", "_session_id": f"rel-{who}"}) + "\n")
    book = folder / "declined.xlsx"
    export_workbook(evaluate(import_annotations(src).document), book)
    return book


def _grade_text(w, row: int) -> str:
    """The grade cell's text as its delegate draws it."""
    index = w.grid_model.index(row, GridColumn.GRADE)
    option = QStyleOptionViewItem()
    w.grid.itemDelegateForColumn(GridColumn.GRADE).initStyleOption(option, index)
    return option.text


def _counts(w) -> tuple[str, str]:
    """The navigator's judged tooltip and the summary's status line."""
    nav = w.navigator.view.model()
    return (nav.index(0, QueryColumn.JUDGED).data(TOOLTIP), w.summary_panel.status_label.text())


def test_the_grid_says_why_a_grade_is_unknown(qtbot, tmp_path: Path) -> None:
    w = build_window(_book(tmp_path))
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    qtbot.waitUntil(lambda: w.document.n_queries == 1 and w.grid_model.rowCount() == 6)
    model = w.grid_model
    assert [model.index(r, GridColumn.SOURCE).data() for r in range(6)] == [
        "d1", "d2", "d3", "d4", "d5", "d6"]
    assert [_grade_text(w, r) for r in (1, 3, 4)] == [
        "unknown: declined by 2 annotators", "unknown: declined by 2 annotators", "unknown"]
    assert model.index(1, GridColumn.GRADE).data(TOOLTIP) == (
        "unknown: declined by 2 annotators, no judgment (not 0)")
    assert model.index(4, GridColumn.GRADE).data(TOOLTIP) == "unknown: never judged (not 0)"
    spoken = Qt.ItemDataRole.AccessibleDescriptionRole  # (a screen reader says it too)
    assert model.index(1, GridColumn.GRADE).data(spoken) == (
        "Grade, query q, source d2, unknown: declined by 2 annotators")
    assert model.index(4, GridColumn.GRADE).data(spoken) == "Grade, query q, source d5"
    judged, status = _counts(w)
    assert judged == "3 judged, 3 unknown, 2 of them declined, 0 unrateable of 6"
    assert status.endswith("(3 unknown, 2 of them declined)")
    # d2 graded 2 with a key press: a number, marked edited; the log keeps the why
    w.grid.setCurrentIndex(model.index(1, GridColumn.GRADE))
    w.grid.setFocus()
    qtbot.keyClick(w.grid, Qt.Key.Key_2)
    QApplication.processEvents()
    assert _grade_text(w, 1) == f"{EDITED_MARK} 2 - Relevant"
    assert [(e.source_id, e.before, e.after) for e in w.document.audit] == [
        ("d2", "unknown: declined by 2 annotators", "2")]
    judged, status = _counts(w)
    assert judged == "4 judged, 2 unknown, 1 of them declined, 0 unrateable of 6"
    assert status.endswith("(2 unknown, 1 of them declined)")
    w.session.undo()
    QApplication.processEvents()
    assert _grade_text(w, 1) == "unknown: declined by 2 annotators"
    assert _counts(w)[0] == "3 judged, 3 unknown, 2 of them declined, 0 unrateable of 6"
    w.session.mark_saved()
