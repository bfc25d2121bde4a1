"""Aligning two documents for a comparison: queries by id, candidates by source id.

Queries in only one document are named, never averaged in. Within each shared
query a candidate of A is matched with the candidate of B that has its source
id (its *partner*). Each side's values at its partner rows are gathered,
and the movement in and out of the cut counted, in
:mod:`~core.analysis.compare.across`; which candidates changed, one query's
or every one's, is read off here (:func:`changed_rows`).
"""

from __future__ import annotations

import itertools
import threading
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from core.engine.evaluation import Evaluation
from core.model.document import Document
from core.model.ids import IdBytes

__all__ = [
    "Changes",
    "Cut",
    "KeyedRows",
    "Matching",
    "QueryAlignment",
    "QueryOfRow",
    "QueryRuns",
    "align_queries",
    "byte_partners",
    "candidate_partners",
    "changed_candidates",
    "changed_rows",
    "cut_contributions",
    "grouped_rows",
    "keyed_rows",
    "largest_first",
    "pair_keys",
    "partners",
    "source_codes",
    "subset_document",
    "unmatched_rows",
]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
#: Each row's partner row on the other side (-1: none): 32 bits, as a
#: document's rows number fewer than 2**31 (measured: 2M candidates a side,
#: the partners and the gathered rows 24 MB less held than as int64).
PartnerArray = npt.NDArray[np.int32]
U64Array = npt.NDArray[np.uint64]
BoolArray = npt.NDArray[np.bool_]
#: Each row's shared query (-1: its query is in one document only): 32 bits,
#: as shared queries number fewer than 2**31 (8 MB a side less held at 2M
#: rows), or the document's own query codes where they are (:func:`_row_common`).
QueryOfRow = npt.NDArray[np.int32 | np.int64]
#: Per cutoff: A's rows in the cut, B's rows in the cut, and each row's
#: contribution to DCG@k (0 outside the cut).
Cut = tuple[BoolArray, BoolArray, FloatArray, FloatArray]


def subset_document(doc: Document, queries: IntArray) -> Document:
    """A document holding only the queries ``queries`` (rows keep their order)."""
    queries = np.asarray(queries, dtype=np.int64)
    new_index = np.full(doc.n_queries, -1, dtype=np.int64)
    new_index[queries] = np.arange(queries.size)
    rows = np.flatnonzero(new_index[doc.query] >= 0)
    ratings = doc.ratings[rows] if doc.ratings is not None else None
    return Document(
        query_ids=[doc.query_ids[int(q)] for q in queries],
        query=new_index[doc.query[rows]],
        source_id=doc.source_id[rows],
        version=doc.version[rows],
        score=doc.score[rows],
        grade=doc.grade[rows],
        state=doc.state[rows],
        original_grade=doc.original_grade[rows],
        original_state=doc.original_state[rows],
        note=doc.note[rows],
        reason=doc.reason[rows],
        frequency=doc.frequency[queries],
        importance=doc.importance[queries],
        conventions=doc.conventions,
        judgment_version=doc.judgment_version,
        name=doc.name,
        run_tag=doc.run_tag,
        annotators=list(doc.annotators),
        ratings=ratings,
        unrateable_ratings=(None if doc.unrateable_ratings is None
                            else doc.unrateable_ratings[rows]),
        unrateable_words=(None if doc.unrateable_words is None
                          else doc.unrateable_words[rows]),
    )


@dataclass(frozen=True)
class QueryAlignment:
    """The queries of A and B matched by id.

    ``common`` names the queries in both (A's order), ``qa``/``qb`` their
    indices in each document; ``only_a``/``only_b`` the others.
    ``row_common_a``/``row_common_b`` give each row's index in ``common``
    (-1: its query is in one document only).
    """

    common: list[str]
    only_a: list[str]
    only_b: list[str]
    qa: IntArray
    qb: IntArray
    row_common_a: QueryOfRow
    row_common_b: QueryOfRow


