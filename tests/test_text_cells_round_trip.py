"""Free-text cells (notes, the judgment version, the ranked list's name,
a grade's guideline) read back from a workbook only opened and saved in
LibreOffice (through UNO, .xlsx and .ods) or Gnumeric (ssconvert, with and
without ``--recalc``, .xlsx and .ods) are the texts as written: none is
taken as edited in the spreadsheet; a text really edited there is taken.
A missing LibreOffice or Gnumeric fails these tests, never skips them."""

from __future__ import annotations

import subprocess
from dataclasses import replace
from pathlib import Path

import openpyxl
import pytest

from core.engine.evaluation import evaluate
from core.io.workbook import SHEETS, export_workbook, read_workbook, reopened
from core.io.workbook.kept_text import same_as_written, written_form
from core.io.workbook.ods_rows import read_ods
from core.model.document import Document
from core.model.examples import seed_document
from core.model.guidelines import Guideline
from tests.test_workbook_gnumeric import ssconvert

#: Notes as people write them, each with what some program changes: line
#: breaks (blank lines, at the ends), tabs, spaces at the ends, Windows
#: line breaks, and several of these in one note.
NOTES = ("two\nlines", "multi\nline\n\nnote", "\nstarts on a new line", "ends a line\n",
         "a\ttab", "a tab\tand end spaces  ", "  spaced  ", "line one\nline\ttwo ",
         "windows\r\nbreak", "\ttab first", "inner  spaces kept", "nbsp\u00a0kept\u00a0")
VERSION = "v1\tdraft "
NAME = " ranked list\nsecond line "
DESCRIPTION = "answers it\twhole "
EXAMPLES = ("a recipe ", "\tthe dish itself")


def _document() -> Document:
    doc = seed_document()
    for i, note in enumerate(NOTES):
        doc.set_note(i, note)
    doc.judgment_version, doc.name = VERSION, NAME
    doc.conventions = replace(doc.conventions, guidelines=doc.conventions.guidelines.with_guideline(
        Guideline(2.0, DESCRIPTION, EXAMPLES)))
    return doc


def _check_as_written(back: Document) -> None:
    found = reopened(back)
    assert found is None or (found.notes, found.grades, found.conventions) == (0, (), ())
    assert tuple(back.note[:len(NOTES)]) == NOTES
    assert (back.judgment_version, back.name) == (VERSION, NAME)
    assert back.conventions.guidelines.for_grade(2.0) == Guideline(2.0, DESCRIPTION, EXAMPLES)


def test_the_written_form_undoes_what_the_programs_change_and_no_more() -> None:
    """Each change measured (LibreOffice's ``\\r\\n``, Gnumeric's ends and
    its undecoded ``_x000D_``, calamine's tabs), several in one text, is the
    same text; a line break, a space or a letter added or removed is not."""
    assert same_as_written("a tab\tand end spaces", "a tab\tand end spaces  ")
    assert same_as_written("a taband end spaces  ", "a tab\tand end spaces  ")
    assert same_as_written("windows_x000D_\nbreak", "windows\r\nbreak")
    assert same_as_written("line one\nlinetwo", "  line one\r\nline\ttwo ")
    for edited in ("twolines", "two lines", "two\nlines!", "two\n\nlines", "two\nline"):
        assert not same_as_written(edited, "two\nlines"), edited
    assert not same_as_written("a\u00a0", "a")  # a non-breaking space is kept by all
    assert written_form("  two lines\r\n\tand a tab ") == "two lines\nand a tab"


@pytest.mark.filterwarnings("ignore:Workbook contains no default style")
@pytest.mark.parametrize(("suffix", "to", "recalc"), [
    ("xlsx", "xlsx", False), ("xlsx", "xlsx", True), ("xlsx", "ods", False),
    ("ods", "ods", False), ("ods", "ods", True), ("ods", "xlsx", False)])
