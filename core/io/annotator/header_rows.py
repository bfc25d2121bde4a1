"""A header written over two rows or more, read as one.

People write a column's name over two rows: a group's name above the
names of its columns ("Product" over "SKU" and "Product page"), or a
name and its qualifier ("Grade" over "(0-3)"). The rows right below the
header that read as header rows too
(:func:`~core.io.annotator.transposed.stacked_header_rows`: texts no
answer repeats, over a column of grades) are read with it as one header,
each column's names joined from the top down ("Product SKU"), into the
last of them, where the data starts below; the rows above it are the
header's, never data, never blank rows. A row of descriptions (a cell of
more than :data:`_NAME_WORDS` words: "How well the page answers the
search") names nothing: its columns keep the names above it.

Two columns whose joined names are the same cannot be told apart: the
rows are left as they are and the guess refuses in one line naming the
rows (:attr:`Table.header_clash`); a header row the user gives is read.
"""

from __future__ import annotations

from typing import Any

from core.errors import InputError
from core.io.annotator.model import Table, cell_text
from core.io.safety import column_letters

__all__ = ["join_header_rows"]

#: A header row's cell of more words than this is a description, not a name.
_NAME_WORDS = 3


def _describes(row: list[Any]) -> bool:
    """Whether ``row`` holds descriptions of the columns, not parts of names."""
    return any(len(cell_text(v).split()) > _NAME_WORDS for v in row)


def _joined(parts: list[str]) -> str:
    """One column's name from its parts, top down: a part that repeats the
    one above at its start (a group's name filled over its merged cells:
    "Product" over "Product page") is the name alone."""
    out = ""
    for part in parts:
        if not part:
            continue
        out = part if not out or part.casefold().startswith(out.casefold()) else f"{out} {part}"
    return out


def join_header_rows(table: Table, header_row: int, stacked: list[int]) -> int:
    """Read the header on ``header_row`` (0-based) and the header rows
    ``stacked`` below it as one: the names joined into the last, which is
    returned (the header's row from then on; :attr:`Table.header_span`
    keeps the first). Where two columns' joined names are the same, nothing
    is joined and ``header_row`` is returned, the refusal kept for the
    guess (:attr:`Table.header_clash`)."""
    rows = [header_row, *stacked]
    named = [r for r in rows if r == header_row or not _describes(table.rows[r])]
    width = max(len(table.rows[r]) for r in rows)
    names = [_joined([cell_text(table.rows[r][c]).strip() if c < len(table.rows[r]) else ""
                      for r in named]) for c in range(width)]
    first, last = header_row + 1, rows[-1] + 1
    seen: dict[str, int] = {}
    for c, name in enumerate(names):
        if name and name.casefold() in seen and len(named) > 1:
            table.header_clash = InputError(
                f"rows {first}-{last} read as one header name two columns {name!r} "
                f"({column_letters(seen[name.casefold()] + 1)} and {column_letters(c + 1)}), "
                "which cannot be told apart", file=table.file, sheet=table.sheet, line=first,
                hint=f"name the columns apart in the file, or pass --header-row {last} to read "
                "the last of the rows alone as the header")
            return header_row
        seen.setdefault(name.casefold(), c)
    joined = [n for c, n in enumerate(names) if len(named) > 1 and n and any(
        c < len(table.rows[r]) and cell_text(table.rows[r][c]).strip() not in ("", n)
        for r in named[:-1])]
    described = [r + 1 for r in rows if r not in named]
    said = [f"rows {first}-{last} read as one header"]
    if joined:
        said.append(f"the names of a column's rows joined: {', '.join(map(repr, joined))}")
    if described:
        said.append(f"row{'s' * (len(described) > 1)} {', '.join(map(str, described))} "
                    "describing the columns, read as no names")
    table.notes.append("; ".join(said) + "; no judgment read from them")
    table.rows[rows[-1]] = names
    table.header_span = (header_row, rows[-1])
    return rows[-1]
