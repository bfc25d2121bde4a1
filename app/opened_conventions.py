"""Which conventions a file opened in the window gets, and the sentence
saying so (File > Open, Open Recent, a dropped file, the import wizard).

A file opened is read under the defaults, or under the preset named at
launch (``ndcg-worksheet --preset trec_eval``) over them, never under the
previous document's conventions (a run opened over the bundled example took
its cutoffs @1 and @2, its rubric and its guidelines); a workbook of ours
declares its own, which it keeps. File > Keep Conventions for Files Opened,
ticked, reads the next files under the window's instead.
"""

from __future__ import annotations

from app.file_formats import Origin
from core.model.conventions import Conventions
from core.model.presets import defaults_under

__all__ = ["KEEP_TEXT", "conventions_for_opening", "opened_with"]

#: The File menu's tick box that keeps the window's conventions for files opened.
KEEP_TEXT = "Keep Conventions for Files Opened"


def conventions_for_opening(shown: Conventions, *, preset: str | None,
                            keep: bool) -> Conventions:
    """The conventions a file opened next is read under when it declares
    none: the window's (``shown``) when the user keeps them, else the
    defaults under the launch's ``preset`` (None: the defaults)."""
    if keep:
        return shown
    return defaults_under(preset)  # (as the launch's read: app.opening.run_ties)


def opened_with(name: str, origin: Origin, *, preset: str | None, keep: bool,
                scale_from: str | None = None) -> str:
    """The status bar's sentence on the conventions ``name`` opened with;
    ``scale_from``: the judgments (an annotators' sheet, a workbook) whose
    rubric a run joined with them took (:func:`core.io.annotator.qrels.carry_record`),
    which no default declares."""
    if origin is Origin.WORKBOOK:
        return f"Opened {name} under its own conventions"
    if keep:
        return (f"Opened {name} under the conventions kept from the window (as File > "
                f"{KEEP_TEXT} says)")
    said = f"the {preset} preset" if preset is not None else "the default conventions"
    if scale_from is not None:
        said += f" and the rubric of {scale_from}"
    return f"Opened {name} under {said} (File > {KEEP_TEXT} keeps the window's)"
