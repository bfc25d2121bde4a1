"""One answer per column: a radio button's choices exported as a column
each, true in the one chosen (MTurk's ``Answer.rel.0`` ... ``Answer.rel.3``
of ``true`` / ``false``; an HTML form's ``on`` / nothing), read as one
column of the chosen choice.

A choice's column is the group's name, a separator and the choice: a whole
number after a dot (``Answer.rel.2``), or, where a suffix says the column
marks a choice taken (MTurk's crowd radio buttons ``Answer.relevant.on``,
``rel-partly-yes``, ``Answer.rel2.on``), a number or a word; with no
suffix, a word after a dot where the words are a known scale's levels or
the group's name a grade's (``Answer.rel.relevant``; ``Input.is_mobile``
| ``Input.is_desktop`` are no choices of a grade). A numbered
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

A checkbox beside the choices (``Answer.unsure.on``) is none of them: a
word among numbered choices (``Answer.rel.unsure.on``), a column of words
true on every row where two are (and, left out, one choice a row), or a
column of true / false alone under the group's first name. It is left out
(emptied), the report saying so; a row where it is ticked and no choice
is holds no judgment.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from core.errors import InputError
from core.io.annotator.model import Table, cell_text
from core.io.annotator.names import name_field, names_grade_itself
from core.io.annotator.scales import LEVEL_NAMES, label_key
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
_TRUE, _FALSE = frozenset({"true", "on"}), frozenset({"false", ""})


@dataclass
class _Group:
    """A group's choices (column, number or word), and the checkboxes
    beside them (columns of words among numbered choices)."""

    choices: list[tuple[int, int | str]]
    boxes: list[int] = field(default_factory=list)


def _choice(name: str) -> tuple[str, int | str, bool] | None:
    """The group and the choice a column's header names, and whether a
    suffix marks it; None for no choice."""
    marked = _MARKED.match(name)
    rest = marked["rest"] if marked else name
    found = (_SEPARATED.match(rest) or _JOINED.match(rest)) if marked else _NUMBERED.match(rest)
    if found:
        return found["group"], int(found["n"]), bool(marked)
    word = (_WORD.match(rest) or _DASHED.match(rest)) if marked else _WORD.match(rest)
    return (word["group"], " ".join(word["w"].split()), bool(marked)) if word else None


def _groups(header: list[str]) -> tuple[dict[str, _Group], dict[int, str]]:
    """Each group of two choices at least, told apart, by the group's name:
    numbered (the words among them its checkboxes), or of words (unmarked,
    only where the words are a known scale's levels or the group's name is
    a grade's: ``Answer.rel.relevant``; ``Input.query`` | ``Input.url``
    are no choices); and the columns named as one choice alone (MTurk's
    ``Answer.unsure.on``), by column, with their group's name."""
    found: dict[str, list[tuple[int, int | str, bool]]] = {}
    for c, name in enumerate(header):
        parsed = _choice(name.strip())
        if parsed:
            found.setdefault(parsed[0], []).append((c, parsed[1], parsed[2]))
    out: dict[str, _Group] = {}
    for g, cs in found.items():
        numbers: list[tuple[int, int | str]] = [(c, n) for c, n, _ in cs if type(n) is int]
        # where some words are marked as a choice taken (Answer.relevant.on),
        # those are the choices; an unmarked one beside them (Answer.comments)
        # is a column of its own
        marked = any(m for _, w, m in cs if type(w) is str)
        words: list[tuple[int, int | str]] = [(c, w) for c, w, m in cs if type(w) is str
                                              and (m or not marked or numbers)]
        if len(numbers) >= 2 and len({n for _, n in numbers}) == len(numbers):
            out[g] = _Group(numbers, [c for c, _ in words])
        elif not numbers and len(words) >= 2 and len(
                {str(w).casefold() for _, w in words}) == len(words) and (
                marked or names_grade_itself(g)
                or all(label_key(str(w)) in LEVEL_NAMES for _, w in words)):
            out[g] = _Group(words)
    # a column named as one choice, alone or beside others that make no
    # group (Answer.unsure by Answer.comments): a checkbox, if its values say so
    used = {c for grp in out.values() for c in (*(c for c, _ in grp.choices), *grp.boxes)}
    alone = {c: g for g, cs in found.items() for c, _, _ in cs
             if c not in used and (len(cs) == 1 or g not in out)}
    return out, alone


def _truth(v: Any) -> str:
    return cell_text(v).strip().casefold()


def _all_true_false(table: Table, first: int, cols: list[int], ticked: bool = True) -> bool:
    """Whether the columns' cells are true or false (or blank; ``on`` or
    blank, as an HTML checkbox's), a true among them unless not ``ticked``,
    and some cell filled (a column blank on every row is empty, no
    checkbox: an MTurk comments box no one filled was 'a checkbox beside
    the radio button ..., ticked on 0 rows')."""
    seen = {_truth(r[c]) if c < len(r) else "" for r in table.rows[first:] for c in cols}
    return (not ticked or bool(seen & _TRUE)) and seen <= _TRUE | _FALSE and seen != {""}


def _trues(table: Table, first: int, cols: list[int]) -> list[set[int]]:
    """Each row's columns of ``cols`` holding true."""
    return [{c for c in cols if c < len(r) and _truth(r[c]) in _TRUE}
            for r in table.rows[first:]]


