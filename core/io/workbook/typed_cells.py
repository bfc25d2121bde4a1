"""Cells of typed columns rendered whole, as a sheet's rows hold them: the
xlsx XML xlsxwriter writes for the same calls (``<c>``, inline strings in
constant-memory mode) or ODF (``<table:table-cell>``).

One renderer of the kinds of cell the product's rendered rows hold: text
(ids, notes; quote-prefixed when a spreadsheet would read it as a
formula), numbers with every digit, and grades (a number, or a grade
state's word). The Candidates rows (:mod:`core.io.workbook.candidates`,
:mod:`core.io.workbook.ods_candidates`: their formulas are theirs) and the
Annotators rows (:mod:`core.io.workbook.annotators_sheet`) take their
cells from here, column by column.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

import numpy as np
import numpy.typing as npt

from core.io.workbook.layout import RISKY, SMALLEST_NORMAL, number_form
from core.io.workbook.ods_writer import text_paragraphs
from core.model.document import GradeState

__all__ = [
    "LABELS",
    "escape_xml",
    "number_text",
    "odf_grades",
    "odf_numbers",
    "odf_texts",
    "short_grades",
    "text_columns",
    "xlsx_grades",
    "xlsx_numbers",
    "xlsx_texts",
]

#: Each grade state's word, as a grade cell shows it (a number's is unused).
LABELS: Mapping[int, str] = {int(s): GradeState(int(s)).label for s in GradeState}
_NUMBER = int(GradeState.NUMBER)
#: A style attribute: one for the column's cells, or one per cell.
Style = str | Sequence[str]

#: Text that needs more than a plain copy: XML specials, control characters,
#: a literal ``_xHHHH_`` (Excel's own escape), or whitespace at either end.
_SPECIAL_TEXT = re.compile(r"[&<>\x00-\x08\x0b-\x1f]|_x[0-9a-fA-F]{4}_|^\s|\s$")


def escape_xml(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _inline_text(text: str) -> tuple[str, str]:
    """The ``<t>`` attribute and content of an inline string cell, as
    xlsxwriter writes them: cut to Excel's 32,767 UTF-16 units, control
    characters as ``_xHHHH_``, whitespace at an end preserved. Text is never
    read as markup (xlsxwriter passes text shaped ``<r>...</r>`` through as
    rich-text XML; here it stays text)."""
    if len(text) < 16_384 and not _SPECIAL_TEXT.search(text):
        return "", text
    from xlsxwriter.utility import _preserve_whitespace, _utf16_len, _utf16_truncate
    from xlsxwriter.xmlwriter import XMLwriter

    if len(text) > 16_383 and _utf16_len(text) > 32_767:
        text = _utf16_truncate(text, 32_767)
    text = XMLwriter._escape_control_characters(text)
    return (' xml:space="preserve"' if _preserve_whitespace(text) else ""), escape_xml(text)


def text_columns(values: Sequence[str], plain: int, quoted: int,
                 ) -> tuple[list[int], list[str], list[str]]:
    """Per cell: style index (quoted when a spreadsheet would read the text as
    a formula on re-entry), ``<t>`` attribute and content."""
    seen: dict[str, tuple[int, str, str]] = {}
    out = []
    for text in values:
        got = seen.get(text)
        if got is None:
            got = seen[text] = (quoted if text.startswith(RISKY) else plain, *_inline_text(text))
        out.append(got)
    styles, attrs, texts = zip(*out, strict=True) if out else ((), (), ())
    return list(styles), list(attrs), list(texts)


def number_text(values: npt.ArrayLike, empty: npt.NDArray[np.bool_] | None = None,
                ) -> list[str]:
    """Numbers as written (:func:`~core.io.workbook.layout.number_form`);
    "" where NaN or ``empty``."""
    a = np.asarray(values, dtype=np.float64)
    out = list(map(repr, a.tolist()))
    with np.errstate(invalid="ignore"):  # (below the normal range: few, if any)
        for i in np.flatnonzero((np.abs(a) < SMALLEST_NORMAL) & (a != 0)).tolist():
            out[i] = number_form(float(a[i]))
    blank = np.isnan(a) if empty is None else np.isnan(a) | empty
    for i in np.flatnonzero(blank).tolist():
        out[i] = ""
    return out


def short_grades(grade: npt.ArrayLike, state: npt.NDArray[np.int8]) -> npt.NDArray[np.bool_]:
    """Which grades read with :data:`~core.io.workbook.layout.SHORT_GRADE_FORMAT`:
    numbers of more than two decimals, 0.01 or more in size (a mean of
    several annotators' grades). The cell keeps every digit.

    >>> short_grades([4 / 3, 1.5, 2.0, 0.125, 1e-5, 0.0], np.zeros(6, np.int8)).tolist()
    [True, False, False, True, False, False]
    """
    g = np.where(state == _NUMBER, np.asarray(grade, dtype=np.float64), 0.0)
    with np.errstate(invalid="ignore"):
        short: npt.NDArray[np.bool_] = np.isfinite(g) & (np.abs(g) >= 0.01) & (np.round(g, 2) != g)
    return short


def _each(style: Style, n: int) -> Sequence[str]:
    return [style] * n if isinstance(style, str) else style


# -- .xlsx: ``col`` the column's letter, ``rows`` each cell's sheet row -----------------


def xlsx_texts(values: Sequence[str], plain: int, quoted: int, col: str,
               rows: Sequence[int]) -> list[str]:
    """Text cells (the styles ``plain`` or ``quoted``: :func:`text_columns`)."""
    styles, attrs, texts = text_columns(values, plain, quoted)
    return [f'<c r="{col}{r}" s="{s}" t="inlineStr"><is><t{a}>{t}</t></is></c>'
            for r, s, a, t in zip(rows, styles, attrs, texts, strict=True)]


def xlsx_numbers(values: npt.ArrayLike, col: str, rows: Sequence[int],
                 empty: npt.NDArray[np.bool_] | None = None, style: str = "") -> list[str]:
    """Number cells; none ("") where NaN or ``empty``."""
    return [f'<c r="{col}{r}"{style}><v>{v}</v></c>' if v else ""
            for r, v in zip(rows, number_text(values, empty), strict=True)]


def xlsx_grades(grade: npt.ArrayLike, state: npt.NDArray[np.int8], col: str,
                rows: Sequence[int], style: str, words: Mapping[int, str] = LABELS,
                short: str | None = None) -> list[str]:
    """Grade cells: the number, or the word ``words`` gives the grade's
    state (none where the word is ""); a number of more digits than its
    column shows (:func:`short_grades`) in ``short`` when given."""
    shown = number_text(np.where(state == _NUMBER, grade, 0.0))
    said = {s: f'{style} t="inlineStr"><is><t>{w}</t></is></c>' if w else ""
            for s, w in words.items()}
    looks = _each(style, len(shown)) if short is None else np.where(
        short_grades(grade, state), short, style).tolist()
    return [f'<c r="{col}{r}"{look}><v>{g}</v></c>' if s == _NUMBER
            else f'<c r="{col}{r}"{said[s]}' if said[s] else ""
            for r, g, s, look in zip(rows, shown, state.tolist(), looks, strict=True)]


# -- ODF ----------------------------------------------------------------------------------


def odf_texts(values: Sequence[str], plain: int, quoted: int,
              restyle: Mapping[int, int] | None = None,
              marked: Sequence[bool] | None = None) -> list[str]:
    """Text cells (the styles of :func:`text_columns`; a cell ``marked``
    takes the style ``restyle`` maps its own to)."""
    styles, _attrs, texts = text_columns(values, plain, quoted)
    if marked is not None and restyle:
        styles = [restyle[s] if m else s for s, m in zip(styles, marked, strict=True)]
    seen: dict[tuple[int, str], str] = {}
    out = []
    for s, t in zip(styles, texts, strict=True):
        cell = seen.get((s, t))
        if cell is None:
            cell = seen[(s, t)] = (
                f'<table:table-cell table:style-name="ce{s}" office:value-type="string">'
                f"<text:p>{text_paragraphs(t)}</text:p></table:table-cell>" if t
                else f'<table:table-cell table:style-name="ce{s}"/>')
        out.append(cell)
    return out


def odf_numbers(values: npt.ArrayLike, empty: npt.NDArray[np.bool_] | None = None,
                style: Style = "") -> list[str]:
    """Number cells; empty ones where NaN or ``empty``."""
    shown = number_text(values, empty)
    return [f'<table:table-cell{s} office:value-type="float" office:value="{v}"/>' if v
            else f"<table:table-cell{s}/>"
            for v, s in zip(shown, _each(style, len(shown)), strict=True)]


def odf_grades(grade: npt.ArrayLike, state: npt.NDArray[np.int8], style: Style,
               words: Mapping[int, str] = LABELS, word_style: str | None = None,
               short: str | None = None) -> list[str]:
    """Grade cells: the number, or the word ``words`` gives the grade's
    state (an empty cell where the word is ""), a word's cell in
    ``word_style`` when given (else, as the others, in ``style``); a number
    of more digits than its column shows (:func:`short_grades`) in
    ``short`` when given."""
    styles = _each(style, len(state))
    if short is not None:
        styles = np.where(short_grades(grade, state), short, np.asarray(styles, dtype=object)
                          ).tolist()
    shown = odf_numbers(np.where(state == _NUMBER, grade, 0.0), None, styles)
    said = {s: f' office:value-type="string"><text:p>{w}</text:p></table:table-cell>'
            for s, w in words.items() if w}
    return [x if s == _NUMBER else
            f"<table:table-cell{st if word_style is None else word_style}{said[s]}" if s in said
            else f"<table:table-cell{st}/>"
            for x, s, st in zip(shown, state.tolist(), styles, strict=True)]
