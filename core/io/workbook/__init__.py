"""The audited Excel workbook: live formulas, cached results, lossless reopen.

:func:`export_workbook` writes one workbook in which every derived number is a
live formula over the Conventions sheet (change k or the gain rule in Excel or
LibreOffice and everything recomputes) and also carries the engine's own
result as the cached value, so viewers that do not calculate still show the
numbers. A hidden sheet keeps the document as JSON, so that
:func:`read_workbook` restores it exactly and picks up grades edited in the
spreadsheet, logging each as an audit entry from outside the app.

The layout is described in ``docs/workbook.md``. Only Excel-2007 functions are
used (no ``_xlfn.`` prefix), and no array formulas, INDIRECT or OFFSET.

The modules: :mod:`~core.io.workbook.layout` (sheet names, columns, formats),
:mod:`~core.io.workbook.values` (the engine's result in sheet order),
:mod:`~core.io.workbook.formulas` (the Candidates formulas), one module per
sheet (:mod:`~core.io.workbook.conventions_sheet`,
:mod:`~core.io.workbook.candidates`, :mod:`~core.io.workbook.queries` for
Queries and Summary, :mod:`~core.io.workbook.comparison`,
:mod:`~core.io.workbook.audit`, :mod:`~core.io.workbook.metadata`),
:mod:`~core.io.workbook.export` (the two writers),
:mod:`~core.io.workbook.reader` (reopening),
:mod:`~core.io.workbook.edits` (grades edited outside the app), and
:mod:`~core.io.workbook.additions` and :mod:`~core.io.workbook.carry` (what
people added to a workbook, read before it is replaced and written again).
"""

from __future__ import annotations

from core.io.workbook import ods_additions  # noqa: F401  (registers the .ods reader of additions)
from core.io.workbook.export import (
    check_fits,
    export_comparison_workbook,
    export_runs_workbook,
    export_workbook,
)
from core.io.workbook.layout import (
    AUDIT_COLUMNS,
    CANDIDATE_COLUMNS,
    COMPARISON_COLUMNS,
    COMPARISON_HEADER_ROW,
    COMPARISON_SHEETS,
    CONVENTION_ENTRY,
    MEANS_COLUMNS,
    METADATA_FORMAT,
    OUTSIDE_ORIGIN,
    OUTSIDE_WHO,
    QUERY_COLUMNS,
    RESAMPLING_COLUMNS,
    SHEETS,
    SUMMARY_COLUMNS,
)
from core.io.workbook.reader import is_own_workbook, read_workbook
from core.io.workbook.reopened import Reopened, reopened

__all__ = [
    "AUDIT_COLUMNS",
    "CANDIDATE_COLUMNS",
    "COMPARISON_COLUMNS",
    "COMPARISON_HEADER_ROW",
    "COMPARISON_SHEETS",
    "CONVENTION_ENTRY",
    "MEANS_COLUMNS",
    "METADATA_FORMAT",
    "OUTSIDE_ORIGIN",
    "OUTSIDE_WHO",
    "QUERY_COLUMNS",
    "RESAMPLING_COLUMNS",
    "SHEETS",
    "SUMMARY_COLUMNS",
    "Reopened",
    "check_fits",
    "export_comparison_workbook",
    "export_runs_workbook",
    "export_workbook",
    "is_own_workbook",
    "read_workbook",
    "reopened",
]
