"""The Candidates rows the export renders itself are the XML xlsxwriter writes
for the same cells, written one call per cell (the oracle below is the export's
former loop), once each shared formula is written out in its cells; user text
shaped like markup stays text."""

from __future__ import annotations

import math
import re
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import openpyxl
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from core.engine.evaluation import Evaluation, evaluate
from core.engine.gains import lifted_queries
from core.errors import InputError
from core.io.workbook import SHEETS, export_workbook, read_workbook
from core.io.workbook import candidates as candidates_sheet
from core.io.workbook import export as export_module
from core.io.workbook.formulas import LIFTED_COLUMNS, row_formulas
from core.io.workbook.layout import put_text
from core.io.workbook.values import candidate_values
from core.model.conventions import Conventions
from core.model.document import Document, GradeState
from tests.test_workbook_export import make_document


def _cell_by_cell(ws: Any, fmt: Any, doc: Document, ev: Evaluation, perm: np.ndarray,
                  blocks: list[tuple[int, int]]) -> None:
    """The Candidates rows written through xlsxwriter's per-cell calls."""
    vals = candidate_values(doc, ev, perm, blocks)

    def cached_number(x: float) -> Any:
        return "" if math.isnan(x) else float(x)

    cached: dict[int, list[Any]] = {6: [GradeState(int(s)).label for s in doc.state[perm]]}
    cached[8] = [float(x) if x else "" for x in vals["rank"].tolist()]
    for col, key in ((9, "gain"), (10, "discount"), (11, "contribution"), (13, "k-th ideal gain"),
                     (14, "k-th ideal contribution"), (18, "position discount"),
                     (22, "inventory gain"), (23, "avg gain"), (24, "avg x discount"),
                     (26, "grade used")):
        cached[col] = [cached_number(x) for x in vals[key].tolist()]
    for col, key in ((16, "ranked"), (17, "ranked so far"), (19, "inventory"), (20, "judged"),
                     (21, "gain known"), (25, "avg known")):
        cached[col] = [float(x) for x in vals[key].astype(np.float64).tolist()]
    block_of = np.repeat(np.arange(len(blocks)), [hi - lo for lo, hi in blocks]).tolist()
    pos = vals["ideal list k"].tolist()
    tie = vals["tie group"].tolist()
    for i, row in enumerate(perm.tolist()):
        r = i + 1
        lo, hi = blocks[block_of[i]]
        for c, text, plain, quoted in (
            (0, doc.query_ids[int(doc.query[row])], fmt.text, fmt.text_q),
            (1, doc.source_id[row], fmt.text, fmt.text_q),
            (2, doc.version[row], fmt.text, fmt.text_q),
            (7, doc.note[row], fmt.edit, fmt.edit_q),
        ):
            put_text(ws, r, c, text, plain, quoted)
        if not math.isnan(doc.score[row]):
            ws.write_number(r, 3, doc.score[row])
        for c, grade, state, style in ((4, doc.original_grade, doc.original_state, fmt.grade),
                                       (5, doc.grade, doc.state, fmt.edit_grade)):
            if state[row] == GradeState.NUMBER:
                ws.write_number(r, c, grade[row], style)
            else:
                ws.write_string(r, c, GradeState(int(state[row])).label, style)
        ws.write_number(r, 12, pos[i])
        if tie[i]:
            ws.write_number(r, 15, tie[i])
        lift = bool(vals["lifted"][i])  # (its lifted cells read with their factor)
        for col, formula in row_formulas(r + 1, lo + 2, hi + 1, lift):
            look = fmt.lifted if lift and col in LIFTED_COLUMNS else None
            ws.write_formula(r, col, formula, look, cached[col][i])


_MASTER = re.compile(r'<c r="([A-Z]+\d+)"([^>]*)><f t="shared" ref="[^"]+" si="(\d+)">([^<]*)</f>')
_SHARED = re.compile(r'<c r="([A-Z]+\d+)"([^>]*)><f t="shared" si="(\d+)"/>')


