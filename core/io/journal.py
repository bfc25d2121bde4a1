"""A crash journal: every edit is on disk the moment it is made.

Each edit appends one JSON line to a journal file and forces it to disk
(``flush`` + ``os.fsync``), so a crash, a power cut or ``kill -9`` loses no
acknowledged edit. The journal lives under
``$XDG_STATE_HOME/ndcg-worksheet/journal/`` and is keyed by the document's
real path (symbolic links resolved, so the file has one journal whatever path
opened it), or ``untitled``. Its header records the file as it was read
(:class:`core.io.identity.FileState`: size, time, content digest). Saving
clears it; so does closing the document unmodified when the replay would
change nothing (:meth:`Journal.clear_if_nothing`). Opening the same,
unchanged file offers to replay it, unless the replay would change nothing
(:meth:`Journal.changes_nothing`: every edit undone before a crash). A journal
whose file changed on disk since is *stale*: it is never replayed over the
newer file (the editor sets it aside and says so).

Entries record the *resulting* state of a candidate (grade, state, reason,
note), never a difference, so undo and redo are journaled like any other edit
and replaying the lines in order reproduces the document exactly. The editor
hands every step's record of what changed (:class:`core.session.Changes`) to
:meth:`Journal.record`: the rows are known, nothing is searched for.

A journal file looks like::

    {"kind": "header", "format": 1, "path": "/abs/file.csv", "created": "...", ...}
    {"kind": "grade", "query": "q1", "source_id": "d3", "grade": 2.0, "state": 0, ...}
    {"kind": "note", "query": "q1", "source_id": "d3", "note": "checked twice"}
    {"kind": "conventions", "conventions": {...}, "audit": [[who, when, ...], ...]}
    {"kind": "query_text", "query": "q1", "text": "how do I renew a passport"}
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import hashlib
import itertools
import json
import math
import os
import re
import threading
import weakref
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import astuple, dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from core.errors import ConventionError
from core.io.identity import FileState, real_path
from core.model.audit import AuditEntry
from core.model.conventions import Conventions
from core.model.document import Document, GradeState
from core.model.edits import Kept
from core.session import Changes

__all__ = [
    "FORMAT",
    "Journal",
    "ReplayResult",
    "file_key",
    "journal_dir",
]

FORMAT = 1
APP_NAME = "ndcg-worksheet"


def journal_dir() -> Path:
    """The folder holding journals: ``$XDG_STATE_HOME/ndcg-worksheet/journal``.

    Falls back to ``~/.local/state`` when ``XDG_STATE_HOME`` is unset, as the
    XDG base directory specification says.
    """
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / APP_NAME / "journal"


def _now() -> str:
    return _dt.datetime.now(_dt.UTC).isoformat(timespec="milliseconds")


def file_key(path: Path | None) -> str:
    """The name a file's journal (and its record of edits seen outside the
    app, :mod:`core.io.first_seen`) goes by: its name and a digest of its
    real path, or ``untitled``."""
    if path is None:
        return "untitled"
    text = str(path)
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:20]
    stem = re.sub(r"[^A-Za-z0-9._-]+", "_", path.name)[:40] or "file"
    return f"{stem}-{digest}"


def _grade_json(value: float) -> float | None:
    return None if math.isnan(value) else float(value)


@dataclass(frozen=True)
class ReplayResult:
    """What :meth:`Journal.replay` did.

    Attributes
    ----------
    applied : int
        Entries applied to the document.
    skipped : list of str
        Why each other entry was left out (unknown candidate, unreadable line).
    """

    applied: int
    skipped: list[str] = field(default_factory=list)


class Journal:
    """The journal of one document.

    Parameters
    ----------
    path : path-like or None
        The document's file, or None for an untitled document.
    directory : path-like, optional
        Where journals live; :func:`journal_dir` by default.

    Examples
    --------
    >>> import tempfile
    >>> from core.model.examples import seed_document
    >>> folder = tempfile.mkdtemp()
    >>> doc = seed_document()
    >>> journal = Journal(None, directory=folder)
    >>> _ = doc.set_grade(0, 2.0, who="ana")
    >>> journal.record_grade(doc, 0, who="ana")
    >>> fresh = seed_document()
    >>> journal.replay(fresh).applied, float(fresh.grade[0])
    (1, 2.0)
    >>> journal.clear(); journal.exists()
    False
    """

    def __init__(self, path: str | Path | None, *, directory: str | Path | None = None,
                 background_fsync: bool = False, base: FileState | None = None) -> None:
        self.path: Path | None = real_path(path) if path is not None else None
        #: The file as the document was read from it (taken at the first edit
        #: when not given).
        self.base = base
        self.directory = Path(directory) if directory is not None else journal_dir()
        self.file = self.directory / f"{file_key(self.path)}.jsonl"
        self._fh: Any = None
        #: With ``background_fsync`` an edit is written and flushed to the
        #: operating system at once (it survives the process being killed) and
        #: forced to the disk by a helper thread moments later (so an edit does
        #: not wait for the disk; a power cut may lose the last moments).
        self.background_fsync = background_fsync
        self._lock = threading.RLock()
        self._wake = threading.Event()
        self._syncer: threading.Thread | None = None

    # -- state ------------------------------------------------------------------------
    def exists(self) -> bool:
        """True when the journal file exists (with or without edits)."""
        return self.file.exists()

    def entries(self) -> list[dict[str, Any]]:
        """The readable edit entries in order (a torn last line is dropped)."""
        return [e for e in self._read()[0] if e.get("kind") != "header"]

    def header(self) -> dict[str, Any] | None:
        """The header line, or None if there is none or it is unreadable."""
        lines = self._read()[0]
        if lines and lines[0].get("kind") == "header":
            return lines[0]
        return None

    def is_pending(self) -> bool:
        """True when unsaved edits of this document are in the journal and
        may be replayed: the journal belongs to this path, holds at least one
        edit, and the file is the one the edits were made on (or is gone)."""
        return self._edits_for_this_path() and not self._file_changed()

    def is_stale(self) -> bool:
        """True when the journal holds edits of this path, but the file
        changed on disk since they were made: they must not be replayed."""
        return self._edits_for_this_path() and self._file_changed()

    def _edits_for_this_path(self) -> bool:
        header = self.header()
        if header is None or header.get("path") != (str(self.path) if self.path else None):
            return False
        return bool(self.entries())

    def _file_changed(self) -> bool:
        if self.path is None or not self.path.exists():
            return False  # untitled, or the file is gone: the journal is all there is
        header = self.header() or {}
        base = FileState.from_dict(header.get("base"))
        if base is not None:
            return not base.matches(self.path)
        # A journal of an earlier version (no digest): a file saved after it wins.
        try:
            return self.file.stat().st_mtime_ns < self.path.stat().st_mtime_ns
        except OSError:
            return False

    def set_aside(self) -> Path | None:
        """Rename a stale journal so that it is kept but never replayed;
        returns where it went."""
        self.close()
        if not self.file.exists():
            return None
        stamp = _now().replace(":", "").replace("-", "")[:15]
        target = self.file.with_name(f"{self.file.stem}.stale-{stamp}.jsonl")
        os.replace(self.file, target)
        return target

    def elsewhere(self) -> Journal:
        """The document's journal in a file of its own beside this one, for
        the edits made while this one holds edits not recovered (memory ran
        out replaying them): those stay as they are, to be offered again, and
        a save or a discard of the new edits clears only the new file."""
        other = Journal(self.path, directory=self.directory,
                        background_fsync=self.background_fsync, base=self.base)
        stamp = _now().replace(":", "").replace("-", "").replace(".", "")[:18]
        for n in itertools.count(1):
            other.file = self.file.with_name(f"{self.file.stem}.meanwhile-{stamp}-{n}.jsonl")
            if not other.file.exists():
                break
        return other

    @classmethod
    def written(cls, path: str | Path | None, *,
                directory: str | Path | None = None) -> list[Journal]:
        """The document's journals on disk in the order they were written:
        its own, then each it had to write :meth:`elsewhere` (by its stamp
        and number); replayed in this order they give the edits' end state."""
        own = cls(path, directory=directory)
        pattern = re.compile(rf"{re.escape(own.file.stem)}\.meanwhile-([0-9T]+)-(\d+)\.jsonl")
        found = []
        with contextlib.suppress(OSError):
            for entry in os.scandir(own.directory):
                match = pattern.fullmatch(entry.name)
                if match:
                    found.append((match[1], int(match[2]), entry.name))
        out = [own] if own.exists() else []
        for *_order, name in sorted(found):
            other = cls(path, directory=directory)
            other.file = own.directory / name
            out.append(other)
        return out

    @staticmethod
    def replay_all(journals: Iterable[Journal], doc: Document,
                   kept: Kept | None = None) -> ReplayResult:
        """:meth:`replay` of each journal in turn (:meth:`written`'s order)."""
        applied, skipped = 0, []
        for journal in journals:
            result = journal.replay(doc, kept)
            applied += result.applied
            skipped += result.skipped
        return ReplayResult(applied, skipped)

    @staticmethod
    def changes_nothing(journals: Iterable[Journal], doc: Document) -> bool:
        """Whether :meth:`replay_all` of ``journals`` into ``doc`` (as read)
        would leave every grade, note and the conventions as they are: each
        edit undone (or set back by hand) before the session ended. Such
        journals hold nothing to recover. An entry that cannot be read or
        applied counts as a change (offered, the user is told of it). ``doc``
        is given back as it was, its audit log too."""
        kept = Kept(doc)
        try:
            result = Journal.replay_all(journals, doc, kept)
            return not result.skipped and kept.unchanged()
        finally:
            kept.put_back()

    def clear_if_nothing(self, doc: Document) -> bool:
        """Delete the journal when it holds nothing to recover; True when
        deleted. ``doc`` is the document as its file holds it (read, or
        saved and not edited since: a window closed unmodified). Deleted
        only when the journal is its file's (never ``untitled``), its edits
        were made on the file as it is now (a *stale* one is set aside at
        the next open, never deleted), it is the only journal of the file
        (:meth:`written`: the others replay after it) and
        :meth:`changes_nothing`: each edit undone, or set back by hand.
        Memory running out while finding it keeps the journal."""
        if self.path is None or not self.is_pending():
            return False
        if [j.file for j in Journal.written(self.path, directory=self.directory)] != [self.file]:
            return False
        try:
            if not Journal.changes_nothing([self], doc):
                return False
        except MemoryError:
            return False
        self.clear()
        return True

    @classmethod
    def pending(cls, path: str | Path | None, *, directory: str | Path | None = None) -> bool:
        """Whether an unfinished journal newer than ``path`` exists."""
        return cls(path, directory=directory).is_pending()

    # -- writing ------------------------------------------------------------------------
    def record(self, doc: Document, changes: Changes) -> int:
        """Journal one step of a session (an edit, an undo, a redo): the
        conventions when they changed, and each changed row's resulting grade
        with the author and note of its audit entry; one write, one
        ``fsync``. Returns the number of entries."""
        if changes.conventions:  # with its audit entries, one per convention changed
            self.record_conventions(doc.conventions, changes.audit)
            return 1
        if changes.query_text:  # the text the query has now ("": none)
            q = int(changes.queries[0])
            entry: dict[str, Any] = {"kind": "query_text", "query": doc.query_ids[q],
                                     "text": doc.query_text(q)}
            for audit in changes.audit:  # (a text conflict settled: its entry's fields)
                entry.update(who=audit.who, when=audit.when, origin=audit.origin,
                             why=audit.note, before=audit.before)
            self.append([entry])
            return 1
        if changes.notes.size:  # each note with its audit entry's author, time and origin
            notes = [self.note_entry(doc, row, audit)
                     for row, audit in zip(changes.notes.tolist(), changes.audit, strict=True)]
            self.append(notes)
            return len(notes)
        entries = [self.grade_entry(doc, row, who=audit.who, note=audit.note,
                                    seconds=audit.seconds, origin=audit.origin)
                   for row, audit in zip(changes.rows.tolist(), changes.audit, strict=True)]
        self.append(entries)
        return len(entries)

    def record_grade(self, doc: Document, index: int, *, who: str, note: str = "") -> None:
        """Journal the current grade, state and reason of candidate ``index``."""
        self.append([self.grade_entry(doc, index, who=who, note=note)])

    def record_note(self, doc: Document, index: int) -> None:
        """Journal the current note of candidate ``index``."""
        self.append([self.note_entry(doc, index)])

    def record_conventions(self, conventions: Conventions,
                           audit: Iterable[AuditEntry] = ()) -> None:
        """Journal a change of the document's conventions, with the audit
        entries it made (replayed with it: :func:`_audit_entries`)."""
        self.append([{"kind": "conventions", "conventions": conventions.to_dict(),
                      "when": _now(), "audit": [astuple(e) for e in audit]}])

    @staticmethod
    def grade_entry(doc: Document, index: int, *, who: str, note: str = "",
                    seconds: float | None = None, origin: str = "app") -> dict[str, Any]:
        """The journal line for candidate ``index``'s current grade (and the
        active seconds the judgment took, when timed; the audit entry's
        origin, an undo's or a redo's, when not the app's)."""
        entry: dict[str, Any] = {
            "kind": "grade",
            "query": doc.query_ids[int(doc.query[index])],
            "source_id": doc.source_text(index),
            "grade": _grade_json(float(doc.grade[index])),
            "state": int(doc.state[index]),
            "reason": str(doc.reason[index]),
            "who": who,
            "when": _now(),
            "note": note,
        }
        if seconds is not None:
            entry["seconds"] = seconds
        if origin != "app":
            entry["origin"] = origin
        return entry

    @staticmethod
    def note_entry(doc: Document, index: int, audit: AuditEntry | None = None,
                   ) -> dict[str, Any]:
        """The journal line for candidate ``index``'s current note; with the
        ``audit`` entry of the edit that wrote it, its author, time and
        origin (the replay logs the note's change again)."""
        entry: dict[str, Any] = {
            "kind": "note",
            "query": doc.query_ids[int(doc.query[index])],
            "source_id": doc.source_text(index),
            "note": str(doc.note[index]),
            "when": _now() if audit is None else audit.when,
        }
        if audit is not None:
            entry["who"] = audit.who
            if audit.origin != "app":
                entry["origin"] = audit.origin
            if audit.note:  # why (a note conflict resolved)
                entry["why"] = audit.note
        return entry

    def append(self, entries: Iterable[Mapping[str, Any]]) -> None:
        """Append entries and force them to disk (one ``fsync`` for all)."""
        lines = "".join(json.dumps(dict(e), ensure_ascii=False) + "\n" for e in entries)
        if not lines:
            return
        with self._lock:
            fh = self._open()
            fh.write(lines.encode("utf-8"))
            fh.flush()
            if not self.background_fsync:
                os.fsync(fh.fileno())
                return
            if self._syncer is None:
                self._syncer = threading.Thread(
                    target=_sync_loop, args=(weakref.ref(self), self._wake),
                    name="journal-fsync", daemon=True)
                self._syncer.start()
                # Let go without close(), the journal wakes it: the thread
                # finds it gone and ends.
                weakref.finalize(self, self._wake.set)
        self._wake.set()

    def _sync(self) -> bool:
        """The open file forced to disk (the helper thread's step); False
        once it is closed: the thread ends."""
        with self._lock:
            if self._fh is None or self._fh.closed:
                return False
            with contextlib.suppress(OSError, ValueError):
                os.fsync(self._fh.fileno())
            return True

    def _open(self) -> Any:
        if self._fh is not None and not self._fh.closed and self.file.exists():
            return self._fh
        self._close_file()  # (a helper thread goes on with the new file)
        self.directory.mkdir(parents=True, exist_ok=True)
        fresh = not self.file.exists() or self.file.stat().st_size == 0
        if not fresh:
            self._cut_torn_tail()
        fh = open(self.file, "ab")  # noqa: SIM115 - kept open between edits
        if fresh:
            header = {
                "kind": "header", "format": FORMAT,
                "path": str(self.path) if self.path else None, "created": _now(),
                "base": self._base(),
            }
            fh.write((json.dumps(header, ensure_ascii=False) + "\n").encode("utf-8"))
            fh.flush()
            os.fsync(fh.fileno())
            with contextlib.suppress(OSError):  # make the new file's name durable too
                dfd = os.open(self.directory, os.O_RDONLY)
                try:
                    os.fsync(dfd)
                finally:
                    os.close(dfd)
        self._fh = fh
        return fh

    def _base(self) -> dict[str, Any] | None:
        if self.base is None and self.path is not None:
            self.base = FileState.of(self.path)
        return self.base.to_dict() if self.base is not None else None

    def _cut_torn_tail(self) -> None:
        """Drop a half-written last line so the next entry starts on its own line."""
        with open(self.file, "rb+") as fh:
            data = fh.read()
            if data.endswith(b"\n"):
                return
            fh.truncate(data.rfind(b"\n") + 1)

    def close(self) -> None:
        """Force pending entries to disk and close the file (the journal
        stays); the helper thread of ``background_fsync`` ends and is joined
        (the next entry, if one comes, opens the file and starts another)."""
        with self._lock:
            self._close_file()
            syncer, self._syncer = self._syncer, None
        if syncer is not None:
            self._wake.set()  # it sees the closed file and ends
            syncer.join()

    def _close_file(self) -> None:
        with self._lock:
            if self._fh is not None:
                with contextlib.suppress(OSError, ValueError):
                    self._fh.flush()
                    os.fsync(self._fh.fileno())
                with contextlib.suppress(OSError):
                    self._fh.close()
            self._fh = None

    def close_for_good(self) -> None:
        """:meth:`close`, and no helper thread ever again (its document's
        window closed): an entry that still comes is forced to disk at once,
        as without ``background_fsync``."""
        self.background_fsync = False
        self.close()

    def clear(self) -> None:
        """Delete the journal: call after the document was saved."""
        self.close()
        with contextlib.suppress(FileNotFoundError):
            self.file.unlink()

    def move_to(self, path: str | Path | None, base: FileState | None = None) -> None:
        """Key the journal by a new path (after Save As); the old one is removed."""
        self.clear()
        self.path = real_path(path) if path is not None else None
        self.file = self.directory / f"{file_key(self.path)}.jsonl"
        self.base = base

    def rebase(self, base: FileState | None) -> None:
        """The file was saved: later edits are journaled against this state."""
        self.clear()
        self.base = base

    # -- reading ------------------------------------------------------------------------
    def _read(self) -> tuple[list[dict[str, Any]], list[str]]:
        try:
            raw = self.file.read_bytes()
        except OSError:
            return [], []
        out: list[dict[str, Any]] = []
        bad: list[str] = []
        lines = raw.split(b"\n")
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                value = json.loads(line.decode("utf-8"))
            except (UnicodeDecodeError, ValueError):
                torn = number == len(lines)  # no newline after it: a torn write
                bad.append(f"line {number}: {'torn last write' if torn else 'unreadable'}")
                continue
            if isinstance(value, dict):
                out.append(value)
            else:
                bad.append(f"line {number}: not an entry")
        return out, bad

    def replay(self, doc: Document, kept: Kept | None = None) -> ReplayResult:
        """Apply the journal's edits to ``doc`` (freshly read from the file).

        Grades go through :meth:`Document.set_grade`, so the audit log gets
        its entries back, with the original author and time. Entries for
        candidates the document lacks are skipped and reported. A journal
        written for a different file applies nothing. ``kept``: each
        candidate's grade or note is kept there before it is written (the
        caller puts them back if the replay, or what follows it, fails).
        """
        lines, bad = self._read()
        skipped = list(bad)
        if not lines or lines[0].get("kind") != "header":
            return ReplayResult(0, [*skipped, "no journal header"])
        if lines[0].get("path") != (str(self.path) if self.path else None):
            return ReplayResult(0, [*skipped, f"journal belongs to {lines[0].get('path')!r}"])
        locate = _Locator(doc)
        applied = 0
        for entry in lines[1:]:
            problem = _apply(doc, entry, locate, kept)
            if problem is None:
                applied += 1
            else:
                skipped.append(problem)
        return ReplayResult(applied, skipped)

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return iter(self.entries())


