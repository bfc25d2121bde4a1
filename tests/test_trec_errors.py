"""A bad TREC file stops the read in one line naming what it is and what
to do, read by the fast reader and by the line-by-line one alike: a pair
listed twice (both lines named), a bad or cut line, a line of too few or
many fields, a zip, a workbook or a binary file, a three-column run, UTF-16
and UTF-32 files, a run's header line, a zero byte late in the file.
"""

from __future__ import annotations

import bz2
import codecs
import gzip
import threading
from pathlib import Path
from typing import Any

import pytest

from core.errors import InputError
from core.io.trec import Run, document_from_trec, scan
from core.io.trec.read import SCORE_HINT
from tests.trec_cases import (
    QRELS,
    RUN,
    assert_same,
    both,
    crowd,
    error_of,
    write,
)


def test_run_duplicate_names_both_lines(tmp_path):
    run = write(tmp_path / "r.txt", RUN + "q1 Q0 b 9 0.5 t\nq1 Q0 a 9 0.5 t\n")
    qrels = write(tmp_path / "q.txt", QRELS)
    fast, slow = error_of(run, qrels), error_of(run, qrels, slow=True)
    assert str(fast) == str(slow)
    assert fast.line == 8
    assert "source 'b' twice (first on line 2)" in fast.problem
    assert fast.file == str(run)


@pytest.mark.parametrize("second", [2, 3])
def test_duplicate_in_blocks_of_one_size_names_both_lines(tmp_path, second):
    # Every query lists three sources (the check sorts block by block); the
    # repeat is in the second query, its second or third line.
    lines = [f"q{q} Q0 s{q}{i} {i} {9 - i} t" for q in range(3) for i in range(3)]
    lines[3 + second - 1] = lines[3].replace(" 1 9 t", f" {second} {9 - second} t")
    run = write(tmp_path / "r.txt", "\n".join(lines) + "\n")
    qrels = write(tmp_path / "q.txt", "q0 0 s00 1\nq1 0 s10 2\nq2 0 s22 1\n")
    fast, slow = error_of(run, qrels), error_of(run, qrels, slow=True)
    assert str(fast) == str(slow)
    assert fast.line == 3 + second
    assert "query 'q1' retrieves source 's10' twice (first on line 4)" in fast.problem
    ok = write(tmp_path / "ok.txt", "\n".join(lines[:3] + lines[6:]) + "\n")
    fast_doc, slow_doc = both(ok, qrels)
    assert_same(fast_doc, slow_doc)


@pytest.mark.parametrize("crowded", [True, False])
def test_qrels_duplicate_names_both_lines(tmp_path, crowded):
    run = write(tmp_path / "r.txt", RUN)
    qrels = write(tmp_path / "q.txt", QRELS + "q9 0 b 1\nq9 0 a 2\n")
    with crowd(crowded):
        fast = error_of(run, qrels)
    slow = error_of(run, qrels, slow=True)
    assert str(fast) == str(slow)
    assert fast.line == 8
    assert "'a' of query 'q9' is judged twice (first on line 5)" in fast.problem


@pytest.mark.parametrize(
    ("line", "where", "problem"),
    [
        ("q1 Q0 f 4 1.5\n", None, "expected 6 fields"),
        ("q1 Q0 f 4 1.5 t extra\n", None, "expected 6 fields"),
        ("q1 Q0 f 4 nan t\n", "score (field 5)", "'nan' is not a finite number"),
        ("q1 Q0 f 4 1e999 t\n", "score (field 5)", "is not a finite number"),
        ("q1 Q0 f 4 1,5 t\n", "score (field 5)", "'1,5' is not a finite number"),
        ("q1 Q0 f 4 - t\n", "score (field 5)", "'-' is not a finite number"),
    ],
)
def test_bad_run_line_is_named(tmp_path, line, where, problem):
    run = write(tmp_path / "r.txt", RUN + line + "q1 Q0 g 5 1 t\n")
    qrels = write(tmp_path / "q.txt", QRELS)
    err = error_of(run, qrels)
    assert (err.line, err.column) == (8, where)
    assert problem in err.problem
    if where:
        assert err.hint == "a run's score is the system's score for the source, a number"
    assert str(err) == str(error_of(run, qrels, slow=True))


