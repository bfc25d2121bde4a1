"""The audited workbook written as LibreOffice's ``.ods`` (issue 34 item 3):
the formula translation (hand-derived), the stored results equal the engine
under every preset and the defaults (read back by calamine, which does not
recalculate), the package and sheet structure, text kept as typed, and a
headless LibreOffice recalculating every formula to the stored values
(1e-12) and the engine. All LibreOffice work is one ``soffice`` call."""

from __future__ import annotations

import math
import re
import zipfile
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import numpy as np
import pytest
from python_calamine import CalamineWorkbook

from core.analysis.compare import compare
from core.analysis.compare.many import RunValues, compare_runs
from core.engine.evaluation import evaluate
from core.io.workbook import (
    SHEETS,
    export_comparison_workbook,
    export_runs_workbook,
    export_workbook,
)
from core.io.workbook.additions import Additions, CandidateAdditions, Cell
from core.io.workbook.formulas import row_formulas
from core.io.workbook.ods_writer import MIMETYPE
from core.io.workbook.openformula import shifted, translate
from core.io.workbook.runs import RUNS_SHEET
from core.model.document import Document
from core.model.examples import seed_document
from tests.libreoffice import read_values, recalculate
from tests.test_workbook_export import CONVENTIONS, case, check_values
from tests.test_workbook_runs import CONV as RUNS_CONV
from tests.test_workbook_runs import check_runs, three_docs

_T = "{urn:oasis:names:tc:opendocument:xmlns:table:1.0}"
_S = "{urn:oasis:names:tc:opendocument:xmlns:style:1.0}"
_FO = "{urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0}"
_OF = "of:="


def ods_values(path: Path) -> dict[str, list[list[Any]]]:
    """Every sheet's stored values, as a reader that does not recalculate sees them."""
    book = CalamineWorkbook.from_path(str(path))
    return {name: book.get_sheet_by_name(name).to_python(skip_empty_area=False)
            for name in book.sheet_names}


def _content(path: Path) -> ElementTree.Element:
    with zipfile.ZipFile(path) as z:
        return ElementTree.fromstring(z.read("content.xml"))


# -- the translation, hand-derived ----------------------------------------------------------
@pytest.mark.parametrize(("excel", "ods"), [
    ('=IF(Q2=1,R2,"")', 'of:=IF([.Q2]=1;[.R2];"")'),
    ("=SUMIFS($S$2:$S$4,$P$2:$P$4,P2)", "of:=SUMIFS([.$S$2:.$S$4];[.$P$2:.$P$4];[.P2])"),
    ("='Queries B'!$G$10-Queries!G10", "of:=[$'Queries B'.$G$10]-[$Queries.G10]"),
    ("=COUNTIF(Candidates!$A$2:$A$9,A2)", "of:=COUNTIF([$Candidates.$A$2:.$A$9];[.A2])"),
    ('="a,b "&TEXT(B27,"0.0000")&" A1, B2"', 'of:="a,b "&TEXT([.B27];"0.0000")&" A1, B2"'),
    ('=IF(gain_rule="table",POWER(2,AA2)-1,cut_1)',
     'of:=IF(gain_rule="table";POWER(2;[.AA2])-1;cut_1)'),
    ("=IF(negative_gain_zero,TRUE,FALSE)", "of:=IF(negative_gain_zero;TRUE();FALSE())"),
    ("=\"it's \"\"quoted\"\", A1\"", "of:=\"it's \"\"quoted\"\", A1\""),
    ("=LOG(M2+1,2)", "of:=LOG([.M2]+1;2)"),
])
def test_translate(excel: str, ods: str) -> None:
    assert translate(excel) == ods


def test_shifted_moves_relative_rows_only() -> None:
    text = translate("=IF(Q5=1,SUM($S$2:$S$9)+R4,Q5)")
    template, offsets = shifted(text, 5)
    assert template.format(*(9 + o for o in offsets)) == translate("=IF(Q9=1,SUM($S$2:$S$9)+R8,Q9)")
    assert template.format(*(5 + o for o in offsets)) == text


# -- what the file holds ---------------------------------------------------------------------
@pytest.mark.parametrize("n", range(len(CONVENTIONS)))
def test_stored_results_equal_the_engine(tmp_path: Path, n: int) -> None:
    doc, conv = case(n)  # the defaults, and the trec_eval, sklearn and ranx presets
    path = tmp_path / "w.ods"
    export_workbook(evaluate(doc, conv), path)
    check_values(ods_values(path), doc, conv)


