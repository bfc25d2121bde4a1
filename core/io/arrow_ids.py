"""Arrow columns of ids as the engine takes them.

A run's or qrels' query ids become a dictionary array (each id once, in the
order rows first name them: :func:`query_ids`), its source ids
:class:`~core.model.ids.IdBytes` copied straight from Arrow's buffers
(:func:`id_bytes`), as the TREC reader makes them from a file's bytes; a
worksheet's ids stay Arrow text (:func:`text_ids`). Each is checked: text or
whole numbers, none missing (one line naming the file, column and row).
Used by :mod:`core.io.columnar` once pyarrow is there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from core.errors import InputError
from core.model.ids import PAD, IdBytes, offset_type

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = ["as_text", "id_bytes", "query_ids", "text_ids"]

U8Array = npt.NDArray[np.uint8]
#: What is said of an id holding a NUL character, wherever it enters
#: (:func:`refuse_nul`; a JSON file's: :mod:`core.io.score_dict`).
NUL = "holds a NUL character, which no id may hold"
NUL_HINT = "remove it from the id: TREC text, CSV and workbooks cannot hold one either"
Offsets = npt.NDArray[np.int32 | np.int64]


def text_ids(table: pa.Table, name: str, file: str) -> Any:
    """An id column as one Arrow text array, checked."""
    import pyarrow as pa

    col = table.column(name).combine_chunks()
    if pa.types.is_dictionary(col.type):  # pandas' categories, Parquet's dictionaries
        col = col.dictionary_decode()
    col = as_text(col, name, file)
    _refuse_missing(_missing(col), name, file)
    refuse_nul(col, name, file)
    return col


def as_text(col: Any, name: str, file: str) -> Any:
    """An Arrow array of ids (not dictionary-encoded) as text: strings and
    large strings as they are, whole numbers and string views (polars)
    cast to large strings, anything else an error naming the column."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if pa.types.is_string(col.type) or pa.types.is_large_string(col.type):
        return col
    if (getattr(pa.types, "is_string_view", bool)(col.type) or pa.types.is_integer(col.type)
            or pa.types.is_null(col.type)):  # null: all missing
        return pc.cast(col, pa.large_string())
    raise InputError(f"ids must be text or whole numbers, not {col.type}",
                     file=file, column=name)


def _missing(col: Any) -> npt.NDArray[np.bool_]:
    """Which entries of a text array are null or empty."""
    import pyarrow.compute as pc

    empty: npt.NDArray[np.bool_] = _offsets(col)[1] == 0
    if col.null_count:
        empty |= pc.is_null(col).to_numpy(zero_copy_only=False)
    return empty


def _refuse_missing(bad: npt.NDArray[np.bool_], name: str, file: str, base: int = 0) -> None:
    """An error naming the first row (``base`` rows before these) with no id."""
    if bad.any():
        row = base + int(np.flatnonzero(bad)[0])
        raise InputError(f"row {row + 1} has no id", file=file, column=name,
                         hint="every row needs a query and a source id")


def refuse_nul(col: Any, name: str, file: str, base: int = 0,
               code: npt.NDArray[np.integer[Any]] | None = None) -> None:
    """An error naming the first row (``base`` rows before these) whose id
    in the text array ``col`` (the dictionary of the rows' ``code``, when
    given) holds a NUL character: ids keep no zero byte (the engine's tie
    order reads one as an id's end; TREC text, CSV and workbooks cannot
    hold one), so one is refused where it enters, as in a JSON file. One
    pass over the bytes (a minimum: 2M ids, ~2 ms)."""
    at, _, data = _offsets(col)
    used = data[int(at[0]):int(at[-1])]
    if not used.size or used.min():
        return
    bad = np.zeros(len(col), dtype=bool)
    bad[np.searchsorted(at, np.flatnonzero(used == 0) + at[0], side="right") - 1] = True
    rows = np.flatnonzero(bad if code is None else np.append(bad, False)[code])
    if not rows.size:  # (only dictionary entries no row names)
        return
    text = col[int(rows[0]) if code is None else int(code[rows[0]])].as_py()
    raise InputError(f"row {base + int(rows[0]) + 1}: the id {text!r} {NUL}", file=file,
                     column=name, hint=NUL_HINT)


def _offsets(col: Any) -> tuple[Offsets, Offsets, U8Array]:
    """A text array's buffers as numpy views: where each entry starts in
    the data (``len + 1`` offsets), each entry's length, the data bytes."""
    import pyarrow as pa

    kind = np.int64 if pa.types.is_large_string(col.type) else np.int32
    _, offsets, data = col.buffers()
    at: Offsets = np.zeros(1, dtype=kind)
    if offsets is not None:  # (None: an empty array)
        at = np.frombuffer(offsets, dtype=kind)[col.offset: col.offset + len(col) + 1]  # type: ignore[assignment]
    raw = np.zeros(0, dtype=np.uint8) if data is None else np.frombuffer(data, dtype=np.uint8)
    length: Offsets = np.diff(at)
    return at, length, raw


