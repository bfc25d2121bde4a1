"""The candidate grids' contents' widths, measured once while what they
follow holds.

A launch's arrival measured the ranked grid's rows five times over (the
columns' fit, then :meth:`~app.panels.grid.GridPanel.key_width` for the dock
areas' sizing and again when the side columns give way, every shown column
and the key columns each time), the same rows in the same font each time:
~8 ms of the main thread's CPU of ~10 (docs/benchmarks.md, hopen12 and
hopen14). A width is kept by view and column until the model tells of any
change (a reset, any cell's data, a layout, rows or columns added or
removed) or the rows measured, the font, the decimals, the screen's dots
per inch, the style or the grid's line differ: then the columns are measured
again. The grids never wrap a cell's text (``setWordWrap(False)``), so a
column's contents' width does not follow the columns' widths.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QTableView

from app.panels.fit import measured_rows

__all__ = ["ContentsWidths"]

#: How a view's columns' contents are measured: ``view``, the columns ->
#: each column's width (pixels).
Measure = Callable[[QTableView, Sequence[int]], dict[int, int]]


class ContentsWidths(QObject):
    """The contents' widths of ``views``' columns, measured by ``measure``
    once while nothing they follow changes (the display's ``decimals``
    among them)."""

    def __init__(self, views: Sequence[QTableView], measure: Measure,
                 decimals: Callable[[], int], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._measure = measure
        self._decimals = decimals
        #: By view: what the widths were measured under, and the widths by column.
        self._held: dict[QTableView, tuple[Hashable, dict[int, int]]] = {}
        for view in views:
            model = view.model()
            for signal in (model.modelReset, model.dataChanged, model.layoutChanged,
                           model.rowsInserted, model.rowsRemoved, model.rowsMoved,
                           model.columnsInserted, model.columnsRemoved,
                           model.columnsMoved):
                signal.connect(lambda *_args, v=view: self.forget(v))

    def forget(self, view: QTableView) -> None:
        """``view``'s widths measured again when next asked."""
        self._held.pop(view, None)

    def of(self, view: QTableView, columns: Sequence[int] | None = None) -> dict[int, int]:
        """Each of ``columns``' (every shown one's) contents' width, those
        not yet measured under what holds now measured."""
        if columns is None:
            columns = [c for c in range(view.horizontalHeader().count())
                       if not view.isColumnHidden(c)]
        key = self._key(view)
        held = self._held.get(view)
        if held is None or held[0] != key:
            held = self._held[view] = (key, {})
        widths = held[1]
        missing = [c for c in columns if c not in widths]
        if missing:
            widths.update(self._measure(view, missing))
        return {c: widths[c] for c in columns}

    def _key(self, view: QTableView) -> Hashable:
        """What ``view``'s widths follow beside its model's contents."""
        style = view.style()
        return (tuple(measured_rows(view)), view.font().key(), self._decimals(),
                view.logicalDpiX(), id(style), style.objectName(), view.showGrid())
