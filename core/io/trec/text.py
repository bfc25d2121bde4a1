"""The bytes of a TREC file: the checks both readers make, and decoding ids."""

from __future__ import annotations

import codecs
from pathlib import Path

from core.errors import InputError
from core.io.files import open_input, read_input
from core.model.numbers import NumberError, read_number

__all__ = ["BOM", "check_head", "decode", "finite", "read_bytes", "refuse_nul"]

#: UTF-8's byte order mark: PowerShell 5's ``Out-File -Encoding utf8`` and
#: older Notepad start a file with it. It is no part of the first query id.
BOM = codecs.BOM_UTF8


def check_head(head: bytes, path: Path) -> None:
    """Refuse a workbook or a binary file from its first bytes."""
    if head.startswith(b"PK\x03\x04") or head.startswith(b"\xd0\xcf\x11\xe0"):
        raise InputError("this is a workbook, not a TREC text file", file=str(path))
    if b"\x00" in head[:4096]:
        raise InputError("the file is binary, not a TREC text file", file=str(path))


def refuse_nul(path: Path, at: int) -> None:
    """Refuse the file whose byte ``at`` is a NUL past its head (which
    :func:`check_head` refuses as a binary file), naming the line and its
    field holding it: ids keep no zero byte (the ids' tie order reads one as
    an id's end), as JSON's and Parquet's are refused
    (:func:`core.io.arrow_ids.refuse_nul`)."""
    from core.io.arrow_ids import NUL

    with open_input(path) as fh:
        before = fh.read(at)
        line = fh.readline(1 << 16)
    start = before.rfind(b"\n") + 1
    field = next(f for f in (before[start:] + line).split() if b"\0" in f)
    raise InputError(f"{decode(field)!r} {NUL}", file=str(path), line=before.count(b"\n") + 1,
                     hint="remove it from the id: a text file holds none")


def read_bytes(path: Path) -> bytes:
    """The whole of a regular file (a FIFO or a device is refused before it
    is opened: :func:`core.io.files.read_input`), after :func:`check_head`,
    without a UTF-8 byte order mark."""
    raw = read_input(path)
    check_head(raw, path)
    if b"\0" in raw:
        refuse_nul(path, raw.index(b"\0"))
    return raw[len(BOM):] if raw.startswith(BOM) else raw


def decode(b: bytes) -> str:
    """An id as text: UTF-8, else Windows-1252."""
    try:
        return b.decode("utf-8")
    except UnicodeDecodeError:
        return b.decode("cp1252", errors="replace")


def finite(token: bytes, *, file: str, line: int, column: str, hint: str) -> float:
    """A token as a finite number by the one grammar
    (:func:`core.model.numbers.read_number`: no ``1_0``, ``nan``, ``1e999``),
    else an error naming its line and column, with ``hint``: what the
    column holds and what to do."""
    text = decode(token)
    try:
        return read_number(text)
    except NumberError as exc:
        detail = f" ({exc.detail})" if exc.detail else ""
        raise InputError(f"{text!r} is not a finite number{detail}", file=file,
                         line=line, column=column, hint=hint) from None
