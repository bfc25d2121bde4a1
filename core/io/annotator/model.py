"""What the annotators' importer reads and is told: the raw :class:`Table`
of a sheet, the :class:`ColumnMapping` (which column holds what) and the
wizard's :class:`SheetPreview`."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from core.io.annotator.positions import RecordPlaces
from core.io.annotator.scales import Vocabulary
from core.io.safety import column_letters
from core.io.safety.hidden import HiddenLines
from core.model.conventions import Rubric
from core.model.grades import UNKNOWN_WORDS, UNRATEABLE_WORDS

#: How the import's messages say what to declare: the command line's flags
#: (``pass --map score=Price``, ``--map grade=none``, ``--order rows``,
#: ``--header-row N``, ``--annotators COL,COL``, ``--rubric "G=LABEL,..."``) and its
#: command for a run. The import wizard finds them by these patterns and says
#: its own controls instead (app/import_wizard/hints.py), so each hint is
#: written once, in the command line's words.
MAP_FLAG = re.compile(r"(?P<pass>pass )?--map (?P<field>\w+)=(?P<ref>[^\s;,()]+)")
ORDER_FLAG = re.compile(r"(?P<pass>pass )?--order rows")
KEEP_FLAG = re.compile(r"pass --keep [\w,-]+")
#: ``pass --names 3=NAME,7=NAME`` (:func:`~core.io.annotator.who.named`).
NAMES_FLAG = re.compile(r"pass (?P<flag>--names \S+)")
HEADER_FLAG = re.compile(r"(?P<pass>pass )?--header-row (?P<row>N|\d+)")
ANNOTATORS_FLAG = re.compile(r"(?P<pass>pass )?--annotators (?P<cols>[^\s;()]+)")
#: ``pass --rubric with the scale ...``, ``pass --rubric "0=no,1=yes" if ...``,
#: ``(e.g. --rubric "0=no,1=yes")``.
RUBRIC_FLAG = re.compile(r'(?P<pass>pass )?--rubric(?: with| "(?P<text>[^"]*)")?')
#: ``pass --unrateable "paywalled,page gone"``: labels read as unrateable
#: marks, beside the default ones (:func:`unrateable_flag`).
UNRATEABLE_FLAG = re.compile(r'(?P<pass>pass )?--unrateable "(?P<marks>[^"]*)"')
#: The grade column taken alone, other columns of grades like it left out
#: (:func:`take_alone`): the guessed column declared as the grade.
TAKE_ALONE = re.compile(r"--map grade=(?P<ref>[^\s;,()]+) to take (?P<what>.+?) alone")
RUN_COMMAND = "`ndcg-worksheet evaluate RUN --qrels QRELS`"
#: A sheet read without the import (``evaluate --qrels SHEET``) takes no
#: ``--map``: the way to declare a column is to import it first.
IMPORT_FIRST = re.compile(r"import it first \(`ndcg-worksheet import SHEET (?P<flag>[^`]+) "
                          r"-o QRELS`\) and give QRELS as the qrels")


def import_first(*flags: str) -> str:
    """How a sheet read without the import is told to declare ``flags``
    (matched by :data:`IMPORT_FIRST`)."""
    return f"import it first (`ndcg-worksheet import SHEET {' '.join(flags)} -o QRELS`) and " \
        "give QRELS as the qrels"


def take_alone(ref: str, what: str) -> str:
    """How the import is told to take grade column ``ref`` (said ``what``)
    alone, other columns of grades left out (matched by :data:`TAKE_ALONE`)."""
    return f"--map grade={ref} to take {what} alone"


def read_marks(text: str) -> tuple[str, ...]:
    """The marks a list of them names, parted by commas, each stripped, none
    blank: the one grammar of the wizard's fields of marks ("Marks read as
    unrateable") and of the command line's ``--unrateable``.

    >>> read_marks(" paywalled, page gone,, ")
    ('paywalled', 'page gone')
    """
    return tuple(m.strip() for m in text.split(",") if m.strip())


def unknown_but_unrateable(unknown: Sequence[str], unrateable: Sequence[str]) -> tuple[str, ...]:
    """The unknown marks less those declared unrateable: a mark in both is
    read unrateable, the user's declaration over the default (``--unrateable
    "?"``, or ``?`` typed into the wizard's "Marks read as unrateable" while
    "Marks read as unknown" still holds it). The one rule of the command
    line and the wizard.

    >>> unknown_but_unrateable(("", "?", "tbd"), ("paywall", " ? "))
    ('', 'tbd')
    """
    said = {m.strip().casefold() for m in unrateable}
    return tuple(m for m in unknown if m.strip().casefold() not in said)


def unrateable_flag(marks: Sequence[str]) -> str:
    """How the import is told to read ``marks`` as unrateable (matched by
    :data:`UNRATEABLE_FLAG`; :func:`read_marks` reads them back)."""
    return f'--unrateable "{",".join(marks)}"'


def pass_flags(*flags: str) -> str:
    """How the import's command line is told to declare ``flags``."""
    return "pass " + " with ".join(flags)

