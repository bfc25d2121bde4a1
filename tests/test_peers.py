"""Differential tests: each preset against the peer it names, on generated data.

- ``trec_eval`` preset vs pytrec_eval (``ndcg``, ``ndcg_cut.K``): tied scores
  (trec_eval orders them by docno descending), negative grades (gain 0),
  judged-but-not-retrieved and retrieved-but-unjudged documents, queries
  without a relevant document (0, averaged in).
- ``sklearn`` preset vs ``sklearn.metrics.ndcg_score`` (ties averaged,
  ``ignore_ties=False``): rectangular data, ideal from the listed columns,
  fractional grades.
- ``ranx`` preset vs ranx ``ndcg@k`` and ``ndcg_burges@k`` (exponential gain)
  on tie-free scores (ranx orders ties arbitrarily), fractional grades included
  (both truncate them).

The trec_eval and ranx presets equal their peers bit for bit (``==``), per
query and in the means: they divide each gain by C's ``log2(rank + 1)`` and
sum position by position, as the peers do (``core.engine.discount.divides``).
The sklearn preset equals ``ndcg_score`` of each query alone bit for bit
(``core.engine.sklearn_sums``); its mean is compared to 1e-9 (:data:`TOL`)
with one call for all queries, whose ideal DCG is a BLAS matrix product: its
order of additions follows the call's batch shape, so ``ndcg_score`` itself
gives a query alone and among others values an ulp or two apart (about 29%
of drawn rows).

What the peers do, measured (see also the hand cases below): pytrec_eval and
ranx give negative grades gain 0 (ranx keeps only grades >= 1 as relevant);
sklearn refuses negative ``y_true``; all three return NDCG 0 when the ideal
DCG is 0 and average it in; pytrec_eval refuses fractional grades and ranx
truncates them to whole numbers.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
import tempfile
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import pytest
import pytrec_eval
from hypothesis import given, settings
from hypothesis import strategies as st
from ranx import Qrels, Run
from ranx import evaluate as ranx_evaluate
from sklearn.metrics import ndcg_score

from core.analysis.aggregate import summarize
from core.engine.evaluation import Evaluation, evaluate
from core.io.trec import document_from_trec
from core.model.conventions import GainRule
from core.model.document import Document
from core.model.presets import matching_presets, preset

TOL = 1e-9

#: Ids whose byte order is not their insertion order (trec_eval's tie order).
IDS = ("a", "b", "c", "aa", "b0", "d1", "d10", "d9", "D1", "Z", "e-2", "e.1")
#: Few distinct scores, so ties are common.
TIED_SCORES = (-1.0, 0.0, 0.5, 1.0, 1.0, 2.0, 3.25)


@dataclass
class Case:
    """Generated queries: per query, source -> (score or None, grade or None)."""

    queries: dict[str, dict[str, tuple[float | None, float | None]]]

    def document(self) -> Document:
        query, source, score, grade = [], [], [], []
        for q, rows in self.queries.items():
            for s, (sc, g) in rows.items():
                query.append(q)
                source.append(s)
                score.append(sc)
                grade.append(g)
        return Document.from_columns(query=query, source_id=source, score=score, grade=grade)

    def run(self) -> dict[str, dict[str, float]]:
        return {
            q: {s: sc for s, (sc, _) in rows.items() if sc is not None}
            for q, rows in self.queries.items()
        }

    def qrels(self) -> dict[str, dict[str, int]]:
        return {
            q: {s: int(g) for s, (_, g) in rows.items() if g is not None}
            for q, rows in self.queries.items()
        }

    def qrels_exact(self) -> dict[str, dict[str, float]]:
        """The grades as they are (generated cases use whole numbers)."""
        return {
            q: {s: g for s, (_, g) in rows.items() if g is not None}
            for q, rows in self.queries.items()
        }


@st.composite
def cases(
    draw: st.DrawFn,
    *,
    scores: st.SearchStrategy[float],
    grades: st.SearchStrategy[float],
    unique_scores: bool = False,
) -> Case:
    """Queries with retrieved and/or judged sources; each query has at least
    one retrieved and one judged source (so every peer evaluates it)."""
    n_queries = draw(st.integers(1, 4))
    queries: dict[str, dict[str, tuple[float | None, float | None]]] = {}
    for i in range(n_queries):
        ids = draw(st.lists(st.sampled_from(IDS), min_size=1, max_size=9, unique=True))
        kinds = draw(
            st.lists(
                st.sampled_from(("both", "both", "retrieved", "judged")),
                min_size=len(ids), max_size=len(ids),
            )
        )
        if not any(k != "judged" for k in kinds):
            kinds[0] = "both"
        if not any(k != "retrieved" for k in kinds):
            kinds[-1] = "both"
        if unique_scores:
            pool = draw(st.lists(scores, min_size=len(ids), max_size=len(ids), unique=True))
        else:
            pool = [draw(scores) for _ in ids]
        rows: dict[str, tuple[float | None, float | None]] = {}
        for s, kind, sc in zip(ids, kinds, pool, strict=True):
            rows[s] = (
                sc if kind != "judged" else None,
                float(draw(grades)) if kind != "retrieved" else None,
            )
        queries[f"q{i}"] = rows
    return Case(queries)


def assert_same(ours: float, theirs: float, what: str) -> None:
    """Bit for bit: the presets of trec_eval and ranx work each term and sum
    in their peer's order (core/engine/discount.py, DIVIDING_PRESETS)."""
    assert ours == theirs, f"{what}: ours {ours!r}, peer {theirs!r}"


