"""The checks a workbook must pass before any parser sees it: the file and
its zip directory, the parts a workbook needs, and every sheet."""

from __future__ import annotations

import posixpath
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from core.errors import InputError
from core.io.safety.limits import LIMITS
from core.io.safety.parts import parse_xml, read_part, refuse_declarations
from core.io.safety.sheets import scan_big_sheet, scan_sheet

_REQUIRED = ("[Content_Types].xml",)
_NS_MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
_NS_REL = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
_NS_PKG = "{http://schemas.openxmlformats.org/package/2006/relationships}"
#: Parts above this size are streamed through the sheet scan.
_SCAN_LATER = 1 << 20


@dataclass
class WorkbookCheck:
    """What :func:`check_xlsx` found in a workbook that passed."""

    #: Sheet names in workbook order, and each sheet's part in the zip.
    sheets: list[str] = field(default_factory=list)
    parts: dict[str, str] = field(default_factory=dict)
    #: Sheets whose XML holds at least one formula element.
    with_formulas: set[str] = field(default_factory=set)
    #: Each sheet's used area (rows, columns) as found in its cells.
    used: dict[str, tuple[int, int]] = field(default_factory=dict)


def check_xlsx(path: str | Path) -> WorkbookCheck:
    """Raise :class:`InputError` unless ``path`` looks like a safe .xlsx.

    Checked before any parser sees the file: magic bytes (old .xls and
    encrypted workbooks are OLE files), zip directory, part count, per-part
    and total unpacked size and compression ratio (zip bombs), required
    parts, no DTD or entity declaration in any XML part (billion laughs,
    XXE), and each sheet's declared dimension and used area within Excel's
    limits (a reader allocates the whole used area). Returns what was found,
    including which sheets hold formula elements.
    """
    path = Path(path)
    name = str(path)
    try:
        size = path.stat().st_size
        with open(path, "rb") as fh:
            magic = fh.read(8)
    except OSError as exc:
        raise InputError(f"cannot read the file: {exc.strerror or exc}", file=name) from exc
    if magic.startswith(b"\xd0\xcf\x11\xe0"):
        raise InputError(
            "this is an old .xls workbook or an encrypted (password-protected) one",
            file=name, hint="save it as a plain .xlsx without a password",
        )
    if not magic.startswith(b"PK"):
        raise InputError(
            "this is not an .xlsx workbook (it is not a zip file)", file=name,
            hint="save it as .xlsx, or name a CSV/TSV file",
        )
    if size > LIMITS["file_bytes"]:
        raise InputError("the workbook is larger than 512 MiB", file=name)
    try:
        with zipfile.ZipFile(path) as zf:
            infos = zf.infolist()
    except (zipfile.BadZipFile, OSError, EOFError, ValueError) as exc:
        raise InputError(
            "the workbook is damaged or truncated (its zip directory cannot be read)",
            file=name, hint="open it in Excel or LibreOffice and save it again",
        ) from exc
    if len(infos) > LIMITS["parts"]:
        raise InputError(f"the workbook has {len(infos)} parts, too many to be real", file=name)
    total = 0
    for info in infos:
        if info.flag_bits & 0x1:
            raise InputError("the workbook is encrypted", file=name,
                             hint="save it without a password")
        total += info.file_size
        if info.file_size > LIMITS["part_bytes"]:
            raise InputError(f"part {info.filename!r} unpacks to more than 1 GiB", file=name)
        if info.compress_size and info.file_size / info.compress_size > LIMITS["ratio"] and (
            info.file_size > 50 * 1024**2
        ):
            raise InputError(
                f"part {info.filename!r} is compressed {info.file_size // info.compress_size}:1,"
                " which looks like a zip bomb", file=name,
            )
    if total > LIMITS["total_bytes"]:
        raise InputError("the workbook unpacks to more than 2 GiB", file=name)
    names = {i.filename for i in infos}
    for part in _REQUIRED:
        if part not in names:
            raise InputError(
                f"the workbook lacks its {part} part", file=name,
                hint="this is a zip file but not an .xlsx workbook",
            )
    try:
        with zipfile.ZipFile(path) as zf:
            return _check_parts(zf, infos, name)
    except InputError:
        raise
    except (zipfile.BadZipFile, OSError, EOFError, ValueError, KeyError,
            RuntimeError, NotImplementedError) as exc:
        raise InputError(
            f"the workbook is damaged or truncated ({type(exc).__name__}: {exc})",
            file=name, hint="open it in Excel or LibreOffice and save it again",
        ) from exc


