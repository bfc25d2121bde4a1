"""The crash journal: edits survive torn writes and stay with their file. Kill
-9 and the fsync thread: tests/test_journal_durable.py."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest

from core.io.delimited import read_delimited, write_delimited
from core.io.journal import Journal, journal_dir
from core.model.conventions import GainRule, TieRule
from core.model.document import Document, GradeState
from core.model.edits import GradeValue, SetConventions, SetGrades, SetNotes
from core.model.examples import seed_document
from core.model.presets import preset
from core.session import Worksheet


def seed_sheet(folder: Path) -> Path:
    """The seed document as a CSV in ``folder``: the journal tests' sheet."""
    path = folder / "sheet.csv"
    write_delimited(seed_document(), path)
    return path


@pytest.fixture
def sheet(tmp_path: Path) -> Path:
    return seed_sheet(tmp_path)


def _same(a: Document, b: Document) -> None:
    np.testing.assert_array_equal(a.grade, b.grade)
    np.testing.assert_array_equal(a.state, b.state)
    assert a.reason.tolist() == b.reason.tolist()
    assert a.note.tolist() == b.note.tolist()


def test_journal_lives_under_xdg_state_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    assert journal_dir() == tmp_path / "state" / "ndcg-worksheet" / "journal"
    assert Journal(None).file == journal_dir() / "untitled.jsonl"
    a, b = Journal(tmp_path / "x" / "a.csv"), Journal(tmp_path / "y" / "a.csv")
    assert a.file != b.file  # same name, other folder: another journal
    assert a.file.parent == journal_dir()


def test_grade_note_conventions_replay_exactly_with_audit(sheet: Path):
    doc = read_delimited(sheet)
    journal = Journal(sheet)
    doc.set_grade(1, 2.5, who="ana", note="re-read")
    journal.record_grade(doc, 1, who="ana", note="re-read")
    doc.set_grade(4, None, GradeState.UNRATEABLE, who="bo", reason="page is blank")
    journal.record_grade(doc, 4, who="bo")
    doc.set_grade(1, None, GradeState.UNKNOWN, who="ana")  # an undo back to "unknown"
    journal.record_grade(doc, 1, who="ana")
    doc.set_note(7, "tab\there, newline\nthere, ünïcode")
    journal.record_note(doc, 7)
    conventions = doc.conventions.replace(
        cutoffs=(3, None), gain=doc.conventions.gain.parse("exponential")
    )
    doc.conventions = conventions
    journal.record_conventions(conventions)
    assert journal.is_pending()
    kinds = [e["kind"] for e in journal.entries()]
    assert kinds == ["grade", "grade", "grade", "note", "conventions"]

    fresh = read_delimited(sheet)
    result = journal.replay(fresh)
    assert (result.applied, result.skipped) == (5, [])
    _same(fresh, doc)
    assert fresh.reason[4] == "page is blank"
    assert fresh.state[1] == GradeState.UNKNOWN
    assert fresh.original_grade[1] == doc.original_grade[1] == 3.0  # raw grade kept
    assert fresh.conventions == conventions
    assert fresh.conventions.gain.rule is GainRule.EXPONENTIAL
    # Audit entries come back with the original author, note and time (an
    # unrateable grade's with its reason, as the grid shows it).
    got = [(a.who, a.source_id, a.before, a.after, a.note, a.when) for a in fresh.audit]
    assert [g[:5] for g in got] == [
        ("ana", "A", "3", "2.5", "re-read"),
        ("bo", "A", "3", "unrateable: page is blank", ""),
        ("ana", "A", "2.5", "unknown", ""),
    ]
    assert [g[5] for g in got] == [e["when"] for e in journal.entries()[:3]]

    journal.clear()
    assert not journal.exists()
    assert not Journal.pending(sheet)


