"""Reading a workbook's zip parts safely: never past a part's declared size,
never an XML part with a DTD or entity declaration, never an XML part nested
deeper than a workbook's XML ever is; and what an XML part's root element is,
from its first bytes."""

from __future__ import annotations

import contextlib
import contextvars
import io
import queue
import re
import struct
import threading
import zipfile
import zlib
from collections.abc import Generator, Iterator
from typing import IO, Any

from core.errors import InputError
from core.io.safety.limits import LIMITS, crafted, damaged
from core.io.stop import check as check_stopped

#: A zip file's local header (signature ... name length, extra length).
_LOCAL = struct.Struct("<4s2B4HL2L2H")
_DTD = re.compile(rb"<!(?:DOCTYPE|ENTITY)", re.IGNORECASE)
#: Bytes unpacked at a time when a part is streamed.
CHUNK = 1 << 20
#: An XML part's root element must start within its first HEAD bytes.
HEAD = 1 << 16
_NAME = rb"[A-Za-z_][\w.\-]*"
_ROOT = re.compile(rb"<(?:(" + _NAME + rb"):)?(" + _NAME + rb")[\s/>]")
_ENCODING = re.compile(rb"""encoding\s*=\s*["']([^"']*)["']""")
#: Encodings in which every ASCII byte is that character (a byte-level scan
#: sees the markup that a parser sees).
_ASCII_SAFE = re.compile(
    r"^(?:utf-?8|us-ascii|ascii|iso[-_]?8859-\d+|latin-?\d|(?:windows|cp)-?125\d)$")


class _Chunks(io.RawIOBase):
    """A stream over :func:`stream_part`'s pieces (for a streaming parse)."""

    def __init__(self, chunks: Generator[bytes]) -> None:
        self._chunks, self._left = chunks, b""

    def readable(self) -> bool:
        return True

    def close(self) -> None:
        self._chunks.close()  # the part's file too, when a parse stops early
        super().close()

    def readinto(self, buffer: Any) -> int:
        while not self._left:
            self._left = next(self._chunks, b"")
            if not self._left:
                return 0
        n = min(len(buffer), len(self._left))
        buffer[:n] = self._left[:n]
        self._left = self._left[n:]
        return n


def open_part(zf: zipfile.ZipFile, info: zipfile.ZipInfo, file: str) -> IO[bytes]:
    """A part as a stream (see :func:`stream_part`)."""
    return io.BufferedReader(_Chunks(stream_part(zf, info, file)), CHUNK)


def read_part(zf: zipfile.ZipFile, info: zipfile.ZipInfo, file: str) -> bytes:
    """Unpack one part whole (see :func:`stream_part`)."""
    return b"".join(stream_part(zf, info, file))


def stream_part(zf: zipfile.ZipFile, info: zipfile.ZipInfo, file: str) -> Generator[bytes]:
    """Unpack one part in pieces, exactly as its packed data says.

    The packed bytes the zip directory gives the part are inflated to their
    end, as the reader that opens the workbook next inflates them, and must
    come to the size the directory declares: a part that unpacks to more
    (a lying header hiding data from a scan that stops at the declared
    size) is refused, one that ends short is damaged. No CRC is computed:
    nothing here depends on it and that reader checks it (a quarter of the
    time of a big sheet's scan went to it).
    """
    name = info.filename
    with open(zf.filename or file, "rb") as fh:
        fh.seek(info.header_offset)
        header = fh.read(_LOCAL.size)
        if len(header) < _LOCAL.size or not header.startswith(b"PK\x03\x04"):
            raise damaged(f"part {name!r} has no zip header where the directory says", file)
        name_len, extra_len = _LOCAL.unpack(header)[-2:]
        local = fh.read(name_len).decode("utf-8" if info.flag_bits & 0x800 else "cp437",
                                         "replace")
        if local != info.orig_filename:
            raise damaged(f"part {name!r} is named {local!r} in its zip header", file)
        fh.seek(extra_len, io.SEEK_CUR)
        stored = info.compress_type == zipfile.ZIP_STORED
        if stored and info.compress_size != info.file_size:
            raise crafted(f"part {name!r} is stored unpacked but declares two sizes", file)
        for piece in (_stored if stored else _inflated)(fh, info, file):
            # A read stopped from another thread (File > Open's Cancel, the
            # window closed) ends before the next piece: a workbook's check
            # scans every part before its first sheet is read (core.io.stop).
            check_stopped()
            yield piece


