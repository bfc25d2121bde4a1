"""The fast reader of TREC files: a whole file column-wise with numpy.

A file is read in pieces of whole lines; each piece's tokens are found
(:func:`_plain_tokens` for the usual layout, else :func:`_tokens`), numbers
parsed in bulk from fixed-width rows of bytes (:func:`gather`,
:func:`parse_numbers`), query ids coded by a 64-bit key (:func:`padded_keys`), and
source ids, nearly one per row, kept as bytes back to back
(:class:`~core.model.ids.IdBytes`) with a 64-bit key each
(:func:`_source_keys`). Any irregular file (a wrong number of fields, a bad
number, a zero byte, a very long token, two query ids sharing a key) is
left to the line-by-line reader, which names the line: :func:`scan_file`
then returns None.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from itertools import chain
from pathlib import Path

import numpy as np
import numpy.typing as npt

from core.io.files import open_input, unreadable
from core.io.stop import check as check_stopped
from core.io.trec import alloc
from core.io.trec.columns import Column, Columns, FloatArray, IntArray, Piece, Room, Table, U64Array
from core.io.trec.text import BOM, check_head, decode, refuse_nul
from core.model.ids import row_keys

#: The scanner's steps are public: the annotators' sheet scanner
#: (:mod:`core.io.sheet_scan`) reads its cells with the same ones.
__all__ = [
    "MAX_WIDTH", "Column", "FloatArray", "IntArray", "Table", "arena_of", "chunk_words",
    "code_keys", "decode_all", "gather", "padded_keys", "parse_numbers", "scan_file",
    "scan_part", "tag_ends",
]

#: The bytes ``bytes.split()`` treats as whitespace.
_WORD = bytes(0 if i in b" \t\n\r\x0b\x0c" else 1 for i in range(256))
#: The fast reader works through a file in pieces of about this many bytes.
_CHUNK = 1 << 20
#: A fast reader's field is copied into rows of this many bytes at most (a
#: longer id sends the whole file to the line-by-line reader).
MAX_WIDTH = 512
_POW10 = 10.0 ** np.arange(16)
_POW10_INT = 10 ** np.arange(9, dtype=np.uint64)
#: :func:`_eight_digits`' constants (from fast_float).
_BYTE = np.uint64(8)
_PAIRS = np.uint64(0x000000FF000000FF)
_TIMES_HIGH = np.uint64(100 + (1000000 << 32))
_TIMES_LOW = np.uint64(1 + (10000 << 32))
#: The bytes a number token may hold (zero bytes pad the token).
_NUMBER_BYTE = np.zeros(256, dtype=bool)
_NUMBER_BYTE[list(b"0123456789.eE+-\x00")] = True
_MIX = np.uint64(0x9E3779B97F4A7C15)
#: :func:`parse_numbers`' plain decimals: each token's digits as an integer,
#: the power of ten it is divided by, whether it is plain, and which tokens
#: start with ``-`` (None if none does).
Decimals = tuple[U64Array, IntArray, npt.NDArray[np.bool_], npt.NDArray[np.bool_] | None]
#: Each row's code among a piece's distinct tokens.
CodeArray = npt.NDArray[np.int32] | IntArray
#: A file's fields for :func:`_read_piece`: how many, the query's, the
#: source's, the number's, and the tag every line ends in (b"" for none).
Fields = tuple[int, int, int, int, bytes]
#: A file's number of fields and tag told by its first piece (a run's
#: layout: :func:`core.io.trec.read.layout_of`).
FieldsOf = Callable[[bytes], tuple[int, bytes]]



def _pieces(path: Path, start: int = 0, end: int | None = None) -> Iterator[bytes]:
    """The file (its bytes from ``start`` up to ``end``, both at the start
    of a line) in pieces of whole lines (a piece never splits ``\\r\\n``);
    :class:`core.io.stop.Stopped` before the next piece of a stopped read."""
    fh = open_input(path)  # a regular file only: a FIFO or a device is refused
    with fh:
        rest = b""
        first = not start
        left = -1 if end is None else end - start
        at = start  # where the next piece starts in the file
        if start:  # a child's share of a plain file (a decompressed one has no seek)
            fh.seek(start)
        while True:
            check_stopped()  # a read stopped from another thread ends here (core.io.stop)
            try:
                piece = fh.read(_CHUNK if left < 0 else min(_CHUNK, left))
            except OSError as exc:
                raise unreadable(path, exc) from exc
            if left >= 0:
                left -= len(piece)
            if first:
                check_head(piece, path)
            if b"\0" in piece:  # (memchr: ~3 ms over the 2M run's 70 MB)
                refuse_nul(path, at + piece.index(b"\0"))
            at += len(piece)
            if first:
                if piece.startswith(BOM):
                    piece = piece[len(BOM):]
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
#: :func:`gather`'s columns: ``_LOW_AT[j][n]`` keeps the bytes of a token
#: ``n`` bytes long that fall in its ``j``-th word, and ``_NEWLINE_AT[j][n]``
#: is ``\n`` at the byte after it if that byte is in the word (tables by
#: length: one lookup instead of a subtraction, a clip and a lookup).
_LOW_AT = np.stack([_LOW[np.clip(np.arange(MAX_WIDTH + 1) - 8 * j, 0, 8)] for j in range(6)])
_NEWLINE_AT = np.stack([
    np.where((np.arange(MAX_WIDTH + 1) >= 8 * j) & (np.arange(MAX_WIDTH + 1) < 8 * j + 8),
             np.uint64(10) << (8 * (np.arange(MAX_WIDTH + 1) % 8)).astype(np.uint64),
             np.uint64(0)).astype(np.uint64) for j in range(7)])


def chunk_words(chunk: bytes) -> npt.NDArray[np.uint64]:
    """Every 8-byte window of ``chunk`` as a little-endian word (a view: entry
    ``i`` is bytes ``i .. i+7``; the chunk is padded with zero bytes)."""
    padded = chunk + bytes(MAX_WIDTH + 16)
    return np.ndarray(shape=(len(padded) - 7,), dtype="<u8", buffer=padded, strides=(1,))


def gather(words: npt.NDArray[np.uint64], start: IntArray, length: IntArray,
           width: int) -> npt.NDArray[np.uint8]:
    """Tokens copied into rows of ``width`` bytes, padded with zero bytes.

    Up to 48 bytes, one 8-byte column of rows at a time (a one-dimensional
    gather per column is numpy's fast path: ~3x faster than one gather by a
    two-dimensional index at width 16, ~1.5x at 48), each column read from
    the words 8 bytes on (a view: no index added) and masked by the
    tokens' lengths (:data:`_LOW_AT`); one column is the gather itself, not
    a copy of it. Wider, every row's words in one gather (faster from 64
    bytes on).
    """
    if width > 48:
        steps = np.arange(0, width, 8)
        wide = words[(start[:, None] + steps).ravel()]
        left = (length[:, None] - steps).ravel()
        np.clip(left, 0, 8, out=left)
        wide &= _LOW[left]
        rows: npt.NDArray[np.uint8] = wide.view(np.uint8).reshape(start.size, width)
        return rows
    if width == 8:
        column = words[start]
        column &= _LOW_AT[0][length]
        return column.view(np.uint8).reshape(start.size, 8)
    out = np.empty((start.size, width // 8), dtype=np.uint64)
    for j in range(width // 8):
        column = out[:, j]
        column[...] = words[8 * j:][start]
        column &= _LOW_AT[j][length]
    return out.view(np.uint8).reshape(start.size, width)


def parse_numbers(m: npt.NDArray[np.uint8], length: IntArray | None = None) -> FloatArray | None:
    """Parse fixed-width number tokens (``length`` bytes each, if known) as
    Python's ``float`` would.

    Plain decimals of at most 15 digits are computed exactly with numpy
    (integer digits / a power of ten: both exact, one correctly rounded
    division); the rest go through ``float``. None if a token is not a finite
    number.
    """
    width = m.shape[1]
    if width == 8 and length is not None and length.size and int(length.max()) == 1:
        # One byte each (a qrels' grades, nearly always): a digit's value
        # as it stands, 0.85 -> 0.07 ms for 65,000 grades.
        digit = m.view(np.uint64)[:, 0] - np.uint64(48)
        if bool((digit < 10).all()):
            single: FloatArray = digit.astype(np.float64)
            return single
    digits, power, plain, negative = (_one_word(m, length) if width == 8
                                      else _plain_decimals(m))
    value = digits.astype(np.float64)
    value /= _POW10[power]
    if negative is not None:
        value[negative] *= -1.0
    if plain.all():
        return value  # finite: at most 15 digits over a power of ten
    other_rows = np.flatnonzero(~plain)
    # The one number grammar (core.model.numbers.read_number): numpy, as
    # float, takes '1_0', 'nan' and 'infinity'; leave anything but digits,
    # '.', 'e', 'E', '+' and '-' to the line-by-line reader.
    tokens = m[other_rows]
    if not np.all(_NUMBER_BYTE[tokens]):
        return None
    try:
        other = tokens.view(f"S{width}").ravel().astype(np.float64)
    except ValueError:
        return None
    if not np.all(np.isfinite(other)):
        return None
    value[other_rows] = other
    return value


def _one_word(m: npt.NDArray[np.uint8], length: IntArray | None) -> Decimals:
    """:func:`_plain_decimals` for tokens of at most 8 bytes (a run's
    scores, a qrels' grades), in fewer passes: each token's digits closed up
    over its dot and read as one eight-digit number, ``N * 10**(8 - d)`` for
    ``N`` written in ``d`` digits, and the power of ten it is then divided by,
    ``8 - d`` + the digits after the dot: the same quotient of the same
    exact integers, so the same double. A token is plain when each of its
    bytes is a digit, its one dot or a leading sign (counted, against its
    length, instead of looking for other bytes). 0.35 -> 0.24 ms for a run
    piece's 30,000 scores; the first byte read from the words (a strided
    column of bytes compares at half the speed).
    """
    value = m - np.uint8(48)
    digit = value < 10
    value *= digit  # the digits' values, 0 elsewhere
    dot = m == 46
    x, dots = value.view(np.uint64)[:, 0], dot.view(np.uint64)[:, 0]
    n_digits = np.bitwise_count(digit.view(np.uint64)[:, 0])
    n_dots = np.bitwise_count(dots)
    before = dots - np.uint64(1)  # the bytes before the dot (all if none)
    low = x & before
    x -= low  # the bytes from the dot on (the dot is 0), closed up over it
    x >>= _BYTE
    x += low
    first = m.view(np.uint64)[:, 0] & np.uint64(0xFF)
    negative = first == 45
    signed = negative | (first == 43)
    sign = signed.view(np.uint8)
    any_sign = bool(signed.any())
    if any_sign:
        x >>= sign.astype(np.uint64) << np.uint64(3)
    if length is None:  # tokens hold no zero byte: their other bytes pad them
        length = np.bitwise_count((m != 0).view(np.uint64)[:, 0]).astype(np.int64)
    plain = n_digits + n_dots + sign == length
    plain &= n_dots <= 1
    plain &= n_digits != 0
    # The dot's byte (the token's end if none); the sign's byte is no digit.
    power = np.minimum(np.bitwise_count(before) >> np.uint8(3), length)
    np.subtract(8, power, out=power)
    power += sign
    return _eight_digits(x), power, plain, negative if bool(negative.any()) else None


def _plain_decimals(m: npt.NDArray[np.uint8]) -> Decimals:
    """Each token (a row of ``m``) read as a plain decimal: its digits as an
    integer, how many of them follow its dot, whether it is one (an
    optional sign, 1 to 15 digits, at most one dot; the integer is then
    exact) and whether it starts with ``-`` (None if none does).

    Eight bytes at a time, as words: a word's digits are closed up over its
    dot (and the sign) and read by :func:`_eight_digits`. A few operations on
    whole words instead of a dozen per byte column: 0.65 -> 0.46 ms for a
    run piece's 30,000 scores.
    """
    value = m - np.uint8(48)
    digit = value < 10
    dot = m == 46
    first = m[:, 0]
    signed = (first == 45) | (first == 43)
    any_sign = bool(signed.any())  # scores seldom have one, grades never
    stray = m != 0  # neither a digit, a dot, a leading sign nor padding
    stray &= ~digit
    stray &= ~dot
    if any_sign:
        stray[:, 0] &= ~signed
    value &= np.negative(digit.view(np.uint8))  # the digits' values, 0 elsewhere
    # Flags become words too: byte k of a word is 1 where byte k is flagged.
    values, digits, dots, strays = (a.view(np.uint64) for a in (value, digit, dot, stray))
    number, count, at = _word_digits(values[:, 0], digits[:, 0], dots[:, 0],
                                     signed if any_sign else None)
    n_digits, dot_at = count.astype(np.intp), at.astype(np.intp)
    n_dots = np.bitwise_count(dots[:, 0])
    bad = strays[:, 0] != 0
    for j in range(1, values.shape[1]):
        x, count, at = _word_digits(values[:, j], digits[:, j], dots[:, j], None)
        number *= _POW10_INT[count.astype(np.intp)]
        number += x
        n_digits += count
        n_dots += np.bitwise_count(dots[:, j])
        dot_at = np.where(at < 8, at.astype(np.intp) + 8 * j, dot_at)
        bad |= strays[:, j] != 0
    plain = ~bad & (n_dots <= 1) & (n_digits >= 1) & (n_digits <= 15)
    # The bytes after the dot are digits: the token's length less the dot's place.
    after_dot = n_digits + signed - dot_at
    after_dot[n_dots != 1] = 0
    np.clip(after_dot, 0, 15, out=after_dot)
    negative = first == 45
    return number, after_dot, plain, negative if any_sign and bool(negative.any()) else None


def _word_digits(values: U64Array, digits: U64Array, dots: U64Array,
                 signed: npt.NDArray[np.bool_] | None
                 ) -> tuple[U64Array, npt.NDArray[np.uint8], npt.NDArray[np.uint8]]:
    """One word of each token: the number its digits write, how many digits
    it holds and its dot's byte (8 if none). ``values``: the digits' values
    (0 elsewhere); ``digits``, ``dots``: 1 in each flagged byte; ``signed``:
    the rows whose first byte (in this word) is a sign."""
    count = np.bitwise_count(digits)
    before = dots - np.uint64(1)  # the bytes before the word's dot (all if none)
    x = values & before
    x |= (values >> _BYTE) & ~before
    if signed is not None:
        x >>= signed.astype(np.uint64) << np.uint64(3)
    # The word's digits last, the most significant first.
    x <<= ((np.uint8(64) - (count << np.uint8(3))) & np.uint8(63)).astype(np.uint64)
    at = np.bitwise_count(before) >> np.uint8(3)
    return _eight_digits(x), count, at


def _eight_digits(x: U64Array) -> U64Array:
    """The numbers written by eight digit values in each word, byte 0 the
    most significant (fast_float's ``parse_eight_digits_unrolled``; numpy's
    unsigned arithmetic wraps as C's does)."""
    ten = x >> _BYTE  # x is the caller's temporary: worked in place
    x *= np.uint64(10)
    x += ten
    high = x & _PAIRS
    high *= _TIMES_HIGH
    x >>= np.uint64(16)
    x &= _PAIRS
    x *= _TIMES_LOW
    high += x
    high >>= np.uint64(32)
    return high


def padded_keys(m: npt.NDArray[np.uint8]) -> U64Array:
    """A 64-bit key per row of ``m``, the same whatever the padding (exact
    when a token holds at most 8 bytes).

    Tokens hold no zero byte, so a word is zero exactly when it is padding;
    padding words leave the key alone.
    """
    words = m.view(np.uint64)
    if words.shape[1] == 1:
        return words[:, 0]  # one word: the key is the token (a view)
    key = words[:, 0].copy()
    for j in range(1, words.shape[1]):
        word = words[:, j]
        mixed = (key ^ (key >> np.uint64(29))) * _MIX + word
        key = np.where(word != 0, mixed, key)
    return key


def code_keys(key: U64Array) -> tuple[U64Array, IntArray, CodeArray]:
    """Distinct keys (sorted), each one's first row, each row's code.

    Runs of equal keys (a run file lists a query's rows together) are
    coded once each (their codes int32 from the start).
    """
    n = key.size
    heads = np.flatnonzero(key[1:] != key[:-1]) + 1
    if 4 * heads.size < n:
        heads = np.concatenate((np.zeros(1, dtype=np.int64), heads))
        uniq, first, inverse = np.unique(key[heads], return_index=True, return_inverse=True)
        runs: CodeArray = np.repeat(inverse.astype(np.int32), np.diff(heads, append=n))
        return uniq, heads[first], runs
    uniq, first, code = np.unique(key, return_index=True, return_inverse=True)
    return uniq, first, code


def _plain_tokens(b: npt.NDArray[np.uint8],
                  n_fields: int) -> tuple[IntArray, IntArray, None, int] | None:
    """Token starts and ends and the number of lines, for the usual layout:
    one space between tokens, ``\n`` after the last of a line, no other
    whitespace or control byte, no blank lines (each row is then its own
    line). None otherwise (:func:`_tokens` then looks)."""
    gaps = np.flatnonzero(b <= 32)
    if not gaps.size or gaps[-1] != b.size - 1 or gaps[0] == 0:
        return None
    # Every n-th gap a \n and all the others spaces (counted over the whole
    # piece: quicker than looking up the gaps' bytes) leaves no other \n.
    n_lines = gaps.size // n_fields
    if (n_lines * n_fields != gaps.size
            or int(np.count_nonzero(b == 32)) != gaps.size - n_lines
            or not bool(np.all(b[gaps[n_fields - 1::n_fields]] == 10))
            or int((gaps[1:] - gaps[:-1]).min(initial=2)) == 1):  # two gaps side by side
        return None
    starts = np.empty(gaps.size, dtype=np.int64)
    starts[0] = 0
    np.add(gaps[:-1], 1, out=starts[1:])
    return starts, gaps, None, n_lines


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


def _source_keys(m: npt.NDArray[np.uint8]) -> U64Array:
    """The source ids' keys (:func:`core.model.ids.row_keys`)."""
    return row_keys(m)


def arena_of(m: npt.NDArray[np.uint8], length: IntArray) -> npt.NDArray[np.uint8]:
    """The tokens of ``m`` (rows of zero-padded bytes, at least one byte
    wider than the longest), each followed by ``\n``, back to back.

    The ``\n`` is or-ed into each column of words (:data:`_NEWLINE_AT`),
    then the padding deleted by ``bytes.translate`` (no token holds a zero
    byte): 0.49 -> 0.38 ms for a run piece's 30,000 source ids, against a
    two-dimensional scatter and numpy's boolean compress.
    """
    w = m.view(np.uint64)
    if w.shape[1] <= _NEWLINE_AT.shape[0]:
        for j in range(w.shape[1]):
            w[:, j] |= _NEWLINE_AT[j][length]
    else:
        m[np.arange(length.size), length] = 10
    return np.frombuffer(m.tobytes().translate(None, b"\0"), dtype=np.uint8)


#: What separates a run's tag from the score, and what ends its line, for
#: :func:`tag_ends` (others: the line-by-line reader).
_TAG_BEFORE = (b" ", b"\t")
_TAG_AFTER = (b"\n", b"\r")


def tag_ends(chunk: bytes, tag: bytes) -> int:
    """How many lines of ``chunk`` (whole lines) end in ``tag`` after a
    blank: ``\\n`` after a space (as ranx writes a run), and the other three
    pairs only in a piece holding a ``\\r`` or a tab. Each line end is counted
    once at most (the blank before the tag is a space or a tab, the byte
    after it a line end: ``\\r\\n`` is counted at its ``\\r``)."""
    rows = chunk.count(b" " + tag + b"\n")
    if b"\r" in chunk or b"\t" in chunk:
        rows += sum(chunk.count(b + tag + a) for b in _TAG_BEFORE for a in _TAG_AFTER
                    if (b, a) != (b" ", b"\n"))
    if not chunk.endswith(_TAG_AFTER) and chunk[-len(tag) - 1:-len(tag)] in _TAG_BEFORE:
        rows += chunk.endswith(tag)  # the file's last line, with no line break
    return rows


def _read_piece(chunk: bytes, n_fields: int, query_field: int, source_field: int,
                number_field: int, tag: bytes = b"") -> Piece | None:
    """Fields of one piece; None where the line-by-line reader must look
    (with ``tag``, a run's tag of several words, also where a line does not
    end in it)."""
    if b"\x00" in chunk:
        return None
    b = np.frombuffer(chunk, dtype=np.uint8)
    got: tuple[IntArray, IntArray, IntArray | None, int] | None = (
        _plain_tokens(b, n_fields) if b"\r" not in chunk else None)
    if got is None:
        word = np.frombuffer(chunk.translate(_WORD), dtype=np.bool_)
        got = _tokens(b, word, n_fields, b"\r" in chunk)
        if got is None:
            return None
    starts, ends, line, n_rows = got
    if line is not None:
        n_rows = line.size
    if tag and tag_ends(chunk, tag) != n_rows:
        return None
    piece = Piece(line, n_rows, got[3])
    words = chunk_words(chunk)
    for f in (number_field, query_field, source_field):
        s = starts[f::n_fields]
        length = ends[f::n_fields] - s
        longest = int(length.max()) if length.size else 1
        if longest > MAX_WIDTH:
            return None
        width = -(-longest // 8) * 8
        if f == source_field:
            m = gather(words, s, length, -(-(longest + 1) // 8) * 8)
            piece.source_key = _source_keys(m)
            piece.arena = arena_of(m, length)
            piece.length = length.astype(np.int32)
            piece.ascii = chunk.isascii()
            continue
        m = gather(words, s, length, width)
        if f == number_field:
            number = parse_numbers(m, length)
            if number is None:
                return None
            piece.number = number
            continue
        uniq, first, code = code_keys(padded_keys(m))
        if width > 8 and not np.array_equal(m, m[first][code]):
            return None  # two tokens share a key: rare; the slow path is exact
        piece.code = code.astype(np.int32, copy=False)
        piece.key = uniq
        piece.raw = m[first].view(f"S{width}").ravel()
        piece.first = first.astype(np.int64, copy=False)
    return piece


def scan_file(path: Path, n_fields: int, query_field: int, source_field: int,
              number_field: int, threads: int = 2,
              stop: threading.Event | None = None,
              pool: Executor | None = None,
              tail: tuple[int, Callable[[], Columns | None]] | None = None,
              tag: bytes = b"", fields_of: FieldsOf | None = None) -> Table | None:
    """Read a TREC file column-wise with numpy, a piece at a time (two
    pieces at once on ``threads`` threads, or on ``pool``'s: numpy lets go
    of the interpreter lock; a caller reading two files at once gives them
    one pool, or each one thread).

    Returns None when a line is irregular (a wrong number of fields, a bad
    number, a zero byte, a very long token): the line-by-line reader then
    reads the file and names the line. ``stop``, once set by another
    thread, ends the reading at the next piece (None is then returned).
    ``tail``: (``start``, ``rest``): only the bytes before ``start`` (the
    start of a line) are read here, on this thread; ``rest()`` then gives
    the columns of the others (:func:`scan_part`, read meanwhile by another
    process: :mod:`core.io.child`), or None when a line there is irregular.
    ``tag``: the words every line ends in after its other fields (a run's
    tag holding spaces: :func:`tag_ends`), else b"". ``fields_of``: the
    number of fields and the tag told by the file's first piece, in place of
    ``n_fields`` and ``tag`` (a run's layout, told by the bytes read anyway).
    """
    alloc.tune()
    try:
        size = path.stat().st_size
    except OSError:
        size = 0  # the reader names the problem
    columns = Columns(size)
    fields = (n_fields, query_field, source_field, number_field, tag)
    if tail is not None:
        lines = _scan_range(path, columns, fields, stop, 0, tail[0], fields_of)
        rest = None if lines is None else tail[1]()
        if lines is None or rest is None:
            return None
        columns.absorb(rest, lines)
        return columns.finish()
    if pool is not None:
        return _scan_on(pool, path, columns, fields, stop, fields_of)
    if threads > 1:
        with ThreadPoolExecutor(max_workers=threads) as own:
            return _scan_on(own, path, columns, fields, stop, fields_of)
    lines = _scan_range(path, columns, fields, stop, fields_of=fields_of)
    return None if lines is None else columns.finish()


def scan_part(path: Path, n_fields: int, query_field: int, source_field: int,
              number_field: int, start: int, room: Room | None = None,
              tag: bytes = b"") -> Columns | None:
    """The columns of a file's bytes from ``start`` (the start of a line) to
    its end, read on this thread, their line numbers counted from ``start``
    (for :func:`scan_file`'s ``tail``); None when a line is irregular. Their
    rows go into ``room`` where given (a child's, shared with the process
    that forked it); ``tag`` as :func:`scan_file`'s."""
    alloc.tune()
    try:
        size = path.stat().st_size
    except OSError:
        size = start  # the reader names the problem
    columns = Columns(max(size - start, 0), room)
    fields = (n_fields, query_field, source_field, number_field, tag)
    return None if _scan_range(path, columns, fields, None, start) is None else columns


def _told(chunks: Iterator[bytes], fields: Fields,
          fields_of: FieldsOf | None) -> tuple[Iterator[bytes], Fields]:
    """The pieces and ``fields``, their number of fields and tag told by the
    first piece where ``fields_of`` is given (:func:`scan_file`)."""
    if fields_of is None:
        return chunks, fields
    first = next(chunks, None)
    if first is None:
        return iter(()), fields
    n_fields, tag = fields_of(first)
    return chain((first,), chunks), (n_fields, *fields[1:4], tag)


def _scan_range(path: Path, columns: Columns, fields: Fields,
                stop: threading.Event | None, start: int = 0,
                end: int | None = None, fields_of: FieldsOf | None = None) -> int | None:
    """The file's pieces from ``start`` to ``end`` read on this thread into
    ``columns``: how many line breaks they hold; None when a line is
    irregular or ``stop`` is set."""
    base_line = 0
    chunks, fields = _told(_pieces(path, start, end), fields, fields_of)
    for text in chunks:
        if stop is not None and stop.is_set():
            return None
        one = _read_piece(text, *fields)
        if one is None:
            return None
        if one.n_rows:
            columns.add(one, len(text), base_line)
        base_line += one.n_breaks
        del one
    return base_line


def _scan_on(pool: Executor, path: Path, columns: Columns, fields: Fields,
             stop: threading.Event | None, fields_of: FieldsOf | None) -> Table | None:
    """:func:`scan_file`'s pieces read on ``pool``, two at a time, and
    copied into ``columns`` here in the file's order."""
    base_line = 0
    pending: deque[tuple[Future[Piece | None], int]] = deque()
    chunks, fields = _told(_pieces(path), fields, fields_of)
    try:
        while True:
            while len(pending) < 2:
                chunk = next(chunks, None)
                if chunk is None:
                    break
                pending.append((pool.submit(_read_piece, chunk, *fields), len(chunk)))
            if not pending:
                break
            job, piece_bytes = pending.popleft()
            piece = job.result()
            if piece is None or (stop is not None and stop.is_set()):
                return None
            if piece.n_rows:
                columns.add(piece, piece_bytes, base_line)
            base_line += piece.n_breaks
            del piece
    finally:
        for other, _ in pending:  # a shared pool runs on: leave it no work
            other.cancel()
    return columns.finish()


def decode_all(raw: npt.NDArray[np.bytes_]) -> list[str]:
    """Decode many ids at once (each as :func:`~core.io.trec.text.decode` would)."""
    tokens: list[bytes] = raw.tolist()
    try:
        return b"\n".join(tokens).decode("utf-8").split("\n") if tokens else []
    except UnicodeDecodeError:
        return [decode(t) for t in tokens]