def _box_among(table: Table, first: int, group: _Group) -> int | None:
    """The one column of a group of words that is a checkbox, not a choice
    (MTurk's ``Answer.unsure.on`` among ``Answer.relevant.on`` ...): true
    on every row where several are, and, left out, every row has one
    choice true (or none, where it is)."""
    cols = [c for c, _ in group.choices]
    trues = _trues(table, first, cols)
    several = [t for t in trues if len(t) > 1]
    common = set.intersection(*several) if several else set()
    if len(common) != 1 or len(cols) < 3:
        return None
    box = common.pop()
    answered = [t for t, r in zip(trues, table.rows[first:], strict=True)
                if any(c < len(r) and _truth(r[c]) for c in cols)]
    return box if all(len(t - {box}) == 1 or t == {box} for t in answered) else None


def _answers(row: list[Any], choices: list[tuple[int, int | str]], boxes: list[int],
             ) -> list[tuple[int, int | str]] | None:
    """The choices (column, number) true on ``row``; None on a row blank in
    the group, or with none true and a checkbox beside them true (``unsure``
    ticked instead of a grade: no judgment)."""
    cells = [(c, n, _truth(row[c]) if c < len(row) else "") for c, n in choices]
    if all(t == "" for _, _, t in cells):
        return None
    true = [(c, n) for c, n, t in cells if t in _TRUE]
    if not true and any(b < len(row) and _truth(row[b]) in _TRUE for b in boxes):
        return None
    return true


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
    column (in place), the notes saying so; a checkbox beside such a group
    (``Answer.unsure.on``) left out, saying so."""
    header = [cell_text(v) for v in table.rows[header_row]]
    groups, alone = _groups(header)
    for name, group in groups.items():
        # a checkbox of its own beside the group (Answer.unsure.on by Answer.rel.N.on)
        beside = [c for c, of in alone.items() if _root(of) == _root(name)]
        if _read_group(table, header_row, header, name, group, beside):
            alone = {c: of for c, of in alone.items() if c not in beside}
    return table


def _root(name: str) -> str:
    """A group's first name (``Answer`` of ``Answer.rel``)."""
    return name.split(".", 1)[0].strip().casefold()


def _read_group(table: Table, header_row: int, header: list[str], name: str,
                group: _Group, beside: list[int]) -> bool:
    """Read ``group`` as one grade column ``name`` in its first column if
    it is a radio button's (one true a row), the checkboxes among or
    ``beside`` its choices left out; whether it was."""
    first = header_row + 1
    if not _all_true_false(table, first, [c for c, _ in group.choices]):
        return False
    boxes = [b for b in [*group.boxes, *beside]
             if _all_true_false(table, first, [b], ticked=False)]
    box = _box_among(table, first, group) if type(group.choices[0][1]) is str else None
    if box is not None:
        boxes.append(box)
        group = _Group([(c, n) for c, n in group.choices if c != box])
    cols = [c for c, _ in group.choices]
    span = (f"{column_letters(cols[0] + 1)}-{column_letters(cols[-1] + 1)}"
            if cols == list(range(cols[0], cols[-1] + 1)) else  # (side by side, or not)
            ", ".join(column_letters(c + 1) for c in cols))
    where = f"columns {span} ({header[cols[0]]} ... {header[cols[-1]]})"
    answers = [_answers(table.rows[r], group.choices, boxes)
               for r in range(first, len(table.rows))]
    # a checkbox per choice (several answers, or none), no grade's radio
    # button; words always so (MTurk's Answer.broken.on | Answer.paywall.on
    # are checkboxes under the HIT's one prefix, named as any answer is),
    # unless one of them is a checkbox beside the others (_box_among)
    if box is None and (type(group.choices[0][1]) is str or name_field(name).field != "grade") \
            and any(a is not None and len(a) != 1 for a in answers):
        return False
    grades = [_chosen(table, first + i, a, group.choices, where) for i, a in enumerate(answers)]
    width = max(cols) + 1
    for r in range(header_row, len(table.rows)):
        row = table.rows[r]
        row.extend([None] * (width - len(row)))
        for c in cols:
            row[c] = None
        row[cols[0]] = name if r == header_row else grades[r - first]
    table.merged.update({c: (cols[0], f"{header[c]}: {where}, one answer per column, read as "
                             f"one grade column {name!r} in {column_letters(cols[0] + 1)}; "
                             "not imported as a column of its own") for c in cols[1:]})
    table.notes.append(
        f"{where}: one answer per column, true in the one chosen; read as one grade "
        f"column {name!r} in {column_letters(cols[0] + 1)}, each row's grade "
        + ("the number its true column ends with" if type(group.choices[0][1]) is int else
           "the word its true column names, a label read as the grade column's are"))
    for b in boxes:
        _leave_box(table, header_row, header, b, name, where)
    return True


def _leave_box(table: Table, header_row: int, header: list[str], c: int, radio: str,
               where: str) -> None:
    """Leave out column ``c``, a checkbox beside the radio button ``radio``
    read from ``where`` (``Answer.unsure.on``: true or false on each row,
    ticked beside a choice or instead of one), saying so: never a grade."""
    ticked = sum(1 for r in table.rows[header_row + 1:] if c < len(r) and _truth(r[c]) in _TRUE)
    for r in table.rows[header_row + 1:]:  # (its header kept: the report names it)
        if c < len(r):
            r[c] = None
    table.merged[c] = None, (
        f"{header[c]}: a checkbox beside the radio button {radio!r} of {where}, ticked on "
        f"{ticked} row{'' if ticked == 1 else 's'}: not one of its grades; not imported")
