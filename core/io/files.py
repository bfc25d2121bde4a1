"""Opening an input file: only a regular file is ever read.

A FIFO (named pipe) blocks ``open`` until a writer comes, forever in a
script; a device such as ``/dev/zero`` or ``/dev/urandom`` never ends; a
folder, a socket, a symbolic link that loops or points nowhere cannot be
read. Every reader of inputs opens through :func:`open_input`, which looks
at what a path is before it opens it and again at what it opened, and says
in one sentence what is wrong.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import BinaryIO

from core.errors import InputError

__all__ = ["check_input", "open_input", "read_input"]

#: What each kind of special file is called in a message.
_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a device"),
    (stat.S_ISBLK, "a device"),
    (stat.S_ISSOCK, "a socket"),
)

_REASONS = {
    errno.ENOENT: "no such file",
    errno.ELOOP: "the path is a loop of symbolic links",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.ENOTDIR: "a part of the path is not a folder",
    errno.ENAMETOOLONG: "the path is too long",
}


def _refusal(path: Path, exc: OSError) -> InputError:
    reason = _REASONS.get(exc.errno or 0, exc.strerror or str(exc))
    if exc.errno == errno.ENOENT and path.is_symlink():
        reason = "a symbolic link to a file that does not exist"
    reason = f"cannot read the file: {reason}"
    hint = {errno.ENOENT: "check the path", errno.EACCES: "make the file readable",
            errno.EPERM: "make the file readable"}.get(exc.errno or 0)
    return InputError(reason, file=str(path), hint=hint)


def _check_mode(mode: int, path: Path) -> None:
    for test, kind in _KINDS:
        if test(mode):
            raise InputError(f"this is {kind}, not a file", file=str(path),
                             hint="name a regular file")


def check_input(path: str | Path) -> None:
    """Raise :class:`InputError` unless ``path`` is a regular file (links
    followed) that exists; nothing is opened."""
    path = Path(path)
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        raise _refusal(path, exc) from exc
    _check_mode(mode, path)


def open_input(path: str | Path) -> BinaryIO:
    """Open a regular file for reading in binary mode.

    The path is looked at first (a FIFO is refused before ``open`` could
    block on it), then opened without blocking and looked at again (a file
    swapped for a pipe in between is refused too).
    """
    path = Path(path)
    check_input(path)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        raise _refusal(path, exc) from exc
    try:
        _check_mode(os.fstat(fd).st_mode, path)
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return os.fdopen(fd, "rb")


def read_input(path: str | Path, limit: int | None = None) -> bytes:
    """The whole of a regular file (:func:`open_input`); a file larger than
    ``limit`` bytes is refused before it is read."""
    path = Path(path)
    with open_input(path) as fh:
        try:
            if limit is not None and os.fstat(fh.fileno()).st_size > limit:
                raise InputError(f"the file is larger than {limit / 1024**3:g} GiB",
                                 file=str(path), hint="split it into smaller files")
            return fh.read()
        except OSError as exc:
            raise InputError(f"cannot read the file: {exc.strerror or exc}",
                             file=str(path)) from exc
