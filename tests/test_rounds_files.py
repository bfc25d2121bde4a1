"""``split`` and ``merge`` on files: the command line, the assignment through
the workbook round trip, grades edited in the returned workbooks as a
reviewer's Excel would (openpyxl) and re-saved by LibreOffice, the merged
workbook reopened, and bad input (exit status 2, one line, inputs unchanged)."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import numpy as np
import openpyxl
import pytest

from app.cli.main import main
from core.analysis.queue import judging_queue
from core.analysis.rounds import MERGE_ORIGIN, base_id, plan_hand_out
from core.engine.evaluation import evaluate
from core.io.rounds import read_base
from core.io.workbook import OUTSIDE_ORIGIN, SHEETS, export_workbook, read_workbook
from core.model.document import Document, GradeState
from tests.libreoffice import recalculate
from tests.test_rounds import WHEN, base_doc, row
from tests.test_workbook_reopen import _tamper


def run(*args: Any) -> tuple[int, str]:
    out = io.StringIO()
    code = main([str(a) for a in args], out=out)
    return code, out.getvalue()


@pytest.fixture
def base_file(tmp_path: Path) -> Path:
    path = tmp_path / "base.xlsx"
    export_workbook(evaluate(base_doc([3, 4, 2, 5, 3, 0], seed=9)), path)
    return path


def edit_grades(path: Path, grades: dict[tuple[str, str], Any], dst: Path | None = None) -> None:
    """Type ``grades`` into the Candidates sheet's current-grade cells, as a
    reviewer does in Excel (openpyxl keeps the rest of the workbook)."""
    wb = openpyxl.load_workbook(path)
    ws = wb[SHEETS["candidates"]]
    left = dict(grades)
    for r in range(2, ws.max_row + 1):
        key = (ws[f"A{r}"].value, ws[f"B{r}"].value)
        if key in left:
            ws[f"F{r}"].value = left.pop(key)
    assert not left, f"no such rows: {left}"
    wb.save(dst or path)


def unknown_of(doc: Document, query: str) -> list[str]:
    return [str(doc.source_id[i]) for i in doc.members(doc.query_index(query)).tolist()
            if doc.state[i] == GradeState.UNKNOWN]


def split(base: Path, out: Path, *extra: Any) -> dict[str, Path]:
    code, text = run("split", base, "--reviewers", "ana,ben", "-o", out, *extra)
    assert code == 0
    assert "handed out" in text
    return {name: out / f"{base.stem}-{name}.xlsx" for name in ("ana", "ben")}


def test_split_writes_one_workbook_per_reviewer(base_file: Path, tmp_path: Path) -> None:
    before = base_file.read_bytes()
    code, text = run("split", base_file, "--reviewers", "ana,ben,cara", "--overlap", "0.4",
                     "--seed", "3", "-o", tmp_path / "round")
    assert code == 0
    base = read_base(base_file)
    plan = plan_hand_out(base, judging_queue(evaluate(base)), ["ana", "ben", "cara"],
                         overlap=0.4, seed=3, when="")
    assert base_file.read_bytes() == before  # the base is never changed
    for share in plan.shares:
        path = tmp_path / "round" / f"base-{share.reviewer}.xlsx"
        assert f"{share.reviewer}: {len(share.queries)} queries, {share.unknown} unknown" in text
        doc = read_workbook(path)  # the assignment survives the workbook
        a = doc.assignment
        assert a is not None
        assert (a.reviewer, a.base_id, a.base_name, a.shares) == (
            share.reviewer, base_id(base), "base.xlsx", (share,))
        assert a.overlap == tuple(q for q in plan.overlap if q in share.queries)
        assert doc.query_ids == list(share.queries)
        assert len(doc) == sum(len(base.members(base.query_index(q))) for q in share.queries)
    assert "2 queries given to two reviewers" in text
    assert "1 query without an unknown candidate was not handed out" in text
    # the same seed, the same round
    run("split", base_file, "--reviewers", "ana,ben,cara", "--overlap", "0.4", "--seed", "3",
        "-o", tmp_path / "again")
    for name in ("ana", "ben", "cara"):
        first = read_workbook(tmp_path / "round" / f"base-{name}.xlsx").assignment
        again = read_workbook(tmp_path / "again" / f"base-{name}.xlsx").assignment
        assert first is not None
        assert again is not None
        assert (first.shares, first.overlap) == (again.shares, again.overlap)


def test_split_to_one_reviewer_counts_in_the_singular(tmp_path: Path) -> None:
    """The bundled example split to one reviewer (tried on the installed
    wheel): it said "to 1 reviewers" and "1 unknown candidates"."""
    from core.model.examples import EXAMPLE_WORKBOOK

    code, text = run("split", EXAMPLE_WORKBOOK, "--reviewers", "ana", "-o", tmp_path)
    assert code == 0
    lines = text.splitlines()
    assert lines[0].endswith(") to 1 reviewer, seed 0:")
    assert lines[1] == f"  ana: 1 query, 1 unknown candidate -> {tmp_path / 'example-ana.xlsx'}"


def test_merge_takes_excel_edits_and_refuses_another_base(base_file: Path,
                                                          tmp_path: Path) -> None:
    books = split(base_file, tmp_path / "round", "--overlap", "0.5", "--seed", "1")
    ana, ben = read_workbook(books["ana"]), read_workbook(books["ben"])
    assert ana.assignment is not None
    assert ben.assignment is not None
    shared = ana.assignment.overlap[0]
    mine = next(q for q in ana.query_ids if q not in ben.query_ids)
    s = unknown_of(ana, shared)
    m = unknown_of(ana, mine)
    edit_grades(books["ana"], {(mine, m[0]): 2, (mine, m[1]): "3", (shared, s[0]): 1})
    edit_grades(books["ben"], {(shared, s[0]): 3, (shared, s[1]): "n/a"})
    # a round handed out before the base changed: another base
    other = base_doc([3, 4, 2, 5, 3, 0], seed=9)
    other.set_grade(0, 3.0 if other.grade[0] != 3.0 else 2.0, who="lead")
    export_workbook(evaluate(other), tmp_path / "other.xlsx")
    old = split(tmp_path / "other.xlsx", tmp_path / "old")
    q = read_workbook(old["ana"]).query_ids[0]
    edit_grades(old["ana"], {(q, unknown_of(read_workbook(old["ana"]), q)[0]): 1})
    report = tmp_path / "MERGE.json"
    code, text = run("merge", base_file, books["ana"], books["ben"], old["ana"],
                     "-o", tmp_path / "merged.xlsx", "--report", report)
    assert code == 0
    data = json.loads(report.read_text())
    assert data["changes_found"] == 6
    assert (data["taken"], data["identical"], data["overlap_ratings"]) == (3, 0, 2)
    assert data["conflicts"] == []
    (refused,) = data["refused"]
    assert refused["workbook"] == "other-ana.xlsx"
    assert "another base" in refused["reason"]
    assert refused["changes"] == 1
    assert data["reviewers"]["ana"]["graded"] == 3
    assert data["reviewers"]["ben"]["graded"] == 2
    assert "refused other-ana.xlsx" in text
    merged = read_workbook(tmp_path / "merged.xlsx")
    assert merged.grade[row(merged, mine, m[0])] == 2.0
    assert merged.grade[row(merged, mine, m[1])] == 3.0
    assert merged.grade[row(merged, shared, s[0])] == 2.0  # the mean of 1 and 3
    i = row(merged, shared, s[1])  # ben alone, and not a number: taken
    assert merged.state[i] == GradeState.UNRATEABLE
    outside = [(e.who, e.query, e.source_id, e.after) for e in merged.audit
               if e.origin == OUTSIDE_ORIGIN]
    assert sorted(outside) == sorted([  # each reviewer's, in their sheet's row order
        ("ana", mine, m[0], "2"), ("ana", mine, m[1], "3"), ("ana", shared, s[0], "1"),
        ("ben", shared, s[0], "3"), ("ben", shared, s[1], "unrateable")])
    assert [who for who, *_ in outside] == ["ana"] * 3 + ["ben"] * 2
    assert sum(e.origin == MERGE_ORIGIN for e in merged.audit) == 4
    assert merged.annotators == ["ana", "ben"]
    assert merged.assignment is not None
    assert [x.reviewer for x in merged.assignment.shares] == ["ana", "ben"]


def _two_rounds(base_file: Path, tmp_path: Path) -> tuple[dict[str, Path], Path, Document]:
    """``base_file`` split for ana and ben (their workbooks by name), and
    again for cara alone (her workbook), with ben's read."""
    books = split(base_file, tmp_path / "round")
    code, _ = run("split", base_file, "--reviewers", "cara", "-o", tmp_path / "second")
    assert code == 0
    return books, tmp_path / "second" / "base-cara.xlsx", read_workbook(books["ben"])


