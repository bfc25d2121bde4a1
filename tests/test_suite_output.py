"""The suite's own output is clean: pytest-benchmark's plugin (installed
beside the test extras on some machines; no test uses its fixture) warned
on the controller and on every xdist worker that xdist disabled it, three
PytestBenchmarkWarning lines before the first dot. ``pyproject.toml``'s
addopts do not load it (``-p no:benchmark``); its options are then unknown."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO, SLOW_FILES


def test_a_run_under_xdist_prints_no_plugin_warning(tmp_path: Path) -> None:
    (tmp_path / "test_one.py").write_text("def test_one():\n    assert 1 + 1 == 2\n")
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-c", str(REPO / "pyproject.toml"),
         "--rootdir", str(tmp_path), "-n", "2", "-p", "no:cacheprovider", str(tmp_path)],
        cwd=tmp_path, capture_output=True, text=True, env=env, timeout=300, check=False)
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert "1 passed" in output
    assert "Benchmark" not in output, output
    assert "warning" not in output.lower(), output


def test_a_slow_file_renamed_stops_the_run_naming_it(tmp_path: Path) -> None:
    """tests/conftest.py orders the run by SLOW_FILES' names: a file renamed
    would drop out of the order without a word. The run stops before
    collecting, in one line naming it (the conftest copied beside every
    slow file but the first, as if it had been renamed)."""
    tests = tmp_path / "tests"
    tests.mkdir()
    (tests / "conftest.py").write_text((REPO / "tests" / "conftest.py").read_text())
    for name in SLOW_FILES[1:]:
        (tests / name).write_text("")
    (tests / "test_one.py").write_text("def test_one():\n    assert 1 + 1 == 2\n")
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--rootdir", str(tmp_path), "-p", "no:cacheprovider",
         "--collect-only", "-q", str(tests)],
        cwd=tmp_path, capture_output=True, text=True, env=env, timeout=300, check=False)
    said = [line for line in (done.stdout + done.stderr).splitlines() if SLOW_FILES[0] in line]
    assert done.returncode == pytest.ExitCode.USAGE_ERROR, done.stdout + done.stderr
    assert said == [f"ERROR: tests/conftest.py's SLOW_FILES names {SLOW_FILES[0]}, which is "
                    "no file in tests/: write its new name there, or take it out"]
    assert "test_one" not in done.stdout
