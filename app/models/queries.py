"""The query navigator: every query with its NDCG, status and judged count."""

from __future__ import annotations

import math
from collections.abc import Sequence
from enum import IntEnum
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QModelRoleData,
    QModelRoleDataSpan,
    QSortFilterProxyModel,
    Qt,
)
from PySide6.QtGui import QFont

from app.models.looks import ITALIC, STATUS_LOOK, STATUS_TOOLTIP, brush, full_text, qt_number
from app.models.roles import DISPLAY, SORT_ROLE, TOOLTIP, WHOLE_ROLE, Index
from app.shown import CELL_SHOWN, holds, id_note, query_tip, shown_query, typed
from core.engine.evaluation import Evaluation, Status
from core.model.conventions import format_cutoff
from core.model.grades import unknown_counted

__all__ = ["QueryColumn", "QueryFilterProxy", "QueryListModel", "RunColumns"]


class QueryColumn(IntEnum):
    QUERY = 0
    NDCG = 1
    STATUS = 2
    JUDGED = 3


_COLUMNS = tuple(QueryColumn)
#: How many statuses a query can have (the status filter's boxes).
_STATUSES = len(Status)
#: Every role :meth:`QueryListModel.data` and :meth:`RunColumns.cell` answer.
_ROLES = frozenset({WHOLE_ROLE, DISPLAY, SORT_ROLE, TOOLTIP, Qt.ItemDataRole.ForegroundRole,
                    Qt.ItemDataRole.FontRole, Qt.ItemDataRole.TextAlignmentRole})


def _main_statuses(ev: Evaluation) -> list[Status]:
    """Every query's status at the main (first) cutoff."""
    return [row[0] for row in ev.status_table()[0]]


