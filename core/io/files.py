"""Opening an input file: only a regular file is ever read, a compressed
one decompressed as it is read.

A FIFO (named pipe) blocks ``open`` until a writer comes, forever in a
script; a device such as ``/dev/zero`` or ``/dev/urandom`` never ends; a
folder, a socket, a symbolic link that loops or points nowhere cannot be
read. Every reader of inputs opens through :func:`open_input`, which looks
at what a path is before it opens it and again at what it opened, and says
in one sentence what is wrong.

A gzip, bzip2 or xz file (ir_datasets, Anserini and BEIR ship runs and
qrels as ``.gz``) is told by its first bytes, not its name, and
:func:`open_input` hands back its decompressed bytes, a piece at a time
(memory stays bounded: nothing holds the whole text unless the reader
would for a plain file), so every reader, its line numbers and its messages
are the same as for the plain file. A corrupt or truncated archive is
refused naming the file; an archive holding a workbook or a Parquet table
(which are read by seeking in the file) is refused naming what it holds.
"""

from __future__ import annotations

import codecs
import errno
import io
import os
import stat
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, TypeVar

from core.errors import InputError

T = TypeVar("T")

__all__ = [
    "DECOMPRESSED", "HEAD_BYTES", "MAX_BYTES", "Head", "bom_codec", "check_input", "compressed",
    "holds_no_line", "open_input", "read_input", "sniff", "stem", "too_large", "unpacked_name",
    "unreadable",
]

#: Compressed files by their first bytes: the format, its tool and the
#: command that writes it decompressed to standard output.
_COMPRESSED = (
    (b"\x1f\x8b", "gzip", "gzip", "zcat"),
    (b"\xfd7zXZ\x00", "xz", "xz", "xzcat"),
    (b"\x28\xb5\x2f\xfd", "zstd", "zstd", "zstdcat"),
    (b"BZh", "bzip2", "bzip2", "bzcat"),
)

#: Byte order marks and the codecs they say (UTF-32's little-endian mark
#: starts as UTF-16's: looked at first).
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"),
)


def bom_codec(raw: bytes) -> str | None:
    """The codec the byte order mark ``raw`` starts with says (UTF-32's
    little-endian mark starts as UTF-16's: looked at first), None without one.

    >>> bom_codec("q".encode("utf-32")), bom_codec("q".encode("utf-16")), bom_codec(b"q")
    ('utf-32', 'utf-16', None)
    """
    return next((codec for bom, codec in _BOMS if raw.startswith(bom)), None)


#: The compressions read (the standard library's); another is refused.
DECOMPRESSED = ("gzip", "bzip2", "xz")

#: The most bytes a whole-file reader takes (:mod:`core.io.textfile`), and
#: the most a compressed input unpacks to for any reader, the streaming TREC
#: reader's too (a few KB of gzip can hold gigabytes of one repeated line):
#: past it the stream refuses (:func:`too_large`) as it is read.
MAX_BYTES = 2 * 1024**3

#: The suffixes of the compressions read, which a document's name drops.
_PACKED_SUFFIXES = (".gz", ".bz2", ".xz")

#: What an archive may hold that its reader takes only from a file it can
#: seek in, by its first bytes.
_HELD = (
    (b"PK\x03\x04", "a workbook (.xlsx or .ods)"),
    (b"\xd0\xcf\x11\xe0", "an old .xls workbook"),
    (b"PAR1", "a Parquet table"),
)

#: How many bytes of a compressed file's text are decompressed at a time.
_PIECE = 1 << 20
#: How many first bytes of an input :func:`sniff` reads.
HEAD_BYTES = 65536

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


def unreadable(path: str | Path, exc: OSError) -> InputError:
    """A read of an opened input that failed (a disk's error, a file cut
    short by another program), naming the file."""
    return InputError(f"cannot read the file: {exc.strerror or exc}", file=str(path))


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


def _open_plain(path: Path) -> io.BufferedReader[Any]:
    """A regular file opened for reading, as it is stored."""
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


