"""What each column holds, read from its values: who judged, the query, the
source id, the grade, a score or rank, a note, a timestamp, bookkeeping.

A header's words are one signal (:mod:`~core.io.annotator.names`); the cells
are the other, and they decide when the words say nothing or say something
the cells contradict. Each column gets a :class:`Profile` of a sample of its
cells (how many distinct values, how they repeat, whether they are numbers,
URLs, e-mail addresses, dates, true/false); the roles follow from how the
columns relate:

- the source id determines the query (a document is judged for one query)
  and not the other way round;
- the annotator varies within the rows of one (query, source) and is the
  same person across many items: a modest number of distinct values, each
  repeated;
- a grade takes a handful of values (small whole numbers, a scale's labels);
- a note is free text, mostly blank.

The ranking (a score or a rank) is never read from values: a price, a
record id or a count fits "a number, one per item" as well as a ranker's
score does, and a ranking changes every number. A column is the ranking
only when its header names one (:func:`~core.io.annotator.names.ranking_field`)
or the user declares it; values only rule a named one out. A numeric
column left out says which flag would make it the ranking
(:func:`left_out`).

Every guess comes with its reason, for the report and the wizard
(``annotator: Email Address, 3 people, each item judged by 2-3 of them``).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Container, Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import pairwise

from core.io.annotator.model import BATCH_OR_GRADES
from core.io.annotator.names import DRAFTS, judgment_key_header, record_key_header
from core.io.annotator.profile import Profile, counting, determines, grouped, items, span
from core.io.annotator.query_text import names_the_query
from core.io.annotator.ranks import (
    BY_CHANCE,
    QUERIES,
    ROWS,
    Counted,
    batch_reading,
    batch_reason,
    counted,
    falls,
    listing,
    numbers_rows,
    runs_chance,
    tied,
)
from core.io.annotator.records import list_cell
from core.io.headers import normalize
from core.io.safety import column_letters
from core.model import numbers

__all__ = ["MAX_PEOPLE", "Roles", "flag_ref", "judgments_count", "keys",
           "left_out", "names_someone", "people", "roles_from_values"]

#: The most people a sheet's annotator column names (more are item ids).
MAX_PEOPLE = 500


@dataclass
class Roles:
    """The columns the values give each field, and why (field -> reason);
    the columns left out (column -> why, the flag that would use it)."""

    found: dict[str, int]
    reasons: dict[str, str]
    ignored: dict[int, tuple[str, str]]


def _runs(p: Profile) -> int:
    """How many runs of equal values the column makes, blanks skipped."""
    full = [t for t in p.texts if t]
    return sum(1 for i, t in enumerate(full) if i == 0 or t != full[i - 1])


def _key_like(p: Profile) -> bool:
    """A column that could name queries, sources or people."""
    return (p.fill >= 0.9 and p.distinct >= 2 and p.dates < 0.5 and p.boolean < 0.5
            and not (p.numeric > 0.9 and p.whole < 0.9))


def _pair(cands: list[Profile], query: Profile | None, source: Profile | None,
          who: list[Profile]) -> tuple[tuple[Profile, Profile] | None, tuple[str, Profile] | None]:
    """The (query, source) pair (``query`` or ``source`` when already
    known): the source fixes the query, has more values than it, and the
    query's rows come in runs; names of things (text, ids, URLs) before
    grade-like numbers. Also the other column no value tells from the
    chosen query or source, with its field (``None`` when the choice is
    clear): the import names both rather than pick one."""
    scored: list[tuple[float, Profile, Profile]] = []
    names = [p for p in cands if not p.graded]  # a handful of small numbers names nothing
    # a row number or a record id (each one more than the last) names a
    # row, not what was judged
    sources = [p for p in names if not counting([t for t in p.texts if t])] or names
    # but for numbers in blocks (TREC topics 1..50): each value on one run
    # of rows listing several sources, where grades vary within a query
    topics = [p for p in cands if p.graded and p.distinct >= 2 and _runs(p) == p.distinct]
    queries = [query] if query is not None else names + topics
    # a column numbering the rows 1..n within each value of any column that
    # could be the query (a rank, a position) is nobody, whichever is chosen
    people = [p for p in who if not any(numbers_rows(p, q) for q in queries if q is not p)]
    for q in queries:
        for s in [source] if source is not None else sources:
            if q is s or s.distinct <= q.distinct or determines(s, q) < 0.95 or (
                    q.graded and query is None and not _several(q, s)):
                continue
            score = (2.0 * s.url + q.distinct / max(1, _runs(q)) - 0.5 * q.email - 0.5 * s.email
                     + _repeats(s, people) - _measured(s) - 0.25 * (s.numeric > 0.9))
            scored.append((score, q, s))
    if not scored:
        return None, None
    best_score, q, s = max(scored, key=lambda x: x[0])  # the first of equals
    tied = [(u, t) for score, u, t in scored if score == best_score]
    queries = _lists([u for u, t in tied if t is s], s)
    if len(queries) > 1:
        return (queries[0], s), ("query", queries[1])
    q = queries[0]
    rival = next((t for u, t in tied if u is q and t is not s), None)
    return (q, s), None if rival is None else ("source_id", rival)


def _lists(queries: list[Profile], source: Profile) -> list[Profile]:
    """The query of columns that could equally be it (each fixed by the
    source and in runs: so is a count of a few values per query, a topic's
    category, grades that came in blocks): its values each list several
    sources, as a query lists the items it ranks; small numbers in blocks
    are a query's ids only where they nest with the other candidates
    (grades cut across the queries) and group no queries said in words
    (a batch's or a round's number); of columns grouping the rows alike,
    the one naming things, in words before numbers (``solar panel
    efficiency`` over ``101``), never small numbers (a grade constant over
    each query). More than one left: nothing in their values tells."""
    kept = [q for q in queries if _several(q, source)] or queries
    names = [q for q in kept if not q.graded]
    texts = [q for q in names if q.numeric < 0.5]
    kept = [q for q in kept if not q.graded or (  # a batch's number over queries in words
        all(max(determines(q, w), determines(w, q)) >= 0.95 for w in names)
        and not any(determines(w, q) >= 0.95 for w in texts))]
    first = kept[0]
    if len(kept) > 1 and all(determines(first, q) >= 0.95 and determines(q, first) >= 0.95
                             for q in kept[1:]):
        words = [q for q in kept if not q.graded]
        return [next((q for q in words if q.numeric < 0.5), words[0])] if words else kept
    return kept


def _several(query: Profile, source: Profile) -> bool:
    """Whether each of ``query``'s values lists several sources."""
    return all(len(ss) > 1 for ss in grouped(query.texts, source.texts).values())


