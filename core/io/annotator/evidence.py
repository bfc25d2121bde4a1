"""What the import refuses to assume (issue 33): a ranking whose values
are not one, grade columns left unused, a sheet that holds no graded
judgments. Each refusal is one :class:`InputError` naming the file, what it
holds and the flag to pass; a field the user declared
(:attr:`ColumnMapping.declared`) is taken as said.
"""

from __future__ import annotations

import re

from core.io.annotator.model import ColumnMapping
from core.io.annotator.names import combined_grade, name_field, quantity_header
from core.io.annotator.roles import Profile, profile_columns, span
from core.io.annotator.sheet import Sheet
from core.io.safety import column_letters

__all__ = ["check_rank", "check_sheet"]

#: Cells of each column looked at to tell what it holds.
_SAMPLE = 500
def _ref(header: list[str], c: int) -> str:
    name = header[c].strip() if c < len(header) else ""
    return name if re.fullmatch(r"[\w.\-]+", name) else column_letters(c + 1)


def check_rank(sheet: Sheet, query: list[str], source: list[str], alive: list[bool]) -> None:
    """A rank column holds whole numbers, one source per rank within each
    query; else the import stops in one line (values veto a name)."""
    mapping = sheet.mapping
    col = mapping.rank
    if col is None or mapping.score is not None:
        return
    seen: dict[tuple[str, int], str] = {}
    for i, text in enumerate(sheet.texts(col)):
        if not alive[i] or not text:
            continue
        try:
            x = float(text.replace(",", "."))
        except ValueError:
            x = 0.5
        problem = ""
        if not x.is_integer():
            problem = f"holds {text!r}, not a whole number"
        else:
            other = seen.setdefault((query[i], int(x)), source[i])
            if other != source[i]:
                problem = (f"gives rank {int(x)} to both {other!r} and {source[i]!r} of query "
                           f"{query[i]!r}")
        if problem:
            raise sheet.fail(
                f"the rank column {sheet.name(col)!r} {problem}: a rank is a whole number, "
                "one per source within each query", line=sheet.row_number(i),
                column=sheet.name(col),
                hint="pass --map rank=COLUMN for the column that ranks, --map rank=none if "
                "the sheet holds no ranking, or --order rows if the row order is one")


def check_sheet(sheet: Sheet) -> None:
    """Refuse a grade column that holds no grades (the sheet holds no graded
    judgments) and columns of grades like the used ones left unused."""
    mapping = sheet.mapping
    header = sheet.header
    sample = sheet.data[:_SAMPLE]
    marks = {m.strip().casefold() for m in (*mapping.unknown_marks, *mapping.unrateable_marks)}
    profiles = profile_columns(sample, header, marks)
    by_col = {p.col: p for p in profiles}
    used = [c for c, _ in mapping.sources()]
    if "grade" not in mapping.declared:
        for c in used:
            p = by_col.get(c)
            if p is not None and p.filled and _no_grades(p) and not _named_grades(p.name):
                raise sheet.fail(
                    f"holds no graded judgments: the column taken for the grade, "
                    f"{sheet.name(c)!r}, holds {_what(p)}", column=sheet.name(c),
                    hint="pass --map grade=COLUMN for the column of grades, or "
                    "--annotators COL,COL,... for one column per annotator")
        _unused_grades(sheet, mapping, profiles, [by_col[c] for c in used if c in by_col])


def _named_grades(header: str) -> bool:
    """A header naming grades (``grade``, ``Relevance (0-3)``, ``grade_alice``):
    its cells are read one by one, each rejected with its reason when it is
    no grade."""
    named = name_field(header)
    return named.field == "grade" or named.annotator is not None


def _no_grades(p: Profile) -> bool:
    """Values no scale writes grades as: numbers with fractions or far from
    a scale, or free text of many distinct values."""
    if p.graded:
        return False
    if p.numeric > 0.9:
        return p.whole < 0.5 or p.hi > 100 or p.lo < -10
    return p.distinct > 12 and p.distinct * 2 > p.filled


def _what(p: Profile) -> str:
    if p.numeric > 0.9:
        return span(p)
    examples = ", ".join(repr(t) for t in list(dict.fromkeys(t for t in p.texts if t))[:2])
    return f"{p.distinct} distinct texts ({examples}, ...)"


def _vocabulary(p: Profile) -> set[str]:
    return {t.casefold() for t in p.texts if t}


def _alike(p: Profile, grades: list[Profile], marks: set[str]) -> bool:
    """Whether column ``p`` holds grades the way the used grade columns do:
    the same labels, or whole numbers within their scale."""
    if not p.graded or p.constant or quantity_header(p.name) or combined_grade(p.name):
        return False
    if name_field(p.name).field not in (None, "grade"):
        return False
    own = _vocabulary(p) - marks
    for g in grades:
        theirs = _vocabulary(g) | marks
        if own and own <= theirs:
            return True
        if p.numeric > 0.9 and g.numeric > 0.9 and p.whole > 0.95 and g.whole > 0.95 \
                and g.lo <= p.lo and p.hi <= g.hi:
            return True
    return False


def _unused_grades(sheet: Sheet, mapping: ColumnMapping, profiles: list[Profile],
                   grades: list[Profile]) -> None:
    """Columns of grades like the used ones and not used stop the import:
    never the first taken and the rest dropped."""
    used = set(mapping.used_columns())
    marks = {m.strip().casefold() for m in mapping.unknown_marks if m.strip()}
    alike = [p for p in profiles if p.col not in used and _alike(p, grades, marks)]
    if not alike:
        return
    header = sheet.header
    refs = [_ref(header, c) for c, _ in mapping.sources()] + [_ref(header, p.col) for p in alike]
    names = ", ".join(sheet.name(p.col) for p in alike)
    what = ", ".join(sheet.name(c) for c, _ in mapping.sources())
    raise sheet.fail(
        f"{len(alike)} more column{'s' if len(alike) > 1 else ''} of grades like {what}'s "
        f"{'are' if len(alike) > 1 else 'is'} not used: {names}",
        hint=f"pass --annotators {','.join(refs)} if each is one annotator's grades, or "
        f"--map grade=COLUMN for the one grade column")
