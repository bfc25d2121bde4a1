"""The metadata JSON checked field by field before a document is built from it.

The hidden sheet is ours, but a file can be edited by anyone: a field of the
wrong type, a grade state that does not exist, an infinite grade, columns of
different lengths, an annotators list that does not match the grades kept or
a query+source pair twice is refused with one :class:`~core.errors.InputError`
naming the field (never a traceback, never a document that is not what was
exported). The checks are vectorised where a field has a value per candidate,
so a million-row workbook pays a few hundredths of a second for them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from core.errors import ConventionError, InputError
from core.io.workbook.layout import SHEETS
from core.model.assignment import Assignment
from core.model.conventions import FIELDS, Guidelines
from core.model.document import RANKINGS
from core.model.grades import GradeState

__all__ = ["MetadataError", "check_metadata", "metadata_error"]

#: The types a conventions record's value may have, by the field's kind.
_KIND_TYPES: dict[str, tuple[type, ...]] = {
    "choice": (str,), "gain": (str,), "flag": (bool,), "cutoffs": (list,),
    "rubric": (str, type(None)), "guidelines": (list,), "text": (str, type(None)),
}
#: Each field of a conventions record (:data:`FIELDS`) and the types its value may have.
_CONVENTION_FIELDS: dict[str, tuple[type, ...]] = {f.key: _KIND_TYPES[f.kind] for f in FIELDS}
#: The fields a record written before they were declared lacks.
_OPTIONAL = frozenset(f.key for f in FIELDS if f.optional)
_STATES = frozenset(int(s) for s in GradeState)


class MetadataError(Exception):
    """A field of the metadata that is not as written by the app."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"{field}: {problem}")
        self.field, self.problem = field, problem


def metadata_error(bad: MetadataError, name: str) -> InputError:
    """The one message a damaged field gives: the file, the sheet, the field."""
    return InputError(
        f"the workbook's metadata is damaged: field {bad.field!r} {bad.problem}", file=name,
        sheet=SHEETS["metadata"],
        hint="its hidden sheet was edited; open an unedited copy, or export the workbook "
             "again from NDCG Worksheet",
    )


def check_metadata(meta: dict[str, Any], name: str) -> None:
    """Raise :class:`InputError` naming the first field of ``meta`` that the
    app's writer cannot have written (types, lengths, states, ranges, the
    annotators' grades, the conventions' records)."""
    try:
        _check(meta)
    except MetadataError as bad:
        raise metadata_error(bad, name) from None


def _check(meta: dict[str, Any]) -> None:
    query_ids = _list(meta, "query_ids")
    _all_of(query_ids, "query_ids", (str,), "text")
    if len(set(query_ids)) != len(query_ids):
        raise MetadataError("query_ids", "names a query twice")
    query = _list(meta, "query")
    n, nq = len(query), len(query_ids)
    _ints(query, "query", range(nq), f"a query number from 0 to {nq - 1}")
    for key in ("source_id", "version", "note", "reason"):
        _all_of(_list(meta, key, n), key, (str,), "text")
    for key in ("score", "frequency", "importance"):
        _numbers(_list(meta, key, n if key == "score" else nq), key)
    for grade, state in (("grade", "state"), ("original_grade", "original_state")):
        _graded(_list(meta, grade, n), _list(meta, state, n), grade, state)
    rows = _list(meta, "sheet_rows", n)
    _ints(rows, "sheet_rows", range(n), f"a row number from 0 to {n - 1}")
    if len(set(rows)) != n:
        raise MetadataError("sheet_rows", "names a row twice")
    for key in ("conventions", "workbook_conventions"):
        _conventions(meta.get(key), key)
    for key in ("judgment_version", "name", "run_tag"):  # (run_tag: absent when none)
        if not isinstance(meta.get(key, "" if key == "run_tag" else None), str):
            raise MetadataError(key, f"is {_shown(meta.get(key))}, not text")
    for i, entry in enumerate(_list(meta, "audit")):
        if not (isinstance(entry, list) and len(entry) in (8, 9, 10, 11, 12)
                and all(isinstance(x, str) for x in entry[:8])
                and (len(entry) == 8 or _seconds(entry[8]))
                and all(isinstance(x, bool) for x in entry[9:])):
            raise MetadataError("audit", f"entry {i} is not 8 texts (who, when, query, source, "
                                         "from, to, note, origin), the seconds it took "
                                         "(a number, 0 or more, or null) and whether it "
                                         "changed a convention (true or false), then a note "
                                         "(true or false), then a query's text (true or "
                                         "false)")
    _annotators(meta, n)
    _assignment(meta.get("assignment"))
    if meta.get("ranking", "") not in RANKINGS:
        raise MetadataError("ranking", f"is {_shown(meta.get('ranking'))}, not one of "
                            + ", ".join(repr(k) for k in RANKINGS if k))
    _query_texts(meta.get("query_texts", {}), set(query_ids))


def _query_texts(value: Any, query_ids: set[str]) -> None:
    """The queries' texts (absent when none): text by a query's id."""
    if not (isinstance(value, dict) and all(
            isinstance(t, str) and q in query_ids for q, t in value.items())):
        raise MetadataError("query_texts", "is not a text for each of some of the queries "
                                           "(by query id)")


def _seconds(value: Any) -> bool:
    """Whether ``value`` is an audit entry's seconds: None or a finite number >= 0."""
    return value is None or (isinstance(value, int | float) and not isinstance(value, bool)
                             and math.isfinite(value) and value >= 0)


