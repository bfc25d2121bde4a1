"""The candidate columns, each declared once: its title in the editor's grid,
its value and tooltip from one query's values, the formula its header
explains, its alignment, and its column on the workbook's Candidates sheet.

The editor's grid (``app/models/candidates.py``) shows the columns of
:data:`GRID_COLUMNS` in that order and knows nothing of any one column's
value; the workbook's Candidates sheet (``core/io/workbook/layout.py``)
takes its readable columns' letters and headers from :data:`COLUMNS`.
Adding a column is one :class:`CandidateColumn` in :data:`COLUMNS`.
Nothing here knows Qt: the alignment is a plain value the grid maps.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property
from typing import Any

import numpy as np
import numpy.typing as npt

from core.engine.discount import discount, divides, log2_of, terms
from core.engine.evaluation import Evaluation
from core.engine.query_values import QueryValues, query_ideal, query_values
from core.engine.sums import mixed_groups
from core.model.conventions import Conventions, Rubric, TieRule
from core.model.document import GradeState, grade_text
from core.model.grades import unknown_note
from core.model.guidelines import digit_keys
from core.model.numbers import digits_apart, full_text

__all__ = [
    "COLUMNS",
    "EDITED_MARK",
    "GRID_COLUMNS",
    "Align",
    "CandidateColumn",
    "ShownRows",
    "TieMark",
    "edited",
    "edited_from",
    "listed_rows",
    "score_digits",
    "tie_marks",
]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

_STATES: tuple[GradeState, ...] = tuple(GradeState)
#: What the grid puts before an edited grade (a grade that differs from its
#: original: a shape, not a colour alone; said aloud as "edited").
EDITED_MARK = "✎"


class Align(StrEnum):
    """Where a column's text sits in its cell."""

    LEFT = "left"
    RIGHT = "right"


@dataclass(frozen=True)
class TieMark:
    """A ranked candidate's place in its tie group of two or more: ``place``
    ``first``, ``middle`` or ``last``; the group's ``first`` and ``last``
    ranks; ``n`` the group's number in its query (0, 1, ...)."""

    place: str
    first: int
    last: int
    n: int


def tie_marks(ev: Evaluation, q: int) -> dict[int, TieMark]:
    """Each tied candidate of query ``q``'s ranked list, by candidate index."""
    ranked = ev.ranked(q)
    marks: dict[int, TieMark] = {}
    for n, (a, b) in enumerate(ev.tie_groups(q)):
        for r in range(a, b + 1):
            place = "first" if r == a else "last" if r == b else "middle"
            marks[int(ranked[r - 1])] = TieMark(place, a, b, n)
    return marks


