"""Workbooks at the sheet's scale (issue 14): a document past the sheet's
row limit is refused before anything is computed; a workbook is checked once
per open (is it ours? then read it), and again whenever its bytes change."""

from __future__ import annotations

from pathlib import Path

import pytest

import core.io.safety.check as check_module
from app.cli.main import main
from core.engine.evaluation import evaluate
from core.errors import InputError
from core.io.load import is_annotator_sheet, load_document
from core.io.workbook import check_fits, export_workbook, read_workbook
from core.model.conventions import Conventions
from core.model.document import Document


class _Huge:
    """Stands for a document of ``n`` candidates in ``queries`` queries
    (only its size is asked before anything is computed)."""

    def __init__(self, n: int, queries: int) -> None:
        self.n, self.n_queries = n, queries
        self.conventions = Conventions()

    def __len__(self) -> int:
        return self.n


def _small() -> Document:
    return Document.from_columns(query=["q1", "q1", "q2"], source_id=["a", "b", "c"],
                                 score=[2.0, 1.0, 1.0], grade=[1.0, 0.0, 2.0])


def test_check_fits_names_the_sheet_and_the_limit(tmp_path: Path) -> None:
    check_fits(_Huge(1_048_575, 1), Conventions(), tmp_path / "ok.xlsx")  # type: ignore[arg-type]
    with pytest.raises(InputError, match=r"Candidates sheet would need 1,048,576 rows; "
                                         r"a workbook sheet holds 1,048,575"):
        check_fits(_Huge(1_048_576, 1), Conventions(), tmp_path / "x.xlsx")  # type: ignore[arg-type]
    # 400,000 queries x 3 cutoffs: the Queries sheet would overflow
    with pytest.raises(InputError, match=r"Queries sheet would need 1,200,000 rows"):
        check_fits(_Huge(400_000, 400_000), Conventions(cutoffs=(1, 5, None)),  # type: ignore[arg-type]
                   tmp_path / "x.xlsx")


def test_export_refuses_an_oversize_document_before_evaluating(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    import app.cli.export as cli_export

    src = tmp_path / "in.csv"
    src.write_text("query,source_id,score,grade\nq1,a,1,1\n")
    huge = _Huge(1_048_576, 1_000)
    monkeypatch.setattr(cli_export, "load_input", lambda args: (huge, Conventions()))

    def no_evaluate(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("evaluate was called for a document that cannot be written")

    monkeypatch.setattr(cli_export, "evaluate_input", no_evaluate)
    out = tmp_path / "out.xlsx"
    assert main(["export", str(src), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert "Candidates sheet would need 1,048,576 rows" in err
    assert "Traceback" not in err
    assert len(err.strip().splitlines()) == 1
    assert not out.exists()


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Counts the checks that really ran (not answered from the last one)."""
    runs: list[str] = []
    real = check_module._check_parts

    def counting(zf, pkg):  # type: ignore[no-untyped-def]
        runs.append(pkg.file)
        return real(zf, pkg)

    monkeypatch.setattr(check_module, "_check_parts", counting)
    monkeypatch.setattr(check_module, "_LAST", [])
    return runs


def test_a_workbook_is_checked_once_per_open(tmp_path: Path, counted: list[str]) -> None:
    book = tmp_path / "book.xlsx"
    export_workbook(evaluate(_small()), book)
    # The command line's open: is it an annotators' sheet? then read it.
    assert not is_annotator_sheet(book)
    doc = load_document(book)
    assert len(counted) == 1
    assert doc.source_id.tolist() == ["a", "b", "c"]
    # Another file with the same bytes is the same workbook: not checked again.
    copy = tmp_path / "copy.xlsx"
    copy.write_bytes(book.read_bytes())
    read_workbook(copy)
    assert len(counted) == 1


def test_changed_bytes_are_checked_again(tmp_path: Path, counted: list[str]) -> None:
    book = tmp_path / "book.xlsx"
    export_workbook(evaluate(_small()), book)
    read_workbook(book)
    assert len(counted) == 1
    data = bytearray(book.read_bytes())
    # The same size, the same name, the same inode; one byte of the zip's
    # comment area changed: checked again (and still passes).
    data[-1:] = b"\x01" if data[-1:] != b"\x01" else b"\x02"
    with open(book, "r+b") as fh:
        fh.write(data)
    with pytest.raises(InputError):  # a damaged directory is refused, not taken from the cache
        read_workbook(book)
    export_workbook(evaluate(_small()), book)
    doc = _small()
    doc.grades_to_edit()[0] = 3.0
    export_workbook(evaluate(doc), book)
    before = len(counted)
    assert float(read_workbook(book).grade[0]) == 3.0
    assert len(counted) == before + 1
