"""An annotators' workbook's guidelines sheet: the levels of the scale in
prose ("2 | Relevant | The page answers the question | e.g. ...") rather
than judgments, offered as the imported document's guidelines.

Guessed from what the cells look like: a column of a few distinct small
whole numbers (the grades), beside a column of sentences (what each grade
means); a short text column between is the label, a second column of
sentences the examples (one per line), as is a column its header names
"Example(s)" whatever its length. A sheet of a scale with examples and no
sentences (``Grade | Label | Example``, as annotation guidelines are often
written) is read so too: its examples kept as the guidelines, no
description, its labels the scale's (the legend reader,
:mod:`core.io.annotator.legend`, reads them as the scale). A sheet name such as "Instructions"
or "Guidelines" only breaks a tie between sheets that look alike.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.errors import InputError
from core.io.annotator.model import cell_text
from core.io.annotator.read import read_table
from core.io.annotator.report import ImportResult
from core.io.safety import WORKBOOK_SUFFIXES, check_workbook
from core.model.guidelines import Guideline, Guidelines
from core.model.numbers import counted, number_text

__all__ = ["FoundGuidelines", "find_guidelines", "offer_guidelines", "read_guidelines"]

#: A sheet longer than this holds judgments, not a scale's levels.
_MAX_ROWS = 200
#: Whole grades a scale's level may have.
_GRADES = range(-5, 101)
#: Names that hint at guidelines (a tie-breaker only).
_HINT = re.compile(r"instruction|guideline|rubric|scale|codebook|readme|how to", re.I)
#: A header naming the examples' column ("Example", "Examples", "e.g."),
#: whose cells may be a few words each, too short to read as sentences.
_EXAMPLES = re.compile(r"\bexamples?\b|\be\.g\.", re.I)


@dataclass(frozen=True)
class FoundGuidelines:
    """The guidelines read from ``sheet``, and the labels the sheet gives."""

    sheet: str
    guidelines: Guidelines
    labels: dict[float, str] = field(default_factory=dict)

    @property
    def headline(self) -> str:
        """What was read: the grades described, or, where the sheet gives each
        grade a label and examples and no sentence (``Grade | Label |
        Example``), the examples and the labels."""
        entries = self.guidelines.entries
        if any(g.description for g in entries):
            return f"guidelines: {counted(len(entries), 'grade')} described, from sheet " \
                f"{self.sheet!r}"
        examples = sum(len(g.examples) for g in entries)
        labels = ",".join(f"{number_text(g)}={t}" for g, t in sorted(self.labels.items()))
        return (f"guidelines: {counted(examples, 'example')} for {counted(len(entries), 'grade')}"
                f" (labelled {labels}; no sentence says what a grade means), from sheet "
                f"{self.sheet!r}")


def _grade(value: Any) -> float | None:
    """A cell holding a whole grade (a number, or its text)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        number = float(value)
    else:
        text = cell_text(value).strip()
        if not re.fullmatch(r"-?\d{1,3}", text):
            return None
        number = float(text)
    return number if number.is_integer() and int(number) in _GRADES else None


def _prose(texts: Sequence[str]) -> bool:
    """Sentences: most cells hold several words."""
    filled = [t for t in texts if t]
    return len(filled) * 2 >= len(texts) > 0 and (
        sum(len(t.split()) >= 4 for t in filled) * 2 >= len(filled))


def _headed_examples(rows: list[list[Any]], first: int, col: int) -> int | None:
    """The column the header above row ``first`` (the nearest row above it
    with two cells filled) names as the examples, other than ``col``."""
    for row in reversed(rows[:first]):
        heads = [cell_text(v).strip() for v in row]
        if sum(bool(h) for h in heads) >= 2:
            return next((c for c, h in enumerate(heads) if c != col and _EXAMPLES.search(h)),
                        None)
    return None


