"""What the import refuses to assume (issue 33): a ranking whose values
are not one, grade columns left unused, a sheet that holds no graded
judgments, a grade column written beside its annotators' that is not their
consensus (an adjudicated grade). Each refusal is one :class:`InputError` naming the file, what it
holds and the flag to pass; a field the user declared
(:attr:`ColumnMapping.declared`) is taken as said.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from core.analysis.consensus import consensus as combine
from core.errors import InputError
from core.io.annotator import ranks
from core.io.annotator.cells import Reject, number
from core.io.annotator.detect import detect_mapping
from core.io.annotator.legend import find_legend, legend_columns, legend_words
from core.io.annotator.model import ColumnMapping, cell_text, take_alone
from core.io.annotator.names import (
    combined_grade,
    drafts_header,
    models_header,
    name_field,
    quantity_header,
)
from core.io.annotator.profile import Profile, counting, profile_columns, span
from core.io.annotator.query_text import text_or_grades
from core.io.annotator.scales import header_range
from core.io.annotator.sheet import Sheet
from core.io.annotator.write import written_consensus
from core.io.safety import column_letters
from core.model.conventions import ConsensusRule, Rounding
from core.model.document import Document, GradeState
from core.model.numbers import NumberError, agreed, counted, number_text, read_numbers
from core.model.rubric import Rubric

__all__ = ["NotConsensus", "check_consensus", "check_rank", "check_sheet"]

#: Cells of each column looked at to tell what it holds.
_SAMPLE = 500

#: Significant digits a spreadsheet keeps of a number (Excel's 15; Calc
#: writes as many): a consensus saved back through one still reads as itself.
SPREADSHEET_DIGITS = 15

def _ref(header: list[str], c: int) -> str:
    name = header[c].strip() if c < len(header) else ""
    return name if re.fullmatch(r"[\w.\-]+", name) else column_letters(c + 1)


def check_rank(sheet: Sheet, query: list[str], source: list[str], alive: list[bool]) -> None:
    """A rank column holds whole numbers, one source per rank within each
    query (a candidate's rank is its first row's: another row's is a
    conflict, reported); else the import stops in one line (values veto a
    name)."""
    mapping = sheet.mapping
    col = mapping.rank
    if col is None or mapping.score is not None:
        return
    seen: dict[tuple[str, int], str] = {}
    first: set[tuple[str, str]] = set()  # a candidate's rank is its first row's
    for i, text in enumerate(sheet.texts(col)):
        if not alive[i] or not text or (query[i], source[i]) in first:
            continue
        first.add((query[i], source[i]))
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


def check_sheet(sheet: Sheet, rubric: Rubric | None = None) -> None:
    """Refuse a grade column that holds no grades (the sheet holds no graded
    judgments) and columns of grades like the used ones left unused. Only
    the columns that need it are looked at: a grade column named so is
    read cell by cell, and a sheet whose columns all have a role has none
    left unused. ``rubric``: the scale the user declares (``--rubric``)."""
    mapping = sheet.mapping
    _text_or_grades(sheet)
    if "grade" in mapping.declared:
        return
    unnamed = [c for c, _ in mapping.sources()
               if c >= len(sheet.header) or not _named_grades(sheet.header[c])]
    unused = _unused(sheet)
    if not unnamed and not unused:
        return
    by_col = _profiles(sheet, unused)
    for c in unnamed:
        p = by_col.get(c)
        if p is not None and p.filled and _no_grades(p):
            raise sheet.fail(
                f"holds no graded judgments: the column taken for the grade, "
                f"{sheet.name(c)!r}, holds {_what(p)}", column=sheet.name(c),
                hint="pass --map grade=COLUMN for the column of grades, or "
                "--annotators COL,COL,... for one column per annotator")
    if unused:
        _unused_grades(sheet, _alike_unused(sheet, by_col, unused, rubric))


def _text_or_grades(sheet: Sheet) -> None:
    """Refuse a query's text read from values (undeclared) that could as
    well be one more annotator's grades (:func:`~core.io.annotator.query_text.text_or_grades`),
    in one line naming the column and both readings: read as the text, its
    grades would be dropped unsaid."""
    mapping = sheet.mapping
    col = mapping.query_text
    if col is None or "query_text" in mapping.declared or not mapping.sources():
        return
    by_col = _profiles(sheet, [col])
    marks = {m.strip().casefold() for m in (*mapping.unknown_marks, *mapping.unrateable_marks)}
    p = by_col[col]
    if not text_or_grades(p, [by_col[c] for c, _ in mapping.sources() if c in by_col], marks):
        return
    ref = _ref(sheet.header, col)
    grades = ",".join(_ref(sheet.header, c) for c, _ in mapping.sources())
    raise sheet.fail(
        f"{sheet.name(col)!r} could be the query's text ({span(p)}, one per query) or one "
        "more annotator's grades (numbers on the scale of the grades beside it, among "
        "marks): nothing tells which", column=sheet.name(col),
        hint=f"pass --map query_text={ref} if it is the query's text, or --annotators "
        f"{grades},{ref} if it holds grades")


def _unused(sheet: Sheet) -> list[int]:
    """The columns no role takes (but a legend's and a model's)."""
    mapping, header = sheet.mapping, sheet.header
    used = mapping.used_columns()
    width = max([len(header), *(len(r) for r in sheet.data[:_SAMPLE])], default=0)
    # (a model's work, told by the records' shape, is no one's grades left unused)
    unused = [c for c in range(width) if c not in used
              and not (c < len(header) and sheet.table.modelled(header[c]))]
    if unused:  # a legend's levels are no grades left unused
        unused = [c for c in unused if c not in legend_columns(sheet.table, mapping.header_row)]
    return unused


def _profiles(sheet: Sheet, unused: list[int]) -> dict[int, Profile]:
    """The profiles of the grade columns, the query, the source id and ``unused``."""
    mapping = sheet.mapping
    marks = {m.strip().casefold() for m in (*mapping.unknown_marks, *mapping.unrateable_marks)}
    keys = [c for c in (mapping.query, mapping.source_id) if c is not None]
    cols = sorted({*(c for c, _ in mapping.sources()), *unused, *keys})
    return {p.col: p for p in profile_columns(
        sheet.data[:_SAMPLE], sheet.header, marks, cols,
        legend_words(sheet.table, mapping.header_row))}


def taken_alone(sheet: Sheet) -> ColumnMapping:
    """The mapping of a grade column declared (``--map grade=C``, the
    wizard's box that takes it alone) beside columns of grades like it: each
    of those says it is left out for that, not for what its values are
    taken for (``numbers 0 to 2, varying between one item's judgments``)."""
    mapping = sheet.mapping
    if "grade" not in mapping.declared or mapping.grade is None:
        return mapping
    unused = _unused(sheet)
    alike = {p.col for p in _alike_unused(sheet, _profiles(sheet, unused), unused)} \
        if unused else set()
    if not alike:
        return mapping
    what, ref = sheet.name(mapping.grade), _ref(sheet.header, mapping.grade)
    return mapping.replace(left_out=tuple(
        (c, f"{sheet.name(c)}: grades like {what}'s, left out as declared "
         f"({take_alone(ref, what)}); not imported", "") if c in alike else (c, why, flag)
        for c, why, flag in mapping.left_out))


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


def _alike(p: Profile, grades: list[Profile], marks: set[str], counts: bool = False,
           pool: list[Profile] | None = None) -> bool:
    """Whether column ``p`` holds grades the way the used grade columns do:
    grades sharing their labels, or whole numbers within their scale (any
    whole numbers, where ``counts``: a column the guess left out as
    counting each query's rows, whose values the chance of grades doing
    so weighs, :func:`_a_rank`; a few rows show little of a scale). A
    column counting the rows (0, 1, 2, 3) is read as a row number, yet on
    a few rows grades like the sheet's (``pool``) count so by chance
    (:func:`~core.io.annotator.ranks.counting_chance`) as well."""
    if models_header(p.name) or drafts_header(p.name):
        # a prediction's fields (predictions.task: its task's id, 1, 2, ...
        # on a small project's rows of one prediction a task) are the model's;
        # a draft's choice is no one's grade yet (platform.drafts_flag)
        return False
    full = [t for t in p.texts if t]
    if not p.graded:
        return (pool is not None and p.numeric == 1.0 and p.whole == 1.0 and counting(full)
                and not p.constant and name_field(p.name).field is None
                and ranks.counting_chance(p, pool) >= ranks.BY_CHANCE)
    if p.constant or quantity_header(p.name) or combined_grade(p.name):
        return False
    if name_field(p.name).field not in (None, "grade"):
        return False
    own = _vocabulary(p) - marks
    for g in grades:
        # grades written alike: labels of one scale (a column may use one
        # its neighbour never does), or whole numbers within its range
        if own & (_vocabulary(g) - marks):
            return True
        if p.numeric > 0.9 and g.numeric > 0.9 and p.whole > 0.95 and g.whole > 0.95 \
                and (counts or (g.lo <= p.lo and p.hi <= g.hi)):
            return True
    return False


def _alike_unused(sheet: Sheet, by_col: dict[int, Profile], unused: list[int],
                  rubric: Rubric | None = None) -> list[Profile]:
    """The columns of ``unused`` whose values are grades like the used grade
    columns' (not a rank's, nor a batch's number, nor the consensus written
    beside its annotators', nor a count of each query's rows leaving the
    scale declared: :func:`_declared_scale`)."""
    mapping = sheet.mapping
    grades = [by_col[c] for c, _ in mapping.sources() if c in by_col]
    marks = {m.strip().casefold() for m in mapping.unknown_marks if m.strip()}
    query, source = by_col.get(mapping.query or 0), by_col.get(mapping.source_id or 0)
    consensus = written_consensus(sheet.header) if mapping.grades else None
    counts = {c for c, _, flag in mapping.left_out if flag.startswith("--map rank=")}
    scale = _declared_scale(sheet, rubric) if counts & set(unused) else None
    if scale is not None and any(g.numeric > 0 and (g.lo < scale[0] or g.hi > scale[1])
                                 for g in grades):  # (labels: no numbers, lo = hi = 0)
        scale = None  # the used grades leave it ("Relevance (round 4-5)"): not their scale
    if scale is not None:  # no grades on the scale declared: a rank's values, as left out
        unused = [c for c in unused if c not in counts
                  or (scale[0] <= by_col[c].lo and by_col[c].hi <= scale[1])]
    numbers = [g for g in (*grades, *map(by_col.__getitem__, unused))
               if g.graded and g.numeric == 1.0 and g.whole == 1.0]
    alike = [p for p in map(by_col.__getitem__, unused)
             if _alike(p, grades, marks, p.col in counts, _with(p, numbers))
             and p.col != consensus  # the consensus written beside its annotators'
             and not (query is not None and source is not None
                      and (_a_rank(p, _with(p, numbers), query, source, mapping)
                           or _a_batch(p, _with(p, numbers), query, source)))]
    return alike


def _declared_scale(sheet: Sheet, rubric: Rubric | None) -> tuple[float, float] | None:
    """The lowest and highest grade of the scale declared: by the user
    (``--rubric``), by the sheet's legend (``0 = not relevant, ..., 3 =
    perfect``), or by the range a used grade column's header writes
    (``Relevance (0-3)``); None where nothing declares one. A column of
    whole numbers outside it is no annotator's grades on it (they would
    be refused as off the scale): 1, 2, 3, 4 beside ``Relevance (0-3)``
    counts a query's rows as a rank does, and only so."""
    if rubric is not None:
        return rubric.values[0], rubric.values[-1]
    legend = find_legend(sheet.table, sheet.mapping).legend
    if legend is not None:
        return legend.rubric.values[0], legend.rubric.values[-1]
    said = [r for c, _ in sheet.mapping.sources() if c < len(sheet.header)
            and (r := header_range(sheet.header[c])) is not None]
    return (min(lo for lo, _ in said), max(hi for _, hi in said)) if said else None


def _with(p: Profile, grades: list[Profile]) -> list[Profile]:
    """``grades`` and ``p``, once."""
    return grades if any(g is p for g in grades) else [p, *grades]


def _a_rank(p: Profile, grades: list[Profile], query: Profile, source: Profile,
            mapping: ColumnMapping) -> bool:
    """A column counting each query's sources (a rank's values, left out):
    beside an annotator's column (an item's judgments on rows of their
    own: a column of one value per item is no annotator's), or beyond
    chance for grades like the sheet's (``grades``: every column of whole
    numbers read as grades, used or not, this one too)
    (:meth:`~core.io.annotator.ranks.Counted.chance`;
    beside the sheet's ranking, a rank or a score, only beyond what a
    grade scale holds: no second ranking is needed). One that grades
    could fill so by chance (a few small queries, one row per item) may be
    an annotator's grades, and is refused as one left unused, never
    dropped on a guess."""
    got = ranks.counted(p, query, source)
    if not got.rank_like() or mapping.annotator is not None:
        return got.rank_like()
    if mapping.rank is not None or mapping.score is not None:
        return got.counts_ranks()
    return got.counts_ranks() or got.chance(grades) < ranks.BY_CHANCE


def _a_batch(p: Profile, grades: list[Profile], query: Profile, source: Profile) -> bool:
    """A batch's or a group's number (:func:`~core.io.annotator.ranks.batch_reading`),
    left out; one counting up down the rows in runs that grades could
    make by chance (a few rows) may be an annotator's grades, and is
    refused as one left unused, never dropped on a guess."""
    reading = ranks.batch_reading(p, query, source)
    return reading != ranks.ROWS or ranks.runs_chance(p, grades) < ranks.BY_CHANCE \
        if reading else False


def _unused_grades(sheet: Sheet, alike: list[Profile]) -> None:
    """Columns of grades like the used ones and not used stop the import:
    never the first taken and the rest dropped."""
    if not alike:
        return
    mapping, header = sheet.mapping, sheet.header
    used = [c for c, _ in mapping.sources()]
    refs = [_ref(header, c) for c in used] + [_ref(header, p.col) for p in alike]
    names = ", ".join(sheet.name(p.col) for p in alike)
    what = ", ".join(sheet.name(c) for c in used)
    alone = (take_alone(refs[0], what) if mapping.grade is not None
             else f"--annotators {','.join(refs[:len(used)])} to take {what} only")
    ranked, rank_flag = _counting(sheet, alike)
    raise sheet.fail(
        f"{counted(len(alike), 'more column')} of grades like {what}'s "
        f"{agreed(len(alike), 'is')} not used: {names}" + ranked,
        hint=f"pass --annotators {','.join(refs)} if each is one annotator's grades, "
        f"{alone} and leave {names} out" + _left_out_instead(sheet, [p.col for p in alike])
        + rank_flag)


def _counting(sheet: Sheet, alike: list[Profile]) -> tuple[str, str]:
    """What else the columns of ``alike`` the guess left out as a rank's
    values could be (their flag ``--map rank=``): grades of a few small
    queries count 1..n by chance as often as not, so nothing tells. The
    words of the refusal, and of its hint (the rank's flag, where the
    sheet holds no ranking yet)."""
    ranked = {c: flag for c, _, flag in sheet.mapping.left_out if flag.startswith("--map rank=")}
    cols = [p.col for p in alike if p.col in ranked]
    if not cols:
        return "", ""
    free = sheet.mapping.rank is None and sheet.mapping.score is None and len(cols) == 1
    return (", counting each query's rows 1, 2, … (or 0, 1, …) as a rank does and as grades "
            "of a few small queries may: nothing tells which",
            f", or {ranked[cols[0]]} if it is the ranking" if free else "")


def _left_out_instead(sheet: Sheet, alike: list[int]) -> str:
    """The way to leave the grade column out instead, where the columns of
    grades left unused are then the annotators' (``--map grade=none``), in
    the words of the refusal's hint; else nothing."""
    mapping = sheet.mapping
    if mapping.grade is None:
        return ""
    instead = detect_mapping(sheet.table, mapping.header_row, grade_out=True)
    if instead.grade is not None or sorted(c for c, _ in instead.grades) != sorted(alike):
        return ""
    return f", or --map grade=none to leave {sheet.name(mapping.grade)} out"


def check_consensus(sheet: Sheet, rows: npt.NDArray[np.int64], of_row: npt.NDArray[np.int64],
                    doc: Document) -> None:
    """The ``grade`` column of a worksheet CSV written here, left out as the
    consensus of the annotators' columns after it
    (:func:`~core.io.annotator.write.written_consensus`), is that consensus
    on every row read (``rows``, of candidates ``of_row``), computed again
    under the conventions declared: the same number bit for bit, blank (or
    an unknown mark, or the word unrateable) where no number is computed. Else the grade is another
    judgment (an adjudicated one) and the import stops in one line naming
    the first row that differs: a judgment is never replaced by a computed
    number. A grade column the user declared (``--map grade=...``,
    ``--annotators``) is taken as said."""
    mapping = sheet.mapping
    col = written_consensus(sheet.header)
    if col is None or not mapping.grades or "grade" in mapping.declared \
            or col in mapping.used_columns():
        return
    marks = {m.strip().casefold() for m in mapping.unknown_marks}
    marks.add(GradeState.UNRATEABLE.label)  # (no number: write.py's word where one marked it)
    written = _written(sheet.column(col), rows.tolist(), marks)
    differs = _differs(written, doc.grade[of_row], doc.state[of_row])
    if not differs.any():
        return
    k = int(np.argmax(differs))
    number_ = doc.state[of_row] == GradeState.NUMBER
    i, ci = int(rows[k]), int(of_row[k])
    cell = cell_text(sheet.column(col)[i]).strip()
    rule = doc.conventions
    computed = (number_text(float(doc.grade[ci])) if number_[k]
                else GradeState(int(doc.state[ci])).label)
    letter, fits = column_letters(col + 1), _other_rules(doc, written, of_row)
    raise NotConsensus(
        f"{sheet.name(col)} holds {cell or 'no grade'} for query "
        f"{doc.query_ids[int(doc.query[ci])]}, source {doc.source_id[ci]} where the "
        f"{rule.consensus.label} ({', '.join(doc.annotators)}; {rule.rounding.label}) is "
        f"{computed}: a grade given there, not their consensus, is never replaced by a "
        "computed one", file=sheet.file, sheet=sheet.table.sheet, line=sheet.row_number(i),
        column=sheet.name(col), hint=_rule_flags(fits) + f"pass --map grade={letter} to take "
        "its grades, or --map grade=none to leave it out and compute the consensus from the "
        "annotators' grades", letter=letter, fits=fits)


def _differs(written: npt.NDArray[np.float64], grade: npt.NDArray[np.float64],
             state: npt.NDArray[np.int8]) -> npt.NDArray[np.bool_]:
    """Where the written grades are not the consensus ``grade`` (``state``):
    another number, or one where none is computed, or none where one is. A
    number is the consensus when it is that number bit for bit or as a
    spreadsheet keeps it, to :data:`SPREADSHEET_DIGITS` significant digits
    (the worksheet saved back from Excel or LibreOffice: 5/3 written as
    1.66666666666667)."""
    number = state == GradeState.NUMBER
    out: npt.NDArray[np.bool_] = np.where(number, ~(written == grade), ~np.isnan(written))
    for i in np.flatnonzero(out & number):  # (few: a written consensus matches)
        if written[i] == float(f"{grade[i]:.{SPREADSHEET_DIGITS}g}"):
            out[i] = False
    return out


def _other_rules(doc: Document, written: npt.NDArray[np.float64],
                 of_row: npt.NDArray[np.int64]) -> tuple[tuple[ConsensusRule, Rounding], ...]:
    """The other consensus rules and roundings under which the written
    grades are the annotators' consensus on every row (a worksheet written
    with ``--consensus median``, read under the mean), if any; a rule that
    fits unrounded without its roundings."""
    if doc.ratings is None:
        return ()
    fits: list[tuple[ConsensusRule, Rounding]] = []
    ratings = doc.ratings
    for rule, rounding in itertools.product(ConsensusRule, Rounding):
        if fits and fits[-1] == (rule, Rounding.NONE):
            continue  # the rule fits unrounded (NONE comes first): no rounding to name
        grade, state = combine(ratings, rule, rounding)
        if not _differs(written, grade[of_row], state[of_row]).any():
            fits.append((rule, rounding))
    return tuple(fits)


def _rule_flags(fits: tuple[tuple[ConsensusRule, Rounding], ...]) -> str:
    """The command line's words for :func:`_other_rules`' fits."""
    if not fits:
        return ""
    flags = [f"--consensus {rule.value}" + (
        f" --rounding {rounding.value}" if rounding is not Rounding.NONE else "")
        for rule, rounding in fits]
    return f"on every row it is what {', or '.join(flags)} computes: pass the one it was " \
        "written with; or "


@dataclass(eq=False)
class NotConsensus(InputError):
    """A worksheet's grade column that is not its annotators' consensus
    (:func:`check_consensus`): its column's ``letter`` and the consensus
    rules and roundings under which it is on every row (``fits``), so that
    the wizard says its own way out where the command line names flags."""

    letter: str = ""
    fits: tuple[tuple[ConsensusRule, Rounding], ...] = ()


def _written(cells: Sequence[Any], rows: list[int], marks: set[str]) -> npt.NDArray[np.float64]:
    """The grade column's cells on ``rows`` as numbers: NaN where blank or an
    unknown mark, infinity where neither a number nor blank (never equal to
    a consensus)."""
    picked = list(map(cells.__getitem__, rows))
    out = np.full(len(picked), math.nan)
    if set(map(type, picked)) <= {str}:  # a CSV's: numbers and blanks at float's speed
        given = np.flatnonzero(np.array(picked, dtype=object) != "")
        try:
            out[given] = read_numbers([picked[k] for k in given.tolist()])
            return out
        except NumberError:
            pass  # a mark, a decimal comma, a word: each cell read below
    for k, cell in enumerate(picked):
        text = cell.strip() if type(cell) is str else None
        if text == "" or cell is None or (text is not None and text.casefold() in marks):
            out[k] = math.nan
            continue
        try:
            out[k] = number(cell)
        except Reject:
            out[k] = math.inf
    return out
