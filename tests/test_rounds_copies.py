"""Review rounds without a split: copies of the base sent whole to colleagues
and merged back (whole-base shares, the audit log a copy adds to, grades and
notes the base gained after sending never reverted, note conflicts of two and
three versions kept, copies as ratings, a copy named by its one reviewer or
its file). Hand-outs, split rounds and their merges: tests/test_rounds.py."""

from __future__ import annotations

import numpy as np

from core.analysis.consensus import consensus
from core.analysis.rounds import (
    BOTH,
    MERGE_ORIGIN,
    NoteConflict,
    Returned,
    merge,
    note_conflict_status,
    note_edit_kept,
    note_resolutions,
    open_note_conflicts,
)
from core.model.assignment import Assignment, Share
from core.model.document import Document, GradeState
from core.model.edits import SetNotes
from core.session import Worksheet
from tests.test_rounds import (
    WHEN,
    assert_counts_add_up,
    base_doc,
    copy_of,
    grade,
    hand_out,
    row,
    unknown_sources,
)


def test_two_copies_of_the_base_merge_as_whole_base_shares():
    doc = base_doc([3, 2], seed=11)
    ana, ben = copy_of(doc), copy_of(doc)
    a1, a2, a3 = unknown_sources(doc, "q00")
    (b1, _b2) = unknown_sources(doc, "q01")
    grade(ana, "q00", a1, 2.0, "ana")  # both give 2: taken once, identical once
    grade(ben, "q00", a1, 2.0, "ben")
    grade(ana, "q00", a2, 1.0, "ana")  # 1 against 3: a conflict
    grade(ben, "q00", a2, 3.0, "ben")
    grade(ana, "q01", b1, 0.0, "ana")  # ana alone
    grade(ben, "q00", a3, None, "ben", GradeState.UNRATEABLE, "broken link")  # ben alone
    # the base is graded further after the copies went out: a copy never reverts that
    later = copy_of(doc)
    later.set_grade(row(later, "q01", b1), 3.0, who="lead")
    result = merge(later, [Returned("ana-copy.xlsx", ana), Returned("ben-copy.xlsx", ben)],
                   who="lead", when=WHEN, base_name="base.xlsx")
    assert result.refused == ()
    assert (result.taken, result.identical, len(result.conflicts)) == (2, 1, 2)
    assert result.changes_found == 6
    assert_counts_add_up(result)
    c, moved = result.conflicts
    assert (c.query, c.source_id, c.base.text) == ("q00", a2, "unknown")
    assert [(g.reviewer, g.text) for g in c.values] == [("ana", "1"), ("ben", "3")]
    # ana graded b1 0 in her copy; the lead graded it 3 after sending: ana's
    # grade is no revert of the lead's, and no silent overwrite of it either
    assert (moved.query, moved.source_id, moved.base.text) == ("q01", b1, "3")
    assert [(g.reviewer, g.text) for g in moved.values] == [("ana", "0")]
    m = result.document
    assert m.grade[row(m, "q00", a1)] == 2.0
    assert m.state[row(m, "q00", a2)] == GradeState.UNKNOWN  # the conflict keeps the base's
    assert m.state[row(m, "q00", a3)] == GradeState.UNRATEABLE
    assert m.grade[row(m, "q01", b1)] == 3.0  # the conflict keeps the base's newer grade
    assert m.assignment is not None
    assert [s.reviewer for s in m.assignment.shares] == ["ana", "ben"]
    assert all(s.queries == ("q00", "q01") for s in m.assignment.shares)
    counts = {r.reviewer: (r.assigned, r.graded, r.changes) for r in result.reviewers}
    assert counts == {"ana": (5, 3, 3), "ben": (5, 3, 3)}  # of the 5 unknown when sent


def test_a_copy_logs_only_the_entries_the_base_lacks():
    """The base's entries a copy carries are logged once, as the base's."""
    doc = base_doc([3], seed=11)
    s1, s2, _s3 = unknown_sources(doc, "q00")
    grade(doc, "q00", s1, 2.0, "lead")  # before the copy was sent
    ana = copy_of(doc)
    grade(ana, "q00", s2, 1.0, "ana")
    log = merge(doc, [Returned("ana-copy.xlsx", ana)], who="me", when=WHEN).document.audit
    assert [(e.who, e.source_id, e.origin) for e in log] == [
        ("lead", s1, "app"), ("ana", s2, "app"), ("me", s2, MERGE_ORIGIN)]


