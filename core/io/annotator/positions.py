"""Where a JSON export's judgments are, as the user finds them: a JSON
Lines file's line (1-based, as an editor shows it), a JSON array's record
(its position, and its ``id`` when it has one), never the row of the table
the import builds from the records (it adds a header line the file lacks,
and a record of several ratings gives several rows).

The import numbers the table's rows as any sheet's (its findings sorted
and counted by them); each message naming a row asks the table for its
place in words where it is made (:meth:`~core.io.annotator.model.Table.place`,
:meth:`RecordPlaces.place`), so a value quoted in it (a query reading
``row 3``) is never touched. The findings' and refusals' own places (the
numbers beside the texts) are then the file's:
:meth:`~core.io.annotator.report.ImportReport.placed_in_records` on the
report, :func:`records_placed` on a refusal.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any

from core.errors import InputError

__all__ = ["RecordPlaces", "records_placed", "row_place"]

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

    def places(self, at: Sequence[int], *, last: str = ", ") -> str:
        """Places ``at`` (ascending, each once) in words: ``line 5``, ``lines
        5, 9``, ``records 3 (id 17), 5``; ``last`` joins the last two
        (``lines 5 and 9``)."""
        if len(at) == 1:
            return self.place(at[0])
        said = [self.place(a).removeprefix(f"{self.unit} ") for a in at]
        return f"{self.unit}s " + last.join([", ".join(said[:-1]), said[-1]])

    def error(self, exc: InputError) -> InputError:
        """A refusal raised of the table's rows placed at the file's line or
        record (its text says its places already: made by the table)."""
        at = self.of(exc.line) if exc.line is not None and exc.sheet is None else None
        return replace(exc, **self.where(at))


def row_place(records: RecordPlaces | None, row: int) -> str:
    """Row ``row`` as the report says it: ``row 5`` in a sheet, else the
    file's place (:meth:`RecordPlaces.place`: a JSON export's report rows
    are its places)."""
    return f"row {row}" if records is None else records.place(row)


@contextmanager
def records_placed(records: RecordPlaces | None) -> Iterator[None]:
    """Refusals raised inside placed at the file's lines or records (their
    ``line``: :meth:`RecordPlaces.error`)."""
    try:
        yield
    except InputError as exc:
        if records is None:
            raise
        raise records.error(exc) from None
