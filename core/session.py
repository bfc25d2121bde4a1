"""A worksheet session: one document, its evaluation and the undo history,
with no Qt in sight.

Every change goes through :meth:`Worksheet.apply` as an edit value
(:mod:`core.model.edits`) and comes back as one :class:`Changes` record:
which candidates changed, which queries' numbers may have moved, whether the
conventions changed, and the audit entries written. Whoever shows or keeps
the worksheet (the window's Qt models, the crash journal, the plots)
subscribes to those records instead of being told by a window or diffing
columns: a paste of 50 grades is one step, one re-evaluation, one record,
and undoing it is the same (the pattern of Anki's ``OpChanges`` and napari's
evented containers).

The one undo history lives here: :meth:`undo` and :meth:`redo` step through
the applied edits, writing the audit log's compensating entries (origin
``undo`` and ``redo``), so the log stays append-only and tells the truth,
including a change of mind. So does the saved position: :meth:`mark_saved`
records which state of the history the file on disk holds, and
:attr:`modified` is whether the current state is another one (undoing back to
the saved state makes the document unmodified again; an edit made after an
undo, which drops the redo tail the saved state was on, makes it unreachable).
The window only reads all this (:attr:`can_undo`, :attr:`undo_text`,
:attr:`modified`, ...) each time it is told of a step, as Anki's screens read
its collection's ``undo_status()``.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import cast

import numpy as np
import numpy.typing as npt

from core.engine.evaluation import Evaluation, evaluate
from core.engine.incremental import reevaluate
from core.errors import ConventionError
from core.model.audit import AuditEntry, timestamp
from core.model.conventions import Conventions
from core.model.document import Document, GradeState
from core.model.edits import (
    Edit,
    GradeValue,
    Kept,
    SetConventions,
    SetGrades,
    SetNotes,
    SetQueryText,
)

__all__ = ["Changes", "Listener", "Worksheet"]

IntArray = npt.NDArray[np.int64]
_NONE: IntArray = np.zeros(0, dtype=np.int64)


@dataclass(frozen=True)
class Changes:
    """What one step changed.

    Attributes
    ----------
    rows : ndarray of int
        Candidates whose grade, state or reason changed, in the order they
        were written (one audit entry each, same order).
    queries : ndarray of int
        Queries whose numbers may have changed, or a note of (sorted).
    conventions : bool
        The conventions changed: every number may have changed.
    document : bool
        The whole document was replaced (opened, recovered, imported).
    notes : ndarray of int
        Candidates whose note changed, in the order they were written (one
        audit entry each, same order); a note changes no number.
    audit : tuple of AuditEntry
        The entries this step appended to the audit log: one per row (or
        note), or for a change of conventions one per convention changed.
    origin : str
        ``app`` (a new edit), ``undo``, ``redo``, ``open`` or ``save``. A
        record of origin ``save`` changes nothing (:attr:`empty`): only the
        saved position moved (:attr:`Worksheet.modified` may have changed).
    text : str
        The step's description ("paste 50 grades").
    query_text : bool
        A query's text changed (:attr:`queries` names it); no number did.
    """

    rows: IntArray = field(default_factory=lambda: _NONE)
    queries: IntArray = field(default_factory=lambda: _NONE)
    conventions: bool = False
    document: bool = False
    audit: tuple[AuditEntry, ...] = ()
    origin: str = "app"
    text: str = ""
    notes: IntArray = field(default_factory=lambda: _NONE)
    query_text: bool = False

    @property
    def everything(self) -> bool:
        """Every number and view may have changed."""
        return self.conventions or self.document

    @property
    def empty(self) -> bool:
        return not (self.rows.size or self.notes.size or self.conventions or self.document
                    or self.query_text)

    @property
    def lead(self) -> int | None:
        """The candidate a view shows for this step (None: no grade or note
        changed): the first row the edit wrote, also when undone (an undo
        writes the edit's rows back last first)."""
        rows = self.rows if self.rows.size else self.notes
        if not rows.size:
            return None
        return int(rows[-1] if self.origin == "undo" else rows[0])


Listener = Callable[[Changes], None]


@dataclass(frozen=True)
class _Step:
    """One applied edit and what it replaced."""

    edit: Edit
    before: tuple[GradeValue, ...] | tuple[str, ...] | Conventions
    #: The state this step leads to (see :attr:`Worksheet.checkpoint`).
    state: int


class Worksheet:
    """A document, its current evaluation and the history of edits.

    Parameters
    ----------
    document : Document
    evaluation : Evaluation, optional
        ``evaluate(document)`` when the caller has it already.

    Examples
    --------
    >>> from core.model.examples import seed_document
    >>> ws = Worksheet(seed_document())
    >>> seen = []
    >>> _ = ws.subscribe(seen.append)
    >>> change = ws.apply(SetGrades.of([0, 1], [GradeValue(0.0, GradeState.NUMBER)] * 2,
    ...                                who="ana", text="two grades"))
    >>> change.rows.tolist(), len(change.audit), len(seen)
    ([0, 1], 2, 1)
    >>> ws.undo().origin, ws.can_undo, ws.can_redo
    ('undo', False, True)
    >>> ws.modified, ws.redo_text
    (False, 'two grades')
    """

    def __init__(self, document: Document, evaluation: Evaluation | None = None) -> None:
        if evaluation is not None and (evaluation.doc is not document
                                       or evaluation.conventions != document.conventions):
            raise ValueError("the evaluation given is not of this document")
        self._doc = document
        self._ev = evaluation if evaluation is not None else evaluate(document)
        self._history: list[_Step] = []
        self._done = 0
        self._listeners: list[Listener] = []
        #: States are numbered as they are made, never reused: the state of
        #: the document as given, then one per applied edit.
        self._states = itertools.count(1)
        self._base = next(self._states)
        self._saved: int | None = self._base

    # -- state ---------------------------------------------------------------------------
    @property
    def document(self) -> Document:
        return self._doc

    @property
    def evaluation(self) -> Evaluation:
        return self._ev

    @property
    def conventions(self) -> Conventions:
        return self._doc.conventions

    @property
    def can_undo(self) -> bool:
        return self._done > 0

    @property
    def can_redo(self) -> bool:
        return self._done < len(self._history)

    @property
    def position(self) -> int:
        """How many steps of the history are applied."""
        return self._done

    def step_text(self, i: int) -> str:
        """The description of history step ``i``."""
        return self._history[i].edit.text

    @property
    def undo_text(self) -> str | None:
        """The description of the step :meth:`undo` would undo (None: none)."""
        return self._history[self._done - 1].edit.text if self._done else None

    @property
    def redo_text(self) -> str | None:
        """The description of the step :meth:`redo` would apply (None: none)."""
        return self._history[self._done].edit.text if self.can_redo else None

    @property
    def checkpoint(self) -> int:
        """The state the document is in: a number that names this point of the
        history (undoing and redoing back to it gives the same number again;
        no other state ever has it)."""
        return self._history[self._done - 1].state if self._done else self._base

    @property
    def modified(self) -> bool:
        """The document differs from the saved state (or none is reachable)."""
        return self._saved != self.checkpoint

    def mark_saved(self, checkpoint: int | None = None) -> Changes:
        """The file now holds state ``checkpoint`` (default: the current one;
        given, e.g. the state a snapshot was written from while edits went
        on); listeners are told with an empty record of origin ``save``. A
        state of a document replaced since is ignored."""
        if checkpoint is not None and checkpoint < self._base:
            return Changes()  # a state of the document shown before: not this one's
        self._saved = self.checkpoint if checkpoint is None else checkpoint
        return self._tell(Changes(origin="save"))

    # -- listening -----------------------------------------------------------------------
    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener(changes)`` after every step, and with an empty record
        (origin ``save``) when the saved position moves; returns the way to stop."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def _tell(self, changes: Changes) -> Changes:
        """Tell every listener of ``changes``, in the order they subscribed.

        The step is made before anyone is told, so a listener that raises (a
        view's bug, memory running out while it refreshes) cannot undo it:
        the listeners after it are told all the same, and the first failure
        is raised once all were (a view left half refreshed by it is the
        only one; the others show the step whole)."""
        failure: Exception | None = None
        for listener in list(self._listeners):
            try:
                listener(changes)
            except Exception as exc:  # (MemoryError too: the next listener may need less)
                failure = failure or exc
        if failure is not None:
            raise failure
        return changes

    # -- steps ---------------------------------------------------------------------------
    def check(self, edit: Edit) -> None:
        """Raise :class:`~core.errors.ConventionError` for a grade the current
        conventions cannot take (a negative grade under exponential gain)."""
        if isinstance(edit, SetGrades):
            gain = self.conventions.gain
            if not gain.accepts_negative() and any(
                    v.state is GradeState.NUMBER and v.grade is not None and v.grade < 0
                    for v in edit.values):
                raise ConventionError(
                    f"A negative grade cannot take {gain.label}; choose linear gain or a "
                    "gain table.")

    def apply(self, edit: Edit) -> Changes:
        """Apply ``edit`` as one step of the history and tell the listeners.

        Rows that already hold the value asked for are left out; an edit that
        changes nothing is no step (its :class:`Changes` is empty and nobody
        is told). Raises :class:`~core.errors.NdcgError` (nothing changed) when
        the result cannot be evaluated.
        """
        self.check(edit)
        if isinstance(edit, SetConventions):
            if edit.conventions == self.conventions:
                return Changes()
            step = _Step(edit, self.conventions, next(self._states))
            history = [*self._history[:self._done], step]  # (made first: see below)
            changes = self._set_conventions(edit.conventions, "app", edit.text, edit.who,
                                            edit.text)
        elif isinstance(edit, SetQueryText):
            before = self._doc.query_text(edit.query)
            if before == edit.query_text:
                return Changes()
            step = _Step(edit, (before,), next(self._states))
            history = [*self._history[:self._done], step]
            changes = self._set_query_text(edit, "app")
        elif isinstance(edit, SetNotes):
            edit = self._effective_notes(edit)
            if not edit.rows:
                return Changes()
            step = _Step(edit, tuple(str(self._doc.note[r]) for r in edit.rows),
                         next(self._states))
            history = [*self._history[:self._done], step]
            changes = self._set_notes(edit.rows, edit.notes, edit.who, "app", edit.text,
                                      edit.why)
        else:
            edit = self._effective(edit)
            if not edit.rows:
                return Changes()
            step = _Step(edit, tuple(GradeValue.of(self._doc, r) for r in edit.rows),
                         next(self._states))
            history = [*self._history[:self._done], step]
            changes = self._set_grades(edit.rows, edit.values, edit.who,
                                       [edit.note(i) for i in range(len(edit.rows))],
                                       "app", edit.text, seconds=edit.row_seconds())
        # The history with its new step is made before the change and taken
        # after it without allocating: an edit is never made without its step.
        self._history = history
        self._done += 1
        return self._tell(changes)

    def undo(self) -> Changes | None:
        """Undo the last applied step (None when there is none)."""
        if not self._done:
            return None
        step = self._history[self._done - 1]
        edit = step.edit
        if isinstance(edit, SetConventions):
            assert isinstance(step.before, Conventions)
            changes = self._set_conventions(step.before, "undo", edit.text, edit.who,
                                            f"undo of {edit.text}")
        elif isinstance(edit, SetQueryText):
            assert isinstance(step.before, tuple)
            changes = self._set_query_text(
                replace(edit, query_text=str(step.before[0]),
                        why=f"undo of {edit.why}" if edit.why else ""), "undo")
        elif isinstance(edit, SetNotes):
            assert isinstance(step.before, tuple)
            back = range(len(edit.rows) - 1, -1, -1)
            changes = self._set_notes([edit.rows[i] for i in back],
                                      [str(step.before[i]) for i in back], edit.who, "undo",
                                      edit.text, f"undo of {edit.why}" if edit.why else "")
        else:
            before = cast(tuple[GradeValue, ...], step.before)  # (a SetGrades step's)
            back = range(len(edit.rows) - 1, -1, -1)  # the last written is undone first
            changes = self._set_grades(
                [edit.rows[i] for i in back], [before[i] for i in back], edit.who,
                [f"undo of {before[i].text} → {edit.values[i].text}" for i in back],
                "undo", edit.text)
        self._done -= 1
        return self._tell(changes)

    def redo(self) -> Changes | None:
        """Apply again the step last undone (None when there is none)."""
        if not self.can_redo:
            return None
        edit = self._history[self._done].edit
        if isinstance(edit, SetConventions):
            changes = self._set_conventions(edit.conventions, "redo", edit.text, edit.who,
                                            f"redo: {edit.text}")
        elif isinstance(edit, SetQueryText):
            changes = self._set_query_text(
                replace(edit, why=f"redo: {edit.why}" if edit.why else ""), "redo")
        elif isinstance(edit, SetNotes):
            changes = self._set_notes(edit.rows, edit.notes, edit.who, "redo", edit.text,
                                      f"redo: {edit.why}" if edit.why else "")
        else:
            notes = [f"redo: {edit.note(i)}".rstrip(": ") for i in range(len(edit.rows))]
            changes = self._set_grades(edit.rows, edit.values, edit.who, notes, "redo",
                                       edit.text)
        self._done += 1
        return self._tell(changes)

    def replace_document(self, document: Document, evaluation: Evaluation | None = None,
                         *, saved: bool = True) -> Changes:
        """Start over on another document (opened, recovered, imported): the
        history is cleared, and the new document is the saved state unless
        ``saved`` is False (recovered edits, not on disk yet). Raises before
        anything changes when ``document`` cannot be evaluated under its
        conventions."""
        ev = evaluation if evaluation is not None else evaluate(document)
        if ev.doc is not document:
            raise ValueError("the evaluation given is not of this document")
        self._doc, self._ev = document, ev
        self._history.clear()
        self._done = 0
        self._base = next(self._states)
        self._saved = self._base if saved else None
        return self._tell(Changes(
            queries=np.arange(document.n_queries, dtype=np.int64), document=True,
            origin="open"))

    # -- internals -------------------------------------------------------------------------
    def _effective(self, edit: SetGrades) -> SetGrades:
        """``edit`` without the rows that hold their value already (unknown
        typed over an unknown grade is none, whatever its reason: an item
        the annotators declined keeps saying so)."""
        keep = [i for i, (r, v) in enumerate(zip(edit.rows, edit.values, strict=True))
                if (now := GradeValue.of(self._doc, r)) != v and not (
                    v == GradeValue(None, GradeState.UNKNOWN) and now.state is v.state)]
        if len(keep) == len(edit.rows):
            return edit
        return SetGrades(tuple(edit.rows[i] for i in keep), tuple(edit.values[i] for i in keep),
                         edit.who, tuple(edit.notes[i] for i in keep) if edit.notes else (),
                         edit.text, edit.seconds)

    def _effective_notes(self, edit: SetNotes) -> SetNotes:
        """``edit`` without the rows that hold their note already."""
        keep = [i for i, (r, n) in enumerate(zip(edit.rows, edit.notes, strict=True))
                if str(self._doc.note[r]) != n]
        if len(keep) == len(edit.rows):
            return edit
        return SetNotes(tuple(edit.rows[i] for i in keep), tuple(edit.notes[i] for i in keep),
                        edit.who, edit.text, edit.why)

    def _set_notes(self, rows: list[int] | tuple[int, ...], notes: list[str] | tuple[str, ...],
                   who: str, origin: str, text: str, why: str = "") -> Changes:
        """Write ``notes`` (an audit entry each, from and to the notes, its
        note ``why``): all or nothing. The evaluation is untouched: a note
        changes no number."""
        doc = self._doc
        kept = Kept(doc)
        try:
            when = timestamp()
            for row, note in zip(rows, notes, strict=True):
                kept.keep(row, note=True)
                before = str(doc.note[row])
                doc.set_note(row, note)
                doc.audit.append(AuditEntry.of_note(
                    who, when, doc.query_ids[int(doc.query[row])], doc.source_text(row),
                    before, note, origin, why))
        except BaseException:
            kept.put_back()
            raise
        changed = np.fromiter(rows, np.int64, len(rows))
        return Changes(notes=changed, queries=np.unique(doc.query[changed]),
                       audit=tuple(doc.audit[kept.audit:]), origin=origin, text=text)

    def _set_query_text(self, edit: SetQueryText, origin: str) -> Changes:
        """Write ``edit``'s text: no number changes (the evaluation stays);
        an audit entry where ``edit.why`` says why (a text conflict settled)."""
        doc = self._doc
        before = doc.query_text(edit.query)
        edit.put(doc)
        audit: tuple[AuditEntry, ...] = ()
        if edit.why:
            audit = (AuditEntry.of_text(edit.who, timestamp(), doc.query_ids[edit.query], before,
                                        edit.query_text, origin, edit.why),)
            doc.audit.extend(audit)
        return Changes(queries=np.array([edit.query], dtype=np.int64), query_text=True,
                       audit=audit, origin=origin, text=edit.text)

    def _set_conventions(self, conventions: Conventions, origin: str, text: str, who: str,
                         note: str) -> Changes:
        ev = evaluate(self._doc, conventions)  # raises before anything changes
        entries = self._doc.set_conventions(conventions, who=who, note=note, origin=origin)
        self._ev = ev
        return Changes(queries=np.arange(self._doc.n_queries, dtype=np.int64),
                       conventions=True, audit=tuple(entries), origin=origin, text=text)

    def _set_grades(self, rows: list[int] | tuple[int, ...], values: tuple[GradeValue, ...]
                    | list[GradeValue], who: str, notes: list[str], origin: str,
                    text: str, *, seconds: float | None = None) -> Changes:
        doc = self._doc
        kept = Kept(doc)
        try:
            for row, value, note in zip(rows, values, notes, strict=True):
                kept.keep(row)
                self._write(row, value, who=who, note=note, origin=origin, seconds=seconds)
            changed = np.fromiter(rows, np.int64, len(rows))
            changes = Changes(rows=changed, queries=np.unique(doc.query[changed]),
                              audit=tuple(doc.audit[kept.audit:]), origin=origin, text=text)
            # The worksheet's evaluation is its own: spliced in place (an
            # edit costs its query's rows; the views read only the previous
            # one's document, conventions and per-query numbers), all or
            # nothing, and last: once it is done, nothing is left to fail.
            self._ev = reevaluate(self._ev, list(rows), in_place=True)
        except BaseException:
            kept.put_back()  # nothing half-done stays
            raise
        return changes

    def _write(self, row: int, value: GradeValue, *, who: str, note: str, origin: str,
               seconds: float | None = None) -> None:
        self._doc.set_grade(row, value.grade, value.state, who=who, note=note,
                            reason=value.reason, origin=origin, seconds=seconds)
        self._doc.reason[row] = value.reason  # restore exactly, whatever the state
