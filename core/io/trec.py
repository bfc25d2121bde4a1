"""TREC run and qrels files.

A run line is ``query Q0 source rank score tag``; a qrels line is
``query iteration source grade``. As trec_eval does, the run's rank column is
ignored (the engine orders by score under the declared tie rule) and only
queries present in both files are evaluated.
"""

from __future__ import annotations

import ctypes
import math
import sys
from array import array
from collections import deque
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import numpy as np
import numpy.typing as npt

from core.errors import InputError
from core.io.atomic import atomic_write_text
from core.model.conventions import Conventions
from core.model.document import Document, GradeState

__all__ = ["Run", "document_from_trec", "read_qrels", "read_run", "write_qrels", "write_run"]

Qrels = dict[str, dict[str, float]]


def _read_bytes(path: Path) -> bytes:
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read the file: {exc.strerror or exc}", file=str(path)) from exc
    if raw.startswith(b"PK\x03\x04") or raw.startswith(b"\xd0\xcf\x11\xe0"):
        raise InputError("this is a workbook, not a TREC text file", file=str(path))
    if b"\x00" in raw[:4096]:
        raise InputError("the file is binary, not a TREC text file", file=str(path))
    return raw


def _open_lines(path: Path) -> list[bytes]:
    return _read_bytes(path).splitlines()


def _text(b: bytes) -> str:
    try:
        return b.decode("utf-8")
    except UnicodeDecodeError:
        return b.decode("cp1252", errors="replace")


def _float(token: bytes, *, file: str, line: int, column: str) -> float:
    try:
        value = float(token)
    except ValueError:
        value = math.nan
        bad = True
    else:
        bad = not math.isfinite(value)
    if bad:
        raise InputError(
            f"{_text(token)!r} is not a finite number", file=file, line=line, column=column
        )
    return value


def read_qrels(path: str | Path) -> tuple[Qrels, dict[tuple[str, str], int]]:
    """Read a qrels file: ``{query: {source: grade}}`` and each pair's line."""
    path = Path(path)
    name = str(path)
    qrels: Qrels = {}
    where: dict[tuple[str, str], int] = {}
    for line_no, line in enumerate(_open_lines(path), start=1):
        parts = line.split()
        if not parts:
            continue
        if len(parts) != 4:
            raise InputError(
                f"expected 4 fields (query iteration source grade), found {len(parts)}",
                file=name, line=line_no,
            )
        q, doc = _text(parts[0]), _text(parts[2])
        grade = _float(parts[3], file=name, line=line_no, column="grade (field 4)")
        judged = qrels.setdefault(q, {})
        if doc in judged:
            raise InputError(
                f"source {doc!r} of query {q!r} is judged twice (first on line "
                f"{where[(q, doc)]})", file=name, line=line_no,
                hint="keep one judgment per query and source",
            )
        judged[doc] = grade
        where[(q, doc)] = line_no
    return qrels, where


#: The bytes ``bytes.split()`` treats as whitespace.
_WORD = bytes(0 if i in b" \t\n\r\x0b\x0c" else 1 for i in range(256))
#: The fast reader works through a file in pieces of about this many bytes.
_CHUNK = 1 << 20
#: A fast reader's field is copied into rows of this many bytes at most (a
#: longer id sends the whole file to the line-by-line reader).
_MAX_WIDTH = 512
_POW10 = 10.0 ** np.arange(16)
_MIX = np.uint64(0x9E3779B97F4A7C15)

U64Array = npt.NDArray[np.uint64]
IntArray = npt.NDArray[np.int64]
Int32Array = npt.NDArray[np.int32]
FloatArray = npt.NDArray[np.float64]


def _check_head(head: bytes, path: Path) -> None:
    """The checks :func:`_read_bytes` makes on a file's first bytes."""
    if head.startswith(b"PK\x03\x04") or head.startswith(b"\xd0\xcf\x11\xe0"):
        raise InputError("this is a workbook, not a TREC text file", file=str(path))
    if b"\x00" in head[:4096]:
        raise InputError("the file is binary, not a TREC text file", file=str(path))


