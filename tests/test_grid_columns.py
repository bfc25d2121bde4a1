"""The candidate columns, declared once (core.engine.columns): every column
is whole, the grid shows a column added to the table without a change to
its model, its values are the engine's, and the workbook's Candidates sheet
agrees with the grid on the columns both show."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path
from typing import Any

import numpy as np
import openpyxl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtCore import Qt

from app.models.candidates import CandidateModel, GridColumn
from core.engine.columns import (
    COLUMNS,
    GRID_COLUMNS,
    Align,
    CandidateColumn,
    ShownRows,
)
from core.engine.evaluation import Evaluation, evaluate
from core.io.workbook import export_workbook
from core.io.workbook.layout import CANDIDATE_COLUMNS, SHEETS
from core.model.conventions import Conventions
from core.model.document import Document, GradeState
from core.model.examples import seed_document
from core.model.numbers import full_text
from core.model.presets import preset
from tests.test_app_models import mixed_document

CONVENTIONS = [
    Conventions(cutoffs=(2, None), ideal="judged"),
    Conventions(ties="pessimistic", unknown="zero", cutoffs=(3,)),
    Conventions(ties="average", unknown="condensed", zero_ideal="zero"),
    preset("trec_eval"),
]


def _shown(ev: Evaluation) -> list[ShownRows]:
    """Every query's ranked rows and its not-retrieved ones, as the grid shows them."""
    out = []
    for q in range(ev.doc.n_queries):
        for section in ("ranked", "not_retrieved"):
            model = CandidateModel(section)
            model.set_evaluation(ev, q)
            rows = model.candidates()
            out.append(ShownRows.of(ev, q, rows, ranked=section == "ranked"))
    return out


def test_every_column_is_declared_whole() -> None:
    assert len({c.key for c in COLUMNS}) == len(COLUMNS)
    assert len({c.title for c in COLUMNS}) == len(COLUMNS)
    sheets = [c.sheet for c in COLUMNS if c.sheet is not None]
    assert len({letter for letter, _ in sheets}) == len(sheets)
    for conv in CONVENTIONS:
        ev = evaluate(mixed_document(), conv)
        for col in COLUMNS:
            assert col.title.strip(), col.key
            assert col.formula(conv).strip(), col.key  # the header's tooltip
            for shown in _shown(ev):
                for row in range(shown.rows.size):
                    value = col.value(shown, row)
                    assert value is None or isinstance(value, int | float | str), col.key
                    if col.ranked_only and not shown.ev.ranked_mask[shown.row(row)]:
                        assert value is None or col.key == "score", col.key  # nothing to say
                    tip = col.tooltip(shown, row)
                    assert tip is None or tip.strip(), col.key
                    if col.edit is not None:
                        assert isinstance(col.edit(shown, row), str)


def test_the_named_grid_columns_are_the_table_s() -> None:
    # GridColumn names places in the table; a column nobody names has none.
    for member in GridColumn:
        assert GRID_COLUMNS[member].key == member.name.lower(), member


def _number(x: float) -> float | None:
    return None if math.isnan(x) else float(x)


@pytest.mark.parametrize("conv", CONVENTIONS)
@pytest.mark.parametrize("make", [seed_document, mixed_document])
def test_grid_values_are_the_engine_s(make: Any, conv: Conventions) -> None:
    ev = evaluate(make(), conv)
    by_key = {c.key: c for c in COLUMNS}
    for shown in _shown(ev):
        for row in range(shown.rows.size):
            i = shown.row(row)
            state_word = shown.state(row).label
            cell = {key: c.value(shown, row) for key, c in by_key.items()}
            assert cell["rank"] == (int(ev.rank[i]) or None)
            placeless = (bool(ev.inventory_mask[i]) and math.isnan(ev.gain[i])
                         and shown.state(row).value != "number")
            assert cell["ideal_rank"] == (state_word if placeless
                                          else int(ev.ideal_rank[i]) or None)
            assert cell["discount"] == _number(ev.discount[i])
            for key, whole, shows in (
                    ("gain", ev.gain, True),
                    ("contribution", ev.contribution, bool(ev.ranked_mask[i])),
                    ("ideal_gain", ev.gain, bool(ev.inventory_mask[i])),
                    ("ideal_contribution", ev.ideal_contribution, bool(ev.inventory_mask[i]))):
                expected = _number(whole[i])
                if not shows:
                    assert cell[key] is None, key
                elif expected is None and shown.state(row).value != "number":
                    assert cell[key] == state_word, key
                else:
                    assert cell[key] == expected, key
            if ev.ranked_mask[i] and shown.cumulative.size:
                ranked = ev.ranked(ev.doc.query[i]).tolist()
                running = ev.cumulative_dcg(int(ev.doc.query[i]))[ranked.index(i)]
                above = [j for j in ranked[:ranked.index(i) + 1] if math.isnan(ev.gain[j])]
                if math.isnan(running) and above:  # a sum with an unknown term
                    word = ("number", "unknown", "unrateable")[int(ev.doc.state[above[0]])]
                    assert cell["cumulative"] == (None if word == "number" else word)
                else:
                    assert cell["cumulative"] == _number(running)


