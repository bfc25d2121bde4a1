"""Ids kept as the bytes a file gave them, decoded only when asked.

A TREC run of millions of rows gives millions of source ids; as Python
strings they cost ~60 bytes and a fraction of a microsecond each, and
evaluating needs none of them: the join compares bytes and the trec_eval
tie order sorts them. :class:`IdBytes` holds them back to back in one byte
array (each one followed by ``\\n``), decodes them as the line-by-line
reader does (UTF-8, else Windows-1252) when a caller asks for text, and
works out from the bytes what the engine needs: their code-point order and
which rows hold the same id.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["IdBytes", "decode", "row_keys", "token_keys", "words"]

U8Array = npt.NDArray[np.uint8]
U64Array = npt.NDArray[np.uint64]
IntArray = npt.NDArray[np.int64]
#: Row numbers: int64, or int32 where the caller keeps them narrow.
Rows = npt.NDArray[np.int64] | npt.NDArray[np.int32]
#: Where each id starts: int32 while the bytes stay under :data:`_SMALL`
#: (4 bytes a row less: 8 MiB at 2M rows), else int64.
Offsets = npt.NDArray[np.int32 | np.int64]
BoolArray = npt.NDArray[np.bool_]

#: Zero bytes after the last id, so that any 8-byte word starting in an id
#: can be read (see :func:`words`).
PAD = 8
#: Ids of fewer bytes than this get int32 offsets (a word read at any of
#: them, and its place, stay below 2**31).
_SMALL = (1 << 31) - 64
#: ``LOW[i]`` keeps the first ``i`` bytes of a little-endian 8-byte word.
LOW = np.array([(1 << (8 * i)) - 1 for i in range(8)] + [(1 << 64) - 1], dtype=np.uint64)


def decode(b: bytes) -> str:
    """An id as text: UTF-8, else Windows-1252."""
    try:
        return b.decode("utf-8")
    except UnicodeDecodeError:
        return b.decode("cp1252", errors="replace")


def words(buffer: U8Array) -> U64Array:
    """Every 8-byte window of ``buffer`` as a little-endian word (a view:
    entry ``i`` is bytes ``i .. i+7``)."""
    return np.ndarray(shape=(max(buffer.size - 7, 0),), dtype="<u8", buffer=buffer.data,
                      strides=(1,))


#: Added to the ``j``-th 8-byte word of a token before it is mixed (so
#: the same bytes at another place mix differently).
_PLACE = np.arange(1, 65, dtype=np.uint64) * np.uint64(0xD6E8FEB86659FD93)
_C1, _C2 = np.uint64(0xFF51AFD7ED558CCD), np.uint64(0xC4CEB9FE1A85EC53)
#: Tokens keyed or compared at once (bounds the temporary arrays; of one
#: word each, :func:`_word_keys`, 8 bytes a token a temporary).
_BLOCK = 1 << 14
#: Tied rows :meth:`IdBytes.sort_descending` orders at once (about a block of
#: whole groups; the rounds' temporaries then take ~15 MB at most).
_SORT_BLOCK = 1 << 18


def row_keys(m: npt.NDArray[np.uint8]) -> U64Array:
    """A 64-bit key per row of ``m`` (a token's bytes, zero-padded to a
    multiple of 8): the sum of its 8-byte words each mixed with its place.
    Equal tokens get equal keys whatever the padding; different ones rarely
    do (compare the bytes to be sure).

    Up to 16 words a column of words at a time (2-5x faster than mixing the
    whole matrix and summing along its rows, which numpy does slowly for a
    few columns); wider, the whole matrix (faster for a few long ids).
    """
    w = m.view(np.uint64)
    if w.shape[1] > 16 or not w.shape[1]:
        whole: U64Array = _mixed(w).sum(axis=1, dtype=np.uint64)
        return whole
    key = _mixed(w[:, 0], 0)
    for j in range(1, w.shape[1]):
        key += _mixed(w[:, j], j)
    return key


def _mixed(w: U64Array, place: int | None = None) -> U64Array:
    """Each word of ``w`` mixed with its place (the column ``place`` of a
    token's words, else each column's own), padding words mixed to 0."""
    h = w + (_PLACE[: w.shape[1]] if place is None else _PLACE[place])
    h ^= h >> np.uint64(33)
    h *= _C1
    h ^= h >> np.uint64(33)
    h *= _C2
    h ^= h >> np.uint64(33)
    h *= w != 0  # padding: tokens hold no zero byte (a product, not a masked
    # assignment: 54 -> 19 us for a column of 30,000 words)
    return h


def offset_type(size: int) -> type[np.int32] | type[np.int64]:
    """The offsets' type for ids of ``size`` bytes in all."""
    return np.int32 if size < _SMALL else np.int64


