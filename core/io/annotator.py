"""Import annotators' spreadsheets (.xlsx, .csv, .tsv) as a :class:`Document`.

The layouts understood:

- long: one row per judgment, with or without an annotator column;
- wide: one grade column per annotator (``grade_alice``, ``rating bob``).

Headers are detected from common names; the detected :class:`ColumnMapping`
can be corrected and passed back. Every row that is not imported, and every
value that was changed in meaning (a text label, a mark such as ``n/a``), is
named in the :class:`ImportReport` with its row and column: nothing is
silently dropped. Formulas in data cells are never evaluated; they are
rejected with their cell.

The functions form the API of the import wizard::

    p = preview(path)                        # sheets, header row, first rows
    mapping = p.mapping                      # detected; the user may correct it
    result = import_annotations(path, mapping, rubric=..., consensus="median")
    result.document, result.report
"""

from __future__ import annotations

import csv
import gc
import io
import itertools
import math
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from itertools import repeat
from operator import itemgetter, ne
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from core.analysis.consensus import consensus as combine
from core.errors import InputError
from core.io.headers import ALIASES, field_of, normalize, sniff_delimiter
from core.io.safety import check_xlsx, column_letters, find_formulas
from core.model.conventions import ConsensusRule, Conventions, Rounding, Rubric
from core.model.document import Document, GradeState

__all__ = [
    "ALIASES",
    "UNKNOWN_MARKS",
    "UNRATEABLE_MARKS",
    "ColumnMapping",
    "ImportReport",
    "ImportResult",
    "Issue",
    "SheetPreview",
    "Table",
    "detect_mapping",
    "import_annotations",
    "import_table",
    "preview",
    "read_table",
]

#: Marks that mean "not graded yet" (unknown) by default.
UNKNOWN_MARKS: tuple[str, ...] = ("", "?", "unknown", "tbd", "todo")
#: Marks that mean "looked at, could not be graded" (unrateable) by default;
#: the mark itself is kept as the reason.
UNRATEABLE_MARKS: tuple[str, ...] = (
    "n/a", "na", "-", "skip", "skipped", "unrateable", "cannot judge", "can't judge",
)
SINGLE_FIELDS = ("query", "source_id", "grade", "score", "rank", "annotator", "version",
                 "note", "reason")
MAX_TEXT_BYTES = 2 * 1024**3
#: Header names a missing column's message suggests.
_EXAMPLES = {"query": "query/qid/query_id/topic", "source_id": "doc/docid/doc_id/document"}
_HEADER_SCAN = 20
_PREVIEW_ROWS = 20