def test_texts_saved_by_gnumeric_reopen_as_written(tmp_path: Path, suffix: str, to: str,
                                                   recalc: bool) -> None:
    """Gnumeric's .ods holds a multi-line note's line breaks as
    ``<text:line-break/>`` inside one paragraph (LibreOffice writes
    paragraphs), which the reader dropped: the note read as edited, its
    line breaks lost (4 of these 12 notes taken in .ods); its .xlsx drops the
    spaces, tabs and line breaks at a text's ends (a note with a tab and
    end spaces was taken; the judgment version and the list's name were
    logged as edited). Fails before."""
    doc = _document()
    src = tmp_path / f"book.{suffix}"
    export_workbook(evaluate(doc, doc.conventions), src)
    out = tmp_path / f"saved.{to}"
    proc = subprocess.run([ssconvert(), *(["--recalc"] if recalc else []), str(src), str(out)],
                          capture_output=True, text=True, timeout=240, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    _check_as_written(read_workbook(out))
    if to == "ods" and suffix == "ods":  # the cells themselves: line breaks and tabs read
        cells = read_ods(out, (), candidates=True)
        assert cells is not None
        assert cells.candidates is not None
        # (this product's .ods holds a Windows line break as a line break)
        assert {n.replace("\r\n", "\n") for n in NOTES} <= set(cells.candidates.note)


@pytest.mark.libreoffice
def test_texts_saved_by_libreoffice_reopen_as_written_and_an_edited_note_is_taken(
        tmp_path: Path) -> None:
    """Through LibreOffice (UNO, .xlsx and .ods), nothing typed but one note
    (two lines): the other notes, the judgment version (a tab: dropped
    reading any .ods before) and the name read as written; the note typed
    is taken as typed, its line break kept."""
    from tests.libreoffice import edit

    doc = _document()
    src = tmp_path / "book.xlsx"
    export_workbook(evaluate(doc, doc.conventions), src)
    typed = "typed in Calc\nsecond line"
    ws = openpyxl.load_workbook(src)[SHEETS["candidates"]]
    row = next(r for r in range(2, ws.max_row + 1) if not ws.cell(r, 8).value)
    query, source = ws.cell(row, 1).value, ws.cell(row, 2).value
    jobs = [(src, tmp_path / f"saved.{to}", [
        {"op": "set", "sheet": SHEETS["candidates"], "cell": f"H{row}", "value": typed}])
        for to in ("xlsx", "ods")]
    for out in edit(jobs):
        back = read_workbook(out)
        found = reopened(back)
        assert found is not None
        assert found.notes == 1, out.suffix
        i = next(k for k in range(len(back)) if back.query_ids[int(back.query[k])] == query
                 and back.source_id[k] == source)
        assert back.note[i] == typed
        back.note[i] = ""
        assert tuple(back.note[:len(NOTES)]) == NOTES
        assert (back.judgment_version, back.name) == (VERSION, NAME)
        assert back.conventions.guidelines.for_grade(2.0) == Guideline(
            2.0, DESCRIPTION, EXAMPLES)


def test_an_ods_read_by_calamine_keeps_the_texts_without_their_tabs(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An .ods the fast reader leaves to python-calamine (a date in a sheet
    read whole, an element it does not know) loses every ``<text:tab/>``:
    the notes, the judgment version and the guideline with a tab still read
    as written (the guideline was logged as edited before)."""
    import core.io.workbook.reader as reader

    doc = _document()
    src = tmp_path / "book.ods"
    export_workbook(evaluate(doc, doc.conventions), src)
    monkeypatch.setattr(reader, "read_ods", lambda *args, **kwargs: None)
    _check_as_written(read_workbook(src))


@pytest.mark.filterwarnings("ignore:Workbook contains no default style")
def test_ids_with_spaces_at_their_ends_reopen_from_gnumeric(tmp_path: Path) -> None:
    """Gnumeric's .xlsx cuts the spaces at an id's ends (a ranx JSON run
    keeps ``" d1 "`` as its id): the workbook only opened and saved there
    was refused on reopening ('the row of query 'q', source 'a' is not a
    candidate of this workbook'; fails before). Each row is matched to its
    candidate by the ids' written form, in place even when two ids share
    one (``" a "`` and ``"a"``); sorted, such rows cannot be told apart and
    are refused as before; the ids stay as written. (Gnumeric writes
    ``<t> a </t>`` without ``xml:space="preserve"``: calamine cuts the
    spaces, LibreOffice keeps them.)"""
    from core.errors import InputError

    for ids in ([" a ", "b ", "c"], [" a ", "a", "c"]):
        doc = Document.from_columns(query=["q"] * 3, source_id=ids, score=[3.0, 2.0, 1.0],
                                    grade=[2, 1, 0])
        src = tmp_path / "book.xlsx"
        export_workbook(evaluate(doc, doc.conventions), src)
        out = tmp_path / "saved.xlsx"
        proc = subprocess.run([ssconvert(), str(src), str(out)], capture_output=True,
                              text=True, timeout=240, check=False)
        assert proc.returncode == 0, proc.stderr[-2000:]
        back = read_workbook(out)
        assert list(back.source_id) == ids
        found = reopened(back)
        assert found is None or (found.notes, found.grades, found.refused) == (0, (), ())
    # the rows of " a " and "a" swapped (a sort) after their spaces were cut: refused
    wb = openpyxl.load_workbook(src)
    ws = wb[SHEETS["candidates"]]
    rows = [[c.value for c in ws[r]] for r in (2, 3)]
    for r, values in zip((3, 2), rows, strict=True):
        for c, value in enumerate(values, start=1):
            ws.cell(r, c).value = value.strip() if c == 2 else value
    wb.save(src)
    with pytest.raises(InputError, match="its score and original grade are another candidate's"):
        read_workbook(src)


@pytest.mark.filterwarnings("ignore:Workbook contains no default style")
@pytest.mark.parametrize("to", ["xlsx", "ods"])
def test_the_annotators_record_saved_by_gnumeric_reads_as_written(tmp_path: Path,
                                                                   to: str) -> None:
    """The Annotators sheet (each annotator's grades as imported) holds ids
    and unrateable marks as written: through Gnumeric, an id with spaces at
    its ends was 'a row added' and its row 'deleted', and a mark with a tab
    'edited' (not read: the record is never taken, but the warnings were
    false; fails before)."""
    import numpy as np

    from tests.test_workbook_annotators import imported

    doc = imported(tmp_path)
    ids = doc.source_id.copy()
    ids[0] = f" {ids[0]} "
    doc.source_id = ids
    n, a = len(doc), len(doc.annotators)
    assert doc.ratings is not None
    doc.unrateable_ratings = np.zeros((n, a), dtype=bool)
    doc.unrateable_ratings[1, 0] = True
    doc.unrateable_words = np.full((n, a), "", dtype=object)
    doc.unrateable_words[1, 0] = "n/a\tpage gone"
    doc.ratings[1, 0] = np.nan
    src = tmp_path / "book.xlsx"
    export_workbook(evaluate(doc, doc.conventions), src)
    found = reopened(read_workbook(src))
    assert found is None or found.not_read == ()  # (as written, before any program)
    out = tmp_path / f"saved.{to}"
    proc = subprocess.run([ssconvert(), str(src), str(out)], capture_output=True, text=True,
                          timeout=240, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    back = read_workbook(out)
    found = reopened(back)
    assert found is None or found.not_read == (), [str(e) for e in found.not_read]
    assert back.source_id[0] == ids[0]
    assert back.unrateable_words is not None
    assert back.unrateable_words[1, 0] == "n/a\tpage gone"