def align_queries(doc_a: Document, doc_b: Document) -> QueryAlignment:
    """Match the queries of ``doc_a`` and ``doc_b`` by id."""
    index_a = {q: i for i, q in enumerate(doc_a.query_ids)}
    index_b = {q: i for i, q in enumerate(doc_b.query_ids)}
    common = [q for q in doc_a.query_ids if q in index_b]
    only_a = [q for q in doc_a.query_ids if q not in index_b]
    only_b = [q for q in doc_b.query_ids if q not in index_a]
    nc = len(common)
    qa = np.fromiter((index_a[q] for q in common), np.int64, nc)
    qb = np.fromiter((index_b[q] for q in common), np.int64, nc)
    return QueryAlignment(common, only_a, only_b, qa, qb,
                          _row_common(doc_a, qa), _row_common(doc_b, qb))


def _row_common(doc: Document, shared: IntArray) -> QueryOfRow:
    """Each of ``doc``'s rows' shared query (``shared``: the shared queries'
    codes in ``doc``, in their order): its query codes themselves where they
    are (every query shared, in the same order: two runs of one set of
    topics, joined with one qrels), not an int32 copy (8 MB a side less held
    at 2M rows, through the report)."""
    if shared.size == doc.n_queries and bool(np.all(shared == np.arange(shared.size))):
        return doc.query
    common_of = np.full(doc.n_queries, -1, dtype=np.int32)
    common_of[shared] = np.arange(shared.size)
    return common_of[doc.query]


def source_codes(a: Document, b: Document) -> tuple[IntArray, IntArray, int]:
    """Each row's source id as an integer (:meth:`Document.source_codes` of
    A); B's ids get A's integers, or -1 for ids A does not hold (those cannot
    match anyway). Only the distinct ids are looked up."""
    ca, ids_a = a.source_codes()
    codes_b, ids_b = b.source_codes()
    index = dict(zip(ids_a.tolist(), range(ids_a.size), strict=True))
    b_to_a = np.fromiter(map(index.get, ids_b.tolist(), itertools.repeat(-1)), np.int64,
                         ids_b.size)
    return ca, b_to_a[codes_b], max(ids_a.size, 1)


def partners(key_a: IntArray, key_b: IntArray, size: int,
             ) -> tuple[PartnerArray, PartnerArray]:
    """For each key of A the row of B with the same key (-1: none), and back.

    Keys are unique within each side; negative keys never match.
    """
    na, nb = key_a.size, key_b.size
    out_b = np.full(nb, -1, dtype=np.int32)
    # Rows without a key are few or none: the usual case skips their index.
    va = None if key_a.min(initial=0) >= 0 else np.flatnonzero(key_a >= 0)
    vb = None if key_b.min(initial=0) >= 0 else np.flatnonzero(key_b >= 0)
    if size <= 4 * (na + nb) + 1_000_000:
        table = np.full(size, -1, dtype=np.int32)
        if vb is None:
            table[key_b] = np.arange(nb, dtype=table.dtype)
        else:
            table[key_b[vb]] = vb
        if va is None:
            out_a = table[key_a]
        else:
            out_a = np.full(na, -1, dtype=np.int32)
            out_a[va] = table[key_a[va]]
    else:
        va = np.arange(na) if va is None else va
        vb = np.arange(nb) if vb is None else vb
        out_a = np.full(na, -1, dtype=np.int32)
        if va.size and vb.size:
            order = np.argsort(key_b[vb], kind="stable")
            sorted_b = key_b[vb][order]
            pos = np.searchsorted(sorted_b, key_a[va])
            pos_c = np.minimum(pos, sorted_b.size - 1)
            hit = sorted_b[pos_c] == key_a[va]
            out_a[va[hit]] = vb[order[pos_c[hit]]]
    matched = np.flatnonzero(out_a >= 0)
    out_b[out_a[matched]] = matched
    return out_a, out_b


def pair_keys(row_common: QueryOfRow, source: IntArray, ns: int) -> IntArray:
    """One integer per (shared query, source) pair; -1 where either is missing."""
    key = row_common.astype(np.int64)
    key *= ns
    key += source
    if row_common.min(initial=0) < 0 or source.min(initial=0) < 0:
        key[(row_common < 0) | (source < 0)] = -1
    return key