def _repeats(s: Profile, people: list[Profile]) -> float:
    """A source id said on several rows: +0.5 when someone else judged the
    same item on each (the long layout: one row per person), -0.5 when no
    one did (a count, a group, a category: several items share its value
    within a query, so it names none of them)."""
    if s.distinct >= s.filled:
        return 0.0
    return 0.5 if _annotator([p for p in people if p is not s], s) is not None else -0.5


def _measured(p: Profile) -> float:
    """1 for numbers of varying width (a duration, a count: 7, 45, 300),
    which measure something; numeric ids are written alike (2350000100)."""
    if p.numeric < 0.9:
        return 0.0
    return 1.0 if len({len(t) for t in p.texts if t}) > 1 else 0.0


def numbers_items(p: Profile, query: Profile | None, source: Profile, ids: list[float]) -> bool:
    """Whole numbers that number the items (``ids``: their distinct values,
    sorted): each item its own and each number one item's (a key), and
    either counting up one at a time (1, 2, 3: a Label Studio task's
    ``inner_id``; 1000, 1001: its ``id``) or rising down the rows, written
    alike (15391, 15402: task ids of a project some tasks were deleted
    from; an Appen ``_unit_id``). A record's id or a counter, no ranking,
    whatever its header says: a ranker's score falls down a query's rows,
    and one that rises keeps its flag when its numbers vary in width
    (3, 7, 12, 20)."""
    if not ids or determines(p, items(query, source)) < 1.0:
        return False
    if counting(ids):
        return True
    firsts = list(dict.fromkeys(float(t) for t in p.texts if t))
    return len(firsts) >= 2 and not _measured(p) and all(
        b > a for a, b in pairwise(firsts))


