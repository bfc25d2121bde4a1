"""Text from users in what we write: terminals and CSV/TSV cells.

Ids, notes and reasons come from files we did not write. Two rules keep them
harmless and exact.

**Terminals** (:func:`visible`). A control character in an id printed raw
acts on the terminal: ``ESC [2J`` clears it, a carriage return moves back
to the start of the line so that the rest overwrites the row (a forged
row). Every character that is not printable (control characters, line and
paragraph separators, format characters such as the bidirectional
overrides, white space other than the space) is shown as its escape:
``\\r``, ``\\n``, ``\\t``, ``\\x1b``, ``\\u202e``.

**CSV/TSV cells** (:func:`protect`, :func:`unprotect`, :func:`csv_field`).
A spreadsheet runs a cell that starts with ``=``, ``+``, ``-`` or ``@``
(and, in some, with a tab or a carriage return) as a formula: CWE-1236,
"CSV injection". The one rule, for every text cell we write (ids, version,
note, reason) and read back:

* *Writing.* Text that starts with one of those characters (or their
  full-width forms), or with an apostrophe, or that starts or ends with
  white space, is written with one apostrophe in front: ``=1+1`` is written
  ``'=1+1``, ``'quoted`` is written ``''quoted``, `` padded `` is written
  ``' padded ``. Other text is written as it is.
* *Reading.* As in a spreadsheet's cell, a leading apostrophe marks text
  and is not part of it: one leading apostrophe is removed and the rest is
  kept exactly (white space too). A cell without one is read with the
  white space around it trimmed (a hand-written ``q1, d1`` reads ``d1``),
  except a note, which is kept as it is.

So every text reads back exactly as it was written (``unprotect(protect(t))
== t`` for any ``t``), a spreadsheet shows the formula as text, and a hand
-written cell that starts with ``'`` reads as a spreadsheet would read it.
A cell is quoted (``"..."``, a quote doubled) whenever it holds the
delimiter, a quote, a carriage return or a line feed, so that every row is
one record.

TREC files are not spreadsheets: ids are written there exactly, without
the apostrophe (:mod:`core.io.trec.write` refuses ids a TREC line cannot
hold).
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["FORMULA_STARTS", "csv_field", "csv_line", "protect", "unprotect", "unprotect_all",
           "visible"]

#: First characters a spreadsheet may read as the start of a formula.
FORMULA_STARTS = frozenset("=+-@\t\r\n\uff1d\uff0b\uff0d\uff20")
_MARK = "'"
_NAMED = {"\t": "\\t", "\r": "\\r", "\n": "\\n"}


def visible(text: str) -> str:
    """``text`` with every character that is not printable shown as its escape.

    Examples
    --------
    >>> visible("q1\\x1b[2J\\rq2")
    'q1\\\\x1b[2J\\\\rq2'
    >>> visible("café 1")
    'café 1'
    """
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else _escape(c) for c in text)


def _escape(c: str) -> str:
    named = _NAMED.get(c)
    if named:
        return named
    code = ord(c)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def protect(text: str) -> str:
    """Text as a CSV/TSV cell holds it: one apostrophe in front of text a
    spreadsheet would run as a formula, text that starts with an apostrophe,
    and text with white space at either end (see the module's rule).

    Examples
    --------
    >>> protect("=1+1"), protect("'a"), protect(" a"), protect("q1")
    ("'=1+1", "''a", "' a", 'q1')
    """
    if text and (text[0] in FORMULA_STARTS or text[0] == _MARK or text != text.strip()):
        return _MARK + text
    return text


def unprotect(cell: str, *, trim: bool = True) -> str:
    """A CSV/TSV cell's text: one leading apostrophe removed (the rest kept
    exactly), else the cell, trimmed of surrounding white space when
    ``trim`` (ids, versions, reasons; notes are read with ``trim=False``).

    Examples
    --------
    >>> unprotect("'=1+1"), unprotect("''a"), unprotect("' a"), unprotect(" q1 ")
    ('=1+1', "'a", ' a', 'q1')
    """
    if cell.startswith(_MARK):
        return cell[1:]
    return cell.strip() if trim else cell


def unprotect_all(cells: Sequence[str], *, trim: bool = True) -> list[str]:
    """:func:`unprotect` of each cell (a column at once)."""
    if trim:
        return [c[1:] if c[:1] == _MARK else c.strip() for c in cells]
    return [c[1:] if c[:1] == _MARK else c for c in cells]


def csv_field(text: str, delimiter: str = ",") -> str:
    """A cell quoted when it holds the delimiter, a quote, a carriage return
    or a line feed (a quote inside doubled)."""
    if delimiter in text or '"' in text or "\r" in text or "\n" in text:
        return '"' + text.replace('"', '""') + '"'
    return text


def csv_line(cells: list[str], delimiter: str = ",") -> str:
    """One record: the cells quoted as :func:`csv_field` says, a line feed at the end."""
    return delimiter.join([csv_field(c, delimiter) for c in cells]) + "\n"