def _stored(fh: IO[bytes], info: zipfile.ZipInfo, file: str) -> Iterator[bytes]:
    left = info.compress_size
    while left > 0:
        data = fh.read(min(CHUNK, left))
        if not data:
            raise damaged(f"part {info.filename!r} is cut short", file)
        left -= len(data)
        yield data


def _inflated(fh: IO[bytes], info: zipfile.ZipInfo, file: str) -> Iterator[bytes]:
    if info.compress_size == 0 and info.file_size == 0:
        return  # an empty part some writers pack as no bytes at all
    inflate = zlib.decompressobj(-15)
    left, got = info.compress_size, 0
    try:
        while not inflate.eof:
            data = inflate.unconsumed_tail
            if not data:
                data = fh.read(min(CHUNK // 4, left)) if left > 0 else b""
                if not data:
                    raise damaged(f"part {info.filename!r} is cut short", file)
                left -= len(data)
            out = inflate.decompress(data, CHUNK)
            got += len(out)
            if got > info.file_size:
                raise crafted(f"part {info.filename!r} unpacks to more than its declared"
                              " size", file)
            if out:
                yield out
    except zlib.error as exc:
        raise damaged(f"part {info.filename!r} is damaged ({exc})", file) from exc
    if got < info.file_size:
        raise damaged(f"part {info.filename!r} unpacks to less than its declared size", file)


def refuse_declarations(data: bytes, file: str, part: str) -> None:
    """Refuse a DTD or entity declaration (billion laughs, external entities)."""
    if b"<!" in data and _DTD.search(data):
        raise _declarations(file, part)


def _declarations(file: str, part: str) -> InputError:
    return crafted(f"part {part!r} declares XML entities or a DTD, which a workbook never"
                   " needs (an entity bomb such as billion laughs, or an external entity);"
                   " refused", file)


def root_element(head: bytes, *, file: str, part: str) -> tuple[str, str] | None:
    """The (prefix, local name) of an XML part's root element, read from its
    first bytes; None when the part is not XML at all (an image, say).

    Refused: XML in an encoding whose bytes are not ASCII (UTF-16, UTF-32,
    EBCDIC: a byte-level scan would not see its markup), a DTD or entity
    declaration, and a root element that does not start in the first 64 KiB.
    """
    if head.startswith((b"\xff\xfe", b"\xfe\xff", b"\x00\x00\xfe\xff", b"\x00<", b"<\x00")):
        raise crafted(f"part {part!r} is XML in UTF-16 or UTF-32; a workbook's XML is"
                      " UTF-8", file)
    text = head[3:] if head.startswith(b"\xef\xbb\xbf") else head
    at = len(text) - len(text.lstrip())
    if text[at:at + 1] != b"<":
        return None
    while True:
        if text.startswith(b"<?", at):
            end = text.find(b"?>", at)
            decl = _ENCODING.search(text, at, end) if end > 0 else None
            if decl is not None and not _ASCII_SAFE.match(decl.group(1).decode(
                    "ascii", "replace").lower()):
                raise crafted(f"part {part!r} declares the encoding"
                              f" {decl.group(1).decode('ascii', 'replace')!r}; a workbook's"
                              " XML is UTF-8", file)
        elif text.startswith(b"<!--", at):
            end = text.find(b"-->", at)
        elif text.startswith(b"<!", at):
            refuse_declarations(text[at:at + 16], file, part)
            end = text.find(b">", at)
        else:
            m = _ROOT.match(text, at)
            if m is None:
                break
            return ((m.group(1) or b"").decode("ascii"), m.group(2).decode("ascii"))
        if end < 0:
            break
        at = text.find(b"<", end)
        if at < 0:
            break
    raise crafted(f"part {part!r} holds no XML element in its first {len(head) // 1024} KiB",
                  file)


def _depth_error(file: str, part: str) -> InputError:
    return crafted(f"part {part!r} nests XML elements more than {LIMITS['depth']} deep,"
                   " which no workbook does", file)


def iter_events(source: IO[bytes], events: tuple[str, ...], *, file: str,
                part: str) -> Iterator[tuple[str, Any]]:
    """Parse XML (defused: no DTD, no entities) as a stream, yielding
    (event, element) for ``events``; elements nested deeper than the limit
    are refused as they start, and every element is dropped from the tree
    once it ends (after its end event), so memory stays small however big
    the part is."""
    from defusedxml.ElementTree import iterparse

    stack: list[Any] = []
    for event, elem in iterparse(source, events=("start", "end"), forbid_dtd=True):
        if event == "start":
            stack.append(elem)
            if len(stack) > LIMITS["depth"]:
                raise _depth_error(file, part)
            if "start" in events:
                yield event, elem
        else:
            if "end" in events:
                yield event, elem
            stack.pop()
            if stack:
                stack[-1].remove(elem)


def parse_xml(data: bytes, *, file: str, part: str) -> Any:
    """Parse a small XML part with defusedxml (no DTD, no entities, nesting
    within the limit) and return its root element."""
    from defusedxml.ElementTree import iterparse

    depth = 0
    root = None
    try:
        for event, elem in iterparse(io.BytesIO(data), events=("start", "end"),
                                     forbid_dtd=True):
            if event == "start":
                depth += 1
                root = elem if root is None else root
                if depth > LIMITS["depth"]:
                    raise _depth_error(file, part)
            else:
                depth -= 1
    except Exception as exc:
        raise xml_error(exc, file=file, part=part) from exc
    return root


def xml_error(exc: Exception, *, file: str, part: str) -> InputError:
    """One clear error for whatever a defused parse raised."""
    from xml.etree.ElementTree import ParseError

    from defusedxml import DefusedXmlException

    if isinstance(exc, InputError):
        return exc
    if isinstance(exc, DefusedXmlException):
        return _declarations(file, part)
    if isinstance(exc, ParseError):
        return InputError(f"part {part!r} is not well-formed XML ({exc})", file=file)
    return InputError(f"part {part!r} cannot be read ({type(exc).__name__}: {exc})", file=file)


def read_ahead(chunks: Iterator[bytes]) -> Iterator[bytes]:
    """``chunks`` unpacked on a worker thread a few pieces ahead (zlib
    releases the GIL while the rows of the piece before are read here)."""
    pieces: queue.Queue[tuple[bytes | None, BaseException | None]] = queue.Queue(4)
    stop = threading.Event()

    def unpack() -> None:
        try:
            for chunk in chunks:
                if stop.is_set():
                    return
                pieces.put((chunk, None))
            pieces.put((None, None))
        except BaseException as exc:  # raised again in the reading thread
            pieces.put((None, exc))

    # In this thread's context: the pieces it unpacks look at this read's stop.
    worker = threading.Thread(target=contextvars.copy_context().run, args=(unpack,),
                              name="part-ahead", daemon=True)
    worker.start()
    try:
        while True:
            chunk, error = pieces.get()
            if error is not None:
                raise error
            if chunk is None:
                return
            yield chunk
    finally:
        stop.set()
        while worker.is_alive():  # let it see the stop
            with contextlib.suppress(queue.Empty):
                pieces.get(timeout=0.05)
        worker.join()
