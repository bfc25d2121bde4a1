"""CSV/TSV worksheets: ``query,source_id,version,score,grade`` with a header.

An empty score means the candidate was judged but not retrieved; an empty
grade means unknown; the words ``unknown`` and ``unrateable`` name those
states. Numbers are read by the one strict grammar
(:func:`core.model.numbers.read_number`: no ``1_0``, ``nan``, ``inf``,
``1e999`` or decimal comma). The file is read strictly: UTF-8 unless a byte
order mark or the caller says otherwise (:mod:`core.io.textfile`), every row
with as many fields as the header, quotes balanced. Anything else is an
error naming the file, line and column.

Text cells follow one rule for formula-like text (see
:mod:`core.reports.text`): the writer puts one apostrophe in front of text a
spreadsheet would run as a formula, text starting with an apostrophe and
text with white space at either end; the reader removes one leading
apostrophe, so that every id reads back exactly as it was written.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from core.errors import InputError
from core.io.headers import ALIASES as HEADER_ALIASES
from core.io.headers import REQUIRED, header_delimiter, match_header, normalize
from core.io.textfile import line_text, read_text
from core.model.conventions import Conventions
from core.model.document import Document, GradeState
from core.model.numbers import NumberError, read_number
from core.reports.text import csv_line, protect, unprotect

__all__ = ["HEADER_ALIASES", "not_kept", "read_delimited", "read_text", "write_delimited"]

#: The longest field the reader takes (the csv module's own limit).
MAX_FIELD = csv.field_size_limit()


def _number(text: str, *, file: str, line: int, column: str) -> float:
    try:
        return read_number(text)
    except NumberError as exc:
        hint = None if exc.detail else (
            "leave the cell empty instead" if exc.not_finite else "use a plain decimal number")
        raise InputError(f"{text!r} is {exc.reason}", file=file, line=line, column=column,
                         hint=hint) from exc


def _open_quote_field(line: str, delim: str) -> int | None:
    """The field (0-based) of ``line`` whose opening quote is never closed."""
    field, quoted, at_start, i = 0, False, True, 0
    while i < len(line):
        c = line[i]
        if quoted:
            if c == '"':
                if line[i + 1:i + 2] == '"':
                    i += 1
                else:
                    quoted = False
        elif c == delim:
            field += 1
            at_start = True
            i += 1
            continue
        elif c == '"' and at_start:
            quoted = True
        at_start = False
        i += 1
    return field if quoted else None


def _csv_error(exc: csv.Error, text: str, delim: str, name: str, line: int,
               header: list[str]) -> InputError:
    """A clear error for what the csv module refused on record line ``line``."""
    why = str(exc)
    column = None
    if "end of data" in why:
        field = _open_quote_field(line_text(text, line), delim)
        column = header[field] if field is not None and field < len(header) else None
        problem = ("a quoted field that starts on this line has no closing quote "
                   "(the file may be cut short)")
        hint = 'close the quote; a quote inside a quoted field is written twice ("")'
    elif "field limit" in why:
        problem = f"a field is longer than {MAX_FIELD:,} characters"
        hint = "ids, notes and reasons must be shorter"
    elif "expected after" in why:
        problem = "text follows a closing quote"
        hint = 'a quote inside a quoted field is written twice (""); quote the whole field'
    else:
        problem, hint = f"the line cannot be split into fields ({why})", None
    return InputError(problem, file=name, line=line, column=column, hint=hint)


def _records(text: str, delim: str, name: str,
             header: list[str]) -> Iterator[tuple[int, list[str]]]:
    """Each record with the line it starts on; errors name that line (and
    the column, by ``header`` once the caller has filled it in)."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delim, strict=True)
    while True:
        start = reader.line_num + 1
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            raise _csv_error(exc, text, delim, name, start, header) from None
        yield start, row


def _blank(row: list[str]) -> bool:
    return not row or all(not c.strip() for c in row)


def _columns(header: list[str], name: str, line: int) -> dict[str, int]:
    """Field -> column of a worksheet's header; errors for a missing or doubled column."""
    cols = match_header(header)
    missing = [f for f in REQUIRED if f not in cols]
    if missing:
        raise InputError(
            f"no {missing[0]!r} column in the header ({', '.join(header)})",
            file=name, line=line,
            hint="the header needs query, source_id, score and grade (version optional)",
        )
    seen: dict[str, int] = {}
    for i, cell in enumerate(header):
        key = normalize(cell)
        if key and key in seen and any(key == normalize(header[c]) for c in cols.values()):
            raise InputError(
                f"the header names {cell.strip()!r} twice (columns {seen[key] + 1} and {i + 1})",
                file=name, line=line, hint="keep one column of each name",
            )
        seen.setdefault(key, i)
    return cols


class _Columns:
    """The columns of a worksheet as they are read."""

    def __init__(self) -> None:
        self.query: list[str] = []
        self.sid: list[str] = []
        self.version: list[str] = []
        self.score: list[float | None] = []
        self.grade: list[float | None] = []
        self.state: list[int] = []
        self.note: list[str] = []
        self.reason: list[str] = []


