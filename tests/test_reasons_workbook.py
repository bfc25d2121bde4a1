"""Why a grade is unknown, where a spreadsheet's user reads the grade: the
workbook's Candidates sheet writes an unknown grade that has a reason (an
item both annotators declined) as the word ``unknown``, which its formulas
read, with a comment on that cell saying why (``unknown: declined by 2
annotators, no judgment (not 0)``; an annotation in .ods). The comment is
the export's own: reopened, nothing is taken as edited; saved again, it is
not carried as a person's comment (it is written again from the document,
or not at all once the item is graded); after LibreOffice (UNO) and
Gnumeric (ssconvert) saves too. The files are tests/test_declined_by_all.py's
Prodigy export: d2, at rank 2 of 4, declined by both annotators."""

from __future__ import annotations

import re
import subprocess
import zipfile
from pathlib import Path

import pytest

from core.engine.evaluation import evaluate
from core.io.workbook import SHEETS, export_workbook, read_workbook, reopened
from core.io.workbook.additions import additions_to_keep, read_additions
from core.model.document import Document, GradeState
from core.model.edits import GradeValue, SetGrades
from core.session import Worksheet
from tests.test_declined_reason import _doc
from tests.test_workbook_gnumeric import ssconvert

#: d2's comment, and its cell: row 3 (the header, d1, d2 in rank order),
#: column F (current grade).
_NOTE = "unknown: declined by 2 annotators, no judgment (not 0)"
_CELL = "F3"


def _comments(path: Path) -> dict[str, str]:
    """The Candidates sheet's comments (cell -> text) of an .xlsx, or its
    annotations of an .ods (cell -> text, the cell found by counting)."""
    if path.suffix == ".ods":
        return _annotations(path)
    import warnings

    import openpyxl

    with warnings.catch_warnings():  # (Gnumeric's: "no default style", openpyxl's then)
        warnings.simplefilter("ignore", UserWarning)
        ws = openpyxl.load_workbook(path)[SHEETS["candidates"]]
    return {c.coordinate: str(c.comment.text).strip() for row in ws.iter_rows() for c in row
            if c.comment is not None}


_NS = {"table": "urn:oasis:names:tc:opendocument:xmlns:table:1.0",
       "office": "urn:oasis:names:tc:opendocument:xmlns:office:1.0",
       "text": "urn:oasis:names:tc:opendocument:xmlns:text:1.0"}


def _annotations(path: Path) -> dict[str, str]:
    import xml.etree.ElementTree as ET

    def q(name: str) -> str:
        prefix, local = name.split(":")
        return f"{{{_NS[prefix]}}}{local}"

    with zipfile.ZipFile(path) as z:
        root = ET.fromstring(z.read("content.xml"))
    out: dict[str, str] = {}
    for table in root.iter(q("table:table")):
        if table.get(q("table:name")) != SHEETS["candidates"]:
            continue
        r = 0
        for row in table.iter(q("table:table-row")):
            r += 1
            col = 0
            for cell in row:
                if cell.tag not in (q("table:table-cell"), q("table:covered-table-cell")):
                    continue
                for note in cell.findall(q("office:annotation")):
                    said = ["".join(p.itertext()) for p in note.findall(q("text:p"))]
                    out[f"{chr(ord('A') + col)}{r}"] = "\n".join(said).strip()
                col += int(cell.get(q("table:number-columns-repeated"), "1"))
            r += int(row.get(q("table:number-rows-repeated"), "1")) - 1
    return out


def _book(tmp_path: Path, suffix: str, name: str = "book") -> tuple[Document, Path]:
    doc = _doc("prodigy", tmp_path)
    path = tmp_path / f"{name}{suffix}"
    export_workbook(evaluate(doc), path)
    return doc, path


@pytest.mark.parametrize("suffix", [".xlsx", ".ods"])
def test_the_grade_cell_says_why_in_its_comment(tmp_path: Path, suffix: str) -> None:
    """d2's grade cell: the word, and the comment; no other cell has one."""
    _, path = _book(tmp_path, suffix)
    assert _comments(path) == {_CELL: _NOTE}
    assert read_workbook(path).state.tolist() == [0, 1, 0, 0]


def test_a_saved_workbooks_comment_is_not_carried_as_a_persons(tmp_path: Path) -> None:
    """Saved again over itself: the comment is the export's, not an
    addition (fails before: carried as a person's comment, kept even after
    d2 is graded 3, when it is no longer true). A person's comment on d3's
    note is carried as before."""
    import openpyxl
    from openpyxl.comments import Comment

    _, path = _book(tmp_path, ".xlsx")
    wb = openpyxl.load_workbook(path)
    wb[SHEETS["candidates"]]["H4"].comment = Comment("ask Ana", "Ben")
    wb.save(path)
    kept = read_additions(path).candidates.comments
    assert [(key, [n.text for n in notes]) for key, notes in kept.items()] == [
        (("q", "d3"), ["ask Ana"])]
    session = Worksheet(read_workbook(path))
    export_workbook(session.evaluation, path, keep=additions_to_keep(path))
    assert _comments(path) == {_CELL: _NOTE, "H4": "ask Ana"}
    session.apply(SetGrades.of([1], [GradeValue.typed(3.0, GradeState.NUMBER)], who="ana"))
    export_workbook(session.evaluation, path, keep=additions_to_keep(path))
    assert _comments(path) == {"H4": "ask Ana"}


