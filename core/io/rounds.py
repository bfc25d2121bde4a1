"""A review round's files: the base and the returned workbooks in, the
reviewers' workbooks, the merged workbook and ``MERGE.json`` out.

Handed its results (evaluations, the merge report's JSON): nothing is
computed here. Every problem is one :class:`~core.errors.InputError` naming
the file.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from core.engine.evaluation import Evaluation
from core.errors import InputError, NotOwnWorkbook
from core.io.atomic import atomic_write_text, check_writable
from core.io.identity import real_path
from core.io.load import WORKBOOK_SUFFIXES, load_document
from core.io.workbook.additions_types import Additions
from core.model.document import Document
from core.model.numbers import counted

__all__ = [
    "check_handed_out",
    "check_merged",
    "check_outputs",
    "read_base",
    "read_returned",
    "reviewer_path",
    "write_merge_report",
    "write_workbooks",
]


def read_base(path: str | Path, *, qrels: str | Path | None = None) -> Document:
    """The base of a round: any input the editor opens (a workbook's grades
    edited in a spreadsheet are taken, as on reopening)."""
    return load_document(path, qrels=qrels)


def read_returned(paths: Sequence[str | Path]) -> list[tuple[str, Document]]:
    """Each returned workbook's name and document (grades edited in Excel or
    LibreOffice come back as current grades with audit entries from outside
    the app). A file that is not one of our workbooks is an InputError."""
    from core.io.workbook import read_workbook

    out = []
    for p in paths:
        path = Path(p)
        if not path.exists():
            raise InputError("no such file", file=str(path), hint="check the path")
        if path.suffix.lower() not in WORKBOOK_SUFFIXES:
            raise InputError("a returned workbook is an .xlsx written by split or saved from "
                             "the base", file=str(path),
                             hint="name the workbooks the reviewers returned")
        try:
            doc = read_workbook(path)
        except NotOwnWorkbook as exc:
            raise InputError(f"{exc.problem}: it cannot be a returned reviewer's workbook",
                             file=str(path),
                             hint="name the workbooks split wrote, or copies of the base, "
                                  "as the reviewers returned them") from exc
        out.append((path.name, doc))
    return out


def reviewer_path(folder: str | Path, base: str | Path, reviewer: str,
                  to: str | None = None) -> Path:
    """Where ``split`` writes ``reviewer``'s workbook: ``FOLDER/BASE-reviewer.xlsx``,
    or ``.ods`` when the base is one (``to``, ``xlsx`` or ``ods``, says otherwise)."""
    from core.io.workbook.targets import is_ods

    suffix = f".{to}" if to else (".ods" if is_ods(base) else ".xlsx")
    return Path(folder) / f"{Path(base).stem}-{reviewer}{suffix}"


def check_outputs(outputs: Sequence[str | Path], inputs: Sequence[str | Path]) -> None:
    """InputError when an output would replace an input (inputs are never
    changed), two outputs are the same file, or one cannot be replaced (read
    only, or open in LibreOffice or Excel: :func:`core.io.atomic.check_writable`),
    before any is written: a hand-out refused at its second reviewer had
    written the first one's workbook."""
    seen: dict[Path, str] = {}
    for p in inputs:
        seen[real_path(Path(p))] = "input"
    for p in outputs:
        key = real_path(Path(p))
        if key in seen:
            what = "an input" if seen[key] == "input" else "another output"
            raise InputError(f"writing here would replace {what}", file=str(p),
                             hint="name another file; a round never changes its inputs")
        seen[key] = "output"
    for p in outputs:
        check_writable(p)


def check_handed_out(paths: Sequence[str | Path], *,
                     hint: Callable[[list[Path]], str]) -> None:
    """InputError naming each of ``paths`` that is there and is not exactly a
    reviewer's workbook as ``split`` handed it out (so writing a hand-out
    again over it would lose someone's work): a reviewer graded it, or wrote
    a note or a convention in it (its audit log or its edits read back on
    reopening), added a sheet, column or comment, or it is not a reviewer's
    workbook of ours at all. A file still as handed out may be replaced.
    ``hint`` says what to do, given those of the files that are reviewers'
    workbooks (which a merge can take; the command line and the editor
    differ)."""
    found = [(Path(p), *_not_as_handed_out(Path(p))) for p in paths]
    _refuse([(p, why, theirs) for p, why, theirs in found if why], "no reviewer's", hint)


