"""What a file named as a workbook is when it is none: told by its first
bytes (a PDF, an image, a web page, a text file, an archive), or, for a zip
archive that is no Office workbook, by the names of its parts. So a PDF
named ``.xlsx`` is called a PDF document, not "not a zip file", and the
message says what to do with it.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence

__all__ = ["HEAD", "named_by_head", "named_by_parts"]

#: How many first bytes :func:`named_by_head` looks at.
HEAD = 512

#: Formats told by their first bytes: what the file is, and what to do
#: (``{kind}``: the workbook format asked for, ``xlsx`` or ``ods``).
_MAGIC: tuple[tuple[bytes, str, str], ...] = (
    (b"%PDF-", "a PDF document",
     "a PDF keeps no sheet to read: save the spreadsheet it was printed from as .{kind}"),
    (b"\x89PNG\r\n\x1a\n", "a PNG image", "save the spreadsheet itself as .{kind}"),
    (b"\xff\xd8\xff", "a JPEG image", "save the spreadsheet itself as .{kind}"),
    (b"GIF8", "a GIF image", "save the spreadsheet itself as .{kind}"),
    (b"PAR1", "a Parquet table", "rename it to .parquet"),
    (b"SQLite format 3\x00", "an SQLite database",
     "export the table as CSV, e.g. sqlite3 -csv -header FILE 'select * from TABLE'"),
    (b"{\\rtf", "an RTF document", "save the spreadsheet itself as .{kind}"),
    (b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive", "unpack it and name the workbook it holds"),
    (b"Rar!\x1a\x07", "a RAR archive", "unpack it and name the workbook it holds"),
)

#: The hint for a spreadsheet program's export to do again.
_EXPORT = ("export it again as .xlsx from the program that made it: Save As .xlsx in Excel "
           "or LibreOffice, File > Download > Microsoft Excel in Google Sheets")


def named_by_head(head: bytes, kind: str = "xlsx",
                  name: str = "FILE") -> tuple[str, str] | None:
    """What a file starting with ``head`` is and what to do, for a file
    named ``name`` that should be a ``kind`` workbook; None when its bytes
    say nothing known.

    >>> named_by_head(b"%PDF-1.6 ...")[0]
    'a PDF document'
    >>> named_by_head(b"query,source_id,grade\\nq1,d1,2\\n")[0]
    'a text file'
    >>> named_by_head(b"\\x00\\x01\\x02") is None
    True
    """
    from core.io.files import compressed

    for magic, what, hint in _MAGIC:
        if head.startswith(magic):
            return what, hint.format(kind=kind).replace("FILE", name)
    packed = compressed(head)
    if packed is not None:
        return (f"a {packed[0]}-compressed file",
                f"decompress it first: {packed[2]} {shlex.quote(name)} > OUT, and name OUT")
    text = _text(head)
    if text is None:
        return None
    start = text.lstrip("\ufeff \t\r\n").lower()
    if start.startswith(("<!doctype html", "<html")):
        return ("a web page (HTML)", "a download may have saved the page instead of the "
                "file: download the spreadsheet again")
    if start.startswith("<?xml") and "urn:schemas-microsoft-com:office:spreadsheet" in start:
        return ("an Excel 2003 XML spreadsheet",
                "open it in Excel or LibreOffice and save it as .xlsx")
    if start.startswith("<"):
        return "an XML or HTML file", f"save the spreadsheet itself as .{kind}"
    return "a text file", "if it holds CSV or TSV, rename it to .csv or .tsv"


def _text(head: bytes) -> str | None:
    """``head`` as text when it is (UTF-8, UTF-16 with its mark, or
    Windows-1252; no control character but tab and line ends); None for
    binary bytes."""
    from core.io.files import bom_codec

    codec = bom_codec(head) or "utf-8"
    try:
        text = head.decode(codec, errors="strict")
    except UnicodeDecodeError as exc:
        if exc.start >= len(head) - 4:  # a character cut at the end
            text = head[:exc.start].decode(codec)
        elif codec != "utf-8":
            return None
        else:
            try:
                text = head.decode("cp1252")  # Excel's CSV on Windows
            except UnicodeDecodeError:
                return None
    if not text.strip() or any(ord(c) < 32 and c not in "\t\r\n" for c in text):
        return None
    return text


def named_by_parts(names: Sequence[str]) -> tuple[str, str]:
    """What a zip archive with the parts ``names`` and none of an Office
    workbook's (``[Content_Types].xml``) or an OpenDocument's (``mimetype``)
    is, and what to do.

    >>> named_by_parts(["Index/Document.iwa", "Metadata/Properties.plist"])[0]
    'an Apple Numbers document'
    >>> named_by_parts(["a.txt", "b.txt"])[0]
    'a zip archive holding a.txt, b.txt'
    """
    files = [n for n in names if not n.endswith("/")]
    lower = [n.lower() for n in files]
    if any(n.startswith("index/") and n.endswith(".iwa") for n in lower):
        return ("an Apple Numbers document",
                "export it from Numbers with File > Export To > Excel, and name the .xlsx")
    books = [n for n, low in zip(files, lower, strict=True)
             if low.endswith((".xlsx", ".xlsm", ".ods", ".csv", ".tsv"))]
    if books:
        return (f"a zip archive holding {books[0]}"
                + (f" and {len(books) - 1} more" if len(books) > 1 else ""),
                "unpack it and name the file it holds")
    if any(n.endswith((".html", ".htm")) for n in lower):
        return ("a zip archive of web pages, a sheet downloaded as a web page",
                "download it again as .xlsx: File > Download > Microsoft Excel in Google "
                "Sheets")
    if not files:
        return "an empty zip archive", _EXPORT
    shown = ", ".join(files[:3]) + (f" and {len(files) - 3} more" if len(files) > 3 else "")
    return (f"a zip archive holding {shown}",
            f"unpack it and name the file it holds, or {_EXPORT}")
