"""Build the one-folder bundle for reviewers without Python (issue 35), and
optionally run the installed-app smoke test against it.

    python .ci/bundle.py [--out DIR] [--archive] [--smoke]

1. builds the wheel from the checkout (``python -m build --wheel``);
2. installs it with its declared dependencies and PyInstaller into a build
   venv outside the checkout (``.ci/product.py``: kept between runs, made
   again when the wheel's dependencies or the Python change), so what is
   frozen is what users install;
3. runs PyInstaller on ``.ci/ndcg-worksheet.spec``: ``DIR/ndcg-worksheet/``
   with one executable, ``ndcg-worksheet``, for the editor and the commands;
4. prints the folder's size, and with ``--archive`` packs it as
   ``DIR/ndcg-worksheet-VERSION-PLATFORM.tar.gz`` (``.zip`` on Windows), the
   file to hand to reviewers;
5. with ``--smoke``, runs ``.ci/smoke_installed.py`` on the bundle.

Standard library only; the platform is not named anywhere but in the archive's
name. Default DIR: ``dist/bundle`` in the checkout (ignored by git).
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

from product import EXE, REPO, build, clean_env, sh, venv_with

HERE = Path(__file__).resolve().parent
PYINSTALLER = "pyinstaller>=6.10,<7"
NAME = "ndcg-worksheet"


def freeze(python: Path, out: Path, work: Path) -> Path:
    sh(python, "-m", "PyInstaller", "--noconfirm", "--clean", "--log-level", "WARN",
       "--distpath", out, "--workpath", work, HERE / f"{NAME}.spec", cwd=work)
    return out / NAME


def pack(folder: Path, version: str) -> Path:
    tag = f"{sysconfig.get_platform().replace('-', '_')}"
    base = folder.parent / f"{NAME}-{version}-{tag}"
    kind = "zip" if os.name == "nt" else "gztar"
    return Path(shutil.make_archive(str(base), kind, folder.parent, folder.name))


def size_mb(path: Path) -> float:
    """Megabytes on disk, a symbolic link counted once (PyInstaller links the
    shared libraries' names to one copy)."""
    files = [path] if path.is_file() else [
        p for p in path.rglob("*") if p.is_file() and not p.is_symlink()]
    return sum(p.stat().st_size for p in files) / 1e6


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python .ci/bundle.py", description=__doc__.split("\n")[0])
    p.add_argument("--out", type=Path, default=REPO / "dist" / "bundle")
    p.add_argument("--archive", action="store_true", help="also pack it as one file")
    p.add_argument("--smoke", action="store_true", help="run .ci/smoke_installed.py on it")
    args = p.parse_args(argv)
    out = args.out.resolve()
    if out.exists():
        shutil.rmtree(out)
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="ndcg-bundle-") as tmp:
        wheel = build(Path(tmp), sdist=False)
        python = venv_with(wheel, "bundle", [PYINSTALLER])
        folder = freeze(python, out, Path(tmp))
    print(f"bundle: {folder} ({size_mb(folder):.0f} MB), built in "
          f"{time.monotonic() - start:.0f} s on {platform.system()} {platform.machine()}")
    if args.archive:
        archive = pack(folder, wheel.name.split("-")[1])
        print(f"bundle: {archive} ({size_mb(archive):.0f} MB)")
    exe = folder / f"{NAME}{EXE}"
    if args.smoke:
        return subprocess.run([sys.executable, str(HERE / "smoke_installed.py"), str(exe),
                               str(folder / "_internal" / "core" / "resources")],
                              env=clean_env(), check=False).returncode
    return 0


if __name__ == "__main__":
    sys.exit(main())
