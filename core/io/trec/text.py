"""The bytes of a TREC file: the checks both readers make, and decoding ids."""

from __future__ import annotations

import codecs
import zipfile
from pathlib import Path

from core.errors import InputError
from core.io.files import compressed, open_input, read_input, unpacked_name
from core.io.suffixes import WORKBOOK_SUFFIXES
from core.model.numbers import NumberError, read_number

__all__ = ["BOM", "check_head", "decode", "decompressing", "finite", "read_bytes",
           "refuse_nul"]

#: UTF-8's byte order mark: PowerShell 5's ``Out-File -Encoding utf8`` and
#: older Notepad start a file with it. It is no part of the first query id.
BOM = codecs.BOM_UTF8


def check_head(head: bytes, path: Path) -> None:
    """Refuse a workbook, a zip archive or a binary file from its first bytes."""
    if head.startswith(b"PK\x03\x04") or head.startswith(b"\xd0\xcf\x11\xe0"):
        problem, hint = _not_text(head, path)
        raise InputError(f"{problem}, not a TREC text file", file=str(path), hint=hint)
    wide = _wide_text(head[:4096])
    if wide is not None:
        said, iconv, bom = wide
        cat = decompressing(path)
        name = unpacked_name(path)
        command = (f"{cat} {path.name} | iconv -f {iconv} -t UTF-8" if cat else
                   f"iconv -f {iconv} -t UTF-8 {path.name}")
        raise InputError(
            f"the file is {said} text{'' if bom else ' without a byte order mark'}, not UTF-8 "
            "as TREC files are", file=str(path),
            hint=f"save it as UTF-8: {command} > utf8-{name} (Windows PowerShell 5's > "
            "writes UTF-16: write with | Out-File -Encoding utf8)")
    if b"\x00" in head[:4096]:
        from core.io.safety.kinds import named_by_head

        # (a PDF, an image, a database: named as what it is, as a workbook's
        # reader names it; their hints are the workbook's, not said here)
        named = named_by_head(head)
        what = named[0] if named is not None and named[0] != "a text file" else "binary"
        raise InputError(f"the file is {what}, not a TREC text file", file=str(path))


#: Where a workbook goes, said to one given as a run (or under a text name).
_WORKBOOK_PLACES = ("a workbook is evaluated alone, evaluate BOOK.xlsx without --qrels, or gives "
                    "the judgments after --qrels; a run is TREC text: query Q0 source rank score "
                    "tag")


def _not_text(head: bytes, path: Path) -> tuple[str, str]:
    """What a file whose bytes begin as a zip's or an old workbook's is, and
    what to do: a run sent as ``run.zip`` was called "a workbook" and told
    nothing to do, as were an .xls sheet and a workbook given as the run."""
    if head.startswith(b"\xd0\xcf\x11\xe0"):
        return ("this is an old .xls workbook (or a password-protected one)",
                "save it as .xlsx, without a password, in Excel or LibreOffice; " +
                _WORKBOOK_PLACES)
    try:
        with zipfile.ZipFile(path) as archive:
            names = set(archive.namelist())
    except (OSError, zipfile.BadZipFile, ValueError):
        return ("this is a damaged zip archive or workbook",
                "copy it again whole; " + _WORKBOOK_PLACES)
    kind = ".xlsx" if "[Content_Types].xml" in names else (
        ".ods" if "mimetype" in names else None)
    if kind is None:
        inside = sorted(names)[:1]
        return ("this is a zip archive", f"unzip it, unzip {path.name}, and give the file it "
                f"holds{f', {inside[0]}' if len(names) == 1 else ''}")
    if path.suffix.lower() in WORKBOOK_SUFFIXES:
        return "this is a workbook", _WORKBOOK_PLACES
    return (f"this is an {kind} workbook under a {path.suffix or 'suffix-less'} name",
            f"rename it to {kind}: " + _WORKBOOK_PLACES)


def decompressing(path: Path) -> str | None:
    """The command that writes ``path`` decompressed (told by its first
    bytes, as the readers tell it: :func:`core.io.files.compressed`), None
    for a file that is not compressed or cannot be read again."""
    try:
        with open(path, "rb") as fh:
            found = compressed(fh.read(10))
    except OSError:
        return None
    return None if found is None else found[2]


#: The bytes of ASCII text (printable, tab, line ends) :func:`_utf32_order`
#: looks for.
_ASCII_TEXT = frozenset(range(32, 127)) | frozenset(b"\t\n\r")


def _wide_text(head: bytes) -> tuple[str, str, bool] | None:
    """(encoding said, iconv's name for it, has a byte order mark) of text in
    UTF-16 or UTF-32, by its byte order mark, or without one by its zero
    bytes (an ASCII character's high bytes): None for other bytes."""
    for bom, said, iconv in ((codecs.BOM_UTF32_LE, "UTF-32", "UTF-32"),
                             (codecs.BOM_UTF32_BE, "UTF-32", "UTF-32"),
                             (codecs.BOM_UTF16_LE, "UTF-16", "UTF-16"),
                             (codecs.BOM_UTF16_BE, "UTF-16", "UTF-16")):
        if head.startswith(bom):
            return said, iconv, True
    order = _utf32_order(head)
    if order is not None:
        return "UTF-32", order, False
    pairs = len(head) // 2
    if pairs < 4:
        return None
    high_odd = head[1 : 2 * pairs : 2].count(0)  # little-endian: the high byte second
    high_even = head[0 : 2 * pairs : 2].count(0)
    if high_odd >= 0.9 * pairs and high_even == 0:
        return "UTF-16", "UTF-16LE", False
    if high_even >= 0.9 * pairs and high_odd == 0:
        return "UTF-16", "UTF-16BE", False
    return None


def _utf32_order(head: bytes) -> str | None:
    """iconv's name for UTF-32 text without a byte order mark
    (``UTF-32LE``, ``UTF-32BE``), told by its characters of four bytes: at
    least nine in ten of them ASCII text, three zero bytes beside the
    character's (after it little-endian, before it big-endian), a line
    break among them; None for other bytes (a character past U+FFFF or in
    Latin-1 may be among the others)."""
    quads = len(head) // 4
    if quads < 4 or head.count(0) < 2 * quads:  # (text in UTF-8 holds none: one count)
        return None
    for order, at in (("UTF-32LE", 0), ("UTF-32BE", 3)):
        ascii_text = sum(1 for i in range(at, 4 * quads, 4) if head[i] in _ASCII_TEXT
                         and head[i - at:i - at + 4].count(0) == 3)
        if ascii_text >= 0.9 * quads and "\n".encode(order) in head[:4 * quads]:
            return order
    return None


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
