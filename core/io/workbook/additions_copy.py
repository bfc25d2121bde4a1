"""A copy of a workbook for :func:`core.io.workbook.additions.read_additions`
to parse: its Candidates sheet without the cells additions are never read
from.

openpyxl builds every cell of every sheet it loads; a Candidates sheet of
20,000 candidates is 540,000 cells, nearly all of them ours (columns C to
AA) with nothing of a person's in them. What additions reads from the sheet
is: the query and source id of each row (columns A and B, the candidate's
key), the cells right of ours (from AB), comments (a part of their own),
column widths (``<cols>``), and the fills a person gave our cells. So the
copy drops, row by row, each cell of columns C to AA whose style has no
solid fill (and, in the current-grade and note columns, whose fill is the
export's own yellow): whatever such a cell holds, additions takes nothing
from it; the rows' attributes other than their numbers (heights and the
like, which additions does not keep); and then every row left with nothing
but its query and source id (of no fill) and no comment, which gives
additions nothing. A cell in a form the pattern
does not know is kept (parsed as before). Every other part is copied
unchanged.
"""

from __future__ import annotations

import posixpath
import re
import zipfile
from pathlib import Path

from core.io.safety import WorkbookCheck
from core.io.safety.limits import column_letters
from core.io.safety.package import rels_of
from core.io.safety.parts import read_part, stream_part
from core.io.workbook.layout import COLUMN_INDEX, SHEETS

#: Our columns whose cells may be dropped (0-based): C to AA, the editable
#: ones (their fill is the export's yellow) apart.
_FIRST, _LAST = 2, 26
_EDITABLE = (COLUMN_INDEX["current grade"], COLUMN_INDEX["note"])
_CELL_XFS = re.compile(rb"<cellXfs[^>]*>(.*?)</cellXfs>", re.S)
_XF = re.compile(rb"<xf\b([^>]*?)/?>")
_FILL_ID = re.compile(rb'\bfillId="(\d+)"')
_FILLS = re.compile(rb"<fills[^>]*>(.*?)</fills>", re.S)
_FILL = re.compile(rb"<fill\b(?:[^>]*/>|.*?</fill>)", re.S)
_SOLID = re.compile(rb'patternType="solid"')
#: The export's fill of the editable cells, as a spreadsheet writes it back.
_EDIT_RGB = re.compile(rb'<fgColor\s+rgb="(?:FF)?FFF2CC"\s*/>', re.I)
#: A row's attributes other than its number (heights, outline levels:
#: nothing additions reads, and openpyxl makes an object of each row's).
_ROW_ATTRIBUTES = re.compile(rb'(<row r="\d+")[^>/]*(?:/[^>/]+)*(?=/?>)')
#: A relationship to a comments part, and a comment's row.
_RELATIONSHIP = re.compile(rb"<Relationship\b[^>]*>")
_COMMENTS_TYPE = re.compile(rb'\bType="[^"]*/comments"')
_TARGET = re.compile(rb'\bTarget="([^"]+)"')
_COMMENT_REF = re.compile(rb'<comment\s[^>]*?\bref="[A-Z]+(\d+)"')
#: The body of a cell, up to its end (it cannot reach past it).
_BODY = rb'(?:/>|>[^<]*(?:<(?!/c>|/?row[\s>])[^<]*)*</c>)'


def _letters(columns: list[int]) -> bytes:
    return b"|".join(column_letters(k + 1).encode() for k in columns)


def _styles(data: bytes) -> tuple[set[int], set[int]] | None:
    """The cell styles without a solid fill, and those whose fill is the
    export's yellow; None when the styles are not in the usual form."""
    xfs, fills = _CELL_XFS.search(data), _FILLS.search(data)
    if xfs is None or fills is None:
        return None
    kinds = ["none" if _SOLID.search(f) is None else "edit" if _EDIT_RGB.search(f) else "other"
             for f in _FILL.findall(fills.group(1))]
    plain: set[int] = set()
    edit: set[int] = set()
    for k, attrs in enumerate(_XF.findall(xfs.group(1))):
        got = _FILL_ID.search(attrs)
        fill = int(got.group(1)) if got else 0
        kind = kinds[fill] if fill < len(kinds) else "other"
        if kind == "none":
            plain.add(k)
        elif kind == "edit":
            edit.add(k)
    return plain, edit


