"""A TREC file's columns as the fast reader builds them, a piece at a time.

Each piece of the file (:mod:`core.io.trec.scan`) gives its rows' numbers,
query ids (coded among the piece's distinct ones) and source ids (bytes back
to back, with a key each). :class:`Columns` copies them into whole-file
arrays as the pieces come and lets go of each piece, so the reader never
holds a file's rows twice: the arrays are sized from the first piece and the
file's size, lengthened if the file holds more, and cut to size at the end.
"""

from __future__ import annotations

import mmap
from typing import Any

import numpy as np
import numpy.typing as npt

from core.model.ids import PAD, IdBytes, Offsets, offset_type

__all__ = ["Column", "Columns", "FloatArray", "IntArray", "Piece", "Room", "Table", "U64Array"]

U64Array = npt.NDArray[np.uint64]
IntArray = npt.NDArray[np.int64]
Int32Array = npt.NDArray[np.int32]
FloatArray = npt.NDArray[np.float64]


class Column:
    """One text field of a file, coded: each row's code points at its
    distinct token (``raw``, ordered by ``key``, first seen on row ``first``)."""

    def __init__(self, code: Int32Array, key: U64Array, raw: npt.NDArray[np.bytes_],
                 first: IntArray) -> None:
        self.code = code
        self.key = key
        self.raw = raw
        self.first = first


class Table:
    """A whole TREC file read column-wise: per row its number, its query
    (coded) and source id (as bytes, with keys)."""

    def __init__(self, line: Int32Array | None, number: FloatArray, query: Column,
                 source: IdBytes, source_key: U64Array) -> None:
        self._line = line
        self.number = number
        self.query = query
        self.source = source
        self.source_key = source_key

    @property
    def line(self) -> Int32Array:
        """Each row's line number (1-based)."""
        if self._line is None:
            return np.arange(1, self.number.size + 1, dtype=np.int32)
        return self._line


class Piece:
    """What one piece of a file holds: per row its line within the piece
    (None: row ``i`` is line ``i``) and number, the query ids coded among the
    piece's distinct ones, and the source ids as bytes with their keys."""

    def __init__(self, line: IntArray | None, n_rows: int, n_breaks: int) -> None:
        self.line = line
        self.n_rows = n_rows
        self.n_breaks = n_breaks
        self.number = np.empty(0, dtype=np.float64)
        self.code = np.empty(0, dtype=np.int32)
        self.key = np.empty(0, dtype=np.uint64)
        self.raw = np.empty(0, dtype="S8")
        self.first = np.empty(0, dtype=np.int64)
        self.source_key = np.empty(0, dtype=np.uint64)
        self.arena = np.empty(0, dtype=np.uint8)
        self.length = np.empty(0, dtype=np.int32)
        self.ascii = True


def _resize(a: npt.NDArray[Any], n: int) -> npt.NDArray[Any]:
    """``a`` made ``n`` long, in place (the allocator moves pages rather than
    copying them; ``a`` is the reader's own, with no views); an array in a
    :class:`Room` is cut (a view) or, past its room, copied out."""
    if a.base is None:
        a.resize(n, refcheck=False)
        return a
    if n <= a.size:
        return a[:n]
    out = np.empty(n, dtype=a.dtype)
    out[: a.size] = a
    return out


def _shared(kind: Any, n: int) -> npt.NDArray[Any]:
    """``n`` values of ``kind`` in an anonymous mapping (a child forked
    later shares it)."""
    return np.frombuffer(mmap.mmap(-1, np.dtype(kind).itemsize * n), dtype=kind)


class Room:
    """A file's columns' memory shared with a forked child (made before the
    fork), so the child's rows need no copying back: the child reads the
    file from byte ``split`` into the columns' rows from :attr:`rows_at`
    (ids' bytes from :attr:`bytes_at`), and the rows before ``split``, read
    here, are then copied in just before them (:meth:`Columns.absorb`).
    Sized for the most rows the bytes can hold (a line of ``n_fields``
    fields takes two bytes a field at least), pages never written cost no
    memory."""

    def __init__(self, file_size: int, split: int, n_fields: int) -> None:
        self.rows_at = split // (2 * n_fields) + 1
        self.bytes_at = split + PAD
        rows = self.rows_at + (file_size - split) // (2 * n_fields) + 2
        # A mapping a column (anonymous, shared with a child forked later):
        # each given back once nothing views it, as the read's and the
        # join's own arrays are (the query codes' as soon as they are coded
        # again, the rest as the document takes them over).
        self.number: FloatArray = _shared(np.float64, rows)
        self.code: Int32Array = _shared(np.int32, rows)
        self.key: U64Array = _shared(np.uint64, rows)
        self.offset: Offsets = _shared(offset_type(file_size), rows + 1)
        self.arena: npt.NDArray[np.uint8] = _shared(np.uint8, file_size + 2 * PAD)

    def holds(self, columns: Columns) -> bool:
        """Whether ``columns``' rows are (still) in this room from
        :attr:`rows_at` (none copied out when they outgrew it)."""
        return all(np.may_share_memory(mine, theirs[:1]) for mine, theirs in (
            (self.number, columns.number), (self.code, columns.code), (self.key, columns.key),
            (self.offset, columns.offset), (self.arena, columns.arena)))


