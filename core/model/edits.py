"""Edits as values: what a reviewer can change in a worksheet.

An edit says what it wants (these rows get these grades, or these notes;
these conventions replace the current ones); :class:`core.session.Worksheet` applies it as one
step and answers with a record of what changed. Edits are plain frozen values,
so the window, the command line, a merge or a test build them the same way.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from core.model.conventions import Conventions
from core.model.document import Document, GradeState, grade_text

__all__ = ["Edit", "GradeValue", "Kept", "SetConventions", "SetGrades", "SetNotes",
           "SetQueryText"]


@dataclass(frozen=True)
class GradeValue:
    """A grade cell's full content: the number (or None), the state and the
    unrateable reason.

    Examples
    --------
    >>> GradeValue(2.0, GradeState.NUMBER).text, GradeValue(None, GradeState.UNKNOWN).text
    ('2', 'unknown')
    """

    grade: float | None
    state: GradeState
    reason: str = ""

    @classmethod
    def of(cls, doc: Document, index: int) -> GradeValue:
        """What candidate ``index`` holds now (the reason whatever the state,
        so that restoring it is exact)."""
        state = GradeState(int(doc.state[index]))
        value = float(doc.grade[index])
        return cls(None if state is not GradeState.NUMBER or math.isnan(value) else value,
                   state, str(doc.reason[index]))

    @classmethod
    def typed(cls, grade: float | None, state: GradeState | int, reason: str | None = None,
              ) -> GradeValue:
        """A value as a person enters it: no number unless ``state`` is a
        number, a reason only for an unrateable grade."""
        state = GradeState(state)
        return cls(grade if state is GradeState.NUMBER else None, state,
                   (reason or "") if state is GradeState.UNRATEABLE else "")

    @property
    def text(self) -> str:
        """How the undo menu and an undo's note write it: the state alone
        (the audit entry's from and to add an unrateable grade's reason:
        :meth:`~core.model.document.Document.said_grade`)."""
        return grade_text(math.nan if self.grade is None else self.grade, int(self.state))

    def put(self, doc: Document, index: int) -> None:
        """Give candidate ``index`` this value back exactly (no audit entry:
        what it held before, put back; the grades read never written:
        :meth:`~core.model.document.Document.grades_to_edit`)."""
        doc.grades_to_edit()[index] = math.nan if self.grade is None else self.grade
        doc.state[index] = int(self.state)
        doc.reason[index] = self.reason


@dataclass(frozen=True)
class SetGrades:
    """Give ``rows`` the grades ``values`` (one step, one undo).

    Parameters
    ----------
    rows : tuple of int
        Candidate indices; each at most once.
    values : tuple of GradeValue
        One per row.
    who : str
        The reviewer, for the audit log.
    notes : tuple of str
        One audit note per row (empty tuple: no notes).
    text : str
        How the step reads in the Edit menu ("grade q1/d3: 1 → 2").
    seconds : float or None
        The active seconds the reviewer spent on this step
        (:class:`core.analysis.pace.JudgmentClock`), shared evenly by its
        rows' audit entries; None when not timed (a paste, a script).
    """

    rows: tuple[int, ...]
    values: tuple[GradeValue, ...]
    who: str
    notes: tuple[str, ...] = ()
    text: str = ""
    seconds: float | None = None

    def __post_init__(self) -> None:
        if len(self.rows) != len(self.values):
            raise ValueError("one value per row")
        if self.notes and len(self.notes) != len(self.rows):
            raise ValueError("one note per row, or none")
        if len(set(self.rows)) != len(self.rows):
            raise ValueError("a row is set twice in one step")
        if self.seconds is not None and not (self.seconds >= 0 and math.isfinite(self.seconds)):
            raise ValueError("seconds are a finite number, 0 or more")

    @classmethod
    def of(cls, rows: Sequence[int], values: Sequence[GradeValue], *, who: str,
           note: str = "", text: str = "", seconds: float | None = None) -> SetGrades:
        """The same note for every row."""
        return cls(tuple(int(r) for r in rows), tuple(values), who,
                   (note,) * len(rows) if note else (), text, seconds)

    def note(self, i: int) -> str:
        return self.notes[i] if self.notes else ""

    def row_seconds(self) -> float | None:
        """Each row's share of the step's seconds (one judgment act over
        several candidates, a selection graded at once, splits evenly)."""
        return None if self.seconds is None or not self.rows else self.seconds / len(self.rows)


@dataclass(frozen=True)
class SetNotes:
    """Give ``rows`` the reviewer's notes ``notes`` (one step, one undo): the
    note column of the worksheet (why a grade is so), never a number.

    Parameters
    ----------
    rows : tuple of int
        Candidate indices; each at most once.
    notes : tuple of str
        One per row ("" takes a note away).
    who : str
        The reviewer, for the audit log.
    text : str
        How the step reads in the Edit menu ("note q1/d3").
    why : str
        Why, in the audit log's note of each row's entry ("note conflict
        resolved: ana's note: ..."; "" for a note typed).

    Examples
    --------
    >>> SetNotes.of([4, 7], ["ask the lead"], who="ana").notes
    ('ask the lead', 'ask the lead')
    """

    rows: tuple[int, ...]
    notes: tuple[str, ...]
    who: str
    text: str = ""
    why: str = ""

    def __post_init__(self) -> None:
        if len(self.rows) != len(self.notes):
            raise ValueError("one note per row")
        if len(set(self.rows)) != len(self.rows):
            raise ValueError("a row is set twice in one step")

    @classmethod
    def of(cls, rows: Sequence[int], notes: Sequence[str], *, who: str,
           text: str = "", why: str = "") -> SetNotes:
        """``notes`` one per row, or one note for every row."""
        texts = tuple(str(n) for n in notes)
        if len(texts) == 1:
            texts *= len(rows)
        return cls(tuple(int(r) for r in rows), texts, who, text, why)


@dataclass(frozen=True)
class SetConventions:
    """Replace the document's conventions (every number is computed again);
    ``who`` is the reviewer the audit log names."""

    conventions: Conventions
    text: str = "change conventions"
    who: str = ""


@dataclass(frozen=True)
class SetQueryText:
    """Give query ``query`` the text ``query_text`` ("" takes it away): a
    reviewer fixing a typo in the question an import read beside the id
    (:attr:`~core.model.document.Document.query_texts`). One step, one undo;
    no number changes and no audit entry (the text is no judgment), unless
    ``why`` says why it was set (a conflict of a round's texts settled: the
    choice is logged, as a note conflict's is, :meth:`AuditEntry.of_text`).

    Examples
    --------
    >>> SetQueryText(0, "how do I renew a passport", who="ana").query_text
    'how do I renew a passport'
    """

    query: int
    query_text: str
    who: str = ""
    text: str = "edit the query's text"
    why: str = ""

    def put(self, doc: Document) -> None:
        """Write the text into ``doc`` (no step: the session's apply does)."""
        query_id = doc.query_ids[self.query]
        if self.query_text:
            doc.query_texts[query_id] = self.query_text
        else:
            doc.query_texts.pop(query_id, None)


Edit = SetGrades | SetNotes | SetConventions | SetQueryText


class Kept:
    """A document's judgments as they are, to put back if what follows
    fails partway: each candidate's grade (and note) kept before its first
    write (:meth:`keep`), the conventions, the queries' texts and the audit
    log's length now.

    A session's edit (:class:`core.session.Worksheet`) and a crash journal's
    replay (:meth:`core.io.journal.Journal.replay`) are then all or nothing:
    what they wrote is written back (:meth:`put_back`).

    Examples
    --------
    >>> from core.model.examples import seed_document
    >>> doc = seed_document()
    >>> kept = Kept(doc)
    >>> kept.keep(0)
    >>> _ = doc.set_grade(0, 9.0, who="ana")
    >>> kept.put_back()
    >>> float(doc.grade[0]) == float(doc.original_grade[0]), doc.audit
    (True, [])
    """

    def __init__(self, doc: Document) -> None:
        self.doc = doc
        self.conventions = doc.conventions
        self.audit = len(doc.audit)
        self.grades: dict[int, GradeValue] = {}
        self.notes: dict[int, str] = {}
        self.query_texts = dict(doc.query_texts)
        doc.grades_to_edit()  # (the copy of the grades read, made now: if that fails, nothing is)

    def keep(self, index: int, *, note: bool = False) -> None:
        """Keep candidate ``index``'s grade (``note``: its note) unless kept."""
        if note:
            self.notes.setdefault(index, str(self.doc.note[index]))
        elif index not in self.grades:
            self.grades[index] = GradeValue.of(self.doc, index)

    def unchanged(self) -> bool:
        """Whether every grade and note kept, and the conventions, are as
        they were: what was written since set them back (an edit and its
        undo). The audit log's new entries are no change (the session's
        ``modified`` says the same of an edit undone)."""
        doc = self.doc
        return (doc.conventions == self.conventions and doc.query_texts == self.query_texts
                and all(GradeValue.of(doc, i) == v for i, v in self.grades.items())
                and all(str(doc.note[i]) == n for i, n in self.notes.items()))

    def put_back(self) -> None:
        """The document's judgments, conventions and audit log as they were
        (the last kept put back first)."""
        doc = self.doc
        for index, value in reversed(self.grades.items()):
            value.put(doc, index)
        for index, note in reversed(self.notes.items()):
            doc.set_note(index, note)
        doc.conventions = self.conventions
        doc.query_texts = dict(self.query_texts)
        del doc.audit[self.audit:]
