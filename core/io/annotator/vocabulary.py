"""A legend of labels without grades (``Scale: Perfect / Excellent / Good /
Fair / Bad``, or a label a row): the sheet's scale vocabulary.

An order of labels gives no numbers (the gain of each level changes NDCG),
so such a legend never grades anything: it names the labels a grade cell
may hold (a label it lacks stops the import naming the cell:
:func:`check_vocabulary`), picks the known scale whose levels it lists (as
a header listing them does), and, where no known scale reads the labels,
is named in the refusal with a ``--rubric`` to type. A legend that states
its order (``from best to worst: ...``) proposes grades one apart, for the
user to confirm (the wizard's button names each label's grade), never read
as the grades.

It is told from other text by what its cells look like (short labels, no
numbers, two or more, each once) and by the grade columns: two of its
labels at least are labels they hold (:func:`evidenced`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from core.io.annotator.model import cell_text
from core.io.annotator.names import name_field
from core.io.annotator.scales import LEVEL_NAMES, Vocabulary, label_key, numbered_label
from core.io.annotator.sheet import Sheet
from core.io.safety import column_letters

__all__ = ["check_vocabulary", "evidenced", "in_cells", "in_column", "legend_header", "order_of",
           "row_listing"]

#: A level's words: short (a label, not a sentence of guidelines).
_MAX_LABEL = 40
#: Words stating a legend's order, best first or worst first.
_BEST_FIRST = re.compile(
    r"\b(?:best\s+(?:to\s+worst|first)|highest\s+(?:to\s+lowest|first)|high\s+to\s+low"
    r"|most\s+(?:relevant\s+)?to\s+least(?:\s+relevant)?|descending)\b", re.IGNORECASE)
_WORST_FIRST = re.compile(
    r"\b(?:worst\s+(?:to\s+best|first)|lowest\s+(?:to\s+highest|first)|low\s+to\s+high"
    r"|least\s+(?:relevant\s+)?to\s+most(?:\s+relevant)?|ascending)\b", re.IGNORECASE)
#: A title over a legend's rows (``Legend``, ``Scale (best first)``, ``Labels:``).
_TITLE = re.compile(r"^\W*(?:relevance\s+|grading\s+|rating\s+|grade\s+)?(?:legend|scale|"
                    r"labels?|key|grades?|ratings?|levels|options|categories)\b",
                    re.IGNORECASE)
#: A legend's title when no colon ends it (``Legend`` | ``Vital`` | ``Useful``;
#: ``label`` | ``query`` | ``doc_id`` is a header).
_TITLES = frozenset({"legend", "scale", "key", "rating scale", "relevance scale",
                     "grading scale", "grade scale"})
#: Where a cell listing labels separates them.
_SEPARATORS = re.compile(r"\s*(?:[,;/|\n]|\s>\s)\s*")
_LETTER = re.compile(r"[^\W\d_]")


def order_of(text: str) -> str:
    """The order ``text`` states: ``best first``, ``worst first``, or ""."""
    best, worst = bool(_BEST_FIRST.search(text)), bool(_WORST_FIRST.search(text))
    return "best first" if best and not worst else "worst first" if worst and not best else ""


def _title(text: str) -> bool:
    """Whether ``text`` heads a legend rather than naming a level."""
    return bool(_TITLE.match(text) or order_of(text) or text.rstrip().endswith(":"))


def _label(text: str) -> str | None:
    """``text`` as one label of a legend: short words, no digit, no
    separator, no title; None otherwise."""
    words = " ".join(text.split())
    if not words or len(words) > _MAX_LABEL or not _LETTER.search(words) \
            or re.search(r"[\d,;/|:=]", words) or _title(words):
        return None
    return words


def _labels(parts: Iterable[str]) -> tuple[str, ...] | None:
    """Two labels or more, each once; None when a part is no label."""
    found = [_label(p) for p in parts]
    if len(found) < 2 or None in found:
        return None
    labels = tuple(t for t in found if t is not None)
    return labels if len({label_key(t) for t in labels}) == len(labels) else None


def _in_cell(text: str, titled: bool = False) -> tuple[tuple[str, ...], str] | None:
    """A cell listing labels (``From best to worst: Perfect / Good / Bad``)
    and the order it states; with ``titled`` only under a title (a row's
    cells joined: ``query | doc | relevance`` is a header, not a legend)."""
    head, colon, rest = text.partition(":")
    parts = [p for p in _SEPARATORS.split((rest if colon else text).strip()) if p]
    if not colon and parts and (order_of(parts[0]) or label_key(parts[0]) in _TITLES):
        head, parts = parts[0], parts[1:]  # a title of its own: ``Legend``, ``Scale``
    labels = _labels(parts)
    if labels is None or (head != text and not (_TITLE.match(head) or order_of(head))) \
            or (titled and head == text):
        return None
    return labels, order_of(head if head != text else "")


def row_listing(row: Sequence[Any], r: int) -> tuple[str, str] | None:
    """A row's cells read as one cell listing levels, as a legend typed
    into a CSV without quotes is split (``Scale: 0 = no`` | ``1 = yes``) or
    laid across a row (``Scale:`` | ``Vital`` | ``Useful``): their texts
    joined, and where they are (``cells A1-C1``); None for fewer than two."""
    filled = [(c, cell_text(v).strip()) for c, v in enumerate(row)
              if type(v) is str and v.strip()]
    if len(filled) < 2 or len(filled) < sum(cell_text(v).strip() != "" for v in row):
        return None
    where = f"cells {column_letters(filled[0][0] + 1)}{r}-{column_letters(filled[-1][0] + 1)}{r}"
    return ", ".join(t for _, t in filled), where


def in_cells(rows: Sequence[Sequence[Any]], where: str, first: int = 1) -> list[Vocabulary]:
    """The legends of labels ``rows`` hold (counted from ``first``): a cell
    listing them, or a run of rows naming one each, under a title row
    stating the order or not."""
    out: list[Vocabulary] = []
    run: list[tuple[int, str]] = []
    title = ""

    def close() -> None:
        labels = _labels(t for _, t in run)
        if labels is not None:
            rows_ = (f"row {run[0][0]}" if len(run) == 1 else f"rows {run[0][0]}-{run[-1][0]}")
            out.append(Vocabulary(labels, rows_ + where, order_of(title)))
        run.clear()

    for r, row in enumerate(rows, start=first):
        filled = [cell_text(c).strip() for c in row if cell_text(c).strip()]
        label = _label(filled[0]) if len(filled) == 1 else None
        if label is not None:
            run.append((r, label))
            continue
        close()
        title = filled[0] if len(filled) == 1 and _title(filled[0]) else ""
        seen = len(out)
        for c, cell in enumerate(row):
            found = _in_cell(cell_text(cell)) if type(cell) is str else None
            if found is not None:
                out.append(Vocabulary(found[0], f"cell {column_letters(c + 1)}{r}{where}",
                                      found[1]))
        joined = row_listing(row, r) if len(out) == seen else None
        found = _in_cell(joined[0], titled=True) if joined is not None else None
        if joined is not None and found is not None:
            out.append(Vocabulary(found[0], joined[1] + where, found[1]))
    close()
    return out


#: Where a key's entry gives its label's meaning (``Not relevant = off topic``).
_MEANING = re.compile(r"\s*(?:=|:|\s[-\u2013\u2014]\s)\s*")
#: A scale's level names that are also a yes / no answer's: no evidence of a scale.
_ANSWERS = frozenset({"yes", "no", "true", "false"})


def legend_header(header: str) -> bool:
    """Whether a column's header names a legend (``Legend``, ``Key``,
    ``Scale (best first)``, ``Legend:``)."""
    bare = re.sub(r"\([^()]*\)", "", header).strip().rstrip(":").strip()
    return label_key(bare) in _TITLES


def _entry(text: str) -> str:
    """A key's entry as its label: the words before a meaning given
    (``Highly relevant = perfect answer``: ``Highly relevant``)."""
    head = _MEANING.split(" ".join(text.split()), maxsplit=1)[0]
    return head if _label(head) is not None else text


def in_column(cells: Sequence[Any], header: str, where: str, others: set[str]
              ) -> Vocabulary | None:
    """A column's run of labels near the top (``cells``, under ``header``;
    a title first or not: ``Key:``, ``Legend (best first)``; each label
    alone or given its meaning, ``Not relevant = off topic``), as a legend
    beside the judgments: when two of them at least are labels another
    column holds (``others``: their :func:`label_key`) or, under a header
    naming no field, a known scale's levels; or the header names a legend
    (``Legend``, ``Key``)."""
    texts = [cell_text(c).strip() for c in cells]
    title = texts[0] if texts and _title(texts[0]) and _label(_entry(texts[0])) is None \
        else ""
    labels = _labels(_entry(t) for t in texts[1 if title else 0:])
    if labels is None:
        return None
    keys = {label_key(t) for t in labels}
    named = name_field(header)  # (a grade column graded on its first rows only is no legend)
    scale = len(keys & (LEVEL_NAMES - _ANSWERS)) >= 2 and named.field is None \
        and named.annotator is None
    if len(keys & others) < 2 and not scale and not legend_header(header):
        return None
    return Vocabulary(labels, where, order_of(title) or order_of(header))


def evidenced(found: Sequence[Vocabulary], labels: Mapping[str, int],
              listed: Sequence[Vocabulary] = ()) -> Vocabulary | None:
    """The legend of labels the grade columns' ``labels`` bear out (two of
    its labels at least among them; one, for the choices the records
    themselves list, ``listed``: Prodigy's ``options``, where a dataset
    mostly ignored chose one); None when none does, or those that do list
    different labels."""
    used = {label_key(t) for t in labels}
    fits = [v for v in found if len(v.label_keys() & used) >= (1 if v in listed else 2)]
    return fits[0] if fits and all(v.label_keys() == fits[0].label_keys() for v in fits) else None


def _key(text: str) -> str:
    """A grade cell's label as a legend's is compared (a numbered label's words)."""
    written = numbered_label(text)
    return label_key(written[1] if written is not None else text)


def check_vocabulary(sheet: Sheet, legend: Vocabulary, labels: Mapping[str, int]) -> None:
    """Every label the grade cells hold (``labels``) is one ``legend``
    lists; else the import stops in one line naming the legend and the
    first cell holding a label it lacks, and a --rubric to type."""
    keys = legend.label_keys()
    lacking = [t for t in labels if _key(t) not in keys]
    if not lacking:
        return
    for c, _ in sheet.mapping.sources():
        for i, text in enumerate(sheet.texts(c)):
            if text in lacking:
                raise sheet.fail(
                    f"{legend.said} has no label {text!r}, which {sheet.name(c)} holds",
                    line=sheet.row_number(i), column=sheet.name(c),
                    hint=f"give each label its grade with --rubric (e.g. --rubric "
                    f"\"{legend.example(lacking)}\"), or correct the legend or the grade")
