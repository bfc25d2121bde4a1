"""The import itself: a raw table and a mapping to a document and a report,
as a pipeline of named steps (read, map, classify cells, build columns,
consensus, report)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from core.errors import InputError
from core.io.annotator.build import build_document
from core.io.annotator.cells import GradeReader
from core.io.annotator.detect import detect_mapping
from core.io.annotator.grades import first_grades, read_grades
from core.io.annotator.model import ColumnMapping, Table
from core.io.annotator.read import read_table
from core.io.annotator.report import FATAL, ImportReport, ImportResult
from core.io.annotator.rows import annotator_names, find_candidates, notes, read_rows
from core.io.annotator.sheet import Sheet
from core.model.conventions import ConsensusRule, Conventions, Rounding, Rubric

__all__ = ["import_annotations", "import_table"]


@contextmanager
def _bulk() -> Iterator[None]:
    """Pause the cyclic garbage collector while a sheet's cells are built.

    Reading creates some hundred thousand lists and tuples, none of them in
    a reference cycle; each collection pass would walk all of them again.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def import_table(
    table: Table,
    mapping: ColumnMapping | None = None,
    conventions: Conventions | None = None,
    *,
    rubric: Rubric | None = None,
    strict: bool = False,
) -> ImportResult:
    """Turn a raw :class:`Table` into a document and a report.

    ``conventions`` give the consensus rule and rounding for several
    annotators and the rubric that maps text labels to grades (``rubric``
    overrides it). With ``strict`` the first refused row or cell, formula or
    duplicate raises :class:`InputError` instead of being reported.
    """
    conventions = conventions or Conventions()
    if rubric is not None:
        conventions = conventions.replace(rubric=rubric)
    mapping = mapping or detect_mapping(table)
    report = ImportReport(file=table.file, sheet=table.sheet, layout=mapping.layout,
                          encoding=table.encoding, delimiter=table.delimiter,
                          header_row=mapping.header_row + 1, mapping=mapping)
    sheet = Sheet(table, mapping)  # raises when the mapping lacks a needed column
    reader = GradeReader(mapping, conventions.rubric)
    # Rows: blank, formulas in key cells, empty query or source, bad score;
    # then the candidates, each from its first row.
    rows = read_rows(sheet, report)
    cands = find_candidates(sheet, rows, report)
    who_all = annotator_names(sheet)
    c_note = notes(sheet, cands, who_all)
    # Grade cells, one grade column at a time; one grade per candidate and
    # annotator (the first read; repeats reported).
    grades = read_grades(sheet, reader, rows.bad_cells, cands, who_all)
    kept_ev, again = first_grades(sheet, grades, cands)
    sheet.report_findings(report)
    if strict:
        _raise_first_problem(sheet, report)
    doc = build_document(sheet, report, conventions, grades, kept_ev, again, rows, cands,
                         c_note)
    report.candidates = cands.n
    report.annotators = doc.annotators
    return ImportResult(doc, report)


def _raise_first_problem(sheet: Sheet, report: ImportReport) -> None:
    """Raise the report's first refused row or cell, formula or duplicate."""
    first = report.first_problem()
    if first is not None:
        n_fatal = len(report.of_kind(*FATAL))
        raise InputError(
            first.problem + (f" (and {n_fatal - 1} more problems)" if n_fatal > 1 else ""),
            file=sheet.file, sheet=sheet.table.sheet, line=first.row,
            column=first.column or None,
            hint="fix the file, or import it in the app to see every problem",
        )


def import_annotations(
    path: str | Path,
    mapping: ColumnMapping | None = None,
    *,
    sheet: str | None = None,
    rubric: Rubric | None = None,
    consensus: ConsensusRule | str | None = None,
    rounding: Rounding | str | None = None,
    conventions: Conventions | None = None,
    strict: bool = False,
) -> ImportResult:
    """Read an annotators' spreadsheet into a document and an import report.

    Parameters
    ----------
    path : path
        A .xlsx (first sheet unless ``sheet``), .csv or .tsv file. It is
        only read, never changed.
    mapping : ColumnMapping, optional
        Which column holds what; detected from the header when None.
    rubric : Rubric, optional
        Grades allowed and the text labels that name them
        (``"Highly relevant" -> 3``, case-insensitive).
    consensus, rounding : optional
        How several annotators' grades give the current grade; default the
        conventions' own (``mean``, no rounding).
    strict : bool
        Raise :class:`InputError` on the first refused row or cell, formula
        or duplicate instead of reporting it.
    """
    conventions = conventions or Conventions()
    if consensus is not None:
        conventions = conventions.replace(consensus=ConsensusRule(consensus))
    if rounding is not None:
        conventions = conventions.replace(rounding=Rounding(rounding))
    with _bulk():
        table = read_table(path, sheet=sheet)
        result = import_table(table, mapping, conventions, rubric=rubric, strict=strict)
        # Freed while the collector still sleeps: the cells it never tracked
        # leave its count as they go, so waking it does not start a full pass.
        del table
    return result

