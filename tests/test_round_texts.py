"""A query's text a reviewer fixed in their hand-out comes back with the
merge (core.analysis.rounds.texts): taken where only the hand-out changed
it (the audit saying so), a conflict where the base changed it too since,
or reviewers changed it differently (the merged text joining every
version, each labelled, until one side's is taken: one undoable edit).
Before, the merge kept the base's texts and dropped the reviewers' fixes
unsaid."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.analysis.rounds import (
    MERGE_ORIGIN,
    Returned,
    merge,
    open_text_conflicts,
    text_conflict_status,
    text_resolutions,
)
from core.engine.evaluation import evaluate
from core.io.workbook import export_workbook, read_workbook
from core.model.assignment import Assignment, Share, TextConflict
from core.model.edits import SetQueryText
from core.reports.sentences import audit_sentence
from core.session import Worksheet
from tests.test_rounds import WHEN, base_doc, copy_of, hand_out

TYPO = "How do I renw a pasport?"
FIXED = "How do I renew a passport?"


def _base():  # type: ignore[no-untyped-def]
    doc = base_doc([2, 2], seed=3)
    doc.query_texts = {"q00": TYPO, "q01": "Where is the form?"}
    return doc


def _fix(doc, query: str, text: str, who: str) -> None:  # type: ignore[no-untyped-def]
    Worksheet(doc).apply(SetQueryText(doc.query_index(query), text, who=who))


def _shares(doc, overlap: float = 0.0):  # type: ignore[no-untyped-def]
    _, shares = hand_out(doc, ["ana", "ben"], overlap=overlap)
    return shares


def _holder(shares, query: str) -> str:  # type: ignore[no-untyped-def]
    return next(who for who, d in shares.items() if query in d.query_ids)


def test_a_hand_out_records_the_texts_it_handed_out() -> None:
    shares = _shares(_base())
    who = _holder(shares, "q00")
    a = shares[who].assignment
    assert a is not None
    assert dict(a.handed_texts or ()) == {q: t for q, t in _base().query_texts.items()
                                          if q in shares[who].query_ids}
    assert Assignment.from_dict(a.to_dict()) == a
    older = a.to_dict()
    del older["handed_texts"]
    assert Assignment.from_dict(older).handed_texts is None


def test_a_text_fixed_in_the_hand_out_alone_is_taken_and_logged() -> None:
    base = _base()
    shares = _shares(base)
    who = _holder(shares, "q00")
    _fix(shares[who], "q00", FIXED, who)
    result = merge(base, [Returned(f"{w}.xlsx", d) for w, d in shares.items()],
                   who="lead", when=WHEN)
    m = result.document
    assert m.query_texts == {"q00": FIXED, "q01": "Where is the form?"}
    assert base.query_texts["q00"] == TYPO  # (the base is not changed)
    assert result.texts_taken == ("q00",)
    assert result.text_conflicts == ()
    assert result.summary().endswith("; 1 query text taken")
    assert result.to_dict()["texts_taken"] == ["q00"]
    (entry,) = [e for e in m.audit if e.about_text]
    assert (entry.who, entry.query, entry.before, entry.after, entry.origin, entry.note) == (
        "lead", "q00", f"text: {TYPO}", f"text: {FIXED}", MERGE_ORIGIN,
        f"text taken from {who}")
    assert audit_sentence([entry]) == "1 change recorded: 1 of a query's text: see the Audit sheet."


def test_a_text_the_base_changed_since_is_kept_where_the_reviewer_left_it() -> None:
    base = _base()
    shares = _shares(base)
    later = copy_of(base)
    _fix(later, "q00", "How do I renew my passport?", "lead")
    result = merge(later, [Returned(f"{w}.xlsx", d) for w, d in shares.items()],
                   who="lead", when=WHEN)
    assert result.document.query_texts["q00"] == "How do I renew my passport?"
    assert (result.texts_taken, result.text_conflicts) == ((), ())


def test_a_text_changed_on_both_sides_is_a_conflict_settled_by_one_sides_text(
        tmp_path: Path) -> None:
    base = _base()
    shares = _shares(base)
    who = _holder(shares, "q00")
    _fix(shares[who], "q00", FIXED, who)
    later = copy_of(base)
    _fix(later, "q00", "How do I renew my passport?", "lead")
    result = merge(later, [Returned(f"{w}.xlsx", d) for w, d in shares.items()],
                   who="lead", when=WHEN)
    m = result.document
    c = TextConflict("q00", "How do I renew my passport?", True, ((who, FIXED),))
    assert result.text_conflicts == (c,)
    assert m.assignment is not None
    assert m.assignment.text_conflicts == (c,)
    assert m.query_texts["q00"] == c.merged == (
        f"base: How do I renew my passport? | {who}: {FIXED}")
    assert result.summary().endswith("; 1 text conflict (every text kept, joined)")
    assert result.to_dict()["text_conflicts"] == [{
        "query": "q00", "base": "How do I renew my passport?", "base_changed": True,
        "values": {who: FIXED}}]
    (entry,) = [e for e in m.audit if e.about_text]
    assert entry.note == f"text conflict: query q00's text: base, {who}"
    assert text_conflict_status(m, c) == "open"
    assert open_text_conflicts(m) == [c]
    # kept with the round in the workbook, the audit entry too
    book = tmp_path / "merged.xlsx"
    export_workbook(evaluate(m), book)
    back = read_workbook(book)
    assert back.assignment == m.assignment
    assert [e for e in back.audit if e.about_text] == [entry]
    # Keep mine (the base's), Keep theirs (the reviewer's): one step each, undone
    mine, theirs = text_resolutions(c)
    assert [(r.label, r.query_text) for r in (mine, theirs)] == [
        ("base", "How do I renew my passport?"), (who, FIXED)]
    session = Worksheet(m)
    session.apply(SetQueryText(m.query_index("q00"), theirs.query_text, who="lead"))
    assert text_conflict_status(m, c) == who
    session.undo()
    assert text_conflict_status(m, c) == "open"
    session.apply(SetQueryText(m.query_index("q00"), mine.query_text, who="lead"))
    assert text_conflict_status(m, c) == "base"
    assert open_text_conflicts(m) == []
    session.apply(SetQueryText(m.query_index("q00"), "Another?", who="lead"))
    assert text_conflict_status(m, c) == "changed"


def test_two_reviewers_different_texts_are_a_conflict_of_theirs() -> None:
    base = _base()
    shares = _shares(base, overlap=1.0)
    assert all("q00" in d.query_ids for d in shares.values())
    _fix(shares["ana"], "q00", FIXED, "ana")
    _fix(shares["ben"], "q00", "How to renew a passport?", "ben")
    result = merge(base, [Returned(f"{w}.xlsx", d) for w, d in shares.items()],
                   who="lead", when=WHEN)
    (c,) = result.text_conflicts
    assert (c.base, c.base_changed, c.values) == (
        TYPO, False, (("ana", FIXED), ("ben", "How to renew a passport?")))
    assert [r.label for r in text_resolutions(c)] == ["ana", "ben"]
    # the same fix from both: taken once
    _fix(shares["ben"], "q00", FIXED, "ben")
    result = merge(base, [Returned(f"{w}.xlsx", d) for w, d in shares.items()],
                   who="lead", when=WHEN)
    assert (result.texts_taken, result.text_conflicts) == (("q00",), ())
    assert [e.note for e in result.document.audit if e.about_text] == [
        "text taken from ana, ben"]


@pytest.mark.parametrize("recorded", [False, True])
def test_without_the_texts_handed_out_a_different_text_is_a_conflict_with_the_base(
        recorded: bool) -> None:
    """A copy of the base (no hand-out), or a hand-out made before the texts
    were recorded: which side changed a text cannot be told, so it is never
    taken over the base's."""
    base = _base()
    if recorded:
        sent = copy_of(base)
        _fix(sent, "q01", "Where is the new form?", "bea")
        returned = [Returned("bea.xlsx", sent)]
    else:
        shares = _shares(base)
        who = _holder(shares, "q01")
        d = shares[who]
        assert d.assignment is not None
        d.assignment = Assignment(d.assignment.base_id, d.assignment.base_name,
                                  d.assignment.when, d.assignment.shares, d.assignment.overlap)
        _fix(d, "q01", "Where is the new form?", who)
        returned = [Returned(f"{who}.xlsx", d)]
    result = merge(base, returned, who="lead", when=WHEN)
    (c,) = result.text_conflicts
    assert (c.base, c.base_changed) == ("Where is the form?", True)
    assert c.values[0][1] == "Where is the new form?"
    assert result.texts_taken == ()