def _written_out(xml: str) -> str:
    """Each shared formula written out in every cell that shares it
    (translated as Excel does, by openpyxl's Translator)."""
    from openpyxl.formula.translate import Translator

    masters: dict[str, tuple[str, str]] = {}

    def master(m: re.Match[str]) -> str:
        masters[m.group(3)] = (m.group(1), m.group(4))
        return f'<c r="{m.group(1)}"{m.group(2)}><f>{m.group(4)}</f>'

    def shared(m: re.Match[str]) -> str:
        origin, text = masters[m.group(3)]
        plain = text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
        moved = Translator("=" + plain, origin=origin).translate_formula(m.group(1))[1:]
        moved = moved.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        return f'<c r="{m.group(1)}"{m.group(2)}><f>{moved}</f>'

    xml = _MASTER.sub(master, xml)
    return _SHARED.sub(shared, xml)


def _sheets(path: Path) -> dict[str, str]:
    """Every sheet's XML, shared formulas written out, each style index (of a
    cell or a column) replaced by the style it names (the two writers may
    number the same styles differently)."""
    with zipfile.ZipFile(path) as z:
        book = z.read("xl/workbook.xml").decode()
        rels = z.read("xl/_rels/workbook.xml.rels").decode()
        styles = z.read("xl/styles.xml").decode()
        xfs = re.findall(r"<xf .*?(?:/>|</xf>)",
                         re.search(r"<cellXfs[^>]*>(.*?)</cellXfs>", styles, re.S).group(1))
        target = dict(re.findall(r'<Relationship Id="(rId\d+)" Type="[^"]*" Target="([^"]+)"',
                                 rels))
        out = {}
        for name, rid in re.findall(r'<sheet name="([^"]+)" sheetId="\d+" r:id="(rId\d+)"', book):
            xml = _written_out(z.read("xl/" + target[rid]).decode())
            out[name] = re.sub(r' (s|style)="(\d+)"',
                               lambda m: f' {m.group(1)}="{xfs[int(m.group(2))]}"', xml)
    return out


def _both(doc: Document, tmp: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[dict[str, str],
                                                                             dict[str, str]]:
    export_workbook(evaluate(doc), tmp / "rendered.xlsx")
    with monkeypatch.context() as m:
        m.setattr(candidates_sheet, "_put_candidate_rows", _cell_by_cell)
        export_workbook(evaluate(doc), tmp / "cells.xlsx")
    return _sheets(tmp / "rendered.xlsx"), _sheets(tmp / "cells.xlsx")


@pytest.mark.parametrize("seed", range(4))
def test_rendered_rows_are_what_xlsxwriter_writes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  seed: int) -> None:
    doc = make_document(seed, n_queries=12, fractional=seed % 2 == 1, negative=seed == 2)
    monkeypatch.setattr(candidates_sheet, "_ROWS_PER_BATCH", seed * 4)  # 0: a batch per query
    rendered, cells = _both(doc, tmp_path, monkeypatch)
    assert rendered.keys() == cells.keys()
    assert rendered[SHEETS["candidates"]].count("<row ") == len(doc) + 1
    for name in rendered:
        assert rendered[name] == cells[name], name


