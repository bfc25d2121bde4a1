"""The files NDCG Worksheet ships with: the top-level ``resources/`` folder,
installed as the package data folder ``core.resources``
(``[tool.setuptools.package-dir]`` in ``pyproject.toml``).

They are found through :mod:`importlib.resources`, never through a path
relative to the source tree, so the editable install, the wheel, the sdist and
the one-folder bundle (``.ci/bundle.py``) all find them.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

__all__ = ["PACKAGE", "bundled"]

#: The import name of the ``resources/`` folder once installed.
PACKAGE = "core.resources"


def bundled(name: str) -> Path:
    """The shipped file ``name`` (``"example.xlsx"``, ``"icons/…"``) as a path on disk.

    Every way the project is installed unpacks its data as files (no zipped
    imports), so the path can be handed to a reader, to Qt or to Java.
    """
    try:
        found = files(PACKAGE)
    except ModuleNotFoundError as exc:  # an editable install older than the mapping
        raise ModuleNotFoundError(
            f"{PACKAGE} (the folder resources/) is not installed with this copy of "
            "ndcg-worksheet: run pip install -e . again in the clone", name=PACKAGE,
        ) from exc
    return Path(str(found.joinpath(name)))