def assert_close(ours: float, theirs: float, what: str) -> None:
    assert math.isfinite(ours), what
    assert abs(ours - theirs) <= TOL, f"{what}: ours {ours!r}, peer {theirs!r}"


def per_query(ev: Evaluation, j: int) -> dict[str, float]:
    return {qid: float(ev.ndcg[q, j]) for q, qid in enumerate(ev.doc.query_ids)}


def mean_at(ev: Evaluation, j: int) -> float:
    s = summarize(ev)[j]
    assert s.excluded == {}
    assert s.mean is not None
    return s.mean


# -- trec_eval (pytrec_eval) ---------------------------------------------------------


#: pytrec_eval 0.5.x corrupts its memory on negative grades: grade -2 (trec_eval's
#: "unjudged" code) crashes it, and -1 makes later evaluations in the same
#: process hang or crash. Cases with negative grades therefore run it in a
#: fresh process each, where -1 gives the values trec_eval documents.
_ISOLATED = (
    "import json, sys, pytrec_eval\n"
    "qrels, run, measures = json.load(sys.stdin)\n"
    "evaluator = pytrec_eval.RelevanceEvaluator(qrels, set(measures))\n"
    "json.dump(evaluator.evaluate(run), sys.stdout)\n"
)


def pytrec(case_run: dict[str, dict[str, float]], qrels: dict[str, dict[str, int]],
           ks: Sequence[int]) -> dict[str, dict[str, float]]:
    measures = ["ndcg", "ndcg_cut." + ",".join(map(str, ks))]
    if any(g < 0 for judged in qrels.values() for g in judged.values()):
        done = subprocess.run(
            [sys.executable, "-c", _ISOLATED], input=json.dumps([qrels, case_run, measures]),
            capture_output=True, text=True, timeout=60, check=True,
        )
        return json.loads(done.stdout)  # type: ignore[no-any-return]
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, set(measures))
    return evaluator.evaluate(case_run)  # type: ignore[no-any-return]


def compare_trec(ev: Evaluation, theirs: dict[str, dict[str, float]], ks: Sequence[int]) -> None:
    assert sorted(ev.doc.query_ids) == sorted(theirs)
    for j, k in enumerate(ev.cutoffs):
        name = "ndcg" if k is None else f"ndcg_cut_{k}"
        ours = per_query(ev, j)
        for qid, values in theirs.items():
            assert_same(ours[qid], values[name], f"{name} of {qid}")
        assert_same(mean_at(ev, j), float(np.mean([v[name] for v in theirs.values()])), name)


trec_cases = cases(
    scores=st.sampled_from(TIED_SCORES), grades=st.sampled_from((0, 0, 0, 1, 1, 2, 3, 4))
)
#: trec_eval reads -1 as a judged non-relevant grade (qrels.rel_level has them).
negative_trec_cases = cases(
    scores=st.sampled_from(TIED_SCORES), grades=st.sampled_from((-1, -1, 0, 1, 2, 3))
)
cutoff_sets = st.lists(st.integers(1, 10), min_size=1, max_size=3, unique=True)


@settings(max_examples=50)
@given(case=trec_cases, ks=cutoff_sets)
def test_trec_eval_preset_matches_pytrec_eval(case: Case, ks: list[int]) -> None:
    conv = preset("trec_eval", cutoffs=(None, *ks))
    ev = evaluate(case.document(), conv)
    compare_trec(ev, pytrec(case.run(), case.qrels(), ks), ks)