__all__ = [
    "BATCH_OR_GRADES",
    "BLOCKS_HINT",
    "LABELS_OR_GRADES",
    "SINGLE_FIELDS",
    "UNKNOWN_MARKS",
    "UNRATEABLE_MARKS",
    "ColumnMapping",
    "Origin",
    "SheetPreview",
    "Table",
    "cell_text",
    "column_ref",
    "titled_blocks",
]

#: Marks that mean "not graded yet" (unknown) by default: the grade
#: grammar's words (:data:`core.model.grades.UNKNOWN_WORDS`) and a blank cell.
UNKNOWN_MARKS: tuple[str, ...] = ("", *sorted(UNKNOWN_WORDS))
#: Marks that mean "looked at, could not be graded" (unrateable) by default,
#: the grammar's words; the mark itself is kept as the reason.
UNRATEABLE_MARKS: tuple[str, ...] = tuple(sorted(UNRATEABLE_WORDS))
#: What a column of one value over each query's rows counting up down the
#: sheet (1, 1, 2, 2, 3, 3) may be, alone: nothing in its values tells.
BATCH_OR_GRADES = "a batch's number, or grades the same for all of a query's documents"
#: What each of several columns of a few labels is, where no column holds
#: grades (``verdict`` of relevant / partly / not beside ``device``): nothing
#: tells which holds them.
LABELS_OR_GRADES = "a few labels repeated, varying within a query as grades do"
#: Why a grade column combined from several (``Final grade``, the
#: consensus this tool wrote) is left out by the guess, and why when the
#: user left it out (``--map grade=none``, the wizard's tick box).
COMBINED = "a grade combined from several, not imported (the consensus is computed from the " \
    "annotators' own)"
#: Why a gold column (Mechanical Turk's ``Input.gold``) is left out: the
#: known answer a task is given to check its workers, no annotator's grade
#: and no consensus of theirs.
GOLD = "a known answer given with the task (gold, to check the workers), not a grade of " \
    "this sheet's annotators; not imported"
#: Why a model's answer given with the task (Label Studio's
#: ``predictions.result.value.choices``) is left out: a pre-annotation.
PREDICTED = "a model's answer given with the task (a prediction, to pre-annotate it), not a " \
    "grade of this sheet's annotators; not imported"
LEFT_OUT_AS_DECLARED = "left out as declared (--map grade=none), not imported: the consensus " \
    "is computed from the annotators' own grades"
SINGLE_FIELDS = ("query", "source_id", "grade", "score", "rank", "annotator", "version",
                 "note", "reason", "status", "query_text")


def cell_text(value: Any) -> str:
    """A cell as text: empty for None, whole floats without ``.0``."""
    if value is None:
        return ""
    if isinstance(value, float):
        if value.is_integer() and abs(value) < 2**53:
            return str(int(value))
        return repr(value)
    return str(value)


