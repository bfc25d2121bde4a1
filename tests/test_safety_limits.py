"""The safety limits follow the sheet's own limits and the compression ratio:
the app's own biggest workbooks pass, bombs and lies do not.

The app's own workbooks at 600,000 and 1,048,575 candidates are not written
here (minutes and gigabytes): a small real export gives the bytes a
Candidates row takes and how well it packs, and the checks are run on parts
and zip directories of the sizes those big exports have.
"""

from __future__ import annotations

import io
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest

from core.engine.evaluation import evaluate
from core.errors import InputError
from core.io.safety import EXCEL_MAX_ROWS, LIMITS, check_xlsx
from core.io.safety.archive import check_directory
from core.io.safety.parts import parse_xml
from core.io.safety.sheets import SheetPart, check_area, check_dimension
from core.io.workbook import export_workbook
from core.model.conventions import Conventions
from core.model.document import Document

COLUMNS = 27  # the Candidates sheet's width (AA)
NAME = "book.xlsx"


def _document(n: int) -> Document:
    rng = np.random.default_rng(7)
    grade = rng.integers(0, 4, n).astype(float)
    grade[rng.random(n) < 0.05] = np.nan
    return Document.from_columns(
        query=[f"q{i // 100}" for i in range(n)], source_id=[f"doc-{i}" for i in range(n)],
        score=np.round(rng.random(n), 2), grade=grade, version=["v1"] * n,
        conventions=Conventions(cutoffs=(10, None)))


@pytest.fixture(scope="module")
def own_export(tmp_path_factory: pytest.TempPathFactory) -> dict[str, float]:
    """A real export of 2,000 candidates: the Candidates part's bytes per
    row (a lower bound for bigger exports, whose references have more
    digits), its packing ratio and the whole file's."""
    path = tmp_path_factory.mktemp("own") / NAME
    export_workbook(evaluate(_document(2_000)), path)
    check = check_xlsx(path)
    assert check.used["Candidates"] == (2_001, COLUMNS)
    with zipfile.ZipFile(path) as zf:
        info = zf.getinfo(check.parts["Candidates"])
        total = sum(i.file_size for i in zf.infolist())
    return {"row_bytes": info.file_size / 2_001, "ratio": info.file_size / info.compress_size,
            "file_ratio": total / path.stat().st_size}


def _where(size: int, sheet: str = "Candidates") -> SheetPart:
    return SheetPart(sheet, "xl/worksheets/sheet2.xml", size, plain=True)


@pytest.mark.parametrize("candidates", [600_000, 1_000_000, EXCEL_MAX_ROWS - 1])
def test_own_biggest_exports_pass_the_checks(own_export: dict[str, float],
                                             candidates: int) -> None:
    rows = candidates + 1  # the header row
    size = int(rows * own_export["row_bytes"])
    where = _where(size)
    check_area(rows, COLUMNS, where, file=NAME)
    last = f"A1:AA{rows}"
    check_dimension(f'<worksheet><dimension ref="{last}"/>'.encode(), where, file=NAME)
    packed = int(size / own_export["ratio"])
    infos = [_info("xl/worksheets/sheet2.xml", size, packed, 0)]
    check_directory(infos, int(size / own_export["file_ratio"]) + 1, NAME)


def test_the_reported_600k_export_is_no_longer_too_large(own_export: dict[str, float]) -> None:
    # "the sheet's used area is 600,001 rows x 27 columns (AA600001), too
    # large to read safely": the area the issue reported, now within what
    # its bytes hold.
    check_area(600_001, COLUMNS, _where(int(600_001 * own_export["row_bytes"])), file=NAME)