@pytest.mark.parametrize(("run_line", "qrels_line", "hint"), [
    ("q1 Q0 f 4 1.5 my run\n", None, "an id holding a space splits the line: join its words"),
    ("q1 f 4\n", None, "an MS MARCO run (qid pid rank) has no score: write it as a TREC run"),
    ("q1 Q0 f 4 1.5\n", None, "each line holds query Q0 source rank score tag"),
    (None, "# judged by A\n", "a comment line: remove it; trec_eval reads no comments"),
    (None, "# judged by A and B\n", "a comment line: remove it"),
    ("# run of 2026-12-06 on v2\n", None, "a comment line: remove it"),
    (None, "q1 Q0 f 4 1.5 t\n", "this line is a run's (query Q0 source rank score tag): give "
     "the run first and its qrels after --qrels"),
    (None, "q1 0 f\n", "each line holds query iteration source grade"),
])
def test_a_line_of_too_few_or_many_fields_says_what_to_do(tmp_path, run_line, qrels_line,
                                                          hint):
    """The README's promise, 'refused in one line saying what to do' (a run
    tag holding a space, comment lines in qrels, an MS MARCO run), was kept
    as 'expected 6 fields (...), found 7' and no more."""
    run = write(tmp_path / "r.txt", RUN + (run_line or ""))
    qrels = write(tmp_path / "q.txt", QRELS + (qrels_line or ""))
    err = error_of(run, qrels)
    assert err.line == (8 if run_line else 7)
    assert err.hint is not None
    assert err.hint.startswith(hint), err.hint
    assert str(err) == str(error_of(run, qrels, slow=True))


@pytest.mark.parametrize(("run_end", "qrels_end", "line"), [
    ("q1 Q0 f 4 1.5", None, 8),  # cut in its tag
    ("q1 Q0 f", None, 8),
    (None, "q1 0 f", 7),  # cut before its grade
    (None, "q1 0", 7),
])
def test_a_file_cut_in_its_last_line_is_said_to_be_cut(tmp_path, run_end, qrels_end, line):
    """A run or qrels copied or downloaded only in part ends in the middle of
    a line, with no line break after it: said so, with what to do (was the
    line's usual hint, 'each line holds query Q0 source rank score tag')."""
    run = write(tmp_path / "r.txt", RUN + (run_end or ""))
    qrels = write(tmp_path / "q.txt", QRELS + (qrels_end or ""))
    err = error_of(run, qrels)
    assert err.line == line
    assert err.hint == ("the file ends in the middle of this line, with no line break after it: "
                        "it was cut short, as a copy or download stopped early leaves it; copy it "
                        "again whole, or delete this last line")
    assert str(err) == str(error_of(run, qrels, slow=True))
    # The same line ended by a line break is no cut file: the usual hint.
    write(run if run_end else qrels, (RUN + run_end if run_end else QRELS + qrels_end) + "\n")
    assert error_of(run, qrels).hint.startswith("each line holds query")


def _zipped(path: Path, members: dict[str, str]) -> Path:
    import zipfile

    with zipfile.ZipFile(path, "w") as archive:
        for name, text in members.items():
            archive.writestr(name, text)
    return path