def _pieces(path: Path) -> Iterator[bytes]:
    """The file in pieces of whole lines (a piece never splits ``\\r\\n``)."""
    try:
        fh = open(path, "rb")  # noqa: SIM115 - closed below; errors must name the file
    except OSError as exc:
        raise InputError(f"cannot read the file: {exc.strerror or exc}", file=str(path)) from exc
    with fh:
        rest = b""
        first = True
        while True:
            try:
                piece = fh.read(_CHUNK)
            except OSError as exc:
                raise InputError(
                    f"cannot read the file: {exc.strerror or exc}", file=str(path)
                ) from exc
            if first:
                _check_head(piece, path)
                first = False
            if not piece:
                if rest:
                    yield rest
                return
            data = rest + piece if rest else piece
            cut = max(data.rfind(b"\n"), data.rfind(b"\r", 0, len(data) - 1)) + 1
            if cut == 0:
                rest = data
                continue
            yield data[:cut]
            rest = data[cut:]


#: ``_LOW[i]`` keeps the first ``i`` bytes of a little-endian 8-byte word.
_LOW = np.array([(1 << (8 * i)) - 1 for i in range(8)] + [(1 << 64) - 1], dtype=np.uint64)


def _words(chunk: bytes) -> npt.NDArray[np.uint64]:
    """Every 8-byte window of ``chunk`` as a little-endian word (a view: entry
    ``i`` is bytes ``i .. i+7``; the chunk is padded with zero bytes)."""
    padded = chunk + bytes(_MAX_WIDTH + 8)
    return np.ndarray(shape=(len(padded) - 7,), dtype="<u8", buffer=padded, strides=(1,))