class QueryListModel(QAbstractTableModel):
    """Every query with its NDCG at the main (first) cutoff, status and judged
    count; and, while runs compared with this document are shown
    (:meth:`set_runs`), each run's NDCG and its delta to this one."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._ev: Evaluation | None = None
        self._runs: RunColumns | None = None
        # Kept, not worked out per call: Qt asks both counts for every index
        # it makes (~7,000 times while the columns are fitted to 200 rows).
        self._rows = 0
        self._columns = len(QueryColumn)
        #: Each query's status at the main cutoff, as ``ev.status(q, 0)``:
        #: looked up once per evaluation, not for each of the ~8 roles Qt asks
        #: per cell (6,400 calls while the columns are fitted to 200 rows).
        self._status: list[Status] = []

    def set_evaluation(self, ev: Evaluation, *, queries: Sequence[int] | None = None) -> None:
        """Show ``ev``; when only ``queries`` changed, only their rows are refreshed."""
        old = self._ev
        if old is None or old.doc is not ev.doc:
            self.beginResetModel()
            self._ev = ev
            self._status = _main_statuses(ev)
            self._rows = ev.doc.n_queries
            self._set_runs(None)  # they were compared with another document
            self.endResetModel()
            return
        self._ev = ev
        if queries is None:
            self._status = _main_statuses(ev)
        else:
            for q in queries:
                self._status[q] = ev.status(q, 0)
        if old.conventions.cutoffs[0] != ev.conventions.cutoffs[0]:
            self.headerDataChanged.emit(Qt.Orientation.Horizontal, QueryColumn.NDCG,
                                        QueryColumn.NDCG)
        last = len(QueryColumn) - 1
        if queries is None:
            if self.rowCount():
                self.dataChanged.emit(self.index(0, 0), self.index(self.rowCount() - 1, last))
            return
        for q in queries:
            self.dataChanged.emit(self.index(q, 0), self.index(q, last))

    @property
    def evaluation(self) -> Evaluation | None:
        return self._ev

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else self._rows

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else self._columns

    def set_runs(self, runs: RunColumns | None) -> None:
        """Show (or, with None, hide) the columns of the runs compared."""
        self.beginResetModel()
        self._set_runs(runs)
        self.endResetModel()

    def _set_runs(self, runs: RunColumns | None) -> None:
        self._runs = runs
        self._columns = len(QueryColumn) + (0 if runs is None else 2 * len(runs.labels))

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = DISPLAY) -> Any:
        if orientation == Qt.Orientation.Horizontal and self._runs is not None and (
                section >= len(QueryColumn)):
            return self._runs.header(section - len(QueryColumn), role)
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(QueryColumn):
            return None
        col = QueryColumn(section)
        k = format_cutoff(self._ev.cutoffs[0]) if self._ev is not None else "k"
        if role == DISPLAY:
            return {
                QueryColumn.QUERY: self.tr("Query"),
                QueryColumn.NDCG: f"NDCG@{k}",
                QueryColumn.STATUS: self.tr("Status"),
                QueryColumn.JUDGED: self.tr("Judged"),
            }[col]
        if role == TOOLTIP:
            return {
                QueryColumn.QUERY: self.tr("The query's id"),
                QueryColumn.NDCG: f"NDCG@{k} = DCG@{k} / ideal DCG@{k} (the main, first cutoff)",
                QueryColumn.STATUS: STATUS_TOOLTIP,
                QueryColumn.JUDGED: self.tr("candidates with a numeric grade / all candidates"),
            }[col]
        return None

    def data(self, index: Index, role: int = DISPLAY) -> Any:
        ev = self._ev
        # The roles answered first: a view asks ~8 per cell it measures or paints.
        if ev is None or role not in _ROLES or not index.isValid():
            return None
        return self._answer(ev, index.row(), index.column(), role)

    def multiData(self, index: Index, roleDataSpan: QModelRoleDataSpan | QModelRoleData) -> None:
        """The roles of ``index``'s cell asked at once, answered as :meth:`data`
        answers each: a painted cell asks seven (``initStyleOption``), each a
        call into Python through Qt's own ``multiData`` (as the grid's
        :meth:`CandidateModel.multiData`, hopen14); here one. Every role asked
        is answered or cleared: Qt hands one span from cell to cell."""
        # (PySide's stubs give the span no indexing; a single role's data may come too)
        span: Any = [roleDataSpan] if isinstance(roleDataSpan, QModelRoleData) else roleDataSpan
        ev = self._ev if index.isValid() else None
        q, column = index.row(), index.column()
        for n in range(len(span)):
            asked = span[n]
            role = asked.role()
            answer = self._answer(ev, q, column, role) if ev is not None and (
                role in _ROLES) else None
            if answer is None:
                asked.clearData()
            else:
                asked.setData(answer)

    def _answer(self, ev: Evaluation, q: int, column: int, role: int) -> Any:
        """Role ``role`` of query ``q``'s cell in ``column`` (one of :data:`_ROLES`)."""
        if column >= len(_COLUMNS):
            runs = self._runs
            return None if runs is None else runs.cell(q, column - len(_COLUMNS), role)
        col = _COLUMNS[column]
        status = self._status[q]
        look = STATUS_LOOK[status]
        if role == WHOLE_ROLE and col is QueryColumn.QUERY:
            return ev.doc.query_ids[q]
        if role == DISPLAY:
            return self._display(ev, q, col, status)
        if role == SORT_ROLE:
            if col is QueryColumn.QUERY:
                return ev.doc.query_ids[q]
            if col is QueryColumn.NDCG:
                v = ev.ndcg[q, 0]
                return -1.0 if math.isnan(v) else float(v)
            if col is QueryColumn.STATUS:
                return int(ev.status_code[q, 0])
            total = int(ev.n_total[q])
            return float(ev.n_judged[q]) / total if total else 0.0
        if role == Qt.ItemDataRole.ForegroundRole and col in (QueryColumn.STATUS,
                                                               QueryColumn.NDCG):
            return None if status is Status.OK and col is QueryColumn.NDCG else brush(look.tone)
        if role == Qt.ItemDataRole.FontRole:
            return _font(col, status)
        if role == TOOLTIP:
            if col is QueryColumn.QUERY:  # (its text whole, where it has one)
                text = ev.doc.query_text(q)
                return query_tip(ev.doc.query_ids[q], text) if text else (
                    id_note(ev.doc.query_ids[q]) or None)
            if col is QueryColumn.NDCG and status is Status.OK:
                return full_text(ev.ndcg[q, 0])
            if col in (QueryColumn.STATUS, QueryColumn.NDCG):
                return f"{look.text}: {status.reason}"
            if col is QueryColumn.JUDGED:
                why = ev.doc.unknown_reasons(ev.doc.members(q))  # (declined by all: said)
                return (f"{int(ev.n_judged[q])} judged, "
                        f"{unknown_counted(int(ev.n_unknown[q]), why)}, "
                        f"{int(ev.n_unrateable[q])} unrateable of {int(ev.n_total[q])}")
        if role == Qt.ItemDataRole.TextAlignmentRole and col is not QueryColumn.QUERY:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def shown(self, rows: Sequence[int], column: int) -> list[tuple[Any, QFont | None]]:
        """Each of ``rows``' cells in ``column`` as :meth:`data` answers its
        display and font roles, worked out from the evaluation's arrays
        without a ``QModelIndex``: the navigator's column fit measures 200
        rows a column, and each cell asked through the proxy's ``data`` took
        ~10 us (2,318 calls, ~26 ms of the launch's arrival: hopen8)."""
        ev, runs = self._ev, self._runs
        if ev is None or not 0 <= column < self._columns:
            return [(None, None)] * len(rows)
        if column >= len(_COLUMNS):
            assert runs is not None
            extra = column - len(_COLUMNS)
            return [(runs.cell(q, extra, DISPLAY), None) for q in rows]
        col, statuses = _COLUMNS[column], self._status
        return [(self._display(ev, q, col, statuses[q]), _font(col, statuses[q]))
                for q in rows]

    @staticmethod
    def _display(ev: Evaluation, q: int, col: QueryColumn, status: Status) -> Any:
        """The display role of query ``q``'s cell in ``col``."""
        if col is QueryColumn.QUERY:
            return shown_query(ev.doc.query_ids[q], ev.doc.query_text(q), CELL_SHOWN)
        if col is QueryColumn.NDCG:
            return qt_number(ev.ndcg[q, 0]) if status is Status.OK else STATUS_LOOK[status].text
        if col is QueryColumn.STATUS:
            return STATUS_LOOK[status].label
        return f"{int(ev.n_judged[q])}/{int(ev.n_total[q])}"


