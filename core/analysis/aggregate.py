"""Means over queries, with what was included and what was excluded (and why).

The sentences that carry a mean with every convention are
:mod:`core.reports.sentences`; the phrase naming what a mean left out is
:func:`excluded_phrase` here, because the analyses' own sentences use it too.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

import numpy as np
import numpy.typing as npt

from core.engine.discount import FloatArray
from core.engine.evaluation import Evaluation, Status
from core.engine.results import STATUS_BY_CODE
from core.model.conventions import UnknownRule, Weighting
from core.model.document import GradeState, has_weight
from core.model.grades import reasons_said
from core.model.numbers import agreed, counted

__all__ = ["FEW_JUDGED", "UNJUDGED", "CutoffSummary", "Unjudged", "excluded_phrase",
           "ids_apart", "summarize", "summarize_values", "unjudged_candidates",
           "unjudged_phrase", "unjudged_what", "with_unjudged"]

#: Why a mean leaves out a query the run ranked and the qrels never judged
#: (trec_eval and ranx leave such a query out too, under every option).
UNJUDGED = "unjudged"


@dataclass(frozen=True)
class CutoffSummary:
    """The mean NDCG at one cutoff, and the population behind it."""

    k: int | None
    mean: float | None
    included: int
    excluded: dict[str, int] = field(default_factory=dict)
    weighting: Weighting = Weighting.EQUAL
    weight_total: float = 0.0


def summarize(ev: Evaluation, weighting: Weighting | None = None) -> list[CutoffSummary]:
    """Mean NDCG per cutoff under the chosen weights.

    Queries without an NDCG are excluded and counted by status; under a
    weighted mean, queries without a weight (or with weight 0) are excluded
    and counted as ``no weight``; the queries a run ranked that its qrels
    never judge (:attr:`Document.unjudged_queries`, not in the document) are
    counted as :data:`UNJUDGED`.
    """
    weighting = weighting or ev.conventions.weighting
    out = summarize_values(ev.ndcg, ev.status_code, ev.cutoffs,
                           ev.doc.query_weights(weighting), weighting)
    return with_unjudged(out, len(ev.doc.unjudged_queries))


def with_unjudged(summaries: list[CutoffSummary], unjudged: int) -> list[CutoffSummary]:
    """``summaries`` counting ``unjudged`` queries (the run ranks them, the
    qrels never judge them: not in the document) among the excluded."""
    if not unjudged:
        return summaries
    return [replace(s, excluded={**s.excluded, UNJUDGED: unjudged}) for s in summaries]


@dataclass(frozen=True)
class Unjudged:
    """Candidates with an unknown grade that leave queries unresolved (a run
    joined with qrels that do not judge all it retrieved): what the editor's
    banner and the command line's note say."""

    unknown: int
    retrieved: int
    unresolved: int
    queries: int
    #: Of the ``unknown`` retrieved candidates, those whose unknown grade
    #: carries a reason, by kind (:meth:`~core.model.document.Document.unknown_reasons`):
    #: an item the annotators declined, not one the qrels leave out.
    reasons: dict[str, int] = field(default_factory=dict)


def unjudged_candidates(ev: Evaluation) -> Unjudged | None:
    """How many retrieved candidates are unknown, of how many retrieved,
    and the queries they leave unresolved; None when the unknown rule is
    not ``unresolved`` or no retrieved candidate is unknown (one judged but
    not retrieved, marked unknown, is no candidate the qrels do not judge)."""
    if ev.conventions.unknown is not UnknownRule.UNRESOLVED:
        return None
    doc = ev.doc
    # (under this rule the ranked rows are the retrieved ones, with a score;
    # counted on the mask: their indices, 1.4M of a 2M run's rows, are made
    # only where reasons are set, for unknown_reasons)
    ranked_unknown = (doc.state == int(GradeState.UNKNOWN)) & ev.ranked_mask
    unknown = int(np.count_nonzero(ranked_unknown))
    if not unknown:
        return None
    retrieved = int(ev.n_retrieved.sum())  # (the evaluation's: a document's scores may be released)
    # Every query's worst status at once (as query_status, not a call per query).
    unresolved = ev.status_table()[1].count(Status.UNRESOLVED)
    return Unjudged(unknown, retrieved, unresolved, doc.n_queries,
                    doc.unknown_reasons(ranked_unknown))


def unjudged_what(unknown: int, kinds: dict[str, int]) -> str:
    """What ``unknown`` candidates of a run joined with qrels are, given how
    many of them carry each kind of reason
    (:meth:`~core.model.document.Document.unknown_reasons`): not in the
    qrels, or, where some are there and their annotators declined them, how
    many of each.

    >>> unjudged_what(2, {}), unjudged_what(2, {"declined": 1})
    ('not in the qrels (unjudged)', 'unknown (1 not in the qrels, 1 declined)')
    >>> unjudged_what(2, {"declined": 2})
    'unknown (2 declined)'
    """
    if not kinds:
        return "not in the qrels (unjudged)"
    absent = unknown - sum(kinds.values())  # (said where there are any)
    return "unknown (" + ", ".join([f"{absent:,} not in the qrels"] * bool(absent)
                                   + reasons_said(kinds)) + ")"


