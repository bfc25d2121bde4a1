"""What the wizard's pages ask of the wizard that holds them.

The pages (:mod:`~app.import_wizard.pages`,
:mod:`~app.import_wizard.mapping_page`) are given a :class:`WizardSteps`,
which :class:`~app.import_wizard.wizard.ImportWizard` implements, so they do
not import the wizard that imports them (no import cycle, not even through
imports made only for type checking). A base class rather than a
``typing.Protocol``: a page is parented on its wizard, so what it is given
must be a ``QWizard`` too.
"""

from __future__ import annotations

from collections.abc import Mapping

from PySide6.QtWidgets import QWizard

from core.io.annotator import ColumnMapping, ImportResult, SheetPreview

__all__ = ["WizardSteps"]


class WizardSteps(QWizard):
    """The wizard as its pages see it: the sheet read, the import's result,
    whether work runs, and the steps the pages start."""

    #: The sheet as last read and guessed (None until read).
    preview_value: SheetPreview | None
    #: The last import's document and report (None until imported).
    result_value: ImportResult | None
    #: Reading or importing runs (the pages wait).
    busy: bool

    def load_preview(self, *, sheet: str | None = None, mapping: ColumnMapping | None = None,
                     header_row: int | None = None) -> None:
        """Read the sheet and guess again (off the UI thread)."""
        raise NotImplementedError

    def propose_scale(self, mapping: ColumnMapping) -> None:
        """Read the labels and the rubric of ``mapping``'s grade columns
        again (off the UI thread); the mapping page shows them."""
        raise NotImplementedError

    def guess_around(self, chosen: Mapping[str, int | None], keep: tuple[str, ...] = ()) -> None:
        """Read the sheet again around the columns the user ``chosen`` on the
        mapping page and the kinds of rows they ``keep`` (off the UI
        thread); the page shows the new guess."""
        raise NotImplementedError

    def run_import(self) -> None:
        """Import with the mapping page's choices (off the UI thread)."""
        raise NotImplementedError

    def preview_width(self) -> int:
        """How many columns the first page's preview shows (rows wider than
        the header included)."""
        raise NotImplementedError
