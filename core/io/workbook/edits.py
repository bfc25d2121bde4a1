"""Grades and notes edited in the spreadsheet, taken back on reopening: each
changed grade is logged as an audit entry from outside the app."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from core.errors import InputError
from core.io.workbook.layout import (
    COLUMN_INDEX,
    GRADE_COLUMN,
    OUTSIDE_ORIGIN,
    OUTSIDE_WHO,
    SHEETS,
)
from core.model.document import AuditEntry, Document, GradeState
from core.model.grades import PastedGrade, read_grade
from core.model.numbers import number_text


def _cell_text(value: Any) -> str:
    """A text cell's value as text (calamine has undone Excel's ``_xHHHH_``
    escapes); a whole number typed where text was is shown without ``.0``."""
    return number_text(value) if isinstance(value, float) else str(value)


def _same_text(cell: str, text: str) -> bool:
    """Whether a text cell still holds ``text`` as exported: a text longer
    than a cell can hold (32,767 UTF-16 units) was cut, and the workbook's
    metadata keeps the whole."""
    if cell == text:
        return True
    from xlsxwriter.utility import _utf16_len, _utf16_truncate

    return bool(_utf16_len(text) > 32_767 and cell == _utf16_truncate(text, 32_767))


def _parse_grade(value: Any, formula: bool, doc: Document, name: str, row: int) -> PastedGrade:
    """A current-grade cell as a grade, state and reason (the grammar of typed
    and pasted grades, :func:`core.model.grades.read_grade`; a number outside
    the rubric is taken: the sheet's dropdown only warns); InputError when it
    is not one."""
    column = f"{GRADE_COLUMN} (current grade)"

    def bad(problem: str) -> InputError:
        return InputError(problem, file=name, sheet=SHEETS["candidates"], line=row,
                          column=column,
                          hint="enter a rubric grade (a number), unknown or unrateable")

    if formula or (isinstance(value, str) and value.lstrip().startswith("=")):
        raise bad("the current grade is a formula; a grade must be typed in as a value")
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
        except ValueError as exc:
            raise bad(f"the current grade {value.strip()!r} is not a number, a rubric label, "
                      f"unknown or unrateable ({exc})") from None
    raise bad(f"the current grade {value!r} is not a grade")


def apply_edits(cells: list[list[Any]], formulas: set[int], doc: Document,
                meta: dict[str, Any], name: str) -> int:
    """Take current grades and notes edited in the spreadsheet (the Candidates
    sheet's cells from A1; ``formulas``: sheet rows whose grade cell holds a
    formula); log each grade. Returns how many notes changed."""
    sheet = SHEETS["candidates"]
    rows: list[int] = [int(i) for i in meta["sheet_rows"]]
    grade_col = COLUMN_INDEX["current grade"]
    note_col = COLUMN_INDEX["note"]
    width = note_col + 1
    set_grade: Callable[..., AuditEntry] = doc.set_grade
    present = cells[1 : len(rows) + 1]
    notes = 0
    for r, row in enumerate(present, start=2):
        i = rows[r - 2]
        if len(row) < width:
            row = [*row, *[""] * (width - len(row))]
        query = _cell_text(row[0])
        source = _cell_text(row[1])
        if not (_same_text(query, doc.query_ids[int(doc.query[i])])
                and _same_text(source, doc.source_id[i])):
            raise InputError(
                f"this row should hold query {doc.query_ids[int(doc.query[i])]!r}, source "
                f"{doc.source_id[i]!r}, but holds {query!r}, {source!r}",
                file=name, sheet=sheet, line=r, column="A/B",
                hint="rows were moved or deleted; undo that in the spreadsheet",
            )
        got = _parse_grade(row[grade_col], r in formulas, doc, name, r)
        grade, state, reason = got.grade, got.state, got.reason
        note_value = row[note_col]
        note = "" if note_value is None else _cell_text(note_value)
        note_changed = not _same_text(note, doc.note[i])
        if note_changed:
            doc.set_note(i, note)
            notes += 1
        old_state = int(doc.state[i])
        same = state == old_state and (
            grade == float(doc.grade[i]) if state == GradeState.NUMBER
            else state != GradeState.UNRATEABLE or not reason or reason == doc.reason[i]
        )
        if not same:
            set_grade(i, grade, state, who=OUTSIDE_WHO, note=note if note_changed else "",
                      origin=OUTSIDE_ORIGIN, reason=reason or doc.reason[i])
    if len(present) != len(rows):
        raise InputError(
            f"the sheet has {len(present)} candidate rows, but {len(rows)} were exported",
            file=name, sheet=sheet, line=len(present) + 2,
            hint="rows were deleted; undo that in the spreadsheet",
        )
    return notes