def query_ids(table: pa.Table, name: str, file: str) -> Any:
    """A query column, checked, as a dictionary array whose dictionary holds
    each id once, in the order the rows first name them. A dictionary
    column (Parquet's, as :func:`core.io.columnar.side_from_file` reads queries; pandas'
    categories) is used as it is, its dictionary checked and made distinct:
    no text per row (2M rows: the read 106 -> 71 ms of CPU, the codes
    25 -> ~1 ms)."""
    import pyarrow as pa

    col = table.column(name).combine_chunks()
    if not pa.types.is_dictionary(col.type):
        col = as_text(col, name, file)
        _refuse_missing(_missing(col), name, file)
        refuse_nul(col, name, file)
        return col.dictionary_encode()
    values = as_text(col.dictionary, name, file)
    code = col.indices.to_numpy(zero_copy_only=False) if not col.null_count else (
        col.indices.fill_null(-1).to_numpy(zero_copy_only=False).astype(np.int64))
    bad = _missing(values)
    refuse_nul(values, name, file, code=code)
    if col.null_count or bad.any():  # rows naming no entry, or a null or empty one
        _refuse_missing(np.append(bad, True)[code], name, file)  # (-1: null)
    distinct = values.dictionary_encode()
    if len(distinct.dictionary) < len(values):  # an id listed twice
        code = distinct.indices.fill_null(0).to_numpy(zero_copy_only=False)[code]  # (null: unused)
        values = distinct.dictionary
    return _first_appearance(code, values)


def _first_appearance(code: npt.NDArray[np.integer[Any]], values: Any) -> Any:
    """Rows' ``code`` among distinct ``values`` as a dictionary array whose
    dictionary lists the values in the order the rows first name them
    (unused ones left out): as it is when they are so (each row names a
    value named before or the next one)."""
    import pyarrow as pa

    seen = np.maximum.accumulate(code)
    if code.size and not (seen[0] == 0 and bool(np.all(np.diff(seen) <= 1))
                          and int(seen[-1]) == len(values) - 1):
        used, first = np.unique(code, return_index=True)
        used = used[np.argsort(first)]
        rank = np.empty(len(values), dtype=np.int64)
        rank[used] = np.arange(used.size)
        code, values = rank[code], values.take(pa.array(used))
    return pa.DictionaryArray.from_arrays(pa.array(code), values)


#: Ids copied into an :class:`~core.model.ids.IdBytes` arena at a time.
_ID_BLOCK = 1 << 18


def id_bytes(column: Any, name: str, file: str) -> IdBytes:
    """A column of ids (an Arrow array or chunked array), checked, as
    :class:`~core.model.ids.IdBytes` (each id's UTF-8 bytes and a line
    break, back to back): the engine orders and compares them as bytes, and
    they are decoded only when asked, as the TREC reader's are. The bytes
    are copied straight from each chunk's buffers (offsets and data), a
    block of ids at a time, so the only copy of them all is the arena's
    (2M ids: 56 -> ~30 ms of CPU, and no cast of string columns)."""
    import pyarrow as pa

    chunks = column.chunks if hasattr(column, "chunks") else [column]
    chunks = [as_text(c.dictionary_decode() if pa.types.is_dictionary(c.type) else c,
                       name, file) for c in chunks]
    base = 0
    for chunk in chunks:
        _refuse_missing(_missing(chunk), name, file, base)
        refuse_nul(chunk, name, file, base)
        base += len(chunk)
    size = np.concatenate([np.zeros(1, dtype=np.int64)]
                          + [_offsets(c)[1].astype(np.int64) + 1 for c in chunks])
    offset: Offsets = np.cumsum(size).astype(offset_type(int(size.sum())), copy=False)
    arena = np.full(int(offset[-1]) + PAD, ord("\n"), dtype=np.uint8)
    arena[-PAD:] = 0
    row, ascii = 0, True
    for chunk in chunks:
        at, _, data = _offsets(chunk)
        for lo in range(0, len(chunk), _ID_BLOCK):
            hi = min(lo + _ID_BLOCK, len(chunk))
            part = arena[offset[row + lo]:offset[row + hi]]
            keep = np.ones(part.size, dtype=bool)
            keep[offset[row + lo + 1:row + hi + 1] - offset[row + lo] - 1] = False  # "\n"
            part[keep] = data[at[lo]:at[hi]]
        ascii = ascii and not (data[at[0]:at[-1]] >= 0x80).any()
        row += len(chunk)
    return IdBytes(arena, offset, ascii)
