"""The C allocator's settings (core.io.trec.alloc): set where glibc is, a
no-op that never raises where it is not."""

from __future__ import annotations

import ctypes
import io
import subprocess
import sys
from pathlib import Path

import pytest

from app.cli.main import main
from core.io.trec import alloc


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's mallopt is Linux's")
def test_tune_sets_the_allocator_where_glibc_is(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(alloc, "_tuned", None)
    assert alloc.tune() is True
    assert alloc.tune() is True  # once per process, the answer kept


@pytest.mark.parametrize("missing", ["no libc", "no mallopt", "not linux"])
def test_tune_without_glibc_is_a_no_op(monkeypatch: pytest.MonkeyPatch, missing: str) -> None:
    monkeypatch.setattr(alloc, "_tuned", None)
    if missing == "no libc":
        def refuse(name: object) -> ctypes.CDLL:
            raise OSError("no C library")
        monkeypatch.setattr(ctypes, "CDLL", refuse)
    elif missing == "no mallopt":  # musl: a C library without mallopt
        class Musl:
            def __getattr__(self, name: str) -> object:
                raise AttributeError(name)
        monkeypatch.setattr(ctypes, "CDLL", lambda name: Musl())
    else:
        monkeypatch.setattr(sys, "platform", "darwin")
    assert alloc.tune() is False


class _Mallinfo2(ctypes.Structure):
    """glibc's ``struct mallinfo2`` (2.33 on): ``hblkhd``, the bytes in
    blocks mapped on their own."""

    _fields_ = [(name, ctypes.c_size_t) for name in (
        "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks",
        "fordblks", "keepcost")]


def _mapped_bytes() -> int:
    libc = ctypes.CDLL(None)
    libc.mallinfo2.restype = _Mallinfo2
    return int(libc.mallinfo2().hblkhd)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's mallopt is Linux's")
def test_map_from_maps_blocks_of_that_size_on_their_own() -> None:
    """Under :func:`alloc.tune`'s 32 MiB a 24 MiB array comes from the heap;
    from ``map_from(16 MiB)`` on it is a block of its own (given back when
    freed, so it leaves no hole to raise the heap's high-water mark). A
    block the heap's free memory holds is taken from there either way: it
    is handed back first. Counted in a process of its own: the count of
    mapped bytes is the process's, and a thread another test left running
    (a pool's, a reader's) mapping or freeing a block beside it made the
    count move once in a full run."""
    probe = f"""
import sys
sys.path.insert(0, {str(Path(__file__).resolve().parent.parent)!r})
import numpy as np
from core.io.trec import alloc
from tests.test_trec_alloc import _mapped_bytes
assert alloc.map_from(32 << 20) is True
alloc.hand_back()
before = _mapped_bytes()
block = np.ones(3 << 20)  # 24 MiB
assert _mapped_bytes() == before, "from the heap under 32 MiB"
del block
assert alloc.map_from(alloc.PAIR_MAP_FROM) is True
alloc.hand_back()
block = np.ones(3 << 20)
assert _mapped_bytes() >= before + (24 << 20), "a block of its own from 16 MiB"
del block
assert _mapped_bytes() == before, "given back"
print("held")
"""
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=120, check=False)
    assert (done.returncode, done.stdout.strip()) == (0, "held"), done.stderr


def test_map_from_without_glibc_is_a_no_op(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(alloc, "_tuned", None)
    monkeypatch.setattr(sys, "platform", "darwin")
    assert alloc.map_from(alloc.PAIR_MAP_FROM) is False


def test_compare_of_two_runs_maps_large_blocks_before_its_read(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The command line's compare of two runs sets the allocator
    (:data:`alloc.PAIR_MAP_FROM`) before it reads both runs."""
    import app.cli.compare as command

    calls: list[object] = []
    monkeypatch.setattr(command.alloc, "map_from", lambda size: calls.append(size) or True)
    read = command.read_judged_pair
    monkeypatch.setattr(command, "read_judged_pair",
                        lambda *a, **k: calls.append("read") or read(*a, **k))
    run_file, qrels = tmp_path / "run.txt", tmp_path / "qrels.txt"
    run_file.write_text("q1 Q0 d1 1 3 t\nq1 Q0 d2 2 2 t\n")
    qrels.write_text("q1 0 d1 1\nq1 0 d2 0\n")
    out = io.StringIO()
    assert main(["compare", str(run_file), str(run_file), "--qrels", str(qrels)], out=out) == 0
    assert calls == [alloc.PAIR_MAP_FROM, "read"]
    assert "mean delta" in out.getvalue()


def test_compare_of_two_runs_evaluates_one_run_at_a_time(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The command line's compare of two runs evaluates the runs one at a
    time, each run's side made (its scores and trec_eval's id order
    released) before the other run's evaluation: the two evaluations'
    temporaries sat side by side at the read's peak."""
    import app.cli.compare as command
    from tests.overlap import side_by_side

    events: list[str] = []
    compare_side = command.compare_side
    monkeypatch.setattr(command, "evaluate_named",
                        side_by_side(command.evaluate_named, events, "evaluate"))
    monkeypatch.setattr(command, "compare_side",
                        lambda ev: events.append("side") or compare_side(ev))
    run_file, qrels = tmp_path / "run.txt", tmp_path / "qrels.txt"
    run_file.write_text("q1 Q0 d1 1 3 t\nq1 Q0 d2 2 3 t\nq1 Q0 d3 3 1 t\n")
    qrels.write_text("q1 0 d1 1\nq1 0 d2 2\n")
    out = io.StringIO()
    assert main(["compare", str(run_file), str(run_file), "--qrels", str(qrels),
                 "--preset", "trec_eval"], out=out) == 0
    assert events == ["evaluate", "side", "evaluate", "side"]
    assert "side by side" not in events
    assert "mean delta" in out.getvalue()