def _read_row(row: list[str], out: _Columns, cols: dict[str, int], heads: dict[str, str],
              name: str, line: int) -> None:
    q = unprotect(row[cols["query"]])
    s = unprotect(row[cols["source_id"]])
    if not q or not s:
        which = "query" if not q else "source_id"
        raise InputError(f"the {which} is empty", file=name, line=line, column=heads[which])
    out.query.append(q)
    out.sid.append(s)
    out.version.append(unprotect(row[cols["version"]]) if "version" in cols else "")
    out.note.append(unprotect(row[cols["note"]], trim=False) if "note" in cols else "")
    sc = row[cols["score"]].strip()
    out.score.append(_number(sc, file=name, line=line, column=heads["score"]) if sc else None)
    g = row[cols["grade"]].strip()
    why = unprotect(row[cols["reason"]]) if "reason" in cols else ""
    if not g or g.lower() == "unknown":
        out.grade.append(None)
        out.state.append(GradeState.UNKNOWN)
    elif g.lower() == "unrateable":
        out.grade.append(None)
        out.state.append(GradeState.UNRATEABLE)
    else:
        out.grade.append(_number(g, file=name, line=line, column=heads["grade"]))
        out.state.append(GradeState.NUMBER)
        why = ""
    out.reason.append(why)


def read_delimited(path: str | Path, conventions: Conventions | None = None, *,
                   encoding: str | None = None) -> Document:
    """Read a worksheet CSV/TSV into a :class:`Document`.

    ``encoding`` is the file's declared encoding when it is not UTF-8 and has
    no byte order mark (see :mod:`core.io.textfile`).
    """
    path = Path(path)
    name = str(path)
    text = read_text(path, encoding)
    first = next((line for line in io.StringIO(text, newline="") if line.strip()), "")
    delim = header_delimiter(first, path)
    header: list[str] = []
    records = _records(text, delim, name, header)
    header_line = next(((at, row) for at, row in records if not _blank(row)), None)
    if header_line is None:
        raise InputError("the file is empty", file=name, hint="add a header line")
    header += header_line[1]
    cols = _columns(header, name, header_line[0])
    heads = {f: header[i].strip() for f, i in cols.items()}
    out = _Columns()
    for line, row in records:
        if _blank(row):
            continue
        if len(row) != len(header):
            raise InputError(
                f"expected {len(header)} fields, as the header has, found {len(row)}",
                file=name, line=line,
                column=header[len(row)].strip() or None if len(row) < len(header) else None,
                hint="the row is cut short or has a delimiter too many; quote text that "
                     "holds the delimiter",
            )
        _read_row(row, out, cols, heads, name, line)
    return Document.from_columns(
        query=out.query, source_id=out.sid, version=out.version, score=out.score,
        grade=out.grade, state=out.state, note=out.note, reason=out.reason,
        conventions=conventions, name=path.stem, source=name,
    )


def _text_cell(text: str, what: str, row: int) -> str:
    """A text cell as written (:func:`core.reports.text.protect`); a NUL refused."""
    if "\0" in text:
        raise InputError(f"the {what} of row {row + 1} holds a NUL character, which a text "
                         "file cannot hold; nothing was written", hint="save as .xlsx")
    return protect(text)


def write_delimited(doc: Document, path: str | Path, *, delimiter: str = ",") -> None:
    """Write the current grades as a worksheet CSV/TSV (full precision; text
    cells by the rule of :mod:`core.reports.text`, quoted where needed)."""
    from core.io.atomic import atomic_write_text

    parts = [csv_line(["query", "source_id", "version", "score", "grade", "note", "reason"],
                      delimiter)]
    for i in range(len(doc)):
        st = int(doc.state[i])
        grade = repr(float(doc.grade[i])) if st == GradeState.NUMBER else GradeState(st).label
        score = "" if math.isnan(doc.score[i]) else repr(float(doc.score[i]))
        parts.append(csv_line([
            _text_cell(doc.query_ids[int(doc.query[i])], "query", i),
            _text_cell(str(doc.source_id[i]), "source id", i),
            _text_cell(str(doc.version[i]), "version", i), score, grade,
            _text_cell(str(doc.note[i]), "note", i), _text_cell(str(doc.reason[i]), "reason", i),
        ], delimiter))
    atomic_write_text(Path(path), "".join(parts))


def not_kept(doc: Document) -> list[str]:
    """What a worksheet CSV/TSV of ``doc`` would not keep, for people (empty
    when the file keeps everything): the file holds each candidate's query,
    source, version, score, current grade, note and reason, nothing else.

    Examples
    --------
    >>> doc = Document.from_columns(query=["q"], source_id=["d"], grade=[1.0])
    >>> not_kept(doc)
    []
    >>> _ = doc.set_grade(0, 2.0, who="ana")
    >>> not_kept(doc)
    ['the audit log (1 entry)', 'the original grade of 1 edited candidate']
    """
    lost: list[str] = []
    default = {name: label for name, label, _ in Conventions().describe()}
    declared = [f"{name}: {label}" for name, label, _ in doc.conventions.describe()
                if default.get(name) != label and name != "preset"]
    if declared:
        lost.append("the conventions declared (" + "; ".join(declared) + ")")
    if doc.audit:
        n = len(doc.audit)
        lost.append(f"the audit log ({n} {'entry' if n == 1 else 'entries'})")
    edited = int(doc.changed().sum())
    if edited:
        lost.append(f"the original grade of {edited} edited "
                    f"{'candidate' if edited == 1 else 'candidates'}")
    if doc.annotators:
        lost.append(f"the individual grades of {len(doc.annotators)} annotators")
    if doc.judgment_version:
        lost.append(f"the judgment version ({doc.judgment_version})")
    if not (np.isnan(doc.frequency).all() and np.isnan(doc.importance).all()):
        lost.append("the query weights (frequency, importance)")
    return lost