def _peek(fh: io.BufferedReader[Any], size: int, path: Path) -> bytes:
    try:
        return fh.peek(size)[:size]
    except OSError as exc:
        raise unreadable(path, exc) from exc


def _open(path: Path, piped: bool) -> tuple[io.BufferedReader[Any], str | None]:
    """:func:`open_input`, and the compression it undid (None for a plain file)."""
    fh = _open_plain(path)
    try:
        found = compressed(_peek(fh, 10, path))
        if found is None:
            return fh, None
        if found[0] not in DECOMPRESSED:
            raise _compressed_refusal(path, found, piped)
        unpacked: io.BufferedReader[Any] = io.BufferedReader(_Unpacked(fh, found[0], path))
        _refuse_held(_peek(unpacked, 8, path), path, found)
    except BaseException:
        fh.close()
        raise
    return unpacked, found[0]


def open_input(path: str | Path, *, piped: bool = False) -> BinaryIO:
    """Open a regular file for reading in binary mode; a gzip, bzip2 or xz
    file gives its decompressed bytes.

    The path is looked at first (a FIFO is refused before ``open`` could
    block on it), then opened without blocking and looked at again (a file
    swapped for a pipe in between is refused too). A file compressed in a
    format the standard library does not read (zstd) is refused with how to
    decompress it (and, ``piped``, how to pipe it into a command that reads
    standard input).
    """
    return _open(Path(path), piped)[0]


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


def _compressed_refusal(path: Path, found: tuple[str, str, str], piped: bool) -> InputError:
    name, tool, cat = found
    pipe = (f", or give - for it and pipe it in: {cat} {path.name} | ndcg-worksheet ..."
            if piped else "")
    return InputError(f"the file is {name}-compressed", file=str(path),
                      hint=f"decompress it first ({tool} -dk {path.name}){pipe}")


def _refuse_held(head: bytes, path: Path, found: tuple[str, str, str]) -> None:
    """Refuse an archive holding a file its reader takes only uncompressed."""
    for magic, what in _HELD:
        if head.startswith(magic):
            raise InputError(f"the file is {found[0]}-compressed and holds {what}",
                             file=str(path),
                             hint=f"decompress it first ({found[1]} -dk {path.name}) and "
                                  "open what it holds")


class _Unpacked(io.RawIOBase):
    """A compressed file's decompressed bytes, read as they are asked for
    (the standard library's decompressors: a piece of the archive at a
    time). A corrupt or truncated archive raises :class:`InputError`
    naming the file."""

    def __init__(self, raw: io.BufferedReader[Any], name: str, path: Path) -> None:
        super().__init__()
        self._raw, self._name, self._path = raw, name, path
        self._limit, self._given = MAX_BYTES, 0  # bytes handed out so far
        self._stream: io.BufferedIOBase
        if name == "gzip":
            import gzip

            self._stream = gzip.GzipFile(fileobj=raw, mode="rb")
        elif name == "bzip2":
            import bz2

            self._stream = bz2.BZ2File(raw)
        else:
            import lzma

            self._stream = lzma.LZMAFile(raw)  # noqa: SIM115 (closed by close())

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        return self._counted(self._guarded(lambda: self._stream.readinto(buffer)))

    def readall(self) -> bytes:
        pieces = []
        while piece := self._guarded(lambda: self._stream.read(_PIECE)):
            self._counted(len(piece))
            pieces.append(piece)
        return b"".join(pieces)

    def _counted(self, n: int) -> int:
        """``n`` bytes more handed out; refused past :data:`MAX_BYTES`."""
        self._given += n
        if self._given > self._limit:
            raise too_large(str(self._path), self._limit, how=" decompressed")
        return n

    def _guarded(self, read: Callable[[], T]) -> T:
        try:
            return read()
        except EOFError:
            raise self._corrupt("truncated: it ends before its compressed data does") from None
        except OSError as exc:
            if exc.errno is not None:  # the disk's error, not the archive's
                raise
            raise self._corrupt(f"corrupt ({exc})") from None
        except Exception as exc:  # zlib.error, lzma.LZMAError: the archive's data
            if type(exc).__module__ not in ("zlib", "_lzma", "lzma", "_bz2"):
                raise
            raise self._corrupt(f"corrupt ({exc})") from None

    def _corrupt(self, what: str) -> InputError:
        tool = {"bzip2": "bzip2", "xz": "xz"}.get(self._name, "gzip")
        return InputError(f"the {self._name} file is {what}", file=str(self._path),
                          hint=f"download or compress it again (check it with "
                               f"{tool} -t {self._path.name})")

    def close(self) -> None:
        if not self.closed:
            try:
                self._stream.close()
                self._raw.close()
            finally:
                super().close()