@pytest.mark.parametrize(("name", "members", "problem", "hint"), [
    # A run sent zipped: was "this is a workbook", and nothing to do.
    ("run.zip", {"run.txt": RUN}, "this is a zip archive",
     "unzip it, unzip run.zip, and give the file it holds, run.txt"),
    ("r.txt", {"run.txt": RUN, "notes.md": "x"}, "this is a zip archive",
     "unzip it, unzip r.txt, and give the file it holds"),
    ("r.txt", {"[Content_Types].xml": "<Types/>"}, "this is an .xlsx workbook under a .txt name",
     "rename it to .xlsx: a workbook is evaluated alone"),
    ("r.txt", {"mimetype": "application/vnd.oasis.opendocument.spreadsheet"},
     "this is an .ods workbook under a .txt name", "rename it to .ods: "),
    ("book.xlsx", {"[Content_Types].xml": "<Types/>"}, "this is a workbook",
     "a workbook is evaluated alone, evaluate BOOK.xlsx without --qrels, or gives the "
     "judgments after --qrels"),
    ("sheet.xls", None, "this is an old .xls workbook (or a password-protected one)",
     "save it as .xlsx, without a password, in Excel or LibreOffice"),
    ("cut.xlsx", "cut", "this is a damaged zip archive or workbook", "copy it again whole"),
])
@pytest.mark.parametrize("role", ["run", "qrels"])
def test_a_zip_or_a_workbook_given_as_trec_text_says_what_it_is_and_what_to_do(
        tmp_path, name, members, problem, hint, role):
    """A run or qrels sent zipped, an .xls sheet, a workbook given as the run
    or under a .txt name: each said as what it is, with what to do (was "this
    is a workbook, not a TREC text file" for all, a zip of runs included)."""
    path = tmp_path / name
    if members is None:
        write(path, b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(504))
    elif members == "cut":
        write(path, _zipped(tmp_path / "whole.zip", {"[Content_Types].xml": "x" * 500})
              .read_bytes()[:200])
    else:
        _zipped(path, members)
    run = path if role == "run" else write(tmp_path / "run.txt", RUN)
    qrels = path if role == "qrels" else write(tmp_path / "q.txt", QRELS)
    for slow in (False, True):
        err = error_of(run, qrels, slow=slow)
        assert (err.file, err.problem) == (str(path), f"{problem}, not a TREC text file")
        assert err.hint is not None
        assert err.hint.startswith(hint), err.hint


@pytest.mark.parametrize(("text", "hint"), [
    # A run saved from a table (pandas' to_csv): a header, then query, source, score.
    ("qid\tdocid\tscore\nq1\ta\t3.5\nq1\tb\t2.25\n",
     "a header (qid docid score), its third column a score: write the run "
     "as TREC lines, awk 'NR > 1 {print $1, \"Q0\", $2, NR - 1, $3, \"run\"}' r.txt > "
     "trec-r.txt"),
    ("query-id corpus-id rank\nq1 a 1\n",
     "a header (query-id corpus-id rank), its third column a rank: write the "
     "run as TREC lines whose score is minus the rank, awk 'NR > 1 {print $1, \"Q0\", $2, "
     "$3, -$3, \"run\"}' r.txt > trec-r.txt"),
    # No header, and a third column that is no rank (not a whole number): a score.
    ("q1 a 3.5\nq1 b 2.25\n",
     "the third column is a score, not a rank (3.5): write the run as TREC lines, "
     "awk '{print $1, \"Q0\", $2, NR, $3, \"run\"}' r.txt > trec-r.txt"),
    ("q1 a 1\nq1 b 2\n", "an MS MARCO run (qid pid rank) has no score"),
])
def test_a_three_column_run_is_told_by_its_third_column(tmp_path, text, hint):
    """A run of three columns was always taken for an MS MARCO run (qid pid
    rank), whose hint writes minus the third column as the score: followed
    for a run whose third column is a score (a header "qid docid score", or
    scores such as 3.5), it ranked the run upside down (fails before)."""
    run = write(tmp_path / "r.txt", text)
    qrels = write(tmp_path / "q.txt", QRELS)
    err = error_of(run, qrels)
    assert err.line == 1
    assert err.hint is not None
    assert err.hint.startswith(hint), err.hint
    assert str(err) == str(error_of(run, qrels, slow=True))


@pytest.mark.parametrize(("encoding", "said", "iconv"), [
    ("utf-16", "UTF-16", "UTF-16"), ("utf-16-be", "UTF-16", "UTF-16BE"),
    ("utf-16-le", "UTF-16", "UTF-16LE"), ("utf-32", "UTF-32", "UTF-32"),
    ("utf-32-le", "UTF-32", "UTF-32LE"), ("utf-32-be", "UTF-32", "UTF-32BE")])
