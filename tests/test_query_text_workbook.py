"""A query's text (:attr:`~core.model.document.Document.query_texts`) in the
audited workbook: the Queries sheet shows it beside the query's rows, and
reopening the workbook (.xlsx and .ods, and once saved by LibreOffice)
gives it back; no number moves.

Before: the export kept no text (``read_workbook(...).query_texts`` was
``{}``, the Queries sheet ended at its hidden helper column Q).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import openpyxl
import pytest

from core.engine.evaluation import evaluate
from core.io.workbook import SHEETS, export_workbook, read_workbook
from core.model.conventions import Conventions
from core.model.document import Document

#: As annotators' sheets write them: a long question, quotes, a formula-like
#: start, letters beyond ASCII; q9 has none (its id is all).
TEXTS = {
    "q017": "How do I renew a passport when the old one was issued abroad before 2010 "
            "and has since expired?",
    "q023": 'What does the "grace period" mean in the refund policy?',
    "q031": "=Wie konfiguriere ich SSO mit Okta für Teams über 50 Nutzer?",
}


def _document() -> Document:
    doc = Document.from_columns(
        query=["q017"] * 3 + ["q023"] * 3 + ["q9", "q031", "q031"],
        source_id=list("abcdefghi"), score=[3, 2, 1, 3, 2, 1, 1, 2, 1],
        grade=[2, 0, 1, 1, 1, 0, 1, 0, 2], conventions=Conventions(cutoffs=(3, None)))
    doc.query_texts = dict(TEXTS)
    return doc


@pytest.mark.parametrize("suffix", [".xlsx", ".ods"])
def test_the_query_text_is_kept_by_the_workbook(tmp_path: Path, suffix: str):
    doc = _document()
    path = tmp_path / f"book{suffix}"
    export_workbook(evaluate(doc), path)
    back = read_workbook(path)
    assert back.query_texts == TEXTS
    assert [back.query_text(q) for q in range(back.n_queries)] == [
        TEXTS["q017"], TEXTS["q023"], "", TEXTS["q031"]]
    np.testing.assert_array_equal(evaluate(back).ndcg, evaluate(doc).ndcg)


def test_the_queries_sheet_shows_each_querys_text(tmp_path: Path):
    doc = _document()
    path = tmp_path / "book.xlsx"
    ev = evaluate(doc)
    export_workbook(ev, path)
    ws = openpyxl.load_workbook(path)[SHEETS["queries"]]
    assert ws["R1"].value == "query text"
    shown = {(ws.cell(r, 1).value, ws.cell(r, 18).value) for r in range(2, ws.max_row + 1)}
    assert shown == {("q017", TEXTS["q017"]), ("q023", TEXTS["q023"]), ("q9", None),
                     ("q031", TEXTS["q031"])}
    assert ws.max_row == 1 + doc.n_queries * len(ev.cutoffs)
    assert not ws.column_dimensions["R"].hidden


def test_a_document_without_texts_writes_no_column(tmp_path: Path):
    doc = _document()
    doc.query_texts = {}
    path = tmp_path / "book.xlsx"
    export_workbook(evaluate(doc), path)
    ws = openpyxl.load_workbook(path)[SHEETS["queries"]]
    assert ws.max_column == 17
    assert read_workbook(path).query_texts == {}


@pytest.mark.parametrize("suffix", [".xlsx", ".ods"])
def test_a_text_with_a_tab_reopens_as_written(tmp_path: Path, suffix: str):
    """A text holding a tab (typed so in Query > Edit query text..., or read
    so from a sheet) reopens as it was written and is no edit: the Queries
    sheet of an .ods is read by python-calamine, which drops a paragraph's
    tabs ('renew\tit' read 'renewit'); the column's cells are compared as
    every free-text cell read back is (kept_text.same_as_written). Before,
    the .ods reopened 'How do I renewit?', said as 1 query text edited in
    the spreadsheet."""
    from core.io.workbook import reopened

    doc = _document()
    doc.query_texts["q017"] = "How do I renew\tit?\nAbroad, before 2010."
    path = tmp_path / f"book{suffix}"
    export_workbook(evaluate(doc), path)
    back = read_workbook(path)
    assert back.query_texts == doc.query_texts
    found = reopened(back)
    assert found is None or found.query_texts == 0


def test_a_subset_keeps_the_texts_of_its_own_queries(tmp_path: Path):
    """Document.subset keeps the texts of the queries it holds alone: it
    kept every text, so a workbook of it was written with texts of queries
    it lacks, which reopening refuses (metadata query_texts: a text by a
    known query id)."""
    doc = _document()
    part = doc.subset(np.concatenate([doc.members(0), doc.members(3)]))
    assert part.query_texts == {"q017": TEXTS["q017"], "q031": TEXTS["q031"]}
    path = tmp_path / "part.xlsx"
    export_workbook(evaluate(part), path)
    assert read_workbook(path).query_texts == part.query_texts


@pytest.mark.libreoffice
def test_the_query_text_survives_a_libreoffice_save(tmp_path: Path):
    """Saved by LibreOffice (headless, through UNO) as .xlsx and as .ods,
    after a grade typed in its Candidates sheet: the texts come back; a
    text a reviewer fixed (or emptied) in the Queries sheet's column is
    taken, and reopening says so."""
    from core.io.workbook import reopened
    from tests.libreoffice import edit

    doc = _document()
    jobs = []
    for suffix in (".xlsx", ".ods"):
        book = tmp_path / f"book{suffix}"
        export_workbook(evaluate(doc), book)
        jobs.append((book, tmp_path / f"saved{suffix}",
                     [{"op": "set", "sheet": "Candidates", "cell": "F2", "value": 3}]))
    book = tmp_path / "typo.ods"
    export_workbook(evaluate(doc), book)
    # a reviewer fixes q017's text on its second row (k=all), and empties q023's
    jobs.append((book, tmp_path / "fixed.ods", [
        {"op": "set", "sheet": "Queries", "cell": "R3", "value": "How do I renew it?"},
        {"op": "set", "sheet": "Queries", "cell": "R4", "value": ""},
        {"op": "set", "sheet": "Queries", "cell": "R5", "value": ""}]))
    *saved_books, fixed = edit(jobs)
    for saved in saved_books:
        back = read_workbook(saved)
        assert back.query_texts == TEXTS, saved
        assert back.grade[0] == 3.0, saved
        assert reopened(back).query_texts == 0
    back = read_workbook(fixed)
    assert back.query_texts == {"q017": "How do I renew it?", "q031": TEXTS["q031"]}
    assert "2 query texts edited in the spreadsheet." in reopened(back).lines()


#: Texts of one line at the column's width (48: q3 is longer), one of two
#: (q3), and one that takes one line in the .xlsx and two in the .ods (q5,
#: whose 10-point type is wider against its column); q6 closes the page.
PRINTED = {
    "q1": "cheap flights to Lisbon in May", "q2": "WHO MADE THE WORLD WIDE WEB?",
    "q3": "How do I renew a passport when the old one was issued abroad before 2010 and "
          "has since expired?",
    "q4": "python list sort", "q5": 'What does the "grace period" mean in the refund policy?',
    "q6": "last"}


def _printed() -> Document:
    doc = Document.from_columns(
        query=[q for q in PRINTED for _ in range(2)], source_id=[f"d{i}" for i in range(12)],
        score=[2.0, 1.0] * 6, grade=[1.0, 0.0] * 6, conventions=Conventions(cutoffs=(3,)))
    doc.query_texts = dict(PRINTED)
    return doc


def test_a_query_texts_row_is_as_tall_as_its_lines(tmp_path: Path):
    """A text that fits on a line of its column leaves its row one line
    tall; one of two lines makes it two lines tall. Before, q1, q2 and q5
    were two lines tall and q3 three (a count of characters against nine
    tenths of the width), and so was q1 in a column as wide as its text and
    two characters more."""
    path = tmp_path / "book.xlsx"
    export_workbook(evaluate(_printed()), path)
    ws = openpyxl.load_workbook(path)[SHEETS["queries"]]
    assert ws.column_dimensions["R"].width == pytest.approx(48, abs=1)
    heights = {ws.cell(r, 1).value: ws.row_dimensions[r].height for r in range(2, 8)}
    assert heights == {"q1": None, "q2": None, "q3": pytest.approx(32, abs=0.5), "q4": None,
                       "q5": None, "q6": None}
    short = _printed()  # without q3 and q5: the column as wide as q1 and two more
    short.query_texts = {q: t for q, t in PRINTED.items() if q not in ("q3", "q5")}
    export_workbook(evaluate(short), path)
    ws = openpyxl.load_workbook(path)[SHEETS["queries"]]
    assert ws.column_dimensions["R"].width == pytest.approx(len(PRINTED["q1"]) + 2, abs=1)
    assert [ws.row_dimensions[r].height for r in range(2, 8)] == [None] * 6


def _rows_printed(pdf: Path) -> dict[str, tuple[float, int]]:
    """Each query row of the printed Queries page: its height (the distance
    from the bottom of the row above, both read off the query id, written at
    the bottom of its cell) and how many lines its text printed on."""
    import re
    import subprocess

    pages = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True,
                           text=True, timeout=120, check=True).stdout.split("\f")
    page = next(i for i, p in enumerate(pages, 1) if re.search(r"Queries\s+judgment", p))
    html = subprocess.run(["pdftotext", "-bbox", "-f", str(page), "-l", str(page), str(pdf),
                           "-"], capture_output=True, text=True, timeout=120, check=True).stdout
    words = [(float(x0), float(y0), float(y1), w) for x0, y0, y1, w in re.findall(
        r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">([^<]*)</word>',
        html)]
    head = next(w for w in words if w[3] == "text")
    column = max(w[0] for w in words if w[3] == "query" and abs(w[1] - head[1]) < 1
                 and w[0] < head[0])  # ("query text"'s, not column A's "query")
    ids = sorted((w for w in words if re.fullmatch(r"q\d", w[3]) and w[0] < column),
                 key=lambda w: w[2])
    header_bottom = max(w[2] for w in words if abs(w[1] - head[1]) < 30 and w[1] < ids[0][1])
    out = {}
    top = header_bottom
    for _, _, y1, name in ids:
        lines = {round(w[1]) for w in words if w[0] >= column - 1 and top < w[1] < y1}
        out[name] = (y1 - top, len(lines))
        top = y1
    return out


@pytest.mark.libreoffice
def test_the_printed_queries_rows_are_as_tall_as_their_text(tmp_path: Path):
    """LibreOffice prints each query's row as tall as the lines its text
    takes, from the .xlsx and from the .ods: a row of one line of text is
    as tall as q4's ("python list sort"), one of two lines about twice as
    tall, none taller (the last row, q6's, is measured against the row
    above, so every row but the first is)."""
    from tests.libreoffice import to_pdf

    books = [tmp_path / "book.xlsx", tmp_path / "book-ods.ods"]
    for path in books:
        export_workbook(evaluate(_printed()), path)
    for pdf in to_pdf(books, tmp_path / "pdf"):
        rows = _rows_printed(pdf)
        assert list(rows) == list(PRINTED), pdf.name
        line = rows["q4"][0]
        assert rows["q4"][1] == 1
        for name, (height, lines) in list(rows.items())[1:]:
            assert lines in (1, 2), (pdf.name, name, rows)
            assert abs(height - lines * line) < 0.3 * line, (pdf.name, name, rows)
        assert (rows["q1"][1], rows["q3"][1]) == (1, 2), (pdf.name, rows)