def _gather(words: npt.NDArray[np.uint64], start: IntArray, length: IntArray,
            width: int) -> npt.NDArray[np.uint8]:
    """Tokens copied into rows of ``width`` bytes, padded with zero bytes."""
    out = np.empty((start.size, width // 8), dtype="<u8")
    for j in range(width // 8):
        word = words[start + 8 * j]
        word &= _LOW[np.clip(length - 8 * j, 0, 8)]
        out[:, j] = word
    return out.view(np.uint8).reshape(start.size, width)


def _numbers(m: npt.NDArray[np.uint8]) -> FloatArray | None:
    """Parse fixed-width number tokens as Python's ``float`` would.

    Plain decimals of at most 15 digits are computed exactly with numpy
    (integer digits / a power of ten: both exact, one correctly rounded
    division); the rest go through ``float``. None if a token is not a finite
    number.
    """
    n, width = m.shape
    cols = np.ascontiguousarray(m.T)
    mantissa = np.zeros(n, dtype=np.int64)
    n_digits = np.zeros(n, dtype=np.int64)
    n_frac = np.zeros(n, dtype=np.int64)
    n_dot = np.zeros(n, dtype=np.int64)
    bad = np.zeros(n, dtype=bool)
    for j in range(width):
        c = cols[j]
        digit = c - np.uint8(48)
        is_digit = digit < 10
        is_dot = c == 46
        mantissa = mantissa * np.where(is_digit, 10, 1) + np.where(is_digit, digit, 0)
        n_digits += is_digit
        n_frac += is_digit & (n_dot > 0)
        n_dot += is_dot
        other = ~(is_digit | is_dot | (c == 0))  # zero bytes pad the token
        if j == 0:
            other &= (c != 45) & (c != 43)
        bad |= other
    simple = ~bad & (n_dot <= 1) & (n_digits >= 1) & (n_digits <= 15)
    value = mantissa / _POW10[np.minimum(n_frac, 15)]
    value[cols[0] == 45] *= -1.0
    other_rows = np.flatnonzero(~simple)
    if other_rows.size:
        try:
            value[other_rows] = m[other_rows].view(f"S{width}").ravel().astype(np.float64)
        except ValueError:
            return None
    if not np.all(np.isfinite(value)):
        return None
    result: FloatArray = value
    return result


class _Column:
    """One text field of a file, coded: each row's code points at its
    distinct token (``raw``, ordered by ``key``, first seen on row ``first``)."""

    def __init__(self, code: Int32Array, key: U64Array, raw: npt.NDArray[np.bytes_],
                 first: IntArray) -> None:
        self.code = code
        self.key = key
        self.raw = raw
        self.first = first


def _keys(m: npt.NDArray[np.uint8]) -> U64Array:
    """A 64-bit key per row of ``m``, the same whatever the padding (exact
    when a token holds at most 8 bytes).

    Tokens hold no zero byte, so a word is zero exactly when it is padding;
    padding words leave the key alone.
    """
    words = m.view(np.uint64)
    key = words[:, 0].copy()
    for j in range(1, words.shape[1]):
        word = words[:, j]
        mixed = (key ^ (key >> np.uint64(29))) * _MIX + word
        key = np.where(word != 0, mixed, key)
    return key


class _Piece:
    """What one piece of a file holds: per row its line (counted within the
    piece), number and, per text field, the code of its token among the
    piece's distinct tokens."""

    def __init__(self, line: npt.NDArray[np.int32 | np.int64], n_breaks: int) -> None:
        self.line = line
        self.n_breaks = n_breaks
        self.number = np.empty(0, dtype=np.float64)
        self.code: list[IntArray] = []
        self.key: list[U64Array] = []
        self.raw: list[npt.NDArray[np.bytes_]] = []
        self.first: list[IntArray] = []


def _code(key: U64Array) -> tuple[U64Array, IntArray, IntArray]:
    """Distinct keys (sorted), each one's first row, each row's code.

    Runs of equal keys (a run file lists a query's rows together) are
    coded once each.
    """
    n = key.size
    heads = np.flatnonzero(key[1:] != key[:-1]) + 1
    if 4 * heads.size < n:
        heads = np.concatenate((np.zeros(1, dtype=np.int64), heads))
        uniq, first, inverse = np.unique(key[heads], return_index=True, return_inverse=True)
        code = np.repeat(inverse, np.diff(heads, append=n))
        return uniq, heads[first], code
    uniq, first, code = np.unique(key, return_index=True, return_inverse=True)
    return uniq, first, code


def _plain_tokens(b: npt.NDArray[np.uint8], word: npt.NDArray[np.bool_],
                  n_fields: int) -> tuple[IntArray, IntArray, IntArray, int] | None:
    """Token starts and ends, each row's line (within the piece) and the
    number of line breaks, for the usual layout: one whitespace byte after
    every token, ``\\n`` after the last of a line, no blank lines. None
    otherwise (:func:`_tokens` then looks)."""
    space = np.flatnonzero(~word)
    if not space.size or space[-1] != b.size - 1 or not word[0]:
        return None
    if np.any(space[1:] - space[:-1] == 1):
        return None
    line_end = np.flatnonzero(b[space] == 10)
    if line_end.size * n_fields != space.size or np.any(
        line_end != np.arange(n_fields - 1, space.size, n_fields)
    ):
        return None
    starts = np.empty(space.size, dtype=np.int64)
    starts[0] = 0
    starts[1:] = space[:-1] + 1
    return starts, space, np.arange(line_end.size), int(line_end.size)


def _tokens(b: npt.NDArray[np.uint8], word: npt.NDArray[np.bool_], n_fields: int,
            has_cr: bool) -> tuple[IntArray, IntArray, IntArray, int] | None:
    """Token starts and ends, each row's line (within the piece, as
    ``bytes.splitlines`` counts) and the number of line breaks; None if a
    non-blank line does not hold ``n_fields`` tokens."""
    edges = np.flatnonzero(word[1:] != word[:-1]) + 1
    if word[0]:
        edges = np.concatenate((np.zeros(1, dtype=np.int64), edges))
    if word[-1]:
        edges = np.concatenate((edges, np.full(1, b.size, dtype=np.int64)))
    starts, ends = edges[0::2], edges[1::2]
    if has_cr:
        newline = b == 10
        cr = b == 13
        cr[:-1] &= ~newline[1:]
        breaks = np.flatnonzero(newline | cr)
    else:
        breaks = np.flatnonzero(b == 10)
    # Tokens on each line (the last line may have no break).
    before = np.searchsorted(starts, breaks)
    counts = np.diff(before, prepend=0, append=starts.size)
    if np.any((counts != n_fields) & (counts != 0)):
        return None
    return starts, ends, np.flatnonzero(counts), int(breaks.size)


def _read_piece(chunk: bytes, n_fields: int, text_fields: tuple[int, ...],
                number_field: int) -> _Piece | None:
    """Fields of one piece; None where the line-by-line reader must look."""
    if b"\x00" in chunk:
        return None
    b = np.frombuffer(chunk, dtype=np.uint8)
    word = np.frombuffer(chunk.translate(_WORD), dtype=np.bool_)
    got = _plain_tokens(b, word, n_fields) if b"\r" not in chunk else None
    if got is None:
        got = _tokens(b, word, n_fields, b"\r" in chunk)
        if got is None:
            return None
    starts, ends, line, n_breaks = got
    piece = _Piece(line, n_breaks)
    words = _words(chunk)
    for f in (number_field, *text_fields):
        s = starts[f::n_fields]
        length = ends[f::n_fields] - s
        longest = int(length.max()) if length.size else 1
        if longest > _MAX_WIDTH:
            return None
        width = -(-longest // 8) * 8
        m = _gather(words, s, length, width)
        if f == number_field:
            number = _numbers(m)
            if number is None:
                return None
            piece.number = number
            continue
        uniq, first, code = _code(_keys(m))
        if width > 8 and not np.array_equal(m, m[first][code]):
            return None  # two tokens share a key: rare; the slow path is exact
        piece.code.append(code.astype(np.int64, copy=False))
        piece.key.append(uniq)
        piece.raw.append(m[first].view(f"S{width}").ravel())
        piece.first.append(first.astype(np.int64, copy=False))
    return piece


class _Table:
    """A whole TREC file read column-wise (see :func:`_scan`)."""

    def __init__(self, line: Int32Array, number: FloatArray, columns: list[_Column]) -> None:
        self.line = line
        self.number = number
        self.columns = columns

    def copy(self) -> _Table:
        """Another table over the same arrays (a join empties its table's list)."""
        return _Table(self.line, self.number, list(self.columns))


def _merge(pieces: list[_Piece], i: int, offsets: list[int]) -> _Column | None:
    """One text field's codes over every piece (None on a key clash)."""
    if not pieces:
        empty = np.empty(0, dtype=np.int64)
        return _Column(empty.astype(np.int32), np.empty(0, dtype=np.uint64),
                       np.empty(0, dtype="S1"), empty)
    key = np.concatenate([p.key[i] for p in pieces])
    raw = np.concatenate([p.raw[i] for p in pieces])
    first = np.concatenate([p.first[i] + off for p, off in zip(pieces, offsets, strict=True)])
    uniq, rep, inverse = np.unique(key, return_index=True, return_inverse=True)
    if uniq.size != key.size and not np.array_equal(raw, raw[rep][inverse]):
        return None
    first_row = np.full(uniq.size, np.iinfo(np.int64).max, dtype=np.int64)
    np.minimum.at(first_row, inverse, first)
    codes = []
    start = 0
    for p in pieces:
        n_uniq = p.key[i].size
        codes.append(inverse[start:start + n_uniq][p.code[i]].astype(np.int32))
        start += n_uniq
    return _Column(np.concatenate(codes), uniq, raw[rep], first_row)


def _scan(path: Path, n_fields: int, text_fields: tuple[int, ...],
          number_field: int, threads: int = 2) -> _Table | None:
    """Read a TREC file column-wise with numpy, a piece at a time (two
    pieces at once on ``threads`` threads: numpy lets go of the interpreter
    lock; a caller reading two files at once gives each one).

    Returns None when a line is irregular (a wrong number of fields, a bad
    number, a zero byte, a very long token): the line-by-line reader then
    reads the file and names the line.
    """
    pieces: list[_Piece] = []
    offsets: list[int] = []
    base_line = rows = 0
    with ThreadPoolExecutor(max_workers=threads) as pool:
        pending: deque[Future[_Piece | None]] = deque()
        chunks = _pieces(path)
        while True:
            while len(pending) < 2:
                chunk = next(chunks, None)
                if chunk is None:
                    break
                pending.append(pool.submit(_read_piece, chunk, n_fields, text_fields,
                                           number_field))
            if not pending:
                break
            piece = pending.popleft().result()
            if piece is None:
                for job in pending:
                    job.cancel()
                return None
            if piece.line.size:
                pieces.append(piece)
                offsets.append(rows)
                piece.line = (piece.line + (base_line + 1)).astype(np.int32)
                rows += piece.line.size
            base_line += piece.n_breaks
    columns = []
    for i in range(len(text_fields)):
        column = _merge(pieces, i, offsets)
        if column is None:
            return None
        columns.append(column)
    line = (np.concatenate([p.line for p in pieces]).astype(np.int32, copy=False) if pieces
            else np.empty(0, dtype=np.int32))
    numbers = np.concatenate([p.number for p in pieces]) if pieces else np.empty(0)
    return _Table(line, numbers, columns)


def _decode_all(raw: npt.NDArray[np.bytes_]) -> list[str]:
    """Decode many ids at once (each as :func:`_text` would)."""
    tokens: list[bytes] = raw.tolist()
    try:
        return b"\n".join(tokens).decode("utf-8").split("\n") if tokens else []
    except UnicodeDecodeError:
        return [_text(t) for t in tokens]


def _union(a: _Column, b: _Column) -> tuple[IntArray, IntArray, npt.NDArray[np.bytes_]] | None:
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


class Run:
    """A run file's columns: query, source, score (and each row's line).

    Read column-wise with numpy when every line is regular; any irregular
    file is read line by line, so messages name the line.
    """

    def __init__(self, path: str | Path, *, threads: int = 2) -> None:
        path = Path(path)
        self.path = path
        self.tag = ""
        self._table = _scan(path, 6, (0, 2), 4, threads)
        self._query: list[str] | None = None
        self._source: list[str] | None = None
        if self._table is not None:
            self.score: FloatArray = self._table.number
            self.line: npt.NDArray[np.int32 | np.int64] = self._table.line
        else:
            query: list[str] = []
            source: list[str] = []
            score = array("d")
            line = array("q")
            self._read_lines(_read_bytes(path), query, source, score, line)
            self._query, self._source = query, source
            self.score = np.frombuffer(score, dtype=np.float64)
            self.line = np.frombuffer(line, dtype=np.int64)

    @property
    def query(self) -> list[str]:
        """Each row's query id."""
        if self._query is None:
            assert self._table is not None
            column = self._table.columns[0]
            ids = np.array(_decode_all(column.raw), dtype=object)
            self._query = ids[column.code].tolist()
        return self._query

    @property
    def source(self) -> list[str]:
        """Each row's source id."""
        if self._source is None:
            assert self._table is not None
            column = self._table.columns[1]
            ids = np.array(_decode_all(column.raw), dtype=object)
            self._source = ids[column.code].tolist()
        return self._source

    def _read_lines(self, raw: bytes, query: list[str], source: list[str], score: array[float],
                    line: array[int]) -> None:
        name = str(self.path)
        queries: dict[bytes, str] = {}
        q_app, s_app, sc_app, l_app = query.append, source.append, score.append, line.append
        for line_no, text in enumerate(raw.splitlines(), start=1):
            parts = text.split()
            if not parts:
                continue
            if len(parts) != 6:
                raise InputError(
                    f"expected 6 fields (query Q0 source rank score tag), found {len(parts)}",
                    file=name, line=line_no,
                )
            try:
                value = float(parts[4])
            except ValueError:
                value = math.nan
            if not math.isfinite(value):
                raise InputError(
                    f"{_text(parts[4])!r} is not a finite number", file=name, line=line_no,
                    column="score (field 5)",
                )
            qb = parts[0]
            q = queries.get(qb)
            if q is None:
                q = queries[qb] = _text(qb)
            q_app(q)
            s_app(_text(parts[2]))
            sc_app(value)
            l_app(line_no)


def read_run(path: str | Path) -> Run:
    return Run(path)


class QrelsColumns:
    """A qrels file read once, column-wise, for joining with several runs:
    :func:`document_from_trec` takes it in place of the path (a file the
    column-wise reader cannot take is read line by line at each join)."""

    def __init__(self, path: str | Path, *, threads: int = 2) -> None:
        self.path = Path(path)
        self._table = _scan(self.path, 4, (0, 2), 3, threads)


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
            table = _scan(qrels_path, 4, (0, 2), 3)
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


def _join_columns(run: Run, rt: _Table, qt: _Table, qrels_path: Path,
                  conventions: Conventions | None, name: str, *,
                  release: bool = False) -> Document | None:
    """The join on integer codes; None where the line-by-line join must do it
    (two different ids that read as the same text, a key clash).

    The qrels' table is emptied as it is used, and so is the run's with
    ``release`` (a run read for this document only): less memory at the peak.
    """
    run_q, run_s = rt.columns
    qrels_q, qrels_s = qt.columns
    # A qrels file that judges a pair twice: the line reader names the lines.
    n_qs = max(qrels_s.key.size, 1)
    pair = qrels_q.code * np.int64(n_qs) + qrels_s.code
    if _has_repeat(pair, _cells(max(qrels_q.key.size, 1) * n_qs, pair.size)):
        read_qrels(qrels_path)
        return None  # pragma: no cover - read_qrels raised
    del pair
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
    query_ids = _decode_all(run_q.raw[kept])
    source_text = _decode_all(s_raw)
    if len(set(query_ids)) != len(query_ids) or len(set(source_text)) != len(source_text):
        return None  # different bytes, the same text (the cp1252 fallback)
    texts = np.empty(len(source_text), dtype=object)
    texts[:] = source_text
    del source_text
    to_doc = np.full(q_raw.size, -1, dtype=np.int64)
    to_doc[rq_map[kept]] = np.arange(kept.size)
    run_query = to_doc[rq_map][run_q.code]
    rows: IntArray | None = None
    if kept.size < run_q.key.size:
        rows = np.flatnonzero(run_query >= 0)
        run_query = run_query[rows]
    run_source = rs_map[run_s.code if rows is None else run_s.code[rows]]
    qrels_query = to_doc[qq_map][qrels_q.code]
    judged_rows = np.flatnonzero(qrels_query >= 0)
    qrels_query = qrels_query[judged_rows]
    qrels_source = qs_map[qrels_s.code[judged_rows]]
    grades = qt.number[judged_rows]
    del judged_rows, to_doc, run_q, run_s, qrels_q, qrels_s
    qt.columns.clear()
    if release:
        rt.columns.clear()
    n_run, n_qrels = run_query.size, qrels_query.size
    n_s = np.int64(max(s_raw.size, 1))
    run_key = run_query * n_s
    run_key += run_source
    qrels_key = qrels_query * n_s + qrels_source
    # Pairs as cells of a (query x source) table when that table is small;
    # otherwise sorted keys.
    cells = int(max(kept.size, 1) * n_s)
    table = _cells(cells, n_run + n_qrels)
    if _has_repeat(run_key, table):
        first, second = _first_repeat(run_key)
        line_rows = np.arange(len(run.line)) if rows is None else rows
        raise _duplicate_error(
            run, query_ids[int(run_query[second])], texts[run_source[second]],
            int(line_rows[first]), int(line_rows[second]),
        )
    # Each retrieved row's judgment: its qrels row where ``hit``.
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
    matched = match[hit]
    del match
    # Judged but not retrieved: query by query, in the qrels' order.
    extra = np.ones(n_qrels, dtype=bool)
    extra[matched] = False
    extra_rows = np.flatnonzero(extra)
    extra_rows = extra_rows[np.argsort(qrels_query[extra_rows], kind="stable")]
    total = n_run + extra_rows.size
    query = np.empty(total, dtype=np.int64)
    query[:n_run] = run_query
    query[n_run:] = qrels_query[extra_rows]
    del run_query
    source_code = np.empty(total, dtype=np.int64)
    source_code[:n_run] = run_source
    source_code[n_run:] = qrels_source[extra_rows]
    del run_source
    source_id = texts[source_code]
    score = np.empty(total, dtype=np.float64)
    score[:n_run] = run.score if rows is None else run.score[rows]
    score[n_run:] = np.nan
    if release:
        run.score = rt.number = np.empty(0)
    grade = np.full(total, np.nan)
    grade[np.flatnonzero(hit)] = grades[matched]
    grade[n_run:] = grades[extra_rows]
    del hit, matched, extra, extra_rows
    return Document.from_columns(
        query=query_ids,
        query_codes=query,
        source_id=source_id,
        source_codes=(source_code, texts),
        score=score,
        grade=grade,
        conventions=conventions,
        name=name,
        source=None,
        check=False,
        copy=False,
    )


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


def _write_lines(path: Path, lines: list[str]) -> None:
    atomic_write_text(Path(path), "".join(lines))


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else repr(float(x))


def write_qrels(doc: Document, path: str | Path) -> int:
    """Write the current numeric grades as qrels; returns the lines written.

    Unknown and unrateable grades are not judgments and are left out.
    """
    lines = [
        f"{doc.query_ids[int(doc.query[i])]} 0 {doc.source_id[i]} {_num(doc.grade[i])}\n"
        for i in range(len(doc))
        if doc.state[i] == GradeState.NUMBER
    ]
    _write_lines(Path(path), lines)
    return len(lines)


def write_run(doc: Document, path: str | Path, tag: str = "ndcg-worksheet") -> int:
    """Write the retrieved candidates as a run, ranked by score then row order."""
    lines = []
    for q in range(doc.n_queries):
        idx = doc.members(q)
        idx = idx[~np.isnan(doc.score[idx])]
        idx = idx[np.argsort(-doc.score[idx], kind="stable")]
        for r, i in enumerate(idx, start=1):
            lines.append(
                f"{doc.query_ids[q]} Q0 {doc.source_id[i]} {r} {float(doc.score[i])!r} {tag}\n"
            )
    _write_lines(Path(path), lines)
    return len(lines)
