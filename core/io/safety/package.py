"""The workbook's package as its content types and relationships describe
it (never as its part names suggest): which part is the workbook, which
parts are its sheets, its shared strings and its styles."""

from __future__ import annotations

import io
import posixpath
import zipfile
from dataclasses import dataclass, field
from urllib.parse import unquote, urlsplit

from core.errors import InputError
from core.io.safety.kinds import named_by_parts
from core.io.safety.limits import crafted, damaged
from core.io.safety.parts import iter_events, read_part, root_element, xml_error

CONTENT_TYPES = "[Content_Types].xml"
_USUAL_BOOK = "xl/workbook.xml"
ROOT_RELS = "_rels/.rels"
_SML = "application/vnd.openxmlformats-officedocument.spreadsheetml."
_MS = "application/vnd.ms-excel."
#: Content types by what a reader takes the part for.
KINDS = {kind: {t.lower() for t in types} for kind, types in {
    "workbook": {_SML + "sheet.main+xml", _SML + "template.main+xml",
                 _MS + "sheet.macroEnabled.main+xml", _MS + "template.macroEnabled.main+xml",
                 _MS + "addin.macroEnabled.main+xml"},
    "sheet": {_SML + "worksheet+xml", _SML + "chartsheet+xml", _SML + "dialogsheet+xml",
              _MS + "macrosheet+xml", _MS + "intlmacrosheet+xml"},
    "strings": {_SML + "sharedStrings+xml"},
    "styles": {_SML + "styles+xml"},
}.items()}
#: Relationship types (their last path segment) by the same kinds.
REL_KINDS = {"worksheet": "sheet", "chartsheet": "sheet", "dialogsheet": "sheet",
             "xlMacrosheet": "sheet", "xlIntlMacrosheet": "sheet",
             "sharedStrings": "strings", "styles": "styles"}
#: Root elements (local names) by the same kinds.
ROOT_KINDS = {"workbook": "workbook", "worksheet": "sheet", "chartsheet": "sheet",
              "dialogsheet": "sheet", "macrosheet": "sheet", "sst": "strings",
              "styleSheet": "styles"}
#: What a main part of another kind of file is, for the message.
_OTHER_MAIN = {
    "wordprocessingml": "a Word document", "presentationml": "a PowerPoint presentation",
    "sheet.binary": "a binary workbook (.xlsb)",
}
_NS_REL = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
WHAT = {"sheet": "a worksheet", "strings": "shared strings", "styles": "styles",
         "workbook": "the workbook"}


@dataclass
class Package:
    """What the content types and relationships say about a workbook."""

    file: str
    infos: dict[str, zipfile.ZipInfo]
    #: Content types by part name in lower case, and by extension.
    overrides: dict[str, str] = field(default_factory=dict)
    defaults: dict[str, str] = field(default_factory=dict)
    workbook: str = ""
    #: Sheet names in workbook order and each sheet's part.
    sheets: list[tuple[str, str]] = field(default_factory=list)
    #: Part -> kind, for every part a relationship or a content type gives one.
    kinds: dict[str, str] = field(default_factory=dict)

    def content_type(self, part: str) -> str:
        found = self.overrides.get("/" + part.lower())
        if found is None:
            ext = posixpath.splitext(part)[1].lstrip(".").lower()
            found = self.defaults.get(ext, "")
        return found

    def declared_kind(self, part: str) -> str | None:
        ctype = self.content_type(part)
        return next((k for k, types in KINDS.items() if ctype in types), None)


def _load(zf: zipfile.ZipFile, pkg: Package, part: str, names: tuple[str, ...],
          what: str) -> list[tuple[str, dict[str, str]]]:
    """The (local name, attributes) of every element named ``names`` in a
    structural part, parsed as a stream (defused, nesting bounded)."""
    info = pkg.infos.get(part)
    if info is None:
        raise damaged(f"the workbook lacks its {what} part ({part})", pkg.file)
    data = read_part(zf, info, pkg.file)
    root_element(data[: 1 << 16], file=pkg.file, part=part)
    out = []
    try:
        for _event, elem in iter_events(io.BytesIO(data), ("start",), file=pkg.file,
                                        part=part):
            local = elem.tag.rsplit("}", 1)[-1]
            if local in names:
                out.append((local, dict(elem.attrib)))
    except Exception as exc:
        raise xml_error(exc, file=pkg.file, part=part) from exc
    return out


def resolve(pkg: Package, source: str, rel: dict[str, str]) -> str | None:
    """The part a relationship of ``source`` points to; None when it is
    external. Refused: an internal target outside the package."""
    target = rel.get("Target", "")
    if rel.get("TargetMode", "Internal") == "External":
        return None
    split = urlsplit(target)
    outside = crafted(f"relationship {rel.get('Id', '')!r} of {source or ROOT_RELS!r} points"
                      f" to {target!r}, outside the workbook", pkg.file)
    if split.scheme or split.netloc:
        raise outside
    found = ""
    for path in dict.fromkeys((split.path, unquote(split.path))):
        base = "" if path.startswith("/") else posixpath.dirname(source)
        segments = [s for s in base.split("/") if s]
        for segment in path.split("/"):
            if segment == "..":
                if not segments:
                    raise outside
                segments.pop()
            elif segment not in ("", "."):
                segments.append(segment)
        found = "/".join(segments)
        if not found:
            raise outside
        if found in pkg.infos:
            break
    return found


def rels_of(part: str) -> str:
    """The relationships part of ``part``."""
    return posixpath.join(posixpath.dirname(part), "_rels", posixpath.basename(part) + ".rels")


