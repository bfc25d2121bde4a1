"""Resolving the conflicts a merge left open: the choices, and where each
conflict stands in a document now.

A conflict (:class:`~core.model.assignment.Conflict`) is resolved by setting
the candidate's grade, one undoable edit like any other: to one reviewer's
grade, or, when every grade is a number, to the declared consensus of the
candidate's annotator ratings (the merge kept each reviewer's grade as their
rating), which keeps both.

A note conflict (:class:`~core.model.assignment.NoteConflict`) is resolved
by setting the candidate's note, one undoable edit too: to one side's note,
or to every version kept, each on its own line named as whose note it is
(:attr:`~core.model.assignment.NoteConflict.kept_both`); a note edited to
anything else settles it too. Where each stands is read from the note, as a
grade conflict's is from the grade: nothing else is stored, so undo, the
crash journal and a reopened workbook agree.

A text conflict (:class:`~core.model.assignment.TextConflict`) is resolved
by setting the query's text (:class:`~core.model.edits.SetQueryText`, one
undoable edit) to one side's: the base's or a reviewer's; where it stands is
read from the text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from core.analysis.consensus import consensus
from core.analysis.rounds.base import GradeKey, grade_key
from core.model.assignment import Conflict, Given, NoteConflict, TextConflict
from core.model.document import Document, GradeState

__all__ = ["BOTH", "NoteResolution", "Resolution", "TextResolution", "conflict_row",
           "conflict_status", "note_conflict_status", "note_edit_kept", "note_resolutions",
           "open_conflicts", "open_note_conflicts", "open_text_conflicts", "resolutions",
           "text_conflict_status", "text_resolutions"]

#: The label of the resolution that keeps both reviewers' grades as ratings.
BOTH = "both"


@dataclass(frozen=True)
class Resolution:
    """One way to settle a conflict: the grade it sets, and what it says."""

    label: str
    text: str
    grade: float | None
    state: GradeState
    reason: str = ""

    @property
    def key(self) -> GradeKey:
        return int(self.state), self.grade, self.reason


@dataclass(frozen=True)
class NoteResolution:
    """One way to settle a note conflict: the note it sets, and what it says."""

    label: str
    text: str
    note: str


def conflict_row(doc: Document, c: Conflict | NoteConflict) -> int | None:
    """The candidate row of ``c`` in ``doc`` (None when it has none)."""
    if c.query not in doc.query_ids:
        return None
    members = doc.members(doc.query_index(c.query))
    hit = members[doc.source_id[members] == c.source_id]
    return int(hit[0]) if hit.size else None


def resolutions(doc: Document, c: Conflict) -> list[Resolution]:
    """Each reviewer's grade, then (when every grade is a number and the
    candidate keeps annotator ratings) both as ratings: their consensus.

    Examples
    --------
    >>> from core.model.assignment import Given
    >>> doc = Document.from_columns(query=["q"], source_id=["a"], grade=[None])
    >>> doc.annotators, doc.ratings = ["ana", "ben"], np.array([[0.0, 3.0]])
    >>> c = Conflict("q", "a", Given("", None, GradeState.UNKNOWN),
    ...              (Given("ana", 0.0, GradeState.NUMBER), Given("ben", 3.0, GradeState.NUMBER)))
    >>> for r in resolutions(doc, c):
    ...     print(r.label, r.grade, r.text)
    ana 0.0 ana's grade: 0
    ben 3.0 ben's grade: 3
    both 1.5 both as ratings: consensus (mean) 1.5
    """
    out = [Resolution(g.reviewer, f"{g.reviewer}'s grade: {_text(g)}", g.grade, g.state,
                      g.reason) for g in c.values]
    i = conflict_row(doc, c)
    numbers = all(g.state is GradeState.NUMBER for g in c.values)
    if i is None or not numbers or doc.ratings is None or np.isnan(doc.ratings[i]).all():
        return out
    conv = doc.conventions
    grades, _ = consensus(doc.ratings[[i]], conv.consensus, conv.rounding)
    value = float(grades[0])
    shown = Given(BOTH, value, GradeState.NUMBER)
    rounding = "" if conv.rounding.value == "none" else f", {conv.rounding.value}"
    out.append(Resolution(BOTH, f"both as ratings: consensus ({conv.consensus.value}"
                                f"{rounding}) {shown.text}", value, GradeState.NUMBER))
    return out


def conflict_status(doc: Document, c: Conflict) -> str:
    """Where ``c`` stands: the resolution its candidate's grade matches
    (``ana``, ``both``), ``open`` while it keeps the base's grade,
    ``changed`` when set to another grade, ``gone`` without its candidate."""
    i = conflict_row(doc, c)
    if i is None:
        return "gone"
    now = grade_key(doc, i)
    for r in resolutions(doc, c):
        if r.key == now:
            return r.label
    base = c.base
    if (int(base.state), base.grade, base.reason) == now:
        return "open"
    return "changed"


def open_conflicts(doc: Document) -> list[Conflict]:
    """The conflicts of ``doc``'s round that still keep the base's grade."""
    if doc.assignment is None:
        return []
    return [c for c in doc.assignment.conflicts if conflict_status(doc, c) == "open"]


def note_resolutions(c: NoteConflict) -> list[NoteResolution]:
    """Each side's note (the base's first, when it changed it), then every
    version kept, each labelled on its own line.

    Examples
    --------
    >>> c = NoteConflict("q", "a", "check the date", "lead", (("ana", "page moved"),))
    >>> for r in note_resolutions(c):
    ...     print(r.label, repr(r.note), r.text)
    lead 'check the date' lead's note: check the date
    ana 'page moved' ana's note: page moved
    both "lead's note: check the date\\nana's note: page moved" both notes, each labelled
    """
    return [NoteResolution(who, f"{who}'s note: {note}", note) for who, note in c.sides] + [
        NoteResolution(BOTH, f"{c.every} notes, each labelled",
                       c.kept_both)]


def note_conflict_status(doc: Document, c: NoteConflict) -> str:
    """Where note conflict ``c`` stands: the resolution its candidate's
    note matches (``ana``, ``both``), ``open`` while it holds the merged
    note, ``changed`` when edited to another, ``gone`` without its
    candidate."""
    i = conflict_row(doc, c)
    if i is None:
        return "gone"
    now = str(doc.note[i])
    for r in note_resolutions(c):
        if r.note == now:
            return r.label
    if now == c.kept_both_before:
        return BOTH
    return "open" if now == c.merged else "changed"


def note_edit_kept(c: NoteConflict, note: str) -> list[str]:
    """Whose notes (each side's name, in :attr:`NoteConflict.sides`'
    order) a note written by hand over conflict ``c`` still holds, its
    words whole (case and spacing aside): the side that won an edit, or
    every side, or none (rewritten).

    Examples
    --------
    >>> c = NoteConflict("q", "a", "check the date", "lead", (("ana", "page moved"),))
    >>> note_edit_kept(c, "Page moved (checked on Monday)")
    ['ana']
    >>> note_edit_kept(c, "check the date; page moved")
    ['lead', 'ana']
    >>> note_edit_kept(c, "the link is dead")
    []
    """
    said = " ".join(note.split()).casefold()
    return [who for who, side in c.sides
            if (words := " ".join(side.split()).casefold())
            and re.search(rf"(?<!\w){re.escape(words)}(?!\w)", said) is not None]


def open_note_conflicts(doc: Document) -> list[NoteConflict]:
    """The note conflicts of ``doc``'s round that still hold the merged note."""
    if doc.assignment is None:
        return []
    return [c for c in doc.assignment.note_conflicts
            if note_conflict_status(doc, c) == "open"]


