"""Joining a run and its qrels into a document.

As trec_eval does, the run's rank column is ignored (the engine orders by
score under the declared tie rule) and only queries present in both files
are evaluated. Two joins give the very same document: one on the fast
reader's integer codes (:func:`_join_columns`), one on Python dicts of the
ids' text (:func:`_join_lines`) for any file the fast reader leaves.
"""

from __future__ import annotations

import ctypes
import sys
from pathlib import Path
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from core.errors import InputError
from core.io.trec import scan
from core.io.trec.read import QrelsColumns, Run, read_qrels
from core.io.trec.scan import Column, IntArray, Table, decode_all
from core.model.conventions import Conventions
from core.model.document import Document

__all__ = ["document_from_trec"]

Int32Array = npt.NDArray[np.int32]
BoolArray = npt.NDArray[np.bool_]
ObjectArray = npt.NDArray[np.object_]
_NO_ROWS = np.empty(0, dtype=np.int64)


def document_from_trec(
    run: str | Path | Run,
    qrels: str | Path | QrelsColumns,
    conventions: Conventions | None = None,
    *,
    threads: int = 2,
) -> Document:
    """Join a run and qrels into a document.

    Queries in both files are kept. Run rows without a judgment get an unknown
    grade; judged sources the run did not retrieve are added without a score.
    Rows keep the run's order; the judged-not-retrieved rows follow, query by
    query (in the run's order), each query's in the qrels' order.
    ``threads`` read a run given as a path (one when another file is read at
    the same time).
    """
    own = not isinstance(run, Run)
    run = run if isinstance(run, Run) else Run(run, threads=threads)
    shared: QrelsColumns | None = None
    if isinstance(qrels, QrelsColumns):
        shared, qrels_path = qrels, qrels.path
    else:
        qrels_path = Path(qrels)
    name = Path(run.path).stem
    if run._table is not None:
        if shared is not None:
            table = None if shared._table is None else shared._table.copy()
        else:
            table = scan.scan_file(qrels_path, 4, (0, 2), 3)
        if table is not None:
            doc = _join_columns(run, run._table, table, qrels_path, conventions, name,
                                release=own)
            if doc is not None:
                del table
                if own and shared is None:
                    # (A caller joining several runs reuses the freed memory.)
                    del run
                    _release_free_memory()
                return doc
    return _join_lines(run, qrels_path, conventions, name)


def _release_free_memory() -> None:
    """Hand the C allocator's free pages back to the system (glibc only).

    Reading leaves tens of MB of freed temporaries resident in the heap;
    without this they add to the peak memory of whatever runs next.
    """
    if not sys.platform.startswith("linux"):
        return
    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):  # not glibc
        return
    trim(0)


def _duplicate_error(run: Run, query: str, source: str, first: int, second: int) -> InputError:
    """A run that lists a pair twice: ``first`` and ``second`` are run rows."""
    return InputError(
        f"query {query!r} retrieves source {source!r} twice "
        f"(first on line {int(run.line[first])})",
        file=str(run.path), line=int(run.line[second]),
        hint="keep one line per query and source",
    )


# -- the join on integer codes -----------------------------------------------------------
def _cells(cells: int, rows: int) -> Int32Array | None:
    """Room for a table over ``cells`` keys (uninitialised), when that is
    not much more than the rows it serves; None otherwise."""
    return np.empty(cells, dtype=np.int32) if cells <= 4 * rows + 1024 else None


def _has_repeat(key: IntArray, table: Int32Array | None) -> bool:
    """Whether a key repeats: each row writes its number in its cell and
    reads it back (only a repeated key can read another number), or, without
    a table, by sorting."""
    if table is None:
        sorted_key = np.sort(key)
        return bool(np.any(sorted_key[1:] == sorted_key[:-1]))
    mark = np.arange(key.size, dtype=np.int32)
    table[key] = mark
    return bool(np.any(table[key] != mark))


