"""Reading a workbook's zip parts safely: never past a part's declared size,
never an XML part with a DTD or entity declaration."""

from __future__ import annotations

import re
import zipfile
from collections.abc import Generator
from typing import Any

from core.errors import InputError

_DTD = re.compile(rb"<!(?:DOCTYPE|ENTITY)", re.IGNORECASE)
#: Bytes unpacked at a time when a part is streamed.
CHUNK = 1 << 20


def parse_xml(data: bytes, *, file: str, part: str) -> Any:
    """Parse a small XML part with defusedxml (no DTD, no entities)."""
    from xml.etree.ElementTree import ParseError

    import defusedxml.ElementTree as det
    from defusedxml import DefusedXmlException

    try:
        return det.fromstring(data, forbid_dtd=True)
    except DefusedXmlException as exc:
        raise InputError(
            f"part {part!r} declares XML entities or a DTD, which a workbook never needs"
            " (an entity bomb such as billion laughs, or an external entity); refused",
            file=file, hint="this file was crafted or damaged; do not open it elsewhere either",
        ) from exc
    except ParseError as exc:
        raise InputError(f"part {part!r} is not well-formed XML ({exc})", file=file) from exc


def read_part(zf: zipfile.ZipFile, info: zipfile.ZipInfo, file: str) -> bytes:
    """Unpack one part, never past its declared size (a lying header)."""
    with zf.open(info) as fh:
        data = fh.read(info.file_size + 1)
    if len(data) > info.file_size:
        raise InputError(
            f"part {info.filename!r} unpacks to more than its declared size", file=file
        )
    return data


def stream_part(zf: zipfile.ZipFile, info: zipfile.ZipInfo, file: str) -> Generator[bytes]:
    """Unpack one part in pieces, never past its declared size (a lying header)."""
    got = 0
    with zf.open(info) as fh:
        while chunk := fh.read(CHUNK):
            got += len(chunk)
            if got > info.file_size:
                raise InputError(
                    f"part {info.filename!r} unpacks to more than its declared size", file=file
                )
            yield chunk


def refuse_declarations(data: bytes, file: str, part: str) -> None:
    """Refuse a DTD or entity declaration (billion laughs, external entities)."""
    if b"<!" in data and _DTD.search(data):
        raise InputError(
            f"part {part!r} declares XML entities or a DTD, which a workbook"
            " never needs (an entity bomb such as billion laughs, or an external"
            " entity); refused",
            file=file,
            hint="this file was crafted or damaged; do not open it elsewhere either",
        )