def test_conflicts_are_kept_in_the_merged_workbook(base_file: Path, tmp_path: Path) -> None:
    books, cara, ben = _two_rounds(base_file, tmp_path)
    q = ben.query_ids[0]
    x = unknown_of(ben, q)[0]
    edit_grades(books["ben"], {(q, x): 0})
    edit_grades(cara, {(q, x): 2})
    code, text = run("merge", base_file, books["ben"], cara, "-o", tmp_path / "merged.xlsx",
                     "--report", tmp_path / "merge.json")
    assert code == 0
    assert "1 conflict left open" in text
    data = json.loads((tmp_path / "merge.json").read_text())
    assert data["conflicts"] == [{"query": q, "source_id": x, "base": "unknown",
                                  "values": {"ben": 0.0, "cara": 2.0}}]
    merged = read_workbook(tmp_path / "merged.xlsx")
    assert merged.assignment is not None
    (c,) = merged.assignment.conflicts
    assert (c.query, c.source_id) == (q, x)
    assert [(g.reviewer, g.grade) for g in c.values] == [("ben", 0.0), ("cara", 2.0)]
    assert merged.state[row(merged, q, x)] == GradeState.UNKNOWN


@pytest.mark.libreoffice
def test_merge_picks_up_edits_resaved_by_libreoffice(base_file: Path, tmp_path: Path) -> None:
    books = split(base_file, tmp_path / "round")
    ana = read_workbook(books["ana"])
    q = ana.query_ids[0]
    a, b = unknown_of(ana, q)[:2]
    edit_grades(books["ana"], {(q, a): 2, (q, b): "unknown"})  # b typed as it was
    (resaved,) = recalculate([books["ana"]], tmp_path / "lo")
    code, _ = run("merge", base_file, resaved, "-o", tmp_path / "merged.xlsx",
                  "--report", tmp_path / "merge.json")
    assert code == 0
    data = json.loads((tmp_path / "merge.json").read_text())
    assert (data["changes_found"], data["taken"]) == (1, 1)
    merged = read_workbook(tmp_path / "merged.xlsx")
    assert merged.grade[row(merged, q, a)] == 2.0
    assert [(e.who, e.source_id, e.origin) for e in merged.audit] == [
        ("ana", a, OUTSIDE_ORIGIN), (merged.audit[-1].who, a, MERGE_ORIGIN)]


