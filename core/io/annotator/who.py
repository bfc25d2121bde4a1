"""Who judged, said by more than one column: the columns whose values name
the same people as the annotator's column.

A column that holds one value per annotator, the same on each of their
rows, and no value shared by two of them (a one-to-one match with the
annotator's values) is who judged said another way: Label Studio's
``completed_by.id`` beside ``completed_by.email``, Qualtrics'
``PROLIFIC_PID`` beside ``ResponseId``. Its numbers are no measure of a
judgment (they vary between one item's judgments as people do), and the
report says whose column it matches.

Where the annotator was read from values and such a column's header names a
platform's participant id (``PROLIFIC_PID``, ``workerId``,
``participant_id``), the people are named by it: a survey's response id
names a response, the participant id the person (the one a platform pays,
the one to ask about a grade); the report says which column named them.

People named by numbers alone (Label Studio's ``completed_by`` where its
export holds the user's id, not their e-mail) are said so, with the flag
that names them (``--names 7=ana@lab.example``): :func:`named`.
"""

from __future__ import annotations

import ipaddress
import re
from collections import Counter
from collections.abc import Container, Sequence
from typing import Any

from core.io.annotator.model import cell_text
from core.io.annotator.platform import Flag, flagged_rows
from core.io.annotator.profile import Profile, determines, grouped, items, span
from core.io.annotator.report import ImportReport
from core.io.annotator.roles import MAX_PEOPLE, flag_ref, keys, names_someone, people
from core.io.annotator.sheet import Sheet
from core.io.headers import normalize
from core.model.numbers import counted

__all__ = ["judged_by", "named", "participant_named", "said_of_people", "same_people",
           "who_unread"]

#: A header's last word that names a platform's participant (a person, not
#: a response), alone or followed by ``id``.
_PARTICIPANT = frozenset({"participant", "worker", "prolific", "user", "panelist"})
#: A header's last word that is a participant's id in one word.
_PARTICIPANT_ID = frozenset({"pid", *(f"{w}id" for w in _PARTICIPANT)})


def participant_named(name: str) -> bool:
    """Whether a header names a platform's participant id (``PROLIFIC_PID``,
    ``workerId``, ``Participant ID``, Toloka's ``ASSIGNMENT:worker_id``),
    not a response's (``prolific_session_id``) nor something said of the
    participant (``participant_group``, ``Participant condition``,
    ``worker_type``: a study's few groups, one to one with the few
    respondents of the rows looked at, named the people by their group, and
    merged the group's people further down).

    >>> [participant_named(h) for h in ("PROLIFIC_PID", "workerId", "Participant ID",
    ...                                 "participant_group", "prolific_session_id")]
    [True, True, True, False, False]
    """
    words = [w for w in re.split(r"[^a-z]+", normalize(name)) if w]
    if not words:
        return False
    if words[-1] == "id" and len(words) > 1:
        words.pop()
        return words[-1] in _PARTICIPANT
    return words[-1] in _PARTICIPANT | _PARTICIPANT_ID


def _id_like(p: Profile) -> bool:
    """Values that could name people: no dates, no true/false, no words
    but people's names (``Ana Lopez``: a full name beside the e-mails);
    numbers only whole and under a header naming someone (``completed_by.id``,
    ``updated_by``: a duration differs from one respondent to the next as an
    id does)."""
    if p.dates >= 0.5 or p.boolean >= 0.5 or _addresses(p) or (
            p.spaced >= 0.5 and not _full_names(p)):
        return False
    return p.numeric < 0.5 or (p.whole > 0.9 and (names_someone(p.name) or normalize(
        p.name).endswith("_by")))


def _full_names(p: Profile) -> bool:
    """A column of people's names: each filled cell two to four words of
    letters (an apostrophe, a hyphen or a dot within), the first and the
    last capitalized (``Ana Lopez``, ``Ben O'Neil``, ``Ludwig van Beethoven``),
    where a comment is a sentence (``nice study``, ``Great survey, thanks!``)."""
    full = [t.split() for t in p.texts if t]
    return bool(full) and all(
        2 <= len(words) <= 4 and words[0][0].isupper() and words[-1][0].isupper()
        and all(w[0].isalpha() and all(ch.isalpha() or ch in "'’.-" for ch in w)
                for w in words)
        for words in full)