def _sync_loop(journal: weakref.ref[Journal], wake: threading.Event) -> None:
    """A ``background_fsync`` journal's helper thread: its file forced to
    disk each time an entry wakes it, until the journal is closed or let go
    (the thread holds it weakly, so a journal nobody keeps is freed)."""
    while True:
        wake.wait()
        wake.clear()
        owner = journal()
        if owner is None or not owner._sync():
            return
        del owner  # held only while syncing


class _Locator:
    """(query id, source id) -> candidate index, built per query on demand."""

    def __init__(self, doc: Document) -> None:
        self.doc = doc
        self.query_index = {q: i for i, q in enumerate(doc.query_ids)}
        self.by_query: dict[int, dict[str, int]] = {}

    def __call__(self, query: object, source_id: object) -> int | None:
        q = self.query_index.get(str(query))
        if q is None:
            return None
        table = self.by_query.get(q)
        if table is None:
            members = self.doc.members(q)
            table = {str(self.doc.source_id[i]): int(i) for i in members}
            self.by_query[q] = table
        return table.get(str(source_id))


def _apply(doc: Document, entry: Mapping[str, Any], locate: _Locator,
           kept: Kept | None = None) -> str | None:
    kind = entry.get("kind")
    if kind == "conventions":
        try:
            doc.conventions = Conventions.from_dict(entry.get("conventions") or {})
        except ConventionError as exc:
            return f"conventions entry unreadable: {exc}"
        doc.audit.extend(_audit_entries(entry.get("audit")))
        return None
    if kind == "query_text":
        return _query_text(doc, entry)
    if kind not in ("grade", "note"):
        return f"unknown entry kind {kind!r}"
    index = locate(entry.get("query"), entry.get("source_id"))
    if index is None:
        return f"no candidate {entry.get('source_id')!r} in query {entry.get('query')!r}"
    if kept is not None:
        kept.keep(index, note=kind == "note")
    if kind == "note":
        before, note = str(doc.note[index]), str(entry.get("note", ""))
        doc.set_note(index, note)
        if "who" in entry:  # an edit of the note (a line without, an older journal's)
            doc.audit.append(AuditEntry.of_note(
                str(entry["who"]), str(entry.get("when", "")),
                doc.query_ids[int(doc.query[index])],
                doc.source_text(index), before, note, str(entry.get("origin") or "app"),
                str(entry.get("why", ""))))
        return None
    try:
        state = GradeState(int(entry["state"]))
        grade = entry.get("grade")
        value = float(grade) if grade is not None and state is GradeState.NUMBER else None
        seconds = _timing(entry.get("seconds"))
        audit = doc.set_grade(
            index, value, state, who=str(entry.get("who", "")), note=str(entry.get("note", "")),
            reason=str(entry.get("reason", "")), seconds=seconds,
            origin=str(entry.get("origin") or "app"),
        )
    except (KeyError, ValueError, TypeError) as exc:
        return f"grade entry unreadable: {exc}"
    if entry.get("when"):
        doc.audit[-1] = replace(audit, when=str(entry["when"]))
    return None