def _first_repeat(key: IntArray) -> tuple[int, int]:
    """The earliest row whose key an earlier row holds, and that earlier row
    (some key must repeat)."""
    order = np.argsort(key, kind="stable")
    sorted_key = key[order]
    repeat = np.flatnonzero(sorted_key[1:] == sorted_key[:-1])
    second = int(order[repeat + 1].min())
    first = int(order[np.searchsorted(sorted_key, key[second])])
    return first, second


def _union(a: Column, b: Column) -> tuple[IntArray, IntArray, npt.NDArray[np.bytes_]] | None:
    """Codes of both columns' distinct tokens in one common set (and its
    tokens); None when two different tokens share a key."""
    key = np.concatenate([a.key, b.key])
    uniq, inverse = np.unique(key, return_inverse=True)
    a_map, b_map = inverse[: a.key.size], inverse[a.key.size:]
    width = max(a.raw.itemsize, b.raw.itemsize, 1)
    raw = np.empty(uniq.size, dtype=f"S{width}")
    raw[a_map] = a.raw
    raw[b_map] = b.raw
    if not np.array_equal(raw[a_map], a.raw):
        return None
    return a_map, b_map, raw


class _Ids(NamedTuple):
    """The ids of both files in the document's codes.

    ``query_ids``: the queries in both files, in the order the run first
    lists them; ``texts``: every distinct source's text. ``to_doc`` takes a
    query of the common set to its document code (-1: not kept); the maps
    take each file's own codes to the common sets.
    """

    query_ids: list[str]
    texts: ObjectArray
    to_doc: IntArray
    rq_map: IntArray
    qq_map: IntArray
    rs_map: IntArray
    qs_map: IntArray


class _Pairs:
    """Each row's query and source as document codes: the run's rows kept
    (``rows``; None: all of them) and the qrels' rows of kept queries with
    their grades. The assembly empties the run's arrays as it copies them
    (less memory at the peak)."""

    def __init__(self, run_query: IntArray, run_source: IntArray, rows: IntArray | None,
                 qrels_query: IntArray, qrels_source: IntArray,
                 grades: npt.NDArray[np.float64]) -> None:
        self.run_query = run_query
        self.run_source = run_source
        self.rows = rows
        self.qrels_query = qrels_query
        self.qrels_source = qrels_source
        self.grades = grades


def _join_columns(run: Run, rt: Table, qt: Table, qrels_path: Path,
                  conventions: Conventions | None, name: str, *,
                  release: bool = False) -> Document | None:
    """The join on integer codes; None where the line-by-line join must do it
    (two different ids that read as the same text, a key clash).

    The qrels' table is emptied as it is used, and so is the run's with
    ``release`` (a run read for this document only): less memory at the peak.
    """
    if _qrels_repeat(qt):
        # A qrels file that judges a pair twice: the line reader names the lines.
        read_qrels(qrels_path)
        return None  # pragma: no cover - read_qrels raised
    ids = _common_ids(rt, qt)
    if ids is None:
        return None
    query_ids, texts = ids.query_ids, ids.texts
    pairs = _pairs(rt, qt, ids, release=release)
    del ids
    matched, hit = _match(run, pairs, query_ids, texts)
    query, source_code, score, grade = _assemble(run, rt, pairs, matched, hit, release=release)
    del pairs, matched, hit
    return Document.from_columns(
        query=query_ids,
        query_codes=query,
        source_id=texts[source_code],
        source_codes=(source_code, texts),
        score=score,
        grade=grade,
        conventions=conventions,
        name=name,
        source=None,
        check=False,
        copy=False,
    )


def _qrels_repeat(qt: Table) -> bool:
    """Whether the qrels judge a (query, source) pair twice."""
    qrels_q, qrels_s = qt.columns
    n_qs = max(qrels_s.key.size, 1)
    pair = qrels_q.code * np.int64(n_qs) + qrels_s.code
    return _has_repeat(pair, _cells(max(qrels_q.key.size, 1) * n_qs, pair.size))