def _twice_gain(shown: ShownRows, row: int) -> float | None:
    gain = float(shown.ev.gain[shown.row(row)])
    return None if math.isnan(gain) else 2 * gain


NEW = CandidateColumn(
    "twice_gain", "Twice the gain", _twice_gain, align=Align.LEFT,
    tooltip=lambda s, r: f"2 × {float(s.ev.gain[s.row(r)])!r}", formula=lambda c: "2 × gain",
    follows=lambda s: s.ev.gain[s.rows])


def test_a_column_added_to_the_table_shows_in_the_grid(qtmodeltester: Any) -> None:
    doc = mixed_document()
    ev = evaluate(doc)
    grid = CandidateModel("ranked", columns=(*GRID_COLUMNS, NEW))
    grid.set_evaluation(ev, 0)
    qtmodeltester.check(grid)
    n = len(GRID_COLUMNS)
    assert grid.columnCount() == n + 1
    assert grid.headerData(n, Qt.Orientation.Horizontal) == "Twice the gain"
    assert grid.headerData(n, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole) == (
        "2 × gain")
    # Rows a (grade 2), b (1), c (unknown), d (5): linear gain.
    assert [grid.data(grid.index(r, n)) for r in range(4)] == [4.0, 2.0, None, 10.0]
    assert grid.data(grid.index(0, n), Qt.ItemDataRole.ToolTipRole) == "2 × 2.0"
    assert grid.data(grid.index(0, n), Qt.ItemDataRole.TextAlignmentRole) is None
    assert not grid.flags(grid.index(0, n)) & Qt.ItemFlag.ItemIsEditable
    # An edit refreshes the new column's cells too (it follows the gains).
    changed: list[tuple[int, int, int, int]] = []
    grid.dataChanged.connect(lambda a, b, roles: changed.append(
        (a.row(), b.row(), a.column(), b.column())))
    doc.set_grade(1, 3.0, who="t")
    from core.engine.incremental import reevaluate
    grid.set_evaluation(reevaluate(ev, [1]), changed=[1])
    assert grid.data(grid.index(1, n)) == 6.0
    assert any(r0 <= 1 <= r1 and c0 <= n <= c1 for r0, r1, c0, c1 in changed)
    qtmodeltester.check(grid)


def test_every_declared_column_shows_in_a_grid(qtmodeltester: Any) -> None:
    # The workbook's own columns too (query, original grade, note).
    ev = evaluate(mixed_document())
    for section in ("ranked", "not_retrieved"):
        grid = CandidateModel(section, columns=COLUMNS)
        grid.set_evaluation(ev, 0)
        qtmodeltester.check(grid)
        assert [grid.headerData(c, Qt.Orientation.Horizontal)
                for c in range(grid.columnCount())] == [c.title for c in COLUMNS]


