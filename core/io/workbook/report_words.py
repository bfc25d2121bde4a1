"""The conventions in words, as formulas over the Conventions sheet's named
cells (the Report says what the sheet holds now, not what it held at
export), each with the words the exported conventions give."""

from __future__ import annotations

from typing import Any

from core.engine.evaluation import Evaluation
from core.io.workbook.words import Text, choice_text, join, when
from core.model.conventions import (
    ConventionField,
    TieRule,
    Weighting,
    field_rows,
    format_cutoff,
)

__all__ = ["conventions_words", "cutoff_text", "weighting_text"]


def _words(kind: Any, extra: dict[str, str] | None = None) -> dict[str, str]:
    """Each choice of ``kind`` (a field's choices) as
    "label (formula)", with ``extra`` words after some."""
    return {m.value: f"{m.label} ({m.formula}{(extra or {}).get(m.value, '')})" for m in kind}


def cutoff_text(j: int, ev: Evaluation) -> Text:
    """Cutoff ``j`` (0-based) as the Conventions sheet holds it: a number or all."""
    name = f"cut_{j + 1}"
    return Text(f'IF(ISNUMBER({name}),{name},"all")', format_cutoff(ev.cutoffs[j]))


def weighting_text(ev: Evaluation) -> Text:
    """The declared weighting's label (the means fall back to equal weights)."""
    return choice_text("weighting", ev.conventions.weighting.value,
                       {m.value: m.label for m in Weighting},
                       "(not a weighting; these are equal-query means)")


#: Words the Report adds after some choices (by field, then value).
_EXTRA: dict[str, dict[str, str]] = {
    "gain": {"table": "; the table is in the Conventions sheet"},
    "ties": {m.value: "; rows in the order fixed at export" for m in TieRule
             if m is not TieRule.AVERAGE},
}
#: What the Report says after a value that is none of a field's choices,
#: where the formulas then do something to say (by field).
_OTHERWISE = {
    "gain": "is not a gain rule; the formulas compute linear gain",
    "discount": "is not a discount rule; the formulas use log2",
    "ideal": "is not an ideal inventory; the formulas use ranked",
    "ties": "is not a tie rule; the rows keep the order fixed at export",
    "weighting": "is not a weighting; the means weigh queries equally",
}
#: What an empty text cell says (by field).
_EMPTY = {"rubric": "derived from the grades seen", "preset": "none (each convention declared)"}


def _field_words(f: ConventionField, ev: Evaluation) -> Text | str:
    """Field ``f`` in words, as a formula over its named cell."""
    value = f.get(ev.conventions)
    if f.kind in ("choice", "gain"):
        member = value[0] if f.kind == "gain" else value
        return choice_text(f.cell, member.value, _words(f.choices(), _EXTRA.get(f.name)),
                           _OTHERWISE.get(f.name, f"is not one of the choices for {f.label}"))
    if f.kind == "flag":
        return when(f.cell, bool(value), f", {f.title}", "")
    if f.kind == "cutoffs":
        cutoffs: list[Text | str] = ["k = "]
        for j in range(len(value)):
            cutoffs += [", "] if j else []
            cutoffs.append(cutoff_text(j, ev))
        return join([*cutoffs, "; the same k cuts the actual and the ideal list"])
    if f.kind == "guidelines":  # no named cell: the rubric's list on the Conventions sheet
        return ("each grade's meaning on the Conventions sheet, beside the rubric's grades"
                if value else "none declared")
    text = f.words(value)
    return when(f'{f.cell}=""', not text, _EMPTY.get(f.name, "not declared"),
                Text(f.cell, text))


def conventions_words(ev: Evaluation) -> list[tuple[str, Text]]:
    """(convention, its words) for each row of conventions the Report lists
    (:func:`core.model.conventions.field_rows`: the consensus of annotators where the
    document holds their grades), then the judgment version."""
    rows: list[tuple[str, Text]] = []
    for row, fields in field_rows(annotated=bool(ev.doc.annotators)):
        said: list[Text | str] = []
        for f in fields:
            if said and f.kind != "flag":
                said.append("; ")
            said.append(_field_words(f, ev))
        rows.append((row, join(said)))
    version = ev.doc.judgment_version
    return [*rows,
            ("judgment version", when('judgment_version=""', not version, "not declared",
                                      Text("judgment_version", version)))]