def check_merged(path: str | Path, *, keep: Additions, hint: str) -> None:
    """InputError when the file at ``path`` is there and is not a merged
    workbook exactly as ``merge`` wrote it (so merging over it would lose
    someone's work): graded, a conflict resolved, a note or a convention
    written since (an audit entry past those the merge wrote, or an edit
    read back on reopening), a sheet, column or comment added beyond those
    the merge carried from its base and returned workbooks (``keep``, as
    this merge writes them again), or no merged workbook of ours at all. A
    merged workbook still as written may be replaced; ``hint`` says what to
    do."""
    why = _not_as_merged(Path(path), keep)
    if why:
        _refuse([(Path(path), why, False)], "no one's", lambda _theirs: hint)


def _refuse(found: list[tuple[Path, str, bool]], whose: str,
            hint: Callable[[list[Path]], str]) -> None:
    """The one line naming each file worked on, and why."""
    if found:
        raise InputError(
            f"not replaced, so that {whose} work is lost: "
            + "; ".join(f"{p} {why}" for p, why, _ in found),
            hint=hint([p for p, _, theirs in found if theirs]))


def _not_as_handed_out(path: Path) -> tuple[str, bool]:
    """Why the file at ``path`` is not a reviewer's workbook exactly as
    handed out ("" when it is, or is not there), and whether it is a
    reviewer's workbook."""
    from core.analysis.rounds.base import grade_key, original_key

    doc = _ours(path)
    if doc is None:
        return ("", False) if not _there(path) else ("is not a workbook split wrote", False)
    a = doc.assignment
    if a is None or len(a.shares) != 1:
        return "is not a reviewer's workbook split wrote", False
    graded = sum(grade_key(doc, i) != original_key(doc, i) for i in range(len(doc)))
    if graded:
        return f"was graded by {a.reviewer} ({counted(graded, 'grade')} changed)", True
    return _worked_on(doc, path, 0, Additions(), f"by {a.reviewer}",
                      f"what {a.reviewer} added"), True


def _not_as_merged(path: Path, keep: Additions) -> str:
    """Why the file at ``path`` is not a merged workbook exactly as merge
    wrote it with ``keep`` carried ("" when it is, or is not there)."""
    doc = _ours(path)
    if doc is None:
        return "is not a workbook merge wrote" if _there(path) else ""
    a = doc.assignment
    if a is None:
        return "is not a workbook merge wrote"
    if a.logged is None:
        return ("was merged by an earlier version, which kept no record to tell whether "
                "it was worked on since")
    return _worked_on(doc, path, a.logged, keep, "since it was merged",
                      "what was added since it was merged")


def _there(path: Path) -> bool:
    return path.exists() or path.is_symlink()


def _ours(path: Path) -> Document | None:
    """The document of our workbook at ``path``; None when there is none
    (no file, or one that is no workbook of ours)."""
    from core.io.workbook import read_workbook

    if not _there(path):
        return None
    try:
        return read_workbook(path)
    except InputError:
        return None


def _worked_on(doc: Document, path: Path, written: int, carried: Additions, edited: str,
               added: str) -> str:
    """What "worked on" means, for a workbook of ours read as ``doc`` from
    ``path`` ("" when it was not): an audit entry past the ``written``
    first ones, an edit read back on reopening (a grade, a note or a
    convention typed in the spreadsheet), or something added beyond what its
    writer carried there (``carried``). ``edited`` and ``added`` say by
    whom."""
    from core.io.workbook import reopened
    from core.io.workbook.additions import read_additions

    found = reopened(doc)
    if len(doc.audit) > written or (found is not None and not found.empty):
        return f"was edited {edited} (its audit log or notes changed)"
    try:
        extra = read_additions(path).beyond(carried)
    except InputError:
        return "cannot be read whole"
    if extra or extra.not_carried:
        return f"holds {added} ({extra.summary() or 'charts or images'})"
    return ""


def write_workbooks(evaluations: Sequence[tuple[Path, Evaluation]]) -> list[Path]:
    """Write each evaluation as an audited workbook at its path (folders made
    as needed); the paths written, in order."""
    from core.io.workbook import export_workbook

    written = []
    for path, ev in evaluations:
        folder = path.parent
        if folder.exists() and not folder.is_dir():
            raise InputError("this is a file, not a folder", file=str(folder),
                             hint="name a folder for the reviewers' workbooks")
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise InputError(f"cannot make the folder: {exc.strerror or exc}",
                             file=str(folder), hint="choose a folder you can write to") from exc
        export_workbook(ev, path)
        written.append(path)
    return written


def write_merge_report(data: dict[str, Any], path: str | Path) -> None:
    """``MERGE.json``, written atomically."""
    atomic_write_text(Path(path), json.dumps(data, indent=2, ensure_ascii=False) + "\n")
