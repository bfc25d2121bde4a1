"""core.reports.printout: a query's rows and numbers as the editor shows them,
checked against values worked out by hand (docs/conventions.md's seed cases)."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from core.engine.columns import EDITED_MARK, GRID_COLUMNS, listed_rows
from core.engine.evaluation import Status, evaluate
from core.model.conventions import FIELDS, Conventions, Rubric, field_rows
from core.model.document import Document, GradeState
from core.model.edits import GradeValue, SetGrades
from core.reports.printout import (
    NOTHING,
    PRINTED,
    convention_lines,
    query_printout,
)
from core.session import Worksheet

L = math.log2(3)


def _case_a(**kw: object) -> Document:
    """Seed case A: grades A=3, B=1, C=0, ranked B, A, C."""
    return Document.from_columns(query=["q"] * 3, source_id=["A", "B", "C"],
                                 score=[2.0, 3.0, 1.0], grade=[3.0, 1.0, 0.0], **kw)


def _texts(rows: tuple) -> list[list[str]]:  # type: ignore[type-arg]
    return [[cell.text for cell in row] for row in rows]


def test_case_a_prints_the_numbers_worked_by_hand() -> None:
    out = query_printout(evaluate(_case_a()), 0, decimals=4)
    assert out.query == "q"
    # (no version, no note, no edit: those columns are left out, as the grid narrows them)
    assert out.ranked.heads == ("Rank", "Source", "Score", "Grade", "Gain", "Discount",
                                "Contribution", "Cumulative DCG")
    assert _texts(out.ranked.rows) == [
        ["1", "B", "3.0000", "1", "1.0000", "1.0000", "1.0000", "1.0000"],
        ["2", "A", "2.0000", "3", "3.0000", f"{1 / L:.4f}", f"{3 / L:.4f}",
         f"{1 + 3 / L:.4f}"],
        ["3", "C", "1.0000", "0", "0.0000", "0.5000", "0.0000", f"{1 + 3 / L:.4f}"],
    ]
    assert out.not_retrieved.rows == ()
    (all_,) = out.cutoffs
    assert (all_.k, all_.dcg, all_.idcg, all_.ndcg) == (
        "all", "2.8928", f"{3 + 1 / L:.4f}", "0.7967")  # NDCG 0.796707...
    assert (all_.status, all_.reason) == (Status.OK, "")


def test_the_cutoffs_and_an_undefined_query() -> None:
    doc = Document.from_columns(query=["a"] * 3 + ["z"] * 2, source_id=list("ABCAB"),
                                score=[2.0, 3.0, 1.0, 2.0, 1.0],
                                grade=[3.0, 1.0, 0.0, 0.0, 0.0],
                                conventions=Conventions(cutoffs=(1, None)))
    ev = evaluate(doc, doc.conventions)
    first = query_printout(ev, 0, decimals=3).cutoffs
    assert [(c.k, c.dcg, c.idcg, c.ndcg) for c in first] == [
        ("1", "1.000", "3.000", "0.333"), ("all", "2.893", "3.631", "0.797")]
    zero = query_printout(ev, 1, decimals=3).cutoffs
    assert {(c.ndcg, c.status, c.reason) for c in zero} == {
        (NOTHING, Status.UNDEFINED, Status.UNDEFINED.reason)}
    assert [c.idcg for c in zero] == ["0.000", "0.000"]


def test_an_edited_grade_is_marked_and_its_original_printed_beside_it() -> None:
    session = Worksheet(_case_a(conventions=Conventions(rubric=Rubric.parse(
        "0=no,1=partly,2=mostly,3=fully"))))
    session.apply(SetGrades.of([0, 2], [GradeValue(1.0, GradeState.NUMBER),
                                        GradeValue(None, GradeState.UNRATEABLE, "broken link")],
                               who="ana"))
    out = query_printout(session.evaluation, 0, decimals=2)
    heads = out.ranked.heads
    assert heads[heads.index("Grade") + 1] == "Original"
    rows = {row[1].text: row for row in out.ranked.rows}
    grade, original = heads.index("Grade"), heads.index("Original")
    assert (rows["A"][grade].text, rows["A"][original].text) == (f"{EDITED_MARK} 1 - partly",
                                                                 "3")
    assert (rows["B"][grade].text, rows["B"][original].text) == ("1 - partly", "1")
    c = rows["C"]
    assert (c[grade].text, c[grade].word) == (f"{EDITED_MARK} unrateable: broken link", True)
    assert (c[heads.index("Gain")].text, c[heads.index("Gain")].word) == ("unrateable", True)
    assert not rows["A"][grade].word


def test_unknown_grades_say_so_and_leave_the_numbers_open() -> None:
    doc = Document.from_columns(query=["q"] * 3, source_id=list("ABC"),
                                score=[3.0, 2.0, 1.0], grade=[3.0, None, 0.0])
    out = query_printout(evaluate(doc), 0, decimals=4)
    gain, cumulative = out.ranked.heads.index("Gain"), out.ranked.heads.index("Cumulative DCG")
    assert [row[gain].text for row in out.ranked.rows] == ["3.0000", "unknown", "0.0000"]
    assert [row[cumulative].text for row in out.ranked.rows] == ["3.0000", "unknown", "unknown"]
    assert [(c.ndcg, c.status) for c in out.cutoffs] == [(NOTHING, Status.UNRESOLVED)]
    # (B's grade, 0 to 3, leaves A's 3 first in both lists: NDCG 1 whatever it
    # is, said as the summary says it, never "between 1.0000 and 1.0000")
    assert out.cutoffs[0].reason == (
        f"{Status.UNRESOLVED.reason}; NDCG is 1.0000 whatever the unknown grades are")


def test_an_interval_that_may_be_undefined_says_so() -> None:
    """b's grade unknown under a's 0: graded 0, the ideal DCG is 0 (undefined);
    graded g > 0 (r's 3 puts one on the scale), NDCG is (g/log2(3)) / g = 1/L. The summary says
    "is 0.6309 whatever the unknown grades are, or undefined"; the printout
    said "NDCG between 0.6309 and 0.6309", the undefined left out."""
    doc = Document.from_columns(query=["q", "q", "r"], source_id=list("abc"),
                                score=[2.0, 1.0, 1.0], grade=[0.0, None, 3.0])
    out = query_printout(evaluate(doc), 0, decimals=4)
    assert out.cutoffs[0].reason == (
        f"{Status.UNRESOLVED.reason}; NDCG is {1 / L:.4f} whatever the unknown grades are, "
        "or undefined")


def test_an_unresolved_query_prints_the_interval_its_unknown_grades_leave() -> None:
    """The summary said "NDCG@all between 0.8152 and 0.8253", the printout
    "? unresolved" alone (a new user's query of a run over annotators' grades)."""
    doc = Document.from_columns(query=["q"] * 3, source_id=list("abc"),
                                score=[3.0, 2.0, 1.0], grade=[0.0, 2.0, None])
    # c's grade 0: DCG 2/log2(3), ideal 2 + 0: NDCG 1/L; 2: DCG 2/L + 2/2,
    # ideal 2 + 2/L: (2/L + 1) / (2 + 2/L); 1 lies between. At k = 2: 2/L over
    # 2 + 2/L (c graded 2) to over 2 (c graded 0)
    out = query_printout(evaluate(doc, Conventions(cutoffs=(None, 2))), 0, decimals=4)
    said = [(c.k, c.ndcg, c.status, c.reason.split("; ")) for c in out.cutoffs]
    assert said == [
        ("all", NOTHING, Status.UNRESOLVED, [
            Status.UNRESOLVED.reason,
            f"NDCG between {1 / L:.4f} and {(2 / L + 1) / (2 + 2 / L):.4f}"]),
        ("2", NOTHING, Status.UNRESOLVED, [
            Status.UNRESOLVED.reason, f"NDCG between {2 / L / (2 + 2 / L):.4f} and {1 / L:.4f}"])]
    assert said[0][3][1] == "NDCG between 0.6309 and 0.6934"


def test_ties_are_bracketed_and_scores_get_the_digits_that_tell_them_apart() -> None:
    doc = Document.from_columns(query=["q"] * 5, source_id=list("XYabc"),
                                score=[0.5, 0.5, 0.9982, 0.9977, 0.9958],
                                grade=[3.0, 1.0, 0.0, 0.0, 0.0])
    out = query_printout(evaluate(doc), 0, decimals=2)
    texts = _texts(out.ranked.rows)
    assert [(r[0], r[1], r[2]) for r in texts] == [
        ("1", "a", "0.9982"), ("2", "b", "0.9977"), ("3", "c", "0.996"),
        ("┌ 4", "X", "0.50"), ("└ 5", "Y", "0.50")]


def test_the_judged_not_retrieved_print_apart_without_the_ranked_columns() -> None:
    doc = Document.from_columns(query=["q"] * 3, source_id=list("ABC"),
                                score=[2.0, 1.0, None], grade=[1.0, 0.0, 2.0],
                                version=["v1", "", "v2"], note=["", "", "on topic"])
    out = query_printout(evaluate(doc), 0, decimals=1)
    assert out.ranked.heads == ("Rank", "Source", "Version", "Score", "Grade", "Gain",
                                "Discount", "Contribution", "Cumulative DCG")
    assert out.not_retrieved.heads == ("Source", "Version", "Grade", "Gain", "Note")
    assert _texts(out.not_retrieved.rows) == [["C", "v2", "2", "2.0", "on topic"]]


def test_the_conventions_are_named_as_the_panel_names_them() -> None:
    c = Conventions(cutoffs=(5, None), rubric=Rubric.parse("0=no,1=yes"))
    lines = convention_lines(c, decimals=4)
    rows = field_rows(annotated=False)
    assert [line.title for line in lines] == [group[0].title for _, group in rows]
    said = {row: (words, formula) for row, words, formula in c.describe(4, annotated=False)}
    for line, (row, _group) in zip(lines, rows, strict=True):
        assert (line.words, line.formula) == said.get(row, ("none", ""))
    by_title = {line.title: line.words for line in lines}
    assert by_title["Cutoffs k"] == "k = 5, all"
    assert by_title["Rubric (grade labels)"] == "0=no,1=yes"
    assert by_title["Presets"] == "none"
    titles = {f.title for f in FIELDS}
    assert {line.title for line in convention_lines(c, annotated=True)} <= titles
    assert len(convention_lines(c, annotated=True)) > len(lines)  # (the consensus)


def test_the_printed_columns_are_the_grid_s() -> None:
    keys = [c.key for c in GRID_COLUMNS]
    assert set(PRINTED) <= set(keys)
    title = {c.key: c.title for c in GRID_COLUMNS}
    out = query_printout(evaluate(_case_a()), 0)
    assert out.ranked.keys == tuple(k for k in PRINTED
                                    if k not in ("version", "original", "note"))
    assert out.ranked.heads == tuple(title[k] for k in out.ranked.keys)


@given(st.lists(st.tuples(st.sampled_from("abc"), st.one_of(st.none(), st.floats(0, 9)),
                          st.one_of(st.none(), st.integers(0, 3))),
                min_size=1, max_size=12))
def test_every_row_listed_is_printed_and_every_number_is_the_evaluation_s(
        rows: list[tuple[str, float | None, int | None]]) -> None:
    doc = Document.from_columns(
        query=[q for q, _, _ in rows], source_id=[f"d{i}" for i in range(len(rows))],
        score=[s for _, s, _ in rows], grade=[None if g is None else float(g) for *_, g in rows])
    ev = evaluate(doc)
    for q in range(doc.n_queries):
        out = query_printout(ev, q, decimals=3)
        assert len(out.ranked.rows) == listed_rows(ev, q).size
        assert len(out.not_retrieved.rows) == listed_rows(ev, q, "not_retrieved").size
        for j, line in enumerate(out.cutoffs):
            for text, values in zip((line.dcg, line.idcg, line.ndcg),
                                    (ev.dcg, ev.idcg, ev.ndcg), strict=True):
                value = float(values[q, j])
                assert text == (NOTHING if math.isnan(value) else f"{value:.3f}")
            assert (line.reason == "") == (line.status is Status.OK)


def test_the_columns_follow_the_keys_a_grid_shows() -> None:
    """``keys`` (a grid's shown columns, in its order) choose and order the
    printed columns; a column PRINTED does not hold (the grade state, an
    ideal list's) is left out, as is a blank version."""
    out = query_printout(evaluate(_case_a()), 0, decimals=4,
                         keys=("score", "rank", "state", "version", "grade", "ideal_gain"))
    assert out.ranked.keys == ("score", "rank", "grade")
    assert _texts(out.ranked.rows)[0] == ["3.0000", "1", "1"]
    assert out.not_retrieved.keys == ("grade",)  # (the rank and score: ranked rows only)
