"""The import wizard for annotators' spreadsheets (.xlsx, .csv, .tsv).

Three pages over :mod:`core.io.annotator`:

1. the sheet and a preview of its first rows, with the detected header row;
2. the column mapping (one combo per field, per-annotator grade columns for a
   wide sheet), the rubric, the consensus rule and the rounding;
3. the import report (rows read, imported, rejected with row and column,
   duplicates, grades outside the scale, fractional grades, unmapped labels,
   formulas refused, notes), shown before the user accepts.

Reading and importing run off the UI thread (:func:`app.workers.run_task`);
a failure is one message box with the :class:`~core.errors.InputError` text.
Everything the wizard computes comes from ``core``; this package only adapts
it to Qt. After :meth:`ImportWizard.exec` returns ``Accepted``,
:attr:`ImportWizard.result_value` holds the :class:`ImportResult`.

Modules: :mod:`.wizard` (the wizard, :func:`~.wizard.load_unless_foreign`),
:mod:`.pages` (its three pages), :mod:`.tables` (the preview, grade-column
and issue models), :mod:`.report` (the report view and dialog).
"""
