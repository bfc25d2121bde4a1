"""The query navigator: every query, its NDCG at the main cutoff, its status
and how much of it is judged; filter by text and status, sort by any column."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from PySide6.QtCore import (
    QEvent,
    QItemSelectionModel,
    QModelIndex,
    QPersistentModelIndex,
    QSize,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QFontMetricsF, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QGridLayout,
    QHeaderView,
    QLineEdit,
    QStyleOptionViewItem,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from app.accessibility import label_control, tab_passes
from app.delegates import IdDelegate, NumberDelegate
from app.models.looks import STATUS_LOOK
from app.models.queries import QueryColumn, QueryFilterProxy, QueryListModel, RunColumns
from app.panels.fit import (
    columns_width,
    fit_columns,
    fit_rows_to_font,
    header_widths,
    measured_rows,
    resized_at_once,
    room_for,
    show_if_room,
    text_margins,
    text_width,
    text_widths,
)
from app.panels.status_cell import StatusFitsDelegate
from app.scheme import tint
from app.shown import CELL_SHOWN, shown_query
from core.engine.evaluation import Evaluation, Status
from core.engine.results import STATUS_BY_CODE

__all__ = ["IDS_ASKED", "QueryNavigator"]

#: The most the navigator asks for its query ids' column (pixels): a compact
#: navigator leaves the grid its room.
IDS_ASKED = 160
#: ... or this many average characters of its font, when more: a query text
#: ("what ye sow, so shall ye reap") whole where the window has the room (the
#: layout gives the side column no more than its share, and the grid its key
#: columns first: app.layout).
IDS_CHARACTERS = 40
#: The least of a query's text (characters, its first word or so) its cell
#: keeps beside the id before the status column gives way: the text elides
#: first (whole on hover), the status is what a reviewer scans the list for.
#: At 1280x800 (a 342 px list) the status was hidden to give the text its
#: 40 characters; 12 of them still left it 23 px short, 8 of them 4 px.
TEXT_LEAST = 4


#: Every form an NDCG cell says a status in (its label, word, short word and
#: symbol: :meth:`app.models.looks.StatusLook.fitting`); ok's it never says.
_STATUS_SAID = frozenset(form for status, look in STATUS_LOOK.items() if status is not Status.OK
                         for form in (look.label, look.text, look.short, look.symbol))


class _NdcgCell(StatusFitsDelegate):
    """The navigator's NDCG cell: a number, or a status in words where the
    Status column is hidden (the side column has not its room: 1280x800 and
    1366x768 beside 40-character ids), else empty: the Status column says
    it, in its tone, with its reason on hover (at 1920x1080 every
    unresolved query read "unres. | unres." in the two columns side by
    side, seen under Xvfb). Its tooltip still gives the reason."""

    def initStyleOption(self, option: QStyleOptionViewItem,
                        index: QModelIndex | QPersistentModelIndex) -> None:
        super().initStyleOption(option, index)
        view = option.widget
        if (option.text in _STATUS_SAID and option.rect.width() > 0
                and isinstance(view, QTableView) and not view.isColumnHidden(QueryColumn.STATUS)):
            option.text = ""


class _QueryList(QTableView):
    """The navigator's list of queries, laid out and painted once when it is
    resized: its header re-stretches the query ids to the new width there,
    and a ``QTableView`` told of a resized section repaints from it on a
    0 ms timer, after the window's next paint (the dock areas sized at the
    launch's arrival narrow the navigator: its list was painted twice, ~4 ms
    the second time: docs/benchmarks.md, hopen9)."""

    def resizeEvent(self, event: QResizeEvent) -> None:
        with resized_at_once(self):
            super().resizeEvent(event)


class QueryNavigator(QWidget):
    """The list of queries (objectName ``queryNavigator``).

    Emits :attr:`query_selected` with the query's index in the document.
    """

    query_selected = Signal(int)

    def __init__(self, decimals: Callable[[], int], parent: Any = None) -> None:
        super().__init__(parent)
        self.setObjectName("queryNavigator")
        self._decimals = decimals
        self.model = QueryListModel(self)
        self._selecting = False
        self.proxy = QueryFilterProxy(self)
        # Rows do not jump while a reviewer grades: the order and the status
        # filter are applied when asked (header click, filter change), and a
        # grade edit repaints one row instead of re-sorting the whole list.
        self.proxy.setDynamicSortFilter(False)
        self.proxy.setSourceModel(self.model)
        self.filter_edit = QLineEdit(self)
        self.filter_edit.setObjectName("queryFilter")
        self.filter_edit.setPlaceholderText(self.tr("Filter queries…"))
        self.filter_edit.setClearButtonEnabled(True)
        label_control(self.filter_edit, self.tr("Filter queries"),
                      self.tr("Lists the queries whose id contains this text"))
        self.filter_edit.textChanged.connect(self.proxy.set_text)
        self.status_boxes: dict[Status, QCheckBox] = {}
        boxes = self._status_filters()
        self.view = _QueryList(self)
        self.view.setObjectName("queryList")
        label_control(self.view, self.tr("Queries"), self.tr(
            "Each query's NDCG at the first cutoff, its status and how much of it is judged"))
        self.view.setModel(self.proxy)
        self.view.setSortingEnabled(True)
        self.view.sortByColumn(-1, Qt.SortOrder.AscendingOrder)
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        tab_passes(self.view)
        self.view.verticalHeader().setVisible(False)
        header = self.view.horizontalHeader()
        # Column widths are fitted once per document (sampling 200 rows), not on
        # every edit: live resize-to-contents re-measures rows on each change.
        # The query ids take what is left (elided, whole on hover), so the
        # numbers, the status and the judged count are never cut.
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(QueryColumn.QUERY, QHeaderView.ResizeMode.Stretch)
        header.setResizeContentsPrecision(200)
        header.setStretchLastSection(False)
        # Only the sorted column keeps room for the sort arrow (fit.header_widths):
        # the navigator stays narrow, and a click on a header refits.
        header.sortIndicatorChanged.connect(lambda *_: self.fit_columns())
        self.view.setWordWrap(False)
        self.view.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        fit_rows_to_font(self.view)
        # a status in the longest form its cell holds whole ("unres.", not "unr…ved"),
        # where the status column is hidden; said once, in that column, where not
        self.view.setItemDelegateForColumn(QueryColumn.NDCG, _NdcgCell(decimals, self))
        # ... and the status column too, narrowed to its short forms where the
        # navigator gives way to the grid's every column (least_width(short=True))
        self.view.setItemDelegateForColumn(QueryColumn.STATUS, StatusFitsDelegate(decimals, self))
        # A query elided in its column ("what ye…ll fall") is whole on hover,
        # as a long source id in the grid is (the delegate's tooltip).
        # (its line breaks' marks drawn apart from its text: IdDelegate)
        self.view.setItemDelegateForColumn(QueryColumn.QUERY, IdDelegate(decimals, self))
        self.view.selectionModel().currentRowChanged.connect(self._current_changed)
        self.setMinimumWidth(160)
        #: The status column's fitted width (it is hidden when the side column
        #: has not that room: the NDCG column says every status but ok in words),
        #: and the least it is shown at, its statuses in their short forms.
        self._status_width = self._status_least = 0
        #: The NDCG column's fitted width (its widest word, "undefined"), and
        #: the least it gives way to before the status hides (a number's).
        self._ndcg_width = self._ndcg_least = 0
        #: The query ids' width as fitted (:meth:`fit_columns`), for :meth:`sizeHint`,
        #: the widest of their first IDS_CHARACTERS characters, and the widest
        #: id with its text's first TEXT_LEAST characters (0: no query has a text).
        self._ids_width = self._ids_most = self._ids_least = 0
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addWidget(self.filter_edit)
        layout.addLayout(boxes)
        layout.addWidget(self.view)

    def _status_filters(self) -> QGridLayout:
        """One check box a status (:attr:`status_boxes`), each in its tone,
        all checked: the list shows the queries of the statuses checked."""
        # two a row: four side by side are cut in a side column of ~300 px
        boxes = QGridLayout()
        boxes.setHorizontalSpacing(12)
        boxes.setVerticalSpacing(0)
        for i, status in enumerate(Status):
            look = STATUS_LOOK[status]
            box = QCheckBox(look.label, self)
            box.setObjectName(f"statusFilter_{status.value}")
            box.setChecked(True)
            box.setToolTip(status.reason)
            tint(box, "color: {}", look.tone)
            box.toggled.connect(self._statuses_toggled)
            self.status_boxes[status] = box
            boxes.addWidget(box, i // 2, i % 2)
        boxes.setColumnStretch(2, 1)
        return boxes

    def set_evaluation(self, ev: Evaluation, *, queries: Sequence[int] | None = None) -> None:
        new_document = self.model.evaluation is None or self.model.evaluation.doc is not ev.doc
        self.model.set_evaluation(ev, queries=queries)
        if new_document:
            self.fit_columns()

    def show_runs(self, runs: RunColumns | None) -> None:
        """Show each compared run's NDCG and delta as columns (None: hide them)."""
        self.model.set_runs(runs)
        if runs is not None:
            number = NumberDelegate(self._decimals, self)
            for c in range(len(QueryColumn), self.model.columnCount()):
                self.view.setItemDelegateForColumn(c, number)
        self.fit_columns()

    def fit_columns(self) -> None:
        """The number, status and judged columns fitted to their contents;
        the status shown if the navigator has the room (:meth:`_fit_status`);
        the query ids' width measured for :meth:`sizeHint`."""
        with resized_at_once(self.view):
            # The list laid out for its rows first: its vertical scroll bar,
            # shown for a longer list, narrows the stretched ids here, not at
            # the first query's selection, whose resized column the view
            # repainted a turn after the next paint (hopen9).
            self.view.executeDelayedItemsLayout()
            self._fit_columns()

    def _fit_columns(self) -> None:
        view = self.view
        # Every column's cells measured at once from the font's metrics (as
        # sizeHintForColumn would, ~8 data calls a cell fewer: ~30 ms at 2,000
        # queries), their texts the model's own, not asked through the proxy's
        # data (2,318 calls: the fit 26 -> 3 ms of the launch's arrival, hopen8).
        rows = measured_rows(view)
        proxy, model = self.proxy, self.model
        queries = [proxy.mapToSource(proxy.index(row, 0)).row() for row in rows]
        measured = text_widths(view, range(model.columnCount()), rows,
                               cells=lambda column: model.shown(queries, column))
        fit_columns(view, skip=(QueryColumn.QUERY, QueryColumn.STATUS), measured=measured)
        # Measured shown: Qt sizes a hidden column's header and cells at 0
        # (the status hidden while the side column was narrow, before the
        # window's first show, was then shown at 26 px: "Statu" cut).
        # Measured once (fit_columns' own rule), then sized when it is shown.
        hidden = view.isColumnHidden(QueryColumn.STATUS)
        view.setColumnHidden(QueryColumn.STATUS, False)
        try:
            self._status_width = max(header_widths(view)[QueryColumn.STATUS],
                                     min(320, measured[QueryColumn.STATUS]),
                                     self._widest_status())
            self._status_least = min(self._status_width, max(
                header_widths(view)[QueryColumn.STATUS], self._widest_status(short=True)))
            if not hidden:
                view.horizontalHeader().resizeSection(QueryColumn.STATUS, self._status_width)
        finally:
            view.setColumnHidden(QueryColumn.STATUS, hidden)
        self._ndcg_width = view.horizontalHeader().sectionSize(QueryColumn.NDCG)
        self._ndcg_least = min(self._ndcg_width, max(
            header_widths(view)[QueryColumn.NDCG],
            text_width(view.font(), f"-0.{'0' * self._decimals()}") + text_margins(view)))
        self._ids_width = measured[QueryColumn.QUERY]
        self._ids_most, self._ids_least = self._widest_ids(IDS_CHARACTERS)
        self._fit_status()

    def _widest_status(self, *, short: bool = False) -> int:
        """The widest status any query of the evaluation shows ("? unresolved"),
        with a cell's margins (pixels): the rows measured are the first
        ~1,000 from the top, and at 1280x800 a run of 2,000 queries whose
        unresolved ones came after them had its Status fitted to "∅ undefined"
        and read "? unr…olved" (the summary's cutoff table's rule). ``short``:
        the widest of their short forms ("unres.")."""
        ev = self.model.evaluation
        if ev is None or not ev.status_code.size:
            return 0
        # (counted, not np.unique: app.panels.summary._fit_columns says why)
        counts = np.bincount(ev.status_code.ravel(), minlength=len(STATUS_BY_CODE))
        metrics = QFontMetricsF(self.view.font())
        looks = [STATUS_LOOK[STATUS_BY_CODE[int(code)]] for code in np.flatnonzero(counts)]
        return text_margins(self.view) + max(
            text_width(metrics, look.short if short else look.label) for look in looks)

    def _widest_ids(self, characters: int) -> tuple[int, int]:
        """The widest of the first 200 query ids cut to ``characters``, with
        a cell's margins (pixels): 40 characters of real text are wider than
        40 of the font's average ones (at 9 pt, "symptoms of vitamin d
        deficiency adult 3" took 283 px of the 280 asked and was cut). Then
        the same widest with each query that has a text cut to its id and
        the text's first :data:`TEXT_LEAST` characters (0: none has a text):
        an id without a text among them is kept whole as before."""
        model, metrics = self.model, QFontMetricsF(self.view.font())
        rows = range(min(200, model.rowCount()))
        cells = model.shown(rows, QueryColumn.QUERY)
        widths = [text_width(metrics, str(value or "")[:characters]) for value, _font in cells]
        ev, widest, least = self.model.evaluation, max(widths, default=0), 0
        doc = ev.doc if ev is not None else None
        if doc is not None and any(doc.query_text(q) for q in rows):
            for q, width in zip(rows, widths, strict=True):
                text = doc.query_text(q)  # (as its cell shows it, cut; an id alone: whole)
                least = max(least, text_width(metrics, shown_query(
                    doc.query_ids[q], text[:TEXT_LEAST] + "…", CELL_SHOWN)) if text else width)
        margins = text_margins(self.view)
        return (widest + margins if widest else 0), (least + margins if least else 0)

    def _fit_status(self) -> None:
        """The status column where the other columns leave it room with the
        query ids whole (as wide as :meth:`sizeHint` asks for them), the NDCG
        column narrowed first to a number's width (its statuses then in
        their short forms, "undef.", said whole beside it), else hidden: the
        ids are what a reviewer tells queries by, and the NDCG column says
        each status but ok in words, in its colour, with its reason on hover
        (at 1280x800, ids of 40 characters were cut to 16 beside a status
        column saying "unresolved" again; at 16 pt in a 331 px side column
        it made the list scroll sideways). At 960x540 the first edit's
        original grade took the navigator 4 px and its status column.
        Then the status column narrowed to the room left, down to its
        statuses' short forms ("unres.", each in the longest form its cell
        holds: "unresolved"), where the navigator gives way to the grid's
        every column (:meth:`least_width`)."""
        if not self._status_width:
            return
        view, status = self.view, QueryColumn.STATUS
        header, reserve = view.horizontalHeader(), self._ids_extra(least=True)
        # Beside the status the NDCG column says numbers alone (_NdcgCell): a
        # number's width, not its widest status word's ("∅ undefined" kept
        # it 20 px wider, empty, at 1280x800).
        if header.sectionSize(QueryColumn.NDCG) != self._ndcg_least:
            header.resizeSection(QueryColumn.NDCG, self._ndcg_least)
        if show_if_room(view, status, self._status_width, reserve=reserve):
            return
        narrowed = min(self._status_width, room_for(view, [status], reserve=reserve))
        if narrowed >= self._status_least and show_if_room(view, status, narrowed,
                                                           reserve=reserve):
            return
        header.resizeSection(QueryColumn.NDCG, self._ndcg_width)

    def _ids_extra(self, *, least: bool = False) -> int:
        """What the query ids ask for beyond their header's width (up to
        :data:`IDS_ASKED` px, or :data:`IDS_CHARACTERS` characters of the
        font; longer ones are elided in the middle, whole on hover).
        ``least``: what they keep before the status gives way, a query's
        text cut to its first :data:`TEXT_LEAST` characters (elided at its
        end, whole on hover)."""
        most = max(IDS_ASKED, IDS_CHARACTERS * self.view.fontMetrics().averageCharWidth(),
                   self._ids_most)
        # As measured with the other columns (a new document, a sort, a font):
        # 200 ids' widths, asked again by each layout of the window (2-3 times
        # as it opens: ~7 ms each at 2,000 queries).
        ids = min(most, self._ids_width)
        if least and self._ids_least:
            ids = min(ids, self._ids_least)
        return max(0, ids - header_widths(self.view)[QueryColumn.QUERY])

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)  # (the layout has sized the list already)
        # Laid out and painted with this resize: the status column hidden or
        # shown here left the list its old scroll bars until a 0 ms timer
        # after the next paint (at the launch's arrival the list was painted
        # with a sideways scroll bar, then again without it: hopen7).
        with resized_at_once(self.view):
            self._fit_status()

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:  # (a larger system font, at once)
            QTimer.singleShot(0, self._refit)

    def _refit(self) -> None:
        fit_rows_to_font(self.view)
        self.fit_columns()

    def sizeHint(self) -> QSize:
        """Wide enough for every column (the status too, when it is hidden,
        and beside it the NDCG at a number's width)
        and the query ids (up to :data:`IDS_ASKED` px, or :data:`IDS_CHARACTERS`
        characters of the font; longer ones are elided, whole on hover)."""
        extra = self._ids_extra()
        layout = self.layout()
        margins = layout.contentsMargins().left() * 2 if layout is not None else 0
        header = self.view.horizontalHeader()
        # (the status at its whole width where it is hidden or narrowed)
        status = self._status_width - (0 if self.view.isColumnHidden(QueryColumn.STATUS)
                                       else header.sectionSize(QueryColumn.STATUS))
        # (the NDCG column at a number's width: beside the status it says no word)
        ndcg = self._ndcg_least - header.sectionSize(QueryColumn.NDCG)
        width = columns_width(self.view) + extra + margins + max(0, status) + ndcg
        return QSize(max(width, self.minimumWidth()), super().sizeHint().height())

    def least_width(self, *, short: bool = False) -> int:
        """The width at which the query ids (a text's first
        :data:`TEXT_LEAST` characters) and the status still read, as
        :meth:`sizeHint` counts (what the side column keeps when it gives
        way to the grid's columns: :class:`app.layout.Workplace`). ``short``:
        the status in its short forms ("unres.", whole on hover; the NDCG
        column beside it at a number's width either way), what it keeps
        where that holds the grid's every column (at 1920x1080 beside
        40-character ids and unresolved queries, 496 px left the
        grid 29 px short of Its ideal contribution)."""
        least = self.sizeHint().width() - self._ids_extra() + self._ids_extra(least=True)
        if short:
            least -= self._status_width - self._status_least
        return least

    def select_query(self, q: int) -> None:
        """Make ``q`` current without re-emitting; where the filter hides it
        (an undo of a grade in another query, the filter typed since), no
        row is: the row left selected said another query was the grid's, and
        a digit typed graded the hidden one."""
        source = self.model.index(q, 0)
        proxy_index = self.proxy.mapFromSource(source)
        # Not by blocking the selection model's signals: the view repaints the
        # rows it is told about, and a silent change left the previous rows
        # painted as selected (several "current" queries at once).
        self._selecting = True
        try:
            self.view.selectionModel().setCurrentIndex(
                proxy_index,
                QItemSelectionModel.SelectionFlag.ClearAndSelect
                | QItemSelectionModel.SelectionFlag.Rows,
            )
        finally:
            self._selecting = False
        if proxy_index.isValid():
            self.view.scrollTo(proxy_index)

    def step(self, delta: int, *, status: Status | None = None) -> int | None:
        """The query ``delta`` rows from the current one in the shown order
        (only queries of ``status`` when given); None at the end."""
        rows = self.proxy.rowCount()
        if not rows:
            return None
        row = self.view.currentIndex().row()
        row = (-1 if delta > 0 else rows) if row < 0 else row
        ev = self.model.evaluation
        while True:
            row += 1 if delta > 0 else -1
            if not 0 <= row < rows:
                return None
            q = self.proxy.mapToSource(self.proxy.index(row, 0)).row()
            if status is None or (ev is not None and ev.query_status(q) is status):
                return q

    def _statuses_toggled(self) -> None:
        self.proxy.set_statuses({s for s, box in self.status_boxes.items() if box.isChecked()})

    def _current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if current.isValid() and not self._selecting:
            self.query_selected.emit(self.proxy.mapToSource(current).row())
