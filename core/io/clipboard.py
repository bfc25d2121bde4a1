"""Rectangular ranges as spreadsheets put them on the clipboard.

Excel and LibreOffice copy a range as tab-separated text: one line per row,
cells separated by tabs, a cell that holds a tab or a line break wrapped in
double quotes (inner quotes doubled), lines ended by ``\\r\\n`` (Excel) or
``\\n`` (LibreOffice on Linux), usually with a line break after the last row.
A cell holding a quote and neither is copied as it is (LibreOffice's
``ScImportExport::Doc2Text``), and a pasted cell that begins with a quote is
read as a quoted one (its ``ScanNextFieldFromString``, after any blanks).
:func:`parse_range` reads that back into a rectangle of strings;
:func:`format_range` writes one. What a pasted cell means as a grade is the
model's grammar, :mod:`core.model.grades`.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["format_range", "parse_range"]


def parse_range(text: str) -> list[list[str]]:
    """Split clipboard text into a rectangle of cells.

    Rows may end with ``\\r\\n``, ``\\n`` or ``\\r``; one final line break is
    not a row. Quoted cells may hold tabs, line breaks and doubled quotes. A
    quote that does not open a well-formed quoted cell is kept as text. Short
    rows are padded with empty cells so the result is rectangular.

    Examples
    --------
    >>> parse_range('1\\t"two\\tlines\\nhere"\\r\\n3\\r\\n')
    [['1', 'two\\tlines\\nhere'], ['3', '']]
    >>> parse_range("")
    []
    >>> parse_range("\\n")
    [['']]
    """
    if text == "":
        return []
    rows: list[list[str]] = []
    row: list[str] = []
    i, n = 0, len(text)
    while True:
        cell, i = _cell(text, i, n)
        row.append(cell)
        if i >= n:
            rows.append(row)
            break
        ch = text[i]
        if ch == "\t":
            i += 1
            continue
        # a line break: \r\n, \n or \r
        i += 2 if text.startswith("\r\n", i) else 1
        rows.append(row)
        row = []
        if i >= n:
            break
    width = max(len(r) for r in rows)
    return [r + [""] * (width - len(r)) for r in rows]


def _cell(text: str, i: int, n: int) -> tuple[str, int]:
    """One cell starting at ``i``; returns it and the index of its end."""
    if i < n and text[i] == '"':
        parts: list[str] = []
        j = i + 1
        while j < n:
            k = text.find('"', j)
            if k < 0:
                break
            parts.append(text[j:k])
            if k + 1 < n and text[k + 1] == '"':
                parts.append('"')
                j = k + 2
                continue
            end = k + 1
            if end >= n or text[end] in "\t\r\n":
                return "".join(parts), end
            break
        # not a well-formed quoted cell: fall through and take it literally
    j = i
    while j < n and text[j] not in "\t\r\n":
        j += 1
    return text[i:j], j


def format_range(rows: Sequence[Sequence[str]], *, line_end: str = "\n") -> str:
    """Join a rectangle of cells as clipboard text (the inverse of :func:`parse_range`).

    Cells holding a tab or a line break are quoted (inner quotes doubled),
    as LibreOffice copies them, and so are cells that begin with a quote,
    blanks aside (which LibreOffice's paste would otherwise read as quoted,
    losing their quotes); a
    quote inside other text is copied as it is. Every row, including the
    last, ends with ``line_end``.

    Examples
    --------
    >>> format_range([["a", "b\\tc"], ['say "hi"', ' "q']])
    'a\\t"b\\tc"\\nsay "hi"\\t" ""q"\\n'
    """
    out: list[str] = []
    for row in rows:
        out.append("\t".join(_quote(str(c)) for c in row) + line_end)
    return "".join(out)


def _quote(cell: str) -> str:
    if cell.lstrip(" ").startswith('"') or any(c in cell for c in "\t\r\n"):
        return '"' + cell.replace('"', '""') + '"'
    return cell
