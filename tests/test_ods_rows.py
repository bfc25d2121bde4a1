# ruff: noqa: E501
"""The streaming reader of an .ods file's cells (core.io.workbook.ods_rows)
reads what python-calamine reads, cell form by cell form, or leaves the
file to calamine; and the check's scan counts the used area a reader
allocates (repeated rows and cells, covered cells) and finds named ranges
and formula cells."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path
from typing import Any

import pytest
import python_calamine
from hypothesis import given, settings
from hypothesis import strategies as st

from core.io.safety import check_ods
from core.io.safety.ods import calc_text, ods_sheet_cells
from core.io.workbook.ods_rows import read_ods

NS = ('xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
      'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
      'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
      'xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:xlink="http://www.w3.org/1999/xlink"')

MANIFEST = ('<?xml version="1.0" encoding="UTF-8"?><manifest:manifest '
            'xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0">'
            '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>'
            "</manifest:manifest>")


def _ods(path: Path, body: str, after: str = "") -> Path:
    xml = (f'<?xml version="1.0" encoding="UTF-8"?><office:document-content {NS}>'
           f"<office:body><office:spreadsheet>{body}{after}</office:spreadsheet></office:body>"
           "</office:document-content>")
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet")
        zf.writestr("META-INF/manifest.xml", MANIFEST)
        zf.writestr("content.xml", xml)
    path.write_bytes(buf.getvalue())
    return path


def _calamine(path: Path, sheet: str) -> list[list[Any]]:
    with python_calamine.CalamineWorkbook.from_path(str(path)) as book:
        rows = [list(r) for r in book.get_sheet_by_name(sheet).to_python(skip_empty_area=False)]
    for r in rows:
        while r and r[-1] == "":
            r.pop()
    while rows and not rows[-1]:  # a sheet of empty text: no row, as for no cell
        rows.pop()
    return rows


CELLS = [
    '<table:table-cell office:value-type="string"><text:p>a</text:p><text:p>b</text:p></table:table-cell>',
    '<table:table-cell office:value-type="string"><text:p>a<text:s/>b<text:s text:c="3"/>c<text:tab/>d'
    "<text:line-break/>e</text:p></table:table-cell>",
    '<table:table-cell office:value-type="string"><text:p><text:span text:style-name="T1">x</text:span>'
    "y &amp; &lt; &#x41;&#66;</text:p></table:table-cell>",
    '<table:table-cell office:value-type="string" office:string-value="sv"><text:p>shown</text:p>'
    "</table:table-cell>",
    '<table:table-cell office:value-type="percentage" office:value="0.5"><text:p>50%</text:p>'
    "</table:table-cell>",
    '<table:table-cell office:value-type="currency" office:currency="EUR" office:value="-2.25">'
    "<text:p>-2,25 €</text:p></table:table-cell>",
    '<table:table-cell office:value-type="boolean" office:boolean-value="true"><text:p>TRUE</text:p>'
    "</table:table-cell>",
    "<table:table-cell><text:p>no value type</text:p></table:table-cell>",
    '<table:table-cell office:value-type="string"><text:p>ann</text:p><office:annotation>'
    "<dc:creator>x</dc:creator><text:p>comment</text:p></office:annotation></table:table-cell>",
    '<table:table-cell office:value-type="string"><text:p><text:a xlink:href="http://x">link</text:a>'
    "</text:p></table:table-cell>",
    '<table:table-cell office:value-type="float" office:value="1E-3"><text:p>x</text:p></table:table-cell>',
    '<table:table-cell office:value-type="string"><text:p> lead</text:p></table:table-cell>',
    '<table:table-cell office:value-type="string"><text:p/></table:table-cell>',
    '<table:table-cell table:number-columns-repeated="2"/>',
    '<table:table-cell office:value-type="float" office:value="3" table:number-columns-repeated="2">'
    "<text:p>3</text:p></table:table-cell>",
    '<table:table-cell table:number-columns-spanned="2" office:value-type="float" office:value="7">'
    "<text:p>7</text:p></table:table-cell><table:covered-table-cell/>",
    '<table:table-cell table:formula="of:=1+1" office:value-type="float" office:value="2">'
    "<text:p>2</text:p></table:table-cell>",
    "<table:table-cell/>",
]


def test_every_cell_form_reads_as_calamine_reads_it(tmp_path: Path) -> None:
    rows = "".join(f"<table:table-row>{c}</table:table-row>" for c in CELLS)
    wide = "<table:table-row>" + "".join(CELLS) + "</table:table-row>"
    path = _ods(tmp_path / "cells.ods", f'<table:table table:name="S">{rows}{wide}'
                '<table:table-row table:number-rows-repeated="3"><table:table-cell '
                'office:value-type="float" office:value="4"><text:p>4</text:p></table:table-cell>'
                '</table:table-row></table:table>')
    got = read_ods(path, ("S",), candidates=False)
    assert got is not None
    want = _calamine(path, "S")
    # Tabs and line breaks inside a paragraph: calamine drops them, this
    # reader reads them (Gnumeric writes a multi-line cell so); the rest alike.
    assert want[1] == ["a b   cde"]
    assert got.rows["S"][1] == ["a b   c\td\ne"]
    assert "a b   c\td\ne" in got.rows["S"][len(CELLS)]  # (the row of every form)
    fixed = [list(r) for r in got.rows["S"]]
    fixed[1] = want[1]
    fixed[len(CELLS)] = [want[1][0] if v == "a b   c\td\ne" else v for v in fixed[len(CELLS)]]
    assert fixed == want
    assert want[-1] == [4.0]


def test_a_date_leaves_the_file_to_calamine(tmp_path: Path) -> None:
    path = _ods(tmp_path / "date.ods", '<table:table table:name="S"><table:table-row>'
                '<table:table-cell office:value-type="date" office:date-value="2024-01-02">'
                "<text:p>x</text:p></table:table-cell></table:table-row></table:table>")
    assert read_ods(path, ("S",), candidates=False) is None
    assert check_ods(path).sheets == ["S"]


_TEXT = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00\t\r"),
                max_size=12)


def _escape(text: str) -> str:
    """As LibreOffice writes text: entities, runs of spaces as <text:s>, lines as paragraphs."""
    import re

    def para(line: str) -> str:
        line = line.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        line = re.sub(r"(?<= ) +|^ +", lambda m: f'<text:s text:c="{len(m.group())}"/>', line)
        return f"<text:p>{line}</text:p>"

    return "".join(para(line) for line in text.split("\n"))


@settings(max_examples=30, deadline=None)
@given(texts=st.lists(_TEXT, min_size=1, max_size=5))
def test_texts_as_libreoffice_writes_them_read_as_calamine_reads_them(
        tmp_path_factory: Any, texts: list[str]) -> None:
    path = tmp_path_factory.mktemp("texts") / "t.ods"
    cells = "".join(f'<table:table-cell office:value-type="string">{_escape(t)}</table:table-cell>'
                    for t in texts)
    control = any(ord(c) < 32 and c != "\n" for t in texts for c in t)
    _ods(path, f'<table:table table:name="S"><table:table-row>{cells}</table:table-row>'
         "</table:table>")
    if control:  # not XML 1.0: the check or a reader refuses, never a wrong value
        return
    got = read_ods(path, ("S",), candidates=False)
    assert got is not None
    assert got.rows["S"] == _calamine(path, "S")


def test_the_scan_counts_areas_names_and_formulas(tmp_path: Path) -> None:
    path = _ods(tmp_path / "s.ods",
                '<table:table table:name="A"><table:table-row><table:table-cell '
                'table:number-columns-repeated="5"/><table:table-cell table:formula="of:=[.A1]*2" '
                'office:value-type="float" office:value="0"><text:p>0</text:p></table:table-cell>'
                '</table:table-row><table:table-row table:number-rows-repeated="9"><table:table-cell/>'
                '</table:table-row><table:table-row><table:table-cell office:value-type="string" '
                'table:number-rows-spanned="2"><text:p>x</text:p></table:table-cell>'
                "</table:table-row></table:table>"
                "<table:table table:name=\"B &amp; C\"><table:table-row><table:table-cell "
                'office:value-type="float" office:value="1"><text:p>1</text:p></table:table-cell>'
                "</table:table-row></table:table>",
                after='<table:named-expressions><table:named-range table:name="gain_rule" '
                'table:base-cell-address="$A.$A$1" table:cell-range-address="$\'B &amp; C\'.$A$1"/>'
                '<table:named-range table:name="grid" table:base-cell-address="$A.$A$1" '
                'table:cell-range-address="$A.$A$1:.$F$11"/></table:named-expressions>')
    found = check_ods(path)
    assert found.sheets == ["A", "B & C"]
    assert found.used["A"] == (11, 6)  # the row with repeated cells counted cell by cell
    assert found.used["B & C"][0] == 1
    assert found.with_formulas == {"A"}
    assert found.names == {"gain_rule": "B & C!$A$1", "grid": "A!$A$1:$F$11"}
    formulas, merged, _ = ods_sheet_cells(path, "A", str(path))
    assert formulas == [("F1", "=A1*2")]  # as Calc shows it, not [.A1]
    assert merged == [((10, 0), (11, 0))]


@pytest.mark.parametrize(("stored", "shown"), [
    ('of:=IF([.E2]="Bad";0;IF([.E2]="Fair";1;2))', '=IF(E2="Bad";0;IF(E2="Fair";1;2))'),
    ("of:=SUMIFS([.$S$2:.$S$4];[.$P$2:.$P$4];[.P2])", "=SUMIFS($S$2:$S$4;$P$2:$P$4;P2)"),
    ("of:=[$'Queries B'.$G$10]-[$Queries.G10]", "=$'Queries B'.$G$10-$Queries.G10"),
    ('of:="[.A1] stays"&[.A1]', '="[.A1] stays"&A1'),
    ("of:=['a]b'.A1]", "='a]b'.A1"),
    ("=1+1", "=1+1"),
])
def test_a_formula_is_quoted_as_calc_shows_it(stored: str, shown: str) -> None:
    """Messages quote an .ods formula as Calc's input line shows it, not in
    OpenFormula's brackets: a reviewer looks for E2, not [.E2]."""
    assert calc_text(stored) == shown


def test_a_long_row_among_many_short_ones_is_counted_not_refused(tmp_path: Path) -> None:
    """2,000 rows of one cell and one of 40,000 bytes: the bytes allow
    2,000 x 2,100 cells, past what the part may hold, so every row's cells
    are counted again, and the sheet is one column wide."""
    short = '<table:table-row><table:table-cell office:value-type="float" office:value="1"><text:p>1</text:p></table:table-cell></table:table-row>'
    long = f'<table:table-row><table:table-cell office:value-type="string"><text:p>{"x" * 40_000}</text:p></table:table-cell></table:table-row>'
    path = _ods(tmp_path / "long.ods", f'<table:table table:name="S">{short * 2000}{long}</table:table>')
    assert check_ods(path).used == {"S": (2001, 1)}
