"""The TREC reader: the column-wise (numpy) path against the line-by-line one.

Every file is read twice: as the fast reader does (whole pieces of the file
with numpy, codes joined on integers) and as the line-by-line reader does
(Python dicts), which is what any irregular file gets. The two must give the
same document, the same errors and the same line numbers.
"""

from __future__ import annotations

import bz2
import codecs
import gzip
import math
import tempfile
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from unittest import mock

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.errors import InputError
from core.io.trec import Run, document_from_trec, join, scan
from core.io.trec import columns as trec_columns
from core.io.trec.read import SCORE_HINT
from core.model.document import Document


@contextmanager
def line_by_line() -> Any:
    """Make every file take the line-by-line reader."""
    with mock.patch.object(scan, "scan_file", return_value=None):
        yield


def both(run: Path, qrels: Path, *, fast_join: bool = True) -> tuple[Document, Document]:
    """The document as the fast path and as the line-by-line path read it
    (``fast_join``: the fast path joins on codes and bytes, as it does unless
    ids are not UTF-8 or keys clash)."""
    fast_run = Run(run)
    assert fast_run._table is not None, "the fast reader should take this file"
    fast = document_from_trec(fast_run, qrels)
    assert (fast.source_bytes() is not None) == fast_join
    with line_by_line():
        slow = document_from_trec(run, qrels)
    return fast, slow


def columns(doc: Document) -> dict[str, Any]:
    return {
        "query_ids": doc.query_ids,
        "query": doc.query.tolist(),
        "source_id": doc.source_id.tolist(),
        "score": [None if math.isnan(x) else x for x in doc.score.tolist()],
        "grade": [None if math.isnan(x) else x for x in doc.grade.tolist()],
        "state": doc.state.tolist(),
        "name": doc.name,
    }


def assert_same(fast: Document, slow: Document) -> None:
    assert columns(fast) == columns(slow)
    assert all(type(s) is str for s in fast.source_id.tolist())
    assert fast.source_id.dtype == object
    # score/grade compared bit for bit (so -0.0 and 0.0 differ)
    assert fast.score.tobytes() == slow.score.tobytes()
    assert fast.grade.tobytes() == slow.grade.tobytes()


def error_of(run: Path, qrels: Path, *, slow: bool = False) -> InputError:
    if slow:
        with line_by_line(), pytest.raises(InputError) as info:
            document_from_trec(run, qrels)
    else:
        with pytest.raises(InputError) as info:
            document_from_trec(run, qrels)
    return info.value


def write(path: Path, data: str | bytes) -> Path:
    path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return path


# -- hand-made files --------------------------------------------------------------------


RUN = """\
q1 Q0 a 1 3.5 t
q1 Q0 b 2 2 t
q1 Q0 c 3 2 t
q2 Q0 a 1 -1e-3 t

q3 Q0 x 1 7 t
q2 Q0 é 2 -0.0 t
"""

QRELS = """\
q2 0 z 2
q1 0 c 1
q1 0 d 3
q2 0 é 0.5
q9 0 a 1
q1 0 e 0
"""


def test_hand_made_join(tmp_path):
    run, qrels = write(tmp_path / "r.txt", RUN), write(tmp_path / "q.txt", QRELS)
    fast, slow = both(run, qrels)
    assert_same(fast, slow)
    # q3 has no judgments and q9 no run rows: both are left out.
    assert fast.query_ids == ["q1", "q2"]
    assert fast.source_id.tolist() == ["a", "b", "c", "a", "é", "d", "e", "z"]
    assert fast.query.tolist() == [0, 0, 0, 1, 1, 0, 0, 1]
    np.testing.assert_array_equal(fast.score[:5], [3.5, 2.0, 2.0, -0.001, -0.0])
    assert math.copysign(1.0, fast.score[4]) == -1.0
    assert np.isnan(fast.score[5:]).all()  # judged but not retrieved
    np.testing.assert_array_equal(fast.grade, [np.nan, np.nan, 1, np.nan, 0.5, 3, 0, 2])
    assert fast.state.tolist() == [1, 1, 0, 1, 0, 0, 0, 0]
    assert fast.name == "r"


