"""CSV/TSV worksheets: ``query,source_id,version,score,grade`` with a header.

An empty score means the candidate was judged but not retrieved; an empty
grade means unknown; the words ``unknown`` and ``unrateable`` name those
states, and a grade cell's words are read as the grid and a workbook read
them (:func:`core.model.grades.read_word`: ``N/A``, ``?``, a rubric label,
``unrateable: paywall`` with its reason, which a ``reason`` column's own
must not contradict). Numbers are read by the one strict grammar
(:func:`core.model.numbers.read_number`: no ``1_0``, ``nan``, ``inf``,
``1e999`` or decimal comma). The file is read strictly: UTF-8 unless a byte
order mark or the caller says otherwise (:mod:`core.io.textfile`), every row
with as many fields as the header, quotes balanced. Anything else is an
error naming the file, line and column. A file the fast reader
(:mod:`core.io.sheet_scan`, numpy over the file's bytes) can read exactly as
this one does is read by it; anything else (quotes, blank lines, a bad
cell ...) is read here, so the messages are this reader's.

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
import shlex
import weakref
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from core.errors import InputError
from core.io.files import stem
from core.io.headers import ALIASES as HEADER_ALIASES
from core.io.headers import REQUIRED, header_delimiter, match_header, normalize
from core.io.sheet_scan import scan_sheet
from core.io.stop import LINES
from core.io.stop import check as check_stopped
from core.io.textfile import DETECT, line_text, read_detected, read_text
from core.model.conventions import Conventions, Rubric
from core.model.document import Document, GradeState
from core.model.grades import UNKNOWN_WORDS, read_word
from core.model.numbers import NumberError, counted, read_numbers
from core.reports.text import csv_line, protect, unprotect_all

__all__ = ["HEADER_ALIASES", "KEPT", "cannot_encode", "keep_text_encoding", "not_kept",
           "qrels_not_kept", "read_delimited", "read_text", "text_encoding", "write_delimited"]

#: The encoding each document read by :func:`read_delimited` was decoded with.
_ENCODINGS: weakref.WeakKeyDictionary[Document, str] = weakref.WeakKeyDictionary()


def keep_text_encoding(doc: Document, encoding: str) -> None:
    """Record that ``doc``'s worksheet CSV/TSV is now in ``encoding`` (it
    was saved so): :func:`text_encoding` says it, and the next save keeps it."""
    _ENCODINGS[doc] = encoding


def text_encoding(doc: Document) -> str | None:
    """The encoding ``doc``'s worksheet CSV/TSV was read in (``utf-8``,
    ``utf-8-sig``, ``utf-16``, ``cp1252`` ...); None for a document not read
    by :func:`read_delimited`."""
    return _ENCODINGS.get(doc)

#: The longest field the reader takes (the csv module's own limit).
MAX_FIELD = csv.field_size_limit()


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
            hint="the header needs query, source_id, score and grade (version optional); "
                 "annotators' judgments without scores are read by "
                 f"`ndcg-worksheet import {shlex.quote(name)} -o OUT.csv`, or evaluated "
                 f"as the judgments of a run by `ndcg-worksheet evaluate RUN --qrels "
                 f"{shlex.quote(name)}`",
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


#: What a grade cell may hold, said where one holds none of it: "use a plain
#: decimal number" alone had a grade not known written 0.
_GRADE_HINT = ("a grade is a number; a grade not known is left empty or written 'unknown', "
               "one that cannot be judged 'unrateable'")


def _state_and_reason(text: str, reason: str | None) -> str | None:
    """What to write for a grade cell holding the unknown state's word and a
    reason (``unknown: not read yet``, as the audit says a grade; the
    grammar reads a reason beside an unrateable mark alone,
    :func:`core.model.grades.read_word`): the word here, the reason in the
    reason column (named ``reason``: the file's, or one to add), which the
    worksheet reads; None for any other text."""
    word, colon, why = text.partition(":")
    if not (colon and why.strip()) or word.strip().casefold() not in UNKNOWN_WORDS:
        return None
    said = f"write {word.strip()!r} here and {why.strip()!r} in the"
    if reason is not None:
        return f"{said} {reason!r} column"
    return f"{said} reason column: add a 'reason' column, a field on every line"


def _grade_hint(reason: str | None) -> Callable[[str], str]:
    """The hint of a grade cell holding ``text``, no number: the state word
    and its reason apart (:func:`_state_and_reason`), else what a grade
    cell may hold."""
    return lambda text: _state_and_reason(text, reason) or _GRADE_HINT


def _numbers(texts: list[str], lines: list[int], name: str, column: str,
             hint: str | Callable[[str], str] = "use a plain decimal number") -> list[float]:
    """The numbers of a column (each text stripped, none empty), else an
    error naming the line of the first that is not one (with ``hint``, what
    the column may hold, for a text that is no number at all; a function
    of the text)."""
    try:
        return read_numbers(texts)
    except NumberError as exc:
        said = None if exc.detail else (
            "leave the cell empty instead" if exc.not_finite else
            hint(exc.text) if callable(hint) else hint)
        raise InputError(f"{exc.text!r} is {exc.reason}", file=name, line=lines[exc.index],
                         column=column, hint=said) from exc


def _optional_numbers(cells: Sequence[str], lines: list[int], name: str,
                      column: str) -> list[float | None]:
    """A column of numbers where an empty cell is None (a score not given)."""
    texts = [c.strip() for c in cells]
    if all(texts):
        return list(_numbers(texts, lines, name, column))
    at = [i for i, t in enumerate(texts) if t]
    out: list[float | None] = [None] * len(texts)
    for i, value in zip(at, _numbers([texts[i] for i in at], [lines[i] for i in at], name,
                                     column), strict=True):
        out[i] = value
    return out


def _grades(cells: Sequence[str], lines: list[int], name: str, column: str,
            reason: str | None = None, rubric: Rubric | None = None
            ) -> tuple[list[float | None], list[int], list[str]]:
    """A grade column: numbers (the CSV's strict grammar), or the grade
    grammar's words as the grid and a workbook read them
    (:func:`core.model.grades.read_word`: empty, ``unknown``, ``?``, a
    rubric label, ``unrateable``, ``N/A``, ``unrateable: paywall`` ...);
    ``reason`` the header of the reason column (None: the file has none).
    Returns the grades, their states and the reason each cell gives."""
    texts = [c.strip() for c in cells]
    said = {t: read_word(t, rubric) for t in set(texts)}  # (each distinct text once)
    words = [said[t] for t in texts]
    hint = _grade_hint(reason)
    if all(w is None for w in words):  # every grade a number
        return (list(_numbers(texts, lines, name, column, hint)), [0] * len(texts),
                [""] * len(texts))
    at = [i for i, w in enumerate(words) if w is None]
    grade: list[float | None] = [None if w is None else w.grade for w in words]
    for i, value in zip(at, _numbers([texts[i] for i in at], [lines[i] for i in at], name,
                                     column, hint), strict=True):
        grade[i] = value
    return (grade, [GradeState.NUMBER if w is None else int(w.state) for w in words],
            ["" if w is None else w.reason for w in words])


def _reasons(column: list[str], said: list[str], cells: Sequence[str], state: list[int],
             lines: list[int], name: str, heads: dict[str, str]) -> list[str]:
    """Each grade's reason: the reason column's, or the grade cell's
    (``unrateable: paywall``) where the column's is empty; none beside a
    number. A cell and a column giving two reasons are refused, naming both."""
    out = []
    for i, (why, own, st) in enumerate(zip(column, said, state, strict=True)):
        if own and why and own != why:
            raise InputError(
                f"{cells[i].strip()!r} gives the reason {own!r} and the {heads['reason']!r} "
                f"column {why!r}", file=name, line=lines[i], column=heads["grade"],
                hint=f"keep one: write the reason in the {heads['reason']!r} column alone, "
                     "or the same in both")
        out.append((why or own) if st != GradeState.NUMBER else "")
    return out


def _ids(cells: Sequence[str], lines: list[int], name: str, which: str,
         column: str) -> list[str]:
    """An id column by the CSV rule (:func:`core.reports.text.unprotect`); an
    empty id is an error naming its line."""
    ids = unprotect_all(cells)
    if not all(ids):
        raise InputError(f"the {which} is empty", file=name, line=lines[ids.index("")],
                         column=column)
    return ids


def _header(reader: Any, text: str, delim: str, name: str) -> tuple[list[str], int]:
    """The first row that is not blank, and its line."""
    start = 1
    try:
        for row in reader:
            if not _blank(row):
                return row, start
            start = reader.line_num + 1
    except csv.Error as exc:
        raise _csv_error(exc, text, delim, name, start, []) from None
    raise InputError("the file is empty", file=name, hint="add a header line")


def _rows(reader: Any, header: list[str], query: int, text: str, delim: str,
          name: str) -> tuple[list[list[str]], list[int]]:
    """The data rows (blank ones skipped) and the line each starts on; a row
    with another number of fields than the header, or one the csv module
    refuses, is an error naming its line."""
    width = len(header)
    data: list[list[str]] = []
    lines: list[int] = []
    start = reader.line_num + 1
    try:
        for row in reader:
            line, start = start, reader.line_num + 1
            if not len(data) % LINES:
                check_stopped()  # a read stopped from another thread ends here (core.io.stop)
            if len(row) != width or not row[query]:
                if _blank(row):
                    continue
                if len(row) != width:
                    raise InputError(
                        f"expected {width} fields, as the header has, found {len(row)}",
                        file=name, line=line,
                        column=header[len(row)].strip() or None if len(row) < width else None,
                        hint="the row is cut short or has a delimiter too many; quote text "
                             "that holds the delimiter",
                    )
            data.append(row)
            lines.append(line)
    except csv.Error as exc:
        raise _csv_error(exc, text, delim, name, start, header) from None
    return data, lines


def read_delimited(path: str | Path, conventions: Conventions | None = None, *,
                   encoding: str | None = None) -> Document:
    """Read a worksheet CSV/TSV into a :class:`Document`.

    ``encoding`` is the file's declared encoding when it is not UTF-8 and has
    no byte order mark (see :mod:`core.io.textfile`); ``"detect"``
    (:data:`core.io.textfile.DETECT`) finds it as the annotators' importer
    does. :func:`text_encoding` of the document says which was used.
    """
    path = Path(path)
    if encoding == DETECT:
        text, found = read_detected(path)
    else:
        text = read_text(path, encoding)
        found = encoding or "utf-8"
    doc = _document(path, text, conventions)
    _ENCODINGS[doc] = found
    return doc


def _fast_document(path: Path, text: str, conventions: Conventions | None) -> Document | None:
    """The worksheet read by the fast reader (:mod:`core.io.sheet_scan`) when
    its first line is its header, holding no quote; None when the careful
    reader must read it. A bad header gets the careful reader's message."""
    end = min((i for i in (text.find("\n"), text.find("\r")) if i >= 0), default=len(text))
    first = text[:end]
    if not first.strip() or '"' in first:
        return None
    delim = header_delimiter(first, path)
    header = first.split(delim)
    cols = _columns(header, str(path), 1)
    rubric = None if conventions is None else conventions.rubric
    if rubric is not None and rubric.value_for_label("unrateable") is not None:
        return None  # (a rubric's label read before the mark the fast reader reads)
    return scan_sheet(text, delim, header, cols, conventions=conventions, name=str(path),
                      stem=stem(path))


def _document(path: Path, text: str, conventions: Conventions | None) -> Document:
    """The worksheet of a CSV/TSV file's ``text``."""
    name = str(path)
    fast = _fast_document(path, text, conventions)
    if fast is not None:
        return fast
    first = next((line for line in io.StringIO(text, newline="") if line.strip()), "")
    delim = header_delimiter(first, path)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delim, strict=True)
    header, header_line = _header(reader, text, delim, name)
    cols = _columns(header, name, header_line)
    heads = {f: header[i].strip() for f, i in cols.items()}
    data, lines = _rows(reader, header, cols["query"], text, delim, name)
    n = len(data)

    def column(field: str) -> list[str]:
        i = cols[field]
        return [row[i] for row in data]

    def text_of(field: str, trim: bool = True) -> list[str]:
        return unprotect_all(column(field), trim=trim) if field in cols else [""] * n

    rubric = None if conventions is None else conventions.rubric
    grade, state, said = _grades(column("grade"), lines, name, heads["grade"],
                                 heads.get("reason"), rubric)
    reason = _reasons(text_of("reason"), said, column("grade"), state, lines, name, heads)
    return Document.from_columns(
        query=_ids(column("query"), lines, name, "query", heads["query"]),
        source_id=_ids(column("source_id"), lines, name, "source_id", heads["source_id"]),
        version=text_of("version"),
        score=_optional_numbers(column("score"), lines, name, heads["score"]),
        grade=grade, state=state, note=text_of("note", trim=False), reason=reason,
        conventions=conventions, name=stem(path), source=name,
    )


def _text_cell(text: str, what: str, row: int) -> str:
    """A text cell as written (:func:`core.reports.text.protect`); a NUL refused."""
    if "\0" in text:
        raise InputError(f"the {what} of row {row + 1} holds a NUL character, which a text "
                         "file cannot hold; nothing was written", hint="save as .xlsx")
    cell = protect(text)
    if len(cell) > MAX_FIELD:
        raise InputError(f"the {what} of row {row + 1} is {len(cell):,} characters long; a "
                         f"CSV/TSV field is read back up to {MAX_FIELD:,}, so nothing was "
                         "written", hint="shorten it, or save as .xlsx (which keeps it whole)")
    return cell


#: The text columns a worksheet CSV/TSV holds, by what messages call them.
_TEXT_COLUMNS: tuple[tuple[str, Callable[[Document, int], str]], ...] = (
    ("query", lambda doc, i: doc.query_ids[int(doc.query[i])]),
    ("source id", lambda doc, i: str(doc.source_id[i])),
    ("version", lambda doc, i: str(doc.version[i])),
    ("note", lambda doc, i: str(doc.note[i])),
    ("reason", lambda doc, i: str(doc.reason[i])))


def cannot_encode(doc: Document, encoding: str, path: str | Path) -> InputError | None:
    """The first text cell a worksheet CSV/TSV of ``doc`` in ``encoding``
    cannot hold (a character that encoding lacks), as the error to show, or
    None when every cell can be written.

    Examples
    --------
    >>> doc = Document.from_columns(query=["q"], source_id=["\u0141"])
    >>> cannot_encode(doc, "utf-8", "w.csv") is None
    True
    >>> print(cannot_encode(doc, "cp1252", "w.csv").problem)
    the source id of query 'q', source '\u0141' holds '\u0141' (U+0141), which cp1252 cannot hold
    """
    for what, text_of in _TEXT_COLUMNS:
        texts = [text_of(doc, i) for i in range(len(doc))]
        try:
            "\n".join(texts).encode(encoding)
            continue  # the whole column can be written
        except UnicodeEncodeError:
            pass
        for i, text in enumerate(texts):
            try:
                text.encode(encoding)
            except UnicodeEncodeError as exc:
                char = text[exc.start]
                return InputError(
                    f"the {what} of query {doc.query_ids[int(doc.query[i])]!r}, source "
                    f"{doc.source_id[i]!r} holds {char!r} (U+{ord(char):04X}), which "
                    f"{encoding} cannot hold", file=str(path), column=what,
                    hint="save it as UTF-8 with BOM (which Excel reads), or remove the "
                         "character; nothing was written")
    return None


def write_delimited(doc: Document, path: str | Path, *, delimiter: str = ",",
                    encoding: str = "utf-8") -> None:
    """Write the current grades as a worksheet CSV/TSV (full precision; text
    cells by the rule of :mod:`core.reports.text`, quoted where needed) in
    ``encoding`` (the one the file was read in keeps it as it was). A
    character the encoding cannot hold is refused before anything is written
    (:func:`cannot_encode`)."""
    from core.io.atomic import atomic_write

    parts = [csv_line(["query", "source_id", "version", "score", "grade", "note", "reason"],
                      delimiter)]
    for i in range(len(doc)):
        if i % LINES == 0:
            check_stopped()  # a write stopped from another thread ends here (core.io.stop)
        st = int(doc.state[i])
        grade = repr(float(doc.grade[i])) if st == GradeState.NUMBER else GradeState(st).label
        score = "" if math.isnan(doc.score[i]) else repr(float(doc.score[i]))
        parts.append(csv_line([
            _text_cell(doc.query_ids[int(doc.query[i])], "query", i),
            _text_cell(str(doc.source_id[i]), "source id", i),
            _text_cell(str(doc.version[i]), "version", i), score, grade,
            _text_cell(str(doc.note[i]), "note", i), _text_cell(str(doc.reason[i]), "reason", i),
        ], delimiter))
    try:
        data = "".join(parts).encode(encoding)
    except UnicodeEncodeError:
        raise cannot_encode(doc, encoding, path) or InputError(
            f"the worksheet cannot be written in {encoding}", file=str(path),
            hint="save it as UTF-8 with BOM") from None
    except LookupError:
        raise InputError(f"{encoding!r} is not an encoding this program knows",
                         file=str(path), hint="save it as UTF-8") from None

    def write(tmp: Path) -> None:
        tmp.write_bytes(data)

    atomic_write(Path(path), write)


#: What a worksheet CSV/TSV keeps beside each candidate's query, source,
#: version and score (:func:`not_kept` says what it does not), in the
#: window's question before such a save and the command line's warning.
KEPT = "the grades, notes and reasons"


def not_kept(doc: Document, *, tag: bool = True) -> list[str]:
    """What a worksheet CSV/TSV of ``doc`` would not keep, for people (empty
    when the file keeps everything): the file holds each candidate's query,
    source, version, score, current grade, note and reason, nothing else
    (the run's tag said unless not ``tag``: qrels say the ranking lost).

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
        lost.append(f"the audit log ({counted(n, 'entry')})")
    edited = int(doc.changed().sum())
    if edited:
        lost.append(f"the original grade of {counted(edited, 'edited candidate')}")
    if doc.annotators:
        lost.append(f"the individual grades of {counted(len(doc.annotators), 'annotator')}")
    if doc.query_texts:  # (read beside the ids: a worksheet CSV has no column of them)
        lost.append(f"the texts of {counted(len(doc.query_texts), 'query')}")
    if doc.judgment_version:
        lost.append(f"the judgment version ({doc.judgment_version})")
    if doc.run_tag and tag:  # (a TREC export of the file's rows then writes ndcg-worksheet)
        lost.append(f"the run's tag ({doc.run_tag})")
    if not (np.isnan(doc.frequency).all() and np.isnan(doc.importance).all()):
        lost.append("the query weights (frequency, importance)")
    return lost



def qrels_not_kept(doc: Document) -> list[str]:
    """What TREC qrels of ``doc`` would not keep, for people, before they are
    written (empty when they keep everything): a qrels line holds a query,
    a source id and a grade, nothing else (:func:`core.io.trec.write_qrels`).

    Examples
    --------
    >>> doc = Document.from_columns(query=["q", "q"], source_id=["a", "b"],
    ...                             grade=[1.0, 2.5], score=[2.0, 1.0])
    >>> for item in qrels_not_kept(doc):
    ...     print(item)
    the ranking (the scores of 2 candidates)
    1 grade that is not a whole number (written with its decimals; trec_eval reads whole numbers)
    """
    lost: list[str] = []
    for state, words in ((GradeState.UNKNOWN, ("candidate not graded (unknown)",
                                               "candidates not graded (unknown)")),
                         (GradeState.UNRATEABLE, ("unrateable candidate",
                                                  "unrateable candidates"))):
        n = int(np.count_nonzero(doc.state == state))
        if n:
            lost.append(counted(n, *words, grouped=True) + ": left out")
    scored = int(np.count_nonzero(~np.isnan(doc.score)))
    if scored:
        lost.append(f"the ranking (the scores of {counted(scored, 'candidate', grouped=True)})")
    for column, one, more in ((doc.note, "note", "notes"), (doc.reason, "reason", "reasons"),
                              (doc.version, "version of a candidate", "versions of candidates")):
        n = int(np.count_nonzero(column != ""))
        if n:
            lost.append(counted(n, one, more, grouped=True))
    graded = doc.grade[doc.state == GradeState.NUMBER]
    fractional = int(np.count_nonzero(graded != np.round(graded)))
    if fractional:
        lost.append(counted(fractional, "grade that is not a whole number (written with its",
                            "grades that are not whole numbers (written with their", grouped=True)
                    + " decimals; trec_eval reads whole numbers)")
    return lost + not_kept(doc, tag=False)  # (the run's tag: its ranking's)
