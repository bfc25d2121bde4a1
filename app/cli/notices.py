"""What the command line says on stderr about the workbooks it read and
writes: each workbook cell refused or taken from the spreadsheet (one line
each, naming sheet and cell), what a rewrite of a workbook cannot keep, and
``--strict``, which makes a refused cell an error before anything is written.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, TextIO

from core.errors import NdcgError
from core.model.numbers import counted
from core.reports.text import visible

if TYPE_CHECKING:
    from core.engine.evaluation import Evaluation
    from core.model.document import Document

__all__ = ["add_strict", "say_empty_run", "say_ids_apart", "say_judgments_notes",
           "say_not_carried", "say_reopened", "say_unjudged", "say_warning"]

PROG = "ndcg-worksheet"


def add_strict(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--strict", action="store_true",
        help="a workbook cell that is refused (a convention the app cannot take) is an error "
        "(exit status 2, nothing written) instead of a warning",
    )


def say_reopened(docs: list[Document], args: argparse.Namespace,
                 err: TextIO | None = None) -> None:
    """One line on stderr per workbook cell reopening refused (a warning:
    the conventions stored with the workbook were used instead) or took from
    the spreadsheet (a convention; grades and notes are counted in one line).
    With ``--strict`` a refused cell raises :class:`NdcgError` instead, its
    one line naming the first refused cell and how many more there are."""
    err = err or sys.stderr
    # Without the workbook reader loaded no document came from a workbook
    # (and evaluating a CSV does not load it for nothing).
    module = sys.modules.get("core.io.workbook.reopened")
    if module is None:
        return
    strict = bool(getattr(args, "strict", False))
    found_all = [f for f in map(module.reopened, docs) if f is not None and not f.empty]
    refused = [bad for f in found_all for bad in f.refused]
    if refused and strict:  # one line: the first refusal, and how many there are
        more = f" and {len(refused) - 1} more" if len(refused) > 1 else ""
        raise NdcgError(f"{refused[0]} (--strict: this workbook cell{more} refused; nothing "
                        "was written)")
    for found in found_all:
        for bad in (*found.refused, *found.not_read):
            err.write(f"{PROG}: warning: {visible(str(bad))}\n")
        for entry in found.conventions:
            err.write(f"{PROG}: note: {visible(found.file)}: {visible(entry.note)}: "
                      f"{visible(entry.before)} -> {visible(entry.after.partition(' = ')[2])} "
                      "(taken from the spreadsheet)\n")
        if found.grades or found.notes:  # (only what was edited: "1 grade", not "and 0 notes")
            grades, notes = len(found.grades), found.notes
            edited = " and ".join([*([counted(grades, "grade")] if grades else []),
                                   *([counted(notes, "note")] if notes else [])])
            err.write(f"{PROG}: note: {visible(found.file)}: {edited}"
                      " edited in the spreadsheet taken"
                      f"{' (sheet Audit lists the grades)' if grades else ''}\n")


def say_not_carried(lost: list[str], err: TextIO | None = None, *,
                    written: str = "the workbook") -> None:
    """One line on stderr per thing a rewritten workbook (or the file
    ``written`` names) could not keep."""
    err = err or sys.stderr
    for what in lost:
        err.write(f"{PROG}: warning: not kept in {written} written: {visible(what)}\n")


def say_note(text: str, err: TextIO | None = None) -> None:
    """One note line on stderr (nothing for "")."""
    if text:
        (err or sys.stderr).write(f"{PROG}: note: {visible(text)}\n")


def say_judgments_notes(judged: Document | None, err: TextIO | None = None) -> None:
    """What the import of an annotators' sheet given as qrels
    (``evaluate/compare RUN --qrels SHEET``) left out (its columns) or
    could not reconcile (grades its guidelines describe that the rubric
    lacks), a note each, from the document ``judged`` it handed them with
    (:attr:`Document.judgments_notes`: the joined run, or the sheet's
    judgments): said once, after the runs are joined with it. Nothing for
    TREC qrels, JSON, Parquet (None, or no note)."""
    for note in judged.judgments_notes if judged is not None else ():
        say_note(note, err)


def say_warning(text: str, err: TextIO | None = None) -> None:
    """One warning line on stderr."""
    (err or sys.stderr).write(f"{PROG}: warning: {visible(text)}\n")


def say_unjudged(ev: Evaluation, name: str, args: argparse.Namespace,
                 err: TextIO | None = None) -> None:
    """One note on stderr when the run ``name``, joined with ``--qrels``,
    has candidates the qrels do not judge and they leave queries unresolved
    under the default rule (``--unjudged`` not given): how many, and the
    flags that give every query an NDCG (the editor's banner says the same)."""
    if getattr(args, "qrels", None) is None or getattr(args, "convention_unknown", None):
        return
    from core.analysis.aggregate import unjudged_candidates, unjudged_what
    from core.model.numbers import agreed, counted

    found = unjudged_candidates(ev)
    if found is None or not found.unresolved:
        return
    err = err or sys.stderr
    them = agreed(found.unknown, "it")
    what = unjudged_what(found.unknown, found.reasons)
    err.write(f"{PROG}: note: {visible(name)}: {found.unknown:,} of "
              f"{counted(found.retrieved, 'retrieved candidate', grouped=True)} "
              f"{agreed(found.unknown, 'is')} {what}, so NDCG is "
              f"unresolved for {found.unresolved:,} of {counted(found.queries, grouped=True)}; "
              f"--unjudged zero counts {them} as not relevant (as trec_eval does), "
              f"--unjudged condensed drops {them} before ranking\n")


def say_ids_apart(ev: Evaluation, name: str, args: argparse.Namespace,
                  err: TextIO | None = None) -> None:
    """One note on stderr when the run ``name``, joined with ``--qrels``,
    has none or few of its candidates judged: an id of each side and what
    to do (:func:`core.analysis.aggregate.ids_apart`)."""
    if getattr(args, "qrels", None) is None:
        return
    from core.analysis.aggregate import ids_apart

    said = ids_apart(ev)
    if said is not None:
        (err or sys.stderr).write(f"{PROG}: note: {visible(name)}: {said}\n")


def say_empty_run(name: str, args: argparse.Namespace, err: TextIO | None = None) -> None:
    """One note on stderr when the run ``name``, joined with ``--qrels``,
    has no line (:func:`core.io.files.holds_no_line`): every query of the
    qrels is then unranked, which the report alone leaves unexplained; and
    one when the qrels have none: every query of the run is then unjudged,
    left out (the report said "over 0 queries" and no more)."""
    qrels = getattr(args, "qrels", None)
    if qrels is None:
        return
    from core.io.files import holds_no_line, sniff

    err = err or sys.stderr
    if holds_no_line(sniff(name, piped=False)):
        err.write(f"{PROG}: note: {visible(name)}: the run has no line, so every query of "
                  "the qrels is unranked\n")
    if holds_no_line(sniff(qrels, piped=False)):
        err.write(f"{PROG}: note: {visible(qrels)}: the qrels have no line, so every query of "
                  "the run is unjudged and left out\n")