def _named_key(p: Profile, query: Profile | None, source: Profile, ids: list[float]) -> bool:
    """Whole numbers naming the items, each number one item's, neither
    counting up nor rising down the rows (:func:`numbers_items`), under a
    header naming a record's key (:func:`~core.io.annotator.names.record_key_header`:
    ``id``, ``annotations.task``, ``predictions.id``, ``_unit_id``) or a
    record's drafts' ids (:data:`~core.io.annotator.names.DRAFTS`): a
    record's ids in no order, with gaps (tasks deleted, the rows sorted in
    the tool), hold what a ranker's whole-number score holds, so the
    header's word chooses the hint, as in one query
    (:func:`_one_query`); nothing is mapped either way."""
    return bool(ids) and (record_key_header(p.name) or p.name == DRAFTS) and determines(
        p, items(query, source)) == 1.0


def _annotator(cands: list[Profile], source: Profile) -> tuple[Profile, str] | None:
    """The column of who judged: several values, each on many rows, varying
    within one source's (or item's: :func:`~core.io.annotator.profile.items`)
    rows, and one row per (source, person)."""
    best: tuple[Profile, str] | None = None
    best_key = (-1.0, False, 0)
    for p in cands:
        if p.col == source.col or not 2 <= p.distinct <= MAX_PEOPLE or p.distinct * 2 > p.filled:
            continue
        # a row naming no one (Label Studio's rows of a task's second
        # prediction, a model's) is no person's: judged over those naming one
        said = [(s, w) for s, w in zip(source.texts, p.texts, strict=True) if w]
        groups = grouped([s for s, _ in said], [w for _, w in said])
        multi = [vs for vs in groups.values() if len(vs) > 1]
        if not multi:
            continue
        pairs = Counter(said)
        unique = sum(1 for n in pairs.values() if n == 1) / max(1, len(pairs))
        varies = len(multi) / len(groups)
        if unique < 0.9 or varies < 0.5:
            continue
        key = (varies + unique + p.email, names_someone(p.name), -p.distinct)
        if key > best_key:
            best = (p, people(p, source))
            best_key = key
    return best


#: Words of a header that name someone (a tie-breaker between columns whose
#: values fit alike: ``ResponseId`` over ``Duration (in seconds)``).
_SOMEONE = frozenset({"id", "email", "mail", "user", "name", "participant", "respondent",
                      "response", "worker", "annotator", "rater", "assessor", "judge",
                      "evaluator", "reviewer", "labeler", "labeller", "grader", "login"})


def names_someone(name: str) -> bool:
    """Whether a header's words name someone (``ResponseId``, ``e-mail``,
    ``completed_by.id``)."""
    words = set(re.split(r"[^a-z]+", normalize(name)))
    return bool(words & _SOMEONE) or normalize(name).endswith("id")



def _rows_filled(p: Profile) -> str:
    """Where a column of one value holds it: ``on every row``, else ``on N
    rows of M`` (``on 1 row of M``; a column filled on nine rows in ten is
    not said full)."""
    rows = len(p.texts)
    if p.filled == rows:
        return "on every row"
    return f"on {numbers.counted(p.filled, 'row')} of {rows}"


