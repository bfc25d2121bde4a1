"""The fast reader of worksheet CSV/TSV files: a whole file column-wise with numpy.

The careful reader (:mod:`core.io.delimited`) goes through the csv module
and Python lists: ~25 s and 1.6 GiB for a 2,100,000-row worksheet. This
reader takes the file's text (decoded by the careful reader's rules, so
encodings, byte order marks and bad bytes are handled once) as UTF-8 bytes
and reads the rows the way :mod:`core.io.trec.scan` reads a TREC file: in
pieces of whole lines, each piece's fields found from its delimiters and
line breaks with numpy, numbers parsed in bulk, query ids coded, source ids
kept as bytes (:class:`~core.model.ids.IdBytes`).

It reads only what it can read exactly as the careful reader does, and
returns None for anything else, which the careful reader then reads (and
names the file, line and column of any problem): a quoted cell running over
a line break or holding the delimiter in an id or a number (a line holding
a quote is read by the csv module, alone: there are few), a lone carriage
return, a blank line, a row with another number of fields than the header,
an empty or padded id or one starting with an apostrophe (the CSV rule of
:func:`core.reports.text.unprotect`), a field longer than the csv module
takes, a number outside the one grammar or not finite, a grade that is
neither a number nor ``unknown``/``unrateable``, a repeated (query, source)
pair. ``tests/test_sheet_scan.py`` checks that both readers give the same
document.
"""

from __future__ import annotations

import csv
from collections import deque
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor

import numpy as np
import numpy.typing as npt

from core.io.stop import check as check_stopped
from core.io.trec import alloc
from core.io.trec.columns import Column, Columns, FloatArray, IntArray, Piece
from core.io.trec.join import first_repeat, pair_keys
from core.io.trec.scan import (
    MAX_WIDTH,
    arena_of,
    chunk_words,
    code_keys,
    decode_all,
    gather,
    padded_keys,
    parse_numbers,
)
from core.model.conventions import Conventions
from core.model.document import Document, GradeState
from core.model.ids import IdBytes, row_keys
from core.reports.text import unprotect, unprotect_all

__all__ = ["TEXT_FIELDS", "scan_sheet"]

#: A piece of about this many bytes is read at a time.
_CHUNK = 1 << 20
#: The longest field the careful reader takes (the csv module's limit).
_MAX_FIELD = csv.field_size_limit()
#: The text columns read as Python text, and whether each is trimmed
#: (as the careful reader reads them).
TEXT_FIELDS = {"version": True, "note": False, "reason": True}
#: The grade words (lower case) and their states; an empty grade is unknown.
_WORDS = {b"unknown": GradeState.UNKNOWN, b"unrateable": GradeState.UNRATEABLE}
_WORD_WIDTH = 16


class _SheetPiece(Piece):
    """A piece's rows: the TREC piece's (scores as its numbers, query ids,
    source ids) and the grades, their states and the text columns."""

    def __init__(self, n_rows: int) -> None:
        super().__init__(None, n_rows, n_rows)
        self.grade = np.empty(0, dtype=np.float64)
        self.state = np.empty(0, dtype=np.int8)
        self.texts: dict[str, tuple[IntArray, list[str]] | None] = {}


def _pieces(data: bytes, start: int) -> Iterator[bytes]:
    """``data[start:]`` in pieces of whole lines (``data`` ends with ``\\n``)."""
    while start < len(data):
        cut = data.rfind(b"\n", start, start + _CHUNK) + 1
        if cut <= start:
            cut = data.index(b"\n", start) + 1
        yield data[start:cut]
        start = cut


def _fields(b: npt.NDArray[np.uint8], delim: int,
            width: int) -> tuple[IntArray, IntArray, int] | None:
    """Each field's start and end (row by row) and the number of rows; None
    unless every line holds ``width`` fields."""
    seps = np.flatnonzero((b == delim) | (b == 10))
    n_rows = int(np.count_nonzero(b[seps] == 10))
    if (seps.size != n_rows * width
            or not bool(np.all(b[seps[width - 1::width]] == 10))):
        return None
    starts = np.empty(seps.size, dtype=np.int64)
    starts[0] = 0
    starts[1:] = seps[:-1] + 1
    if int((seps - starts).max()) > _MAX_FIELD:
        return None
    return starts, seps, n_rows