def _common_ids(rt: Table, qt: Table) -> _Ids | None:
    """Both files' ids in one set each (queries, sources) and the queries
    kept; None on a key clash or on two ids that decode to the same text."""
    run_q, run_s = rt.columns
    qrels_q, qrels_s = qt.columns
    queries = _union(run_q, qrels_q)
    sources = _union(run_s, qrels_s)
    if queries is None or sources is None:
        return None
    rq_map, qq_map, q_raw = queries
    rs_map, qs_map, s_raw = sources
    # Queries in both files, in the order the run first lists them.
    judged = np.zeros(q_raw.size, dtype=bool)
    judged[qq_map] = True
    kept = np.flatnonzero(judged[rq_map])
    kept = kept[np.argsort(run_q.first[kept], kind="stable")]
    query_ids = decode_all(run_q.raw[kept])
    source_text = decode_all(s_raw)
    if len(set(query_ids)) != len(query_ids) or len(set(source_text)) != len(source_text):
        return None  # different bytes, the same text (the cp1252 fallback)
    texts = np.empty(len(source_text), dtype=object)
    texts[:] = source_text
    del source_text
    to_doc = np.full(q_raw.size, -1, dtype=np.int64)
    to_doc[rq_map[kept]] = np.arange(kept.size)
    return _Ids(query_ids, texts, to_doc, rq_map, qq_map, rs_map, qs_map)


def _pairs(rt: Table, qt: Table, ids: _Ids, *, release: bool) -> _Pairs:
    """The rows of kept queries in document codes; the qrels' table (and the
    run's with ``release``) is emptied."""
    run_q, run_s = rt.columns
    qrels_q, qrels_s = qt.columns
    run_query = ids.to_doc[ids.rq_map][run_q.code]
    rows: IntArray | None = None
    if len(ids.query_ids) < run_q.key.size:
        rows = np.flatnonzero(run_query >= 0)
        run_query = run_query[rows]
    run_source = ids.rs_map[run_s.code if rows is None else run_s.code[rows]]
    qrels_query = ids.to_doc[ids.qq_map][qrels_q.code]
    judged_rows = np.flatnonzero(qrels_query >= 0)
    qrels_query = qrels_query[judged_rows]
    qrels_source = ids.qs_map[qrels_s.code[judged_rows]]
    grades = qt.number[judged_rows]
    del judged_rows, run_q, run_s, qrels_q, qrels_s
    qt.columns.clear()
    if release:
        rt.columns.clear()
    return _Pairs(run_query, run_source, rows, qrels_query, qrels_source, grades)


def _match(run: Run, pairs: _Pairs, query_ids: list[str],
           texts: ObjectArray) -> tuple[npt.NDArray[np.int32 | np.int64], BoolArray]:
    """Each retrieved row's judgment: the qrels rows (``matched``) of the
    run rows where ``hit``. A run that retrieves a pair twice raises."""
    run_query, run_source = pairs.run_query, pairs.run_source
    n_run, n_qrels = run_query.size, pairs.qrels_query.size
    n_s = np.int64(max(texts.size, 1))
    run_key = run_query * n_s
    run_key += run_source
    qrels_key = pairs.qrels_query * n_s + pairs.qrels_source
    # Pairs as cells of a (query x source) table when that table is small;
    # otherwise sorted keys.
    cells = int(max(len(query_ids), 1) * n_s)
    table = _cells(cells, n_run + n_qrels)
    if _has_repeat(run_key, table):
        first, second = _first_repeat(run_key)
        line_rows = np.arange(len(run.line)) if pairs.rows is None else pairs.rows
        raise _duplicate_error(
            run, query_ids[int(run_query[second])], texts[run_source[second]],
            int(line_rows[first]), int(line_rows[second]),
        )
    del run_query, run_source
    match: npt.NDArray[np.int32 | np.int64]
    if not n_qrels:
        match = np.zeros(n_run, dtype=np.int64)
        hit = np.zeros(n_run, dtype=bool)
    elif table is not None:
        # The table is not cleared: a cell no qrels row wrote holds anything,
        # so every match is checked against the qrels' own key.
        table[qrels_key] = np.arange(n_qrels, dtype=np.int32)
        match = table[run_key]
        del table
        np.clip(match, 0, n_qrels - 1, out=match)
        hit = qrels_key[match] == run_key
    else:
        order = np.argsort(qrels_key)
        sorted_key = qrels_key[order]
        at = np.searchsorted(sorted_key, run_key)
        np.minimum(at, n_qrels - 1, out=at)
        match = order[at]
        hit = sorted_key[at] == run_key
        del order, sorted_key, at
    del run_key, qrels_key
    return match[hit], hit