def test_a_copy_never_reverts_grades_the_base_gained_after_sending():
    doc = base_doc([2], seed=12)
    ana = copy_of(doc)
    s1, s2 = unknown_sources(doc, "q00")
    grade(ana, "q00", s1, 1.0, "ana")
    later = copy_of(doc)
    later.set_grade(row(later, "q00", s2), 3.0, who="lead")  # ana's copy still says unknown
    result = merge(later, [Returned("ana.xlsx", ana)], who="lead", when=WHEN)
    m = result.document
    assert (result.changes_found, result.taken) == (1, 1)
    assert m.grade[row(m, "q00", s1)] == 1.0
    assert m.grade[row(m, "q00", s2)] == 3.0


def test_a_note_written_in_a_copy_before_its_grade_is_no_grade_sent():
    """A copy's first entry of a candidate is its note's ("no note" to
    "note: ..."): the grade it was sent with is the grade entry's before,
    else the reviewer's grade of an unknown candidate became a conflict with
    the base (base unknown, unchanged) and was not counted as graded."""
    doc = base_doc([2], seed=12)
    ana = copy_of(doc)
    s1, _s2 = unknown_sources(doc, "q00")
    i = row(ana, "q00", s1)
    Worksheet(ana).apply(SetNotes.of([i], ["the link was slow"], who="ana"))
    grade(ana, "q00", s1, 1.0, "ana")
    result = merge(doc, [Returned("ana.xlsx", ana)], who="lead", when=WHEN)
    assert (result.taken, result.conflicts) == (1, ())
    m = result.document
    assert (m.grade[row(m, "q00", s1)], m.note[row(m, "q00", s1)]) == (1.0, "the link was slow")
    assert [(r.assigned, r.graded, r.changes) for r in result.reviewers] == [(2, 1, 1)]


def _notes_sent_then_rewritten(
) -> tuple[Document, Document, dict[str, Document], Document, tuple[str, str, str, str]]:
    """A base whose four unknown candidates of q00 and q01 carry the note
    "as sent", copied to ana whole and handed out to ben and cara; then the
    lead rewrites two of the notes (q00's first, q01's first) in a copy of
    the base. Returns the base (handed out), ana's copy, the shares, the
    lead's copy and the sources (q00's two, q01's two)."""
    doc = base_doc([2, 2], seed=12)
    s1, s2 = unknown_sources(doc, "q00")
    t1, t2 = unknown_sources(doc, "q01")
    for q, s in (("q00", s1), ("q00", s2), ("q01", t1), ("q01", t2)):
        doc.set_note(row(doc, q, s), "as sent")
    ana = copy_of(doc)
    _, shares = hand_out(doc, ["ben", "cara"])
    later = copy_of(doc)
    Worksheet(later).apply(SetNotes.of([row(later, q, s) for q, s in (
        ("q00", s1), ("q01", t1))], ["the lead's"], who="lead"))
    return doc, ana, shares, later, (s1, s2, t1, t2)


def test_a_returned_workbook_never_reverts_a_note_the_base_gained_after_sending():
    """The lead rewrites a note after the copy (or the share) went out; the
    reviewer leaves it: the merge keeps the lead's newer note (the copy's
    old note had replaced it), and takes a note the reviewer did change."""
    _, ana, shares, later, (s1, s2, t1, t2) = _notes_sent_then_rewritten()
    Worksheet(ana).apply(SetNotes.of([row(ana, "q00", s2)], ["ana's"], who="ana"))
    m = merge(later, [Returned("ana.xlsx", ana)], who="lead", when=WHEN).document
    assert [m.note[row(m, "q00", s)] for s in (s1, s2)] == ["the lead's", "ana's"]
    ben = next(d for d in shares.values() if "q01" in d.query_ids)
    Worksheet(ben).apply(SetNotes.of([row(ben, "q01", t2)], ["ben's"], who="ben"))
    m = merge(later, [Returned("ben.xlsx", ben)], who="lead", when=WHEN).document
    assert [m.note[row(m, "q01", t)] for t in (t1, t2)] == ["the lead's", "ben's"]