@pytest.mark.parametrize("conv", CONVENTIONS)
def test_the_workbook_and_the_grid_agree(tmp_path: Path, conv: Conventions) -> None:
    # The Candidates sheet's readable columns are the table's, at its letters.
    readable = [c.sheet for c in COLUMNS if c.sheet is not None]
    assert list(CANDIDATE_COLUMNS[:len(readable)]) == sorted(
        readable, key=lambda lh: (len(lh[0]), lh[0]))
    assert [letter for letter, _ in CANDIDATE_COLUMNS[:len(readable)]] == list("ABCDEFGHIJKLMNO")
    # The columns both show come in the same order, but for the rank: the
    # grid leads with it (a row's place in the list).
    shared = [c.key for c in GRID_COLUMNS if c.sheet is not None]
    by_letter = sorted((c for c in COLUMNS if c.sheet is not None and c.grid),
                       key=lambda c: (len(c.sheet[0]), c.sheet[0]) if c.sheet else (0, ""))
    in_sheet = [c.key for c in by_letter]
    assert shared[0] == "rank"
    assert shared[1:] == [k for k in in_sheet if k != "rank"]
    # The cells: the exported sheet holds what the table says of its rows,
    # query block by query block (its ideal columns go by position).
    doc = mixed_document()
    ev = evaluate(doc, conv)
    sheet = _candidates_sheet(ev, tmp_path / "w.xlsx")
    header = sheet[0]
    place = {c.key: header.index(c.sheet[1]) for c in COLUMNS if c.sheet is not None}
    where = {(doc.query_ids[int(doc.query[i])], doc.source_id[i]): i for i in range(len(doc))}
    seen = 0
    for q, qid in enumerate(doc.query_ids):
        lines = [line for line in sheet[1:] if line[0] == qid]
        rows = np.array([where[(line[0], line[1])] for line in lines], dtype=np.int64)
        shown = ShownRows.of(ev, q, rows, ranked=False)
        for row, line in enumerate(lines):
            for col in COLUMNS:
                if col.sheet is None or col.key == "state":  # the grid says "outside rubric"
                    continue
                value, cell = col.value(shown, row), line[place[col.key]]
                if value is None or (col.state_words and value == shown.state(row).label
                                     and col.key not in ("grade", "original")):
                    assert cell in (None, ""), (col.key, row, cell)
                else:
                    assert cell == value, (col.key, row, cell, value)
            seen += 1
    assert seen == len(doc) == len(sheet) - 1
    assert np.isnan(doc.score).any()  # a not-retrieved candidate was compared too


def test_the_not_retrieved_grid_hides_the_ranked_only_columns(qtbot: Any) -> None:
    from app.panels.grid import GridPanel

    panel = GridPanel(lambda: 4)
    qtbot.addWidget(panel)
    hidden = [panel.not_retrieved.isColumnHidden(n) for n in range(len(GRID_COLUMNS))]
    assert [GRID_COLUMNS[n].key for n, h in enumerate(hidden) if h] == [
        "rank", "score", "discount", "contribution", "cumulative"]
    assert not any(panel.grid.isColumnHidden(n) for n in range(len(GRID_COLUMNS)))


@pytest.mark.parametrize(("unknown", "expected"), [
    # Rows a (grade 2), b (1), c (unknown), d (5) ranked so, b and c tied
    # (their discounts averaged); linear gain: 2, 2 + 1 × (1/log2(3) + 1/2)/2,
    # then not known from c on, d's own grade a number.
    ("unresolved", [2.0, 2 + (1 / math.log2(3) + 0.5) / 2, "unknown", "unknown"]),
    # unknown declared 0 by name: the sum goes on, c adds nothing.
    ("zero", [2.0, 2 + (1 / math.log2(3) + 0.5) / 2, 2 + (1 / math.log2(3) + 0.5) / 2,
              2 + (1 / math.log2(3) + 0.5) / 2 + 5 / math.log2(5)]),
])
def test_the_running_dcg_below_an_unknown_grade_says_unknown(unknown: str,
                                                             expected: list[Any]) -> None:
    grid = CandidateModel("ranked")
    grid.set_evaluation(evaluate(mixed_document(), Conventions(unknown=unknown)), 0)
    col = GridColumn.CUMULATIVE
    cells = [grid.data(grid.index(r, col)) for r in range(4)]
    assert cells[:2] == pytest.approx(expected[:2])
    assert cells[2:] == (pytest.approx(expected[2:]) if unknown == "zero" else expected[2:])
    fonts = [grid.data(grid.index(r, col), Qt.ItemDataRole.FontRole) for r in range(4)]
    if unknown == "unresolved":
        # d's own grade is a number; its running DCG is unknown, in italics as c's gain
        assert fonts[3] is not None
        assert fonts[3] == grid.data(grid.index(2, GridColumn.GAIN), Qt.ItemDataRole.FontRole)
        assert grid.data(grid.index(3, col), Qt.ItemDataRole.ToolTipRole) == (
            "sum of contributions at ranks 1..4: not known, the grade at rank 3 is unknown")
    assert fonts[0] is None


