"""Reopening reads the Candidates cells straight from the sheet's XML when the
sheet is as the export wrote it (core.io.workbook.plain_rows), and parses the
sheet with python-calamine otherwise: both give the same cells, edits made in
the simple form are taken, anything else falls back."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import openpyxl
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import core.io.workbook.reader as reader_module
from core.engine.evaluation import evaluate
from core.errors import InputError
from core.io.safety import check_xlsx
from core.io.workbook import OUTSIDE_WHO, SHEETS, export_workbook, read_workbook, reopened
from core.io.workbook.edits import CandidateCells
from core.io.workbook.plain_rows import read_plain_candidates
from core.model.conventions import Conventions
from core.model.document import Document, GradeState

_TEXT = st.text(
    alphabet=st.one_of(st.sampled_from(list("&<>\"'_x0F=+-@ \t\n\r\x01\x1f;#")),
                       st.characters(exclude_categories=("Cs",))),
    max_size=12,
).filter(lambda t: not (t.startswith("<r>") and t.endswith("</r>")))


def _doc(ids: list[str], notes: list[str] = (), version: str = "") -> Document:  # type: ignore[assignment]
    doc = Document.from_columns(query=["q"] * len(ids), source_id=ids,
                                score=[float(i % 3) for i in range(len(ids))],
                                grade=[float(i % 4) if i % 5 else None for i in range(len(ids))],
                                version=[version] * len(ids),
                                conventions=Conventions(cutoffs=(2, None)))
    for i, note in enumerate(notes[: len(ids)]):
        doc.note[i] = note
    return doc


def _both(path: Path) -> tuple[CandidateCells | None, CandidateCells]:
    """The cells as the plain reader and as python-calamine read them."""
    part = check_xlsx(path).parts[SHEETS["candidates"]]
    with reader_module._calamine(path) as book:
        parsed = reader_module._candidate_cells(book, SHEETS["candidates"])
    return read_plain_candidates(path, part, str(path)), parsed


@settings(max_examples=30, deadline=None)
@example(ids=["_x0041_", " lead", "trail ", "a\x01b", "=1+1", "a&b<c>\"'", "x" * 20_000,
              "caf\u00e9 \u6f22", "doc_x1"], notes=["_X00fF_ \n", "\t", "a\r\nb"], version="a&b")
@given(ids=st.lists(_TEXT, min_size=1, max_size=6, unique=True), notes=st.lists(_TEXT, max_size=6),
       version=_TEXT)
def test_the_plain_reader_reads_what_calamine_reads(
        tmp_path_factory: pytest.TempPathFactory, ids: list[str], notes: list[str],
        version: str) -> None:
    path = tmp_path_factory.mktemp("plain") / "w.xlsx"
    export_workbook(evaluate(_doc(ids, notes, version)), path)
    plain, parsed = _both(path)
    if plain is not None:  # None: an escape it leaves to calamine
        assert plain == parsed
    back = read_workbook(path)
    assert back.source_id.tolist() == ids
    assert back.note.tolist()[: len(notes)] == notes[: len(ids)]


def test_an_export_is_read_without_calamine_parsing_the_sheet(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "w.xlsx"
    doc = _doc(["a", "b&c", "https://x.example/?a=1&b=2", "doc_x1", "d"], ["", "seen", ""])
    export_workbook(evaluate(doc), path)
    plain, parsed = _both(path)
    assert plain is not None
    assert plain == parsed
    assert sorted(map(str, plain.grade)) == ["0.0", "1.0", "2.0", "3.0", "unknown"]

    def no_parse(*_args: object) -> None:
        raise AssertionError("the sheet was parsed")

    monkeypatch.setattr(reader_module, "_candidate_cells", no_parse)
    back = read_workbook(path)
    assert back.source_id.tolist() == doc.source_id.tolist()
    assert reopened(back) is not None
    assert reopened(back).empty  # type: ignore[union-attr]


def _rewrite(path: Path, out: Path, edit: dict[bytes, bytes], part: str | None = None) -> None:
    """``path`` with a part's XML edited (each key replaced once; the
    Candidates sheet unless ``part`` is given)."""
    part = part or check_xlsx(path).parts[SHEETS["candidates"]]
    with zipfile.ZipFile(path) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            data = src.read(info)
            if info.filename == part:
                for old, new in edit.items():
                    assert data.count(old) == 1, old
                    data = data.replace(old, new)
            dst.writestr(info.filename, data)


def _cell(path: Path, ref: str) -> bytes:
    part = check_xlsx(path).parts[SHEETS["candidates"]]
    with zipfile.ZipFile(path) as zf:
        xml = zf.read(part)
    m = re.search(rb'<c r="' + ref.encode() + rb'".*?(?:</c>|/>)', xml)
    assert m is not None
    return m.group()


def test_edits_in_the_simple_form_are_taken(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    path, edited = tmp_path / "w.xlsx", tmp_path / "e.xlsx"
    doc = _doc(["a", "b", "c"])
    export_workbook(evaluate(doc), path)
    monkeypatch.setattr(reader_module, "_candidate_cells", None)  # never parsed
    f3, h2 = _cell(path, "F3"), _cell(path, "H2")
    f4 = _cell(path, "F4")
    style = re.search(rb' s="\d+"', f3)
    assert style is not None
    s = style.group()
    _rewrite(path, edited, {
        f3: b'<c r="F3"' + s + b'><v>3.5</v></c>',
        f4: b'<c r="F4"' + s + b' t="inlineStr"><is><t>unrateable: page gone</t></is></c>',
        h2: b'<c r="H2"' + s + b' t="inlineStr"><is><t>looked &amp; agreed</t></is></c>',
    })
    back = read_workbook(edited)
    perm = _sheet_rows(path)
    second, third, first = perm[1], perm[2], perm[0]
    assert float(back.grade[second]) == 3.5
    assert int(back.state[third]) == GradeState.UNRATEABLE
    assert back.reason[third] == "page gone"
    assert back.note[first] == "looked & agreed"
    entries = [e for e in back.audit if e.who == OUTSIDE_WHO]
    assert len(entries) == 2


def _sheet_rows(path: Path) -> list[int]:
    """The document index of each sheet row from row 2 (the Candidates order)."""
    ws = openpyxl.load_workbook(path, read_only=True)[SHEETS["candidates"]]
    ids = [r[1] for r in ws.iter_rows(min_row=2, values_only=True)]
    return [["a", "b", "c"].index(i) for i in ids]


def test_a_formula_in_a_grade_cell_falls_back_and_is_refused(tmp_path: Path) -> None:
    path, edited = tmp_path / "w.xlsx", tmp_path / "e.xlsx"
    export_workbook(evaluate(_doc(["a", "b", "c"])), path)
    f3 = _cell(path, "F3")
    _rewrite(path, edited, {f3: b'<c r="F3"><f>1+1</f><v>2</v></c>'})
    plain, _ = _both(edited)
    assert plain is None
    with pytest.raises(InputError, match="formula") as info:
        read_workbook(edited)
    assert (info.value.sheet, info.value.line) == (SHEETS["candidates"], 3)


def test_rows_out_of_order_or_saved_with_shared_strings_fall_back(tmp_path: Path) -> None:
    path = tmp_path / "w.xlsx"
    export_workbook(evaluate(_doc(["a", "b", "c"])), path)
    resaved = tmp_path / "r.xlsx"
    openpyxl.load_workbook(path).save(resaved)  # shared strings, as spreadsheets save
    assert _both(resaved)[0] is None
    assert read_workbook(resaved).source_id.tolist() == ["a", "b", "c"]
    moved = tmp_path / "m.xlsx"
    _rewrite(path, moved, {b'<row r="3"': b'<row r="7"'})
    assert _both(moved)[0] is None


def test_a_row_longer_than_any_export_writes_is_left_to_calamine(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import core.io.workbook.plain_rows as plain_rows

    path = tmp_path / "w.xlsx"
    export_workbook(evaluate(_doc(["a", "b", "c"])), path)
    assert _both(path)[0] is not None
    monkeypatch.setattr(plain_rows, "_LONGEST_ROW", 64)  # pieces arrive without a row's end
    monkeypatch.setattr(plain_rows, "stream_part", lambda zf, info, name: iter(
        [zf.read(info)[i:i + 32] for i in range(0, info.file_size, 32)]))
    assert _both(path)[0] is None
    assert read_workbook(path).source_id.tolist() == ["a", "b", "c"]