def test_torn_last_line_is_tolerated_and_later_edits_append_cleanly(sheet: Path):
    doc = read_delimited(sheet)
    journal = Journal(sheet)
    doc.set_grade(0, 3.0, who="ana")
    journal.record_grade(doc, 0, who="ana")
    journal.close()
    with open(journal.file, "ab") as fh:  # a write torn by a crash
        fh.write(b'{"kind": "grade", "query": "case-A", "source_id": "A", "gra')
    fresh = read_delimited(sheet)
    result = journal.replay(fresh)
    assert result.applied == 1
    assert result.skipped == ["line 3: torn last write"]
    assert fresh.grade[0] == 3.0

    # The next session continues the same journal: the torn tail is cut first.
    reopened = Journal(sheet)
    doc.set_grade(2, 2.0, who="ana")
    reopened.record_grade(doc, 2, who="ana")
    lines = reopened.file.read_bytes().split(b"\n")
    assert lines[-1] == b""
    assert [json.loads(x)["kind"] for x in lines[:-1]] == ["header", "grade", "grade"]
    again = read_delimited(sheet)
    assert reopened.replay(again).applied == 2
    _same(again, doc)


def test_unknown_candidates_are_skipped_not_fatal(sheet: Path):
    journal = Journal(sheet)
    journal.append([
        {"kind": "grade", "query": "case-A", "source_id": "nope", "grade": 1.0, "state": 0},
        {"kind": "grade", "query": "no-such-query", "source_id": "A", "grade": 1.0, "state": 0},
        {"kind": "grade", "query": "case-A", "source_id": "A", "grade": 0.0, "state": 0},
        {"kind": "grade", "query": "case-A", "source_id": "B", "state": "x"},
    ])
    doc = read_delimited(sheet)
    result = journal.replay(doc)
    assert result.applied == 1
    assert len(result.skipped) == 3
    assert doc.grade[1] == 0.0


def test_journal_for_a_different_file_is_not_applied(sheet: Path, tmp_path: Path):
    other = tmp_path / "other.csv"
    write_delimited(seed_document(), other)
    doc = read_delimited(sheet)
    journal = Journal(sheet)
    doc.set_grade(0, 3.0, who="ana")
    journal.record_grade(doc, 0, who="ana")
    assert Journal.pending(sheet)
    assert not Journal.pending(other)
    target = read_delimited(other)
    assert Journal(other).replay(target).applied == 0
    # Even a journal file copied under the other file's key is refused.
    Journal(other).file.write_bytes(journal.file.read_bytes())
    result = Journal(other).replay(target)
    assert result.applied == 0
    assert "belongs to" in result.skipped[-1]
    assert not Journal.pending(other)
    assert target.grade[0] == 1.0


def test_a_journal_replays_only_over_the_file_it_was_made_on(sheet: Path):
    doc = read_delimited(sheet)
    journal = Journal(sheet)
    doc.set_grade(0, 3.0, who="ana")
    journal.record_grade(doc, 0, who="ana")
    assert journal.is_pending()
    st = sheet.stat()
    os.utime(sheet, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))  # touched, same bytes
    assert journal.is_pending()
    assert not journal.is_stale()
    with sheet.open("a") as fh:  # a colleague appends a row
        fh.write("case-A,Z,v1,0.5,1,,\n")
    assert not journal.is_pending()  # never replayed over the newer file
    assert journal.is_stale()
    os.utime(journal.file)  # however new the journal is
    assert not journal.is_pending()
    aside = journal.set_aside()
    assert aside is not None
    assert aside.exists()
    assert ".stale-" in aside.name
    assert not journal.exists()
    assert not Journal(sheet).is_stale()


def test_a_journal_survives_its_file_being_gone(sheet: Path):
    doc = read_delimited(sheet)
    journal = Journal(sheet)
    doc.set_grade(0, 3.0, who="ana")
    journal.record_grade(doc, 0, who="ana")
    sheet.unlink()  # the file is gone: the journal is what is left
    assert journal.is_pending()


def test_one_journal_whatever_path_opened_the_file(sheet: Path, tmp_path: Path):
    link = tmp_path / "link.csv"
    link.symlink_to(sheet)
    doc = read_delimited(link)
    by_link = Journal(link)
    doc.set_grade(0, 3.0, who="ana")
    by_link.record_grade(doc, 0, who="ana")
    by_target = Journal(sheet)
    assert by_target.file == by_link.file
    assert by_target.is_pending()


def test_a_journal_of_an_earlier_version_keeps_the_time_rule(sheet: Path):
    journal = Journal(sheet)
    doc = read_delimited(sheet)
    doc.set_grade(0, 3.0, who="ana")
    journal.record_grade(doc, 0, who="ana")
    lines = journal.file.read_text().splitlines()
    header = json.loads(lines[0])
    header["base"] = {"size": 1, "mtime_ns": 1}  # what version 1 wrote
    journal.close()
    journal.file.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    st = journal.file.stat()
    os.utime(sheet, ns=(st.st_atime_ns, st.st_mtime_ns - 10**9))
    assert journal.is_pending()
    os.utime(sheet, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))
    assert journal.is_stale()


