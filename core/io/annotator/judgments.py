"""The judgments of an import, counted: each grade cell of each row read is
one judgment, imported or rejected with its reason, never dropped."""

from __future__ import annotations

import numpy as np

from core.io.annotator.grades import Grades, IntArray
from core.io.annotator.report import FATAL, FORMULA, ImportReport
from core.io.annotator.rows import Rows
from core.io.annotator.sheet import Sheet

__all__ = ["count_judgments"]


def count_judgments(sheet: Sheet, report: ImportReport, rows: Rows, g: Grades,
                    kept_ev: IntArray) -> None:
    """Fill the report's judgments read, imported and rejected (the
    findings must be in the report already: they give the reasons)."""
    n_cols = len(g.sources)
    judged = rows.judged
    report.judgments_read = int(judged.sum()) * n_cols
    report.judgments_imported = len(kept_ev)
    if report.judgments_imported == report.judgments_read:
        return
    imported = np.zeros((sheet.n_rows, n_cols), dtype=bool)
    imported[g.rows[kept_ev], g.column[kept_ev]] = True
    missing_r, missing_p = np.nonzero(judged[:, None] & ~imported)
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
    for i, p in zip(missing_r.tolist(), missing_p.tolist(), strict=True):
        row, column = i + base, names[p]
        why = by_cell.get((row, column)) or by_row.get(row) or "not imported"
        report.rejected_judgments.append((row, column, why))
