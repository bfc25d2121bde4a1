"""A function run in a forked child process, its result handed back through
a memory file: the second core for work that threads cannot split.

Why: the fast TREC reader's pieces hold the interpreter lock about a quarter
of their time (numpy's many short calls), so two threads scan a file barely
faster than one (1.06x for ~1.3x the CPU); two processes scan it 1.45-1.75x
as fast (docs/benchmarks.md, h37read and h38fork). :func:`start` forks, the
child runs the function and pickles its result (protocol 5: numpy arrays'
bytes out of band, each written straight into an anonymous memory file,
``memfd_create``), says so through a pipe and exits; :meth:`Child.result`
waits for that word (not for the exit: a child's exit, its memory given
back, took 7-19 ms after its last write at 2M candidates), maps the file
copy-on-write and unpickles the result, whose arrays view the mapping: the
parent copies nothing and touches only the pages it reads. The child is
reaped by :meth:`Child.cancel`, which the caller calls in any case.

With ``parts``, each part of the result has a memory file of its own, given
back once its arrays are dropped.

Only where it is safe and cheap: Linux (``fork`` and ``memfd_create``), a
process with no other thread (a fork copies the calling thread only: a lock
another thread holds would stay held in the child) and without Qt loaded
(its state is not to be copied; the editor's launch forks before it loads
Qt, :func:`core.io.trec.both.read_ahead`), and unless the environment says
``NDCG_WORKSHEET_READ_FORK=0`` (to compare with the threads). Elsewhere
:func:`start` returns None and the caller does the work itself. A child that
raises, crashes, is killed or writes what cannot be read gives
:data:`FAILED`: the caller then does the work itself, so its messages are
the ones it always gave.
"""

from __future__ import annotations

import mmap
import os
import pickle
import signal
import sys
import threading
from collections.abc import Callable
from typing import Any

__all__ = ["FAILED", "SWITCH", "Child", "can_fork", "start"]

#: The environment variable that turns the child off ("0").
SWITCH = "NDCG_WORKSHEET_READ_FORK"
#: What :meth:`Child.result` gives for a child that did not finish.
FAILED: Any = object()
#: Arrays' bytes start at multiples of this in the memory file.
_ALIGN = 64
_TRAILER = 8  # the file ends with the length of its table of contents


def can_fork() -> bool:
    """Whether :func:`start` would fork here and now."""
    return (hasattr(os, "fork") and hasattr(os, "memfd_create")
            and os.environ.get(SWITCH, "1") != "0"
            and threading.active_count() == 1
            and not any(qt in sys.modules for qt in ("PySide6", "PyQt6", "PyQt5", "shiboken6")))


class Child:
    """A forked child running a function (:func:`start`)."""

    def __init__(self, pid: int, files: list[int], said: int) -> None:
        self._pid: int | None = pid
        self._files = files
        #: The pipe's end the child writes one byte to once its result is
        #: written (its end of file: the child ended without one).
        self._said: int | None = said
        #: Whether the child's result was taken (it is then left to exit by
        #: itself, and :meth:`cancel` only reaps it).
        self._taken = False
        #: Held while the child is reaped: :meth:`kill`, from another
        #: thread, never signals an id reaped (and perhaps reused) meanwhile.
        self._lock = threading.Lock()

    def result(self) -> Any:
        """The function's result once the child has written it (waits for
        its word, not for its exit), or :data:`FAILED` if it raised,
        crashed or was killed first, or its result cannot be read."""
        if self._pid is None or self._said is None:
            return FAILED
        try:
            if os.read(self._said, 1) != b"\1":  # its end: no result written
                return FAILED
            self._taken = True
            parts = [_load(fd) for fd in self._files]
        except Exception:  # a result that cannot be read: a failed child
            return FAILED
        finally:
            self._close()
        return parts[0] if len(parts) == 1 else tuple(parts)

    def cancel(self) -> None:
        """End the child (its result is not wanted) and wait for it; a child
        whose result was taken is only waited for (it is exiting)."""
        with self._lock:
            if self._pid is not None:
                if not self._taken:
                    os.kill(self._pid, signal.SIGKILL)  # our own child, by its id
                os.waitpid(self._pid, 0)
                self._pid = None
                self._close()

    def kill(self) -> None:
        """End the child now, from any thread (a stopped read,
        :mod:`core.io.stop`): :meth:`result` then gives :data:`FAILED` and
        :meth:`cancel` reaps it."""
        with self._lock:
            if self._pid is not None:
                os.kill(self._pid, signal.SIGKILL)  # our own child, not yet reaped

    def _close(self) -> None:
        for fd in self._files:
            os.close(fd)
        self._files = []
        if self._said is not None:
            os.close(self._said)
            self._said = None


def start(fn: Callable[..., Any], *args: Any, parts: int = 1) -> Child | None:
    """``fn(*args)`` run in a forked child (see the module); None where no
    child can be forked (the caller does the work itself). With ``parts`` >
    1, ``fn`` returns a tuple of that many values, each handed back in a
    memory file of its own: its memory is given back once its arrays are
    dropped (in one file, the first part's pages would stay as long as the
    last part's arrays)."""
    if not can_fork():
        return None
    files: list[int] = []
    try:  # any may be refused (too many files open, no memory, a sandbox)
        files += os.pipe2(os.O_CLOEXEC)
        files += [os.memfd_create("ndcg-worksheet-part", os.MFD_CLOEXEC) for _ in range(parts)]
        pid = os.fork()
    except OSError:
        for fd in files:
            os.close(fd)
        return None
    said, says = files[:2]
    if pid == 0:  # the child: never returns
        code = 1
        try:
            value = fn(*args)
            for fd, part in zip(files[2:], value if parts > 1 else (value,), strict=True):
                _dump(part, fd)
            os.write(says, b"\1")  # written whole: the parent may take it now
            code = 0
        finally:
            os._exit(code)  # no atexit handlers, no flushing the parent's buffers
    os.close(says)  # (the child's alone: its end of file is the child's end)
    return Child(pid, files[2:], said)


def _dump(value: Any, fd: int) -> None:
    """``value`` pickled into the memory file: each out-of-band buffer at an
    aligned offset, then the pickle, then the table of contents."""
    buffers: list[pickle.PickleBuffer] = []
    head = pickle.dumps(value, protocol=5, buffer_callback=buffers.append)
    places: list[tuple[int, int]] = []
    at = 0
    for buffer in buffers:
        raw = buffer.raw()
        at += _write(fd, bytes(-at % _ALIGN))
        places.append((at, raw.nbytes))
        at += _write(fd, raw)
    contents = pickle.dumps((at, len(head), places), protocol=5)
    _write(fd, head)
    _write(fd, contents)
    _write(fd, len(contents).to_bytes(_TRAILER, "little"))


def _write(fd: int, data: bytes | memoryview) -> int:
    view = memoryview(data).cast("B")
    done = 0
    while done < view.nbytes:
        done += os.write(fd, view[done:])
    return done


def _load(fd: int) -> Any:
    """The value :func:`_dump` wrote, its arrays viewing a private
    (copy-on-write) mapping of the file."""
    size = os.fstat(fd).st_size
    whole = memoryview(mmap.mmap(fd, size, access=mmap.ACCESS_COPY))
    n = int.from_bytes(whole[size - _TRAILER:], "little")
    at, head_size, places = pickle.loads(whole[size - _TRAILER - n: size - _TRAILER])
    buffers = [whole[start:start + length] for start, length in places]
    return pickle.loads(whole[at:at + head_size], buffers=buffers)
