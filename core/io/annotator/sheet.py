"""A table's data rows under a mapping, as the import steps read them.

Everything works column by column on the data rows; Python loops run only
over the few cells that need words in the report. Findings are collected
with a sort key (data row, step, grade column, order) so that the report
lists them exactly in reading order, whatever step found them.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter
from typing import Any

from core.errors import InputError
from core.io.annotator.model import (
    BLOCKS_HINT,
    ColumnMapping,
    Table,
    cell_text,
    import_first,
    titled_blocks,
)
from core.io.annotator.report import ImportReport, Issue
from core.io.safety import column_letters

__all__ = ["Sheet", "SortKey"]

#: Where a finding goes in the report: (data row, step, grade column, order).
SortKey = tuple[int, int, int, int]

#: Header names a missing column's message suggests.
_EXAMPLES = {"query": "query/qid/query_id/topic", "source_id": "doc/docid/doc_id/document"}


class Sheet:
    """The data rows of ``table`` under ``mapping``, their columns (read
    once each, on demand), the columns' names for messages, and the
    findings of the import so far.

    Raises :class:`InputError` when the mapping lacks the query, the source
    or a grade column.
    """

    def __init__(self, table: Table, mapping: ColumnMapping) -> None:
        self.table = table
        self.mapping = mapping
        self.file = table.file
        self.header = table.header(mapping)
        self.names = [self._name(c) for c in range(max(len(self.header), 1 + max(
            mapping.used_columns(), default=0)))]
        self._check_mapping()
        #: 0-based index of the first data row in the table.
        self.start = mapping.header_row + 1
        self._columns: dict[int, Sequence[Any]] = {}
        self._stripped: dict[int, list[str]] = {}
        #: Columns whose every cell is text (found as :meth:`texts` reads them).
        self.textual: set[int] = set()
        self.data: list[list[Any]] = self._rows(max(mapping.used_columns()) + 1)
        self.n_rows = len(self.data)
        self.found: list[tuple[SortKey, Issue]] = []
        self.unmapped: list[tuple[SortKey, str]] = []

    def _rows(self, width: int) -> list[list[Any]]:
        """The data rows, short ones padded to ``width`` cells; narrow rows
        (the usual) have every column taken in one transposing pass."""
        data: list[list[Any]] = self.table.rows[self.start:]
        lengths = ({len(data[0])} if self.table.rectangular and data else set(map(len, data)))
        if data and min(lengths) < width:
            data = [r if len(r) >= width else [*r, *[""] * (width - len(r))] for r in data]
            lengths = set(map(len, data))
        if data and max(lengths) <= 2 * width:
            self._columns.update(enumerate(zip(*data, strict=False)))
        return data

    def _name(self, c: int) -> str:
        header = self.header
        label = header[c] if c < len(header) and header[c] else ""
        if self.table.sheet is not None:
            return f"{column_letters(c + 1)} ({label})" if label else column_letters(c + 1)
        return label or f"field {c + 1}"

    def name(self, c: int) -> str:
        """Column ``c`` as messages name it: its letter and header in a
        workbook, its header (or ``field N``) in a text file."""
        return self.names[c] if c < len(self.names) else self._name(c)

    def fail(self, problem: str, *, line: int | None = None, column: str | None = None,
             hint: str | None = None) -> InputError:
        """An error about this sheet."""
        return InputError(problem, file=self.file, sheet=self.table.sheet, line=line,
                          column=column, hint=hint)

    def _check_mapping(self) -> None:
        mapping, header = self.mapping, self.header
        where = (f"in the header ({', '.join(h for h in header if h) or 'empty'})"
                 if mapping.header_row >= 0 else f"in {self.table.unnamed()}")
        line = mapping.header_row + 1 if mapping.header_row >= 0 else None
        for need in ("query", "source_id"):
            blocks = titled_blocks(self.table, mapping.header_row, header) if (
                need == "query" and mapping.query is None) else None
            if blocks is not None:
                raise self.fail(blocks, line=line, hint=BLOCKS_HINT)
            if getattr(mapping, need) is None:
                raise self.fail(f"no {need.replace('_', ' ')} column found {where}", line=line,
                                hint="name it e.g. " + _EXAMPLES[need]
                                + ", or " + import_first(f"--map {need}=COLUMN"))
        if mapping.grade is None and not mapping.grades:
            ranking = mapping.ranking_not_grade(header, import_first)
            raise self.fail(
                f"no grade column found {where}" + (f"; {ranking[0]}" if ranking else ""),
                line=line,
                hint=ranking[1] if ranking else
                "name it grade/label/rating/relevance, one column per annotator as "
                "grade_<name>, or " + import_first("--map grade=COLUMN"))

    def row_number(self, i: int) -> int:
        """The 1-based table row of data row ``i``."""
        return i + self.start + 1

    def place(self, i: int) -> str:
        """Data row ``i`` as a message names it: ``row 7``, a JSON export's
        ``line 7`` or ``record 3 (id 812)`` (:meth:`Table.place`)."""
        return self.table.place(self.row_number(i))

    def column(self, c: int) -> Sequence[Any]:
        """Column ``c``'s cells, one per data row, as read."""
        got = self._columns.get(c)
        if got is None:
            got = self._columns[c] = list(map(itemgetter(c), self.data))
        return got

    def texts(self, c: int) -> list[str]:
        """Column ``c``'s cells as stripped text."""
        got = self._stripped.get(c)
        if got is None:
            cells = self.column(c)
            try:
                got = list(map(str.strip, cells))
                self.textual.add(c)
            except TypeError:  # not all text
                got = [v.strip() if type(v) is str else cell_text(v).strip() for v in cells]
            self._stripped[c] = got
        return got

    def report_findings(self, report: ImportReport) -> None:
        """Put the findings into ``report`` in reading order."""
        self.found.sort(key=lambda t: t[0])
        report.issues.extend(issue for _, issue in self.found)
        self.unmapped.sort(key=lambda t: t[0])
        for _, text in self.unmapped:
            report.unmapped_labels[text] = report.unmapped_labels.get(text, 0) + 1