# -- the mapping ---------------------------------------------------------------------------
@dataclass(frozen=True)
class ColumnMapping:
    """Which column holds what (0-based column indices; None = absent).

    A long layout sets ``grade`` (and optionally ``annotator``); a wide one
    sets ``grades``, one (column, annotator name) pair per annotator.
    ``header_row`` is the 0-based row index of the header; data follow it.
    ``unknown_marks`` and ``unrateable_marks`` declare which texts in a
    grade cell mean which state (compared case-insensitively).
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
    unknown_marks: tuple[str, ...] = UNKNOWN_MARKS
    unrateable_marks: tuple[str, ...] = UNRATEABLE_MARKS

    @property
    def layout(self) -> str:
        """``"wide"`` when grades come from one column per annotator, else ``"long"``."""
        return "wide" if self.grades else "long"

    def replace(self, **changes: Any) -> ColumnMapping:
        return replace(self, **changes)

    def used_columns(self) -> dict[int, str]:
        """Column index -> the field it feeds."""
        out = {getattr(self, f): f for f in SINGLE_FIELDS if getattr(self, f) is not None}
        out.update({c: f"grade ({who})" for c, who in self.grades})
        return out


@dataclass
class Table:
    """Raw cells of one sheet or text file, as read (nothing interpreted)."""

    file: str
    rows: list[list[Any]]
    sheet: str | None = None
    sheets: list[str] = field(default_factory=list)
    #: Formula cells: (0-based row, 0-based column, formula text).
    formulas: list[tuple[int, int, str]] = field(default_factory=list)
    encoding: str | None = None
    delimiter: str | None = None
    #: Every row has the same length (calamine's rows do).
    rectangular: bool = False

    def header(self, mapping: ColumnMapping) -> list[str]:
        if mapping.header_row < len(self.rows):
            return [_text(c) for c in self.rows[mapping.header_row]]
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
_FATAL = (ROW_REJECTED, CELL_REJECTED, FORMULA, DUPLICATE, CONFLICT)


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
        return not self.of_kind(*_FATAL)

    def first_problem(self) -> Issue | None:
        fatal = self.of_kind(*_FATAL)
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


# -- reading raw tables ----------------------------------------------------------------
def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        if value.is_integer() and abs(value) < 2**53:
            return str(int(value))
        return repr(value)
    return str(value)


def _decode(raw: bytes, name: str) -> tuple[str, str]:
    if raw.startswith(b"\xef\xbb\xbf"):
        try:
            return raw[3:].decode("utf-8"), "utf-8-sig"
        except UnicodeDecodeError as exc:
            raise InputError(f"the file starts like UTF-8 but is not ({exc.reason} at byte "
                             f"{exc.start})", file=name) from exc
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return raw.decode("utf-16"), "utf-16"
        except UnicodeDecodeError as exc:
            raise InputError("the file starts like UTF-16 but is not", file=name) from exc
    if b"\x00" in raw[:65536]:
        raise InputError("the file is binary, not text (it holds NUL bytes)", file=name,
                         hint="name a CSV, TSV or .xlsx file")
    try:
        return raw.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    try:
        text = raw.decode("cp1252")
    except UnicodeDecodeError as exc:
        raise InputError(
            "the file is binary, not text (neither UTF-8 nor Windows-1252)", file=name,
            hint="name a CSV, TSV or .xlsx file",
        ) from exc
    controls = sum(1 for ch in text[:65536] if ord(ch) < 32 and ch not in "\t\r\n")
    if controls > max(2, len(text[:65536]) // 100):
        raise InputError("the file is binary, not text", file=name,
                         hint="name a CSV, TSV or .xlsx file")
    return text, "cp1252"


def _read_text_table(path: Path) -> Table:
    name = str(path)
    try:
        if path.stat().st_size > MAX_TEXT_BYTES:
            raise InputError("the file is larger than 2 GiB", file=name)
        raw = path.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read the file: {exc.strerror or exc}", file=name) from exc
    if not raw.strip():
        raise InputError("the file is empty", file=name, hint="add a header line and rows")
    if raw.startswith((b"PK\x03\x04", b"\xd0\xcf\x11\xe0")):
        raise InputError("this is a workbook, not a text file", file=name,
                         hint="give it the .xlsx extension")
    text, encoding = _decode(raw, name)
    delim = sniff_delimiter(text, path)
    try:
        rows = list(csv.reader(io.StringIO(text, newline=""), delimiter=delim))
    except csv.Error as exc:
        raise InputError(f"the text cannot be split into fields ({exc})", file=name) from exc
    return Table(file=name, rows=rows, encoding=encoding, delimiter=delim)


def _read_xlsx_table(path: Path, sheet: str | None) -> Table:
    name = str(path)
    check = check_xlsx(path)
    if sheet is None:
        sheet = check.sheets[0]
    elif sheet not in check.parts:
        raise InputError(f"there is no sheet {sheet!r}", file=name,
                         hint="sheets: " + ", ".join(check.sheets))
    import python_calamine

    try:
        with python_calamine.CalamineWorkbook.from_path(name) as book:
            found = book.get_sheet_by_name(sheet)
            # Rows must keep their sheet positions; when the used area starts
            # at A1 (the usual case) nothing is skipped and the faster
            # default gives the very same rows.
            rows = found.to_python(skip_empty_area=found.start not in ((0, 0), None))
    except Exception as exc:  # calamine's own error classes vary by version
        raise InputError(
            f"the sheet cannot be read ({type(exc).__name__}: {exc})", file=name, sheet=sheet,
            hint="open it in Excel or LibreOffice and save it again",
        ) from exc
    formulas: list[tuple[int, int, str]] = []
    if sheet in check.with_formulas:
        for ref, text in find_formulas(path, check.parts[sheet]):
            m = re.match(r"([A-Z]+)(\d+)$", ref)
            if m:
                col = 0
                for ch in m.group(1):
                    col = col * 26 + ord(ch) - 64
                formulas.append((int(m.group(2)) - 1, col - 1, text))
    if type(rows) is not list or (rows and type(rows[0]) is not list):
        rows = [list(r) for r in rows]  # calamine gives lists of lists; nothing to copy
    return Table(file=name, rows=rows, sheet=sheet, sheets=check.sheets,
                 formulas=formulas, rectangular=True)


def read_table(path: str | Path, *, sheet: str | None = None) -> Table:
    """Read the raw cells of a .xlsx sheet (first by default), .csv or .tsv.

    A workbook passes :func:`core.io.safety.check_xlsx` first; its formula
    cells are listed, never evaluated. Text files: UTF-8 (with or without
    BOM), UTF-16 with BOM, or Windows-1252; delimiter detected.
    """
    path = Path(path)
    if not path.exists():
        raise InputError("no such file", file=str(path), hint="check the path")
    if path.is_dir():
        raise InputError("this is a folder, not a file", file=str(path))
    suffix = path.suffix.lower()
    if suffix in (".xlsx", ".xlsm"):
        return _read_xlsx_table(path, sheet)
    if suffix == ".xls":
        raise InputError("old .xls workbooks are not supported", file=str(path),
                         hint="save it as .xlsx in Excel or LibreOffice")
    return _read_text_table(path)


# -- detection ----------------------------------------------------------------------------
def _wide_annotator(header: str) -> str | None:
    """``grade_alice`` / ``alice grade`` / ``rating (bob)`` -> the annotator's name."""
    key = normalize(re.sub(r"[()\[\]:]", " ", header))
    for alias in ALIASES["grade"]:
        for pattern in (rf"^{alias}_(.+)$", rf"^(.+)_{alias}$"):
            m = re.match(pattern, key)
            if m and m.group(1) not in ALIASES["grade"]:
                start = header.lower().find(m.group(1).split("_")[0])
                raw = header[start:start + len(m.group(1))] if start >= 0 else m.group(1)
                return raw.strip(" _-:()[]") or m.group(1)
    return None


def _score_header(row: Sequence[Any]) -> int:
    return sum(1 for c in row if isinstance(c, str) and (field_of(c) or _wide_annotator(c)))