def roles_from_values(profiles: list[Profile], named: dict[str, int],
                      taken: set[int]) -> Roles:
    """The fields ``named`` (by the headers) lacks, from the values of the
    columns not ``taken``; the reasons of every field found."""
    by_col = {p.col: p for p in profiles}
    found = dict(named)
    reasons: dict[str, str] = {}
    ignored: dict[int, tuple[str, str]] = {}
    free = [p for p in profiles if p.col not in taken and p.col not in named.values()]
    for p in free:
        if p.filled and p.dates >= 0.8:
            ignored[p.col] = (f"{p.shown()}: dates and times, not imported", "")
        elif p.constant and p.fill >= 0.9 and not p.graded:
            what = span(p) if p.numeric > 0.9 else "one value"
            ignored[p.col] = (f"{p.shown()}: {what} {_rows_filled(p)}, not imported", "")
    free = [p for p in free if p.col not in ignored]
    unsure: tuple[Profile, ...] = ()  # the two that could be the query, read around the first
    if "query" not in found or "source_id" not in found:
        keys = [p for p in free if _key_like(p)]
        query, source = (by_col[found[f]] if f in found else None for f in ("query", "source_id"))
        who = ([by_col[found["annotator"]]] if "annotator" in found
               else [p for p in keys if not p.graded])  # people are no grades
        pair, rival = _pair(keys, query, source, who)
        if pair is not None and rival is not None:
            field, other = rival
            chosen, kept = (pair[1], pair[0]) if field == "source_id" else pair
            found.setdefault("query" if field == "source_id" else "source_id", kept.col)
            reasons[field] = _undecided(field, chosen, other)
            unsure = (chosen, other) if field == "query" else ()
            what = field.replace("_", " ")
            for u, v in ((chosen, other), (other, chosen)):  # each left out, with its flag
                ref = flag_ref(u)
                ignored[u.col] = (f"{u.shown()}: could be the {what}, as {v.shown()} could; "
                                  f"if it is, pass --map {field}={ref}", f"--map {field}={ref}")
        elif pair is not None:
            for f, p in zip(("query", "source_id"), pair, strict=True):
                found.setdefault(f, p.col)
    q_col, s_col = found.get("query", unsure[0].col if unsure else None), found.get("source_id")
    free = [p for p in free if p.col not in (*found.values(), *(u.col for u in unsure))]
    if q_col is not None and s_col is not None:
        # the other roles are read around the query (or either one it could be:
        # the import stops naming both, after saying what else it lacks)
        query, source = by_col[q_col], by_col[s_col]
        beside = any(p.graded for p in profiles if p.col in taken)
        _by_relations(free, query, source, found, reasons, ignored, beside,
                      by_col.get(found.get("grade", -1)))
    _explain(profiles, named, found, reasons)
    return Roles(found, {k: v for k, v in reasons.items() if v}, ignored)


def _undecided(field: str, chosen: Profile, rival: Profile) -> str:
    """Why neither of two columns is taken for ``field``: both could be it."""
    if field == "source_id":
        return (f"{chosen.shown()} or {rival.shown()}: both could be the source id "
                f"(each fixes the query, {chosen.distinct} and {rival.distinct} values) "
                "and nothing in their values tells them apart")
    return (f"{chosen.shown()} or {rival.shown()}: both could be the query (each is fixed "
            f"by the source id and comes in runs, {chosen.distinct} and {rival.distinct} "
            "values) and nothing in their values tells them apart")


def _names_the_graded(p: Profile, grade: Profile | None) -> bool:
    """A column of names filled on every row the grade column fills, its
    blanks rows of no grade (Argilla's pending records, 2 of 10 rows): it
    could name who judged, as a column filled on nine rows of ten could."""
    return grade is not None and not p.graded and p.filled < len(p.texts) and all(
        t for t, g in zip(p.texts, grade.texts, strict=True) if g) and _key_like(
        replace(p, filled=len(p.texts)))


