"""An import written as a worksheet CSV: ``query,source_id,version,score,grade``
(the grade is the declared consensus, empty when no annotator gave a number,
the word ``unrateable`` when one marked it so and none gave a number: the
worksheet reader reads the grade column alone), then the grade's state and
reason, the note, and each annotator's grade."""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Sequence
from pathlib import Path

from core.io.annotator.model import UNRATEABLE_MARKS
from core.io.atomic import atomic_write_text
from core.model.document import Document, GradeState
from core.model.numbers import number_text

__all__ = ["ANNOTATOR_PREFIX", "EXTRA_COLUMNS", "WORKSHEET_COLUMNS", "write_worksheet_csv",
           "written_annotators", "written_consensus"]

#: The worksheet's own columns, first in every file written.
WORKSHEET_COLUMNS = ("query", "source_id", "version", "score", "grade")
#: The columns after them, then one per annotator (its name after the prefix).
EXTRA_COLUMNS = ("state", "reason", "note")
ANNOTATOR_PREFIX = "grade_"


def written_consensus(header: Sequence[str]) -> int | None:
    """The grade column of a worksheet CSV written here (its own columns
    first), which holds the consensus of the annotators' columns after it:
    read back, the annotators' columns are the grades, never one more."""
    own = (*WORKSHEET_COLUMNS, *EXTRA_COLUMNS)
    if tuple(str(h).strip() for h in header[:len(own)]) != own:
        return None
    return WORKSHEET_COLUMNS.index("grade")


def written_annotators(header: Sequence[str]) -> list[tuple[int, str]]:
    """The annotators' columns of a worksheet CSV written here, and their
    names (``grade_<name>`` after the own columns, whatever the name:
    ``grade_grade_ben_at_lab_example`` is ``grade_ben_at_lab_example``'s);
    none in any other file."""
    if written_consensus(header) is None:
        return []
    own = len(WORKSHEET_COLUMNS) + len(EXTRA_COLUMNS)
    return [(c, str(h).strip()[len(ANNOTATOR_PREFIX):]) for c, h in enumerate(header)
            if c >= own and str(h).strip().startswith(ANNOTATOR_PREFIX)
            and str(h).strip() != ANNOTATOR_PREFIX]


def _number(x: float) -> str:
    return "" if math.isnan(x) else number_text(x)


def _text(text: str) -> str:
    """Text a spreadsheet would run as a formula, neutralised (CWE-1236), as
    :mod:`core.io.delimited` writes it."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r", "\0") else text


def _marks(doc: Document) -> list[list[str]]:
    """Each annotator's unrateable mark as the worksheet writes it: as
    written when the default marks read it again so, else the state's word
    with the mark as its reason (``unrateable: paywall``, a mark declared
    only at the import, which the import reads again as that mark), the
    word alone where the mark has blanks around it (the workbook keeps
    every mark as written)."""
    word = GradeState.UNRATEABLE.label
    words = doc.unrateable_words
    if words is None or doc.ratings is None:
        return [[word] * len(doc.annotators)] * len(doc)
    again = {m.strip().casefold() for m in UNRATEABLE_MARKS}
    return [[w if w.strip().casefold() in again and _text(w) == w
             else f"{word}: {w}" if w and w.strip() == w and "\n" not in w else word
             for w in map(str, row)] for row in words.tolist()]


def write_worksheet_csv(doc: Document, path: str | Path) -> int:
    """Write ``doc`` as a worksheet CSV (atomically); returns the rows written.

    Extra columns follow the worksheet's own: ``state`` (number, unknown,
    unrateable), ``reason``, ``note`` and ``grade_<annotator>`` for each
    annotator kept (empty where that annotator gave no grade; where they
    marked it unrateable, their mark as they wrote it, ``N/A``, ``skip``,
    when it reads again as that mark, else the word unrateable with the
    mark as its reason, ``unrateable: paywall``: a mark declared only at the
    import, ``?``, would read again as unknown).
    """
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    names = list(doc.annotators) if doc.ratings is not None else []
    w.writerow([*WORKSHEET_COLUMNS, *EXTRA_COLUMNS, *(ANNOTATOR_PREFIX + n for n in names)])
    ratings = doc.ratings
    marks = doc.unrateable_ratings
    words = _marks(doc)
    for i in range(len(doc)):
        state = GradeState(int(doc.state[i]))
        grade = (number_text(doc.grade[i]) if state is GradeState.NUMBER
                 else state.label if state is GradeState.UNRATEABLE else "")
        row = [_text(doc.query_ids[int(doc.query[i])]), _text(str(doc.source_id[i])),
               _text(str(doc.version[i])), _number(float(doc.score[i])), grade, state.label,
               _text(str(doc.reason[i])), _text(str(doc.note[i]))]
        if ratings is not None and names:
            row.extend(_number(float(x)) for x in ratings[i])
            if marks is not None and marks[i].any():
                row[-len(names):] = [_text(words[i][a]) if m else x for a, (x, m) in enumerate(
                    zip(row[-len(names):], marks[i].tolist(), strict=True))]
        w.writerow(row)
    atomic_write_text(Path(path), buf.getvalue())
    return len(doc)