def _texts(b: npt.NDArray[np.uint8], start: IntArray,
           length: IntArray) -> tuple[IntArray, list[str]] | None:
    """The rows whose field is not empty and their text (None when all are
    empty): those fields' bytes gathered back to back, each followed by
    ``\\n`` (no field holds one), decoded once."""
    rows = np.flatnonzero(length)
    if not rows.size:
        return None
    start, length = start[rows], length[rows]
    size = length + 1
    out_start = np.cumsum(size) - size
    joined = b[np.arange(int(size.sum())) - np.repeat(out_start - start, size)]
    joined[out_start + length] = 10
    return rows, joined.tobytes().decode("utf-8").split("\n")[:-1]


def _grades(words: npt.NDArray[np.uint64], start: IntArray,
            length: IntArray) -> tuple[FloatArray, npt.NDArray[np.int8]] | None:
    """The grades and their states (numbers, ``unknown``, ``unrateable``,
    empty: unknown; the words in any case); None for anything else."""
    longest = int(length.max())
    if longest > MAX_WIDTH:
        return None
    m = gather(words, start, length, max(-(-longest // 8) * 8, _WORD_WIDTH))
    upper = (m >= 65) & (m <= 90)
    low = m | (upper.astype(np.uint8) << 5)
    text = low.view(f"S{m.shape[1]}").ravel()
    state = np.full(length.size, GradeState.NUMBER, dtype=np.int8)
    state[length == 0] = GradeState.UNKNOWN
    for word, st in _WORDS.items():
        state[text == word] = st
    grade = np.full(length.size, np.nan)
    number = np.flatnonzero(state == GradeState.NUMBER)
    if number.size:
        values = parse_numbers(m[number])
        if values is None:
            return None
        grade[number] = values
    return grade, state


def _scores(words: npt.NDArray[np.uint64], start: IntArray, length: IntArray) -> FloatArray | None:
    """The scores (NaN where empty); None for a field that is not a finite number."""
    score = np.full(length.size, np.nan)
    given = np.flatnonzero(length)
    if given.size:
        longest = int(length[given].max())
        if longest > MAX_WIDTH:
            return None
        values = parse_numbers(gather(words, start[given], length[given], -(-longest // 8) * 8))
        if values is None:
            return None
        score[given] = values
    return score


def _ids(piece: _SheetPiece, words: npt.NDArray[np.uint64], query: tuple[IntArray, IntArray],
         source: tuple[IntArray, IntArray], ascii: bool) -> bool:
    """The piece's query ids coded and its source ids as bytes with keys;
    False for an empty or very long id or two query ids sharing a key."""
    (qs, ql), (ss, sl) = query, source
    if not (ql.all() and sl.all()):
        return False
    longest_q, longest_s = int(ql.max()), int(sl.max())
    if max(longest_q, longest_s) > MAX_WIDTH:
        return False
    width = -(-longest_q // 8) * 8
    m = gather(words, qs, ql, width)
    uniq, first, code = code_keys(padded_keys(m))
    if width > 8 and not np.array_equal(m, m[first][code]):
        return False  # two query ids share a key: rare; the careful reader is exact
    piece.code = code.astype(np.int32)
    piece.key = uniq
    piece.raw = m[first].view(f"S{width}").ravel()
    piece.first = first.astype(np.int64, copy=False)
    m = gather(words, ss, sl, -(-(longest_s + 1) // 8) * 8)
    piece.source_key = row_keys(m)
    piece.arena = arena_of(m, sl)
    piece.length = sl.astype(np.int32)
    piece.ascii = ascii
    return True


def _read_piece(chunk: bytes, delim: int, width: int,
                cols: dict[str, int]) -> _SheetPiece | None:
    """One piece's columns; None where the careful reader must look."""
    b = np.frombuffer(chunk, dtype=np.uint8)
    found = _fields(b, delim, width)
    if found is None:
        return None
    starts, ends, n_rows = found

    def field(name: str) -> tuple[IntArray, IntArray]:
        s = starts[cols[name]::width]
        return s, ends[cols[name]::width] - s

    piece = _SheetPiece(n_rows)
    words = chunk_words(chunk)
    if not _ids(piece, words, field("query"), field("source_id"), chunk.isascii()):
        return None
    score = _scores(words, *field("score"))
    grades = _grades(words, *field("grade"))
    if score is None or grades is None:
        return None
    piece.number = score
    piece.grade, piece.state = grades
    for name in TEXT_FIELDS:
        if name in cols:
            piece.texts[name] = _texts(b, *field(name))
    return piece


def _scan(data: bytes, start: int, delim: int, width: int,
          cols: dict[str, int]) -> tuple[Columns, list[_SheetPiece]] | None:
    """Every piece read (two at once: numpy lets go of the interpreter
    lock), their TREC columns joined as the TREC reader joins them; the
    pieces keep their grades and texts."""
    alloc.tune()
    columns = Columns(len(data) - start)
    kept: list[_SheetPiece] = []
    with ThreadPoolExecutor(max_workers=2) as pool:
        pending: deque[Future[_SheetPiece | None]] = deque()
        chunks = _pieces(data, start)
        sizes: deque[int] = deque()
        while True:
            check_stopped()  # a read stopped from another thread ends here (core.io.stop)
            while len(pending) < 2:
                chunk = next(chunks, None)
                if chunk is None:
                    break
                pending.append(pool.submit(_read_piece, chunk, delim, width, cols))
                sizes.append(len(chunk))
            if not pending:
                break
            piece = pending.popleft().result()
            size = sizes.popleft()
            if piece is None:
                for other in pending:
                    other.cancel()
                return None
            columns.add(piece, size, columns.rows)
            piece.arena = np.empty(0, dtype=np.uint8)  # copied into the columns
            piece.number = np.empty(0)
            kept.append(piece)
    return columns, kept


def _joined_texts(pieces: list[_SheetPiece], name: str,
                  held: str | None) -> npt.NDArray[np.object_] | None:
    """A text column over every piece, by the CSV rule (None when empty in
    all); ``held``: the delimiter that :data:`_HELD` stands for. Only the
    cells not empty are made text (a note column is mostly empty)."""
    parts = [p.texts.get(name) for p in pieces]
    if all(part is None for part in parts):
        return None
    rows: list[IntArray] = []
    texts: list[str] = []
    at = 0
    for p, part in zip(pieces, parts, strict=True):
        if part is not None:
            rows.append(part[0] + at)
            texts += part[1]
        at += p.n_rows
    if held is not None:
        texts = [t.replace(_HELD, held) if _HELD in t else t for t in texts]
    out = np.empty(at, dtype=object)
    out.fill("")
    out[np.concatenate(rows)] = unprotect_all(texts, trim=TEXT_FIELDS[name])
    return out


def _query_ids(table_query: Column) -> tuple[list[str], IntArray] | None:
    """The distinct query ids in the order first seen and each row's code
    among them; None for an id the CSV rule would change."""
    order = np.argsort(table_query.first, kind="stable")
    to_doc = np.empty(order.size, dtype=np.int64)
    to_doc[order] = np.arange(order.size)
    query_ids = decode_all(table_query.raw[order])
    if any(unprotect(q) != q for q in query_ids):
        return None
    return query_ids, to_doc[table_query.code]


def _plain_ids(ids: IdBytes) -> bool:
    """Whether every source id reads back as itself by the CSV rule (no
    apostrophe in front, no white space at either end): only the ids whose
    first or last byte might say otherwise are decoded to look."""
    first = ids.arena[ids.offset[:-1]]
    last = ids.arena[ids.offset[1:] - 2]
    odd = (first == 39) | (first <= 32) | (first >= 128) | (last <= 32) | (last >= 128)
    rows = np.flatnonzero(odd)
    return not rows.size or all(unprotect(t) == t for t in ids.texts(rows))


#: Stands for the delimiter inside a quoted text cell (a file's text holds no NUL).
_HELD = "\0"
#: The fields whose text may hold the delimiter (the rest are ids and numbers).
_FREE = frozenset(TEXT_FIELDS)


def _unquote(data: bytes, delimiter: str, cols: dict[str, int], width: int) -> bytes | None:
    """``data`` with each line holding a quote written again without quotes
    (those lines read by the csv module, as the careful reader reads them;
    a delimiter inside a text cell held as :data:`_HELD`); None when a
    quoted cell runs over a line break, a line is not one whole record of
    ``width`` fields, or an id or number holds the delimiter."""
    b = np.frombuffer(data, dtype=np.uint8)
    ends = np.flatnonzero(b == 10)
    lines = np.unique(np.searchsorted(ends, np.flatnonzero(b == 34)))
    lo = np.zeros(lines.size, dtype=np.int64)
    lo[lines > 0] = ends[lines[lines > 0] - 1] + 1
    hi = ends[lines]
    texts = b"\n".join([data[a:z] for a, z in zip(lo.tolist(), hi.tolist(), strict=True)])
    try:
        # One record a line, or a quoted cell ran over a line break.
        rows = list(csv.reader(texts.decode("utf-8").split("\n"), delimiter=delimiter,
                               strict=True))
    except csv.Error:
        return None  # text after a closing quote, a quote never closed
    fixed = [i for f, i in cols.items() if f not in _FREE]
    out = []
    for row in rows:
        line = delimiter.join(row)
        if len(row) != width:
            return None
        if line.count(delimiter) != width - 1:  # a cell holds the delimiter
            if any(delimiter in row[i] for i in fixed):
                return None
            line = delimiter.join([c.replace(delimiter, _HELD) for c in row])
        out.append(line)
    if len(out) != lines.size:
        return None
    parts: list[bytes] = []
    at = 0
    for a, z, line_bytes in zip(lo.tolist(), hi.tolist(),
                                "\n".join(out).encode("utf-8").split(b"\n"), strict=True):
        parts += [data[at:a], line_bytes]
        at = z
    parts.append(data[at:])
    return b"".join(parts)


def scan_sheet(text: str, delimiter: str, header: list[str], cols: dict[str, int], *,
               conventions: Conventions | None, name: str, stem: str) -> Document | None:
    """The worksheet of ``text`` (its first line the ``header``, already
    checked; ``cols`` its fields' columns), or None where the careful
    reader must read it (see the module)."""
    data = text.encode("utf-8")
    if b"\r" in data:
        if data.count(b"\r") != data.count(b"\r\n"):
            return None
        data = data.replace(b"\r\n", b"\n")
    if not data.endswith(b"\n"):
        data += b"\n"
    elif data.endswith(b"\n\n"):  # blank lines at the end (the careful reader skips them)
        data = data.rstrip(b"\n") + b"\n"
    start = data.find(b"\n") + 1
    if start >= len(data) or len(delimiter.encode("utf-8")) != 1:
        return None  # no rows: nothing to gain
    held = b'"' in data
    if held:
        unquoted = _unquote(data, delimiter, cols, len(header))
        if unquoted is None:
            return None
        data = unquoted
    got = _scan(data, start, ord(delimiter), len(header), cols)
    del data
    if got is None:
        return None
    columns, pieces = got
    table = columns.finish()
    if table is None:
        return None  # two query ids share a key
    queries = _query_ids(table.query)
    if queries is None or not _plain_ids(table.source):
        return None
    query_ids, query = queries
    if first_repeat(pair_keys(query, table.source_key), query, table.source) is not None:
        return None  # a pair twice (or a key clash): the careful reader says where
    state = np.concatenate([p.state for p in pieces])
    doc = Document.from_columns(
        query=query_ids, query_codes=query, source_id=table.source, score=table.number,
        grade=np.concatenate([p.grade for p in pieces]), state=state,
        conventions=conventions, name=stem, source=name, check=False, copy=False,
    )
    kept = delimiter if held else None
    for field in TEXT_FIELDS:  # made here, as object arrays: not a list of 2M texts first
        column = _joined_texts(pieces, field, kept) if field in cols else None
        if column is not None:
            if field == "reason":  # a reason is kept for grades that are not numbers only
                column[state == GradeState.NUMBER] = ""
            setattr(doc, field, column)
    return doc