def token_keys(w: U64Array, start: Offsets, length: Offsets) -> U64Array:
    """:func:`row_keys` of the tokens ``length`` bytes long at ``start`` of
    the words ``w``."""
    if length.size and int(length.max()) <= 8:
        return _word_keys(w, start, length)
    keys = np.empty(start.size, dtype=np.uint64)
    for lo in range(0, start.size, _BLOCK):
        s, n = start[lo:lo + _BLOCK], length[lo:lo + _BLOCK]
        keys[lo:lo + _BLOCK] = row_keys(_rows(w, s, n).view(np.uint8))
    return keys


def _word_keys(w: U64Array, start: Offsets, length: Offsets) -> U64Array:
    """:func:`token_keys` of tokens of at most 8 bytes: each token's one word
    (zero past its end) mixed as :func:`row_keys` mixes a row of one word,
    without a matrix of rows (compare's matching keys each block's ids of
    bench_compare's runs so: 70 -> 25 ms of CPU over its 64 calls)."""
    keys = np.empty(start.size, dtype=np.uint64)
    last = w.size - 1
    for lo in range(0, start.size, _BLOCK):
        word = w[np.minimum(start[lo:lo + _BLOCK], last)]
        word &= LOW[length[lo:lo + _BLOCK]]
        keys[lo:lo + _BLOCK] = _mixed(word, 0)
    return keys