def _assignment(value: Any) -> None:
    if value is None:
        return
    try:
        Assignment.from_dict(value)
    except ValueError as exc:
        raise MetadataError("assignment", f"is not readable: {exc}") from None


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _list(meta: dict[str, Any], key: str, n: int | None = None) -> list[Any]:
    """Field ``key``: a list (of ``n`` values when given)."""
    if key not in meta:
        raise MetadataError(key, "is missing")
    value = meta[key]
    if not isinstance(value, list):
        raise MetadataError(key, f"is {_shown(value)}, not a list")
    if n is not None and len(value) != n:
        raise MetadataError(key, f"holds {len(value)} values, not {n}")
    return value


def _first(values: Sequence[Any], bad: Callable[[Any], bool]) -> tuple[int, Any]:
    """The first value ``bad`` says is wrong, and its position."""
    return next((i, v) for i, v in enumerate(values) if bad(v))


def _all_of(values: list[Any], key: str, kinds: tuple[type, ...], what: str) -> None:
    """Every value is exactly of one of ``kinds`` (a bool is no number)."""
    if not set(map(type, values)) <= set(kinds):
        i, v = _first(values, lambda v: type(v) not in kinds)
        raise MetadataError(key, f"item {i} is {_shown(v)}, not {what}")


def _ints(values: list[Any], key: str, allowed: range, what: str) -> None:
    """Whole numbers in ``allowed``."""
    _all_of(values, key, (int,), what)
    if values and (min(values) < allowed.start or max(values) >= allowed.stop):
        i, v = _first(values, lambda v: v not in allowed)
        raise MetadataError(key, f"item {i} is {v}, not {what}")


def _numbers(values: list[Any], key: str) -> None:
    """Finite numbers or null (not determined)."""
    _all_of(values, key, (float, int, type(None)), "a number or null")
    numbers = [v for v in values if v is not None]
    if numbers and not np.isfinite(np.array(numbers, dtype=np.float64)).all():
        i, v = _first(values, lambda v: v is not None and not math.isfinite(v))
        raise MetadataError(key, f"item {i} is {v}, not a finite number")


def _graded(grades: list[Any], states: list[Any], grade: str, state: str) -> None:
    """Grade states that exist, and a finite grade exactly where the state is a number."""
    _ints(states, state, range(len(_STATES)), "a grade state (0 number, 1 unknown, "
                                                "2 unrateable)")
    _numbers(grades, grade)
    number = np.array(states, dtype=np.int64) == GradeState.NUMBER
    has = np.fromiter((g is not None for g in grades), bool, len(grades))
    if (number != has).any():
        i = int(np.flatnonzero(number != has)[0])
        raise MetadataError(grade, f"item {i} is {_shown(grades[i])} while {state} is "
                                   f"{states[i]}: a grade is a number exactly when its state "
                                   "is 0 (number)")


def _conventions(value: Any, key: str) -> None:
    """A conventions record as :meth:`Conventions.to_dict` writes it."""
    if not isinstance(value, dict):
        raise MetadataError(key, f"is {_shown(value)}, not a record of conventions")
    for field, kinds in _CONVENTION_FIELDS.items():
        if field not in value:
            if field in _OPTIONAL:
                continue
            raise MetadataError(key, f"lacks {field!r}")
        if type(value[field]) not in kinds:
            raise MetadataError(key, f"holds {field} {_shown(value[field])} of the wrong type")
    cutoffs = value["cutoffs"]
    if not cutoffs or not all(isinstance(k, str) and (k == "all" or k.isdigit())
                              for k in cutoffs):
        raise MetadataError(key, f"holds cutoffs {_shown(cutoffs)}: each must be the text of a "
                                 "whole number or 'all'")
    try:
        Guidelines.from_json(value.get("guidelines", []))
    except ConventionError as exc:
        raise MetadataError(key, f"holds {exc}") from None
    extra = set(value) - set(_CONVENTION_FIELDS)
    if extra:
        raise MetadataError(key, f"holds {sorted(extra)[0]!r}, which is no convention")


def _annotators(meta: dict[str, Any], n: int) -> None:
    """The annotators' names and their grades: one column per name, one row
    per candidate."""
    names = _list(meta, "annotators")
    _all_of(names, "annotators", (str,), "text")
    ratings, shape = meta.get("ratings"), meta.get("ratings_shape")
    if ratings is None:
        if shape is not None or names:
            raise MetadataError("ratings", f"are missing for the {len(names)} annotators named")
        return
    rows = _list(meta, "ratings", n)
    if shape != [n, len(names)]:
        raise MetadataError("ratings_shape", f"is {_shown(shape)}, not [{n}, {len(names)}] "
                                             "(candidates, annotators)")
    for i, row in enumerate(rows):
        if not isinstance(row, list) or len(row) != len(names):
            raise MetadataError("ratings", f"row {i} does not hold one grade per annotator "
                                           f"({len(names)})")
    _numbers([v for row in rows for v in row], "ratings")
    if meta.get("unrateable_ratings") is None:
        return
    pairs = _list(meta, "unrateable_ratings")
    for pair in pairs:
        if not (isinstance(pair, list) and len(pair) == 2
                and all(isinstance(v, int) and not isinstance(v, bool) for v in pair)
                and 0 <= pair[0] < n and 0 <= pair[1] < len(names)
                and rows[pair[0]][pair[1]] is None):
            raise MetadataError("unrateable_ratings", f"holds {_shown(pair)}, not a "
                                "[candidate, annotator] pair of a grade not given")
    if meta.get("unrateable_words") is None:  # (absent in workbooks written before it)
        return
    words = _list(meta, "unrateable_words", len(pairs))
    bad = next((w for w in words if not isinstance(w, str)), None)
    if bad is not None:
        raise MetadataError("unrateable_words", f"holds {_shown(bad)}, not a mark's text")