def _query_text(doc: Document, entry: Mapping[str, Any]) -> str | None:
    """A query's text as the journal recorded it ("" takes it away)."""
    query, text = entry.get("query"), entry.get("text")
    if query not in doc.query_ids or not isinstance(text, str):
        return f"no query {query!r} for its text"
    if text:
        doc.query_texts[str(query)] = text
    else:
        doc.query_texts.pop(str(query), None)
    if "why" in entry:  # a text conflict settled: its audit entry
        doc.audit.append(replace(
            AuditEntry.of_text(str(entry.get("who", "")), str(entry.get("when", "")),
                               str(query), "", text, str(entry.get("origin") or "app"),
                               str(entry["why"])), before=str(entry.get("before", ""))))
    return None


def _audit_entries(rows: Any) -> list[AuditEntry]:
    """A conventions entry's audit entries, each a convention's (a journal
    written before they were kept has none; a damaged one loses its
    entries, never the change)."""
    if not isinstance(rows, list):
        return []
    out = []
    for row in rows:
        # (9 fields: written before an entry said it is a convention's; all are here)
        if not (isinstance(row, list) and len(row) in (9, len(fields(AuditEntry)))
                and all(isinstance(v, str) for v in row[:8])):
            return []
        out.append(replace(AuditEntry(*row[:8]), seconds=_timing(row[8]), convention=True))
    return out


def _timing(seconds: Any) -> float | None:
    """An entry's active seconds as read, None when damaged (not a number,
    NaN, infinite, negative): a damaged timing loses the timing, never the
    entry (the Audit sheet writes it as a number)."""
    if isinstance(seconds, bool) or not (
            isinstance(seconds, int | float) and math.isfinite(seconds) and seconds >= 0):
        return None
    return seconds
