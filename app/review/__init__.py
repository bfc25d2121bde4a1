"""The reviewing docks: compare two runs, explain a disagreement, judges' agreement.

Each dock is its own module (:mod:`.compare_view`, :mod:`.explain_view`,
:mod:`.judges_view`); they share only :mod:`.common` and never import each
other; :func:`app.main.build_window` installs them.
"""