def detect_mapping(table: Table) -> ColumnMapping:
    """Guess the header row and which column holds what.

    The header is the first of the first 20 rows with the most recognised
    names. A column named like ``grade``/``label``/``rating``/``relevance``
    gives a long layout; several named ``grade_<annotator>`` (or
    ``<annotator> rating``) give a wide one.
    """
    best_row, best = 0, 0
    for i, row in enumerate(table.rows[:_HEADER_SCAN]):
        score = _score_header(row)
        if score > best:
            best_row, best = i, score
    header = [_text(c) for c in table.rows[best_row]] if table.rows else []
    found: dict[str, int] = {}
    wide: list[tuple[int, str]] = []
    for col, name in enumerate(header):
        f = field_of(name)
        if f is not None and f not in found:
            found[f] = col
        elif f is None:
            who = _wide_annotator(name)
            if who is not None:
                wide.append((col, who))
    if "grade" in found and wide:
        # An exact "grade" column wins; per-annotator columns stay unmapped
        # unless the user maps them.
        wide = []
    mapping = ColumnMapping(header_row=best_row, grades=tuple(wide))
    fields: dict[str, Any] = {k: v for k, v in found.items() if k in SINGLE_FIELDS}
    return replace(mapping, **fields)


def preview(path: str | Path, *, sheet: str | None = None,
            mapping: ColumnMapping | None = None) -> SheetPreview:
    """Sheets, the detected header row, the first rows and the mapping."""
    table = read_table(path, sheet=sheet)
    mapping = mapping or detect_mapping(table)
    start = mapping.header_row + 1
    return SheetPreview(
        file=table.file, sheets=table.sheets, sheet=table.sheet, header_row=mapping.header_row,
        header=table.header(mapping),
        rows=[[_text(c) for c in r] for r in table.rows[start:start + _PREVIEW_ROWS]],
        mapping=mapping, encoding=table.encoding, delimiter=table.delimiter,
        n_rows=max(0, len(table.rows) - start),
    )


# -- interpreting cells ---------------------------------------------------------------------
def _filled(raw: Sequence[Any], *cols: int | None) -> bool:
    """Whether the key cells hold something (then the row is not blank)."""
    for c in cols:
        if c is None or c >= len(raw):
            return False
        v = raw[c]
        if v is None or (isinstance(v, str) and not v.strip()):
            return False
    return True


class _Reject(Exception):
    pass


def _number(value: Any) -> float:
    if isinstance(value, bool):
        raise _Reject(f"{value!r} is a true/false value, not a number")
    if isinstance(value, (int, float)):
        x = float(value)
    else:
        text = str(value).strip()
        try:
            x = float(text.replace(",", ".")) if text.count(",") == 1 and "." not in text \
                else float(text)
        except ValueError:
            raise _Reject(f"{text!r} is not a number") from None
    if not math.isfinite(x):
        raise _Reject(f"{_text(value)!r} is not a finite number (NaN or infinite)")
    return x


@dataclass
class _Grade:
    value: float = math.nan
    state: GradeState = GradeState.UNKNOWN
    reason: str = ""


#: Grade columns with at most this many distinct values are read value by value.
_FEW_VALUES = 2000
_PLAIN_NUMBER = re.compile(r"^[\s+\-\d.,eE]+$")


@dataclass(frozen=True)
class _Cell:
    """How one grade cell's value reads: its grade (None: not imported) and
    the report's findings about it as (kind, problem, value shown)."""

    grade: _Grade | None
    issues: tuple[tuple[str, str, str], ...] = ()
    unmapped: str | None = None

    @property
    def value(self) -> float:
        return math.nan if self.grade is None else float(self.grade.value)

    @property
    def state(self) -> int:
        return int(GradeState.UNKNOWN if self.grade is None else self.grade.state)

    @property
    def wordy(self) -> bool:
        """Whether the report or the reasons need this cell's row."""
        return bool(self.issues) or self.unmapped is not None or (
            self.grade is not None and self.grade.state is GradeState.UNRATEABLE)


def _objects(values: list[str]) -> npt.NDArray[np.object_]:
    out = np.empty(len(values), dtype=object)
    out[:] = values
    return out


def _float_cells(values: Sequence[Any]) -> npt.NDArray[np.float64]:
    """The float cells as numbers; NaN for every other cell."""
    if set(map(type, values)) <= {float}:
        return np.array(values, dtype=np.float64)
    nan = math.nan
    return np.array([v if type(v) is float else nan for v in values], dtype=np.float64)


def _codes(values: Sequence[Any], *, signed_zero: bool = True,
           ) -> tuple[npt.NDArray[np.int64], list[Any]]:
    """A code per value, equal for equal values of one type, and each code's first value.

    ``signed_zero``: keep 0.0 and -0.0 apart (they compare equal).
    """
    if set(map(type, values)) <= {str, float}:  # no 1 == 1.0 == True to tell apart
        distinct = list(dict.fromkeys(values))
        if not signed_zero or not any(type(v) is float and v == 0 for v in distinct):
            code_of = dict(zip(distinct, range(len(distinct)), strict=True))
            return np.fromiter(map(code_of.__getitem__, values), np.int64,
                               len(values)), distinct
    seen: dict[Any, int] = {}
    try:
        codes = [seen.setdefault(v if type(v) is str else (type(v), v, repr(v)), len(seen))
                 for v in values]
    except TypeError:  # an unhashable cell (only from a hand-built Table)
        return np.arange(len(values), dtype=np.int64), list(values)
    firsts: list[Any] = [None] * len(seen)
    for v, c in zip(values, codes, strict=True):
        if firsts[c] is None:
            firsts[c] = v
    return np.array(codes, dtype=np.int64), firsts