@pytest.mark.libreoffice
def test_split_again_replaces_a_workbook_libreoffice_only_saved(tmp_path: Path) -> None:
    """A reviewer's workbook opened and saved in LibreOffice, nothing typed:
    still as handed out. A note holding a Windows line break (\\r\\n, as a
    CSV written on Windows brings it) comes back from LibreOffice as \\n:
    split refused it ("was edited by ana (its audit log or notes
    changed)"), and reopening counted a note edited in the spreadsheet."""
    from core.io.rounds import check_handed_out
    from core.io.workbook import reopened

    doc = base_doc([3, 4, 2, 5, 3, 0], seed=9)
    for i in range(len(doc)):
        doc.set_note(i, f"seen twice\r\nby {i}\tto check")
    base = tmp_path / "base.xlsx"
    export_workbook(evaluate(doc), base)
    books = split(base, tmp_path / "round")
    (saved,) = recalculate([books["ana"]], tmp_path / "lo")
    back = read_workbook(saved)
    found = reopened(back)
    assert found is None or found.notes == 0
    assert back.note[0].startswith("seen twice\r\nby ")
    check_handed_out([saved], hint=lambda theirs: "")  # no refusal
    books["ana"].write_bytes(saved.read_bytes())
    split(base, tmp_path / "round")


