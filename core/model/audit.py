"""The audit log's entry: one grade or convention change, who made it,
when, from what to what and why. A document keeps its log as a list of
entries (:attr:`core.model.document.Document.audit`); the workbook stores
them in its metadata and shows them on its Audit sheet.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields, replace
from typing import Any

from core.model.convention_log import CONVENTION_ENTRY

__all__ = ["OUTSIDE_ORIGIN", "AuditEntry", "note_of", "note_said", "text_said",
           "timestamp"]


@dataclass(frozen=True)
class AuditEntry:
    """One grade change: who, when, where, from, to, and why; for a grade a
    reviewer typed, the active seconds it took (``None``: not timed, e.g. an
    undo, a merge, an edit made in a spreadsheet).

    ``convention``: the entry records a change of conventions, not of a
    grade (made by :meth:`of_convention`; its query and source are the
    placeholder :data:`~core.model.convention_log.CONVENTION_ENTRY`, which
    a real query or source may be named too, so it is told by this field).
    ``about_note``: the entry records a change of the candidate's note, the
    reviewer's own text, not of its grade (made by :meth:`of_note`; its
    from and to are :func:`note_said`). ``about_text``: the entry records a
    query's text taken or settled by a review round's merge (made by
    :meth:`of_text`; its source is :data:`~core.model.convention_log.CONVENTION_ENTRY`,
    its from and to :func:`text_said`): a text fixed by hand
    (:class:`~core.model.edits.SetQueryText`) logs none, being no judgment."""

    who: str
    when: str
    query: str
    source_id: str
    before: str
    after: str
    note: str = ""
    origin: str = "app"
    seconds: float | None = None
    convention: bool = False
    about_note: bool = False
    about_text: bool = False

    @classmethod
    def of_convention(cls, who: str, when: str, before: str, after: str, note: str = "",
                      origin: str = "app") -> AuditEntry:
        """The entry of one convention changed, its from and to written
        ``<convention> = <value>``."""
        return cls(who, when, CONVENTION_ENTRY, CONVENTION_ENTRY, before, after, note, origin,
                   convention=True)

    @classmethod
    def of_note(cls, who: str, when: str, query: str, source_id: str, before: str,
                after: str, origin: str = "app", note: str = "") -> AuditEntry:
        """The entry of a candidate's note changed from ``before`` to
        ``after`` (the notes themselves: the entry writes them
        :func:`note_said`); ``note``: why (a note conflict resolved).

        >>> e = AuditEntry.of_note("ana", "t", "q1", "d3", "", "checked twice")
        >>> e.before, e.after, e.about_note
        ('no note', 'note: checked twice', True)
        """
        return cls(who, when, query, source_id, note_said(before), note_said(after), note,
                   origin=origin, about_note=True)

    @classmethod
    def of_text(cls, who: str, when: str, query: str, before: str, after: str,
                origin: str = "app", note: str = "") -> AuditEntry:
        """The entry of query ``query``'s text changed from ``before`` to
        ``after`` by a round's merge, or a conflict of texts settled
        (``note``: how); its from and to :func:`text_said`.

        >>> e = AuditEntry.of_text("lead", "t", "q1", "", "How do I renew it?")
        >>> e.source_id, e.before, e.after, e.about_text
        ('—', 'no text', 'text: How do I renew it?', True)
        """
        return cls(who, when, query, CONVENTION_ENTRY, text_said(before), text_said(after),
                   note, origin=origin, about_text=True)

    def edit(self) -> tuple[Any, ...]:
        """The edit the entry records, in the fields every stored entry
        carries: all but ``convention``, which an entry stored before it was
        kept (9 fields) lets :meth:`read` infer from the placeholders (a
        grade of a query and source named so is taken for a convention's).
        Entries of the same edit read from workbooks of either age give the
        same ``edit``, not always equal entries. The fields are taken by
        name, so one added later is compared too, wherever it stands."""
        return tuple(getattr(self, f.name) for f in fields(self) if f.name != "convention")

    @classmethod
    def read(cls, fields: Sequence[Any]) -> AuditEntry:
        """An entry from its fields as stored, in order (a workbook's
        metadata); stored without ``convention`` (before it was kept), a
        change of conventions is told by its placeholder query and source."""
        entry = cls(*fields)
        if len(fields) > 9:
            return entry
        return replace(entry, convention=fields[2] == fields[3] == CONVENTION_ENTRY)

    def when_said(self, shown: Callable[[str], str] = str) -> str:
        """When, as people read it (``shown``: how a time is written). An
        edit made outside the app carries the time reopening saw it, not
        when it was made (a workbook says when it was saved, never when a
        cell was edited): ``seen on reopening, <time>``."""
        if self.origin == OUTSIDE_ORIGIN:
            return f"seen on reopening, {shown(self.when)}"
        return shown(self.when)


#: How the audit log writes a note (:func:`note_said`) and no note.
_NOTE_SAID, _NO_NOTE = "note: ", "no note"


def note_said(note: str) -> str:
    """How the audit log writes a note as an entry's from or to: ``note:``
    before it (told from a grade at a glance), ``no note`` for none."""
    return f"{_NOTE_SAID}{note}" if note else _NO_NOTE


def note_of(said: str) -> str:
    """The note an ``about_note`` entry's from or to writes (:func:`note_said`
    read back).

    >>> note_of(note_said("checked twice")), note_of(note_said(""))
    ('checked twice', '')
    """
    return "" if said == _NO_NOTE else said.removeprefix(_NOTE_SAID)


#: How the audit log writes a query's text (:func:`text_said`) and none.
_TEXT_SAID, _NO_TEXT = "text: ", "no text"


def text_said(text: str) -> str:
    """How the audit log writes a query's text as an entry's from or to:
    ``text:`` before it, ``no text`` for none (:func:`note_said`'s way)."""
    return f"{_TEXT_SAID}{text}" if text else _NO_TEXT


#: The origin of an edit made outside the app: a grade or a convention
#: changed in the workbook's sheets, taken on reopening.
OUTSIDE_ORIGIN = "outside the app"


def timestamp() -> str:
    """The time an entry is stamped with: UTC, to the second, ISO 8601."""
    return _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")
