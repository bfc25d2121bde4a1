"""The product as users get it, for the checks in ``.ci/``: the sdist and the
wheel built from a checkout, and a virtual environment outside the checkout
holding the wheel with the dependencies its own metadata declares.

``.ci/install_check.py`` (the installed wheel) and ``.ci/bundle.py`` (the
one-folder bundle) both start here. Standard library only.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import venv
import zipfile
from collections.abc import Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
BIN = "Scripts" if os.name == "nt" else "bin"
EXE = ".exe" if os.name == "nt" else ""


def clean_env() -> dict[str, str]:
    """The environment without what points Python at another tree (users have
    the installation alone) or stops pip byte-compiling it (users' pip does)."""
    drop = ("PYTHONPATH", "PYTHONHOME", "PYTHONDONTWRITEBYTECODE")
    return {k: v for k, v in os.environ.items() if k not in drop}


def sh(*cmd: str | Path, cwd: Path | None = None, quiet: bool = False) -> str:
    """Run ``cmd``; its output, or all of it on stderr and exit 1 when it fails."""
    done = subprocess.run([str(c) for c in cmd], cwd=cwd, env=clean_env(), text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, check=False)
    if done.returncode != 0:
        sys.exit(f"{done.stdout}\n{' '.join(map(str, cmd))}: exit {done.returncode}")
    if not quiet:
        print(done.stdout, end="")
    return done.stdout


def build(where: Path, *, sdist: bool) -> Path:
    """Build the wheel into ``where`` (from the sdist, built first, when
    ``sdist``); returns the wheel. The build's warnings are shown."""
    sh(sys.executable, "-m", "pip", "install", "-q", "build", quiet=True)
    log = sh(sys.executable, "-m", "build", *([] if sdist else ["--wheel"]), "--outdir", where,
             REPO, quiet=True)
    warnings = [line for line in log.splitlines()
                if line.startswith("WARNING") or "Warning:" in line or "would be ignored" in line]
    print(*warnings, sep="\n", file=sys.stderr, end="\n" if warnings else "")
    return next(where.glob("*.whl"))


def _requirements(wheel: Path) -> list[str]:
    with zipfile.ZipFile(wheel) as whl:
        meta = next(n for n in whl.namelist() if n.endswith(".dist-info/METADATA"))
        return [line for line in whl.read(meta).decode().splitlines()
                if line.startswith("Requires-Dist:") and "extra ==" not in line]


def venv_with(wheel: Path, kind: str, extra: Sequence[str] = ()) -> Path:
    """A venv outside the checkout (no system site packages) with ``wheel``,
    the dependencies its metadata declares, and ``extra``; its Python.

    Kept between runs (like the soak venvs) under a name made of ``kind``, the
    Python version and the dependency list, so it is made again exactly when
    those change; the wheel itself is reinstalled every time.
    """
    root = Path(os.environ.get("NDCG_CI_VENVS") or Path(
        os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "ndcg-worksheet-ci")
    key = hashlib.sha256("\n".join([*_requirements(wheel), *extra]).encode()).hexdigest()[:12]
    target = root / f"{kind}-py{sys.version_info[0]}.{sys.version_info[1]}-{key}"
    python = target / BIN / f"python{EXE}"
    if not python.exists():
        for old in root.glob(f"{kind}-*"):
            shutil.rmtree(old)
        venv.create(target, with_pip=True)
        if extra:
            sh(python, "-m", "pip", "install", "-q", *extra)
    sh(python, "-m", "pip", "install", "-q", "--force-reinstall", "--no-deps", wheel)
    sh(python, "-m", "pip", "install", "-q", wheel)
    sh(python, "-m", "pip", "check", quiet=True)
    return python
