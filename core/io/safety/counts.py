"""Numbers an XML part declares that a reader allocates by (a shared-string
table's ``uniqueCount``, a style list's ``count``), held to what the part's
real bytes can hold; and the DTD and entity refusal for every XML part that
is not a sheet, all in one streaming pass."""

from __future__ import annotations

import re
import zipfile

from core.io.safety.limits import LIMITS, cells_allowed, crafted
from core.io.safety.parts import refuse_declarations, stream_part

#: A shared-string table's start tag, however prefixed, anywhere in a part
#: (readers match the local name wherever it occurs).
_SST = re.compile(rb"<(?:[A-Za-z_][\w.\-]*:)?sst[\s>/]")
_ATTRIBUTE = re.compile(rb"""([\w.:\-]+)\s*=\s*["']([^"']*)["']""")
_COUNT = re.compile(rb"""count\s*=\s*["']\s*(\d{1,30})""")
_ELEMENT = re.compile(rb"<([\w.:\-]+)")
#: Bytes of a start tag read for its attributes.
_TAG_ROOM = 1 << 16


def check_xml_part(zf: zipfile.ZipFile, info: zipfile.ZipInfo, root: str, *, file: str,
                   package_bytes: int) -> None:
    """Stream one XML part that is not a sheet: refuse a DTD or entity
    declaration, a shared-string table declaring more strings than the part
    can hold (or more references than the whole package can), and, in a
    style sheet, a count beyond what the part can hold."""
    part = info.filename
    carry = b""
    for chunk in stream_part(zf, info, file):
        buf = carry + chunk
        refuse_declarations(buf, file, part)
        if b"sst" in buf:
            for m in _SST.finditer(buf):
                _check_sst(buf, m.end(), info, file=file, package_bytes=package_bytes)
        if root == "styleSheet":
            _check_style_counts(buf, info, file=file)
        carry = buf[-_TAG_ROOM:]


def _declared(value: bytes, what: str, part: str, file: str) -> int:
    text = value.decode("ascii", "replace").strip()
    if not text.isdigit() or not text.isascii() or len(text) > 20:
        raise crafted(f"part {part!r} declares {what} {text[:40]!r}, not a count", file)
    return int(text)


def _check_sst(buf: bytes, at: int, info: zipfile.ZipInfo, *, file: str,
               package_bytes: int) -> None:
    part = info.filename
    end = buf.find(b">", at, at + _TAG_ROOM)
    if end < 0:
        if len(buf) - at < _TAG_ROOM:
            return  # the tag goes on in the next piece: seen again there
        raise crafted(f"part {part!r} has a shared-string table whose start tag runs"
                      f" past {_TAG_ROOM // 1024} KiB", file)
    for name, value in _ATTRIBUTE.findall(buf, at, end):
        local = name.rsplit(b":", 1)[-1]
        if local == b"uniqueCount":
            n = _declared(value, "uniqueCount", part, file)
            room = max(LIMITS["floor_strings"], info.file_size // LIMITS["string_bytes"])
            if n > room:
                raise crafted(
                    f"part {part!r} declares {n:,} shared strings (uniqueCount), more than"
                    f" its {info.file_size:,} bytes can hold; a reader would set aside"
                    " memory for all of them", file)
        elif local == b"count":
            n = _declared(value, "count", part, file)
            if n > cells_allowed(package_bytes):
                raise crafted(
                    f"part {part!r} declares {n:,} uses of shared strings (count), more"
                    f" cells than the workbook's {package_bytes:,} bytes can hold", file)


def _check_style_counts(buf: bytes, info: zipfile.ZipInfo, *, file: str) -> None:
    room = max(LIMITS["floor_styles"], info.file_size // LIMITS["style_bytes"])
    for m in _COUNT.finditer(buf):
        if buf[m.start() - 1:m.start()] not in (b" ", b"\t", b"\n", b"\r"):
            continue  # another attribute whose name ends in "count"
        digits = m.group(1)
        if int(digits) <= room:
            continue
        tag = _ELEMENT.match(buf, max(0, buf.rfind(b"<", 0, m.start())))
        element = tag.group(1).decode("ascii", "replace") if tag else "?"
        raise crafted(
            f"part {info.filename!r} declares {int(digits):,} entries in its {element!r} list"
            f" (count), more than its {info.file_size:,} bytes can hold", file)
