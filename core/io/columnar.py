"""Columnar inputs: Parquet files and Arrow tables of runs, qrels and worksheets.

The schema (``docs/scale.md``, *Parquet inputs*), declared here once:

* a **run**: ``query``, ``source_id``, ``score``, or ir_datasets'
  ``query_id``, ``doc_id``, ``score`` (its ``ScoredDoc``);
* **qrels**: ``query``, ``source_id``, ``grade``, or BEIR's ``query-id``,
  ``corpus-id``, ``score`` (there the score is the grade), or ir_datasets'
  ``query_id``, ``doc_id``, ``relevance`` (its ``TrecQrel``);
* a **worksheet**: ``query``, ``source_id``, ``score`` (null: judged, not
  retrieved), ``grade`` (null: unknown) and, optionally, ``version``.

Ids are text or whole numbers (written as decimal text); scores and grades
are numbers. The checks are the TREC reader's: no missing id, finite numbers,
one judgment per (query, source) pair and one run row per pair; a bad table
gets one line naming the file and the column. The join of a run and its
qrels (:func:`join_tables`) follows :func:`core.io.trec.document_from_trec`:
queries in both are kept, rows keep the run's order and the judged sources
the run did not retrieve follow, query by query, in the qrels' order.

pyarrow is imported when first needed (the ``[parquet]`` extra); without it
reading a Parquet file is a clear error naming the extra.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from core.engine.order import Ahead, give_order, order_ahead, ties_follow_gains
from core.errors import InputError
from core.io import arrow_ids
from core.io.files import Head, check_input, open_input, stem
from core.io.keytable import KeyTable
from core.model.conventions import Conventions, TieRule
from core.model.document import Document, GradeState
from core.model.extras import install_line
from core.model.grades import NotAGrade, PastedGrade, grade_hint, read_grade
from core.model.ids import IdBytes
from core.model.rubric import Rubric

if TYPE_CHECKING:
    import pyarrow as pa

    from core.io.trec import Run

__all__ = [
    "ROLES",
    "Side",
    "document_from_tables",
    "documents_from_tables",
    "is_parquet",
    "join_tables",
    "pyarrow_module",
    "read_parquet",
    "read_parquet_document",
    "release_arrow_memory",
    "resolve_columns",
    "row_holding",
    "side_from_file",
    "side_from_rows",
    "side_from_table",
    "worksheet_from_table",
]

#: A Parquet file's first bytes.
_MAGIC = b"PAR1"

#: Each role's columns: (what the column holds, the names it may have), in
#: the order :func:`resolve_columns` gives them. The first name is ours;
#: then BEIR's and ir_datasets' (a DataFrame of its ``qrels_iter()`` or
#: ``scoreddocs_iter()``). A run's score is only ever a column named so.
ROLES: dict[str, tuple[tuple[str, tuple[str, ...]], ...]] = {
    "run": (("query", ("query", "query_id")), ("source_id", ("source_id", "doc_id")),
            ("score", ("score",))),
    "qrels": (("query", ("query", "query-id", "query_id")),
              ("source_id", ("source_id", "corpus-id", "doc_id")),
              ("grade", ("grade", "score", "relevance"))),
    "worksheet": (("query", ("query",)), ("source_id", ("source_id",)), ("score", ("score",)),
                  ("grade", ("grade",))),
}
FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


def pyarrow_module() -> Any:
    """pyarrow, or a clear error naming the extra to install."""
    try:
        import pyarrow
    except ImportError:
        raise InputError("reading Parquet files and Arrow tables needs pyarrow",
                         hint=f"install it: {install_line('parquet')}") from None
    return pyarrow


def is_parquet(path: str | Path | Head) -> bool:
    """Whether ``path`` is a Parquet file (from its first bytes, not its
    name; read already when a :class:`~core.io.files.Head` is given)."""
    if isinstance(path, Head):
        return path.data[:4] == _MAGIC
    try:
        with open_input(path) as fh:
            return fh.read(4) == _MAGIC
    except (OSError, InputError):
        return False


def read_parquet(path: str | Path, dictionary: tuple[str, ...] = ()) -> pa.Table:
    """A Parquet file as an Arrow table, or an error naming the file; its
    text columns named in ``dictionary`` read as dictionary arrays."""
    check_input(path)
    pyarrow_module()
    import pyarrow.parquet as pq

    try:
        table: pa.Table = pq.read_table(str(path), read_dictionary=list(dictionary) or None)
    except (OSError, ValueError) as exc:  # ArrowInvalid is a ValueError
        raise InputError(f"not a readable Parquet file ({exc})", file=str(path)) from None
    return table


def resolve_columns(names: list[str], role: str, file: str) -> list[str]:
    """The columns of ``names`` that hold each of ``role``'s fields, in
    :data:`ROLES` order, or an error naming the file and the missing one."""
    found = []
    for what, options in ROLES[role]:
        hit = next((n for n in options if n in names), None)
        if hit is None:
            wanted = " or ".join(repr(n) for n in options)
            raise InputError(
                f"no column {wanted} (the {what} of a {role}); the table has "
                f"{', '.join(repr(n) for n in names) or 'no columns'}",
                file=file, column=options[0],
                hint="docs/scale.md lists the columns of runs, qrels and worksheets",
            )
        found.append(hit)
    return found


@dataclass
class Side:
    """One table's columns after the checks: the queries as an Arrow
    dictionary array (:func:`core.io.arrow_ids.query_ids`), the source ids as
    :class:`~core.model.ids.IdBytes`, numbers as float64, and each row's
    number (1-based) for messages."""

    query: Any
    source: Any
    value: FloatArray
    file: str
    rows: IntArray | None = None  # file rows when they are not 1..n
    unit: str = "row"  # what a message calls them: a text file's are lines

    def row(self, i: int) -> int:
        return int(self.rows[i]) if self.rows is not None else i + 1


def _numbers(table: pa.Table, name: str, file: str, *, nulls: bool = False) -> FloatArray:
    """A numeric column as float64: NaN where null when ``nulls`` allows it;
    any other missing or infinite value is an error naming its row."""
    pa = pyarrow_module()
    import pyarrow.compute as pc

    col = table.column(name).combine_chunks()
    if not (pa.types.is_integer(col.type) or pa.types.is_floating(col.type)
            or pa.types.is_decimal(col.type) or pa.types.is_null(col.type)):
        raise InputError(f"must hold numbers, not {col.type}", file=file, column=name)
    values: FloatArray = np.ascontiguousarray(
        pc.cast(col, pa.float64()).to_numpy(zero_copy_only=False), dtype=np.float64)
    null = pc.is_null(col).to_numpy(zero_copy_only=False) if col.null_count else None
    bad = ~np.isfinite(values)
    if null is not None:
        bad &= ~null
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        raise InputError(f"row {row + 1} holds {float(values[row])!r}, not a finite number",
                         file=file, column=name)
    if null is not None and not nulls:
        row = int(np.flatnonzero(null)[0])
        raise InputError(f"row {row + 1} has no value", file=file, column=name)
    return values


def side_from_table(table: pa.Table, role: str, file: str) -> Side:
    """A run's or qrels' columns, checked (``role`` is ``run`` or ``qrels``)."""
    q, s, v = resolve_columns(table.column_names, role, file)
    return Side(arrow_ids.query_ids(table, q, file),
                arrow_ids.id_bytes(table.column(s), s, file),
                _numbers(table, v, file), file)


def _encode(a: Any, b: Any) -> tuple[IntArray, IntArray, Any]:
    """Codes of both text arrays in one dictionary (first appearance, ``a``
    first), and the dictionary. Either may be a dictionary array whose
    dictionary lists each value once in the order of first appearance
    (:func:`core.io.arrow_ids.query_ids`): its codes are then read off the dictionaries."""
    pa = pyarrow_module()
    a, b = (x if pa.types.is_dictionary(x.type) else x.dictionary_encode() for x in (a, b))
    text = pa.large_string()
    enc = pa.concat_arrays([a.dictionary.cast(text), b.dictionary.cast(text)]).dictionary_encode()
    codes = enc.indices.to_numpy(zero_copy_only=False).astype(np.int64)
    n = len(a.dictionary)
    of_a = codes[:n][a.indices.to_numpy(zero_copy_only=False)]
    return of_a, codes[n:][b.indices.to_numpy(zero_copy_only=False)], enc.dictionary


class _Pairs:
    """Each row's (query, source) pair of a run and its qrels as one integer:
    exact codes (:meth:`exact`), or 64-bit keys of the query's code and the
    source id's bytes (:meth:`keyed`), which need no dictionary of every
    source id (at 10M rows it held twice the ids and a hash table) but may,
    rarely, give two pairs one key: :meth:`real` tells."""

    def __init__(self, run: npt.NDArray[np.int64 | np.uint64],
                 qrels: npt.NDArray[np.int64 | np.uint64], query: tuple[IntArray, IntArray],
                 ids: tuple[IdBytes, IdBytes] | None = None) -> None:
        self.run, self.qrels = run, qrels
        self.query, self._ids = query, ids

    @classmethod
    def keyed(cls, rq: IntArray, jq: IntArray, run_ids: IdBytes, qrels_ids: IdBytes) -> _Pairs:
        from core.io.trec.join import pair_keys

        return cls(pair_keys(rq, run_ids.keys()), pair_keys(jq, qrels_ids.keys()), (rq, jq),
                   (run_ids, qrels_ids))

    @classmethod
    def exact(cls, rq: IntArray, jq: IntArray, run_ids: IdBytes, qrels_ids: IdBytes) -> _Pairs:
        rs, js, _ = _encode(_lines(run_ids), _lines(qrels_ids))
        n_source = int(max(rs.max(initial=-1), js.max(initial=-1))) + 1
        return cls(rq * n_source + rs, jq * n_source + js, (rq, jq))

    def real(self, a_side: int, a: IntArray, b_side: int, b: IntArray) -> bool:
        """Whether rows ``a`` (of the run: side 0; the qrels: 1) hold the very
        pairs of rows ``b`` whose keys they share (always, for exact codes)."""
        if self._ids is None:
            return True
        q, ids = self.query, self._ids
        same = (q[a_side][a] == q[b_side][b]) & ids[a_side].same(a, ids[b_side], b)
        return bool(same.all())


class _Clash(Exception):
    """Two different pairs share a key: the join is done again on exact codes."""


def _refuse_repeat(side: Side, pairs: _Pairs, which: int,
                   rows: IntArray | None = None) -> None:
    """An error naming the first pair ``side`` (the run: ``which`` 0; the
    qrels: 1) holds twice (among its rows ``rows``, all when None). Checked
    as the TREC join checks (:func:`core.io.trec.join.first_repeat`: each
    query's block sorted apart when the blocks are of one size, else one
    sort, and a stable argsort only when a key repeats): 2M run rows 213 ->
    31 ms of CPU against one stable argsort of every key."""
    from core.io.trec.join import first_repeat

    pair = pairs.run if which == 0 else pairs.qrels
    query = pairs.query[which]
    if rows is not None:
        pair, query = pair[rows], query[rows]
    found = first_repeat(pair.view(np.uint64), query, side.source, rows)
    if found is None:
        return
    if found[0] < 0:  # two different pairs share a key
        raise _Clash
    first, second = found if rows is None else (int(rows[found[0]]), int(rows[found[1]]))
    query_id, source = side.query[second].as_py(), _text(side.source, second)
    what = "retrieves" if which == 0 else "judges"
    raise InputError(
        f"query {query_id!r} {what} source {source!r} twice ({side.unit}s {side.row(first)} and "
        f"{side.row(second)})", file=side.file, column="source_id",
        hint="keep one row per query and source",
    )


def _matches(run: Side, qrels: Side, pairs: _Pairs, keep: npt.NDArray[np.bool_]
             ) -> tuple[IntArray, IntArray, IntArray, IntArray]:
    """The run rows kept (``keep``: the queries kept), which of them a
    qrels row judges and that row, and the judged rows of kept queries."""
    rq, jq = pairs.query
    _refuse_repeat(qrels, pairs, 1)
    rows = np.flatnonzero(keep[rq])
    _refuse_repeat(run, pairs, 0, rows if rows.size < rq.size else None)
    judged = np.flatnonzero(keep[jq])
    # A hash table of the judged pairs (distinct: checked above), probed by
    # the run's: no sort, and keys in no order cost no cache misses of a
    # binary search (1.5 s at 2M rows).
    found = KeyTable(pairs.qrels[judged].view(np.uint64)).find(pairs.run[rows].view(np.uint64))
    hit = np.flatnonzero(found >= 0)
    match = judged[found[hit]]
    del found
    if not pairs.real(0, rows[hit], 1, match):
        raise _Clash
    return rows, hit, match, judged


def join_tables(run: Side, qrels: Side, conventions: Conventions | None = None,
                name: str = "", *, unshared: bool = False,
                ties: TieRule | None = None) -> tuple[Document, IntArray]:
    """The document of a run joined with its qrels, and the run rows it kept
    (positions in ``run``), as :func:`core.io.trec.document_from_trec` joins,
    ``unshared`` included: the queries the qrels judge and the run never
    ranks are kept after the run's (in the qrels' order) with no ranking, and
    the run's queries the qrels never judge are named in
    :attr:`Document.unjudged_queries`. The sides' source ids are turned
    into :class:`~core.model.ids.IdBytes` in place; a side whose ids are
    bytes already serves any number of joins (:func:`documents_from_tables`).
    ``ties``: the tie rule the document will be evaluated under, when known
    (the run's order under it worked out beside the join, as the TREC join
    does: :func:`_order_ahead`)."""
    rq, jq, queries = _encode(run.query, qrels.query)
    n_query = len(queries)
    ranked = np.bincount(rq, minlength=n_query) > 0
    judged_query = np.bincount(jq, minlength=n_query) > 0
    # The dictionary lists the run's queries first: the judged-only ones follow them.
    keep = judged_query if unshared else ranked & judged_query
    to_doc = np.cumsum(keep) - 1
    run_ids, qrels_ids = run.source, qrels.source
    with _order_ahead(ties if bool(keep[ranked].all()) else None, to_doc, rq, run) as ahead:
        try:
            rows, hit, match, judged = _matches(
                run, qrels, _Pairs.keyed(rq, jq, run_ids, qrels_ids), keep)
        except _Clash:
            rows, hit, match, judged = _matches(
                run, qrels, _Pairs.exact(rq, jq, run_ids, qrels_ids), keep)
        ordered = None if ahead is None else ahead.result()  # before the ids are extended
    matched = np.zeros(jq.size, dtype=bool)
    matched[match] = True
    extra = judged[~matched[judged]]
    extra = extra[np.argsort(to_doc[jq[extra]], kind="stable")]
    # Each column made once at its full length, the run's rows copied in
    # (no run-long temporary when every run row is kept).
    n_run, every = rows.size, rows.size == rq.size
    n = n_run + extra.size
    query_codes = np.empty(n, dtype=np.int64)
    np.take(to_doc, rq if every else rq[rows], out=query_codes[:n_run], mode="clip")
    query_codes[n_run:] = to_doc[jq[extra]]
    del rq
    score = np.empty(n)
    score[:n_run] = run.value if every else run.value[rows]
    score[n_run:] = np.nan
    grade = np.full(n, np.nan)
    grade[hit] = qrels.value[match]
    grade[n_run:] = qrels.value[extra]
    del hit, match, matched
    ids = run_ids if every else run_ids.take(rows)
    del run_ids
    pa = pyarrow_module()
    doc = Document.from_columns(
        query=queries.filter(pa.array(keep)).to_pylist(), query_codes=query_codes,
        source_id=ids.extend(qrels_ids.take(extra)),
        score=score, grade=grade, conventions=conventions, name=name, source=None,
        check=False, copy=False,
    )
    if ordered is not None:
        give_order(doc, ordered)
    unjudged = tuple(queries.filter(pa.array(ranked & ~judged_query)).to_pylist())
    unranked = () if unshared else queries.filter(pa.array(judged_query & ~ranked)).to_pylist()
    doc.queries_left_out, doc.unshared = (unjudged, tuple(unranked)), unshared
    return doc, rows


@contextmanager
def _order_ahead(ties: TieRule | None, to_doc: IntArray, rq: IntArray,
                 run: Side) -> Iterator[Future[Ahead] | None]:
    """The run's ranked order under ``ties`` (every run row kept: its query
    codes ``rq``, their document codes ``to_doc``) and, ties averaged, its
    tie groups, worked out on another thread while the pairs are matched
    (:func:`core.engine.order.order_ahead`, as the TREC join's
    :func:`core.io.trec.join.document_from_trec` does); None when ties
    follow gains (the grades are not joined yet) or the run is small."""
    if ties is None or ties_follow_gains(ties) or rq.size < _AHEAD_FROM:
        yield None
        return
    with ThreadPoolExecutor(max_workers=1) as pool:
        yield pool.submit(lambda: order_ahead(to_doc[rq], run.value, run.source, ties))


#: A run of fewer rows is ordered by the engine (a thread costs more than it saves).
_AHEAD_FROM = 1 << 16


def _text(ids: Any, i: int) -> str:
    """Id ``i`` of an Arrow text array or of :class:`~core.model.ids.IdBytes`."""
    text: str = ids.text(i) if isinstance(ids, IdBytes) else ids[i].as_py()
    return text


def _lines(ids: IdBytes) -> Any:
    """The ids as an Arrow text array of ``id\\n`` lines (the arena itself,
    not copied): equal lines, equal ids."""
    pa = pyarrow_module()
    return pa.LargeStringArray.from_buffers(
        len(ids), pa.py_buffer(ids.offset.astype(np.int64, copy=False)), pa.py_buffer(ids.arena))


def side_from_rows(rows: list[tuple[str, str, float]], file: str) -> Side:
    """A run's or qrels' (query, source, number) rows, checked already
    (ranx's JSON: :mod:`core.io.score_dict`), as columns; ids as they are,
    white space too."""
    pa = pyarrow_module()
    return Side(pa.array([r[0] for r in rows], pa.large_string()).dictionary_encode(),
                IdBytes.from_texts([r[1] for r in rows]),
                np.array([r[2] for r in rows], dtype=np.float64), file)


def side_from_file(path: Path, role: str) -> Side:
    """A run or qrels file, Parquet or TREC text, as checked columns."""
    if is_parquet(path):
        # Queries read as Parquet keeps them (a dictionary: no text per row).
        side = side_from_table(read_parquet(path, ROLES[role][0][1]), role, str(path))
        release_arrow_memory()  # the table and the checks' copies
        return side
    pa = pyarrow_module()
    if role == "run":
        from core.io.trec import Run

        run = Run(path)
        return Side(pa.array(run.query, pa.large_string()), IdBytes.from_texts(list(run.source)),
                    np.asarray(run.score, dtype=np.float64), str(path),
                    np.asarray(run.line, dtype=np.int64), "line")
    from core.io.trec import read_qrels

    judged, where = read_qrels(path)
    pairs = [(q, s, g) for q, sources in judged.items() for s, g in sources.items()]
    lines = np.array([where[(q, s)] for q, s, _ in pairs], dtype=np.int64)
    order = np.argsort(lines, kind="stable")  # the file's order
    pairs = [pairs[i] for i in order]
    return Side(pa.array([p[0] for p in pairs], pa.large_string()),
                IdBytes.from_texts([p[1] for p in pairs]),
                np.array([p[2] for p in pairs], dtype=np.float64), str(path), lines[order], "line")


def document_from_tables(run: str | Path, qrels: str | Path,
                         conventions: Conventions | None = None, *,
                         unshared: bool = False, ties: TieRule | None = None) -> Document:
    """A run and its qrels, either or both Parquet (the other TREC text),
    joined as :func:`core.io.trec.document_from_trec` joins (``unshared``
    and ``ties`` as there)."""
    run, qrels = Path(run), Path(qrels)
    doc, _ = join_tables(side_from_file(run, "run"), side_from_file(qrels, "qrels"),
                         conventions, stem(run), unshared=unshared, ties=ties)
    release_arrow_memory()
    return doc


def documents_from_tables(runs: Iterable[str | Path], qrels: str | Path,
                          conventions: Conventions | None = None, *,
                          unshared: bool = False) -> Iterator[Document]:
    """Each run joined with ``qrels`` as :func:`document_from_tables` joins,
    in turn, the qrels read, checked and their ids made bytes once, after
    the first run is read (a bad run is named before bad qrels, as when each
    join read them): a join leaves them as they were, so every run's shares
    them (compare's two runs or many: the qrels' read and decode once)."""
    judged: Side | None = None
    for run in runs:
        # The run's columns held by the join alone: they go back at its end.
        ranked = [side_from_file(Path(run), "run")]
        if judged is None:
            judged = side_from_file(Path(qrels), "qrels")
        doc, _ = join_tables(ranked.pop(), judged, conventions, stem(run), unshared=unshared)
        release_arrow_memory()
        yield doc
        del doc  # not held while the next run is read (many runs: one at a time)
    del judged
    release_arrow_memory()  # the qrels' text columns, once the last run is joined


def release_arrow_memory() -> None:
    """Hand the memory Arrow's pool freed back to the system. Its allocator
    (mimalloc or jemalloc) keeps what the tables and their temporaries held
    for a while (how long depends on the machine's pace): 2 GB of a 10M-row
    join, which numpy cannot reuse (measured: 3,096 -> 1,020 MiB resident
    once the document is made). Called after each step that drops Arrow
    arrays: a table read and checked, the source ids made bytes, the join."""
    pyarrow_module().default_memory_pool().release_unused()


def _grades(table: pa.Table, name: str, file: str, rubric: Rubric | None
            ) -> tuple[FloatArray, npt.NDArray[np.int8] | None, list[str] | None]:
    """A worksheet's grade column: numbers (null: unknown), or text read by
    the one grade grammar (:func:`core.model.grades.read_grade`: numbers,
    the rubric's labels, ``unknown``, ``unrateable: reason`` ...; null:
    unknown), each distinct text once. Returns the grades, their states and
    the unrateable reasons (None for a column of numbers)."""
    pa = pyarrow_module()
    col = table.column(name).combine_chunks()
    if pa.types.is_dictionary(col.type):
        col = col.dictionary_decode()
    if not (pa.types.is_string(col.type) or pa.types.is_large_string(col.type)
            or getattr(pa.types, "is_string_view", bool)(col.type)):
        return _numbers(table, name, file, nulls=True), None, None
    coded = col.cast(pa.large_string()).dictionary_encode()
    read = []
    for text in coded.dictionary.to_pylist():
        try:
            read.append(read_grade(text, rubric, outside_rubric=True))
        except ValueError as exc:  # (the hint is the grammar's own, said once)
            row = int(np.flatnonzero(_rows_holding(col, text))[0])
            why = exc.detail if isinstance(exc, NotAGrade) else str(exc)
            labels = ", or declare the labels with --rubric G=LABEL,..." if rubric is None else ""
            raise InputError(
                f"row {row + 1} holds {text!r}, not a grade" + (f": {why}" if why else ""),
                file=file, column=name, hint=grade_hint(rubric) + labels) from None
    read.append(PastedGrade(None, GradeState.UNKNOWN))  # null
    codes = coded.indices.fill_null(len(read) - 1).to_numpy(zero_copy_only=False)
    grade = np.array([np.nan if r.grade is None else r.grade for r in read])[codes]
    state = np.array([int(r.state) for r in read], dtype=np.int8)[codes]
    reasons = np.array([r.reason for r in read], dtype=object)[codes]
    return grade, state, reasons.tolist() if any(r.reason for r in read) else None


def _rows_holding(col: Any, text: str) -> npt.NDArray[np.bool_]:
    """Which rows of a text column hold ``text``."""
    import pyarrow.compute as pc

    return np.asarray(pc.fill_null(pc.equal(col, text), False).to_numpy(zero_copy_only=False))


def row_holding(path: str | Path, query: str, source: str) -> tuple[int, str] | None:
    """The row (1-based) of a Parquet worksheet or qrels table holding
    ``source`` of ``query`` (the first), and the name of its grade column,
    for a refusal found after reading (:mod:`core.io.locate`); None when no
    row does or the table cannot be read."""
    import pyarrow.compute as pc

    file = str(path)
    try:
        table = read_parquet(path)
        names = table.column_names
        role = "worksheet" if "grade" in names and "score" in names else "qrels"
        q, s, *_, grade = resolve_columns(names, role, file)
        hit = pc.and_(pc.equal(arrow_ids.text_ids(table, q, file), query),
                      pc.equal(arrow_ids.text_ids(table, s, file), source))
    except InputError:
        return None
    rows = np.flatnonzero(pc.fill_null(hit, False).to_numpy(zero_copy_only=False))
    return (int(rows[0]) + 1, grade) if rows.size else None


def worksheet_from_table(table: pa.Table, file: str, conventions: Conventions | None = None,
                         name: str = "", *, rubric: Rubric | None = None) -> Document:
    """A worksheet table: query, source_id, score, grade (numbers, or text
    read as grades: the labels of the conventions' rubric, else of ``rubric``,
    are its numbers) and optional version."""
    q, s, sc, g = resolve_columns(table.column_names, "worksheet", file)
    version = None
    if "version" in table.column_names:
        col = table.column("version")
        version = ["" if v is None else str(v) for v in col.to_pylist()]
    declared = conventions.rubric if conventions is not None else None
    grade, state, reason = _grades(table, g, file, declared or rubric)
    return Document.from_columns(
        query=arrow_ids.text_ids(table, q, file).to_pylist(),
        source_id=arrow_ids.text_ids(table, s, file).to_numpy(zero_copy_only=False),
        score=_numbers(table, sc, file, nulls=True),
        grade=grade, state=state, reason=reason,
        version=version, conventions=conventions, name=name, source=file,
    )


def _a_run(names: list[str]) -> bool:
    """Whether a table of the columns ``names`` is a run: each of a run's
    columns by one of its names (:data:`ROLES`), no grade. BEIR's and
    MTEB's qrels (``query-id``, ``corpus-id``, ``score``: the score their
    grade) are none."""
    return "grade" not in names and all(any(n in names for n in named)
                                        for _, named in ROLES["run"])


def _qrels(names: list[str]) -> bool:
    """Whether a table of the columns ``names`` is qrels: each of their
    columns by one of its names (:data:`ROLES`: BEIR's ``query-id``,
    ``corpus-id``, ``score``; ir_datasets' ``relevance``), not both a
    worksheet's score and grade."""
    return not {"score", "grade"} <= set(names) and all(
        any(n in names for n in named) for _, named in ROLES["qrels"])


def is_parquet_run(path: str | Path) -> bool:
    """Whether the Parquet file ``path`` is a run, read with its qrels (its
    schema alone read; False where it cannot be: its reader says why).

    The editor asks for the qrels of such a file opened, dropped or given
    at launch, as of a TREC run (it was refused naming ``--qrels``)."""
    try:
        pyarrow_module()
        import pyarrow.parquet as pq

        names = list(pq.read_schema(str(path)).names)
    except (InputError, OSError, ValueError):  # ArrowInvalid is a ValueError
        return False
    return _a_run(names)


def parquet_run(path: str | Path) -> Run:
    """The Parquet run ``path`` as the rows of a run (checked as a run
    joined to qrels is), to be graded with a document's grades: the
    editor's comparison of the open document with it."""
    from core.io.trec import Run

    side = side_from_file(Path(path), "run")
    return Run.from_rows(path, [str(q) for q in side.query.to_pylist()], side.source.texts(),
                         side.value.tolist())


def read_parquet_document(path: str | Path, conventions: Conventions | None = None, *,
                          rubric: Rubric | None = None) -> Document:
    """A Parquet worksheet; a Parquet run (no grade column) asks for its qrels."""
    path = Path(path)
    table = read_parquet(path)
    if _a_run(table.column_names):
        raise InputError("this Parquet table has no grade column: it looks like a run",
                         file=str(path), column="grade",
                         hint="name its judgments with --qrels QRELS")
    if _qrels(table.column_names):  # (read as a worksheet: "no column 'query'")
        raise InputError(f"this Parquet table looks like qrels (judgments without a run), not a "
                         f"run or a worksheet: {', '.join(table.column_names)}", file=str(path),
                         hint="give it as a run's judgments: evaluate RUN --qrels QRELS")
    return worksheet_from_table(table, str(path), conventions, path.stem, rubric=rubric)
