"""Each candidate's gain, and the checks that gains and their sums are numbers.

A gain must be a finite number: ``2^grade - 1`` is beyond the largest float
(about 1.8e308) from grade 1024 on, and the sum of finite gains can be too
(two grades of 1e308), and so can an NDCG of finite sums (a DCG of -1 over an
ideal DCG of 5e-324: -1 ranked first beside 5e-324 at k = 1). Such a grade is
an error naming the grade, the source, the query and the gain rule (a sum or
an NDCG: the query, its sums and the grades to look at), never an infinite
NDCG: ``Infinity`` is not JSON, and ``<v>inf</v>`` in a workbook cell is read
by no spreadsheet.

At the other end, gains below the normal range of floats (below 2^-1022,
about 2.2e-308: a grade 1e-320) lose digits in every product with a
discount: grades 1e-323, 5e-324, 1e-323 in that order gave DCG 2e-323 over
ideal DCG 1.5e-323, an NDCG of 1.333. NDCG ignores a factor common to a
list's gains, and a power of two changes none of the products and sums of
normal floats but their exponent: a list whose gains are all below
:data:`LIFT_BELOW` in size is worked out with them times the power of two
that brings the largest into [0.5, 1) (:func:`lift_exponents`,
:func:`lifted`), its DCG and ideal DCG given back at their own scale.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from core.engine.results import QueryResults
from core.errors import InputError
from core.model.conventions import Conventions, UnknownRule, format_cutoff
from core.model.document import Document
from core.model.gain_rules import GainRule
from core.model.numbers import counted
from core.model.presets import refuses_negative

__all__ = ["LIFT_BELOW", "SUMS_BELOW", "check_totals", "gains", "gains_at", "lift_exponents",
           "lifted",
           "lifted_parts", "lifted_queries", "small_lists"]

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]
IntArray = npt.NDArray[np.int64]

_LARGEST = "the largest number a computer's float holds (about 1.8e308)"


class Totals(Protocol):
    """What :func:`check_totals` and :func:`lifted_parts` read of an
    evaluation (its sums per query and cutoff, its gains and inventory),
    named here so that the engine's gains need not import the evaluation
    that uses them."""

    @property
    def doc(self) -> Document: ...
    @property
    def conventions(self) -> Conventions: ...
    @property
    def dcg(self) -> FloatArray: ...
    @property
    def idcg(self) -> FloatArray: ...
    @property
    def ndcg(self) -> FloatArray: ...
    @property
    def status_code(self) -> npt.NDArray[np.int8]: ...
    @property
    def gain(self) -> FloatArray: ...
    @property
    def inventory_mask(self) -> BoolArray: ...


def _where(doc: Document, i: int) -> str:
    return f"source {doc.source_id[i]!r} (query {doc.query_ids[int(doc.query[i])]!r})"


#: How many of the negative grades a refusal names.
_NAMED = 3


def _refuse_negative(doc: Document, c: Conventions, numeric: BoolArray) -> None:
    """Refuse negative grades, naming them, under a preset whose peer refuses
    them (:func:`core.model.presets.refuses_negative`)."""
    why = refuses_negative(c)
    if why is None:
        return
    bad = np.flatnonzero(numeric & (doc.grade < 0))
    if not bad.size:
        return
    named = "; ".join(f"grade {doc.grade[i]:g} of {_where(doc, int(i))}"
                      for i in bad[:_NAMED].tolist())
    more = f" and {bad.size - _NAMED} more" if bad.size > _NAMED else ""
    raise InputError(
        f"{counted(int(bad.size), 'negative grade')} under the {c.preset} preset "
        f"({named}{more}): {why}",
        hint="correct the grades, or choose the trec_eval or ranx preset (negative gains "
             "count as 0) or the default conventions",
        row=int(bad[0]),
    )


def gains(doc: Document, c: Conventions, numeric: BoolArray, lift: int = 0) -> FloatArray:
    """Each candidate's gain: NaN when its grade is unknown, unless unknown
    grades count as 0; times 2^``lift`` (see :func:`lifted_parts`).

    Raises
    ------
    InputError
        For a negative grade under a gain that cannot take one, and for a
        grade whose gain is beyond the largest float.
    """
    _refuse_negative(doc, c, numeric)
    if not c.gain.accepts_negative():
        bad = np.flatnonzero(numeric & (doc.grade < 0))
        if bad.size:
            i = int(bad[0])
            raise InputError(
                f"grade {doc.grade[i]:g} of {_where(doc, i)} is negative, which "
                f"{c.gain.label} cannot take",
                hint="choose linear gain or a gain table, or correct the grade",
            )
    gain = _grades_as_gains(doc, c, numeric)
    if gain is None:
        gain = _new_gains(doc, c, numeric)
    if np.isinf(gain).any():
        i = int(np.flatnonzero(np.isinf(gain))[0])
        raise InputError(
            f"grade {doc.grade[i]:g} of {_where(doc, i)} gives a gain beyond "
            f"{_LARGEST} under {c.gain.label} ({c.gain.formula})",
            hint="correct the grade, or choose linear gain or a gain table",
        )
    return _lifted_gains(gain, lift)


def _lifted_gains(gain: FloatArray, lift: int) -> FloatArray:
    """``gain`` times 2^``lift`` (itself when ``lift`` is 0)."""
    if not lift:
        return gain
    with np.errstate(over="ignore"):  # (a row outside the lists lifted: no sum takes it)
        return np.ldexp(gain, lift)


def gains_at(grade: FloatArray, numeric: BoolArray, c: Conventions, lift: int = 0) -> FloatArray:
    """:func:`gains` of some rows, from their grades and whether each is a
    number, as a new array, bit for bit (each row's gain is its own grade's;
    the checks were made when every row's gains were)."""
    return _lifted_gains(_new_gains_of(grade, numeric, c), lift)


#: The bits of the NaN :func:`_new_gains` writes where a grade is not a number.
_NAN_BITS = np.array(np.nan).view(np.uint64)
#: Rows checked at a time by :func:`_grades_as_gains` (no full-length temporaries).
_BLOCK = 1 << 18


def _grades_as_gains(doc: Document, c: Conventions, numeric: BoolArray) -> FloatArray | None:
    """The document's grades themselves where they are :func:`_new_gains`
    bit for bit, else None: linear gain, neither truncated nor negatives
    counted as 0, unknown grades not counted as 0, and every row whose grade
    is not a number holding that NaN already (a run joined with its qrels;
    a grade marked unknown keeps its raw number, so then they are not).

    Only the read-only grades a document shares with its originals
    (:meth:`~core.model.document.Document.grades_to_edit` copies them before
    any edit), so that the gains never change under the evaluation: the
    defaults' gains then cost no array, 8 bytes a candidate less for the
    evaluation's life (16 MB at 2M candidates; compare holds two)."""
    grade = doc.grade
    g = c.gain
    if (g.rule is not GainRule.LINEAR or g.truncate or g.negative_as_zero
            or c.unknown is UnknownRule.ZERO or grade.flags.writeable
            or not np.may_share_memory(grade, doc.original_grade)):
        return None
    bits = grade.view(np.uint64)
    for lo in range(0, grade.size, _BLOCK):
        if not np.all(numeric[lo:lo + _BLOCK] | (bits[lo:lo + _BLOCK] == _NAN_BITS)):
            return None
    return grade


def _new_gains(doc: Document, c: Conventions, numeric: BoolArray) -> FloatArray:
    """Each candidate's gain as a new array (:func:`gains` without its checks)."""
    # Every row at once (a grade that is not a number is NaN, and so is its
    # gain), then the others set: no gather and scatter of the numeric rows
    # (measured: 16 -> 8 ms CPU at 2.1M rows, a third numeric).
    return _new_gains_of(doc.grade, numeric, c)


def _new_gains_of(grade: FloatArray, numeric: BoolArray, c: Conventions) -> FloatArray:
    """:func:`_new_gains` of these grades (``numeric``: whether each is a number)."""
    gain = c.gain.apply(grade)
    if not numeric.all():
        # Set at the rows' indices: a copy masked by ~numeric (where=) took
        # 9 ms at 2.7M rows against ~4 (its choice per row mispredicts).
        gain[np.flatnonzero(~numeric)] = 0.0 if c.unknown is UnknownRule.ZERO else np.nan
    return gain


def check_totals(ev: Totals) -> None:
    """Raise :class:`InputError` naming the first query whose DCG or ideal
    DCG is beyond the largest float (its gains, each finite, add up beyond
    it), or whose NDCG is (a DCG over an ideal DCG far smaller: a gain
    below 0 beside a tiny positive one), so that no NDCG is infinite or
    silently undefined."""
    doc = ev.doc
    sums = (np.isinf(ev.dcg) | np.isinf(ev.idcg)).any(axis=1)
    if sums.any():
        q = int(np.flatnonzero(sums)[0])
        members = doc.members(q)
        largest = float(np.nanmax(np.abs(doc.grade[members])))
        raise InputError(
            f"the gains of query {doc.query_ids[q]!r} add up beyond {_LARGEST} under "
            f"{ev.conventions.gain.label}; its NDCG cannot be computed",
            hint=f"correct its grades; the largest is {largest:g}",
        )
    ratio = (ev.status_code == 0) & ~np.isfinite(ev.ndcg)
    if ratio.any():
        q, j = (int(x) for x in np.argwhere(ratio)[0])
        members = doc.members(q)
        grades = np.abs(doc.grade[members])
        smallest = float(np.nanmin(np.where(grades > 0, grades, np.nan)))
        raise InputError(
            f"the NDCG@{format_cutoff(ev.conventions.cutoffs[j])} of query "
            f"{doc.query_ids[q]!r} is beyond {_LARGEST}: its DCG {float(ev.dcg[q, j])!r} "
            f"over its ideal DCG {float(ev.idcg[q, j])!r} under {ev.conventions.gain.label}",
            hint=f"correct its grades: the ideal DCG rests on gains far smaller than the "
                 f"DCG's; its smallest grade in size but for 0, {smallest!r}, may be meant "
                 f"as 0",
        )


#: A list whose gains are all below this in size is worked out lifted (its
#: products with discounts of 2^-6 or more, lists up to 2^64 long, and their
#: sums are normal floats above it; a gain below the normal range in a list
#: whose largest is above it moves the NDCG by less than 2^-160 of it).
LIFT_BELOW = 2.0 ** -900
#: Sums of such a list are below this in size (lists up to 2^50 long); a sum
#: of gains and discounts below it, but for 0, is one of such gains alone.
SUMS_BELOW = 2.0 ** -850


def lift_exponents(largest: FloatArray) -> IntArray:
    """The power of two a list's gains are lifted by, from its largest gain
    in size: the one that brings it into [0.5, 1) when it is below
    :data:`LIFT_BELOW`, else 0 (0, NaN and the normal range).

    >>> lift_exponents(np.array([5e-324, 1e-320, 0.0, 3.0, 2.0 ** -901])).tolist()
    [1073, 1063, 0, 0, 900]
    """
    size = np.nan_to_num(np.abs(largest))
    exponent = np.frexp(size)[1]
    out: IntArray = np.where((size > 0) & (size < LIFT_BELOW), -exponent, 0).astype(np.int64)
    return out


def _lifts(ev: Totals, queries: IntArray, least: float = 0.0,
           ) -> tuple[IntArray, IntArray] | None:
    """The rows of ``queries`` (ascending) and each query's lift
    (:func:`lift_exponents` of its counted gains' largest in size, at least
    ``least``), or None when none can be lifted."""
    doc = ev.doc
    if not queries.size or least >= LIFT_BELOW:
        return None
    rows = (doc.members(int(queries[0])) if queries.size == 1  # (an editor's one query)
            else np.flatnonzero(np.isin(doc.query, queries)))
    counted = rows[ev.inventory_mask[rows]]
    size, query = np.abs(ev.gain[counted]), doc.query[counted]
    # The largest gain of each list: 1 where one is in the normal range (a
    # count, no per-row maximum), the tiny ones' largest where none is.
    with np.errstate(invalid="ignore"):  # (NaN: unknown, not counted)
        tiny = (size > 0) & (size < LIFT_BELOW)
        normal = np.bincount(query[size >= LIFT_BELOW], minlength=doc.n_queries) > 0
    largest = np.full(doc.n_queries, least)
    np.fmax.at(largest, query[tiny], size[tiny])
    largest[normal] = 1.0
    return rows, lift_exponents(largest)


def lifted_parts(ev: Totals, queries: IntArray, least: float = 0.0,
                 ) -> Iterator[tuple[IntArray, IntArray, Any, int]]:
    """The queries of ``queries`` (ascending) whose gains are too small for
    the arithmetic, with those of one lift at a time: the queries, their
    rows (in document order), their evaluation of their own with the gains
    lifted (``type(ev)``, the queries numbered from 0 in order), and the
    lift. ``least``: a size each list's largest counts as at least (a grade
    scale's gains, which the bounds fill unknown gains with)."""
    doc = ev.doc
    evaluation: Any = type(ev)  # (the engine's Evaluation: this module is below it)
    found = _lifts(ev, queries, least)
    if found is None:
        return
    rows, exponents = found
    for lift in np.unique(exponents[queries]).tolist():
        if lift:
            group = queries[exponents[queries] == lift]
            members = rows[exponents[doc.query[rows]] == lift]
            yield group, members, evaluation(doc.subset(members), ev.conventions, lift=lift), lift


def _small(ev: Totals, idcg: FloatArray) -> IntArray:
    """The queries whose lists may be too small for the arithmetic, by their
    ideal DCG ``idcg`` (queries x cutoffs): below :data:`SUMS_BELOW` at
    every cutoff, and not 0 at one or of a tiny negative gain."""
    size = np.abs(idcg)
    with np.errstate(invalid="ignore"):
        small = (size < SUMS_BELOW).all(axis=1)
        # An ideal DCG 0 at every cutoff is one of gains 0, or of negative
        # gains so small that each product with its discount rounded to 0
        # (0, 0, -5e-324: -5e-324 / 2 is 0): a twin of 0, 0, -1 reads
        # "negative", so such lists are lifted too, when the gains hold any.
        maybe = small & (size > 0).any(axis=1)
        zero = small & (idcg == 0).all(axis=1)
        if zero.any() and _tiny_negative(ev.gain):
            maybe |= zero
    return np.flatnonzero(maybe)


def small_lists(ev: Totals, idcg: FloatArray,
                ) -> Iterator[tuple[IntArray, IntArray, Any, int]]:
    """:func:`lifted_parts` of the lists whose gains are too small for the
    arithmetic, found by their ideal DCG ``idcg`` (queries x cutoffs): below
    :data:`SUMS_BELOW` at every cutoff, not 0 at one (or 0 at every one, of
    a tiny negative gain). The engine's numbers (:func:`lifted`) and the
    comparison's under other tie rules
    (:func:`core.analysis.compare.changes.tie_facts`) are worked out so."""
    return lifted_parts(ev, _small(ev, idcg))


def lifted_queries(ev: Totals) -> BoolArray:
    """Per query: whether the engine worked its numbers out with its gains
    lifted (:func:`lifted`), as the workbook's formulas do too."""
    out = np.zeros(ev.doc.n_queries, dtype=bool)
    queries = _small(ev, ev.idcg)
    found = _lifts(ev, queries)
    if found is not None:
        out[queries] = found[1][queries] != 0
    return out


def _tiny_negative(gain: FloatArray) -> bool:
    """Whether a gain is negative and below :data:`LIFT_BELOW` in size (one
    pass; most gains are not negative, and then a minimum alone)."""
    if not gain.size or not np.fmin.reduce(gain) < 0:
        return False
    return any(bool(((block < 0) & (block > -LIFT_BELOW)).any())
               for block in (gain[lo:lo + _BLOCK] for lo in range(0, gain.size, _BLOCK)))


def lifted(ev: Totals, results: QueryResults) -> QueryResults:
    """``results`` (:class:`~core.engine.results.QueryResults`, changed in
    place) with the numbers of the lists whose gains are too small for the
    arithmetic worked out lifted: their NDCG and status as lifted, their DCG
    and ideal DCG lifted back (rounded once). Found by their ideal DCG (below
    :data:`SUMS_BELOW` at every cutoff, not 0 at one), then their gains."""
    for group, _members, part, lift in small_lists(ev, results.idcg):
        got = part.results
        for name in ("ndcg", "status_code"):
            getattr(results, name)[group] = getattr(got, name)
        results.dcg[group] = np.ldexp(got.dcg, -lift)
        results.idcg[group] = np.ldexp(got.idcg, -lift)
    return results
