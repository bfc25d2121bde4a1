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

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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
    from core.io.workbook.targets import WRITTEN_WORKBOOKS, check_workbook_target, is_ods

# Imported now: the function shares its module's name, which the module's
# import would otherwise bind here.
from core.io.workbook.reopened import Reopened, reopened

#: Each name's module, imported when the name is first used: reading a
#: workbook (the bundled example at every start) loads neither the writer
#: nor the comparison its sheets are written from.
_HOMES = {
    **dict.fromkeys(("check_fits", "export_comparison_workbook", "export_runs_workbook",
                     "export_workbook"), "export"),
    **dict.fromkeys(("AUDIT_COLUMNS", "CANDIDATE_COLUMNS", "COMPARISON_COLUMNS",
                     "COMPARISON_HEADER_ROW", "COMPARISON_SHEETS", "CONVENTION_ENTRY",
                     "MEANS_COLUMNS", "METADATA_FORMAT", "OUTSIDE_ORIGIN", "OUTSIDE_WHO",
                     "QUERY_COLUMNS", "RESAMPLING_COLUMNS", "SHEETS", "SUMMARY_COLUMNS"),
                    "layout"),
    **dict.fromkeys(("is_own_workbook", "read_workbook"), "reader"),
    **dict.fromkeys(("WRITTEN_WORKBOOKS", "check_workbook_target", "is_ods"), "targets"),
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value


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
    "WRITTEN_WORKBOOKS",
    "Reopened",
    "check_fits",
    "check_workbook_target",
    "export_comparison_workbook",
    "export_runs_workbook",
    "export_workbook",
    "is_ods",
    "is_own_workbook",
    "read_workbook",
    "reopened",
]
