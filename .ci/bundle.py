"""Build the one-folder bundle for reviewers without Python (issue 35), and
optionally run the installed-app smoke test against it.

    python .ci/bundle.py [--out DIR] [--archive] [--smoke]

1. builds the wheel from the checkout (``python -m build --wheel``);
2. installs it with its declared dependencies and PyInstaller into a build
   venv outside the checkout (kept between runs, rebuilt when the wheel's
   dependencies or the Python change), so what is frozen is what users install;
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
import hashlib
import os
import platform
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
import venv
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
PYINSTALLER = "pyinstaller>=6.10,<7"
NAME = "ndcg-worksheet"


def sh(*cmd: str | Path, cwd: Path | None = None) -> None:
    subprocess.run([str(c) for c in cmd], cwd=cwd, check=True, env=_env())


def _env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}


def build_wheel(where: Path) -> Path:
    sh(sys.executable, "-m", "pip", "install", "-q", "build")
    subprocess.run([sys.executable, "-m", "build", "--wheel", "--outdir", str(where), str(REPO)],
                   check=True, env=_env(), stdout=subprocess.DEVNULL)
    return next(where.glob("*.whl"))


def _requirements(wheel: Path) -> str:
    with zipfile.ZipFile(wheel) as whl:
        meta = next(n for n in whl.namelist() if n.endswith(".dist-info/METADATA"))
        deps = [line for line in whl.read(meta).decode().splitlines()
                if line.startswith("Requires-Dist:") and "extra ==" not in line]
    return "\n".join([*deps, PYINSTALLER])


def build_venv(wheel: Path) -> Path:
    """The build venv with the wheel, its dependencies and PyInstaller."""
    root = Path(os.environ.get("NDCG_CI_VENVS") or Path(
        os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "ndcg-worksheet-ci")
    key = hashlib.sha256(_requirements(wheel).encode()).hexdigest()[:12]
    target = root / f"bundle-py{sys.version_info[0]}.{sys.version_info[1]}-{key}"
    bindir = "Scripts" if os.name == "nt" else "bin"
    python = target / bindir / ("python.exe" if os.name == "nt" else "python")
    if not python.exists():
        for old in root.glob("bundle-*"):
            shutil.rmtree(old)
        venv.create(target, with_pip=True)
        sh(python, "-m", "pip", "install", "-q", PYINSTALLER)
    sh(python, "-m", "pip", "install", "-q", "--force-reinstall", "--no-deps", wheel)
    sh(python, "-m", "pip", "install", "-q", wheel)
    return python


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
        wheel = build_wheel(Path(tmp))
        python = build_venv(wheel)
        folder = freeze(python, out, Path(tmp))
    print(f"bundle: {folder} ({size_mb(folder):.0f} MB), built in "
          f"{time.monotonic() - start:.0f} s on {platform.system()} {platform.machine()}")
    if args.archive:
        archive = pack(folder, wheel.name.split("-")[1])
        print(f"bundle: {archive} ({size_mb(archive):.0f} MB)")
    exe = folder / (NAME + (".exe" if os.name == "nt" else ""))
    if args.smoke:
        return subprocess.run([sys.executable, str(HERE / "smoke_installed.py"), str(exe),
                               str(folder / "_internal" / "core" / "resources")],
                              env=_env(), check=False).returncode
    return 0


if __name__ == "__main__":
    sys.exit(main())
