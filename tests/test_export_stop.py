"""An export (or a save) told to stop from another thread ends at its next
look (core.io.stop: a batch of Candidates rows, a sheet, a write of the
file, 32,768 lines of a CSV) and leaves the file that was there as it was:
Cancel on its progress dialog, or the application quitting
(app.workers.drain), no longer waits for the whole export (19 s for
100,000 candidates to .xlsx at load 6)."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from app.file_formats import write_document
from core.io.stop import Stop, Stopped, stoppable
from core.model.examples import seed_document


@pytest.mark.parametrize("suffix", [".xlsx", ".ods", ".csv"])
def test_a_stopped_export_writes_nothing(tmp_path: Path, suffix: str) -> None:
    target = tmp_path / f"book{suffix}"
    target.write_bytes(b"what was there")
    stop = Stop()
    stop.set()
    with stoppable(stop), pytest.raises(Stopped):
        write_document(seed_document(), target)
    assert target.read_bytes() == b"what was there"
    assert sorted(p.name for p in tmp_path.iterdir()) == [target.name]  # no temporary left


def test_an_export_stopped_midway_stops_at_its_next_write(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The stop set from another thread once the workbook file is being
    written (its first write): the export ends there."""
    import core.io.atomic as atomic

    target = tmp_path / "book.xlsx"
    stop = Stop()
    writes: list[int] = []
    real_check = atomic.check_stopped

    def counted() -> None:
        writes.append(1)
        if len(writes) == 1:  # told by another thread, as Cancel or a quit does
            told = threading.Thread(target=stop.set)
            told.start()
            told.join()
        real_check()

    monkeypatch.setattr(atomic, "check_stopped", counted)
    with stoppable(stop), pytest.raises(Stopped):
        write_document(seed_document(), target)
    assert writes == [1]
    assert not target.exists()
    assert list(tmp_path.iterdir()) == []


def test_an_export_over_our_ods_stopped_while_reading_its_additions_is_stopped(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Reading what people added to the .ods replaced (its safety check,
    then its sheets: 8-14 s of a 100,000-candidate export at load 6) stops
    as the writing does: a stop, not "the workbook cannot be read: Stopped"
    (a message box after Cancel)."""
    import core.io.workbook.additions_ods as additions_ods

    target = tmp_path / "book.ods"
    write_document(seed_document(), target)
    before = target.read_bytes()
    stop = Stop()
    real_check = additions_ods.check_ods

    def told_while_reading(path: Path) -> object:
        stop.set()  # (as Cancel or a quit does, from the UI thread)
        return real_check(path)

    monkeypatch.setattr(additions_ods, "check_ods", told_while_reading)
    with stoppable(stop), pytest.raises(Stopped):
        additions_ods.read_ods_additions(target)
    with stoppable(stop), pytest.raises(Stopped):
        write_document(seed_document(), target)
    assert target.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [target.name]


def test_a_stop_during_calamines_parse_of_the_ods_replaced_ends_the_export_there(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """calamine parses the whole .ods in one call that cannot look at the
    stop (10-15 s of a 100,000-candidate workbook at load 6, the interpreter
    lock let go): a quit during it waited for the parse to end, towards its
    10 s deadline. Now the export's thread looks at its stop while the parse
    runs beside it, and ends at the stop, the parse not finished."""
    import python_calamine

    target = tmp_path / "book.ods"
    write_document(seed_document(), target)
    before = target.read_bytes()
    stop = Stop()
    parse_ended = threading.Event()
    let_go = threading.Event()
    real_parse = python_calamine.CalamineWorkbook.from_path

    def long_parse(path: str) -> object:
        stop.set()  # (as Cancel or a quit does, from the UI thread)
        let_go.wait(timeout=20)  # (a parse in native code, the lock let go)
        parse_ended.set()
        return real_parse(path)

    monkeypatch.setattr(python_calamine.CalamineWorkbook, "from_path", long_parse)
    try:
        with stoppable(stop), pytest.raises(Stopped):
            write_document(seed_document(), target)
        assert not parse_ended.is_set()  # ended at the stop, not after the parse
    finally:
        let_go.set()
    assert parse_ended.wait(timeout=20)
    assert target.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [target.name]


def test_a_call_waited_beside_its_stop_gives_its_result_or_its_error() -> None:
    from core.io.stop import waited

    assert waited(divmod, 7, 2) == (3, 1)  # (no stop: called here)
    with stoppable(Stop()):
        assert waited(divmod, 7, 2) == (3, 1)
        with pytest.raises(ZeroDivisionError):
            waited(divmod, 7, 0)