@dataclass(frozen=True)
class Head:
    """An input's first bytes, read once before the read for every check that
    looks at them (:func:`sniff`)."""

    path: Path
    #: The first :data:`HEAD_BYTES` of the file's content (decompressed).
    data: bytes
    #: The compression undone (``gzip``, ``bzip2``, ``xz``), or None.
    compression: str | None


def sniff(path: str | Path, *, piped: bool = True) -> Head:
    """The first bytes of an input (:class:`Head`), through
    :func:`open_input`: what it refuses (not a regular file, compressed in
    a format not read, an archive holding a workbook) is refused here,
    before anything else is read."""
    path = Path(path)
    fh, compression = _open(path, piped)
    with fh:
        try:
            data = fh.read(HEAD_BYTES)
        except OSError as exc:
            raise unreadable(path, exc) from exc
    return Head(path, data, compression)


def holds_no_line(head: Head) -> bool:
    """Whether the input whose first bytes are ``head`` holds no line:
    nothing, or white space alone (those bytes are all of it; a run's
    reader skips blank lines). Such a run ranks no query: the commands say
    so, naming it.

    >>> holds_no_line(Head(Path("run.txt"), b" \\n\\n", None))
    True
    """
    return len(head.data) < HEAD_BYTES and not head.data.strip()


def read_input(path: str | Path, limit: int | None = None) -> bytes:
    """The whole of a regular file (:func:`open_input`; a compressed one
    decompressed); a file larger than ``limit`` bytes (decompressed) is
    refused before it is read (a compressed one when it passes the limit)."""
    path = Path(path)
    fh, compression = _open(path, False)
    with fh:
        try:
            if limit is None:
                return fh.read()
            if compression is None:
                if os.fstat(fh.fileno()).st_size > limit:
                    raise too_large(str(path), limit)
                return fh.read()
            return _read_up_to(fh, limit, path)
        except OSError as exc:
            raise unreadable(path, exc) from exc


def _read_up_to(fh: io.BufferedReader[Any], limit: int, path: Path) -> bytes:
    """A decompressed stream's bytes, refused once they pass ``limit`` (read
    a piece at a time: ``read(limit + 1)`` would set aside ``limit`` bytes)."""
    pieces, size = [], 0
    while piece := fh.read(_PIECE):
        size += len(piece)
        if size > limit:
            raise too_large(str(path), limit, how=" decompressed")
        pieces.append(piece)
    return b"".join(pieces)


def too_large(file: str, limit: int, what: str = "the file is", how: str = "") -> InputError:
    """The refusal of an input past ``limit`` bytes (``what``: ``the file
    is``, ``standard input is``; ``how``: `` decompressed``)."""
    return InputError(f"{what} larger than {limit / 1024**3:g} GiB{how}", file=file,
                      hint="split it into smaller files")


def stem(path: str | Path) -> str:
    """The name a document read from ``path`` takes: the file's name without
    its suffix, nor a compression's before it (``run`` for ``run.txt.gz``,
    as for ``run.txt``)."""
    return Path(unpacked_name(path)).stem


def unpacked_name(path: str | Path) -> str:
    """The file's name without a compression's suffix (``run.txt`` for
    ``run.txt.gz``; others as they are)."""
    path = Path(path)
    return path.with_suffix("").name if path.suffix.lower() in _PACKED_SUFFIXES else path.name

