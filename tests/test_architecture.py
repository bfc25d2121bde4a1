"""The layering rules: core never loads Qt; Qt is present for the app tests;
the import contracts hold; no function over 80 lines; a module past 700 lines
only where its reason is written down (``REVIEWED_LARGE``).

The contracts themselves live in ``pyproject.toml`` (``[tool.importlinter]``)
and ``.ci/run`` runs ``lint-imports``; the test runs them too, so a broken
layer fails the README's test command, not only CI."""

from __future__ import annotations

import ast
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

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


def test_qt_imports():
    """A missing Qt must fail the run, never skip it."""
    from PySide6 import QtCore, QtWidgets

    assert QtCore.qVersion().startswith("6.")
    assert QtWidgets.QApplication is not None


#: Where the size limits apply: the product's code.
SIZED = ("core", "app", "benchmarks")
#: Past this many lines a module is a smell to discuss in review: split it
#: where a concept ends, or keep it whole and say why in ``REVIEWED_LARGE``.
#: Never a target to squeeze lines or move helpers into unrelated modules for.
REVIEW_MODULE_LINES = 700
#: Modules kept whole past ``REVIEW_MODULE_LINES``, each with the reason.
REVIEWED_LARGE: dict[str, str] = {
    "core/engine/evaluation.py": "one class reading the state its __init__ makes; the "
                                 "splice reads its lazy attributes off the class itself "
                                 "(docs/architecture.md, Two modules kept whole)",
}
MAX_FUNCTION_LINES = 80


def _sources() -> list[Path]:
    return sorted(p for top in SIZED for p in (REPO / top).rglob("*.py"))


