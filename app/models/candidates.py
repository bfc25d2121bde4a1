"""The candidate grid: one query's candidates, a row each.

The model shows one query at a time and keeps only that query's row indices,
so opening a large document builds nothing per candidate.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum
from typing import Any

import numpy as np
import numpy.typing as npt
from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QModelRoleData,
    QModelRoleDataSpan,
    Qt,
    Signal,
)
from PySide6.QtGui import QFont

from app.models.grade_input import parse_grade_text
from app.models.looks import ITALIC, STATE_TONE, brush
from app.models.roles import (
    ALIGNMENT,
    BACKGROUND,
    CANDIDATE_ROLE,
    CHOICES_ROLE,
    DIGITS_ROLE,
    DISPLAY,
    EDIT,
    EDITED_ROLE,
    FONT,
    FOREGROUND,
    LABEL_ROLE,
    RIGHT_ALIGNED,
    SORT_ROLE,
    SPOKEN,
    TIE_ROLE,
    TOOLTIP,
    WHOLE_ROLE,
    Index,
)
from app.shown import CELL_SHOWN, bounded, id_note, shown_id
from core.engine.columns import (
    GRID_COLUMNS,
    Align,
    CandidateColumn,
    ShownRows,
    edited,
    edited_from,
    listed_rows,
    score_digits,
)
from core.engine.evaluation import Evaluation
from core.engine.order import order_follows_grades
from core.model.audit import note_said
from core.model.document import GradeState, grade_text

__all__ = ["CandidateModel", "GridColumn"]

_TIE_SHADES = ("tie_even", "tie_odd")  # tones of app.models.looks
_ALIGN = {Align.LEFT: None, Align.RIGHT: RIGHT_ALIGNED}


def _differs(a: npt.NDArray[Any], b: npt.NDArray[Any]) -> npt.NDArray[np.bool_]:
    """Where two arrays differ (NaN equals NaN)."""
    out: npt.NDArray[np.bool_] = a != b
    if a.dtype.kind == "f":
        out &= ~(np.isnan(a) & np.isnan(b))
    return out


def _one_line(text: str) -> str:
    """A note on one line: each line break marked ⏎ (the cell is one line
    tall; the tooltip and the editor have the whole)."""
    if "\n" not in text and "\r" not in text:
        return text
    return text.replace("\r\n", "\n").replace("\r", "\n").replace("\n", " ⏎ ")


# -- the candidate grid ------------------------------------------------------------------
class GridColumn(IntEnum):
    """The places in :data:`~core.engine.columns.GRID_COLUMNS` of the columns
    the app's code names (a column nobody names needs no member;
    tests/test_grid_columns.py checks they agree with the table)."""

    RANK = 0
    SOURCE = 1
    VERSION = 2
    SCORE = 3
    ORIGINAL = 4
    GRADE = 5
    STATE = 6
    NOTE = 7
    GAIN = 8
    DISCOUNT = 9
    CONTRIBUTION = 10
    CUMULATIVE = 11
    IDEAL_RANK = 12
    IDEAL_GAIN = 13
    IDEAL_CONTRIBUTION = 14


#: The roles the grid answers; painting asks for many more, answered at once.
_GRID_ROLES = frozenset({
    DISPLAY, EDIT, TOOLTIP, SORT_ROLE, TIE_ROLE, CANDIDATE_ROLE, LABEL_ROLE, CHOICES_ROLE,
    WHOLE_ROLE, DIGITS_ROLE, EDITED_ROLE,
    BACKGROUND, FONT, FOREGROUND, ALIGNMENT, SPOKEN,
})
_STATES: tuple[GradeState, ...] = tuple(GradeState)
#: A cell's flags, made once: a view asks them of each cell it paints, and
#: each ``|`` of two flags is a call into Python's enum (~2 us).
_SHOWN = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
_EDITABLE = _SHOWN | Qt.ItemFlag.ItemIsEditable
#: The columns holding an id (a version too is a key read from a file): shown
#: with their line breaks marked, and what the marks are said on hover.
_ID_KEYS = frozenset({"query", "source", "version"})
#: The columns of the reviewer's own text: shown on one line (a line break
#: marked ⏎), whole on hover.
_TEXT_KEYS = frozenset({"note"})
#: The grade states' words a number column shows in their place (in italics).
_STATE_OF_WORD = {s.label: s for s in GradeState if s is not GradeState.NUMBER}
_STATE_WORDS = frozenset(_STATE_OF_WORD)


def _display(col: CandidateColumn, shown: ShownRows, row: int) -> Any:
    """The display role of row ``row``'s cell in ``col``: its value, an id
    or a text shown as a cell shows it."""
    return _shown_value(col, col.value(shown, row))


def _shown_value(col: CandidateColumn, value: Any) -> Any:
    """The display role of a cell of ``col`` holding ``value``."""
    if not isinstance(value, str):
        return value
    if col.key in _TEXT_KEYS:  # (a note's line breaks shown as one line)
        value = _one_line(value)
    shown_text = shown_id if col.key in _ID_KEYS else bounded
    return shown_text(value, CELL_SHOWN)


def _looks(col: CandidateColumn, shown: ShownRows, row: int, role: int, value: Any) -> Any:
    """The font or foreground role (``role``) of row ``row``'s cell in
    ``col``, which holds ``value``."""
    # (the word's own state: a running DCG below an unknown grade says
    # "unknown" on a row whose grade is a number)
    word = value if col.state_words else None
    if word not in _STATE_WORDS:
        # (an original grade still current, muted: the edited ones stand
        # out, beside a grade marked edited)
        unchanged = role == FOREGROUND and col.key == "original" and not edited(shown, row)
        return brush("muted") if unchanged else None
    if role == FONT:
        return ITALIC  # (as _font)
    return brush(STATE_TONE[_STATE_OF_WORD[word]])


def _background(shown: ShownRows, row: int, key: str) -> Any:
    """The background role of row ``row``'s cell in the column ``key``: a
    grade outside the rubric, a tie group's shade."""
    if key in ("grade", "state") and shown.outside[row]:
        return brush("outside_rubric")
    if key in ("rank", "score") and (tie := shown.ties.get(shown.row(row))) is not None:
        return brush(_TIE_SHADES[tie.n % 2])
    return None