def _addresses(p: Profile) -> bool:
    """A column of IP addresses: a machine's, shared by people behind one."""
    full = [t for t in p.texts if t]
    try:
        return bool(full) and all(ipaddress.ip_address(t) for t in full)
    except ValueError:
        return False


def same_people(who: Profile, other: Profile, skipped: Container[int] = ()) -> bool:
    """Whether ``other`` names the people ``who`` names, on the rows not
    ``skipped``: filled on each of them, one value per person, the same on
    each of their rows, no value for two people, and at least two people."""
    pairs = {(w, o) for i, (w, o) in enumerate(zip(who.texts, other.texts, strict=True))
             if i not in skipped and w}
    if any(not o for _, o in pairs):
        return False
    mine = {w for w, _ in pairs}
    theirs = {o for _, o in pairs}
    return len(mine) >= 2 and len(pairs) == len(mine) == len(theirs)


def judged_by(profiles: list[Profile], found: dict[str, int], flags: Sequence[Flag],
              reasons: list[tuple[str, str]], ignored: dict[int, tuple[str, str]],
              read: bool, rows: Sequence[Sequence[Any]] = (),
              kept: Container[str] = (), file_rows: Sequence[int] = ()
              ) -> list[tuple[str, str]]:
    """Who judged, said on the rows the import keeps (a preview response,
    Qualtrics' ``Status = Survey Preview``, is no one's judgment: a guess
    of '5 people' where 4 remain misleads), by a participant id where the
    annotator was ``read`` from values and one names them, every other
    column naming them too left out saying so (in ``ignored``); ``rows``:
    every row of the sheet below its header (the profiles hold the first
    ones), where a participant id must name one response too; ``kept``:
    the kinds of marked rows imported all the same (``--keep preview``),
    counted as the import counts them (one who names no one is one person
    per ``file_rows``' row, each profiled row's). Returns the reasons."""
    col = found.get("annotator")
    if col is None:
        return reasons
    marked = flagged_rows(lambda c: profiles[c].texts, len(profiles[0].texts), found.get(
        "status"), flags, lambda c: profiles[c].shown(), [p.name for p in profiles])
    twins = _twins(profiles, found, marked, read, rows)
    source = source_items(profiles, found)
    who = profiles[found["annotator"]]
    skipped = {i for i, (kind, _) in marked.items() if kind not in kept}
    alone = {i: file_rows[i] if i < len(file_rows) else i for i in marked if i not in skipped}
    out = []
    for f, why in reasons:
        if f == "annotator" and who.col != col:
            why = (f"{who.shown()}, read from its values: the participant's id, one per "
                   f"respondent ({profiles[col].shown()}), the same on each of their rows; "
                   f"{people(who, source, skipped, alone)}")
        elif f == "annotator" and marked and "; " in why:
            why = f"{why.split('; ', 1)[0]}; {people(who, source, skipped, alone)}"
        elif f in ("query", "source_id") and marked and "; " in why and f in found:
            why = f"{why.split('; ', 1)[0]}; {keys(profiles[found[f]], skipped)}"
        elif f == "ignored" and any(why == ignored.get(c, ("",))[0] for c in twins):
            continue
        out.append((f, why))
    for c, why in twins.items():
        ignored[c] = (why, "")
        out.append(("ignored", why))
    return out


