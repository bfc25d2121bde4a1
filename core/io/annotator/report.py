"""What an import found and did: :class:`Issue`, :class:`ImportReport`,
:class:`ImportResult`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from core.io.annotator.model import ColumnMapping
from core.model.document import Document

__all__ = [
    "CELL_REJECTED",
    "CONFLICT",
    "DUPLICATE",
    "FATAL",
    "FORMULA",
    "FRACTIONAL",
    "LABEL",
    "MARK",
    "OUTSIDE_SCALE",
    "ROW_REJECTED",
    "ImportReport",
    "ImportResult",
    "Issue",
]


class Issue(NamedTuple):
    """One finding of the import, with its place (1-based row, column header).

    A named tuple: an import may make tens of thousands (one per label read
    as a grade), and a tuple is built several times faster than a frozen
    dataclass.
    """

    kind: str
    row: int
    column: str
    problem: str
    value: str = ""

    def __str__(self) -> str:
        where = f"row {self.row}" + (f", column {self.column!r}" if self.column else "")
        return f"{where}: {self.problem}"


#: Issue kinds. Rejected rows and cells are not imported (a rejected grade
#: cell leaves that annotator's grade not given); the others are imported and
#: flagged.
ROW_REJECTED = "row rejected"
CELL_REJECTED = "cell rejected"
FORMULA = "formula"
DUPLICATE = "duplicate"
OUTSIDE_SCALE = "outside scale"
FRACTIONAL = "fractional"
LABEL = "label mapped"
MARK = "mark"
CONFLICT = "conflict"
FATAL = (ROW_REJECTED, CELL_REJECTED, FORMULA, DUPLICATE, CONFLICT)


@dataclass
class ImportReport:
    """Everything the import did and refused, for people and the wizard."""

    file: str
    sheet: str | None = None
    layout: str = "long"
    encoding: str | None = None
    delimiter: str | None = None
    header_row: int = 1
    rows_read: int = 0
    rows_imported: int = 0
    blank_rows: int = 0
    candidates: int = 0
    annotators: list[str] = field(default_factory=list)
    issues: list[Issue] = field(default_factory=list)
    unmapped_labels: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    mapping: ColumnMapping | None = None

    def of_kind(self, *kinds: str) -> list[Issue]:
        return [i for i in self.issues if i.kind in kinds]

    @property
    def rejected(self) -> list[Issue]:
        """Rows and cells not imported (including formulas and conflicts)."""
        return self.of_kind(ROW_REJECTED, CELL_REJECTED, FORMULA, CONFLICT)

    @property
    def rows_rejected(self) -> int:
        return len({i.row for i in self.of_kind(ROW_REJECTED)} |
                   {i.row for i in self.of_kind(FORMULA) if "row rejected" in i.problem})

    @property
    def duplicates(self) -> list[Issue]:
        return self.of_kind(DUPLICATE)

    @property
    def outside_scale(self) -> list[Issue]:
        return self.of_kind(OUTSIDE_SCALE)

    @property
    def fractional(self) -> list[Issue]:
        return self.of_kind(FRACTIONAL)

    @property
    def formulas(self) -> list[Issue]:
        return self.of_kind(FORMULA)

    @property
    def clean(self) -> bool:
        """No row or cell refused and no duplicate."""
        return not self.of_kind(*FATAL)

    def first_problem(self) -> Issue | None:
        fatal = self.of_kind(*FATAL)
        return min(fatal, key=lambda i: i.row) if fatal else None

    def summary(self) -> list[str]:
        """Sentences for people, most important first."""
        where = self.file + (f", sheet {self.sheet!r}" if self.sheet else "")
        lines = [
            f"{where}: {self.layout} layout, header on row {self.header_row}; "
            f"{self.rows_read} data rows read, {self.rows_imported} imported, "
            f"{self.rows_rejected} rejected, {self.blank_rows} blank skipped; "
            f"{self.candidates} candidates"
            + (f", annotators {', '.join(self.annotators)}" if self.annotators else "")
        ]
        counts: dict[str, int] = {}
        for issue in self.issues:
            counts[issue.kind] = counts.get(issue.kind, 0) + 1
        if counts:
            lines.append("; ".join(f"{k}: {v}" for k, v in counts.items()))
        if self.unmapped_labels:
            lines.append("labels not in the rubric: " + ", ".join(
                f"{k!r} ({v})" for k, v in self.unmapped_labels.items()))
        lines.extend(self.notes)
        return lines


@dataclass
class ImportResult:
    """The imported document and its report."""

    document: Document
    report: ImportReport