def test_package_and_sheets(tmp_path: Path) -> None:
    doc, conv = case(0)
    path = tmp_path / "w.ods"
    export_workbook(evaluate(doc, conv), path)
    with zipfile.ZipFile(path) as z:
        first = z.infolist()[0]
        assert (first.filename, first.compress_type) == ("mimetype", zipfile.ZIP_STORED)
        assert z.read("mimetype").decode() == MIMETYPE
        for part in ("content.xml", "styles.xml", "settings.xml", "meta.xml",
                     "META-INF/manifest.xml"):
            ElementTree.fromstring(z.read(part))  # well-formed
        settings = z.read("settings.xml").decode()
    root = _content(path)
    tables = {t.get(f"{_T}name"): t for t in root.iter(f"{_T}table")}
    assert list(tables) == ["Report", "Conventions", "Candidates", "Queries", "Summary",
                            "Audit", "ndcg_metadata"]
    assert tables["ndcg_metadata"].get(f"{_T}style-name") == "ta_hidden"
    assert tables["Candidates"].get(f"{_T}protected") == "true"
    names = {e.get(f"{_T}name"): e.get(f"{_T}cell-range-address")
             for e in root.iter(f"{_T}named-range")}
    assert names["gain_rule"].startswith("$Conventions.$B$")
    # Frozen header row and the two id columns of the Candidates sheet.
    entry = re.search(r'config:name="Candidates">(.*?)</config:config-item-map-entry>', settings)
    assert entry is not None
    assert 'config:name="HorizontalSplitPosition" config:type="int">2<' in entry.group(1)
    assert 'config:name="VerticalSplitPosition" config:type="int">1<' in entry.group(1)
    # The grade and note cells are editable on the protected sheet; the rest is not.
    style = "{urn:oasis:names:tc:opendocument:xmlns:style:1.0}"
    unlocked = {s.get(f"{style}name") for s in root.iter(f"{style}style")
                if any(p.get(f"{style}cell-protect") == "none"
                       for p in s.iter(f"{style}table-cell-properties"))}
    row = tables["Candidates"].findall(f"{_T}table-row")[1]
    cells = row.findall(f"{_T}table-cell")
    assert [i for i, c in enumerate(cells) if c.get(f"{_T}style-name") in unlocked] == [5, 7]
    # The current grade offers the rubric's grades, as the xlsx's dropdown does.
    checks = {v.get(f"{_T}name"): v.get(f"{_T}condition")
              for v in root.iter(f"{_T}content-validation")}
    assert checks["grade_list"] == "of:cell-content-is-in-list(grade_list)"
    assert [i for i, c in enumerate(cells)
            if c.get(f"{_T}content-validation-name")] == [5]
    assert 'of:cell-content-is-in-list("linear";"exponential";"table")' in checks.values()


@pytest.mark.parametrize("tiny", [False, True])
def test_candidates_formulas_are_the_declared_ones(tmp_path: Path, tiny: bool) -> None:
    """Each Candidates formula is the declaration's, translated: row by row;
    with ``tiny``, beside a query whose gains are lifted (its block's
    formulas lifted, its lifted cells in a style of their own)."""
    doc, conv = case(3)
    if tiny:
        doc = Document.from_columns(
            query=["tiny"] * 3 + ["whole"] * 2, source_id=list("abcde"),
            score=[2.0, 2.0, 1.0, 2.0, 1.0], grade=[1e-323, 5e-324, 1e-320, 1.0, 2.0])
    path = tmp_path / "w.ods"
    ev = evaluate(doc, conv)
    export_workbook(ev, path)
    from core.engine.gains import lifted_queries
    from core.io.workbook.values import row_layout

    perm, blocks = row_layout(doc, ev)
    lifted = lifted_queries(ev)[doc.query[perm]]
    assert lifted.any() == tiny
    looks: dict[bool, set[str | None]] = {False: set(), True: set()}
    table = next(t for t in _content(path).iter(f"{_T}table")
                 if t.get(f"{_T}name") == SHEETS["candidates"])
    rows = table.findall(f"{_T}table-row")[1:]
    assert len(rows) == len(doc)
    checked = 0
    for lo, hi in blocks:
        for i in range(lo, hi):
            cells = rows[i].findall(f"{_T}table-cell")
            got = {c: cell.get(f"{_T}formula") for c, cell in enumerate(cells)
                   if cell.get(f"{_T}formula")}
            want = {c: translate(f) for c, f in row_formulas(i + 2, lo + 2, hi + 1,
                                                             bool(lifted[i]))}
            assert got == want
            looks[bool(lifted[i])].add(cells[23].get(f"{_T}style-name"))
            checked += 1
    assert checked == len(doc)
    if tiny:  # the lifted tie-averaged gain has a style (its factor), the others none
        assert looks[False] == {None}
        (style,) = looks[True]
        assert style is not None


