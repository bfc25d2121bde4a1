"""A read stopped from another thread (core.io.stop) ends at the next look of
every reader the editor reads through, not only the fast TREC reader's: the
line-by-line TREC readers and the join's every :data:`LINES` lines, the join
between its blocks, the worksheet readers (fast and careful), a workbook
before each sheet. Each test lets a given number of looks pass, then the
stop is seen: :class:`Stopped`, and the reader looked exactly once more (a
reader that never looks returns its document, and the test fails)."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.engine.evaluation import evaluate
from core.io.delimited import read_delimited
from core.io.stop import LINES, Stop, Stopped, stoppable
from core.io.trec import scan
from core.io.trec.join import document_from_judged, document_from_trec
from core.io.trec.read import QrelsColumns, Run, read_qrels
from core.io.workbook import export_workbook, read_workbook
from core.model.examples import seed_document

#: Rows in the files: past two looks of a line-by-line reader.
ROWS = 2 * LINES + 10


class After(Stop):
    """A stop seen set from its ``looks + 1``-th look on (the reader's
    looks counted: a reader looking before each piece or every
    :data:`LINES` lines)."""

    def __init__(self, looks: int) -> None:
        super().__init__()
        self.looks, self.seen = looks, 0

    def is_set(self) -> bool:
        self.seen += 1
        return self.seen > self.looks


def _stopped(read, looks: int) -> int:  # type: ignore[no-untyped-def]
    """``read()`` under a stop seen at the look after ``looks``: the looks made."""
    stop = After(looks)
    with stoppable(stop), pytest.raises(Stopped):
        read()
    return stop.seen


@pytest.fixture(scope="module")
def trec(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("trec")
    run, qrels = folder / "run.txt", folder / "qrels.txt"
    # 20 queries of ROWS // 20 candidates; every other one judged.
    per = ROWS // 20
    run.write_text("".join(f"q{i // per} Q0 d{i} {i % per + 1} {1.0 / (i % per + 1)} t\n"
                           for i in range(ROWS)))
    qrels.write_text("".join(f"q{i // per} 0 d{i} {i % 3}\n" for i in range(0, ROWS, 2)))
    return run, qrels


def test_the_line_by_line_run_reader_looks_every_lines(trec: tuple[Path, Path],
                                                       monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(scan, "scan_file", lambda *a, **k: None)  # the line reader's file
    assert _stopped(lambda: Run(trec[0]), 1) == 2  # at line 2 x LINES, not at the end


def test_the_line_by_line_qrels_reader_looks_every_lines(trec: tuple[Path, Path]):
    assert _stopped(lambda: read_qrels(trec[1]), 0) == 1


def test_the_join_looks_between_its_blocks(trec: tuple[Path, Path]):
    run, qrels = Run(trec[0]), QrelsColumns(trec[1])  # read: only the join looks
    assert _stopped(lambda: document_from_trec(run, qrels), 0) == 1
    # The last look is past the sorts and the search, before the document.
    assert _stopped(lambda: document_from_trec(Run(trec[0]), qrels), 2) == 3
    doc = document_from_trec(Run(trec[0]), qrels)  # (not stopped: the whole join)
    assert len(doc) == ROWS


def test_the_join_on_ids_text_looks_every_lines(trec: tuple[Path, Path]):
    run, judged = Run(trec[0]), read_qrels(trec[1])[0]
    assert _stopped(lambda: document_from_judged(run, judged), 1) == 2


def _sheet(path: Path, quoted: bool, rows: int) -> Path:
    head = '"query",source_id,score,grade\n' if quoted else "query,source_id,score,grade\n"
    path.write_text(head + "".join(f"q{i // 1000},d{i},{i % 7},{i % 3}\n" for i in range(rows)))
    return path


def test_the_worksheet_readers_look_every_piece_and_every_lines(tmp_path: Path):
    fast = _sheet(tmp_path / "fast.csv", quoted=False, rows=100_000)
    assert fast.stat().st_size > 1 << 20  # two pieces of a megabyte: a look before the second
    assert _stopped(lambda: read_delimited(fast), 1) == 2
    # A quoted header: the csv module reads it.
    careful = _sheet(tmp_path / "careful.csv", quoted=True, rows=ROWS)
    assert _stopped(lambda: read_delimited(careful), 2) == 3  # rows 0, LINES, 2 x LINES


def test_a_workbook_looks_before_each_sheet_and_says_stopped(tmp_path: Path):
    book = tmp_path / "book.xlsx"
    export_workbook(evaluate(seed_document()), book)
    for looks in (0, 1, 2):  # the metadata, the conventions, the candidates
        # Stopped, not "the workbook cannot be read" (core.io.workbook.reader._reading).
        assert _stopped(lambda: read_workbook(book), looks) == looks + 1
    assert len(read_workbook(book)) == len(seed_document())


def test_a_workbook_s_check_looks_before_each_piece_of_its_parts(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """The safety check a workbook passes before its first sheet is read
    (core.io.safety: every part unpacked and scanned, seconds at a million
    candidates) looks before each piece of each part, an .ods's
    content.xml on the thread that unpacks it ahead too, and the exact
    parse of a sheet's cells: Stopped (not "the workbook cannot be read")."""
    import core.io.safety.check as checks
    from core.io.safety import check_workbook
    from core.io.safety.formulas import find_cells_not_data
    from core.io.workbook.layout import SHEETS
    from core.model.document import Document

    monkeypatch.setattr(checks, "_LAST", [])  # (bytes that passed are not checked again)
    n = 1000
    ev = evaluate(Document.from_columns(
        query=[f"q{i // 100}" for i in range(n)], source_id=[f"d{i}" for i in range(n)],
        score=[1.0 / (i % 100 + 1) for i in range(n)], grade=[float(i % 3) for i in range(n)]))
    for suffix in ("xlsx", "ods"):
        book = tmp_path / f"book.{suffix}"
        export_workbook(ev, book)
        for looks in (0, 5, 10):  # (of 45 looks in the .xlsx, 12 in the .ods)
            assert _stopped(lambda b=book: check_workbook(b), looks) == looks + 1
    book = tmp_path / "book.xlsx"
    part = check_workbook(book).parts[SHEETS["candidates"]]
    assert _stopped(lambda: find_cells_not_data(book, part), 0) == 1

    def used_area() -> object:
        import zipfile

        from core.io.safety.parts import open_part
        from core.io.safety.sheets import SheetPart, used_area_parsed

        with zipfile.ZipFile(book) as zf, open_part(zf, zf.getinfo(part), str(book)) as fh:
            where = SheetPart(SHEETS["candidates"], part, zf.getinfo(part).file_size, False)
            return used_area_parsed(fh, where, file=str(book))

    assert _stopped(used_area, 0) == 1


def test_a_stop_during_calamines_parse_of_a_workbook_read_ends_the_read_there(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """calamine opens a workbook in one call that cannot look at the stop
    (the interpreter lock let go): File > Open's Cancel, or a quit, waited
    for it. Now the reading thread looks while it runs beside it."""
    import threading

    import python_calamine

    book = tmp_path / "book.xlsx"
    export_workbook(evaluate(seed_document()), book)
    stop = Stop()
    parse_ended, let_go = threading.Event(), threading.Event()
    real_parse = python_calamine.CalamineWorkbook.from_path

    def long_parse(path: str) -> object:
        stop.set()  # (as Cancel does, from the UI thread)
        let_go.wait(timeout=20)
        parse_ended.set()
        return real_parse(path)

    monkeypatch.setattr(python_calamine.CalamineWorkbook, "from_path", long_parse)
    try:
        with stoppable(stop), pytest.raises(Stopped):
            read_workbook(book)
        assert not parse_ended.is_set()
    finally:
        let_go.set()
    assert parse_ended.wait(timeout=20)
