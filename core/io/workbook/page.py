"""How every sheet looks on screen and on paper: header rows tall enough for
their words, columns sized to their contents, the app's status colours, and
the print setup (landscape, one page wide, repeated header rows and query
column, page headers naming the file and the judgment version, numbered
pages)."""

from __future__ import annotations

import textwrap
from collections.abc import Iterable, Sequence
from typing import Any

from core.io.workbook.layout import Formats, put_text

#: Points per line of 11-point text (Calibri, xlsxwriter's default font).
LINE = 15.0
#: A section title's characters (bold, 12 pt) against the body's (11 pt).
SECTION_WIDER = 1.25
#: Characters of a page header's section (Excel refuses headers over 255 in all).
_HEADER_TEXT = 80


def text_width(texts: Iterable[str], low: float, high: float) -> float:
    """A column width (in characters) that shows the longest of ``texts``,
    between ``low`` and ``high``."""
    longest = max((len(t) for t in texts), default=0)
    return float(min(high, max(low, longest + 2)))


def lines_needed(text: str, width: float, *, break_words: bool = False) -> int:
    """How many lines ``text`` takes wrapped at ``width`` characters;
    ``break_words``: a word longer than a line broken across lines, as a
    spreadsheet breaks an id or a URL in a wrapped cell."""
    chars = max(1, int(width) - 1)
    return max(1, sum(len(textwrap.wrap(part, chars, break_long_words=break_words)) or 1
                      for part in text.split("\n")))


#: Characters' widths in a column's width unit (the digit 0's), as DejaVu
#: Sans gives them (LibreOffice prints with it where Calibri and its twin
#: Carlito, or the .ods's Liberation Sans, are missing; theirs, against
#: their own digit, are within a few per cent and mostly narrower), rounded
#: up: every other character 1, an East Asian wide one 2.
_CHAR_WIDTHS = {ch: width for chars, width in (
    ("'ijl", 0.44), ("IJ", 0.47), (" ,.", 0.5), ("/:;\\|", 0.53), ("f", 0.56), ("-", 0.57),
    ("()[]t", 0.62), ("!", 0.64), ("r", 0.65), ('"', 0.73), ("*_`", 0.79), ("s", 0.82),
    ("z", 0.83), ("?", 0.84), ("c", 0.87), ("L", 0.88), ("F", 0.91), ("k", 0.92),
    ("vxy", 0.94), ("P", 0.95), ("TYaeo", 0.97), ("K", 1.04), ("ABVXZ", 1.08), ("CR", 1.1),
    ("U", 1.16), ("N", 1.18), ("H", 1.19), ("DG", 1.22), ("&", 1.23), ("OQ", 1.24),
    ("w", 1.29), ("#+<=>^~", 1.32), ("M", 1.36), ("%", 1.5), ("m", 1.54), ("W", 1.56),
    ("@", 1.58)) for ch in chars}


def _char_width(ch: str) -> float:
    width = _CHAR_WIDTHS.get(ch)
    if width is not None:
        return width
    import unicodedata

    return 2.0 if unicodedata.east_asian_width(ch) in ("W", "F") else 1.0


def text_length(text: str) -> float:
    """How wide ``text`` prints on one line, in a column's width unit
    (:data:`_CHAR_WIDTHS`): ``iiii`` is narrower than ``MMMM``, which a
    count of characters takes alike.

    >>> text_length("ill"), text_length("0000"), text_length("WWW")
    (1.32, 4.0, 4.68)
    """
    return round(sum(_char_width(ch) for ch in text), 6)


def printed_lines(text: str, width: float) -> int:
    """How many lines ``text`` prints on in a wrapped cell ``width``
    characters wide (a column's width: :func:`text_width`), as a
    spreadsheet wraps it: at spaces, a word longer than a line broken, each
    line of the text (``\\n``) a line of its own; its characters measured
    (:func:`text_length`), a character's width of the cell kept for its
    padding, so a text that fits on one line takes one, not two as a count
    of characters against a narrower line said (the Queries sheet's query
    texts printed at double height beside one line of text).

    >>> printed_lines("cheap flights to Lisbon in May", 32)
    1
    >>> printed_lines("How do I renew a passport when the old one was issued abroad", 48)
    2
    """
    room = max(1.0, width)
    lines = 0
    for part in text.split("\n"):
        lines += 1
        used = 0.0
        for word in part.split(" "):
            size = text_length(word)
            gap = text_length(" ") if used else 0.0
            if used + gap + size <= room:
                used += gap + size
                continue
            if used:
                lines += 1
            used = 0.0
            for ch in word:  # a word longer than a line: broken where it reaches the edge
                w = _char_width(ch)
                if used + w > room and used:
                    lines += 1
                    used = 0.0
                used += w
    return max(1, lines)


def header_row(ws: Any, fmt: Formats, row: int, headers: Sequence[str],
               widths: Sequence[float], first_col: int = 0) -> None:
    """``headers`` in bold from ``first_col`` on, the row tall enough for the
    longest once wrapped at its column's width (a spreadsheet does not always
    size a written row itself: headers over the first data row)."""
    lines = max((lines_needed(h, w * 0.9) for h, w in zip(headers, widths, strict=True)),
                default=1)
    ws.set_row(row, LINE * lines + 2)
    for c, header in enumerate(headers):
        ws.write_string(row, first_col + c, header, fmt.header)


