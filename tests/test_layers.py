"""The import layers: core never imports the app; the analyses import neither
the file formats (core.io) nor the reports (core.reports)."""

from __future__ import annotations

import ast

from tests.conftest import REPO


def _imported(path) -> set[str]:  # type: ignore[no-untyped-def]
    """Every module named by an import statement in ``path`` (at any depth)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def _offenders(folder: str, *prefixes: str) -> list[str]:
    return sorted(
        f"{path.relative_to(REPO)}: {name}"
        for path in (REPO / folder).rglob("*.py")
        for name in _imported(path)
        if any(name == p or name.startswith(p + ".") for p in prefixes)
    )


def test_core_never_imports_the_app():
    assert _offenders("core", "app") == []


def test_analysis_imports_neither_io_nor_reports():
    assert _offenders("core/analysis", "core.io", "core.reports") == []


def test_engine_and_model_import_no_analysis_io_or_reports():
    for folder in ("core/engine", "core/model"):
        assert _offenders(folder, "core.analysis", "core.io", "core.reports") == []
