"""Writing a document as TREC qrels or a TREC run.

A TREC line is fields separated by white space, so an id that holds white
space (a space, a tab, a line break, any Unicode space) would be read back as
several fields, and an empty id as none: such ids are refused, with the
query and row named, before anything is written. A NUL character is refused
too (a reader takes the file for binary). Every other id is written exactly
as it is: TREC files are not spreadsheets, so formula-like text (``=1+1``,
``-x``, ``@y``) is written without the apostrophe the CSV/TSV writer puts in
front of it (:mod:`core.reports.text`), and reads back the same.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

import numpy as np

from core.errors import InputError
from core.io.atomic import atomic_write_text
from core.model.document import Document, GradeState
from core.model.numbers import number_text

__all__ = ["RUN_TAG", "check_trec_ids", "qrels_rows", "run_tag", "write_qrels", "write_run"]

#: What a TREC field cannot hold: white space (Python's, the widest reading
#: of it: str.split's) and NUL.
_NOT_IN_FIELD = re.compile(r"[\s\x00]")
_HINT = "rename the id, or export to .csv, .tsv or .xlsx, which hold any text"


def _why_not(text: str) -> str | None:
    if not text:
        return "is empty"
    found = _NOT_IN_FIELD.search(text)
    if found is None:
        return None
    what = "a NUL character" if found.group() == "\0" else f"white space ({found.group()!r})"
    return f"holds {what}"


def check_trec_ids(doc: Document, rows: Iterable[int], path: str | Path, tag: str = "") -> None:
    """Raise :class:`InputError` for the first id among ``rows`` (their
    queries', their sources') or the tag that a TREC line cannot hold;
    nothing has been written then."""
    queries_seen: set[int] = set()
    for i in rows:
        q = int(doc.query[i])
        if q not in queries_seen:
            queries_seen.add(q)
            why = _why_not(doc.query_ids[q])
            if why is not None:
                raise InputError(f"query id {doc.query_ids[q]!r} {why}, which a TREC file "
                                 "cannot hold; nothing was written", file=str(path), hint=_HINT)
        source = str(doc.source_id[i])
        why = _why_not(source)
        if why is not None:
            raise InputError(
                f"source id {source!r} of query {doc.query_ids[q]!r} (row {i + 1}) {why}, "
                "which a TREC file cannot hold; nothing was written", file=str(path), hint=_HINT)
    if tag:
        why = _why_not(tag)
        if why is not None:
            raise InputError(f"the run tag {tag!r} {why}", file=str(path), hint="name another tag")


def _write_lines(path: Path, lines: list[str]) -> None:
    try:
        atomic_write_text(Path(path), "".join(lines))
    except UnicodeEncodeError as exc:
        raise InputError(f"an id holds text that UTF-8 cannot encode ({exc.reason}); "
                         "nothing was written", file=str(path)) from exc


def qrels_rows(doc: Document, path: str | Path) -> list[int]:
    """The rows qrels of ``doc`` hold (the numeric grades: unknown and
    unrateable are not judgments), their ids checked (:func:`check_trec_ids`):
    a caller may call it before saying what qrels will not keep."""
    rows: list[int] = np.flatnonzero(doc.state == GradeState.NUMBER).tolist()
    check_trec_ids(doc, rows, path)
    return rows


def write_qrels(doc: Document, path: str | Path) -> int:
    """Write the current numeric grades as qrels; returns the lines written.

    Unknown and unrateable grades are not judgments and are left out. Ids a
    TREC line cannot hold are refused first (:func:`qrels_rows`).
    """
    rows = qrels_rows(doc, path)
    lines = [
        f"{doc.query_ids[int(doc.query[i])]} 0 {doc.source_id[i]} {number_text(doc.grade[i])}\n"
        for i in rows
    ]
    _write_lines(Path(path), lines)
    return len(lines)


#: The tag a run written from a document of no run's (or whose run's tag a
#: TREC field cannot hold) gets.
RUN_TAG = "ndcg-worksheet"


def run_tag(doc: Document) -> tuple[str, str]:
    """The tag a run written from ``doc`` gets by default: the run's own
    (:attr:`Document.run_tag`, as its file wrote it; trec_eval reads any), or
    :data:`RUN_TAG` where it has none or one a TREC field cannot hold (a
    spaced one, ranx's run name "BM25 tuned"), with why ("" when its own).

    >>> from core.model.document import Document
    >>> doc = Document.from_columns(query=[], source_id=[])
    >>> run_tag(doc)
    ('ndcg-worksheet', '')
    >>> doc.run_tag = "bm25"
    >>> run_tag(doc)
    ('bm25', '')
    >>> doc.run_tag = "BM25 tuned"
    >>> run_tag(doc)[1]
    "the run's own, 'BM25 tuned', holds white space (' ')"
    """
    if not doc.run_tag:
        return RUN_TAG, ""
    why = _why_not(doc.run_tag)
    return (doc.run_tag, "") if why is None else (RUN_TAG, f"the run's own, {doc.run_tag!r}, {why}")


def write_run(doc: Document, path: str | Path, tag: str | None = None) -> int:
    """Write the retrieved candidates as a run, ranked by score then row order,
    each line's tag ``tag`` (None: the run's own, :func:`run_tag`).

    Ids a TREC line cannot hold are refused first (:func:`check_trec_ids`).
    """
    if tag is None:
        tag = run_tag(doc)[0]
    ranked = []
    for q in range(doc.n_queries):
        idx = doc.members(q)
        idx = idx[~np.isnan(doc.score[idx])]
        ranked.append(idx[np.argsort(-doc.score[idx], kind="stable")])
    check_trec_ids(doc, (int(i) for idx in ranked for i in idx), path, tag)
    lines = []
    for q, idx in enumerate(ranked):
        for r, i in enumerate(idx, start=1):
            lines.append(
                f"{doc.query_ids[q]} Q0 {doc.source_id[i]} {r} {float(doc.score[i])!r} {tag}\n"
            )
    _write_lines(Path(path), lines)
    return len(lines)