@settings(max_examples=8)
@given(case=negative_trec_cases, ks=cutoff_sets)
def test_trec_eval_preset_matches_pytrec_eval_on_negative_grades(
    case: Case, ks: list[int]
) -> None:
    conv = preset("trec_eval", cutoffs=(None, *ks))
    ev = evaluate(case.document(), conv)
    compare_trec(ev, pytrec(case.run(), case.qrels(), ks), ks)


@settings(max_examples=15)
@given(case=trec_cases, ks=cutoff_sets, seed=st.randoms(use_true_random=False))
def test_trec_files_match_pytrec_eval_parsers(case: Case, ks: list[int], seed: object) -> None:
    # Through the files: the run's rank column is written shuffled (trec_eval
    # ignores it) and judged sources the run did not retrieve come from qrels.
    run_lines, qrels_lines = [], []
    for q, rows in case.queries.items():
        retrieved = [(s, sc) for s, (sc, _) in rows.items() if sc is not None]
        ranks = list(range(1, len(retrieved) + 1))
        seed.shuffle(ranks)  # type: ignore[attr-defined]
        run_lines += [f"{q} Q0 {s} {r} {sc!r} tag\n" for (s, sc), r in zip(retrieved, ranks,
                                                                           strict=True)]
        qrels_lines += [f"{q} 0 {s} {int(g)}\n" for s, (_, g) in rows.items() if g is not None]
    with tempfile.TemporaryDirectory() as tmp:
        run_path, qrels_path = Path(tmp) / "run.txt", Path(tmp) / "qrels.txt"
        run_path.write_text("".join(run_lines))
        qrels_path.write_text("".join(qrels_lines))
        doc = document_from_trec(run_path, qrels_path)
        with open(run_path) as fr, open(qrels_path) as fq:
            theirs = pytrec(pytrec_eval.parse_run(fr), pytrec_eval.parse_qrel(fq), ks)
    ev = evaluate(doc, preset("trec_eval", cutoffs=(None, *ks)))
    compare_trec(ev, theirs, ks)


L3 = math.log2(3)


@pytest.mark.parametrize(
    ("rows", "k", "expected"),
    [
        # Three tied scores: trec_eval orders them c, b, a (docno descending).
        ({"a": (1.0, 1), "b": (1.0, 0), "c": (1.0, 2)}, 1, 1.0),
        ({"a": (1.0, 2), "b": (1.0, 0), "c": (1.0, 1)}, 1, 0.5),
        # A negative grade counts as gain 0 in the ranking and in the ideal.
        ({"x": (5.0, None), "b": (3.0, -1), "c": (2.0, 0), "a": (1.0, 2), "d": (None, 1)},
         None, (2 / math.log2(5)) / (2 + 1 / L3)),
        # No relevant source: ideal DCG 0 gives 0.
        ({"a": (1.0, 0), "b": (2.0, -1), "c": (None, 0)}, None, 0.0),
        # Only a judged-but-not-retrieved relevant source: DCG 0, ideal 1.
        ({"a": (1.0, 0), "b": (None, 3)}, 5, 0.0),
    ],
)
def test_trec_hand_cases(
    rows: dict[str, tuple[float | None, int | None]], k: int | None, expected: float
) -> None:
    case = Case({"q": {s: (sc, None if g is None else float(g)) for s, (sc, g) in rows.items()}})
    ks = [k] if k is not None else [1]
    theirs = pytrec(case.run(), case.qrels(), ks)["q"]
    name = "ndcg" if k is None else f"ndcg_cut_{k}"
    assert abs(theirs[name] - expected) <= TOL
    ev = evaluate(case.document(), preset("trec_eval", cutoffs=(k,)))
    assert_close(float(ev.ndcg[0, 0]), expected, name)


# -- scikit-learn -----------------------------------------------------------------------


