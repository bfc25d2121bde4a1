"""A document's columns from the columns given to
:meth:`~core.model.document.Document.from_columns`, step by step: each one
checked against the rows' count and turned into the type the document keeps
(float64 scores and grades, int8 states, object texts or texts made when
first read, the source ids as given bytes decoded when first read)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
import numpy.typing as npt

from core.model.grades import GradeState
from core.model.ids import IdBytes
from core.model.lazy import DecodedIds, EmptyTexts, Unmade

FloatArray = npt.NDArray[np.float64]


def shared_grades(grades: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """``grades`` as one read-only array for both a new document's current
    and original grades, until the first edit (:meth:`Document.grades_to_edit`
    copies them then): 8 bytes a row less, 16 MiB of a 2M-row evaluate's peak
    (issue 36). Read-only, so that a write that does not go through
    ``grades_to_edit`` fails instead of changing the originals."""
    shared = grades.view()
    shared.flags.writeable = False
    return shared


def source_ids(source_id: Sequence[str] | npt.NDArray[np.object_] | IdBytes,
               n: int) -> npt.NDArray[np.object_] | Unmade:
    """The source id column, one per row: ids kept as the file's bytes
    decoded when first read, an object array as it is, else each id as text."""
    if len(source_id) != n:
        raise ValueError("query and source_id differ in length")
    if isinstance(source_id, IdBytes):
        return DecodedIds(source_id)
    if isinstance(source_id, np.ndarray) and source_id.dtype == object:
        return source_id
    sid = np.empty(n, dtype=object)
    sid[:] = [str(s) for s in source_id]
    return sid


def floats(values: Iterable[float | None] | None, n: int,
            copy: bool) -> npt.NDArray[np.float64]:
    """A float column; None (or no column at all) is NaN."""
    if values is None:
        return np.full(n, np.nan)
    if isinstance(values, np.ndarray):
        return values.astype(np.float64, copy=copy)
    return np.array([np.nan if v is None else v for v in values], dtype=np.float64)


def texts(values: Sequence[str] | None, n: int) -> npt.NDArray[np.object_]:
    """A text column; no column at all is empty texts (made when first read)."""
    if values is None:
        return EmptyTexts(n)  # type: ignore[return-value]  # a _Column takes it
    out = np.empty(n, dtype=object)
    out[:] = [str(v) for v in values]
    return out


def states(grades: npt.NDArray[np.float64],
            state: Sequence[int] | npt.NDArray[np.int8] | None) -> npt.NDArray[np.int8]:
    """Each grade's state: from ``state`` (non-numbers' grades become NaN in
    place), else unknown where the grade is NaN."""
    if state is None:
        # Arithmetic on the 0/1 flags rather than np.where, whose choice per
        # row mispredicts on mixed grades: 5.3 -> 1 ms at 2.7M rows, 2/3 unknown.
        states = np.isnan(grades).astype(np.int8)
        states *= np.int8(GradeState.UNKNOWN - GradeState.NUMBER)
        states += np.int8(GradeState.NUMBER)
        return states
    states = np.asarray(state, dtype=np.int8).copy()
    grades[states != GradeState.NUMBER] = np.nan
    if np.any(np.isnan(grades[states == GradeState.NUMBER])):
        raise ValueError("a grade in state 'number' has no value")
    return states


def per_query(qids: dict[str, int], values: dict[str, float] | None) -> FloatArray:
    """A per-query column from an id -> value mapping (NaN where not given;
    ids of no query are ignored)."""
    out = np.full(len(qids), np.nan)
    for q, w in (values or {}).items():
        if q in qids:
            out[qids[q]] = w
    return out
