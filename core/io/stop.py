"""A read stopped from another thread, between its pieces.

The editor reads a run given at launch on a thread while its window shows
(``app.opening``); a window closed meanwhile does not want the document.
File > Open reads on a worker whose Cancel is the same stop
(``app.workers.Task``). The thread reads inside :func:`stoppable`;
:meth:`Stop.set`, from any thread, makes the reader raise :class:`Stopped`
at its next look (:func:`check`): the fast TREC reader's and the worksheet
reader's before each piece (about a megabyte apart), the join between its
sorts and searches, the line-by-line readers (TREC, worksheet CSV) every
:data:`LINES` lines, a workbook's safety check before each piece of each
part it unpacks (``core.io.safety.parts.stream_part``), a workbook before
each sheet; and it kills the forked child that reads the run's last part
and the qrels (:meth:`Stop.killing`): the read ends within a piece, nothing
half read is returned, no child is left.

The stop travels with the reading thread's context (a ``ContextVar``), not
through every reader's arguments: a read started elsewhere (the command
line, a test) is never stopped and pays one lookup a piece.

Writes look at it too: an export or a save (the editor's run on a task)
raises :class:`Stopped` before
each batch of Candidates rows and each sheet, at each write of the
workbook's file (:class:`core.io.atomic.FirstErrorOnly`), every
:data:`LINES` lines of a CSV and before each sheet of the workbook it
replaces (reading what people added; calamine's parse of an ``.ods``, one
long call that cannot look, runs on a helper thread while the reading
thread looks: :func:`waited`); the file written is a temporary one, so the
target stays as it was.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar

from core.io.child import Child

__all__ = ["LINES", "LOOK_EVERY", "Stop", "Stopped", "check", "current", "stoppable", "waited"]

T = TypeVar("T")

#: Lines a line-by-line reader reads between two looks at its stop (a
#: look is one ``ContextVar`` lookup): 32,768 lines are 50-65 ms of CPU in
#: the slowest of those readers, the TREC ones, so the stop is seen within
#: that. The test beside each line did not show (262,144 lines, 5 alternating
#: turns of each: 398-422 against 400-413 ms without it, load 11).
LINES = 1 << 15
#: Seconds between two looks at the stop while a call that cannot look
#: itself runs on a helper thread (:func:`waited`).
LOOK_EVERY = 0.05


class Stopped(Exception):
    """The read was stopped (:meth:`Stop.set`): its document is not wanted."""


class Stop:
    """A stop for one read: set once, from any thread (``event``: an event
    of the caller's own, e.g. a task's cancel)."""

    def __init__(self, event: threading.Event | None = None) -> None:
        self._event = event or threading.Event()
        self._lock = threading.Lock()
        self._children: list[Child] = []

    def set(self) -> None:
        """Stop the read: the reader raises :class:`Stopped` at its next
        piece; the child helping it is killed (reaped by the reader)."""
        with self._lock:
            self._event.set()
            children = list(self._children)
        for part in children:
            part.kill()

    def is_set(self) -> bool:
        return self._event.is_set()

    @contextmanager
    def killing(self, part: Child) -> Iterator[None]:
        """``part`` killed when the read is stopped while it runs."""
        with self._lock:
            self._children.append(part)
            stopped = self._event.is_set()
        if stopped:
            part.kill()
        try:
            yield
        finally:
            with self._lock:
                self._children.remove(part)


_CURRENT: ContextVar[Stop | None] = ContextVar("ndcg_worksheet_read_stop", default=None)


def current() -> Stop | None:
    """The stop of the read on this thread (None: none can stop it)."""
    return _CURRENT.get()


@contextmanager
def stoppable(stop: Stop) -> Iterator[Stop]:
    """The reads made inside it, on this thread, stop when ``stop`` is set."""
    token = _CURRENT.set(stop)
    try:
        yield stop
    finally:
        _CURRENT.reset(token)


def check() -> None:
    """Raise :class:`Stopped` when this thread's read was stopped."""
    stop = _CURRENT.get()
    if stop is not None and stop.is_set():
        raise Stopped("the read was stopped")


def waited(fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)``, run on a helper thread while this one looks at its
    stop every :data:`LOOK_EVERY` seconds: for one long call in native code
    that lets go of the interpreter lock but cannot look at the stop itself
    (calamine parsing an ``.ods``: 10-15 s of a 100,000-candidate workbook
    at load 6). At a stop, :class:`Stopped` is raised here at once; the
    helper ends when the call does, its result dropped. A read no stop can
    end (none set on this thread) calls ``fn`` here."""
    if current() is None:
        return fn(*args)
    check()
    out: list[Any] = []
    done = threading.Event()

    def run() -> None:
        try:
            out.append((True, fn(*args)))
        except BaseException as exc:  # (handed to the caller)
            out.append((False, exc))
        finally:
            done.set()

    threading.Thread(target=run, name="stoppable-call", daemon=True).start()
    while not done.wait(LOOK_EVERY):
        check()
    ok, value = out[0]
    if not ok:
        raise value
    return value  # type: ignore[no-any-return]