def test_crlf_lone_cr_tabs_and_blank_lines(tmp_path):
    text = RUN.replace("\n", "\r\n").replace("q1 Q0 b", "q1\tQ0\t b").encode()
    text = text.replace(b"q3 Q0 x 1 7 t\r\n", b"   \t\r\nq3 Q0 x 1 7 t\r")
    run = write(tmp_path / "r.txt", text)
    qrels = write(tmp_path / "q.txt", "\n\n" + QRELS.replace("\n", "\r\n") + "  \n")
    fast, slow = both(run, qrels)
    assert_same(fast, slow)
    assert len(fast) == 8


def test_empty_and_disjoint_files(tmp_path):
    run, qrels = write(tmp_path / "r.txt", ""), write(tmp_path / "q.txt", QRELS)
    fast, slow = both(run, qrels)
    assert_same(fast, slow)
    assert len(fast) == 0
    assert fast.query_ids == []
    run = write(tmp_path / "r2.txt", "other Q0 a 1 1 t\n")
    fast, slow = both(run, qrels)
    assert_same(fast, slow)
    assert len(fast) == 0


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


def test_duplicate_in_a_query_without_judgments_is_ignored(tmp_path):
    run = write(tmp_path / "r.txt", RUN + "q3 Q0 x 2 1 t\n")
    fast, slow = both(run, write(tmp_path / "q.txt", QRELS))
    assert_same(fast, slow)


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


def test_non_utf8_ids_read_as_cp1252(tmp_path):
    run = write(tmp_path / "r.txt", b"q1 Q0 caf\xe9 1 2 t\nq1 Q0 \xe2\x82\xac 2 1 t\n")
    qrels = write(tmp_path / "q.txt", b"q1 0 caf\xe9 1\n")
    fast, slow = both(run, qrels, fast_join=False)  # ids not in UTF-8: the text join
    assert_same(fast, slow)
    assert fast.source_id.tolist() == ["café", "€"]


def test_different_bytes_same_text_as_line_by_line(tmp_path):
    # b"caf\xc3\xa9" (UTF-8) and b"caf\xe9" (cp1252) both read as "café": the
    # line-by-line reader sees one id, so the fast path must too.
    run = write(tmp_path / "r.txt", "q1 Q0 café 1 2 t\n".encode() + b"q1 Q0 x 2 1 t\n")
    qrels = write(tmp_path / "q.txt", b"q1 0 caf\xe9 3\n")
    fast, slow = both(run, qrels, fast_join=False)
    assert_same(fast, slow)
    assert fast.grade.tolist() == [3.0, pytest.approx(np.nan, nan_ok=True)]


def test_key_clash_falls_back_exactly(tmp_path):
    # Every id gets the same key: the byte checks must notice and the result
    # must still be exact. (Keys of ids up to 8 bytes are the bytes
    # themselves, so the ids here are longer.)
    def longer(text: str) -> str:
        return text.replace(" a ", " a-long-identifier ").replace("q", "query-with-long-id-")

    run, qrels = write(tmp_path / "r.txt", longer(RUN)), write(tmp_path / "q.txt", longer(QRELS))
    with line_by_line():
        slow = document_from_trec(run, qrels)
    with mock.patch.object(scan, "padded_keys", lambda m: np.zeros(m.shape[0], dtype=np.uint64)):
        fast = document_from_trec(run, qrels)
    assert_same(fast, slow)
    with mock.patch.object(scan, "_source_keys",
                           lambda m: np.zeros(m.shape[0], dtype=np.uint64)):
        fast = document_from_trec(run, qrels)
    assert_same(fast, slow)
    assert len(fast) == 8