def _by_relations(free: list[Profile], query: Profile, source: Profile,
                  found: dict[str, int], reasons: dict[str, str],
                  ignored: dict[int, tuple[str, str]], beside: bool,
                  grade: Profile | None = None) -> None:
    """Annotator, grade and note from how the free columns relate to the
    query and the source (never a score or a rank: see the module's note);
    ``beside``: grades are read elsewhere (a grade column named so, one
    column per annotator); ``grade``: the grade column named so, whose
    blanks a column naming who judged may share (:func:`_names_the_graded`)."""
    beside = beside or "grade" in found
    if "annotator" not in found:
        # people are no grades, but for workers numbered 1..n each judging
        # one item per query (a Latin square: their numbers count each
        # query's rows, and vary within an item's, as no rank does)
        who = _annotator([p for p in free if (_key_like(p) and not p.graded)
                          or p.email > 0.5 or (p.graded and numbers_rows(p, query))
                          or _names_the_graded(p, grade)],
                         items(query, source))
        if who is not None:
            found["annotator"] = who[0].col
            reasons["annotator"] = f"{who[0].shown()}, read from its values; {who[1]}"
            free = [p for p in free if p is not who[0]]
    graded = [p for p in free if p.graded and not p.constant] or [
        p for p in free if p.graded]
    if len(graded) > 1:  # fractional numbers beside other grades: a time, a trust score
        graded = [p for p in graded if not (p.numeric > 0.9 and p.whole < 0.5)] or graded
    listed = listing(query, source)  # for every graded column
    graded = _batches(graded, query, source, listed, beside, ignored)
    counts = {p.col: counted(p, query, source, listed) for p in graded}  # grouped once
    if len(graded) > 1:
        # Whole numbers counting each query's sources beside other grades
        # are no grade (grades repeat within a query); nor are they the
        # ranking unless named or declared: left out, with the flag.
        for p in [p for p in graded if counts[p.col].rank_like()]:
            graded.remove(p)
            ignored[p.col] = left_out(p, query, source, counts[p.col])
    for p in [p for p in graded if counts[p.col].counts_ranks()]:
        graded.remove(p)  # a rank, even alone: never read as the grade
        ignored[p.col] = left_out(p, query, source, counts[p.col])
    if "grade" not in found and len(graded) == 1:
        g = graded[0]
        found["grade"] = g.col
        reasons["grade"] = f"{g.shown()}, read from its values; {span(g)}, a handful of grades"
    rest = [p for p in free if p.col not in found.values() and not p.graded]
    if "note" not in found:
        # (lists of values, a task's commenters' or drafts' ids [11, 12], are
        # no one's note)
        note = next((p for p in rest if p.col not in found.values() and 0 < p.fill < 0.9
                     and p.spaced > 0.5 and p.numeric < 0.5
                     and not any(list_cell(t) is not None for t in p.texts if t)), None)
        if note is not None:
            found["note"] = note.col
            reasons["note"] = (f"{note.shown()}, read from its values; free text on "
                               f"{numbers.counted(note.filled, 'row')}")


