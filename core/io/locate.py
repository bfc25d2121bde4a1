"""The line of a text file a document's candidate came from, for a refusal
found after reading (the engine's: a negative grade under the sklearn
preset names the candidate; the command line names the file and this line).

Read again on that error path only (a document keeps no line numbers: the
readers' columns stay as lean as they are): a worksheet CSV/TSV (its header
found as the reader finds it) or a whitespace-separated TREC run or qrels
file; a workbook or a Parquet table gives None (the message names the file
and the candidate).
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

from core.errors import InputError
from core.io.headers import header_delimiter, match_header
from core.io.textfile import read_detected
from core.reports.text import unprotect

__all__ = ["line_of"]

#: The fields of a TREC line holding the query and the candidate (run:
#: ``query Q0 doc rank score tag``; qrels: ``query iteration doc grade``).
_TREC_QUERY, _TREC_SOURCE = 0, 2


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
