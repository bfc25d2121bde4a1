"""A reopen right after a Cancel (hpol4, item 5): calamine's parse of a
workbook, one native call that cannot look at the stop, goes on after the
Cancel (core.io.stop.waited: its reader returns at once); the reopen started
a second parse of the same file beside it (twice the memory and the cores).
Now no two parses of one file run at once: the reopen takes over the parse
the Cancel left running; a reader that still waits for one is waited for."""

from __future__ import annotations

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