@dataclass(frozen=True)
class ColumnMapping:
    """Which column holds what (0-based column indices; None = absent).

    A long layout sets ``grade`` (and optionally ``annotator``); a wide one
    sets ``grades``, one (column, annotator name) pair per annotator.
    ``header_row`` is the 0-based row index of the header; data follow it
    (-1: the sheet has no header, its columns go by their letters).
    ``unknown_marks`` and ``unrateable_marks`` declare which texts in a
    grade cell mean which state (compared case-insensitively). ``status``
    is a crowd-work assignment's status (Mechanical Turk's
    ``AssignmentStatus``): a row whose status is ``Rejected`` (or a preview)
    is skipped unless its kind is kept, as are the rows ``flags`` mark.
    """

    header_row: int = 0
    query: int | None = None
    source_id: int | None = None
    grade: int | None = None
    grades: tuple[tuple[int, str], ...] = ()
    score: int | None = None
    rank: int | None = None
    annotator: int | None = None
    version: int | None = None
    note: int | None = None
    reason: int | None = None
    status: int | None = None
    #: The query's text beside its id ("how do I renew a passport" beside
    #: ``q017``): shown with the id, never part of the numbers.
    query_text: int | None = None
    unknown_marks: tuple[str, ...] = UNKNOWN_MARKS
    unrateable_marks: tuple[str, ...] = UNRATEABLE_MARKS
    #: The row order is a ranking (the user said so): without a score or
    #: rank column, score = -row number. Otherwise such a sheet holds
    #: judgments only and its scores are left empty.
    rows_ranked: bool = False
    #: Columns marking rows that are not judgments (control tasks, tainted
    #: work, ...): (column, kind, test), see :mod:`~core.io.annotator.platform`.
    flags: tuple[tuple[int, str, str], ...] = ()
    #: The kinds of marked rows imported all the same (``control``,
    #: ``rejected``, ``preview``, ``cancelled``); by default none.
    keep: tuple[str, ...] = ()
    #: Who judged, named at the import (``--names 7=ana@lab.example``): (the
    #: name read, the name given) pairs; see :func:`~core.io.annotator.who.named`.
    names: tuple[tuple[str, str], ...] = ()
    #: Why each column was guessed: (field, reason) pairs, for the report and
    #: the wizard (``("annotator", "Email Address, 3 people, ...")``); a
    #: column left out says so under ``"ignored"``. Not part of the mapping's
    #: identity.
    reasons: tuple[tuple[str, str], ...] = field(default=(), compare=False)
    #: The columns the guess left out: (column, why, the flag that would use
    #: it or ""), for the report's accounting of every column. Not part of
    #: the mapping's identity.
    left_out: tuple[tuple[int, str, str], ...] = field(default=(), compare=False)
    #: Columns read into another (column, the column it was read into): a
    #: radio button's choices a column each, read as one grade column
    #: (:mod:`~core.io.annotator.onehot`). Used, never left out; not part
    #: of the mapping's identity.
    read_into: tuple[tuple[int, int], ...] = field(default=(), compare=False)
    #: The fields the user declared (``--map``, ``--annotators`` as
    #: ``grade``, the wizard's choices): taken as said, where a guess must
    #: show its evidence (see :mod:`~core.io.annotator.evidence`).
    declared: tuple[str, ...] = field(default=(), compare=False)

    def grade_columns(self) -> list[int]:
        """The columns grades are read from: a long layout's ``grade``, a
        wide one's annotators' columns."""
        return [self.grade] if self.grade is not None else [c for c, _ in self.grades]

    def one_annotator(self) -> bool:
        """Whether every row is the file's one annotator's: a long layout
        with no column naming who judged (its rows have one author, named
        by no cell)."""
        return self.layout == "long" and self.annotator is None

    def why(self, name: str) -> str:
        """Why ``name``'s column was guessed ("" when it was not, or was chosen)."""
        return next((why for f, why in self.reasons if f == name), "")

    def ranking_not_grade(self, header: Sequence[str], say: Callable[..., str] = pass_flags
                          ) -> tuple[str, str] | None:
        """What a sheet without a grade column holds instead, when a ranking
        is among its columns: (what the column is, what to do). A column left out as
        counting each query's sources (its flag ``--map rank=``: values never
        make a rank the grade) or one named as the rank; a column left out as
        :data:`BATCH_OR_GRADES`; None otherwise. ``say`` words the flags to
        pass: :func:`pass_flags` for the import, :func:`import_first` for a
        sheet read without it (``evaluate --qrels SHEET`` takes no ``--map``)."""
        counts = [c for c, _, flag in self.left_out if flag.startswith("--map rank=")
                  and c != self.rank]
        if len(counts) > 1:
            return self._counts_or_grades(header, counts, say)
        counted = counts[0] if counts else None
        col = counted if counted is not None else self.rank
        if col is None:
            return self._batch_or_grades(header, say) or self._labels_or_grades(header, say)
        letter, ref = column_letters(col + 1), _ref(header, col)
        run = f"a run is read by {RUN_COMMAND}"
        if counted is None:
            return (f"{ref} is the rank, a ranking, not a grade",
                    f"{run}; to import judgments from the column of grades, "
                    + say("--map grade=COLUMN"))
        return (f"column {ref} counts 1, 2, 3, … within each query, like a rank, not a grade",
                f"{run}; to import it as the ranking of graded judgments, "
                f"{say(f'--map rank={letter}', '--map grade=COLUMN')}; if it does hold grades, "
                + say(f"--map grade={letter}"))

    def _counts_or_grades(self, header: Sequence[str], cols: list[int],
                          say: Callable[..., str]) -> tuple[str, str]:
        """Several columns each counting 1, 2, 3, … within each query: ranks,
        or annotators' grades of a few small queries (2- and 3-row queries
        count so by chance as often as not): none is dropped on a guess."""
        letters = [column_letters(c + 1) for c in cols]
        ranking = "" if self.rank is not None or self.score is not None else (
            f"; if {_ref(header, cols[0])} is the ranking, "
            + say(f"--map rank={letters[0]}", f"--map grade={letters[1]}"))
        return (f"columns {' and '.join(_ref(header, c) for c in cols)} each count 1, 2, 3, … "
                "within each query, as a rank does and as grades of a few small queries may",
                f"if each holds one annotator's grades, {say('--annotators ' + ','.join(letters))}"
                + ranking)

    def _batch_or_grades(self, header: Sequence[str], say: Callable[..., str]
                         ) -> tuple[str, str] | None:
        col = next((c for c, why, _ in self.left_out if BATCH_OR_GRADES in why), None)
        if col is None:
            return None
        letter = column_letters(col + 1)
        return (f"column {_ref(header, col)} holds one value over each query's rows, counting "
                f"up down the sheet: {BATCH_OR_GRADES}",
                f"if they are grades, {say(f'--map grade={letter}')}; if another column holds "
                f"them, {say('--map grade=COLUMN')}")

    def _labels_or_grades(self, header: Sequence[str], say: Callable[..., str]
                          ) -> tuple[str, str] | None:
        cols = [c for c, why, _ in self.left_out if LABELS_OR_GRADES in why]
        if not cols:
            return None
        return (f"columns {' and '.join(_ref(header, c) for c in cols)} each hold "
                f"{LABELS_OR_GRADES}, so none was taken for the grades",
                f"if one holds them, {say(f'--map grade={column_letters(cols[0] + 1)}')} "
                "and --rubric giving each label its grade")

    @property
    def layout(self) -> str:
        """``"wide"`` when grades come from one column per annotator, else ``"long"``."""
        return "wide" if self.grades else "long"

    def replace(self, **changes: Any) -> ColumnMapping:
        return replace(self, **changes)

    def grade_left_out(self) -> ColumnMapping:
        """The mapping with the grade column declared left out (``--map
        grade=none``, the wizard's 'Leave E: grade out'): a column the guess
        left out as a combined grade says the user's reason, not the guess's."""
        def said(why: str) -> str:
            return why.replace(COMBINED, LEFT_OUT_AS_DECLARED)
        return replace(self, declared=tuple(dict.fromkeys((*self.declared, "grade"))),
                       left_out=tuple((c, said(why), flag) for c, why, flag in self.left_out),
                       reasons=tuple((f, said(why)) for f, why in self.reasons))

    def sources(self) -> list[tuple[int, str]]:
        """The grade columns with their annotators' names (a long layout's
        one grade column has the name ``""``)."""
        if self.layout == "long":
            return [(self.grade, "")] if self.grade is not None else []
        return list(self.grades)

    def sources_header(self, header: Sequence[str]) -> str:
        """The grade columns' headers, where a header may list the scale's
        levels (:func:`core.io.annotator.scales.named_scale` reads them)."""
        return " | ".join(str(header[c]) for c, _ in self.sources() if c < len(header))

    def used_columns(self) -> dict[int, str]:
        """Column index -> the field it feeds."""
        out = {getattr(self, f): f for f in SINGLE_FIELDS if getattr(self, f) is not None}
        out.update({c: f"grade ({who})" for c, who in self.grades})
        out.update({c: f"skip ({kind})" for c, kind, _ in self.flags if c not in out})
        return out


