"""A review round as a document remembers it: who judges which queries of
which base, handed out when, and the conflicts a merge left open.

A reviewer's workbook (``ndcg-worksheet split``) carries an
:class:`Assignment` with one :class:`Share`, its own; a merged workbook
(``ndcg-worksheet merge``) carries the round's shares and the conflicts the
merge could not settle: grades (:class:`Conflict`) and notes
(:class:`NoteConflict`). The value is stored in the workbook's metadata
(:meth:`Assignment.to_dict`, :meth:`Assignment.from_dict`), so it survives the
round trip through Excel or LibreOffice.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from core.model.grades import GradeState, grade_text

__all__ = ["Assignment", "Conflict", "Given", "NoteConflict", "Share", "TextConflict"]


@dataclass(frozen=True)
class Share:
    """One reviewer's part of a round.

    Attributes
    ----------
    reviewer : str
        Who judges.
    queries : tuple of str
        The queries handed to them (query ids), in their order of work.
    unknown : int
        How many of those queries' candidates were unknown when handed out.
    """

    reviewer: str
    queries: tuple[str, ...]
    unknown: int = 0


@dataclass(frozen=True)
class Given:
    """One reviewer's grade for a candidate (a merge's conflict keeps these)."""

    reviewer: str
    grade: float | None
    state: GradeState
    reason: str = ""

    @property
    def text(self) -> str:
        """The grade as the audit log writes it (``2``, ``unknown``, ...)."""
        return grade_text(math.nan if self.grade is None else self.grade, int(self.state))


@dataclass(frozen=True)
class Conflict:
    """Two or more reviewers gave one candidate different grades outside an
    overlap query: the base's grade stayed, their grades are kept here."""

    query: str
    source_id: str
    base: Given
    values: tuple[Given, ...]


@dataclass(frozen=True)
class NoteConflict:
    """A candidate's note changed by reviewers (``values``: each reviewer's
    note) differently, or both by a reviewer and in the base since the
    round went out (``base``, last written by ``base_who``; ``""`` when the
    base did not change it): the merged note holds them all, each labelled
    (:attr:`merged`)."""

    query: str
    source_id: str
    base: str
    base_who: str
    values: tuple[tuple[str, str], ...]

    @property
    def sides(self) -> tuple[tuple[str, str], ...]:
        """Every version in conflict, labelled: the base's first (when it
        changed the note), then each reviewer's."""
        base = ((self.base_who, self.base),) if self.base_who else ()
        return base + self.values

    @property
    def merged(self) -> str:
        """The note the merge wrote, every version labelled (``lead: check
        the date | ana: page moved``): the note while the conflict is open."""
        return " | ".join(f"{who}: {note}" for who, note in self.sides)

    @property
    def kept_both(self) -> str:
        """The note of the conflict settled by keeping every version: each
        on its own line, named as whose note it is (``lead's note: check
        the date``), told from :attr:`merged`, the open one, by more than
        its separator."""
        return "\n".join(f"{who}'s note: {note}" for who, note in self.sides)

    @property
    def kept_both_before(self) -> str:
        """:attr:`kept_both` as it was written before each side was named
        so (``lead: check the date`` on its own line): a workbook saved so
        reads as settled the same way."""
        return "\n".join(f"{who}: {note}" for who, note in self.sides)

    @property
    def every(self) -> str:
        """How many versions its merged note keeps, said: ``both``, ``all 3``."""
        n = len(self.sides)
        return "both" if n == 2 else f"all {n}"

    @property
    def said(self) -> str:
        """Where it is and whose notes, in a few words."""
        who = ", ".join(w for w, _ in self.sides)
        return f"query {self.query}, source {self.source_id}: {who}"


@dataclass(frozen=True)
class TextConflict:
    """A query's text changed by reviewers differently (``values``: each
    reviewer's text), or both by a reviewer and in the base since the round
    went out (``base_changed``; also where the round did not record the
    texts handed out, a copy of the base or an older hand-out, so that either
    side may have changed it): the merged text holds them all, each labelled
    (:attr:`merged`), while it is open; settled by the text (one side's), as
    a note conflict is by the note. A text is one question: no "both"."""

    query: str
    base: str
    base_changed: bool
    values: tuple[tuple[str, str], ...]

    #: The label of the base's side.
    BASE = "base"

    @property
    def sides(self) -> tuple[tuple[str, str], ...]:
        """Every version in conflict, labelled: the base's first (when it
        changed the text, or may have), then each reviewer's."""
        base = ((self.BASE, self.base),) if self.base_changed else ()
        return base + self.values

    @property
    def merged(self) -> str:
        """The text the merge wrote, every version labelled (``base: How do
        I renew it? | ana: How do I renew my passport?``; ``(none)`` for no
        text): the query's text while the conflict is open."""
        return " | ".join(f"{who}: {text or '(none)'}" for who, text in self.sides)

    @property
    def said(self) -> str:
        """Where it is and whose texts, in a few words."""
        return f"query {self.query}'s text: " + ", ".join(w for w, _ in self.sides)


