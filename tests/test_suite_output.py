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

from tests.conftest import REPO


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