@dataclass(frozen=True)
class TextResolution:
    """One way to settle a conflict of a query's texts: the text it sets
    (one side's: a text is one question, so none keeps both), and what it
    says."""

    label: str
    text: str
    query_text: str


def text_resolutions(c: TextConflict) -> list[TextResolution]:
    """Each side's text: the base's first (Keep mine), then each reviewer's
    (Keep theirs).

    Examples
    --------
    >>> c = TextConflict("q", "How do I renew it?", True, (("ana", "How do I renew a passport?"),))
    >>> for r in text_resolutions(c):
    ...     print(r.label, r.text)
    base base's text: How do I renew it?
    ana ana's text: How do I renew a passport?
    """
    return [TextResolution(who, f"{who}'s text: {text or '(none)'}", text)
            for who, text in c.sides]


def text_conflict_status(doc: Document, c: TextConflict) -> str:
    """Where text conflict ``c`` stands: the side whose text the query has
    now (``base``, ``ana``), ``open`` while it holds the merged text,
    ``changed`` when edited to another, ``gone`` without its query."""
    if c.query not in doc.query_ids:
        return "gone"
    now = doc.query_texts.get(c.query, "")
    for r in text_resolutions(c):
        if r.query_text == now:
            return r.label
    return "open" if now == c.merged else "changed"


def open_text_conflicts(doc: Document) -> list[TextConflict]:
    """The text conflicts of ``doc``'s round that still hold the merged text."""
    if doc.assignment is None:
        return []
    return [c for c in doc.assignment.text_conflicts
            if text_conflict_status(doc, c) == "open"]


def _text(g: Given) -> str:
    return f"{g.text}: {g.reason}" if g.state is GradeState.UNRATEABLE and g.reason else g.text
