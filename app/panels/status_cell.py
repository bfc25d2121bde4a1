"""An NDCG cell that shows a query's status in the longest form it holds
whole (the query navigator, the comparison's per-query table)."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex
from PySide6.QtWidgets import QStyleOptionViewItem, QTableView

from app.delegates import NumberDelegate
from app.models.looks import LOOK_OF_SHOWN
from app.panels.fit import text_margins, text_width

__all__ = ["StatusFitsDelegate"]


class StatusFitsDelegate(NumberDelegate):
    """An NDCG cell: a number, or a query's status in the longest of its
    forms the cell holds whole ("∅ undefined", "undefined", "undef.", "∅":
    :meth:`StatusLook.fitting`; the label or the word whole on hover).
    Elided, "∅ undefined" and "? unresolved" both read "u…d" in a number's
    width at 1280x800 (the comparison's per-query table), and the query
    navigator's "unresolved" read "unr…ved"."""

    def initStyleOption(self, option: QStyleOptionViewItem,
                        index: QModelIndex | QPersistentModelIndex) -> None:
        super().initStyleOption(option, index)
        look, view = LOOK_OF_SHOWN.get(option.text), option.widget
        if look is None or option.rect.width() <= 0 or not isinstance(view, QTableView):
            return  # (a size hint asks with no cell: the label whole)
        # (the cell's rect leaves out the grid's line, which text_margins
        # counts: the NDCG column fitted to "unresolved" read "unres.")
        grid = 1 if view.showGrid() else 0
        room, font = option.rect.width() + grid - text_margins(view), option.font
        option.text = look.fitting(lambda text: text_width(font, text) <= room)
