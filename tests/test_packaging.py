"""What the wheel and the sdist carry (issue 35): every package of the tree,
every file of ``resources/`` as the package data folder ``core.resources``,
and one version, printed by ``ndcg-worksheet --version``.

``.ci/install_check.py`` builds the wheel and runs it installed in a fresh
virtual environment; these are the fast checks of the configuration."""

from __future__ import annotations

import fnmatch
import tomllib
from importlib.metadata import version

import pytest

from app.launcher import main
from core.model.bundled import PACKAGE, bundled
from core.model.examples import EXAMPLE_PATH, EXAMPLE_WORKBOOK
from tests.conftest import REPO

PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text())
SETUPTOOLS = PYPROJECT["tool"]["setuptools"]


def test_every_package_of_the_tree_is_listed():
    tree = {str(p.parent.relative_to(REPO)).replace("/", ".")
            for top in ("app", "core") for p in (REPO / top).rglob("__init__.py")}
    data = {f"{PACKAGE}.{d.name}" for d in (REPO / "resources").iterdir()
            if d.is_dir() and d.name.isidentifier() and d.name != "__pycache__"}
    assert data == {f"{PACKAGE}.desktop", f"{PACKAGE}.icons"}
    assert set(SETUPTOOLS["packages"]) == tree | {PACKAGE} | data
    assert SETUPTOOLS["package-dir"] == {PACKAGE: "resources"}


def _shipped(relative: str) -> bool:
    """Whether a file of ``resources/`` matches its package's package-data patterns."""
    folder, _, rest = relative.partition("/")
    package, name = (f"{PACKAGE}.{folder}", rest) if rest else (PACKAGE, relative)
    patterns = SETUPTOOLS["package-data"].get(package, [])
    return any(fnmatch.fnmatch(name, pat) for pat in patterns)


def test_every_file_of_resources_ships():
    files = [p.relative_to(REPO / "resources").as_posix()
             for p in (REPO / "resources").rglob("*") if p.is_file()
             and p.suffix not in (".py", ".pyc")]
    assert "icons/16x16/ndcg-worksheet.png" in files
    assert "example.xlsx" in files
    assert [f for f in files if not _shipped(f)] == []


def test_bundled_files_are_found_through_the_package():
    resources = (REPO / "resources").resolve()
    assert bundled("example.xlsx") == EXAMPLE_WORKBOOK
    assert EXAMPLE_WORKBOOK.parent.resolve() == resources
    assert EXAMPLE_PATH.read_bytes() == (resources / "example.csv").read_bytes()


def test_the_spark_logging_file_is_package_data():
    from app.scale.spark import LOG_CONFIG

    assert "rootLogger.level = error" in LOG_CONFIG.read_text()
    assert any(fnmatch.fnmatch("scale/" + LOG_CONFIG.name, pat)
               for pat in SETUPTOOLS["package-data"]["app"])


def test_version_comes_from_the_project(capsys: pytest.CaptureFixture[str]):
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    project = PYPROJECT["project"]["version"]
    assert version("ndcg-worksheet") == project
    assert capsys.readouterr().out == f"ndcg-worksheet {project}\n"


def test_the_readme_first_commands_are_unchanged():
    lines = (REPO / "README.md").read_text().splitlines()
    assert "    pip install -e . && ndcg-worksheet" in lines[:8]
    assert "    pip install -e '.[test]' && python -m pytest" in lines[:10]


def test_the_readmes_commands_need_no_clone():
    """The README's commands take the bundled example by ``ndcg-worksheet
    example`` (its first commands ran ``evaluate resources/example.csv``,
    a path an installed wheel does not have), and its first lines say how
    to install and run the wheel."""
    text = (REPO / "README.md").read_text()
    commands = [line.strip() for line in text.splitlines()
                if line.startswith("    ndcg-worksheet ") or line.startswith("    pip install")]
    assert [c for c in commands if "resources/" in c] == []
    first = text.splitlines()[:20]
    assert "    ndcg-worksheet evaluate \"$(ndcg-worksheet example)\" --k 1 --k 2 --k all" in first
    assert "    pip install ndcg_worksheet-*.whl && ndcg-worksheet" in first


def test_a_stale_editable_install_says_what_to_do(monkeypatch: pytest.MonkeyPatch):
    import core.model.bundled as module

    def missing(package: str):
        raise ModuleNotFoundError(f"No module named {package!r}", name=package)

    monkeypatch.setattr(module, "files", missing)
    with pytest.raises(ModuleNotFoundError, match=r"run pip install -e \. again"):
        bundled("example.xlsx")