@dataclass(frozen=True)
class ShownRows:
    """Some candidates of one query as a view shows them: ``rows`` (document
    row indices) and their :class:`~core.engine.query_values.QueryValues`,
    whether each grade is outside the rubric, the tie marks (ranked rows
    only), the running DCG down the ranked list (empty for rows that are
    not a ranked list) and the rubric."""

    ev: Evaluation
    q: int
    values: QueryValues
    outside: BoolArray
    ties: dict[int, TieMark] = field(default_factory=dict)
    cumulative: FloatArray = field(default_factory=lambda: np.zeros(0))

    @classmethod
    def of(cls, ev: Evaluation, q: int, rows: IntArray, *, ranked: bool,
           ties: dict[int, TieMark] | None = None) -> ShownRows:
        """``rows`` of query ``q`` under ``ev``; ``ranked``: they are its ranked
        list (then tie marks and the running DCG apply; ``ties``: the marks
        when the caller knows them unchanged)."""
        values = query_values(ev, q, rows)
        outside = ev.outside_rubric[rows]
        if not ranked:
            return cls(ev, q, values, outside)
        return cls(ev, q, values, outside, tie_marks(ev, q) if ties is None else ties,
                   values.cumulative)

    @cached_property
    def ideal_gains(self) -> FloatArray:
        """The known gains of the query's ideal list, best first."""
        gains = self.ev.gain[query_ideal(self.ev, self.q)]
        known: FloatArray = gains[~np.isnan(gains)]
        return known

    @cached_property
    def first_unknown(self) -> IntArray:
        """For each shown row, the first shown row at or above it whose gain
        is not known (the running DCG is not known from it on), or the
        number of rows where there is none: worked out once for the rows
        (a view asks it of each cumulative DCG cell it paints; looked for
        above each cell, it cost an ``isnan`` over the rows above a cell).

        >>> from core.model.document import Document
        >>> from core.engine.evaluation import evaluate
        >>> doc = Document.from_columns(query=["q"] * 4, source_id=list("abcd"),
        ...                             score=[4.0, 3.0, 2.0, 1.0],
        ...                             grade=[1.0, None, 2.0, None])
        >>> ev = evaluate(doc)
        >>> ShownRows.of(ev, 0, ev.ranked(0), ranked=True).first_unknown.tolist()
        [4, 1, 1, 1]
        """
        n = self.rows.size
        unknown = np.isnan(self.ev.gain[self.rows])
        first: IntArray = np.minimum.accumulate(np.where(unknown, np.arange(n), n))
        return first

    @property
    def rows(self) -> IntArray:
        return self.values.rows

    @property
    def rubric(self) -> Rubric:
        return self.ev.rubric

    def row(self, row: int) -> int:
        """The document row index shown at ``row``."""
        return int(self.values.rows[row])

    def state(self, row: int) -> GradeState:
        return _STATES[int(self.ev.doc.state[self.row(row)])]


def listed_rows(ev: Evaluation, q: int, section: str = "ranked") -> IntArray:
    """The document rows a view lists for query ``q``, in its order:
    ``section="ranked"`` the ranked list in evaluated order, then the
    candidates with a score the ranking left out (the condensed rule's);
    ``"not_retrieved"`` the judged candidates the run did not retrieve. The
    editor's grids and a printout list the same rows.

    >>> from core.model.document import Document
    >>> from core.engine.evaluation import evaluate
    >>> doc = Document.from_columns(query=["q"] * 3, source_id=list("abc"),
    ...                             score=[1.0, 2.0, None], grade=[1.0, 0.0, 2.0])
    >>> ev = evaluate(doc)
    >>> listed_rows(ev, 0).tolist(), listed_rows(ev, 0, "not_retrieved").tolist()
    ([1, 0], [2])
    """
    if section not in ("ranked", "not_retrieved"):
        raise ValueError(section)
    if q < 0 or q >= ev.doc.n_queries:
        return np.zeros(0, dtype=np.int64)
    if section == "not_retrieved":
        return ev.not_retrieved(q).astype(np.int64)
    members = ev.doc.members(q)
    dropped = members[~np.isnan(ev.doc.score[members]) & ~ev.ranked_mask[members]]
    return np.concatenate([ev.ranked(q), dropped]).astype(np.int64)


def score_digits(shown: ShownRows, row: int) -> int:
    """The digits row ``row``'s score needs to be told apart from the scores
    of the rows shown above and below it (at 2 decimals 0.9982, 0.9977 and
    0.9958 read "1.00" three times, a tie the engine does not see); 0 where
    equal (a tie shows equal). Display only: the score keeps its precision."""
    score = shown.ev.doc.score
    here = float(score[shown.row(row)])
    return max((digits_apart(here, float(score[shown.row(r)]))
                for r in (row - 1, row + 1) if 0 <= r < shown.rows.size), default=0)


#: (shown rows, row) -> what a cell holds or says.
Cell = Callable[[ShownRows, int], Any]


def _nothing(shown: ShownRows, row: int) -> None:
    return None