def test_bad_input_ends_with_one_line(base_file: Path, tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    books = split(base_file, tmp_path / "round")
    capsys.readouterr()
    before = base_file.read_bytes()
    csv = tmp_path / "x.csv"
    csv.write_text("query,source_id,score,grade\nq,a,1,1\n")
    cases = [
        (("merge", base_file, tmp_path / "missing.xlsx", "-o", tmp_path / "m.xlsx"),
         "no such file"),
        (("merge", base_file, csv, "-o", tmp_path / "m.xlsx"),
         "an .xlsx written by split or saved from the base"),
        (("merge", base_file, books["ana"], "-o", base_file), "would replace an input"),
        (("merge", base_file, books["ana"], "-o", tmp_path / "m.csv"),
         "a workbook is written as .xlsx or .ods"),
        (("merge", base_file, base_file, "-o", tmp_path / "m.xlsx", "--report",
          tmp_path / "m.xlsx"), "would replace another output"),
        (("split", base_file, "--reviewers", "ana,Ana", "-o", tmp_path), "named twice"),
        (("split", base_file, "--reviewers", "ana,ben", "--overlap", "2", "-o", tmp_path),
         "between 0 and 1"),
        (("split", base_file, "--reviewers", "../x", "-o", tmp_path), "cannot name a file"),
        (("split", base_file, "--reviewers", "ana", "-o", base_file), "not a folder"),
    ]
    for args, message in cases:
        code, _ = run(*args)
        err = capsys.readouterr().err
        assert code == 2, args
        assert message in err, (args, err)
        assert len(err.strip().splitlines()) == 1
        assert "Traceback" not in err
    assert base_file.read_bytes() == before
    assert not (tmp_path / "m.xlsx").exists()


@pytest.mark.parametrize("hold", ["read-only", "open in LibreOffice"])
def test_a_hand_out_one_workbook_of_which_cannot_be_replaced_writes_none(
        base_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], hold: str) -> None:
    """Split again over a round (ben's workbook read-only, or open in
    LibreOffice): refused in one line before any is written; ana's was
    rewritten before ben's was refused."""
    books = split(base_file, tmp_path / "round")
    ana, ben = books["ana"].read_bytes(), books["ben"].read_bytes()
    books["ana"].write_bytes(b"ana's graded copy")
    if hold == "read-only":
        books["ben"].chmod(0o444)
    else:
        (books["ben"].parent / f".~lock.{books['ben'].name}#").write_bytes(b",ben,vm,x,y;")
    capsys.readouterr()
    code, _ = run("split", base_file, "--reviewers", "ana,ben", "-o", tmp_path / "round")
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith(f"ndcg-worksheet: error: {books['ben']}: the file is ")
    assert ("read-only" if hold == "read-only" else "open in LibreOffice by ben") in err
    assert len(err.strip().splitlines()) == 1
    assert books["ana"].read_bytes() == b"ana's graded copy"
    assert books["ben"].read_bytes() == ben != ana


