"""Typed errors raised by :mod:`core`.

Every error carries where the problem is (file, sheet, line or row, column)
and what the user can do about it, so that the command line and the window
can show one clear sentence instead of a traceback.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["ConventionError", "InputError", "NdcgError", "NotOwnWorkbook", "StaleLock"]


class NdcgError(Exception):
    """Base class of every error this package raises on purpose."""


@dataclass(eq=False)
class InputError(NdcgError):
    """A file or value that cannot be read as asked.

    Parameters
    ----------
    problem : str
        What is wrong, in one sentence.
    file : str, optional
        The file's path or name.
    line : int, optional
        1-based line (text files) or row (sheets).
    column : str, optional
        The column's header or letter.
    sheet : str, optional
        The sheet's name, for workbooks.
    hint : str, optional
        What to do about it.
    row : int, optional
        The document's row (0-based candidate) the problem is about, when a
        document was read already: not shown; a caller that knows the file
        the row came from finds its line (:func:`core.io.locate.line_of`).
    place : str, optional
        Where in the file, in words, where it has no lines to count (a JSON
        array's ``record 3 (id 17)``): said in the line's stead.
    """

    problem: str
    file: str | None = None
    line: int | None = None
    column: str | None = None
    sheet: str | None = None
    hint: str | None = None
    row: int | None = None
    place: str | None = None

    def __post_init__(self) -> None:
        super().__init__(str(self))

    def __str__(self) -> str:
        where = []
        if self.file:
            where.append(self.file)
        if self.sheet:
            where.append(f"sheet {self.sheet!r}")
        if self.place:
            where.append(self.place)
        elif self.line is not None:
            where.append(f"line {self.line}" if not self.sheet else f"row {self.line}")
        if self.column:
            where.append(f"column {self.column!r}")
        text = (", ".join(where) + ": " if where else "") + self.problem
        if self.hint:
            text += f" ({self.hint})"
        return text


class ConventionError(NdcgError, ValueError):
    """A convention that is malformed or cannot apply to the data."""


class NotOwnWorkbook(InputError):
    """An ``.xlsx`` that is not an audited workbook written by this app (no
    metadata sheet): callers read it as an annotators' sheet instead. Raised
    so that nobody tells it apart by the text of a message."""


@dataclass(eq=False)
class StaleLock(InputError):
    """A file refused for a LibreOffice lock file beside it that LibreOffice
    left behind (:func:`core.io.atomic.stale_lock`): the caller may offer to
    delete ``lock`` (:func:`core.io.atomic.remove_stale_lock`) and write."""

    lock: str = ""
