"""``export`` when the disk says no: a full disk, a read-only disk, a folder
without permission, a folder gone. Each format's writer (xlsxwriter closing
its zip, the text writers) meets the system's error; the command line says
one line naming the reason, exits 2, and the file that was there survives."""

from __future__ import annotations

import errno
import io
import os
import zipfile
from pathlib import Path

import pytest

from app.cli.main import main

REASONS = [(errno.ENOSPC, "the disk is full"), (errno.EROFS, "the disk is read-only"),
           (errno.EACCES, "permission denied"), (errno.EDQUOT, "the disk quota is used up")]


def _fail(code: int):
    def fail(*_args: object, **_kwargs: object) -> None:
        raise OSError(code, os.strerror(code))
    return fail


def _errors(err: str) -> str:
    """stderr without the warnings said before writing (a qrels names what it
    cannot keep: the ranking): what is left is the failure's one line."""
    return "".join(line for line in err.splitlines(keepends=True) if ": warning: " not in line)


@pytest.fixture
def sheet(tmp_path: Path) -> Path:
    path = tmp_path / "in.csv"
    path.write_text("query,source_id,score,grade\n=1+1,a,2,1\nq1,b,1,0\n")
    return path


@pytest.mark.parametrize(("code", "reason"), REASONS)
@pytest.mark.parametrize("suffix", [".xlsx", ".csv", ".tsv", ".qrels", ".run"])
def test_a_failing_disk_is_one_line_and_the_old_file_survives(
        tmp_path: Path, sheet: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture,
        code: int, reason: str, suffix: str) -> None:
    out = tmp_path / f"out{suffix}"
    out.write_bytes(b"the old file\n")
    if suffix == ".xlsx":  # xlsxwriter's close writes the zip's members
        monkeypatch.setattr(zipfile.ZipFile, "write", _fail(code))
        monkeypatch.setattr(zipfile.ZipFile, "writestr", _fail(code))
    else:
        monkeypatch.setattr(Path, "write_text", _fail(code))
        monkeypatch.setattr(Path, "write_bytes", _fail(code))  # CSV/TSV: in their encoding
    before = sheet.read_bytes()
    status = main(["export", str(sheet), "-o", str(out)], out=io.StringIO())
    err = _errors(capsys.readouterr().err)
    assert status == 2
    assert err.count("\n") == 1, err
    assert f"{out}: could not save: {reason}; the previous file is unchanged" in err
    assert "Traceback" not in err
    assert out.read_bytes() == b"the old file\n"
    assert sheet.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["in.csv", out.name])


@pytest.mark.parametrize("suffix", [".xlsx", ".csv", ".qrels"])
def test_a_vanished_folder_is_one_line(tmp_path: Path, sheet: Path,
                                       capsys: pytest.CaptureFixture, suffix: str) -> None:
    out = tmp_path / "gone" / f"out{suffix}"
    assert main(["export", str(sheet), "-o", str(out)], out=io.StringIO()) == 2
    err = _errors(capsys.readouterr().err)
    assert err.count("\n") == 1
    assert "cannot write here: the folder is gone" in err
    assert not out.parent.exists()


def test_export_onto_its_input_leaves_the_input_as_it_was(sheet: Path,
                                                          capsys: pytest.CaptureFixture) -> None:
    before = sheet.read_bytes()
    assert main(["export", str(sheet), "-o", str(sheet)], out=io.StringIO()) == 2
    assert "the output is the input file; nothing was written" in capsys.readouterr().err
    assert sheet.read_bytes() == before


def test_export_to_another_csv_round_trips_formula_like_ids(tmp_path: Path, sheet: Path) -> None:
    """The bug: ``export a.csv -o b.csv`` wrote ``'=1+1`` and read it back as
    ``'=1+1``; the apostrophe is the CSV rule's mark and reads back off."""
    first, second = tmp_path / "b.csv", tmp_path / "c.csv"
    assert main(["export", str(sheet), "-o", str(first)], out=io.StringIO()) == 0
    assert main(["export", str(first), "-o", str(second)], out=io.StringIO()) == 0
    assert first.read_text().splitlines()[1].startswith("'=1+1,a,")
    assert second.read_bytes() == first.read_bytes()
    text = io.StringIO()
    assert main(["evaluate", str(second), "--format", "csv"], out=text) == 0
    assert "'=1+1,all," in text.getvalue()  # the report's CSV follows the same rule


def test_an_output_open_in_libreoffice_is_one_line_and_survives(
        tmp_path: Path, sheet: Path, capsys: pytest.CaptureFixture) -> None:
    out = tmp_path / "out.xlsx"
    out.write_bytes(b"the old file\n")
    (tmp_path / ".~lock.out.xlsx#").write_bytes(b",ana,vm,07.12.2026 10:10,file:///p;")
    assert main(["export", str(sheet), "-o", str(out)], out=io.StringIO()) == 2
    err = _errors(capsys.readouterr().err)
    assert err == (f"ndcg-worksheet: error: {out}: the file is open in LibreOffice by ana; it was "
                   "not changed (close it in LibreOffice and save again, or save under another "
                   "name; if LibreOffice is not running, delete its lock file .~lock.out.xlsx#)\n")
    assert out.read_bytes() == b"the old file\n"


@pytest.mark.parametrize("command", [
    ["export", "{sheet}", "-o", "{out}"],
    ["import", "{sheet}", "-o", "{out}"],
    ["compare", "{sheet}", "{sheet}", "--export", "{xlsx}"],
])
def test_a_held_output_is_refused_before_the_input_is_read(
        tmp_path: Path, sheet: Path, capsys: pytest.CaptureFixture, command: list[str]) -> None:
    """Refused before the input is read: the one line names the output,
    though the input would be refused too (an export to qrels had named what
    qrels cannot keep, six warning lines, then refused the file LibreOffice
    held open; a large run was read and evaluated first)."""
    out, xlsx = tmp_path / "out.qrels", tmp_path / "out.xlsx"
    for held in (out, xlsx):
        held.write_bytes(b"the old file\n")
        (tmp_path / f".~lock.{held.name}#").write_bytes(b",ana,vm,x,y;")
    sheet.write_text("query,source_id,score,grade\nq1,a,two,1\n")  # refused if read
    args = [a.format(sheet=sheet, out=out, xlsx=xlsx) for a in command]
    assert main(args, out=io.StringIO()) == 2
    err = capsys.readouterr().err
    target = xlsx if "--export" in args else out
    said = f"ndcg-worksheet: error: {target}: the file is open in LibreOffice by ana"
    assert err.startswith(said), err
    assert err.count("\n") == 1, err
    assert out.read_bytes() == xlsx.read_bytes() == b"the old file\n"
