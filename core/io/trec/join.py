"""Joining a run and its qrels into a document.

As trec_eval does, the run's rank column is ignored (the engine orders by
score under the declared tie rule) and only queries present in both files
are evaluated. Two joins give the very same document: one on the fast
reader's integer codes (:func:`_join_columns`), one on Python dicts of the
ids' text (:func:`_join_lines`) for any file the fast reader leaves.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future, ThreadPoolExecutor, wait
from contextlib import contextmanager
from contextvars import copy_context
from functools import partial
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from core.engine.order import Ahead, give_order, order_ahead, ties_follow_gains, uniform_blocks
from core.errors import InputError
from core.io.files import stem
from core.io.stop import LINES
from core.io.stop import check as check_stopped
from core.io.trec import scan
from core.io.trec.both import read_both
from core.io.trec.columns import Column, IntArray, Table, U64Array
from core.io.trec.read import QRELS_FIELDS, Qrels, QrelsColumns, Run, read_qrels
from core.io.trec.scan import decode_all
from core.model.conventions import Conventions, TieRule
from core.model.document import Document
from core.model.ids import IdBytes

__all__ = ["document_from_judged", "document_from_trec", "first_repeat", "pair_keys"]



def document_from_trec(
    run: str | Path | Run,
    qrels: str | Path | QrelsColumns,
    conventions: Conventions | None = None,
    *,
    threads: int = 2,
    unshared: bool = False,
    ties: TieRule | None = None,
    spent: bool = False,
) -> Document:
    """Join a run and qrels into a document.

    Queries in both files are kept. With ``unshared``, so are the queries the
    qrels judge and the run does not rank (after the run's, in the qrels'
    order: queries with no ranking, which ``--unranked`` decides, as trec_eval
    ``-c`` and ranx's ``make_comparable`` count them), and the queries the
    run ranks and the qrels never judge are named in
    :attr:`Document.unjudged_queries` (left out, as trec_eval and ranx leave
    them). Run rows without a judgment get an unknown
    grade; judged sources the run did not retrieve are added without a score.
    Rows keep the run's order; the judged-not-retrieved rows follow, query by
    query (in the run's order), each query's in the qrels' order.
    ``threads`` read a run given as a path (one when another file is read at
    the same time) and, two or more, share the join's independent halves
    (:func:`_beside`); qrels given as a path are scanned on one more thread
    while the run is read, or, for a large run, by a forked child that also
    reads the run's last part (:func:`core.io.trec.both.read_both`).
    ``ties``: the tie rule the document will be evaluated under, when known:
    trec_eval's (``id-desc``) is then worked out for the run's rows beside
    the join (:func:`_order_ahead`). ``spent``: the caller lets go of
    ``run`` (a :class:`Run`) once it is joined, so its columns become the
    document's as those of a run read here from a path do (no copy of its
    query codes, scores and ids beside them: ~50 MB at 2M rows).
    """
    own = spent or not isinstance(run, Run)
    table: Table | None = None
    if isinstance(qrels, QrelsColumns):
        qrels_path, table = qrels.path, qrels._table
        run = run if isinstance(run, Run) else Run(run, threads=threads)
    elif isinstance(run, Run):
        qrels_path = Path(qrels)
        if run._table is not None:
            table = scan.scan_file(qrels_path, *QRELS_FIELDS)
    else:
        qrels_path = Path(qrels)
        run, table = read_both(Path(run), qrels_path, threads)
    name = stem(run.path)
    if run._table is not None and table is not None:
        doc = _join_columns(run, run._table, table, qrels_path, conventions, name,
                            release=own, unshared=unshared, ties=ties, threads=threads)
        if doc is not None:
            doc.run_tag = run.tag
            return doc
    return _join_lines(run, qrels_path, conventions, name, unshared=unshared)


def _duplicate_error(run: Run, query: str, source: str, first: int, second: int) -> InputError:
    """A run that lists a pair twice: ``first`` and ``second`` are run rows."""
    return InputError(
        f"query {query!r} retrieves source {source!r} twice "
        f"(first on line {int(run.line[first])})",
        file=str(run.path), line=int(run.line[second]),
        hint="keep one line per query and source",
    )


# -- the join on integer codes and bytes ----------------------------------------------------
_MIX = np.uint64(0x9E3779B97F4A7C15)
#: What :func:`first_repeat` says of two different pairs sharing a key.
_CLASH = (-1, -1)


def pair_keys(query: npt.NDArray[np.int32 | np.int64], key: U64Array) -> U64Array:
    """A 64-bit key per (query code, source key) pair."""
    pair: U64Array = query.astype(np.uint64)
    pair *= _MIX
    pair ^= key
    return pair


def _repeats(pair: U64Array, query: npt.NDArray[np.int32 | np.int64]) -> bool:
    """Whether a key of ``pair`` repeats. Rows grouped by query in blocks of
    one size (the usual run) can repeat a pair only within a block, and the
    blocks sorted as the rows of a 2-D array are checked several times
    faster than one sort of every key (measured: 28 against 112 ms of CPU
    for 2,000 blocks of 1,000)."""
    blocks = uniform_blocks(query)
    if blocks:
        grid = np.sort(pair.reshape(blocks), axis=1)
        return bool(np.any(grid[:, 1:] == grid[:, :-1]))
    ordered = np.sort(pair)
    return bool(np.any(ordered[1:] == ordered[:-1]))


def first_repeat(pair: U64Array, query: npt.NDArray[np.int32 | np.int64], ids: IdBytes,
                 id_rows: IntArray | None = None) -> tuple[int, int] | None:
    """The earliest row whose (query, source) pair an earlier row holds, and
    the first row holding it (rows of ``pair``; ``id_rows`` takes them to
    ``ids``); None when no pair repeats; :data:`_CLASH` when two different
    pairs share a key (the bytes tell)."""
    if not _repeats(pair, query):
        return None
    order = np.argsort(pair, kind="stable")
    sorted_pair = pair[order]
    at = np.flatnonzero(sorted_pair[1:] == sorted_pair[:-1])
    a, b = order[at], order[at + 1]
    ia, ib = (a, b) if id_rows is None else (id_rows[a], id_rows[b])
    same = (query[a] == query[b]) & ids.same(ia, ids, ib)
    if not bool(same.all()):
        return _CLASH
    second = int(b.min())
    first = int(order[np.searchsorted(sorted_pair, pair[second])])
    return first, second


def _query_bits(n: int) -> int:
    """Bits that hold ``n`` query codes (0 .. n - 1)."""
    return max((n - 1).bit_length(), 1)


#: A grouped file's groups are sorted as the rows of a grid padded to the
#: largest group while the grid has at most this many cells a row of the file
#: (else one stable sort of every row).
_PADDING = 1.5


def _groups(query: IntArray) -> IntArray | None:
    """How many rows each query has, when each query's rows come together in
    ascending code order (a run, and qrels in the run's query order); None
    otherwise."""
    if query.size < 2 or bool(np.any(query[1:] < query[:-1])):
        return None
    sizes = np.bincount(query)
    found: IntArray = sizes[sizes > 0]
    return found


def _key_bits(n_queries: int, *groups: IntArray | None) -> int:
    """The low bits :func:`sort_keys` drops from the source keys: room for
    ``n_queries`` codes in the high bits, and for a place in each of the
    ``groups`` (:func:`_sorted_groups`) in the low ones."""
    return max([_query_bits(n_queries)] + [_query_bits(int(g.max())) for g in groups
                                            if g is not None])


def sort_keys(query: npt.NDArray[np.integer[Any]], key: U64Array, bits: int,
              out: U64Array | None = None) -> U64Array:
    """A (query code, source key) pair as one integer that sorts by query
    first: the code in the high ``bits`` (codes below ``2**bits``), the
    source key's high bits below it. Equal pairs get equal integers; two
    sources of one query may share one (rarely: compare the whole keys).
    ``query`` broadcasts against ``key`` (a code per row of a grid of keys);
    ``out`` may be ``key`` itself (worked out in place)."""
    high = query.astype(np.uint64)
    high <<= np.uint64(64 - bits)
    out = np.right_shift(key, np.uint64(bits), out=out)
    out |= high
    return out


class _Sorted(NamedTuple):
    """Rows in (query, source key) order, their :func:`sort_keys` (ascending)
    and whether two of them share one (a repeated pair may be among them)."""

    order: npt.NDArray[Any]  # int32 or int64 (kind)
    key: U64Array
    tied: bool


def _sorted_pairs(query: IntArray, key: U64Array, bits: int,
                  groups: IntArray | None = None) -> _Sorted:
    """The rows sorted by (query, source key). Rows grouped by query
    (``groups``: :func:`_groups`, each group's places below ``2**bits``) are
    sorted group by group (:func:`_sorted_groups`); other rows by one stable
    sort (78 ms for 2,000 groups of 1,000 when grouped, which the stable sort
    uses; 137 ms in any order)."""
    if groups is not None and groups.size * int(groups.max()) <= _PADDING * query.size:
        return _sorted_groups(query, key, bits, groups)
    sorted_key = sort_keys(query, key, bits)
    order = np.argsort(sorted_key, kind="stable")
    sorted_key = sorted_key[order]
    return _Sorted(order, sorted_key, bool(np.any(sorted_key[1:] == sorted_key[:-1])))


def _sorted_groups(query: IntArray, key: U64Array, bits: int, sizes: IntArray) -> _Sorted:
    """:func:`_sorted_pairs` of rows grouped by query, each group a row of a
    grid (:func:`_grid`) sorted as the rows of a 2-D array. Each key carries
    its row's place in the group in the low ``bits`` that :func:`sort_keys`
    drops, so the keys themselves are sorted (no argsort, no gather) and the
    sorted keys and rows are read off them. 2,000 groups of 1,000: 54 -> 37
    ms of CPU, and 24 instead of ~80 MB of full-length arrays at once (the
    join's peak then); the qrels' 2,000 groups of 1-394: 24 -> 14 ms."""
    g, m = sizes.size, int(sizes.max())
    low = np.uint64((1 << bits) - 1)
    starts = np.zeros(g, dtype=np.int64)
    np.cumsum(sizes[:-1], out=starts[1:])
    grid = _grid(key, low, sizes, starts)
    grid.sort(axis=1)
    # Row numbers fit int32 below 2**31 rows (half the memory).
    kind = np.int32 if key.size < 1 << 31 else np.int64
    high = query[starts, None]  # a group holds one query
    order: npt.NDArray[Any]  # int32 or int64 (kind)
    if g * m == key.size:  # one size: the grid is the rows, read in place
        places = np.empty((g, m), dtype=kind)
        np.bitwise_and(grid, low, out=places, casting="unsafe")
        places += starts.astype(kind)[:, None]
        sorted_key = sort_keys(high, grid, bits, out=grid).reshape(-1)
        order = places.reshape(-1)
    else:
        used = np.arange(m) < sizes[:, None]
        order = np.empty(key.size, dtype=kind)
        np.bitwise_and(grid[used], low, out=order, casting="unsafe")
        order += np.repeat(starts.astype(kind), sizes)
        sorted_key = sort_keys(high, grid, bits, out=grid)[used]
    return _Sorted(order, sorted_key, bool(np.any(sorted_key[1:] == sorted_key[:-1])))


def _grid(key: U64Array, low: np.uint64, sizes: IntArray, starts: IntArray) -> U64Array:
    """The keys of groups of rows (``sizes`` rows from ``starts``), a group a
    row, each with its place in the group in its ``low`` bits; rows shorter
    than the longest padded with all ones (sorted last)."""
    g, m = sizes.size, int(sizes.max())
    if g * m == key.size:
        grid = np.bitwise_and(key, ~low).reshape(g, m)
        grid |= np.arange(m, dtype=np.uint64)
        return grid
    place = np.arange(key.size, dtype=np.int64)
    place -= np.repeat(starts, sizes)
    packed = np.bitwise_and(key, ~low)
    packed |= place.view(np.uint64)
    place += np.repeat(np.arange(0, g * m, m, dtype=np.int64), sizes)  # its cell
    out = np.full(g * m, np.iinfo(np.uint64).max, dtype=np.uint64)
    out[place] = packed
    return out.reshape(g, m)


def _matches(run: _Sorted, run_key: U64Array, qrels: _Sorted, qrels_key: U64Array,
             judged: int) -> tuple[IntArray, IntArray]:
    """The run rows and the qrels rows (the first ``judged`` of ``qrels``'
    order) that may hold the same pair: the same (query, source key), or the
    same sort key when no two run rows share one (the caller compares the
    bytes); within a query neither file repeats a source key. Each qrels row
    is searched for among the run's sorted keys, in order (the search then
    stays near its last answer). On one thread: its halves on two as well
    as the ids' comparison's (:func:`_halves`) saved ~6 ms of the reading
    thread's CPU, and evaluate's peak (trec_eval preset, 2M rows) was then
    199-205 MB in 38 of 41 turns, 189 in 18 of 22 without (the heap's free
    space left in pieces; docs/benchmarks.md, hcmp3)."""
    needle = qrels.key[:judged]
    if not run.key.size or not judged:
        return np.empty(0, dtype=np.int64), np.empty(0, dtype=np.int64)
    at = np.searchsorted(run.key, needle)
    np.minimum(at, run.key.size - 1, out=at)
    found = np.flatnonzero(run.key[at] == needle)
    # int64 once: numpy would convert int32 rows at each use as an index.
    hit = run.order[at[found]].astype(np.int64)
    match = qrels.order[found].astype(np.int64, copy=False)
    if not run.tied:  # one run row per sort key: the bytes will tell
        return hit, match
    whole = run_key[hit] == qrels_key[match]
    hits, matches = [hit[whole]], [match[whole]]
    # Two sources of a query that share a sort key: look further along.
    pending = found[~whole]
    step = at[pending]
    while pending.size:
        step += 1
        go_on = step < run.key.size
        pending, step = pending[go_on], step[go_on]
        go_on = run.key[step] == needle[pending]
        pending, step = pending[go_on], step[go_on]
        hit = run.order[step].astype(np.int64)
        match = qrels.order[pending].astype(np.int64, copy=False)
        whole = run_key[hit] == qrels_key[match]
        hits.append(hit[whole])
        matches.append(match[whole])
        pending, step = pending[~whole], step[~whole]
    return np.concatenate(hits), np.concatenate(matches)


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


class _Queries(NamedTuple):
    """The document's queries and where each file's query codes go (-1: not
    kept); the run's queries the qrels never judge, and the qrels' queries
    the run never ranks that the document leaves out."""

    query_ids: list[str]
    run_to_doc: IntArray
    qrels_to_doc: IntArray
    unjudged: list[str]
    unranked: list[str]


def _common_queries(rt: Table, qt: Table, unshared: bool = False) -> _Queries | None:
    """The queries in both files, in the order the run first lists them
    (with ``unshared``, then the qrels' other queries in their order); None
    on a key clash or on two ids that decode to the same text."""
    union = _union(rt.query, qt.query)
    if union is None:
        return None
    run_map, qrels_map, raw = union
    judged = np.zeros(raw.size, dtype=bool)
    judged[qrels_map] = True
    kept = np.flatnonzero(judged[run_map])
    kept = kept[np.argsort(rt.query.first[kept], kind="stable")]
    query_ids = decode_all(rt.query.raw[kept])
    unjudged = np.flatnonzero(~judged[run_map])
    unjudged = unjudged[np.argsort(rt.query.first[unjudged], kind="stable")]
    to_doc = np.full(raw.size, -1, dtype=np.int64)
    to_doc[run_map[kept]] = np.arange(kept.size)
    ranked = np.zeros(raw.size, dtype=bool)
    ranked[run_map] = True
    only = np.flatnonzero(~ranked[qrels_map])
    only = only[np.argsort(qt.query.first[only], kind="stable")]
    unranked = decode_all(qt.query.raw[only])
    if unshared:
        to_doc[qrels_map[only]] = np.arange(kept.size, kept.size + only.size)
        query_ids += unranked
    if len(set(query_ids)) != len(query_ids):
        return None  # different bytes, the same text (the cp1252 fallback)
    return _Queries(query_ids, to_doc[run_map], to_doc[qrels_map],
                    decode_all(rt.query.raw[unjudged]), [] if unshared else unranked)


def _join_columns(run: Run, rt: Table, qt: Table, qrels_path: Path,
                  conventions: Conventions | None, name: str, *,
                  release: bool = False, unshared: bool = False,
                  ties: TieRule | None = None, threads: int = 1) -> Document | None:
    """The join on integer codes and bytes; None where the line-by-line join
    must do it (ids that are not UTF-8, a key clash). With ``release`` (a
    run read for this document only), the run's columns become the
    document's where they can (less memory at the peak).

    Both files' rows are sorted by (query, source key) and each judged
    qrels row is searched for among the run's; the sorts also tell whether
    a pair repeats (measured on 2,000 queries x 1,000: 0.17-0.19 s of CPU
    for the two repeat checks and a hash table of the qrels' pairs, 0.11-0.13
    s for the two sorts and the search)."""
    if not (rt.source.is_utf8() and qt.source.is_utf8()):
        return None  # different bytes might read as one text (the cp1252 fallback)
    common = _common_queries(rt, qt, unshared)
    if common is None:
        return None
    run_query = common.run_to_doc[rt.query.code]
    rows: IntArray | None = None
    if (common.run_to_doc < 0).any():
        rows = np.flatnonzero(run_query >= 0)
        run_query = run_query[rows]
    with (_order_ahead(ties if rows is None else None, run_query, rt) as ahead,
          _beside(threads, run_query.size) as pool):
        doc = _join_sorted(run, rt, qt, qrels_path, conventions, name, common, run_query,
                           rows, release=release, ahead=ahead, pool=pool)
    if doc is None:
        return None
    doc.queries_left_out = tuple(common.unjudged), tuple(common.unranked)
    doc.unshared = unshared
    return doc


def _join_sorted(run: Run, rt: Table, qt: Table, qrels_path: Path,
                 conventions: Conventions | None, name: str, common: _Queries,
                 run_query: IntArray, rows: IntArray | None, *,
                 release: bool, ahead: Future[Ahead] | None, pool: Executor | None = None
                 ) -> Document | None:
    """:func:`_join_columns` from the run's kept rows (``rows``, None: all)
    with their document query codes on: the sorts, the search, the
    document. ``ahead`` (the run's ranked order, on another thread) is
    waited for before the run's columns become the document's. ``pool``
    (:func:`_beside`) sorts the run while the qrels are sorted here, and
    takes half the ids' comparison."""
    query_ids, n_doc = common.query_ids, len(common.query_ids)
    run_key = rt.source_key if rows is None else rt.source_key[rows]
    qrels_query = common.qrels_to_doc[qt.query.code]
    # The qrels' queries the run keeps first, by their document code.
    qrels_code = np.where(qrels_query >= 0, qrels_query, qt.query.code + n_doc)
    groups = _groups(run_query), _groups(qrels_code)
    bits = _key_bits(n_doc + qt.query.key.size, *groups)
    sort_run = partial(_sorted_pairs, run_query, run_key, bits, groups[0])
    # (the run's sort on the pool's thread while the qrels' is done here)
    run_sorted = None if pool is None else pool.submit(copy_context().run, sort_run)
    qrels = _sorted_pairs(qrels_code, qt.source_key, bits, groups[1])
    del qrels_code
    if qrels.tied and _qrels_repeat(qt, qrels_path):
        return None  # (the pool's end waits for the run's sort)
    check_stopped()  # between the join's blocks: a stopped read ends here (core.io.stop)
    ranked = sort_run() if run_sorted is None else run_sorted.result()
    del sort_run, run_sorted
    if ranked.tied and _run_repeat(run, rt, query_ids, run_query, run_key, rows):
        return None
    check_stopped()
    if release:  # no way back to the line reader now: the run's codes are spent
        rt.query.code = np.empty(0, dtype=np.int32)
        if not ranked.tied:  # and its keys (the search compares them on ties only)
            rt.source_key = run_key = np.empty(0, dtype=np.uint64)
    judged = int(np.searchsorted(qrels.key, np.uint64(n_doc) << np.uint64(64 - bits)))
    hit, match = _matches(ranked, run_key, qrels, qt.source_key, judged)
    del ranked, qrels, run_key
    same = _halves(pool, partial(_same_ids, rt.source, hit if rows is None else rows[hit],
                                 qt.source, match), hit.size)
    hit, match = hit[same], match[same]
    join = _Join(run_query, rows, qrels_query, hit, match)
    del run_query
    check_stopped()
    ordered = None if ahead is None else ahead.result()  # before _assemble takes the columns
    doc = _assemble(run, rt, qt, query_ids, conventions, name, join, release=release)
    if ordered is not None:
        give_order(doc, ordered)
    return doc


def _same_ids(ids: IdBytes, rows: IntArray, other: IdBytes, other_rows: IntArray,
              part: slice) -> npt.NDArray[np.bool_]:
    """:meth:`IdBytes.same` of ``part`` of ``rows`` and ``other_rows``."""
    return ids.same(rows[part], other, other_rows[part])


#: A join of fewer run rows than this is done on one thread (a thread's
#: start and hand-over cost more than the halves save).
_BESIDE_FROM = 1 << 16

@contextmanager
def _beside(threads: int, rows: int) -> Iterator[Executor | None]:
    """A thread that takes the join's independent parts (the run's sort,
    :func:`_halves`) while this one does the rest, for a join of ``rows``
    run rows given ``threads`` (None: one thread does all; a command that
    joins two runs at once gives one each). The join's numpy steps let go
    of the interpreter lock, and after a read the second core is otherwise
    idle (the run's ranked order worked out ahead, :func:`_order_ahead`,
    takes it for ~20 ms at the defaults); the halves' results are the
    whole's, element for element. The 2M-row run's join after the editor's
    read: 318 -> 196 ms of the reading thread's CPU, 338 -> 253 ms of wall
    (medians of 5 alternating turns, load 7-9; docs/benchmarks.md, hopen5)."""
    if threads < 2 or rows < _BESIDE_FROM:
        yield None
        return
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="join") as pool:
        yield pool


def _halves(pool: Executor | None, work: Callable[[slice], npt.NDArray[Any]],
            n: int) -> npt.NDArray[Any]:
    """``work(slice(0, n))``, element for element: with ``pool``, its first
    half there while its second half is worked out here, then the two put
    together (what this thread's half raises first)."""
    if pool is None or n < _BESIDE_FROM:
        return work(slice(0, n))
    half = n // 2
    first = pool.submit(copy_context().run, work, slice(0, half))
    try:
        second = work(slice(half, n))
    except BaseException:
        wait([first])
        raise
    return np.concatenate([first.result(), second])


@contextmanager
def _order_ahead(ties: TieRule | None, run_query: IntArray,
                 rt: Table) -> Iterator[Future[Ahead] | None]:
    """The run's ranked order under ``ties`` (its rows every one kept, with
    their document query codes ``run_query``) and, ties averaged, its tie
    groups, worked out on another thread while the join goes on, for the
    document's evaluation (:func:`core.engine.order.give_order`); None when
    ties follow gains (the grades are not joined yet). The two overlap: the
    sorts and gathers of both let go of the interpreter lock. Measured: see
    docs/benchmarks.md, h39eval (trec_eval's order) and h39def (the defaults'
    tie groups)."""
    if ties is None or ties_follow_gains(ties) or run_query.size < _AHEAD_FROM:
        yield None
        return
    with ThreadPoolExecutor(max_workers=1) as pool:
        yield pool.submit(order_ahead, run_query, rt.number, rt.source, ties)


#: A run of fewer rows is ordered by the engine (a thread costs more than it saves).
_AHEAD_FROM = 1 << 16


def _qrels_repeat(qt: Table, qrels_path: Path) -> bool:
    """Whether the qrels' pair keys clash (two different pairs share one);
    a qrels file that judges a pair twice goes to the line reader, which
    names the lines."""
    found = first_repeat(pair_keys(qt.query.code, qt.source_key), qt.query.code, qt.source)
    if found is not None and found != _CLASH:
        read_qrels(qrels_path)
    return found is not None


def _run_repeat(run: Run, rt: Table, query_ids: list[str], run_query: IntArray,
                run_key: U64Array, rows: IntArray | None) -> bool:
    """Whether the run's pair keys clash (two different pairs share one);
    a run that lists a pair twice raises the error naming both lines."""
    found = first_repeat(pair_keys(run_query, run_key), run_query, rt.source, rows)
    if found is None or found == _CLASH:
        return found is not None
    first, second = found
    line_rows = np.arange(len(run.score)) if rows is None else rows
    raise _duplicate_error(run, query_ids[int(run_query[second])],
                           rt.source.texts(line_rows[[second]])[0],
                           int(line_rows[first]), int(line_rows[second]))


class _Join(NamedTuple):
    """Where the rows go: the run's rows kept (``rows``; None: all of them)
    with their document query codes; the qrels' rows' document query codes
    (-1: not kept); the kept run rows (``hit``, positions among the kept)
    that a qrels row (``match``) judges."""

    run_query: IntArray
    rows: IntArray | None
    qrels_query: IntArray
    hit: IntArray
    match: IntArray


def _grow(a: npt.NDArray[Any], n: int) -> npt.NDArray[Any]:
    """``a`` made ``n`` long, its data kept (in place when the allocator can;
    ``a`` must have no views)."""
    try:
        a.resize(n, refcheck=False)
    except ValueError:  # not its own data
        out = np.empty(n, dtype=a.dtype)
        out[: a.size] = a
        return out
    return a


def _assemble(run: Run, rt: Table, qt: Table, query_ids: list[str],
              conventions: Conventions | None, name: str, j: _Join, *,
              release: bool) -> Document:
    """The document: the run's rows, then the judged rows it did not
    retrieve, query by query in the qrels' order. With ``release`` and every
    run row kept, the run's scores, ids and query codes are lengthened into
    the document's columns and the run lets go of them."""
    n_run = j.run_query.size
    extra = j.qrels_query >= 0
    extra[j.match] = False
    extra_rows = np.flatnonzero(extra)
    del extra
    extra_query = j.qrels_query[extra_rows]
    if bool(np.any(extra_query[1:] < extra_query[:-1])):
        extra_rows = extra_rows[np.argsort(extra_query, kind="stable")]
    total = n_run + extra_rows.size
    extra_ids = qt.source.take(extra_rows)
    if release and j.rows is None:
        query = _grow(j.run_query, total)
        score = _grow(run.score, total)
        run.score = rt.number = np.empty(0)
        ids = rt.source.extend(extra_ids)
        rt.source = IdBytes.from_texts([])
        rt.source_key = np.empty(0, dtype=np.uint64)
    else:
        query = np.empty(total, dtype=np.int64)
        query[:n_run] = j.run_query
        score = np.empty(total, dtype=np.float64)
        score[:n_run] = run.score if j.rows is None else run.score[j.rows]
        run_ids = rt.source if j.rows is None else rt.source.take(j.rows)
        ids = IdBytes.concat([run_ids, extra_ids])
    query[n_run:] = j.qrels_query[extra_rows]
    score[n_run:] = np.nan
    grade = np.full(total, np.nan)
    grade[j.hit] = qt.number[j.match]
    grade[n_run:] = qt.number[extra_rows]
    return Document.from_columns(
        query=query_ids, query_codes=query, source_id=ids, score=score, grade=grade,
        conventions=conventions, name=name, source=None, check=False, copy=False,
    )


# -- the join on the text of every id ----------------------------------------------------
def document_from_judged(run: Run, qrels: Qrels, conventions: Conventions | None = None, *,
                         unshared: bool = False) -> Document:
    """:func:`document_from_trec` of a run and qrels read elsewhere (ranx's
    JSON: :mod:`core.io.score_dict`), ``{query: {source: grade}}`` in the
    qrels' order: the same join, on the text of every id (white space too)."""
    return _join_lines(run, qrels, conventions, stem(run.path), unshared=unshared)


def _join_lines(run: Run, judged: Path | Qrels, conventions: Conventions | None,
                name: str, *, unshared: bool = False) -> Document:
    """The join on Python dicts (the text of every id); ``judged``: the
    qrels file, or what it holds."""
    qrels = read_qrels(judged)[0] if isinstance(judged, Path) else judged
    run_query = run.query
    keep_q = set(run_query) & set(qrels)
    judged_only = [q for q in qrels if q not in keep_q] if unshared else []
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
        if not j % LINES:
            check_stopped()  # (core.io.stop)
        q = query[j]
        s = source[j]
        g = qrels[q].get(s)
        if g is not None:
            grade[j] = g
            retrieved[q].add(s)
    extra_q: list[str] = []
    extra_s: list[str] = []
    extra_g: list[float] = []
    order = [q for q in dict.fromkeys(run_query) if q in keep_q] + judged_only
    for q in order:
        seen = retrieved.get(q, set())
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
    unjudged = tuple(q for q in dict.fromkeys(run_query) if q not in qrels)
    ranked = set(run_query)
    doc.queries_left_out = unjudged, tuple(q for q in qrels if q not in ranked and not unshared)
    doc.unshared, doc.run_tag = unshared, run.tag  # (document_from_judged's too)
    dup = doc.find_duplicate()
    if dup is not None:
        first, second = dup
        raise _duplicate_error(
            run, doc.query_ids[int(doc.query[second])], doc.source_id[second],
            int(rows[first]), int(rows[second]),
        )
    return doc
