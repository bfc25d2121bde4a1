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


def lines_tall(ws: Any, row: int, lines: int) -> None:
    """Row ``row`` tall enough for ``lines`` lines of text (left as it is for one)."""
    if lines > 1:
        ws.set_row(row, LINE * lines + 2)


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