def summarize_values(ndcg: FloatArray, status_code: npt.NDArray[np.int8],
                     cutoffs: tuple[int | None, ...], w: FloatArray,
                     weighting: Weighting) -> list[CutoffSummary]:
    """:func:`summarize` from per-query values: NDCG and status codes (one
    row per query, one column per cutoff) and each query's weight (the
    per-query table of a cluster's workers gives them,
    :mod:`core.analysis.per_query`)."""
    weighted = has_weight(w)
    out = []
    for j, k in enumerate(cutoffs):
        nd = ndcg[:, j]
        status = status_code[:, j]
        defined = ~np.isnan(nd)
        use = defined & weighted
        excluded: dict[str, int] = {}
        for code, st in enumerate(STATUS_BY_CODE[1:], start=1):
            count = int(np.count_nonzero(status == code))
            if count:
                excluded[st.value] = count
        missing = int(np.count_nonzero(defined & ~weighted))
        if missing:
            excluded["no weight"] = missing
        total = float(w[use].sum()) if use.any() else 0.0
        mean = float(np.dot(w[use], nd[use]) / total) if total > 0 else None
        out.append(CutoffSummary(k, mean, int(use.sum()), excluded, weighting, total))
    return out


#: The share of a run's retrieved candidates the qrels judge at or under
#: which :func:`ids_apart` shows an id of each side: so few judged are
#: likelier ids written two ways (``SKU-123`` and its page's URL) or files
#: of two collections than a run of unjudged finds.
FEW_JUDGED = 0.05


def ids_apart(ev: Evaluation) -> str | None:
    """When none, or at most :data:`FEW_JUDGED`, of the run's retrieved
    candidates are judged, one id of each side and what to do, in one
    sentence (a new user's run of ``SKU-123`` against qrels of product
    pages' URLs said only "60 of 60 unjudged"); None otherwise, or when the
    qrels judge no candidate the run left out (nothing to show of theirs).

    Told of the grades and scores as the document holds them, under any
    unknown-grade rule (``--unjudged zero`` reads such a run as all 0s).
    """
    doc = ev.doc
    retrieved = ev.retrieved_mask
    unknown = doc.state == int(GradeState.UNKNOWN)
    n = int(np.count_nonzero(retrieved))
    unjudged = np.flatnonzero(retrieved & unknown)
    judged = n - len(unjudged)
    theirs = np.flatnonzero(~retrieved & ~unknown)
    if not n or judged > FEW_JUDGED * n or not len(unjudged) or not len(theirs):
        return None
    run_id, qrels_id = (str(doc.source_id[int(a[0])]) for a in (unjudged, theirs))
    share = (f"none of the run's {n:,} retrieved candidates is" if not judged else
             f"only {judged:,} of the run's {n:,} retrieved candidates "
             f"{agreed(judged, 'is')}")
    return (f"{share} judged: the run's ids look like {run_id!r}, the qrels' like "
            f"{qrels_id!r}; if the two name the same items in two ways, import the "
            "judgments naming the column that holds the run's ids (ndcg-worksheet import "
            "SHEET --map source_id=COLUMN), else check that the run and the qrels are of "
            "the same collection")


def unjudged_phrase(queries: tuple[str, ...], named: int = 5) -> str:
    """What the queries a run ranked and its qrels never judged are, and the
    first ``named`` of them.

    >>> print(unjudged_phrase(("q9",)))
    1 query the run ranks and the qrels never judge, left out as ... leave it ('q9')
    >>> print(unjudged_phrase(("q9", "q8")))
    2 queries the run ranks and the qrels never judge, left out as ... leave them ('q9', 'q8')
    """
    n = len(queries)
    shown = ", ".join(repr(q) for q in queries[:named]) + (", ..." if n > named else "")
    return (f"{counted(n)} the run ranks and the qrels never judge, left out as trec_eval "
            f"and ranx leave {agreed(n, 'it')} ({shown})")


def excluded_phrase(
    excluded: Mapping[str, int], *, label: str = "excluded", empty: str | None = "none"
) -> str:
    """What a mean left out, by reason, as one phrase.

    Parameters
    ----------
    excluded : mapping of str to int
        Queries left out, by reason (as :attr:`CutoffSummary.excluded`), in
        the order they are to be named.
    label : str
        The word before the list (``excluded``, ``left out``).
    empty : str or None
        Said when nothing was left out; None: say nothing (an empty string).

    Examples
    --------
    >>> excluded_phrase({"undefined": 2, "unresolved": 1})
    'excluded: 2 undefined, 1 unresolved'
    >>> excluded_phrase({})
    'excluded: none'
    >>> excluded_phrase({}, label="left out", empty=None)
    ''
    """
    listed = ", ".join(f"{n} {why}" for why, n in excluded.items())
    if not listed:
        if empty is None:
            return ""
        listed = empty
    return f"{label}: {listed}"
