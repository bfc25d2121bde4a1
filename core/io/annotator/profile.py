"""What a sample of one column's cells looks like (:class:`Profile`): how
many distinct values, how they repeat, whether they are numbers, URLs,
e-mail addresses, dates, true/false, grades; and how two columns relate
(:func:`determines`: one's value fixes the other's). The roles are read
from these (:mod:`~core.io.annotator.roles`, :mod:`~core.io.annotator.ranks`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from contextlib import suppress
from dataclasses import dataclass, replace
from datetime import date, datetime
from itertools import pairwise
from typing import Any

from core.io.annotator.cells import Reject, grade_like, number
from core.io.annotator.model import cell_text
from core.io.annotator.names import quantity_header
from core.model.numbers import counted

__all__ = ["Profile", "counting", "determines", "grouped", "profile_columns", "span"]

_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
_MONTH = r"(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?"
_TIME = (r"\d{1,2}:\d{2}(:\d{2}(\.\d+)?)?(\s*[ap]\.?m\.?)?"
         r"(\s*(z|utc|gmt|[a-z][a-z]?[sd]t|[cew]et)?\s*([+-]\d{1,2}(:?\d{2})?)?)?")
#: A date, a date and time, or a time, as spreadsheets and platforms write
#: them: ISO (``2024-03-04T10:00Z``), Google Forms (``2024/03/04 9:00:00 AM
#: GMT+1``), US and European (``3/4/2024 9:00``, ``04.03.2024 09:00``),
#: month names (``4 Mar 2024``, ``Mar 4, 2024 9:00 AM``), ``ctime`` (with a
#: zone's abbreviation: ``Mon Mar 04 10:00:00 PST 2024``).
_DATE = re.compile(
    r"^((mon|tue|wed|thu|fri|sat|sun)[a-z]*,?\s+)?("
    r"(\d{4}[-/.]\d{1,2}[-/.]\d{1,2}"
    r"|\d{1,2}/\d{1,2}/\d{2,4}|\d{1,2}[-.]\d{1,2}[-.]\d{4}"
    r"|\d{1,2}[ -]" + _MONTH + r"[ -]\d{2,4}|" + _MONTH + r" \d{1,2},? \d{4})"
    r"([T ,]+" + _TIME + r")?"
    r"|" + _MONTH + r"\s+\d{1,2}\s+" + _TIME + r"(\s+\d{4})?"
    r"|" + _TIME + r")$", re.I)
_BOOLEAN = frozenset({"true", "false"})
_URL = ("http://", "https://", "www.")


@dataclass
class Profile:
    """What a sample of one column's cells looks like."""

    col: int
    name: str
    texts: list[str]
    filled: int
    distinct: int
    numeric: float
    whole: float
    lo: float
    hi: float
    url: float
    email: float
    dates: float
    boolean: float
    spaced: float
    graded: bool

    @property
    def fill(self) -> float:
        return self.filled / max(1, len(self.texts))

    @property
    def constant(self) -> bool:
        return self.distinct <= 1

    def shown(self) -> str:
        return self.name or f"column {self.col + 1}"


def _fraction(values: Sequence[str], test: Any) -> float:
    return sum(1 for v in values if test(v)) / len(values) if values else 0.0


def profile_columns(sample: Sequence[Sequence[Any]], header: Sequence[str],
                    marks: set[str], cols: Sequence[int] | None = None,
                    words: AbstractSet[str] = frozenset()) -> list[Profile]:
    """A :class:`Profile` of every column of the sample rows (of ``cols`` only
    when given); ``words``: the labels a legend on the sheet lists, read as
    grades as a known scale's are."""
    width = max([len(header), *map(len, sample)], default=0)
    out = []
    for c in range(width) if cols is None else cols:
        raw = [r[c] if c < len(r) else None for r in sample]
        texts = [cell_text(v).strip() for v in raw]
        full = [t for t in texts if t]
        nums: list[float] = []
        for v, t in zip(raw, texts, strict=True):
            if t:
                with suppress(Reject):
                    nums.append(number(v))
        when = sum(1 for v in raw if isinstance(v, (datetime, date)))
        out.append(Profile(
            col=c, name=header[c].strip() if c < len(header) else "", texts=texts,
            filled=len(full), distinct=len(set(full)),
            numeric=len(nums) / len(full) if full else 0.0,
            whole=_fraction([str(x) for x in nums], lambda s: float(s).is_integer())
            if nums else 0.0,
            lo=min(nums, default=0.0), hi=max(nums, default=0.0),
            url=_fraction(full, lambda t: t.lower().startswith(_URL)),
            email=_fraction(full, _EMAIL.match),
            dates=max(when / len(full) if full else 0.0, _fraction(full, _DATE.match),
                      1.0 if len(nums) == len(full) and _clock(nums) else 0.0),
            boolean=_fraction(full, lambda t: t.casefold() in _BOOLEAN),
            spaced=_fraction(full, lambda t: " " in t),
            graded=bool(full) and not (c < len(header) and quantity_header(header[c]))
            and not counting(full) and grade_like([v for v in raw if cell_text(v).strip()],
                                                   marks, words),
        ))
    return out