def _parsed(path: Path, monkeypatch: pytest.MonkeyPatch) -> bool:
    """Whether reading what people added to ``path`` parses its sheets
    (openpyxl), which a workbook whose only comments are the export's own
    does not need."""
    from core.io.workbook import additions

    calls: list[Path] = []
    real = additions._read_into
    monkeypatch.setattr(additions, "_read_into",
                        lambda out, copy, *rest: (calls.append(copy), real(out, copy, *rest)))
    read_additions(path)
    monkeypatch.undo()
    return bool(calls)


def test_a_workbook_whose_only_comments_are_the_exports_is_not_parsed_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Before each save the workbook being replaced is read for what people
    added; the comments part holding only the export's own is nothing
    added (100,000 candidates, 200 such comments: 6.4 -> 1.1 s). A
    person's comment is, and so is the export's text edited by hand."""
    import openpyxl
    from openpyxl.comments import Comment

    _, path = _book(tmp_path, ".xlsx")
    assert not _parsed(path, monkeypatch)
    wb = openpyxl.load_workbook(path)
    wb[SHEETS["candidates"]]["H4"].comment = Comment("ask Ana", "Ben")
    wb.save(path)
    assert _parsed(path, monkeypatch)
    _, edited = _book(tmp_path, ".xlsx", "edited")
    wb = openpyxl.load_workbook(edited)
    wb[SHEETS["candidates"]][_CELL].comment = Comment("unknown: ask Ana", "Ben")
    wb.save(edited)
    assert _parsed(edited, monkeypatch)



def test_a_persons_comment_in_a_comments_part_of_prefixed_tags_is_kept(tmp_path: Path) -> None:
    """A comments part written with a namespace prefix (``<x:comment>``, as
    the Open XML SDK may write one) holds no ``<comment`` the quick look
    knows: in doubt, the workbook is read, and a person's comment ('ask
    Ana' on H4, beside the export's on F3) is kept for the save (it was
    taken for the export's own alone, not read, and lost)."""
    _, path = _book(tmp_path, ".xlsx")
    prefixed = tmp_path / "prefixed.xlsx"
    with zipfile.ZipFile(path) as z, zipfile.ZipFile(prefixed, "w") as out:
        for item in z.infolist():
            data = z.read(item.filename)
            if re.search(r"comments\d*\.xml$", item.filename):
                text = data.decode().replace(
                    "</commentList>", '<comment ref="H4" authorId="0"><text><r><t>ask Ana'
                    "</t></r></text></comment></commentList>")
                text = re.sub(r"<(/?)(?![?])([A-Za-z]\w*)([\s>/])", r"<\1x:\2\3", text)
                data = text.replace(' xmlns="', ' xmlns:x="').encode()
                assert b"<x:comment " in data
                assert b"<comment " not in data
            out.writestr(item, data)
    assert _comments(prefixed) == {_CELL: _NOTE, "H4": "ask Ana"}
    kept = read_additions(prefixed).candidates.comments
    assert {key: [(c.col, c.text) for c in notes] for key, notes in kept.items()} == {
        ("q", "d3"): [(7, "ask Ana")]}

def _saved_elsewhere(tmp_path: Path) -> list[Path]:
    """The workbook saved by LibreOffice (UNO, d3 regraded 2 there) in
    .xlsx and .ods, and by Gnumeric (ssconvert, as it is) in both."""
    from tests.libreoffice import edit

    jobs = []
    for suffix in (".xlsx", ".ods"):
        _, book = _book(tmp_path, suffix)
        jobs.append((book, tmp_path / f"lo{suffix}",
                     [{"op": "set", "sheet": SHEETS["candidates"], "cell": "F4", "value": 2}]))
    out = edit(jobs)
    for book, _, _ in jobs:
        gnumeric = tmp_path / f"gnumeric{book.suffix}"
        proc = subprocess.run([ssconvert(), str(book), str(gnumeric)], capture_output=True,
                              text=True, timeout=240, check=False)
        assert proc.returncode == 0, proc.stderr[-2000:]
        out.append(gnumeric)
    return out


@pytest.mark.libreoffice
def test_the_comment_survives_libreoffice_and_gnumeric_and_is_no_edit(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each file saved elsewhere keeps d2's comment; reopened, only
    LibreOffice's d3 is edited (the comment no edit, d2 unknown with its
    reason); saved again by the export (the .xlsx over itself, reading what
    people added, as the editor and the command line save), the comment is
    there once, not carried beside ours."""
    for path in _saved_elsewhere(tmp_path):
        assert _comments(path) == {_CELL: _NOTE}, path.name
        back = read_workbook(path)
        assert back.state.tolist() == [0, 1, 0, 0], path.name
        assert back.reason.tolist() == ["", "declined by 2 annotators", "", ""], path.name
        edited = [(e.source_id, e.after) for e in back.audit]
        assert edited == ([("d3", "2")] if path.name.startswith("lo") else []), path.name
        found = reopened(back)
        assert found is None or found.empty or path.name.startswith("lo"), path.name
        if path.suffix == ".xlsx":
            assert read_additions(path).candidates.comments == {}, path.name
            assert not _parsed(path, monkeypatch), path.name
            export_workbook(evaluate(back), path, keep=additions_to_keep(path))
            assert _comments(path) == {_CELL: _NOTE}, path.name
        assert re.search(r"declined by 2", str(_comments(path)))


def test_a_hand_out_says_why_and_the_merge_keeps_why_it_was_unknown(tmp_path: Path) -> None:
    """split hands d2 out with its comment; ana types 2 over it in her
    spreadsheet (the comment stays in her file, as Excel leaves it); merge
    takes the 2, its audit entry's from says why d2 was unknown (fails
    before: 'unknown', where ana's entry said 'unknown: declined by 2
    annotators'), and the merged workbook has no comment left on d2."""
    import openpyxl

    from tests.test_declined_by_all import _run

    _, base = _book(tmp_path, ".xlsx", "base")
    code, _, err = _run(["split", str(base), "--reviewers", "ana", "-o", str(tmp_path / "r1")])
    assert code == 0, err
    handed = tmp_path / "r1" / "base-ana.xlsx"
    assert _comments(handed) == {_CELL: _NOTE}
    assert read_workbook(handed).reason.tolist() == ["", "declined by 2 annotators", "", ""]
    wb = openpyxl.load_workbook(handed)
    wb[SHEETS["candidates"]][_CELL] = 2
    wb.save(handed)
    merged = tmp_path / "merged.xlsx"
    code, _, err = _run(["merge", str(base), str(handed), "-o", str(merged)])
    assert code == 0, err
    back = read_workbook(merged)
    assert back.grade.tolist() == [3.0, 2.0, 1.0, 0.0]
    assert back.reason.tolist() == ["", "", "", ""]
    assert [(e.origin, e.before, e.after) for e in back.audit if e.origin == "merge"] == [
        ("merge", "unknown: declined by 2 annotators", "2")]
    assert _comments(merged) == {}


def _comment_of(path: Path, cell: str) -> tuple[str, str]:
    """The text (as stored) and author of a Candidates comment of an .xlsx."""
    import warnings

    import openpyxl

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        got = openpyxl.load_workbook(path)[SHEETS["candidates"]][cell].comment
    return str(got.text), str(got.author or "").strip()


@pytest.mark.parametrize("how", ["typed over ours", "typed after ours in LibreOffice"])
def test_a_persons_comment_on_a_noted_grade_keeps_both(tmp_path: Path, how: str) -> None:
    """A person's comment on d2's grade cell, which carries the export's
    note: typed over ours (a new comment, as Excel makes one) or after it
    (LibreOffice's Edit Comment, through UNO). Three saves in a row keep
    their text whole with ours after it, signed, once; d2 graded, theirs
    alone. Before, one of the two won: theirs over ours (the note lost), or
    theirs holding ours, which the next save put a second note beside."""
    from core.io.workbook.grade_comments import with_ours

    _, path = _book(tmp_path, ".xlsx")
    if how == "typed over ours":
        import openpyxl
        from openpyxl.comments import Comment

        wb = openpyxl.load_workbook(path)
        wb[SHEETS["candidates"]][_CELL].comment = Comment("ask Ben\nbefore Friday", "eve")
        wb.save(path)
        author = "eve"
    else:
        from tests.libreoffice import edit

        first = path.with_name("first.xlsx")
        path.rename(first)
        edit([(first, path, [{"op": "append_comment", "sheet": SHEETS["candidates"],
                              "cell": _CELL, "text": "\nask Ben\nbefore Friday"}])])
        author = None  # (LibreOffice saves an .xlsx's comments without their author)
    both = with_ours("ask Ben\nbefore Friday", _NOTE)
    assert both == f"ask Ben\nbefore Friday\n\nNDCG Worksheet: {_NOTE}"
    session = Worksheet(read_workbook(path))
    for _ in range(3):
        export_workbook(session.evaluation, path, keep=additions_to_keep(path))
        assert _comment_of(path, _CELL)[0] == both
        assert author is None or _comment_of(path, _CELL)[1] == author
        assert list(_comments(path)) == [_CELL]
    session.apply(SetGrades.of([1], [GradeValue.typed(3.0, GradeState.NUMBER)], who="ana"))
    export_workbook(session.evaluation, path, keep=additions_to_keep(path))
    assert _comment_of(path, _CELL)[0] == "ask Ben\nbefore Friday"
