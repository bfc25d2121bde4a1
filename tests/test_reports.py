"""The reports' shared wording: the phrase naming what a mean left out, and
the sentences that carry it."""

from __future__ import annotations

from core.analysis.aggregate import CutoffSummary, excluded_phrase, summarize
from core.engine.evaluation import evaluate
from core.model.conventions import Weighting
from core.model.examples import seed_document
from core.reports.sentences import summary_sentence


def test_excluded_phrase_names_each_reason_in_order():
    excluded = {"undefined": 2, "unresolved": 1, "no weight": 3}
    assert excluded_phrase(excluded) == "excluded: 2 undefined, 1 unresolved, 3 no weight"


def test_excluded_phrase_says_none_or_nothing_when_nothing_was_left_out():
    assert excluded_phrase({}) == "excluded: none"
    assert excluded_phrase({}, label="left out", empty=None) == ""
    assert excluded_phrase({"without a value in A": 1}, label="left out", empty=None) == (
        "left out: 1 without a value in A"
    )


def test_summary_sentence_carries_the_phrase():
    ev = evaluate(seed_document())
    s = summarize(ev)[0]
    assert s.excluded  # the seed holds an undefined and an unresolved case
    assert f"({excluded_phrase(s.excluded)})" in summary_sentence(ev, s)
    none = CutoffSummary(k=None, mean=0.5, included=1, weighting=Weighting.EQUAL)
    assert "(excluded: none)" in summary_sentence(ev, none)


def test_a_count_of_queries_agrees_with_its_noun():
    """"over 1 of 1 queries" read wrong: one query is "1 query", in the
    mean's sentence and in a comparison's tie rules line alike."""
    from core.analysis.compare.changes import TieSensitivity
    from core.model.conventions import TieRule
    from core.reports.sentences import mean_sentence

    ev = evaluate(seed_document())
    one = CutoffSummary(k=None, mean=0.5, included=1, weighting=Weighting.EQUAL)
    assert " over 1 of 1 query is 0.5000 " in mean_sentence(one, ev.conventions, 1)
    assert " over 1 of 2 queries is 0.5000 " in mean_sentence(one, ev.conventions, 2)
    ties = TieSensitivity(k=10, rule=TieRule.AVERAGE, per_rule={"supplied": 1},
                          queries=("q1",), with_ties=1)
    assert ties.sentence() == (
        "Tie rules: 1 query's delta changes sign or vanishes under another tie rule than "
        "average (supplied 1; 1 query has tied scores)")
    ties = TieSensitivity(k=10, rule=TieRule.AVERAGE, per_rule={"supplied": 0},
                          queries=(), with_ties=2)
    assert ties.sentence() == (
        "Tie rules: 0 queries' delta changes sign or vanishes under another tie rule than "
        "average (supplied 0; 2 queries have tied scores)")
