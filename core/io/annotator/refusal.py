"""Why an import read cannot stand, in the command line's words (the flag
to pass), one rule for the command line, the wizard and
:func:`~core.io.annotator.importer.import_annotations`: labels no rule
reads (:func:`unreadable`), and judgments rejected (:func:`refused_rejections`:
every one, or some unless the user allowed them), with who judged named
where a column left out could say it (the repeats it would make
judgments)."""

from __future__ import annotations

from core.errors import InputError
from core.io.annotator.accounting import ColumnRecord
from core.io.annotator.model import unrateable_flag
from core.io.annotator.report import ImportReport
from core.io.annotator.scales import Vocabulary
from core.model.numbers import agreed, counted

__all__ = ["refused_rejections", "unreadable"]


def unreadable(report: ImportReport) -> InputError | None:
    """Why an import cannot stand (labels no rule reads, or read alike by
    two known scales that grade them otherwise), naming ``--rubric``."""
    if report.alternatives and not report.unmapped_labels:
        scales = report.alternatives
        return InputError(
            "the labels fit two known scales that grade them otherwise: " + "; ".join(
                f"{name} ({text})" for name, text in scales), file=report.file,
            sheet=report.sheet, hint="pass the one meant, e.g. " + " or ".join(
                f"--rubric \"{text}\"" for _, text in scales))
    if not report.unmapped_labels:
        return None
    labels = ", ".join(f"{k!r} ({counted(v, 'cell')})"
                       for k, v in report.unmapped_labels.items())
    known = ",".join(f"{g:g}={t}" for t, g in sorted(report.labels.items(), key=lambda x: x[1]))
    example = ",".join(x for x in (known, *(f"N={k}" for k in report.unmapped_labels)) if x)
    first = next((i for i in report.issues if str(i.value).strip() in report.unmapped_labels),
                 None)  # the file's row and column of the first such label
    problem, hint = (f"labels on no known scale and not in the rubric: {labels}",
                     f"give every label its grade with --rubric, e.g. --rubric \"{example}\"")
    if report.vocabulary is not None:  # a legend of labels: named, its order a proposal
        problem, hint = _vocabulary_unread(report.vocabulary, labels)
    hint += ("; or, for a label that says the item could not be judged (a paywall, a "
             f"broken page), pass {unrateable_flag(['LABEL'])}")
    hint += "".join(  # a column left out that may hold the grades (numbers beside the labels)
        f"; or, if {_named(c)} holds the grades, pass {c.flag}"
        for c in report.columns if c.flag and c.flag.startswith("--map grade="))
    return InputError(problem, file=report.file, sheet=report.sheet,
                      **report.where(first.row if first else None),
                      column=first.column if first else None, hint=hint)


def _named(c: ColumnRecord) -> str:
    """A column as the messages name it: ``D (col4)``, or ``D`` without a header."""
    return f"{c.letter} ({c.header})" if c.header and c.header != c.letter else c.letter


def _vocabulary_unread(legend: Vocabulary, labels: str) -> tuple[str, str]:
    """The refusal of labels a legend lists without grades and no known
    scale reads, and what to type: a --rubric in the legend's stated order,
    one grade apart, to check; else one with ``N`` for each grade."""
    problem = (f"{legend.said} lists the labels, not their grades, and no known scale reads "
               f"them: {labels}")
    said = (f"if they are one grade apart; the legend lists them {legend.order}" if legend.order
            else "with each N its grade; the legend states no order")
    return problem, (f"give every label its grade with --rubric, e.g. --rubric "
                     f"\"{legend.example()}\" {said}")


def refused_rejections(report: ImportReport, listed: str, *, allowed: bool = False,
                       outcome: str = "nothing was written") -> InputError | None:
    """Why an import with rejected judgments is not written: every
    judgment read rejected (a worksheet of unknown grades holds nothing the
    user gave), or some, unless the user ``allowed`` them (``--allow-rejected``,
    the wizard's "Import anyway"); in one line, the count and the first
    rejected cell, then the ``outcome``; ``listed`` says where the rest are."""
    first = report.first_rejected()
    if first is None:
        return None
    row, column, why = first
    n = len(report.rejected_judgments)
    if not report.judgments_imported:
        every = "the one judgment read was" if n == 1 else f"all {n} judgments read were"
        return InputError(f"{every} rejected, so {outcome}; the first: {why}",
                          file=report.file, sheet=report.sheet, **report.where(row), column=column,
                          hint=listed)
    if allowed:
        return None
    kept = report.judgments_imported
    return InputError(
        f"{n} of the {report.judgments_read} judgments read {agreed(n, 'was')} "
        f"rejected, so {outcome}; the first: {why}", file=report.file, sheet=report.sheet,
        **report.where(row), column=column,
        hint=f"{_who_hinted(report)}pass --allow-rejected to import the other {kept} without "
        f"{agreed(n, 'it')}, or fix the sheet; {listed}")


def _who_hinted(report: ImportReport) -> str:
    """Where items listed again are rejected and a column left out could
    name who judged each row (:func:`~core.io.annotator.who.who_unread`),
    the flag that takes it, said first: its rows are then each item's
    judgments, not duplicates."""
    c = next((c for c in report.columns if c.flag and c.flag.startswith("--map annotator=")),
             None)
    if c is None or not report.duplicates:
        return ""
    return (f"pass {c.flag} if {_named(c)} names who judged each row (an item's rows then "
            "its judgments), or ")