@st.composite
def matrices(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """y_true (NaN = unknown), y_score with many ties."""
    n_q = draw(st.integers(1, 4))
    n_c = draw(st.integers(2, 8))
    cells = n_q * n_c
    grades = draw(st.lists(st.sampled_from((0.0, 0.0, 1.0, 2.0, 3.0, 0.5, 1.25)),
                           min_size=cells, max_size=cells))
    unknown = draw(st.lists(st.booleans(), min_size=cells, max_size=cells))
    scores = draw(st.lists(st.sampled_from((0.0, 1.0, 2.0, 2.5, -0.5)),
                           min_size=cells, max_size=cells))
    y_true = np.array(grades).reshape(n_q, n_c)
    known = ~np.array(unknown).reshape(n_q, n_c) | (draw(st.integers(0, 3)) == 0)
    y_score = np.array(scores).reshape(n_q, n_c)
    return y_true, known, y_score


def sklearn_document(y_true: np.ndarray, known: np.ndarray, y_score: np.ndarray) -> Document:
    n_q, n_c = y_true.shape
    return Document.from_columns(
        query=[f"q{i}" for i in range(n_q) for _ in range(n_c)],
        source_id=[f"c{j}" for _ in range(n_q) for j in range(n_c)],
        score=y_score.ravel(),
        grade=np.where(known, y_true, np.nan).ravel(),
    )


@settings(max_examples=50)
@given(data=matrices(), k=st.one_of(st.none(), st.integers(1, 9)))
def test_sklearn_preset_matches_ndcg_score(
    data: tuple[np.ndarray, np.ndarray, np.ndarray], k: int | None
) -> None:
    y_true, known, y_score = data
    # The preset reads unknown grades as 0, as sklearn can only be given 0.
    y_peer = np.where(known, y_true, 0.0)
    ev = evaluate(sklearn_document(y_true, known, y_score),
                  preset("sklearn", cutoffs=(k,)))
    for q in range(y_true.shape[0]):
        theirs = ndcg_score(y_peer[q:q + 1], y_score[q:q + 1], k=k, ignore_ties=False)
        assert_same(float(ev.ndcg[q, 0]), float(theirs), f"query {q}, k={k}")
    # (One call for all queries: its ideal DCGs are one BLAS matrix product,
    # whose order of additions differs from the one-query calls' dot
    # products, so its values can differ from them in the last bit.)
    theirs_mean = ndcg_score(y_peer, y_score, k=k, ignore_ties=False)
    assert_close(mean_at(ev, 0), float(theirs_mean), f"mean, k={k}")


def test_sklearn_hand_cases() -> None:
    # Case E of the seed: two tied candidates with grades 3 and 1, k=1: 2/3.
    y_true, y_score = np.array([[3.0, 1.0]]), np.array([[1.0, 1.0]])
    assert abs(ndcg_score(y_true, y_score, k=1, ignore_ties=False) - 2 / 3) <= TOL
    ev = evaluate(sklearn_document(y_true, np.ones((1, 2), bool), y_score),
                  preset("sklearn", cutoffs=(1,)))
    assert_close(float(ev.ndcg[0, 0]), 2 / 3, "case E")
    # An all-zero row counts 0 and is averaged in: (0 + 0.5) / 2.
    y_true = np.array([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0]])
    y_score = np.array([[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]])
    assert abs(ndcg_score(y_true, y_score) - 0.25) <= TOL
    ev = evaluate(sklearn_document(y_true, np.ones((2, 3), bool), y_score),
                  preset("sklearn"))
    assert_close(mean_at(ev, 0), 0.25, "mean with a zero ideal")
    # Grades 0.1 tied in a perfect ranking: 1.0 in scikit-learn (the group's
    # mean gain times its discounts), so under the preset too, and under the
    # defaults (a group of equal gains added position by position as the
    # ideal list is: gain total x discount total / size read 1.0000000000000002).
    y_true, y_score = np.array([[0.1, 0.1, 0.1]]), np.array([[1.0, 1.0, 1.0]])
    assert ndcg_score(y_true, y_score) == 1.0
    tied = sklearn_document(y_true, np.ones((1, 3), bool), y_score)
    assert evaluate(tied, preset("sklearn")).ndcg[0, 0] == 1.0
    assert evaluate(tied).ndcg[0, 0] == 1.0
    # sklearn refuses negative grades, so the preset is compared on grades >= 0.
    with pytest.raises(ValueError, match="negative"):
        ndcg_score(np.array([[1.0, -1.0]]), np.array([[1.0, 2.0]]))


# -- ranx -------------------------------------------------------------------------------


def ranx_scores(
    case: Case, metrics: list[str], *, exact: bool = False
) -> dict[str, dict[str, float]]:
    run = Run(case.run())
    qrels = Qrels(case.qrels_exact() if exact else case.qrels())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # numba's parallel-loop notices
        ranx_evaluate(qrels, run, metrics, make_comparable=False)
    return {m: {q: float(v) for q, v in run.scores[m].items()} for m in metrics}