def test_text_is_kept_as_typed(tmp_path: Path) -> None:
    doc = seed_document()
    odd = ["two  spaces", " leading", "trailing ", "<&> \"q\"", "=1+2", "line\nbreak",
           "tab\there"]
    for i, text in enumerate(odd):
        doc.note[i] = text
    doc.source_id[len(odd)] = "=HYPERLINK(\"x\")"
    path = tmp_path / "w.ods"
    export_workbook(evaluate(doc), path)
    values = ods_values(path)[SHEETS["candidates"]]
    got = {(row[0], row[1]): row[7] for row in values[1:]}
    qids = doc.query_ids
    for i in range(len(doc)):
        if i != len(odd) - 1:
            assert got[(qids[int(doc.query[i])], doc.source_id[i])] == doc.note[i]
    # A tab is ODF's <text:tab/> (LibreOffice reads it; calamine drops it).
    with zipfile.ZipFile(path) as z:
        assert b"<text:p>tab<text:tab/>here</text:p>" in z.read("content.xml")


@pytest.mark.parametrize("coloured", [False, True])
def test_added_candidates_columns_are_written(tmp_path: Path, coloured: bool) -> None:
    """What people added to the Candidates sheet reaches the .ods: appended
    to the ODF rows, or (with colours given to our cells) through the xlsx."""
    doc, conv = case(0)
    key = (doc.query_ids[int(doc.query[3])], doc.source_id[3])
    other = (doc.query_ids[int(doc.query[9])], doc.source_id[9])
    keep = Additions("t", candidates=CandidateAdditions(
        header=[Cell(0, 27, "s", "my column")],
        cells={key: [Cell(0, 27, "n", 42.0)],
               other: [Cell(0, 29, "f", "AB2+1", cached=5.0), Cell(0, 28, "s", "a  b")]},
        fills={key: [(1, "FF0000")]} if coloured else {}))
    path = tmp_path / "w.ods"
    export_workbook(evaluate(doc, conv), path, keep=keep)
    values = ods_values(path)
    cand = values[SHEETS["candidates"]]
    assert cand[0][27] == "my column"
    assert [r[27] for r in cand[1:] if (r[0], r[1]) == key] == [42.0]
    assert [r[27:30] for r in cand[1:] if (r[0], r[1]) == other] == [["", "a  b", 5.0]]
    with zipfile.ZipFile(path) as z:
        assert b'table:formula="of:=[.AB2]+1"' in z.read("content.xml")
    check_values(values, doc, conv)


# -- LibreOffice recalculates ------------------------------------------------------------------
def _same(a: Any, b: Any) -> bool:
    a = "" if a is None else a
    b = "" if b is None else b
    if isinstance(a, bool) or isinstance(b, bool):
        return bool(a == b)
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return math.isclose(a, b, rel_tol=0.0, abs_tol=1e-12)
    return bool(a == b)


def _differences(stored: dict[str, list[list[Any]]], recalculated: dict[str, list[list[Any]]],
                 ) -> list[str]:
    out = []
    for sheet, rows in stored.items():
        theirs = recalculated[sheet]
        for r, row in enumerate(rows):
            for c, v in enumerate(row):
                t = theirs[r][c] if r < len(theirs) and c < len(theirs[r]) else None
                if not _same(v, t):
                    out.append(f"{sheet}!R{r + 1}C{c + 1}: stored {v!r}, LibreOffice {t!r}")
    return out