@dataclass(frozen=True)
class CandidateColumn:
    """One column of candidates.

    ``key`` names it; ``title`` heads it in the grid (``grid``: the grid
    shows it); ``value`` is a cell's value (a number, a text or None for an
    empty cell); ``tooltip`` says how the cell's value came about;
    ``formula`` what the column holds under some conventions (the header's
    tooltip); ``align`` where its text sits; ``sheet`` its (letter, header)
    on the workbook's Candidates sheet, if there. ``edit`` is the text an
    editor starts from (None: not editable). ``state_words``: where the
    value is not a number it is the grade state's word (shown as such).
    ``follows``: the array (one value per shown row) whose change means the
    cell changed after another row's grade edit (None: only the edited
    row's cells change). ``ranked_only``: it says nothing of a candidate
    that is not ranked (the grid of the judged-but-not-retrieved hides it).
    ``edits_only``: the grid shows it only while some grade of the document
    differs from its original (:meth:`~core.model.document.Document.has_changes`).
    """

    key: str
    title: str
    value: Cell
    formula: Callable[[Conventions], str]
    tooltip: Cell = _nothing
    align: Align = Align.RIGHT
    sheet: tuple[str, str] | None = None
    grid: bool = True
    edit: Cell | None = None
    state_words: bool = False
    follows: Callable[[ShownRows], npt.NDArray[Any]] | None = None
    ranked_only: bool = False
    edits_only: bool = False


# -- the cells ------------------------------------------------------------------------------
def _number(x: float) -> float | None:
    """A float, None where not determined (NaN)."""
    value = float(x)
    return None if math.isnan(value) else value


def _gain_like(value: float, state: GradeState) -> Any:
    """A gain or a sum of gains: the number, or the state's word where the
    gain is not known (None where known but undetermined)."""
    if math.isnan(value):
        return state.label if state is not GradeState.NUMBER else None
    return float(value)


def _rank(shown: ShownRows, row: int) -> int | None:
    r = int(shown.values.rank[row])
    return r or None


def _rank_tip(shown: ShownRows, row: int) -> str:
    c, i = shown.ev.conventions, shown.row(row)
    rank = int(shown.values.rank[row])
    tie = shown.ties.get(i)
    if not rank:
        return "not ranked: " + c.unknown.formula
    if tie is not None:
        return (f"tied with ranks {tie.first}-{tie.last} (score "
                f"{full_text(shown.ev.doc.score[i])}); ties: {c.ties.label}")
    return f"rank {rank}"


def _grade(shown: ShownRows, row: int) -> Any:
    state = shown.state(row)
    return float(shown.ev.doc.grade[shown.row(row)]) if state is GradeState.NUMBER else (
        state.label)


def _grade_formula(c: Conventions) -> str:
    """The grade column's header tooltip: what it holds, the keys, and each
    digit's level (label and guideline) where the conventions name them."""
    text = ("the reviewer's grade (a judgment): a number, unknown or unrateable; "
            "digits set it, U/Delete = unknown, X = unrateable")
    keys = digit_keys(c.rubric, c.guidelines)
    return text + "".join(f"\n{digit}: {what}" for digit, what in keys)


def _grade_tip(shown: ShownRows, row: int) -> str:
    doc, c, i = shown.ev.doc, shown.ev.conventions, shown.row(row)
    state = shown.state(row)
    parts = []
    if state is GradeState.UNRATEABLE:
        parts.append(f"unrateable: {doc.reason[i] or 'no reason given'}")
    elif state is GradeState.UNKNOWN:
        why = doc.reason_text(i)  # (an item the annotators declined: why no one judged it)
        parts.append(unknown_note(why) if why
                     else "unknown: never judged (not 0)")
    else:
        label = shown.rubric.label_for(float(doc.grade[i]))
        parts.append(f"grade {full_text(doc.grade[i])}" + (f": {label}" if label else ""))
        guideline = c.guidelines.for_grade(float(doc.grade[i]))
        if guideline is not None and guideline.description:
            parts.append(guideline.description)
        if shown.outside[row]:
            parts.append(f"outside the rubric ({c.rubric.text if c.rubric else ''})")
    if edited(shown, row):
        parts.append(edited_from(shown, row))
    if doc.note[i]:
        parts.append(f"note: {doc.note[i]}")
    return "; ".join(parts)


