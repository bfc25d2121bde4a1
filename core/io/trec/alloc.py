"""The C allocator's settings for reading big files column-wise (glibc only).

The fast reader works through a file in pieces of about 1 MiB, each making
and dropping a few MB of numpy temporaries, and the engine then makes and
drops arrays of tens of MB. With glibc's default settings the freed memory
at the top of the heap is handed back to the system after every piece (its
trim threshold follows the size of the last large block freed) and the
reader's worker threads each get an arena of their own, so every piece
touches fresh pages again: a 2,000,000-row run took ~150,000 page faults
and a second of system time. :func:`tune` keeps blocks under 4 MiB in the
heap, keeps up to 64 MiB free at its top and makes threads share one arena:
~60,000 faults, with a lower peak. Blocks of 4 MiB and more (the columns
and the engine's arrays: 16.8 MB each at 2,000,000 rows) are mapped on
their own and given back when freed. Kept in the heap (under 32 MiB, as
before), the engine's arrays did not fit the holes the read and the join
left there (23-72 MiB free in the heap at evaluate's peak, varying with the
reading threads' timing): evaluate's peak on a 2,000,000-row run was
281-287 MiB (defaults) and 271-279 MiB (trec_eval preset), now 272 and
258-262 MiB, turn to turn within a few MiB, for ~35,000 more page faults
(CPU the same within the noise; 1 MiB gave 268 / 250 MiB for ~0.15-0.28 s
more CPU; 8 MiB 282 / 264 MiB). Handing the heap's free memory back once
a document was read (``malloc_trim``) lowered the peak by 0-10 MB and cost
the engine's first pass its page faults again (0.1-0.5 s at 2,000,000 rows
on this machine's VM, where first touching a page costs 4-40 us).
"""

from __future__ import annotations

import ctypes
import sys
from typing import Any

__all__ = ["tune"]

# mallopt parameters (glibc's malloc.h).
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD, _M_ARENA_MAX = -1, -3, -8
_SETTINGS = ((_M_MMAP_THRESHOLD, 4 << 20), (_M_TRIM_THRESHOLD, 64 << 20), (_M_ARENA_MAX, 1))

_tuned: bool | None = None  # None until tune() is first called


def _libc() -> Any | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(None)
        libc.mallopt  # noqa: B018 - glibc has it; musl does not
    except (OSError, AttributeError):
        return None
    return libc


def tune() -> bool:
    """Set the allocator for big column-wise reads (once per process); whether
    it is set (False without glibc: macOS, Windows, musl, where it does
    nothing)."""
    global _tuned
    if _tuned is None:
        libc = _libc()
        _tuned = libc is not None and all(
            libc.mallopt(parameter, value) == 1 for parameter, value in _SETTINGS)
    return _tuned

