"""A reopen right after a Cancel (hpol4, item 5): calamine's parse of a
workbook, one native call that cannot look at the stop, goes on after the
Cancel (core.io.stop.waited: its reader returns at once); the reopen started
a second parse of the same file beside it (twice the memory and the cores).
Now no two parses of one file run at once: the reopen takes over the parse
the Cancel left running; a reader that still waits for one is waited for."""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any

import pytest

from app.file_formats import write_document
from core.io import stop as stop_module
from core.io.stop import Stop, Stopped, stoppable, waited
from core.model.examples import seed_document

DEADLINE = 30.0  # (seconds an event is waited for: a hang fails, nothing is timed)


class _Parses:
    """calamine's parse counted, held until let go."""

    def __init__(self, real: Any) -> None:
        self.real = real
        self.lock = threading.Lock()
        self.calls = self.running = self.most = 0
        self.started = threading.Event()
        self.second = threading.Event()
        self.let_go = threading.Event()

    def __call__(self, path: str) -> Any:
        with self.lock:
            self.calls += 1
            self.running += 1
            self.most = max(self.most, self.running)
            if self.calls > 1:
                self.second.set()
        self.started.set()
        try:
            self.let_go.wait(timeout=DEADLINE)
            return self.real(path)
        finally:
            with self.lock:
                self.running -= 1


def _read(read: Any, path: Path, stop: Stop, out: list[Any]) -> threading.Thread:
    def run() -> None:
        with stoppable(stop):
            try:
                out.append(read(path))
            except BaseException as exc:
                out.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def _reopened_workbook(path: Path) -> list[str]:
    """A workbook's sheets through its reopening's calamine parse (the
    Candidates sheet of one a spreadsheet program saved, its metadata...)."""
    from core.io.workbook.reader import _calamine

    with _calamine(path) as book:
        names = book.sheet_names
        return list(names() if callable(names) else names)


def _annotator_sheet(path: Path) -> list[str]:
    """An annotators' sheet as the import reads it (calamine: a parse that
    no stop reached before, and no Cancel ended)."""
    from core.io.annotator.read import read_table

    table = read_table(path)
    return [str(cell) for cell in table.rows[0]]


def _taken_over() -> bool:
    calls = getattr(stop_module, "_CALLS", {})
    return any(not c.abandoned for c in list(calls.values()))


@pytest.mark.parametrize("read", [_reopened_workbook, _annotator_sheet])
@pytest.mark.parametrize("suffix", [".xlsx", ".ods"])
def test_a_reopen_after_a_cancel_takes_over_the_parse_it_left(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, read: Any, suffix: str) -> None:
    import python_calamine

    path = tmp_path / f"book{suffix}"
    write_document(seed_document(), path)
    expected = read(path)
    parses = _Parses(python_calamine.CalamineWorkbook.from_path)
    monkeypatch.setattr(python_calamine.CalamineWorkbook, "from_path", parses)
    cancelled, first = Stop(), []
    reading = _read(read, path, cancelled, first)
    assert parses.started.wait(DEADLINE)
    cancelled.set()  # Cancel, while calamine parses
    reading.join(DEADLINE)
    assert isinstance(first[0], Stopped)  # (at once: the parse still runs)
    assert parses.running == 1
    again: list[Any] = []
    reopening = _read(read, path, Stop(), again)
    # the reopen takes the parse over (or, before, started a second one)
    for _ in range(int(DEADLINE / 0.01)):
        if parses.second.is_set() or _taken_over():
            break
        threading.Event().wait(0.01)
    parses.let_go.set()
    reopening.join(DEADLINE)
    assert (parses.calls, parses.most) == (1, 1)
    assert again == [expected]
    assert getattr(stop_module, "_CALLS", {}) == {}


