"""Write files so that the previous version survives any failure."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

from core.errors import InputError

__all__ = ["atomic_write", "atomic_write_text"]


def atomic_write(path: Path, write: Callable[[Path], None]) -> None:
    """Call ``write(tmp)`` on a temporary file beside ``path``, flush it to
    disk, then replace ``path``. On any failure ``path`` is left as it was."""
    path = Path(path)
    directory = path.parent if str(path.parent) else Path(".")
    try:
        fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    except OSError as exc:
        raise InputError(
            f"cannot write here: {exc.strerror or exc}", file=str(path),
            hint="choose a folder you can write to",
        ) from exc
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        write(tmp)
        with open(tmp, "rb+") as fh:
            os.fsync(fh.fileno())
        with contextlib.suppress(OSError):
            os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except OSError as exc:
        raise InputError(
            f"could not save: {exc.strerror or exc}; the previous file is unchanged",
            file=str(path),
        ) from exc
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()


def atomic_write_text(path: Path, text: str, encoding: str = "utf-8") -> None:
    def write(tmp: Path) -> None:
        tmp.write_text(text, encoding=encoding)

    atomic_write(path, write)
