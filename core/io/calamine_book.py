"""python-calamine opened on a workbook: the one place every reader opens it.

calamine reads an .ods's ``content.xml`` strictly: a text node between two
table elements stops it (``Expecting 'table-cell', found 'Text(...)'``).
LibreOffice writes the XML on one line; Gnumeric indents it, one element a
line, so calamine could open no .ods Gnumeric saved: neither an annotators'
sheet nor one of our workbooks left to it by the fast reader
(:mod:`core.io.workbook.ods_rows`: a date typed in a sheet it reads). Such a
file is given to calamine with its indentation taken out (:func:`flattened`),
the texts of its paragraphs as they are; any other file is opened as it is.
The file has been checked before (:mod:`core.io.safety`: its size, its
zip and its content's bombs).
"""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path
from typing import IO, Any

from core.io.stop import check as check_stopped

__all__ = ["calamine_book", "flattened", "is_indented"]

#: An indentation run: whitespace holding a line break between the end of
#: one element and the start of the next (made ``><``).
_RUN = re.compile(rb">[ \t\r]*\n[ \t\r\n]*<")
#: A paragraph holding a line break in its text (where a run may be the
#: text's own: a piece holding one is flattened by :data:`_EXACT`; Gnumeric
#: writes a line break in a cell as ``<text:line-break/>``, so its files hold
#: none).
_SPANNING = re.compile(rb"<text:p(?:\s[^>]*(?<!/))?>(?:[^<\n]|<(?!/text:p>))*\n")
#: The runs outside the paragraphs (group 2, the run's ``>``, kept), each
#: paragraph as it is (group 1): exact, 8x slower than :data:`_RUN`.
_EXACT = re.compile(rb"(<text:p(?:\s[^>]*)?(?:/>|(?<=/)>|(?<!/)>.*?</text:p>))"
                    rb"|(>)[ \t\r]*\n[ \t\r\n]*(?=<)", re.S)
#: Where an indentation run is looked for before the flattening is chosen:
#: after the root element's start (the line break after the XML declaration,
#: which LibreOffice writes too, is none), in the content's first bytes.
_ROOT = b"<office:document-content"
_HEAD = 1 << 16
#: The content is flattened a piece at a time (about this many bytes), each
#: cut before the ``>`` that ends a row's end tag, which no paragraph holds
#: (so a run after it falls in the next piece whole).
_PIECE = 1 << 22
_ROW_END = b"</table:table-row>"
_CONTENT = "content.xml"


def calamine_book(path: str | Path) -> Any:
    """``python_calamine.CalamineWorkbook`` of the workbook at ``path``: an
    .ods whose content is indented (:func:`is_indented`, as Gnumeric saves
    it) read from a copy without the indentation, any other from the file."""
    import python_calamine

    if is_indented(path):
        return python_calamine.CalamineWorkbook.from_filelike(flattened(path))
    return python_calamine.CalamineWorkbook.from_path(str(path))


def is_indented(path: str | Path) -> bool:
    """Whether ``path`` is a zip holding ``content.xml`` (an OpenDocument
    file) whose elements are on lines of their own (looked for in its first
    64 KiB past the root element's start); False for any other file."""
    try:
        with zipfile.ZipFile(path) as z, z.open(_CONTENT) as fh:
            head = fh.read(_HEAD)
    except (OSError, KeyError, zipfile.BadZipFile, EOFError, ValueError):
        return False  # (not one: calamine says what it is)
    root = head.find(_ROOT)
    return root >= 0 and _RUN.search(head, root) is not None


def flattened(path: str | Path) -> IO[bytes]:
    """The .ods at ``path`` as a zip in memory, its ``content.xml`` without
    the indentation between elements (:data:`_RUN`), the other parts as
    they are. Made a piece at a time, the stop looked at between pieces
    (:mod:`core.io.stop`)."""
    out = io.BytesIO()
    with (zipfile.ZipFile(path) as z,
          zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as w):
        for info in z.infolist():
            if info.filename != _CONTENT:
                w.writestr(info, z.read(info))
                continue
            # (deflated at level 1: 2.4x faster than the default, and read once, by calamine)
            with z.open(info) as src, w.open(_CONTENT, "w", force_zip64=True) as dst:
                _flatten(src, dst)
    out.seek(0)
    return out


def _flatten(src: IO[bytes], dst: IO[bytes]) -> None:
    """``src``'s XML into ``dst`` without its indentation, a piece of about
    :data:`_PIECE` bytes at a time, each ending inside a row's end tag."""
    carry = b""
    while True:
        check_stopped()
        more = src.read(_PIECE)
        buf = carry + more
        cut = len(buf) if not more else buf.rfind(_ROW_END)
        if cut < 0:  # no row ends in it yet: read on
            carry = buf
            continue
        cut += 0 if not more else len(_ROW_END) - 1
        dst.write(_flat(buf[:cut]))
        if not more:
            return
        carry = buf[cut:]


def _flat(piece: bytes) -> bytes:
    """``piece`` without its indentation runs (:data:`_RUN`), each
    paragraph's text as it is."""
    if _SPANNING.search(piece) is None:
        return _RUN.sub(b"><", piece)
    return _EXACT.sub(rb"\1\2", piece)
