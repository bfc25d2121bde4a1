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

import os
import threading
from collections.abc import Callable, Hashable, Iterator
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


class _Call:
    """One call :func:`waited` runs on a helper thread: its result once
    ``done``; ``abandoned``, its caller stopped while it ran."""

    def __init__(self) -> None:
        self.done = threading.Event()
        self.out: list[tuple[bool, Any]] = []
        self.abandoned = False


#: The calls running on helper threads, by function, arguments and the
#: state of the files they name (:func:`_key`).
_CALLS: dict[Hashable, _Call] = {}
_CALLS_LOCK = threading.Lock()


def _file_state(name: str | os.PathLike[str]) -> tuple[int, ...] | None:
    """The state of the file ``name`` names, as far as a parse of it goes:
    which file (device and inode: a file put in its place by
    ``os.replace``), its size and modification time, and its status change
    time (a file rewritten in place with its old size and modification
    time, as ``cp -p``, ``rsync -t`` or an unzip leave it, changes it: the
    modification time alone let a reopen take the parse of the file as it
    was); None where it cannot be read (the parse says why). A file
    rewritten so within the tick of the kernel's clock (a few ms) of its
    previous change is not told apart: only its bytes would tell."""
    try:
        info = os.stat(name)
    except (OSError, ValueError):
        return None
    return (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)


def _key(fn: Callable[..., Any], args: tuple[Any, ...]) -> Hashable | None:
    """The call's key: ``fn``, ``args`` and, for each argument naming a
    file, the file's state (:func:`_file_state`: a file changed since is
    another call); None where an argument cannot be a key."""
    stamps = [_file_state(arg) if isinstance(arg, str | os.PathLike) else None
              for arg in args]
    key = (fn, args, tuple(stamps))
    try:
        hash(key)
    except TypeError:
        return None
    return key


def _start(fn: Callable[..., Any], args: tuple[Any, ...], key: Hashable | None) -> _Call:
    """``fn(*args)`` on a helper thread (kept under ``key`` while it runs)."""
    call = _Call()

    def run() -> None:
        try:
            call.out.append((True, fn(*args)))
        except BaseException as exc:  # (handed to the caller)
            call.out.append((False, exc))
        finally:
            with _CALLS_LOCK:
                if key is not None and _CALLS.get(key) is call:
                    del _CALLS[key]
                call.done.set()

    threading.Thread(target=run, name="stoppable-call", daemon=True).start()
    return call


def _wait(call: _Call) -> None:
    """Until ``call`` is done, looking at this thread's stop."""
    while not call.done.wait(LOOK_EVERY):
        check()


def _wait_other(call: _Call) -> None:
    """Until ``call``, another reader's, is done or its reader stopped (this
    one may take it over then: it waited for the whole call, then made it
    again), looking at this thread's stop."""
    while not call.done.wait(LOOK_EVERY):
        check()
        if call.abandoned:
            return


def waited(fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)``, run on a helper thread while this one looks at its
    stop every :data:`LOOK_EVERY` seconds: for one long call in native code
    that lets go of the interpreter lock but cannot look at the stop itself
    (calamine parsing an ``.ods``: 10-15 s of a 100,000-candidate workbook
    at load 6). At a stop, :class:`Stopped` is raised here at once; the
    helper ends when the call does. A read no stop can end (none set on this
    thread) calls ``fn`` here.

    No two of the same call run at once (the same function and arguments,
    the files they name unchanged): a call whose reader was stopped is taken
    over by the next one (an open right after a Cancel waits for the parse
    the Cancel left running and takes its result, where it started a second
    one beside it: twice the memory and the cores); one whose reader still
    waits for it is waited for, then made again (taken over, where its reader
    is stopped meanwhile)."""
    if current() is None:
        return fn(*args)
    check()
    key = _key(fn, args)
    while True:
        with _CALLS_LOCK:
            running = _CALLS.get(key) if key is not None else None
            if running is None:
                call = _start(fn, args, key)
                if key is not None:
                    _CALLS[key] = call
                break
            if running.abandoned:  # its reader is gone: the result is this one's
                running.abandoned = False
                call = running
                break
        _wait_other(running)  # (another reader's: theirs, then this one's own)
    try:
        _wait(call)
    except Stopped:
        with _CALLS_LOCK:
            call.abandoned = not call.done.is_set()
        raise
    ok, value = call.out[0]
    if not ok:
        raise value
    return value  # type: ignore[no-any-return]