@pytest.mark.parametrize("name", ["trec_eval", "ranx", "sklearn"])
def test_the_grids_contributions_added_down_the_list_give_the_dcg(name: str) -> None:
    """Under every preset, the grid's contribution column added down the
    ranked rows from 0.0 (as a reader adds it) and its running DCG end at
    the query's DCG: bit for bit under trec_eval's and ranx's presets, whose
    sums add the same terms in the same order (core.engine.discount.terms),
    with tied scores too (trec_eval's order by id, ranx's as supplied).
    Under the sklearn preset the DCG is scikit-learn's: a numpy sum
    (pairwise past 8 terms) of each tie group's mean gain times a difference
    of its running discounts (1 / (ln(r + 1) / ln 2)), so no sum of per-row
    values down the list ends there; the grid's ends within 8 units in the
    last place (6 at most measured on 400 random lists, tied or not). Each
    contribution's tooltip works it out with the numbers that give it."""
    rng = np.random.default_rng(11)
    rows = []
    for q in range(40):
        n = int(rng.integers(2, 30))
        scores = rng.integers(0, 6, n) if q % 2 else rng.permutation(n)
        rows += [(f"q{q}", f"d{i}", float(scores[i]), float(rng.integers(0, 4)))
                 for i in range(n)]
    from tests.conftest import doc_of

    ev = evaluate(doc_of(rows), preset(name))
    by_key = {c.key: c for c in COLUMNS}
    checked = 0
    for shown in _shown(ev):
        if not shown.rows.size or not ev.ranked_mask[shown.row(0)]:
            continue  # (the not-retrieved rows: no contribution)
        q = int(ev.doc.query[shown.row(0)])
        total = 0.0
        for row in range(shown.rows.size):
            cell = by_key["contribution"].value(shown, row)
            total += cell
            # The tooltip's numbers give the cell: 3 / log2(3) under the
            # presets that divide (it said 3 x 0.6309297535714575 =
            # 1.8927892607143724, a product of 1.8927892607143726).
            # (a tie group of one grade under sklearn's averaged ties: its
            # rank's own discount, said after the sum)
            words, _, sums = by_key["contribution"].tooltip(shown, row).partition(" = ")
            a, op, b, _, shown_cell = sums.split(" (")[0].split(" ")
            assert words.startswith(
                "gain / log2(rank + 1)" if name != "sklearn" else "gain × discount")
            assert (float(a) / float(b) if op == "/" else float(a) * float(b)) == cell
            assert float(shown_cell) == cell
        running = by_key["cumulative"].value(shown, shown.rows.size - 1)
        dcg = float(ev.dcg[q, 0])
        if name == "sklearn":
            assert abs(total - dcg) <= 8 * math.ulp(dcg)
            assert abs(running - dcg) <= 8 * math.ulp(dcg)
        else:
            assert total == running == dcg
        checked += 1
    assert checked == 40


_TIED_LISTS = st.lists(  # (a list of (score, grade) per query): few scores, so ties
    st.lists(st.tuples(st.integers(0, 3), st.sampled_from([0.0, 0.1, 0.3, 1.0, 2.0, 3.0,
                                                              1 / 3, 0.7, 2.5])),
             min_size=1, max_size=14),
    min_size=1, max_size=5)


@settings(max_examples=300, deadline=None)
@given(lists=_TIED_LISTS, name=st.sampled_from(["defaults", "trec_eval", "ranx", "pessimistic",
                                                 "optimistic", "supplied"]),
       k=st.sampled_from([1, 2, 3, 5, None]))
