"""The checks a workbook must pass before any parser sees it: the file and
its zip directory, the package's content types and relationships, and every
part by what it holds."""

from __future__ import annotations

import copy
import hashlib
import threading
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from core.errors import InputError
from core.io.safety.archive import check_directory, check_file, read_directory
from core.io.safety.counts import check_xml_part
from core.io.safety.limits import cells_allowed, crafted, damaged
from core.io.safety.ods import CONTENT, RowReader, check_ods_package, scan_content
from core.io.safety.package import ROOT_KINDS, WHAT, Package, read_package
from core.io.safety.parts import HEAD, read_part, root_element, stream_part
from core.io.safety.sheets import SheetPart, scan_big_sheet, scan_sheet
from core.io.suffixes import ODS_SUFFIX

#: Parts above this size are streamed through the sheet scan.
_SCAN_LATER = 1 << 20
#: Bytes read at a time when a workbook's content is hashed.
_HASH_CHUNK = 1 << 22


@dataclass
class WorkbookCheck:
    """What :func:`check_xlsx` found in a workbook that passed."""

    #: Sheet names in workbook order, and each sheet's part in the zip.
    sheets: list[str] = field(default_factory=list)
    parts: dict[str, str] = field(default_factory=dict)
    #: Sheets whose XML holds at least one formula element or error value
    #: (:func:`~core.io.safety.formulas.find_cells_not_data` lists them).
    with_formulas: set[str] = field(default_factory=set)
    #: Each sheet's used area (rows, columns) as found in its cells (of an
    #: .ods, the columns may be more: a row's bytes bound them).
    used: dict[str, tuple[int, int]] = field(default_factory=dict)
    #: The shared-strings and styles parts the workbook's relationships
    #: name (each a tuple: none, one, or more when the package is odd).
    strings: tuple[str, ...] = ()
    styles: tuple[str, ...] = ()
    #: "xlsx", or "ods" (LibreOffice: every sheet's part is ``content.xml``).
    kind: str = "xlsx"
    #: An .ods file's global named ranges: name -> ``Sheet!$B$7``.
    names: dict[str, str] = field(default_factory=dict)


def check_xlsx(path: str | Path) -> WorkbookCheck:
    """Raise :class:`InputError` unless ``path`` looks like a safe .xlsx.

    Checked before any parser sees the file: magic bytes (old .xls and
    encrypted workbooks are OLE files); the zip directory (part count, one
    name per part, encryption, compression method, overlapping parts, and
    every part's and the whole's compression ratio: zip bombs); the
    package (content types, the workbook found through the relationships,
    each sheet's part, no relationship pointing outside the package or at
    a missing part, no part used as two things or as something its content
    type denies). Then every part by what it holds, whatever its name: no
    DTD or entity declaration in any XML part (billion laughs, XXE), no
    nesting deeper than a workbook's; each sheet's declared dimension and
    used area within Excel's limits and within what its bytes can hold (a
    reader allocates the whole used area), and all sheets' used areas
    together too; declared shared-string and style counts within what their
    part can hold. Returns what was found, including which sheets hold
    formula elements.

    A workbook whose bytes passed these checks last time is not checked
    again (opening a file asks whether it is ours, then reads it).
    """
    return _checked(Path(path), "xlsx", lambda zf, infos, name: _check_parts(
        zf, read_package(zf, infos, name)))


def check_ods(path: str | Path, *, reader: RowReader | None = None) -> WorkbookCheck:
    """Raise :class:`InputError` unless ``path`` looks like a safe .ods
    (LibreOffice's spreadsheet): the file and its zip directory as for an
    .xlsx, then the package and ``content.xml``'s tables
    (:mod:`core.io.safety.ods`). Every sheet's part is ``content.xml``.
    ``reader`` is handed the rows of the tables it wants as the scan passes
    them (the file is then scanned even when its bytes passed before)."""
    return _checked(Path(path), "ods", lambda zf, infos, name: _check_ods_parts(
        zf, name, reader), again=reader is not None)


def check_workbook(path: str | Path) -> WorkbookCheck:
    """:func:`check_ods` for an .ods file, else :func:`check_xlsx`."""
    return (check_ods if Path(path).suffix.lower() == ODS_SUFFIX else check_xlsx)(path)


def _check_ods_parts(zf: zipfile.ZipFile, name: str, reader: RowReader | None,
                     ) -> WorkbookCheck:
    check_ods_package(zf, name)
    scan = scan_content(zf, name, reader)
    if not scan.tables:
        raise InputError("the spreadsheet has no sheets", file=name)
    names = [t.name for t in scan.tables]
    if len(set(names)) != len(names):
        raise crafted("the spreadsheet names two sheets alike; a reader could take either",
                      name)
    return WorkbookCheck(sheets=names, parts=dict.fromkeys(names, CONTENT),
                         with_formulas={t.name for t in scan.tables if t.formulas},
                         used={t.name: (t.rows, max(t.columns, t.bound)) for t in scan.tables},
                         kind="ods", names=scan.names)