def _resolve(base_part: str, target: str) -> str:
    if target.startswith("/"):
        return target.lstrip("/")
    return posixpath.normpath(posixpath.join(posixpath.dirname(base_part), target))


def _rels_of(part: str) -> str:
    return posixpath.join(posixpath.dirname(part), "_rels", posixpath.basename(part) + ".rels")


def _check_parts(zf: zipfile.ZipFile, infos: list[zipfile.ZipInfo], file: str) -> WorkbookCheck:
    """Refuse declarations in any XML part, find the workbook's sheets through
    its relationships and scan each (see :func:`check_xlsx`)."""
    by_name = {i.filename: i for i in infos}
    xml_data: dict[str, bytes] = {}
    # Big parts are sheets as a rule: they are streamed through the sheet
    # scan, which also looks for declarations; any other is checked after.
    big: dict[str, zipfile.ZipInfo] = {}
    for info in infos:
        if info.filename.lower().endswith((".xml", ".rels", ".vml")):
            if info.file_size > _SCAN_LATER:
                big[info.filename] = info
                continue
            data = read_part(zf, info, file)
            refuse_declarations(data, file, info.filename)
            xml_data[info.filename] = data

    def load(name: str) -> bytes | None:
        if name not in xml_data and name in big:
            xml_data[name] = read_part(zf, big[name], file)
            refuse_declarations(xml_data[name], file, name)
        return xml_data.get(name)

    root_rels = "_rels/.rels"
    root_data = load(root_rels)
    if root_data is None:
        raise InputError(f"the workbook lacks its {root_rels} part", file=file,
                         hint="this is a zip file but not an .xlsx workbook")
    book_part = ""
    root = parse_xml(root_data, file=file, part=root_rels)
    for rel in root.iter(f"{_NS_PKG}Relationship"):
        if rel.get("Type", "").endswith("/officeDocument"):
            book_part = _resolve("", rel.get("Target", ""))
    book_data = load(book_part)
    if book_data is None:
        raise InputError("the workbook lacks its workbook part (xl/workbook.xml)", file=file,
                         hint="this is a zip file but not an .xlsx workbook")
    targets: dict[str, str] = {}
    book_rels = _rels_of(book_part)
    rels_data = load(book_rels)
    if rels_data is not None:
        for rel in parse_xml(rels_data, file=file, part=book_rels).iter(
            f"{_NS_PKG}Relationship"
        ):
            targets[rel.get("Id", "")] = _resolve(book_part, rel.get("Target", ""))
    check = WorkbookCheck()
    book = parse_xml(book_data, file=file, part=book_part)
    for sheet in book.iter(f"{_NS_MAIN}sheet"):
        sheet_name = sheet.get("name", "")
        part = targets.get(sheet.get(f"{_NS_REL}id", ""), "")
        check.sheets.append(sheet_name)
        if part not in by_name:
            raise InputError(f"sheet {sheet_name!r} has no part in the workbook", file=file,
                             hint="open it in Excel or LibreOffice and save it again")
        check.parts[sheet_name] = part
        if part in xml_data:
            found = scan_sheet(xml_data[part], file=file, sheet=sheet_name, part=part)
        elif part in big:
            found = scan_big_sheet(zf, big[part], file=file, sheet=sheet_name)
        else:
            continue
        rows, cols, formulas = found
        check.used[sheet_name] = (rows, cols)
        if formulas:
            check.with_formulas.add(sheet_name)
    scanned = set(check.parts.values())
    for part in big:
        if part not in scanned:
            load(part)
    if not check.sheets:
        raise InputError("the workbook has no sheets", file=file)
    return check

