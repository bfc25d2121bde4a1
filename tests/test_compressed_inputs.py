"""Compressed runs and qrels (``.gz`` as ir_datasets, Anserini and BEIR ship
them; bzip2 and xz too) read as the plain files are: the same documents and
the same JSON byte for byte, the same one-line messages for bad lines (the
decompressed text's line numbers, the file named as given), and a clear
refusal of a corrupt, truncated or foreign archive naming the file.

The compressed copies are made here from the repository's plain files
(tests/data/tools, the hostile corpus tests/data/hostile/text).
"""

from __future__ import annotations

import bz2
import gzip
import io
import json
import lzma
from pathlib import Path
from unittest import mock

import pytest

from app.cli.main import main
from core.errors import InputError
from core.io.files import read_input, sniff
from core.io.load import load_document
from core.io.pairs import check_exist
from core.io.stdin import spooled
from core.io.trec import document_from_trec, scan
from tests.test_tool_formats import assert_hand_values

DATA = Path(__file__).parent / "data" / "tools"
HOSTILE = Path(__file__).parent / "data" / "hostile" / "text"
PACK = {".gz": gzip.compress, ".bz2": bz2.compress, ".xz": lzma.compress}


def packed(tmp_path: Path, source: Path, suffix: str = ".gz", data: bytes | None = None) -> Path:
    """A compressed copy of ``source`` (or of ``data``) in ``tmp_path``."""
    out = tmp_path / (source.name + suffix)
    out.write_bytes(PACK[suffix](source.read_bytes() if data is None else data))
    return out


def cli(*args: str | Path) -> tuple[int, str]:
    out = io.StringIO()
    code = main([str(a) for a in args], out=out)
    return code, out.getvalue()


@pytest.mark.parametrize("suffix", [".gz", ".bz2", ".xz"])
@pytest.mark.parametrize("slow", [False, True])
def test_a_compressed_run_and_qrels_give_the_hand_derived_values(tmp_path, suffix, slow):
    # The trial's run and qrels (a BOM, CRLF line ends, tied scores) under
    # the trec_eval preset, both readers: the column-wise one and, for a file
    # it leaves, the line-by-line one.
    run = packed(tmp_path, DATA / "anserini_bom.run", suffix)
    qrels = packed(tmp_path, DATA / "qrels_bom_crlf.txt", suffix)
    if slow:
        with mock.patch.object(scan, "scan_file", return_value=None):
            doc = document_from_trec(run, qrels)
    else:
        doc = load_document(run, qrels=qrels)
    assert_hand_values(doc)
    assert doc.name == DATA.joinpath("anserini_bom.run").stem  # the compression's suffix dropped


def test_the_shipped_gz_run_reads_as_its_plain_copy():
    plain = cli("evaluate", DATA / "anserini_bom.run", "--qrels", DATA / "qrels_bom_crlf.txt",
                "--preset", "trec_eval", "--format", "json")
    packed_run = cli("evaluate", DATA / "anserini.run.gz", "--qrels",
                     DATA / "qrels_bom_crlf.txt", "--preset", "trec_eval", "--format", "json")
    assert plain[0] == packed_run[0] == 0
    assert packed_run[1] == plain[1]
    assert json.loads(plain[1])["queries"]


def test_many_pieces_of_a_gz_run_read_as_the_plain_file(tmp_path, monkeypatch):
    # 4 KiB pieces: the decompressed stream is cut into many pieces, lines
    # split across them, as a 70 MB run is cut into pieces of 1 MiB.
    monkeypatch.setattr(scan, "_CHUNK", 4096)
    lines = [f"q{q} Q0 doc_{q}_{d} {d + 1} {100 - d * 0.37:.4f} tag\n"
             for q in range(40) for d in range(60)]
    judged = [f"q{q} 0 doc_{q}_{d} {(q + d) % 4}\n" for q in range(40) for d in range(0, 60, 3)]
    run, qrels = tmp_path / "run.txt", tmp_path / "qrels.txt"
    run.write_text("".join(lines))
    qrels.write_text("".join(judged))
    flags = ("--k", "10", "--k", "all", "--format", "json")
    for preset in ("trec_eval", "ranx"):
        want = cli("evaluate", run, "--qrels", qrels, "--preset", preset, *flags)
        got = cli("evaluate", packed(tmp_path, run), "--qrels", packed(tmp_path, qrels, ".xz"),
                  "--preset", preset, *flags)
        assert got == want
        assert len(json.loads(want[1])["queries"]) == 40