def test_the_running_dcg_ends_at_the_dcg_bit_for_bit(lists: list[list[tuple[int, float]]],
                                                        name: str, k: int | None) -> None:
    """Under the presets whose sums add their terms in position order (the
    defaults, averaged ties; trec_eval; ranx; the other tie rules) the grid's contributions are
    the engine's own terms (core.engine.sums.position_terms): added down
    the ranked rows from 0.0 they, and the running DCG, end at the query's
    DCG bit for bit, with tie groups of one grade and of mixed grades; the
    engine's contributions at k (contribution_at) add to DCG@k so too.
    Before, under averaged ties, the grid took gain × the group's mean
    discount in a tie group of one grade (the engine its own discount),
    and the engine a mixed group's gain total × discount total / size."""
    from tests.conftest import doc_of

    rows = [(f"q{q}", f"d{i}", float(score), grade)
            for q, pairs in enumerate(lists) for i, (score, grade) in enumerate(pairs)]
    conv = (Conventions() if name == "defaults" else preset(name) if name in ("trec_eval", "ranx")
            else Conventions(ties=name))  # type: ignore[arg-type]
    ev = evaluate(doc_of(rows), dataclasses.replace(conv, cutoffs=(k, None) if k else (None,)))
    contribution = {c.key: c for c in COLUMNS}["contribution"]
    at_k = ev.contribution_at(k)
    for q in range(ev.doc.n_queries):
        shown = ShownRows.of(ev, q, ev.ranked(q), ranked=True)
        total = 0.0
        for row in range(shown.rows.size):
            total += contribution.value(shown, row)
        assert total.hex() == float(ev.dcg[q, -1]).hex()
        assert float(shown.cumulative[-1]).hex() == float(ev.dcg[q, -1]).hex()
        total = 0.0
        for x in at_k[ev.ranked(q)].tolist():
            total += x
        assert total.hex() == float(ev.dcg[q, 0]).hex()


def test_an_edit_in_a_tie_group_refreshes_its_others_contributions(qtmodeltester: Any) -> None:
    """a, b, c tied, grades 2, 2, 2 (one grade: each its own rank's
    discount); b edited to 3 mixes the group, so a's and c's contributions
    turn to the group's mean discount: the grid names their cells changed
    (before, only the edited row's and the running DCG's)."""
    from core.engine.incremental import reevaluate
    from tests.conftest import doc_of

    doc = doc_of([("q", "a", 1.0, 2.0), ("q", "b", 1.0, 2.0), ("q", "c", 1.0, 2.0),
                  ("q", "d", 0.0, 1.0)])
    ev = evaluate(doc)
    grid = CandidateModel("ranked")
    grid.set_evaluation(ev, 0)
    col = [c.key for c in GRID_COLUMNS].index("contribution")
    before = [grid.data(grid.index(r, col)) for r in range(4)]
    assert before[:3] == [2.0, 2.0 / np.log2(3), 2.0 / np.log2(4)]
    changed: list[tuple[int, int, int, int]] = []
    grid.dataChanged.connect(lambda a, b, roles: changed.append(
        (a.row(), b.row(), a.column(), b.column())))
    doc.set_grade(1, 3.0, who="t")
    grid.set_evaluation(reevaluate(ev, [1]), changed=[1])
    mean = (1 + 1 / np.log2(3) + 0.5) / 3
    assert grid.data(grid.index(0, col)) == 2.0 * mean
    assert grid.data(grid.index(2, col)) == 2.0 * mean
    for r in (0, 2):
        assert any(r0 <= r <= r1 and c0 <= col <= c1 for r0, r1, c0, c1 in changed), r
    qtmodeltester.check(grid)


def test_a_tie_group_of_one_gain_and_two_grade_states_says_gain_not_grade() -> None:
    """Unknown grades counted as 0 beside a 0 in a tie group: two grade
    states, one gain, so each rank takes its own discount (the engine
    compares gains: core.engine.sums.mixed_groups); the contribution's
    tooltip and the column's formula say "one gain" (they said "a tie
    group of one grade", which the group is not)."""
    doc = Document.from_columns(query=["q"] * 3, source_id=["a", "b", "c"],
                                score=[2.0, 1.0, 1.0], grade=[2.0, 0.0, None])
    conv = Conventions(unknown="zero")
    ev = evaluate(doc, conv)
    by_key = {c.key: c for c in COLUMNS}
    (shown,) = [s for s in _shown(ev) if s.rows.size and ev.ranked_mask[s.row(0)]]
    tip = by_key["contribution"].tooltip(shown, 2)
    assert tip.startswith("gain × discount(rank 3) = 0.0 × 0.5 = 0.0 (")
    assert "(a tie group of one gain is the same list in every order" in tip
    assert "in a tie group of one gain, gain × its own rank's discount" in (
        by_key["contribution"].formula(conv))