def compare_ranx(case: Case, ks: list[int], *, exponential: bool) -> None:
    metric = "ndcg_burges" if exponential else "ndcg"
    names = [metric] + [f"{metric}@{k}" for k in ks]
    theirs = ranx_scores(case, names, exact=True)  # (fractional grades: ranx truncates them)
    gain = preset("ranx").gain
    if exponential:  # ndcg_burges: the preset's gain with the exponential rule
        gain = replace(gain, rule=GainRule.EXPONENTIAL)
    conv = preset("ranx", cutoffs=(None, *ks), gain=gain)
    assert matching_presets(conv) == ["ranx"]
    ev = evaluate(case.document(), conv)
    for j, name in enumerate(names):
        ours = per_query(ev, j)
        assert sorted(ours) == sorted(theirs[name])
        for qid, value in theirs[name].items():
            assert_same(ours[qid], value, f"{name} of {qid}")
        assert_same(mean_at(ev, j), float(np.mean(list(theirs[name].values()))), name)


ranx_cases = cases(
    scores=st.floats(-100, 100, allow_nan=False, allow_infinity=False),
    grades=st.sampled_from((0, 0, 0, 1, 1, 2, 3, 4, 0.5, 1.7, 3.25)),
    unique_scores=True,
)


@settings(max_examples=40)
@given(case=ranx_cases, ks=cutoff_sets, exponential=st.booleans())
def test_ranx_preset_matches_ranx(case: Case, ks: list[int], exponential: bool) -> None:
    compare_ranx(case, ks, exponential=exponential)


def test_ranx_zero_ideal_is_zero_and_averaged_in() -> None:
    case = Case({
        "q1": {"a": (2.0, 0.0), "b": (1.0, None), "c": (None, 0.0)},
        "q2": {"a": (2.0, 0.0), "b": (1.0, 1.0)},
    })
    theirs = ranx_scores(case, ["ndcg"])["ndcg"]
    assert theirs == pytest.approx({"q1": 0.0, "q2": 1 / L3}, abs=TOL)
    compare_ranx(case, [1, 2], exponential=False)
    compare_ranx(case, [1, 2], exponential=True)


NEGATIVE = Case({"q": {"b": (2.0, -1.0), "a": (1.0, 1.0)}})


def test_ranx_gives_negative_grades_gain_0() -> None:
    # ranx keeps only grades >= 1 as relevant: b (grade -1, rank 1) adds 0.
    theirs = ranx_scores(NEGATIVE, ["ndcg", "ndcg_burges"])
    assert theirs["ndcg"]["q"] == pytest.approx(1 / L3, abs=TOL)
    assert theirs["ndcg_burges"]["q"] == pytest.approx(1 / L3, abs=TOL)


def test_ranx_preset_negative_grades() -> None:
    # Measured: the preset once used plain linear gain, giving b=-1 (rank 1),
    # a=1 (rank 2) NDCG (-1 + 1/log2 3)/(1 - 1/log2 3) = -1.0 against ranx's
    # 1/log2 3; under exponential gain it refused the grade.
    compare_ranx(NEGATIVE, [1], exponential=False)
    compare_ranx(NEGATIVE, [1], exponential=True)


FRACTIONAL = Case({"q": {"b": (2.0, 1.0), "a": (1.0, 1.7)}})


def test_ranx_truncates_fractional_grades() -> None:
    # ranx stores grades as whole numbers: 1.7 becomes 1, so a and b tie and
    # the ranking b, a is ideal.
    assert Qrels(FRACTIONAL.qrels_exact()).to_dict()["q"] == {"b": 1, "a": 1}
    assert ranx_scores(FRACTIONAL, ["ndcg"], exact=True)["ndcg"]["q"] == pytest.approx(1.0)


def test_ranx_preset_fractional_grades() -> None:
    # Measured: a preset that keeps 1.7 gives (1 + 1.7/log2 3)/(1.7 + 1/log2 3)
    # = 0.8892 for b=1, a=1.7 ranked b, a; ranx gives 1.0.
    ours = evaluate(FRACTIONAL.document(), preset("ranx"))
    theirs = ranx_scores(FRACTIONAL, ["ndcg"], exact=True)["ndcg"]["q"]
    assert_close(float(ours.ndcg[0, 0]), theirs, "ndcg")
