"""Text cells as spreadsheet programs keep them: whether a text cell read back
still holds the text the workbook was written with.

A person who only opens a workbook and saves it changes none of its texts,
but the programs they save it with rewrite some characters of a text cell.
Each way measured here (``tests/test_text_cells_round_trip.py`` saves
notes, a judgment version and a list's name through them) is undone by
one normal form, :func:`written_form`, declared once for every free-text
cell read back (a note, the Conventions sheet's judgment version and
ranked list's name, the Queries sheet's query text):

- LibreOffice 7.4 (.xlsx and .ods) and this product's own .ods writer save
  a Windows line break (``\\r\\n``, a note from a CSV written on Windows)
  and a lone ``\\r`` as ``\\n``;
- Gnumeric 1.12 writes an .xlsx's texts without ``xml:space="preserve"``
  (``<t>  spaced  </t>``), and python-calamine, which reads them, drops the
  spaces, tabs and line breaks at both ends (a non-breaking space stays;
  LibreOffice reading the same file keeps them);
- Gnumeric saving as .ods a workbook read from .xlsx keeps a carriage
  return as the .xlsx escape it was read as (``_x000D_``: it does not
  decode OOXML's ``_xHHHH_``);
- python-calamine, which reads an .ods when
  :mod:`~core.io.workbook.ods_rows` does not, drops a paragraph's tabs
  (``<text:tab/>``) and line breaks (``<text:line-break/>``); reopening
  puts both back (:func:`~core.io.workbook.ods_rows.with_breaks`), the
  other sheets calamine reads (the annotators' record, the columns people
  added) keep a text without its tabs as written.

Excel was not available to measure. Any other difference is an edit: a
line break, a letter or an inner space added or removed.
"""

from __future__ import annotations

__all__ = ["same_as_written", "same_text", "written_form"]

#: Excel's cell limit, in UTF-16 code units: a longer text is cut there.
CELL_UNITS = 32_767


def written_form(text: str) -> str:
    """``text`` with every change a spreadsheet program was measured to make
    to a text cell (see the module's text) undone, or made: two texts of one
    form are the same text, saved.

    >>> written_form("  two lines\\r\\n\\tand a tab ")
    'two lines\\nand a tab'
    >>> written_form("two lines_x000D_\\nanda tab") == written_form("two lines\\r\\nand\\ta tab")
    True
    """
    lines = text.replace("_x000D_", "\r").replace("\r\n", "\n").replace("\r", "\n")
    return lines.replace("\t", "").strip(" \n")


def same_text(cell: str, text: str) -> bool:
    """Whether a text cell holds ``text`` exactly as exported: a text longer
    than a cell can hold (32,767 UTF-16 units) was cut, and the workbook's
    metadata keeps the whole."""
    if cell == text:
        return True
    from xlsxwriter.utility import _utf16_len, _utf16_truncate

    return bool(_utf16_len(text) > CELL_UNITS and cell == _utf16_truncate(text, CELL_UNITS))


def same_as_written(cell: str, text: str) -> bool:
    """Whether a free-text cell read back still holds ``text`` as written:
    exactly (:func:`same_text`), or as a spreadsheet program saved it
    (:func:`written_form`)."""
    if same_text(cell, text):
        return True
    from xlsxwriter.utility import _utf16_len, _utf16_truncate

    if _utf16_len(text) > CELL_UNITS:
        text = str(_utf16_truncate(text, CELL_UNITS))
    return written_form(cell) == written_form(text)