@pytest.mark.parametrize(("rows", "cols", "size", "refused"), [
    (EXCEL_MAX_ROWS, 16_384, 1_000, True),        # a far cell in a tiny sheet
    (EXCEL_MAX_ROWS, 100, 1_000, True),           # CV1048576: 104,857,600 cells
    (EXCEL_MAX_ROWS, 4, 1_000, False),            # 4,194,304 cells: the floor
    (EXCEL_MAX_ROWS, 5, 1_000, True),             # 5,242,880 cells
    (1_000_001, 27, 270_000_270, False),          # 27,000,027 cells, 10 bytes each
    (1_000_001, 27, 270_000_269, True),           # one byte short of that
    (EXCEL_MAX_ROWS + 1, 1, 10**12, True),        # past Excel's rows, however big
    (1, 16_385, 10**12, True),                    # past Excel's columns
])
def test_used_area_is_held_to_what_the_bytes_hold(rows: int, cols: int, size: int,
                                                  refused: bool) -> None:
    where = _where(size, "S")
    if refused:
        with pytest.raises(InputError, match="sheet 'S'"):
            check_area(rows, cols, where, file=NAME)
    else:
        check_area(rows, cols, where, file=NAME)


@pytest.mark.parametrize(("dimension", "size", "refused"), [
    ("A1:CV1048576", 1_000, True),
    ("A1:C3", 1_000, False),
    ("B2:D1048576", 1_000, False),    # 3,145,728 cells from A1: under the floor
    ("A1:AA1000001", 270_000_270, False),
    ("A1:AA1000001", 27_000_000, True),
])
def test_declared_dimension_is_held_to_what_the_bytes_hold(dimension: str, size: int,
                                                           refused: bool) -> None:
    head = f'<worksheet xmlns="x"><dimension ref="{dimension}"/><sheetData>'.encode()
    if refused:
        with pytest.raises(InputError, match="too large to read safely"):
            check_dimension(head, _where(size), file=NAME)
    else:
        check_dimension(head, _where(size), file=NAME)


def _info(name: str, size: int, packed: int, offset: int) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name)
    info.file_size, info.compress_size, info.header_offset = size, packed, offset
    info.compress_type = zipfile.ZIP_DEFLATED
    return info


