"""Where in its file a document's candidate came from, for a refusal found
after reading (the engine's: a negative grade under the sklearn preset
names the candidate; the command line, compare and the window name the file
and the place: :func:`name_the_row`).

Read again on that error path only (a document keeps no line numbers: the
readers' columns stay as lean as they are): the line of a worksheet CSV/TSV
(its header found as the reader finds it) or of a whitespace-separated TREC
run or qrels file (compressed or not); the sheet, row and grade column of
one of our workbooks or of an annotators' sheet (the import's guess read
again); the row and grade column of a Parquet worksheet or qrels table.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

from core.errors import InputError
from core.io.headers import header_delimiter, match_header
from core.io.suffixes import WORKBOOK_SUFFIXES
from core.io.textfile import read_detected
from core.io.trec.read import RUN_FIELDS
from core.model.document import Document
from core.reports.text import unprotect

__all__ = ["line_of", "name_the_row"]

#: The fields of a TREC line holding the query and the candidate, the same
#: in a run and in qrels (the fast reader's :data:`RUN_FIELDS` and
#: :data:`~core.io.trec.read.QRELS_FIELDS`; run: ``query Q0 doc rank score
#: tag``, qrels: ``query iteration doc grade``).
_TREC_QUERY, _TREC_SOURCE = RUN_FIELDS[1:3]


def name_the_row(exc: InputError, doc: Document, path: str | Path) -> InputError:
    """``exc`` (changed in place and returned), raised about ``doc``'s
    candidate ``exc.row`` with no file named, naming ``path`` (the file the
    grades came from: the qrels, else the input) and the candidate's place
    in it. An error that names a file already is left as it is."""
    if exc.file is not None:
        return exc
    exc.file = str(path)
    if exc.row is not None and exc.line is None and 0 <= exc.row < len(doc):
        _place(exc, Path(path), doc.query_ids[int(doc.query[exc.row])],
               doc.source_text(exc.row))
    exc.args = (str(exc),)
    return exc


def _place(exc: InputError, path: Path, query: str, source: str) -> None:
    """Put the place of ``source`` of ``query`` in ``path`` into ``exc``."""
    from core.io.columnar import is_parquet

    if is_parquet(path):
        from core.io.columnar import row_holding

        found = row_holding(path, query, source)
        if found is not None:
            exc.problem = f"row {found[0]}: {exc.problem}"
            exc.column = found[1]
    elif path.suffix.lower() in WORKBOOK_SUFFIXES:
        from core.io.workbook.layout import GRADE_COLUMN, SHEETS
        from core.io.workbook.reader import candidate_row

        row = candidate_row(path, query, source)
        if row is not None:
            exc.sheet, exc.line = SHEETS["candidates"], row
            exc.column = f"{GRADE_COLUMN} (current grade)"
        else:  # an annotators' workbook, imported on reading
            _judgment(exc, path, query, source)
    elif _json(path):
        from core.io.score_dict import key_path

        exc.problem = f"at {key_path(query, source)}: {exc.problem}"
    else:
        exc.line = line_of(path, query, source)


def _judgment(exc: InputError, path: Path, query: str, source: str) -> None:
    """The sheet, row and grade column of the judgment in an annotators'
    sheet (:func:`core.io.annotator.place.judgment_place`)."""
    from core.io.annotator.place import judgment_place

    place = judgment_place(path, query, source)
    if place is not None:
        exc.sheet, exc.line, exc.column = place.sheet, place.row, place.column
        exc.place = place.said


def _json(path: Path) -> bool:
    """Whether ``path`` is ranx's or pytrec_eval's JSON."""
    from core.io.files import sniff
    from core.io.qrels_kind import is_score_dict

    try:
        return is_score_dict(sniff(path))
    except InputError:
        return False


def line_of(path: str | Path, query: str, source: str) -> int | None:
    """The 1-based line of ``path`` where candidate ``source`` of ``query``
    is (the first such line), or None: not found, or not a text file.

    >>> import tempfile, os
    >>> with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
    ...     _ = f.write("q1 0 a 1\\nq1 0 b -1\\n")
    >>> line_of(f.name, "q1", "b"), line_of(f.name, "q2", "b")
    (2, None)
    >>> os.remove(f.name)
    """
    try:
        text, _encoding = read_detected(path)
    except (InputError, OSError):
        return None
    first = next((ln for ln in text.splitlines() if ln.strip()), "")
    delimiter = header_delimiter(first, Path(path))
    cols = match_header(next(csv.reader([first], delimiter=delimiter), []))
    if "query" in cols and "source_id" in cols:
        return _worksheet_line(text, delimiter, cols["query"], cols["source_id"], query, source)
    for number, line in enumerate(text.splitlines(), 1):
        fields = line.split()
        if len(fields) > _TREC_SOURCE and (fields[_TREC_QUERY], fields[_TREC_SOURCE]) == (
                query, source):
            return number
    return None


def _worksheet_line(text: str, delimiter: str, q_col: int, s_col: int, query: str,
                    source: str) -> int | None:
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    start = 1
    for row in reader:
        if len(row) > max(q_col, s_col) and (
                unprotect(row[q_col]), unprotect(row[s_col])) == (query, source):
            return start
        start = reader.line_num + 1  # (a quoted cell may span lines)
    return None
