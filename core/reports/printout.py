"""What a reviewer hands over, as text: the conventions declared and, per
query, its candidates' rows in the editor's grid's columns and its numbers
at each cutoff, every cell written as the editor shows it (rounded for
display only: the evaluation keeps full precision).

The editor's File > Print, Print Preview and Export PDF lay these texts out
(``app/printing.py``); nothing here knows Qt. The columns are the grid's
own declarations (:data:`core.engine.columns.GRID_COLUMNS`), picked by key
(:data:`PRINTED`): their titles, values and alignment come from there; the
rows are the grids' (:func:`core.engine.columns.listed_rows`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from core.analysis.aggregate import summarize
from core.analysis.bounds import ndcg_bounds
from core.engine.columns import (
    EDITED_MARK,
    GRID_COLUMNS,
    Align,
    CandidateColumn,
    ShownRows,
    edited,
    listed_rows,
    score_digits,
)
from core.engine.evaluation import Evaluation, IntArray
from core.engine.results import Status
from core.model.conventions import Conventions, field_rows, format_cutoff
from core.model.document import GradeState
from core.model.numbers import DECIMALS, fixed_text, shown_text
from core.reports.sentences import interval_words, mean_head

__all__ = ["NOTHING", "PRINTED", "Cell", "ConventionLine", "CutoffLine", "QueryPrintout",
           "RowsTable", "cell_text", "convention_lines", "mean_lines", "printed_columns",
           "query_printout"]

#: The grid's columns a printout may hold, by key: the rank, the ids, the
#: score, the grade (its state's word where it is no number, an unrateable
#: one's reason, an edited one marked) with the original (once a grade of
#: the document is edited, as the grid shows it), the gain, discount,
#: contribution and running DCG, and the note. In this order where no grid
#: says another; the editor prints those its grid shows, in the grid's
#: order (``keys`` of :func:`query_printout`). The ideal list's columns are
#: the cutoff table's ideal DCG; the grade state's is the grade's word.
PRINTED: tuple[str, ...] = ("rank", "source", "version", "score", "grade", "original", "gain",
                            "discount", "contribution", "cumulative", "note")
#: What an empty cell or a number not determined shows (as the grid's).
NOTHING = "—"
#: A tie group's bracket beside its ranks (as the grid draws it).
_BRACKET = {"first": "┌", "middle": "│", "last": "└"}
_WORDS = frozenset(s.label for s in GradeState if s is not GradeState.NUMBER)
#: The columns left out where every row printed has them empty.
_BLANKABLE = ("version", "note")
_GRID_KEYS = {c.key for c in GRID_COLUMNS}
assert set(PRINTED) <= _GRID_KEYS, "PRINTED names a column the grid has not"


@dataclass(frozen=True)
class Cell:
    """One cell's ``text`` as the editor shows it; ``word``: it is a grade
    state's word (``unknown``, ``unrateable``), which the grid sets in italics."""

    text: str
    word: bool = False


@dataclass(frozen=True)
class RowsTable:
    """Some rows of one query: the columns' keys, titles and alignments, and the cells."""

    keys: tuple[str, ...]
    heads: tuple[str, ...]
    aligns: tuple[Align, ...]
    rows: tuple[tuple[Cell, ...], ...]


@dataclass(frozen=True)
class CutoffLine:
    """One query's numbers at one cutoff as texts (:data:`NOTHING` where not
    determined, as the summary's table), and its status with the reason
    where it is not ``ok`` (an unresolved one's with the interval its
    unknown grades could still produce, as the summary says it below)."""

    k: str
    dcg: str
    idcg: str
    ndcg: str
    status: Status
    reason: str


@dataclass(frozen=True)
class QueryPrintout:
    """One query as printed: its id and text, its ranked rows, its judged
    candidates the run did not retrieve, its numbers at every cutoff."""

    query: str
    text: str
    ranked: RowsTable
    not_retrieved: RowsTable
    cutoffs: tuple[CutoffLine, ...]


@dataclass(frozen=True)
class ConventionLine:
    """A convention as the conventions panel names it (``title``), its
    choice in words (``none`` where it declares nothing) and its formula."""

    title: str
    words: str
    formula: str


def convention_lines(c: Conventions, *, decimals: int | None = DECIMALS,
                     annotated: bool = False) -> list[ConventionLine]:
    """Every convention ``c`` declares, one line a row of
    :meth:`~core.model.conventions.Conventions.describe` (the gain's parts
    said by the gain), headed by its first field's panel title; the
    consensus of annotators only when ``annotated``.

    >>> [(line.title, line.words) for line in convention_lines(Conventions())][:3]
    [('Gain', 'linear gain'), ('Discount', 'log2 discount'), ('Cutoffs k', 'k = all')]
    """
    said = {row: (words, formula)
            for row, words, formula in c.describe(decimals, annotated=annotated)}
    lines = []
    for row, group in field_rows(annotated):
        words, formula = said.get(row, ("none", ""))
        lines.append(ConventionLine(group[0].title, words, formula))
    return lines


def mean_lines(ev: Evaluation, *, decimals: int = DECIMALS) -> list[str]:
    """The means of ``ev`` at every cutoff, a sentence each under the
    declared weighting (the conventions said apart, above them).

    >>> from core.model.document import Document
    >>> from core.engine.evaluation import evaluate
    >>> doc = Document.from_columns(query=["q", "q", "r"], source_id=list("abc"),
    ...                             score=[2.0, 1.0, 1.0], grade=[0.0, 1.0, 0.0])
    >>> mean_lines(evaluate(doc), decimals=2)
    ['The equal-query mean of NDCG@all over 1 of 2 queries is 0.63 (excluded: 1 undefined).']
    """
    return [f"{mean_head(s, ev.doc.n_queries_named, decimals=decimals)}."
            for s in summarize(ev)]


