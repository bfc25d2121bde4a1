"""Explain why two sets of conventions give one document different NDCG.

Starting from the first conventions, one convention at a time is changed to
the second's, in the fixed order :data:`STEP_ORDER`, and the document is
evaluated after each step. Each step's share of the difference is the change
it makes, per query and in the mean; the shares add up to the whole
difference (to floating-point rounding).

Only queries with an NDCG at both ends enter the sums. A query can lose its
value after a step (undefined: ideal DCG 0; unresolved: an unknown grade)
and regain it later: its change across that gap is booked on the step that
gives the value back, and the step says how many such queries it holds.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import numpy.typing as npt

from core.analysis.aggregate import excluded_phrase
from core.engine.evaluation import Evaluation, Status, evaluate
from core.errors import ConventionError
from core.model.conventions import Conventions, format_cutoff
from core.model.document import Document, has_weight
from core.model.numbers import DECIMALS, counted, fixed_text
from core.model.presets import PRESETS, matching_presets, peer_command

__all__ = [
    "ARITHMETIC_FIELDS",
    "STEP_ORDER",
    "Explanation",
    "PeerMatch",
    "Step",
    "explain",
    "peer_matches",
]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

#: The order in which conventions are changed, one per step. The grades
#: first (the annotators' consensus and its rounding, one step, taken only
#: when the document keeps the annotators' grades), then the gain (it changes
#: every number), the ranked list (ties), the ideal list (inventory), missing
#: and empty judgments, a query with no ranking, the cutoffs, and last the weighting, which changes
#: only the mean.
STEP_ORDER: tuple[str, ...] = (
    "consensus", "gain", "discount", "ties", "ideal", "unknown", "zero_ideal", "unranked",
    "cutoffs", "weighting",
)
#: The fields the preset matching compares (the arithmetic of one query).
ARITHMETIC_FIELDS: tuple[str, ...] = ("gain", "discount", "ideal", "ties", "unknown", "zero_ideal",
                                      "unranked")
#: Fields that do not enter the evaluation of the document's current grades.
_NOT_APPLIED = ("rubric", "preset")


def _text(conv: Conventions, name: str) -> str:
    if name == "consensus":
        return f"{conv.consensus.value}, rounding {conv.rounding.value}"
    value: Any = getattr(conv, name)
    if name == "gain":
        return str(conv.gain.label)
    if name == "cutoffs":
        return ", ".join(format_cutoff(k) for k in conv.cutoffs)
    if name == "rubric":
        return value.text if value is not None else "none"
    if value is None:
        return "none"
    return str(getattr(value, "value", value))


@dataclass(frozen=True)
class PeerMatch:
    """A peer whose arithmetic the conventions reproduce, and its command."""

    preset: str
    command: str


def peer_matches(conv: Conventions) -> tuple[list[PeerMatch], str]:
    """The matching presets with the peer's equivalent command, and a sentence.

    When no preset matches, the sentence says so and names the nearest preset
    and the conventions that differ from it.
    """
    matches = [
        PeerMatch(name, peer_command(name, conv.cutoffs, conv.gain))
        for name in matching_presets(conv)
    ]
    if matches:
        text = "; ".join(f"{m.preset}: {m.command}" for m in matches)
        return matches, f"These conventions reproduce {text}."
    best_name, best_diff = "", list(ARITHMETIC_FIELDS)
    for name, preset in PRESETS.items():
        diff = [f for f in ARITHMETIC_FIELDS if getattr(conv, f) != getattr(preset, f)]
        if len(diff) < len(best_diff):
            best_name, best_diff = name, diff
    differ = ", ".join(
        f"{f} {_text(conv, f)} (theirs: {_text(PRESETS[best_name], f)})" for f in best_diff
    )
    return [], (
        f"No peer preset matches these conventions; the nearest, {best_name}, differs in "
        f"{differ}."
    )


@dataclass(frozen=True)
class Step:
    """One convention changed from the first set's choice to the second's.

    ``ndcg`` holds the values after the step (queries x cutoffs);
    ``contribution`` the step's share per query (NaN for queries without a
    value at both ends); ``mean`` its share of the mean difference per
    cutoff. ``undefined``/``unresolved``/``unranked``/``negative`` count the queries with
    that status after the step; ``bridged`` the queries whose change across a gap (no
    value after an earlier step) is booked on this step.
    """

    field: str
    before: str
    after: str
    conventions: Conventions
    ndcg: FloatArray
    contribution: FloatArray
    mean: tuple[float | None, ...]
    undefined: tuple[int, ...]
    unresolved: tuple[int, ...]
    bridged: tuple[int, ...]
    unranked: tuple[int, ...] = ()
    negative: tuple[int, ...] = ()

    @property
    def label(self) -> str:
        return f"{self.field}: {self.before} -> {self.after}"


@dataclass
class Explanation:
    """The step-by-step account of a difference between two conventions.

    ``included`` (queries x cutoffs) marks the queries with a value (and a
    weight) at both ends: the sums and means use those only.
    """

    doc: Document
    start: Conventions
    end: Conventions
    steps: list[Step]
    ndcg_start: FloatArray
    ndcg_end: FloatArray
    included: BoolArray
    mean_start: tuple[float | None, ...]
    mean_end: tuple[float | None, ...]
    not_applied: list[tuple[str, str, str]]
    peers_start: list[PeerMatch]
    peers_end: list[PeerMatch]
    peers_start_text: str
    peers_end_text: str
    #: Candidates whose grade the consensus step recomputed.
    regraded: int = 0

    @property
    def total(self) -> FloatArray:
        """End minus start per query and cutoff (NaN outside ``included``)."""
        return np.where(self.included, self.ndcg_end - self.ndcg_start, np.nan)

    @property
    def mean_total(self) -> tuple[float | None, ...]:
        return tuple(
            None if a is None or b is None else b - a
            for a, b in zip(self.mean_start, self.mean_end, strict=True)
        )

    def excluded(self, j: int = 0) -> dict[str, int]:
        """Queries left out of the sums at cutoff index ``j``, by reason."""
        s = np.isnan(self.ndcg_start[:, j])
        e = np.isnan(self.ndcg_end[:, j])
        out = {
            "no value under the first conventions": int(np.count_nonzero(s)),
            "no value under the second conventions": int(np.count_nonzero(e & ~s)),
            "no weight": int(np.count_nonzero(~s & ~e & ~self.included[:, j])),
        }
        return {k: v for k, v in out.items() if v}

    def sentence(self, j: int = 0, *, decimals: int = DECIMALS) -> str:
        """One paragraph for cutoff index ``j``, its numbers at ``decimals``
        digits (the editor's decimals setting)."""
        k_start = format_cutoff(self.start.cutoffs[j])
        k_end = format_cutoff(self.end.cutoffs[j])
        at = f"NDCG@{k_start}" if k_start == k_end else f"NDCG@{k_start} -> @{k_end}"
        n = int(np.count_nonzero(self.included[:, j]))
        a, b = self.mean_start[j], self.mean_end[j]
        if a is None or b is None:
            return f"No query has {at} under both conventions, so there is nothing to explain."
        parts = [
            f"{s.label} {fixed_text(m, decimals, signed=True)}"
            for s in self.steps if (m := s.mean[j]) is not None
        ]
        steps = "; ".join(parts) if parts else "no convention that enters the arithmetic differs"
        left = excluded_phrase(self.excluded(j), label="left out", empty=None)
        text = (
            f"Mean {at} goes from {fixed_text(a, decimals)} to {fixed_text(b, decimals)} "
            f"({fixed_text(b - a, decimals, signed=True)}) over the {counted(n)} with a "
            f"value under both conventions"
            + (f" ({left})" if left else "")
            + f". Changing one convention at a time, in the order {', '.join(STEP_ORDER)}: "
            f"{steps}. The steps add up to the whole difference (to rounding)."
        )
        status = [
            f"after {s.field}: {s.undefined[j]} undefined, {s.unresolved[j]} unresolved"
            + (f", {s.unranked[j]} unranked" if s.unranked and s.unranked[j] else "")
            + (f", {s.negative[j]} negative" if s.negative and s.negative[j] else "")
            for s in self.steps
            if s.undefined[j] or s.unresolved[j] or (s.unranked and s.unranked[j])
            or (s.negative and s.negative[j])
        ]
        if status:
            text += (
                f" Queries without a value ({'; '.join(status)}) enter the sums only if they "
                "have a value at both ends."
            )
        gaps = [
            f"{s.bridged[j]} after the {s.field} step" for s in self.steps if s.bridged[j]
        ]
        if gaps:
            text += (
                " Some queries had no value after an intermediate step; their change across "
                f"the gap is booked on the step that gives the value back ({', '.join(gaps)})."
            )
        if self.regraded:
            text += (
                f" The consensus step recomputed {counted(self.regraded, 'grade')} from the "
                "annotators' kept grades, where the two consensus rules disagree."
            )
        if self.not_applied:
            names = ", ".join(f"{f} ({x} -> {y})" for f, x, y in self.not_applied)
            text += f" Also different, but not part of this evaluation's arithmetic: {names}."
        return text


def _wmean(values: FloatArray, w: FloatArray, use: BoolArray) -> float | None:
    total = float(w[use].sum())
    if not use.any() or total <= 0:
        return None
    return float(np.dot(w[use], values[use]) / total)


def _counts(ev: Evaluation, status: Status) -> tuple[int, ...]:
    return tuple(int(np.count_nonzero(ev.status_code[:, j] == status.code)) for j in
                 range(len(ev.cutoffs)))


def explain(doc: Document, start: Conventions, end: Conventions) -> Explanation:
    """Account for the difference between ``start`` and ``end`` on ``doc``.

    Parameters
    ----------
    doc : Document
        The document, evaluated under each intermediate set of conventions.
    start, end : Conventions
        The two sets; cutoffs are paired by position, so both must declare
        the same number of cutoffs.

    Returns
    -------
    Explanation
        With one :class:`Step` per convention that differs, in
        :data:`STEP_ORDER`.

    Examples
    --------
    The seed's case B under linear and exponential gain:

    >>> from core.model.conventions import Gain
    >>> from core.model.examples import seed_document
    >>> doc = seed_document()
    >>> x = explain(doc, Conventions(), Conventions(gain=Gain.parse("exponential")))
    >>> [s.field for s in x.steps]
    ['gain']
    >>> q = doc.query_ids.index("case-B")
    >>> round(float(x.steps[0].contribution[q, 0]), 6)  # 0.644286 - 0.659001
    -0.014715
    """
    if len(start.cutoffs) != len(end.cutoffs):
        raise ConventionError(
            f"the two conventions declare {len(start.cutoffs)} and {len(end.cutoffs)} cutoffs; "
            "declare the same number (they are paired in order)"
        )
    walk = _walk(doc, start, end)
    values = walk.values
    ndcg_end = values[-1]
    w_start = doc.query_weights(start.weighting)
    w_end = doc.query_weights(end.weighting)
    weighted = has_weight(w_start) & has_weight(w_end)
    included = ~np.isnan(values[0]) & ~np.isnan(ndcg_end) & weighted[:, None]
    steps = _steps(walk, included, w_start, w_end)
    not_applied = walk.not_applied + [
        (f, _text(start, f), _text(end, f))
        for f in _NOT_APPLIED
        if getattr(start, f) != getattr(end, f)
    ]
    peers_start, text_start = peer_matches(start)
    peers_end, text_end = peer_matches(end)
    nk = ndcg_end.shape[1]
    return Explanation(
        doc=doc, start=start, end=end, steps=steps, ndcg_start=values[0], ndcg_end=ndcg_end,
        included=included,
        mean_start=tuple(_wmean(values[0][:, j], w_start, included[:, j]) for j in range(nk)),
        mean_end=tuple(_wmean(ndcg_end[:, j], w_end, included[:, j]) for j in range(nk)),
        not_applied=not_applied, peers_start=peers_start, peers_end=peers_end,
        peers_start_text=text_start, peers_end_text=text_end, regraded=walk.regraded,
    )


@dataclass
class _Walk:
    """The conventions changed one at a time from the start to the end:
    ``changed`` (field, before, after, conventions after the step) and, from
    the start on, each step's NDCG ``values`` and evaluation ``evs``; the
    consensus differences that could not apply (``not_applied``) and how many
    grades the consensus step recomputed (``regraded``)."""

    changed: list[tuple[str, str, str, Conventions]]
    values: list[FloatArray]
    evs: list[Evaluation]
    not_applied: list[tuple[str, str, str]]
    regraded: int


def _walk(doc: Document, start: Conventions, end: Conventions) -> _Walk:
    """Evaluate ``doc`` after each step of :data:`STEP_ORDER` that changes something."""
    ev_start = evaluate(doc, start)
    current = start
    walk = _Walk([], [ev_start.ndcg], [ev_start], [], 0)
    graded_doc = doc
    for name in STEP_ORDER:
        if name == "consensus":
            names = ("consensus", "rounding")
            if all(getattr(current, f) == getattr(end, f) for f in names):
                continue
            if doc.ratings is None:
                # No annotators' grades are kept: the consensus has nothing to act on.
                walk.not_applied.append(("consensus", _text(start, name), _text(end, name)))
                continue
            graded_doc, walk.regraded = _regrade(doc, start, end)
            before = _text(current, name)
            current = current.replace(consensus=end.consensus, rounding=end.rounding)
        else:
            if getattr(current, name) == getattr(end, name):
                continue
            before = _text(current, name)
            current = current.replace(**{name: getattr(end, name)})
        walk.changed.append((name, before, _text(current, name), current))
        if name == "weighting":
            walk.values.append(walk.values[-1])
            walk.evs.append(walk.evs[-1])
        else:
            ev = evaluate(graded_doc, current)
            walk.values.append(ev.ndcg)
            walk.evs.append(ev)
    return walk


def _steps(walk: _Walk, included: BoolArray, w_start: FloatArray,
           w_end: FloatArray) -> list[Step]:
    """Each step's share of the difference, per query and in the mean."""
    values = walk.values
    ndcg_end = values[-1]
    nq, nk = ndcg_end.shape
    last = values[0].copy()
    gap = np.zeros((nq, nk), dtype=bool)
    steps: list[Step] = []
    for i, (name, before, after, conv) in enumerate(walk.changed, start=1):
        v = values[i]
        ev = walk.evs[i]
        has = ~np.isnan(v) & included
        contribution = np.where(included, 0.0, np.nan)
        contribution[has] = v[has] - last[has]
        bridged = has & gap
        last[has] = v[has]
        gap = (gap & ~has) | (included & np.isnan(v))
        if name == "weighting":
            mean = tuple(
                _diff(_wmean(ndcg_end[:, j], w_end, included[:, j]),
                      _wmean(ndcg_end[:, j], w_start, included[:, j]))
                for j in range(nk)
            )
        else:
            mean = tuple(
                _wmean(contribution[:, j], w_start, included[:, j]) for j in range(nk)
            )
        steps.append(Step(
            field=name, before=before, after=after, conventions=conv, ndcg=v,
            contribution=contribution, mean=mean, undefined=_counts(ev, Status.UNDEFINED),
            unresolved=_counts(ev, Status.UNRESOLVED),
            bridged=tuple(int(np.count_nonzero(bridged[:, j])) for j in range(nk)),
            unranked=_counts(ev, Status.UNRANKED), negative=_counts(ev, Status.NEGATIVE),
        ))
    return steps


def _regrade(doc: Document, start: Conventions, end: Conventions) -> tuple[Document, int]:
    """The document with the grades the end's consensus gives where it differs
    from the start's (other grades, including edited ones, stay as they are)."""
    from core.analysis.consensus import consensus

    assert doc.ratings is not None
    g0, s0 = consensus(doc.ratings, start.consensus, start.rounding)
    g1, s1 = consensus(doc.ratings, end.consensus, end.rounding)
    differ = (s0 != s1) | ~((g0 == g1) | (np.isnan(g0) & np.isnan(g1)))
    grade = doc.grade.copy()
    state = doc.state.copy()
    grade[differ] = g1[differ]
    state[differ] = s1[differ]
    return replace(doc, grade=grade, state=state), int(np.count_nonzero(differ))


def _diff(a: float | None, b: float | None) -> float | None:
    if a is None or b is None or math.isnan(a) or math.isnan(b):
        return None
    return a - b
