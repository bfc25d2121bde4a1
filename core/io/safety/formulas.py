"""Finding formula cells in a sheet part, without evaluating anything: used
to refuse formulas where data belongs."""

from __future__ import annotations

import itertools
import re
import zipfile
from pathlib import Path

from core.io.safety.limits import column_letters
from core.io.safety.parts import open_part, stream_part
from core.io.safety.scan import DIGITS
from core.io.safety.sheets import CELL_WITHOUT_REF, unreadable, walk_cells
from core.io.stop import Stopped

#: After a cell's start tag: optional blanks, then a formula element.
_FORMULA_NEXT = re.compile(rb"\s*<(?:[A-Za-z_][\w.-]*:)?f[\s>/]")
#: In a cell's start tag: the type of an error value (#N/A, #DIV/0!, ...).
_ERROR_TYPE = re.compile(rb"""\st\s*=\s*["']e["']""")
#: Bytes a cell's start tag and its formula element's start fit in.
_TAG_ROOM = 4096


def formula_rows(path: str | Path, part: str, column: str) -> list[int] | None:
    """The 1-based rows whose cell in ``column`` (letters) holds a formula or
    an error value (not data either: readers give it as an empty cell),
    found in one streaming pass over a sheet part without parsing it;
    None when some cell's start tag does not begin with its reference
    (the caller must then parse, :func:`find_cells_not_data`).
    """
    name = str(path)
    needle = b' r="' + column.upper().encode("ascii")
    rows: list[int] = []
    with zipfile.ZipFile(path) as zf:
        carry = b""
        for chunk in itertools.chain(stream_part(zf, zf.getinfo(part), name), [b""]):
            buf = carry + chunk
            limit = len(buf) - _TAG_ROOM if chunk else len(buf)
            odd = CELL_WITHOUT_REF.search(buf)  # one past the limit is seen again
            if odd is not None and odd.start() < limit:
                return None
            at = buf.find(needle)
            while 0 <= at < limit:
                digits = DIGITS.match(buf, at + len(needle))
                if (digits is not None and buf[at - 2:at] in (b"<c", b":c")
                        and buf[digits.end():digits.end() + 1] == b'"'):
                    end = buf.find(b">", digits.end())
                    if end > 0 and (_ERROR_TYPE.search(buf, at, end) or (
                            buf[end - 1:end] != b"/" and _FORMULA_NEXT.match(buf, end + 1))):
                        rows.append(int(digits.group()))
                at = buf.find(needle, at + 1)
            carry = buf[max(limit, 0):] if chunk else b""
    return rows


def find_cells_not_data(path: str | Path,
                        part: str) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """The cells of one sheet part whose value is not data, in one parse:
    formula cells (reference, formula text) and error values without a
    formula (reference, the error as written, such as ``#DIV/0!``; readers
    give such a cell as empty, so it would pass for a blank).
    """
    name = str(path)
    formulas: list[tuple[str, str]] = []
    errors: list[tuple[str, str]] = []
    try:
        with zipfile.ZipFile(path) as zf, open_part(zf, zf.getinfo(part), name) as fh:
            ref, formula, value = "", False, ""
            for event, tag, elem, row, col in walk_cells(fh, ("start", "end"), file=name,
                                                         part=part):
                if event == "start":
                    if tag == "c":
                        ref, formula, value = f"{column_letters(col)}{row}", False, ""
                elif tag == "f":
                    formulas.append((ref, "=" + (elem.text or "")))
                    formula = True
                elif tag == "v":
                    value = elem.text or ""
                elif tag == "c":
                    if elem.get("t") == "e" and not formula:
                        errors.append((ref, value.strip() or "#VALUE!"))
                    elem.clear()
    except Stopped:  # (a read stopped between the part's pieces: core.io.stop)
        raise
    except Exception as exc:
        raise unreadable(exc, file=name, part=part, sheet=None) from exc
    return formulas, errors