@contextmanager
def _bulk() -> Iterator[None]:
    """Pause the cyclic garbage collector while a sheet's cells are built.

    Reading creates some hundred thousand lists and tuples, none of them in
    a reference cycle; each collection pass would walk all of them again.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


# -- import -------------------------------------------------------------------------------
def import_table(
    table: Table,
    mapping: ColumnMapping | None = None,
    conventions: Conventions | None = None,
    *,
    rubric: Rubric | None = None,
    strict: bool = False,
) -> ImportResult:
    """Turn a raw :class:`Table` into a document and a report.

    ``conventions`` give the consensus rule and rounding for several
    annotators and the rubric that maps text labels to grades (``rubric``
    overrides it). With ``strict`` the first refused row or cell, formula or
    duplicate raises :class:`InputError` instead of being reported.
    """
    conventions = conventions or Conventions()
    if rubric is not None:
        conventions = conventions.replace(rubric=rubric)
    rubric = conventions.rubric
    mapping = mapping or detect_mapping(table)
    header = table.header(mapping)
    name = table.file
    report = ImportReport(file=name, sheet=table.sheet, layout=mapping.layout,
                          encoding=table.encoding, delimiter=table.delimiter,
                          header_row=mapping.header_row + 1, mapping=mapping)

    def col_name(c: int) -> str:
        label = header[c] if c < len(header) and header[c] else ""
        if table.sheet is not None:
            return f"{column_letters(c + 1)} ({label})" if label else column_letters(c + 1)
        return label or f"field {c + 1}"

    col_names = [col_name(c) for c in range(max(len(header), 1 + max(
        mapping.used_columns(), default=0)))]

    def _cn(c: int) -> str:
        return col_names[c] if c < len(col_names) else col_name(c)

    def fail(problem: str, *, line: int | None = None, column: str | None = None,
             hint: str | None = None) -> InputError:
        return InputError(problem, file=name, sheet=table.sheet, line=line, column=column,
                          hint=hint)

    for need in ("query", "source_id"):
        if getattr(mapping, need) is None:
            raise fail(f"no {need.replace('_', ' ')} column found in the header "
                       f"({', '.join(h for h in header if h) or 'empty'})",
                       line=mapping.header_row + 1,
                       hint="name it e.g. " + _EXAMPLES[need]
                       + ", or choose it in the import mapping")
    if mapping.grade is None and not mapping.grades:
        raise fail(f"no grade column found in the header ({', '.join(h for h in header if h)})",
                   line=mapping.header_row + 1,
                   hint="name it grade/label/rating/relevance, one column per annotator as "
                   "grade_<name>, or choose it in the import mapping")
    width = max(mapping.used_columns()) + 1
    formula_at: dict[int, list[tuple[int, str]]] = {}
    for r, c, text in table.formulas:
        formula_at.setdefault(r, []).append((c, text))
    key_cols = {mapping.query, mapping.source_id, mapping.score, mapping.rank,
                mapping.annotator}
    unknown_marks = {m.strip().casefold() for m in mapping.unknown_marks}
    unrateable_marks = {m.strip().casefold() for m in mapping.unrateable_marks}
    scale = set(rubric.values) if rubric is not None else None
    # Whole-number grades inside the scale need no checks: they are read in bulk.
    plain_keys = np.array(sorted(float(v) for v in (
        scale if scale is not None else map(float, range(-10, 101))) if float(v).is_integer()),
        dtype=np.float64)

    plain_set = set(plain_keys.tolist())
    zero_plain = 0.0 in plain_set

    def classify(value: Any) -> _Cell:
        """How one grade cell's value reads, and what the report says about it."""
        found: list[tuple[str, str, str]] = []
        if type(value) is float and value in plain_set:
            return _Cell(_Grade(value + 0.0, GradeState.NUMBER))  # -0.0 reads as 0.0
        if type(value) is float and math.isfinite(value):
            g = _Grade(value, GradeState.NUMBER)
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            x = float(value)
            if not math.isfinite(x):
                return _Cell(None, ((CELL_REJECTED, f"grade {_text(value)!r} is not a finite "
                                     "number; not imported", _text(value)),))
            g = _Grade(x, GradeState.NUMBER)
        else:
            text = _text(value).strip()
            key = text.casefold()
            if key in unknown_marks:
                g = _Grade()
            elif key in unrateable_marks:
                g = _Grade(math.nan, GradeState.UNRATEABLE, text)
            else:
                try:
                    g = _Grade(_number(text), GradeState.NUMBER)
                except _Reject as exc:
                    lab = rubric.value_for_label(text) if rubric is not None else None
                    if lab is not None:
                        g = _Grade(lab, GradeState.NUMBER)
                    elif key in ("nan", "inf", "-inf", "+inf", "infinity"):
                        return _Cell(None, ((CELL_REJECTED, f"{exc}; not imported", text),))
                    else:
                        return _Cell(None, ((
                            CELL_REJECTED, f"label {text!r} is not in the rubric"
                            + (f" ({rubric.text})" if rubric is not None
                               else " (no rubric declared)") + "; not imported", text),),
                            unmapped=text)
            if g.state is GradeState.UNRATEABLE:
                found.append((MARK, f"{text!r} read as unrateable (reason kept)", text))
            elif g.state is GradeState.UNKNOWN and text:
                found.append((MARK, f"{text!r} read as unknown", text))
            elif g.state is GradeState.NUMBER and text and not _PLAIN_NUMBER.match(text):
                found.append((LABEL, f"label {text!r} read as grade {_text(g.value)}", text))
        if g.state is GradeState.NUMBER:
            if scale is not None and g.value not in scale:
                found.append((OUTSIDE_SCALE, f"grade {_text(g.value)} is outside the rubric "
                               f"({rubric.text if rubric else ''}); imported, flagged",
                               _text(value)))
            if not float(g.value).is_integer():
                found.append((FRACTIONAL, f"grade {_text(g.value)} is fractional; imported as is",
                              _text(value)))
        return _Cell(g, tuple(found))

    # Everything below works column by column on the data rows; Python loops
    # run only over the few cells that need words in the report. Findings are
    # collected with a sort key (data row, step, grade column, order) so the
    # report lists them exactly in reading order.
    start = mapping.header_row + 1
    data: list[list[Any]] = table.rows[start:]
    n_rows = len(data)
    lengths = ({len(data[0])} if table.rectangular and data else set(map(len, data)))
    if n_rows and min(lengths) < width:
        data = [r if len(r) >= width else [*r, *[""] * (width - len(r))] for r in data]
        lengths = set(map(len, data))
    columns: dict[int, Sequence[Any]] = {}
    stripped: dict[int, list[str]] = {}
    if n_rows and max(lengths) <= 2 * width:
        # Narrow rows: every column in one transposing pass.
        columns.update(enumerate(zip(*data, strict=False)))

    def column(c: int) -> Sequence[Any]:
        got = columns.get(c)
        if got is None:
            got = columns[c] = list(map(itemgetter(c), data))
        return got

    def texts(c: int) -> list[str]:
        got = stripped.get(c)
        if got is None:
            cells = column(c)
            try:
                got = list(map(str.strip, cells))
            except TypeError:  # not all text
                got = [v.strip() if type(v) is str else _text(v).strip() for v in cells]
            stripped[c] = got
        return got

    found: list[tuple[tuple[int, int, int, int], Issue]] = []
    unmapped: list[tuple[tuple[int, int, int, int], str]] = []

    # Rows: blank, formulas in key cells, empty query or source, bad score.
    assert mapping.query is not None
    assert mapping.source_id is not None
    q_text = texts(mapping.query)
    s_text = texts(mapping.source_id)
    # Distinct queries (first seen first) and sources, each found in one pass
    # and used again below (empty cells, candidates, the document's codes).
    q_first = dict.fromkeys(q_text)
    s_set = set(s_text)
    empty = (np.flatnonzero((_objects(q_text) == "") | (_objects(s_text) == "")).tolist()
             if "" in q_first or "" in s_set else [])
    blank = np.zeros(n_rows, dtype=bool)
    for i in empty:
        raw = data[i]
        if not _filled(raw, mapping.query, mapping.source_id) and all(
            c is None or (isinstance(c, str) and not c.strip()) for c in raw
        ):
            blank[i] = True
    report.blank_rows = int(blank.sum())
    report.rows_read = n_rows - report.blank_rows
    alive = ~blank
    bad_cells: dict[int, set[int]] = {}
    for r, cells in formula_at.items():
        i = r - start
        if not 0 <= i < n_rows or blank[i]:
            continue
        hits = [c in key_cols for c, _ in cells]
        for seq, ((c, text), hit_key) in enumerate(zip(cells, hits, strict=True)):
            found.append(((i, 0, 0, seq), Issue(
                FORMULA, r + 1, _cn(c),
                f"cell {column_letters(c + 1)}{r + 1} holds the formula {text!r}; formulas are"
                " never evaluated" + ("; row rejected" if hit_key else "; cell not imported"),
                text)))
            bad_cells.setdefault(i, set()).add(c)
        if any(hits):
            alive[i] = False
    for i in empty:
        if alive[i]:
            which = "query" if not q_text[i] else "source_id"
            found.append(((i, 1, 0, 0), Issue(
                ROW_REJECTED, i + start + 1, _cn(getattr(mapping, which)),
                f"the {which.replace('_', ' ')} is empty; row rejected")))
            alive[i] = False
    score_col = mapping.score if mapping.score is not None else mapping.rank
    if score_col is not None:
        cells_s = column(score_col)
        score = _float_cells(cells_s)
        for i in np.flatnonzero(~np.isfinite(score) & alive).tolist():
            cell = cells_s[i]
            x = math.nan
            if _text(cell).strip():
                try:
                    x = _number(cell)
                except _Reject as exc:
                    found.append(((i, 1, 0, 0), Issue(
                        ROW_REJECTED, i + start + 1, _cn(score_col), f"{exc}; row rejected",
                        _text(cell))))
                    alive[i] = False
                    continue
            score[i] = x
        if mapping.score is None:
            score = -score
    else:
        score = -np.arange(start + 1, start + 1 + n_rows, dtype=np.float64)

    # Candidates: the first row of each (query, source) pair.
    alive_idx = np.flatnonzero(alive)
    every_row = len(alive_idx) == n_rows
    q_alive = q_text if every_row else [q_text[i] for i in alive_idx.tolist()]
    s_alive = s_text if every_row else [s_text[i] for i in alive_idx.tolist()]
    n = len(s_alive)
    if len(s_set if every_row else set(s_alive)) == n or len(set(zip(
            q_alive, s_alive, strict=True))) == n:
        row_ci = np.arange(n, dtype=np.int64)  # the usual case: each row its own candidate
    else:
        index: dict[tuple[str, str], int] = {}
        row_ci = np.array([index.setdefault(k, len(index)) for k in zip(
            q_alive, s_alive, strict=True)], dtype=np.int64)
        n = len(index)
    is_first = np.ones(len(row_ci), dtype=bool)
    if len(row_ci) > 1:
        is_first[1:] = row_ci[1:] > np.maximum.accumulate(row_ci)[:-1]
    first_rows = alive_idx[is_first]
    c_first_row = first_rows + start + 1
    c_score = score[first_rows]
    has_annotator = mapping.annotator is not None
    single = mapping.layout == "long" and not has_annotator
    repeats = np.flatnonzero(~is_first).tolist()
    if single:
        for k in repeats:
            i, ci = int(alive_idx[k]), int(row_ci[k])
            found.append(((i, 2, 0, 0), Issue(
                DUPLICATE, i + start + 1, _cn(mapping.source_id or 0),
                f"query {q_alive[k]!r} lists {s_alive[k]!r} again (first on row "
                f"{c_first_row[ci]}); the first row is kept")))
        rows_in, ci_in = first_rows, row_ci[is_first]
    else:
        if mapping.rank is None and mapping.score is not None:
            for k in repeats:
                i, ci = int(alive_idx[k]), int(row_ci[k])
                x, y = float(score[i]), float(c_score[ci])
                if not (x == y or (math.isnan(x) and math.isnan(y))):
                    found.append(((i, 2, 0, 0), Issue(
                        CONFLICT, i + start + 1, _cn(mapping.score),
                        f"score {_text(x)} differs from {_text(y)} on row "
                        f"{c_first_row[ci]} for the same candidate; the first is kept")))
        rows_in, ci_in = alive_idx, row_ci
    report.rows_imported = len(rows_in)
    every_first = len(first_rows) == n_rows
    c_query = q_text if every_first else [q_text[i] for i in first_rows.tolist()]
    c_source = s_text if every_first else [s_text[i] for i in first_rows.tolist()]
    if mapping.version is not None:
        version_text = texts(mapping.version)
        c_version = [version_text[i] for i in first_rows.tolist()]
    else:
        c_version = [""] * n
    who_all = ([w or "(no name)" for w in texts(mapping.annotator)]
               if mapping.annotator is not None else None)
    c_note: dict[int, str] = {}  # candidate -> note (the few that have one)
    if mapping.note is not None:
        note_cells = column(mapping.note)
        noted = np.flatnonzero(np.fromiter(map(ne, note_cells, repeat("")), bool, n_rows)[rows_in])
        for i, ci in zip(rows_in[noted].tolist(), ci_in[noted].tolist(), strict=True):
            text = _text(note_cells[i]).strip()
            if not text:
                continue
            who = who_all[i] if who_all is not None else ""
            c_note[ci] = "; ".join(x for x in (c_note.get(ci, ""),
                                               f"{who}: {text}" if who else text) if x)

    # Grade cells, one source column at a time: whole numbers of the scale in
    # bulk, every other value classified once per distinct value.
    sources: list[tuple[int, str]] = ([(mapping.grade, "")] if mapping.layout == "long"
                                      and mapping.grade is not None else list(mapping.grades))
    reason_text = texts(mapping.reason) if mapping.reason is not None else None
    ev_rows: list[npt.NDArray[np.int64]] = []
    ev_ci: list[npt.NDArray[np.int64]] = []
    ev_value: list[npt.NDArray[np.float64]] = []
    ev_state: list[npt.NDArray[np.int8]] = []
    ev_reason: dict[tuple[int, int], str] = {}
    for p, (col, _ann) in enumerate(sources):
        rows_p, ci_p = rows_in, ci_in
        bad = [i for i, cs in bad_cells.items() if col in cs]
        if bad:
            keep = ~np.isin(rows_p, bad)
            rows_p, ci_p = rows_p[keep], ci_p[keep]
        cells_g = column(col)
        values = cells_g if len(rows_p) == n_rows else [cells_g[i] for i in rows_p.tolist()]
        codes, firsts = _codes(values, signed_zero=not zero_plain)
        if len(firsts) <= _FEW_VALUES:  # grades: a handful of distinct values
            other = None
        else:  # many distinct numbers: those of the scale in bulk
            floats = _float_cells(values)
            other = np.flatnonzero(~np.isin(floats, plain_keys))
            codes, firsts = _codes([values[k] for k in other.tolist()])
        kinds = [classify(v) for v in firsts]
        code = codes
        k_value = np.array([c.value for c in kinds], dtype=np.float64)[code]
        k_state = np.array([c.state for c in kinds], dtype=np.int8)[code]
        k_valid = np.array([c.grade is not None for c in kinds], dtype=bool)[code]
        wordy = np.flatnonzero(np.array([c.wordy for c in kinds], dtype=bool)[code])
        if other is None:
            value, state, valid = k_value, k_state, k_valid
            wordy_rows = rows_p[wordy]
        else:
            value = floats + 0.0
            state = np.full(len(values), GradeState.NUMBER, dtype=np.int8)
            valid = np.ones(len(values), dtype=bool)
            value[other], state[other], valid[other] = k_value, k_state, k_valid
            wordy_rows = rows_p[other[wordy]]
        if len(wordy):
            # One distinct value at a time (a handful), its rows in bulk; the
            # findings are put in reading order by the sort below.
            w_code = codes[wordy]
            cname = col_names[col]
            for k in np.unique(w_code).tolist():
                kind = kinds[k]
                rows_k = wordy_rows[w_code == k].tolist()
                for seq, (what, problem, shown) in enumerate(kind.issues):
                    found.extend([((i, 3, p, seq), Issue(what, i + start + 1, cname, problem,
                                                         shown)) for i in rows_k])
                if kind.unmapped is not None:
                    unmapped.extend([((i, 3, p, 0), kind.unmapped) for i in rows_k])
                if kind.grade is not None and kind.grade.state is GradeState.UNRATEABLE:
                    for i in rows_k:
                        given = reason_text[i] if reason_text is not None else ""
                        ev_reason[(p, i)] = given or kind.grade.reason
        ev_rows.append(rows_p[valid])
        ev_ci.append(ci_p[valid])
        ev_value.append(value[valid])
        ev_state.append(state[valid])

    # Annotators in the order their first grade was read.
    annotators: dict[str, int] = {}
    if mapping.layout == "long":
        rows_0 = ev_rows[0] if ev_rows else np.zeros(0, dtype=np.int64)
        who_ev = ([who_all[i] for i in rows_0.tolist()] if who_all is not None
                  else [""] * len(rows_0))
        for w in who_ev:
            annotators.setdefault(w, len(annotators))
        ev_a = [np.array([annotators[w] for w in who_ev], dtype=np.int64)]
    else:
        started = sorted((int(r[0]), p) for p, r in enumerate(ev_rows) if len(r))
        for _, p in started:
            annotators.setdefault(sources[p][1], len(annotators))
        ev_a = [np.full(len(r), annotators.get(sources[p][1], 0), dtype=np.int64)
                for p, r in enumerate(ev_rows)]
    names = list(annotators)
    m = len(names)
    all_rows = np.concatenate(ev_rows) if ev_rows else np.zeros(0, dtype=np.int64)
    all_p = np.concatenate([np.full(len(r), p, dtype=np.int64) for p, r in enumerate(ev_rows)]
                           ) if ev_rows else np.zeros(0, dtype=np.int64)
    all_ci = np.concatenate(ev_ci) if ev_ci else np.zeros(0, dtype=np.int64)
    all_a = np.concatenate(ev_a) if ev_a else np.zeros(0, dtype=np.int64)
    all_value = np.concatenate(ev_value) if ev_value else np.zeros(0)
    all_state = np.concatenate(ev_state) if ev_state else np.zeros(0, dtype=np.int8)
    # One grade per candidate and annotator: the first read; repeats reported.
    again: list[int] = []
    if len(ci_in) == n and (mapping.layout == "long"
                            or len({who for _, who in sources}) == len(sources)):
        kept_ev = np.arange(len(all_rows))  # one row per candidate: no repeats possible
    else:
        order = np.lexsort((all_p, all_rows))
        pair = (all_ci * max(m, 1) + all_a)[order]
        _, first_pos = np.unique(pair, return_index=True)
        taken = np.zeros(len(order), dtype=bool)
        taken[first_pos] = True
        kept_ev = order[taken]
        again = order[~taken].tolist()
    if again:
        first_of = dict(zip(pair[first_pos].tolist(), order[first_pos].tolist(), strict=True))
        for e in again:
            f = first_of[int(all_ci[e]) * max(m, 1) + int(all_a[e])]
            i, p, ci = int(all_rows[e]), int(all_p[e]), int(all_ci[e])
            ann = names[int(all_a[e])]
            same = all_state[f] == all_state[e] and (all_value[f] == all_value[e] or (
                math.isnan(all_value[f]) and math.isnan(all_value[e])))
            found.append(((i, 3, p, 1 << 20), Issue(
                DUPLICATE if same else CONFLICT, i + start + 1, _cn(sources[p][0]),
                (f"{ann + ' ' if ann else ''}graded {c_source[ci]!r} for {c_query[ci]!r} again"
                 f" (first on row {int(all_rows[f]) + start + 1})"
                 + ("; the same grade, kept once" if same else
                    "; a different grade, the first is kept")))))

    found.sort(key=lambda t: t[0])
    report.issues.extend(issue for _, issue in found)
    unmapped.sort(key=lambda t: t[0])
    for _, text in unmapped:
        report.unmapped_labels[text] = report.unmapped_labels.get(text, 0) + 1

    if strict:
        first = report.first_problem()
        if first is not None:
            n_fatal = len(report.of_kind(*_FATAL))
            raise InputError(
                first.problem + (f" (and {n_fatal - 1} more problems)" if n_fatal > 1 else ""),
                file=name, sheet=table.sheet, line=first.row, column=first.column or None,
                hint="fix the file, or import it in the app to see every problem",
            )
    ratings = np.full((n, m), np.nan)
    unrateable = np.zeros((n, m), dtype=bool)
    reasons: dict[int, str] = {}  # candidate -> reason (the few unrateable)
    if again:
        k_ci, k_a, k_state = all_ci[kept_ev], all_a[kept_ev], all_state[kept_ev]
        k_value = all_value[kept_ev]
    else:  # every grade read is kept, in order
        k_ci, k_a, k_state, k_value = all_ci, all_a, all_state, all_value
    number = k_state == GradeState.NUMBER
    ratings[k_ci[number], k_a[number]] = k_value[number]
    unrated = np.flatnonzero(k_state == GradeState.UNRATEABLE)
    unrateable[k_ci[unrated], k_a[unrated]] = True
    u_ev = kept_ev[unrated] if again else unrated
    u_ev = u_ev[np.lexsort((all_p[u_ev], all_rows[u_ev]))]  # in reading order
    for ci, a, p, i in zip(all_ci[u_ev].tolist(), all_a[u_ev].tolist(), all_p[u_ev].tolist(),
                           all_rows[u_ev].tolist(), strict=True):
        given = ev_reason[(p, i)]
        tag = f"{names[a]}: {given}" if names[a] and m > 1 else given
        reasons[ci] = "; ".join(x for x in (reasons.get(ci, ""), tag) if x)
    if m <= 1 and (single or not names or names == [""]):
        grade = ratings[:, 0] if m else np.full(n, np.nan)
        state = np.where(np.isnan(grade), GradeState.UNKNOWN, GradeState.NUMBER).astype(np.int8)
        annot_names: list[str] = []
        kept = None
    else:
        grade, state = combine(ratings, conventions.consensus, conventions.rounding)
        annot_names = names
        kept = ratings
        report.notes.append(
            f"the current grade is the {conventions.consensus.label} "
            f"({conventions.consensus.formula}), {conventions.rounding.label}; "
            "each annotator's grade is kept")
    state = np.where((state == GradeState.UNKNOWN) & unrateable.any(axis=1),
                     GradeState.UNRATEABLE, state).astype(np.int8)
    holders = np.unique(all_ci[u_ev])  # only these can hold a reason
    for i in holders[state[holders] != GradeState.UNRATEABLE].tolist():
        reasons.pop(i, None)
    if mapping.score is None and mapping.rank is not None:
        report.notes.append(
            f"no score column: score = -rank (from column {_cn(mapping.rank)!r}), "
            "so the supplied ranking is kept")
    elif mapping.score is None:
        report.notes.append(
            "no score or rank column: candidates keep the order of the rows as supplied, "
            "score = -row number")
    if every_first:  # the candidates' queries are those of all rows
        q_index = dict(zip(q_first, range(len(q_first)), strict=True))
    else:
        q_index = dict(zip(dict.fromkeys(c_query), itertools.count()))
    q_ids = list(q_index)
    q_codes = np.fromiter(map(q_index.__getitem__, c_query), np.int64, len(c_query))
    if not n:
        raise fail("no candidate rows to import"
                   + (f" (first problem: {report.first_problem()})"
                      if report.first_problem() else ""),
                   hint="check the header row and the column mapping")
    doc = Document.from_columns(
        query=q_ids, query_codes=q_codes, source_id=_objects(c_source), score=c_score,
        grade=grade,
        state=state, version=c_version if mapping.version is not None else None,
        conventions=conventions, name=Path(name).stem, source=name, check=False, copy=False,
    )
    # Notes and reasons are few: written into the document's empty text
    # columns instead of handing over a column of mostly empty texts.
    for texts_of, target in ((c_note, doc.note), (reasons, doc.reason)):
        for ci, text in texts_of.items():
            if text:
                target[ci] = text
    doc.annotators = annot_names
    doc.ratings = kept
    report.candidates = n
    report.annotators = annot_names
    return ImportResult(doc, report)


