"""Command-line habits (issue 35 item 5): ``-`` reads standard input, ``-o -``
writes standard output, and the exit statuses are the documented ones."""

from __future__ import annotations

import contextlib
import errno
import io
import os
import re
import signal
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest

from app.cli.main import EXIT_STATUSES, build_parser, main
from core.errors import InputError
from core.io.stdin import sniff_suffix, spooled
from core.model.examples import EXAMPLE_PATH, EXAMPLE_WORKBOOK
from tests.conftest import REPO

RUN = b"q1 Q0 a 1 3.0 t\nq1 Q0 b 2 2.0 t\nq2 Q0 c 1 1.0 t\n"
RUN2 = b"q1 Q0 b 1 3.0 u\nq1 Q0 a 2 2.0 u\nq2 Q0 c 1 1.0 u\n"
QRELS = b"q1 0 a 2\nq1 0 b 0\nq2 0 c 1\n"


def _zip(first: str, data: bytes) -> bytes:
    """A zip of two members with a fixed time: the bytes are a parameter's id,
    the same in every pytest-xdist worker's collection (the clock's second
    in a member's header made two workers collect different tests)."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for name, member in ((first, data), ("content.xml", b"<x/>")):
            z.writestr(zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0)), member)
    return buf.getvalue()


@pytest.mark.parametrize(("head", "suffix"), [
    (b"query,source_id,score,grade\nq1,d1,3,2\n", ".csv"),
    (b"\xef\xbb\xbfquery;source_id;score;grade\n", ".csv"),
    (b"query\tsource_id\tscore\tgrade\n", ".tsv"),
    ("query\tgrade\n".encode("utf-16"), ".tsv"),
    (RUN, ""),
    (QRELS, ""),
    (b'[{"query": "q1"}]', ".json"),
    (b'{\n "query": "q1"\n}\n', ".json"),
    (b'{"query": "q1", "doc": "d1"}\n{"query": "q1", "doc": "d2"}\n', ".jsonl"),
    (_zip("[Content_Types].xml", b"<Types/>"), ".xlsx"),
    (_zip("mimetype", b"application/vnd.oasis.opendocument.spreadsheet"), ".ods"),
    (b"PAR1\x15\x04", ".parquet"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1\x00", ".xls"),
    (b"", ".csv"),
])
def test_the_format_of_standard_input_is_told_by_its_bytes(head, suffix):
    assert sniff_suffix(head) == suffix


def test_standard_input_past_the_limit_is_refused_and_its_copy_removed():
    with pytest.raises(InputError, match=r"^<stdin>: standard input is larger than") as caught, \
            spooled(io.BytesIO(b"x" * 5000), limit=4096):
        pass  # pragma: no cover (never entered)
    assert caught.value.file == "<stdin>"
    assert str(caught.value) == (f"<stdin>: standard input is larger than {4096 / 1024**3:g} "
                                 "GiB (split it into smaller files)")
    with spooled(io.BytesIO(RUN)) as path:
        assert path.read_bytes() == RUN
        assert path.name == "stdin"  # a TREC run has no suffix
    assert not path.parent.exists()


class _Failing(io.RawIOBase):
    def readable(self) -> bool:
        return True

    def readinto(self, _buffer):  # type: ignore[no-untyped-def]
        raise OSError(errno.EIO, "Input/output error")


def test_standard_input_that_cannot_be_read_is_one_line(monkeypatch, capsys):
    with pytest.raises(InputError, match=r"^<stdin>: cannot read standard input: Input/output"), \
            spooled(io.BufferedReader(_Failing())):
        pass  # pragma: no cover (never entered)
    monkeypatch.setattr(sys, "stdin", None)  # closed: python ... <&-
    assert main(["evaluate", "-"]) == 2
    assert capsys.readouterr().err == ("ndcg-worksheet: error: <stdin>: standard input is closed "
                                       "(pipe a file into it: ... - < FILE)\n")


def _main(args: list[str], stdin: bytes, monkeypatch) -> tuple[int, str]:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin)))
    out = io.StringIO()
    return main(args, out=out), out.getvalue()


@pytest.mark.parametrize("path", [EXAMPLE_PATH, EXAMPLE_WORKBOOK])
def test_evaluate_reads_a_worksheet_or_a_workbook_from_standard_input(path, monkeypatch):
    # The workbook from its bytes alone: its conventions and grades, as from the file.
    assert _main(["evaluate", "-", "--format", "json"], path.read_bytes(), monkeypatch) == \
        _main(["evaluate", str(path), "--format", "json"], b"", monkeypatch)


def test_a_run_or_its_qrels_from_standard_input(tmp_path, monkeypatch):
    run, qrels = tmp_path / "r.run", tmp_path / "r.qrels"
    run.write_bytes(RUN)
    qrels.write_bytes(QRELS)
    expected = _main(["evaluate", str(run), "--qrels", str(qrels), "--format", "csv"], b"",
                     monkeypatch)
    assert expected[0] == 0
    assert _main(["evaluate", "-", "--qrels", str(qrels), "--format", "csv"], RUN,
                 monkeypatch) == expected
    assert _main(["evaluate", str(run), "--qrels", "-", "--format", "csv"], QRELS,
                 monkeypatch) == expected


def test_compare_names_standard_input_stdin(tmp_path, monkeypatch):
    (tmp_path / "b.run").write_bytes(RUN2)
    (tmp_path / "q.qrels").write_bytes(QRELS)
    code, text = _main(["compare", "-", str(tmp_path / "b.run"), "--qrels",
                        str(tmp_path / "q.qrels"), "--resamples", "10"], RUN, monkeypatch)
    assert code == 0
    assert text.splitlines()[:2] == ["A: <stdin>", f"B: {tmp_path / 'b.run'}"]
    assert "ndcg-stdin" not in text
    code, text = _main(["compare", str(tmp_path / "b.run"), "-", "--baseline", "-", "--qrels",
                        str(tmp_path / "q.qrels"), "--resamples", "10"], RUN, monkeypatch)
    assert code == 0
    assert text.splitlines()[:2] == ["A: <stdin>", f"B: {tmp_path / 'b.run'}"]


def test_import_reads_standard_input_and_writes_standard_output(tmp_path, monkeypatch, capsys):
    sheet = b"Topic,Doc,Label,Worker\nq1,d1,relevant,w1\nq1,d2,not relevant,w1\n"
    (tmp_path / "s.csv").write_bytes(sheet)
    assert main(["import", str(tmp_path / "s.csv"), "-o", str(tmp_path / "a.csv")]) == 0
    code, text = _main(["import", "-", "-o", "-", "--to", "csv"], sheet, monkeypatch)
    assert code == 0
    assert text == (tmp_path / "a.csv").read_text(encoding="utf-8-sig")
    said = capsys.readouterr().err
    assert said.startswith("<stdin>: long layout")  # what was done: on stderr, named
    assert "wrote standard output: 2 candidates" in said


@pytest.mark.parametrize("kind", ["csv", "tsv", "qrels", "run"])
def test_export_to_standard_output_writes_the_file_s_bytes(kind, tmp_path, monkeypatch, capsys):
    target = tmp_path / f"out.{kind}"
    assert main(["export", str(EXAMPLE_PATH), "-o", str(target)], out=io.StringIO()) == 0
    to_file = capsys.readouterr().err.splitlines()
    code, text = _main(["export", str(EXAMPLE_PATH), "-o", "-", "--to", kind], b"", monkeypatch)
    assert code == 0
    assert text == target.read_text(encoding="utf-8-sig")
    said = capsys.readouterr().err.splitlines()
    # The same warnings as for a file (a qrels names what it cannot keep), then what was written.
    assert said[:-1] == to_file
    assert said[-1].startswith("wrote standard output: ")


@pytest.mark.parametrize(("args", "problem"), [
    (["export", str(EXAMPLE_PATH), "-o", "-", "--to", "xlsx"],
     "xlsx is a binary format: it is not written to standard output"),
    (["export", str(EXAMPLE_PATH), "-o", "-"],
     "standard output (-o -) has no suffix to tell the format (name it with --to "
     "csv|qrels|run|tsv)"),
    (["compare", "-", "-"], "standard input (-) is read once"),
])
def test_what_standard_input_and_output_cannot_do_is_one_line(args, problem, monkeypatch,
                                                               capsys):
    assert _main(args, RUN, monkeypatch)[0] == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert problem in err


def test_bad_bytes_on_standard_input_are_named_stdin(monkeypatch, capsys):
    assert _main(["evaluate", "-"], b"query,source_id,score,grade\nq1,d\xff,1,2\n",
                 monkeypatch)[0] == 2
    assert capsys.readouterr().err.startswith("ndcg-worksheet: error: <stdin>, line 2: byte 0xFF")


# Exit statuses: the documented ones, each seen in a real run.


def _documented_in_readme() -> list[int]:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    table = text[text.index("| status | meaning |"):].split("\n\n")[0]
    return [int(m) for m in re.findall(r"^\| (\d+) \|", table, re.M)]


def test_the_documented_statuses_are_the_code_s():
    codes = [code for code, _ in EXIT_STATUSES]
    assert _documented_in_readme() == codes
    parser = build_parser()
    subparsers = next(a for a in parser._actions if a.dest == "command")
    for command in (parser, *subparsers.choices.values()):  # type: ignore[attr-defined]
        helped = " ".join(command.format_help().split())
        for code, what in EXIT_STATUSES:
            assert f"{code} {' '.join(what.split())}" in helped, command.prog


def test_the_programs_help_says_how_the_editor_opens_a_file():
    """``ndcg-worksheet --help`` said only "Without a command, opens the
    desktop editor", its usage a COMMAND required: nothing of FILE, --qrels
    or --preset, which the editor's own parser (app.opening) takes."""
    from app.opening import parse_args

    parser = build_parser()
    usage = parser.format_usage().splitlines()
    assert usage[0] == ("usage: ndcg-worksheet [FILE] [--qrels QRELS] "
                        "[--preset trec_eval|sklearn|ranx]  (the editor)")
    opened = parse_args(["run.txt", "--qrels", "qrels.txt", "--preset", "ranx"])
    assert (opened.file, opened.qrels, opened.preset) == ("run.txt", "qrels.txt", "ranx")
    assert "opens the desktop editor on FILE" in " ".join(parser.format_help().split())
    subparsers = next(a for a in parser._actions if a.dest == "command")
    for name, command in subparsers.choices.items():  # type: ignore[attr-defined]
        assert command.format_usage().startswith(f"usage: ndcg-worksheet {name} [-h]")