def _batches(graded: list[Profile], query: Profile, source: Profile,
             listed: dict[str, set[str]], beside: bool,
             ignored: dict[int, tuple[str, str]]) -> list[Profile]:
    """The graded columns but the batches' and groups' numbers
    (:func:`~core.io.annotator.ranks.batch_reading`), each left out saying
    so: a batch of rows cutting through a query's always; one value over
    each query's sources beside grades named so (``beside``), or counting
    up down the sheet beside a column that varies within a query. Alone,
    such a column holds grades constant within each query (beside another
    column of grades, the two are read as grades are), unless it counts
    up: then nothing tells, and it is left out with the flag that makes
    it the grade. A few rows counting up in runs where no grade is named
    (0, 1, 1, 1, 1, 2) are what grades do by chance
    (:func:`~core.io.annotator.ranks.runs_chance`): graded, as read."""
    readings = {p.col: batch_reading(p, query, source, listed) for p in graded}
    varying = any(not readings[p.col] for p in graded)
    kept = []
    for p in graded:
        reading = readings[p.col]
        if reading == ROWS and not beside and runs_chance(p, graded) >= BY_CHANCE:
            reading = ""  # a few rows of grades count up so by chance: grades, as read
        if reading == ROWS or (reading and beside) or (reading == QUERIES and varying):
            ignored[p.col] = (batch_reason(p, reading), "")  # no judgment of one document
        elif reading == QUERIES:
            ref = flag_ref(p)
            ignored[p.col] = (f"{p.shown()}: {span(p)}, one value over each query's sources "
                              f"counting up down the sheet: {BATCH_OR_GRADES}; if they are "
                              f"grades, pass --map grade={ref}", f"--map grade={ref}")
        else:
            kept.append(p)
    return kept


def keys(p: Profile, skipped: Container[int] = ()) -> str:
    """How many values a query's or source's column holds and on how many
    rows each: ``3 values, each on 14 rows on average``; the rows
    ``skipped`` (a preview response's) left out, as :func:`people` does."""
    full = [t for i, t in enumerate(p.texts) if t and i not in skipped]
    distinct = len(set(full))
    per = len(full) / max(1, distinct)
    return (f"{numbers.counted(distinct, 'value')}, each on "
            + (f"{per:.3g} rows on average" if per != 1 else "one row"))


def people(who: Profile, source: Profile | None, skipped: Container[int] = (),
           alone: Mapping[int, int] | None = None) -> str:
    """How many people ``who`` names and how many judged each item of
    ``source``: ``3 people, each item judged by 2-3 of them``; the rows
    ``skipped`` (those a platform marks as no judgments: a preview
    response) left out, and those kept all the same that name no one
    (``--keep preview``) one person per file row (``alone``: row -> its
    file row), as the import names them (``preview (row 4)``), so the
    count is the import's."""
    alone = alone or {}
    texts = [t or (f"\0{alone[i]}" if i in alone else "") for i, t in enumerate(who.texts)]
    keep = [i for i in range(len(texts)) if i not in skipped and texts[i]]
    what = numbers.counted(len({texts[i] for i in keep}), "person", "people")
    if source is None:
        return what
    groups = grouped([source.texts[i] for i in keep], [texts[i] for i in keep])
    per = sorted(len(vs) for vs in groups.values())
    spread = "0" if not per else f"{per[0]}" if per[0] == per[-1] else f"{per[0]}-{per[-1]}"
    return f"{what}, each item judged by {spread} of them"


def _explain(profiles: list[Profile], named: dict[str, int], found: dict[str, int],
             reasons: dict[str, str]) -> None:
    """The reason of each field without one yet: its name and its values."""
    by_col = {p.col: p for p in profiles}
    source = by_col.get(found.get("source_id", -1))
    for f, c in found.items():
        if reasons.get(f) or c not in by_col:
            continue
        p = by_col[c]
        how = "named so" if f in named else "read from its values"
        if f == "annotator":
            what = people(p, source)
        elif f in ("query", "source_id"):
            what = keys(p)
        elif f in ("grade", "score", "rank"):
            what = span(p)
        else:
            what = f"{numbers.counted(p.filled, 'cell')} filled"
        reasons[f] = f"{p.shown()}, {how}; {what}"


