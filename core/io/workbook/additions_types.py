"""What people added to a workbook of ours, as it is written again: the
data :mod:`core.io.workbook.additions` (``.xlsx``, openpyxl) and
:mod:`core.io.workbook.additions_ods` (``.ods``, calamine) read and
:mod:`core.io.workbook.carry` writes."""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, field, replace
from typing import Any

from core.io.workbook.column_moves import moved_formula
from core.io.workbook.layout import (
    CANDIDATE_COLUMNS,
    COLUMN_INDEX,
    COMPARISON_SHEETS,
    REASON_COLUMN,
    REASON_HEADER,
    SHEETS,
)
from core.io.workbook.record import FirstRow, record_sheet
from core.model.numbers import counted

__all__ = [
    "FIRST_ADDED_COLUMN",
    "OUR_SHEETS",
    "Additions",
    "CandidateAdditions",
    "CarriedSheet",
    "Cell",
    "Comment",
    "Key",
    "RecordColumns",
    "key_text",
    "moved",
    "our_sheets",
    "reasons_written",
    "shifted",
]

#: The sheets the product writes (anything else is a person's own).
OUR_SHEETS = frozenset(SHEETS.values()) | frozenset(COMPARISON_SHEETS.values())
#: The first column a person's own Candidates column can be in (0-based: AB;
#: AC where the export's reason column is written there: :func:`shifted`).
FIRST_ADDED_COLUMN = len(CANDIDATE_COLUMNS)

Key = tuple[str, str]


def our_sheets(sheets: list[str], names: dict[str, str], first_row: FirstRow | None = None,
               file: str = "") -> tuple[frozenset[str], str]:
    """The sheets of a workbook (``sheets``, its defined ``names``) the
    product wrote, and the name its Annotators sheet has when a person
    renamed it ("" when not): that sheet is ours, and a sheet of theirs
    may then be called Annotators. Without the defined name, the record is
    the sheet holding its header (``first_row``: a sheet's header row;
    :func:`~core.io.workbook.record.record_sheet`, which refuses two)."""
    record = record_sheet(sheets, names, first_row, file)
    if record is None or record == SHEETS["annotators"]:
        return OUR_SHEETS, ""
    return (OUR_SHEETS - {SHEETS["annotators"]}) | {record}, record


@dataclass(frozen=True)
class Cell:
    """One cell to write again: ``kind`` is ``n`` (number), ``s`` (text),
    ``b`` (boolean) or ``f`` (formula: ``value`` is its text without ``=``,
    ``cached`` its last result)."""

    row: int
    col: int
    kind: str
    value: Any
    cached: Any = None
    number_format: str = "General"
    fill: str = ""  #: RRGGBB of a solid fill, "" for none
    #: The rest of its look, as xlsxwriter format properties (font, alignment,
    #: borders), in a fixed order.
    look: tuple[tuple[str, Any], ...] = ()
    #: Its formula was written where the Candidates sheet held the export's
    #: reason column (AB): its references are moved as the column comes or
    #: goes (:func:`moved`).
    reasons: bool = False
    #: The sheet row (0-based) a person's formula on a candidate's row was
    #: read at (None: another cell). It is written at its candidate's row,
    #: its relative references moved along as a sort in a spreadsheet moves
    #: them (:func:`~core.io.workbook.carry.CandidateExtras`).
    origin_row: int | None = None


@dataclass(frozen=True)
class RecordColumns:
    """The Annotators record's cells (``rows``: called for them, from A1;
    a record whose header tells its columns is read only when a column's
    values are asked), where its identity columns are (``query``,
    ``source``) and its other columns (``columns``: index and header),
    their values by candidate made only when asked (:meth:`values`: the
    annotators' columns never are), and the annotators its workbook's
    metadata names (``named``, read when asked: the record's own columns
    where the document saved over it has other annotators)."""

    rows: Callable[[], list[list[Any]]]
    query: int
    source: int
    columns: list[tuple[int, str]]
    named: Callable[[], Collection[str]] = tuple

    def __bool__(self) -> bool:
        return bool(self.columns)

    def values(self, c: int) -> dict[Key, Any]:
        """Column ``c``'s filled cells by their rows' candidates."""
        q, s = self.query, self.source
        return {(key_text(_id(row, q)), key_text(_id(row, s))): row[c]
                for row in self.rows()[1:] if c < len(row) and row[c] is not None
                and row[c] != ""}


