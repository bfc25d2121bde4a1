"""The end of a process whose command's work is done: its output flushed,
its exit handlers run, and the process ended at once, without the
interpreter's own ending (its last collection, the modules' teardown).

Why: after ``evaluate``'s last line on 2,000 queries x 1,000 candidates the
interpreter took ~30 ms more to end (a collection of ~27,000 objects ~10 ms,
then every module's teardown), serial wall time after the answer is out;
the kernel's own ending of the process (~15 ms for ~250 MB) stays
(docs/benchmarks.md, h38fork2).

Only where nothing is left to tidy: the command said so
(:func:`nothing_left`, after its output is written), no other thread runs
and standard output and error flush. Otherwise the usual ending, whose
messages (a reader that closed the pipe, say) are the ones it always gave.
Only the process's own entry points call :func:`end` (tests call ``main()``
in their own process, which goes on).
"""

from __future__ import annotations

import atexit
import os
import sys
import threading

__all__ = ["end", "nothing_left"]

_quick = False


def nothing_left() -> None:
    """Say that the command's work is done and nothing is left to tidy: no
    file of its own still open, no process to wait for."""
    global _quick
    _quick = True


def end(status: int) -> int:
    """For the process's own entry point, after the command returned
    ``status``: the process ended at once where :func:`nothing_left` was
    said and nothing else runs; else ``status``, for ``sys.exit``."""
    # CPython's own runner of the exit handlers (private: elsewhere, the usual ending)
    run_handlers = getattr(atexit, "_run_exitfuncs", None)
    if not _quick or threading.active_count() != 1 or run_handlers is None:
        return status
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
    except (OSError, ValueError):  # a closed pipe or stream: the usual ending says so
        return status
    run_handlers()  # what the usual ending runs first
    os._exit(status)