def _dropper(plain: set[int], edit: set[int]) -> re.Pattern[bytes] | None:
    """One pattern for every cell the copy drops."""
    ours = [k for k in range(_FIRST, _LAST + 1) if k not in _EDITABLE]
    alternatives = []
    for columns, styles in ((ours, plain), (list(_EDITABLE), plain | edit)):
        if not styles:
            continue
        numbers = b"|".join(str(s).encode() for s in sorted(styles))
        style = (rb'(?: s="(?:%s)")?' if 0 in styles else rb' s="(?:%s)"') % numbers
        alternatives.append(rb'<c r="(?:%s)\d+"%s(?: t="\w+")?%s'
                            % (_letters(columns), style, _BODY))
    return re.compile(b"|".join(alternatives)) if alternatives else None


def _keys_only(plain: set[int]) -> re.Pattern[bytes] | None:
    """A row that holds nothing but its query and source id (of no fill)."""
    if not plain:
        return None
    numbers = b"|".join(str(s).encode() for s in sorted(plain))
    style = (rb'(?: s="(?:%s)")?' if 0 in plain else rb' s="(?:%s)"') % numbers
    return re.compile(rb'<row r="(\d+)">(?:<c r="[AB]\d+"%s(?: t="\w+")?%s)*</row>'
                      % (style, _BODY))


def comments_parts(src: zipfile.ZipFile, part: str, name: str) -> list[bytes] | None:
    """The comments parts of the sheet ``part`` (each unpacked whole, in
    the order its relationships give them); None when they cannot be found
    for sure (an external target, a part not there, one in which no
    ``<comment`` is found whole: prefixed tags, ``<x:comment>``)."""
    rels = rels_of(part)
    if rels not in src.namelist():
        return []
    out = []
    for rel in _RELATIONSHIP.findall(src.read(rels)):
        target = _TARGET.search(rel)
        if not _COMMENTS_TYPE.search(rel):
            continue
        if target is None or b"External" in rel:
            return None
        text = target.group(1).decode("utf-8", "replace")
        found = (text.lstrip("/") if text.startswith("/")
                 else posixpath.normpath(posixpath.join(posixpath.dirname(part), text)))
        if found not in src.namelist():
            return None
        data = read_part(src, src.getinfo(found), name)
        refs = _COMMENT_REF.findall(data)
        if not refs or len(refs) != data.count(b"<comment "):
            return None
        out.append(data)
    return out


def _comment_rows(src: zipfile.ZipFile, part: str, name: str) -> set[int] | None:
    """The rows of the sheet's comments (openpyxl makes their cells, which
    need their row's ids); None when its comments cannot be found for sure."""
    parts = comments_parts(src, part, name)
    if parts is None:
        return None
    return {int(r) for data in parts for r in _COMMENT_REF.findall(data)}


def reduced_copy(path: Path, check: WorkbookCheck, out: Path) -> bool:
    """Write to ``out`` a copy of ``path`` whose Candidates sheet lacks the
    cells additions never read (see the module's text); False (nothing
    written) when the workbook has no such sheet or its styles are not in a
    form read here."""
    part = check.parts.get(SHEETS["candidates"])
    if part is None or len(check.styles) != 1:
        return False
    with zipfile.ZipFile(path) as src:
        found = _styles(read_part(src, src.getinfo(check.styles[0]), str(path)))
        if found is None:
            return False
        drop = _dropper(*found)
        if drop is None:
            return False
        keys, noted = _keys_only(found[0]), _comment_rows(src, part, str(path))

        def trim(rows: bytes) -> bytes:
            rows = _ROW_ATTRIBUTES.sub(rb"\1", drop.sub(b"", rows))
            if keys is None or noted is None:
                return rows
            return keys.sub(lambda m: m.group() if int(m.group(1)) == 1
                            or int(m.group(1)) in noted else b"", rows)
        with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as dst:
            for info in src.infolist():
                if info.filename != part:
                    dst.writestr(info.filename, src.read(info))
                    continue
                with dst.open(info.filename, "w", force_zip64=True) as sheet:
                    carry = b""
                    for chunk in stream_part(src, info, str(path)):
                        buf = carry + chunk
                        end = buf.rfind(b"</row>")
                        if end < 0:
                            carry = buf
                            continue
                        end += len(b"</row>")
                        sheet.write(trim(buf[:end]))
                        carry = buf[end:]
                    sheet.write(carry)
    return True
