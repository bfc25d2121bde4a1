"""numpy's arrays made on pages of their own, for a lane that works beside
another lane's big temporaries (glibc on Linux only; elsewhere nothing).

The command line's ``compare`` matches the candidates of two runs while the
second run is evaluated on the other lane (:func:`core.io.pairs.read_judged_pair`'s
``both``). Both lanes share one heap (the allocator's settings,
:mod:`core.io.trec.alloc`: one arena), and the matching's block temporaries
(a few hundred KiB each, made and freed block after block) land among the
pages the evaluation frees and makes again, so the heap's high-water mark
rose ~11-14 MB under the defaults for ~4.5 MB in use (docs/benchmarks.md,
hcmp7). Within :func:`own_pages`, numpy's arrays made on this thread are
mapped on their own (``mmap``) and handed back when freed, reusing a few
freed mappings of the same size (the blocks' arrays come in few sizes) so
that each block does not touch fresh pages; small ones stay in the heap.

numpy has no Python call to set its data allocator: :func:`own_pages` calls
``PyDataMem_SetHandler`` through numpy's C API table (its place, 304, is
fixed since numpy 1.22), which sets it for the current thread's context.
"""

from __future__ import annotations

import ctypes
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["own_pages"]

#: Arrays smaller than this stay in the heap (a page or four each).
_SMALL = 1 << 14
#: Freed mappings kept for reuse, at most this many bytes in all.
_KEEP = 4 << 20
_PROT, _FLAGS = 0x1 | 0x2, 0x02 | 0x20  # read, write; private, anonymous
_SET_HANDLER = 304  # PyDataMem_SetHandler's place in numpy's C API table

_MALLOC = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t)
_CALLOC = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_size_t)
_REALLOC = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t)
_FREE = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t)


class _Allocator(ctypes.Structure):
    _fields_ = [("ctx", ctypes.c_void_p), ("malloc", _MALLOC), ("calloc", _CALLOC),
                ("realloc", _REALLOC), ("free", _FREE)]


class _Handler(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char * 127), ("version", ctypes.c_uint8),
                ("allocator", _Allocator)]


