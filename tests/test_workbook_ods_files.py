"""The commands that write a workbook write ``.ods`` when asked (issue 34
item 3): ``export -o BOOK.ods``, ``merge -o MERGED.ods``, ``split`` (the
base's format, or ``--to``), ``compare --export OUT.ods``; no ``.xlsx`` bytes
under an ``.ods`` name or the reverse; and what people added to an ``.ods``
of ours is kept when it is saved again (item 4, read by calamine)."""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path
from typing import Any

import pytest

from app.cli.main import main
from core.engine.evaluation import evaluate
from core.io.delimited import write_delimited
from core.io.rounds import reviewer_path
from core.io.workbook import SHEETS, export_workbook, read_workbook
from core.io.workbook.additions import additions_to_keep, lost_by_replacing, read_additions
from core.io.workbook.additions_ods import VALUES_ONLY
from core.io.workbook.metadata import document_from_metadata, read_metadata
from core.io.workbook.ods_writer import MIMETYPE
from core.model.document import Document
from tests.test_rounds import base_doc
from tests.test_rounds_files import edit_grades, unknown_of
from tests.test_workbook_export import case, check_values
from tests.test_workbook_ods import ods_values


def run(*args: Any) -> tuple[int, str]:
    out = io.StringIO()
    code = main([str(a) for a in args], out=out)
    return code, out.getvalue()


def is_ods_file(path: Path) -> bool:
    with zipfile.ZipFile(path) as z:
        return z.read("mimetype").decode() == MIMETYPE


def ods_document(path: Path) -> Document:
    """The document an .ods of ours holds (its metadata sheet)."""
    values = ods_values(path)
    return document_from_metadata(read_metadata(values[SHEETS["metadata"]], str(path)),
                                  str(path))


def test_export_writes_ods_and_refuses_a_mismatched_name(tmp_path: Path) -> None:
    doc, _ = case(0)
    src = tmp_path / "in.csv"
    write_delimited(doc, src)
    code, text = run("export", src, "-o", tmp_path / "book.ods")
    assert (code, text) == (0, f"wrote {tmp_path / 'book.ods'}\n")
    assert is_ods_file(tmp_path / "book.ods")
    back = ods_document(tmp_path / "book.ods")  # the document the CSV gave
    assert back.source_id.tolist() == doc.source_id.tolist()
    check_values(ods_values(tmp_path / "book.ods"), back, back.conventions)
    code, _ = run("export", src, "-o", tmp_path / "b.xlsx")
    assert code == 0
    assert zipfile.ZipFile(tmp_path / "b.xlsx").namelist()[0] != "mimetype"
    for name, to in (("c.ods", "xlsx"), ("d.xlsx", "ods"), ("e.dat", "ods")):
        code, _ = run("export", src, "-o", tmp_path / name, "--to", to)
        assert code == 2
        assert not (tmp_path / name).exists()


def test_split_follows_the_base_or_to(tmp_path: Path) -> None:
    base = tmp_path / "base.xlsx"
    export_workbook(evaluate(base_doc([3, 4, 2, 5, 3, 0], seed=9)), base)
    code, _ = run("split", base, "--reviewers", "ana,ben", "-o", tmp_path / "r", "--to", "ods")
    assert code == 0
    for name in ("ana", "ben"):
        path = tmp_path / "r" / f"base-{name}.ods"
        assert is_ods_file(path)
        doc = ods_document(path)
        assert doc.assignment is not None
        assert doc.assignment.reviewer == name
    assert not list((tmp_path / "r").glob("*.xlsx"))
    assert reviewer_path(tmp_path, "b.ods", "ana") == tmp_path / "b-ana.ods"
    assert reviewer_path(tmp_path, "b.xlsx", "ana") == tmp_path / "b-ana.xlsx"
    assert reviewer_path(tmp_path, "b.ods", "ana", "xlsx") == tmp_path / "b-ana.xlsx"
    assert reviewer_path(tmp_path, "b.csv", "ana") == tmp_path / "b-ana.xlsx"


