"""A run's ranked order, worked out beside its join
(``document_from_trec(..., ties=...)``, core.engine.order's ``order_ahead``
and ``give_order``): trec_eval's (``id-desc``), and the defaults' (ties
averaged: with the tie groups) or the supplied order, is the order (and
the tie groups) the engine works out itself, and the evaluation is the same
bit for bit."""

from __future__ import annotations

import tempfile
from pathlib import Path
from unittest import mock

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from core.engine import order
from core.engine.evaluation import evaluate
from core.engine.sums import tie_group_numbers
from core.io.trec import document_from_trec, join
from core.model.conventions import Conventions, TieRule
from core.model.document import Document
from core.model.presets import apply_preset
from tests.trec_cases import run_and_qrels, write

TREC_EVAL = apply_preset(Conventions(), "trec_eval")


def read(run: Path, qrels: Path, ties: TieRule | None) -> Document:
    """The document, the order worked out ahead even for a small run."""
    with mock.patch.object(join, "_AHEAD_FROM", 0):
        return document_from_trec(run, qrels, unshared=True, ties=ties)


def assert_same_evaluation(ahead: Document, plain: Document, conv: Conventions) -> None:
    a, b = evaluate(ahead, conv, for_report=True), evaluate(plain, conv, for_report=True)
    assert ahead not in order._GIVEN  # taken (or dropped) by the ranking
    assert ahead not in order._GIVEN_TIES  # and its tie groups by the evaluation
    assert a.order.tolist() == b.order.tolist()
    mine, theirs = a._new_group, b._new_group  # where the tie groups start
    assert (mine is None) == (theirs is None)
    if mine is not None:
        assert mine.dtype == theirs.dtype
        assert mine.tobytes() == theirs.tobytes()
    for name in ("tie_size", "tie_first_rank"):
        assert getattr(a, name).tobytes() == getattr(b, name).tobytes(), name
    for name in ("dcg", "idcg", "ndcg", "status_code"):
        assert getattr(a, name).tobytes() == getattr(b, name).tobytes(), name


def averaged(run: Path, qrels: Path) -> order.Ahead:
    """What the join of ``run`` and ``qrels`` hands over with ties averaged,
    checked to give the engine's own evaluation."""
    doc = read(run, qrels, TieRule.AVERAGE)
    given = order._GIVEN[doc]
    assert_same_evaluation(doc, document_from_trec(run, qrels, unshared=True), Conventions())
    return given


def test_hand_made_ties_unsorted_scores_and_unequal_depths(tmp_path):
    # q1's scores out of order, ties in both queries (ids compared as bytes:
    # "b10" < "b9", "é" after ASCII), a judged source the run did not rank.
    run = write(tmp_path / "run.txt", "q1 Q0 b9 1 1 t\nq1 Q0 b10 2 2 t\nq1 Q0 a 3 1 t\n"
                                      "q1 Q0 é 4 1 t\nq2 Q0 x 1 5 t\nq2 Q0 y 2 5 t\n")
    qrels = write(tmp_path / "qrels.txt", "q1 0 a 2\nq1 0 b9 1\nq2 0 y 3\nq2 0 z 1\n")
    doc = read(run, qrels, TieRule.ID_DESC)
    given = order._GIVEN[doc]
    assert given[0] is TieRule.ID_DESC
    # q1: b10 (2), then the tie at 1 by id descending: é, b9, a; q2: y, x.
    assert given[1].tolist() == [1, 3, 0, 2, 5, 4]
    assert given.groups is None
    assert_same_evaluation(doc, document_from_trec(run, qrels, unshared=True), TREC_EVAL)
    # Ties averaged: the tie at 1 keeps the run's row order; its three rows
    # make one group, as q2's two do.
    given = averaged(run, qrels)
    assert given.order is not None
    assert given.order.tolist() == [1, 0, 2, 3, 4, 5]
    assert given.groups is not None
    assert given.groups.tolist() == [True, True, False, False, True, False]
    group, _, size = tie_group_numbers(given.groups)
    assert group.tolist() == [0, 1, 1, 1, 2, 2]
    assert size.tolist() == [1, 3, 2]


def test_a_run_in_score_order_gives_no_order_array(tmp_path):
    # Each query's rows (as many in each) by descending score: the rows'
    # own order (None), made an array only when the ranking takes it.
    run = write(tmp_path / "run.txt", "q1 Q0 a 1 3 t\nq1 Q0 b 2 3 t\nq1 Q0 c 3 1 t\n"
                                      "q2 Q0 x 1 5 t\nq2 Q0 y 2 4 t\nq2 Q0 w 3 4 t\n")
    qrels = write(tmp_path / "qrels.txt", "q1 0 a 2\nq1 0 c 1\nq2 0 y 3\nq2 0 z 1\n")
    given = averaged(run, qrels)
    assert given.order is None
    assert given.rows == 6
    assert given.groups is not None
    assert tie_group_numbers(given.groups)[2].tolist() == [2, 1, 1, 2]


