"""The widths a reviewer gives the candidate grids' columns by hand (a
header's edge dragged or double-clicked): every fit of the columns keeps
them, from query to query and edit to edit, and they are kept in the
settings between sessions, by grid (its model's section, ``ranked`` or
``not_retrieved``) and column key (as :data:`core.engine.columns.COLUMNS`
declares it), so that a column moved or added in a later version keeps or
gets its place, and a column no longer declared is ignored. View > Reset
column widths, or View > Reset layout, forgets them: the columns follow
their contents again.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QTableView

from app.models.candidates import CandidateModel
from app.settings import Settings

__all__ = ["KeptWidths"]


class KeptWidths(QObject):
    """The widths a reviewer gave the columns of ``views`` (grids over a
    :class:`~app.models.candidates.CandidateModel`), by view and logical
    column (:meth:`of`), recorded while a mouse button pressed on a header
    resizes a section, and kept in the settings (:meth:`keep_in`) when the
    button is released."""

    def __init__(self, views: Sequence[QTableView], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._kept: dict[QTableView, dict[int, int]] = {view: {} for view in views}
        self._headers = {view.horizontalHeader().viewport(): view for view in views}
        #: The view whose header has a mouse button pressed (a drag, a double click).
        self._dragging: QTableView | None = None
        #: The widths changed since the button was pressed (to be saved at its release).
        self._changed = False
        self._settings: Settings | None = None
        for view in views:
            view.horizontalHeader().viewport().installEventFilter(self)
            view.horizontalHeader().sectionResized.connect(
                lambda col, _old, new, v=view: self._resized(v, col, new))

    def of(self, view: QTableView) -> dict[int, int]:
        """``view``'s columns the reviewer sized: logical column -> width (pixels)."""
        return self._kept[view]

    def keep_in(self, settings: Settings) -> None:
        """The widths kept in ``settings`` taken (a grid or a column key no
        longer known, a width not a positive number, ignored), and the
        widths the reviewer sets from now on kept there."""
        self._settings = settings
        saved = settings.grid_column_widths
        for view, kept in self._kept.items():
            model = view.model()
            assert isinstance(model, CandidateModel)
            widths = saved.get(model.section, {})
            kept.clear()
            kept.update({n: widths[col.key] for n, col in enumerate(model.columns)
                         if widths.get(col.key, 0) > 0})

    def forget(self) -> None:
        """No width is the reviewer's any more, here and in the settings."""
        for kept in self._kept.values():
            kept.clear()
        if self._settings is not None:
            self._settings.grid_column_widths = {}

    def _save(self) -> None:
        if self._settings is None:
            return
        widths: dict[str, dict[str, int]] = {}
        for view, kept in self._kept.items():
            model = view.model()
            assert isinstance(model, CandidateModel)
            if kept:
                widths[model.section] = {model.columns[n].key: w for n, w in sorted(kept.items())}
        self._settings.grid_column_widths = widths
        self._settings.sync()

    def _resized(self, view: QTableView, column: int, width: int) -> None:
        """A section of ``view`` resized: kept when the reviewer did it (a
        drag or a double click on its header's edge under way)."""
        if self._dragging is view and width > 0:
            self._kept[view][column] = width
            self._changed = True

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched in self._headers and isinstance(event, QMouseEvent):
            kind = event.type()
            if (kind in (QEvent.Type.MouseButtonPress, QEvent.Type.MouseButtonDblClick)
                    and event.button() == Qt.MouseButton.LeftButton):
                self._dragging = self._headers[watched]
            elif kind == QEvent.Type.MouseButtonRelease:
                self._dragging = None
                if self._changed:
                    self._changed = False
                    self._save()
        return super().eventFilter(watched, event)