def judgments_count(p: Profile, query: Profile | None, source: Profile | None,
                    grade: Profile | None, who: Profile | None = None,
                    others: Sequence[Profile] = ()) -> str:
    """Why a column counts each item's judgments (Label Studio's
    ``total_annotations``: whole numbers, one per item, each the number of
    the item's rows, or of those graded, or of those naming who judged, on
    3 items or more): a count, no grade, whatever its header says; ``""``
    when its values do not. The sample's last item may be cut short: its
    count is at least its rows. An item of no judgment counts 0 (a Label
    Studio task with drafts alone, its rows skipped: no grade on them); an
    item with a grade counts 1 at least: a 0 beside a grade is no count of
    judgments (a consensus of 0 on an item graded 0 by a row naming no one,
    where each other item's consensus matched its number of rows, was
    said a count and left out as one, where it is a combined grade).
    ``others``: columns whose filled rows it may count instead (Label
    Studio's ``total_predictions``, 0-3 a task, each the number of the
    task's rows its predictions fill: it was offered as a ranking, ``pass
    --map score=total_predictions``), said as a count of those."""
    if source is None or p.numeric < 1.0 or p.whole < 1.0 or p.lo < 0 or p.hi < 1:
        return ""
    keyed = items(query, source)
    rows: dict[str, list[int]] = {}
    for i, key in enumerate(keyed.texts):
        if key:
            rows.setdefault(key, []).append(i)
    if len(rows) < 3:
        return ""
    last = keyed.texts[-1]
    # (rows filling the grade or who judged are the item's judgments: counted as such)
    own = {q.col for q in (p, grade, who) if q is not None}
    judged, filling = True, [o for o in others if o.col not in own]
    for key, at in rows.items():
        said = {p.texts[i] for i in at}
        if len(said) != 1 or "" in said:
            return ""
        n = float(next(iter(said)))
        graded = sum(1 for i in at if grade is None or grade.texts[i])
        named = sum(1 for i in at if who is None or who.texts[i])
        cut = key == last and n >= len(at)  # (the sample's last item, cut short)
        judged = judged and (n in (len(at), graded, named) or cut) and (n >= 1 or not graded)
        filling = [o for o in filling if cut or n == sum(1 for i in at if o.texts[i])]
        if not judged and not filling:
            return ""
    if judged:
        return (f"{p.shown()}: {span(p)}, one per item, each the number of the item's "
                "judgments (a count of them, no grade); not imported")
    return (f"{p.shown()}: {span(p)}, one per item, each the number of the item's rows "
            f"filling {filling[0].shown()} (a count of them, no grade nor ranking); not imported")


def flag_ref(p: Profile) -> str:
    """How a flag names the column: its header when it needs no quotes,
    else its letter."""
    return p.name if re.fullmatch(r"[\w.\-]+", p.name) else _letter(p.col)


def _letter(col: int) -> str:
    return column_letters(col + 1)


def _one_query(p: Profile, ref: str) -> tuple[str, str]:
    """Why a column counting the candidates of a sheet's one query 1..n is
    left out, and its flag: a position in the ranking and a counter of the
    records (a task's ``id``, ``inner_id``) hold the same values there (a
    counter runs on across queries, a position starts again in each: one
    query cannot show which), so the header's word says which is offered
    (:func:`~core.io.annotator.names.record_key_header`); neither is mapped."""
    what = f"{span(p)}, one per item, counting the one query's sources"
    if record_key_header(p.name):
        return (f"{p.shown()}: {what} (a record's id or a counter: no ranking); "
                "not imported"), ""
    flag = f"--map rank={ref}"
    return (f"{p.shown()}: {what} (a position in its ranking, or a counter: one query "
            f"cannot tell); if this is the ranking, pass {flag}"), flag