def _rows(w: U64Array, start: Offsets, length: Offsets) -> U64Array:
    """The tokens' 8-byte words (zero past each end), a row each."""
    longest = int(length.max()) if length.size else 0
    steps = np.arange(0, max(-(-longest // 8), 1) * 8, 8)
    at = (start[:, None] + steps).ravel()
    np.minimum(at, w.size - 1, out=at)
    rows: U64Array = w[at]
    left = (length[:, None] - steps).ravel()
    np.clip(left, 0, 8, out=left)
    rows &= LOW[left]
    return rows.reshape(start.size, steps.size)


class IdBytes:
    """Ids as bytes: id ``i`` is ``arena[offset[i]:offset[i + 1] - 1]`` (the
    byte after each id is ``\\n``; :data:`PAD` zero bytes end the arena).

    ``ascii``: every byte is below 0x80 (then text order is byte order, and
    decoding cannot fail); None when not known.
    """

    def __init__(self, arena: U8Array, offset: Offsets, ascii: bool | None = None) -> None:
        self.arena = arena
        self.offset = offset
        self.ascii = ascii

    @classmethod
    def from_texts(cls, texts: list[str]) -> IdBytes:
        """Ids given as text (encoded as UTF-8)."""
        data = "".join(t + "\n" for t in texts).encode("utf-8")
        arena = np.zeros(len(data) + PAD, dtype=np.uint8)
        arena[: len(data)] = np.frombuffer(data, dtype=np.uint8)
        lengths = np.array([len(t.encode("utf-8")) + 1 for t in texts], dtype=np.int64)
        offset: Offsets = np.zeros(len(texts) + 1, dtype=offset_type(len(data)))
        np.cumsum(lengths, out=offset[1:])
        return cls(arena, offset, data.isascii())

    def __len__(self) -> int:
        return int(self.offset.size - 1)

    @property
    def start(self) -> Offsets:
        return self.offset[:-1]

    @property
    def length(self) -> Offsets:
        """Each id's length in bytes."""
        length: Offsets = np.diff(self.offset) - 1
        return length

    @property
    def nbytes(self) -> int:
        return int(self.arena.nbytes + self.offset.nbytes)

    def is_utf8(self) -> bool:
        """Whether every id is valid UTF-8 (its text is then its bytes decoded,
        and different bytes are different texts in the same order)."""
        if self.ascii is None:
            used = self.arena[: int(self.offset[-1])]
            self.ascii = bool(used.tobytes().isascii())
        if self.ascii:
            return True
        try:
            self.arena[: int(self.offset[-1])].tobytes().decode("utf-8")
        except UnicodeDecodeError:
            return False
        return True

    def text(self, i: int) -> str:
        """Id ``i`` as text (as :meth:`texts` gives it)."""
        return decode(self.arena[int(self.offset[i]):int(self.offset[i + 1]) - 1].tobytes())

    def texts(self, rows: IntArray | None = None) -> list[str]:
        """The ids (of ``rows``) as text.

        Split at the ``\n`` after each id (one pass, as fast as the bytes
        decode); an id holding a line break itself (JSON, Parquet, a sheet's
        cell can give one) splits into more pieces than there are ids, and
        the ids are then cut where the offsets say."""
        ids = self if rows is None else self.take(rows)
        data = ids.arena[: int(ids.offset[-1])].tobytes()
        if not data:
            return []
        try:
            texts = data.decode("utf-8").split("\n")
        except UnicodeDecodeError:
            texts = [decode(b) for b in data.split(b"\n")]
        if len(texts) == len(ids) + 1:
            return texts[:-1]
        cut = ids.offset.tolist()
        return [decode(data[a:z - 1]) for a, z in pairwise(cut)]

    def keys(self, rows: Rows | None = None) -> U64Array:
        """:func:`token_keys` of the ids (of ``rows``)."""
        if rows is None:
            start, length = self.start, self.length
        else:  # (the rows' lengths only: every id's is a pass over the offsets)
            start = self.offset[rows]
            length = self.offset[rows + 1] - start
            length -= 1
        return token_keys(words(self.arena), start, length)

    def take(self, rows: IntArray) -> IdBytes:
        """The ids of ``rows``, in a new arena (copied a block of rows at a
        time, each id's bytes and its ``\n`` as whole words)."""
        size = self.offset[rows + 1] - self.offset[rows]  # with the "\n"
        offset = np.zeros(rows.size + 1, dtype=offset_type(int(size.sum(dtype=np.int64))))
        np.cumsum(size, out=offset[1:])
        arena = np.zeros(int(offset[-1]) + PAD, dtype=np.uint8)
        w = words(self.arena)
        for lo in range(0, rows.size, _BLOCK):
            n = size[lo:lo + _BLOCK]
            block = _rows(w, self.offset[rows[lo:lo + _BLOCK]], n)
            keep = np.arange(block.shape[1] * 8) < n[:, None]
            arena[offset[lo]:offset[lo + n.size]] = block.view(np.uint8)[keep]
        return IdBytes(arena, offset, self.ascii)

    @staticmethod
    def concat(parts: list[IdBytes]) -> IdBytes:
        """The ids of ``parts``, one after the other, in a new arena."""
        sizes = [int(p.offset[-1]) for p in parts]
        arena = np.zeros(sum(sizes) + PAD, dtype=np.uint8)
        offset = np.zeros(sum(len(p) for p in parts) + 1, dtype=offset_type(sum(sizes)))
        at = row = 0
        for p, size in zip(parts, sizes, strict=True):
            arena[at:at + size] = p.arena[:size]
            offset[row + 1:row + len(p) + 1] = p.offset[1:] + at
            at += size
            row += len(p)
        ascii = None if any(p.ascii is None for p in parts) else all(p.ascii for p in parts)
        return IdBytes(arena, offset, ascii)

    def codes(self) -> tuple[IntArray, npt.NDArray[np.object_]] | None:
        """Each id as an integer (equal bytes, equal integers) and the ids
        those integers stand for, as text; None when two different ids share
        a key or when ids not in UTF-8 might decode to one text (the caller
        then compares texts)."""
        if not self.is_utf8():
            return None
        key = self.keys()
        uniq, first, code = np.unique(key, return_index=True, return_inverse=True)
        if uniq.size != key.size and not self.same(np.arange(len(self)), self,
                                                     first[code]).all():
            return None
        texts = np.empty(uniq.size, dtype=object)
        texts[:] = self.texts(first)
        return code.astype(np.int64, copy=False), texts

    def extend(self, other: IdBytes) -> IdBytes:
        """These ids followed by ``other``'s: this arena made longer (in place
        when the allocator can; nothing may view it), and the offsets too, or
        made anew as int32 where they fit (a reader's int64 offsets: half the
        memory for the rest of the document's life, 8 MiB at 2M rows)."""
        size, more = int(self.offset[-1]), int(other.offset[-1])
        n, m = len(self), len(other)
        kind = offset_type(size + more)
        try:
            self.arena.resize(size + more + PAD, refcheck=False)
            if self.offset.dtype == kind:
                self.offset.resize(n + m + 1, refcheck=False)
        except ValueError:  # not their own data
            return IdBytes.concat([self, other])
        if self.offset.dtype != kind:
            offset = np.empty(n + m + 1, dtype=kind)
            offset[: n + 1] = self.offset
            self.offset = offset
        self.arena[size:size + more] = other.arena[:more]
        self.arena[size + more:] = 0
        self.offset[n + 1:] = other.offset[1:] + size
        if self.ascii is not None:
            self.ascii = None if other.ascii is None else self.ascii and other.ascii
        return self

    def same(self, rows: Rows, other: IdBytes, other_rows: Rows) -> BoolArray:
        """Whether the id of each of ``rows`` has the very bytes of the id of
        the matching one of ``other_rows`` in ``other``.

        The lengths and the first 8 bytes (one word, the whole of most ids)
        are compared for every pair at once (measured: 600,000 pairs of 7-byte
        ids, 59 -> 16 ms), then the longer ids still equal a word at a time
        (a gather of each side's next word, and each end read from the
        offsets' own view, not ``rows + 1``: 600,000 pairs of 4-10 bytes,
        470,000 of them past 8, 41-42 -> 37-38 ms against a block of rows of
        words at a time)."""
        start, other_start = self.offset[rows], other.offset[other_rows]
        size = self.offset[1:][rows]
        size -= start  # with the "\n"
        end = other.offset[1:][other_rows]
        end -= other_start
        equal: BoolArray = size == end
        del end
        wa, wb = words(self.arena), words(other.arena)
        head = wa[start] ^ wb[other_start]
        head &= LOW[np.minimum(size - 1, 8)]
        equal &= head == 0
        del head
        live = np.flatnonzero(equal & (size > 9))
        done = 8  # bytes compared
        while live.size:
            left = size[live] - (done + 1)
            word = wa[start[live] + done] ^ wb[other_start[live] + done]
            word &= LOW[np.minimum(left, 8)]
            ok = word == 0
            equal[live] = ok
            live = live[ok & (left > 8)]
            done += 8
        return equal

    def sort_descending(self, rows: IntArray,
                        group: npt.NDArray[np.integer[Any]]) -> IntArray:
        """The stable permutation of ``rows`` that puts them in order of
        ``group`` (ascending) and, within a group, by id in descending byte
        order (code-point order for UTF-8): the trec_eval tie order.

        Each round sorts on one integer: the group (``bits`` wide) and the
        next ``64 - bits`` bits' worth of whole bytes of the ids; rows still
        tied with a neighbour go on to the next bytes. Groups given in
        ascending order are sorted :data:`_SORT_BLOCK` rows at a time (whole
        groups), so that the rounds' temporaries, some 60 bytes a row, are
        a block's and not every tied row's.
        """
        group = np.asarray(group)
        if rows.size <= _SORT_BLOCK or bool(np.any(group[1:] < group[:-1])):
            return self._sort_descending(rows, group).astype(np.int64)
        # Blocks end where a group does: a group never spans two.
        cuts = np.searchsorted(group, group[_SORT_BLOCK::_SORT_BLOCK])
        bounds = np.unique(np.concatenate(([0], cuts, [rows.size])))
        perm = np.empty(rows.size, dtype=np.int64)
        for lo, hi in zip(bounds[:-1].tolist(), bounds[1:].tolist(), strict=True):
            perm[lo:hi] = self._sort_descending(rows[lo:hi], group[lo:hi])
            perm[lo:hi] += lo
        return perm

    def _sort_descending(self, rows: IntArray,
                         group: npt.NDArray[np.integer[Any]]) -> npt.NDArray[np.int32]:
        """:meth:`sort_descending` of one block of rows (as int32)."""
        start = self.offset[rows]
        length = (self.offset[rows + 1] - start - 1).astype(np.int32)
        w = words(self.arena)
        perm = np.arange(rows.size, dtype=np.int32)
        live = perm.copy()  # positions of perm still to sort
        segment = np.asarray(group)
        if bool(np.any(segment[1:] < segment[:-1])):
            segment = np.unique(segment, return_inverse=True)[1]
        done = 0  # bytes of the ids compared so far
        while live.size > 1:
            n = int(segment[-1] - segment[0]) + 1
            # Bytes per round: what the group's bits leave, at most 5 (up to
            # 2^24 groups), so that a round's work per row does not shrink as
            # a block's groups grow: 2^8 groups would leave 7 bytes, 2^9 six,
            # and twice the queries took a round more per row. Blocks of
            # 2M-row runs use 5 anyway (98.6% of the rows measured).
            width = min(5, (64 - n.bit_length()) // 8)
            at = perm[live]
            key = _chunk(w, start[at], length[at], done, width)
            key ^= np.uint64((1 << (8 * width)) - 1)  # descending ids
            high = segment.astype(np.uint64)
            high -= np.uint64(segment[0])
            high <<= np.uint64(8 * width)
            key |= high
            del high
            if bool(np.any(key[1:] < key[:-1])):
                sub = np.argsort(key, kind="stable")
                perm[live] = at[sub]
                key = key[sub]
                del sub
            del at
            done += width
            same = key[1:] == key[:-1]
            del key
            tied = np.zeros(live.size, dtype=bool)
            tied[1:] |= same
            tied[:-1] |= same
            if not tied.any() or int(length[perm[live[tied]]].max()) <= done:
                break  # the rest are equal ids
            segment = np.cumsum(np.concatenate(([True], ~same)))[tied]
            live = live[tied]
        return perm


def _chunk(w: U64Array, start: Offsets, length: npt.NDArray[np.int32], done: int,
           width: int) -> U64Array:
    """The ``width`` bytes (at most 8) after the first ``done`` of each token
    (``length`` bytes at ``start``; zero bytes past its end) as a big-endian
    integer. ``start`` is reused."""
    at = start
    at += done
    np.minimum(at, w.size - 1, out=at)
    word: U64Array = w[at]
    del at
    left = length - np.int32(done)
    np.clip(left, 0, 8, out=left)
    word &= LOW[left]
    del left
    word.byteswap(inplace=True)
    word >>= np.uint64(64 - 8 * width)
    return word