def test_a_note_changed_on_both_sides_since_the_split_is_a_conflict_both_kept():
    """The lead rewrites a note after the copy (or the share) went out and
    the reviewer changes it too: a note conflict, reported as a grade's
    (the summary, MERGE.json), the merged note holding both, labelled, the
    lead's first; the reviewer's note alone had replaced the lead's newer
    one, no conflict (fails before). A note only one side changed is no
    conflict; two reviewers' different notes are one."""
    doc, ana, shares, later, (s1, s2, t1, t2) = _notes_sent_then_rewritten()
    Worksheet(ana).apply(SetNotes.of([row(ana, "q00", s) for s in (s1, s2)],
                                     ["ana's", "ana's only"], who="ana"))
    result = merge(later, [Returned("ana.xlsx", ana)], who="lead", when=WHEN)
    m = result.document
    assert [m.note[row(m, "q00", s)] for s in (s1, s2)] == [
        "lead: the lead's | ana: ana's", "ana's only"]
    assert result.note_conflicts == (
        NoteConflict("q00", s1, "the lead's", "lead", (("ana", "ana's"),)),)
    assert result.summary().endswith("; 1 note conflict (both notes kept, joined)")
    assert result.to_dict()["note_conflicts"] == [{
        "query": "q00", "source_id": s1, "base": {"who": "lead", "note": "the lead's"},
        "values": {"ana": "ana's"}}]
    assert result.conflicts == ()  # (the grades' conflicts)
    who, share = next((k, d) for k, d in shares.items() if "q01" in d.query_ids)
    Worksheet(share).apply(SetNotes.of([row(share, "q01", t) for t in (t1, t2)], ["theirs"],
                                       who=who))
    result = merge(later, [Returned(f"{who}.xlsx", share)], who="lead", when=WHEN)
    m = result.document
    assert [m.note[row(m, "q01", t)] for t in (t1, t2)] == [
        f"lead: the lead's | {who}: theirs", "theirs"]
    assert [(c.query, c.source_id, c.base_who, c.values) for c in result.note_conflicts] == [
        ("q01", t1, "lead", ((who, "theirs"),))]
    # two copies' different notes of one candidate (the base's unchanged): a
    # note conflict too, as two different grades are (they were joined unsaid)
    bea = copy_of(doc)
    Worksheet(bea).apply(SetNotes.of([row(bea, "q00", s2)], ["bea's"], who="bea"))
    result = merge(doc, [Returned("ana.xlsx", ana), Returned("bea.xlsx", bea)], who="lead",
                   when=WHEN)
    m = result.document
    assert m.note[row(m, "q00", s2)] == "ana: ana's only | bea: bea's"
    assert result.note_conflicts == (
        NoteConflict("q00", s2, "as sent", "", (("ana", "ana's only"), ("bea", "bea's"))),)
    assert result.note_conflicts[0].said == f"query q00, source {s2}: ana, bea"


def test_a_note_conflict_of_three_versions_says_all_three_are_kept():
    """The lead rewrites a note after two copies went out, and both
    reviewers change it, differently: three versions, all kept in the merged
    note, and said so (the summary, merge's line and the resolution read
    "both" whatever their number: fails before)."""
    doc = base_doc([2], seed=12)
    s1, _ = unknown_sources(doc, "q00")
    doc.set_note(row(doc, "q00", s1), "as sent")
    copies = {who: copy_of(doc) for who in ("ana", "bea")}
    for who, mine in copies.items():
        Worksheet(mine).apply(SetNotes.of([row(mine, "q00", s1)], [f"{who}'s"], who=who))
    later = copy_of(doc)
    Worksheet(later).apply(SetNotes.of([row(later, "q00", s1)], ["the lead's"], who="lead"))
    result = merge(later, [Returned(f"{w}.xlsx", d) for w, d in copies.items()], who="lead",
                   when=WHEN)
    (c,) = result.note_conflicts
    assert c.sides == (("lead", "the lead's"), ("ana", "ana's"), ("bea", "bea's"))
    assert result.document.note[row(result.document, "q00", s1)] == (
        "lead: the lead's | ana: ana's | bea: bea's")
    assert c.every == "all 3"
    assert result.summary().endswith("; 1 note conflict (all notes kept, joined)")
    assert note_resolutions(c)[-1].text == "all 3 notes, each labelled"
    two = NoteConflict("q00", s1, "", "", (("ana", "x"), ("bea", "y")))
    assert two.every == "both"
    assert note_resolutions(two)[-1].text == "both notes, each labelled"


