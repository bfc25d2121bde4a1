"""Running hostile inputs through the command line and the window, each in
its own process with limits (``tests/hostile_harness.py``), and checking what
a user would see: an exit status, one line on stderr naming the problem, no
traceback, no signal, no hang, and the input files unchanged.

A corpus script writes its inputs and a manifest; a test builds the cases
with :func:`cases_for` and checks the outcomes with :func:`check`.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HARNESS = Path(__file__).resolve().parent / "hostile_harness.py"

#: What Qt's offscreen platform itself prints (no window system to ask).
QT_OFFSCREEN_NOISE = ("This plugin does not support",)


@dataclass(frozen=True)
class Outcome:
    status: int
    timed_out: bool
    stdout: str
    stderr: str

    @property
    def stderr_lines(self) -> list[str]:
        return [line for line in self.stderr.splitlines()
                if line.strip() and not line.startswith(QT_OFFSCREEN_NOISE)]


def run_cases(cases: list[dict[str, Any]]) -> dict[str, Outcome]:
    """Each case (``id``, ``argv``, optional ``entry``, ``timeout``,
    ``memory_mb``) run in its own process; outcomes by id."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    budget = 60 + sum(int(c.get("timeout", 20)) for c in cases)
    done = subprocess.run([sys.executable, str(HARNESS)], input=json.dumps(cases), text=True,
                          capture_output=True, timeout=budget, env=env, check=False)
    if done.returncode != 0:
        raise AssertionError(f"the harness failed: {done.stderr[-3000:]}")
    return {r["id"]: Outcome(r["status"], r["timed_out"], r["stdout"], r["stderr"])
            for r in json.loads(done.stdout)}


def run_side_by_side(*batches: list[dict[str, Any]]) -> dict[str, Outcome]:
    """Each batch of cases in a harness of its own, the harnesses side by side
    (one per core); outcomes by id."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(len(batches)) as pool:
        runs = [pool.submit(run_cases, batch) for batch in batches]
        return {k: v for run in runs for k, v in run.result().items()}


def digests(paths: list[Path]) -> dict[Path, str]:
    """What each input holds (a FIFO or folder: its kind), to prove it unchanged."""
    out = {}
    for path in paths:
        if path.is_file():
            out[path] = hashlib.sha256(path.read_bytes()).hexdigest()
        else:
            out[path] = "exists" if path.exists() or path.is_symlink() else "absent"
    return out


def check(outcome: Outcome, *, refused: bool, phrases: tuple[str, ...] = (),
          entry: str = "cli") -> list[str]:
    """What is wrong with ``outcome`` (empty: as a user should see it).

    A refused input on the command line: exit status 2 and exactly one line
    on stderr holding every phrase. In the window: it opens anyway (on the
    bundled example) and the message holds every phrase. Never a traceback,
    a signal or a hang."""
    problems = []
    if outcome.timed_out:
        return ["hung (the time limit ended it)"]
    if outcome.status < 0:
        return [f"killed by signal {-outcome.status}: {outcome.stderr[-500:]}"]
    if "Traceback" in outcome.stderr:
        return [f"traceback: {outcome.stderr[-1500:]}"]
    lines = outcome.stderr_lines
    if entry == "window":
        if outcome.status != 0 or "opened:" not in outcome.stdout:
            problems.append(f"the window did not open (status {outcome.status})")
        if refused and not lines:
            problems.append("no message was shown")
    elif refused:
        if outcome.status != 2:
            problems.append(f"exit status {outcome.status}, not 2")
        if len(lines) != 1:
            problems.append(f"{len(lines)} lines on stderr, not 1: {lines[:3]}")
    elif outcome.status != 0:
        problems.append(f"exit status {outcome.status}: {lines[:2]}")
    text = " ".join(lines)
    problems += [f"message lacks {p!r}: {text[:300]}" for p in phrases if p not in text]
    return problems


def corpus_script(corpus: Path, module: str) -> Any:
    """The corpus script ``module`` (in ``tests/data``, above ``corpus``), imported."""
    import importlib

    folder = str(corpus.parents[1])
    sys.path.insert(0, folder)
    try:
        return importlib.import_module(module)
    finally:
        sys.path.remove(folder)


def assert_corpus(corpus: Path, built: dict[str, bytes], expected: dict[str, Any],
                  script: str) -> None:
    """The committed corpus is what its script builds, every file small, and
    every refused file names its phrases."""
    assert sorted(built) == sorted(p.name for p in corpus.iterdir())
    assert sorted(expected) == sorted(n for n in built if n != "expected.json")
    for name, data in built.items():
        assert len(data) < 200_000, name
        assert (corpus / name).read_bytes() == data, f"{name} differs: rerun {script}"
    assert all(e["phrases"] for e in expected.values() if e["refused"])


def assert_checked(check: Any, path: Path, expected: dict[str, Any], reader_decides: bool,
                   error: type[Exception]) -> None:
    """``check`` alone refuses ``path`` with the message a user sees, or
    passes a file that is read (or that only the reader can refuse)."""
    import pytest

    if not expected["refused"] or reader_decides:
        check(path)
        return
    with pytest.raises(error) as info:
        check(path)
    message = str(info.value)
    assert message.startswith(str(path)), message
    assert "\n" not in message
    for phrase in expected["phrases"]:
        assert phrase in message, (phrase, message)