def _state(shown: ShownRows, row: int) -> str:
    return "outside rubric" if shown.outside[row] else shown.state(row).label


def _gain(shown: ShownRows, row: int) -> Any:
    return _gain_like(shown.ev.gain[shown.row(row)], shown.state(row))


def _gain_tip(shown: ShownRows, row: int) -> str:
    return f"{shown.ev.conventions.gain.formula}: {full_text(shown.ev.gain[shown.row(row)])}"


def _contribution(shown: ShownRows, row: int) -> Any:
    if not shown.ev.ranked_mask[shown.row(row)]:
        return None
    return _gain_like(shown.values.contribution[row], shown.state(row))


def _contribution_tip(shown: ShownRows, row: int) -> str:
    """The contribution worked out with the numbers that give it: under the
    presets whose sums divide (:func:`core.engine.discount.divides`) the
    gain over C's log2(rank + 1), which the product with the discount
    shown can miss by an ulp (3 x 0.6309297535714574 is not 3 / log2(3));
    in a tie group of one gain under averaged ties (one grade, or grades
    of equal gain) the gain times its own rank's discount
    (:func:`core.engine.sums.position_terms`)."""
    v = shown.values
    gain = full_text(shown.ev.gain[shown.row(row)])
    if shown.ev.divides and v.discount[row] > 0:
        log2 = log2_of(np.array([int(v.rank[row])]))[0]
        return (f"gain / log2(rank + 1) = {gain} / {full_text(log2)} = "
                f"{full_text(v.contribution[row])}")
    tie = shown.ties.get(shown.row(row))
    if tie is not None and _one_gain(shown, tie):
        own = discount(np.array([int(v.rank[row])]))[0]
        return (f"gain × discount(rank {int(v.rank[row])}) = {gain} × {full_text(own)} = "
                f"{full_text(v.contribution[row])} (a tie group of one gain is the same list "
                "in every order: each rank takes its own discount, not the group's mean)")
    return f"gain × discount = {gain} × {full_text(v.discount[row])} = " \
        f"{full_text(v.contribution[row])}"


def _one_gain(shown: ShownRows, tie: TieMark) -> bool:
    """Whether ``tie``'s group is averaged and holds one gain
    (:func:`core.engine.sums.mixed_groups`)."""
    if shown.ev.conventions.ties is not TieRule.AVERAGE:
        return False
    gains = shown.ev.gain[shown.ev.ranked(shown.q)[tie.first - 1:tie.last]]
    starts = np.zeros(gains.size, dtype=bool)
    starts[0] = True
    return not bool(mixed_groups(gains, starts, np.array([0]))[0])


def _contribution_formula(c: Conventions) -> str:
    if divides(c):
        return ("contribution = gain / log2(rank + 1) (= gain × discount, divided as the "
                "peer divides)")
    if c.ties is TieRule.AVERAGE:
        return ("contribution = gain × discount (the tie group's mean); in a tie group of one "
                "gain, gain × its own rank's discount (the same list in every order)")
    return "contribution = gain × discount"


def _first_not_known(shown: ShownRows, row: int) -> int | None:
    """The first shown row of the ranked list, down to ``row``, whose gain
    is not known (the running DCG is not known from it on), if any."""
    first = int(shown.first_unknown[row])
    return first if first < shown.rows.size else None


def _cumulative(shown: ShownRows, row: int) -> Any:
    """The running DCG, or below a gain that is not known, that gain's word
    (``unknown``: a sum with an unknown term is unknown, not blank)."""
    if row >= shown.cumulative.size:
        return None
    value = float(shown.cumulative[row])
    first = _first_not_known(shown, row) if math.isnan(value) else None
    return _gain_like(value, GradeState.NUMBER if first is None else shown.state(first))


