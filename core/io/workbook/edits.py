"""Grades and notes edited in the spreadsheet, taken back on reopening: each
changed grade is logged as an audit entry from outside the app."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from core.errors import InputError
from core.io.workbook.kept_text import same_as_written, same_text, written_form
from core.io.workbook.layout import (
    COLUMN_INDEX,
    GRADE_COLUMN,
    OUTSIDE_ORIGIN,
    OUTSIDE_WHO,
    SHEETS,
    written_back,
)
from core.model.audit import AuditEntry
from core.model.document import Document, GradeState
from core.model.grades import NotAGrade, PastedGrade, grade_hint, read_grade
from core.model.numbers import number_text


def _cell_text(value: Any) -> str:
    """A text cell's value as text (calamine has undone Excel's ``_xHHHH_``
    escapes); a whole number typed where text was is shown without ``.0``."""
    return number_text(value) if isinstance(value, float) else str(value)


def _parse_grade(value: Any, formula: bool, doc: Document, name: str, row: int) -> PastedGrade:
    """A current-grade cell as a grade, state and reason (the grammar of typed
    and pasted grades, :func:`core.model.grades.read_grade`; a number outside
    the rubric is taken: the sheet's dropdown only warns); InputError when it
    is not one."""
    column = f"{GRADE_COLUMN} (current grade)"

    def bad(problem: str) -> InputError:
        return InputError(problem, file=name, sheet=SHEETS["candidates"], line=row,
                          column=column,
                          hint=grade_hint(doc.conventions.rubric))

    if formula or (isinstance(value, str) and value.lstrip().startswith("=")):
        raise bad("the current grade is a formula or an error value (such as #N/A); a grade "
                  "must be typed in as a value")
    if value is None or value == "":
        return PastedGrade(None, GradeState.UNKNOWN)
    if isinstance(value, bool):
        raise bad(f"the current grade is {value!r}, not a grade")
    if isinstance(value, int | float):
        if not math.isfinite(value):
            raise bad("the current grade is not a finite number")
        return PastedGrade(float(value), GradeState.NUMBER)
    if isinstance(value, str):
        try:
            return read_grade(value, doc.conventions.rubric, outside_rubric=True)
        except ValueError as exc:  # (the hint is bad's, the grammar's own)
            why = exc.detail if isinstance(exc, NotAGrade) else str(exc)
            raise bad(f"the current grade {value.strip()!r} is not a grade"
                      + (f": {why}" if why else "")) from None
    raise bad(f"the current grade {value!r} is not a grade")


@dataclass
class CandidateCells:
    """The Candidates sheet's cells that reopening reads, one list per column,
    from the sheet's second row on (sheet row ``r`` is item ``r - 2``)."""

    query: list[Any] = field(default_factory=list)
    source: list[Any] = field(default_factory=list)
    grade: list[Any] = field(default_factory=list)
    note: list[Any] = field(default_factory=list)
    #: The score and original-grade cells (locked), which move with their
    #: row in a sort: they tell a sorted row from ids edited in place
    #: (empty when the sheet was read in the export's simple form).
    score: list[Any] = field(default_factory=list, compare=False)
    original: list[Any] = field(default_factory=list, compare=False)

    @classmethod
    def from_rows(cls, rows: Iterable[Sequence[Any]]) -> CandidateCells:
        """From the sheet's rows (each from column A; the header row first)."""
        out = cls()
        grade_col, note_col = COLUMN_INDEX["current grade"], COLUMN_INDEX["note"]
        width = note_col + 1
        add = (out.query.append, out.source.append, out.grade.append, out.note.append,
               out.score.append, out.original.append)
        score_col, original_col = COLUMN_INDEX["predicted score"], COLUMN_INDEX["original grade"]
        rows = iter(rows)
        next(rows, None)  # the header
        for row in rows:
            if len(row) < width:
                row = [*row, *[""] * (width - len(row))]
            add[0](row[0])
            add[1](row[1])
            add[2](row[grade_col])
            add[3](row[note_col])
            add[4](row[score_col])
            add[5](row[original_col])
        return out

    def __len__(self) -> int:
        return len(self.query)


def same_id(cell: Any, text: str) -> bool:
    """Whether an id cell of the Candidates sheet holds the id ``text``."""
    return same_text(_cell_text(cell), text)


def _unchanged(got: PastedGrade, state: int, grade: float, reason: str) -> bool:
    """Whether a grade cell read as ``got`` holds the candidate's grade."""
    return got.state == state and (
        got.grade is not None and written_back(got.grade, grade) if state == GradeState.NUMBER
        else state != GradeState.UNRATEABLE or not got.reason or got.reason == reason)


def _suspects(cells: CandidateCells, rows: npt.NDArray[np.int64], formulas: set[int],
              doc: Document, parse: Callable[[str], PastedGrade | None]) -> list[int]:
    """The items whose cells may differ from what was exported (others hold
    exactly the exported query, source, note and an unchanged grade): only
    they need a closer look. ``parse`` reads a text grade cell (None when
    it is not a grade)."""
    qids = doc.query_ids
    want_q = [qids[q] for q in doc.query[rows].tolist()]
    want_s = doc.source_id[rows].tolist()
    want_n = doc.note[rows].tolist()
    grade = doc.grade[rows].tolist()
    state = doc.state[rows].tolist()
    reason = doc.reason[rows]
    number = int(GradeState.NUMBER)
    n = rows.size
    out: list[int] = []
    for k, (q, s, g, note, wq, ws, wn, wg, st) in enumerate(zip(
            cells.query[:n], cells.source[:n], cells.grade[:n], cells.note[:n],
            want_q, want_s, want_n, grade, state, strict=False)):
        if q != wq or s != ws or (note != wn and (note is not None or wn != "")):
            out.append(k)
        elif g.__class__ is float:
            if st != number or not written_back(g, wg):
                out.append(k)
        elif g.__class__ is str:
            got = parse(g)
            if got is None or not _unchanged(got, st, wg, reason[k]):
                out.append(k)
        else:
            out.append(k)
    if formulas:
        present = min(n, len(cells))
        out = sorted(set(out) | {r - 2 for r in formulas if 0 <= r - 2 < present})
    return out


def _cut(text: str) -> str:
    """``text`` as a cell holds it (cut at 32,767 UTF-16 units)."""
    if len(text) <= 16_383:
        return text
    from xlsxwriter.utility import _utf16_len, _utf16_truncate

    return str(_utf16_truncate(text, 32_767)) if _utf16_len(text) > 32_767 else text


class CellsNeeded(Exception):
    """Rows were moved, and the cells read (the export's simple form, read
    without its score and original-grade columns) cannot tell a sort from
    ids edited: read the sheet whole and call :func:`apply_edits` again."""


def _same_number(cell: Any, value: float) -> bool:
    if math.isnan(value):
        return cell in (None, "")
    return isinstance(cell, int | float) and not isinstance(cell, bool) and written_back(
        cell, value)


def _check_moved(cells: CandidateCells, j: int, i: int, doc: Document, name: str) -> None:
    """Refuse a row found away from its exported place unless it moved whole
    (a sort): its locked score and original-grade cells must be candidate
    ``i``'s, or else its ids were edited in place."""
    if not cells.score:
        raise CellsNeeded
    state = int(doc.original_state[i])
    original = cells.original[j] if j < len(cells.original) else None
    same = j < len(cells.score) and _same_number(cells.score[j], float(doc.score[i])) and (
        _same_number(original, float(doc.original_grade[i])) if state == GradeState.NUMBER
        else original == GradeState(state).label)
    if not same:
        raise InputError(
            f"this row holds query {_cell_text(cells.query[j])!r}, source "
            f"{_cell_text(cells.source[j])!r}, but its score and original grade are another "
            "candidate's", file=name, sheet=SHEETS["candidates"], line=j + 2, column="A/B",
            hint="rows were moved or their ids edited; undo that in the spreadsheet (a sort of "
                 "whole rows is fine)")


def _in_exported_order(cells: CandidateCells, formulas: set[int], doc: Document,
                       rows: npt.NDArray[np.int64], name: str,
                       ) -> tuple[CandidateCells, set[int], list[int]] | None:
    """The cells of a Candidates sheet whose rows were sorted (or had empty
    rows inserted) in the spreadsheet, put back in the exported order by
    each row's query and source id; the formula rows and each item's sheet
    row follow. None when the rows are in the exported order."""
    qids = doc.query_ids
    want_q = [_cut(qids[q]) for q in doc.query[rows].tolist()]
    want_s = [_cut(s) for s in doc.source_id[rows].tolist()]
    n = len(want_q)
    if cells.query[:n] == want_q and cells.source[:n] == want_s and all(
            q in (None, "") and s in (None, "") for q, s in zip(
                cells.query[n:], cells.source[n:], strict=True)):
        return None  # as exported (the usual case: one comparison in C)
    if len(cells) >= n and all(q in (None, "") and s in (None, "") for q, s in zip(
            cells.query[n:], cells.source[n:], strict=True)) and all(
            written_form(_cell_text(q)) == written_form(wq)
            and written_form(_cell_text(s)) == written_form(ws)
            for q, s, wq, ws in zip(cells.query, cells.source, want_q, want_s, strict=False)):
        # As exported, the ids as a spreadsheet program saved them (Gnumeric:
        # end spaces): each such row holds its candidate's locked cells too
        # (" a " and "a" both read "a" could have been swapped).
        for j in range(n):
            if cells.query[j] != want_q[j] or cells.source[j] != want_s[j]:
                _check_moved(cells, j, int(rows[j]), doc, name)
        return None
    want = list(zip(want_q, want_s, strict=True))
    got = [(_cell_text(q), _cell_text(s)) if q not in (None, "") or s not in (None, "")
           else None for q, s in zip(cells.query, cells.source, strict=True)]
    place = {key: k for k, key in enumerate(want)}
    order: list[int | None] = [None] * len(want)
    sheet = SHEETS["candidates"]
    loose: dict[tuple[str, str], list[int]] | None = None
    for j, key in enumerate(got):
        if key is None:
            continue  # an empty row put in by hand
        k = place.get(key)
        if k is None:  # ids as a spreadsheet program saved them (Gnumeric: end spaces cut)?
            loose = _by_written_form(want) if loose is None else loose
            k = _one(loose.get((written_form(key[0]), written_form(key[1])), []), order)
        if k is None or order[k] is not None:
            what = "is not a candidate of this workbook" if k is None else "is there twice"
            raise InputError(
                f"the row of query {key[0]!r}, source {key[1]!r} {what}", file=name,
                sheet=sheet, line=j + 2, column="A/B",
                hint="rows were added, copied or their ids edited; undo that in the "
                     "spreadsheet")
        order[k] = j
    missing = [k for k, j in enumerate(order) if j is None]
    if missing:
        q, s = want[missing[0]]
        raise InputError(
            f"{len(missing)} candidate rows were deleted, the first query {q!r}, source {s!r}",
            file=name, sheet=sheet, hint="rows were deleted; undo that in the spreadsheet")
    for j, k in sorted((j, k) for k, j in enumerate(order) if j is not None and j != k):
        _check_moved(cells, j, int(rows[k]), doc, name)  # in sheet order
    taken = [j for j in order if j is not None]
    out = CandidateCells([cells.query[j] for j in taken], [cells.source[j] for j in taken],
                         [cells.grade[j] for j in taken], [cells.note[j] for j in taken])
    moved = {j + 2: k + 2 for k, j in enumerate(taken)}
    return out, {moved[r] for r in formulas if r in moved}, [j + 2 for j in taken]


def _by_written_form(want: list[tuple[str, str]]) -> dict[tuple[str, str], list[int]]:
    """The items of each (query, source) id pair's written form."""
    out: dict[tuple[str, str], list[int]] = {}
    for k, (q, s) in enumerate(want):
        out.setdefault((written_form(q), written_form(s)), []).append(k)
    return out


def _one(items: list[int], order: list[int | None]) -> int | None:
    """The one item of ``items`` (those of one written form) no row holds
    exactly; None when there are none or several (two ids of one form:
    which row is whose cannot be told)."""
    left = [k for k in items if order[k] is None]
    return left[0] if len(items) == 1 and left else None


def apply_edits(cells: CandidateCells, formulas: set[int], doc: Document,
                meta: dict[str, Any], name: str) -> int:
    """Take current grades and notes edited in the spreadsheet (the Candidates
    sheet's cells; ``formulas``: sheet rows whose grade cell holds a
    formula); log each grade. Rows sorted in the spreadsheet are matched to
    their candidates by query and source id (:class:`CellsNeeded` when
    ``cells`` lack what tells a sort from ids edited; nothing is changed
    then). Returns how many notes changed."""
    sheet = SHEETS["candidates"]
    rows = np.asarray(meta["sheet_rows"], dtype=np.int64)
    lines: list[int] | None = None
    reordered = _in_exported_order(cells, formulas, doc, rows, name)
    if reordered is not None:
        cells, formulas, lines = reordered
    set_grade: Callable[..., AuditEntry] = doc.set_grade
    texts: dict[str, PastedGrade | None] = {}

    def parse(text: str) -> PastedGrade | None:
        if text not in texts:
            try:
                texts[text] = _parse_grade(text, False, doc, name, 0)
            except InputError:
                texts[text] = None
        return texts[text]

    notes = 0
    for k in _suspects(cells, rows, formulas, doc, parse):
        r, i = k + 2, int(rows[k])
        line = r if lines is None else lines[k]
        query = _cell_text(cells.query[k])
        source = _cell_text(cells.source[k])
        if not (same_as_written(query, doc.query_ids[int(doc.query[i])])
                and same_as_written(source, doc.source_id[i])):
            raise InputError(
                f"this row should hold query {doc.query_ids[int(doc.query[i])]!r}, source "
                f"{doc.source_id[i]!r}, but holds {query!r}, {source!r}",
                file=name, sheet=sheet, line=line, column="A/B",
                hint="rows were moved or deleted; undo that in the spreadsheet",
            )
        got = _parse_grade(cells.grade[k], r in formulas, doc, name, line)
        note_value = cells.note[k]
        note = "" if note_value is None else _cell_text(note_value)
        note_changed = not same_as_written(note, doc.note[i])
        if note_changed:
            doc.set_note(i, note)
            notes += 1
        if not _unchanged(got, int(doc.state[i]), float(doc.grade[i]), doc.reason[i]):
            set_grade(i, got.grade, got.state, who=OUTSIDE_WHO,
                      note=note if note_changed else "", origin=OUTSIDE_ORIGIN,
                      reason=got.reason or (doc.reason[i] if got.state == doc.state[i] else ""))
    present = min(len(cells), rows.size)
    if present != rows.size:
        raise InputError(
            f"the sheet has {present} candidate rows, but {rows.size} were exported",
            file=name, sheet=sheet, line=present + 2,
            hint="rows were deleted; undo that in the spreadsheet",
        )
    return notes