def _hostile_pairs() -> list[tuple[str, str]]:
    expected = json.loads((HOSTILE / "expected.json").read_text())
    # (a workbook named .run: compressed, its refusal names what the archive
    # holds, test_an_archive_holding_a_workbook_or_parquet_is_refused_naming_it)
    return sorted((name, case["qrels"]) for name, case in expected.items()
                  if name.startswith("trec_") and case.get("qrels") and not case.get("args")
                  and name != "trec_run_workbook.run")


@pytest.mark.parametrize(("run", "qrels"), _hostile_pairs())
def test_hostile_trec_files_compressed_say_what_the_plain_ones_say(tmp_path, capsys, run, qrels):
    # Every TREC case of the hostile corpus, run and qrels gzipped: the same
    # exit code, output and one-line message (the same line numbers), with
    # the compressed file named where the plain one was.
    plain_run, plain_qrels = HOSTILE / run, HOSTILE / qrels
    gz_run, gz_qrels = packed(tmp_path, plain_run), packed(tmp_path, plain_qrels)
    want = cli("evaluate", plain_run, "--qrels", plain_qrels, "--format", "json")
    said = capsys.readouterr().err
    got = cli("evaluate", gz_run, "--qrels", gz_qrels, "--format", "json")
    assert got == want
    assert capsys.readouterr().err == (said.replace(str(plain_run), str(gz_run))
                                       .replace(str(plain_qrels), str(gz_qrels)))


def test_a_bad_line_in_a_gz_qrels_is_named_by_its_line(tmp_path, capsys):
    qrels = packed(tmp_path, tmp_path / "q.txt", data=b"q1 0 a 1\n\nq1 0 b two\n")
    code, _ = cli("evaluate", DATA / "anserini_bom.run", "--qrels", qrels)
    assert code == 2
    err = capsys.readouterr().err
    assert f"{qrels}, line 3, column 'grade (field 4)': 'two' is not a finite number" in err


