"""Qt models: thin adapters over :class:`core.engine.Evaluation`.

Models return raw numbers (full precision); delegates round for display. The
grid model shows one query at a time and keeps only that query's row indices,
so opening a large document builds nothing per candidate.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import Any

import numpy as np
import numpy.typing as npt
from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
    Signal,
)
from PySide6.QtGui import QBrush, QColor, QFont

from core.engine.evaluation import Evaluation, Status
from core.model.conventions import Conventions, Rubric, format_cutoff
from core.model.document import AuditEntry, Document, GradeState, grade_text
from core.model.grades import PastedGrade, read_grade

__all__ = [
    "CANDIDATE_ROLE",
    "CHOICES_ROLE",
    "LABEL_ROLE",
    "SORT_ROLE",
    "STATUS_LOOK",
    "TIE_ROLE",
    "AuditColumn",
    "AuditModel",
    "CandidateModel",
    "CutoffColumn",
    "CutoffResultsModel",
    "GridColumn",
    "PairTableModel",
    "QueryColumn",
    "QueryFilterProxy",
    "QueryListModel",
    "StatusLook",
    "parse_grade_text",
]

Index = QModelIndex | QPersistentModelIndex
DISPLAY = Qt.ItemDataRole.DisplayRole
EDIT = Qt.ItemDataRole.EditRole
TOOLTIP = Qt.ItemDataRole.ToolTipRole
#: A plain value to sort by (numbers; undetermined values sort first).
SORT_ROLE = Qt.ItemDataRole.UserRole + 1
#: Where a ranked row sits in its tie group: "first", "middle", "last" or None.
TIE_ROLE = Qt.ItemDataRole.UserRole + 2
#: The candidate's row index in the document.
CANDIDATE_ROLE = Qt.ItemDataRole.UserRole + 3
#: The rubric label of a numeric grade ("" when it has none).
LABEL_ROLE = Qt.ItemDataRole.UserRole + 4
#: The grades a grade editor offers: [(text, grade or None, state)].
CHOICES_ROLE = Qt.ItemDataRole.UserRole + 5

_ITALIC = QFont()
_ITALIC.setItalic(True)
_GREY = QBrush(QColor("#6b6b6b"))
_UNRATEABLE = QBrush(QColor("#7a3e9d"))
_OUTSIDE = QBrush(QColor("#ffd8a8"))
_TIE_SHADES = (QBrush(QColor("#e7f0fb")), QBrush(QColor("#d4e4f7")))


@dataclass(frozen=True)
class StatusLook:
    """How a status is shown: a symbol and a word as well as a colour."""

    symbol: str
    text: str
    colour: str

    @property
    def label(self) -> str:
        return f"{self.symbol} {self.text}"


STATUS_LOOK: dict[Status, StatusLook] = {
    Status.OK: StatusLook("✓", "ok", "#1b7f3b"),
    Status.UNDEFINED: StatusLook("∅", "undefined", "#7a5c00"),
    Status.UNRESOLVED: StatusLook("?", "unresolved", "#b3261e"),
}


def _num(value: float) -> float | None:
    """A float for Qt, None where the value is not determined (NaN)."""
    value = float(value)
    return None if math.isnan(value) else value


def _full(value: float) -> str:
    """Full-precision text of a number (repr round-trips)."""
    return "—" if math.isnan(value) else repr(float(value))


def _same(a: Any, b: Any) -> bool:
    """Two numbers are the same (NaN is the same as NaN)."""
    return bool(a == b) or (a != a and b != b)


def _differs(a: npt.NDArray[np.float64], b: npt.NDArray[np.float64]) -> npt.NDArray[np.bool_]:
    """Where two float arrays differ (NaN equals NaN)."""
    out: npt.NDArray[np.bool_] = (a != b) & ~(np.isnan(a) & np.isnan(b))
    return out


def parse_grade_text(text: str, rubric: Rubric | None) -> PastedGrade:
    """Read what a reviewer typed as a grade.

    The grammar of pasted cells (:func:`core.model.grades.read_grade`: a number,
    a rubric label, ``unknown``, ``N/A`` or ``unrateable: reason``), a number
    outside the rubric allowed, plus what the grade editor lists: a number
    followed by its label (``2 - substantial support``) and ``x`` for
    unrateable.

    Raises
    ------
    ValueError
        When the text is none of these.
    """
    raw = text.strip()
    if raw.casefold() == "x":
        return PastedGrade(None, GradeState.UNRATEABLE)
    head, sep, _ = raw.partition(" - ")
    if sep:
        try:
            return read_grade(head, rubric, outside_rubric=True)
        except ValueError:
            pass
    return read_grade(raw, rubric, outside_rubric=True)


# -- the query navigator ---------------------------------------------------------------
class QueryColumn(IntEnum):
    QUERY = 0
    NDCG = 1
    STATUS = 2
    JUDGED = 3


class QueryListModel(QAbstractTableModel):
    """Every query with its NDCG at the main (first) cutoff, status and judged count."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._ev: Evaluation | None = None

    def set_evaluation(self, ev: Evaluation, *, queries: Sequence[int] | None = None) -> None:
        """Show ``ev``; when only ``queries`` changed, only their rows are refreshed."""
        old = self._ev
        if old is None or old.doc is not ev.doc:
            self.beginResetModel()
            self._ev = ev
            self.endResetModel()
            return
        self._ev = ev
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
        if parent.isValid() or self._ev is None:
            return 0
        return self._ev.doc.n_queries

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(QueryColumn)

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = DISPLAY) -> Any:
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
                QueryColumn.STATUS: self.tr("ok, undefined (ideal DCG 0) or unresolved "
                                            "(unknown grades)"),
                QueryColumn.JUDGED: self.tr("candidates with a numeric grade / all candidates"),
            }[col]
        return None

    def data(self, index: Index, role: int = DISPLAY) -> Any:
        ev = self._ev
        if ev is None or not index.isValid():
            return None
        q, col = index.row(), QueryColumn(index.column())
        status = ev.status(q, 0)
        look = STATUS_LOOK[status]
        if role == DISPLAY:
            if col is QueryColumn.QUERY:
                return ev.doc.query_ids[q]
            if col is QueryColumn.NDCG:
                return _num(ev.ndcg[q, 0]) if status is Status.OK else look.text
            if col is QueryColumn.STATUS:
                return look.label
            return f"{int(ev.n_judged[q])}/{int(ev.n_total[q])}"
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
            return None if status is Status.OK and col is QueryColumn.NDCG else QBrush(
                QColor(look.colour))
        if role == Qt.ItemDataRole.FontRole and status is not Status.OK and (
                col is QueryColumn.NDCG):
            return _ITALIC
        if role == TOOLTIP:
            if col is QueryColumn.NDCG and status is Status.OK:
                return _full(ev.ndcg[q, 0])
            if col in (QueryColumn.STATUS, QueryColumn.NDCG):
                return f"{look.text}: {status.reason}"
            if col is QueryColumn.JUDGED:
                return (f"{int(ev.n_judged[q])} judged, {int(ev.n_unknown[q])} unknown, "
                        f"{int(ev.n_unrateable[q])} unrateable of {int(ev.n_total[q])}")
        if role == Qt.ItemDataRole.TextAlignmentRole and col is not QueryColumn.QUERY:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None