@pytest.mark.parametrize(("unknown", "ranks", "gains"), [
    # case-F-unknown: A (grade 3), B (unknown), C (0), ranked so. An unknown
    # grade has no place in the ideal list: its ideal rank says unknown, as
    # its ideal gain does (the engine sorts it last: it was ideal rank 3).
    ("unresolved", [1, "unknown", 2], [3.0, "unknown", 0.0]),
    # unknown declared 0 by name: B is a gain 0 like C, ahead of it (the
    # ideal list's ties keep the document's order).
    ("zero", [1, 2, 3], [3.0, 0.0, 0.0]),
])
def test_an_unknown_grade_has_no_ideal_rank(unknown: str, ranks: list[Any],
                                            gains: list[Any]) -> None:
    doc = seed_document()
    q = list(doc.query_ids).index("case-F-unknown")
    grid = CandidateModel("ranked")
    grid.set_evaluation(evaluate(doc, Conventions(unknown=unknown)), q)
    assert [grid.data(grid.index(r, GridColumn.IDEAL_RANK)) for r in range(3)] == ranks
    assert [grid.data(grid.index(r, GridColumn.IDEAL_GAIN)) for r in range(3)] == gains
    tip = grid.data(grid.index(1, GridColumn.IDEAL_RANK), Qt.ItemDataRole.ToolTipRole)
    if unknown == "unresolved":
        assert tip.startswith("unknown: a gain not known has no place in the ideal list")
        # shown as the ideal gain's word is: the same font
        font = Qt.ItemDataRole.FontRole
        assert grid.data(grid.index(1, GridColumn.IDEAL_RANK), font) == grid.data(
            grid.index(1, GridColumn.IDEAL_GAIN), font) is not None
        # the header says it too
        assert grid.headerData(GridColumn.IDEAL_RANK, Qt.Orientation.Horizontal,
                               Qt.ItemDataRole.ToolTipRole).endswith(
            "a grade whose gain is not known (unknown, unrateable) has none")
    else:
        assert tip.startswith("ideal rank 2")


def test_the_ideal_list_s_two_readings_have_one_name_each(tmp_path: Path) -> None:
    """The grid says of each candidate its own place in the ideal list; the
    workbook, row by row, the k-th entry of the query's ideal list. Both
    said "ideal rank / ideal gain / ideal contribution": on case-A the grid
    said ideal rank 2 for B and the workbook's row of B said 1. Each name
    now says its reading, heads its grid column and its sheet column from
    the one declaration, and its header tooltip names the other reading."""
    by_key = {c.key: c for c in COLUMNS}
    own = [by_key[k] for k in ("ideal_rank", "ideal_gain", "ideal_contribution")]
    listed = [by_key[k] for k in ("ideal_list_rank", "ideal_list_gain",
                                  "ideal_list_contribution")]
    assert [c.title for c in own] == ["Its ideal rank", "Its ideal gain",
                                      "Its ideal contribution"]
    assert [c.sheet for c in listed] == [("M", "ideal list k"), ("N", "k-th ideal gain"),
                                         ("O", "k-th ideal contribution")]
    assert all(c.sheet is None and c.grid for c in own)
    conv = Conventions()
    assert "'ideal list k'" in own[0].formula(conv)
    assert "'Its ideal rank'" in listed[0].formula(conv)
    docs = (Path(__file__).parents[1] / "docs" / "workbook.md").read_text(encoding="utf-8")
    for name in ("ideal list k", "k-th ideal gain", "k-th ideal contribution",
                 "Its ideal rank"):
        assert name in docs, name
    # Case-A, hand-derived: B (grade 1), A (3), C (0) ranked so; the ideal
    # list A, B, C. The grid, per candidate: B is 2nd in it, A 1st, C 3rd.
    doc = seed_document()
    q = list(doc.query_ids).index("case-A")
    ev = evaluate(doc)
    grid = CandidateModel("ranked")
    grid.set_evaluation(ev, q)
    header = {grid.headerData(n, Qt.Orientation.Horizontal): n
              for n in range(grid.columnCount())}
    tips = {grid.headerData(n, Qt.Orientation.Horizontal): grid.headerData(
        n, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole)
        for n in range(grid.columnCount())}
    cells = {c.title: [grid.data(grid.index(r, header[c.title])) for r in range(3)]
             for c in own}
    third = 1 / math.log2(3)
    assert [grid.data(grid.index(r, header["Source"])) for r in range(3)] == ["B", "A", "C"]
    assert cells == {"Its ideal rank": [2, 1, 3], "Its ideal gain": [1.0, 3.0, 0.0],
                     "Its ideal contribution": pytest.approx([third, 3.0, 0.0])}
    assert all(tips[c.title] == c.formula(ev.conventions) for c in own)
    # The workbook, row by row: row k holds the k-th entry of the ideal list.
    sheet = _candidates_sheet(ev, tmp_path / "w.xlsx")
    col = {h: n for n, h in enumerate(sheet[0])}
    rows = [line for line in sheet[1:] if line[0] == "case-A"]
    assert [line[col["source id"]] for line in rows] == ["B", "A", "C"]
    assert [line[col["ideal list k"]] for line in rows] == [1, 2, 3]
    assert [line[col["k-th ideal gain"]] for line in rows] == [3, 1, 0]
    assert [line[col["k-th ideal contribution"]] for line in rows] == pytest.approx(
        [3.0, third, 0.0])