def test_split_again_never_replaces_a_workbook_a_reviewer_worked_on(
        base_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Split run again over the round's folder replaced the reviewers'
    workbooks without a word, their grades lost (a reviewer's day, item 5).
    A workbook still as handed out is written again; one graded, noted or
    added to, or a file split did not write, is refused in one line naming
    each, nothing written; --replace replaces them."""
    folder = tmp_path / "round"
    books = split(base_file, folder)
    split(base_file, folder)  # as handed out: written again
    ana = read_workbook(books["ana"])
    q = ana.query_ids[0]
    edit_grades(books["ana"], {(q, unknown_of(ana, q)[0]): 2})
    wb = openpyxl.load_workbook(books["ben"])
    wb[SHEETS["candidates"]]["H2"] = "ask the lead"  # a note only, no grade
    wb.save(books["ben"])
    stranger = folder / "base-cara.xlsx"
    stranger.write_bytes(b"%PDF-1.4 someone's report")
    kept = {p: p.read_bytes() for p in (books["ana"], books["ben"], stranger)}
    capsys.readouterr()
    code, _ = run("split", base_file, "--reviewers", "ana,ben,cara", "-o", folder)
    err = capsys.readouterr().err
    assert code == 2
    assert err == (
        "ndcg-worksheet: error: not replaced, so that no reviewer's work is lost: "
        f"{books['ana']} was graded by ana (1 grade changed); {books['ben']} was edited by "
        f"ben (its audit log or notes changed); {stranger} is not a workbook split wrote "
        "(write to another folder with -o; or merge them first: ndcg-worksheet merge "
        f"{base_file} {books['ana']} {books['ben']} -o MERGED.xlsx; or add --replace to "
        "replace them)\n")
    assert {p: p.read_bytes() for p in kept} == kept
    # a column a reviewer added is work too
    wb = openpyxl.load_workbook(books["ben"])
    wb[SHEETS["candidates"]]["H2"] = None
    wb[SHEETS["candidates"]]["AC2"] = "seen twice"
    wb.save(books["ben"])
    stranger.unlink()
    code, _ = run("split", base_file, "--reviewers", "ana,ben", "-o", folder)
    assert code == 2
    assert (f"{books['ben']} holds what ben added (1 added Candidates column)"
            in capsys.readouterr().err)
    code, _ = run("split", base_file, "--reviewers", "ana,ben", "-o", folder, "--replace")
    assert code == 0
    again = read_workbook(books["ana"])
    assert unknown_of(again, q) == unknown_of(ana, q)  # handed out afresh
    assert not again.audit


def test_a_damaged_assignment_is_refused_naming_the_field(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    from core.errors import InputError, NotOwnWorkbook
    from core.model.assignment import Assignment, Share

    doc = base_doc([2])
    doc.assignment = Assignment("b", "base.xlsx", "now", (Share("ana", ("q00",), 2),))
    monkeypatch.setattr(Assignment, "to_dict", lambda self: {"shares": "ana"})
    export_workbook(evaluate(doc), tmp_path / "bad.xlsx")
    before = (tmp_path / "bad.xlsx").read_bytes()
    with pytest.raises(InputError,
                       match=r"field 'assignment' .*assignment shares: not a list") as err:
        read_workbook(tmp_path / "bad.xlsx")
    assert not isinstance(err.value, NotOwnWorkbook)
    assert (tmp_path / "bad.xlsx").read_bytes() == before
    monkeypatch.undo()
    plain = base_doc([2])
    export_workbook(evaluate(plain), tmp_path / "plain.xlsx")
    assert read_workbook(tmp_path / "plain.xlsx").assignment is None


def test_copies_of_the_base_sent_without_split_merge(base_file: Path, tmp_path: Path) -> None:
    """The same workbook mailed to two colleagues, graded in their spreadsheet
    programs: different grades are conflicts, or ratings with --as-ratings."""
    import shutil

    base = read_workbook(base_file)
    q = base.query_ids[0]
    s = unknown_of(base, q)
    ana, ben = tmp_path / "base-ana.xlsx", tmp_path / "Ben's copy.xlsx"
    shutil.copy(base_file, ana)
    shutil.copy(base_file, ben)
    edit_grades(ana, {(q, s[0]): 2, (q, s[1]): 1})
    edit_grades(ben, {(q, s[0]): 2, (q, s[1]): 3, (q, s[2]): 0})
    report = tmp_path / "MERGE.json"
    code, text = run("merge", base_file, ana, ben, "-o", tmp_path / "merged.xlsx",
                     "--report", report)
    assert code == 0, text
    data = json.loads(report.read_text())
    assert (data["changes_found"], data["taken"], data["identical"]) == (5, 2, 1)
    (conflict,) = data["conflicts"]
    assert (conflict["query"], conflict["source_id"]) == (q, s[1])
    assert conflict["values"] == {"base-ana": 1.0, "Ben's copy": 3.0}  # named by the files
    assert data["refused"] == []
    merged = read_workbook(tmp_path / "merged.xlsx")
    assert merged.grade[row(merged, q, s[0])] == 2.0
    assert merged.state[row(merged, q, s[1])] == GradeState.UNKNOWN  # open conflict
    assert merged.grade[row(merged, q, s[2])] == 0.0
    assert "1 conflict left open" in text
    # --as-ratings: the copies' grades are ratings, the grade their consensus (mean)
    code, text = run("merge", base_file, ana, ben, "-o", tmp_path / "rated.xlsx",
                     "--as-ratings")
    assert code == 0, text
    rated = read_workbook(tmp_path / "rated.xlsx")
    assert rated.annotators[-2:] == ["base-ana", "Ben's copy"]
    assert rated.grade[row(rated, q, s[1])] == 2.0  # the mean of 1 and 3
    assert rated.assignment is not None
    assert rated.assignment.conflicts == ()


def test_merge_fails_when_nothing_could_be_taken(base_file: Path, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    other = tmp_path / "other.xlsx"  # one query more than the base: no copy of it
    export_workbook(evaluate(base_doc([2, 2, 2, 2, 2, 2, 2], seed=3)), other)
    code, _ = run("merge", base_file, other, "-o", tmp_path / "m.xlsx")
    err = capsys.readouterr().err
    assert code == 2
    assert "nothing merged, nothing written: every returned workbook was refused: " \
           "other.xlsx: it is not a copy of this base" in err
    assert len(err.strip().splitlines()) == 1
    assert not (tmp_path / "m.xlsx").exists()


def test_an_older_base_and_a_newer_copy_of_the_same_edits_merge_as_one(tmp_path: Path) -> None:
    """A base graded on a candidate whose query and source are literally
    named "—" (the placeholder of a change of conventions), kept in an older
    workbook (audit entries of 9 fields: that entry is read as a change of
    conventions) and in a newer one (10 fields: a grade's), mailed to a
    reviewer who grades one more in Excel: merged, the lead's entry is the
    base's (logged once, not the reviewer's: the copy is named by its file
    and counted with one graded of two sent unknown)."""
    from core.analysis.rounds import Returned, merge
    from core.model.convention_log import CONVENTION_ENTRY as DASH

    doc = Document.from_columns(query=[DASH, DASH, "q"], source_id=[DASH, "x", "y"],
                                score=[3.0, 2.0, 1.0], grade=[None, None, None])
    doc.set_grade(0, 2.0, who="lead")
    new, old, copy = tmp_path / "new.xlsx", tmp_path / "old.xlsx", tmp_path / "copy.xlsx"
    export_workbook(evaluate(doc), new)
    _tamper(new, old, lambda m: m.__setitem__("audit", [e[:9] for e in m["audit"]]))
    assert read_workbook(old).audit[0].convention  # (as an older workbook reads)
    assert not read_workbook(new).audit[0].convention
    edit_grades(new, {("q", "y"): 1}, dst=copy)
    base = read_workbook(old)
    result = merge(base, [Returned(copy.name, read_workbook(copy))], who="me", when=WHEN)
    assert [(e.who, e.source_id, e.origin) for e in result.document.audit] == [
        ("lead", DASH, "app"), ("copy", "y", OUTSIDE_ORIGIN), ("me", "y", MERGE_ORIGIN)]
    (count,) = result.reviewers
    assert (count.reviewer, count.assigned, count.graded, count.changes) == ("copy", 2, 1, 1)


def test_a_round_split_from_a_run_and_its_qrels_is_merged_against_them(tmp_path: Path) -> None:
    """split takes a TREC run with --qrels as its base; merge had no --qrels,
    and the same run as BASE was refused ("this looks like a TREC run file
    (name its judgments with --qrels QRELS)"): a round handed out from a run
    could not come back without first exporting the base to a workbook. merge
    now takes --qrels as split does (fails before)."""
    run_file = tmp_path / "run.txt"
    run_file.write_text("".join(f"q{q} Q0 d{d} {d + 1} {10 - d} t\n"
                                for q in (1, 2) for d in range(4)))
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("q1 0 d0 2\nq1 0 d2 0\nq2 0 d1 1\n")  # d1, d3 of q1 and three of q2 unknown
    books = split(run_file, tmp_path / "round", "--qrels", qrels)
    ana = read_workbook(books["ana"])
    q = ana.query_ids[0]
    edit_grades(books["ana"], {(q, unknown_of(ana, q)[0]): 3})
    code, text = run("merge", run_file, books["ana"], books["ben"], "--qrels", qrels,
                     "-o", tmp_path / "merged.xlsx")
    assert code == 0, text
    merged = read_workbook(tmp_path / "merged.xlsx")
    i = next(i for i in merged.members(merged.query_index(q)).tolist()
             if str(merged.source_id[i]) == unknown_of(ana, q)[0])
    assert (merged.grade[i], merged.state[i]) == (3.0, GradeState.NUMBER)
    assert np.isnan(merged.original_grade[i])  # unknown in the base, as handed out


def test_merge_again_never_replaces_a_merged_workbook_someone_worked_on(
        base_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """merge -o over a merged workbook whose conflict the lead resolved
    replaced it without a word, the resolution lost. A merged workbook still
    as merge wrote it is written again (its reviewer's added column carried
    as before); one resolved in the editor, graded in a spreadsheet, given a
    sheet, or no merged workbook at all is refused in one line naming it and
    what to do, nothing written; --replace replaces it."""
    from core.io.workbook.additions import additions_to_keep
    from core.model.edits import GradeValue, SetGrades
    from core.session import Worksheet

    books, cara, ben = _two_rounds(base_file, tmp_path)
    q = ben.query_ids[0]
    x, y = unknown_of(ben, q)[:2]
    edit_grades(books["ben"], {(q, x): 0})
    edit_grades(cara, {(q, x): 2})
    wb = openpyxl.load_workbook(books["ben"])
    wb[SHEETS["candidates"]]["AC1"] = "ben's doubts"
    wb.save(books["ben"])
    merged = tmp_path / "merged.xlsx"
    merge = ("merge", base_file, books["ben"], cara, "-o", merged)
    assert run(*merge)[0] == 0
    assert run(*merge)[0] == 0  # as merge wrote it (ben's column in it): written again
    written = read_workbook(merged)
    # the lead resolves the conflict in the editor (ben's grade) and saves
    sheet = Worksheet(written)
    sheet.apply(SetGrades.of([row(written, q, x)], [GradeValue(0.0, GradeState.NUMBER)],
                             who="lead", text="resolve"))
    export_workbook(sheet.evaluation, merged, keep=additions_to_keep(merged))
    kept = merged.read_bytes()
    capsys.readouterr()
    code, _ = run(*merge)
    assert code == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"ndcg-worksheet: error: not replaced, so that no one's work is lost: {merged} was "
        "edited since it was merged (its audit log or notes changed) (write to another file "
        "with -o, or add --replace to replace it, losing that work)")
    assert merged.read_bytes() == kept
    # a grade typed in LibreOffice, a sheet added: work too
    run("merge", base_file, books["ben"], cara, "-o", merged, "--replace")
    edit_grades(merged, {(q, y): 1})
    assert run(*merge)[0] == 2
    assert f"{merged} was edited since it was merged" in capsys.readouterr().err
    run("merge", base_file, books["ben"], cara, "-o", merged, "--replace")
    wb = openpyxl.load_workbook(merged)
    wb.create_sheet("Lead's notes")["A1"] = "ask ben about x"
    wb.save(merged)
    assert run(*merge)[0] == 2
    assert (f"{merged} holds what was added since it was merged (sheet \"Lead's notes\")"
            in capsys.readouterr().err)
    # --replace replaces it: the conflict open again, the lead's sheet gone
    code, _ = run(*merge, "--replace")
    assert code == 0
    again = read_workbook(merged)
    assert again.state[row(again, q, x)] == GradeState.UNKNOWN
    assert not read_additions_of(merged).sheets
    # a workbook merge did not write is not replaced either
    other = tmp_path / "other.xlsx"
    export_workbook(evaluate(base_doc([2])), other)
    assert run("merge", base_file, books["ben"], cara, "-o", other)[0] == 2
    assert f"{other} is not a workbook merge wrote" in capsys.readouterr().err


def read_additions_of(path: Path) -> Any:
    from core.io.workbook.additions import read_additions

    return read_additions(path)


def notes_on_both_sides(base_file: Path, copy: Path) -> tuple[str, str]:
    """A copy of the workbook ``base_file`` mailed as ``copy``; then the lead
    writes "check the date" on an unknown candidate of the first query in
    ``base_file``, and the reviewer types "page moved" on the same one in
    the copy's Candidates sheet (openpyxl, as a spreadsheet saves it): a
    note changed on both sides since. Returns its query and source."""
    import shutil

    from core.model.edits import SetNotes
    from core.session import Worksheet

    shutil.copy(base_file, copy)
    base = read_workbook(base_file)
    q = base.query_ids[0]
    s = unknown_of(base, q)[0]
    session = Worksheet(base)
    session.apply(SetNotes.of([row(base, q, s)], ["check the date"], who="lead"))
    export_workbook(session.evaluation, base_file)
    wb = openpyxl.load_workbook(copy)
    ws = wb[SHEETS["candidates"]]
    (r,) = [r for r in range(2, ws.max_row + 1) if (ws[f"A{r}"].value, ws[f"B{r}"].value) == (q, s)]
    ws[f"H{r}"].value = "page moved"
    wb.save(copy)
    return q, s


def test_a_note_changed_in_a_copy_and_by_the_lead_since_is_a_conflict(
        base_file: Path, tmp_path: Path) -> None:
    """The lead writes a note after mailing a copy; the reviewer types
    another on the same candidate in her spreadsheet: merge reports a note
    conflict (the line, MERGE.json) and keeps both in the merged note; the
    reviewer's note had replaced the lead's without a word (fails before)."""
    ana = tmp_path / "base-ana.xlsx"
    q, s = notes_on_both_sides(base_file, ana)
    report = tmp_path / "MERGE.json"
    code, text = run("merge", base_file, ana, "-o", tmp_path / "merged.xlsx", "--report", report)
    assert code == 0, text
    assert f"  note conflict, query {q}, source {s}: lead, base-ana: both kept" in text
    assert "; 1 note conflict (both notes kept, joined)" in text.splitlines()[0]
    assert json.loads(report.read_text())["note_conflicts"] == [{
        "query": q, "source_id": s, "base": {"who": "lead", "note": "check the date"},
        "values": {"base-ana": "page moved"}}]
    merged = read_workbook(tmp_path / "merged.xlsx")
    assert merged.note[row(merged, q, s)] == "lead: check the date | base-ana: page moved"


def test_a_note_conflict_is_kept_in_the_merged_workbook_and_stays_resolved(
        base_file: Path, tmp_path: Path) -> None:
    """The merged workbook keeps its note conflict with the round (it was in
    MERGE.json only: nothing to resolve it by, fails before); merge's line
    says where to resolve it; the note set to one side's and saved, it reads
    resolved on reopen (and open again when the merged note is put back)."""
    import shutil

    from core.analysis.rounds import note_conflict_status, open_note_conflicts
    from core.model.assignment import NoteConflict
    from core.model.edits import SetNotes
    from core.session import Worksheet

    ana = tmp_path / "base-ana.xlsx"
    shutil.copy(base_file, ana)
    base = read_workbook(base_file)
    q = base.query_ids[0]
    s = unknown_of(base, q)[0]
    Worksheet(base).apply(SetNotes.of([row(base, q, s)], ["check the date"], who="lead"))
    export_workbook(evaluate(base), base_file)
    doc = read_workbook(ana)
    Worksheet(doc).apply(SetNotes.of([row(doc, q, s)], ["page moved\nsee the new one"],
                                     who="ana"))
    export_workbook(evaluate(doc), ana)
    out = tmp_path / "merged.xlsx"
    code, text = run("merge", base_file, ana, "-o", out)
    assert code == 0, text
    assert (f"  note conflict, query {q}, source {s}: lead, ana: both kept in the merged "
            "note, each labelled; resolve it in the editor (Review > Conflicts)") in text
    merged = read_workbook(out)
    assert merged.assignment is not None
    (c,) = merged.assignment.note_conflicts
    assert c == NoteConflict(q, s, "check the date", "lead",
                             (("ana", "page moved\nsee the new one"),))
    assert note_conflict_status(merged, c) == "open"
    Worksheet(merged).apply(SetNotes.of([row(merged, q, s)], [c.values[0][1]], who="lead",
                                        why="note conflict resolved: ana's note"))
    export_workbook(evaluate(merged), out)
    again = read_workbook(out)
    assert again.assignment is not None
    assert again.assignment.note_conflicts == (c,)
    assert note_conflict_status(again, c) == "ana"
    assert open_note_conflicts(again) == []
    assert again.audit[-1].note == "note conflict resolved: ana's note"
    Worksheet(again).apply(SetNotes.of([row(again, q, s)], [c.kept_both], who="lead"))
    export_workbook(evaluate(again), out)
    assert note_conflict_status(read_workbook(out), c) == "both"