@dataclass(frozen=True)
class Assignment:
    """Who judges which queries of which base, handed out when.

    Attributes
    ----------
    base_id : str
        The identity of the base document the round started from
        (:func:`core.analysis.rounds.base_id`).
    base_name : str
        The base's file name, for messages.
    when : str
        When it was handed out (ISO 8601, UTC), or merged.
    shares : tuple of Share
        One per reviewer: a reviewer's workbook holds its own only.
    overlap : tuple of str
        The queries given to two reviewers (for agreement).
    conflicts : tuple of Conflict
        Left open by a merge (a merged document only).
    note_conflicts : tuple of NoteConflict
        The notes a merge found changed on both sides (a merged document
        only; none in a workbook merged before they were kept).
    logged : int or None
        How many audit entries the merged document held as the merge wrote
        it (a merged document only; None in a reviewer's workbook, and in a
        workbook merged before it was kept): an entry past them is work done
        since (a grade, a conflict resolved, a note, a convention).
    text_conflicts : tuple of TextConflict
        The queries' texts a merge found changed on both sides, or by
        reviewers differently (a merged document only).
    handed_texts : tuple of (str, str) pairs, or None
        A reviewer's workbook: its queries' texts as handed out (query id,
        text; the queries without one left out), so that a merge tells a
        text the reviewer fixed from one the base changed since. None where
        not recorded (a merged document, a hand-out made before it was kept).

    Examples
    --------
    >>> a = Assignment("b1", "base.xlsx", "2024-01-01T00:00:00+00:00",
    ...                (Share("ana", ("q1", "q2"), 5),), overlap=("q2",))
    >>> a.reviewer, Assignment.from_dict(a.to_dict()) == a
    ('ana', True)
    """

    base_id: str
    base_name: str
    when: str
    shares: tuple[Share, ...]
    overlap: tuple[str, ...] = ()
    conflicts: tuple[Conflict, ...] = field(default=())
    logged: int | None = None
    note_conflicts: tuple[NoteConflict, ...] = field(default=())
    text_conflicts: tuple[TextConflict, ...] = field(default=())
    handed_texts: tuple[tuple[str, str], ...] | None = None

    @property
    def reviewer(self) -> str:
        """The reviewer of a reviewer's workbook ('' when it holds a whole round)."""
        return self.shares[0].reviewer if len(self.shares) == 1 else ""

    def queries(self) -> set[str]:
        """Every query handed out in this assignment."""
        return {q for s in self.shares for q in s.queries}

    # -- the metadata's JSON ----------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """JSON values (every number a float or an int, every text a string)."""
        logged = {} if self.logged is None else {"logged": self.logged}
        notes = {"note_conflicts": [
            {"query": c.query, "source_id": c.source_id, "base": c.base,
             "base_who": c.base_who, "values": [list(v) for v in c.values]}
            for c in self.note_conflicts]} if self.note_conflicts else {}
        texts = {"text_conflicts": [
            {"query": c.query, "base": c.base, "base_changed": c.base_changed,
             "values": [list(v) for v in c.values]}
            for c in self.text_conflicts]} if self.text_conflicts else {}
        handed = ({} if self.handed_texts is None
                  else {"handed_texts": dict(self.handed_texts)})
        return {
            "base_id": self.base_id,
            "base_name": self.base_name,
            "when": self.when,
            "shares": [{"reviewer": s.reviewer, "queries": list(s.queries),
                        "unknown": s.unknown} for s in self.shares],
            "overlap": list(self.overlap),
            "conflicts": [{"query": c.query, "source_id": c.source_id,
                           "base": _given_dict(c.base),
                           "values": [_given_dict(g) for g in c.values]}
                          for c in self.conflicts],
            **logged,
            **notes,
            **texts,
            **handed,
        }

    @classmethod
    def from_dict(cls, data: Any) -> Assignment:
        """The assignment :meth:`to_dict` wrote; ValueError naming the field
        that does not match."""
        d = _mapping(data, "assignment")
        shares = tuple(
            Share(_text(s, "reviewer"), _texts(s, "queries"), _count(s, "unknown"))
            for s in (_mapping(x, "assignment share") for x in _list(d, "shares")))
        conflicts = tuple(
            Conflict(_text(c, "query"), _text(c, "source_id"),
                     _given(c.get("base"), "conflict base"),
                     tuple(_given(g, "conflict value") for g in _list(c, "values")))
            for c in (_mapping(x, "assignment conflict") for x in _list(d, "conflicts")))
        if not shares:
            raise ValueError("assignment: no share")
        logged = None if d.get("logged") is None else _count(d, "logged")
        notes = tuple(_note_conflict(x) for x in (
            _list(d, "note_conflicts") if "note_conflicts" in d else ()))
        texts = tuple(_text_conflict(x) for x in (
            _list(d, "text_conflicts") if "text_conflicts" in d else ()))
        return cls(_text(d, "base_id"), _text(d, "base_name"), _text(d, "when"), shares,
                   _texts(d, "overlap"), conflicts, logged, notes, texts,
                   _handed_texts(d.get("handed_texts")))


