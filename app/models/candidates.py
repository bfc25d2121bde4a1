"""The candidate grid: one query's candidates, a row each.

The model shows one query at a time and keeps only that query's row indices,
so opening a large document builds nothing per candidate.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from enum import IntEnum
from typing import Any

import numpy as np
import numpy.typing as npt
from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt, Signal

from app.models.grade_input import parse_grade_text
from app.models.looks import ITALIC, brush, full_text, qt_number
from app.models.roles import (
    CANDIDATE_ROLE,
    CHOICES_ROLE,
    DISPLAY,
    EDIT,
    LABEL_ROLE,
    SORT_ROLE,
    TIE_ROLE,
    TOOLTIP,
    Index,
)
from core.engine.evaluation import Evaluation
from core.engine.query_values import QueryValues, query_values
from core.model.conventions import Conventions, Rubric
from core.model.document import GradeState, grade_text

__all__ = ["DERIVED", "GRID_TITLES", "CandidateModel", "GridColumn", "column_formula"]

_TIE_SHADES = ("tie_even", "tie_odd")  # tones of app.models.looks


def _differs(a: npt.NDArray[np.float64], b: npt.NDArray[np.float64]) -> npt.NDArray[np.bool_]:
    """Where two float arrays differ (NaN equals NaN)."""
    out: npt.NDArray[np.bool_] = (a != b) & ~(np.isnan(a) & np.isnan(b))
    return out


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
    Qt.ItemDataRole.TextAlignmentRole, Qt.ItemDataRole.AccessibleDescriptionRole,
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
        #: The shown rows' ranks, discounts, ideal ranks... (one query's, not
        #: the whole document's: a large run shows a few hundred of millions).
        self._values: QueryValues | None = None
        self._outside: npt.NDArray[np.bool_] = np.zeros(0, dtype=bool)
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
        dropped = members[~np.isnan(ev.doc.score[members]) & ~ev.ranked_mask[members]]
        return np.concatenate([ranked, dropped]).astype(np.int64)

    def _derive(self, ev: Evaluation, q: int, *, same_order: bool = False) -> None:
        """Per-query values the cells look up. ``same_order``: the rows and the
        tie rule are as before, so the tie groups (which follow the scores of
        the ranked rows only) are kept."""
        self._rubric = ev.rubric
        rows = self._rows
        self._values = values = query_values(ev, q, rows) if q >= 0 else None
        self._outside = ev.outside_rubric[rows]
        if self.section != "ranked" or values is None:
            self._tie = {}
            self._cumulative = np.zeros(0)
            return
        self._cumulative = values.cumulative
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
            old_cumulative, old_values = self._cumulative, self._values
            self._ev = ev
            self._derive(ev, q, same_order=old is not None and (
                old.conventions.ties is ev.conventions.ties))
            self._emit_changed(ev, changed, old, old_cumulative, old_values)
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
                      old_cumulative: npt.NDArray[np.float64] | None = None,
                      old_values: QueryValues | None = None) -> None:
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
        new_values = self._values
        if changed is None or rank_dependent or old is None or old_values is None or (
                new_values is None or old.conventions != ev.conventions):
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
        moved = old_values.ideal_rank != new_values.ideal_rank
        moved |= _differs(old_values.ideal_contribution, new_values.ideal_contribution)
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
        if role == Qt.ItemDataRole.AccessibleDescriptionRole:  # where the cell is, spoken
            return self.tr("{0}, query {1}, source {2}").format(
                self.tr(GRID_TITLES[col]), doc.query_ids[int(doc.query[i])], doc.source_text(i))
        if role in (DISPLAY, SORT_ROLE):
            return self._value(ev, i, index.row(), col, state)
        if role == EDIT:
            if col is GridColumn.GRADE:
                return grade_text(float(doc.grade[i]), int(state))
            if col is GridColumn.SCORE:
                return full_text(doc.score[i])
            return self._value(ev, i, index.row(), col, state)
        if role == TOOLTIP:
            return self._tooltip(ev, i, index.row(), col, state)
        if role == LABEL_ROLE and col is GridColumn.GRADE:
            if state is GradeState.UNRATEABLE:
                return str(doc.reason[i] or "")  # shown beside "unrateable", not only on hover
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
            if col in (GridColumn.GRADE, GridColumn.STATE) and self._outside[index.row()]:
                return brush("outside_rubric")
            tie = self._tie.get(i)
            if tie is not None and col in (GridColumn.RANK, GridColumn.SCORE):
                return brush(_TIE_SHADES[tie[3] % 2])
            return None
        if role == Qt.ItemDataRole.FontRole and self._is_state_text(ev, i, col, state):
            return ITALIC
        if role == Qt.ItemDataRole.ForegroundRole and self._is_state_text(ev, i, col, state):
            return brush("unrateable" if state is GradeState.UNRATEABLE else "muted")
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
        v = self._values
        assert v is not None  # rows are shown only with their values
        if col is GridColumn.RANK:
            r = int(v.rank[row])
            return r if r else None
        if col is GridColumn.SOURCE:
            return doc.source_text(i)
        if col is GridColumn.VERSION:
            return str(doc.version[i])
        if col is GridColumn.SCORE:
            return qt_number(doc.score[i])
        if col is GridColumn.GRADE:
            return float(doc.grade[i]) if state is GradeState.NUMBER else state.label
        if col is GridColumn.STATE:
            return "outside rubric" if self._outside[row] else state.label
        if col is GridColumn.GAIN:
            return self._gain_value(ev.gain[i], state)
        if col is GridColumn.DISCOUNT:
            return qt_number(v.discount[row])
        if col is GridColumn.CONTRIBUTION:
            if not ev.ranked_mask[i]:
                return None
            return self._gain_value(v.contribution[row], state)
        if col is GridColumn.CUMULATIVE:
            return qt_number(self._cumulative[row]) if row < self._cumulative.size else None
        if col is GridColumn.IDEAL_RANK:
            r = int(v.ideal_rank[row])
            return r if r else None
        if col is GridColumn.IDEAL_GAIN:
            if not ev.inventory_mask[i]:
                return None
            return self._gain_value(ev.gain[i], state)
        if not ev.inventory_mask[i]:
            return None
        return self._gain_value(v.ideal_contribution[row], state)

    @staticmethod
    def _gain_value(value: float, state: GradeState) -> Any:
        if math.isnan(value):
            return state.label if state is not GradeState.NUMBER else None
        return float(value)

    def _tooltip(self, ev: Evaluation, i: int, row: int, col: GridColumn,
                 state: GradeState) -> str | None:
        doc = ev.doc
        c = ev.conventions
        v = self._values
        assert v is not None  # rows are shown only with their values
        rank, ideal_rank = int(v.rank[row]), int(v.ideal_rank[row])
        if col is GridColumn.RANK:
            tie = self._tie.get(i)
            if not rank:
                return "not ranked: " + c.unknown.formula
            if tie is not None:
                return (f"tied with ranks {tie[1]}-{tie[2]} (score {full_text(doc.score[i])}); "
                        f"ties: {c.ties.label}")
            return f"rank {rank}"
        if col is GridColumn.SCORE:
            return full_text(doc.score[i])
        if col in (GridColumn.GRADE, GridColumn.STATE):
            parts = []
            if state is GradeState.UNRATEABLE:
                parts.append(f"unrateable: {doc.reason[i] or 'no reason given'}")
            elif state is GradeState.UNKNOWN:
                parts.append("unknown: never judged (not 0)")
            else:
                rubric = self._rubric
                label = rubric.label_for(float(doc.grade[i]))
                parts.append(f"grade {full_text(doc.grade[i])}" + (f": {label}" if label else ""))
                if self._outside[row]:
                    parts.append(f"outside the rubric ({c.rubric.text if c.rubric else ''})")
            original = grade_text(float(doc.original_grade[i]), int(doc.original_state[i]))
            current = grade_text(float(doc.grade[i]), int(state))
            if original != current:
                parts.append(f"originally {original}")
            if doc.note[i]:
                parts.append(f"note: {doc.note[i]}")
            return "; ".join(parts)
        if col is GridColumn.GAIN:
            return f"{c.gain.formula}: {full_text(ev.gain[i])}"
        if col is GridColumn.DISCOUNT:
            return f"{c.discount.formula}: {full_text(v.discount[row])}"
        if col is GridColumn.CONTRIBUTION:
            return (f"gain × discount = {full_text(ev.gain[i])} × {full_text(v.discount[row])} "
                    f"= {full_text(v.contribution[row])}")
        if col is GridColumn.CUMULATIVE and row < self._cumulative.size:
            return (f"sum of contributions at ranks 1..{rank} = "
                    f"{full_text(self._cumulative[row])}")
        if col is GridColumn.IDEAL_RANK:
            return (f"ideal rank {ideal_rank}" if ideal_rank else
                    "not in the ideal list") + f" ({c.ideal.label})"
        if col is GridColumn.IDEAL_GAIN:
            return f"{c.gain.formula}: {full_text(ev.gain[i])}"
        if col is GridColumn.IDEAL_CONTRIBUTION:
            return (f"ideal gain × discount(ideal rank {ideal_rank}) = "
                    f"{full_text(v.ideal_contribution[row])}")
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
