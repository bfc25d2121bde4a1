"""Transposed sheets: one row per respondent, one column per item, as survey
tools write a grid question (Google Forms ``Rate the results for: cheap
flights [https://a.example]``, Qualtrics ``cheap flights - https://a.example``).

When several columns of grades have headers that each name a query and a
source by one pattern (``query [source]``, ``query - source``, ``query |
source``), the sheet is turned into the long layout: one row per
respondent and item, with the item's query and source, the respondent's
other cells (e-mail, timestamp, status) repeated, and the grade. The
pattern used is said in the table's notes. A question's wording before a
colon or around a quoted query (``Rate the results for: X``, ``How
relevant is each page to "X"?``) is left out of the query.

Survey tools may write more than one header row (Qualtrics: the column ids
``QID1_1``, then the question texts, then ``{"ImportId": ...}``). Rows
right below the header that read as headers, not as answers
(:func:`stacked_header_rows`: cells that are metadata objects, or texts
where the rows below hold grades and numbers) are header rows too: the items
are read from whichever of them names most, the other columns keep the
first header's names, and the answers start below the last.

Everything the import says of the reshaped table names the file's own row
and column (:class:`~core.io.annotator.model.Origin`): each message asks
the table for its places where it is made
(:meth:`~core.io.annotator.model.Table.place`,
:meth:`~core.io.annotator.model.Table.cell_ref`), and
:func:`restore_places` sets the findings' own rows and columns.

Columns of grades whose headers name no item by any pattern are a
transposed sheet that cannot be read: :func:`unreadable_items` says so in
words, without suggesting flags that cannot help.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from core.io.annotator.cells import Reject, few_levels, grade_like, number
from core.io.annotator.model import Origin, Table, cell_text
from core.io.annotator.names import bookkeeping_header, name_field
from core.io.annotator.report import ImportReport, Issue
from core.io.annotator.sheet import Sheet

__all__ = ["PATTERNS", "metadata_cell", "restore_places", "stacked_header_rows",
           "unreadable_items", "untranspose"]

#: (how people see it, the header's pattern): query first, source second.
PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("query [source]", re.compile(r"^(?P<q>.+?)\s*\[(?P<s>[^\[\]]+)\]\s*$")),
    ("query - source", re.compile(r"^(?P<q>.+)\s+[-\u2013\u2014]\s+(?P<s>\S.*)$")),
    ("query | source", re.compile(r"^(?P<q>.+?)\s*\|\s*(?P<s>.+)$")),
)
_QUOTED = re.compile(r"[\"'\u201c\u2018](?P<q>[^\"'\u201d\u2019]+)[\"'\u201d\u2019]")
_MIN_ITEMS = 2
_SAMPLE = 200
#: Header rows a survey tool may stack below its first.
_MAX_STACKED = 3
_MARKS = frozenset({"", "n/a", "na", "-", "?"})


def metadata_cell(value: Any) -> bool:
    """A cell holding a JSON object (Qualtrics' ``{"ImportId":"QID1_1"}``):
    a tool's own description of its column, not a name people read, nor an
    answer."""
    if type(value) is not str:
        return False
    text = value.strip()
    if not (text.startswith("{") and text.endswith("}")):
        return False
    try:
        return isinstance(json.loads(text), dict)
    except ValueError:
        return False


def _header_like(row: Sequence[Any], below: list[list[Any]], width: int) -> bool:
    """Whether ``row`` is one more header row above the answers ``below``:
    nearly all its cells metadata objects; or texts none of the answers
    repeat in their columns, one at least over a column of grades."""
    cells = [(c, cell_text(v).strip()) for c, v in enumerate(row[:width])]
    filled = [(c, t) for c, t in cells if t]
    if len(filled) < 2 or not below:
        return False
    if sum(metadata_cell(row[c]) for c, _ in filled) >= 0.8 * len(filled):
        return True
    over_grades = 0
    for c, text in filled:
        answers = [r[c] for r in below if c < len(r) and cell_text(r[c]).strip()]
        seen = {cell_text(v).strip().casefold() for v in answers}
        if text.casefold() in seen:
            return False
        if answers and grade_like(answers, set(_MARKS)) and not grade_like([text], set(_MARKS)):
            over_grades += 1
    return over_grades > 0


def stacked_header_rows(rows: list[list[Any]], header_row: int) -> list[int]:
    """The rows right below ``header_row`` that are header rows too (at most
    three), told by what they hold (:func:`_header_like`), not by a tool's name."""
    width = len(rows[header_row]) if header_row < len(rows) else 0
    below = [r for r in rows[header_row + 1 + _MAX_STACKED:header_row + 1 + _MAX_STACKED + _SAMPLE]
             if any(cell_text(v).strip() for v in r)]
    out: list[int] = []
    for at in range(header_row + 1, min(header_row + 1 + _MAX_STACKED, len(rows))):
        if not _header_like(rows[at], below, width):
            break
        out.append(at)
    return out


def _query(text: str) -> str:
    """The query of a header's question part: a quoted query, else the text
    after a colon, else the whole."""
    m = _QUOTED.search(text)
    if m:
        return m.group("q").strip()
    if ":" in text and not text.rstrip().endswith(":"):
        tail = text.rsplit(":", 1)[1].strip()
        if tail and "//" not in tail:
            return tail.rstrip("?").strip()
    return text.strip().rstrip("?").strip()


def _graded_columns(rows: list[list[Any]], first: int, width: int) -> list[int]:
    """The columns whose answers (rows from ``first`` on) read as grades."""
    return _Answers(rows, first, width).graded


class _Answers:
    """What a survey's columns hold (rows from ``first`` on): the columns
    whose answers read as grades (``graded``), with the numbers among them
    (``numbers``), and those whose answers are numbers that do not
    (``measured``: seconds, counts)."""

    def __init__(self, rows: list[list[Any]], first: int, width: int) -> None:
        sample = rows[first:first + _SAMPLE]
        self.graded: list[int] = []
        self.measured: set[int] = set()
        self.numbers: dict[int, list[float]] = {}
        for c in range(width):
            cells = [r[c] for r in sample if c < len(r) and cell_text(r[c]).strip()]
            numbers = [x for x in map(_number_or_none, cells) if x is not None]
            if cells and grade_like(cells, set(_MARKS)):
                self.graded.append(c)
                self.numbers[c] = numbers
            elif cells and len(numbers) >= 0.8 * len(cells):
                self.measured.add(c)

    def off_scale(self, found: dict[int, tuple[str, str]]) -> set[str]:
        """The queries of ``found`` (column -> (query, source)) that are no
        query of items: one some of whose columns hold numbers that are no
        grades (Qualtrics' ``Timing - First Click`` ... ``Timing - Click
        Count``: seconds and a count), or whose columns' numbers together sit
        on no scale of few levels (:func:`~core.io.annotator.cells.few_levels`:
        the same timings in whole seconds, ``1.000``, ``14.000``, each
        column's alone reading like grades) where other queries' items do
        (labels, or 0-3: the survey's scale; a survey graded 0-100 on a
        slider spreads all its queries alike, and none is left out). A
        query's items are graded on one scale; a column nobody answered, or
        one of grades with a few slips of the pen, is no such sign."""
        blocks: dict[str, list[float]] = {}
        off = set()
        for c, (query, _) in found.items():
            if c in self.measured:
                off.add(query)
            blocks.setdefault(query, []).extend(self.numbers.get(c, ()))
        scaled = {query for query, numbers in blocks.items()
                  if query not in off and few_levels(numbers)}
        return off | (set(blocks) - scaled if scaled else set())


def _number_or_none(value: Any) -> float | None:
    try:
        return number(value)
    except Reject:
        return None


#: A pattern as people see it, the items it reads (column -> (query,
#: source)) and the columns of grades it names that are no items.
_Reading = tuple[str, dict[int, tuple[str, str]], set[int]]


def _items(header: Sequence[str], answers: _Answers) -> _Reading:
    """The pattern that reads most of the graded columns' headers as (query,
    source), those, and the graded columns of a query answered off any
    scale (:meth:`_Answers.off_scale`), which are no items."""
    best: _Reading = ("", {}, set())
    for shown, pattern in PATTERNS:
        found = {}
        for c, text in enumerate(header):
            m = pattern.match(text.strip())
            if m and (c in answers.graded or c in answers.measured):
                found[c] = (_query(m.group("q")), m.group("s").strip())
        off = answers.off_scale(found)
        items = {c: item for c, item in found.items()
                 if item[0] not in off and c in answers.graded}
        if len(items) > len(best[1]):
            best = (shown, items, {c for c, item in found.items() if item[0] in off})
    return best


def _header_texts(rows: list[list[Any]], at: int) -> list[str]:
    return [cell_text(c).strip() for c in rows[at]] if at < len(rows) else []


def _best_items(rows: list[list[Any]], heads: list[int], answers: _Answers,
                ) -> tuple[int, _Reading]:
    """The header row (of ``heads``) whose cells name most items, and its
    reading (:func:`_items`)."""
    best: tuple[int, _Reading] = (heads[0], ("", {}, set()))
    for at in heads:
        reading = _items(_header_texts(rows, at), answers)
        if len(reading[1]) > len(best[1][1]):
            best = (at, reading)
    return best


def untranspose(table: Table, header_row: int) -> Table | None:
    """The long layout of a transposed sheet (None when it is not one)."""
    rows = table.rows
    if header_row >= len(rows):
        return None
    heads = [header_row, *stacked_header_rows(rows, header_row)]
    first = heads[-1] + 1
    header = _header_texts(rows, header_row)
    width = max((len(r) for r in rows[header_row:first + _SAMPLE]), default=0)
    answers = _Answers(rows, first, width)
    named_at, (shown, items, off) = _best_items(rows, heads, answers)
    graded = [c for c in answers.graded if c not in off]
    if len(items) < _MIN_ITEMS:
        return None
    header += [""] * (width - len(header))
    for at in heads[1:]:  # a column the first header leaves unnamed takes a later name
        header = [h or (t if not metadata_cell(t) else "") for h, t in
                  zip(header, [*_header_texts(rows, at), *[""] * width], strict=False)]
    others = [c for c in range(len(header)) if c not in items]
    # a column of small numbers its header names as a field (a status 0/1/2), or
    # as a platform's count of the participant's work (Total rejections), is no item
    graded = [c for c in graded if c in items or (
        name_field(header[c]).field is None and not bookkeeping_header(header[c]))]
    # most columns of grades are items; the others a survey's own (its
    # progress in percent, an attention check)
    if 2 * len(items) <= len(graded) or any(_names_item_field(header[c]) for c in others):
        return None  # a sheet with its own query and source columns is not transposed
    item_header = _header_texts(rows, named_at)
    named = [item_header[c] if c in items and c < len(item_header) else h
             for c, h in enumerate(header)]
    out, origin = _long_rows(table, (header_row, first), (header, named), others, items)
    first_item, last_item = min(items), max(items)
    stacked = (f"; header rows {', '.join(str(h + 1) for h in heads)}, the items named on row "
               f"{named_at + 1}" if len(heads) > 1 else "")
    note = (f"one row per respondent, one column per item: the {len(items)} items of columns "
            f"{item_header[first_item]!r} ... {item_header[last_item]!r} read from their "
            f"headers as {shown}{stacked}, one row per respondent and item (the rows and "
            "columns this report names are the file's own)")

    def moved(cells: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
        return [(i, j, text) for r, c, text in cells for i, j in origin.moved.get((r, c), ())]

    return Table(file=table.file, rows=out, sheet=table.sheet, sheets=table.sheets,
                 formulas=moved(table.formulas), errors=moved(table.errors),
                 encoding=table.encoding, delimiter=table.delimiter, rectangular=True,
                 notes=[*table.notes, note], origin=origin.origin)


def _names_item_field(header: str) -> bool:
    """Whether a header names a query or source column by its whole name: a
    respondent's id that holds one such word (Prolific's ``PROLIFIC_PID``)
    does not make a survey's sheet one with its own query and source."""
    named = name_field(header)
    return named.field in ("query", "source_id") and not named.by_word


class _Reshaped:
    """The origin of a reshaped table as it is built, and which table cells
    each file cell became (``moved``: file cell -> table cells)."""

    def __init__(self, origin: Origin) -> None:
        self.origin = origin
        self.moved: dict[tuple[int, int], list[tuple[int, int]]] = {}


def _long_rows(table: Table, span: tuple[int, int], headers: tuple[list[str], list[str]],
               others: list[int], items: dict[int, tuple[str, str]],
               ) -> tuple[list[list[Any]], _Reshaped]:
    """One row per respondent and item, with where each came from
    (``headers``: the other columns' names, and every column's name for the
    report, an item's the header that names it)."""
    header_row, first = span
    header, named = headers
    out: list[list[Any]] = [["query", "source_id", *(header[c] or f"column {c + 1}"
                                                     for c in others), "grade"]]
    origin = Origin(rows=[header_row], items=[-1], columns=[-1, -1, *others, -1],
                    header=named, header_row=header_row, per_row=len(items))
    shaped = _Reshaped(origin)
    where = shaped.moved
    for at, r in enumerate(table.rows[first:], start=first):
        if not any(cell_text(v).strip() for v in r):
            continue
        kept = [r[c] if c < len(r) else None for c in others]
        for c, (q, src) in items.items():
            where[(at, c)] = [(len(out), len(others) + 2)]
            origin.rows.append(at)
            origin.items.append(c)
            out.append([q, src, *kept, r[c] if c < len(r) else None])
        for k, c in enumerate(others):
            where[(at, c)] = [(i, k + 2) for i in range(len(out) - len(items), len(out))]
    return out, shaped


def unreadable_items(table: Table, header_row: int, header: Sequence[str]) -> str | None:
    """Why a sheet of many grade columns and no query or source column
    cannot be read, when its headers name no items; None otherwise."""
    width = len(header)
    first = header_row + 1 + len(stacked_header_rows(table.rows, header_row))
    graded = _graded_columns(table.rows, first, width)
    if len(graded) < 3:
        return None
    shown = ", ".join(header[c] for c in graded[:3])
    return (f"one row per respondent and one column per item ({len(graded)} columns of grades: "
            f"{shown}, ...), but the headers do not say which query and source each item is")


def restore_places(report: ImportReport, sheet: Sheet) -> None:
    """The places of what the import found in a reshaped table (the rows
    and columns beside the issues, the rejected judgments and the skipped
    rows) set to the file's own rows and columns (the letters of a
    spreadsheet); rows and marked rows counted as the file holds them (a
    respondent's row, not each of its items). The texts are left as made:
    each names its places as the table said them where it was made
    (:meth:`~core.io.annotator.model.Table.place`,
    :meth:`~core.io.annotator.model.Table.cell_ref`), so a value quoted in
    it, or a respondent's name reading ``row 9``, is never touched. Nothing
    happens to a table read as it was."""
    origin = sheet.table.origin
    if origin is None:
        return
    col_of = {sheet.name(c): c for c in range(len(sheet.names))}

    def place(row: int, column: str) -> tuple[int, str]:
        r, c = origin.cell(row - 1, col_of.get(column))
        return r + 1, origin.column_name(c)

    report.issues = [Issue(i.kind, *place(i.row, i.column), i.problem, i.value)
                     for i in report.issues]
    report.rejected_judgments = [(*place(r, c), why) for r, c, why in report.rejected_judgments]
    report.skipped_rows = list(dict.fromkeys(
        (origin.rows[r - 1] + 1, why) for r, why in report.skipped_rows))
    report.excluded = {k: n // origin.per_row for k, n in report.excluded.items()}
    report.rows_read //= origin.per_row
    report.header_row = origin.header_row + 1