class QueryFilterProxy(QSortFilterProxyModel):
    """Filter queries by text (in the id) and by status; sort by raw values."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._text = ""
        self._statuses: frozenset[Status] = frozenset(Status)
        self.setSortRole(SORT_ROLE)

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
        self._refilter(lambda: setattr(self, "_text", text.strip().casefold()))

    def set_statuses(self, statuses: set[Status] | frozenset[Status]) -> None:
        self._refilter(lambda: setattr(self, "_statuses", frozenset(statuses)))

    @property
    def statuses(self) -> frozenset[Status]:
        return self._statuses

    def filterAcceptsRow(self, source_row: int, source_parent: Index) -> bool:
        model = self.sourceModel()
        if not isinstance(model, QueryListModel) or model.evaluation is None:
            return True
        ev = model.evaluation
        if self._text and self._text not in ev.doc.query_ids[source_row].casefold():
            return False
        return ev.status(source_row, 0) in self._statuses


# -- the candidate grid ------------------------------------------------------------------
class GridColumn(IntEnum):
    RANK = 0
    SOURCE = 1
    VERSION = 2
    SCORE = 3
    GRADE = 4
    STATE = 5
    GAIN = 6
    DISCOUNT = 7
    CONTRIBUTION = 8
    CUMULATIVE = 9
    IDEAL_RANK = 10
    IDEAL_GAIN = 11
    IDEAL_CONTRIBUTION = 12


_GRID_COLUMNS: tuple[GridColumn, ...] = tuple(GridColumn)
#: The roles the grid answers; painting asks for many more, answered at once.
_GRID_ROLES = frozenset({
    DISPLAY, EDIT, TOOLTIP, SORT_ROLE, TIE_ROLE, CANDIDATE_ROLE, LABEL_ROLE, CHOICES_ROLE,
    Qt.ItemDataRole.BackgroundRole, Qt.ItemDataRole.FontRole, Qt.ItemDataRole.ForegroundRole,
    Qt.ItemDataRole.TextAlignmentRole,
})
_STATES: tuple[GradeState, ...] = tuple(GradeState)
GRID_TITLES = {
    GridColumn.RANK: "Rank",
    GridColumn.SOURCE: "Source",
    GridColumn.VERSION: "Version",
    GridColumn.SCORE: "Score",
    GridColumn.GRADE: "Grade",
    GridColumn.STATE: "Grade state",
    GridColumn.GAIN: "Gain",
    GridColumn.DISCOUNT: "Discount",
    GridColumn.CONTRIBUTION: "Contribution",
    GridColumn.CUMULATIVE: "Cumulative DCG",
    GridColumn.IDEAL_RANK: "Ideal rank",
    GridColumn.IDEAL_GAIN: "Ideal gain",
    GridColumn.IDEAL_CONTRIBUTION: "Ideal contribution",
}

#: Columns whose values come from the grade (what a grade edit touches).
DERIVED = (GridColumn.RANK, *range(GridColumn.GRADE, len(GridColumn)))


def column_formula(col: GridColumn, c: Conventions) -> str:
    """The header tooltip: what the column holds under conventions ``c``."""
    texts = {
        GridColumn.RANK: f"1-based position in the ranked list: score descending; ties: "
                         f"{c.ties.label} ({c.ties.formula})",
        GridColumn.SOURCE: "the candidate's source id",
        GridColumn.VERSION: "the source's version",
        GridColumn.SCORE: "the ranker's predicted score (full precision on hover); "
                          "not a grade",
        GridColumn.GRADE: "the reviewer's grade (a judgment): a number, unknown or unrateable; "
                          "digits set it, U/Delete = unknown, X = unrateable",
        GridColumn.STATE: "number, unknown (never judged) or unrateable (looked at, "
                          "could not be judged); outside-rubric grades are flagged",
        GridColumn.GAIN: f"{c.gain.formula}; {c.unknown.formula}",
        GridColumn.DISCOUNT: f"{c.discount.formula}; ties: {c.ties.formula}",
        GridColumn.CONTRIBUTION: "contribution = gain × discount",
        GridColumn.CUMULATIVE: "cumulative DCG at rank r = sum of the contributions at "
                               "ranks 1..r (the whole list)",
        GridColumn.IDEAL_RANK: f"position in the ideal list; {c.ideal.formula}",
        GridColumn.IDEAL_GAIN: "the gain this candidate brings to the ideal list "
                               f"({c.gain.formula})",
        GridColumn.IDEAL_CONTRIBUTION: "ideal contribution = ideal gain × discount(ideal rank) "
                                       f"= ideal gain / log2(ideal rank + 1); {c.ideal.label}",
    }
    return texts[col]


class CandidateModel(QAbstractTableModel):
    """One query's candidates, a row each.

    ``section="ranked"`` lists the retrieved candidates in evaluated order
    (those removed from the ranking by the condensed rule last);
    ``section="not_retrieved"`` lists the judged-but-not-retrieved ones.
    Grade edits are not applied here: :meth:`setData` emits
    :attr:`grade_edit_requested` and the window pushes an undo command.
    """

    #: (candidate index, grade or None, state, unrateable reason or None) asked
    #: for by an edit.
    grade_edit_requested = Signal(int, object, int, object)

    def __init__(self, section: str = "ranked", parent: Any = None) -> None:
        super().__init__(parent)
        if section not in ("ranked", "not_retrieved"):
            raise ValueError(section)
        self.section = section
        self._ev: Evaluation | None = None
        self._q = -1
        self._rows: npt.NDArray[np.int64] = np.zeros(0, dtype=np.int64)
        self._cumulative: npt.NDArray[np.float64] = np.zeros(0)
        self._tie: dict[int, tuple[str, int, int, int]] = {}
        self._rubric = Rubric.from_values((0.0, 1.0))

    # -- feeding ----------------------------------------------------------------------
    @property
    def query(self) -> int:
        return self._q

    @property
    def evaluation(self) -> Evaluation | None:
        return self._ev

    def candidate(self, row: int) -> int:
        """The document row index shown at ``row``."""
        return int(self._rows[row])

    def row_of(self, candidate: int) -> int | None:
        hits = np.flatnonzero(self._rows == candidate)
        return int(hits[0]) if hits.size else None

    def candidates(self) -> npt.NDArray[np.int64]:
        return self._rows.copy()

    def _compute_rows(self, ev: Evaluation, q: int) -> npt.NDArray[np.int64]:
        if q < 0 or q >= ev.doc.n_queries:
            return np.zeros(0, dtype=np.int64)
        if self.section == "not_retrieved":
            return ev.not_retrieved(q).astype(np.int64)
        ranked = ev.ranked(q)
        members = ev.doc.members(q)
        dropped = members[~np.isnan(ev.doc.score[members]) & (ev.rank[members] == 0)]
        return np.concatenate([ranked, dropped]).astype(np.int64)

    def _derive(self, ev: Evaluation, q: int, *, same_order: bool = False) -> None:
        """Per-query values the cells look up. ``same_order``: the rows and the
        tie rule are as before, so the tie groups (which follow the scores of
        the ranked rows only) are kept."""
        self._rubric = ev.conventions.rubric_for(ev.doc.grade)
        if self.section != "ranked" or q < 0:
            self._tie = {}
            self._cumulative = np.zeros(0)
            return
        self._cumulative = ev.cumulative_dcg(q)
        if same_order:
            return
        self._tie = {}
        ranked = ev.ranked(q)
        for n, (a, b) in enumerate(ev.tie_groups(q)):
            for r in range(a, b + 1):
                place = "first" if r == a else "last" if r == b else "middle"
                self._tie[int(ranked[r - 1])] = (place, a, b, n)

    def set_evaluation(self, ev: Evaluation, q: int | None = None,
                       *, changed: Sequence[int] | None = None) -> None:
        """Show query ``q`` (default: the current one) of ``ev``.

        With ``changed`` (candidate indices whose grade changed) and the same
        query and document, rows keep their place where the order is the same
        and only derived columns are refreshed.
        """
        q = self._q if q is None else q
        old = self._ev
        new_rows = self._compute_rows(ev, q)
        same_frame = old is not None and old.doc is ev.doc and q == self._q and (
            new_rows.size == self._rows.size)
        if not same_frame or changed is None:
            self.beginResetModel()
            self._ev, self._q, self._rows = ev, q, new_rows
            self._derive(ev, q)
            self.endResetModel()
            return
        if np.array_equal(new_rows, self._rows):
            old_cumulative = self._cumulative
            self._ev = ev
            self._derive(ev, q, same_order=old is not None and (
                old.conventions.ties is ev.conventions.ties))
            self._emit_changed(ev, changed, old, old_cumulative)
            return
        # The order changed (tie rule by gain, condensed list): move rows, keep selection.
        self.layoutAboutToBeChanged.emit()
        where = {int(c): r for r, c in enumerate(new_rows)}
        old_rows = self._rows
        for pidx in self.persistentIndexList():
            moved = where[int(old_rows[pidx.row()])]
            self.changePersistentIndex(pidx, self.index(moved, pidx.column()))
        self._ev, self._rows = ev, new_rows
        self._derive(ev, q)
        self.layoutChanged.emit()
        self._emit_changed(ev, None)

    def _emit_changed(self, ev: Evaluation, changed: Sequence[int] | None,
                      old: Evaluation | None = None,
                      old_cumulative: npt.NDArray[np.float64] | None = None) -> None:
        """Tell the views which cells an edit changed.

        A view repaints the bounding box of every range it is told about, and
        a painted cell costs several calls into Python; so beyond the edited
        rows' own cells, only the shared-column cells whose value really
        changed are named (cumulative DCG below the edit, the ideal ranks and
        ideal contributions that moved).
        """
        if not self._rows.size:
            return
        last = len(GridColumn) - 1
        rank_dependent = ev.conventions.ties.value in ("pessimistic", "optimistic") or (
            ev.conventions.unknown.value == "condensed")
        rows = [r for r in (self.row_of(c) for c in changed or ()) if r is not None]
        if changed is None or rank_dependent or old is None or (
                old.conventions != ev.conventions):
            self.dataChanged.emit(self.index(0, GridColumn.RANK), self.index(
                self._rows.size - 1, last))
            return
        # The edited rows' own cells.
        for r in rows:
            self.dataChanged.emit(self.index(r, GridColumn.GRADE), self.index(r, last))
        ids = self._rows
        if old_cumulative is not None and old_cumulative.size == self._cumulative.size:
            self._emit_runs(GridColumn.CUMULATIVE, GridColumn.CUMULATIVE,
                            _differs(old_cumulative, self._cumulative))
        else:
            self._emit_runs(GridColumn.CUMULATIVE, GridColumn.CUMULATIVE,
                            np.ones(ids.size, dtype=bool))
        moved = old.ideal_rank[ids] != ev.ideal_rank[ids]
        moved |= _differs(old.ideal_contribution[ids], ev.ideal_contribution[ids])
        self._emit_runs(GridColumn.IDEAL_RANK, GridColumn.IDEAL_CONTRIBUTION, moved)

    def _emit_runs(self, first: int, last: int, mask: npt.NDArray[np.bool_]) -> None:
        """One dataChanged from the first to the last row set in ``mask`` (the
        grid view cuts it to the rows on screen)."""
        rows = np.flatnonzero(mask)
        if rows.size:
            self.dataChanged.emit(self.index(int(rows[0]), first),
                                  self.index(int(rows[-1]), last))

    # -- Qt model API -----------------------------------------------------------------
    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else int(self._rows.size)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(GridColumn)

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = DISPLAY) -> Any:
        if orientation == Qt.Orientation.Vertical:
            return section + 1 if role == DISPLAY else None
        if not 0 <= section < len(GridColumn):
            return None
        col = GridColumn(section)
        if role == DISPLAY:
            return self.tr(GRID_TITLES[col])
        if role == TOOLTIP and self._ev is not None:
            return column_formula(col, self._ev.conventions)
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        base = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        if index.column() in (GridColumn.GRADE, GridColumn.SCORE):
            # The score's editor is read-only: it shows the full precision.
            base |= Qt.ItemFlag.ItemIsEditable
        return base

    def data(self, index: Index, role: int = DISPLAY) -> Any:
        ev = self._ev
        if ev is None or role not in _GRID_ROLES or not index.isValid() or (
                not 0 <= index.row() < self._rows.size):
            return None
        i = int(self._rows[index.row()])
        col = _GRID_COLUMNS[index.column()]
        doc = ev.doc
        state = _STATES[int(doc.state[i])]
        if role == CANDIDATE_ROLE:
            return i
        if role in (DISPLAY, SORT_ROLE):
            return self._value(ev, i, index.row(), col, state)
        if role == EDIT:
            if col is GridColumn.GRADE:
                return grade_text(float(doc.grade[i]), int(state))
            if col is GridColumn.SCORE:
                return _full(doc.score[i])
            return self._value(ev, i, index.row(), col, state)
        if role == TOOLTIP:
            return self._tooltip(ev, i, index.row(), col, state)
        if role == LABEL_ROLE and col is GridColumn.GRADE:
            if state is not GradeState.NUMBER:
                return ""
            label = self._rubric.label_for(float(doc.grade[i]))
            return label or ""
        if role == CHOICES_ROLE and col is GridColumn.GRADE:
            rubric = self._rubric
            choices: list[tuple[str, float | None, int]] = [
                (grade_text(g.value, 0) + (f" - {g.label}" if g.label else ""), g.value, 0)
                for g in rubric.grades
            ]
            choices += [("unknown", None, int(GradeState.UNKNOWN)),
                        ("unrateable", None, int(GradeState.UNRATEABLE))]
            return choices
        if role == TIE_ROLE and col is GridColumn.RANK:
            tie = self._tie.get(i)
            return tie[0] if tie else None
        if role == Qt.ItemDataRole.BackgroundRole:
            if col in (GridColumn.GRADE, GridColumn.STATE) and ev.outside_rubric[i]:
                return _OUTSIDE
            tie = self._tie.get(i)
            if tie is not None and col in (GridColumn.RANK, GridColumn.SCORE):
                return _TIE_SHADES[tie[3] % 2]
            return None
        if role == Qt.ItemDataRole.FontRole and self._is_state_text(ev, i, col, state):
            return _ITALIC
        if role == Qt.ItemDataRole.ForegroundRole and self._is_state_text(ev, i, col, state):
            return _UNRATEABLE if state is GradeState.UNRATEABLE else _GREY
        if role == Qt.ItemDataRole.TextAlignmentRole and col not in (
                GridColumn.SOURCE, GridColumn.VERSION, GridColumn.STATE, GridColumn.GRADE):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    @staticmethod
    def _is_state_text(ev: Evaluation, i: int, col: GridColumn, state: GradeState) -> bool:
        if col in (GridColumn.GRADE, GridColumn.STATE):
            return state is not GradeState.NUMBER
        if col in (GridColumn.GAIN, GridColumn.CONTRIBUTION, GridColumn.IDEAL_GAIN,
                   GridColumn.IDEAL_CONTRIBUTION):
            return math.isnan(ev.gain[i]) and state is not GradeState.NUMBER
        return False

    def _value(self, ev: Evaluation, i: int, row: int, col: GridColumn,
               state: GradeState) -> Any:
        doc = ev.doc
        if col is GridColumn.RANK:
            r = int(ev.rank[i])
            return r if r else None
        if col is GridColumn.SOURCE:
            return str(doc.source_id[i])
        if col is GridColumn.VERSION:
            return str(doc.version[i])
        if col is GridColumn.SCORE:
            return _num(doc.score[i])
        if col is GridColumn.GRADE:
            return float(doc.grade[i]) if state is GradeState.NUMBER else state.label
        if col is GridColumn.STATE:
            return "outside rubric" if ev.outside_rubric[i] else state.label
        if col is GridColumn.GAIN:
            return self._gain_value(ev.gain[i], state)
        if col is GridColumn.DISCOUNT:
            return _num(ev.discount[i])
        if col is GridColumn.CONTRIBUTION:
            if not ev.ranked_mask[i]:
                return None
            return self._gain_value(ev.contribution[i], state)
        if col is GridColumn.CUMULATIVE:
            return _num(self._cumulative[row]) if row < self._cumulative.size else None
        if col is GridColumn.IDEAL_RANK:
            r = int(ev.ideal_rank[i])
            return r if r else None
        if col is GridColumn.IDEAL_GAIN:
            if not ev.inventory_mask[i]:
                return None
            return self._gain_value(ev.gain[i], state)
        if not ev.inventory_mask[i]:
            return None
        return self._gain_value(ev.ideal_contribution[i], state)

    @staticmethod
    def _gain_value(value: float, state: GradeState) -> Any:
        if math.isnan(value):
            return state.label if state is not GradeState.NUMBER else None
        return float(value)

    def _tooltip(self, ev: Evaluation, i: int, row: int, col: GridColumn,
                 state: GradeState) -> str | None:
        doc = ev.doc
        c = ev.conventions
        if col is GridColumn.RANK:
            tie = self._tie.get(i)
            if not ev.rank[i]:
                return "not ranked: " + c.unknown.formula
            if tie is not None:
                return (f"tied with ranks {tie[1]}-{tie[2]} (score {_full(doc.score[i])}); "
                        f"ties: {c.ties.label}")
            return f"rank {int(ev.rank[i])}"
        if col is GridColumn.SCORE:
            return _full(doc.score[i])
        if col in (GridColumn.GRADE, GridColumn.STATE):
            parts = []
            if state is GradeState.UNRATEABLE:
                parts.append(f"unrateable: {doc.reason[i] or 'no reason given'}")
            elif state is GradeState.UNKNOWN:
                parts.append("unknown: never judged (not 0)")
            else:
                rubric = self._rubric
                label = rubric.label_for(float(doc.grade[i]))
                parts.append(f"grade {_full(doc.grade[i])}" + (f": {label}" if label else ""))
                if ev.outside_rubric[i]:
                    parts.append(f"outside the rubric ({c.rubric.text if c.rubric else ''})")
            original = grade_text(float(doc.original_grade[i]), int(doc.original_state[i]))
            current = grade_text(float(doc.grade[i]), int(state))
            if original != current:
                parts.append(f"originally {original}")
            if doc.note[i]:
                parts.append(f"note: {doc.note[i]}")
            return "; ".join(parts)
        if col is GridColumn.GAIN:
            return f"{c.gain.formula}: {_full(ev.gain[i])}"
        if col is GridColumn.DISCOUNT:
            return f"{c.discount.formula}: {_full(ev.discount[i])}"
        if col is GridColumn.CONTRIBUTION:
            return (f"gain × discount = {_full(ev.gain[i])} × {_full(ev.discount[i])} = "
                    f"{_full(ev.contribution[i])}")
        if col is GridColumn.CUMULATIVE and row < self._cumulative.size:
            return (f"sum of contributions at ranks 1..{int(ev.rank[i])} = "
                    f"{_full(self._cumulative[row])}")
        if col is GridColumn.IDEAL_RANK:
            return (f"ideal rank {int(ev.ideal_rank[i])}" if ev.ideal_rank[i] else
                    "not in the ideal list") + f" ({c.ideal.label})"
        if col is GridColumn.IDEAL_GAIN:
            return f"{c.gain.formula}: {_full(ev.gain[i])}"
        if col is GridColumn.IDEAL_CONTRIBUTION:
            return (f"ideal gain × discount(ideal rank {int(ev.ideal_rank[i])}) = "
                    f"{_full(ev.ideal_contribution[i])}")
        return None

    def setData(self, index: Index, value: Any, role: int = EDIT) -> bool:
        if (self._ev is None or role != EDIT or not index.isValid()
                or index.column() != GridColumn.GRADE):
            return False
        reason: str | None = None  # None: the window asks for an unrateable reason
        if isinstance(value, tuple):
            grade, state = value
        else:
            try:
                got = parse_grade_text(str(value), self._rubric)
            except ValueError:
                return False
            grade, state, reason = got.grade, got.state, got.reason or None
        self.grade_edit_requested.emit(int(self._rows[index.row()]), grade, int(state), reason)
        return True


# -- the summary's per-cutoff table ------------------------------------------------------
class CutoffColumn(IntEnum):
    K = 0
    DCG = 1
    IDCG = 2
    NDCG = 3
    STATUS = 4


class CutoffResultsModel(QAbstractTableModel):
    """One query's DCG, ideal DCG and NDCG at every declared cutoff."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._ev: Evaluation | None = None
        self._q = -1

    def set_query(self, ev: Evaluation, q: int) -> None:
        if self._ev is None or len(ev.cutoffs) != self.rowCount() or q < 0 or self._q < 0:
            self.beginResetModel()
            self._ev, self._q = ev, q
            self.endResetModel()
            return
        old, same_query = self._ev, q == self._q and self._ev is not None
        self._ev, self._q = ev, q
        last = len(CutoffColumn) - 1
        for j in range(self.rowCount()):
            # Only rows whose numbers or status changed are repainted.
            if same_query and old is not None and old.cutoffs[j] == ev.cutoffs[j] and all(
                    _same(a[q, j], b[q, j]) for a, b in (
                        (old.dcg, ev.dcg), (old.idcg, ev.idcg), (old.ndcg, ev.ndcg),
                        (old.status_code, ev.status_code))):
                continue
            self.dataChanged.emit(self.index(j, 0), self.index(j, last))

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        if parent.isValid() or self._ev is None or self._q < 0:
            return 0
        return len(self._ev.cutoffs)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(CutoffColumn)

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = DISPLAY) -> Any:
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(CutoffColumn):
            return None
        col = CutoffColumn(section)
        if role == DISPLAY:
            return ("k", "DCG@k", "ideal DCG@k", "NDCG@k", "Status")[col]
        if role == TOOLTIP:
            return (
                "the cutoff; the same k cuts the actual and the ideal list",
                "DCG@k = sum over ranks r ≤ k of gain × discount(r)",
                "ideal DCG@k = DCG@k of the ideal list (gains sorted highest first)",
                "NDCG@k = DCG@k / ideal DCG@k",
                "ok, undefined (ideal DCG 0) or unresolved (unknown grades)",
            )[col]
        return None

    def data(self, index: Index, role: int = DISPLAY) -> Any:
        ev = self._ev
        if ev is None or not index.isValid():
            return None
        q, j, col = self._q, index.row(), CutoffColumn(index.column())
        status = ev.status(q, j)
        look = STATUS_LOOK[status]
        if role in (DISPLAY, SORT_ROLE):
            if col is CutoffColumn.K:
                return format_cutoff(ev.cutoffs[j])
            if col is CutoffColumn.STATUS:
                return look.label
            value = (ev.dcg, ev.idcg, ev.ndcg)[col - 1][q, j]
            if math.isnan(value):
                return look.text
            return float(value)
        if role == TOOLTIP:
            if col is CutoffColumn.STATUS:
                return status.reason
            if col is not CutoffColumn.K:
                return _full((ev.dcg, ev.idcg, ev.ndcg)[col - 1][q, j])
        if role == Qt.ItemDataRole.ForegroundRole and col in (CutoffColumn.STATUS,
                                                               CutoffColumn.NDCG):
            return QBrush(QColor(look.colour))
        return None


