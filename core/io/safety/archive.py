"""The file and its zip directory, checked before any part is unpacked:
what kind of file it is, the parts' names, sizes, compression and
compression ratios (zip bombs)."""

from __future__ import annotations

import itertools
import zipfile
from pathlib import Path

from core.errors import InputError
from core.io.safety.kinds import HEAD, named_by_head
from core.io.safety.limits import LIMITS, crafted, damaged

#: Compression methods Excel and LibreOffice write: stored and deflated.
_METHODS = (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED)
#: Bytes of a zip file's local header before the name (a part's packed data
#: starts at least this far past its header's offset).
_LOCAL_HEADER = 30


def check_file(path: Path, name: str, kind: str = "xlsx") -> int:
    """Refuse what is not an .xlsx (or an .ods, as ``kind`` says) by its
    first bytes or size; its size."""
    try:
        size = path.stat().st_size
        with open(path, "rb") as fh:
            magic = fh.read(HEAD)
    except OSError as exc:
        raise InputError(f"cannot read the file: {exc.strerror or exc}", file=name) from exc
    if size == 0:  # (no zip file either, but that says less)
        raise InputError("the file is empty (0 bytes)", file=name,
                         hint=f"save the workbook again as .{kind}: a copy or a download may "
                              "have been cut short")
    if magic.startswith(b"\xd0\xcf\x11\xe0"):
        raise InputError(
            "this is an old .xls workbook or an encrypted (password-protected) one",
            file=name, hint="save it as a plain .xlsx without a password",
        )
    if not magic.startswith(b"PK"):
        named = named_by_head(magic, kind, path.name)
        if named is not None:
            raise InputError(f"this is {named[0]}, not an .{kind} workbook", file=name,
                             hint=named[1])
        raise InputError(
            f"this is not an .{kind} workbook (it is not a zip file)", file=name,
            hint=f"save it as .{kind}, or name a CSV/TSV file",
        )
    if size > LIMITS["file_bytes"]:
        raise InputError(
            f"the workbook is larger than {LIMITS['file_bytes'] // 1024**2} MiB", file=name,
            hint="split it into smaller workbooks")
    return size


def read_directory(path: Path, name: str) -> list[zipfile.ZipInfo]:
    """The zip directory's entries, or one clear error."""
    try:
        with zipfile.ZipFile(path) as zf:
            return zf.infolist()
    except (zipfile.BadZipFile, OSError, EOFError, ValueError, NotImplementedError) as exc:
        raise InputError(
            "the workbook is damaged or truncated (its zip directory cannot be read)",
            file=name, hint="open it in Excel or LibreOffice and save it again",
        ) from exc


def check_directory(infos: list[zipfile.ZipInfo], size: int, name: str) -> None:
    """Refuse a zip directory no spreadsheet program writes: too many parts,
    one name twice (part names ignore case), encryption, an unusual
    compression method, parts whose data overlap, or a part (or the whole)
    unpacking to more than the compression ratio allows."""
    if len(infos) > LIMITS["parts"]:
        raise crafted(f"the workbook has {len(infos):,} parts, too many to be real", name)
    seen: dict[str, str] = {}
    for info in infos:
        key = info.filename.lower()
        if key in seen:
            raise crafted(f"the workbook holds two parts named {info.filename!r}"
                          + ("" if seen[key] == info.filename else f" and {seen[key]!r}")
                          + "; a reader could take either", name)
        seen[key] = info.filename
        if info.flag_bits & 0x1:
            raise InputError("the workbook is encrypted", file=name,
                             hint="save it without a password")
        if info.compress_type not in _METHODS:
            raise damaged(f"part {info.filename!r} is packed with zip method"
                          f" {info.compress_type}, which Excel never writes", name)
        ratio = info.file_size / max(info.compress_size, 1)
        if info.file_size > LIMITS["ratio_floor"] and ratio > LIMITS["ratio"]:
            raise crafted(f"part {info.filename!r} is compressed {ratio:.0f}:1,"
                          " which looks like a zip bomb", name)
    total = sum(i.file_size for i in infos)
    if total > LIMITS["total_ratio_floor"] and total > LIMITS["ratio"] * size:
        raise crafted(f"the workbook's {size:,} bytes unpack to {total:,} bytes"
                      f" ({total / size:.0f}:1), which looks like a zip bomb", name)
    _check_overlap(infos, size, name)


def _check_overlap(infos: list[zipfile.ZipInfo], size: int, name: str) -> None:
    """Refuse parts whose packed data overlap or run past the file's end
    (a zip bomb that packs one stream under many names)."""
    spans = sorted((i.header_offset, i.header_offset + _LOCAL_HEADER + i.compress_size,
                    i.filename) for i in infos)
    for (_, end, first), (start, _, second) in itertools.pairwise(spans):
        if start < end:
            raise crafted(f"parts {first!r} and {second!r} share their packed data,"
                          " which looks like a zip bomb", name)
    if spans and spans[-1][1] > size:
        raise damaged(f"part {spans[-1][2]!r} runs past the end of the file", name)