def _twins(profiles: list[Profile], found: dict[str, int], skipped: Container[int],
           read: bool, rows: Sequence[Sequence[Any]] = ()) -> dict[int, str]:
    """The columns naming the annotators another way (column -> why it is
    not imported); ``read``: the annotator was read from values, so a
    participant id among them names the people instead (``found`` then
    maps the annotator to it, and the response id is the one said)."""
    who = profiles[found["annotator"]]
    taken = set(found.values())
    twins = [p for p in profiles if p.col not in taken and _id_like(p)
             and same_people(who, p, skipped)]
    # one to one in the rows looked at, but not further down: not the people
    broken = {p.col: _broken(rows, who.col, p.col) for p in twins}
    named = next((p for p in twins if participant_named(p.name) and not broken[p.col]), None)
    if read and named is not None and not participant_named(who.name):
        found["annotator"] = named.col
        twins = [who if p is named else p for p in twins]
        broken[who.col], who = None, named
    return {p.col: f"{p.shown()}: one value per annotator ({who.shown()}), the same on each "
            "of their rows: who judged, named another way; not imported" if not broken[p.col]
            else f"{p.shown()}: one value per annotator ({who.shown()}) in the first rows, "
            f"not further down ({broken[p.col]}): who judged stays named by {who.shown()}; "
            "not imported" for p in twins}


def _broken(rows: Sequence[Sequence[Any]], who: int, named: int) -> str | None:
    """Where, on the rows where both are filled, a value of column
    ``named`` first stands beside a second value of column ``who`` or the
    reverse (None: one to one in the whole sheet):
    a participant id names one response in the whole sheet, not only in
    the rows profiled (one who answered twice further down would have had
    both responses' grades merged, conflicts, the first kept). Returns
    the value and the two beside it, said (``'p1' beside 'R_1' and
    'R_9'``)."""
    response: dict[str, str] = {}
    participant: dict[str, str] = {}
    for row in rows:
        w = cell_text(row[who]).strip() if who < len(row) else ""
        n = cell_text(row[named]).strip() if named < len(row) else ""
        if w and n and response.setdefault(n, w) != w:
            return f"{n!r} beside {response[n]!r} and {w!r}"
        if w and n and participant.setdefault(w, n) != n:
            return f"{w!r} beside {participant[w]!r} and {n!r}"
    return None


def source_items(profiles: list[Profile], found: dict[str, int]) -> Profile | None:
    """The items' column (query and source) the people are counted over."""
    source = profiles[found["source_id"]] if "source_id" in found else None
    if source is not None and "query" in found:
        source = items(profiles[found["query"]], source)
    return source


def said_of_people(p: Profile, who: Profile | None, query: Profile | None,
                   source: Profile | None) -> tuple[str, str] | None:
    """Numbers the same on each of an annotator's rows (two rows or more
    each) and differing between annotators, not one per item: said of who
    judged, not of a judgment nor a ranking (a survey respondent's
    ``Progress`` or ``Duration``, once said 'varying between one item's
    judgments (a measure of each judgment)', as though each judgment had
    its own). Returns why it is left out, and no flag."""
    if who is None or p.numeric <= 0.9 or p.distinct < 2 or p.col == who.col:
        return None
    filled = [(w, t) for w, t in zip(who.texts, p.texts, strict=True) if w and t]
    pairs = set(filled)
    rows = Counter(w for w, _ in filled)
    if len(rows) < 2 or len(pairs) != len(rows) or min(rows.values()) < 2:
        return None
    if source is not None and determines(items(query, source), p) >= 0.95:
        return None  # one per item too: a ranking's, for all it tells
    return (f"{p.shown()}: {span(p)}, the same on all of each annotator's rows "
            f"({who.shown()}): said of who judged, not of a judgment (no ranking); not "
            "imported"), ""


