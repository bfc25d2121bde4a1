"""The product as users install it (issue 35).

    python .ci/install_check.py

Builds the sdist and, from it, the wheel; ``twine check --strict`` on both;
installs the wheel (no ``-e``) into a venv outside the checkout with the
dependencies pip resolves from the wheel's own metadata (``.ci/product.py``);
then ``.ci/smoke_installed.py`` runs that ``ndcg-worksheet`` from a folder
outside the checkout, with no ``PYTHONPATH``.

The venv has no ``--system-site-packages`` on purpose: with the test
environment's packages visible, a dependency the wheel forgets to declare
would pass here and fail on a user's machine.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from product import EXE, build, clean_env, sh, venv_with

HERE = Path(__file__).resolve().parent


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="ndcg-install-") as tmp:
        dist = Path(tmp)
        wheel = build(dist, sdist=True)
        sh(sys.executable, "-m", "pip", "install", "-q", "twine", quiet=True)
        sh(sys.executable, "-m", "twine", "check", "--strict", *sorted(dist.iterdir()))
        python = venv_with(wheel, "installed")
        # Asked from outside the checkout: nothing of the tree can be found.
        resources = Path(sh(python, "-c", "from importlib.resources import files; "
                            "print(files('core.resources'))", cwd=dist, quiet=True).strip())
        if python.parent.parent not in resources.parents:
            sys.exit(f"install check: core.resources found at {resources}, not in the venv")
        return subprocess.run(
            [sys.executable, str(HERE / "smoke_installed.py"),
             str(python.parent / f"ndcg-worksheet{EXE}"), str(resources)],
            cwd=dist, env=clean_env(), check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
