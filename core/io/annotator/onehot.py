"""One answer per column: a radio button's choices exported as a column
each, true in the one chosen (MTurk's ``Answer.rel.0`` ... ``Answer.rel.3``
of ``true`` / ``false``), read as one column of the chosen choice.

A choice's column is the group's name, a separator and the choice: a whole
number after a dot (``Answer.rel.2``), or, where a suffix says the column
marks a choice taken (MTurk's crowd radio buttons ``Answer.relevant.on``,
``rel-partly-yes``, ``Answer.rel2.on``), a number or a word. A numbered
choice's grade is its number (``Answer.rel.2`` true: grade 2), so nothing
is guessed; a word's is the word, a label read as the grade column's
labels are (a scale, a legend, ``--rubric``). In a group named as the
grade (``Answer.rel``), a numbered one, a row with no choice true, or
several, stops the import in one line naming it. A group of words, or one
otherwise named, with such a row is
a checkbox per choice (several answers allowed: ``Answer.flags.0`` ...),
no radio button: its columns are left as they are. The group's first
column takes the grade under the group's name (``Answer.rel``), its other
columns are emptied, so every other column keeps its letter and the
report names the file's own cells; the report's notes say so.
"""

from __future__ import annotations

import re
from typing import Any

from core.errors import InputError
from core.io.annotator.model import Table, cell_text
from core.io.annotator.names import name_field
from core.io.safety import column_letters

__all__ = ["one_answer_per_column"]

#: A column marking a choice taken: a separator and ``on``, ``yes``, ... last.
_MARKED = re.compile(r"^(?P<rest>.*\S)[.\-_ ](?:on|yes|selected|checked|chosen)$", re.I)
#: A numbered choice: the group's name, a dot, the choice's whole number;
#: where a suffix marks the column, a dash, an underscore or a space too
#: (unmarked, ``grade_1`` | ``grade_2`` are two annotators' checkboxes).
_NUMBERED = re.compile(r"^(?P<group>.*\S)\.(?P<n>\d{1,2})$")
_SEPARATED = re.compile(r"^(?P<group>.*\S)[.\-_ ](?P<n>\d{1,2})$")
#: ... with no separator, where a suffix marks the column (``Answer.rel2.on``).
_JOINED = re.compile(r"^(?P<group>.*[^\W\d_])(?P<n>\d{1,2})$")
#: A word choice, where a suffix marks the column: after the last dot (or dash).
_WORD = re.compile(r"^(?P<group>.*\S)\s*[.]\s*(?P<w>[^.\d]*[^\W\d_][^.\d]*)$")
_DASHED = re.compile(r"^(?P<group>[^-]*\S)\s*-\s*(?P<w>[^-\d]*[^\W\d_][^-\d]*)$")
_TRUE, _FALSE = frozenset({"true"}), frozenset({"false", ""})


def _choice(name: str) -> tuple[str, int | str] | None:
    """The group and the choice a column's header names, None for no choice."""
    marked = _MARKED.match(name)
    rest = marked["rest"] if marked else name
    found = (_SEPARATED.match(rest) or _JOINED.match(rest)) if marked else _NUMBERED.match(rest)
    if found:
        return found["group"], int(found["n"])
    word = (_WORD.match(rest) or _DASHED.match(rest)) if marked else None
    return (word["group"], " ".join(word["w"].split())) if word else None


def _groups(header: list[str]) -> dict[str, list[tuple[int, int | str]]]:
    """Each group's choices (column, number or word), by the group's name,
    of two choices at least, told apart, all numbers or all words."""
    out: dict[str, list[tuple[int, int | str]]] = {}
    for c, name in enumerate(header):
        found = _choice(name.strip())
        if found:
            out.setdefault(found[0], []).append((c, found[1]))
    return {g: cs for g, cs in out.items()
            if len(cs) >= 2 and len({str(n).casefold() for _, n in cs}) == len(cs)
            and len({type(n) for _, n in cs}) == 1}


def _truth(v: Any) -> str:
    return cell_text(v).strip().casefold()


def _all_true_false(table: Table, first: int, cols: list[int]) -> bool:
    """Whether the group's cells are true or false (or blank), a true among them."""
    seen = {_truth(r[c]) if c < len(r) else "" for r in table.rows[first:] for c in cols}
    return "true" in seen and seen <= _TRUE | _FALSE


def _answers(row: list[Any], choices: list[tuple[int, int | str]],
             ) -> list[tuple[int, int | str]] | None:
    """The choices (column, number) true on ``row``; None on a row blank in
    the group."""
    cells = [(c, n, _truth(row[c]) if c < len(row) else "") for c, n in choices]
    if all(t == "" for _, _, t in cells):
        return None
    return [(c, n) for c, n, t in cells if t in _TRUE]


def _chosen(table: Table, r: int, true: list[tuple[int, int | str]] | None,
            choices: list[tuple[int, int | str]], where: str) -> int | str | None:
    """The number of the one choice ``true`` on row ``r`` (:func:`_answers`);
    None on a row blank in the group; refused on a row with none true, or
    several."""
    if true is None:
        return None
    if len(true) == 1:
        return true[0][1]
    said = ("no column true" if not true else
            "true in " + ", ".join(column_letters(c + 1) for c, _ in true))
    raise InputError(
        f"{where} hold one answer per column, true in the one chosen, and this row has "
        f"{said}, so its grade is not known", file=table.file, sheet=table.sheet, line=r + 1,
        column=column_letters(choices[0][0] + 1),
        hint="mark the one answer chosen on this row, or delete the row")


def one_answer_per_column(table: Table, header_row: int) -> Table:
    """The table with each group of one-answer columns read as one grade
    column (in place), the notes saying so."""
    header = [cell_text(v) for v in table.rows[header_row]]
    first = header_row + 1
    for group, choices in _groups(header).items():
        cols = [c for c, _ in choices]
        if not _all_true_false(table, first, cols):
            continue
        where = (f"columns {column_letters(cols[0] + 1)}-{column_letters(cols[-1] + 1)} "
                 f"({header[cols[0]]} ... {header[cols[-1]]})")
        answers = [_answers(table.rows[r], choices) for r in range(first, len(table.rows))]
        # a checkbox per choice (several answers, or none), no grade's radio
        # button; words always so (MTurk's Answer.broken.on | Answer.paywall.on
        # are checkboxes under the HIT's one prefix, named as any answer is)
        if (type(choices[0][1]) is str or name_field(group).field != "grade") and any(
                a is not None and len(a) != 1 for a in answers):
            continue
        grades = [_chosen(table, first + i, a, choices, where) for i, a in enumerate(answers)]
        width = max(cols) + 1
        for r in range(header_row, len(table.rows)):
            row = table.rows[r]
            row.extend([None] * (width - len(row)))
            for c in cols:
                row[c] = None
            row[cols[0]] = group if r == header_row else grades[r - first]
        table.merged.update({c: f"{header[c]}: {where}, one answer per column, read as one "
                             f"grade column {group!r} in {column_letters(cols[0] + 1)}; not "
                             "imported as a column of its own" for c in cols[1:]})
        table.notes.append(
            f"{where}: one answer per column, true in the one chosen; read as one grade "
            f"column {group!r} in {column_letters(cols[0] + 1)}, each row's grade "
            + ("the number its true column ends with" if type(choices[0][1]) is int else
               "the word its true column names, a label read as the grade column's are"))
    return table
