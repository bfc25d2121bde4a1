"""The one grade grammar: what a grade cell holds, how it reads as text and
how text reads as a grade.

A grade is a number, ``unknown`` (not graded yet) or ``unrateable`` (looked
at, could not be graded): :class:`GradeState`. :func:`grade_text` writes a
grade for people and the audit log. :func:`read_grade` reads text as a grade
through the rubric: numbers, rubric labels, the unknown words (blank,
``unknown``, ``?``, ``tbd`` ...) and the unrateable words (``N/A``, ``-``,
``skip``, ``unrateable: reason`` ...) -- the grammar the grid's editor,
pasting and a workbook's grade cells share; its words include every default
mark the annotator-sheet import reads (:mod:`core.io.annotator`).
:func:`parse_grade` makes a bad pasted cell a :class:`CellError` value (with
row and column) instead of an exception, so a paste can report every bad cell
at once. Splitting clipboard text into cells is :mod:`core.io.clipboard`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from enum import IntEnum

from core.model.conventions import Rubric
from core.model.numbers import NumberError, number_text, read_number

__all__ = [
    "UNKNOWN_REASONS",
    "UNKNOWN_WORDS",
    "UNRATEABLE_WORDS",
    "CellError",
    "GradeState",
    "NotAGrade",
    "PastedGrade",
    "audit_grade",
    "grade_hint",
    "grade_text",
    "is_unknown_note",
    "mark_text",
    "marked_reason",
    "parse_grade",
    "parse_grades",
    "read_grade",
    "read_word",
    "reason_kind",
    "reasons_said",
    "unknown_counted",
    "unknown_note",
    "unknown_reason",
]

#: Texts (compared case-insensitively, blank too) that mean "not graded yet".
UNKNOWN_WORDS = frozenset({"unknown", "?", "not judged", "unjudged", "tbd", "todo"})
#: The phrases of an annotator who could not tell (a crowd task's choice
#: beside the grades: Toloka's and Appen's ``cant_tell``, ``Can't tell``),
#: each as :func:`_written_ways` spells it too.
_CANNOT_TELL = ("can't judge", "cannot judge", "can't tell", "cannot tell", "unable to judge",
                "don't know")


def _written_ways(phrase: str) -> set[str]:
    """A phrase as people and platforms write it: the apostrophe straight,
    curly or left out, and as a platform's choice value, words parted by
    underscores, no apostrophe (``can't tell``, ``can’t tell``, ``cant
    tell``, ``cant_tell``): the few the import wizard lists."""
    bare = phrase.replace("'", "")
    return {phrase, phrase.replace("'", "\u2019"), bare, bare.replace(" ", "_")}


#: Texts that mean "looked at, could not be graded"; ``word: reason`` keeps a reason.
UNRATEABLE_WORDS = frozenset({
    "unrateable", "unratable", "n/a", "na", "#n/a", "-", "skip", "skipped",
    "not rateable", "not ratable",
}.union(*map(_written_ways, _CANNOT_TELL)))


class GradeState(IntEnum):
    """What a grade cell holds. Only numbers take part in the arithmetic."""

    NUMBER = 0
    UNKNOWN = 1
    UNRATEABLE = 2

    @property
    def label(self) -> str:
        # (indexed by the member itself, an int: ``self.value`` is a
        # descriptor in Python's enum, ~1 us a read, and a painted grid
        # asks a state's word ~130 times a paint)
        return _STATE_LABELS[self]


_STATE_LABELS = ("number", "unknown", "unrateable")


def grade_text(grade: float, state: int) -> str:
    """How a grade reads for people: the number, ``unknown`` or ``unrateable``."""
    if state == GradeState.NUMBER:
        return number_text(grade)
    return GradeState(state).label


def mark_text(word: str) -> str:
    """How an annotator's unrateable mark reads for people: the state's
    word and the mark as they wrote it (the grammar's ``unrateable:
    reason``, as the grid shows an unrateable grade's reason), the word
    alone where the mark was that word or is not known.

    >>> mark_text("n/a"), mark_text("Unrateable"), mark_text("")
    ('unrateable: n/a', 'unrateable', 'unrateable')
    """
    label = GradeState.UNRATEABLE.label
    return label if word.strip().casefold() in ("", label) else f"{label}: {word}"



#: Why an imported grade is unknown, where the import knows it: the reason
#: an unknown grade carries beside its state (an unrateable grade's reason
#: is the annotator's or the reviewer's words). Each kind of item no one
#: judged (:data:`core.io.annotator.rows.KEPT_UNKNOWN`): the words of one
#: item's reason, ``{n}`` its annotators, and of a count of such items. The
#: reason is no grade state: the item was never judged, and the
#: unknown-grade convention treats it as every unknown grade
#: (docs/conventions.md, "Why a grade is unknown").
UNKNOWN_REASONS: dict[str, tuple[str, str]] = {
    "declined": ("declined by {n}", "declined"),
    "rejected": ("rejected work only, by {n}", "judged only in rejected work"),
    "draft": ("drafts only, by {n}", "with drafts alone"),
}


def unknown_reason(annotators: Mapping[str, int | None]) -> str:
    """The reason of an unknown grade whose item's annotators (kind of
    :data:`UNKNOWN_REASONS` -> how many; None: some, who unknown) declined
    it, judged it only in rejected work or saved a draft alone; the kinds
    in that order.

    >>> unknown_reason({"declined": 2})
    'declined by 2 annotators'
    >>> unknown_reason({"rejected": 1, "declined": 1})
    'declined by 1 annotator; rejected work only, by 1 annotator'
    >>> unknown_reason({"draft": None})  # (drafts exported as their ids alone)
    'drafts only'
    """
    return "; ".join(
        _unsaid(words) if n is None else words.format(n=f"{n} annotator" + ("s" if n != 1
                                                                            else ""))
        for kind, (words, _) in UNKNOWN_REASONS.items()
        if kind in annotators and (n := annotators[kind]) != 0)


def _unsaid(words: str) -> str:
    """A reason's words without its count of annotators (``drafts only``):
    who they were is unknown."""
    return re.sub(r",? by \{n\}$", "", words)


def reason_kind(reason: str) -> str:
    """The kind of :data:`UNKNOWN_REASONS` an unknown grade's reason is
    (the first, when it names several), "" for another reason.

    >>> reason_kind(unknown_reason({"declined": 2})), reason_kind("page gone")
    ('declined', '')
    >>> reason_kind("drafts only"), reason_kind("declined by 1 annotator; drafts only")
    ('draft', 'declined')
    """
    for kind, (words, _) in UNKNOWN_REASONS.items():
        if reason.startswith(words.partition("{")[0]) or reason.partition(";")[0] == _unsaid(
                words):
            return kind
    return ""


def unknown_counted(n_unknown: int, kinds: dict[str, int]) -> str:
    """``n_unknown`` unknown grades, with how many of them carry each kind of
    reason (:meth:`core.model.document.Document.unknown_reasons`; "" is
    another reason).

    >>> unknown_counted(3, {"declined": 2})
    '3 unknown, 2 of them declined'
    >>> unknown_counted(4, {"declined": 1, "rejected": 1, "": 1})
    '4 unknown, 1 of them declined, 1 judged only in rejected work, 1 with another reason'
    >>> unknown_counted(2, {})
    '2 unknown'
    """
    said = reasons_said(kinds)
    if not said:
        return f"{n_unknown} unknown"
    return f"{n_unknown} unknown, " + ", ".join([said[0].replace(" ", " of them ", 1), *said[1:]])


def unknown_note(reason: str) -> str:
    """What an unknown grade says of why it is unknown, where it has a
    reason: the grid's tooltip and the workbook's comment on the grade cell
    (docs/conventions.md, "Why a grade is unknown"); :func:`is_unknown_note`
    knows it again.

    >>> unknown_note("declined by 2 annotators")
    'unknown: declined by 2 annotators, no judgment (not 0)'
    """
    return f"{_NOTE_HEAD}{reason}{_NOTE_TAIL}"


_NOTE_HEAD, _NOTE_TAIL = f"{GradeState.UNKNOWN.label}: ", ", no judgment (not 0)"


def is_unknown_note(text: str) -> bool:
    """Whether ``text`` is an :func:`unknown_note` (its blanks around
    aside: a spreadsheet may add some), whatever the reason.

    >>> is_unknown_note(unknown_note("drafts only, by 1 annotator") + "\\n")
    True
    >>> is_unknown_note("unknown: ask Ana")
    False
    """
    said = text.strip()
    return (said.startswith(_NOTE_HEAD) and said.endswith(_NOTE_TAIL)
            and len(said) > len(_NOTE_HEAD) + len(_NOTE_TAIL))


def reasons_said(kinds: dict[str, int]) -> list[str]:
    """How many unknown grades carry each kind of reason, in words, in the
    order of :data:`UNKNOWN_REASONS`, another reason last.

    >>> reasons_said({"": 1, "declined": 2})
    ['2 declined', '1 with another reason']
    """
    said = [f"{kinds[kind]} {words}" for kind, (_, words) in UNKNOWN_REASONS.items()
            if kinds.get(kind)]
    if kinds.get(""):
        said.append(f"{kinds['']} with another reason")
    return said


def audit_grade(said: str) -> str:
    """The grade an audit entry's from or to says (:meth:`Document.set_grade`
    writes a grade that is not a number with its reason, ``unknown: declined
    by 2 annotators``, ``unrateable: paywall``), without that reason.

    >>> audit_grade("unknown: declined by 2 annotators"), audit_grade("2")
    ('unknown', '2')
    >>> audit_grade("unrateable: paywall"), audit_grade("unrateable")
    ('unrateable', 'unrateable')
    """
    head, colon, _ = said.partition(": ")
    return head if colon and head in (GradeState.UNKNOWN.label,
                                      GradeState.UNRATEABLE.label) else said


@dataclass(frozen=True)
class PastedGrade:
    """A grade read from pasted text: the value (None unless a number), its state, a reason."""

    grade: float | None
    state: GradeState
    reason: str = ""


@dataclass(frozen=True)
class CellError:
    """A pasted cell that is not a grade.

    Attributes
    ----------
    row, column : int
        0-based position inside the pasted range.
    text : str
        What the cell held.
    problem : str
        Why it is not a grade, in one sentence.
    """

    row: int
    column: int
    text: str
    problem: str

    def __str__(self) -> str:
        return f"row {self.row + 1}, column {self.column + 1}: {self.text!r}: {self.problem}"


def grade_hint(rubric: Rubric | None) -> str:
    """What to type instead of a text that is not a grade: the one hint of
    the grid's paste and editor and of a workbook's grade cell."""
    labels = f"a rubric label ({rubric.text}), " if rubric is not None else ""
    return f"use a number, {labels}blank/unknown or N/A"


class NotAGrade(ValueError):
    """A text that is neither a number nor a word of the grammar: the
    ``detail`` of why (a number's, else "") and the ``hint``
    (:func:`grade_hint`); it reads ``not a grade; <detail>; <hint>``."""

    def __init__(self, detail: str, hint: str) -> None:
        super().__init__("; ".join(t for t in ("not a grade", detail, hint) if t))
        self.detail = detail
        self.hint = hint


def read_word(text: str, rubric: Rubric | None = None) -> PastedGrade | None:
    """The grammar's words (:func:`read_grade`'s reading of a text that is no
    number): blank or one of :data:`UNKNOWN_WORDS` (unknown); a rubric label
    (its grade: read before the marks, so a rubric's ``3=cant_tell`` is
    grade 3); one of :data:`UNRATEABLE_WORDS`, alone or as ``word: reason``
    (unrateable, with the reason). None for any other text (a number or no
    grade). Declared once: the grid, a paste, a workbook's grade cells and a
    worksheet CSV's grade column (whose numbers keep the CSV's own strict
    grammar, :mod:`core.io.delimited`) read the words through it.

    >>> read_word("Unrateable: paywall")
    PastedGrade(grade=None, state=<GradeState.UNRATEABLE: 2>, reason='paywall')
    >>> read_word("N/A").state.label, read_word("?").state.label, read_word("2") is None
    ('unrateable', 'unknown', True)
    """
    cell = text.strip()
    folded = cell.casefold()
    if not cell or folded in UNKNOWN_WORDS:
        return PastedGrade(None, GradeState.UNKNOWN)
    declared = rubric.value_for_label(cell) if rubric is not None else None
    if declared is not None:  # the user's rubric names it a grade, a mark or not
        return PastedGrade(declared, GradeState.NUMBER)
    if folded in UNRATEABLE_WORDS:
        return PastedGrade(None, GradeState.UNRATEABLE)
    given = marked_reason(cell, UNRATEABLE_WORDS)
    return None if given is None else PastedGrade(None, GradeState.UNRATEABLE, given)


def marked_reason(text: str, marks: AbstractSet[str]) -> str | None:
    """The reason ``text`` gives in the grammar's ``mark: reason`` form, its
    mark one of ``marks`` (compared case-folded; :data:`UNRATEABLE_WORDS` in
    :func:`read_word`, a mapping's marks in the annotators' import); None
    for any other text. A blank reason is "" (``unrateable:``).

    >>> marked_reason("Skip: in Finnish", UNRATEABLE_WORDS), marked_reason("2", UNRATEABLE_WORDS)
    ('in Finnish', None)
    """
    head, colon, tail = text.strip().partition(":")
    return tail.strip() if colon and head.strip().casefold() in marks else None


def read_grade(text: str, rubric: Rubric | None = None, *,
               outside_rubric: bool = False) -> PastedGrade:
    """Read text as a grade: the one grammar of the grid's editor, pasted
    cells and a workbook's grade cells.

    Accepted: a finite number by :func:`core.model.numbers.read_number`
    with a decimal comma declared (``2``, ``2.5``, ``2,5``; not ``1_0``,
    ``nan``, ``1e999`` or the ambiguous ``1,000``); a rubric label
    (case-insensitive; read first, so a rubric's ``3=cant_tell`` is grade 3,
    not the mark); ``N=label`` as the rubric prints it; blank or one of
    :data:`UNKNOWN_WORDS` (``unknown``, ``?``, ``tbd`` ...: state unknown);
    one of :data:`UNRATEABLE_WORDS` (``N/A``, ``-``, ``skip``,
    ``unrateable`` ...), alone or as ``word: reason`` (state unrateable, with
    the reason). Words are compared case-insensitively. With a rubric, a
    number outside it is refused unless ``outside_rubric``.

    Raises
    ------
    ValueError
        Why the text is not a grade, in one sentence (:class:`NotAGrade`
        when it is neither a number nor a word of the grammar).

    Examples
    --------
    >>> r = Rubric.parse("0=no,1=partial,2=direct")
    >>> read_grade("unrateable: page gone", r)
    PastedGrade(grade=None, state=<GradeState.UNRATEABLE: 2>, reason='page gone')
    >>> read_grade("7", r, outside_rubric=True).grade
    7.0
    """
    cell = text.strip()
    word = read_word(cell, rubric)
    if word is not None:
        return word
    value, why = _number(cell)
    if why is not None and why.not_finite:
        raise ValueError(why.reason)
    if value is None and rubric is not None:  # N=label, as the rubric prints it
        number, eq, label = cell.partition("=")
        value = _number(number)[0] if eq else None
        if value is not None and (rubric.label_for(value) or "").casefold() != (
            label.strip().casefold()
        ):
            raise ValueError("the number and the rubric label disagree")
    if value is None:
        raise NotAGrade(why.detail if why else "", grade_hint(rubric))
    if rubric is not None and not outside_rubric and rubric.label_for(value) is None:
        allowed = ", ".join(number_text(v) for v in rubric.values)
        raise ValueError(f"{number_text(value)} is not a grade of the rubric ({allowed})")
    return PastedGrade(value, GradeState.NUMBER)


def parse_grade(
    text: str, rubric: Rubric | None = None, *, row: int = 0, column: int = 0
) -> PastedGrade | CellError:
    """Read one pasted cell as a grade (:func:`read_grade`); a cell that is
    not one becomes a :class:`CellError` at ``row``, ``column``.

    With a rubric, a number outside it is an error (a pasted column of
    scores, not grades, is the usual cause).

    Examples
    --------
    >>> r = Rubric.parse("0=no,1=partial,2=direct")
    >>> parse_grade("partial", r)
    PastedGrade(grade=1.0, state=<GradeState.NUMBER: 0>, reason='')
    >>> parse_grade("N/A", r).state.label
    'unrateable'
    >>> print(parse_grade("0.87", r, row=2, column=0))
    row 3, column 1: '0.87': 0.87 is not a grade of the rubric (0, 1, 2)
    """
    try:
        return read_grade(text, rubric)
    except ValueError as exc:
        return CellError(row, column, text, str(exc))


def _number(text: str) -> tuple[float | None, NumberError | None]:
    """The number ``text`` holds (decimal comma declared), else why not."""
    try:
        return read_number(text, decimal_comma=True), None
    except NumberError as exc:
        return None, exc


def parse_grades(
    rows: Sequence[Sequence[str]], rubric: Rubric | None = None
) -> tuple[list[list[PastedGrade | None]], list[CellError]]:
    """Read a rectangle of pasted cells as grades.

    Returns the grid (None where a cell was bad) and the errors, one per
    bad cell, in reading order.
    """
    grid: list[list[PastedGrade | None]] = []
    errors: list[CellError] = []
    for r, row in enumerate(rows):
        out: list[PastedGrade | None] = []
        for c, text in enumerate(row):
            got = parse_grade(text, rubric, row=r, column=c)
            if isinstance(got, CellError):
                errors.append(got)
                out.append(None)
            else:
                out.append(got)
        grid.append(out)
    return grid, errors
