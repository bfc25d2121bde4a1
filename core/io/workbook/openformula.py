"""Excel-syntax formulas as OpenDocument's (OpenFormula, ``of:=...``).

The workbook's formulas are declared once, in Excel's syntax
(:mod:`core.io.workbook.formulas` and the sheet modules); the ``.ods``
writer (:mod:`core.io.workbook.ods_writer`) translates each mechanically: cell
references in brackets (``F2`` -> ``[.F2]``, ``'Queries B'!$G$2:$G$9`` ->
``[$'Queries B'.$G$2:.$G$9]``), ``,`` -> ``;`` between arguments, ``TRUE`` and
``FALSE`` as the functions they are in OpenFormula; strings, names, numbers,
operators and the functions themselves (all Excel 2007 ones, which
OpenFormula names alike) are kept as they are.

:func:`shifted` makes a translated formula a template over its row, so that
a column of formulas that differ only by row (Excel's shared formulas) is
translated once.
"""

from __future__ import annotations

import re

__all__ = ["range_address", "shifted", "translate"]

_SHEET = r"(?:'(?:[^']|'')+'|[A-Za-z_][A-Za-z0-9_.]*)"
_CELL = r"\$?[A-Z]{1,3}\$?[0-9]+"
_COLS = r"\$?[A-Z]{1,3}:\$?[A-Z]{1,3}"
_ROWS = r"\$?[0-9]+:\$?[0-9]+"
_TOKEN = re.compile(
    r'(?P<string>"(?:[^"]|"")*")'
    rf"|(?<![A-Za-z0-9_.$])(?P<ref>(?:(?P<sheet>{_SHEET})!)?"
    rf"(?P<area>{_CELL}(?::{_CELL})?|{_COLS}|{_ROWS}))(?![A-Za-z0-9_(])"
    r"|(?<![A-Za-z0-9_.])(?P<bool>TRUE|FALSE)(?![A-Za-z0-9_(])"
    r"|(?P<comma>,)"
)


def _sheet(name: str) -> str:
    """A sheet name as OpenFormula writes it: absolute, quoted unless a plain word."""
    bare = name[1:-1].replace("''", "'") if name.startswith("'") else name
    if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", bare):
        return "$" + bare
    return "$'" + bare.replace("'", "''") + "'"


def range_address(ref: str) -> str:
    """An Excel reference (``Sheet!$A$1:$B$2``) as an ODF cell range address
    (``$Sheet.$A$1:.$B$2``), for named ranges and print ranges."""
    sheet, _, area = ref.rpartition("!")
    prefix = _sheet(sheet) if sheet else ""
    return ":".join(f"{prefix if i == 0 else ''}.{part}" for i, part in enumerate(area.split(":")))


def _ref(m: re.Match[str]) -> str:
    sheet = m.group("sheet")
    prefix = _sheet(sheet) if sheet else ""
    parts = m.group("area").split(":")
    return "[" + ":".join(f"{prefix if i == 0 else ''}.{p}" for i, p in enumerate(parts)) + "]"


def _token(m: re.Match[str]) -> str:
    kind = m.lastgroup
    if kind == "string":
        return m.group()
    if kind == "comma":
        return ";"
    if kind == "bool":
        return m.group() + "()"
    return _ref(m)


def translate(formula: str) -> str:
    """The OpenFormula of an Excel-syntax formula (with or without its ``=``),
    prefixed ``of:=`` as ODF's ``table:formula`` holds it.

    >>> translate('=IF(ISNUMBER(F2),SUM($A$1:$A$3),"a,b")')
    'of:=IF(ISNUMBER([.F2]);SUM([.$A$1:.$A$3]);"a,b")'
    >>> translate("='Queries B'!$G$2+Summary!B3*TRUE")
    "of:=[$'Queries B'.$G$2]+[$Summary.B3]*TRUE()"
    """
    body = formula[1:] if formula.startswith("=") else formula
    return "of:=" + _TOKEN.sub(_token, body)


def shifted(translated: str, row: int) -> tuple[str, tuple[int, ...]]:
    """A translated formula written at sheet row ``row`` as a template over
    its row: ``(template, offsets)`` such that
    ``template.format(*(r + o for o in offsets))`` is the same formula written
    at row ``r`` with its relative rows moved along (``$`` rows stay).
    Braces in the formula are doubled, so ``format`` keeps them."""
    text = translated.replace("{", "{{").replace("}", "}}")
    offsets: list[int] = []
    out: list[str] = []
    pos = 0
    for m in re.finditer(r'"(?:[^"]|"")*"|(?<=\.)(\$?)([A-Z]{1,3})(\$?)([0-9]+)', text):
        if m.group(2) is None or m.group(3):  # a string, or an absolute row
            continue
        offset = int(m.group(4)) - row
        if offset not in offsets:
            offsets.append(offset)
        out.append(text[pos:m.start(4)])
        out.append("{" + str(offsets.index(offset)) + "}")
        pos = m.end(4)
    out.append(text[pos:])
    return "".join(out), tuple(offsets)