def _ref(header: Sequence[str], col: int) -> str:
    """A column as a refusal names it: its letter and header, the letter
    alone when a headerless file's first row stands for its header (a
    number names nothing)."""
    name = header[col].strip() if col < len(header) else ""
    return column_ref(col, "" if name.replace(".", "", 1).isdigit() else name)


def column_ref(c: int, header: str) -> str:
    """Column ``c`` (0-based) as messages name it: its letter and, when it
    has one, its header (``B (Doc URL)``; ``C``)."""
    letter = column_letters(c + 1)
    return f"{letter} ({header})" if header else letter


@dataclass(frozen=True)
class Origin:
    """Where the cells of a reshaped table (a transposed sheet turned into one
    row per respondent and item) were in the file, so that what the import
    says names the file's own row and column.

    ``rows[i]``: the file row (0-based) of table row ``i``; ``items[i]``: the
    file column of its item (the grade's cell; -1 for the header);
    ``columns[j]``: the file column of table column ``j`` (-1 for the
    columns read from the item's header: query, source, grade);
    ``header``: the file's header cells; ``header_row``: its row (0-based);
    ``per_row``: the table rows each respondent's row became (its items).
    """

    rows: list[int]
    items: list[int]
    columns: list[int]
    header: list[str]
    header_row: int
    per_row: int

    def cell(self, r: int, c: int | None) -> tuple[int, int]:
        """The file's (row, column), 0-based, of table cell (``r``, ``c``)
        (``c`` None: the row's item cell)."""
        col = self.columns[c] if c is not None and 0 <= c < len(self.columns) else -1
        return self.rows[r], col if col >= 0 else self.items[r]

    def letters(self) -> list[str]:
        """Each table column's letter in the file: its own; the items'
        first to last for the grade (read from their cells); ``""`` for the
        query and the source (read from the items' headers)."""
        items = [c for c in self.items if c >= 0]
        span = (f"{column_letters(min(items) + 1)}\u2013{column_letters(max(items) + 1)}"
                if items else "")
        last = len(self.columns) - 1
        return [column_letters(c + 1) if c >= 0 else span if j == last else ""
                for j, c in enumerate(self.columns)]

    def column_name(self, c: int) -> str:
        """File column ``c`` as the report names it: its letter and header."""
        return column_ref(c, self.header[c] if 0 <= c < len(self.header) else "")


