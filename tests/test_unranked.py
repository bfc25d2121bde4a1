"""A query with judgments but no ranked candidate (judgments only, or a query
of the qrels that the run does not hold): no ranking, so by default no NDCG
(status ``unranked``, excluded from means and counted); trec_eval's ``-c``
scores it as an empty list (0), which its preset keeps."""

from __future__ import annotations

import io
import json
import math

import pytest

from app.cli.main import main
from core.analysis.aggregate import summarize
from core.analysis.per_query import per_query_rows, summarize_rows
from core.engine.evaluation import Status, evaluate
from core.model.conventions import Conventions, IdealInventory, UnrankedRule
from core.model.presets import preset
from core.reports.sentences import query_sentence
from tests.conftest import doc_of

L = math.log2(3)
# "a": x (grade 1) at rank 1, y (grade 2) at rank 2, z (grade 3) judged but not
# retrieved; "b": judged candidates, none ranked.
ROWS = [
    ("a", "x", 2.0, 1.0), ("a", "y", 1.0, 2.0), ("a", "z", None, 3.0),
    ("b", "x", None, 3.0), ("b", "w", None, 0.0),
]
# Hand-derived: DCG(a) = 1 + 2/L; ideal over every judged candidate 3, 2, 1.
NDCG_A = (1 + 2 / L) / (3 + 2 / L + 1 / 2)


def test_judged_ideal_leaves_a_query_without_ranking_unranked() -> None:
    doc = doc_of(ROWS)
    ev = evaluate(doc, Conventions(ideal=IdealInventory.JUDGED))
    a, b = doc.query_ids.index("a"), doc.query_ids.index("b")
    assert ev.ndcg[a, 0] == pytest.approx(NDCG_A, abs=1e-15)
    assert ev.status(a) is Status.OK
    assert ev.status(b) is Status.UNRANKED
    assert math.isnan(ev.ndcg[b, 0])
    # its sums are still said: nothing ranked, an ideal of 3 + 0/L
    assert ev.dcg[b, 0] == 0.0
    assert ev.idcg[b, 0] == 3.0
    (s,) = summarize(ev)
    assert s.mean == pytest.approx(NDCG_A, abs=1e-15)
    assert (s.included, s.excluded) == (1, {"unranked": 1})
    assert "no candidate is ranked" in query_sentence(ev, b)
    # the per-query table (a cluster's workers) carries the status and its count
    assert summarize_rows(per_query_rows(ev), ev.conventions)[0].excluded == {"unranked": 1}


def test_unknown_grades_of_a_query_without_ranking_open_no_interval() -> None:
    doc = doc_of([*ROWS, ("b", "v", None, None)])
    ev = evaluate(doc, Conventions(ideal=IdealInventory.JUDGED))
    b = doc.query_ids.index("b")
    assert int(ev.n_open[b]) == 1
    assert ev.query_status(b) is Status.UNRANKED  # no ranking outranks unknown grades


@pytest.mark.parametrize("conv", [
    preset("trec_eval"), preset("ranx"),
    Conventions(ideal=IdealInventory.JUDGED, unranked=UnrankedRule.ZERO),
])
def test_trec_eval_c_scores_a_query_missing_from_the_run_as_zero(conv: Conventions) -> None:
    doc = doc_of(ROWS)
    ev = evaluate(doc, conv)
    b = doc.query_ids.index("b")
    assert ev.status(b) is Status.OK
    assert ev.ndcg[b, 0] == 0.0
    (s,) = summarize(ev)
    assert s.mean == pytest.approx(NDCG_A / 2, abs=1e-15)  # (NDCG(a) + 0) / 2
    assert (s.included, s.excluded) == (2, {})


def test_ranked_ideal_says_unranked_rather_than_an_ideal_of_zero() -> None:
    doc = doc_of(ROWS)
    b = doc.query_ids.index("b")
    assert evaluate(doc, Conventions()).status(b) is Status.UNRANKED
    # declared an empty list, its ideal (ranked candidates only) is 0: undefined
    assert evaluate(doc, Conventions(unranked=UnrankedRule.ZERO)).status(b) is Status.UNDEFINED


def test_command_line_declares_the_rule(tmp_path) -> None:  # type: ignore[no-untyped-def]
    sheet = tmp_path / "sheet.csv"
    sheet.write_text("query,source_id,score,grade\n" + "".join(
        f"{q},{s},{'' if score is None else score},{grade}\n" for q, s, score, grade in ROWS))
    means = []
    for extra in ([], ["--unranked", "zero"]):
        out = io.StringIO()
        code = main(["evaluate", str(sheet), "--ideal", "judged", "--format", "json", *extra],
                    out)
        assert code == 0
        data = json.loads(out.getvalue())
        status = {q["query"]: q["status"] for q in data["queries"]}
        assert status == {"a": "ok", "b": "unranked" if not extra else "ok"}
        assert data["conventions"]["unranked"] == ("zero" if extra else "undefined")
        means.append(data["summary"][0]["mean"])
    assert means == pytest.approx([NDCG_A, NDCG_A / 2], abs=1e-12)


def test_explain_books_the_silent_zero_on_the_unranked_step() -> None:
    from core.analysis.explain import explain

    doc = doc_of(ROWS)
    b = doc.query_ids.index("b")
    x = explain(doc, Conventions(ideal=IdealInventory.JUDGED, unranked=UnrankedRule.ZERO),
                Conventions(ideal=IdealInventory.JUDGED))
    (step,) = x.steps
    assert (step.field, step.before, step.after) == ("unranked", "zero", "undefined")
    assert step.unranked == (1,)
    assert math.isnan(x.ndcg_end[b, 0])
    # the means explained are over queries with a value at both ends: "a" alone
    assert x.mean_start[0] == x.mean_end[0] == pytest.approx(NDCG_A, abs=1e-15)
    assert x.excluded(0) == {"no value under the second conventions": 1}
    assert "after unranked: 0 undefined, 0 unresolved, 1 unranked" in x.sentence(0)