def read_package(zf: zipfile.ZipFile, infos: list[zipfile.ZipInfo], file: str) -> Package:
    """Content types, the workbook part, its sheets and the parts its
    relationships give a kind; refused when they contradict each other or
    point outside the package or at parts it lacks."""
    pkg = Package(file, {i.filename: i for i in infos})
    if CONTENT_TYPES not in pkg.infos:
        if "mimetype" in pkg.infos and "content.xml" in pkg.infos:  # (as the .ods side says)
            raise InputError("this is an OpenDocument spreadsheet (.ods) under an .xlsx name",
                             file=file, hint="rename it to .ods")
        if _USUAL_BOOK in pkg.infos:  # a workbook's part without its package's
            raise damaged(f"the workbook lacks its {CONTENT_TYPES} part", file)
        what, hint = named_by_parts(list(pkg.infos))
        raise InputError(f"this is {what}, not an .xlsx workbook: it has no {CONTENT_TYPES}",
                         file=file, hint=hint)
    for local, attrs in _load(zf, pkg, CONTENT_TYPES, ("Default", "Override"), "content types"):
        ctype = attrs.get("ContentType", "").strip().lower()
        if local == "Default":
            pkg.defaults[attrs.get("Extension", "").lower()] = ctype
        else:
            pkg.overrides[attrs.get("PartName", "").lower()] = ctype
    if ROOT_RELS not in pkg.infos:
        raise InputError(f"the workbook lacks its {ROOT_RELS} part", file=file,
                         hint="this is a zip file but not an .xlsx workbook")
    books = [resolve(pkg, "", rel) or "" for _, rel in _load(
        zf, pkg, ROOT_RELS, ("Relationship",), "package relationships")
        if rel.get("Type", "").endswith("/officeDocument")]
    # Readers also open the usual workbook part by its name.
    if len(books) > 1 or (books and books[0] != _USUAL_BOOK and _USUAL_BOOK in pkg.infos):
        raise crafted("the package names two workbook parts"
                      f" ({', '.join(repr(b) for b in sorted({*books, _USUAL_BOOK}))});"
                      " a reader could take either", file)
    pkg.workbook = books[0] if books else ""
    _check_workbook_part(pkg)
    rels = _workbook_relationships(zf, pkg)
    seen: set[str] = set()
    for _, attrs in _load(zf, pkg, pkg.workbook, ("sheet",), "workbook"):
        name = attrs.get("name", "")
        if name.lower() in seen:
            raise crafted(f"two sheets are named {name!r}; a reader could take either", file)
        seen.add(name.lower())
        rid = attrs.get(f"{_NS_REL}id", "")
        part = resolve(pkg, pkg.workbook, rels[rid]) if rid in rels else None
        if part is None or part not in pkg.infos:
            raise damaged(f"sheet {name!r} has no part in the workbook", file)
        pkg.sheets.append((name, part))
        _give_kind(pkg, part, "sheet", f"sheet {name!r}")
    return pkg


def _check_workbook_part(pkg: Package) -> None:
    part = pkg.workbook
    if not part or part not in pkg.infos:
        raise InputError("the workbook lacks its workbook part (xl/workbook.xml)", file=pkg.file,
                         hint="this is a zip file but not an .xlsx workbook")
    ctype = pkg.content_type(part)
    if pkg.declared_kind(part) != "workbook":
        other = next((what for key, what in _OTHER_MAIN.items() if key in ctype), None)
        if other is not None:
            raise InputError(f"this is {other}, not an .xlsx workbook", file=pkg.file,
                             hint="save it as .xlsx, or name a CSV/TSV file")
        raise damaged(f"the workbook part {part!r} has the content type {ctype or 'none'!r},"
                      " not a workbook's", pkg.file)
    pkg.kinds[part] = "workbook"


def _workbook_relationships(zf: zipfile.ZipFile, pkg: Package) -> dict[str, dict[str, str]]:
    """The workbook's relationships by id; the shared strings and styles
    they name are given their kind (and must exist). Other relationships
    (themes, links, ...) are resolved only when a sheet names them."""
    part = rels_of(pkg.workbook)
    if part not in pkg.infos:
        return {}
    rels: dict[str, dict[str, str]] = {}
    for _, rel in _load(zf, pkg, part, ("Relationship",), "workbook relationships"):
        rels[rel.get("Id", "")] = rel
        kind = REL_KINDS.get(rel.get("Type", "").rsplit("/", 1)[-1])
        if kind in ("strings", "styles"):
            found = resolve(pkg, pkg.workbook, rel)
            if found is None or found not in pkg.infos:
                raise damaged(f"the workbook's {WHAT[kind]} part"
                              f" {found or rel.get('Target', '')!r} is missing", pkg.file)
            _give_kind(pkg, found, kind, WHAT[kind])
    return rels


def _give_kind(pkg: Package, part: str, kind: str, used_as: str) -> None:
    """Record what ``part`` is used as; refused when its content type or
    another use says otherwise."""
    before = pkg.kinds.get(part)
    if before is not None and before != kind:
        raise crafted(f"part {part!r} is used both as {WHAT[before]} and as {used_as}", pkg.file)
    declared = pkg.declared_kind(part)
    if declared != kind:
        ctype = pkg.content_type(part)
        raise crafted(f"part {part!r} is used as {used_as} but [Content_Types].xml gives it"
                      f" the type {ctype or 'none'!r}", pkg.file)
    pkg.kinds[part] = kind
