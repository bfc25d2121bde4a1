"""Qt models: thin adapters over :class:`core.engine.Evaluation`.

Models return raw numbers (full precision); delegates round for display. One
module per model family: :mod:`.queries` (the navigator), :mod:`.candidates`
(the grid), :mod:`.cutoffs` (the summary's table), :mod:`.audit`,
:mod:`.pairs` (gain table, rubric); :mod:`.roles` and :mod:`.looks` hold what
they share.
"""