def test_a_merged_round_merged_again_keeps_its_text_conflicts() -> None:
    base = _base()
    shares = _shares(base, overlap=1.0)
    _fix(shares["ana"], "q00", FIXED, "ana")
    _fix(shares["ben"], "q00", "How to renew a passport?", "ben")
    m = merge(base, [Returned(f"{w}.xlsx", d) for w, d in shares.items()], who="lead",
              when=WHEN).document
    assert m.assignment is not None
    again = merge(m, [Returned("m.xlsx", copy_of(m))], who="lead", when=WHEN).document
    assert again.assignment is not None
    assert again.assignment.text_conflicts == m.assignment.text_conflicts
    assert "text_conflicts" not in Assignment("b", "b.xlsx", WHEN, (Share("ana", ("q",)),),
                                              ).to_dict()


def _text_cell(path: Path, query: str) -> str:
    """The Queries sheet's text cell of ``query``'s first row (``R<n>``)."""
    import openpyxl

    from core.io.workbook import SHEETS
    from core.io.workbook.layout import QUERY_TEXT_COLUMN

    ws = openpyxl.load_workbook(path, read_only=True)[SHEETS["queries"]]
    for n, cells in enumerate(ws.iter_rows(values_only=True), start=1):
        if cells[0] == query:
            return f"{chr(ord('A') + QUERY_TEXT_COLUMN)}{n}"
    raise AssertionError(f"no row of {query}")