def journaled(doc: Document, journal: Journal) -> tuple[Worksheet, list[int]]:
    """A session whose every step is journaled, and the entry count per step."""
    session = Worksheet(doc)
    counts: list[int] = []
    session.subscribe(lambda changes: counts.append(journal.record(session.document, changes)))
    return session, counts


def grade(value: float | None, state: GradeState = GradeState.NUMBER, reason: str = "",
          ) -> GradeValue:
    return GradeValue.typed(value, state, reason)


def test_untitled_and_move_to(tmp_path: Path):
    journal = Journal(None)
    session, counts = journaled(seed_document(), journal)
    session.apply(SetGrades.of([3], [grade(1.0)], who="ana"))
    assert counts == [1]
    assert Journal.pending(None)
    journal.move_to(tmp_path / "saved.csv")  # after Save As
    assert not Journal.pending(None)
    assert not journal.exists()


def test_each_step_journals_its_rows_resulting_states(sheet: Path):
    doc = read_delimited(sheet)
    journal = Journal(sheet)
    session, counts = journaled(doc, journal)
    same = GradeValue.of(doc, 0)
    session.apply(SetGrades.of([0], [same], who="bo"))
    assert counts == []
    assert not journal.exists()  # nothing written for no change
    session.apply(SetGrades((0, 5), (grade(2.0), grade(None, GradeState.UNRATEABLE, "paywall")),
                            "bo", ("why", "")))
    doc.set_note(6, "n")
    journal.record_note(doc, 6)
    assert counts == [2]
    entries = journal.entries()
    assert [(e["kind"], e["source_id"]) for e in entries] == [
        ("grade", "B"), ("grade", "B"), ("note", "B")
    ]
    assert (entries[0]["who"], entries[0]["note"]) == ("bo", "why")
    assert entries[1]["reason"] == "paywall"
    session.undo()  # the resulting (original) states, the last written first
    session.apply(SetConventions(doc.conventions.replace(cutoffs=(1,)), who="bo"))
    assert counts == [2, 2, 1]
    assert [e["kind"] for e in journal.entries()[3:]] == ["grade", "grade", "conventions"]
    # Row 5 held 1 before the step; the last row written is undone first.
    assert journal.entries()[3]["note"] == "undo of 1 → unrateable"
    fresh = read_delimited(sheet)
    assert journal.replay(fresh).applied == 6
    _same(fresh, doc)
    assert fresh.conventions.cutoffs == (1,)
    # the change of conventions' audit entry comes back with it, as written
    assert fresh.audit[-1] == doc.audit[-1]
    assert (fresh.audit[-1].who, fresh.audit[-1].before, fresh.audit[-1].after) == (
        "bo", "cutoffs = all", "cutoffs = 1")


def test_a_grade_undone_and_redone_replays_its_audit_entries_origins(sheet: Path):
    """A grade's undo and redo come back from the journal as the audit log
    had them, origins included (the Audit sheet's Origin): recovered after
    a crash (kill -9 under Xvfb), an undo's entry read 'app', not 'undo'."""
    doc = read_delimited(sheet)
    journal = Journal(sheet)
    session, counts = journaled(doc, journal)
    session.apply(SetGrades.of([0], [grade(2.0)], who="bo"))
    session.undo()
    session.redo()
    assert counts == [1, 1, 1]
    fresh = read_delimited(sheet)
    assert journal.replay(fresh).applied == 3
    said = [(a.who, a.before, a.after, a.note, a.origin) for a in fresh.audit]
    assert said == [(a.who, a.before, a.after, a.note, a.origin) for a in doc.audit]
    assert [a.origin for a in fresh.audit] == ["app", "undo", "redo"]


