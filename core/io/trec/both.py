"""Reading a run and its qrels side by side, for their join
(:func:`core.io.trec.join.document_from_trec`): on two threads, or, for a
large run, with a forked child (:mod:`core.io.child`) that reads the run's
last part and the qrels while the run's first part is read here (the
child's rows into memory shared with this process,
:class:`core.io.trec.columns.Room`: only the first part's are copied).

Messages come as if the files were read one after the other, on threads as
with a child: anything wrong in the run first, then anything in the qrels.
"""

from __future__ import annotations

import stat
import threading
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager, nullcontext
from contextvars import copy_context
from functools import partial
from pathlib import Path
from typing import cast

from core.errors import InputError
from core.io import child
from core.io.files import HEAD_BYTES, open_input
from core.io.stop import current as current_stop
from core.io.trec import alloc, scan
from core.io.trec.columns import Columns, Room, Table
from core.io.trec.read import QRELS_FIELDS, RUN_FIELDS, Layout, Run, layout_of
from core.io.trec.text import BOM

__all__ = ["end_ahead", "read_ahead", "read_both"]


def read_both(run_path: Path, qrels_path: Path, threads: int) -> tuple[Run, Table | None]:
    """The run read here and the qrels meanwhile: with a child process where
    one can be forked (:func:`_read_forked`), else on a second thread (both
    release the interpreter lock in numpy and in reading): the qrels'
    table, or None when the run or the qrels must be read line by line.

    Messages come as if the files were read one after the other: anything
    wrong in the run first (the qrels' scan is then stopped and waited for,
    its outcome dropped), then anything the qrels' scan raises.
    """
    alloc.tune()  # before the other threads' first allocation (one arena)
    ahead = (_AHEAD.pop((str(run_path), str(qrels_path)), None)
             or _fork(run_path, qrels_path, _HEAD))
    if ahead is not None:
        return _read_forked(run_path, qrels_path, *ahead)
    stop = threading.Event()
    # One pool reads both files' pieces (two threads in all: the cores); the
    # qrels' pieces are handed to it and copied out on a thread of their own.
    with (ThreadPoolExecutor(max_workers=threads) as pieces,
          ThreadPoolExecutor(max_workers=1) as lane):
        # (in this thread's context: a stopped read stops the qrels' too, core.io.stop)
        qrels = lane.submit(copy_context().run, partial(
            scan.scan_file, qrels_path, *QRELS_FIELDS, 1, stop, pieces))
        try:
            run = Run(run_path, pool=pieces)
        except BaseException:
            stop.set()
            raise
        if run._table is None:  # the line-by-line join reads the qrels itself
            stop.set()
            return run, None
        return run, qrels.result()


#: A run smaller than this is read with threads. Both files' read in a fresh
#: process (wall, 6 alternating turns, load 7-9): a 4 MB run 24-48 ms on
#: threads, 29-53 ms with a child (its start and hand-back cost what the
#: second core saves); 8.5 MB 62-83 -> 39-46 ms; 17 MB 91-127 -> 74-82 ms.
_FORK_FROM = 8 << 20
#: The share of a run's bytes read here while a child reads the rest and the
#: whole qrels (a qrels byte costs ~1.4x a run byte to scan, and the child
#: writes its columns out): with a 70 MB run and 15 MB of qrels this process
#: waited 0-10 ms for the child (one turn in four 70 ms), at 0.66 20-120 ms.
_HEAD = 0.72
#: The same for a child forked ahead of a read on a thread beside the
#: editor's start (:func:`read_ahead`): that thread shares the interpreter
#: with Qt's loading (the main thread's imports and window want it while the
#: thread scans), so the child, which shares nothing, takes most of the run.
#: The editor's launch on the 2M run (docs/benchmarks.md, hopen3; 6 rotating
#: turns a share, load 4-5, autogroup nice -20): usable after 1.11 / 1.23 s
#: at 0.55, 1.15 at 0.25, 1.02 / 1.08 s at 0.2, 1.24 s at 0.1 (the thread
#: then waits ~0.4 s for the child); at 0.55 the child was done 0.2-0.4 s
#: before the thread.
_HEAD_AHEAD = 0.2


def _split_at(path: Path, head: float) -> tuple[int, Layout] | None:
    """Where a child's share of the run starts (the start of the first line
    past ``head`` of its bytes) and the run's layout (told by its first
    bytes, read in the same opening), or None: the run is small, not a
    regular file (the reader names it), compressed (its bytes are not the
    text's: it is read from its start, on threads) or has no line break
    there."""
    try:
        info = path.stat()
        if not stat.S_ISREG(info.st_mode) or info.st_size < _FORK_FROM:
            return None
        at = int(info.st_size * head)
        with open_input(path) as fh:  # refuses a file swapped for a FIFO meanwhile
            if not fh.seekable():
                return None
            start = fh.read(HEAD_BYTES)
            fh.seek(at)
            found = fh.read(1 << 16).find(b"\n")
    except (OSError, InputError):
        return None
    split = at + found + 1
    layout = layout_of(start.removeprefix(BOM), cut=len(start) == HEAD_BYTES)
    return (split, layout) if found >= 0 and split < info.st_size else None