@dataclass
class Table:
    """Raw cells of one sheet or text file, as read (nothing interpreted)."""

    file: str
    rows: list[list[Any]]
    sheet: str | None = None
    sheets: list[str] = field(default_factory=list)
    #: Formula cells: (0-based row, 0-based column, formula text).
    formulas: list[tuple[int, int, str]] = field(default_factory=list)
    #: Error values without a formula (#DIV/0!, #N/A, ...), which readers
    #: give as empty cells: (0-based row, 0-based column, the error).
    errors: list[tuple[int, int, str]] = field(default_factory=list)
    encoding: str | None = None
    delimiter: str | None = None
    #: Every row has the same length (calamine's rows do).
    rectangular: bool = False
    #: What reading did to the cells, for the report (merged cells filled down).
    notes: list[str] = field(default_factory=list)
    #: Where a reshaped table's cells were in the file (None: they are where
    #: they were).
    origin: Origin | None = None
    #: The rows and columns the sheet hides (read all the same; a workbook's).
    hidden: HiddenLines | None = None
    #: Columns emptied by reading (:mod:`~core.io.annotator.onehot`): column
    #: -> (the column it was read into, a radio button's choices a column
    #: each read as one; None for a checkbox beside them, left out) and why,
    #: for the report.
    merged: dict[int, tuple[int | None, str]] = field(default_factory=dict)
    #: Legends of labels the file's records list (Prodigy's ``options``).
    listed: tuple[Vocabulary, ...] = ()
    #: A JSON export's: each row's line or record in the file (None: a
    #: sheet, its rows the file's).
    records: RecordPlaces | None = None
    #: A JSON export's columns of a model's work, by their prefix, read from
    #: the records' shape (Label Studio's ``predictions``, Argilla's
    #: ``relevance.suggestion``: :func:`~core.io.annotator.records.model_groups`).
    models: tuple[str, ...] = ()
    #: A header written over rows ``first``-``last`` (0-based), read as one
    #: into the last (:mod:`~core.io.annotator.header_rows`); None: one row.
    header_span: tuple[int, int] | None = None
    #: Why the rows below the header cannot be read as one header with it
    #: (two columns joined to one name): the guess refuses with it.
    header_clash: Exception | None = None

    def model_group(self, header: str) -> str | None:
        """The group of a model's work (:attr:`models`) the column ``header``
        is a field of, told by the records' shape; None for none."""
        return next((m for m in self.models if header == m or header.startswith(f"{m}.")), None)

    def modelled(self, header: str) -> bool:
        """Whether the column ``header`` is a field of a model's work
        (:attr:`models`), told by the records' shape."""
        return self.model_group(header) is not None

    def place(self, row: int, *, lines: bool = False) -> str:
        """1-based table row ``row`` as a message names it, asked where the
        message is made: ``row 7``; a JSON export's line or record (``line
        7``, ``record 3 (id 812)``: :attr:`records`); a reshaped sheet's
        respondent row in the file (:attr:`origin`); a text file's ``line
        7`` where the message counts its lines (``lines``)."""
        if self.records is not None:
            return self.records.place(self.records.of(row))
        return f"{'line' if lines and self.sheet is None else 'row'} {self.file_row(row)}"

    def file_row(self, row: int) -> int:
        """The file's 1-based row of 1-based table row ``row``: a reshaped
        sheet's respondent row (:attr:`origin`), else ``row`` itself."""
        origin = self.origin
        return origin.rows[row - 1] + 1 if origin is not None and 0 < row <= len(origin.rows) \
            else row

    def cell_ref(self, r: int, c: int) -> str:
        """0-based table cell (``r``, ``c``) as a message names it: ``cell
        B3``, a reshaped sheet's the file's own cell (:attr:`origin`)."""
        if self.origin is not None and 0 <= r < len(self.origin.rows):
            r, c = self.origin.cell(r, c)
        return f"cell {column_letters(c + 1)}{r + 1}"

    def places(self, rows: Sequence[int], *, most: int | None = None,
               last: str = ", ") -> str:
        """1-based table rows ``rows`` as a message names them: ``row 4``,
        ``rows 14, 18``; a JSON export's ``lines 5, 9`` or ``records 3 (id
        17), 5``, the rows of one record said once (a reshaped sheet's
        respondent rows, each once). Past ``most`` places,
        ``and N more``; ``last`` joins the last two (``rows 3 and 5``)."""
        records = self.records
        at = list(dict.fromkeys(map(self.file_row, rows) if records is None else
                                [a for a in map(records.of, rows) if a]))
        shown = at[:most] if most is not None else at
        more = f" and {len(at) - len(shown)} more" if len(at) > len(shown) else ""
        if records is not None:
            return records.places(shown, last=last) + more
        said = [str(r) for r in shown]
        return (f"row {said[0]}" if len(said) == 1 else
                "rows " + last.join([", ".join(said[:-1]), said[-1]])) + more

    def unnamed(self) -> str:
        """A headerless table's columns as messages list them: ``the columns
        A, B, C (no header: row 1 is data)``."""
        width = max((len(r) for r in self.rows[:50]), default=0)
        letters = ", ".join(column_letters(c + 1) for c in range(width)) or "none"
        return f"the columns {letters} (no header: row 1 is data)"

    def header(self, mapping: ColumnMapping) -> list[str]:
        if 0 <= mapping.header_row < len(self.rows):
            return [cell_text(c) for c in self.rows[mapping.header_row]]
        return []


