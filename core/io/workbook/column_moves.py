"""A person's formulas rewritten as a spreadsheet rewrites them when a column
of the Candidates sheet is inserted or deleted.

The export's reason column (``why no grade``, AB:
:data:`~core.io.workbook.layout.REASON_COLUMN`) is written only where some
grade has a reason, so a person's own Candidates columns stand from AC while
it is there and from AB when it is not (:func:`~core.io.workbook.additions_types.shifted`).
Their formulas move with them: a reference to a cell of the Candidates sheet
at the column or right of it moves one column right when the column comes
(``=AB2*2`` -> ``=AC2*2``) and one left when it goes, a reference to the
column itself then ``#REF!``, as Excel and LibreOffice do on Insert and
Delete Columns; references to our columns left of it (the grade, F) and to
other sheets stay. Formulas are read by openpyxl's tokenizer, so text in
quotes, names and functions (``LOG10(``) are never taken for references.
"""

from __future__ import annotations

import re

from core.io.safety import column_letters
from core.io.workbook.layout import REASON_COLUMN, SHEETS

__all__ = ["moved_formula"]

_SHEET = re.compile(r"^(?P<sheet>'(?:[^']|'')+'|[^'!]+)!(?P<area>[^!]+)$")
_CELL = re.compile(r"^(\$?)([A-Za-z]{1,3})(\$?[0-9]+)$")
_COLUMN = re.compile(r"^(\$?)([A-Za-z]{1,3})$")
_ROW = re.compile(r"^\$?[0-9]+$")
#: What a reference to a deleted column becomes.
GONE = "#REF!"


def moved_formula(formula: str, by: int, *, on_sheet: bool = True,
                  sheet: str = SHEETS["candidates"], at: int = REASON_COLUMN) -> str:
    """``formula`` (its text, with or without ``=``) as a spreadsheet
    rewrites it when a column is inserted at column ``at`` (0-based) of
    ``sheet`` (``by`` 1) or deleted from there (``by`` -1); ``on_sheet``:
    the formula stands on ``sheet``, so its references without a sheet's
    name are to it. ``by`` 0, or a formula the tokenizer cannot read, is
    returned as it is.

    >>> moved_formula("SUM(AB2:AB9)*2+F2", 1)
    'SUM(AC2:AC9)*2+F2'
    >>> moved_formula("AC2*2&\\"AC2\\"", -1)
    'AB2*2&"AC2"'
    >>> moved_formula("=AB3&Notes!AC2", -1)
    '=#REF!&Notes!AC2'
    >>> moved_formula("Candidates!$AC$2+AC2", -1, on_sheet=False)
    'Candidates!$AB$2+AC2'
    """
    if not by:
        return formula
    from openpyxl.formula.tokenizer import Token, Tokenizer, TokenizerError

    lead = "=" if formula.startswith("=") else ""
    try:
        tokens = Tokenizer("=" + formula.removeprefix("=")).items
    except (TokenizerError, ValueError, IndexError):
        return formula  # not ours to read: kept as written
    changed = False
    for token in tokens:
        if token.type == Token.OPERAND and token.subtype == Token.RANGE:
            new = _moved_reference(token.value, by, on_sheet, sheet, at)
            if new != token.value:
                token.value, changed = new, True
    if not changed:
        return formula
    return lead + "".join(t.value for t in tokens)


def _moved_reference(ref: str, by: int, on_sheet: bool, sheet: str, at: int) -> str:
    """One reference (``AC2``, ``$AB$2:AD9``, ``'Candidates'!AC:AD``) moved;
    a name or another sheet's reference as it is."""
    found = _SHEET.match(ref)
    prefix, area = "", ref
    if found is not None:
        name = found.group("sheet")
        bare = name[1:-1].replace("''", "'") if name.startswith("'") else name
        if bare.casefold() != sheet.casefold():
            return ref
        prefix, area = name + "!", found.group("area")
    elif not on_sheet:
        return ref
    parts = area.split(":")
    if len(parts) > 2 or (len(parts) == 1 and not _CELL.match(area)):
        return ref  # a name, or a form this does not move
    if all(_ROW.match(p) for p in parts):
        return ref  # whole rows: no column to move
    pieces = [_CELL.match(p) or _COLUMN.match(p) for p in parts]
    if any(p is None for p in pieces) or (
            len(parts) == 2 and bool(_CELL.match(parts[0])) != bool(_CELL.match(parts[1]))):
        return ref
    cols = [_index(p.group(2)) for p in pieces if p is not None]
    if by > 0:
        cols = [c + by if c >= at else c for c in cols]
    else:
        if all(c == at for c in cols):
            return prefix + GONE  # the deleted column alone
        cols = [c - 1 if c > at or (i and c == at) else c for i, c in enumerate(cols)]
    out = [p.group(1) + column_letters(c + 1) + (p.group(3) if p.re is _CELL else "")
           for p, c in zip(pieces, cols, strict=True) if p is not None]
    return prefix + ":".join(out)


def _index(letters: str) -> int:
    """A column's letters as its 0-based index."""
    n = 0
    for ch in letters.upper():
        n = n * 26 + ord(ch) - 64
    return n - 1
