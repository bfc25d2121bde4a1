"""The summary's cutoff table: as tall as its rows (a scroll bar's room only
where its columns do not fit), the cutoffs and the numbers right-aligned."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from app.models.cutoffs import CutoffColumn
from app.panels.summary import SummaryPanel
from core.engine.evaluation import evaluate
from core.model.examples import seed_document


def _panel(qtbot: Any, width: int) -> SummaryPanel:
    doc = seed_document()
    panel = SummaryPanel(lambda: 4)
    qtbot.addWidget(panel)
    panel.resize(width, 500)
    panel.show()
    qtbot.waitExposed(panel)
    panel.show_query(evaluate(doc), doc.query_index("case-F-unknown"))
    for _ in range(3):
        qtbot.wait(1)
        QApplication.processEvents()
    return panel


def _rows_bottom(panel: SummaryPanel) -> int:
    """Where the last row ends, in the table's own coordinates."""
    table = panel.table
    last = panel.model.rowCount() - 1
    return (table.viewport().y() + table.rowViewportPosition(last) + table.rowHeight(last))


def test_the_cutoff_table_ends_with_its_last_row_where_its_columns_fit(qtbot: Any) -> None:
    """At 1280x800 the table kept a scroll bar's height under its last
    cutoff, as a blank row, though no scroll bar showed (fails before: 17 px
    under the rows)."""
    panel = _panel(qtbot, 420)
    table = panel.table
    assert not table.horizontalScrollBar().isVisible()
    assert table.height() - table.frameWidth() - _rows_bottom(panel) == 0


def test_the_cutoffs_and_the_numbers_are_right_aligned(qtbot: Any) -> None:
    """A column is scanned down its right edge: the k (1, 2, all), the
    numbers and the "?" standing for one were left-aligned (fails before);
    the status's words stay left."""
    panel = _panel(qtbot, 420)
    model = panel.model
    right = Qt.AlignmentFlag.AlignRight
    for row in range(model.rowCount()):
        for col in CutoffColumn:
            align = model.index(row, col).data(Qt.ItemDataRole.TextAlignmentRole)
            assert bool(int(align or 0) & right.value) is (col is not CutoffColumn.STATUS), (
                row, col)
    assert [model.index(r, CutoffColumn.NDCG).data() for r in range(3)] == ["?", "?", "?"]
