"""The C allocator's settings for reading big files column-wise (glibc only).

The fast reader works through a file in pieces of about 1 MiB, each making
and dropping a few MB of numpy temporaries, and the engine then makes and
drops arrays of tens of MB. With glibc's default settings the freed memory
at the top of the heap is handed back to the system after every piece (its
trim threshold follows the size of the last large block freed) and the
reader's worker threads each get an arena of their own, so every piece
touches fresh pages again: a 2,000,000-row run took ~150,000 page faults
and a second of system time. :func:`tune` keeps blocks under 32 MiB in the
heap, keeps up to 64 MiB free at its top and makes threads share one arena:
~60,000 faults, with a lower peak. Blocks from 4 MiB mapped on their own
instead (given back when freed, so the engine's 16.8 MB arrays do not miss
the holes the read and the join leave in the heap) lowered evaluate's peak
on a 2,000,000-row run by 10-20 MiB (defaults 281-287 -> 270-273 MiB,
trec_eval preset 271-282 -> 258-262) for ~35,000 more page faults, but a
comparison of two such runs took ~360,000 more faults and 0.7-1.0 s more
CPU (of 3.6 s; its peak 740 -> 676 MiB): not kept; 4 MiB for evaluate
alone (chosen per command), measured once the engine held less (h38mem,
docs/benchmarks.md): defaults 228 -> 212 MiB, trec_eval preset 237 -> 224,
for 0.08-0.18 s more CPU of ~1.3 s, with evaluate already at 0.53-0.56x
pytrec_eval's peak: not built. Handing the heap's free
memory back once a document was read (``malloc_trim``) lowered the peak by
0-10 MB and cost the engine's first pass its page faults again (0.1-0.5 s at
2,000,000 rows on this machine's VM, where first touching a page costs 4-40
us).
"""

from __future__ import annotations

import ctypes
import sys
from typing import Any

__all__ = ["PAIR_MAP_FROM", "hand_back", "map_from", "tune"]

# mallopt parameters (glibc's malloc.h).
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD, _M_ARENA_MAX = -1, -3, -8
_SETTINGS = ((_M_MMAP_THRESHOLD, 32 << 20), (_M_TRIM_THRESHOLD, 64 << 20), (_M_ARENA_MAX, 1))

_tuned: bool | None = None  # None until tune() is first called

#: The block size from which the command line's ``compare`` of two runs
#: maps blocks on their own (given back when freed), from before it reads
#: both runs side by side: the few temporaries past 16 MiB (the joins', the
#: comparison's) no longer raise the heap's high-water mark above the two
#: documents. At 2M rows a side peak RSS 345.6 -> 308.7 MB (defaults),
#: 360.8 -> 333.7 MB (trec_eval preset) with the scores released, no more
#: page faults, no CPU told; 4 MiB once the runs are read saved no more
#: and took ~22,000 more faults, ~0.2 s of CPU (docs/benchmarks.md,
#: hcmpmem). The reader's pieces (~1 MiB) and the 2M-row columns (15.5
#: MiB) stay in the heap.
PAIR_MAP_FROM = 16 << 20


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


def map_from(size: int) -> bool:
    """Set the allocator as :func:`tune` does, then map blocks of ``size``
    bytes and more on their own (given back to the system when freed) for
    the rest of the process; whether it is set (False without glibc)."""
    libc = _libc()
    return tune() and libc is not None and libc.mallopt(_M_MMAP_THRESHOLD, size) == 1


def hand_back() -> None:
    """Hand the heap's free pages back to the system (``malloc_trim``): for
    a caller that holds two documents read side by side and allocates anew
    on other threads (:func:`core.io.pairs.read_judged_pair`)."""
    libc = _libc()
    if libc is not None:
        libc.malloc_trim(0)