def candidate_partners(
    ev_a: Evaluation, ev_b: Evaluation, queries: QueryAlignment,
    keyed: list[KeyedRows | None] | Matching | None = None,
) -> tuple[PartnerArray, PartnerArray]:
    """:func:`~core.analysis.compare.across.align_candidates`' partners, without
    the gathering."""
    n = len(queries.common)
    if keyed is None:
        keyed = [keyed_rows(ev_a.doc, queries.row_common_a, n),
                 keyed_rows(ev_b.doc, queries.row_common_b, n)]
    if isinstance(keyed, Matching):
        found = keyed.result()
    else:
        found = byte_partners(keyed[0], keyed[1])
        keyed.clear()
    if found is None:
        sa, sb, ns = source_codes(ev_a.doc, ev_b.doc)
        found = partners(
            pair_keys(queries.row_common_a, sa, ns), pair_keys(queries.row_common_b, sb, ns),
            max(n, 1) * ns,
        )
    return found


def grouped_rows(row_common: QueryOfRow, n: int) -> tuple[PartnerArray, IntArray, IntArray]:
    """The rows of the ``n`` shared queries grouped by shared query (row order
    within each; int32, as a document's rows number fewer than 2**31), and
    how many rows each shared query has and where its group starts.

    A document's rows come in runs of one query (a TREC run's rows, then the
    judged rows it did not retrieve, query by query): the runs are put in
    order and each moved whole (measured at 2M rows in ~4,000 runs: 40 -> ~15
    ms of CPU against a stable sort of every row, and 16 MB instead of ~56 MB
    of temporaries); rows mostly of alternating queries are sorted instead.
    """
    grouped = _grouped(row_common, n)
    if isinstance(grouped[0], QueryRuns):
        runs, counts = grouped
        return runs.rows(0, n), counts, np.cumsum(counts) - counts
    return grouped


@dataclass(frozen=True)
class QueryRuns:
    """A document's runs of rows of one shared query, ordered by shared
    query (stably: row order within each): each run's ``first`` row and
    ``length``, and ``at``, each shared query's first run (and the end)."""

    first: IntArray
    length: IntArray
    at: IntArray

    def rows(self, lo: int, hi: int) -> PartnerArray:
        """The rows of the shared queries ``lo`` to ``hi``, grouped (int32)."""
        r0, r1 = int(self.at[lo]), int(self.at[hi])
        first, length = self.first[r0:r1], self.length[r0:r1]
        # Each run's rows: its first row plus their places after the rows of
        # the runs before it (the rows it moves by, repeated, plus a count).
        before = np.cumsum(length) - length
        rows = np.repeat((first - before).astype(np.int32), length)
        rows += np.arange(rows.size, dtype=np.int32)
        return rows


def _grouped(row_common: QueryOfRow, n: int,
             ) -> tuple[QueryRuns, IntArray] | tuple[PartnerArray, IntArray, IntArray]:
    """:func:`grouped_rows`' runs and counts where the rows come in runs of
    one query, else its rows, counts and starts (:func:`_sorted_rows`)."""
    heads = np.flatnonzero(row_common[1:] != row_common[:-1])
    if not row_common.size or heads.size > row_common.size // 8:
        return _sorted_rows(row_common, n)
    heads += 1
    first = np.concatenate(([0], heads)).astype(np.int64)
    length = np.diff(first, append=row_common.size)
    query = row_common[first]
    shared = np.flatnonzero(query >= 0)
    shared = shared[np.argsort(query[shared], kind="stable")]
    first, length, query = first[shared], length[shared], query[shared]
    counts = np.zeros(n, dtype=np.int64)
    np.add.at(counts, query, length)
    return QueryRuns(first, length, np.searchsorted(query, np.arange(n + 1))), counts


def _sorted_rows(row_common: QueryOfRow, n: int) -> tuple[PartnerArray, IntArray, IntArray]:
    """:func:`grouped_rows` by a stable sort of the shared rows' queries."""
    rows = np.flatnonzero(row_common >= 0)
    query = row_common[rows]
    if query.size and bool(np.any(query[1:] < query[:-1])):
        # Shared query numbers fit 16 bits nearly always: a radix sort then.
        small = query.astype(np.int16) if n < 2**15 else query
        rows = rows[np.argsort(small, kind="stable")]
    counts = np.bincount(query, minlength=n)
    return rows.astype(np.int32), counts, np.cumsum(counts) - counts