def _assemble(
    run: Run, rt: Table, pairs: _Pairs, matched: npt.NDArray[np.int32 | np.int64],
    hit: BoolArray, *, release: bool,
) -> tuple[IntArray, IntArray, npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """The document's query and source codes, scores and grades: the run's
    rows, then the judged rows it did not retrieve, query by query in the
    qrels' order."""
    n_run, n_qrels = pairs.run_query.size, pairs.qrels_query.size
    extra = np.ones(n_qrels, dtype=bool)
    extra[matched] = False
    extra_rows = np.flatnonzero(extra)
    extra_rows = extra_rows[np.argsort(pairs.qrels_query[extra_rows], kind="stable")]
    total = n_run + extra_rows.size
    query = np.empty(total, dtype=np.int64)
    query[:n_run] = pairs.run_query
    query[n_run:] = pairs.qrels_query[extra_rows]
    pairs.run_query = _NO_ROWS
    source_code = np.empty(total, dtype=np.int64)
    source_code[:n_run] = pairs.run_source
    source_code[n_run:] = pairs.qrels_source[extra_rows]
    pairs.run_source = _NO_ROWS
    score = np.empty(total, dtype=np.float64)
    score[:n_run] = run.score if pairs.rows is None else run.score[pairs.rows]
    score[n_run:] = np.nan
    if release:
        run.score = rt.number = np.empty(0)
    grade = np.full(total, np.nan)
    grade[np.flatnonzero(hit)] = pairs.grades[matched]
    grade[n_run:] = pairs.grades[extra_rows]
    return query, source_code, score, grade


# -- the join on the text of every id ----------------------------------------------------
def _join_lines(run: Run, qrels_path: Path, conventions: Conventions | None,
                name: str) -> Document:
    """The join on Python dicts (the text of every id)."""
    qrels, _ = read_qrels(qrels_path)
    run_query = run.query
    keep_q = set(run_query) & set(qrels)
    n_run = len(run_query)
    if len(keep_q) == len(set(run_query)):
        rows = np.arange(n_run)
    else:
        rows = np.fromiter((i for i, q in enumerate(run_query) if q in keep_q), np.int64)
    query = [run_query[i] for i in rows]
    run_source = run.source
    source = np.empty(len(rows), dtype=object)
    source[:] = [run_source[i] for i in rows]
    score = run.score[rows]
    grade = np.full(len(rows), np.nan)
    retrieved: dict[str, set[str]] = {q: set() for q in keep_q}
    for j in range(len(rows)):
        q = query[j]
        s = source[j]
        g = qrels[q].get(s)
        if g is not None:
            grade[j] = g
            retrieved[q].add(s)
    extra_q: list[str] = []
    extra_s: list[str] = []
    extra_g: list[float] = []
    order = [q for q in dict.fromkeys(run_query) if q in keep_q]
    for q in order:
        seen = retrieved[q]
        for s, g in qrels[q].items():
            if s not in seen:
                extra_q.append(q)
                extra_s.append(s)
                extra_g.append(g)
    all_source = np.empty(len(rows) + len(extra_s), dtype=object)
    all_source[: len(rows)] = source
    all_source[len(rows):] = extra_s
    doc = Document.from_columns(
        query=query + extra_q,
        source_id=all_source,
        score=np.concatenate([score, np.full(len(extra_s), np.nan)]),
        grade=np.concatenate([grade, np.array(extra_g, dtype=np.float64)]),
        query_order=order,
        conventions=conventions,
        name=name,
        source=None,
        check=False,
    )
    dup = doc.find_duplicate()
    if dup is not None:
        first, second = dup
        raise _duplicate_error(
            run, doc.query_ids[int(doc.query[second])], doc.source_id[second],
            int(rows[first]), int(rows[second]),
        )
    return doc