def _rest(run_path: Path, layout: Layout, split: int,
          room: Room | None = None) -> Columns | None:
    """The run's columns from byte ``split`` on, its lines laid out as
    ``layout`` says (the layout :class:`Run` reads the run's head with)."""
    return scan.scan_part(run_path, layout.fields, *RUN_FIELDS[1:], split, room,
                          tag=layout.ending)


def _rest_and_qrels(run_path: Path, layout: Layout, split: int, qrels_path: Path,
                    room: Room | None) -> tuple[Columns | None, Table | None]:
    """A child's share (:func:`_read_forked`): the run's columns from byte
    ``split`` on (into ``room``: the parent's copy of them is then their
    head's rows, not these), then the qrels' table (not read when the run's
    part has an irregular line: the line-by-line join reads the qrels
    itself)."""
    rest = _rest(run_path, layout, split, room)
    return rest, None if rest is None else scan.scan_file(qrels_path, *QRELS_FIELDS, 1)


#: A child reading a run's last part and its qrels (:func:`_fork`): where
#: its part starts, the child, the room it reads its rows into (or None),
#: and the run's layout it reads them in (the one the run's head is read
#: in: decided once, before the fork).
Forked = tuple[int, child.Child, Room | None, Layout]
#: Children started by :func:`read_ahead`, by the (run, qrels) they read.
_AHEAD: dict[tuple[str, str], Forked] = {}

#: A child reading more than this share of the run (the editor's launch, 80 %)
#: reads into a :class:`Room` (its rows then never copied back, the run's
#: head copied in before them); reading less (evaluate's 28 %), its columns
#: come back through its memory file, as the head's copy into a room costs
#: more than that (evaluate 0.97 -> 1.06 s wall, +0.1 s CPU, 8 turns each).
_ROOM_BELOW = 0.5


def _fork(run_path: Path, qrels_path: Path, head: float) -> Forked | None:
    """A child reading the run's last part (past ``head`` of its bytes) and
    the qrels (and where the part starts, and the room its rows are read
    into when it reads the most: :data:`_ROOM_BELOW`), where one can be
    forked and the run is large enough."""
    found = _split_at(run_path, head) if child.can_fork() else None
    if found is None:
        return None
    split, layout = found  # (a spaced tag's run is read by the child too)
    room = None
    if head < _ROOM_BELOW:
        try:
            room = Room(run_path.stat().st_size, split, layout.fields)
        except (OSError, ValueError):  # no memory to map: the threads read it
            return None
    part = child.start(_rest_and_qrels, run_path, layout, split, qrels_path, room, parts=2)
    return None if part is None else (split, part, room, layout)


def read_ahead(run: str | Path, qrels: str | Path) -> None:
    """Start the child of a later read of ``run`` with ``qrels`` now: for a
    process about to start threads and load Qt (the editor's launch, before
    its reading thread), which then cannot fork; the read, on any thread,
    takes it (:func:`read_both`). :func:`end_ahead` once the read is over."""
    key = str(Path(run)), str(Path(qrels))
    if key not in _AHEAD and (ahead := _fork(Path(run), Path(qrels), _HEAD_AHEAD)) is not None:
        _AHEAD[key] = ahead


def end_ahead(run: str | Path, qrels: str | Path) -> None:
    """End the child :func:`read_ahead` started if no read took it (the
    files were refused before the read, or read another way)."""
    ahead = _AHEAD.pop((str(Path(run)), str(Path(qrels))), None)
    if ahead is not None:
        ahead[1].cancel()


def _stopping(part: child.Child) -> AbstractContextManager[None]:
    """``part`` killed if this thread's read is stopped while it runs."""
    reading = current_stop()
    return nullcontext() if reading is None else reading.killing(part)


def _read_forked(run_path: Path, qrels_path: Path, split: int, part: child.Child,
                 room: Room | None, layout: Layout) -> tuple[Run, Table | None]:
    """The run's first ``split`` bytes read here while a forked child
    (``part``) reads the rest into ``room`` and the qrels
    (:func:`_rest_and_qrels`). A child that fails leaves its share to be
    read here, after the run's first part, so messages are the threads'
    own."""
    qrels: list[Table | None] = []

    def rest() -> Columns | None:
        got = part.result()
        if got is child.FAILED:
            return _rest(run_path, layout, split)
        qrels.append(got[1])
        columns = cast(Columns | None, got[0])
        if columns is not None:
            columns.room = room  # where its rows are (Columns.absorb)
        return columns

    try:
        with _stopping(part):  # a stopped read kills the child (core.io.stop)
            run = Run(run_path, threads=1, tail=(split, rest), layout=layout)
    finally:
        part.cancel()  # nothing when its result was taken
    if run._table is None:  # the line-by-line join reads the qrels itself
        return run, None
    return run, qrels[0] if qrels else scan.scan_file(qrels_path, *QRELS_FIELDS)
