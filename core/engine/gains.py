"""Each candidate's gain, and the checks that gains and their sums are numbers.

A gain must be a finite number: ``2^grade - 1`` is beyond the largest float
(about 1.8e308) from grade 1024 on, and the sum of finite gains can be too
(two grades of 1e308). Such a grade is an error naming the grade, the source,
the query and the gain rule, never an infinite NDCG: ``Infinity`` is not JSON,
and ``<v>inf</v>`` in a workbook cell is read by no spreadsheet.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np
import numpy.typing as npt

from core.errors import InputError
from core.model.conventions import Conventions, UnknownRule
from core.model.document import Document
from core.model.gain_rules import GainRule
from core.model.presets import refuses_negative

__all__ = ["check_totals", "gains"]

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]

_LARGEST = "the largest number a computer's float holds (about 1.8e308)"


class Totals(Protocol):
    """What :func:`check_totals` reads of an evaluation (its sums per query
    and cutoff), named here so that the engine's gains need not import the
    evaluation that uses them."""

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
        f"{bad.size} negative grade{'s' if bad.size > 1 else ''} under the {c.preset} preset "
        f"({named}{more}): {why}",
        hint="correct the grades, or choose the trec_eval or ranx preset (negative gains "
             "count as 0) or the default conventions",
        row=int(bad[0]),
    )


def gains(doc: Document, c: Conventions, numeric: BoolArray) -> FloatArray:
    """Each candidate's gain: NaN when its grade is unknown, unless unknown
    grades count as 0.

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
    return gain


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
    gain = c.gain.apply(doc.grade)
    if not numeric.all():
        # Set at the rows' indices: a copy masked by ~numeric (where=) took
        # 9 ms at 2.7M rows against ~4 (its choice per row mispredicts).
        gain[np.flatnonzero(~numeric)] = 0.0 if c.unknown is UnknownRule.ZERO else np.nan
    return gain


def check_totals(ev: Totals) -> None:
    """Raise :class:`InputError` naming the first query whose DCG or ideal
    DCG is beyond the largest float (its gains, each finite, add up beyond
    it), so that no NDCG is infinite or silently undefined."""
    over = (np.isinf(ev.dcg) | np.isinf(ev.idcg)
            | ((ev.status_code == 0) & ~np.isfinite(ev.ndcg))).any(axis=1)
    if over.any():
        q = int(np.flatnonzero(over)[0])
        doc = ev.doc
        members = doc.members(q)
        largest = float(np.nanmax(np.abs(doc.grade[members])))
        raise InputError(
            f"the gains of query {doc.query_ids[q]!r} add up beyond {_LARGEST} under "
            f"{ev.conventions.gain.label}; its NDCG cannot be computed",
            hint=f"correct its grades; the largest is {largest:g}",
        )
