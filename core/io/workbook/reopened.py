"""What reopening a workbook took from the spreadsheet, for the window to say.

:func:`core.io.workbook.read_workbook` remembers, per document it returns,
the edits made outside the app that it took (conventions, grades, notes) and
the convention cells it refused; :func:`reopened` hands them out. The audit
log holds the same changes (origin ``outside the app``); this record says
which of them this very reopening found.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass

from core.errors import InputError
from core.model.audit import AuditEntry
from core.model.document import Document
from core.model.numbers import counted

__all__ = ["Reopened", "remember", "reopened"]


@dataclass(frozen=True)
class Reopened:
    """The edits made outside the app that reopening a workbook took or refused."""

    file: str
    #: Conventions (and the name, the judgment version) taken from the Conventions sheet.
    conventions: tuple[AuditEntry, ...] = ()
    #: Grades taken from the Candidates sheet.
    grades: tuple[AuditEntry, ...] = ()
    #: Notes taken from the Candidates sheet.
    notes: int = 0
    #: Convention cells not taken, each naming its cell (the stored conventions stayed).
    refused: tuple[InputError, ...] = ()
    #: Cells edited in a sheet that records, not takes, grades (the
    #: Annotators sheet): not read, each naming its first cell and what to do.
    not_read: tuple[InputError, ...] = ()
    #: Queries' texts taken from the Queries sheet's column of them.
    query_texts: int = 0

    @property
    def empty(self) -> bool:
        """Nothing was edited outside the app."""
        return not (self.conventions or self.grades or self.notes or self.refused
                    or self.not_read or self.query_texts)

    def lines(self) -> list[str]:
        """One line per finding, for a message to the reviewer."""
        out = []
        if self.conventions:
            out.append("Conventions edited in the spreadsheet are now the document's "
                       "(recorded in the audit log):")
            out += [f"  {e.before} \u2192 {e.after.partition(' = ')[2]} ({e.note})"
                    for e in self.conventions]
        if self.refused:
            out.append("Convention cells not taken, so the conventions stored with the "
                       "workbook are kept (correct the cells and open the file again):")
            out += [f"  {_where(err)}{err.problem}" for err in self.refused]
        if self.grades:
            n = len(self.grades)
            out.append(f"{counted(n, 'grade')} edited in the spreadsheet "
                       "(recorded in the audit log).")
        if self.notes:
            out.append(f"{counted(self.notes, 'note')} edited in the "
                       "spreadsheet.")
        if self.query_texts:
            out.append(f"{counted(self.query_texts, 'query text')} edited in the "
                       "spreadsheet.")
        out += [f"{_where(err)}{err.problem} ({err.hint})." for err in self.not_read]
        return out

    @property
    def message(self) -> str:
        """The lines as one text ("" when nothing was edited outside the app)."""
        return "\n".join(self.lines())


def _where(err: InputError) -> str:
    """Where a refused cell is: sheet, row and column."""
    parts = [f"sheet {err.sheet}" if err.sheet else "",
             f"row {err.line}" if err.line is not None else "",
             f"column {err.column}" if err.column else ""]
    where = ", ".join(p for p in parts if p)
    return f"{where}: " if where else ""


_FOUND: weakref.WeakKeyDictionary[Document, Reopened] = weakref.WeakKeyDictionary()


def remember(doc: Document, found: Reopened) -> None:
    """Keep what reopening found for ``doc`` (while the document lives)."""
    _FOUND[doc] = found


def reopened(doc: Document) -> Reopened | None:
    """What reopening its workbook found for ``doc``; None when ``doc`` was
    not read from a workbook by :func:`core.io.workbook.read_workbook`.

    Examples
    --------
    >>> from core.model.examples import seed_document
    >>> reopened(seed_document()) is None
    True
    """
    return _FOUND.get(doc)