def test_note_conflicts_are_kept_with_the_round_and_resolved_by_the_note():
    """The merged document's assignment keeps its note conflicts beside the
    grades' (they were in the merge's report only: fails before), read back
    from its JSON (an older assignment without them reads with none), and
    carried by a merge of a merged base. Each is settled by the note, as a
    grade conflict by the grade: one side's, both kept each labelled on its
    own line (told from the open merged note), or another (edited); undo
    opens it again."""
    doc = base_doc([2], seed=12)
    s1, _ = unknown_sources(doc, "q00")
    ana = copy_of(doc)
    Worksheet(ana).apply(SetNotes.of([row(ana, "q00", s1)], ["page moved"], who="ana"))
    later = copy_of(doc)
    Worksheet(later).apply(SetNotes.of([row(later, "q00", s1)], ["check the date"], who="lead"))
    result = merge(later, [Returned("ana.xlsx", ana)], who="lead", when=WHEN)
    m = result.document
    assert m.assignment is not None
    (c,) = m.assignment.note_conflicts
    assert c == NoteConflict("q00", s1, "check the date", "lead", (("ana", "page moved"),))
    assert result.note_conflicts == (c,)
    assert Assignment.from_dict(m.assignment.to_dict()) == m.assignment
    older = m.assignment.to_dict()
    del older["note_conflicts"]
    assert Assignment.from_dict(older).note_conflicts == ()
    assert "note_conflicts" not in Assignment("b", "b.xlsx", WHEN, (Share("ana", ("q",)),),
                                              ).to_dict()
    # (a merged document merged again keeps the conflicts it had, as grades')
    again = merge(m, [Returned("ana.xlsx", copy_of(m))], who="lead", when=WHEN)
    assert again.document.assignment is not None
    assert again.document.assignment.note_conflicts == (c,)
    # settled by the note
    i = row(m, "q00", s1)
    assert m.note[i] == c.merged == "lead: check the date | ana: page moved"
    assert note_conflict_status(m, c) == "open"
    assert open_note_conflicts(m) == [c]
    choices = note_resolutions(c)
    assert [(r.label, r.note) for r in choices] == [
        ("lead", "check the date"), ("ana", "page moved"),
        (BOTH, "lead's note: check the date\nana's note: page moved")]
    session = Worksheet(m)
    for r in choices:
        session.apply(SetNotes.of([i], [r.note], who="lead", why=f"resolved: {r.text}"))
        assert note_conflict_status(m, c) == r.label
        assert open_note_conflicts(m) == []
        assert m.audit[-1].note == f"resolved: {r.text}"
    # (kept as it was written before each side was named as whose note:
    # settled the same way, a workbook saved so reads as before)
    session.apply(SetNotes.of([i], ["lead: check the date\nana: page moved"], who="lead"))
    assert note_conflict_status(m, c) == BOTH
    session.apply(SetNotes.of([i], ["both wrong: see the new page"], who="lead"))
    assert note_conflict_status(m, c) == "changed"
    assert note_edit_kept(c, "both wrong: see the new page") == []
    assert note_edit_kept(c, "Page  moved: see the new page") == ["ana"]
    # (a side's words whole: 'page moved' is not kept by 'homepage moved',
    # nor 'check the date' by 'recheck the dates')
    assert note_edit_kept(c, "homepage moved; recheck the dates") == []
    for _ in range(len(choices) + 2):
        session.undo()
    assert note_conflict_status(m, c) == "open"
    assert m.audit[-1].note == f"undo of resolved: {choices[0].text}"
    m.source_id[i] = "elsewhere"
    assert note_conflict_status(m, c) == "gone"


def test_copies_as_ratings_give_the_consensus():
    doc = base_doc([2], seed=13)
    ana, ben = copy_of(doc), copy_of(doc)
    s1, _ = unknown_sources(doc, "q00")
    grade(ana, "q00", s1, 1.0, "ana")
    grade(ben, "q00", s1, 3.0, "ben")
    result = merge(doc, [Returned("ana.xlsx", ana), Returned("ben.xlsx", ben)],
                   who="lead", when=WHEN, as_ratings=True)
    assert (result.conflicts, result.overlap_ratings) == ((), 2)
    m = result.document
    i = row(m, "q00", s1)
    assert m.annotators[-2:] == ["ana", "ben"]
    assert m.ratings is not None
    assert m.ratings[i, -2:].tolist() == [1.0, 3.0]
    want, _ = consensus(np.array([[1.0, 3.0]]), doc.conventions.consensus,
                        doc.conventions.rounding)
    assert m.grade[i] == want[0]


def test_a_copy_is_named_by_its_one_reviewer_or_its_file():
    doc = base_doc([3], seed=14)
    s1, s2, s3 = unknown_sources(doc, "q00")
    solo, pair, none = copy_of(doc), copy_of(doc), copy_of(doc)
    grade(solo, "q00", s1, 1.0, "ana")
    grade(pair, "q00", s2, 1.0, "ben")
    grade(pair, "q00", s3, 2.0, "cara")  # two people wrote in it: the file names it
    result = merge(doc, [Returned("from-ana.xlsx", solo), Returned("team.xlsx", pair),
                         Returned("untouched.xlsx", none)], who="lead", when=WHEN)
    assert [r.reviewer for r in result.reviewers] == ["ana", "team", "untouched"]
    assert [r.changes for r in result.reviewers] == [1, 2, 0]
    assert result.taken == 3
