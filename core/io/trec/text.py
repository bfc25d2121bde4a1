"""The bytes of a TREC file: the checks both readers make, and decoding ids."""

from __future__ import annotations

import math
from pathlib import Path

from core.errors import InputError

__all__ = ["check_head", "decode", "finite", "read_bytes"]


def check_head(head: bytes, path: Path) -> None:
    """Refuse a workbook or a binary file from its first bytes."""
    if head.startswith(b"PK\x03\x04") or head.startswith(b"\xd0\xcf\x11\xe0"):
        raise InputError("this is a workbook, not a TREC text file", file=str(path))
    if b"\x00" in head[:4096]:
        raise InputError("the file is binary, not a TREC text file", file=str(path))


def read_bytes(path: Path) -> bytes:
    """The whole file, after :func:`check_head`."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read the file: {exc.strerror or exc}", file=str(path)) from exc
    check_head(raw, path)
    return raw


def decode(b: bytes) -> str:
    """An id as text: UTF-8, else Windows-1252."""
    try:
        return b.decode("utf-8")
    except UnicodeDecodeError:
        return b.decode("cp1252", errors="replace")


def finite(token: bytes, *, file: str, line: int, column: str) -> float:
    """A token as a finite number, else an error naming its line and column."""
    try:
        value = float(token)
    except ValueError:
        value = math.nan
        bad = True
    else:
        bad = not math.isfinite(value)
    if bad:
        raise InputError(
            f"{decode(token)!r} is not a finite number", file=file, line=line, column=column
        )
    return value