def who_unread(p: Profile, who: Profile | None, query: Profile | None,
               source: Profile | None) -> tuple[str, str] | None:
    """A column whose values behave as people's (ids, sessions) where no
    column was read as who judged: a few values, each on several rows and
    one at least under two queries, and on each item listed on several
    rows one value per row (Prodigy's ``_session_id`` before 1.11 wrote
    ``_annotator_id``, where few tasks were judged twice and the annotator
    was not read from so few). Never taken as the annotator unasked (a
    survey's session is no person: Prolific's ``SESSION_ID``): said, with
    the flag that takes it, which a refusal of the item's rows again
    names. Returns why it is left out and that flag."""
    if who is not None or query is None or source is None or p.graded or not (
            2 <= p.distinct <= MAX_PEOPLE and p.distinct * 2 <= p.filled):
        return None
    rows = [(f"{q}\x1f{s}", q, t) for q, s, t in zip(query.texts, source.texts, p.texts,
                                                      strict=True) if q and s and t]
    lines = Counter(i for i, _, _ in rows)  # each item's rows
    said = grouped([i for i, _, _ in rows], [t for _, _, t in rows])  # its distinct values
    repeated = [i for i, n in lines.items() if n > 1]
    if not repeated or any(len(said[i]) < lines[i] for i in repeated):
        return None
    if not any(len(qs) > 1 for qs in grouped([t for _, _, t in rows],
                                             [q for _, q, _ in rows]).values()):
        return None
    ref = flag_ref(p)
    return (f"{p.shown()}: {span(p)}, each on rows of several queries and one per row of "
            f"each item on several rows ({counted(len(repeated), 'item')}): who judged each "
            "row, perhaps (too few items judged twice to tell); not imported (if it names "
            f"who judged, pass --map annotator={ref})", f"--map annotator={ref}")


def named(sheet: Sheet, who_all: list[str] | None, report: ImportReport) -> list[str] | None:
    """Each row's annotator (``who_all``, a long layout's) under the names
    the user gave (``sheet.mapping.names``; a wide layout's grade columns'
    annotators renamed in ``sheet.mapping``), the ``report`` saying so;
    without names given, annotators named by numbers alone said so with
    the flag that names them. A name given to no annotator read, or one
    name for two, is refused: two people would be merged in silence."""
    mapping = sheet.mapping
    read = list(dict.fromkeys(who_all)) if who_all is not None else [
        n for _, n in mapping.grades]
    given = dict(mapping.names)
    if not given:
        _numbered(sheet, read if mapping.annotator is not None else [], report)
        return who_all
    unknown = [k for k in given if k not in read]
    if unknown and not read:
        raise sheet.fail(f"--names {', '.join(map(repr, unknown))}: the sheet names no "
                         "annotator (no column of who judged, nor one grade column each)",
                         hint="pass --names where the import lists annotators, or leave it out")
    if unknown:
        raise sheet.fail(f"--names {', '.join(map(repr, unknown))}: no annotator of that name "
                         f"was read (the annotators: {', '.join(read)})",
                         hint="name them as the import lists them, --names ID=NAME,...")
    new = [given.get(w, w) for w in read]
    twice = next((n for n in new if new.count(n) > 1), None)
    if twice is not None:
        both = " and ".join(repr(w) for w in read if given.get(w, w) == twice)
        raise sheet.fail(f"--names: {both} would both be named {twice!r}",
                         hint="give each annotator a name of their own")
    report.notes.append("annotators named at the import: " + ", ".join(
        f"{k} as {v}" for k, v in given.items()))
    if who_all is None:
        sheet.mapping = mapping.replace(grades=tuple((c, given.get(n, n))
                                                     for c, n in mapping.grades))
        return None
    return [given.get(w, w) for w in who_all]


def _numbered(sheet: Sheet, read: list[str], report: ImportReport) -> None:
    """Annotators named by whole numbers alone (a platform's user ids, 3, 7,
    12), said in the report's notes and the command line's warnings, with
    the ``--names`` that names them."""
    numbers = sorted((w for w in read if w.isdigit()), key=int)
    col = sheet.mapping.annotator
    if col is None or not numbers or len(numbers) < len([w for w in read if w.strip()]):
        return
    example = ",".join(f"{w}=NAME" for w in numbers[:3]) + (",..." if len(numbers) > 3 else "")
    note = (f"the annotators are named by numbers alone ({', '.join(numbers)}, in "
            f"{sheet.name(col)}), as a platform's user ids are (Label Studio's completed_by "
            f"where its export holds no e-mail): pass --names {example} to name them")
    report.notes.append(note)
    report.warnings.append(note)
