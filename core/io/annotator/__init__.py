"""Import annotators' spreadsheets (.xlsx, .csv, .tsv) as a :class:`Document`.

The layouts understood:

- long: one row per judgment, with or without an annotator column;
- wide: one grade column per annotator (``grade_alice``, ``rating bob``).

Headers are detected from common names; the detected :class:`ColumnMapping`
can be corrected and passed back. Every row that is not imported, and every
value that was changed in meaning (a text label, a mark such as ``n/a``), is
named in the :class:`ImportReport` with its row and column: nothing is
silently dropped. Formulas in data cells are never evaluated; they are
rejected with their cell.

The functions form the API of the import wizard::

    p = preview(path)                        # sheets, header row, first rows
    mapping = p.mapping                      # detected; the user may correct it
    result = import_annotations(path, mapping, rubric=..., consensus="median")
    result.document, result.report

The package, bottom to top: :mod:`~core.io.annotator.model` (mapping,
table, preview), :mod:`~core.io.annotator.report` (findings and the
report), :mod:`~core.io.annotator.read` (raw cells of a sheet),
:mod:`~core.io.annotator.detect` (header row and mapping),
:mod:`~core.io.annotator.cells` (a cell as a grade or a number),
:mod:`~core.io.annotator.sheet` (the data rows under a mapping), the import's
steps :mod:`~core.io.annotator.rows`, :mod:`~core.io.annotator.grades`,
:mod:`~core.io.annotator.build`, and :mod:`~core.io.annotator.importer`, which
runs them. Header names and delimiters are :mod:`core.io.headers`'.
"""

from core.io.annotator.detect import detect_mapping, preview
from core.io.annotator.importer import import_annotations, import_table
from core.io.annotator.model import (
    SINGLE_FIELDS,
    UNKNOWN_MARKS,
    UNRATEABLE_MARKS,
    ColumnMapping,
    SheetPreview,
    Table,
)
from core.io.annotator.read import MAX_TEXT_BYTES, read_table
from core.io.annotator.report import (
    CELL_REJECTED,
    CONFLICT,
    DUPLICATE,
    FORMULA,
    FRACTIONAL,
    LABEL,
    MARK,
    OUTSIDE_SCALE,
    ROW_REJECTED,
    ImportReport,
    ImportResult,
    Issue,
)
from core.io.headers import ALIASES

__all__ = [
    "ALIASES",
    "CELL_REJECTED",
    "CONFLICT",
    "DUPLICATE",
    "FORMULA",
    "FRACTIONAL",
    "LABEL",
    "MARK",
    "MAX_TEXT_BYTES",
    "OUTSIDE_SCALE",
    "ROW_REJECTED",
    "SINGLE_FIELDS",
    "UNKNOWN_MARKS",
    "UNRATEABLE_MARKS",
    "ColumnMapping",
    "ImportReport",
    "ImportResult",
    "Issue",
    "SheetPreview",
    "Table",
    "detect_mapping",
    "import_annotations",
    "import_table",
    "preview",
    "read_table",
]