def test_a_call_a_reader_still_waits_for_is_waited_for_then_made_again(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Two readers of one file at once (neither stopped): the second waits
    for the first's call, then makes its own; never two at once."""
    gate, entered = threading.Event(), threading.Event()
    state = {"running": 0, "most": 0, "calls": 0}
    lock = threading.Lock()

    def parse(name: str) -> str:
        with lock:
            state["calls"] += 1
            state["running"] += 1
            state["most"] = max(state["most"], state["running"])
        entered.set()
        gate.wait(timeout=DEADLINE)
        with lock:
            state["running"] -= 1
        return name.upper()

    out: list[str] = []

    def read() -> None:
        with stoppable(Stop()):
            out.append(waited(parse, "book"))

    one = threading.Thread(target=read)
    one.start()
    assert entered.wait(DEADLINE)
    waiting = threading.Event()
    real_wait = getattr(stop_module, "_wait", None)

    def wait(call: Any) -> None:
        if threading.current_thread() is two:
            waiting.set()
        assert real_wait is not None
        real_wait(call)

    monkeypatch.setattr(stop_module, "_wait", wait, raising=False)
    real_other = getattr(stop_module, "_wait_other", None)
    if real_other is not None:  # (another reader's call: waited for there)
        def wait_other(call: Any) -> None:
            if threading.current_thread() is two:
                waiting.set()
            real_other(call)

        monkeypatch.setattr(stop_module, "_wait_other", wait_other)
    two = threading.Thread(target=read)
    two.start()
    for _ in range(int(DEADLINE / 0.01)):  # (two waits for one's call, or calls beside it)
        if waiting.is_set() or state["calls"] > 1:
            break
        threading.Event().wait(0.01)
    gate.set()
    one.join(DEADLINE)
    two.join(DEADLINE)
    assert out == ["BOOK", "BOOK"]
    assert (state["calls"], state["most"]) == (2, 1)


def _text_parses(let_go: threading.Event) -> tuple[Any, list[str]]:
    """A stand-in for calamine's parse of a file (its text, held until
    ``let_go``) and the texts it read, in order."""
    read: list[str] = []

    def parse(name: str) -> str:
        with open(name, encoding="ascii") as fh:  # (the file as it was at the parse's start)
            text = fh.read()
        read.append(text)
        let_go.wait(timeout=DEADLINE)
        return text

    return parse, read


def _cancelled_then_reopened(parse: Any, path: Path, change: Any, let_go: threading.Event,
                             calls: list[Any]) -> list[Any]:
    """A read of ``path`` cancelled while ``parse`` holds it (until
    ``let_go``; ``calls``: what it was called for), ``change`` made to the
    file, then a reopen: what the reopen got. The old parse is let go once
    the reopen has taken it over or made its own."""
    def read(p: Path) -> Any:
        return waited(parse, str(p))

    first: list[Any] = []
    cancelled = Stop()
    reading = _read(read, path, cancelled, first)
    for _ in range(int(DEADLINE / 0.01)):
        if calls:
            break
        threading.Event().wait(0.01)
    cancelled.set()
    reading.join(DEADLINE)
    assert isinstance(first[0], Stopped)
    change()
    again: list[Any] = []
    reopening = _read(read, path, Stop(), again)
    for _ in range(int(DEADLINE / 0.01)):  # (taken over, or a parse of its own)
        if _taken_over() or len(calls) > 1:
            break
        threading.Event().wait(0.01)
    let_go.set()
    reopening.join(DEADLINE)
    return again


def _same_size_and_time(path: Path, text: str, *, replace: bool) -> Any:
    """``path`` given ``text`` (its old size) and its old modification time
    (as ``cp -p``, ``rsync -t`` or an unzip leave it): written in place, or
    a new file put in its place (os.replace)."""
    def change() -> None:
        info = path.stat()
        probe = path.with_suffix(".probe")
        for _ in range(int(DEADLINE / 0.001)):  # (the kernel's coarse clock past the
            probe.touch()                        # file's last change: ~4 ms a tick)
            if probe.stat().st_ctime_ns != info.st_ctime_ns:
                break
            threading.Event().wait(0.001)
        target = path.with_suffix(".new") if replace else path
        target.write_text(text, encoding="ascii")
        os.utime(target, ns=(info.st_atime_ns, info.st_mtime_ns))
        if replace:
            os.replace(target, path)
        after = path.stat()
        assert (after.st_size, after.st_mtime_ns) == (info.st_size, info.st_mtime_ns)

    return change


@pytest.mark.parametrize("replace", [False, True], ids=["in-place", "replaced"])
def test_a_reopen_of_a_file_changed_since_never_takes_the_old_parse(
        tmp_path: Path, replace: bool) -> None:
    """The file a Cancel left parsing, changed since (the same size and
    modification time, as ``cp -p`` of another version leaves it): the
    reopen parses the file as it is now, not the old parse's result (its
    key was the file's size and modification time alone: the reopen got
    "version 1")."""
    path = tmp_path / "book.txt"
    path.write_text("version 1", encoding="ascii")
    let_go = threading.Event()
    parse, read = _text_parses(let_go)
    change = _same_size_and_time(path, "version 2", replace=replace)
    again = _cancelled_then_reopened(parse, path, change, let_go, read)
    assert again == ["version 2"]
    assert read == ["version 1", "version 2"]
    for _ in range(int(DEADLINE / 0.01)):  # (the old parse, let go, ends on its own)
        if not stop_module._CALLS:
            break
        threading.Event().wait(0.01)
    assert stop_module._CALLS == {}


def test_an_error_in_a_parse_taken_over_reaches_the_reader_that_took_it(
        tmp_path: Path) -> None:
    """The parse a Cancel left fails: the reopen that took it over gets its
    error (the read says why), once; no reader waits on."""
    path = tmp_path / "book.txt"
    path.write_text("not a workbook", encoding="ascii")
    let_go, calls = threading.Event(), []

    def parse(name: str) -> str:
        calls.append(name)
        let_go.wait(timeout=DEADLINE)
        raise ValueError("unexpected end of the zip archive")

    again = _cancelled_then_reopened(parse, path, lambda: None, let_go, calls)
    assert [type(x) for x in again] == [ValueError]
    assert str(again[0]) == "unexpected end of the zip archive"
    assert calls == [str(path)]
    assert stop_module._CALLS == {}


def test_a_call_waited_for_whose_reader_is_stopped_meanwhile_is_taken_over(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Two readers of one file at once; the first is stopped (a Cancel)
    while the second waits for its call: the second takes the call over
    then, rather than wait for its end and make it again (the parse
    twice over, one after the other)."""
    gate, entered = threading.Event(), threading.Event()
    calls: list[str] = []

    def parse(name: str) -> str:
        calls.append(name)
        entered.set()
        gate.wait(timeout=DEADLINE)
        return name.upper()

    def read(stop: Stop, out: list[Any], name: str) -> threading.Thread:
        def run() -> None:
            with stoppable(stop):
                try:
                    out.append(waited(parse, "book"))
                except BaseException as exc:
                    out.append(exc)

        thread = threading.Thread(target=run, name=name)
        thread.start()
        return thread

    cancelled, first, second = Stop(), [], []
    one = read(cancelled, first, "first-reader")
    assert entered.wait(DEADLINE)
    waiting = threading.Event()
    waits = {name: getattr(stop_module, name, None) for name in ("_wait", "_wait_other")}

    def watching(name: str) -> Any:
        def wait(call: Any) -> None:
            if threading.current_thread().name == "second-reader":
                waiting.set()
            real = waits[name]
            assert real is not None
            real(call)
        return wait

    for name, real in waits.items():
        if real is not None:
            monkeypatch.setattr(stop_module, name, watching(name))
    two = read(Stop(), second, "second-reader")
    assert waiting.wait(DEADLINE)  # (the second waits for the first's call)
    cancelled.set()
    one.join(DEADLINE)
    assert isinstance(first[0], Stopped)
    for _ in range(int(DEADLINE / 0.01)):  # (taken over, or still waited for)
        if not any(c.abandoned for c in list(stop_module._CALLS.values())):
            break
        threading.Event().wait(0.01)
    gate.set()
    two.join(DEADLINE)
    assert second == ["BOOK"]
    assert calls == ["book"]
    assert stop_module._CALLS == {}