@dataclass(frozen=True)
class SheetPreview:
    """What the wizard shows before importing."""

    file: str
    sheets: list[str]
    sheet: str | None
    header_row: int
    header: list[str]
    rows: list[list[str]]
    mapping: ColumnMapping
    encoding: str | None
    delimiter: str | None
    n_rows: int
    #: The grade columns' labels (text -> cells holding it) and how they
    #: read: label -> grade, those no rule reads, the rubric they imply.
    labels: dict[str, int] = field(default_factory=dict)
    label_grades: dict[str, float] = field(default_factory=dict)
    unmapped: dict[str, int] = field(default_factory=dict)
    rubric: Rubric | None = None
    scale: str = ""
    #: Rows the platform marks as not judgments: kind -> rows (skipped
    #: unless the mapping keeps the kind).
    marked: dict[str, int] = field(default_factory=dict)
    #: Known scales the labels fit equally well, read otherwise: (name,
    #: rubric), the one proposed first; empty when one scale fits best.
    alternatives: list[tuple[str, Rubric]] = field(default_factory=list)
    #: The file's own row (1-based) of each of ``rows``, as the issues name
    #: them (the row below the header is 2 on a sheet whose header is row 1).
    row_numbers: list[int] = field(default_factory=list)
    #: A reshaped sheet's (one row per respondent, :class:`Origin`): each
    #: column's letter in the file (:meth:`Origin.letters`), and the
    #: judgments its ``n_rows`` respondents' rows became; empty and 0 for a
    #: sheet read as it is.
    letters: list[str] = field(default_factory=list)
    judgments: int = 0
    #: The sheet's legend of labels without grades (the labels the grades
    #: may take; its stated order a proposal the user confirms), or None.
    vocabulary: Vocabulary | None = None
    #: Why the sheet's legends give no scale (several listing different
    #: grades: each named, and what to do), or "".
    legend_note: str = ""
    #: Why the sheet cannot be imported as read, said where it is first
    #: seen (a sheet of titled blocks, its header written again under each
    #: title: :func:`titled_blocks`), or "": the wizard goes no further.
    refusal: str = ""