def _id(row: list[Any], c: int) -> Any:
    v = row[c] if c < len(row) else ""
    return "" if v is None else v


@dataclass(frozen=True)
class Comment:
    row: int
    col: int
    text: str
    author: str = ""


@dataclass
class CarriedSheet:
    """A sheet of the person's own, as it will be written again."""

    name: str
    cells: list[Cell] = field(default_factory=list)
    widths: dict[int, float] = field(default_factory=dict)
    merged: list[tuple[int, int, int, int]] = field(default_factory=list)
    comments: list[Comment] = field(default_factory=list)
    hidden: bool = False


@dataclass
class CandidateAdditions:
    """The Candidates sheet's additions: header cells of added columns (row
    0), their widths, and per candidate the cells of added columns and the
    comments on any of its cells (``row`` 0 in each: the row is where the
    candidate is written)."""

    header: list[Cell] = field(default_factory=list)
    header_comments: list[Comment] = field(default_factory=list)
    widths: dict[int, float] = field(default_factory=dict)
    cells: dict[Key, list[Cell]] = field(default_factory=dict)
    comments: dict[Key, list[Comment]] = field(default_factory=dict)
    #: Solid fills a person gave our cells (column, RRGGBB), by candidate.
    fills: dict[Key, list[tuple[int, str]]] = field(default_factory=dict)
    #: A person's comments on the export's reason column (its header's
    #: first), by candidate: held apart from ``comments``, since a person's
    #: first column is read as that column too (:func:`reasons_written`);
    #: :func:`shifted` puts them back on it, or on the grade where the next
    #: save writes no reason column.
    reason_header_comments: list[Comment] = field(default_factory=list)
    reason_comments: dict[Key, list[Comment]] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.header or self.header_comments or self.cells or self.comments
                    or self.fills or self.reason_header_comments or self.reason_comments)


def reasons_written(header: Any) -> bool:
    """Whether a Candidates sheet's header cell at
    :data:`~core.io.workbook.layout.REASON_COLUMN` (AB; None where there is
    none) is the export's reason column's: a person's own columns then
    begin a column later. The additions are read as though the column were
    not there (a person's first column AB), and :func:`shifted` puts them
    after it again where the next save writes it."""
    return isinstance(header, str) and header.strip() == REASON_HEADER


def moved(cell: Cell, reasons: bool, *, on_sheet: bool = True) -> Cell:
    """``cell`` as written where the Candidates sheet holds the reason column
    (``reasons``) or not: a formula's references to the Candidates sheet
    moved as a spreadsheet moves them when that column is inserted or
    deleted (:func:`~core.io.workbook.column_moves.moved_formula`;
    ``on_sheet``: the cell is on the Candidates sheet), where it was written
    the other way."""
    if cell.kind != "f" or cell.reasons == reasons:
        return cell
    return replace(cell, value=moved_formula(str(cell.value), int(reasons) - int(cell.reasons),
                                             on_sheet=on_sheet), reasons=reasons)


def shifted(add: CandidateAdditions, by: int) -> CandidateAdditions:
    """``add`` with a person's columns (from :data:`FIRST_ADDED_COLUMN` on:
    their header, widths, cells and the comments on them) ``by`` columns to
    the right (1 where the save writes the reason column), their formulas'
    references moved with them (:func:`moved`); comments and fills on our
    columns stay. A person's comments on the reason column go back on it,
    or, where the save writes none (no grade has a reason any more), on the
    grade they were about (:func:`_on_grade`)."""
    def col(c: int) -> int:
        return c + by if c >= FIRST_ADDED_COLUMN else c

    if by:
        header_comments = [replace(n, col=col(n.col)) for n in add.header_comments]
        header_comments += [replace(n, col=REASON_COLUMN) for n in add.reason_header_comments]
        comments = {k: [replace(n, col=col(n.col)) for n in v] for k, v in add.comments.items()}
        for k, v in add.reason_comments.items():
            comments.setdefault(k, []).extend(replace(n, col=REASON_COLUMN) for n in v)
    else:
        header_comments = _on_grade(add.header_comments, add.reason_header_comments)
        comments = dict(add.comments)
        for k, v in add.reason_comments.items():
            comments[k] = _on_grade(add.comments.get(k, []), v)
    return CandidateAdditions(
        header=[replace(moved(c, bool(by)), col=col(c.col)) for c in add.header],
        header_comments=header_comments,
        widths={col(c): w for c, w in add.widths.items()},
        cells={k: [replace(moved(c, bool(by)), col=col(c.col)) for c in v]
               for k, v in add.cells.items()},
        comments=comments, fills=add.fills)