@pytest.mark.parametrize("suffix", [".gz", ".bz2", ".xz"])
def test_a_truncated_or_corrupt_archive_is_refused_naming_the_file(tmp_path, suffix):
    text = b"".join(b"q%d Q0 d%d 1 %d.5 t\n" % (i % 7, i, i) for i in range(3000))
    whole = PACK[suffix](text)
    cut = tmp_path / ("cut" + suffix)
    cut.write_bytes(whole[: len(whole) // 2])
    name = {".gz": "gzip", ".bz2": "bzip2", ".xz": "xz"}[suffix]
    with pytest.raises(InputError) as info:
        read_input(cut)
    assert str(info.value) == (
        f"{cut}: the {name} file is truncated: it ends before its compressed data does "
        f"(download or compress it again (check it with {name} -t {cut.name}))")
    with pytest.raises(InputError, match=rf"^{cut}: the {name} file is truncated"):
        load_document(cut, qrels=DATA / "qrels_bom_crlf.txt")
    bad = tmp_path / ("bad" + suffix)
    middle = len(whole) // 2
    bad.write_bytes(whole[:middle] + bytes(b ^ 0x5A for b in whole[middle:middle + 64])
                    + whole[middle + 64:])
    with pytest.raises(InputError, match=rf"^{bad}: the {name} file is (corrupt|truncated)"):
        load_document(bad, qrels=DATA / "qrels_bom_crlf.txt")


def test_an_empty_archive_says_what_an_empty_file_says(tmp_path, capsys):
    # An empty run against qrels: every judged query unranked, said in a
    # note naming it; an empty file alone: refused as empty. A 0-byte file
    # named .gz is an empty file.
    qrels = DATA / "qrels_bom_crlf.txt"
    empty = tmp_path / "run.txt"
    empty.write_bytes(b"")
    zero = tmp_path / "zero.txt.gz"
    zero.write_bytes(b"")
    note = (f"ndcg-worksheet: note: {empty}: the run has no line, so every query of the "
            "qrels is unranked\n")
    for args, code, said in ((("--qrels", qrels, "--format", "json"), 0, note),
                             ((), 2, f"ndcg-worksheet: error: {empty}: the file is empty "
                                     "(add a header line)\n")):
        want = cli("evaluate", empty, *args), capsys.readouterr().err
        assert (want[0][0], want[1]) == (code, said)
        for archive in (packed(tmp_path, empty), packed(tmp_path, empty, ".xz"), zero):
            got = cli("evaluate", archive, *args), capsys.readouterr().err
            assert got == (want[0], want[1].replace(str(empty), str(archive)))


@pytest.mark.parametrize(("inner", "holds"), [
    ("run_12_judgments.xlsx", "a workbook (.xlsx or .ods)"),
    ("ir_datasets_scoreddocs.parquet", "a Parquet table"),
])
def test_an_archive_holding_a_workbook_or_parquet_is_refused_naming_it(tmp_path, inner, holds):
    source = next(Path(__file__).parent.joinpath("data").rglob(inner))
    archive = packed(tmp_path, source)
    want = (f"{archive}: the file is gzip-compressed and holds {holds} (decompress it first "
            f"(gzip -dk {archive.name}) and open what it holds)")
    for read in (lambda: load_document(archive),
                 lambda: load_document(archive, qrels=DATA / "qrels_bom_crlf.txt"),
                 lambda: load_document(DATA / "anserini_bom.run", qrels=archive),
                 lambda: check_exist(DATA / "anserini_bom.run", archive)):
        with pytest.raises(InputError) as info:
            read()
        assert str(info.value) == want


def test_zstd_is_still_refused_with_how_to_decompress(tmp_path):
    # Not in the standard library before Python 3.14.
    run = tmp_path / "run.txt.zst"
    run.write_bytes(b"\x28\xb5\x2f\xfd" + bytes(40))
    with pytest.raises(InputError) as info:
        load_document(run, qrels=DATA / "qrels_bom_crlf.txt")
    assert str(info.value) == (
        f"{run}: the file is zstd-compressed (decompress it first (zstd -dk run.txt.zst), or "
        "give - for it and pipe it in: zstdcat run.txt.zst | ndcg-worksheet ...)")
    with pytest.raises(InputError) as info:
        check_exist(DATA / "anserini_bom.run", run)
    assert str(info.value) == (f"{run}: the file is zstd-compressed (decompress it first "
                               "(zstd -dk run.txt.zst))")
    with pytest.raises(InputError) as info, spooled(io.BytesIO(run.read_bytes())):
        pass
    assert str(info.value) == ("<stdin>: standard input is zstd-compressed (decompress it "
                               "in the pipe: zstdcat FILE | ndcg-worksheet ...)")


def test_gz_standard_input_is_read_as_the_file(tmp_path):
    with spooled(io.BytesIO((DATA / "anserini.run.gz").read_bytes())) as path:
        assert path.name == "stdin"  # a TREC run, told from the decompressed text
        assert sniff(path).compression == "gzip"
        assert_hand_values(load_document(path, qrels=DATA / "qrels_bom_crlf.txt"))
    book = packed(tmp_path, next(Path(__file__).parent.joinpath("data")
                                 .rglob("run_12_judgments.xlsx")))
    with pytest.raises(InputError) as info, spooled(io.BytesIO(book.read_bytes())):
        pass
    assert str(info.value).startswith(
        "<stdin>: the file is gzip-compressed and holds a workbook (.xlsx or .ods) "
        "(decompress it in the pipe: zcat FILE | ndcg-worksheet ...")


def test_compare_reads_gz_runs_and_qrels_as_the_plain_ones(tmp_path):
    run, qrels = DATA / "anserini_bom.run", DATA / "qrels_bom_crlf.txt"
    other = tmp_path / "other.run"
    other.write_bytes(run.read_bytes().replace(b"1.482910e+01", b"1.0"))
    flags = ("--preset", "trec_eval", "--format", "json", "--resamples", "200")
    want = cli("compare", run, other, "--qrels", qrels, *flags)
    got = cli("compare", packed(tmp_path, run), packed(tmp_path, other), "--qrels",
              packed(tmp_path, qrels, ".bz2"), *flags)
    assert want[0] == 0
    assert got[1] == want[1].replace(str(other), str(tmp_path / "other.run.gz"))


def test_a_compressed_file_past_the_readers_limit_is_refused_as_it_passes_it(tmp_path):
    # The limit holds for the decompressed text (a small archive can hold a
    # great deal), counted as it is read.
    archive = packed(tmp_path, tmp_path / "w.csv", data=b"query,source_id,score,grade\n" * 400)
    assert len(read_input(archive, limit=11200)) == 11200
    with pytest.raises(InputError) as info:
        read_input(archive, limit=11199)
    assert str(info.value) == (f"{archive}: the file is larger than {11199 / 1024**3:g} GiB "
                               "decompressed (split it into smaller files)")


def test_compare_opens_each_file_once_for_its_head_and_once_to_read_it(tmp_path):
    # Its first bytes are read once for every check before the read (they
    # were read twice for worksheets, by check_exist and by load_document).
    import core.io.files as files

    run, qrels = DATA / "anserini_bom.run", DATA / "qrels_bom_crlf.txt"
    runs = [run] + [tmp_path / f"other{i}.run" for i in (1, 2)]
    sheets = [tmp_path / f"sheet{i}.csv" for i in range(3)]
    for i, (other, sheet) in enumerate(zip(runs, sheets, strict=True)):
        if i:
            other.write_bytes(run.read_bytes().replace(b"1.482910e+01", f"{i}.0".encode()))
        sheet.write_text(f"query,source_id,score,grade\nq1,d1,{i},1\nq1,d2,1.5,0\n")
    opened: list[str] = []
    real = files._open_plain

    def counted(path: Path) -> object:
        opened.append(Path(path).name)
        return real(path)

    for names in ([*runs[:2], "--qrels", qrels], [*runs, "--qrels", qrels],
                  sheets[:2], sheets):
        opened.clear()
        with mock.patch.object(files, "_open_plain", counted):
            assert cli("compare", *names, "--resamples", "20")[0] == 0
        files_named = [Path(n).name for n in names if n != "--qrels"]
        assert sorted(opened) == sorted(files_named * 2)


@pytest.mark.parametrize("bomb", ["run", "qrels", "run read line by line"])
def test_a_gz_past_the_limit_is_refused_by_the_streaming_reader(tmp_path, capsys, monkeypatch,
                                                               bomb):
    # A small gzip holding ~100 KB of text: the column-wise reader (which
    # streams, and takes plain files of any size) and the line-by-line one
    # refuse it as it passes the limit (lowered here from 2 GiB), in the one
    # line every reader gives; at the limit it reads as the plain text does.
    import core.io.files as files

    rows = range(4000)
    text = {"run": b"".join(b"q1 Q0 d%d %d 2.5 t\n" % (i, i) for i in rows),
            "qrels": b"".join(b"q1 0 d%d 1\n" % i for i in rows)}
    if bomb.endswith("line by line"):
        text["run"] = b"q1 Q0 d 1 3.5\n" + text["run"]  # 5 fields: the line reader names it
    big = "qrels" if bomb == "qrels" else "run"
    plain = {k: tmp_path / f"{k}.txt" for k in text}
    for k, path in plain.items():
        path.write_bytes(text[k])
    archive = packed(tmp_path, plain[big])
    assert len(archive.read_bytes()) * 4 < len(text[big])
    given = {**plain, big: archive}
    monkeypatch.setattr(files, "MAX_BYTES", len(text[big]))
    want = cli("evaluate", plain["run"], "--qrels", plain["qrels"]), capsys.readouterr().err
    got = cli("evaluate", given["run"], "--qrels", given["qrels"]), capsys.readouterr().err
    assert got == (want[0], want[1].replace(str(plain[big]), str(archive)))
    monkeypatch.setattr(files, "MAX_BYTES", len(text[big]) - 1)
    assert cli("evaluate", given["run"], "--qrels", given["qrels"])[0] == 2
    assert capsys.readouterr().err == (
        f"ndcg-worksheet: error: {archive}: the file is larger than "
        f"{(len(text[big]) - 1) / 1024**3:g} GiB decompressed (split it into smaller files)\n")


@pytest.mark.parametrize("suffix", [".gz", ".bz2", ".xz"])
def test_a_whole_compressed_file_read_at_once_is_bounded_too(tmp_path, monkeypatch, suffix):
    # read_input without a limit of its own (ranx's JSON, say) reads the
    # stream whole: it refuses past the limit (lowered here from 2 GiB) as
    # the streaming readers do, and reads a file at the limit as it is.
    import core.io.files as files

    data = b'{"q1": {"d1": 1.5}}' + b" " * 200_000  # (past the first bytes peeked)
    archive = packed(tmp_path, tmp_path / "run.json", suffix, data)
    monkeypatch.setattr(files, "MAX_BYTES", len(data))
    assert read_input(archive) == data
    monkeypatch.setattr(files, "MAX_BYTES", len(data) - 1)
    with pytest.raises(InputError, match=r"larger than .* GiB decompressed") as refused:
        read_input(archive)
    assert str(archive) in str(refused.value)
