"""Checks a workbook must pass before any parser sees it.

Zip bombs, XML bombs, encrypted or old binary workbooks, truncated files,
packages whose parts lie about what they are, and sheets or tables that
declare more than their bytes can hold are refused here with one clear
message, before openpyxl or calamine spend memory on them. Parts are found
through the content types and the relationships and checked by what they
hold, never by their names.

The modules, bottom to top: :mod:`~core.io.safety.limits` (Excel's limits,
what a part's bytes can hold, cell references), :mod:`~core.io.safety.parts`
(unpacking parts exactly, root elements, streaming defused parses),
:mod:`~core.io.safety.archive` (the file and its zip directory),
:mod:`~core.io.safety.package` (content types and relationships),
:mod:`~core.io.safety.scan` (the vectorised one-pass sheet scan),
:mod:`~core.io.safety.sheets` (each sheet's dimension and used area),
:mod:`~core.io.safety.counts` (declared string and style counts),
:mod:`~core.io.safety.ods` (an .ods file's package and ``content.xml``),
:mod:`~core.io.safety.check` (:func:`check_xlsx`, :func:`check_ods`) and
:mod:`~core.io.safety.formulas` (finding formula cells).
"""

from __future__ import annotations

from core.io.safety.check import (
    WorkbookCheck,
    check_ods,
    check_workbook,
    check_xlsx,
)
from core.io.safety.formulas import find_cells_not_data, formula_rows
from core.io.safety.limits import (
    EXCEL_MAX_COLUMNS,
    EXCEL_MAX_ROWS,
    LIMITS,
    column_letters,
    column_number,
    parse_ref,
)
from core.io.safety.parts import parse_xml
from core.io.suffixes import ODS_SUFFIX, WORKBOOK_SUFFIXES, XLSX_SUFFIXES

__all__ = [
    "EXCEL_MAX_COLUMNS",
    "EXCEL_MAX_ROWS",
    "LIMITS",
    "ODS_SUFFIX",
    "WORKBOOK_SUFFIXES",
    "XLSX_SUFFIXES",
    "WorkbookCheck",
    "check_ods",
    "check_workbook",
    "check_xlsx",
    "column_letters",
    "column_number",
    "find_cells_not_data",
    "formula_rows",
    "parse_ref",
    "parse_xml",
]