def test_a_note_conflict_resolved_replays_with_its_audit_entries_why(sheet: Path):
    """A note set by a choice of the Conflicts dock (SetNotes' why: the
    note conflict resolved), undone and redone: the journal replays the
    audit log as the session wrote it, each entry's why included (a note's
    journal line kept no why: a recovered log said a note was set, not that
    a conflict was resolved, nor which side was taken; fails before)."""
    doc = read_delimited(sheet)
    journal = Journal(sheet)
    session, counts = journaled(doc, journal)
    session.apply(SetNotes.of([3], ["page moved"], who="bo",
                              why="note conflict resolved: ana's note: page moved"))
    session.undo()
    session.redo()
    assert counts == [1, 1, 1]
    fresh = read_delimited(sheet)
    assert journal.replay(fresh).applied == 3
    said = [(a.who, a.before, a.after, a.note, a.origin) for a in fresh.audit]
    assert said == [(a.who, a.before, a.after, a.note, a.origin) for a in doc.audit]
    assert [a.note for a in fresh.audit] == [
        "note conflict resolved: ana's note: page moved",
        "undo of note conflict resolved: ana's note: page moved",
        "redo: note conflict resolved: ana's note: page moved"]


def test_a_change_of_conventions_undone_and_redone_replays_its_audit_entries_once(
        sheet: Path):
    """Each step of a change of conventions (made, undone, redone: two
    conventions changed each time) journals its own audit entries: the log
    replayed is the session's, entry for entry, neither doubled nor lost,
    written through Journal.record and Journal.record_conventions alike."""
    doc = read_delimited(sheet)
    journal = Journal(sheet)
    session, counts = journaled(doc, journal)
    before = doc.conventions
    session.apply(SetConventions(before.replace(cutoffs=(1,), ties=TieRule.PESSIMISTIC),
                                 who="bo"))
    session.undo()
    session.redo()
    assert counts == [1, 1, 1]
    assert [(a.origin, a.before) for a in doc.audit] == [
        ("app", "cutoffs = all"), ("app", "ties = average"),
        ("undo", "cutoffs = 1"), ("undo", "ties = pessimistic"),
        ("redo", "cutoffs = all"), ("redo", "ties = average")]
    fresh = read_delimited(sheet)
    assert journal.replay(fresh).applied == 3
    assert fresh.audit == doc.audit
    assert fresh.conventions == doc.conventions
    journal.record_conventions(before, doc.audit[2:4])  # (the undo's, written again)
    again = read_delimited(sheet)
    assert journal.replay(again).applied == 4
    assert again.audit == [*doc.audit, *doc.audit[2:4]]
    assert again.conventions == before
    line = json.loads(journal.file.read_bytes().splitlines()[-1])
    for damaged in ("NaN", "-1", "true", '"3"'):  # each a timing lost, its entry kept
        line["audit"][0][8] = json.loads(damaged)
        with journal.file.open("a", encoding="utf-8") as out:
            out.write(json.dumps(line) + "\n")
        damaged_too = read_delimited(sheet)
        journal.replay(damaged_too)
        assert damaged_too.audit[-2:] == doc.audit[2:4]
    # Entries journaled before they said they are conventions' (9 fields): all are.
    line["audit"] = [row[:9] for row in line["audit"]]
    with journal.file.open("a", encoding="utf-8") as out:
        out.write(json.dumps(line) + "\n")
    older = read_delimited(sheet)
    journal.replay(older)
    assert older.audit[-2:] == doc.audit[2:4]
    assert [a.convention for a in older.audit[-2:]] == [True, True]


@pytest.mark.parametrize("fails_at", [2, 3, 4])
def test_a_replay_running_out_of_memory_puts_back_all_it_wrote(
        sheet: Path, monkeypatch: pytest.MonkeyPatch, fails_at: int):
    """A crash journal (a grade, a note, a change of conventions with its
    audit entries, a grade) replayed with a Kept, memory running out at the
    entry ``fails_at``: Kept.put_back leaves the document as read, its
    grades, notes, conventions and audit log (the recovery then opens the
    file as saved)."""
    import core.io.journal as journal_module
    from core.model.edits import Kept

    doc = read_delimited(sheet)
    journal = Journal(sheet)
    session, _counts = journaled(doc, journal)
    session.apply(SetGrades.of([0], [grade(2.5)], who="ana"))
    doc.set_note(7, "checked twice")
    journal.record_note(doc, 7)
    session.apply(SetConventions(doc.conventions.replace(ties=TieRule.PESSIMISTIC), who="bo"))
    session.apply(SetGrades.of([3], [grade(None, GradeState.UNKNOWN)], who="ana"))
    read = read_delimited(sheet)
    fresh = read_delimited(sheet)
    real, calls = journal_module._apply, [0]

    def apply_until(*args: object) -> str | None:
        calls[0] += 1
        if calls[0] == fails_at:
            raise MemoryError
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(journal_module, "_apply", apply_until)
    kept = Kept(fresh)
    with pytest.raises(MemoryError):
        journal.replay(fresh, kept)
    assert calls[0] == fails_at
    kept.put_back()
    _same(fresh, read)
    assert fresh.conventions == read.conventions
    assert fresh.audit == []


