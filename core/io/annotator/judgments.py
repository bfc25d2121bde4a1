"""The judgments of an import, counted: each grade cell of each row read is
one judgment, imported or rejected with its reason, never dropped; a grade
cell left blank is none (no one judged: the candidate's grade is unknown),
counted apart."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from core.io.annotator.cells import blank_cell as _blank
from core.io.annotator.grades import Grades, IntArray
from core.io.annotator.report import FATAL, FORMULA, ImportReport
from core.io.annotator.rowset import BoolArray, Rows
from core.io.annotator.sheet import Sheet
from core.model.document import GradeState

__all__ = ["count_judgments"]


def _cells(sheet: Sheet, c: int, bad_cells: dict[int, set[int]]) -> Sequence[object]:
    """Grade column ``c``'s cells, a formula's refused cell as no blank (its
    value, never stored, reads blank: the cell held a judgment, refused)."""
    bad = [i for i, cs in bad_cells.items() if c in cs]
    if not bad:
        return sheet.column(c)
    cells = list(sheet.column(c))
    for i in bad:
        cells[i] = "(a formula)"
    return cells


def count_judgments(sheet: Sheet, report: ImportReport, rows: Rows, g: Grades,
                    kept_ev: IntArray) -> BoolArray:
    """Fill the report's judgments read, imported and rejected, and the
    grade cells left blank on the rows read (no judgment: each an unknown
    grade, never counted as one read); the findings must be in the report
    already: they give the reasons. Returns the rows read whose every grade
    cell is blank (:func:`_ungraded`)."""
    n_cols = len(g.sources)
    judged = rows.judged
    columns = [_cells(sheet, c, rows.bad_cells) for c, _ in g.sources]
    # the unknown grades kept whose cells are blank (told as the cells were read)
    blank_kept = int(np.count_nonzero(g.blank[kept_ev] & (g.state[kept_ev] == GradeState.UNKNOWN)))
    report.judgments_imported = len(kept_ev) - blank_kept
    cells = int(judged.sum()) * n_cols
    if len(kept_ev) == cells:
        report.blank_grades = blank_kept
        report.judgments_read = cells - blank_kept
        return _ungraded(columns, judged, report.blank_grades, g)
    imported = np.zeros((sheet.n_rows, n_cols), dtype=bool)
    imported[g.rows[kept_ev], g.column[kept_ev]] = True
    missing = [(i, p) for i, p in zip(*map(np.ndarray.tolist, np.nonzero(
        judged[:, None] & ~imported)), strict=True) if not _blank(columns[p][i])]
    report.blank_grades = cells - len(kept_ev) - len(missing) + blank_kept
    report.judgments_read = cells - report.blank_grades
    names = [sheet.name(c) for c, _ in g.sources]
    grade_names = set(names)
    by_cell: dict[tuple[int, str], str] = {}
    by_row: dict[int, str] = {}
    for issue in report.issues:
        if issue.kind not in FATAL:
            continue
        if issue.column in grade_names and not (
                issue.kind == FORMULA and "row rejected" in issue.problem):
            by_cell.setdefault((issue.row, issue.column), issue.problem)
        elif issue.kind != FORMULA or "row rejected" in issue.problem:
            by_row.setdefault(issue.row, issue.problem)
    base = sheet.start + 1
    for i, p in missing:
        row, column = i + base, names[p]
        why = by_cell.get((row, column)) or by_row.get(row) or "not imported"
        report.rejected_judgments.append((row, column, why))
    return _ungraded(columns, judged, report.blank_grades, g)


def _ungraded(columns: list[Sequence[object]], judged: BoolArray, blank: int,
              g: Grades) -> BoolArray:
    """The rows read (``judged``) whose every grade cell is blank: rows with
    no judgment, their candidate listed with an unknown grade (the rows'
    tally counts them apart from the rows imported). Looked for only where
    ``blank`` grade cells were found: from the grades read (``g.blank``),
    the cells looked at only on rows some of whose cells were not read (a
    repeated or rejected row, a value no grade) and every one read blank."""
    if not blank:
        return np.zeros(judged.size, dtype=bool)
    n_cols = len(columns)
    blanks = np.bincount(g.rows[g.blank], minlength=judged.size)
    read = np.bincount(g.rows, minlength=judged.size)
    out: BoolArray = judged & (blanks == n_cols)
    for i in np.flatnonzero(judged & (read < n_cols) & (blanks == read)).tolist():
        out[i] = all(_blank(cells[i]) for cells in columns)
    return out