def left_out(p: Profile, query: Profile | None, source: Profile | None,
             counts: Counted | None = None) -> tuple[str, str]:
    """Why a column no role takes is left out, and the flag that would use
    it (``""``: none): a numeric column names the ranking's flag, since
    only a declaration makes it one (``Price: numbers 10.34 to 239.91, one
    per item; if this is the ranking, pass --map score=Price``), but for
    numbers that number the items (:func:`numbers_items`: an id, never a
    ranking to suggest). ``counts``:
    its values already grouped by query (:func:`counted`) of a column that
    :func:`batched` found no batch's number."""
    if query is not None and names_the_query(p, query):
        return (f"{p.shown()}: {span(p)}, one per query ({query.shown()}), the same on each "
                "of its rows: the query named another way (its text); not imported"), ""
    reading = "" if counts is not None or query is None or source is None else batch_reading(
        p, query, source)
    if reading:
        return batch_reason(p, reading), ""
    if p.numeric > 0.9 and p.distinct > 1:
        ref = flag_ref(p)
        if query is not None and source is not None and (
                counts if counts is not None else counted(p, query, source)).ranks():
            if query.distinct > 1:  # restarting in each query: a position
                flag, what = f"--map rank={ref}", "whole numbers counting each query's sources"
            else:
                return _one_query(p, ref)
        else:
            flag = f"--map score={ref}"
            per_item = source is not None and determines(items(query, source), p) >= 0.95
            what = span(p) + (", one per item" if per_item else "")
            if source is not None and not per_item:
                # a ranking scores an item once; this varies between its judgments
                return (f"{p.shown()}: {what}, varying between one item's judgments (a "
                        "measure of each judgment: no ranking); not imported"), ""
            ids = _whole_numbers(p) if p.whole > 0.95 else []
            if source is not None and numbers_items(p, query, source, ids):
                return (f"{p.shown()}: {what}, each naming one item and counting up (a "
                        "record's id or a counter: no ranking); not imported"), ""
            if source is not None and _named_key(p, query, source, ids):
                return (f"{p.shown()}: {what}, each naming one item, in no order (a record's "
                        "id, as its header says: whole numbers in no order, with gaps, read "
                        "alike as ids or a score); not imported"), ""
            if ids and _measured(p) and not counting(ids) and not falls(p, query):
                return (f"{p.shown()}: {what}, whole numbers of varying width that do not "
                        "fall down the rows (a duration or a count: no ranking); "
                        "not imported"), ""
            if ids and query is not None and source is not None and tied(p, query, source):
                return (f"{p.shown()}: {what}, each shared by several of a query's items (a "
                        "count or a group: a ranking would tie them); not imported"), ""
        return f"{p.shown()}: {what}; if this is the ranking, pass {flag}", flag
    if p.numeric > 0.9 and p.lo == p.hi:  # one number: said once, with where
        return f"{p.shown()}: {span(p)} {_rows_filled(p)}, no role read from it; not imported", ""
    if source is not None and _names_each_item(p, query, source):
        ref = flag_ref(p)
        return (f"{p.shown()}: {span(p)}, one per item as {source.shown()}: another id of each "
                f"item; if a run names the items by these, pass --map source_id={ref}",
                f"--map source_id={ref}")
    return f"{p.shown()}: {span(p)}, no role read from them; not imported", ""


def _names_each_item(p: Profile, query: Profile | None, source: Profile) -> bool:
    """Ids of the items other than the source's, one per item and each one
    item's, written without spaces (a product's SKU beside its page's URL,
    read as the source; a title, in words, is none): a run may name the
    items by either, and only the user can say which. A judgment's record
    key (``annotation_id``) is one per item too where each is judged once:
    its header tells (:func:`~core.io.annotator.names.judgment_key_header`)."""
    if p.fill < 0.9 or p.spaced > 0.1 or p.dates > 0.1 or p.distinct < 2:
        return False
    if judgment_key_header(p.name):
        return False
    item = items(query, source)
    return determines(p, item) >= 1.0 and determines(item, p) >= 1.0


def _whole_numbers(p: Profile) -> list[float]:
    """The numbers of ``p``'s cells, sorted, its other texts passed over
    (a mark, ``?``, among whole numbers: ``whole`` is the numbers' share)."""
    out = set()
    for t in p.texts:
        try:
            out.add(float(t))
        except ValueError:
            continue
    return sorted(out)