@pytest.mark.parametrize("which", ["run", "qrels"])
def test_a_utf16_file_is_named_so(tmp_path, encoding, said, iconv, which):
    """A run or qrels redirected by Windows PowerShell 5 (``>`` writes UTF-16
    with its byte order mark) or saved as Notepad's "Unicode" was refused as
    "the file is binary, not a TREC text file", which it is not; it is now
    named UTF-16 (or UTF-32) with what to do (fails before). UTF-16 and
    UTF-32 without a byte order mark (-be, -le here) are told by their zero
    bytes (UTF-32's was "binary": fails before)."""
    bom = encoding == "utf-16" or encoding == "utf-32"
    run = write(tmp_path / "r.txt", RUN)
    qrels = write(tmp_path / "q.txt", QRELS)
    target = run if which == "run" else qrels
    target.write_bytes(target.read_text(encoding="utf-8").replace("\n", "\r\n")
                       .encode(encoding))
    for slow in (False, True):
        err = error_of(run, qrels, slow=slow)
        assert err.file == str(target)
        assert err.problem == (f"the file is {said} text"
                               + ("" if bom else " without a byte order mark")
                               + ", not UTF-8 as TREC files are")
        assert err.hint is not None
        assert err.hint.startswith(f"save it as UTF-8: iconv -f {iconv} -t UTF-8 "), err.hint


@pytest.mark.parametrize(("name", "pack", "cat"), [
    ("r.txt.gz", gzip.compress, "zcat"), ("r.txt.bz2", bz2.compress, "bzcat"),
    ("r.txt", gzip.compress, "zcat"), ("r.txt", bytes, None)])
def test_a_compressed_utf16_run_is_told_to_be_decompressed_first(tmp_path, name, pack, cat):
    """A compressed UTF-16 run: the hint's iconv line reads it decompressed,
    the compression told by the file's first bytes as the readers tell it
    (core.io.files.compressed), not by its name: a gzip file named r.txt
    was told "iconv -f UTF-16 -t UTF-8 r.txt", iconv then reading the gzip
    bytes (fails before)."""
    run = tmp_path / name
    run.write_bytes(pack(RUN.encode("utf-16")))
    qrels = write(tmp_path / "q.txt", QRELS)
    err = error_of(run, qrels)
    out = name.removesuffix(".gz").removesuffix(".bz2") if cat else name
    command = (f"{cat} {name} | iconv -f UTF-16 -t UTF-8" if cat
               else f"iconv -f UTF-16 -t UTF-8 {name}")
    assert err.hint is not None
    assert err.hint.startswith(f"save it as UTF-8: {command} > utf8-{out} "), err.hint


def test_utf16_trec_qrels_given_to_evaluate_are_named_so(tmp_path, capsys):
    """UTF-16 text given as --qrels went to the annotators' sheet reader (a
    spreadsheet's UTF-16 export), which said "no query column found in the
    columns A"; a first line that is a TREC line now goes to the TREC reader,
    which names the encoding (fails before)."""
    from app.cli.main import main

    run = write(tmp_path / "r.txt", RUN)
    qrels = tmp_path / "q.txt"
    qrels.write_bytes(QRELS.encode("utf-16"))
    assert main(["evaluate", str(run), "--qrels", str(qrels)]) == 2
    err = capsys.readouterr().err
    assert f"{qrels}: the file is UTF-16 text, not UTF-8 as TREC files are (save it as " \
        "UTF-8: iconv -f UTF-16 -t UTF-8 q.txt > utf8-q.txt" in err


@pytest.mark.parametrize("encoding", ["utf-16", "utf-32", "utf-32-be"])
def test_wide_trec_qrels_given_to_evaluate_are_named_so(tmp_path, capsys, encoding):
    """UTF-32 qrels given as --qrels (its little-endian byte order mark
    starts as UTF-16's) were read as UTF-16, no TREC line found, and went to
    the annotators' sheet reader: "no query column found in the header
    (\\x00q\\x001\\x00 ...)" (fails before for utf-32). The byte order mark's
    codec decides, as the sheet reader's (core.io.textfile)."""
    from app.cli.main import main

    run = write(tmp_path / "r.txt", RUN)
    qrels = tmp_path / "q.txt"
    bom = {"utf-32-be": codecs.BOM_UTF32_BE}.get(encoding, b"")
    qrels.write_bytes(bom + QRELS.encode(encoding))
    assert main(["evaluate", str(run), "--qrels", str(qrels)]) == 2
    said = "UTF-16" if encoding == "utf-16" else "UTF-32"
    assert f"{qrels}: the file is {said} text, not UTF-8 as TREC files are (save it as " \
        f"UTF-8: iconv -f {said} -t UTF-8 q.txt > utf8-q.txt" in capsys.readouterr().err


