"""The crash journal made durable: no acknowledged edit lost to kill -9, with
its fsync inline or on its helper thread, the background fsync writing the
same journal, and that thread ended when the journal is let go or closed.
What a journal holds and replays: tests/test_journal.py."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from core.io.delimited import read_delimited
from core.io.journal import Journal
from core.model.document import Document, GradeState
from core.model.edits import SetGrades
from core.model.examples import seed_document
from tests.conftest import REPO
from tests.test_journal import _same, grade, journaled, seed_sheet


@pytest.fixture
def sheet(tmp_path: Path) -> Path:
    return seed_sheet(tmp_path)


CHILD = textwrap.dedent(
    """
    import sys
    from core.model.document import GradeState
    from core.model.edits import GradeValue, SetGrades
    from core.io.delimited import read_delimited
    from core.io.journal import Journal
    from core.session import Worksheet

    path = sys.argv[1]
    doc = read_delimited(path)
    journal = Journal(path, background_fsync=sys.argv[2] == "background")
    session = Worksheet(doc)
    session.subscribe(lambda changes: journal.record(doc, changes))
    i = 0
    while True:
        row = i % len(doc)
        if i % 7 == 3:
            value = GradeValue(None, GradeState.UNRATEABLE, f"r{i}")
            session.apply(SetGrades.of([row], [value], who="child"))
        else:
            value = GradeValue(i % 4 + 0.5, GradeState.NUMBER)
            session.apply(SetGrades.of([row], [value], who="child", note=f"edit {i}"))
        if i % 5 == 0:
            doc.set_note(row, f"note {i}")
            journal.record_note(doc, row)
        print(i, flush=True)  # acknowledged: it is on disk
        i += 1
    """
)


def _expected(path: Path, edits: int, notes: set[str]) -> Document:
    doc = read_delimited(path)
    for i in range(edits):
        row = i % len(doc)
        if i % 7 == 3:
            doc.set_grade(row, None, GradeState.UNRATEABLE, who="child", reason=f"r{i}")
        else:
            doc.set_grade(row, i % 4 + 0.5, who="child", note=f"edit {i}")
        if i % 5 == 0 and f"note {i}" in notes:
            doc.set_note(row, f"note {i}")
    return doc


@pytest.mark.parametrize("fsync", ["inline", "background"])
def test_kill_9_loses_no_acknowledged_edit(sheet: Path, fsync: str):
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(sheet), fsync], cwd=REPO, stdout=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert proc.stdout is not None
    acknowledged = -1
    while acknowledged < 60:
        line = proc.stdout.readline()
        assert line, "the child died before it was killed"
        acknowledged = int(line)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert proc.returncode == -signal.SIGKILL
    # Between its last acknowledgement and the kill the child may have written
    # more: every acknowledged edit must be there, and the replay must equal
    # the in-memory document after exactly the edits the journal holds.
    journal = Journal(sheet)
    assert journal.is_pending()
    grades = [e for e in journal.entries() if e["kind"] == "grade"]
    assert [e["note"] for e in grades[: acknowledged + 1] if e["note"]] == [
        f"edit {i}" for i in range(acknowledged + 1) if i % 7 != 3
    ]
    edits = len(grades)
    assert edits >= acknowledged + 1
    notes = {e["note"] for e in journal.entries() if e["kind"] == "note"}
    # A note is missing only if the kill tore the very last edit's batch.
    assert {f"note {i}" for i in range(edits - 1) if i % 5 == 0} <= notes
    recovered = read_delimited(sheet)
    result = journal.replay(recovered)
    assert result.skipped in ([], [f"line {len(journal.entries()) + 2}: torn last write"])
    expected = _expected(sheet, edits, notes)
    _same(recovered, expected)
    assert [(a.source_id, a.before, a.after, a.note) for a in recovered.audit] == [
        (a.source_id, a.before, a.after, a.note) for a in expected.audit
    ]


def test_background_fsync_writes_the_same_journal(sheet: Path):
    doc = read_delimited(sheet)
    journal = Journal(sheet, background_fsync=True)
    session, counts = journaled(doc, journal)
    for i in range(len(doc)):
        session.apply(SetGrades.of([i], [grade(2.5)], who="ana"))
    assert counts == [1] * len(doc)
    # Readable at once (flushed to the OS), before the helper thread ran.
    assert len(journal.entries()) == len(doc)
    syncer = journal._syncer
    assert syncer is not None
    assert syncer.is_alive()
    journal.close()  # the helper thread ended and joined
    assert journal._syncer is None
    assert not syncer.is_alive()
    fresh = read_delimited(sheet)
    assert journal.replay(fresh).applied == len(doc)
    _same(fresh, doc)


def test_a_journal_let_go_ends_its_helper_thread(tmp_path: Path):
    """The helper thread holds its journal weakly: a journal nobody keeps
    (a window's, never closed) is freed and its thread ends."""
    journal = Journal(tmp_path / "a.csv", directory=tmp_path, background_fsync=True)
    journal.record_note(seed_document(), 0)
    syncer = journal._syncer
    assert syncer is not None
    assert syncer.is_alive()
    del journal
    syncer.join(10)  # (ends at once; the bound only keeps a failure from hanging)
    assert not syncer.is_alive()


def test_a_journal_closed_for_good_starts_no_thread(tmp_path: Path):
    journal = Journal(tmp_path / "a.csv", directory=tmp_path, background_fsync=True)
    doc = seed_document()
    journal.record_note(doc, 0)
    journal.close_for_good()
    assert journal._syncer is None
    journal.record_note(doc, 1)  # a late entry: written and forced to disk, no thread
    assert journal._syncer is None
    assert [e["source_id"] for e in journal.entries()] == [doc.source_text(0), doc.source_text(1)]
    journal.close()
