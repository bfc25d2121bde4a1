"""Which candidate columns the grids show, and in what order.

The columns themselves are declared once, in
:data:`core.engine.columns.GRID_COLUMNS` (the workbook shares that table and
its order); here is only the grids' *visual* order and which columns a
reviewer hid. By default the key columns of grading come first
(:data:`KEY_COLUMNS`: what a reviewer reads while grading, in view on a
1280x800 screen), then the others in their declared order
(:func:`default_order`). A reviewer drags a header to move a column, and
hides or shows columns from the header's context menu or View > Columns; the
choice is kept in the settings by column key (so a column added in a later
version simply appears at its default place) and View > Reset layout, or the
menu's "Default columns", brings the default back. The grid of the
judged-but-not-retrieved follows the ranked grid's order and hidden columns.
A menu entry is ticked exactly when its column shows: the original grade's
(shown once a grade is edited) is not ticked before an edit, and ticked
then it shows at once, each grade as first read, and stays.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QObject, QPoint, Qt, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu, QTableView

from app.accessibility import mnemonic, with_mnemonics
from app.settings import Settings
from core.engine.columns import CandidateColumn

__all__ = ["ALWAYS_SHOWN", "KEY_COLUMNS", "ColumnChooser", "default_order"]

#: The columns a reviewer reads while grading, first by default, in this order.
KEY_COLUMNS: tuple[str, ...] = (
    "rank", "source", "grade", "gain", "discount", "contribution", "cumulative")
#: Right after the key columns: the ranker's score, which decides the rank,
#: then the reviewer's note (why a grade is so: in view beside the key
#: columns on a wide screen, never pushing them out of view on a narrow one,
#: where the grid scrolls to it; app.panels.grid caps its width).
_NEXT: tuple[str, ...] = ("score", "note")
#: Columns shown beside another by default: the original grade (shown once a
#: grade is edited) right after the grade, what it was beside what it is. Not
#: a key column: the docks keep no room for it before an edit (at 1280x800
#: that room hid the navigator's status column and cut the summary's title
#: at 16 pt); once shown it takes its room from the source column's (a long
#: id, elided in the middle: app.panels.grid's source_most), else it pushes
#: the cumulative DCG towards the right (the example's one-letter ids at
#: 1280x800: 2 px past the view).
_BESIDE: dict[str, str] = {"original": "grade"}
#: Columns that cannot be hidden: grading happens in the grade column.
ALWAYS_SHOWN: frozenset[str] = frozenset({"grade"})


def default_order(columns: Sequence[CandidateColumn]) -> list[int]:
    """The default visual order of ``columns`` (logical indices): the
    :data:`KEY_COLUMNS`, the score, then the rest as declared."""
    keys = [c.key for c in columns]
    lead = [*KEY_COLUMNS, *_NEXT]
    for key, beside in _BESIDE.items():
        if beside in lead:
            lead.insert(lead.index(beside) + 1, key)
    first = [keys.index(k) for k in lead if k in keys]
    return first + [i for i in range(len(keys)) if i not in first]


class ColumnChooser(QObject):
    """The visual order and hidden columns of ``grid`` (whose header a
    reviewer drags) and of the ``followers`` (which take the same), kept in
    ``settings``. :attr:`menu` (``columnsMenu``) has a checkable entry per
    column; it is also each header's context menu. :attr:`changed` is
    emitted when a column is shown, hidden or moved."""

    changed = Signal()

    def __init__(self, grid: QTableView, followers: Sequence[QTableView],
                 columns: Sequence[CandidateColumn], settings: Settings,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.grid = grid
        self.followers = tuple(followers)
        self.columns = tuple(columns)
        self.settings = settings
        self._applying = False
        #: Whether some grade differs from its original: the ``edits_only``
        #: columns (the original grade) are shown only then (:meth:`set_edited`)
        #: unless the reviewer ticked them (:attr:`kept`).
        self.edited = False
        #: The columns the reviewer hid, and the ``edits_only`` ones they
        #: ticked to show before an edit too (logical indices). An entry is
        #: ticked exactly when its column shows: the original grade's is not
        #: before an edit, and ticked then it shows at once (it showed
        #: nothing until the first edit).
        self._hidden: set[int] = set()
        self.kept: set[int] = set()
        self.menu = QMenu(self.tr("&Columns"), grid)
        self.menu.setObjectName("columnsMenu")
        self.menu.setToolTipsVisible(True)
        self.actions: dict[str, QAction] = {}
        default_text = self.tr("&Default columns")
        # (each column taken by a letter too: Alt+V, C, then its letter)
        texts = with_mnemonics([col.title for col in self.columns], taken=[
            m for m in [mnemonic(default_text)] if m])
        for n, (col, text) in enumerate(zip(self.columns, texts, strict=True)):
            action = self.menu.addAction(text)
            action.setObjectName(f"column_{col.key}")
            action.setCheckable(True)
            action.setChecked(not col.edits_only)
            action.setEnabled(col.key not in ALWAYS_SHOWN)
            action.setToolTip(self.tr(
                "Shown once a grade is edited; tick it to show it now (each grade as first "
                "read), untick it to hide it; drag a header to move it") if col.edits_only
                else self.tr("Show or hide the column; drag a header to move it"))
            action.toggled.connect(lambda on, n=n: self._set_shown(n, on))
            self.actions[col.key] = action
        self.menu.addSeparator()
        self.default_action = self.menu.addAction(default_text)
        self.default_action.setObjectName("defaultColumns")
        self.default_action.triggered.connect(self.reset)
        header = grid.horizontalHeader()
        header.setSectionsMovable(True)
        header.sectionMoved.connect(self._moved)
        for view in (grid, *self.followers):
            view.horizontalHeader().setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
            view.horizontalHeader().customContextMenuRequested.connect(
                lambda pos, v=view: self._context_menu(v, pos))

    # -- what is shown ------------------------------------------------------------------
    def order(self) -> list[int]:
        """The columns' logical indices in the grid's visual order."""
        header = self.grid.horizontalHeader()
        return [header.logicalIndex(v) for v in range(header.count())]

    def hidden(self) -> set[int]:
        """The logical indices of the columns the reviewer hid."""
        return set(self._hidden)

    def shown(self, n: int) -> bool:
        """Column ``n`` shows now (not hidden, not waiting for an edit)."""
        return n not in self._hidden and not self._waits(n)

    def apply(self, order: Sequence[int], hidden: set[int], kept: set[int] | None = None) -> None:
        """Show the grids' columns in ``order`` (logical indices, every
        column once), the ``hidden`` ones not at all, the ``kept`` ones (of
        those shown once a grade is edited) before an edit too."""
        self._hidden = set(hidden)
        self.kept = {n for n in kept or () if self.columns[n].edits_only} - self._hidden
        self._applying = True
        try:
            for view in (self.grid, *self.followers):
                header = view.horizontalHeader()
                for visual, logical in enumerate(order):
                    header.moveSection(header.visualIndex(logical), visual)
            for n in range(len(self.columns)):
                self._show(n)
        finally:
            self._applying = False
        self.changed.emit()

    def reset(self) -> None:
        """The default order, every column shown (the original grade once a
        grade is edited), and forget the saved choice."""
        self.apply(default_order(self.columns), set(), set())
        self.save()

    # -- remembered -----------------------------------------------------------------------
    def save(self) -> None:
        """Keep the order and the hidden columns (by key) in the settings."""
        self.settings.grid_column_order = [self.columns[n].key for n in self.order()]
        self.settings.grid_hidden_columns = [self.columns[n].key for n in sorted(self.hidden())]
        self.settings.grid_kept_columns = [self.columns[n].key for n in sorted(self.kept)]

    def restore(self) -> None:
        """The order and hidden columns kept in the settings; the default
        where nothing is kept. Keys no longer known are ignored; a column
        the saved order does not name follows the column it follows by
        default (first when that is the first)."""
        keys = [c.key for c in self.columns]
        saved = [keys.index(k) for k in self.settings.grid_column_order if k in keys]
        order = list(dict.fromkeys(saved))
        previous = -1
        for n in default_order(self.columns):  # the others after their default neighbour
            if n not in order:
                order.insert(order.index(previous) + 1 if previous in order else 0, n)
            previous = n
        hidden = {keys.index(k) for k in self.settings.grid_hidden_columns
                  if k in keys and k not in ALWAYS_SHOWN}
        kept = {keys.index(k) for k in self.settings.grid_kept_columns if k in keys}
        self.apply(order, hidden, kept)

    # -- the reviewer's changes --------------------------------------------------------------
    def set_edited(self, edited: bool) -> None:
        """Some grade differs from its original (``edited``) or none does:
        the ``edits_only`` columns shown or hidden (unless the reviewer hid
        them), :attr:`changed` emitted when that changed anything."""
        if edited == self.edited:
            return
        self.edited = edited
        waiting = [n for n, col in enumerate(self.columns) if col.edits_only]
        for n in waiting:
            self._show(n)
        if waiting:
            self.changed.emit()

    def _waits(self, n: int) -> bool:
        """Column ``n`` waits for an edit to be shown."""
        return self.columns[n].edits_only and not self.edited and n not in self.kept

    def _show(self, n: int) -> None:
        """Column ``n`` shown or hidden in the grids as :meth:`shown` says,
        its menu entry ticked alike."""
        on = self.shown(n)
        for view in (self.grid, *self.followers):
            if view is self.grid or not self.columns[n].ranked_only:
                view.setColumnHidden(n, not on)
        action = self.actions[self.columns[n].key]
        if action.isChecked() != on:
            held = self._applying
            self._applying = True
            try:
                action.setChecked(on)
            finally:
                self._applying = held

    def _set_shown(self, n: int, on: bool) -> None:
        """The reviewer ticked (``on``) or unticked column ``n``'s entry:
        one shown once a grade is edited shows now and stays (until
        unticked or Default columns)."""
        if self._applying:
            return
        if on:
            self._hidden.discard(n)
            if self.columns[n].edits_only:
                self.kept.add(n)
        else:
            self._hidden.add(n)
            self.kept.discard(n)
        self._show(n)
        self.save()
        self.changed.emit()

    def _moved(self, _logical: int, _old: int, _new: int) -> None:
        if self._applying:
            return
        order = self.order()
        self._applying = True
        try:
            for view in self.followers:
                header = view.horizontalHeader()
                for visual, logical in enumerate(order):
                    header.moveSection(header.visualIndex(logical), visual)
        finally:
            self._applying = False
        self.save()
        self.changed.emit()

    def _context_menu(self, view: QTableView, pos: QPoint) -> None:
        self.menu.popup(view.horizontalHeader().viewport().mapToGlobal(pos))