class Columns:
    """A file's columns, filled a piece at a time (see the module)."""

    def __init__(self, file_size: int, room: Room | None = None) -> None:
        self.file_size = file_size
        #: Where the rows go (a child's, :class:`Room`), else memory of its own.
        self.room = room
        self.rows = self.bytes = 0
        self.number = np.empty(0, dtype=np.float64)
        self.code = np.empty(0, dtype=np.int32)
        self.key = np.empty(0, dtype=np.uint64)
        # int32 where the file is under 2 GiB (its ids' bytes are fewer than
        # its own, offset_type's bound), as the document keeps them: 8 MB
        # less at 2M rows through the read and the join, and no int32 copy
        # made beside them when the document's ids are assembled.
        self.offset: Offsets = np.zeros(1, dtype=offset_type(file_size))
        self.arena = np.empty(0, dtype=np.uint8)
        self.query_key: list[U64Array] = []
        self.query_raw: list[npt.NDArray[np.bytes_]] = []
        self.query_first: list[IntArray] = []
        self.lines: list[tuple[int, IntArray | None, int]] = []
        self.ascii = True

    def add(self, piece: Piece, piece_bytes: int, base_line: int) -> None:
        """Copy a piece's rows in (its first line is ``base_line`` + 1)."""
        n0, n1 = self.rows, self.rows + piece.n_rows
        a0, a1 = self.bytes, self.bytes + piece.arena.size
        if not n0 and self.room is not None:
            self._into(self.room)
        elif not n0:
            # Sized from the first piece (the rest of the file is alike);
            # pages never written cost no memory.
            scale = 1.05 * self.file_size / max(piece_bytes, 1)
            rows = int(scale * piece.n_rows) + 1024
            self.number = np.empty(rows, dtype=np.float64)
            self.code = np.empty(rows, dtype=np.int32)
            self.key = np.empty(rows, dtype=np.uint64)
            self.offset = np.empty(rows + 1, dtype=self.offset.dtype)
            self.offset[0] = 0
            # Ids often lengthen down a file (q0_7 ... q1999_7): more room
            # for their bytes than the first piece promises.
            self.arena = np.empty(int(1.25 * scale * piece.arena.size) + 4096, dtype=np.uint8)
        if n1 > self.number.size:
            self._more_rows(max(n1, int(1.5 * self.number.size)))
        if a1 + PAD > self.arena.size:
            self.arena = _resize(self.arena, max(a1 + PAD, int(1.5 * self.arena.size)))
        self.number[n0:n1] = piece.number
        self.code[n0:n1] = piece.code
        self.code[n0:n1] += sum(k.size for k in self.query_key)
        self.key[n0:n1] = piece.source_key
        np.cumsum(piece.length + 1, out=self.offset[n0 + 1:n1 + 1])
        self.offset[n0 + 1:n1 + 1] += a0
        self.arena[a0:a1] = piece.arena
        self.query_key.append(piece.key)
        self.query_raw.append(piece.raw)
        self.query_first.append(piece.first + n0)
        self.lines.append((n0, piece.line, base_line))
        self.ascii &= piece.ascii
        self.rows, self.bytes = n1, a1

    def _into(self, room: Room) -> None:
        """The rows written into ``room`` from its :attr:`~Room.rows_at`."""
        self.number = room.number[room.rows_at:]
        self.code = room.code[room.rows_at:]
        self.key = room.key[room.rows_at:]
        self.offset = room.offset[room.rows_at:]
        self.offset[0] = 0
        self.arena = room.arena[room.bytes_at:]

    def absorb(self, rest: Columns, base_line: int) -> None:
        """Copy in the columns of the rest of the file, read elsewhere
        (:func:`core.io.trec.scan.scan_part`; its first line is ``base_line``
        + 1). Rows a child left in its room (:meth:`__getstate__`; the
        room given back as ``rest.room``) stay there: these rows are copied
        in before them where they fit."""
        n0, n1 = self.rows, self.rows + rest.rows
        a0, a1 = self.bytes, self.bytes + rest.bytes
        room, placed = rest.room, False
        if room is not None and rest.number is None:
            rest._into(room)
            placed = n0 <= room.rows_at and a0 <= room.bytes_at
        if placed and room is not None:
            self._before(room, rest.rows)
        else:
            if n1 > self.number.size:
                self._more_rows(n1)
            if a1 + PAD > self.arena.size:
                self.arena = _resize(self.arena, a1 + PAD)
            self.number[n0:n1] = rest.number[: rest.rows]
            self.code[n0:n1] = rest.code[: rest.rows]
            self.key[n0:n1] = rest.key[: rest.rows]
            np.add(rest.offset[1: rest.rows + 1], a0, out=self.offset[n0 + 1:n1 + 1])
            self.arena[a0:a1] = rest.arena[: rest.bytes]
        self.code[n0:n1] += sum(k.size for k in self.query_key)
        self.query_key += rest.query_key
        self.query_raw += rest.query_raw
        self.query_first += [first + n0 for first in rest.query_first]
        self.lines += [(row + n0, line, base + base_line) for row, line, base in rest.lines]
        self.ascii &= rest.ascii
        self.rows, self.bytes = n1, a1

    def _before(self, room: Room, rows: int) -> None:
        """These rows copied into ``room`` just before the ``rows`` a child
        read into it (from :attr:`Room.rows_at`), the columns then viewing
        both there: the child's rows are not copied."""
        n0, a0, r, b = self.rows, self.bytes, room.rows_at, room.bytes_at
        room.number[r - n0:r] = self.number[:n0]
        room.code[r - n0:r] = self.code[:n0]
        room.key[r - n0:r] = self.key[:n0]
        room.offset[r - n0:r + 1] = self.offset[: n0 + 1]
        room.offset[r + 1:r + rows + 1] += a0
        room.arena[b - a0:b] = self.arena[:a0]
        self.number, self.code = room.number[r - n0:], room.code[r - n0:]
        self.key, self.offset = room.key[r - n0:], room.offset[r - n0:]
        self.arena = room.arena[b - a0:]

    def __getstate__(self) -> dict[str, Any]:
        """Pickled (handed from another process), only the rows read so far;
        rows in a :class:`Room` are left there (None: the receiving process
        has them, :meth:`absorb`)."""
        state = dict(self.__dict__)
        n = self.rows
        if self.room is not None and self.room.holds(self):
            state.update(number=None, code=None, key=None, offset=None, arena=None)
        else:
            state.update(number=self.number[:n], code=self.code[:n], key=self.key[:n],
                         offset=self.offset[: n + 1], arena=self.arena[: self.bytes])
        state.update(room=None)
        return state

    def _more_rows(self, rows: int) -> None:
        """Room for ``rows`` rows (a file that holds more than its first
        piece promised)."""
        self.number = _resize(self.number, rows)
        self.code = _resize(self.code, rows)
        self.key = _resize(self.key, rows)
        self.offset = _resize(self.offset, rows + 1)

    def finish(self) -> Table | None:
        """The whole file's table (None when two query ids share a key)."""
        query = self._queries()
        if query is None:
            return None
        n = self.rows
        self.arena = _resize(self.arena, self.bytes + PAD)
        self.arena[self.bytes:] = 0
        ids = IdBytes(self.arena, _resize(self.offset, n + 1), self.ascii)
        return Table(self._line(), _resize(self.number, n), query, ids, _resize(self.key, n))

    def _queries(self) -> Column | None:
        """The query ids' distinct tokens over every piece, each row's code
        among them (None on a key clash)."""
        if not self.query_key:
            return Column(np.empty(0, dtype=np.int32), np.empty(0, dtype=np.uint64),
                          np.empty(0, dtype="S1"), np.empty(0, dtype=np.int64))
        key = np.concatenate(self.query_key)
        raw = np.concatenate(self.query_raw)
        first = np.concatenate(self.query_first)
        uniq, rep, inverse = np.unique(key, return_index=True, return_inverse=True)
        if uniq.size != key.size and not np.array_equal(raw, raw[rep][inverse]):
            return None
        first_row = np.full(uniq.size, np.iinfo(np.int64).max, dtype=np.int64)
        np.minimum.at(first_row, inverse, first)
        code = inverse.astype(np.int32)[self.code[: self.rows]]
        self.code = np.empty(0, dtype=np.int32)
        return Column(code, uniq, raw[rep], first_row)

    def _line(self) -> Int32Array | None:
        """Each row's line number; None when every row is its own line."""
        if all(line is None and base == row for row, line, base in self.lines):
            return None
        parts = [(np.arange(self._size(i)) if line is None else line) + (base + 1)
                 for i, (_, line, base) in enumerate(self.lines)]
        return np.concatenate(parts).astype(np.int32)

    def _size(self, i: int) -> int:
        end = self.lines[i + 1][0] if i + 1 < len(self.lines) else self.rows
        return end - self.lines[i][0]
