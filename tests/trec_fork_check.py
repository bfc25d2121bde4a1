"""The forked read of a run and its qrels against the threads', in a fresh
interpreter: the reader forks only in a process with no other thread and no
Qt loaded (:func:`core.io.child.can_fork`), and pytest-qt loads Qt into the
test process. ``tests/test_trec_fork.py`` runs this file:

- ``python tests/trec_fork_check.py property``: a hypothesis property over
  drawn runs and qrels (regular or not, split anywhere, read in small
  pieces): the forked read gives the threads' columns, column for column,
  and the same document or the same message; so does a child that is
  killed or raises (its share is then read in the parent);
- ``python tests/trec_fork_check.py cases``: hand-made hostile cases, one
  per line of output, and when the reader may fork at all;
- ``python tests/trec_fork_check.py handback``: a child's result taken
  before the child has exited.

Each check raises AssertionError (exit status 1, the message on stderr); the
last line of output counts the reads that forked.
"""

from __future__ import annotations

import gzip
import os
import select
import signal
import sys
import threading
import types
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from core.errors import InputError
from core.io import child
from core.io.trec import both, join, scan
from core.io.trec.columns import Table

MODES = ("threads", "fork", "killed", "raises", "garbled")
forked = 0


def _killed(*_: Any) -> Any:
    os.kill(os.getpid(), signal.SIGKILL)


def _raises(*_: Any) -> Any:
    raise InputError("the child's own message, never shown")


def _garbled(value: Any, fd: int) -> None:
    os.write(fd, b"not a pickle" * 3)


@contextmanager
def mode(name: str, head: float, chunk: int) -> Iterator[None]:
    """Reads as ``name`` says: on threads, or with a child (that is killed
    or raises), the child's share starting at ``head`` of the run."""
    global forked
    saved = (both._FORK_FROM, both._HEAD, scan._CHUNK, both._rest_and_qrels, child.start,
             child._dump)
    os.environ[child.SWITCH] = "0" if name == "threads" else "1"
    both._FORK_FROM, both._HEAD, scan._CHUNK = 0, head, chunk
    if name in ("killed", "raises"):
        both._rest_and_qrels = _killed if name == "killed" else _raises
    if name == "garbled":  # the child ends well, but what it wrote cannot be read
        child._dump = _garbled
    started = saved[4]

    def counted(*args: Any, **kwargs: Any) -> child.Child | None:
        global forked
        got = started(*args, **kwargs)
        forked += got is not None
        return got

    child.start = counted
    try:
        yield
    finally:
        (both._FORK_FROM, both._HEAD, scan._CHUNK, both._rest_and_qrels, child.start,
         child._dump) = saved
        with suppress(ChildProcessError):  # none: every child was waited for
            raise AssertionError(f"a child was left: {os.waitpid(-1, os.WNOHANG)}")


def columns(table: Table | None) -> Any:
    """A table's columns, comparable."""
    if table is None:
        return None
    q = table.query
    return (table.number.tobytes(), table.line.tolist(), q.code.tolist(), q.key.tolist(),
            q.raw.tolist(), q.first.tolist(), table.source.arena.tobytes(),
            table.source.offset.tolist(), table.source.ascii, table.source_key.tolist())


def outcome(run: Path, qrels: Path, name: str, head: float, chunk: int) -> Any:
    """What the reader gives: both files' columns and the document, or the
    message (with its file and line)."""
    with mode(name, head, chunk):
        try:
            got, table = both.read_both(run, qrels, 2)
            read = (columns(got._table), columns(table))
            doc = join.document_from_trec(run, qrels, unshared=True)
        except InputError as exc:
            return ("refused", str(exc), exc.file, exc.line)
    return read, (doc.query_ids, doc.query.tolist(), doc.source_id.tolist(),
                  doc.score.tobytes(), doc.grade.tobytes(), doc.unjudged_queries)


def same_everywhere(run: Path, qrels: Path, head: float, chunk: int) -> Any:
    expected = outcome(run, qrels, "threads", head, chunk)
    for name in MODES[1:]:
        got = outcome(run, qrels, name, head, chunk)
        assert got == expected, f"{name} (head {head}, chunk {chunk}): {got!r:.300} != " \
            f"{expected!r:.300}"
    return expected


