"""The layering rules: core never loads Qt; Qt is present for the app tests."""

from __future__ import annotations

import pkgutil
import subprocess
import sys

import core
from tests.conftest import REPO


def _core_modules() -> list[str]:
    return sorted(
        m.name for m in pkgutil.walk_packages(core.__path__, prefix="core.")
    )


def test_core_modules_found():
    names = _core_modules()
    assert "core.engine.evaluation" in names
    assert "core.io.trec" in names


def test_importing_every_core_module_loads_no_qt():
    code = (
        "import importlib, sys\n"
        f"for name in {_core_modules()!r}:\n"
        "    importlib.import_module(name)\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in "
        "('PySide6', 'shiboken6', 'PyQt5', 'PyQt6', 'app'))\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == ""


def test_only_core_io_imports_openpyxl():
    offenders = []
    for path in (REPO / "core").rglob("*.py"):
        if path.parent.name == "io":
            continue
        text = path.read_text()
        if "import openpyxl" in text or "from openpyxl" in text:
            offenders.append(str(path))
    assert offenders == []


def test_qt_imports():
    """A missing Qt must fail the run, never skip it."""
    from PySide6 import QtCore, QtWidgets

    assert QtCore.qVersion().startswith("6.")
    assert QtWidgets.QApplication is not None