def _cumulative_tip(shown: ShownRows, row: int) -> str | None:
    if row >= shown.cumulative.size:
        return None
    tip = f"sum of contributions at ranks 1..{int(shown.values.rank[row])}"
    first = _first_not_known(shown, row)
    if first is None or shown.state(first) is GradeState.NUMBER:
        return f"{tip} = {full_text(shown.cumulative[row])}"
    return (f"{tip}: not known, the grade at rank {int(shown.values.rank[first])} is "
            f"{shown.state(first).label}")


def _placeless(shown: ShownRows, row: int) -> GradeState | None:
    """The grade state of a candidate of the ideal inventory whose gain is
    not known (unknown, unrateable: it has no place in the ideal list, which
    the engine sorts last), None for any other."""
    state = shown.state(row)
    i = shown.row(row)
    if state is GradeState.NUMBER or not shown.ev.inventory_mask[i]:
        return None
    return state if math.isnan(shown.ev.gain[i]) else None


def _ideal_rank(shown: ShownRows, row: int) -> int | str | None:
    placeless = _placeless(shown, row)
    if placeless is not None:
        return placeless.label  # as its ideal gain says, not a rank past the known ones
    r = int(shown.values.ideal_rank[row])
    return r or None


def _ideal_rank_tip(shown: ShownRows, row: int) -> str:
    placeless = _placeless(shown, row)
    if placeless is not None:
        return (f"{placeless.label}: a gain not known has no place in the ideal list "
                f"({shown.ev.conventions.unknown.formula})")
    r = int(shown.values.ideal_rank[row])
    return (f"ideal rank {r}" if r else "not in the ideal list") + (
        f" ({shown.ev.conventions.ideal.label})")


def _ideal_gain(shown: ShownRows, row: int) -> Any:
    return _gain(shown, row) if shown.ev.inventory_mask[shown.row(row)] else None


def _ideal_contribution(shown: ShownRows, row: int) -> Any:
    if not shown.ev.inventory_mask[shown.row(row)]:
        return None
    return _gain_like(shown.values.ideal_contribution[row], shown.state(row))


def _ideal_contribution_tip(shown: ShownRows, row: int) -> str:
    placeless = _placeless(shown, row)
    if placeless is not None:
        return f"{placeless.label}: a gain not known has no place in the ideal list"
    v = shown.values
    return (f"ideal gain × discount(ideal rank {int(v.ideal_rank[row])}) = "
            f"{full_text(v.ideal_contribution[row])}")


def _ideal_list_gain(shown: ShownRows, row: int) -> float | None:
    gains = shown.ideal_gains
    return float(gains[row]) if row < gains.size else None


def _ideal_list_contribution(shown: ShownRows, row: int) -> float | None:
    gain = _ideal_list_gain(shown, row)
    if gain is None:
        return None
    rank = np.array([row + 1])
    return float(terms(np.array([gain]), discount(rank), rank, shown.ev.divides)[0])


def _score_text(shown: ShownRows, row: int) -> str:
    return full_text(shown.ev.doc.score[shown.row(row)])


def _grade_edit_text(shown: ShownRows, row: int) -> str:
    i = shown.row(row)
    return grade_text(float(shown.ev.doc.grade[i]), int(shown.ev.doc.state[i]))


def _note(shown: ShownRows, row: int) -> str:
    return shown.ev.doc.note_text(shown.row(row))


def _note_tip(shown: ShownRows, row: int) -> str | None:
    """The whole note (the cell shows it on one line, a long one elided)."""
    return _note(shown, row) or None


def edited(shown: ShownRows, row: int) -> bool:
    """Whether the grade at ``row`` differs from its original (as read)."""
    return bool(shown.ev.doc.changed(shown.rows[row:row + 1])[0])


def _original(shown: ShownRows, row: int) -> Any:
    doc, i = shown.ev.doc, shown.row(row)
    state = _STATES[int(doc.original_state[i])]
    return float(doc.original_grade[i]) if state is GradeState.NUMBER else state.label