def test_imports_help_names_the_formats_it_reads_once():
    """``import --help`` began "Read an annotators' sheet (.xlsx, .csv, .tsv)"
    while its SHEET said .xlsx, .ods, CSV, TSV, Excel's UTF-16 text, JSON or
    JSON Lines, all of which it reads (fails before)."""
    parser = build_parser()
    subparsers = next(a for a in parser._actions if a.dest == "command")
    helped = " ".join(subparsers.choices["import"].format_help().split())  # type: ignore[attr-defined]
    formats = ".xlsx, .ods, CSV, TSV, Excel's UTF-16 text, JSON or JSON Lines"
    assert f"Read an annotators' sheet ({formats})." in helped
    assert f"the annotators' sheet: {formats}" in helped


def test_imports_help_lists_every_kind_of_row_keep_takes():
    """``import --help``'s --keep listed its kinds by hand: control,
    rejected, preview, cancelled, skipped, and not ``draft``, which --keep
    takes (Argilla's draft responses); now each kind with what it is, from
    the one declaration (fails before: 'draft' absent)."""
    parser = build_parser()
    subparsers = next(a for a in parser._actions if a.dest == "command")
    helped = " ".join(subparsers.choices["import"].format_help().split())  # type: ignore[attr-defined]
    at = helped.index("--keep KIND,... import")
    said = helped[at:helped.index("--order {rows}", at)]
    assert said == (
        "--keep KIND,... import the rows a platform marks as not judgments all the same, of "
        "the kinds given: control: a control task (a test question with a known answer); "
        "rejected: work the platform rejected or found tainted; preview: a preview response, "
        "not a respondent's; cancelled: a cancelled annotation; skipped: a task the annotator "
        "skipped or declined, no judgment; draft: a draft response, saved and not submitted, "
        "no judgment yet (default: none, each such row skipped and counted) ")


