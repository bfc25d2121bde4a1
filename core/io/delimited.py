"""CSV/TSV worksheets: ``query,source_id,version,score,grade`` with a header.

An empty score means the candidate was judged but not retrieved; an empty
grade means unknown; the words ``unknown`` and ``unrateable`` name those
states. Anything else that is not a finite number is an error naming the
file, line and column.
"""

from __future__ import annotations

import csv
import io
import math
from pathlib import Path

import numpy as np

from core.errors import InputError
from core.io.headers import ALIASES as HEADER_ALIASES
from core.io.headers import REQUIRED, header_delimiter, match_header
from core.model.conventions import Conventions
from core.model.document import Document, GradeState

__all__ = ["HEADER_ALIASES", "not_kept", "read_delimited", "read_text", "write_delimited"]

MAX_BYTES = 2 * 1024**3


def read_text(path: Path) -> str:
    """Read a text file as UTF-8 (with or without BOM), else cp1252."""
    try:
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise InputError("file is larger than 2 GiB", file=str(path))
        raw = path.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read the file: {exc.strerror or exc}", file=str(path)) from exc
    if raw.startswith(b"PK\x03\x04") or raw.startswith(b"\xd0\xcf\x11\xe0"):
        raise InputError(
            "this is a workbook, not a text file", file=str(path), hint="save it as .xlsx"
        )
    if b"\x00" in raw[:4096]:
        raise InputError("the file is binary, not text", file=str(path))
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return raw.decode("cp1252", errors="replace")


def _number(text: str, *, file: str, line: int, column: str) -> float:
    try:
        value = float(text)
    except ValueError as exc:
        raise InputError(
            f"{text!r} is not a number", file=file, line=line, column=column,
            hint="use a plain decimal number",
        ) from exc
    if not math.isfinite(value):
        raise InputError(
            f"{text!r} is not a finite number", file=file, line=line, column=column,
            hint="leave the cell empty instead",
        )
    return value


def read_delimited(path: str | Path, conventions: Conventions | None = None) -> Document:
    """Read a worksheet CSV/TSV into a :class:`Document`."""
    path = Path(path)
    name = str(path)
    text = read_text(path)
    first = text.split("\n", 1)[0]
    delim = header_delimiter(first, path)
    rows = csv.reader(io.StringIO(text, newline=""), delimiter=delim)
    try:
        header = next(rows)
    except StopIteration:
        raise InputError("the file is empty", file=name, hint="add a header line") from None
    cols = match_header(header)
    missing = [f for f in REQUIRED if f not in cols]
    if missing:
        raise InputError(
            f"no {missing[0]!r} column in the header ({', '.join(header)})",
            file=name, line=1,
            hint="the header needs query, source_id, score and grade (version optional)",
        )
    header_name = {f: header[i].strip() for f, i in cols.items()}
    width = max(cols.values()) + 1
    query: list[str] = []
    sid: list[str] = []
    version: list[str] = []
    score: list[float | None] = []
    grade: list[float | None] = []
    state: list[int] = []
    note: list[str] = []
    reason: list[str] = []
    for line_no, row in enumerate(rows, start=2):
        if not row or all(not c.strip() for c in row):
            continue
        if len(row) < width:
            row = row + [""] * (width - len(row))
        q = row[cols["query"]].strip()
        s = row[cols["source_id"]].strip()
        if not q or not s:
            which = "query" if not q else "source_id"
            raise InputError(
                f"the {which} is empty", file=name, line=line_no, column=header_name[which],
            )
        query.append(q)
        sid.append(s)
        version.append(row[cols["version"]].strip() if "version" in cols else "")
        note.append(row[cols["note"]] if "note" in cols else "")
        sc = row[cols["score"]].strip()
        score.append(
            _number(sc, file=name, line=line_no, column=header_name["score"]) if sc else None
        )
        g = row[cols["grade"]].strip()
        why = row[cols["reason"]].strip() if "reason" in cols else ""
        if not g or g.lower() == "unknown":
            grade.append(None)
            state.append(GradeState.UNKNOWN)
        elif g.lower() == "unrateable":
            grade.append(None)
            state.append(GradeState.UNRATEABLE)
        else:
            grade.append(_number(g, file=name, line=line_no, column=header_name["grade"]))
            state.append(GradeState.NUMBER)
            why = ""
        reason.append(why)
    return Document.from_columns(
        query=query, source_id=sid, version=version, score=score, grade=grade, state=state,
        note=note, reason=reason, conventions=conventions, name=path.stem, source=name,
    )


def _cell(text: str) -> str:
    """Neutralise text that a spreadsheet would run as a formula (CWE-1236)."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r", "\0") else text


def write_delimited(doc: Document, path: str | Path, *, delimiter: str = ",") -> None:
    """Write the current grades as a worksheet CSV (full precision)."""
    from core.io.atomic import atomic_write_text

    buf = io.StringIO()
    w = csv.writer(buf, delimiter=delimiter, lineterminator="\n")
    w.writerow(["query", "source_id", "version", "score", "grade", "note", "reason"])
    for i in range(len(doc)):
        st = int(doc.state[i])
        grade = repr(float(doc.grade[i])) if st == GradeState.NUMBER else GradeState(st).label
        score = "" if math.isnan(doc.score[i]) else repr(float(doc.score[i]))
        w.writerow([
            _cell(doc.query_ids[int(doc.query[i])]), _cell(str(doc.source_id[i])),
            _cell(str(doc.version[i])), score, grade, _cell(str(doc.note[i])),
            _cell(str(doc.reason[i])),
        ])
    atomic_write_text(Path(path), buf.getvalue())


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