def test_other_rules_and_dropped_rows_take_no_order(tmp_path):
    run = write(tmp_path / "run.txt", "q1 Q0 a 1 1 t\nq1 Q0 b 2 1 t\nq3 Q0 c 1 1 t\n")
    qrels = write(tmp_path / "qrels.txt", "q1 0 a 2\n")
    # q3 is judged nowhere: its rows are not the document's, so no order ahead.
    assert read(run, qrels, TieRule.ID_DESC) not in order._GIVEN
    both = write(tmp_path / "qrels2.txt", "q1 0 a 2\nq3 0 c 1\n")
    # Ties ordered by gain: the grades are not joined yet.
    for ties in (TieRule.PESSIMISTIC, TieRule.OPTIMISTIC, None):
        assert read(run, both, ties) not in order._GIVEN
    # An order given for trec_eval's rule is dropped by a ranking under another.
    doc = read(run, both, TieRule.ID_DESC)
    assert doc in order._GIVEN
    averaged = Conventions()
    assert_same_evaluation(doc, document_from_trec(run, both, unshared=True), averaged)


RULES = [TREC_EVAL, Conventions(), Conventions(ties=TieRule.SUPPLIED)]


@given(run_and_qrels(), st.sampled_from(RULES))
def test_order_ahead_equals_the_engines(files, conv):
    with tempfile.TemporaryDirectory() as tmp:
        run = write(Path(tmp) / "run.txt", files[0])
        qrels = write(Path(tmp) / "qrels.txt", files[1])
        try:
            plain = document_from_trec(run, qrels, unshared=True)
        except Exception:  # a repeated pair: refused either way
            return
        ahead = read(run, qrels, conv.ties)
        given = ahead in order._GIVEN
        if given:
            n = order._GIVEN[ahead].rows
            assert n == int(np.count_nonzero(~np.isnan(ahead.score)))
        assert_same_evaluation(ahead, plain, conv)


def test_an_order_given_for_other_rows_is_not_taken(tmp_path):
    # The order worked out ahead is for the run's rows 0..5, all ranked: a
    # ranking of other rows (five of them, say one was unranked since; six,
    # the judged row the run did not retrieve among them; the first three;
    # every row, None) orders them itself, as the engine does for a
    # document given no order.
    run = write(tmp_path / "run.txt", "q1 Q0 b9 1 1 t\nq1 Q0 b10 2 2 t\nq1 Q0 a 3 1 t\n"
                                      "q1 Q0 é 4 1 t\nq2 Q0 x 1 5 t\nq2 Q0 y 2 5 t\n")
    qrels = write(tmp_path / "qrels.txt", "q1 0 a 2\nq1 0 b9 1\nq2 0 y 3\nq2 0 z 1\n")
    plain = document_from_trec(run, qrels, unshared=True)
    gains = np.zeros(plain.query.size)
    for rows in ([0, 1, 2, 3, 5], [0, 1, 2, 3, 4, 6], [0, 1, 2], None):
        idx = None if rows is None else np.array(rows)
        want = order.order_ranked(plain, None if idx is None else idx.copy(), gains,
                                  TieRule.ID_DESC, None)
        ahead = read(run, qrels, TieRule.ID_DESC)
        assert order._GIVEN[ahead][1].size == 6
        got = order.order_ranked(ahead, None if idx is None else idx.copy(), gains,
                                 TieRule.ID_DESC, None)
        assert got.tolist() == want.tolist()
        assert sorted(got.tolist()) == (list(range(7)) if rows is None else rows)


def test_the_editors_launch_read_ranks_the_run_beside_its_join(tmp_path):
    # The launch's read (app.opening, on its reading thread) gives the join
    # the tie rule the document is evaluated under, the defaults' or the
    # preset's, as evaluate's read does: the evaluation after the join (on
    # the launch's serial path) takes the order instead of ranking again.
    from app.opening import Reading, load

    run = write(tmp_path / "run.txt", "q1 Q0 b9 1 1 t\nq1 Q0 b10 2 2 t\nq1 Q0 a 3 1 t\n"
                                      "q2 Q0 x 1 5 t\nq2 Q0 y 2 5 t\n")
    qrels = write(tmp_path / "qrels.txt", "q1 0 a 2\nq1 0 b9 1\nq2 0 y 3\nq2 0 z 1\n")
    with mock.patch.object(join, "_AHEAD_FROM", 0):
        assert order._GIVEN[load(run, qrels)][0] is TieRule.AVERAGE
        assert order._GIVEN[load(run, qrels, "sklearn")][0] is TieRule.AVERAGE
        assert order._GIVEN[load(run, qrels, "trec_eval")][0] is TieRule.ID_DESC
        reading = Reading(run, qrels, "trec_eval")
        doc = reading()
    assert reading.evaluation is not None
    assert doc not in order._GIVEN  # taken by the evaluation on the reading thread
    plain = document_from_trec(run, qrels, unshared=True)
    assert_same_evaluation(doc, plain, TREC_EVAL)
    assert reading.evaluation.ndcg.tobytes() == evaluate(plain, TREC_EVAL).ndcg.tobytes()
