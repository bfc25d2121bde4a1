"""Annotators' consensus: its rules and rounding by hand, an adjudicated
grade never replaced by it, a consensus saved back by a spreadsheet still
read as one, a written consensus under another rule refused, consensus
grades judged by their ratings against the rubric."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.analysis.consensus import apply_rounding, consensus
from core.errors import InputError
from core.io.annotator import (
    import_annotations,
)
from core.io.annotator.command import import_sheet
from core.model.conventions import Rubric
from core.model.document import GradeState
from tests.annotator_cases import N, U

# -- consensus arithmetic, hand values ----------------------------------------------------
RATINGS = np.array([
    [3.0, 2.0, 2.0],
    [1.0, np.nan, 2.0],
    [np.nan, np.nan, np.nan],
    [0.0, 3.0, np.nan],
    [1.0, 2.0, 3.0],
])


@pytest.mark.parametrize(("rule", "expected"), [
    ("mean", [7 / 3, 1.5, math.nan, 1.5, 2.0]),
    ("median", [2.0, 1.5, math.nan, 1.5, 2.0]),
    # majority: a tie between grades goes to the lower one
    ("majority", [2.0, 1.0, math.nan, 0.0, 1.0]),
    ("minimum", [2.0, 1.0, math.nan, 0.0, 1.0]),
    ("maximum", [3.0, 2.0, math.nan, 3.0, 3.0]),
])
def test_consensus_rules_by_hand(rule: str, expected: list[float]) -> None:
    grades, states = consensus(RATINGS, rule, "none")
    np.testing.assert_allclose(grades, expected, rtol=0, atol=1e-15)
    assert states.tolist() == [N, N, U, N, N]


@pytest.mark.parametrize(("rounding", "expected"), [
    ("none", [7 / 3, 1.5, math.nan, 1.5, 2.0]),
    ("half-up", [2.0, 2.0, math.nan, 2.0, 2.0]),
    ("half-even", [2.0, 2.0, math.nan, 2.0, 2.0]),
    ("floor", [2.0, 1.0, math.nan, 1.0, 2.0]),
    ("ceiling", [3.0, 2.0, math.nan, 2.0, 2.0]),
])
def test_consensus_rounding_by_hand(rounding: str, expected: list[float]) -> None:
    grades, _ = consensus(RATINGS, "mean", rounding)
    np.testing.assert_allclose(grades, expected)


def test_rounding_halves() -> None:
    x = np.array([0.5, 1.5, 2.5, 3.5, -1.5])
    assert apply_rounding(x, "half-up").tolist() == [1.0, 2.0, 3.0, 4.0, -1.0]
    assert apply_rounding(x, "half-even").tolist() == [0.0, 2.0, 2.0, 4.0, -2.0]


def test_majority_with_clear_winner_and_lone_grade() -> None:
    r = np.array([[2.0, 1.0, 2.0, 1.0, 1.0], [np.nan, np.nan, 3.0, np.nan, np.nan]])
    assert consensus(r, "majority")[0].tolist() == [1.0, 3.0]


@given(st.lists(st.lists(st.one_of(st.none(), st.integers(0, 4)), min_size=1, max_size=5),
                min_size=1, max_size=8).filter(lambda rows: len({len(r) for r in rows}) == 1))
def test_consensus_lies_between_min_and_max(rows: list[list[int | None]]) -> None:
    r = np.array([[np.nan if v is None else float(v) for v in row] for row in rows])
    lo, _ = consensus(r, "minimum")
    hi, states = consensus(r, "maximum")
    for rule in ("mean", "median", "majority"):
        g, s = consensus(r, rule)
        assert s.tolist() == states.tolist()
        ok = ~np.isnan(lo)
        assert np.all(g[ok] >= lo[ok])
        assert np.all(g[ok] <= hi[ok])
        assert np.all(np.isnan(g[~ok]))
        if rule == "majority":  # the majority is one of the given grades
            for i in np.flatnonzero(ok):
                assert g[i] in r[i]


#: A worksheet CSV as the import writes it, whose row 3 (q1, d2) holds an
#: adjudicated grade: 3 typed in by a lead reviewer, the annotators at 1 and 2.
ADJUDICATED = ("query,source_id,version,score,grade,state,reason,note,grade_ana,grade_ben\n"
               "q1,d1,,3,1,number,,,1,1\nq1,d2,,2,3,number,,,1,2\n"
               "q2,d3,,1,,unknown,,,,\nq2,d4,,0.5,2.5,number,,,2,3\n")


def test_an_adjudicated_grade_is_never_replaced_by_the_consensus(tmp_path: Path) -> None:
    """The ``grade`` column of a worksheet CSV is left out as its annotators'
    consensus only where it is that consensus on every row: 3 beside 1 and 2
    (mean 1.5) is a judgment, refused in one line naming the file, the
    column, the row, its query and source and both values, and what to do
    (imported as 1.5 in silence before); the file is left as it was."""
    sheet = tmp_path / "adjudicated.csv"
    sheet.write_text(ADJUDICATED, encoding="utf-8")
    with pytest.raises(InputError) as err:
        import_annotations(sheet)
    assert str(err.value) == (
        f"{sheet}, line 3, column 'grade': grade holds 3 for query q1, source d2 where the "
        "mean of the annotators' grades (ana, ben; no rounding) is 1.5: a grade given there, "
        "not their consensus, is never replaced by a computed one (pass --map grade=E to take "
        "its grades, or --map grade=none to leave it out and compute the consensus from the "
        "annotators' grades)")
    assert sheet.read_text(encoding="utf-8") == ADJUDICATED
    # a blank consensus beside a computed number differs too, and a number
    # beside no grade at all: each refused
    for row, was, now in ((2, "q1,d1,,3,1,", "q1,d1,,3,,"), (4, "q2,d3,,1,,", "q2,d3,,1,2,")):
        sheet.write_text(ADJUDICATED.replace("q1,d2,,2,3,", "q1,d2,,2,1.5,").replace(was, now),
                         encoding="utf-8")
        with pytest.raises(InputError, match=rf"line {row}, column 'grade': grade holds "):
            import_annotations(sheet)


def test_a_consensus_saved_back_by_a_spreadsheet_is_still_the_consensus(
        tmp_path: Path) -> None:
    """A worksheet CSV opened and saved by Excel keeps 15 significant digits:
    the mean of 1, 2 and 2 (5/3) comes back as 1.66666666666667, still the
    consensus (left out and computed again, 5/3 to the last bit); a grade
    that differs in the 14th digit is another number, refused."""
    head = "query,source_id,version,score,grade,state,reason,note,grade_a,grade_b,grade_c\n"
    rows = "q1,d1,,2,{},number,,,1,2,2\nq1,d2,,1,0,number,,,0,0,0\n"
    sheet = tmp_path / "saved-by-excel.csv"
    sheet.write_text(head + rows.format("1.66666666666667"), encoding="utf-8")
    doc = import_annotations(sheet).document
    assert doc.annotators == ["a", "b", "c"]
    assert doc.grade.tolist() == [5 / 3, 0.0]
    sheet.write_text(head + rows.format("1.66666666666666"), encoding="utf-8")
    with pytest.raises(InputError, match=r"line 2, column 'grade': grade holds 1\.66666666666666 "):
        import_annotations(sheet)


def test_an_adjudicated_grade_is_taken_or_left_out_as_the_user_says(tmp_path: Path) -> None:
    """The two ways the refusal names: ``--map grade=E`` takes the
    adjudicated grades, ``--map grade=none`` leaves them out for the
    annotators' consensus (no grade column at all before)."""
    sheet = tmp_path / "adjudicated.csv"
    sheet.write_text(ADJUDICATED, encoding="utf-8")
    taken = import_sheet(sheet, fields={"grade": "E"}).document
    assert taken.grade[:2].tolist() == [1, 3]
    left = import_sheet(sheet, fields={"grade": "none"}).document
    assert left.annotators == ["ana", "ben"]
    assert left.grade[:2].tolist() == [1, 1.5]
    # the consensus under the rule declared: the median of 1 and 2 is 1.5
    # too, the minimum 1 (row 3's grade 3 is neither)
    with pytest.raises(InputError, match="grade holds 3 .* where the lowest annotator grade "
                       r"\(ana, ben; no rounding\) is 1:"):
        import_sheet(sheet, consensus="minimum")