def _font(col: QueryColumn, status: Status) -> QFont | None:
    """The font role of a cell in ``col`` of a query of ``status``: a status
    said in the NDCG column in italics."""
    return ITALIC if status is not Status.OK and col is QueryColumn.NDCG else None


class RunColumns:
    """Runs compared with the open document, as navigator columns: per run
    its NDCG and its delta to the document (the baseline), per document query
    (NaN where the run lacks the query or it is not compared).

    ``labels`` name the runs (``B``, ``C``, ...), ``names`` their files;
    ``ndcg`` and ``delta`` are (runs x the document's queries).
    """

    def __init__(self, labels: Sequence[str], names: Sequence[str], k: int | None,
                 ndcg: Any, delta: Any) -> None:
        self.labels, self.names, self.k = list(labels), list(names), k
        self.ndcg, self.delta = ndcg, delta

    def header(self, extra: int, role: int) -> Any:
        r, is_delta = divmod(extra, 2)
        at = format_cutoff(self.k)
        if role == DISPLAY:
            return f"Δ {self.labels[r]}" if is_delta else f"NDCG@{at} {self.labels[r]}"
        if role == TOOLTIP:
            name = self.names[r]
            return (f"NDCG@{at} of {name} minus this document's, over the queries compared"
                    if is_delta else f"NDCG@{at} of {name} (graded with this document)")
        return None

    def cell(self, q: int, extra: int, role: int) -> Any:
        r, is_delta = divmod(extra, 2)
        value = float((self.delta if is_delta else self.ndcg)[r, q])
        if role == DISPLAY:
            return qt_number(value)
        if role == SORT_ROLE:
            return -math.inf if math.isnan(value) else value
        if role == TOOLTIP:
            return full_text(value)
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None


class QueryFilterProxy(QSortFilterProxyModel):
    """Filter queries by text (in the id or the query's text) and by
    status; sort by raw values."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._text: tuple[str, ...] = ("",)  # (app.shown.typed)
        self._statuses: frozenset[Status] = frozenset(Status)
        self.setSortRole(SORT_ROLE)

    def multiData(self, index: Index, roleDataSpan: QModelRoleDataSpan | QModelRoleData) -> None:
        """The roles of ``index``'s cell asked of the source's own
        :meth:`QueryListModel.multiData`, one call a painted cell: Qt's
        ``QSortFilterProxyModel`` does not forward ``multiData`` (Qt's
        ``QAbstractItemModel::multiData`` asks the proxy's ``data`` a role at
        a time, each mapped to the source's ``data``: 7 calls into Python a
        cell painted)."""
        source = self.sourceModel()
        if source is None:
            super().multiData(index, roleDataSpan)
            return
        source.multiData(self.mapToSource(index), roleDataSpan)

    def _refilter(self, change: Any) -> None:
        # Qt 6.9 replaced invalidateFilter by begin/endFilterChange.
        if hasattr(self, "beginFilterChange"):
            self.beginFilterChange()
            change()
            self.endFilterChange(QSortFilterProxyModel.Direction.Rows)
        else:  # pragma: no cover - older Qt
            change()
            self.invalidateFilter()

    def set_text(self, text: str) -> None:
        self._refilter(lambda: setattr(self, "_text", typed(text.strip().casefold())))

    def set_statuses(self, statuses: set[Status] | frozenset[Status]) -> None:
        self._refilter(lambda: setattr(self, "_statuses", frozenset(statuses)))

    @property
    def statuses(self) -> frozenset[Status]:
        return self._statuses

    def filterAcceptsRow(self, source_row: int, source_parent: Index) -> bool:
        # Asked for every query at each new document (2,000 calls at 2,000
        # queries): with no text typed and every status ticked, nothing to look
        # up (the statuses' count kept: the enum's len, a Python call a row,
        # took a pass over 2,000 queries from 1.2 to 3.3 ms: hopen8).
        if not self._text[0] and len(self._statuses) == _STATUSES:
            return True
        model = self.sourceModel()
        if not isinstance(model, QueryListModel) or model.evaluation is None:
            return True
        ev = model.evaluation
        if self._text[0] and not (
                holds(ev.doc.query_ids[source_row].casefold(), self._text)
                or holds(ev.doc.query_text(source_row).casefold(), self._text)):
            return False
        return ev.status(source_row, 0) in self._statuses