@dataclass(frozen=True)
class KeyedRows:
    """One side's candidates of the shared queries, for :func:`byte_partners`:
    how many rows each shared query has (``count``) and where its group of
    rows starts (``start``) once grouped by shared query
    (:func:`grouped_rows`), the grouped ``rows`` themselves only where the
    document's rows do not come in ``runs`` of one query (otherwise each
    block of the matching makes its own: :meth:`block_rows`), and each row's
    id ``length`` in bytes (up to :data:`_ONE_WORD`; a longer id's as one
    more), None when most ids are longer. The ids' keys
    (:meth:`IdBytes.keys`) are worked out a block of the matching at a time
    too, from the bytes. (Kept whole, the keys from the read to the matching
    and the grouped rows, were 16 + 8 MB a side at 2M rows, at the read's
    and ``compare()``'s peaks.)"""

    ids: IdBytes
    size: int
    count: IntArray
    start: IntArray
    rows: PartnerArray | None
    runs: QueryRuns | None
    length: npt.NDArray[np.uint8] | None

    def block_rows(self, lo: int, hi: int) -> PartnerArray:
        """The grouped rows of the shared queries ``lo`` to ``hi``."""
        if self.runs is not None:
            return self.runs.rows(lo, hi)
        assert self.rows is not None
        return self.rows[int(self.start[lo]):int(self.start[hi - 1] + self.count[hi - 1])]

    def cells(self, lo: int, hi: int, width: int, column: int) -> IntArray:
        """Where the rows of the shared queries ``lo`` to ``hi`` go in a grid
        of rows ``width`` cells wide, a query a row (from its cell ``column``
        on), as flat indices."""
        count = self.count[lo:hi]
        # Each query's rows move from their place among the block's rows to
        # their grid row: by width x row less the rows before the query.
        shift = np.arange(column, count.size * width + column, width, dtype=np.int64)
        shift -= self.start[lo:hi] - self.start[lo]
        cell = np.repeat(shift, count)
        cell += np.arange(cell.size)
        return cell


def keyed_rows(doc: Document, row_common: QueryOfRow, n: int) -> KeyedRows | None:
    """What :func:`byte_partners` needs of one side (each side's on its own
    lane); None when the document does not keep its ids as UTF-8 bytes."""
    ids = doc.source_bytes()
    if ids is None or not ids.is_utf8():
        return None
    grouped = _grouped(row_common, n)
    if isinstance(grouped[0], QueryRuns):
        (runs, count), rows = grouped, None
        start = np.cumsum(count) - count
    else:
        rows, count, start = grouped
        runs = None
    length = _lengths(ids)
    shared = length if row_common is doc.query else length[row_common >= 0]
    # Mostly longer ids: the keys would vouch for few pairs, every pair's bytes are compared.
    few = 2 * np.count_nonzero(shared <= _ONE_WORD) < shared.size
    del shared
    return KeyedRows(ids, len(doc), count, start, rows, runs, None if few else length)


def _lengths(ids: IdBytes) -> npt.NDArray[np.uint8]:
    """Each id's length in bytes up to :data:`_ONE_WORD` (longer: one more),
    a block of ids at a time (2 MB at 2M ids, where the whole column's
    differences took 8 MB more and the peak 12 MiB more a side)."""
    out = np.empty(len(ids), dtype=np.uint8)
    for lo in range(0, out.size, _BLOCK_IDS):
        size = np.diff(ids.offset[lo:lo + _BLOCK_IDS + 1])  # with the "\n"
        size -= 1
        np.minimum(size, _ONE_WORD + 1, out=size)
        out[lo:lo + size.size] = size
    return out


#: No key of :func:`byte_partners`'s grid has all bits set: its padding.
_PAD = np.uint64(2**64 - 1)
#: Grid cells sorted at once (a block of queries; 1 MiB of keys).
_CELLS = 1 << 17
#: Ids of at most this many bytes are one word of :func:`core.model.ids.row_keys`.
_ONE_WORD = 8
#: Ids whose lengths :func:`_lengths` works out at once.
_BLOCK_IDS = 1 << 18