def _font(col: CandidateColumn, shown: ShownRows, row: int) -> QFont | None:
    """The font role of row ``row``'s cell in ``col``: a grade state's word
    (a running DCG below an unknown grade says "unknown") in italics."""
    if col.state_words and col.value(shown, row) in _STATE_WORDS:
        return ITALIC
    return None


class CandidateModel(QAbstractTableModel):
    """One query's candidates, a row each, in the columns of
    :data:`~core.engine.columns.GRID_COLUMNS` (``columns``: others).

    ``section="ranked"`` lists the retrieved candidates in evaluated order
    (those removed from the ranking by the condensed rule last);
    ``section="not_retrieved"`` lists the judged-but-not-retrieved ones.
    Edits are not applied here: :meth:`setData` emits
    :attr:`grade_edit_requested` (a grade) or :attr:`note_edit_requested`
    (a note) and the window makes it one step of the session.
    """

    #: (candidate index, grade or None, state, unrateable reason or None) asked
    #: for by an edit.
    grade_edit_requested = Signal(int, object, int, object)
    #: (candidate index, the note typed) asked for by an edit of the note.
    note_edit_requested = Signal(int, str)

    def __init__(self, section: str = "ranked", parent: Any = None,
                 columns: tuple[CandidateColumn, ...] = GRID_COLUMNS) -> None:
        super().__init__(parent)
        if section not in ("ranked", "not_retrieved"):
            raise ValueError(section)
        self.section = section
        self.columns = columns
        self._ev: Evaluation | None = None
        self._q = -1
        self._rows: npt.NDArray[np.int64] = np.zeros(0, dtype=np.int64)
        #: The shown rows' ranks, discounts, ideal ranks... (one query's, not
        #: the whole document's: a large run shows a few hundred of millions).
        self._shown: ShownRows | None = None

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

    def blank(self, column: int) -> bool:
        """Whether ``column`` (the note's or the version's) is empty in
        every row shown (the whole query's, not only those measured)."""
        key = self.columns[column].key
        if self._ev is None or key not in ("note", "version"):
            return False
        return self._ev.doc.blank(key, self._rows)

    def _compute_rows(self, ev: Evaluation, q: int) -> npt.NDArray[np.int64]:
        return listed_rows(ev, q, self.section)

    def _derive(self, ev: Evaluation, q: int, *, same_order: bool = False) -> None:
        """Per-query values the cells look up. ``same_order``: the rows and the
        tie rule are as before, so the tie groups (which follow the scores of
        the ranked rows only) are kept."""
        old = self._shown
        self._shown = ShownRows.of(
            ev, q, self._rows, ranked=self.section == "ranked",
            ties=old.ties if same_order and old is not None else None) if q >= 0 else None

    def set_evaluation(self, ev: Evaluation, q: int | None = None,
                       *, changed: Sequence[int] | None = None) -> None:
        """Show query ``q`` (default: the current one) of ``ev``.

        With the same query and document, rows keep their place where the
        order is the same (the current row and the selection with them, so
        that a reviewer who changes a convention grades on where they were)
        and only derived columns are refreshed: those of the candidates in
        ``changed`` (indices whose grade changed), every one without it.
        """
        q = self._q if q is None else q
        old = self._ev
        new_rows = self._compute_rows(ev, q)
        same_frame = old is not None and old.doc is ev.doc and q == self._q and (
            new_rows.size == self._rows.size)
        if not same_frame:
            self.beginResetModel()
            self._ev, self._q, self._rows = ev, q, new_rows
            self._derive(ev, q)
            self.endResetModel()
            return
        if np.array_equal(new_rows, self._rows):
            old_shown = self._shown
            self._ev = ev
            # (new conventions may rank other candidates: tie groups found again)
            self._derive(ev, q, same_order=changed is not None and old is not None and (
                old.conventions.ties is ev.conventions.ties))
            self._emit_changed(ev, changed, old, old_shown)
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
                      old_shown: ShownRows | None = None) -> None:
        """Tell the views which cells an edit changed.

        A view repaints the bounding box of every range it is told about, and
        a painted cell costs several calls into Python; so beyond the edited
        rows' own cells, only the cells of columns that follow other rows
        (their ``follows``: cumulative DCG below the edit, the ideal ranks and
        ideal contributions that moved) whose value really changed are named.
        """
        if not self._rows.size:
            return
        last = len(self.columns) - 1
        new_shown = self._shown
        if changed is None or order_follows_grades(ev.conventions) or old is None or (
                old_shown is None or new_shown is None or old.conventions != ev.conventions):
            self.dataChanged.emit(self.index(0, 0), self.index(self._rows.size - 1, last))
            return
        # The edited rows' own cells.
        for r in (r for r in (self.row_of(c) for c in changed) if r is not None):
            self.dataChanged.emit(self.index(r, 0), self.index(r, last))
        # One range over the columns that follow other rows, from the first
        # to the last row where one of them changed.
        moved = np.zeros(self._rows.size, dtype=bool)
        following = [n for n, col in enumerate(self.columns) if col.follows is not None]
        for n in following:
            follows = self.columns[n].follows
            assert follows is not None
            before, after = follows(old_shown), follows(new_shown)
            if before.shape == after.shape:
                moved[:before.size] |= _differs(before, after)
            else:
                moved[:] = True
        if following:
            self._emit_runs(following[0], following[-1], moved)

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
        return 0 if parent.isValid() else len(self.columns)

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = DISPLAY) -> Any:
        if orientation == Qt.Orientation.Vertical:
            return section + 1 if role == DISPLAY else None
        if not 0 <= section < len(self.columns):
            return None
        col = self.columns[section]
        if role == DISPLAY:
            return self.tr(col.title)
        if role == TOOLTIP and self._ev is not None:
            return col.formula(self._ev.conventions)
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        # The score's editor is read-only: it shows the full precision.
        return _EDITABLE if self.columns[index.column()].edit is not None else _SHOWN

    def data(self, index: Index, role: int = DISPLAY) -> Any:
        shown = self._shown
        if shown is None or role not in _GRID_ROLES or not index.isValid() or (
                not 0 <= index.row() < self._rows.size):
            return None
        row = index.row()
        col = self.columns[index.column()]
        if role in (SORT_ROLE, WHOLE_ROLE):
            return col.value(shown, row)
        if role == DISPLAY:
            return _display(col, shown, row)
        if role == TOOLTIP:
            tip = col.tooltip(shown, row)
            if tip is None and col.key in _ID_KEYS:
                return id_note(col.value(shown, row)) or None
            return bounded(tip, CELL_SHOWN) if isinstance(tip, str) else tip
        if role == ALIGNMENT:
            return _ALIGN[col.align]
        if role in (FONT, FOREGROUND):
            return _looks(col, shown, row, role,
                          col.value(shown, row) if col.state_words else None)
        if role == BACKGROUND:
            return _background(shown, row, col.key)
        if role == EDIT:
            return (col.edit or col.value)(shown, row)
        i = int(self._rows[row])
        if role == CANDIDATE_ROLE:
            return i
        if role == DIGITS_ROLE:
            return self._score_digits(shown, row) if col.key == "score" else None
        if role == EDITED_ROLE:
            return edited(shown, row) if col.key == "grade" else None
        if role == SPOKEN:  # where the cell is, spoken
            doc = shown.ev.doc
            ids = doc.query_ids[int(doc.query[i])], doc.source_text(i)
            # (what a tooltip says of the marks, spoken too)
            notes = " ".join(dict.fromkeys(note for note in map(id_note, ids) if note))
            said = self.tr("{0}, query {1}, source {2}").format(self.tr(col.title),
                                                                *map(shown_id, ids))
            if col.key in ("grade", "original") and edited(shown, row):  # (the mark, said)
                said += f", {edited_from(shown, row)}"
            if col.key == "grade" and doc.state[i] != GradeState.NUMBER and (
                    why := doc.reason_text(i)):  # (what the cell shows beside the word)
                said += f", {_STATES[int(doc.state[i])].label}: {why}"
            if col.key == "note":  # the whole note (the cell elides it), or none
                said += f", {note_said(str(doc.note[i]))}"
            return f"{said}. {notes}" if notes else said
        return self._grade_and_tie_roles(shown, row, i, col.key, role)

    def multiData(self, index: Index, roleDataSpan: QModelRoleDataSpan | QModelRoleData) -> None:
        """The roles of ``index``'s cell asked at once, answered as :meth:`data`
        answers each: a view painting a cell asks seven (Qt's
        ``QStyledItemDelegate::initStyleOption``: font, alignment, foreground,
        check state, decoration, display, background), each a call into
        Python through ``data`` (892 calls for a paint's 130 cells, hopen13);
        here one, the cell's value read once."""
        # (PySide's stubs give the span no indexing; a single role's data may come too)
        span: Any = [roleDataSpan] if isinstance(roleDataSpan, QModelRoleData) else roleDataSpan
        shown = self._shown
        if shown is None or not index.isValid() or not 0 <= index.row() < self._rows.size:
            for n in range(len(span)):
                span[n].clearData()
            return
        row = index.row()
        col = self.columns[index.column()]
        value = col.value(shown, row)
        for n in range(len(span)):
            asked = span[n]
            role = asked.role()
            if role == DISPLAY:
                answer = _shown_value(col, value)
            elif role in (FONT, FOREGROUND):
                answer = _looks(col, shown, row, role, value)
            elif role == ALIGNMENT:
                answer = _ALIGN[col.align]
            elif role == BACKGROUND:
                answer = _background(shown, row, col.key)
            elif role in _GRID_ROLES:
                answer = self.data(index, role)
            else:
                answer = None
            # (every role answered: Qt hands the same span from cell to cell,
            # and a role left alone kept the cell before's font and shade)
            if answer is None:
                asked.clearData()
            else:
                asked.setData(answer)

    def shown(self, rows: Sequence[int], column: int) -> list[tuple[Any, QFont | None]]:
        """Each of ``rows``' cells in ``column`` as :meth:`data` answers its
        display and font roles, without a ``QModelIndex``: the grids' fit
        measures the rows on screen, and each cell asked through ``data``
        cost a call into Python a role (hopen8)."""
        shown = self._shown
        if shown is None or not 0 <= column < len(self.columns):
            return [(None, None)] * len(rows)
        col = self.columns[column]
        return [(_display(col, shown, row), _font(col, shown, row)) for row in rows]

    def _score_digits(self, shown: ShownRows, row: int) -> int:
        """The digits row ``row``'s score needs beside the rows above and
        below (at 2 decimals 0.9982, 0.9977 and 0.9958 read "1.00" three
        times, a tie the engine does not see)."""
        return score_digits(shown, row)

    def _grade_and_tie_roles(self, shown: ShownRows, row: int, i: int, key: str,
                             role: int) -> Any:
        """The grade's rubric label and the choices its editor offers, and
        a tie group's bracket at the rank (the shades: :func:`_background`)."""
        if role == LABEL_ROLE and key == "grade":
            state = _STATES[int(shown.ev.doc.state[i])]
            if state is not GradeState.NUMBER:
                # shown beside "unrateable" or "unknown" (declined by 2
                # annotators), not only on hover
                return shown.ev.doc.reason_text(i)
            return shown.rubric.label_for(float(shown.ev.doc.grade[i])) or ""
        if role == CHOICES_ROLE and key == "grade":
            choices: list[tuple[str, float | None, int]] = [
                (grade_text(g.value, 0) + (f" - {g.label}" if g.label else ""), g.value, 0)
                for g in shown.rubric.grades
            ]
            choices += [("unknown", None, int(GradeState.UNKNOWN)),
                        ("unrateable", None, int(GradeState.UNRATEABLE))]
            return choices
        if role == TIE_ROLE and key == "rank":
            tie = shown.ties.get(i)
            return tie.place if tie else None
        return None

    def setData(self, index: Index, value: Any, role: int = EDIT) -> bool:
        if (self._shown is None or role != EDIT or not index.isValid()
                or not 0 <= index.row() < self._rows.size):
            return False
        key = self.columns[index.column()].key
        if key in _TEXT_KEYS:
            self.note_edit_requested.emit(int(self._rows[index.row()]), str(value))
            return True
        if key != "grade":
            return False
        reason: str | None = None  # None: the window asks for an unrateable reason
        if isinstance(value, tuple):
            grade, state = value
        else:
            try:
                got = parse_grade_text(str(value), self._shown.rubric)
            except ValueError:
                return False
            grade, state, reason = got.grade, got.state, got.reason or None
        self.grade_edit_requested.emit(int(self._rows[index.row()]), grade, int(state), reason)
        return True
