"""Which column holds the query's text: a text one to one with the
queries (:func:`names_the_query`), never a column of one more annotator's
grades among marks that happens to change with the query as a text does
(:func:`grades_of_the_scale`: ben's 1 on q1, N/A on q2, paywall on q3), and,
where nothing tells the two readings apart, a refusal naming both
(:func:`text_or_grades`). Split from :mod:`core.io.annotator.roles` when
the grades-among-marks reading (himpf) took it past 700 lines: these
decide one role, the query's text, against one rival, a grade column."""

from __future__ import annotations

from collections.abc import Container, Sequence

from core.io.annotator.cells import MAX_LEVELS
from core.io.annotator.profile import Profile, determines

__all__ = ["grades_of_the_scale", "names_the_query", "text_or_grades"]


def names_the_query(p: Profile, query: Profile, share: float = 1.0) -> bool:
    """Text one to one with the query's values (a Label Studio task's
    ``data.query`` beside its ``data.query_id``, a sheet's Question beside
    its Query ID): the query's text, no batch's or group's number (so it
    was said: "a batch's or a group's number: grades vary within a
    query"). Numbers so stay batches' numbers, as topics 1..50 may be.
    ``share``: of the queries, how many must have one text (a text retyped
    on one query's row is still the query's text)."""
    return (p.col != query.col and p.numeric < 0.5 and p.fill >= 0.9 and p.distinct >= 2
            and determines(p, query) == 1.0 and determines(query, p) >= share)


def grades_of_the_scale(p: Profile, scale: Sequence[Profile], marks: Container[str]) -> bool:
    """Whether a column holds one more annotator's grades among marks, by
    how its values behave beside the sheet's columns of grades (``scale``):
    some of its values numbers on their scale (whole or half, within their
    least and greatest), every other value a grade mark (``N/A``, ``?``)
    or one word (``paywall``: a mark the import reads, or refuses by name,
    as the annotator's), none of them words-rich as a query's text is. Such
    a column is no query's text even where each of its values stands on one
    query's rows only (ben's 1 on q1, N/A on q2, paywall on q3): read so,
    its grades were dropped."""
    numbered = [g for g in scale if g.numeric > 0.5 and g.col != p.col]
    if not numbered or not p.filled or p.distinct > MAX_LEVELS:
        return False
    lo, hi = min(g.lo for g in numbered), max(g.hi for g in numbered)
    on_scale = 0
    for text in {t for t in p.texts if t}:
        try:
            float(text)
        except ValueError:
            if text.casefold() not in marks and len(text.split()) > 1:
                return False  # words: a text, no mark
            continue
        if not _on_scale(text, lo, hi):
            return False
        on_scale += 1
    return on_scale > 0


def text_or_grades(p: Profile, scale: Sequence[Profile], marks: Container[str]) -> bool:
    """Whether a column read as the query's text could as well be one more
    annotator's grades beside the sheet's columns of grades (``scale``):
    words-rich values (else :func:`grades_of_the_scale` read it as grades)
    but half or more of its values numbers on their scale or grade marks
    (``1``, ``N/A``, ``what is ndcg``): nothing tells which, so the import
    refuses, naming both readings."""
    numbered = [g for g in scale if g.numeric > 0.5 and g.col != p.col]
    values = {t for t in p.texts if t}
    if not numbered or not values:
        return False
    lo, hi = min(g.lo for g in numbered), max(g.hi for g in numbered)
    on_scale = sum(1 for t in values if _on_scale(t, lo, hi))
    marked = sum(1 for t in values if t.casefold() in marks)
    return on_scale > 0 and 2 * (on_scale + marked) >= len(values)


def _on_scale(text: str, lo: float, hi: float) -> bool:
    try:
        x = float(text)
    except ValueError:
        return False
    return lo <= x <= hi and (2 * x).is_integer()