@pytest.fixture(scope="module")
def recalculated(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    src = tmp_path_factory.mktemp("ods")
    jobs: dict[str, tuple[Path, Any]] = {}
    for n in range(len(CONVENTIONS)):
        doc, conv = case(n)
        export_workbook(evaluate(doc, conv), src / f"case{n}.ods")
        jobs[f"case{n}"] = (src / f"case{n}.ods", (doc, conv))
    seed = seed_document()
    export_workbook(evaluate(seed), src / "seed.ods")
    jobs["seed"] = (src / "seed.ods", (seed, seed.conventions))
    a, conv = case(1)
    b, _ = case(1)
    b.score[:] = b.score[::-1].copy()  # another ranking of the same candidates
    export_comparison_workbook(compare(a, b, conv), src / "pair.ods")
    jobs["pair"] = (src / "pair.ods", (a, conv))
    docs = three_docs()
    evs = [evaluate(d, RUNS_CONV) for d in docs]
    m = compare_runs([RunValues.of(ev, f"run{i}") for i, ev in enumerate(evs)], RUNS_CONV,
                     resamples=200, seed=1)
    export_runs_workbook(m, evs, src / "runs.ods")
    jobs["runs"] = (src / "runs.ods", (m, docs))
    # A stale stored result: LibreOffice must replace it (recalculation is on).
    stale = src / "stale.ods"
    with zipfile.ZipFile(jobs["case0"][0]) as z, zipfile.ZipFile(stale, "w") as out:
        for info in z.infolist():
            data = z.read(info)
            if info.filename == "content.xml":
                data = re.sub(rb'(table:formula="of:=IF\(\[\.Q2\]=1;\[\.R2\];&quot;&quot;\)" '
                              rb'office:value-type="float" office:value=")[^"]*"',
                              rb'\g<1>77.0"', data, count=1)
                assert b'office:value="77.0"' in data
            out.writestr(info, data)
    jobs["stale"] = (stale, jobs["case0"][1])
    out = recalculate([p for p, _ in jobs.values()], tmp_path_factory.mktemp("recalculated"))
    return {"jobs": jobs, "out": dict(zip(jobs, out, strict=True))}


pytestmark_lo = pytest.mark.libreoffice


@pytestmark_lo
@pytest.mark.parametrize("name", [f"case{n}" for n in range(len(CONVENTIONS))] + ["seed", "pair"])
def test_libreoffice_agrees_with_stored_and_engine(recalculated: dict[str, Any],
                                                   name: str) -> None:
    path, (doc, conv) = recalculated["jobs"][name]
    values = read_values(recalculated["out"][name])
    check_values(values, doc, conv)
    assert _differences(ods_values(path), values) == []


@pytestmark_lo
def test_libreoffice_runs_workbook(recalculated: dict[str, Any]) -> None:
    path, (m, docs) = recalculated["jobs"]["runs"]
    values = read_values(recalculated["out"]["runs"])
    check_runs(values, m, docs, RUNS_CONV)
    assert RUNS_SHEET in values
    assert _differences(ods_values(path), values) == []


@pytestmark_lo
def test_libreoffice_recalculates_a_stale_value(recalculated: dict[str, Any]) -> None:
    path, (doc, conv) = recalculated["jobs"]["stale"]
    stored = ods_values(path)
    values = read_values(recalculated["out"]["stale"])
    assert stored[SHEETS["candidates"]][1][8] == 77.0
    assert _differences(stored, values) == [f"{SHEETS['candidates']}!R2C9: stored 77.0, "
                                            f"LibreOffice {values[SHEETS['candidates']][1][8]!r}"]
    check_values(values, doc, conv)
    assert not np.isclose(values[SHEETS["candidates"]][1][8] or 0.0, 77.0)


def test_the_ods_report_says_where_its_charts_are(tmp_path: Path) -> None:
    """An .ods carries no charts: its Report says so under the heading, and
    the distribution's table follows it, where a "Charts" heading stood over
    16 blank rows (half a printed page) that LibreOffice left empty. The
    .xlsx keeps the heading and the room its charts are drawn in."""
    ev = evaluate(seed_document())
    ods, xlsx = tmp_path / "w.ods", tmp_path / "w.xlsx"
    export_workbook(ev, ods)
    export_workbook(ev, xlsx)

    def column_a(values: dict[str, list[list[Any]]]) -> list[str]:
        return [str(r[0]) for r in values[SHEETS["report"]] if r and r[0] not in (None, "")]

    in_ods = column_a(ods_values(ods))
    heading = next(i for i, t in enumerate(in_ods) if t.startswith("Charts"))
    assert in_ods[heading:heading + 2] == [
        "Charts: in the .xlsx only (an .ods is written without them; the table below is "
        "their data)", "Queries per NDCG range (the distribution chart's data)"]
    # ... on a printed page of its own, as in the .xlsx (the page break was
    # not carried: the table was cut in two between the pages)
    rows = ods_values(ods)[SHEETS["report"]]
    at = next(i for i, r in enumerate(rows) if str(r[0]).startswith("Charts"))
    content = _content(ods)
    styles = {st.get(f"{_S}name"): st for st in content.iter(f"{_S}style")}
    report = next(t for t in content.iter(f"{_T}table") if t.get(f"{_T}name") == SHEETS["report"])
    starts, n = [], 0
    for row in report.iter(f"{_T}table-row"):
        style = styles.get(row.get(f"{_T}style-name") or "")
        props = style.find(f"{_S}table-row-properties") if style is not None else None
        if props is not None and props.get(f"{_FO}break-before") == "page":
            starts.append(n)
        n += int(row.get(f"{_T}number-rows-repeated") or 1)
    assert starts == [at - 1]  # the blank row above the heading, as the xlsx's <brk>
    report = read_values(xlsx)[SHEETS["report"]]
    at = next(i for i, r in enumerate(report) if r and r[0] == "Charts")
    table = next(i for i, r in enumerate(report) if r and r[0] == "Queries per NDCG range "
                 "(the distribution chart's data)")
    assert table - at == 18  # the charts' 16 rows and a blank one each side
    with zipfile.ZipFile(xlsx) as z:
        assert any(n.startswith("xl/charts/chart") for n in z.namelist())


@pytest.mark.parametrize(("version", "shown"), [
    ("seed-cases-v1", "judgment version seed-cases-v1"),
    ("R&D <2>", "judgment version R&D <2>"),
    ("", "judgment version not declared"),
])
def test_the_ods_page_header_names_the_judgment_version(tmp_path: Path, version: str,
                                                        shown: str) -> None:
    """A printed page of the .ods says, as the .xlsx's does (its header's
    right part), which judgments its numbers come from: the .ods's header
    had the file's name and the sheet only, so an audit printed from it
    named no judgment version past its first page."""
    doc = seed_document()
    doc.judgment_version = version
    path = tmp_path / "w.ods"
    export_workbook(evaluate(doc), path)
    with zipfile.ZipFile(path) as z:
        styles = ElementTree.fromstring(z.read("styles.xml"))
    text = "{urn:oasis:names:tc:opendocument:xmlns:text:1.0}"
    masters = list(styles.iter(f"{_S}master-page"))
    assert len(masters) == 2
    for master in masters:
        header = master.find(f"{_S}header")
        assert header is not None
        right = header.find(f"{_S}region-right")
        assert right is not None
        assert "".join(right.itertext()) == shown
        left = header.find(f"{_S}region-left")
        assert left is not None
        assert left.find(f"{text}p/{text}file-name") is not None


def test_a_grade_column_has_one_alignment(tmp_path: Path) -> None:
    """Original and current grades hold numbers and words (unknown,
    unrateable): each column reads right-aligned throughout, in the .xlsx
    and the .ods (LibreOffice's PDF had "unknown" left of the digits)."""
    import openpyxl

    doc, conv = case(0)
    assert {0, 1, 2} <= set(doc.state.tolist())  # numbers, unknown and unrateable
    xlsx, ods = tmp_path / "w.xlsx", tmp_path / "w.ods"
    export_workbook(evaluate(doc, conv), xlsx)
    export_workbook(evaluate(doc, conv), ods)
    ws = openpyxl.load_workbook(xlsx)["Candidates"]
    kinds: set[tuple[str, str, str | None]] = set()
    for row in ws.iter_rows(min_row=2, min_col=5, max_col=6):
        kinds |= {(c.column_letter, c.data_type, c.alignment.horizontal) for c in row}
    assert kinds == {(col, t, "right") for col in "EF" for t in "ns"}
    root = _content(ods)
    align = {s.get(f"{_S}name"): p.get(f"{_FO}text-align") for s in root.iter(f"{_S}style")
             for p in s.iter(f"{_S}paragraph-properties")}
    table = next(t for t in root.iter(f"{_T}table") if t.get(f"{_T}name") == "Candidates")
    got = set()
    for row in table.findall(f"{_T}table-row")[1:]:
        cells = row.findall(f"{_T}table-cell")[4:6]
        got |= {(i, c.get("{urn:oasis:names:tc:opendocument:xmlns:office:1.0}value-type"),
                 align.get(c.get(f"{_T}style-name"))) for i, c in enumerate(cells)}
    assert got == {(i, t, "end") for i in (0, 1) for t in ("float", "string")}


def test_the_rubrics_grade_column_has_one_alignment(tmp_path: Path) -> None:
    """The Conventions sheet's rubric lists the grades (numbers) and then
    unknown and unrateable (the dropdown's list): right-aligned, all of
    them (the example's PDF had the words flush left under the digits)."""
    import openpyxl

    doc, conv = case(0)
    xlsx = tmp_path / "w.xlsx"
    export_workbook(evaluate(doc, conv), xlsx)
    ws = openpyxl.load_workbook(xlsx)["Conventions"]
    column = [c for (c,) in ws.iter_rows(min_col=1, max_col=1)]
    top = next(i for i, c in enumerate(column) if c.value == "rubric: grade")
    end = next(i for i, c in enumerate(column) if c.value == "unrateable")
    cells = column[top + 1:end + 1]
    assert [c.value for c in cells[-2:]] == ["unknown", "unrateable"]
    assert len(cells) > 2
    assert {(c.data_type, c.alignment.horizontal) for c in cells} == {("n", "right"),
                                                                     ("s", "right")}


def _ods_colours(ods: Path, sheet: str, col: int) -> list[tuple[str, dict[str, str]]]:
    """Each data row's text in column ``col`` of ``sheet`` in ``ods``, with
    the colours its style's conditions give a word ({word: colour}): the
    cell's style, else its column's default (as LibreOffice reads it)."""
    with zipfile.ZipFile(ods) as z:
        common = ElementTree.fromstring(z.read("styles.xml"))
    colour = {s.get(f"{_S}name"): p.get(f"{_FO}color") for s in common.iter(f"{_S}style")
              for p in s.iter(f"{_S}text-properties")}
    root = _content(ods)
    conditions = {s.get(f"{_S}name"): {
        m.get(f"{_S}condition"): colour.get(m.get(f"{_S}apply-style-name"))
        for m in s.findall(f"{_S}map")} for s in root.iter(f"{_S}style")}
    table = next(t for t in root.iter(f"{_T}table") if t.get(f"{_T}name") == sheet)
    defaults = [c.get(f"{_T}default-cell-style-name")
                for c in table.findall(f"{_T}table-column")
                for _ in range(int(c.get(f"{_T}number-columns-repeated", "1")))]
    out = []
    for row in table.findall(f"{_T}table-row")[1:]:
        cells = [c for c in row if c.tag.endswith("table-cell")
                 for _ in range(int(c.get(f"{_T}number-columns-repeated", "1")))]
        cell = cells[col]
        style = cell.get(f"{_T}style-name") or defaults[col]
        words = {re.fullmatch(r'cell-content\(\)="(\w+)"', k).group(1): v  # type: ignore[union-attr]
                 for k, v in conditions.get(style, {}).items()}
        out.append(("".join(cell.itertext()), words))
    return out


def test_grade_states_are_coloured_as_in_the_xlsx(tmp_path: Path) -> None:
    """The Candidates' grade state column shows unknown and unrateable in
    the app's colours (layout.STATE_COLOURS) in the .ods as in the .xlsx:
    conditions of the column's cells (LibreOffice's PDF of the .ods had them
    black), so a state the formula gives after an edit is coloured too; the
    Queries' statuses alike (layout.STATUS_COLOURS)."""
    import openpyxl

    from core.io.workbook.layout import STATE_COLOURS, STATUS_COLOURS

    doc, conv = case(0)
    assert {0, 1, 2} <= set(doc.state.tolist())  # numbers, unknown and unrateable
    xlsx, ods = tmp_path / "w.xlsx", tmp_path / "w.ods"
    export_workbook(evaluate(doc, conv), xlsx)
    export_workbook(evaluate(doc, conv), ods)
    wb = openpyxl.load_workbook(xlsx)
    for sheet, colours in (("Candidates", STATE_COLOURS), ("Queries", STATUS_COLOURS)):
        rules = {str(r.formula[0]).strip('"'): "#" + r.dxf.font.color.rgb[2:].lower()
                 for cf in wb[sheet].conditional_formatting for r in cf.rules}
        want = {w: c.lower() for w, c in colours.items()}
        assert rules == want  # the xlsx's, from the one declaration
        cells = _ods_colours(ods, sheet, 6)
        assert cells
        assert all(words == want for _, words in cells)
    states = sorted(text for text, _ in _ods_colours(ods, "Candidates", 6))
    assert states == sorted(("number", "unknown", "unrateable")[s] for s in doc.state.tolist())