def test_merge_writes_ods(tmp_path: Path) -> None:
    base = tmp_path / "base.xlsx"
    export_workbook(evaluate(base_doc([3, 4, 2, 5, 3, 0], seed=9)), base)
    assert run("split", base, "--reviewers", "ana,ben", "-o", tmp_path / "r")[0] == 0
    ana = tmp_path / "r" / "base-ana.xlsx"
    a_doc = read_workbook(ana)
    query = a_doc.query_ids[0]
    source = unknown_of(a_doc, query)[0]
    edit_grades(ana, {(query, source): 2})
    code, text = run("merge", base, ana, "-o", tmp_path / "merged.ods")
    assert code == 0, text
    merged = ods_document(tmp_path / "merged.ods")
    i = next(i for i in range(len(merged)) if merged.query_ids[int(merged.query[i])] == query
             and merged.source_id[i] == source)
    assert merged.grade[i] == 2.0
    code, _ = run("merge", base, ana, "-o", tmp_path / "merged.txt")
    assert code == 2
    assert not (tmp_path / "merged.txt").exists()


def test_compare_exports_ods(tmp_path: Path) -> None:
    doc, _ = case(1)
    a, b = tmp_path / "a.csv", tmp_path / "b.csv"
    write_delimited(doc, a)
    doc.score[:] = doc.score[::-1].copy()
    write_delimited(doc, b)
    code, text = run("compare", a, b, "--resamples", "50", "--export", tmp_path / "c.ods")
    assert code == 0, text
    assert is_ods_file(tmp_path / "c.ods")
    assert "Comparison" in ods_values(tmp_path / "c.ods")
    code, _ = run("compare", a, b, "--resamples", "50", "--export", tmp_path / "c.txt")
    assert code == 2


def _add_to_ods(src: Path, dst: Path, key: tuple[str, str]) -> None:
    """A reviewer's additions, as LibreOffice stores them: a sheet of their
    own and a Candidates column (AB) with a header and a value on ``key``'s row."""
    with zipfile.ZipFile(src) as z:
        parts = {i.filename: z.read(i) for i in z.infolist()}
    xml = parts["content.xml"].decode()
    mine = ('<table:table table:name="My notes" table:style-name="ta"><table:table-column/>'
            '<table:table-row><table:table-cell office:value-type="string"><text:p>to check'
            '</text:p></table:table-cell><table:table-cell office:value-type="float" '
            'office:value="3.5"/></table:table-row></table:table>')
    xml = xml.replace("<table:named-expressions>", mine + "<table:named-expressions>", 1)
    start = xml.index('table:name="Candidates"')
    end = xml.index("</table:table>", start)
    sheet = xml[start:end]
    extra = ('<table:table-cell office:value-type="{t}"{v}>{p}</table:table-cell>')

    def add(row: str, value: str, number: bool) -> str:
        cell = extra.format(t="float" if number else "string",
                            v=f' office:value="{value}"' if number else "",
                            p="" if number else f"<text:p>{value}</text:p>")
        return row.replace("</table:table-row>", cell + "</table:table-row>", 1)

    rows = re.findall(r"<table:table-row\b.*?</table:table-row>", sheet, re.S)
    header = rows[0]
    target = next(r for r in rows if f"<text:p>{key[0]}</text:p>" in r
                  and f"<text:p>{key[1]}</text:p>" in r)
    sheet = sheet.replace(header, add(header, "checked by", False), 1)
    sheet = sheet.replace(target, add(target, "7", True), 1)
    parts["content.xml"] = (xml[:start] + sheet + xml[end:]).encode()
    with zipfile.ZipFile(dst, "w") as z:
        z.writestr(zipfile.ZipInfo("mimetype"), parts.pop("mimetype"))
        for name, data in parts.items():
            z.writestr(name, data, zipfile.ZIP_DEFLATED)


