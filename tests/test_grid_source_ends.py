"""The grid's source ids, elided where their column is narrow (at 1280x800
with the rubric's labels in the grade column it is about 15 characters),
keep more of their end than of their start: a RAG team's passage ids differ
at their ends (a URL's fragment, ``doc#chunk-12``), and Qt's middle elision
drew ``https://docs.acme.io/security/api-keys#rotating-keys`` and
``...#revoking-keys`` alike, ``https:…g-keys``, two rows apart.
"""

from __future__ import annotations

from typing import Any

from app.delegates import end_elided
from app.models.candidates import GridColumn

ROTATING = "https://docs.acme.io/security/api-keys#rotating-keys"
REVOKING = "https://docs.acme.io/security/api-keys#revoking-keys"


def test_two_urls_apart_at_their_fragments_are_drawn_apart(qtbot: Any):
    from PySide6.QtWidgets import QApplication

    from app.settings import Settings
    from app.window import MainWindow
    from core.model.document import Document

    doc = Document.from_columns(query=["q017"] * 4,
                                source_id=[ROTATING, "kb/runbooks/key-rotation.md#chunk-3",
                                           REVOKING, "handbook.pdf#chunk-12"],
                                score=[4, 3, 2, 1], grade=[1, 1, 1, 1])
    Settings().reviewer = "ana"
    window = MainWindow(doc)
    qtbot.addWidget(window, before_close_func=lambda w: w.session.mark_saved())
    window.resize(1000, 600)
    window.show()
    qtbot.waitExposed(window)
    grid = window.grid
    grid.setCurrentIndex(grid.model().index(3, GridColumn.GRADE))
    chars = grid.fontMetrics().averageCharWidth()
    QApplication.processEvents()  # (the columns fitted to the document first)
    grid.horizontalHeader().resizeSection(GridColumn.SOURCE, 15 * chars + 8)
    assert grid.columnWidth(GridColumn.SOURCE) == 15 * chars + 8
    cells = [grid.viewport().grab(grid.visualRect(grid.model().index(r, GridColumn.SOURCE)))
             .toImage() for r in (0, 2)]
    assert cells[0].size() == cells[1].size()
    assert cells[0] != cells[1]  # (rows 0 and 2: the same background)


def test_the_end_keeps_three_times_the_starts_room(qtbot: Any):
    from PySide6.QtWidgets import QWidget

    metrics = QWidget().fontMetrics()
    room = 15 * metrics.averageCharWidth()
    shown = [end_elided(s, metrics, room) for s in (ROTATING, REVOKING)]
    assert shown[0] != shown[1]
    for text, whole in zip(shown, (ROTATING, REVOKING), strict=True):
        head, _, tail = text.partition("…")
        assert whole.startswith(head)
        assert whole.endswith(tail)
        assert head
        assert len(tail) > len(head)
        assert metrics.horizontalAdvance(text) <= room
    assert end_elided("doc#chunk-12", metrics, room) == "doc#chunk-12"  # fits: whole



def test_no_id_is_elided_twice(qtbot: Any):
    """The style lays the text out in fractional widths: measured in whole
    pixels, 'handbook.pdf#chunk-12' was 76 px where the style laid it out
    in 76.23 and cut it once more ('ha…f#…nk-12', in the not-retrieved
    table). At every width from 6 to 30 characters the text the cell draws
    fits its room as the style measures it."""
    from PySide6.QtCore import QRect
    from PySide6.QtGui import QFontMetricsF, QStandardItem, QStandardItemModel
    from PySide6.QtWidgets import QApplication, QStyle, QStyleOptionViewItem, QTableView

    from app.delegates import IdDelegate

    model = QStandardItemModel(1, 1)
    model.setItem(0, 0, QStandardItem("handbook.pdf#chunk-12"))
    view = QTableView()
    qtbot.addWidget(view)
    view.setModel(model)
    delegate = IdDelegate(lambda: 4, view, ends=True)
    style = QApplication.style()
    margin = style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, None) + 1
    seen = set()
    for width in range(6 * 6, 30 * 7):
        option = QStyleOptionViewItem()
        option.initFrom(view)
        option.rect = QRect(0, 0, width, 24)
        delegate.initStyleOption(option, model.index(0, 0))
        option.widget = None
        text = delegate.shown(option)
        room = style.subElementRect(QStyle.SubElement.SE_ItemViewItemText, option,
                                    None).width() - 2 * margin
        assert QFontMetricsF(option.font).horizontalAdvance(text) <= room, (width, text)
        seen.add(text)
    assert "handbook.pdf#chunk-12" in seen
    assert len(seen) > 5