#: What to do with a sheet of titled blocks (:func:`titled_blocks`).
BLOCKS_HINT = ("stack the blocks under one header row, with a column that names each row's "
               "query, and import that")


def titled_blocks(table: Table, header_row: int, header: Sequence[str]) -> str | None:
    """Why a sheet of blocks (a query's rows under a title row, ``Query:
    vpn drops``, and a header row of their own, the blocks apart by blank
    rows) has no query column: its header row is written again below
    (was: read as one row per respondent, "the headers do not say which
    query and source each item is"; the import wizard said "no query
    column found"). None when the header is not repeated."""
    def words(row: Sequence[object]) -> list[str]:
        return [cell_text(v).strip().casefold() for v in row][:len(header)]

    want = words(header)
    if header_row < 0 or sum(1 for w in want if w) < 2:
        return None
    again = [i for i in range(header_row + 1, len(table.rows))
             if words(table.rows[i]) + [""] * (len(want) - len(words(table.rows[i]))) == want]
    if not again:
        return None
    row = "row" if table.sheet else "line"
    title = ""
    above = [cell_text(v).strip() for v in table.rows[header_row - 1]] if header_row else []
    if sum(1 for t in above if t) == 1:
        title = (f", each under a title row ({next(t for t in above if t)!r} on {row} "
                 f"{header_row})")
    rows = ", ".join(str(i + 1) for i in again[:3]) + (", ..." if len(again) > 3 else "")
    return (f"the header on {row} {header_row + 1} is written again on {row}"
            f"{'s' if len(again) > 1 else ''} {rows}: the sheet is blocks of rows{title}, "
            "and no column says each row's query")