def test_additions_to_an_ods_survive_the_next_save(tmp_path: Path) -> None:
    doc, conv = case(0)
    ev = evaluate(doc, conv)
    first = tmp_path / "first.ods"
    export_workbook(ev, first)
    key = (doc.query_ids[int(doc.query[4])], str(doc.source_id[4]))
    book = tmp_path / "book.ods"
    _add_to_ods(first, book, key)
    keep = additions_to_keep(book)  # Save over the .ods the document came from
    assert keep is not None
    assert keep.summary() == "sheet 'My notes', 1 added Candidates column"
    assert VALUES_ONLY in keep.not_carried
    assert read_additions(book).summary() == keep.summary()
    assert lost_by_replacing(book) == [VALUES_ONLY]  # what the editor's Save warns of
    assert lost_by_replacing(first) == []
    export_workbook(ev, book, keep=keep)
    values = ods_values(book)
    assert values["My notes"] == [["to check", 3.5]]
    cand = values[SHEETS["candidates"]]
    assert cand[0][27] == "checked by"
    assert [r[27] for r in cand[1:] if (r[0], r[1]) == key] == [7.0]
    assert sum(1 for r in cand[1:] if len(r) > 27 and r[27] not in ("", None)) == 1
    check_values(values, doc, conv)
    # A file of ours without additions keeps nothing; one not ours is not read.
    assert not additions_to_keep(first)
    (tmp_path / "other.ods").write_bytes(b"not a zip")
    assert additions_to_keep(tmp_path / "other.ods") is None


@pytest.mark.parametrize("name", ["x.ODS", "x.ods"])
def test_suffix_is_case_blind(tmp_path: Path, name: str) -> None:
    doc, conv = case(0)
    export_workbook(evaluate(doc, conv), tmp_path / name)
    assert is_ods_file(tmp_path / name)


def test_an_infinite_score_is_refused_and_nothing_written(tmp_path: Path) -> None:
    from core.errors import InputError

    doc, conv = case(0)
    doc.score[2] = float("inf")
    with pytest.raises(InputError, match="infinite"):
        export_workbook(evaluate(doc, conv), tmp_path / "w.ods")
    assert list(tmp_path.iterdir()) == []  # no workbook, no temporary file left


def test_the_editors_save_writes_ods_by_the_name(tmp_path: Path) -> None:
    from app.file_formats import write_document

    doc, _ = case(0)
    write_document(doc, tmp_path / "saved.ods")
    assert is_ods_file(tmp_path / "saved.ods")
    assert ods_document(tmp_path / "saved.ods").source_id.tolist() == doc.source_id.tolist()
    write_document(doc, tmp_path / "saved.xlsx")
    assert not has_mimetype(tmp_path / "saved.xlsx")


def has_mimetype(path: Path) -> bool:
    with zipfile.ZipFile(path) as z:
        return "mimetype" in z.namelist()


def test_import_writes_ods(tmp_path: Path) -> None:
    sheet = tmp_path / "ratings.csv"
    sheet.write_text("query,docid,ana,ben\nq1,d1,2,3\nq1,d2,0,1\nq2,d3,1,1\n")
    code, text = run("import", sheet, "-o", tmp_path / "out.ods")
    assert code == 0, text
    doc = ods_document(tmp_path / "out.ods")
    assert doc.source_id.tolist() == ["d1", "d2", "d3"]
    assert doc.grade.tolist() == [2.5, 0.5, 1.0]  # the annotators' mean


def test_a_note_with_a_tab_reopens_from_ods_as_written(tmp_path: Path) -> None:
    """An .ods cell's text is read without its tabs (calamine drops
    ``<text:tab/>``, and our own reader as it does): a note with a tab was
    taken on reopening as a note edited in the spreadsheet, its tab lost."""
    from core.io.workbook import reopened
    from core.model.examples import seed_document

    doc = seed_document()
    doc.set_note(3, "left\tright")
    path = tmp_path / "tab.ods"
    export_workbook(evaluate(doc), path)
    back = read_workbook(path)
    assert back.note[3] == "left\tright"
    found = reopened(back)
    assert found is None or found.notes == 0