def _on_grade(notes: list[Comment], moved: list[Comment]) -> list[Comment]:
    """``notes`` (one row's) with the comments ``moved`` from the reason
    column put on the grade cell, after the text of a comment already there
    (a cell holds one comment)."""
    if not moved:
        return notes
    grade = COLUMN_INDEX["current grade"]
    there = [n for n in notes if n.col == grade]
    text = "\n\n".join(n.text for n in [*there, *moved])
    author = next((n.author for n in [*there, *moved] if n.author), "")
    return [n for n in notes if n.col != grade] + [
        Comment(moved[0].row, grade, text, author)]


@dataclass
class Additions:
    """What a person added to a workbook: written again by the next save."""

    source: str = ""
    sheets: list[CarriedSheet] = field(default_factory=list)
    candidates: CandidateAdditions = field(default_factory=CandidateAdditions)
    #: What the next save cannot keep, each said in words.
    not_carried: list[str] = field(default_factory=list)
    #: The name a person gave the Annotators sheet ("" when not renamed):
    #: the next save writes the sheet under it.
    annotators_name: str = ""
    #: The Annotators record's columns besides its identity and consensus
    #: ones (:mod:`~core.io.workbook.record_columns`): the export writes
    #: again those that are no annotator's of the document saved.
    annotator_columns: RecordColumns | None = None

    def __bool__(self) -> bool:
        return bool(self.sheets or self.candidates)

    def beyond(self, carried: Additions) -> Additions:
        """What this holds that ``carried`` (what a writer put there) lacks: its
        sheets of other names, and the Candidates header cells, cells,
        comments and colours not among ``carried``'s (a merged workbook
        carries its base's and reviewers' additions; one added since is
        someone's work)."""
        mine, kept = self.candidates, carried.candidates
        names = {s.name for s in carried.sheets}
        out = Additions(self.source, [s for s in self.sheets if s.name not in names],
                        not_carried=list(self.not_carried))
        header = {(cell.col, cell.value) for cell in kept.header}
        out.candidates.header = [cell for cell in mine.header
                                 if (cell.col, cell.value) not in header]
        out.candidates.cells = _beyond(mine.cells, kept.cells, lambda x: (x.col, x.value))
        out.candidates.comments = _beyond(mine.comments, kept.comments,
                                          lambda x: (x.col, x.text))
        out.candidates.fills = _beyond(mine.fills, kept.fills, lambda x: x)
        out.candidates.reason_comments = _beyond(mine.reason_comments, kept.reason_comments,
                                                 lambda x: x.text)
        return out

    def summary(self) -> str:
        """What will be kept, in words ("" when nothing)."""
        parts = [f"sheet {s.name!r}" for s in self.sheets]
        c = self.candidates
        added = {cell.col for cell in c.header} | {
            cell.col for cells in c.cells.values() for cell in cells}
        if added:
            parts.append(counted(len(added), "added Candidates column"))
        n = sum(len(v) for v in [*c.comments.values(), *c.reason_comments.values()]) + len(
            c.header_comments) + len(c.reason_header_comments)
        if n:
            parts.append(counted(n, "Candidates comment"))
        n = sum(len(v) for v in c.fills.values())
        if n:
            parts.append(counted(n, "Candidates cell colour"))
        return ", ".join(parts)


def _beyond(mine: dict[Key, list[Any]], kept: dict[Key, list[Any]],
            what: Callable[[Any], Any]) -> dict[Key, list[Any]]:
    """``mine``'s items, by candidate, whose ``what`` is not among ``kept``'s."""
    out = {}
    for key, items in mine.items():
        known = {what(x) for x in kept.get(key, [])}
        extra = [x for x in items if what(x) not in known]
        if extra:
            out[key] = extra
    return out


def key_text(value: Any) -> str:
    """A query or source id cell's value as the key text (a number as the
    document writes it)."""
    from core.model.numbers import number_text

    return number_text(value) if isinstance(value, float) else str(value)