def _checked(path: Path, kind: str,
             parts: Callable[[zipfile.ZipFile, list[zipfile.ZipInfo], str], WorkbookCheck],
             *, again: bool = False) -> WorkbookCheck:
    """The file and its zip directory checked, then its parts by ``parts``;
    the result kept for the same bytes (and given for them, unless ``again``)."""
    name = str(path)
    size = check_file(path, name, kind)
    digest = _content_digest(path, name)
    with _LAST_LOCK:
        if not again and _LAST and _LAST[0][0] == (digest, kind):
            return copy.deepcopy(_LAST[0][1])
    infos = read_directory(path, name)
    check_directory(infos, size, name)
    try:
        with zipfile.ZipFile(path) as zf:
            found = parts(zf, infos, name)
    except InputError:
        raise
    except (zipfile.BadZipFile, OSError, EOFError, ValueError, KeyError,
            RuntimeError, NotImplementedError) as exc:
        raise damaged(f"the workbook is damaged or truncated ({type(exc).__name__}: {exc})",
                      name) from exc
    if _content_digest(path, name) == digest:  # unchanged while it was checked
        with _LAST_LOCK:
            _LAST[:] = [((digest, kind), copy.deepcopy(found))]
    return found


#: The last workbook that passed, by the digest of its bytes, and what was
#: found: opening a file asks twice (is it ours? then read it), and a file
#: of 1,000,000 candidates takes seconds to check.
_LAST: list[tuple[tuple[bytes, str], WorkbookCheck]] = []
_LAST_LOCK = threading.Lock()


def _content_digest(path: Path, name: str) -> bytes:
    """A digest of the file's bytes (BLAKE2b): a workbook checked before is
    recognised by its content, whatever its name, time stamps or inode."""
    h = hashlib.blake2b(digest_size=32)
    try:
        with open(path, "rb") as fh:
            while chunk := fh.read(_HASH_CHUNK):
                h.update(chunk)
    except OSError as exc:
        raise InputError(f"cannot read the file: {exc.strerror or exc}", file=name) from exc
    return h.digest()


def _check_parts(zf: zipfile.ZipFile, pkg: Package) -> WorkbookCheck:
    """Every part by what it holds (see :func:`check_xlsx`)."""
    file = pkg.file
    if not pkg.sheets:
        raise InputError("the workbook has no sheets", file=file)
    names = {part: sheet for sheet, part in pkg.sheets}
    package_bytes = sum(i.file_size for i in pkg.infos.values())
    check = WorkbookCheck(sheets=[s for s, _ in pkg.sheets], parts=dict(pkg.sheets),
                          strings=tuple(p for p, k in pkg.kinds.items() if k == "strings"),
                          styles=tuple(p for p, k in pkg.kinds.items() if k == "styles"))
    areas: dict[str, tuple[int, int, bool]] = {}
    for part, info in pkg.infos.items():
        root = _root(zf, info, pkg)
        kind = ROOT_KINDS.get(root[1]) if root else None
        _agree(pkg, part, root, kind, names.get(part))
        if kind == "sheet" or pkg.kinds.get(part) == "sheet":
            where = SheetPart(names.get(part), part, info.file_size,
                              plain=root is not None and root[0] == "")
            areas[part] = (scan_sheet(read_part(zf, info, file), where, file=file)
                           if info.file_size <= _SCAN_LATER
                           else scan_big_sheet(zf, info, where, file=file))
        elif root is not None:
            check_xml_part(zf, info, root[1], file=file, package_bytes=package_bytes)
        else:
            for _ in stream_part(zf, info, file):  # unpacks whole and intact
                pass
    total = sum(rows * cols for rows, cols, _ in areas.values())
    sheet_bytes = sum(pkg.infos[part].file_size for part in areas)
    if total > cells_allowed(sheet_bytes):
        raise InputError(
            f"the sheets' used areas hold {total:,} cells in all, too many to read safely:"
            f" a reader allocates every cell, and the sheets' {sheet_bytes:,} bytes of XML"
            " hold far fewer", file=file,
            hint="delete the empty rows and columns past the data, and save it again")
    for sheet, part in pkg.sheets:
        rows, cols, formulas = areas[part]
        check.used[sheet] = (rows, cols)
        if formulas:
            check.with_formulas.add(sheet)
    return check


def _root(zf: zipfile.ZipFile, info: zipfile.ZipInfo, pkg: Package) -> tuple[str, str] | None:
    """The part's root element, or None when it is not XML (an image, say).
    A part whose content type says XML must be XML."""
    chunks = stream_part(zf, info, pkg.file)
    try:
        head = next(chunks, b"")[:HEAD]
    finally:
        chunks.close()
    root = root_element(head, file=pkg.file, part=info.filename)
    if root is None and head.strip() and pkg.content_type(info.filename).endswith("xml"):
        raise damaged(f"part {info.filename!r} should be XML but is not", pkg.file)
    return root


def _agree(pkg: Package, part: str, root: tuple[str, str] | None, kind: str | None,
           sheet: str | None) -> None:
    """Refuse a part whose root element contradicts what the content types
    or relationships make of it."""
    wanted = pkg.kinds.get(part) or pkg.declared_kind(part)
    if wanted is None or wanted == kind:
        return
    found = f"<{root[1]}>" if root else "no XML"
    what = WHAT[wanted]
    used = f"sheet {sheet!r}" if sheet is not None else f"part {part!r}"
    raise crafted(f"{used} should hold {what} but part {part!r} holds {found}", pkg.file)
