"""Checks a workbook must pass before any parser sees it.

Zip bombs, encrypted or old binary workbooks, truncated files and other
hostile input are refused here with one clear message, before openpyxl or
calamine spend memory on them.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

from core.errors import InputError

__all__ = ["LIMITS", "check_xlsx"]

LIMITS = {
    "file_bytes": 512 * 1024**2,
    "parts": 10_000,
    "part_bytes": 1024**3,
    "total_bytes": 2 * 1024**3,
    "ratio": 200.0,
}
_REQUIRED = ("[Content_Types].xml",)


def check_xlsx(path: str | Path) -> None:
    """Raise :class:`InputError` unless ``path`` looks like a safe .xlsx."""
    path = Path(path)
    name = str(path)
    try:
        size = path.stat().st_size
        with open(path, "rb") as fh:
            magic = fh.read(8)
    except OSError as exc:
        raise InputError(f"cannot read the file: {exc.strerror or exc}", file=name) from exc
    if magic.startswith(b"\xd0\xcf\x11\xe0"):
        raise InputError(
            "this is an old .xls workbook or an encrypted (password-protected) one",
            file=name, hint="save it as a plain .xlsx without a password",
        )
    if not magic.startswith(b"PK"):
        raise InputError(
            "this is not an .xlsx workbook (it is not a zip file)", file=name,
            hint="save it as .xlsx, or name a CSV/TSV file",
        )
    if size > LIMITS["file_bytes"]:
        raise InputError("the workbook is larger than 512 MiB", file=name)
    try:
        with zipfile.ZipFile(path) as zf:
            infos = zf.infolist()
    except (zipfile.BadZipFile, OSError, EOFError, ValueError) as exc:
        raise InputError(
            "the workbook is damaged or truncated (its zip directory cannot be read)",
            file=name, hint="open it in Excel or LibreOffice and save it again",
        ) from exc
    if len(infos) > LIMITS["parts"]:
        raise InputError(f"the workbook has {len(infos)} parts, too many to be real", file=name)
    total = 0
    for info in infos:
        if info.flag_bits & 0x1:
            raise InputError("the workbook is encrypted", file=name,
                             hint="save it without a password")
        total += info.file_size
        if info.file_size > LIMITS["part_bytes"]:
            raise InputError(f"part {info.filename!r} unpacks to more than 1 GiB", file=name)
        if info.compress_size and info.file_size / info.compress_size > LIMITS["ratio"] and (
            info.file_size > 50 * 1024**2
        ):
            raise InputError(
                f"part {info.filename!r} is compressed {info.file_size // info.compress_size}:1,"
                " which looks like a zip bomb", file=name,
            )
    if total > LIMITS["total_bytes"]:
        raise InputError("the workbook unpacks to more than 2 GiB", file=name)
    names = {i.filename for i in infos}
    for part in _REQUIRED:
        if part not in names:
            raise InputError(
                f"the workbook lacks its {part} part", file=name,
                hint="this is a zip file but not an .xlsx workbook",
            )
