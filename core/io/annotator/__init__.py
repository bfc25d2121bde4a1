"""Import annotators' spreadsheets (.xlsx, .csv, .tsv) as a :class:`Document`.

The layouts understood:

- long: one row per judgment, with or without an annotator column;
- wide: one grade column per annotator (``grade_alice``, ``Annotator B``).

and, read into one of those, JSON and JSON Lines exports of annotation tools
(:mod:`~core.io.annotator.records`) and transposed sheets, one row per
respondent (:mod:`~core.io.annotator.transposed`).

Everything is guessed as people and tools write their sheets, and can be
corrected: the sheet (an Instructions sheet before the data is passed over),
the header row (a title or blank row above it does not count), the columns
(by their values, :mod:`~core.io.annotator.roles`, and by their names,
``Input.query``, ``Doc URL``, ``Relevance (0-3)``, each guess with its
reason; rows a platform marks as not judgments skipped,
:mod:`~core.io.annotator.platform`) and the labels (a number
written with them, ``2 - Relevant``, or their place on a well-known scale).
Every judgment read (a grade cell of a row that holds one) is imported or
rejected with its row, column and reason in the :class:`ImportReport`:
nothing is silently dropped. Formulas in data cells are never evaluated;
they are rejected with their cell.

The functions form the API of the import wizard::

    p = preview(path)                  # sheet, header row, mapping, labels guessed
    mapping = p.mapping                # the user may correct it; p.rubric is proposed
    result = import_annotations(path, mapping, rubric=..., consensus="median")
    result.document, result.report

and of the command line (:mod:`~core.io.annotator.command`,
:mod:`~core.io.annotator.write`) and ``--qrels SHEET``
(:mod:`~core.io.annotator.qrels`).

The package, bottom to top: :mod:`~core.io.annotator.model` (mapping,
table, preview), :mod:`~core.io.annotator.scales` (labels and the scales
they are read on), :mod:`~core.io.annotator.names` (what a header names),
:mod:`~core.io.annotator.report` (findings and the report),
:mod:`~core.io.annotator.records` (JSON records and list cells as rows),
:mod:`~core.io.annotator.read` (raw cells of a sheet),
:mod:`~core.io.annotator.cells` (a cell as a grade or a number),
:mod:`~core.io.annotator.profile` (what a column's cells look like),
:mod:`~core.io.annotator.ranks` (a rank's and a batch's numbers),
:mod:`~core.io.annotator.roles` (what a column holds, from its values),
:mod:`~core.io.annotator.platform` (rows that are not judgments),
:mod:`~core.io.annotator.transposed` (one row per respondent),
:mod:`~core.io.annotator.detect` (sheet, header row and mapping),
:mod:`~core.io.annotator.sheet_preview` (the wizard's preview of them),
:mod:`~core.io.annotator.sheet` (the data rows under a mapping), the import's
steps :mod:`~core.io.annotator.rows`, :mod:`~core.io.annotator.grades`,
:mod:`~core.io.annotator.judgments`, :mod:`~core.io.annotator.build`, and
:mod:`~core.io.annotator.importer`, which runs them; above it
:mod:`~core.io.annotator.overrides` (what the user says over the guess),
:mod:`~core.io.annotator.command`, :mod:`~core.io.annotator.write` and
:mod:`~core.io.annotator.qrels`. Header names and delimiters are shared with
:mod:`core.io.headers`.
"""

from core.io.annotator.detect import choose_sheet, detect_mapping, read_guessed
from core.io.annotator.importer import import_annotations, import_table
from core.io.annotator.model import (
    SINGLE_FIELDS,
    UNKNOWN_MARKS,
    UNRATEABLE_MARKS,
    ColumnMapping,
    SheetPreview,
    Table,
)
from core.io.annotator.read import read_table
from core.io.annotator.report import (
    CELL_REJECTED,
    CONFLICT,
    DUPLICATE,
    FORMULA,
    FRACTIONAL,
    LABEL,
    MARK,
    NO_GRADE,
    OUTSIDE_SCALE,
    ROW_REJECTED,
    ImportReport,
    ImportResult,
    Issue,
    ungraded_rows,
)
from core.io.annotator.scales import KNOWN_SCALES, LabelGuess, guess_labels
from core.io.annotator.sheet_preview import preview
from core.io.headers import ALIASES

__all__ = [
    "ALIASES",
    "CELL_REJECTED",
    "CONFLICT",
    "DUPLICATE",
    "FORMULA",
    "FRACTIONAL",
    "KNOWN_SCALES",
    "LABEL",
    "MARK",
    "NO_GRADE",
    "OUTSIDE_SCALE",
    "ROW_REJECTED",
    "SINGLE_FIELDS",
    "UNKNOWN_MARKS",
    "UNRATEABLE_MARKS",
    "ColumnMapping",
    "ImportReport",
    "ImportResult",
    "Issue",
    "LabelGuess",
    "SheetPreview",
    "Table",
    "choose_sheet",
    "detect_mapping",
    "guess_labels",
    "import_annotations",
    "import_table",
    "preview",
    "read_guessed",
    "read_table",
    "ungraded_rows",
]