def test_conventions_round_trip_through_the_journal(tmp_path: Path):
    journal = Journal(tmp_path / "c.csv")
    conventions = preset("trec_eval", cutoffs=(10, None))
    journal.record_conventions(conventions)
    doc = seed_document()
    assert journal.replay(doc).applied == 1
    assert doc.conventions == conventions


def test_a_files_journals_replay_in_the_order_they_were_written(sheet: Path):
    """Edits made while the file's journal kept edits not recovered went to
    journals of their own (Journal.elsewhere): the file's journals are its
    own, then those, by stamp and number (9 before 10); replayed in that
    order the document is as edited. A journal set aside as stale, or
    another file's, is none of them."""
    doc = read_delimited(sheet)
    own = Journal(sheet)
    doc.set_grade(0, 2.5, who="ana")
    own.record_grade(doc, 0, who="ana")
    first = own.elsewhere()
    doc.set_grade(0, 1.0, who="bo")
    first.record_grade(doc, 0, who="bo")
    doc.set_grade(3, 1.5, who="bo")
    first.record_grade(doc, 3, who="bo")
    first.close()
    second = own.elsewhere()
    doc.set_grade(0, 3.0, who="ana")
    second.record_grade(doc, 0, who="ana")
    second.close()
    assert [j.file for j in Journal.written(sheet)] == [own.file, first.file, second.file]
    stem = own.file.stem
    at = "20990101T000000000"  # one stamp: the numbers order them, 9 before 10
    first.file.rename(own.directory / f"{stem}.meanwhile-{at}-9.jsonl")
    second.file.rename(own.directory / f"{stem}.meanwhile-{at}-10.jsonl")
    (own.directory / f"{stem}.stale-20990101T0000.jsonl").write_bytes(own.file.read_bytes())
    other = sheet.with_name("other.csv")
    write_delimited(seed_document(), other)
    Journal(other).record_grade(doc, 1, who="ana")
    journals = Journal.written(sheet)
    assert [j.file.name for j in journals] == [
        own.file.name, f"{stem}.meanwhile-{at}-9.jsonl", f"{stem}.meanwhile-{at}-10.jsonl"]
    assert [j.entries()[-1]["grade"] for j in journals] == [2.5, 1.5, 3.0]
    fresh = read_delimited(sheet)
    result = Journal.replay_all(journals, fresh)
    assert (result.applied, result.skipped) == (4, [])
    _same(fresh, doc)
    assert [e.who for e in fresh.audit] == ["ana", "bo", "bo", "ana"]


def test_a_journal_of_edits_set_back_changes_nothing(sheet: Path):
    """Edits undone (a grade, a change of conventions) or set back by hand
    (a note) before the session ended, across the file's journals: replayed
    they would change nothing, so nothing is there to recover; the document
    is given back as read, audit log and all."""
    doc = read_delimited(sheet)
    journal = Journal(sheet)
    session, _counts = journaled(doc, journal)
    session.apply(SetGrades.of([0, 5], [grade(2.5), grade(None, GradeState.UNKNOWN)],
                               who="ana"))
    session.apply(SetConventions(doc.conventions.replace(cutoffs=(1,)), who="ana"))
    session.undo()
    session.undo()
    doc.set_note(6, "look again")
    journal.record_note(doc, 6)
    later = journal.elsewhere()
    doc.set_note(6, "")
    later.record_note(doc, 6)
    later.close()
    journals = Journal.written(sheet)
    assert len(journals) == 2
    assert all(j.is_pending() for j in journals)
    fresh, read = read_delimited(sheet), read_delimited(sheet)
    assert Journal.changes_nothing(journals, fresh)
    _same(fresh, read)
    assert fresh.audit == []
    assert fresh.conventions == read.conventions
    assert (Journal.replay_all(journals, fresh).applied, fresh.audit != []) == (8, True)
    _same(fresh, read)  # (what a replay would have done)