#: Whole seconds, or milliseconds, since 1970 a clock writes: from
#: 2001-09-09 (10 digits) up to 2286, in seconds or in milliseconds.
_EPOCH_SPANS = ((1e9, 1e10), (1e12, 1e13))
#: The widest band of times one sheet holds, as a share of their size
#: (about 2.7 years in seconds now): ids drawn from a wide range are wider.
_EPOCH_BAND = 0.05


def _clock(nums: Sequence[float]) -> bool:
    """Times written as whole seconds (or milliseconds) since 1970, as
    crowd platforms export them, told from a numeric id by how they behave:
    large whole numbers in a narrow band, in row order but for a few (the
    rows come as they were submitted), few repeats, and steps that are not
    mostly one (ids counted one by one: ``2350000100, 2350000101, ...``)."""
    if len(nums) < 4 or not all(x.is_integer() for x in nums):
        return False
    lo, hi = min(nums), max(nums)
    if not any(a <= lo and hi < b for a, b in _EPOCH_SPANS) or hi - lo > _EPOCH_BAND * lo:
        return False
    steps = [b - a for a, b in pairwise(nums)]
    forward = [d for d in steps if d > 0]
    if sum(1 for d in steps if d >= 0) < 0.8 * len(steps) or len(set(nums)) < 0.8 * len(nums):
        return False
    return bool(forward) and sum(1 for d in forward if d == 1) < 0.5 * len(forward)


def counting(full: Sequence[str | float]) -> bool:
    """Values that count the rows (1, 2, 3, ... or a record id each one
    more than the last): a row number, no grades, however few they are."""
    if len(full) < 4:
        return False
    try:
        nums = [float(t) for t in full]
    except ValueError:
        return False
    return all(b - a == 1 for a, b in pairwise(nums))

def grouped(keys: Sequence[str], values: Sequence[str]) -> dict[str, set[str]]:
    """Each key's distinct values (rows with an empty key or value left out)."""
    out: dict[str, set[str]] = {}
    for k, v in zip(keys, values, strict=True):
        if k and v:
            out.setdefault(k, set()).add(v)
    return out


def items(query: Profile | None, source: Profile) -> Profile:
    """The source column with each row's value its item, (query, source):
    a source id listed under two queries (a TREC docno judged for both, a
    passage retrieved for two questions) is two items, each judged by its
    own people and ranked in each query. Without a query, the source."""
    if query is None:
        return source
    return replace(source, texts=[q and t and f"{q}\x1f{t}" for q, t in zip(
        query.texts, source.texts, strict=True)])


def determines(a: Profile, b: Profile) -> float:
    """How far ``a``'s value fixes ``b``'s: the share of ``a``'s values seen
    with one value of ``b`` only."""
    groups = grouped(a.texts, b.texts)
    return sum(1 for vs in groups.values() if len(vs) == 1) / len(groups) if groups else 0.0


def span(p: Profile) -> str:
    """What a column's values are, in a few words (numbers lo to hi, N distinct values)."""
    if p.numeric > 0.9:
        lo, hi = (cell_text(float(x)) for x in (p.lo, p.hi))
        return f"numbers {lo} to {hi}" if lo != hi else f"the number {lo}"
    return counted(p.distinct, "distinct value")