def test_a_utf32_sheet_given_as_qrels_is_still_a_sheet(tmp_path):
    from core.io.qrels_kind import is_judgment_sheet

    sheet = tmp_path / "grades.txt"
    sheet.write_bytes("query\tsource\tgrade\nq1\td1\t2\n".encode("utf-32"))
    assert is_judgment_sheet(sheet)
    trec = tmp_path / "qrels.txt"
    trec.write_bytes(QRELS.encode("utf-32"))
    assert not is_judgment_sheet(trec)


def test_a_runs_header_line_is_named_so(tmp_path):
    """A run whose first line names its six columns (``qid Q0 docno rank
    score tag``, as a run written from a table with its header) was refused
    as "'score' is not a finite number (a run's score is the system's score
    for the source, a number)"; it is now named a header, with the line that
    drops it (fails before). A word where the score goes further down is
    still a score that is no number."""
    run = write(tmp_path / "r.txt", "qid Q0 docno rank score tag\n" + RUN)
    qrels = write(tmp_path / "q.txt", QRELS)
    for slow in (False, True):
        err = error_of(run, qrels, slow=slow)
        assert (err.line, err.column) == (1, "score (field 5)")
        assert err.hint == ("line 1 is a header (qid Q0 docno rank score tag): a TREC run has "
                            "none; drop it, tail -n +2 r.txt > trec-r.txt")
    run = write(tmp_path / "r.txt", RUN + "q1 Q0 f rank score t\n")
    assert error_of(run, qrels).hint == SCORE_HINT


@pytest.mark.parametrize(("text", "pack", "command"), [
    ("qid Q0 docno rank score tag\n" + RUN, bytes, "tail -n +2 run.txt > trec-run.txt"),
    ("qid Q0 docno rank score tag\n" + RUN, gzip.compress,
     "zcat run.txt | tail -n +2 > trec-run.txt"),
    ("qid\tdocid\tscore\nq1\ta\t3.5\n", bytes, "' run.txt > trec-run.txt"),
    ("q1 a 3.5\n", bytes, "' run.txt > trec-run.txt"),
    ("q1 a 1\n", bytes, "' run.txt > trec-run.txt"),
], ids=["header", "header-gz", "three-header", "three-score", "three-rank"])
def test_a_runs_rewrite_never_writes_over_the_run_it_reads(tmp_path, text, pack, command):
    """The hint's shell line for a run named run.txt (a header to drop, or
    three columns to write as TREC lines) read run.txt and wrote "> run.txt"
    (or named run.tsv, which the user's run.txt replaced): the shell empties
    run.txt before the filter reads it. It names the run it refused, reads it
    decompressed where it is compressed, and writes a new file beside it
    (fails before)."""
    run = tmp_path / "run.txt"
    run.write_bytes(pack(text.encode()))
    qrels = write(tmp_path / "q.txt", QRELS)
    hint = error_of(run, qrels, slow=True).hint
    assert hint is not None
    assert hint.endswith(command), hint
    assert not hint.endswith("> run.txt")


def test_bad_qrels_line_is_named(tmp_path):
    run = write(tmp_path / "r.txt", RUN)
    qrels = write(tmp_path / "q.txt", QRELS + "q1 0 f\n")
    err = error_of(run, qrels)
    assert err.line == 7
    assert "expected 4 fields" in err.problem
    qrels = write(tmp_path / "q.txt", QRELS + "q1 0 f high\n")
    err = error_of(run, qrels)
    assert (err.line, err.column) == (7, "grade (field 4)")
    assert str(err) == (
        f"{qrels}, line 7, column 'grade (field 4)': 'high' is not a finite number (a qrels "
        "grade is a number; grades written as words are read from a sheet with a header "
        "(query, source_id, grade) by `ndcg-worksheet import --rubric G=LABEL,...`)")
    assert str(err) == str(error_of(run, qrels, slow=True))