class _Pages:
    """The allocator's four functions over libc's mmap, munmap, malloc."""

    def __init__(self, libc: Any) -> None:
        self.libc = libc
        self.mapped: dict[int, int] = {}  # address -> mapped length
        self.kept: dict[int, list[int]] = {}  # length -> freed mappings
        self.kept_bytes = 0
        self.active = False  # within own_pages(): freed mappings kept for reuse
        self.keep: object = None  # the handler's structure, which numpy points at
        self.lock = threading.Lock()  # (an array may be freed on another thread)

    def malloc(self, _ctx: int | None, size: int) -> int | None:
        if size < _SMALL:
            return int(self.libc.malloc(max(size, 1)) or 0) or None
        return self._map(size)[0]

    def calloc(self, _ctx: int | None, nelem: int, elsize: int) -> int | None:
        size = nelem * elsize
        if size < _SMALL:
            return int(self.libc.calloc(max(size, 1), 1) or 0) or None
        at, fresh = self._map(size)
        if at is not None and not fresh:  # (a fresh mapping is zeros already)
            ctypes.memset(at, 0, size)
        return at

    def _map(self, size: int) -> tuple[int | None, bool]:
        length = -(-size // 4096) * 4096
        with self.lock:
            spare = self.kept.get(length)
            at = spare.pop() if spare else None
            self.kept_bytes -= length if at is not None else 0
        if at is not None:
            fresh = False
        else:
            at, fresh = self.libc.mmap(None, length, _PROT, _FLAGS, -1, 0), True
            if at in (None, ctypes.c_void_p(-1).value):
                return None, fresh
        with self.lock:
            self.mapped[at] = length
        return int(at), fresh

    def realloc(self, ctx: int | None, at: int | None, size: int) -> int | None:
        if not at:
            return self.malloc(ctx, size)
        old = self.mapped.get(at)
        if old is None and size < _SMALL:
            return int(self.libc.realloc(at, max(size, 1)) or 0) or None
        new = self.malloc(ctx, size)
        if new is not None:
            has = old if old is not None else self.libc.malloc_usable_size(at)
            ctypes.memmove(new, at, min(has, size))
            self.free(ctx, at, 0)
        return new

    def free(self, _ctx: int | None, at: int | None, _size: int) -> None:
        if not at:
            return
        with self.lock:
            length = self.mapped.pop(at, None)
            keep = self.active and length is not None and self.kept_bytes + length <= _KEEP
            if keep and length is not None:
                self.kept.setdefault(length, []).append(at)
                self.kept_bytes += length
        if length is None:
            self.libc.free(at)
        elif not keep:
            self.libc.munmap(at, length)

    def let_go(self) -> None:
        """Hand back the freed mappings kept for reuse."""
        with self.lock:
            kept, self.kept, self.kept_bytes = self.kept, {}, 0
        for length, spare in kept.items():
            for at in spare:
                self.libc.munmap(at, length)


#: The handler's capsule, ``PyDataMem_SetHandler`` and the pages, made once, kept.
_made: list[tuple[Any, Any, _Pages] | None] = []


def _handler() -> tuple[Any, Any, _Pages] | None:
    """The capsule of numpy's handler mapping arrays on pages of their own,
    ``PyDataMem_SetHandler`` and the pages; None without glibc or numpy's
    table."""
    if not _made:
        _made.append(_make())
    return _made[0]


def _make() -> tuple[Any, Any, _Pages] | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        import numpy._core._multiarray_umath as umath

        libc = ctypes.CDLL(None)
        for name, rest, args in (
            ("mmap", ctypes.c_void_p, [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int,
                                       ctypes.c_int, ctypes.c_int, ctypes.c_long]),
            ("munmap", ctypes.c_int, [ctypes.c_void_p, ctypes.c_size_t]),
            ("malloc", ctypes.c_void_p, [ctypes.c_size_t]),
            ("calloc", ctypes.c_void_p, [ctypes.c_size_t, ctypes.c_size_t]),
            ("realloc", ctypes.c_void_p, [ctypes.c_void_p, ctypes.c_size_t]),
            ("free", None, [ctypes.c_void_p]),
            ("malloc_usable_size", ctypes.c_size_t, [ctypes.c_void_p]),
        ):
            getattr(libc, name).restype, getattr(libc, name).argtypes = rest, args
        api = ctypes.pythonapi
        api.PyCapsule_GetPointer.restype = ctypes.c_void_p
        api.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
        api.PyCapsule_New.restype = ctypes.py_object
        api.PyCapsule_New.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
        table = ctypes.cast(api.PyCapsule_GetPointer(umath._ARRAY_API, None),
                            ctypes.POINTER(ctypes.c_void_p))
    except (OSError, AttributeError, ImportError, ValueError):
        return None
    pages = _Pages(libc)
    handler = _Handler(b"ndcg_own_pages", 1, _Allocator(
        None, _MALLOC(pages.malloc), _CALLOC(pages.calloc), _REALLOC(pages.realloc),
        _FREE(pages.free)))
    capsule = api.PyCapsule_New(ctypes.addressof(handler), b"mem_handler", None)
    set_handler = ctypes.PYFUNCTYPE(ctypes.py_object, ctypes.py_object)(table[_SET_HANDLER])
    pages.keep = handler  # the structure outlives every array
    return capsule, set_handler, pages


@contextmanager
def own_pages() -> Iterator[None]:
    """Within: numpy's arrays made on this thread (and context) mapped on
    pages of their own, handed back when freed (they keep the handler that
    made them, wherever they are freed); nothing changed where numpy's
    table or glibc is missing."""
    made = _handler()
    if made is None:
        yield
        return
    capsule, set_handler, pages = made
    before = set_handler(capsule)
    pages.active = True
    try:
        yield
    finally:
        pages.active = False
        set_handler(before)
        pages.let_go()
