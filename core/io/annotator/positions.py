"""Where a JSON export's judgments are, as the user finds them: a JSON
Lines file's line (1-based, as an editor shows it), a JSON array's record
(its position, and its ``id`` when it has one), never the row of the table
the import builds from the records (it adds a header line the file lacks,
and a record of several ratings gives several rows).

The import numbers the table's rows as any sheet's (its findings sorted
and counted by them); what it says is then said of the file once, here:
:meth:`~core.io.annotator.report.ImportReport.said_of_records` on the
report, :func:`records_said` on a refusal.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any

from core.errors import InputError

__all__ = ["RecordPlaces", "records_said", "row_place"]

#: The units a JSON export's places are counted in.
LINE, RECORD = "line", "record"


@dataclass(frozen=True)
class RecordPlaces:
    """Each table row's record: ``at[r]`` the file line (JSON Lines) or the
    record's position (a JSON array), 1-based, of table row ``r`` (0-based;
    the header the table adds is 0: no place); ``ids`` each record's ``id``
    by its position ("" or absent: none)."""

    unit: str
    at: tuple[int, ...]
    ids: dict[int, str]

    def of(self, row: int) -> int:
        """The file's place (line or record) of 1-based table row ``row``; 0
        for the header the table adds."""
        return self.at[row - 1] if 0 < row <= len(self.at) else 0

    def place(self, at: int) -> str:
        """A place in words: ``line 16``, ``record 3 (id 17)``, ``record 3``."""
        said = self.ids.get(at, "") if self.unit == RECORD else ""
        return f"{self.unit} {at}" + (f" (id {said})" if said else "")

    def where(self, at: int | None) -> dict[str, Any]:
        """An :class:`InputError`'s place for file place ``at``: its line, or
        its record in words (a JSON array has no lines to name)."""
        if not at:
            return {"line": None}
        return {"line": at} if self.unit == LINE else {"line": None, "place": self.place(at)}

    def said(self, text: str) -> str:
        """``text`` with each table row it names (``row 3``, ``rows 14, 18``)
        said as the file's place: ``line 2``, ``lines 5, 9``, ``record 3
        (id 17)``; rows of one record said once."""
        def rows(m: re.Match[str]) -> str:
            got = [self.of(int(n)) for n in m.group(2).split(", ")]
            places = list(dict.fromkeys(a for a in got if a))
            if not places:
                return m.group(0)
            if len(places) == 1:
                return self.place(places[0])
            return f"{self.unit}s " + ", ".join(self.place(a).removeprefix(f"{self.unit} ")
                                                for a in places)

        return _ROWS.sub(rows, text)

    def error(self, exc: InputError) -> InputError:
        """A refusal raised of the table's rows, said of the file."""
        at = self.of(exc.line) if exc.line is not None and exc.sheet is None else None
        return replace(exc, problem=self.said(exc.problem),
                       hint=self.said(exc.hint) if exc.hint else exc.hint,
                       **self.where(at))


#: A row or a list of rows named in a message (``row 3``, ``rows 14, 18, 22``).
_ROWS = re.compile(r"\b(rows?) (\d+(?:, \d+)*)\b")


def row_place(records: RecordPlaces | None, row: int) -> str:
    """Row ``row`` as the report says it: ``row 5`` in a sheet, else the
    file's place (:meth:`RecordPlaces.place`: a JSON export's report rows
    are its places)."""
    return f"row {row}" if records is None else records.place(row)


@contextmanager
def records_said(records: RecordPlaces | None) -> Iterator[None]:
    """Refusals raised inside said of the file's lines or records."""
    try:
        yield
    except InputError as exc:
        if records is None:
            raise
        raise records.error(exc) from None