def test_very_long_id(tmp_path):
    long_id = "x" * (scan.MAX_WIDTH + 1)
    run = write(tmp_path / "r.txt", RUN + f"q1 Q0 {long_id} 9 1 t\n")
    qrels = write(tmp_path / "q.txt", QRELS + f"q1 0 {long_id} 2\n")
    doc = document_from_trec(run, qrels)
    assert doc.source_id[5] == long_id
    assert doc.grade[5] == 2


# -- the number parser ------------------------------------------------------------------


def parse(tokens: list[bytes]) -> np.ndarray | None:
    """The tokens parsed, their lengths not given (as the sheet scanner
    calls it) and given (as the TREC scanner does): the same either way."""
    width = -(-max(max(len(t) for t in tokens), 1) // 8) * 8
    m = np.array(tokens, dtype=f"S{width}").view(np.uint8).reshape(len(tokens), width)
    got = scan.parse_numbers(m.copy())
    given = scan.parse_numbers(m, np.array([len(t) for t in tokens], dtype=np.int64))
    assert (got is None) == (given is None)
    assert got is None or given is None or got.tobytes() == given.tobytes()
    return got


@given(st.lists(st.floats(allow_nan=False, allow_infinity=False), min_size=1, max_size=20),
       st.sampled_from(["{!r}", "{:.2f}", "{:.6g}", "{:.0f}", "{:+.3f}", "{:.15g}", "{:e}"]))
def test_numbers_parse_as_float_does(values, fmt):
    tokens = [fmt.format(v).encode() for v in values]
    expected = np.array([float(t) for t in tokens])
    got = parse(tokens)
    if not np.isfinite(expected).all():  # e.g. the largest double to 15 digits
        assert got is None
        return
    assert got is not None
    assert got.tobytes() == expected.tobytes()


@given(st.lists(st.text("0123456789.-+eE", min_size=1, max_size=20), min_size=1, max_size=8))
def test_numbers_parse_any_token_as_float_does(texts):
    """Tokens of digits, dots, signs and exponents: the same value as float,
    bit for bit, or refused where float refuses (or overflows)."""
    assert_parsed_as_float([t.encode() for t in texts])


def assert_parsed_as_float(tokens: list[bytes]) -> None:
    """The parser gives float's values bit for bit, or refuses where float
    refuses (or overflows)."""
    try:
        expected = np.array([float(t) for t in tokens])
    except ValueError:
        assert parse(tokens) is None
        return
    got = parse(tokens)
    if not np.isfinite(expected).all():
        assert got is None
        return
    assert got is not None
    assert got.tobytes() == expected.tobytes()


DIGITS = st.text("0123456789", max_size=18)


@given(st.lists(st.tuples(st.sampled_from(["", "+", "-"]), DIGITS, st.booleans(), DIGITS),
                min_size=1, max_size=12))
def test_plain_decimals_parse_as_float_does(parts):
    """Signs, digits and a dot anywhere, across the 8-byte words the parser
    reads at once (up to 37 bytes): float's value bit for bit, or refused
    where float refuses."""
    assert_parsed_as_float([f"{sign}{whole}{'.' if dot else ''}{frac}".encode()
                            for sign, whole, dot, frac in parts])


def test_plain_decimals_by_hand():
    tokens = [b"17.63", b"-0.5", b"+12345678.9", b"123456789012345", b"1234567890.12345",
              b".5", b"7.", b"-0", b"00000000000000000001", b"1234567890123456"]
    got = parse(tokens)
    assert got is not None
    assert got.tolist() == [17.63, -0.5, 12345678.9, 123456789012345.0, 1234567890.12345,
                            0.5, 7.0, -0.0, 1.0, 1234567890123456.0]
    assert np.signbit(got[7])


def test_plain_decimals_of_one_word_by_hand():
    """Tokens of at most 8 bytes (read as one word): a sign, a dot at
    either end, eight digits, a sign and seven."""
    tokens = [b"17.63", b"-0.5", b"+1234.5", b".5", b"7.", b"-0", b"12345678", b"-1234567",
              b"0.000001", b"9", b"-.25", b"1234567."]
    got = parse(tokens)
    assert got is not None
    assert got.tolist() == [17.63, -0.5, 1234.5, 0.5, 7.0, -0.0, 12345678.0, -1234567.0,
                            0.000001, 9.0, -0.25, 1234567.0]
    assert np.signbit(got[5])
    for bad in (b"1.2.", b"+", b"-.", b"1-2", b"12e", b"..5"):
        assert parse([b"1.5", bad]) is None, bad


def test_numbers_of_one_byte():
    """A qrels' grades, one digit each, are read as they stand; a lone
    sign, dot or letter among them is refused."""
    got = parse([b"0", b"3", b"1", b"9", b"0"])
    assert got is not None
    assert got.tolist() == [0.0, 3.0, 1.0, 9.0, 0.0]
    assert not np.signbit(got).any()
    for bad in (b"-", b".", b"+", b"e", b"x", b"/", b":"):
        assert parse([b"1", bad]) is None, bad


@pytest.mark.parametrize("token", [b"1,5", b"-", b".", b"1.2.3", b"nan", b"inf", b"--1", b"0x1",
                                   b"1e400", b"\xe9", b"1_000", b"1_0", b"infinity", b"NaN"])
def test_numbers_refuse_what_the_number_grammar_refuses(token):
    # float takes '1_000' (digits grouped) and 'infinity': the grammar
    # (core.model.numbers.read_number) does not
    assert parse([b"1", token]) is None


def test_numbers_accept_what_float_accepts():
    tokens = [b"+.5", b"5.", b"-0", b"007", b"1E3", b"123456789012345678"]
    got = parse(tokens)
    assert got is not None
    assert got.tobytes() == np.array([float(t) for t in tokens]).tobytes()


# -- random files -------------------------------------------------------------------------

ID_CHARS = st.characters(
    blacklist_characters=" \t\n\r\x0b\x0c\x00", blacklist_categories=("Cs",),
)
IDS = st.text(ID_CHARS, min_size=1, max_size=12)
SCORES = st.one_of(
    st.floats(-1e6, 1e6, allow_nan=False).map(repr),
    st.integers(-5, 5).map(str),
    st.sampled_from(["1.5", "2.25", "-0.0", "3", "1e-3"]),  # ties
)
ENDINGS = st.sampled_from(["\n", "\r\n", "\r"])


@st.composite
def trec_files(draw: st.DrawFn) -> tuple[bytes, bytes]:
    queries = draw(st.lists(IDS, min_size=1, max_size=4, unique=True))
    sources = draw(st.lists(IDS, min_size=1, max_size=8, unique=True))
    pairs = draw(st.lists(
        st.tuples(st.sampled_from(queries), st.sampled_from(sources)), unique=True, max_size=25,
    ))
    run_lines = [f"{q} Q0 {s} {i} {draw(SCORES)} tag" for i, (q, s) in enumerate(pairs)]
    judged = draw(st.lists(st.sampled_from(pairs), unique=True)) if pairs else []
    extra = draw(st.lists(st.tuples(st.sampled_from(queries) | IDS, IDS), max_size=8))
    qrels_pairs = list(dict.fromkeys(judged + extra))
    qrels_pairs = draw(st.permutations(qrels_pairs))
    qrels_lines = [f"{q} {draw(st.sampled_from(['0', 'Q0']))} {s} "
                   f"{draw(st.sampled_from(['0', '1', '2', '3', '-1', '0.5']))}"
                   for q, s in qrels_pairs]

    def join(lines: list[str]) -> bytes:
        out = []
        for line in lines:
            if draw(st.booleans()) and draw(st.booleans()):
                out.append(draw(st.sampled_from(["", "  ", "\t"])) + draw(ENDINGS))
            sep = draw(st.sampled_from([" ", "\t", "  "]))
            out.append(line.replace(" ", sep) + draw(ENDINGS))
        text = "".join(out)
        if draw(st.booleans()):
            text = text.rstrip("\r\n")
        return text.encode("utf-8")

    return join(run_lines), join(qrels_lines)


@contextmanager
def crowd(crowded: bool) -> Any:
    """With ``crowded``, the join's sort keys hold the query alone, so that
    every source of a query shares one: the repeat checks look at the bytes
    and the search walks past the other sources of the query."""
    if not crowded:
        yield
        return
    def query_only(query: Any, key: Any, bits: int, out: Any = None) -> Any:
        high = query.astype(np.uint64) << np.uint64(64 - bits)
        return np.broadcast_to(high, np.broadcast_shapes(high.shape, key.shape)).copy()

    with mock.patch.object(join, "sort_keys", query_only):
        yield


@given(trec_files(), st.sampled_from([16, 64, 1 << 22]), st.booleans())
def test_fast_and_line_by_line_agree(files, chunk, crowded):
    run_text, qrels_text = files
    with tempfile.TemporaryDirectory() as tmp:
        run = write(Path(tmp) / "run.txt", run_text)
        qrels = write(Path(tmp) / "qrels.txt", qrels_text)
        with mock.patch.object(scan, "_CHUNK", chunk), crowd(crowded):
            fast, slow = both(run, qrels)
            assert_same(fast, slow)
            # The run's own columns read the same way too.
            fast_run = Run(run)
        with line_by_line():
            slow_run = Run(run)
        assert fast_run.query == slow_run.query
        assert fast_run.source == slow_run.source
        assert fast_run.score.tobytes() == slow_run.score.tobytes()
        assert fast_run.line.tolist() == slow_run.line.tolist()


@given(trec_files(), st.integers(0, 30), st.booleans())
def test_run_duplicates_found_as_line_by_line(files, at, crowded):
    run_text, qrels_text = files
    lines = run_text.splitlines()
    rows = [line for line in lines if line.split()]
    if not rows:
        return
    copy = rows[at % len(rows)]
    run_text = b"\n".join([*lines, b"", copy]) + b"\n"
    with tempfile.TemporaryDirectory() as tmp:
        run = write(Path(tmp) / "run.txt", run_text)
        qrels = write(Path(tmp) / "qrels.txt", qrels_text)
        try:
            with crowd(crowded):
                document_from_trec(run, qrels)
        except InputError as exc:
            fast: str | None = str(exc)
        else:
            fast = None
        try:
            with line_by_line():
                document_from_trec(run, qrels)
        except InputError as exc:
            slow: str | None = str(exc)
        else:
            slow = None
        assert fast == slow


@st.composite
def run_and_qrels(draw: st.DrawFn) -> tuple[str, str]:
    """A run and its qrels shaped like real ones: each query's rows together
    (often as many for every query) or in any order, ids shared between
    queries, queries only the run ranks or only the qrels judge, judged
    sources the run did not retrieve, and now and then a pair listed twice."""
    queries = draw(st.lists(IDS, min_size=1, max_size=6, unique=True))
    pool = draw(st.lists(IDS, min_size=1, max_size=10, unique=True))
    depth = draw(st.integers(1, len(pool)))
    uniform = draw(st.booleans())
    run: list[tuple[str, str]] = []
    for q in draw(st.lists(st.sampled_from(queries), min_size=1, unique=True)):
        size = depth if uniform else draw(st.integers(1, len(pool)))
        run += [(q, s) for s in draw(st.permutations(pool))[:size]]
    qrels: list[tuple[str, str]] = []
    for q in draw(st.lists(st.sampled_from(queries), unique=True)):
        qrels += [(q, s) for s in draw(st.lists(st.sampled_from(pool), unique=True))]
    for rows in (run, qrels):
        if draw(st.booleans()):
            rows[:] = draw(st.permutations(rows))
        if rows and draw(st.integers(0, 2)) == 0:
            rows.insert(draw(st.integers(0, len(rows))), draw(st.sampled_from(rows)))
    run_text = "".join(f"{q} Q0 {s} {i} {draw(SCORES)} t\n" for i, (q, s) in enumerate(run))
    qrels_text = "".join(f"{q} 0 {s} {draw(st.sampled_from(['0', '1', '2', '-1']))}\n"
                         for q, s in qrels)
    return run_text, qrels_text


def joined(run: Path, qrels: Path, unshared: bool) -> Document | str:
    """The document (or the error's message) of a run and its qrels."""
    try:
        return document_from_trec(run, qrels, unshared=unshared)
    except InputError as exc:
        return str(exc)


@given(run_and_qrels(), st.booleans(), st.booleans())
def test_fast_join_equals_the_line_join_row_for_row(files, unshared, crowded):
    with tempfile.TemporaryDirectory() as tmp:
        run = write(Path(tmp) / "run.txt", files[0])
        qrels = write(Path(tmp) / "qrels.txt", files[1])
        with crowd(crowded):
            fast = joined(run, qrels, unshared)
        with line_by_line():
            slow = joined(run, qrels, unshared)
    if isinstance(fast, str) or isinstance(slow, str):
        assert fast == slow
        return
    assert fast.source_bytes() is not None  # the fast join took it
    assert_same(fast, slow)
    assert fast.unjudged_queries == slow.unjudged_queries


@pytest.mark.parametrize(("crowded", "depths"), [(False, [300] * 3), (True, [300] * 3),
                                                  (False, [300, 250, 280]),
                                                  (True, [250, 300, 280])])
def test_deep_blocks_sorted_by_their_keys(tmp_path, crowded, depths):
    """Queries of 250-300 candidates, more places than the query codes'
    bits hold, each query's rows together (one depth, or several: the
    groups padded to the longest): the sort keys make room for the places,
    and the join equals the line-by-line one (a query only the run ranks, one
    only the qrels judge, judged sources the run did not retrieve, ids of 1
    to 20 bytes)."""
    rng = np.random.default_rng(5)
    ids = [f"{'d' * (i % 17)}{i}" for i in range(400)]
    run_lines, qrels_lines = [], []
    for q, depth in zip(["q1", "q2", "q3"], depths, strict=True):
        picked = rng.permutation(400)[:depth]
        run_lines += [f"{q} Q0 {ids[i]} {r} {rng.integers(0, 9)} t" for r, i in enumerate(picked)]
        if q != "q3":
            judged = rng.permutation(400)[:120]
            qrels_lines += [f"{q} 0 {ids[i]} {rng.integers(0, 3)}" for i in judged]
    qrels_lines += ["q9 0 d1 1"]
    run = write(tmp_path / "run.txt", "\n".join(run_lines) + "\n")
    qrels = write(tmp_path / "qrels.txt", "\n".join(qrels_lines) + "\n")
    with mock.patch.object(join, "_sorted_groups", wraps=join._sorted_groups) as groups, \
            crowd(crowded):
        fast, slow = both(run, qrels)
    assert groups.call_count == 2  # the run; the qrels (2 groups of 120, 1 of 1)
    assert_same(fast, slow)
    kept = sum(depths[:2])  # q3 is not judged
    assert len(fast) == kept + int(np.isnan(fast.score).sum())
    assert (~np.isnan(fast.grade[:kept])).sum() > 50


def test_same_id_in_pieces_of_different_widths(tmp_path):
    # "0" sits beside a 9-byte id in the run (16-byte rows) and alone in the
    # qrels (8-byte rows): its key must not depend on the row width.
    run = write(tmp_path / "r.txt", "0 Q0 0 0 0.0 tag\n0\U00010000\U00010000 Q0 0 1 0.0 tag\n")
    qrels = write(tmp_path / "q.txt", "0 0 0 0\n")
    fast, slow = both(run, qrels)
    assert_same(fast, slow)
    assert fast.query_ids == ["0"]
    assert fast.grade.tolist() == [0.0]


# -- Document.find_duplicate --------------------------------------------------------------


def duplicate_oracle(query: list[str], source: list[str]) -> tuple[int, int] | None:
    seen: dict[tuple[str, str], int] = {}
    for i, pair in enumerate(zip(query, source, strict=True)):
        if pair in seen:
            return seen[pair], i
        seen[pair] = i
    return None


@given(st.lists(st.tuples(st.sampled_from(["q1", "q2", "q3"]), st.sampled_from("abcdé")),
                max_size=12),
       st.booleans())
def test_find_duplicate_matches_a_dict(rows, clash):
    query = [q for q, _ in rows]
    source = [s for _, s in rows]
    doc = Document.from_columns(query=query, source_id=source, check=False)
    if clash:  # every id hashes alike: only the text comparison may decide
        with mock.patch("core.model.document.hash", return_value=7, create=True):
            got = doc.find_duplicate()
    else:
        got = doc.find_duplicate()
    assert got == duplicate_oracle(query, source)


def test_from_columns_with_query_codes():
    doc = Document.from_columns(query=["b", "a"], query_codes=np.array([1, 0, 1]),
                                source_id=["x", "y", "z"], grade=[1.0, None, 2.0])
    ref = Document.from_columns(query=["a", "b", "a"], source_id=["x", "y", "z"],
                                grade=[1.0, None, 2.0], query_order=["b", "a"])
    assert doc.query_ids == ref.query_ids == ["b", "a"]
    assert doc.query.tolist() == ref.query.tolist() == [1, 0, 1]
    with pytest.raises(ValueError, match="distinct"):
        Document.from_columns(query=["a", "a"], query_codes=np.array([0]), source_id=["x"])
    with pytest.raises(ValueError, match="out of range"):
        Document.from_columns(query=["a"], query_codes=np.array([1]), source_id=["x"])


# -- tokens ---------------------------------------------------------------------------------


@given(trec_files())
def test_plain_layout_tokens_match_the_general_ones(files):
    for text, n_fields in zip(files, (6, 4), strict=True):
        for chunk in (text, text.replace(b"\r\n", b"\n").replace(b"\r", b"\n"),
                      b"\n".join(b" ".join(line.split()) for line in text.splitlines()
                                 if line.split()) + b"\n"):
            if not chunk:
                continue
            b = np.frombuffer(chunk, dtype=np.uint8)
            word = np.frombuffer(chunk.translate(scan._WORD), dtype=np.bool_)
            general = scan._tokens(b, word, n_fields, b"\r" in chunk)
            plain = scan._plain_tokens(b, n_fields)
            if plain is not None:
                assert general is not None
                for x, y in zip(plain[:2], general[:2], strict=True):
                    assert x.tolist() == y.tolist()
                assert plain[2] is None  # each row is its own line
                assert general[2].tolist() == list(range(plain[3]))
                assert plain[3] == general[3]


def test_plain_layout_is_taken_for_the_usual_file():
    chunk = b"q1 Q0 a 1 2.5 t\nq1 Q0 b 2 1 t\n"
    b = np.frombuffer(chunk, dtype=np.uint8)
    plain = scan._plain_tokens(b, 6)
    assert plain is not None
    assert plain[0][:6].tolist() == [0, 3, 6, 8, 10, 14]
    assert plain[1][:6].tolist() == [2, 5, 7, 9, 13, 15]
    assert plain[2] is None
    assert plain[3] == 2
    for odd in (b"q1 Q0 a 1 2.5 t\n\nq1 Q0 b 2 1 t\n", b"q1  Q0 a 1 2.5 t\n", b" q1 Q0 a 1 2 t\n",
                b"q1 Q0 a 1 2.5 t", b"q1 Q0 a 1 2.5\nt\n", b"q1 Q0 a 1 2.5\tt\n",
                b"q1 Q0 a\x01 1 2.5 t\n", b"q1 Q0 a 1 2.5 t\r\n", b"q1 Q0 a 1 2.5 t \n"):
        b = np.frombuffer(odd, dtype=np.uint8)
        assert scan._plain_tokens(b, 6) is None


def test_from_columns_query_codes_from_mixed_ids():
    # 1 and "1" are the same query (its text); order is first seen.
    doc = Document.from_columns(query=[2, 1, "1", "x", 2.5, 2], source_id=list("abcdef"))
    assert doc.query_ids == ["2", "1", "x", "2.5"]
    assert doc.query.tolist() == [0, 1, 1, 2, 3, 0]
    doc = Document.from_columns(query=[["q"], ["q"]], source_id=["a", "b"])
    assert doc.query_ids == ["['q']"]
    assert doc.query.tolist() == [0, 0]
    doc = Document.from_columns(query=["b", "a"], source_id=["x", "y"], query_order=["a", "z"])
    assert doc.query_ids == ["a", "z", "b"]
    assert doc.query.tolist() == [2, 0]


def test_fast_run_with_a_qrels_file_read_line_by_line(tmp_path):
    # A token longer than the scan reads (MAX_WIDTH) sends only the qrels
    # to the line reader; the run's columns then feed the dict join.
    pad = "".join(f"q1 0 pad{i} 1\n" for i in range(400))
    run = write(tmp_path / "r.txt", RUN)
    qrels = write(tmp_path / "q.txt", QRELS + pad + "q2 0 " + "a" * 600 + " 3\n")
    fast_run = Run(run)
    assert fast_run._table is not None
    doc = document_from_trec(fast_run, qrels)
    with line_by_line():
        slow = document_from_trec(run, qrels)
    assert_same(doc, slow)
    assert "a" * 600 in doc.source_id.tolist()


@pytest.mark.parametrize("lengthen", [True, False])
def test_ids_that_change_length_down_the_file(tmp_path, lengthen):
    # The reader sizes its columns from the first piece: ids that lengthen
    # down the file need more id bytes than promised, ids that shorten more
    # rows; each grows on its own, and the file reads as line by line.
    # (Lengthening ids under a shortening tag: the first piece's lines are
    # mostly tag, the last ones mostly id.)
    # Shortening ones: a few long lines, then many more rows than the +1024
    # the reader adds to its estimate.
    sizes = list(range(1, 400)) if lengthen else [400] * 20 + [1] * 3000
    run_lines = [f"q{q} Q0 {'d' * n}{q} 1 {n % 7}.5 {'t' * (400 - n) if lengthen else 't'}"
                 for q, n in enumerate(sizes)]
    qrels_lines = [f"q{q} 0 {'d' * n}{q} {n % 3}" for q, n in enumerate(sizes)]
    run = write(tmp_path / "run.txt", "\n".join(run_lines) + "\n")
    qrels = write(tmp_path / "qrels.txt", "\n".join(qrels_lines) + "\n")
    grown: list[str] = []
    resize = trec_columns._resize

    def spy(a: Any, n: int) -> Any:
        if n > a.size:
            grown.append("ids" if a.dtype == np.uint8 else "rows")
        return resize(a, n)

    with mock.patch.object(scan, "_CHUNK", 4096), mock.patch.object(trec_columns, "_resize", spy):
        fast, slow = both(run, qrels)
    assert_same(fast, slow)
    assert len(fast) == len(sizes)
    assert fast.n_queries == len(sizes)
    assert set(grown) == ({"ids"} if lengthen else {"rows"})