# -- validating the JSON field by field ---------------------------------------------------
def _given_dict(g: Given) -> dict[str, Any]:
    return {"reviewer": g.reviewer, "grade": g.grade, "state": int(g.state), "reason": g.reason}


def _mapping(data: Any, what: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise ValueError(f"{what}: not a JSON object")
    return data


def _list(d: dict[str, Any], key: str) -> list[Any]:
    value = d.get(key)
    if not isinstance(value, list):
        raise ValueError(f"assignment {key}: not a list")
    return value


def _text(d: dict[str, Any], key: str) -> str:
    value = d.get(key)
    if not isinstance(value, str):
        raise ValueError(f"assignment {key}: not a text")
    return value


def _texts(d: dict[str, Any], key: str) -> tuple[str, ...]:
    values = _list(d, key)
    if not all(isinstance(v, str) for v in values):
        raise ValueError(f"assignment {key}: not a list of texts")
    return tuple(values)


def _count(d: dict[str, Any], key: str) -> int:
    value = d.get(key)
    if isinstance(value, bool) or not isinstance(value, int | float) or value < 0 or (
            value != int(value)):
        raise ValueError(f"assignment {key}: not a count")
    return int(value)


def _given(data: Any, what: str) -> Given:
    d = _mapping(data, what)
    raw = d.get("state")
    if isinstance(raw, bool) or not isinstance(raw, int) or raw not in set(GradeState):
        raise ValueError(f"{what} state: not a grade state")
    state = GradeState(raw)
    grade = d.get("grade")
    if state is GradeState.NUMBER:
        if isinstance(grade, bool) or not isinstance(grade, int | float) or not math.isfinite(
                grade):
            raise ValueError(f"{what} grade: not a finite number")
        grade = float(grade)
    elif grade is not None:
        raise ValueError(f"{what} grade: a {state.name.lower()} grade has no number")
    return Given(_text(d, "reviewer"), grade, state, _text(d, "reason"))


def _note_conflict(data: Any) -> NoteConflict:
    d = _mapping(data, "assignment note conflict")
    values = []
    for v in _list(d, "values"):
        if not (isinstance(v, list) and len(v) == 2 and all(isinstance(t, str) for t in v)):
            raise ValueError("assignment note conflict value: not a reviewer and a note")
        values.append((v[0], v[1]))
    return NoteConflict(_text(d, "query"), _text(d, "source_id"), _text(d, "base"),
                        _text(d, "base_who"), tuple(values))


def _pairs(values: list[Any], what: str) -> tuple[tuple[str, str], ...]:
    out = []
    for v in values:
        if not (isinstance(v, list) and len(v) == 2 and all(isinstance(t, str) for t in v)):
            raise ValueError(f"{what}: not a reviewer and a text")
        out.append((v[0], v[1]))
    return tuple(out)


def _text_conflict(data: Any) -> TextConflict:
    d = _mapping(data, "assignment text conflict")
    changed = d.get("base_changed")
    if not isinstance(changed, bool):
        raise ValueError("assignment text conflict base_changed: not true or false")
    return TextConflict(_text(d, "query"), _text(d, "base"), changed,
                        _pairs(_list(d, "values"), "assignment text conflict value"))


def _handed_texts(data: Any) -> tuple[tuple[str, str], ...] | None:
    """The texts handed out (absent: not recorded): text by query id."""
    if data is None:
        return None
    if not (isinstance(data, dict) and all(isinstance(t, str) for t in data.values())):
        raise ValueError("assignment handed_texts: not a text by query id")
    return tuple(data.items())