def import_annotations(
    path: str | Path,
    mapping: ColumnMapping | None = None,
    *,
    sheet: str | None = None,
    rubric: Rubric | None = None,
    consensus: ConsensusRule | str | None = None,
    rounding: Rounding | str | None = None,
    conventions: Conventions | None = None,
    strict: bool = False,
) -> ImportResult:
    """Read an annotators' spreadsheet into a document and an import report.

    Parameters
    ----------
    path : path
        A .xlsx (first sheet unless ``sheet``), .csv or .tsv file. It is
        only read, never changed.
    mapping : ColumnMapping, optional
        Which column holds what; detected from the header when None.
    rubric : Rubric, optional
        Grades allowed and the text labels that name them
        (``"Highly relevant" -> 3``, case-insensitive).
    consensus, rounding : optional
        How several annotators' grades give the current grade; default the
        conventions' own (``mean``, no rounding).
    strict : bool
        Raise :class:`InputError` on the first refused row or cell, formula
        or duplicate instead of reporting it.
    """
    conventions = conventions or Conventions()
    if consensus is not None:
        conventions = conventions.replace(consensus=ConsensusRule(consensus))
    if rounding is not None:
        conventions = conventions.replace(rounding=Rounding(rounding))
    with _bulk():
        table = read_table(path, sheet=sheet)
        result = import_table(table, mapping, conventions, rubric=rubric, strict=strict)
        # Freed while the collector still sleeps: the cells it never tracked
        # leave its count as they go, so waking it does not start a full pass.
        del table
    return result