# -- the audit log ------------------------------------------------------------------------
class AuditColumn(IntEnum):
    WHEN = 0
    WHO = 1
    QUERY = 2
    SOURCE = 3
    BEFORE = 4
    AFTER = 5
    NOTE = 6
    ORIGIN = 7


class AuditModel(QAbstractTableModel):
    """The document's audit log, oldest first; rows are appended, never edited."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._log: list[AuditEntry] = []
        self._shown = 0

    def set_document(self, doc: Document) -> None:
        self.beginResetModel()
        self._log = doc.audit
        self._shown = len(self._log)
        self.endResetModel()

    def sync(self) -> None:
        """Show entries appended to the log since the last call."""
        n = len(self._log)
        if n > self._shown:
            self.beginInsertRows(QModelIndex(), self._shown, n - 1)
            self._shown = n
            self.endInsertRows()
        elif n < self._shown:
            self.beginResetModel()
            self._shown = n
            self.endResetModel()

    def entry(self, row: int) -> AuditEntry:
        return self._log[row]

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else self._shown

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(AuditColumn)

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = DISPLAY) -> Any:
        if role != DISPLAY or orientation != Qt.Orientation.Horizontal:
            return None
        if not 0 <= section < len(AuditColumn):
            return None
        return ("When", "Who", "Query", "Source", "Before", "After", "Note", "Origin")[section]

    def data(self, index: Index, role: int = DISPLAY) -> Any:
        if not index.isValid() or not 0 <= index.row() < self._shown:
            return None
        e = self._log[index.row()]
        if role in (DISPLAY, TOOLTIP):
            return (e.when, e.who, e.query, e.source_id, e.before, e.after, e.note,
                    e.origin)[index.column()]
        return None


# -- small editable tables (gain table, rubric) -------------------------------------------
class PairTableModel(QAbstractTableModel):
    """Editable (number, value) rows: a gain table or a rubric's labels.

    ``value_is_number`` makes the second column a number (gain) instead of text
    (label). Edits change the rows and emit :attr:`pairs_edited`; the owner
    turns them into a convention change (an undo command).
    """

    pairs_edited = Signal()

    def __init__(self, headers: tuple[str, str], *, value_is_number: bool,
                 parent: Any = None) -> None:
        super().__init__(parent)
        self._headers = headers
        self._numeric = value_is_number
        self._rows: list[tuple[float, Any]] = []

    def set_pairs(self, pairs: Sequence[tuple[float, Any]]) -> None:
        self.beginResetModel()
        self._rows = [(float(a), b) for a, b in pairs]
        self.endResetModel()

    def pairs(self) -> list[tuple[float, Any]]:
        return list(self._rows)

    def add_row(self) -> None:
        nxt = max((a for a, _ in self._rows), default=-1.0) + 1.0
        self.beginInsertRows(QModelIndex(), len(self._rows), len(self._rows))
        self._rows.append((nxt, nxt if self._numeric else ""))
        self.endInsertRows()
        self.pairs_edited.emit()

    def remove_row(self, row: int) -> None:
        if 0 <= row < len(self._rows):
            self.beginRemoveRows(QModelIndex(), row, row)
            del self._rows[row]
            self.endRemoveRows()
            self.pairs_edited.emit()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else 2

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = DISPLAY) -> Any:
        if role == DISPLAY and orientation == Qt.Orientation.Horizontal and section in (0, 1):
            return self._headers[section]
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return (Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
                | Qt.ItemFlag.ItemIsEditable)

    def data(self, index: Index, role: int = DISPLAY) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        if role in (DISPLAY, EDIT):
            value = self._rows[index.row()][index.column()]
            if index.column() == 0 or self._numeric:
                return float(value)
            return str(value)
        return None

    def setData(self, index: Index, value: Any, role: int = EDIT) -> bool:
        if role != EDIT or not index.isValid():
            return False
        a, b = self._rows[index.row()]
        try:
            if index.column() == 0 or self._numeric:
                number = float(value)
                if not math.isfinite(number):
                    return False
                value = number
        except (TypeError, ValueError):
            return False
        self._rows[index.row()] = (value, b) if index.column() == 0 else (a, value)
        self.dataChanged.emit(index, index)
        self.pairs_edited.emit()
        return True