def _candidates_sheet(ev: Any, out: Path) -> list[list[Any]]:
    """The Candidates sheet's values of ``ev`` exported to ``out``, row by row."""
    export_workbook(ev, out)
    wb = openpyxl.load_workbook(out, data_only=True, read_only=True)
    try:
        return [list(r) for r in wb[SHEETS["candidates"]].iter_rows(values_only=True)]
    finally:
        wb.close()


@settings(max_examples=200, deadline=None)
@given(lists=st.lists(st.lists(st.tuples(st.integers(0, 3), st.sampled_from(
           [0.0, 1.0, 2.0, None, "unrateable"])), min_size=1, max_size=12),
           min_size=1, max_size=4),
       unknown=st.sampled_from(["unresolved", "zero", "condensed"]))
def test_the_first_unknown_gain_above_each_row(lists: list[list[tuple[int, Any]]],
                                              unknown: str) -> None:
    """:attr:`ShownRows.first_unknown` (worked out once for the rows) is, for
    each shown row, the first row at or above it whose gain is not known
    (the rows' count where none is), as looking above each row finds it;
    the running DCG's cell and tooltip name that row's state and rank."""
    from tests.conftest import doc_of

    rows = [(f"q{q}", f"d{i}", float(score), None if grade == "unrateable" else grade)
            for q, pairs in enumerate(lists) for i, (score, grade) in enumerate(pairs)]
    doc = doc_of(rows)
    for n, (*_, grade) in enumerate(r for pairs in lists for r in pairs):
        if grade == "unrateable":
            doc.set_grade(n, None, GradeState.UNRATEABLE, who="test")
    ev = evaluate(doc, Conventions(unknown=unknown))  # type: ignore[arg-type]
    cumulative = {c.key: c for c in COLUMNS}["cumulative"]
    for q in range(ev.doc.n_queries):
        for ranked, shown_rows in ((True, ev.ranked(q)), (False, ev.not_retrieved(q))):
            shown = ShownRows.of(ev, q, shown_rows, ranked=ranked)
            gains = ev.gain[shown.rows].tolist()
            expected = [next((j for j in range(row + 1) if math.isnan(gains[j])), len(gains))
                        for row in range(len(gains))]
            assert shown.first_unknown.tolist() == expected
            for row in range(shown.cumulative.size):
                first = expected[row]
                value, tip = cumulative.value(shown, row), cumulative.tooltip(shown, row)
                if first == len(gains):
                    assert value == _number(float(shown.cumulative[row]))
                    assert tip.endswith(f"= {full_text(shown.cumulative[row])}")
                else:
                    word = shown.state(first).label
                    assert value == (None if word == "number" else word)
                    rank = int(shown.values.rank[first])
                    assert tip.endswith(f"the grade at rank {rank} is {word}") or (
                        word == "number" and tip.endswith(
                            f"= {full_text(shown.cumulative[row])}"))
