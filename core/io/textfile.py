"""A text file's characters, decoded strictly.

The encoding is UTF-8 unless the file or the caller says otherwise: a byte
order mark (UTF-8, UTF-16 or UTF-32) decides; else an encoding the caller
declares (``--encoding cp1252`` on the command line); else UTF-8. A byte that
is not valid in that encoding is an error naming its line and character,
never a guess: a file that is UTF-8 but for one stray byte used to be read
whole as Windows-1252, which quietly turned every ``café`` into ``cafÃ©``.
A NUL character is an error too (a binary file, or UTF-16 without its byte
order mark).

Lines are counted as the CSV reader counts them: a line ends at ``\\r\\n``,
``\\n`` or ``\\r``.
"""

from __future__ import annotations

import codecs
import io
import re
from pathlib import Path

from core.errors import InputError
from core.io import files
from core.io.files import MAX_BYTES, read_input

__all__ = ["DETECT", "MAX_BYTES", "decode_text", "line_text", "position", "read_detected",
           "read_text"]

#: The encoding to ask for when it is to be found from the bytes, as the
#: annotators' importer finds it (the editor: never a refusal of a file Excel
#: saved; the command line keeps the strict rule above).
DETECT = "detect"

_BREAK = re.compile(r"\r\n|\r|\n")
_NOT_UTF8_HINT = ("save the file as UTF-8; on the command line, --encoding cp1252 reads a "
                  "file saved as Windows-1252")


def position(text: str, index: int) -> tuple[int, int]:
    """The 1-based line and character of ``text[index]``."""
    before = text[:index]
    breaks = _BREAK.findall(before)
    last = max(before.rfind("\n"), before.rfind("\r"))
    return len(breaks) + 1, index - last


def line_text(text: str, line: int) -> str:
    """Line ``line`` (1-based) of ``text``, without its line break."""
    for number, content in enumerate(io.StringIO(text, newline=""), start=1):
        if number == line:
            return content.rstrip("\r\n")
    return ""


def _encoding_of(raw: bytes, declared: str | None, name: str) -> str:
    """The codec to use: the byte order mark's, else the declared one, else UTF-8."""
    codec = files.bom_codec(raw)
    if codec is not None:
        return codec
    if declared is None:
        return "utf-8"
    try:
        return codecs.lookup(declared).name
    except LookupError:
        raise InputError(f"{declared!r} is not an encoding this program knows", file=name,
                         hint="name one such as utf-8, cp1252 or latin-1") from None


def decode_text(raw: bytes, name: str, encoding: str | None = None) -> str:
    """Decode a file's bytes (see the module's rules); raises :class:`InputError`
    naming the line and character of the first byte that does not decode,
    or of a NUL character."""
    codec = _encoding_of(raw, encoding, name)
    if not codec.startswith(("utf-16", "utf-32")) and b"\0" in raw:
        _refuse_nul(raw[:raw.index(b"\0")].decode(codec, errors="replace"), name)
    try:
        text = raw.decode(codec)
    except UnicodeDecodeError as exc:
        # utf-8-sig counts from after its byte order mark (exc.object the rest)
        start = exc.start + len(raw) - len(exc.object)
        good = raw[:start].decode(codec, errors="replace")
        line, char = position(good, len(good))
        bad = raw[start:start + 1].hex().upper()
        label = {"utf-8": "UTF-8", "utf-8-sig": "UTF-8", "utf-16": "UTF-16",
                 "utf-32": "UTF-32"}.get(codec, codec)
        raise InputError(
            f"byte 0x{bad} (character {char}) is not valid {label}; nothing was read",
            file=name, line=line,
            hint=_NOT_UTF8_HINT if codec.startswith("utf-8") else "check the declared encoding",
        ) from exc
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\0" in text:
        _refuse_nul(text[:text.index("\0")], name)
    return text


def _refuse_nul(before: str, name: str) -> None:
    """Refuse a file with a NUL character after the text ``before``."""
    line, char = position(before, len(before))
    raise InputError(
        f"the file is binary, not text (a NUL character at character {char})",
        file=name, line=line,
        hint="name a CSV or TSV file; a UTF-16 file needs its byte order mark",
    )


def read_text(path: str | Path, encoding: str | None = None) -> str:
    """A regular file's text (:func:`core.io.files.read_input`), a workbook
    refused, decoded by :func:`decode_text`."""
    path = Path(path)
    raw = read_input(path, files.MAX_BYTES)
    if raw.startswith(b"PK\x03\x04") or raw.startswith(b"\xd0\xcf\x11\xe0"):
        raise InputError(
            "this is a workbook, not a text file", file=str(path), hint="save it as .xlsx"
        )
    return decode_text(raw, str(path), encoding)


def read_detected(path: str | Path) -> tuple[str, str]:
    """A regular file's text and the encoding found in its bytes as the
    annotators' importer finds it (:mod:`core.io.annotator.read`): a byte
    order mark (UTF-8, UTF-16), else UTF-8 when every byte is, else
    Windows-1252 (which Excel writes on Windows), a binary file refused."""
    from core.io.annotator.read import decode_detected  # the importer's rule, shared, not copied

    path = Path(path)
    raw = read_input(path, files.MAX_BYTES)
    if raw.startswith(b"PK\x03\x04") or raw.startswith(b"\xd0\xcf\x11\xe0"):
        raise InputError(
            "this is a workbook, not a text file", file=str(path), hint="save it as .xlsx"
        )
    text, codec = decode_detected(raw, str(path))
    if "\0" in text:
        _refuse_nul(text[:text.index("\0")], str(path))
    return text.removeprefix("\ufeff"), codec