def header_widths(headers: Sequence[str], widths: Sequence[float]) -> list[float]:
    """Each width raised to hold the longest word of its header (no word is
    broken across lines)."""
    return [max(w, max((len(word) for word in h.split()), default=0) * 1.05 + 1.5)
            for h, w in zip(headers, widths, strict=True)]


def set_widths(ws: Any, widths: Sequence[float], first_col: int = 0,
               formats: dict[int, Any] | None = None) -> None:
    """Column widths from ``first_col`` on (a column's default format from
    ``formats``, by column index)."""
    for c, width in enumerate(widths, start=first_col):
        ws.set_column(c, c, width, (formats or {}).get(c))


def wrapped_row(ws: Any, row: int, text: str, width: float,
                *more: tuple[str, float]) -> None:
    """Row ``row`` tall enough for ``text`` wrapped in ``width`` characters
    (and for each (text, width) of ``more``, other cells of the row)."""
    lines_tall(ws, row, max(lines_needed(t, w) for t, w in ((text, width), *more)))


def lines_tall(ws: Any, row: int, lines: int, line: float = LINE) -> None:
    """Row ``row`` tall enough for ``lines`` lines of text (left as it is for
    one), each ``line`` points tall."""
    if lines > 1:
        ws.set_row(row, line * lines + 2)


#: Points per line of an .ods's text (10-point Liberation Sans, the .ods
#: writer's default, or DejaVu Sans where it is missing): LibreOffice's
#: row of one line.
ODS_LINE = 12.8
#: The width of a digit of that text, in points (DejaVu Sans's, the wider:
#: 0.636 of 10 points; Liberation Sans's is 5.56).
_ODS_DIGIT = 6.36


def ods_width(width: float) -> float:
    """A column ``width`` (Excel's characters of Calibri 11) as the digits of
    an .ods's text its column holds: the .ods writes the column 7 pixels a
    character and 5 more at 96 to the inch
    (:func:`~core.io.workbook.ods_writer._width_inches`), and its text is
    narrower type of wider letters (LibreOffice printed 40 zeros on a line
    of a column 48 wide, 49 from the .xlsx).

    >>> round(ods_width(48), 1)
    40.2
    """
    return (7 * width + 5) * 0.75 / _ODS_DIGIT


def long_text(ws: Any, fmt: Formats, row: int, cols: tuple[int, int], text: str,
              widths: Sequence[float], *, section: bool = False) -> None:
    """``text`` across columns ``cols`` (first, last; ``widths`` from column
    0), wrapped, its row tall enough (a section title's in its larger type)."""
    first, last = cols
    style = fmt.section_wrap if section else fmt.wrap
    ws.merge_range(row, first, row, last, "", style)
    put_text(ws, row, first, text, style, fmt.wrap_q)
    room = sum(widths[first : last + 1])
    wrapped_row(ws, row, text, room / SECTION_WIDER if section else room)


def colour_words(ws: Any, fmt: Formats, first_row: int, last_row: int, col: int,
                 words: Iterable[str]) -> None:
    """Cells of column ``col`` (rows first..last, 0-based) holding one of
    ``words`` (a status or a grade state) in the app's colour for it."""
    if last_row < first_row:
        return
    for word in words:
        ws.conditional_format(first_row, col, last_row, col, {
            "type": "cell", "criteria": "==", "value": f'"{word}"',
            "format": fmt.colour[word]})


def colour_outcomes(ws: Any, fmt: Formats, first_row: int, last_row: int, col: int) -> None:
    """A win or a loss in column ``col`` on the app's background for it."""
    if last_row < first_row:
        return
    for word, style in fmt.outcome.items():
        ws.conditional_format(first_row, col, last_row, col, {
            "type": "cell", "criteria": "==", "value": f'"{word}"', "format": style})


def _header_text(text: str) -> str:
    """User text for a page header: ``&`` doubled (it starts a code), cut short."""
    if len(text) > _HEADER_TEXT:
        text = text[: _HEADER_TEXT - 1] + "\u2026"
    return text.replace("&", "&&")


def print_setup(ws: Any, judgment_version: str, *, header_rows: tuple[int, int] | None = None,
                query_column: bool = False, gridlines: bool = True) -> None:
    """Landscape, one page wide (as many pages long as it takes), the header
    rows (0-based first, last) and the query column repeated on every page,
    a page header with the file's name, the sheet and the judgment version,
    and "page n of m" below."""
    ws.set_landscape()
    ws.set_paper(9)  # A4; a Letter printer scales it (fit to width)
    ws.fit_to_pages(1, 0)
    ws.set_margins(left=0.4, right=0.4, top=0.7, bottom=0.6)
    if header_rows is not None:
        ws.repeat_rows(*header_rows)
    if query_column:
        ws.repeat_columns(0, 0)
    version = (f"judgment version {_header_text(judgment_version)}" if judgment_version
               else "judgment version not declared")
    ws.set_header(f"&L&8&F&C&8&A&R&8{version}", {"margin": 0.3})
    ws.set_footer("&C&8Page &P of &N", {"margin": 0.3})
    ws.hide_gridlines(0 if gridlines else 1)
