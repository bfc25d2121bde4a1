"""What an import found and did: :class:`Issue`, :class:`ImportReport`,
:class:`ImportResult`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

from core.io.annotator.accounting import AboveRow, ColumnRecord, RowTally, above_text
from core.io.annotator.model import SINGLE_FIELDS, ColumnMapping
from core.io.annotator.positions import RecordPlaces, row_place
from core.io.annotator.scales import Vocabulary, label_key
from core.io.safety import column_letters
from core.io.safety.hidden import HiddenLines
from core.model.document import Document
from core.model.numbers import counted, number_text

__all__ = [
    "CELL_REJECTED",
    "CONFLICT",
    "DUPLICATE",
    "FATAL",
    "FORMULA",
    "FRACTIONAL",
    "LABEL",
    "MARK",
    "MARK_READ",
    "NO_GRADE",
    "OUTSIDE_SCALE",
    "ROW_REJECTED",
    "ImportReport",
    "ImportResult",
    "Issue",
    "predicted_rows",
    "ungraded_rows",
]

#: The rows whose every grade cell is blank, as the import's counts name
#: them (the report's first line, the wizard's counts and rows line).
NO_GRADE = "with no grade at all"


def ungraded_rows(n: int, unit: str = "row") -> str:
    """``n`` rows with every grade cell blank: what became of them (their
    candidates are in the worksheet, each with an unknown grade; no judgment
    of theirs is imported) and what to do, in one phrase: ``2 rows with no
    grade at all (their candidates kept with unknown grades: grade them in
    the editor)``; a JSON export's ``records`` or ``lines`` (``unit``)."""
    if n == 1:
        return (f"1 {unit} {NO_GRADE} (its candidate kept with an unknown grade: "
                "grade it in the editor)")
    return (f"{counted(n, unit)} {NO_GRADE} (their candidates kept with unknown grades: "
            "grade them in the editor)")


def predicted_rows(n: int, columns: list[str]) -> str:
    """``n`` of the rows with no grade at all that hold a model's prediction
    alone (Label Studio's ``predictions.result.value.choices``), what they
    are in one phrase: a pre-annotation, never read as a grade."""
    return (f"{'1 of them holds' if n == 1 else f'{n} of them hold'} a model's prediction "
            f"alone ({', '.join(columns)}: a pre-annotation given with the task, no "
            "annotator's grade, never read as one)")


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
        return self.said()

    def said(self, records: RecordPlaces | None = None) -> str:
        """The finding in one line, its place as the file has it: ``row 5``
        of a sheet, a JSON export's ``line 16`` or ``record 3 (id 17)``
        (``records``: :attr:`ImportReport.records`)."""
        where = row_place(records, self.row) + (f", column {self.column!r}" if self.column
                                                 else "")
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
#: What a mark's issue says its cell was read as, after the mark as written
#: (``'N/A' read as unrateable (reason kept)``), by state word: the
#: headline counts them by it.
MARK_READ = {"unrateable": "read as unrateable (reason kept)", "unknown": "read as unknown"}
CONFLICT = "conflict"
FATAL = (ROW_REJECTED, CELL_REJECTED, FORMULA, DUPLICATE, CONFLICT)


#: Columns left out named with why each in :meth:`ImportReport.left_out_text`.
_WHY_EACH = 3


def _column_name(c: ColumnRecord) -> str:
    return c.header or f"column {c.letter}"


def _why(c: ColumnRecord) -> str:
    """Why column ``c`` was left out, without its name or "not imported"."""
    why = c.reason.removeprefix(f"{c.header}: ") if c.header else c.reason
    for end in ("; not imported", ", not imported"):
        why = why.removesuffix(end)
    return why