def test_a_journal_that_changes_one_thing_or_cannot_be_read_whole_changes_something(
        sheet: Path):
    """One edit kept among edits undone, or an entry the replay would skip
    (a torn write, a candidate the file lacks): offered, never thrown away."""
    doc = read_delimited(sheet)
    journal = Journal(sheet)
    session, _counts = journaled(doc, journal)
    session.apply(SetGrades.of([0], [grade(2.5)], who="ana"))
    session.apply(SetGrades.of([2], [grade(3.0)], who="ana"))
    session.undo()
    fresh = read_delimited(sheet)
    assert not Journal.changes_nothing([journal], fresh)
    assert (float(fresh.grade[0]), fresh.audit) == (1.0, [])  # given back as read
    session.undo()
    assert Journal.changes_nothing([journal], read_delimited(sheet))
    journal.close()
    with journal.file.open("ab") as out:
        out.write(b'{"kind": "grade", "query": "q1", "sou')  # torn
    assert not Journal.changes_nothing([journal], read_delimited(sheet))
    journal.file.write_bytes(journal.file.read_bytes().rsplit(b"\n", 1)[0] + b"\n")
    assert Journal.changes_nothing([journal], read_delimited(sheet))
    entry = {**journal.entries()[-1], "source_id": "no such"}
    with journal.file.open("a", encoding="utf-8") as out:
        out.write(json.dumps(entry) + "\n")
    assert not Journal.changes_nothing([journal], read_delimited(sheet))


def test_a_journal_clears_itself_only_when_it_holds_nothing_to_recover(sheet: Path):
    """A window closed unmodified hands its document, as the file holds it:
    its journal is deleted when replayed over it nothing would change, and
    kept when something would, when it is not the file's only journal (the
    others replay after it), when the file changed on disk since (set aside
    at the next open), and for an untitled document."""
    doc = read_delimited(sheet)
    journal = Journal(sheet)
    session, _counts = journaled(doc, journal)
    session.apply(SetGrades.of([0], [grade(2.5)], who="ana"))
    journal.close()
    assert not journal.clear_if_nothing(read_delimited(sheet))  # the grade would change
    assert journal.exists()
    session.undo()
    journal.close()
    later = journal.elsewhere()
    later.record_note(doc, 6)
    later.close()
    assert not journal.clear_if_nothing(read_delimited(sheet))  # another one follows it
    later.clear()
    assert journal.clear_if_nothing(read_delimited(sheet))
    assert Journal.written(sheet) == []

    session.apply(SetGrades.of([1], [grade(0.0)], who="ana"))
    session.undo()
    journal.close()
    other = read_delimited(sheet)
    other.grades_to_edit()[2] = 3.0
    write_delimited(other, sheet)  # another tool saved it
    assert not journal.clear_if_nothing(read_delimited(sheet))
    assert journal.is_stale()

    untitled = Journal(None, directory=journal.directory)
    session2, _counts = journaled(seed_document(), untitled)
    session2.apply(SetGrades.of([1], [grade(0.0)], who="ana"))
    session2.undo()
    untitled.close()
    assert not untitled.clear_if_nothing(seed_document())
    assert untitled.exists()


def test_a_note_typed_undone_and_retyped_replays_with_its_audit_entries(sheet: Path):
    """A note edit in the session journals the note with its audit entry's
    author, time and origin: the replay (after a crash) gives back the notes
    and the same audit entries, undo and redo included, and no grade."""
    doc = read_delimited(sheet)
    journal = Journal(sheet)
    session, counts = journaled(doc, journal)
    session.apply(SetNotes.of([2, 6], ["why 2", "ask the lead"], who="bo"))
    session.undo()
    session.redo()
    session.apply(SetNotes.of([6], [""], who="bo"))
    assert counts == [2, 2, 2, 1]
    assert {e["kind"] for e in journal.entries()} == {"note"}
    fresh = read_delimited(sheet)
    assert journal.replay(fresh).applied == 7
    _same(fresh, doc)
    assert fresh.note[2] == "why 2"
    assert fresh.note[6] == ""
    assert fresh.audit == doc.audit
    assert [(a.origin, a.before, a.after) for a in fresh.audit[-3:]] == [
        ("redo", "no note", "note: why 2"), ("redo", "no note", "note: ask the lead"),
        ("app", "note: ask the lead", "no note")]
