"""What the review docks share: read-only row tables, signed numbers, and
views made when their dock is first shown (:mod:`app.deferred`)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from enum import IntEnum
from typing import TYPE_CHECKING, Any, TypeVar

from PySide6.QtCore import (
    QAbstractTableModel,
    QEvent,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
)
from PySide6.QtGui import QBrush
from PySide6.QtWidgets import QAbstractItemView, QDockWidget, QHeaderView, QTableView, QWidget

from app.accessibility import tab_passes
from app.deferred import DeferredView, MadeView, Unmade
from app.delegates import NumberDelegate, signed_text
from app.models.looks import brush
from app.models.roles import WHOLE_ROLE
from app.shown import CELL_SHOWN, bounded, id_note, shown_id

if TYPE_CHECKING:
    from app.window_api import WindowApi

__all__ = ["DeferredView", "MadeView", "RowsModel", "SignedDelegate", "WidthFit",
           "deferred_dock", "read_only_table", "words_cap"]

Index = QModelIndex | QPersistentModelIndex
DISPLAY = Qt.ItemDataRole.DisplayRole
TOOLTIP = Qt.ItemDataRole.ToolTipRole


class SignedDelegate(NumberDelegate):
    """Rounded numbers with an explicit sign (deltas)."""

    def displayText(self, value: Any, locale: Any) -> str:
        return signed_text(value, self._decimals())


class RowsModel(QAbstractTableModel):
    """A read-only table of plain rows; the columns are an ``IntEnum``.

    Cells hold core values as they are (floats at full precision, None for
    "no value"); delegates round for display. :meth:`sort` reorders rows by
    a column (None last) and keeps persistent indexes.
    """

    def __init__(self, columns: type[IntEnum], headers: dict[int, str],
                 parent: Any = None) -> None:
        super().__init__(parent)
        self._columns = columns
        #: The columns holding an id (a query's, a source's): named QUERY or
        #: SOURCE in ``columns``; shown with their line breaks marked.
        self._ids = frozenset(int(c) for c in columns if c.name in ("QUERY", "SOURCE"))
        self._headers = headers
        #: A header's words said whole on hover (a short header's long name).
        self.header_tips: dict[int, str] = {}
        self._rows: list[tuple[Any, ...]] = []
        #: Each row's background: a tone of app.models.looks (painted in the
        #: scheme in use), a brush, or None.
        self._brushes: list[QBrush | str | None] = []
        #: Numbers no longer current (the document changed since they were
        #: worked out): shown in the muted tone, without the rows' colours.
        self.faded = False

    def set_rows(self, rows: Sequence[tuple[Any, ...]],
                 brushes: Sequence[QBrush | str | None] | None = None) -> None:
        self.beginResetModel()
        self._rows = [tuple(r) for r in rows]
        self._brushes = list(brushes) if brushes is not None else [None] * len(self._rows)
        self.endResetModel()

    def set_faded(self, faded: bool) -> None:
        """Show the rows faded (no longer current) or as they are."""
        if faded == self.faded:
            return
        self.faded = faded
        if self._rows:
            self.dataChanged.emit(self.index(0, 0),
                                  self.index(len(self._rows) - 1, self.columnCount() - 1),
                                  [Qt.ItemDataRole.BackgroundRole,
                                   Qt.ItemDataRole.ForegroundRole])

    def row(self, r: int) -> tuple[Any, ...]:
        return self._rows[r]

    def rows(self) -> list[tuple[Any, ...]]:
        return list(self._rows)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._headers)

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = DISPLAY) -> Any:
        if orientation != Qt.Orientation.Horizontal:
            return None
        if role == DISPLAY:
            return self._headers.get(section)
        if role == TOOLTIP:
            return self.header_tips.get(section)
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    def data(self, index: Index, role: int = DISPLAY) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        row = self._rows[index.row()]
        if not 0 <= index.column() < len(row):
            return None
        if role == WHOLE_ROLE:
            return row[index.column()]
        if role in (DISPLAY, TOOLTIP):
            value = row[index.column()]
            if not isinstance(value, str):
                return value if role == DISPLAY else None
            if index.column() in self._ids:
                return shown_id(value, CELL_SHOWN) if role == DISPLAY else id_note(value) or None
            return bounded(value, CELL_SHOWN) if role == DISPLAY else None
        if role == Qt.ItemDataRole.ForegroundRole:
            return brush("muted") if self.faded else None
        if role == Qt.ItemDataRole.BackgroundRole:
            if self.faded:
                return None
            shade = self._brushes[index.row()]
            return brush(shade) if isinstance(shade, str) else shade
        if role == Qt.ItemDataRole.TextAlignmentRole:
            # Numbers right-aligned, counts (ints) as much as floats: the
            # Judges dock's "candidates both graded" sat left beside its
            # right-aligned kappas. Words (and a bool's yes/no) stay left.
            value = row[index.column()]
            if isinstance(value, int | float) and not isinstance(value, bool):
                return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        if not 0 <= column < self.columnCount():
            return
        self.layoutAboutToBeChanged.emit()
        old = self.persistentIndexList()
        descending = order == Qt.SortOrder.DescendingOrder
        values = [r[column] for r in self._rows]
        numbers = [i for i, v in enumerate(values)
                   if isinstance(v, int | float) and not (isinstance(v, float) and math.isnan(v))]
        texts = [i for i, v in enumerate(values) if isinstance(v, str)]
        listed = set(numbers) | set(texts)
        numbers.sort(key=lambda i: float(values[i]), reverse=descending)
        texts.sort(key=lambda i: str(values[i]), reverse=descending)
        # Numbers, then words (statuses), then empty cells, whatever the order.
        perm = numbers + texts + [i for i in range(len(values)) if i not in listed]
        where = {old_row: new_row for new_row, old_row in enumerate(perm)}
        self._rows = [self._rows[i] for i in perm]
        self._brushes = [self._brushes[i] for i in perm]
        self.changePersistentIndexList(
            old, [self.index(where[i.row()], i.column()) for i in old])
        self.layoutChanged.emit()


def read_only_table(name: str, model: RowsModel, parent: QWidget) -> QTableView:
    view = QTableView(parent)
    view.setObjectName(name)
    view.setModel(model)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    tab_passes(view)
    view.verticalHeader().hide()
    view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    view.horizontalHeader().setStretchLastSection(True)
    return view


class WidthFit(QObject):
    """Keeps a table's columns within its width, and its height to its rows
    (the Judges dock's tables, the Conflicts dock's).

    Each column gets the width its contents and header ask; when they ask
    more than the view has, the ``words`` columns (ids, names, marks) give
    way, the widest first, down to ``floor`` pixels, their texts elided and
    said whole on hover (:meth:`NumberDelegate.helpEvent`, the headers'
    tooltips); numbers never shrink. Only below those floors does the
    table scroll sideways. At most ``rows`` rows tall (None: as the layout
    gives it). In a Judges tab 264 px wide the three tables scrolled
    sideways at their natural widths (400, 370 and 500 px) and cut
    ``unrateable: N/A`` at the viewport's edge, and the kappa and alpha
    tables stood 190 px tall over 3 rows. No column stretches to the
    table's edge (its last one stretched: the alpha table's grades count
    stood 200 px from its header at 1920x1080); the room the columns do
    not ask stays blank at their right."""

    def __init__(self, view: QTableView, words: Callable[[], Sequence[int]], floor: int,
                 rows: int | None = None, *, ids: Sequence[int] = (), id_floor: int = 0) -> None:
        """``ids``: words columns of ids (cut in their middle, whole on hover)
        that give way further, down to ``id_floor``, before the table
        scrolls sideways."""
        super().__init__(view)
        self.view, self.words, self.floor, self.rows = view, words, floor, rows
        self.ids, self.id_floor = tuple(ids), id_floor
        view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        view.horizontalHeader().setStretchLastSection(False)
        view.setTextElideMode(Qt.TextElideMode.ElideRight)
        view.setWordWrap(False)  # (a mark wrapped to a second line, cut at the row's foot)
        view.installEventFilter(self)
        view.model().modelReset.connect(self.fit)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() in (QEvent.Type.Resize, QEvent.Type.Show):
            self.fit()
        return False

    def fit(self) -> None:
        view = self.view
        header = view.horizontalHeader()
        count = header.count()
        want = [max(header.sectionSizeHint(c), view.sizeHintForColumn(c)) for c in range(count)]
        words = [c for c in self.words() if 0 <= c < count]
        # (from the frame, not the viewport: at a Resize the viewport has
        # not followed yet, and the table kept the widths of its last size;
        # a table of any number of rows keeps its scroll bar's room, which
        # it shows after the rows arrive, the fit done: the last column was
        # cut by 14 px)
        bar = view.verticalScrollBar()
        scrolls = bar.isVisible() or self.rows is None or view.model().rowCount() > self.rows
        room = view.contentsRect().width() - (bar.sizeHint().width() if scrolls else 0)
        fixed = sum(w for c, w in enumerate(want) if c not in words)
        cap = words_cap([want[c] for c in words], room - fixed, self.floor)
        widths = [max(min(want[c], cap), min(want[c], self.floor)) if c in words else want[c]
                  for c in range(count)]
        # The ids below the floor, before the table scrolls: with four
        # annotators the Judges tab (1280x800) cut its last header, "disa".
        over = sum(widths) - room
        for c in (c for c in self.ids if 0 <= c < count):
            given = max(0, min(over, widths[c] - max(self.id_floor, header.sectionSizeHint(c))))
            widths[c] -= given
            over -= given
        for c, width in enumerate(widths):
            if header.sectionSize(c) != width:
                header.resizeSection(c, width)
        if self.rows is not None:
            rows = view.verticalHeader()
            shown = sum(rows.sectionSize(r) for r in range(min(rows.count(), self.rows)))
            bar = view.horizontalScrollBar()
            height = (header.sizeHint().height() + shown + 2 * view.frameWidth()
                      + (bar.sizeHint().height() if header.length() > room else 0))
            if view.height() != height:
                view.setFixedHeight(height)


def words_cap(wants: Sequence[int], room: int, floor: int) -> int:
    """The widest a words column may be (pixels) for columns that want
    ``wants`` to fit in ``room``, each narrowed to the cap (never below
    ``floor``, nor widened past its want): the largest cap whose columns'
    widths, ``max(min(want, cap), min(want, floor))``, sum to at most
    ``room``, ``floor`` when none does, the widest want when they fit whole.
    Worked out at once, the narrowest columns kept whole first (a loop took
    the cap down 1 px a step: an id 2,000 px wide took ~1,800 steps).

    >>> words_cap([200, 100, 40], 300, 30), words_cap([200, 100], 400, 30)
    (160, 200)
    >>> words_cap([200, 100], 50, 30)
    30
    """
    whole = max(wants, default=0)
    if sum(wants) <= room:
        return whole
    kept = 0  # (the wants kept whole so far, the narrowest)
    for i, want in enumerate(sorted(wants)):
        left = len(wants) - i
        if want * left > room - kept:
            return max(floor, (room - kept) // left)
        kept += want
    return whole


V = TypeVar("V", bound=QWidget)


def deferred_dock(window: WindowApi, name: str, title: str, area: Qt.DockWidgetArea,
                  tab_with: str, make: Callable[[], V],
                  wire: Callable[[V], object]) -> tuple[QDockWidget, DeferredView[V]]:
    """A review dock, hidden at a first start, tabbed with dock ``tab_with``,
    holding an empty widget until its view is made (:class:`DeferredView`)."""
    dock = window.add_dock(name, title, Unmade(), area, tab_with=tab_with, hidden=True)
    return dock, DeferredView(dock, make, wire)