def _long_functions(path: Path, root: Path = REPO) -> list[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    return [
        f"{path.relative_to(root)}:{node.lineno} {node.name} ({node.end_lineno - node.lineno + 1})"
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.end_lineno is not None
        and node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES
    ]


def test_no_module_past_700_lines_without_a_reason():
    long = [f"{rel} ({n})" for p in _sources()
            if (n := len(p.read_text().splitlines())) > REVIEW_MODULE_LINES
            and (rel := p.relative_to(REPO).as_posix()) not in REVIEWED_LARGE]
    assert long == []


def test_no_function_over_80_lines():
    assert [f for p in _sources() for f in _long_functions(p)] == []


@pytest.mark.parametrize(("body_lines", "reported"), [(79, False), (80, True)])
def test_the_function_check_counts_the_def_line(tmp_path: Path, body_lines: int,
                                                reported: bool):
    body = "\n".join(f"    x{i} = {i}" for i in range(body_lines))
    sample = tmp_path / "sample.py"
    indented = body.replace("\n", "\n    ")
    sample.write_text(f"class C:\n    def f(self):\n    {indented}\n")
    found = _long_functions(sample, tmp_path)
    assert found == ([f"sample.py:2 f ({body_lines + 1})"] if reported else [])


def test_core_io_is_handed_results_and_computes_none():
    """core.io reads and writes: it is handed an Evaluation or a Comparison and
    never computes one (the Summary sheet's cached means are summaries read off
    the evaluation handed over)."""
    computing = {"evaluate", "reevaluate", "compare", "explain", "ndcg_bounds"}
    calls = []
    for path in sorted((REPO / "core" / "io").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call):
                name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
                if name in computing:
                    calls.append(f"{path.relative_to(REPO)}:{node.lineno} {name}")
    assert calls == []


def test_the_defaults_under_a_preset_are_declared_once():
    """``core.model.presets.defaults_under`` is the one declaration of the
    conventions a file that declares none is read under: the launch's read
    (``app.opening.run_ties``, on a thread that must not load Qt) worked them
    out again beside File > Open's (``app.opened_conventions``, which imports
    Qt), and so did the tables' API. Nothing else builds
    ``apply_preset(Conventions(), ...)``, and the launch's module still loads
    no Qt."""
    built = []
    for path in sorted([*(REPO / "core").rglob("*.py"), *(REPO / "app").rglob("*.py")]):
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "apply_preset"
                    and node.args and isinstance(node.args[0], ast.Call)
                    and getattr(node.args[0].func, "id", None) == "Conventions"
                    and not node.args[0].args and not node.args[0].keywords):
                built.append(f"{path.relative_to(REPO)}:{node.lineno}")
    assert [b.split(":")[0] for b in built] == ["core/model/presets.py"], built
    code = ("import sys, app.opening\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'shiboken6')))")
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True,
                         text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_import_contracts_hold():
    lint = Path(sys.executable).with_name("lint-imports")
    if not lint.exists():
        pytest.fail("lint-imports is not installed: pip install -e '.[test]'")
    done = subprocess.run([str(lint), "--no-cache"], cwd=REPO, capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0, done.stdout[-4000:]


#: Private names of other packages the product imports, each with the reason.
#: xlsxwriter measures and cuts a cell's text in UTF-16 units and decides
#: ``xml:space`` with these; the workbook writer must do exactly what
#: xlsxwriter does with the text it writes, so it asks xlsxwriter rather
#: than copying its rules.
PRIVATE_IMPORTS_ALLOWED: dict[str, str] = {
    name: "xlsxwriter's own measure of the text it writes (see above)"
    for name in ("xlsxwriter.utility._utf16_len", "xlsxwriter.utility._utf16_truncate",
                 "xlsxwriter.utility._preserve_whitespace")
}


def _private_imports(path: Path, root: Path = REPO) -> list[str]:
    """``from module import _name`` in ``path``: a module reaching into
    another's private names (make them that module's public interface)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.ImportFrom):
            module = "." * node.level + (node.module or "")
            found += [f"{path.relative_to(root)}:{node.lineno} {module}.{a.name}"
                      for a in node.names
                      if a.name.startswith("_") and not a.name.startswith("__")
                      and f"{module}.{a.name}" not in PRIVATE_IMPORTS_ALLOWED]
    return found


def test_no_private_name_is_imported_across_modules():
    """The product's modules (core, app, benchmarks) use each other's public
    names only. Tests are left out: a white-box test may call a private
    helper of the one module it tests."""
    assert [f for p in _sources() for f in _private_imports(p)] == []


#: Names a window is passed under.
WINDOW_NAMES = frozenset({"window", "win", "main", "main_window"})


def _any_windows(path: Path, root: Path = REPO) -> list[str]:
    """Parameters and attributes named like a window (``WINDOW_NAMES``) typed
    ``Any``: they are typed by the window's interface (``WindowApi``) or
    class, so that mypy checks what is asked of the window."""
    def is_any(note: ast.expr | None) -> bool:
        return ((isinstance(note, ast.Name) and note.id == "Any")
                or (isinstance(note, ast.Attribute) and note.attr == "Any")
                or (isinstance(note, ast.Constant) and note.value == "Any"))

    found = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        named: list[tuple[str, ast.expr | None]] = []
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            a = node.args
            named = [(x.arg, x.annotation) for x in (*a.posonlyargs, *a.args, *a.kwonlyargs)]
        elif isinstance(node, ast.AnnAssign):
            target = node.target
            name = getattr(target, "id", None) or getattr(target, "attr", None)
            named = [(name, node.annotation)] if name else []
        found += [f"{path.relative_to(root)}:{node.lineno} {name}"
                  for name, note in named if name in WINDOW_NAMES and is_any(note)]
    return found


def test_no_window_is_typed_any():
    assert [f for p in _sources() for f in _any_windows(p)] == []


def test_the_checks_find_what_they_look_for(tmp_path: Path):
    """The two checks above can fail: each flags its sample."""
    sample = tmp_path / "sample.py"
    sample.write_text(
        "from typing import Any\n"
        "from core.io.trec.scan import _gather, scan_file\n"
        "from .near import _helper\n"
        "from xlsxwriter.utility import _utf16_len\n"
        "class V:\n"
        "    main: Any\n"
        "    def __init__(self, window: Any, parent: Any = None, *, win: 'Any') -> None:\n"
        "        self.window: Any = window\n"
        "def f(window: WindowApi, main_window: typing.Any) -> None: ...\n")
    assert _private_imports(sample, tmp_path) == [
        "sample.py:2 core.io.trec.scan._gather", "sample.py:3 .near._helper"]
    assert sorted(_any_windows(sample, tmp_path)) == sorted([
        "sample.py:6 main", "sample.py:7 window", "sample.py:7 win",
        "sample.py:8 window", "sample.py:9 main_window"])