def byte_partners(
    a: KeyedRows | None, b: KeyedRows | None
) -> tuple[PartnerArray, PartnerArray] | None:
    """:func:`partners` of the candidates of the shared queries, for two
    documents that keep their source ids as bytes (TREC runs), without
    numbering the ids: None when either does not (``a`` or ``b`` None), or
    when the keys cannot tell (the caller then numbers the ids,
    :func:`source_codes`). :class:`Matching`'s work on one thread.
    """
    matching = Matching.of(a, b)
    if matching is None:
        return None
    matching.work()
    return matching.result()


class Matching:
    """:func:`byte_partners`' work, in blocks of queries that any thread may
    take (:meth:`work`; each block writes its own rows' partners, so two
    threads share it without a lock but to take a block), and its result
    once every block taken is done (:meth:`result`).

    Each shared query is a row of a grid holding A's candidates then B's, each
    as its id's 64-bit key with its place among the block's candidates in the
    low bits. Sorted row by row, a block of queries at a time (measured: ~0.1
    s for 2,000 rows of 2,000 against ~0.45 s per side to number 2M ids,
    ~0.15 s to sort 2M keys at once), equal ids stand side by side, A's
    first; every pair so found is checked byte for byte, so two ids match
    exactly when their bytes (and, both being UTF-8, their texts) are equal.
    """

    def __init__(self, a: KeyedRows, b: KeyedRows, wa: int, width: int) -> None:
        self._sides = [a, b]  # let go once the partners are found
        self.wa, self.width = wa, width
        self.pa = np.full(a.size, -1, dtype=np.int32)
        self.pb = np.full(b.size, -1, dtype=np.int32)
        n = a.count.size
        step = max(1, _CELLS // max(width, 1))
        # A block's candidates number fewer than its cells: their places fit
        # ``bits`` low bits, and none is all ones (no key is _PAD).
        self.bits = (step * width).bit_length()
        self._blocks = iter([(lo, min(n, lo + step)) for lo in range(0, n, step)])
        self._done = threading.Condition()
        self._taken = self._finished = 0
        self.clash = False

    @classmethod
    def of(cls, a: KeyedRows | None, b: KeyedRows | None) -> Matching | None:
        """The matching of ``a``'s and ``b``'s candidates; None when either is
        None or the grid would be mostly padding."""
        if a is None or b is None:
            return None
        n, wa = a.count.size, int(a.count.max(initial=0))
        width = wa + int(b.count.max(initial=0))
        if n * width > 2 * int(a.count.sum() + b.count.sum()) + 1_000_000:
            return None  # a few long queries among short ones: mostly padding
        return cls(a, b, wa, width)

    def work(self) -> None:
        """Match blocks until none is left to take (or two ids share a key)."""
        while not self.clash:
            with self._done:
                block = next(self._blocks, None)
                if block is None:
                    return
                self._taken += 1
            try:
                self._match(*block)
            except BaseException:
                self.clash = True  # its partners unwritten: the caller numbers the ids
                raise
            finally:
                with self._done:
                    self._finished += 1
                    self._done.notify_all()

    def _match(self, lo: int, hi: int) -> None:
        a, b = self._sides
        found = _grid_pairs(a, b, lo, hi, self.wa, self.width + 1, self.bits)
        if found is None or not _same(a, b, *found):
            self.clash = True  # two different ids share a key
            return
        row_a, row_b = found[:2]
        self.pa[row_a], self.pb[row_b] = row_b, row_a

    def result(self) -> tuple[PartnerArray, PartnerArray] | None:
        """The partners once every block is done (this thread takes those
        left), or None when the keys could not tell."""
        self.work()
        with self._done:
            self._done.wait_for(lambda: self._finished == self._taken)
        self._sides.clear()  # the keys and rows (48 MB a side at 2M rows) go back
        return None if self.clash else (self.pa, self.pb)


def _same(a: KeyedRows, b: KeyedRows, row_a: PartnerArray, row_b: PartnerArray,
          key_a: U64Array, key_b: U64Array) -> bool:
    """Whether every pair of A's and B's candidates (``row_a``, ``row_b``;
    ``key_a`` and ``key_b`` their ids' keys) has the very same id: their
    full keys equal (the grid sorts a key's high bits only), and their bytes
    too where the keys cannot vouch for them.

    An id of at most :data:`_ONE_WORD` bytes is one word of
    :func:`core.model.ids.row_keys`, zero-padded (ids of one word and of no
    zero byte: the word tells the bytes), and its key is that word mixed by
    a bijection (``_mixed``: a constant added, then the 64-bit finalizer,
    which gives 0 only for the all-zero word): two ids of one length whose
    equal keys are not 0 are the very same bytes. Measured on bench_compare's
    runs (2M candidates a side, ids of 2-5 bytes, 1.87M pairs; medians of 7
    calls, 3 alternating processes a build): :func:`byte_partners` 0.162-0.171
    -> 0.134-0.144 s of CPU, ``keyed_rows`` ~6 ms a side more for the lengths.
    """
    if a.length is None or b.length is None:
        return bool(a.ids.same(row_a, b.ids, row_b).all())
    if not np.array_equal(key_a, key_b):
        return False
    length = a.length[row_a]
    sure = length == b.length[row_b]
    sure &= length <= _ONE_WORD
    sure &= key_a != 0
    unsure = np.flatnonzero(~sure)
    return bool(a.ids.same(row_a[unsure], b.ids, row_b[unsure]).all())


def _grid_pairs(
    a: KeyedRows, b: KeyedRows, lo: int, hi: int, wa: int, width: int, bits: int
) -> tuple[PartnerArray, PartnerArray, U64Array, U64Array] | None:
    """The rows of A and of B whose keys are equal in the shared queries
    ``lo`` to ``hi`` (:func:`byte_partners`) and their ids' keys; None when
    three candidates, or two of one side, share a key.

    A cell's low ``bits`` hold the candidate's place among the block's (A's
    then B's), so a pair's rows are read off the sorted cells without
    knowing their grid row. A's candidates of a query fill its row from its
    first cell, B's from cell ``wa`` (A's longest), and every row ends in a
    padding cell (``width`` is one more than the longest), so no pair spans
    two queries."""
    low = np.uint64(bits)
    grid = np.full((hi - lo) * width, _PAD, dtype=np.uint64)
    place = 0
    rows, full = [], []  # each side's block's rows and their ids' keys
    for side, column in ((a, 0), (b, wa)):
        rows.append(side.block_rows(lo, hi))
        cell = side.cells(lo, hi, width, column)
        full.append(side.ids.keys(rows[-1]))
        key = full[-1] >> low
        key <<= low
        key |= np.arange(place, place + rows[-1].size, dtype=np.uint64)
        grid[cell] = key
        place += rows[-1].size
        del cell, key
    grid.reshape(hi - lo, width).sort(axis=1)  # in place: a view of the cells
    flat = grid
    mask = np.uint64((1 << bits) - 1)
    pair = np.bitwise_xor(flat[:-1], flat[1:]) <= mask  # the same key, another place
    pair &= flat[1:] != _PAD
    at = np.flatnonzero(pair)
    if at.size and bool(np.any(at[1:] == at[:-1] + 1)):
        return None  # three candidates share a key
    na = rows[0].size
    place_a = (flat[at] & mask).astype(np.int64)
    place_b = (flat[at + 1] & mask).astype(np.int64) - na
    if bool(np.any(place_a >= na)) or bool(np.any(place_b < 0)):
        return None  # two candidates of one side share a key
    return rows[0][place_a], rows[1][place_b], full[0][place_a], full[1][place_b]


def cut_contributions(
    ev_a: Evaluation, ev_b: Evaluation, cutoffs: tuple[int | None, ...]
) -> list[Cut]:
    """Per cutoff: which rows of A and of B are in the cut, and their
    contributions to DCG@k (0 outside the cut)."""
    out = []
    for k in cutoffs:
        ca = ev_a.ranked_mask & (
            True if k is None else (ev_a.tie_first_rank <= k)
        )
        cb = ev_b.ranked_mask & (
            True if k is None else (ev_b.tie_first_rank <= k)
        )
        # contribution_at makes a new array: 0 set in it, not copied by a where (16 MB at 2M rows).
        xa, xb = ev_a.contribution_at(k), ev_b.contribution_at(k)
        xa[~ca], xb[~cb] = 0.0, 0.0
        out.append((np.asarray(ca), np.asarray(cb), xa, xb))
    return out


#: What :func:`changed_rows` returns: the rows (A's, then B's without a
#: partner), kinds, ranks in A and B (0: not ranked), contributions in A and B.
Changes = tuple[tuple[IntArray, IntArray], npt.NDArray[np.object_], IntArray, IntArray,
                FloatArray, FloatArray]


def changed_candidates(
    ev_a: Evaluation,
    ev_b: Evaluation,
    partner_a: PartnerArray,
    partner_b: PartnerArray,
    cut: Cut,
    query_a: int,
    query_b: int,
) -> Changes:
    """The candidates of one shared query (``query_a`` in A, ``query_b`` in B)
    that moved, entered, left or were regraded in ``cut``
    (:func:`changed_rows` of its rows)."""
    return changed_rows(ev_a, ev_b, partner_a, partner_b, cut,
                        ev_a.doc.members(query_a), ev_b.doc.members(query_b))


def changed_rows(
    ev_a: Evaluation,
    ev_b: Evaluation,
    partner_a: PartnerArray,
    partner_b: PartnerArray,
    cut: Cut,
    ma: IntArray,
    mb: IntArray,
) -> Changes:
    """The candidates among A's rows ``ma`` and B's rows ``mb`` (the rows of
    shared queries: one query's, or every one's) that moved, entered, left or
    were regraded in ``cut``.

    Returns their rows (A's rows in the order of ``ma``, then B's rows
    without a partner in the order of ``mb``: the caller decodes the ids of
    those it shows), kinds, ranks in A and B (0: not ranked) and
    contributions in A and B, in that order.
    """
    ca, cb, xa, xb = cut
    pa = partner_a[ma]
    has = pa >= 0
    pc = np.where(has, pa, 0)
    a_in = ca[ma]
    b_in = has & cb[pc]
    rank_a = np.where(ev_a.ranked_mask[ma], ev_a.rank[ma], 0)
    rank_b = np.where(has & ev_b.ranked_mask[pc], ev_b.rank[pc], 0)
    ga, gb = ev_a.gain_at(ma), ev_b.gain_at(pc)
    same_gain = (ga == gb) | (np.isnan(ga) & np.isnan(gb))
    # Codes into _KINDS (an object array's compares cost ~0.2 s at 2M rows).
    kind = np.zeros(ma.size, dtype=np.int8)
    kind[a_in & ~b_in] = 1
    kind[b_in & ~a_in] = 2
    both = a_in & b_in
    xa_m = xa[ma]
    xb_m = np.where(has, xb[pc], 0.0)
    # Same rank and gain but another contribution: its tie group changed.
    shifted = (xa_m != xb_m) & ~(np.isnan(xa_m) & np.isnan(xb_m))
    kind[both & ((rank_a != rank_b) | (same_gain & shifted))] = 3
    kind[both & (rank_a == rank_b) & ~same_gain] = 4
    keep = np.flatnonzero(kind)
    # Candidates of B without a row in A (those with one were seen above).
    new_b = mb[cb[mb] & (partner_b[mb] < 0)]
    return (
        (ma[keep], new_b),
        np.concatenate([_KINDS[kind[keep]], np.full(new_b.size, "entered", dtype=object)]),
        np.concatenate([rank_a[keep], np.zeros(new_b.size, dtype=np.int64)]),
        np.concatenate([rank_b[keep], ev_b.rank[new_b]]),
        np.concatenate([xa_m[keep], np.zeros(new_b.size)]),
        np.concatenate([xb_m[keep], xb[new_b]]),
    )


#: The kinds of change :func:`changed_rows` codes 1-4.
_KINDS = np.array(["", "left", "entered", "moved", "regraded"], dtype=object)


def largest_first(size: FloatArray, group: IntArray | None = None) -> IntArray:
    """The order of changes by |contribution change| ``size``, largest first
    (unknown, NaN, last; equal sizes in their order: the sort is stable),
    within each ``group`` (ascending) when given."""
    key = -np.nan_to_num(size, nan=-1.0)
    return np.lexsort((key,) if group is None else (key, group))


def unmatched_rows(row_common: QueryOfRow, partner: PartnerArray,
                   ) -> tuple[IntArray, QueryOfRow]:
    """The rows of shared queries without a partner, grouped by shared query
    (row order within each), and their shared query index."""
    rows = np.flatnonzero((row_common >= 0) & (partner < 0))
    rows = rows[np.argsort(row_common[rows], kind="stable")]
    return rows, row_common[rows]