def test_splits_help_says_what_its_base_and_qrels_may_be():
    """``split --help`` said --qrels is a "TREC qrels file" and BOOK "a
    workbook, CSV/TSV or TREC run", while split reads its base as the editor
    and evaluate do (core.io.rounds.read_base: an annotators' sheet or JSON as
    qrels, a JSON or Parquet run; BEIR's qrels TSV was taken): it now says
    what evaluate's help says (fails before)."""
    from app.cli.options import INPUT_HELP, QRELS_HELP

    parser = build_parser()
    subparsers = next(a for a in parser._actions if a.dest == "command")
    helped = " ".join(subparsers.choices["split"].format_help().split())  # type: ignore[attr-defined]
    assert " ".join(f"the base: {INPUT_HELP}".split()) in helped
    assert " ".join(QRELS_HELP.format(run="BOOK is then a run").split()) in helped


def _cli(*args: str, **kw) -> subprocess.CompletedProcess[str]:  # type: ignore[no-untyped-def]
    return subprocess.run([sys.executable, "-m", "app.launcher", *args], cwd=REPO, text=True,
                          capture_output=True, timeout=120, **kw)


def test_each_documented_status_in_a_real_run(tmp_path):
    seen = {0: _cli("evaluate", "-", input=EXAMPLE_PATH.read_text(encoding="utf-8")),
            2: _cli("evaluate", str(tmp_path / "missing.csv"))}
    assert _cli("evaluate", "--no-such-flag").returncode == 2  # a usage error
    # A bug: a command raising what no command should.
    seen[1] = subprocess.run(
        [sys.executable, "-c", "import sys, app.cli.evaluate as e\n"
         "def bug(*a): raise RuntimeError('a bug')\n"
         "e.cmd_evaluate.__code__ = bug.__code__\n"
         "from app.cli.main import main; sys.exit(main(['evaluate', 'x']))"],
        cwd=REPO, text=True, capture_output=True, timeout=120)
    assert "Traceback" in seen[1].stderr
    # Ctrl+C while standard input is read (once its copy is open), in a
    # process started as a terminal starts one: Ctrl+C not ignored. (A suite
    # run in the background of a shell without job control ignores it, and a
    # process started from it would too, whatever it does.)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        proc = subprocess.Popen([sys.executable, "-m", "app.launcher", "evaluate", "-"],
                                cwd=REPO, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)
    finally:
        signal.signal(signal.SIGINT, previous)
    deadline = time.monotonic() + 60
    while not any("ndcg-stdin-" in f for f in _open_files(proc.pid)):
        assert time.monotonic() < deadline
        assert proc.poll() is None
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=60) == 130
    assert proc.stdin is not None
    proc.stdin.close()
    assert {code: done.returncode for code, done in seen.items()} == {0: 0, 1: 1, 2: 2}
    assert sorted([*seen, 130]) == [code for code, _ in EXIT_STATUSES]


def _open_files(pid: int) -> list[str]:
    """What process ``pid`` has open (Linux)."""
    found = []
    try:
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            with contextlib.suppress(OSError):  # closed meanwhile
                found.append(os.readlink(fd))
    except OSError:
        pass
    return found


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="/dev/full is Linux's")
@pytest.mark.parametrize("args", [
    ["evaluate", str(EXAMPLE_PATH)],
    ["evaluate", str(EXAMPLE_WORKBOOK), "--format", "json"],
    ["export", str(EXAMPLE_PATH), "-o", "-", "--to", "csv"],
])
def test_an_output_that_cannot_be_written_is_one_line(args):
    """A full disk (``> /dev/full``) is said in one line, status 2: no
    traceback, and no second complaint from the process's ending."""
    with open("/dev/full", "wb") as full:
        done = subprocess.run([sys.executable, "-m", "app.cli", *args], stdout=full,
                              stderr=subprocess.PIPE, cwd=REPO, timeout=120, check=False)
    said = done.stderr.decode()
    assert done.returncode == 2, said
    assert said == "ndcg-worksheet: error: cannot write the output: the disk is full\n"