@dataclass
class ImportReport:
    """Everything the import did and refused, for people and the wizard."""

    file: str
    sheet: str | None = None
    layout: str = "long"
    #: The sheet has one row per respondent, one column per item (read in
    #: the long layout: :mod:`~core.io.annotator.transposed`).
    per_respondent: bool = False
    encoding: str | None = None
    delimiter: str | None = None
    header_row: int = 1
    #: The header's first row where it is written over several rows, read
    #: as one, its names joined (0: the header is ``header_row`` alone).
    header_from: int = 0
    rows_read: int = 0
    #: Rows read with a judgment imported (the first of a candidate's rows,
    #: in a long layout of one grade per candidate; the file's rows, of one
    #: respondent each, where it has one row per respondent).
    rows_imported: int = 0
    #: Rows read whose every grade cell is blank: no judgment imported, the
    #: candidate listed with an unknown grade (not in ``rows_imported``).
    rows_ungraded: int = 0
    #: Of ``rows_ungraded``, the rows holding a model's prediction alone,
    #: and the columns of the predictions (:func:`predicted_rows`).
    rows_predicted: int = 0
    predicted_columns: list[str] = field(default_factory=list)
    #: A JSON export's records or lines with no grade at all (each its rows'
    #: best status: :attr:`row_tally`'s ``ungraded``) holding a model's
    #: prediction alone, as the headline counts them (``rows_predicted``
    #: counts the table's rows: a prediction each).
    places_predicted: int = 0
    blank_rows: int = 0
    candidates: int = 0
    annotators: list[str] = field(default_factory=list)
    issues: list[Issue] = field(default_factory=list)
    unmapped_labels: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    #: The notes the command line says on its output too (legends that
    #: disagree: the scale the user may have counted on was not read).
    warnings: list[str] = field(default_factory=list)
    #: The sheet's legend of labels without grades, read as the labels the
    #: grades may take (None when there is none, or the rubric was declared).
    vocabulary: Vocabulary | None = None
    mapping: ColumnMapping | None = None
    #: Rows that hold no judgment (a total row, a row without source id and
    #: grades), skipped: (row, why).
    skipped_rows: list[tuple[int, str]] = field(default_factory=list)
    #: Rows skipped because the platform marks them as not judgments, by
    #: kind (control, rejected, preview, cancelled) -> rows; each is also in
    #: ``skipped_rows`` with its reason.
    excluded: dict[str, int] = field(default_factory=dict)
    #: The kinds of :attr:`excluded` whose rows hold no grade in the grade
    #: column (Label Studio's drafts): ``--keep`` would import nothing of
    #: them, so it is not offered (:func:`~core.io.annotator.platform.keepable`).
    gradeless: set[str] = field(default_factory=set)
    #: Judgments: one per grade cell of every row read (one per row in a
    #: long layout, one per annotator's column in a wide one). Those read
    #: are imported or rejected, never dropped:
    #: ``judgments_imported + len(rejected_judgments) == judgments_read``.
    judgments_read: int = 0
    judgments_imported: int = 0
    #: Grade cells left blank on the rows read: no judgment (no one graded
    #: the candidate there), each read as an unknown grade, not counted in
    #: ``judgments_read``.
    blank_grades: int = 0
    #: Of ``blank_grades``, the cells on the rows with no grade at all
    #: (every grade cell of each): the headline says the one within the other.
    blank_on_ungraded: int = 0
    #: Each judgment not imported: (row, column, why).
    rejected_judgments: list[tuple[int, str, str]] = field(default_factory=list)
    #: Each label read -> its grade, and how the labels were read.
    labels: dict[str, float] = field(default_factory=dict)
    scale: str = ""
    #: Known scales the labels fit equally well, read otherwise: (name,
    #: rubric text), the one the import used first; the command line refuses
    #: to choose.
    alternatives: list[tuple[str, str]] = field(default_factory=list)
    #: Where the ranking comes from: "score", "rank", "rows" (the row order,
    #: as the user declared) or "" (judgments only: no ranking, no NDCG).
    ranking: str = "score"
    #: Column index -> its header as read (the mapping's columns, for JSON).
    column_names: dict[int, str] = field(default_factory=dict)
    #: Every column of the file with its role or why it was left out, and
    #: the flag that would use it (:mod:`~core.io.annotator.accounting`).
    columns: tuple[ColumnRecord, ...] = ()
    #: The data rows as a user counts them: imported + ungraded + skipped
    #: (by reason) + rejected + blank; a JSON export's lines or records, a
    #: reshaped sheet's rows of the file (each its rows' status: imported if
    #: any is, else ungraded, rejected, a repeat, skipped, blank).
    row_tally: RowTally | None = None
    #: The same of the rows of the table the import read: a JSON export's
    #: (a record of several ratings several rows, as ``judgments_read`` and
    #: ``rows_predicted`` count them), a reshaped sheet's (a row per
    #: respondent and item); a sheet's rows, as ``row_tally``.
    table_rows: RowTally | None = None
    #: The rows above the header, each with what it held (none imported).
    above: tuple[AboveRow, ...] = ()
    #: The rows and columns the sheet hides, read all the same (a workbook's).
    hidden: HiddenLines | None = None
    #: A JSON export's lines or records: the rows the report names are
    #: then those (:meth:`placed_in_records`).
    records: RecordPlaces | None = None

    def place(self, row: int) -> str:
        """A row the report names, in words: ``row 5``; a JSON export's
        ``line 16`` or ``record 3 (id 17)``."""
        return row_place(self.records, row)

    def where(self, row: int | None) -> dict[str, Any]:
        """An :class:`~core.errors.InputError`'s place for a row the report
        names (its ``line``, or a JSON array's record in words)."""
        return {"line": row} if self.records is None else self.records.where(row)

    def placed_in_records(self, records: RecordPlaces | None) -> None:
        """The rows the findings of a JSON export's table stand at (the
        issues', the rejected judgments', the skipped rows') placed at the
        file's lines or records; its rows then count places, as :meth:`place`
        says them. Their texts are left as made: each names its places as
        the table said them (:meth:`~core.io.annotator.model.Table.place`).
        Nothing happens to a sheet's (None)."""
        if records is None:
            return
        self.records = records
        at = records.at  # (records.of, inlined: row r is at[r - 1])
        self.issues = [Issue(i.kind, at[i.row - 1], i.column, i.problem, i.value)
                       for i in self.issues]
        self.rejected_judgments = [(records.of(r), c, why)
                                   for r, c, why in self.rejected_judgments]
        self.skipped_rows = [(records.of(r), why) for r, why in self.skipped_rows]

    def above_text(self) -> str:
        """The rows above the header and what each held, in one line ("" when
        the header is on row 1 or there is none)."""
        return above_text(self.above, self.header_from or self.header_row, self.header_row)

    def hidden_text(self) -> str:
        """The hidden rows and columns, read all the same, in a sentence
        (empty when the sheet hides none)."""
        return self.hidden.sentence() if self.hidden is not None else ""

    def left_out_text(self, listed: str = "") -> str:
        """The columns left out (no role), in one line: with why each, up
        to :data:`_WHY_EACH` of them; beyond, their names, and why only for
        those a flag would use (``listed``: where the report says why each).
        Every column is accounted for where the import's notes are read,
        not in the ``--report`` file alone. "" when every column is used."""
        out = [c for c in self.columns if not c.role]
        if not out:
            return ""
        if len(out) <= _WHY_EACH:
            return "left out, not imported: " + ", ".join(
                f"{_column_name(c)} ({_why(c)})" for c in out)
        flagged = [f"{_column_name(c)}: {_why(c)}" for c in out if c.flag]
        return (f"{counted(len(out), 'column')} left out, not imported: "
                + ", ".join(map(_column_name, out))
                + (f" ({listed} says why each)" if listed else "")
                + "".join(f"; {f}" for f in flagged))

    def guesses(self) -> list[str]:
        """Each column guessed and why (``annotator: Email Address, 3 people,
        ...``), from the mapping's reasons."""
        mapping = self.mapping or ColumnMapping()
        return [f"{f.replace('_', ' ')}: {why}" for f, why in mapping.reasons]

    def of_kind(self, *kinds: str) -> list[Issue]:
        return [i for i in self.issues if i.kind in kinds]

    def to_review(self) -> list[Issue]:
        """The findings a person has to look at: every issue but a label
        read through the rubric the import used (declared, given or a known
        scale guessed), which the report says once ("labels read as grades"),
        not once a row: a clean form export of 40 labelled rows has none."""
        rubric = {label_key(t) for t in self.labels}
        return [i for i in self.issues
                if i.kind != LABEL or label_key(i.value) not in rubric]

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

    def first_rejected(self) -> tuple[int, str, str] | None:
        """The first judgment not imported, as (row, column, why), its
        column the one of the cell that rejected it: its own grade cell, or
        the cell (the query, the source, who judged, the ranking) that
        rejected its whole row, as the report's issue names it."""
        if not self.rejected_judgments:
            return None
        row, column, why = self.rejected_judgments[0]
        cause = next((i.column for i in self.issues
                      if i.row == row and i.problem == why and i.column), column)
        return row, cause, why

    def first_problem(self) -> Issue | None:
        fatal = self.of_kind(*FATAL)
        return min(fatal, key=lambda i: i.row) if fatal else None

    def headline(self) -> str:
        """What was read, imported and rejected, in one sentence."""
        where = self.file + (f", sheet {self.sheet!r}" if self.sheet else "")
        unit, blank, skipped, ungraded, predicted = self._places_counted()
        return (
            f"{where}: "
            + ("one row per respondent (read as one row per respondent and item), "
               if self.per_respondent else f"{self.layout} layout, ")
            + ("each record's fields as columns; " if self.records is not None
               else f"header on rows {self.header_from}-{self.header_row} (read as one); "
               if 0 < self.header_from < self.header_row
               else f"header on row {self.header_row}; " if self.header_row > 0
               else "no header (row 1 is data, columns go by their letters); ") +
            f"{counted(self.judgments_read, 'judgment')} read in {self._rows_said()}: "
            f"{self.judgments_imported} imported{self._marks_said()}, "
            f"{len(self.rejected_judgments)} rejected; "
            + (f"{self._blank_said(unit, ungraded)}"
               + (f", {predicted_rows(predicted, self.predicted_columns)}"
                  if predicted else "")
               + "; "
               if self.blank_grades else "") +
            f"{counted(blank, f'blank {unit}')}"
            + (f" and {counted(skipped, unit)} without a judgment" if skipped else "")
            + " skipped; "
            f"{counted(self.candidates, 'candidate')}"
            + (f", annotators {', '.join(self.annotators)}" if self.annotators else ""))

    def _blank_said(self, unit: str, ungraded: int) -> str:
        """The grade cells left blank and, among them, the rows with no grade
        at all, each row said once (it read "20 grade cells blank, 20 rows
        with no grade at all" of the same 20 rows, as if 40): ``20 grade
        cells blank (no judgment: unknown grades), all of them on the 20
        rows with no grade at all (...)``, or ``5 grade cells blank (...),
        3 of them on the 3 rows with no grade at all (...)``."""
        n = self.blank_grades
        cells = (f"{counted(n, 'grade cell')} blank (no judgment: "
                 f"{'an unknown grade' if n == 1 else 'unknown grades'})")
        if not ungraded:
            return cells
        # (a JSON export's records: the cells counted are its table's rows')
        on = self.blank_on_ungraded if self.records is None else 0
        share = ("on" if n == 1 else "all of them on the") if on == n \
            else f"{on} of them on the" if on else "among them every cell of"
        return f"{cells}, {share} {ungraded_rows(ungraded, unit)}"

    def _places_counted(self) -> tuple[str, int, int, int, int]:
        """The unit the headline counts rows in, and its counts of the blank
        rows, the rows without a judgment skipped, the rows with no grade at
        all and those of them holding a prediction alone: a sheet's rows; a
        JSON export's records or lines, each once, as its rows' best status
        says it (:attr:`row_tally`: a record of an annotation and a model's
        prediction is imported; of two annotations, one cancelled, imported
        too), where the table's rows were counted (a rating each)."""
        tally = self.row_tally
        if self.records is None or tally is None:
            return ("row", self.blank_rows, len(self.skipped_rows), self.rows_ungraded,
                    self.rows_predicted)
        return (self.records.unit, tally.blank, sum(n for _, n in tally.skipped),
                tally.ungraded, self.places_predicted)

    def _marks_said(self) -> str:
        """The judgments imported that are marks read as a grade state, each
        mark as written with its count (`` (2 of them marks read as
        unrateable: 'N/A' 1, 'paywalled' 1)``; "" when none): the wizard's
        Issues list each; the command line's first line said none."""
        said: list[str] = []
        for word, read in MARK_READ.items():
            marks: dict[str, int] = {}
            for issue in self.of_kind(MARK):
                if issue.problem.endswith(read):
                    marks[str(issue.value)] = marks.get(str(issue.value), 0) + 1
            if marks:
                said.append(f"{sum(marks.values())} {'of them marks ' if not said else ''}"
                            f"read as {word}: " + ", ".join(f"{m!r} {n}" for m, n in marks.items()))
        return f" ({'; '.join(said)})" if said else ""

    def _rows_said(self) -> str:
        """The rows read as the user counts them: ``6 rows`` of a sheet, a
        JSON export's ``3 records`` or ``3 lines`` (:attr:`row_tally`, each
        place once; the table's rows are a rating each)."""
        if self.records is None or self.row_tally is None:
            return counted(self.rows_read, "row")
        return counted(self.row_tally.read, self.records.unit)

    def skipped_text(self) -> str:
        """The rows a platform marks as no judgments, skipped, and the flag
        that imports them ("" when none)."""
        if not self.excluded:
            return ""
        kept = [kind for kind in self.excluded if kind not in self.gradeless]
        bare = [kind for kind in self.excluded if kind in self.gradeless]
        return ("rows the platform marks as not judgments, skipped: " + ", ".join(
            f"{n} {kind}" for kind, n in self.excluded.items())
            + (" (pass --keep " + ",".join(kept) + " to import them)" if kept else "")
            + (f" (the {' and '.join(bare)} rows hold no grade in the grade column: "
               "nothing to keep)" if bare else ""))

    def summary(self) -> list[str]:
        """Sentences for people, most important first."""
        lines = [self.headline(), *filter(None, [self.hidden_text(), self.above_text()]),
                 *self.guesses(),
                 *filter(None, [self.skipped_text()])]
        counts: dict[str, int] = {}
        for issue in self.to_review():
            counts[issue.kind] = counts.get(issue.kind, 0) + 1
        if counts:
            lines.append("issues to look at, each listed with its row and column: "
                         + ", ".join(f"{k} {v}" for k, v in counts.items()))
        if self.unmapped_labels:
            lines.append("labels not in the rubric: " + ", ".join(
                f"{k!r} ({v})" for k, v in self.unmapped_labels.items()))
        if self.labels:
            lines.append(f"labels read as grades ({self.scale or 'the rubric'}): " + ", ".join(
                f"{k!r} = {number_text(v)}" for k, v in self.labels.items()))
        lines.extend(f"{self.place(r)} skipped: {why}" for r, why in self.skipped_rows[:20])
        if len(self.skipped_rows) > 20:
            lines.append(f"... and {len(self.skipped_rows) - 20} more rows without a judgment")
        lines.extend(self.notes)
        return lines

    def to_json(self) -> dict[str, Any]:
        """The report as JSON values: what was read and how, every rejected
        judgment with its row, column and reason."""
        mapping = self.mapping or ColumnMapping()
        names = self.column_names
        fields: dict[str, Any] = {f: names.get(getattr(mapping, f))
                                  for f in SINGLE_FIELDS if getattr(mapping, f) is not None}
        if mapping.grades:
            fields["annotators"] = [names.get(c) for c, _ in mapping.grades]
        return {
            "file": self.file, "sheet": self.sheet, "layout": self.layout,
            "header_row": self.header_row, "encoding": self.encoding,
            # (a JSON export's rows below are its lines or its records)
            "rows_are": "rows" if self.records is None else f"{self.records.unit}s",
            "delimiter": self.delimiter, "mapping": fields, "guesses": self.guesses(),
            "annotators": list(self.annotators),
            "ranking": self.ranking or "none: judgments only",
            "rubric": dict(self.labels), "scale": self.scale,
            "alternatives": [{"scale": n, "rubric": t} for n, t in self.alternatives],
            "columns": [c.to_json() for c in self.columns],
            "rows": self.row_tally.to_json() if self.row_tally is not None else None,
            "table_rows": self.table_rows.to_json() if self.table_rows is not None else None,
            "above_header": [a.to_json() for a in self.above],
            # (a JSON export's records or lines, as "rows" counts them; the
            # table's rows are "table_rows")
            "rows_read": self.row_tally.not_skipped() if self.records is not None
            and self.row_tally is not None else self.rows_read,
            "judgments_read": self.judgments_read,
            "imported": self.judgments_imported, "blank_grades": self.blank_grades,
            "rows_predicted": {"rows": self.rows_predicted,
                               "columns": list(self.predicted_columns)},
            "rejected": [{"row": r, "column": c, "reason": why}
                         for r, c, why in self.rejected_judgments],
            "blank_rows": self.blank_rows,
            "skipped": [{"row": r, "reason": why} for r, why in self.skipped_rows],
            "excluded": dict(self.excluded),
            "candidates": self.candidates,
            "unmapped_labels": dict(self.unmapped_labels),
            "issues": [{"kind": i.kind, "row": i.row, "column": i.column,
                        "problem": i.problem, "value": i.value} for i in self.issues],
            "notes": list(self.notes),
            "legend_labels": None if self.vocabulary is None else {
                "labels": list(self.vocabulary.labels), "where": self.vocabulary.where,
                "order": self.vocabulary.order or None},
            "hidden": None if not self.hidden_text() else {
                "rows": self.hidden.rows if self.hidden else [],
                "columns": [column_letters(c) for c in self.hidden.columns] if self.hidden
                else [], "filtered": bool(self.hidden and self.hidden.filtered)},
        }


@dataclass
class ImportResult:
    """The imported document and its report."""

    document: Document
    report: ImportReport


