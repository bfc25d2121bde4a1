"""A grade scale's legend on the sheet: "0 = not relevant, 1 = partial,
2 = relevant, 3 = perfect", as annotators' templates carry it in rows above
the header or on a sheet of its own, read as the scale of the grades.

A legend is told by what its cells look like: one cell listing two levels
or more (``0 = not relevant, 1 = partial, ...``), or a run of rows each
naming one level (``0 = not relevant`` in one cell, or ``0`` beside
``not relevant``), the levels whole numbers, each once. It is read only when
the sheet holds one (all the legends found list the same levels); its
levels must hold every grade the grade columns give, numbers and labels
alike, or the import stops in one line naming the legend and the first
cell it lacks (:func:`check_legend`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from core.errors import InputError
from core.io.annotator.cells import Reject, number, number_rubric, text_labels
from core.io.annotator.model import ColumnMapping, Table, cell_text
from core.io.annotator.read import read_table
from core.io.annotator.scales import LabelGuess, Vocabulary, guess_labels, label_key, numbered_label
from core.io.annotator.sheet import Sheet
from core.io.annotator.vocabulary import (
    evidenced,
    in_cells,
    in_column,
    legend_header,
    row_listing,
)
from core.io.safety import WORKBOOK_SUFFIXES, check_workbook, column_letters
from core.model.rubric import Rubric, RubricGrade

__all__ = [
    "LabelsRead",
    "Legend",
    "Legends",
    "check_legend",
    "find_legend",
    "left_out",
    "legend_columns",
    "legend_labels",
    "legend_only",
    "legend_rows",
    "legend_words",
    "read_labels",
]

#: A sheet longer than this holds judgments, not a legend.
_MAX_ROWS = 200
#: Where a legend in one cell separates its levels.
_LEVELS = re.compile(r"[,;\n|]+")
#: A level's words: short (a label, not a sentence of guidelines).
_MAX_LABEL = 40


@dataclass(frozen=True)
class Legend:
    """The levels a legend lists (a rubric with labels) and where it is,
    for people (``row 1``, ``rows 1-4``, ``sheet 'Legend'``)."""

    rubric: Rubric
    where: str

    @property
    def scale(self) -> str:
        """How the report says the scale was read."""
        return f"the sheet's legend ({self.where}: {self.rubric.text})"


def _level(text: str) -> tuple[float, str] | None:
    """One level ``text`` names (``0 = not relevant``), a whole grade with a
    short label; None otherwise."""
    found = numbered_label(text)
    if found is None or not found[0].is_integer() or len(found[1]) > _MAX_LABEL:
        return None
    return found


def _levels(found: Sequence[tuple[float, str]]) -> Rubric | None:
    """The rubric of two levels or more, each grade once; None otherwise."""
    values = [v for v, _ in found]
    if len(values) < 2 or len(set(values)) != len(values):
        return None
    return Rubric(tuple(RubricGrade(v, " ".join(t.replace(",", " ").split()))
                        for v, t in sorted(found)))


def _in_cell(text: str) -> Rubric | None:
    """A cell listing the levels: ``Scale: 0 = not relevant, 1 = partial``
    (or a row's cells joined, after a title of their own, ``Legend``)."""
    parts = [p.strip() for p in _LEVELS.split(text) if p.strip()]
    if len(parts) < 2:
        return None
    _head, colon, rest = parts[0].partition(":")  # "Scale: 0 = not relevant"
    if colon and _level(parts[0]) is None:
        parts[0] = rest.strip()
        parts = [p for p in parts if p]  # ("Scale:" a cell of its own)
    elif legend_header(parts[0]):  # ``Legend`` | ``0 = no`` | ``1 = yes``, as laid out by hand
        parts = parts[1:]
    levels = [_level(p) for p in parts]
    return _levels([lv for lv in levels if lv is not None]) \
        if all(lv is not None for lv in levels) else None


def _row_level(row: Sequence[Any]) -> tuple[float, str] | None:
    """The level a row names: one cell (``0 = not relevant``), or a whole
    number beside a short label (``0`` | ``not relevant``)."""
    cells = [cell_text(c).strip() for c in row]
    filled = [t for t in cells if t]
    if len(filled) == 1:
        return _level(filled[0])
    if len(filled) >= 2 and re.fullmatch(r"-?\d{1,3}", filled[0]) \
            and re.search(r"[^\W\d_]", filled[1]) and len(filled[1]) <= _MAX_LABEL:
        return float(filled[0]), filled[1]
    return None


def _rows_text(first: int, last: int) -> str:
    return f"row {first}" if first == last else f"rows {first}-{last}"


def _in_rows(rows: Sequence[Sequence[Any]], where: str, first: int = 1) -> list[Legend]:
    """The legends ``rows`` hold: a cell listing the levels, or a run of
    rows naming one level each (rows counted from ``first``)."""
    out: list[Legend] = []
    run: list[tuple[int, tuple[float, str]]] = []

    def close() -> None:
        rubric = _levels([lv for _, lv in run])
        if rubric is not None:
            out.append(Legend(rubric, _rows_text(run[0][0], run[-1][0]) + where))
        run.clear()

    for r, row in enumerate(rows, start=first):
        level = _row_level(row)
        if level is not None and (not run or r == run[-1][0] + 1):
            run.append((r, level))
            continue
        close()
        if level is not None:
            run.append((r, level))
            continue
        seen = len(out)
        for c, cell in enumerate(row):
            rubric = _in_cell(cell_text(cell)) if type(cell) is str else None
            if rubric is not None:
                out.append(Legend(rubric, f"cell {column_letters(c + 1)}{r}{where}"))
        joined = row_listing(row, r) if len(out) == seen else None
        rubric = _in_cell(joined[0]) if joined is not None else None
        if joined is not None and rubric is not None:
            out.append(Legend(rubric, joined[1] + where))
    close()
    return out


def legend_only(rows: Sequence[Sequence[Any]]) -> bool:
    """Whether ``rows`` (a sheet's first rows) hold a legend and nothing
    else but a title or header row: a sheet of no judgments."""
    filled = [r for r in rows if any(cell_text(c).strip() for c in r)]
    levels = [_row_level(r) for r in filled]
    # (each grade once, as a legend is read: a judgments sheet's rows
    # ``301 | FBIS3-10082 | 1`` read like levels too, their topic repeated)
    return (sum(lv is not None for lv in levels) >= 2 and None not in levels[1:]
            and _levels([lv for lv in levels if lv is not None]) is not None) or (
        len(filled) <= 2 and bool(_in_rows(filled, "") or in_cells(filled, "")))


#: Where a legend found in rows is (``row 3``, ``rows 3-6``, ``cell B3``,
#: ``cells A3-D3``): its rows.
_WHERE = re.compile(r"^(?:rows?|cells?) [A-Z]*(\d+)(?:-[A-Z]*(\d+))?$")
#: A legend's title row (``Legend``, ``Key:``, ``Scale (best first)``).
_LEGEND_TITLE = re.compile(r"^\s*(?:legend|key|scale|grades?|grading|ratings?)\b", re.I)


def legend_rows(rows: Sequence[Sequence[Any]]) -> set[int]:
    """The rows (1-based) of ``rows`` (a sheet's rows above its header) a
    legend takes: a grade scale's levels or labels, as the import reads
    them, and a title row just above them (``Legend``)."""
    out: set[int] = set()
    found: list[Legend | Vocabulary] = [*_in_rows(rows, ""), *in_cells(rows, "")]
    for legend in found:
        m = _WHERE.match(legend.where)
        if m is None:
            continue
        first, last = int(m.group(1)), int(m.group(2) or m.group(1))
        out.update(range(first, last + 1))
        filled = [cell_text(c).strip() for c in rows[first - 2] if cell_text(c).strip()] \
            if first >= 2 else []
        if len(filled) == 1 and _LEGEND_TITLE.match(filled[0]):
            out.add(first - 1)
    return out


def _other_sheets(table: Table) -> tuple[Legend | Vocabulary, ...]:
    """The legends the workbook's other sheets (short ones) hold."""
    if Path(table.file).suffix.lower() not in WORKBOOK_SUFFIXES \
            or not set(table.sheets) - {table.sheet}:
        return ()  # (a workbook of one sheet is not checked again)
    try:
        stat = Path(table.file).stat()
    except OSError:
        return ()
    return _sheets_legends(table.file, table.sheet,
                           (stat.st_ino, stat.st_mtime_ns, stat.st_ctime_ns, stat.st_size))


@lru_cache(maxsize=4)
def _sheets_legends(file: str, sheet: str | None, _version: tuple[int, ...],
                    ) -> tuple[Legend | Vocabulary, ...]:
    """The legends of the workbook's sheets but ``sheet``, read once for
    the file as it is (the guess and the import both ask: the workbook's
    check costs some 30 ms for 20,000 rows)."""
    out: list[Legend | Vocabulary] = []
    check = check_workbook(Path(file))
    for name in check.sheets:
        if name == sheet or check.used.get(name, (0, 0))[0] > _MAX_ROWS:
            continue  # (a long sheet, told by its used area, is not read at all)
        try:
            other = read_table(file, sheet=name)
        except InputError:
            continue
        if len(other.rows) <= _MAX_ROWS:
            out += [*_in_rows(other.rows, f" of sheet {name!r}"),
                    *in_cells(other.rows, f" of sheet {name!r}")]
    return tuple(out)


def _top_run(data: Sequence[Sequence[Any]], c: int, to_end: bool = False) -> list[int] | None:
    """The rows of column ``c`` filled, when they are one run of rows near
    the top ending before the rows looked at do (or with them, ``to_end``:
    a column named as a legend beside a sheet no longer than it), the rest
    of the column blank."""
    top = [i for i, r in enumerate(data[:_MAX_ROWS]) if c < len(r) and cell_text(r[c]).strip()]
    if len(top) < 2 or top[-1] - top[0] != len(top) - 1 \
            or top[-1] + 1 >= min(len(data), _MAX_ROWS) + to_end \
            or any(c < len(r) and cell_text(r[c]).strip() for r in data[_MAX_ROWS:]):
        return None
    return top


def legend_columns(table: Table, header_row: int) -> dict[int, Legend | Vocabulary]:
    """The columns beside the judgments that hold a legend and nothing
    else: their filled cells one run of rows near the top naming a level
    each (``0 = not relevant`` on rows 2-5 under ``Legend``), or two such
    columns side by side, a grade beside its label (``Grade`` | ``Meaning``),
    the rest of the columns blank; or a run of labels without grades, two
    of them at least labels another column holds (a legend of labels:
    :func:`~core.io.annotator.vocabulary.in_column`). No role takes them
    (their levels read like grades, and ``Grade`` names one). A run of the
    labels the records' options list is the choices made from them
    (Prodigy's ``accept``, each label once on rows 2-4), never a legend;
    nor is any column of a JSON export's records (:attr:`Table.records`: a
    model's predictions of the first task alone, filled on its two rows)."""
    if table.origin is not None or header_row < 0 or table.records is not None:
        return {}
    start, header = header_row + 1, table.header(ColumnMapping(header_row=header_row))
    data = table.rows[start:]
    width = max(len(header), *(len(r) for r in data[:_MAX_ROWS]), 0)

    def name(c: int) -> str:
        return f"{column_letters(c + 1)} ({header[c]})" if c < len(header) and header[c] \
            else column_letters(c + 1)

    out: dict[int, Legend | Vocabulary] = {}
    options = {k for v in table.listed for k in v.label_keys()}
    for c in range(width):
        top = _top_run(data, c) or (_top_run(data, c, to_end=True) if c < len(header)
                                    and legend_header(header[c]) else None)
        if c in out or top is None or (options and all(
                label_key(cell_text(data[i][c])) in options for i in top)):
            continue
        rows = _rows_text(start + top[0] + 1, start + top[-1] + 1)
        words = in_column([data[i][c] for i in top], header[c] if c < len(header) else "",
                          f"{rows} of column {name(c)}", _other_labels(data, c))
        if words is not None:
            out[c] = words
            continue
        cols = [c, c + 1] if c + 1 < width and _top_run(data, c + 1) == top else [c]
        found = _in_rows([[data[i][k] for k in cols] for i in top], "", first=start + top[0] + 1)
        if len(found) != 1 or not found[0].where.startswith("row"):  # a level a row, no more
            cols = [c]
            found = _in_rows([[data[i][c]] for i in top], "", first=start + top[0] + 1)
        if len(found) == 1 and found[0].where.startswith("row"):
            where = f"column {name(c)}" if len(cols) == 1 \
                else f"columns {name(c)} and {name(c + 1)}"
            out.update((k, Legend(found[0].rubric, f"{found[0].where} of {where}")) for k in cols)
    return out


def _other_labels(data: Sequence[Sequence[Any]], c: int) -> set[str]:
    """The labels (compared) the columns but ``c`` hold in their first rows."""
    return {label_key(v) for r in data[:_MAX_ROWS] for k, v in enumerate(r)
            if k != c and type(v) is str and v.strip()}


@dataclass(frozen=True)
class Legends:
    """The sheet's legends: the one of its grades (``legend``; None when
    there is none, or ``why`` not: several listing different grades), and
    those listing labels without grades (``labels``: the scale's
    vocabulary, when the grade columns bear one out)."""

    legend: Legend | None
    why: str
    labels: list[Vocabulary]


def left_out(legend: Legend | Vocabulary) -> str:
    """Why a column holding a legend is not imported, for the report."""
    return f"the grade scale's legend ({legend.where}), not imported"


def find_legend(table: Table, mapping: ColumnMapping) -> Legends:
    """The legends of the sheet's grade scale: in the rows above the header,
    in a column beside the judgments or on another sheet of the workbook;
    the legend of grades is none when legends found list different levels
    (none is read, ``why`` says so)."""
    above = table.rows[:max(mapping.header_row, 0)] if table.origin is None else []
    every = [*_in_rows(above, ""), *in_cells(above, ""),
             *legend_columns(table, mapping.header_row).values(), *_other_sheets(table),
             *table.listed]
    found = [lg for lg in every if isinstance(lg, Legend)]
    words = [lg for lg in every if isinstance(lg, Vocabulary)]
    if len({lg.rubric for lg in found}) > 1:
        return Legends(None, _conflict(found, table), words)
    return Legends(found[0] if found else None, "", words)


def _conflict(found: Sequence[Legend], table: Table) -> str:
    """The one line that says which legends list different grades (each
    legend's place, the sheet's named in a workbook, and its levels) and
    what to do: none is read, never one picked."""
    sheet = f" of sheet {table.sheet!r}" if table.sheet else ""
    said = [f"{lg.where}{'' if ' of sheet ' in lg.where else sheet} ({lg.rubric.text})"
            for lg in found]
    return (f"the sheet's legends list different grades: {', '.join(said[:-1])} and "
            f"{said[-1]}, so none was read as the scale: pass --rubric with the scale the "
            "grades are on, or correct the legend that is wrong")


def legend_words(table: Table, header_row: int) -> frozenset[str]:
    """The labels (compared: :func:`label_key`) the sheet's legends of
    labels without grades list: a column holding them holds grades, as one
    of a known scale's labels does, under any header."""
    if header_row < 0:
        return frozenset()
    found = find_legend(table, ColumnMapping(header_row=header_row)).labels
    return frozenset(k for v in found for k in v.label_keys())


def _grade_of(text: str, legend: Legend, keys: Mapping[str, float]) -> float | None:
    """The legend's grade of a grade cell's text: its number, the number a
    label writes, or its label; None when the legend has no such grade."""
    try:
        value: float | None = number(text)
    except Reject:
        written = numbered_label(text)
        value = written[0] if written is not None else keys.get(label_key(text))
    return value if value in legend.rubric.values else None


def _with_lacking(rubric: Rubric, texts: Iterable[str]) -> Rubric:
    """``rubric`` with a grade for each text it lacks: a number as itself, a
    number with words as both (``3 - perfect``: ``3=perfect``), words alone
    as the next grade above the scale's top."""
    grades = {g.value: g for g in rubric.grades}
    for text in texts:
        try:
            value, label = number(text), ""
        except Reject:
            value, label = numbered_label(text) or (max(grades) + 1, text)
        grades.setdefault(value, RubricGrade(value, label.replace(",", " ").strip()))
    return Rubric(tuple(grades.values()))


def legend_labels(legend: Legend, labels: Mapping[str, int]) -> LabelGuess:
    """How the sheet's labels (text -> cells holding it) read on the legend."""
    keys = {label_key(g.label): g.value for g in legend.rubric.grades if g.label}
    guess = LabelGuess(rubric=legend.rubric, scale=legend.scale)
    for text, n in labels.items():
        grade = _grade_of(text, legend, keys)
        if grade is None:
            guess.unmapped[text] = n
        else:
            guess.grades[text] = grade
    return guess


def check_legend(sheet: Sheet, legend: Legend) -> None:
    """Whether ``legend`` holds every grade the grade columns give; else the
    import stops in one line naming the legend and the first grade cell it
    lacks, and what to pass: a --rubric of the legend with every grade it
    lacks, which typed as shown reads them."""
    keys = {label_key(g.label): g.value for g in legend.rubric.grades if g.label}
    mapping = sheet.mapping
    marks = {m.strip().casefold() for m in (*mapping.unknown_marks, *mapping.unrateable_marks)}
    first: tuple[int, int, str] | None = None
    lacking: dict[str, None] = {}  # the texts the legend lacks, first seen first
    for c, _ in mapping.sources():
        for i, text in enumerate(sheet.texts(c)):
            if not text or text.casefold() in marks or _grade_of(text, legend, keys) is not None:
                continue
            first = first or (c, i, text)
            lacking[text] = None
    if first is not None:
        c, i, text = first
        raise sheet.fail(
            f"the sheet's legend ({legend.where}: {legend.rubric.text}) has no grade "
            f"{text!r}, which {sheet.name(c)} holds", line=sheet.row_number(i),
            column=sheet.name(c), hint=f"pass --rubric with the scale the grades are on "
            f"(e.g. --rubric \"{_with_lacking(legend.rubric, lacking).text}\"), or correct "
            "the legend or the grade")


@dataclass(frozen=True)
class LabelsRead:
    """How a sheet's grades read (:func:`read_labels`): the grade cells'
    labels (``texts``: text -> cells holding it), the sheet's ``legends``,
    the legend of labels without grades the labels bear out (``words``),
    the labels' reading (``guess``: None when there is no label and no
    legend of the grades) and then the whole numbers' rubric (``numbers``:
    their range and how it was read, ``(None, "")`` otherwise)."""

    texts: dict[str, int]
    legends: Legends
    words: Vocabulary | None
    guess: LabelGuess | None
    numbers: tuple[Rubric | None, str] = (None, "")


def read_labels(table: Table, mapping: ColumnMapping, columns: Sequence[Sequence[Any]],
                header: Sequence[str]) -> LabelsRead:
    """How the grade ``columns`` read when the user declared no rubric, the
    one rule of the import and of the wizard's preview: on the sheet's
    legend of its grades when it holds one (:func:`legend_labels`); else
    the labels on the known scales (:func:`~core.io.annotator.scales.guess_labels`),
    within a legend of labels without grades they bear out (two of its
    labels at least among theirs, one of the choices the records list:
    :func:`~core.io.annotator.vocabulary.evidenced`);
    with no label, the whole numbers' range. The import then refuses a
    grade the legend lacks (:func:`check_legend`) or a label the legend of
    labels lacks (:func:`~core.io.annotator.vocabulary.check_vocabulary`)."""
    texts = text_labels(columns, mapping)
    legends = find_legend(table, mapping)
    if legends.legend is not None:
        return LabelsRead(texts, legends, None, legend_labels(legends.legend, texts))
    words = evidenced(legends.labels, texts, table.listed)
    if not texts:
        return LabelsRead(texts, legends, words, None, number_rubric(columns, header, mapping))
    return LabelsRead(texts, legends, words, guess_labels(
        texts, mapping.sources_header(list(header)), words))