_ID = st.text("abQ0_-9é", min_size=1, max_size=5)
_SCORE = st.sampled_from(["1", "0.5", "-2.25", "3e2", "7", "0.125"])
_BAD = st.sampled_from(["", "q1 Q0 x 1 nan t", "q1 Q0 x 1", "q1 Q0 x 1 high t", "q1\tQ0 y 1 2 t",
                        "q1 Q0 z 1 2 t extra"])


@settings(max_examples=34, deadline=None, derandomize=True)
@given(rows=st.lists(st.tuples(st.integers(0, 3), _ID, _SCORE), min_size=1, max_size=60),
       judged=st.lists(st.tuples(st.integers(0, 4), _ID, st.integers(0, 3)), max_size=30),
       bad=st.tuples(_BAD, st.floats(0, 1)), qrels_bad=st.booleans(), crlf=st.booleans(),
       head=st.floats(0.01, 0.99), chunk=st.sampled_from([16, 64, 1 << 20]),
       tag=st.sampled_from(["tag", "BM25 tuned"]))
def forked_equals_threads(rows: list[tuple[int, str, str]], judged: list[tuple[int, str, int]],
                          bad: tuple[str, float], qrels_bad: bool, crlf: bool, head: float,
                          chunk: int, tag: str) -> None:
    end = "\r\n" if crlf else "\n"
    seen = set()
    lines = []
    for i, (q, source, score) in enumerate(rows):
        if (q, source) not in seen:
            seen.add((q, source))
            lines.append(f"q{q} Q0 {source} {i + 1} {score} {tag}")
    at = int(bad[1] * len(lines))
    if bad[0]:
        lines.insert(at, bad[0])
    pairs = {(q, source): grade for q, source, grade in judged}
    qrels_lines = [f"q{q} 0 {source} {grade}" for (q, source), grade in pairs.items()]
    if qrels_bad:
        qrels_lines.insert(len(qrels_lines) // 2, "q1 0 z high")
    with TemporaryDirectory() as folder:
        run, qrels = Path(folder) / "r.txt", Path(folder) / "q.txt"
        run.write_bytes("".join(line + end for line in lines).encode())
        qrels.write_bytes("".join(line + end for line in qrels_lines).encode())
        same_everywhere(run, qrels, head, chunk)


def read_ahead(run: Path, qrels: Path) -> None:
    """The editor's launch: the child forked on the main thread before the
    reading thread starts (:func:`core.io.trec.both.read_ahead`), taken by
    the read there; or ended unused (:func:`core.io.trec.both.end_ahead`)."""
    run.write_text("".join(f"q{i % 7} Q0 d{i} {i} {i % 5}.5 t\n" for i in range(900)))
    qrels.write_text("".join(f"q{i % 7} 0 d{i} {i % 3}\n" for i in range(0, 900, 2)))
    read, expected = outcome(run, qrels, "threads", 0.5, 256)
    with mode("fork", 0.5, 256):
        both.read_ahead(run, qrels)
        assert len(both._AHEAD) == 1
        got: list[Any] = []
        reading = threading.Thread(target=lambda: got.append(
            join.document_from_trec(run, qrels, unshared=True)))
        reading.start()  # (no fork from here: another thread runs)
        reading.join()
        assert not both._AHEAD
        doc = got[0]
        assert (doc.query_ids, doc.query.tolist(), doc.source_id.tolist(), doc.score.tobytes(),
                doc.grade.tobytes(), doc.unjudged_queries) == expected
        both.read_ahead(run, qrels)
        both.end_ahead(run, qrels)  # refused before the read: the child ended, none left
        assert not both._AHEAD
    with mode("fork", 0.5, 1 << 20):  # the child's share in one piece
        handed_back(run, qrels, read[0])
    # A run whose tag holds spaces: its layout decided before the fork, the
    # child reads its share too (it refused it, and the run was read again here).
    run.write_text(run.read_text().replace(" t\n", " BM25 tuned\n"))
    with mode("fork", 0.5, 1 << 20):
        handed_back(run, qrels, read[0])
    print("read ahead -> read", flush=True)


def handed_back(run: Path, qrels: Path, expected: Any) -> None:
    """The child's rows are not handed back: it reads them into memory shared
    with this process (core.io.trec.columns.Room), where the run's columns
    then are, its first rows copied in before them; its memory file holds
    the pieces' query ids and the lines' bookkeeping, not a column."""
    loaded, sizes = child._load, []

    def load(fd: int) -> Any:
        sizes.append(os.fstat(fd).st_size)
        return loaded(fd)

    child._load = load
    try:
        both.read_ahead(run, qrels)
        ahead = both._AHEAD[str(run), str(qrels)]
        got, _ = both.read_both(run, qrels, 2)
    finally:
        child._load = loaded
    table = got._table
    assert table is not None
    assert table.number.size == 900
    assert columns(table) == expected
    assert sizes[0] < 4 * 900 // 2, sizes  # before: its columns, ~18 KB at its 720 rows
    room = ahead[2]
    for mine, shared in ((table.number, room.number), (table.source_key, room.key),
                         (table.source.offset, room.offset), (table.source.arena, room.arena)):
        assert np.shares_memory(mine, shared)


def _stuck(*_: Any) -> Any:
    """A child's share that does not end (until killed; 20 s at most)."""
    threading.Event().wait(20)
    raise AssertionError("the stopped read's child was not killed")


def stopped(folder: Path) -> None:
    """The editor's launch read stopped from another thread (a window closed
    while it reads: core.io.stop), once while this process reads its pieces
    and once while it waits for its child (stuck: only a kill ends it): the
    read gives Stopped, reads no piece after the stop, and leaves no child."""
    from core.io.stop import Stop, Stopped, stoppable

    run, qrels = folder / "r.txt", folder / "q.txt"
    run.write_text("".join(f"q{i % 7} Q0 d{i} {i} {i % 5}.5 t\n" for i in range(900)))
    qrels.write_text("".join(f"q{i % 7} 0 d{i} {i % 3}\n" for i in range(0, 900, 2)))
    read_piece, result = scan._read_piece, child.Child.result
    for when in ("reading", "waiting"):
        stop, there, gate, pieces = Stop(), threading.Event(), threading.Event(), []

        def counted(*args: Any, when: str = when, pieces: list[int] = pieces,
                    there: threading.Event = there, gate: threading.Event = gate) -> Any:
            pieces.append(1)
            if when == "reading" and len(pieces) == 2:
                there.set()
                gate.wait(20)
            return read_piece(*args)

        def waited(part: child.Child, there: threading.Event = there) -> Any:
            there.set()
            return result(part)

        scan._read_piece, child.Child.result = counted, waited
        try:
            with mode("fork", 0.5, 256):
                both._rest_and_qrels = _stuck
                both.read_ahead(run, qrels)
                got: list[Any] = []

                def read(stop: Stop = stop, got: list[Any] = got) -> None:
                    with stoppable(stop):
                        try:
                            got.append(join.document_from_trec(run, qrels, unshared=True))
                        except Stopped as exc:
                            got.append(exc)

                reading = threading.Thread(target=read)
                reading.start()
                assert there.wait(20)
                seen = len(pieces)
                stop.set()
                gate.set()
                reading.join(20)
        finally:
            scan._read_piece, child.Child.result = read_piece, result
        assert not reading.is_alive(), when
        assert [type(g).__name__ for g in got] == ["Stopped"], (when, got)
        assert len(pieces) == seen, (when, len(pieces), seen)  # none read after the stop
        assert not both._AHEAD
        try:
            os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:  # no child at all: none left
            pass
        else:
            raise AssertionError(f"stopped while {when}: a child left")
        print(f"stopped while {when} -> after {seen} pieces, no child left", flush=True)


def cases(folder: Path) -> None:
    """Hand-made cases: each line of bad input in the child's share, and
    the conditions under which the reader forks."""
    body = "".join(f"q{i % 7} Q0 d{i} {i} {i % 5}.5 t\n" for i in range(900))
    judged = "".join(f"q{i % 7} 0 d{i} {i % 3}\n" for i in range(0, 900, 2))
    files = {
        "plain": (body, judged),
        "bad score past the split": (body + "q1 Q0 f 4 nan t\n", judged),
        "short line past the split": (body[:-40] + "q1 Q0 f\n" + body[-40:], judged),
        "bad grade in the qrels": (body, judged + "q1 0 f high\n"),
        "twice in the run, across the split": (body + "q0 Q0 d0 1 1 t\n", judged),
        "binary qrels": (body, "\x00\x01" + judged),
        # A run tag holding spaces (ranx's run named so): read column-wise.
        "spaced tag": (body.replace(" t\n", " BM25 tuned\n"), judged),
        "spaced tag differing past the split": (
            body.replace(" t\n", " BM25 tuned\n") + "q1 Q0 f 4 1.5 BM25 tune\n", judged),
    }
    documents = {}
    for name, (run_text, qrels_text) in files.items():
        run, qrels = folder / "r.txt", folder / "q.txt"
        run.write_text(run_text)
        qrels.write_text(qrels_text)
        got = same_everywhere(run, qrels, 0.5, 256)
        documents[name] = got[1]
        print(name, "->", got[1] if got[0] == "refused" else "read", flush=True)
    assert documents["spaced tag"] == documents["plain"]
    run, qrels = folder / "r.txt", folder / "q.txt"
    run.write_text(body)
    qrels.write_text(judged)
    expected = same_everywhere(run, qrels, 0.5, 256)
    packed = folder / "r.txt.gz"  # read from its start on threads, never split
    packed.write_bytes(gzip.compress(body.encode()))
    got = same_everywhere(packed, qrels, 0.5, 256)
    assert got == expected, f"{got!r:.300} != {expected!r:.300}"
    print("gzip run ->", "read", flush=True)
    got = same_everywhere(folder / "r.txt", folder / "missing.txt", 0.5, 256)
    print("missing qrels ->", got[1], flush=True)
    read_ahead(folder / "r.txt", folder / "q.txt")
    assert child.can_fork()
    made = os.memfd_create

    def refused(*_: Any) -> int:
        raise OSError(24, "Too many open files")

    os.memfd_create = refused  # then the caller reads on threads
    try:
        assert child.start(len, "x") is None
    finally:
        os.memfd_create = made
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    assert not child.can_fork(), "forked beside another thread"
    stop.set()
    other.join()
    sys.modules.setdefault("PySide6", types.ModuleType("PySide6"))  # as an import leaves it
    assert not child.can_fork(), "forked with Qt loaded"


def handback() -> None:
    """A child's result is taken once it is written, not once the child has
    exited (at 2M candidates its exit, its memory given back, came 7-19 ms
    later): here the child's exit waits until the parent has its result
    (20 s at most), and :meth:`child.Child.cancel` then reaps it."""
    hold, release = os.pipe()
    real_exit = os._exit

    def lingering(code: int) -> None:  # the child's exit (the parent's is never called)
        select.select([hold], [], [], 20)
        real_exit(code)

    os._exit = lingering  # type: ignore[assignment]
    try:
        part = child.start(lambda: np.arange(5))
    finally:
        os._exit = real_exit
    assert part is not None
    pid = part._pid
    assert part.result().tolist() == [0, 1, 2, 3, 4]
    assert pid is not None
    assert os.waitpid(pid, os.WNOHANG) == (0, 0), "waited for its exit"
    os.write(release, b"x")
    part.cancel()
    with suppress(ChildProcessError):  # none: the child was reaped
        raise AssertionError(f"a child was left: {os.waitpid(-1, os.WNOHANG)}")
    print("handed back before its exit, then reaped")


if __name__ == "__main__":
    if sys.argv[1] == "property":
        forked_equals_threads()
    elif sys.argv[1] == "handback":
        handback()
    elif sys.argv[1] == "stopped":
        with TemporaryDirectory() as top:
            stopped(Path(top))
    else:
        with TemporaryDirectory() as top:
            cases(Path(top))
    print("forked", forked)
