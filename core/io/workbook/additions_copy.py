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
from it; and the rows' attributes other than their numbers (heights and
the like, which additions does not keep). A cell in a form the pattern
does not know is kept (parsed as before). Every other part is copied
unchanged.
"""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

from core.io.safety import WorkbookCheck
from core.io.safety.limits import column_letters
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
                        sheet.write(_ROW_ATTRIBUTES.sub(rb"\1", drop.sub(b"", buf[:end])))
                        carry = buf[end:]
                    sheet.write(carry)
    return True