def test_a_grade_left_out_as_declared_says_so(tmp_path: Path) -> None:
    """``--map grade=none`` leaves the adjudicated grade out: the report's
    column says it was declared so, not that the guess took it for the
    annotators' consensus ('a grade combined from several', which it is
    not: 3 beside 1 and 2), and the annotators' columns, named so, say
    why they were taken, not 'declared'; without the flag, the consensus
    the tool wrote beside them is still said to be combined."""
    sheet = tmp_path / "adjudicated.csv"
    sheet.write_text(ADJUDICATED, encoding="utf-8")
    report = import_sheet(sheet, fields={"grade": "none"}).report
    columns = {c.header: (c.role, c.reason, c.flag) for c in report.columns}
    assert columns["grade"] == (
        "", "grade: left out as declared (--map grade=none), not imported: the consensus is "
        "computed from the annotators' own grades", "--map grade=E")
    assert columns["grade_ana"] == ("grade (ana)", "ana, ben, named so: one column of grades "
                                    "per annotator", "")
    assert "ignored: grade: left out as declared (--map grade=none), not imported: the " \
        "consensus is computed from the annotators' own grades" in report.guesses()
    written = ADJUDICATED.replace("q1,d2,,2,3,", "q1,d2,,2,1.5,").replace(
        "q2,d4,,0.5,2.5,", "q2,d4,,0.5,2.5,")
    sheet.write_text(written, encoding="utf-8")
    columns = {c.header: c.reason for c in import_sheet(sheet).report.columns}
    assert columns["grade"] == ("grade: a grade combined from several, not imported (the "
                                "consensus is computed from the annotators' own)")
    declared = import_sheet(sheet, annotators=["grade_ana", "grade_ben"]).report
    assert {c.header: c.reason for c in declared.columns}["grade_ben"] == "declared"


