"""The run's read with a forked child (core.io.child, core.io.trec.both's
``_read_forked``) against the threads', in fresh interpreters
(``tests/trec_fork_check.py``: the reader never forks where Qt is loaded, as
it is here)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

CHECK = Path(__file__).resolve().parent / "trec_fork_check.py"


def check(what: str) -> list[str]:
    done = subprocess.run([sys.executable, str(CHECK), what], capture_output=True, text=True,
                          timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Traceback" not in done.stderr
    return done.stdout.splitlines()


def test_forked_read_equals_the_threads_column_for_column():
    # Drawn runs and qrels, regular or with a bad line anywhere, CRLF or not,
    # the child's share starting anywhere, read in pieces of 16 bytes up:
    # the same columns, document or message with a child, a child killed
    # with SIGKILL, a child that raises and one whose result cannot be read
    # (its share then read here).
    lines = check("property")
    assert int(lines[-1].split()[1]) >= 100  # the reads forked


def test_bad_input_in_the_childs_share_gives_the_threads_message():
    # Each message as the threads give it (and so as the line-by-line reader
    # does), naming the file and line; no child left; no fork beside another
    # thread or with Qt loaded.
    lines = check("cases")
    said = dict(line.split(" -> ", 1) for line in lines[:-1])
    assert said["plain"] == "read"
    assert said["gzip run"] == "read"  # as the plain one, read from its start (no seek)
    assert said["bad score past the split"].endswith(
        "r.txt, line 901, column 'score (field 5)': 'nan' is not a finite number "
        "(a run's score is the system's score for the source, a number)")
    assert said["short line past the split"].endswith(
        "r.txt, line 899: expected 6 fields (query Q0 source rank score tag), found 3 "
        "(each line holds query Q0 source rank score tag, split by spaces or tabs)")
    assert "q.txt, line 451, column 'grade (field 4)': 'high'" in said["bad grade in the qrels"]
    assert said["twice in the run, across the split"].endswith(
        "r.txt, line 901: query 'q0' retrieves source 'd0' twice (first on line 1) "
        "(keep one line per query and source)")
    assert said["spaced tag"] == "read"  # the document the plain run's (trec_fork_check)
    assert said["spaced tag differing past the split"].endswith(
        "r.txt, line 901: expected the run tag 'BM25 tuned' of line 1 after field 5 (query Q0 "
        "source rank score tag), found 'BM25 tune' (a run tag holding spaces is read when "
        "every line ends in the same tag; an id holding a space splits its line: join its "
        "words (with _); or text after the tag BM25, which trec_eval skips: keep the six "
        "fields, awk '{print $1, $2, $3, $4, $5, $6}' r.txt > trec-r.txt)")
    assert said["binary qrels"].endswith("q.txt: the file is binary, not a TREC text file")
    assert said["missing qrels"].endswith("missing.txt: cannot read the file: no such file "
                                          "(check the path)")
    assert said["read ahead"] == "read"  # the editor's launch (core.io.trec.both.read_ahead)
    assert int(lines[-1].split()[1]) >= 7 * 4 + 2  # each case forked (well, killed, raising,
    # garbled), and twice ahead


def test_a_stopped_read_ends_at_its_next_piece_and_kills_its_child():
    # core.io.stop: a read stopped from another thread (the editor's window
    # closed while the run is read) while this process reads its pieces, then
    # while it waits for a child that never ends by itself: Stopped, no piece
    # read after the stop, the child killed and reaped.
    lines = check("stopped")
    assert lines[0] == "stopped while reading -> after 2 pieces, no child left"
    assert lines[1].startswith("stopped while waiting -> after ")
    assert lines[1].endswith(" pieces, no child left")
    assert lines[-1] == "forked 2"


def test_the_childs_result_is_taken_before_it_has_exited():
    # core.io.child: the child says through a pipe that its result is
    # written; the parent takes it then, not after the child's exit (its
    # memory given back: 7-19 ms at 2M candidates, on the launch's serial
    # path), and reaps the child when it cancels it.
    assert check("handback")[0] == "handed back before its exit, then reaped"