def printed_columns(ev: Evaluation, rows: IntArray, *, ranked: bool = True,
                    keys: Sequence[str] = PRINTED) -> tuple[CandidateColumn, ...]:
    """The grid's columns a printout of ``ev``'s ``rows`` holds: those of
    ``keys`` (a grid's shown columns in its order) that :data:`PRINTED`
    holds; the original grade only once a grade of the document is edited;
    the version and the note only where one of ``rows`` has one (the grid
    narrows them to their headers); of rows not ranked (``ranked=False``)
    none that says nothing of them."""
    by_key = {c.key: c for c in GRID_COLUMNS}
    edits = ev.doc.has_changes()
    return tuple(by_key[k] for k in keys if k in PRINTED
                 and (edits or not by_key[k].edits_only)
                 and (ranked or not by_key[k].ranked_only)
                 and not (k in _BLANKABLE and ev.doc.blank(k, rows)))


def _number(value: Any, decimals: int) -> str:
    """A value as the grid's number cells show it (``format_number``)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return NOTHING
    if isinstance(value, float):
        return fixed_text(value, decimals)
    return str(value)


def _grade(shown: ShownRows, row: int, value: Any, decimals: int) -> str:
    """A grade as the grid shows it: the number with its rubric label, or
    the state's word with an unrateable grade's reason (an unknown one's:
    why no one judged it), an edited grade after :data:`EDITED_MARK`."""
    i = shown.row(row)
    if isinstance(value, float):
        label = shown.rubric.label_for(value)
        text = shown_text(value, decimals)
        text = f"{text} - {label}" if label else text
    else:
        why = shown.ev.doc.reason_text(i)
        text = f"{value}: {why}" if why else str(value)
    return f"{EDITED_MARK} {text}" if edited(shown, row) else text


def cell_text(col: CandidateColumn, shown: ShownRows, row: int, *,
              decimals: int = DECIMALS) -> Cell:
    """Row ``row``'s cell of ``col`` as the editor's grid shows it at
    ``decimals`` digits: a number rounded (a score with the digits that tell
    it from its neighbours'), a grade whole as typed, an id or a note as
    it is (a layout cuts or wraps it), :data:`NOTHING` for an empty cell."""
    value = col.value(shown, row)
    word = col.state_words and value in _WORDS
    if col.key == "grade":
        return Cell(_grade(shown, row, value, decimals), word)
    if isinstance(value, str):
        return Cell(value, word)
    if col.key == "original" and isinstance(value, float):
        return Cell(shown_text(value, decimals))
    if col.key == "score" and isinstance(value, float):
        return Cell(_number(value, max(decimals, score_digits(shown, row))))
    text = _number(value, decimals)
    tie = shown.ties.get(shown.row(row)) if col.key == "rank" else None
    return Cell(f"{_BRACKET[tie.place]} {text}" if tie is not None else text)


def _interval(ev: Evaluation, q: int, j: int, decimals: int) -> str:
    """Query ``q``'s NDCG interval at cutoff ``j`` (unresolved) in the
    summary's words (:func:`~core.reports.sentences.interval_words`)."""
    return f"NDCG {interval_words(ndcg_bounds(ev, q, j), decimals)}"


def _table(ev: Evaluation, q: int, section: str, decimals: int,
           keys: Sequence[str]) -> RowsTable:
    ranked = section == "ranked"
    rows = listed_rows(ev, q, section)
    columns = printed_columns(ev, rows, ranked=ranked, keys=keys)
    shown = ShownRows.of(ev, q, rows, ranked=ranked)
    cells = tuple(tuple(cell_text(c, shown, r, decimals=decimals) for c in columns)
                  for r in range(rows.size))
    return RowsTable(tuple(c.key for c in columns), tuple(c.title for c in columns),
                     tuple(c.align for c in columns), cells)


def query_printout(ev: Evaluation, q: int, *, decimals: int = DECIMALS,
                   keys: Sequence[str] = PRINTED) -> QueryPrintout:
    """Query ``q`` of ``ev`` as printed, its numbers at ``decimals`` digits,
    in the columns of ``keys`` :data:`PRINTED` holds (:func:`printed_columns`).

    >>> from core.model.document import Document
    >>> from core.engine.evaluation import evaluate
    >>> doc = Document.from_columns(query=["q"] * 3, source_id=list("abc"),
    ...                             score=[3.0, 2.0, 1.0], grade=[0.0, 2.0, None])
    >>> out = query_printout(evaluate(doc), 0, decimals=2)
    >>> [cell.text for cell in out.ranked.rows[1]]
    ['2', 'b', '2.00', '2', '2.00', '0.63', '1.26', '1.26']
    >>> [(c.k, c.ndcg, c.status.value) for c in out.cutoffs]
    [('all', '—', 'unresolved')]
    >>> out.cutoffs[0].reason.rsplit("; ", 1)[1]
    'NDCG between 0.63 and 0.69'
    """
    doc = ev.doc
    lines = []
    for j, k in enumerate(ev.cutoffs):
        status = ev.status(q, j)
        dcg, idcg, ndcg = (_number(float(a[q, j]), decimals) for a in (ev.dcg, ev.idcg, ev.ndcg))
        reason = "" if status is Status.OK else status.reason
        if status is Status.UNRESOLVED:
            reason = f"{reason}; {_interval(ev, q, j, decimals)}"
        lines.append(CutoffLine(format_cutoff(k), dcg, idcg, ndcg, status, reason))
    return QueryPrintout(doc.query_ids[q], doc.query_text(q),
                         _table(ev, q, "ranked", decimals, keys),
                         _table(ev, q, "not_retrieved", decimals, keys), tuple(lines))