@pytest.mark.libreoffice
def test_a_text_fixed_in_a_hand_out_saved_by_libreoffice_is_merged(tmp_path: Path) -> None:
    """Hand-outs written as .xlsx and .ods, the reviewer's fix typed in the
    Queries sheet's text column in LibreOffice (through UNO) and saved: the
    merge takes it from either, the audit saying so; the base's own rewrite
    since makes the other a conflict, both versions joined."""
    from core.analysis.rounds import reviewer_document
    from core.io.rounds import read_returned
    from tests.libreoffice import edit

    base = _base()
    p, _ = hand_out(base, ["ana", "ben"])
    ev = evaluate(base)
    jobs = []
    for who, suffix in (("ana", ".xlsx"), ("ben", ".ods")):
        mine = reviewer_document(base, ev, p, who)
        query = mine.query_ids[0]
        src = tmp_path / f"{who}-sent.xlsx"  # (the cell found in an .xlsx of the same rows)
        export_workbook(evaluate(mine), src)
        cell = _text_cell(src, query)
        sent = tmp_path / f"{who}-sent{suffix}"
        if suffix == ".ods":
            export_workbook(evaluate(mine), sent)
        jobs.append((sent, tmp_path / f"{who}{suffix}", [
            {"op": "set", "sheet": "Queries", "cell": cell, "value": f"{who} fixed {query}"}]))
    paths = edit(jobs)
    returned = [Returned(name, doc) for name, doc in read_returned(paths)]
    fixed = {doc.query_ids[0]: f"{name.split('.')[0]} fixed {doc.query_ids[0]}"
             for name, doc in read_returned(paths)}
    result = merge(base, returned, who="lead", when=WHEN)
    assert result.text_conflicts == ()
    assert sorted(result.texts_taken) == sorted(fixed)
    assert {q: result.document.query_texts[q] for q in fixed} == fixed
    assert sorted(e.after for e in result.document.audit if e.about_text) == sorted(
        f"text: {t}" for t in fixed.values())
    # the lead rewrote ana's query meanwhile: a conflict, the base's first
    later = copy_of(base)
    ana_query = next(q for q, t in fixed.items() if t.startswith("ana"))
    _fix(later, ana_query, "The lead's question?", "lead")
    result = merge(later, returned, who="lead", when=WHEN)
    (c,) = result.text_conflicts
    assert c.sides == (("base", "The lead's question?"), ("ana", fixed[ana_query]))
    assert result.document.query_texts[ana_query] == c.merged


def test_a_text_conflict_settled_is_journaled_with_its_audit_entry(tmp_path: Path) -> None:
    """Kept by the crash journal: the text and the audit entry of the choice
    (and of its undo) replayed; a text fixed by hand logs none still."""
    from core.io.journal import Journal

    base = _base()
    shares = _shares(base, overlap=1.0)
    _fix(shares["ana"], "q00", FIXED, "ana")
    _fix(shares["ben"], "q00", "How to renew a passport?", "ben")
    m = merge(base, [Returned(f"{w}.xlsx", d) for w, d in shares.items()], who="lead",
              when=WHEN).document
    book = tmp_path / "merged.xlsx"
    export_workbook(evaluate(m), book)
    session = Worksheet(read_workbook(book))
    journal = Journal(book, directory=tmp_path / "journal")
    session.subscribe(lambda c: None if c.empty else journal.record(session.document, c))
    why = f"text conflict resolved: ana's text: {FIXED}"
    session.apply(SetQueryText(0, FIXED, who="lead", why=why))
    session.undo()
    session.redo()
    session.apply(SetQueryText(1, "Where is the new form?", who="lead"))
    logged = [e for e in session.document.audit if e.about_text][-3:]
    assert [e.note for e in logged] == [why, f"undo of {why}", f"redo: {why}"]
    fresh = read_workbook(book)
    result = journal.replay(fresh, None)
    assert (result.applied, result.skipped) == (4, [])
    assert fresh.query_texts == session.document.query_texts
    assert [e for e in fresh.audit if e.about_text][-3:] == logged
