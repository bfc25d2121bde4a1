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

__all__ = ["check_input", "check_uncompressed", "compressed", "open_input", "read_input"]

#: Compressed files by their first bytes: the format, its tool and the
#: command that writes it decompressed to standard output.
_COMPRESSED = (
    (b"\x1f\x8b", "gzip", "gzip", "zcat"),
    (b"\xfd7zXZ\x00", "xz", "xz", "xzcat"),
    (b"\x28\xb5\x2f\xfd", "zstd", "zstd", "zstdcat"),
    (b"BZh", "bzip2", "bzip2", "bzcat"),
)

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


def compressed(head: bytes) -> tuple[str, str, str] | None:
    """The compression of a file starting with ``head`` (its first 10 bytes
    are enough): its name, its tool and the command that writes it out
    decompressed; None for an uncompressed file. bzip2 is told by its
    block's magic number too, so that a text starting ``BZh`` is not taken
    for one."""
    for magic, name, tool, cat in _COMPRESSED:
        if head.startswith(magic) and (name != "bzip2" or head[4:10] == b"1AY&SY"):
            return name, tool, cat
    return None


def check_uncompressed(path: str | Path, *, piped: bool = True) -> None:
    """Refuse a compressed file (``run.txt.gz``) from its first bytes, with
    how to decompress it (and, where the command reads standard input,
    ``piped``, how to pipe it in): no reader takes one, and its bytes would
    else be called binary."""
    path = Path(path)
    with open_input(path) as fh:
        found = compressed(fh.read(10))
    if found is not None:
        name, tool, cat = found
        pipe = (f", or give - for it and pipe it in: {cat} {path.name} | ndcg-worksheet ..."
                if piped else "")
        raise InputError(f"the file is {name}-compressed", file=str(path),
                         hint=f"decompress it first ({tool} -dk {path.name}){pipe}")


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