@pytest.mark.parametrize(("size", "packed", "refused"), [
    (11 * 1024**2, 11 * 1024**2 // 201, True),     # over the ratio and the floor
    (11 * 1024**2, 11 * 1024**2 // 199, False),
    (10 * 1024**2, 10 * 1024**2 // 1000, False),   # small parts may pack better
    (1500 * 1024**2, 150 * 1024**2, False),        # a 1.5 GB sheet packed 10:1
])
def test_a_part_may_unpack_to_the_compression_ratio(size: int, packed: int,
                                                    refused: bool) -> None:
    infos = [_info("xl/worksheets/sheet1.xml", size, packed, 0)]
    if refused:
        with pytest.raises(InputError, match="zip bomb"):
            check_directory(infos, packed + 100, NAME)
    else:
        check_directory(infos, packed + 100, NAME)


def test_many_small_parts_are_held_to_the_ratio_together() -> None:
    part = 9 * 1024**2
    packed = part // 1000
    infos = [_info(f"customXml/item{i}.xml", part, packed, i * (packed + 100))
             for i in range(12)]  # 108 MiB in all, each under the per-part floor
    with pytest.raises(InputError, match=r"unpack to .* which looks like a zip bomb"):
        check_directory(infos, 12 * (packed + 100), NAME)
    check_directory(infos[:11], 11 * (packed + 100), NAME)  # 99 MiB: under the floor


def test_overlapping_parts_are_refused() -> None:
    infos = [_info("a.xml", 100, 50, 0), _info("b.xml", 100, 50, 60)]
    with pytest.raises(InputError, match="share their packed data"):
        check_directory(infos, 1_000, NAME)
    check_directory([_info("a.xml", 100, 50, 0), _info("b.xml", 100, 50, 90)], 1_000, NAME)


def _mk():  # type: ignore[no-untyped-def]
    """The corpus script's workbook builder."""
    folder = str(Path(__file__).resolve().parent / "data")
    sys.path.insert(0, folder)
    try:
        import make_hostile_xlsx
    finally:
        sys.path.remove(folder)
    return make_hostile_xlsx


def _workbook(shared: str, styles: str | None = None) -> bytes:
    mk = _mk()
    parts: dict[str, str | bytes] = {}
    rels = list(mk.BOOK_RELS)
    overrides = dict(mk.OVERRIDES)
    if styles is not None:
        parts["xl/styles.xml"] = styles
        rels.append(("rId3", "styles", "styles.xml"))
        overrides["xl/styles.xml"] = mk.SML + "styles+xml"
    return mk.pack(mk.book(strings=shared, parts=parts, rels=rels, overrides=overrides))


SST = ('<?xml version="1.0"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/'
       '2006/main" count="{count}" uniqueCount="{unique:>10}">{body}</sst>')


@pytest.mark.parametrize(("entries", "unique", "refused"), [
    (1, LIMITS["floor_strings"], False),       # small declared numbers always pass
    (1, LIMITS["floor_strings"] + 1, True),
    (300_000, "bytes", False),                 # as many as its bytes can hold (5 each)
    (300_000, "bytes+1", True),
])
def test_declared_shared_strings_are_held_to_the_part(tmp_path: Path, entries: int,
                                                      unique: int | str,
                                                      refused: bool) -> None:
    body = "".join(f"<si><t>{i:06d}</t></si>" for i in range(entries))
    size = len(SST.format(count=entries, unique=0, body=body))
    count = (size // 5 + (unique == "bytes+1")) if isinstance(unique, str) else unique
    assert count > LIMITS["floor_strings"] or entries == 1
    path = tmp_path / NAME
    path.write_bytes(_workbook(SST.format(count=entries, unique=count, body=body)))
    if refused:
        with pytest.raises(InputError, match=f"declares {count:,} shared strings"):
            check_xlsx(path)
    else:
        check_xlsx(path)


@pytest.mark.parametrize(("count", "refused"), [(65_536, False), (65_537, True)])
def test_declared_style_counts_are_held_to_the_part(tmp_path: Path, count: int,
                                                    refused: bool) -> None:
    path = tmp_path / NAME
    path.write_bytes(_workbook(
        '<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"/>',
        '<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
        f'<fonts count="{count}"><font/></fonts></styleSheet>'))
    if refused:
        with pytest.raises(InputError, match="'fonts' list"):
            check_xlsx(path)
    else:
        check_xlsx(path)


@pytest.mark.parametrize(("depth", "refused"), [(LIMITS["depth"], False),
                                                (LIMITS["depth"] + 1, True)])
def test_nesting_deeper_than_a_workbook_is_refused_before_a_tree_is_built(
        depth: int, refused: bool) -> None:
    data = b"<a>" * depth + b"</a>" * depth
    if refused:
        with pytest.raises(InputError, match="nests XML elements"):
            parse_xml(data, file=NAME, part="p.xml")
    else:
        assert parse_xml(data, file=NAME, part="p.xml").tag == "a"


def test_a_sheet_that_unpacks_past_its_declared_size_is_refused(tmp_path: Path) -> None:
    """zipfile stops at the declared size; a reader that inflates the
    stream to its end would see a far cell hidden past it."""
    buf = io.BytesIO()
    hidden = b'<worksheet><sheetData><row r="1"><c r="A1"><v>1</v></c></row>'
    far = b'<row r="1048576"><c r="XFD1048576"><v>1</v></c></row></sheetData></worksheet>'
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("s.xml", hidden + far)
    data = bytearray(buf.getvalue())
    # declare only the first part's size, in the local header and the directory
    local = data.index(b"PK\x03\x04")
    central = data.index(b"PK\x01\x02")
    data[local + 22:local + 26] = len(hidden).to_bytes(4, "little")
    data[central + 24:central + 28] = len(hidden).to_bytes(4, "little")
    path = tmp_path / "lying.zip"
    path.write_bytes(bytes(data))
    from core.io.safety.parts import read_part

    with zipfile.ZipFile(path) as zf, pytest.raises(InputError,
                                                   match="more than its declared size"):
        read_part(zf, zf.getinfo("s.xml"), str(path))
