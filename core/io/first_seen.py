"""Edits made outside the app keep the time they were first seen.

Reopening a workbook edited in a spreadsheet logs each grade or convention
changed there as an audit entry from outside the app, stamped with the time
the reopening saw it (:mod:`core.io.workbook.reopened`). Until the workbook is
saved from the app its own log lacks them, so every reopen found them again
and logged them anew, each time with a new time ("seen on reopening, 21:02",
then "21:09" for the same cell edited once). The editor keeps the entries a
reopening logged beside the file's crash journal (``first-seen/<key>.json``
under :func:`core.io.journal.journal_dir`'s parent, the journal's key); the
next reopening of that file gives an entry for the same edit (the same cell
or convention, from and to, note and origin) the time it was first seen
instead of logging it again, while the workbook's own log is the one the
record was made beside (once the app saved it, an edit found again was made
again). A reopening that finds no edit (the workbook saved from the app holds
them in its log) forgets the record. A record that cannot be read or written
(damaged, foreign, a folder) is none: the entries keep the time found.

A record names the file it was made for: a workbook renamed or moved
outside the app (its record, keyed on the old path, no longer found) takes
over the records of files that are gone whose log is its own, and the
records of files that are gone are removed (:func:`_follow`), on the
reopening that finds edits and no record of its own.
"""

from __future__ import annotations

import hashlib
import json
from contextlib import suppress
from dataclasses import astuple, replace
from pathlib import Path
from typing import Any

from core.errors import InputError
from core.io.atomic import atomic_write_text
from core.io.identity import real_path
from core.io.journal import file_key, journal_dir
from core.io.workbook.reopened import remember, reopened
from core.model.audit import AuditEntry
from core.model.document import Document

__all__ = ["keep_first_seen"]


def _record(path: Path, directory: Path | None) -> Path:
    folder = directory if directory is not None else journal_dir().parent / "first-seen"
    return folder / f"{file_key(real_path(path))}.json"


def _same_edit(entry: AuditEntry) -> tuple[Any, ...]:
    """What tells one edit from another: every field but the time."""
    return replace(entry, when="").edit()


def _log(doc: Document, found: set[int]) -> str:
    """What tells the workbook's own log (its entries but those ``found``)
    from another: how many, and the last one's fields (the app only appends
    to a log, so a save from the app changes both; a log of 100,000 entries
    digested whole took 0.5 s of an opening)."""
    own = [e for e in doc.audit if id(e) not in found]
    last = own[-1] if own else None
    return hashlib.sha256(repr((len(own), last)).encode()).hexdigest()


def _stored(record: Path) -> dict[str, Any] | None:
    """A record's contents, or None when it cannot be read as one."""
    try:
        stored = json.loads(record.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return stored if isinstance(stored, dict) else None


def _follow(folder: Path, log: str, path: Path) -> dict[tuple[Any, ...], str]:
    """The time each edit was first seen by the records of files that are
    gone whose log is ``log`` (the workbook at ``path`` renamed or moved:
    the same log, the old name gone; a copy's original is still there), the
    earliest where several saw it; every record of a file that is gone is
    removed. One look through the records' folder (a record per workbook
    edited outside the app)."""
    first: dict[tuple[Any, ...], str] = {}
    with suppress(OSError):
        for other in sorted(folder.glob("*.json")):
            stored = _stored(other)
            named = stored.get("path") if stored is not None else None
            if not isinstance(named, str) or named == str(path) or Path(named).exists():
                continue
            for edit, when in _seen(stored, log).items():
                first[edit] = min(when, first.get(edit, when))
            with suppress(OSError):
                other.unlink()
    return first


def _seen(stored: dict[str, Any] | None, log: str) -> dict[tuple[Any, ...], str]:
    """The time each edit a record's contents ``stored`` holds was first
    seen (nothing when they are none or were made beside another log: the
    entries are then logged as found)."""
    try:
        if stored is None or stored.get("log") != log:
            return {}
        entries = [AuditEntry.read(row) for row in stored["seen"]]
        return {_same_edit(e): e.when for e in entries if isinstance(e.when, str)}
    except (ValueError, TypeError, KeyError):
        return {}


def keep_first_seen(doc: Document, path: str | Path, *,
                    directory: str | Path | None = None) -> int:
    """Give the edits made outside the app that reopening ``path`` found
    for ``doc`` the time an earlier reopening first saw them, and record
    them for the next; how many were seen before. A document not read
    from a workbook is left alone.

    Examples
    --------
    >>> import tempfile
    >>> from core.model.examples import seed_document
    >>> keep_first_seen(seed_document(), "seed.xlsx", directory=tempfile.mkdtemp())
    0
    """
    found = reopened(doc)
    if found is None:
        return 0
    where = real_path(path)
    record = _record(where, Path(directory) if directory is not None else None)
    if not (found.conventions or found.grades):
        with suppress(OSError):  # (a folder of that name: no record to forget)
            record.unlink(missing_ok=True)
        return 0
    log = _log(doc, {id(e) for e in (*found.conventions, *found.grades)})
    first = (_seen(_stored(record), log) if record.exists()
             else _follow(record.parent, log, where))
    kept: dict[int, AuditEntry] = {}
    for entry in (*found.conventions, *found.grades):
        when = first.get(_same_edit(entry))
        if when is not None and when != entry.when:
            kept[id(entry)] = replace(entry, when=when)
    conventions, grades = (tuple(kept.get(id(e), e) for e in part)
                           for part in (found.conventions, found.grades))
    if kept:
        doc.audit[:] = [kept.get(id(e), e) for e in doc.audit]
        remember(doc, replace(found, conventions=conventions, grades=grades))
    try:
        record.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(record, json.dumps(
            {"log": log, "path": str(where),
             "seen": [list(astuple(e)) for e in (*conventions, *grades)]}))
    except (OSError, InputError):
        pass  # (the entries are logged as found: only their time is at stake)
    return len(kept)