def _original_text(shown: ShownRows, row: int) -> str:
    doc, i = shown.ev.doc, shown.row(row)
    return grade_text(float(doc.original_grade[i]), int(doc.original_state[i]))


def edited_from(shown: ShownRows, row: int) -> str:
    """How an edited grade's original reads ("edited: originally 3"): in
    the grade's and the original's tooltips, and said by a screen reader."""
    return f"edited: originally {_original_text(shown, row)}"


def _original_tip(shown: ShownRows, row: int) -> str:
    if edited(shown, row):
        return f"{edited_from(shown, row)}, now {_grade_edit_text(shown, row)}"
    return f"{_original_text(shown, row)}: as first read, not edited"


# -- the table ------------------------------------------------------------------------------
# The ideal list read two ways, one name each: the grid says of each
# candidate its own place in the ideal list; the workbook, row by row, the
# k-th entry of the query's ideal list beside its k-th row.
_OWN_RANK = "Its ideal rank"
_LIST_K = "ideal list k"

#: Every candidate column: the grid's in its order, then those only the
#: workbook shows. The grid leads with the rank (a row's place in the list);
#: the workbook, one row per candidate of every query, with the query.
COLUMNS: tuple[CandidateColumn, ...] = (
    CandidateColumn(
        "rank", "Rank", _rank, tooltip=_rank_tip, sheet=("I", "rank"), ranked_only=True,
        formula=lambda c: f"1-based position in the ranked list: score descending; ties: "
                          f"{c.ties.label} ({c.ties.formula})"),
    CandidateColumn(
        "source", "Source", lambda s, r: s.ev.doc.source_text(s.row(r)), align=Align.LEFT,
        sheet=("B", "source id"), formula=lambda c: "the candidate's source id"),
    CandidateColumn(
        "version", "Version", lambda s, r: s.ev.doc.version_text(s.row(r)), align=Align.LEFT,
        sheet=("C", "version"), formula=lambda c: "the source's version"),
    CandidateColumn(
        "score", "Score", lambda s, r: _number(s.ev.doc.score[s.row(r)]), tooltip=_score_text,
        edit=_score_text, sheet=("D", "predicted score"), ranked_only=True,
        formula=lambda c: "the ranker's predicted score (full precision on hover); not a grade"),
    # The grid shows it (beside the grade: app.panels.column_chooser) once a
    # grade is edited; the workbook always, beside the current grade.
    CandidateColumn(
        "original", "Original", _original, tooltip=_original_tip, align=Align.LEFT,
        state_words=True, edits_only=True, sheet=("E", "original grade"),
        formula=lambda c: "the grade as first read, before any edit (never overwritten); "
                          "the grid shows it once a grade is edited, and marks an edited "
                          f"grade with {EDITED_MARK}"),
    CandidateColumn(
        "grade", "Grade", _grade, tooltip=_grade_tip, align=Align.LEFT, edit=_grade_edit_text,
        state_words=True, sheet=("F", "current grade"),
        formula=_grade_formula),
    CandidateColumn(
        "state", "Grade state", _state, tooltip=_grade_tip, align=Align.LEFT,
        state_words=True, sheet=("G", "grade state"),
        formula=lambda c: "number, unknown (never judged) or unrateable (looked at, could not "
                          "be judged); outside-rubric grades are flagged"),
    # The grid shows it after the key columns and the score
    # (app.panels.column_chooser), a long note elided, whole on hover.
    CandidateColumn(
        "note", "Note", _note, tooltip=_note_tip, edit=_note, align=Align.LEFT,
        sheet=("H", "note"),
        formula=lambda c: "the reviewer's note: why a grade is so, in their words (F2, or "
                          "start typing, to write it; Enter keeps it, Escape cancels); "
                          "never a number, never a grade"),
    CandidateColumn(
        "gain", "Gain", _gain, tooltip=_gain_tip, state_words=True,
        sheet=("J", "transformed gain"),
        formula=lambda c: f"{c.gain.formula}; {c.unknown.formula}"),
    CandidateColumn(
        "discount", "Discount", lambda s, r: _number(s.values.discount[r]),
        tooltip=lambda s, r: f"{s.ev.conventions.discount.formula}: "
                             f"{full_text(s.values.discount[r])}",
        sheet=("K", "discount"), ranked_only=True,
        formula=lambda c: f"{c.discount.formula}; ties: {c.ties.formula}"),
    CandidateColumn(
        "contribution", "Contribution", _contribution, tooltip=_contribution_tip,
        state_words=True, sheet=("L", "contribution"), ranked_only=True,
        # (a grade edited in a tie group of one gain, or of two gains, turns
        # its others' contributions to the mean discount, or to their own)
        follows=lambda s: s.values.contribution,
        formula=_contribution_formula),
    CandidateColumn(
        "cumulative", "Cumulative DCG", _cumulative, tooltip=_cumulative_tip,
        state_words=True, follows=lambda s: s.cumulative, ranked_only=True,
        formula=lambda c: "cumulative DCG at rank r = sum of the contributions at ranks 1..r "
                          "(the whole list)"),
    CandidateColumn(
        "ideal_rank", _OWN_RANK, _ideal_rank, tooltip=_ideal_rank_tip, state_words=True,
        follows=lambda s: s.values.ideal_rank,
        formula=lambda c: f"this candidate's place in the query's ideal list (not the "
                          f"workbook's {_LIST_K!r}, which counts down the query's rows); "
                          f"{c.ideal.formula}; a grade whose gain is not known (unknown, "
                          "unrateable) has none"),
    CandidateColumn(
        "ideal_gain", "Its ideal gain", _ideal_gain, tooltip=_gain_tip, state_words=True,
        formula=lambda c: f"the gain this candidate brings to the ideal list, at {_OWN_RANK!r} "
                          f"({c.gain.formula})"),
    CandidateColumn(
        "ideal_contribution", "Its ideal contribution", _ideal_contribution,
        tooltip=_ideal_contribution_tip, state_words=True,
        follows=lambda s: s.values.ideal_contribution,
        formula=lambda c: "this candidate's ideal contribution = its ideal gain × "
                          "discount(its ideal rank) = its ideal gain / log2(its ideal rank + 1); "
                          f"{c.ideal.label}"),
    # The workbook's own: every query's rows on one sheet, and the query's
    # ideal list position by position beside its rows (where the grid says, of each
    # candidate, its place in the ideal list).
    CandidateColumn(
        "query", "Query", lambda s, r: s.ev.doc.query_ids[int(s.ev.doc.query[s.row(r)])],
        align=Align.LEFT, grid=False, sheet=("A", "query"),
        formula=lambda c: "the query the candidate was retrieved or judged for"),
    CandidateColumn(
        "ideal_list_rank", _LIST_K.capitalize(), lambda s, r: r + 1, grid=False,
        sheet=("M", _LIST_K),
        formula=lambda c: "k = the row's place in its query's rows: the k-th entry of the "
                          f"query's ideal list is beside it (not this row's candidate's place, "
                          f"which the grid's {_OWN_RANK!r} says); {c.ideal.formula}"),
    CandidateColumn(
        "ideal_list_gain", "k-th ideal gain", _ideal_list_gain, grid=False,
        sheet=("N", "k-th ideal gain"),
        formula=lambda c: f"the gain of the k-th entry of the query's ideal list "
                          f"({c.gain.formula}); unknown gains are left out"),
    CandidateColumn(
        "ideal_list_contribution", "k-th ideal contribution", _ideal_list_contribution,
        grid=False, sheet=("O", "k-th ideal contribution"),
        formula=lambda c: "the k-th ideal gain × discount(k): the ideal DCG at k is the sum "
                          "of these down to row k"),
)

#: The columns of the editor's grid, in its order.
GRID_COLUMNS: tuple[CandidateColumn, ...] = tuple(c for c in COLUMNS if c.grid)