@pytest.mark.parametrize(
    ("bad_run", "bad_qrels", "where"),
    [(True, False, "run"), (True, True, "run"), (True, "binary", "run"), (False, True, "qrels")],
)
def test_errors_while_both_files_are_read(tmp_path, monkeypatch, bad_run, bad_qrels, where):
    # The qrels are scanned on a second thread while the run is read: the
    # messages are those of one file read after the other (the run's first),
    # and no thread is left behind. The qrels' scan waits after its first
    # piece until the run's line reader has started, so it is mid-file then.
    monkeypatch.setattr(scan, "_CHUNK", 512)  # many pieces in either file
    run_started = threading.Event()
    waited: list[bool] = []
    pieces, read_lines = scan._pieces, Run._read_lines

    def qrels_wait(path: Path) -> Any:
        for i, piece in enumerate(pieces(path)):
            if i == 1 and path.name == "q.txt":
                waited.append(run_started.wait(60))
            yield piece

    def run_lines(self: Run, *args: Any) -> None:
        run_started.set()
        read_lines(self, *args)

    monkeypatch.setattr(scan, "_pieces", qrels_wait)
    monkeypatch.setattr(Run, "_read_lines", run_lines)
    run = write(tmp_path / "r.txt", "".join(f"q{i % 7} Q0 d{i} {i} 1 t\n" for i in range(900))
                + ("q1 Q0 f 4 nan t\n" if bad_run else ""))
    qrels = write(tmp_path / "q.txt", "".join(f"q{i % 7} 0 d{i} {i % 3}\n" for i in range(900))
                  + ("q1 0 f high\n" if bad_qrels else ""))
    if bad_qrels == "binary":  # refused at its first bytes, before the run's error
        qrels.write_bytes(b"\x00\x01" + qrels.read_bytes())
    if not bad_run:
        run_started.set()  # the run is read column-wise: nothing to wait for
    before = threading.active_count()
    err = error_of(run, qrels)
    assert threading.active_count() == before
    assert (err.file, err.line) == ((str(run), 901) if where == "run" else (str(qrels), 901))
    assert str(err) == str(error_of(run, qrels, slow=True))
    assert all(waited)  # never held up for want of the run's reader
    assert waited or bad_qrels == "binary"  # refused before its second piece


def test_workbook_and_binary_refused(tmp_path):
    qrels = write(tmp_path / "q.txt", QRELS)
    err = error_of(write(tmp_path / "r.xlsx", b"PK\x03\x04rest"), qrels)
    assert "workbook" in err.problem
    err = error_of(write(tmp_path / "r.bin", b"q1 Q0 a 1 1 t\n\x00\x01"), qrels)
    assert "binary" in err.problem
    err = error_of(tmp_path / "missing.txt", qrels)
    assert "cannot read the file" in err.problem


@pytest.mark.parametrize(("head", "said"), [
    (b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<\x00>>", "a PDF document"),
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "a PNG image"),
    (b"SQLite format 3\x00\x10\x00", "an SQLite database"),
])
@pytest.mark.parametrize("which", ["run", "qrels"])
def test_a_binary_file_of_a_known_kind_is_named_as_such(tmp_path, head, said, which):
    """A PDF (the sheet printed, in a new user's trial) given as the qrels
    or the run is named as what it is, as a workbook's reader names it; it
    was "the file is binary, not a TREC text file"."""
    run, qrels = write(tmp_path / "r.txt", RUN), write(tmp_path / "q.txt", QRELS)
    target = write(run if which == "run" else qrels, head)
    for slow in (False, True):
        err = error_of(run, qrels, slow=slow)
        assert err.file == str(target)
        assert err.problem == f"the file is {said}, not a TREC text file"


def test_zero_byte_late_in_file_is_refused_naming_the_line(tmp_path):
    # Past the first 4096 bytes (where it is "binary") a zero byte was read
    # as part of an id: refused as JSON's and Parquet's are, naming the line
    # (trec_eval's C strings would end the id there; tests/test_id_line_breaks.py).
    body = "".join(f"q1 Q0 d{i} {i} 1 t\n" for i in range(400))
    run = write(tmp_path / "r.txt", body.encode() + b"q1 Q0 a\x00b 1 1 t\n")
    pad = "".join(f"q1 0 d{i} 1\n" for i in range(400))
    qrels = write(tmp_path / "q.txt", pad + "q1 0 a\x00b 2\n")
    with pytest.raises(InputError, match=r"r\.txt, line 401: 'a\\x00b' holds a NUL"):
        document_from_trec(run, qrels)
    with pytest.raises(InputError, match=r"q\.txt, line 401: 'a\\x00b' holds a NUL"):
        document_from_trec(write(tmp_path / "ok.txt", body), qrels)