def _levels(rows: list[list[Any]]) -> tuple[Guidelines, dict[float, str]] | None:
    """The levels ``rows`` describe (None when they describe none)."""
    width = max((len(r) for r in rows), default=0)
    best: tuple[Guidelines, dict[float, str]] | None = None
    for col in range(width):
        graded = [(i, r, g) for i, r in enumerate(rows)
                  if (g := _grade(r[col] if col < len(r) else None)) is not None]
        values = [g for _, _, g in graded]
        if not 2 <= len(values) <= 11 or len(set(values)) != len(values):
            continue
        texts = [[cell_text(r[c]).strip() if c < len(r) else "" for _, r, _ in graded]
                 for c in range(width)]
        headed = _headed_examples(rows, graded[0][0], col)
        prose = [c for c in range(width) if c not in (col, headed) and _prose(texts[c])]
        if not prose and headed is None:  # (Grade | Label | Example: examples, no sentences)
            continue
        described = prose[0] if prose else None
        examples = headed if headed is not None else prose[1] if len(prose) > 1 else None
        short = [c for c in range(width) if c not in (col, *prose, examples) and any(texts[c])
                 and all(len(t) <= 40 for t in texts[c])]
        found = Guidelines(tuple(
            Guideline(g, texts[described][i] if described is not None else "",
                      tuple(texts[examples][i].splitlines()) if examples is not None else ())
            for i, g in enumerate(values)))
        labels = ({g: texts[short[0]][i] for i, g in enumerate(values) if texts[short[0]][i]}
                  if short else {})
        if not found.entries or (described is None and not labels):
            continue  # (examples beside grades alone, no label: no scale's levels)
        if best is None or len(found.entries) > len(best[0].entries):
            best = (found, labels)
    return best


def read_guidelines(path: str | Path, sheet: str) -> FoundGuidelines:
    """The guidelines sheet ``sheet`` of workbook ``path`` holds; raises
    :class:`InputError` naming the sheet when it describes no levels."""
    if Path(path).suffix.lower() not in WORKBOOK_SUFFIXES:
        raise InputError("a text file has no sheet of guidelines", file=str(path),
                         hint="import a workbook (.xlsx, .ods) with --guidelines, or leave it out")
    table = read_table(path, sheet=sheet)
    found = _levels(table.rows[:_MAX_ROWS])
    if found is None:
        raise InputError(
            "no grading guidelines found: no column of grades beside a column of sentences "
            "saying what each grade means", file=str(path), sheet=sheet,
            hint="name the sheet of the guidelines with --guidelines SHEET, or leave them out "
                 "with --guidelines none")
    return FoundGuidelines(sheet, found[0], found[1])


def find_guidelines(path: str | Path, judged: str | None) -> FoundGuidelines | None:
    """The sheet of workbook ``path`` other than ``judged`` (the judgments')
    that looks most like guidelines, read; None when none does (or ``path``
    is a text file, which has one table)."""
    if Path(path).suffix.lower() not in WORKBOOK_SUFFIXES:
        return None
    found = []
    for name in check_workbook(Path(path)).sheets:
        if name == judged:
            continue
        try:
            table = read_table(path, sheet=name)
        except InputError:
            continue
        if len(table.rows) > _MAX_ROWS:
            continue
        levels = _levels(table.rows)
        if levels is not None:
            found.append((len(levels[0].entries), bool(_HINT.search(name)), name, levels))
    if not found:
        return None
    _n, _hint, name, (guidelines, labels) = max(found, key=lambda f: (f[0], f[1]))
    return FoundGuidelines(name, guidelines, labels)


def offer_guidelines(result: ImportResult, path: str | Path) -> ImportResult:
    """``result`` with the guidelines a sheet of ``path`` other than the
    judgments' holds (:func:`find_guidelines`) set on its document's
    conventions and said in its report's notes (the import wizard's way)."""
    found = find_guidelines(path, result.report.sheet)
    if found is not None:
        doc = result.document
        doc.conventions = doc.conventions.replace(guidelines=found.guidelines)
        result.report.notes.append(
            found.headline + "; they are shown beside the grid, and edited (or cleared) in "
                             "the Conventions panel, under Guidelines")
    return result