def test_a_named_grade_column_left_out_gives_way_to_the_annotators(tmp_path: Path) -> None:
    """A grade column named so (``relevance``) beside annotators' columns
    named so wins the guess, and the import asks which; ``--map
    grade=none`` leaves it out, so the annotators' columns are the grades
    (it was refused as 'no grade column found', they named no more), the
    column said left out as declared."""
    sheet = tmp_path / "named.csv"
    sheet.write_text("query,doc,relevance,grade_ana,grade_ben\nq1,d1,1,1,1\nq1,d2,3,1,2\n"
                     "q1,d5,0,0,1\nq2,d3,2,2,2\nq2,d4,2,2,3\nq2,d6,0,0,0\n", encoding="utf-8")
    with pytest.raises(InputError) as refused:
        import_sheet(sheet)
    assert str(refused.value) == (
        f"{sheet}: 2 more columns of grades like relevance's are not used: grade_ana, "
        "grade_ben (pass --annotators relevance,grade_ana,grade_ben if each is one "
        "annotator's grades, --map grade=relevance to take relevance alone and leave "
        "grade_ana, grade_ben out, or --map grade=none to leave relevance out)")
    result = import_sheet(sheet, fields={"grade": "none"})
    assert result.document.annotators == ["ana", "ben"]
    assert result.document.grade.tolist() == [1, 1.5, 0.5, 2, 2.5, 0]
    why = {c.header: (c.role, c.reason) for c in result.report.columns}
    assert why["relevance"] == ("", "relevance: left out as declared (--map grade=none), not "
                                "imported: the consensus is computed from the annotators' own "
                                "grades")


def test_a_written_consensus_under_another_rule_is_refused_under_the_mean(
        tmp_path: Path) -> None:
    """A worksheet written with ``--consensus maximum`` read back under the
    mean: its grades are not the mean's, so refused, never recomputed, the
    rules they are the consensus under named; read under the maximum it was
    written with, they are left out as its consensus."""
    sheet = tmp_path / "maximum.csv"
    sheet.write_text(ADJUDICATED.replace("q1,d2,,2,3,", "q1,d2,,2,2,").replace(
        "q2,d4,,0.5,2.5,", "q2,d4,,0.5,3,"), encoding="utf-8")
    with pytest.raises(InputError) as err:
        import_annotations(sheet)
    assert "line 3, column 'grade': grade holds 2 for query q1, source d2 where the mean" in str(
        err.value)
    # every rule and rounding under which it is the consensus, named
    # (half-up and ceiling take 1.5 to 2 and 2.5 to 3): none picked for the user
    assert str(err.value).endswith(
        "(on every row it is what --consensus mean --rounding half-up, or --consensus mean "
        "--rounding ceiling, or --consensus median --rounding half-up, or --consensus median "
        "--rounding ceiling, or --consensus maximum computes: pass the one it was written "
        "with; or pass --map grade=E to take its grades, or --map grade=none to leave it out "
        "and compute the consensus from the annotators' grades)")
    doc = import_sheet(sheet, consensus="maximum").document
    assert doc.grade[[0, 1, 3]].tolist() == [1, 2, 3]
    assert doc.state[2] == GradeState.UNKNOWN


def test_consensus_grades_are_judged_by_their_ratings_against_the_rubric() -> None:
    from core.engine.evaluation import evaluate
    from core.model.document import Document

    nan = math.nan
    doc = Document.from_columns(
        query=["q"] * 6, source_id=list("abcdef"), score=[6, 5, 4, 3, 2, 1],
        # b: mean of 1, 2, 2 (not a rubric grade, inside its ratings: fine);
        # c: a rating of 5 outside the rubric; d: typed 7 over ratings 1 and 2;
        # e: typed 2, in the rubric; f: no ratings, grade 9 outside the rubric.
        grade=[2, 5 / 3, 2, 7, 2, 9],
    )
    doc.annotators = ["ann", "bob", "cy"]
    doc.ratings = np.array([[2, 2, nan], [1, 2, 2], [1, 5, nan], [1, 2, nan],
                            [0, 0, 1], [nan, nan, nan]], dtype=float)
    doc.conventions = doc.conventions.replace(rubric=Rubric.parse("0,1,2,3"))
    assert evaluate(doc).outside_rubric.tolist() == [False, False, True, True, False, True]