def test_rendered_rows_of_lifted_gains_are_what_xlsxwriter_writes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A query whose gains are all below 2^-900 (its formulas lifted, its
    lifted cells in their own format) beside whole grades, in one block and
    in blocks of one row."""
    doc = Document.from_columns(
        query=["tiny"] * 3 + ["one"] + ["whole"] * 2, source_id=list("abcdef"),
        score=[3.0, 3.0, 1.0, 1.0, 2.0, 1.0], grade=[1e-323, 5e-324, 2.0 ** -950, 1e-310, 1.0, 2.0])
    assert lifted_queries(evaluate(doc)).tolist() == [True, True, False]
    rendered, cells = _both(doc, tmp_path, monkeypatch)
    assert 'POWER(2,1023)' in rendered[SHEETS["candidates"]]
    for name in rendered:
        assert rendered[name] == cells[name], name


# Text the writers must escape: XML specials, control characters, Excel's own
# _xHHHH_ escapes, whitespace at the ends, formula-like starts, non-ASCII.
_TEXT = st.text(
    alphabet=st.one_of(st.sampled_from(list("&<>\"'_x0F=+-@ \t\n\r\x01\x1f")),
                       st.characters(exclude_categories=("Cs",))),
    max_size=12,
).filter(lambda t: not (t.startswith("<r>") and t.endswith("</r>")))


@settings(max_examples=25, deadline=None)
@example(ids=["_x0041_", " lead", "trail ", "a\x01b", "=1+1", "x" * 20_000],
         notes=["_X00fF_ \n", "\t"], version="a&b")
@given(ids=st.lists(_TEXT, min_size=1, max_size=6, unique=True), notes=st.lists(_TEXT, max_size=6),
       version=_TEXT)
def test_any_text_is_written_as_xlsxwriter_writes_it(tmp_path_factory: pytest.TempPathFactory,
                                                     ids: list[str], notes: list[str],
                                                     version: str) -> None:
    tmp = tmp_path_factory.mktemp("text")
    doc = Document.from_columns(query=["q"] * len(ids), source_id=ids,
                                score=[float(i % 3) for i in range(len(ids))],
                                grade=[float(i % 4) for i in range(len(ids))],
                                version=[version] * len(ids),
                                conventions=Conventions(cutoffs=(2, None)))
    for i, note in enumerate(notes[: len(ids)]):
        doc.note[i] = note
    with pytest.MonkeyPatch.context() as mp:
        rendered, cells = _both(doc, tmp, mp)
    assert rendered[SHEETS["candidates"]] == cells[SHEETS["candidates"]]


def test_text_shaped_like_markup_stays_text(tmp_path: Path) -> None:
    # xlsxwriter passes a string "<r>...</r>" through as rich-text XML; the
    # rendered rows escape it like any other text.
    doc = Document.from_columns(query=["q", "q"], source_id=["<r><t>x</t></r>", "a&b<c>"],
                                score=[2.0, 1.0], grade=[1.0, 0.0])
    doc.note[0] = "<r>note</r>"
    out = tmp_path / "w.xlsx"
    export_workbook(evaluate(doc), out)
    ws = openpyxl.load_workbook(out)[SHEETS["candidates"]]
    assert [ws.cell(r, 2).value for r in (2, 3)] == ["<r><t>x</t></r>", "a&b<c>"]
    assert ws.cell(2, 8).value == "<r>note</r>"
    back = read_workbook(out)
    assert list(back.source_id) == ["<r><t>x</t></r>", "a&b<c>"]
    assert back.note[0] == "<r>note</r>"


def test_an_infinite_score_is_refused_with_a_message(tmp_path: Path) -> None:
    doc = Document.from_columns(query=["q"], source_id=["a"], score=[math.inf], grade=[1.0])
    with pytest.raises(InputError, match="infinite"):
        export_workbook(evaluate(doc), tmp_path / "w.xlsx")
    assert not (tmp_path / "w.xlsx").exists()


def test_a_document_beyond_a_sheet_is_refused_by_name(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(export_module, "EXCEL_MAX_ROWS", 10)  # a sheet of 9 rows below the header
    doc = Document.from_columns(query=["q"] * 12, source_id=[f"d{i}" for i in range(12)],
                                score=[float(i) for i in range(12)], grade=[1.0] * 12)
    out = tmp_path / "w.xlsx"
    with pytest.raises(InputError, match="Candidates sheet would need 12 rows") as info:
        export_workbook(evaluate(doc), out)
    assert info.value.file == str(out)
    assert "CSV" in (info.value.hint or "")
    assert not out.exists()


def test_numbers_below_the_normal_range_are_written_as_the_float_itself() -> None:
    """A reader with more precision than a float's (Gnumeric) takes the
    text for the number it names: a tiny grade's text names the float to 17
    digits, not its shortest form ("1e-320" is 1.1e-5 away from the float
    9.99988671826831e-321), and a float reads it back bit for bit."""
    from decimal import Decimal

    values = [1e-320, 5e-324, -3e-310, 2.0 ** -1022 * 0.75, 0.1, 3.0]
    for x, text in zip(values, candidates_sheet.number_text(values), strict=True):
        assert float(text) == x
        assert abs(Decimal(text) - Decimal(x)) <= Decimal("1e-16") * abs(Decimal(x)), text
