"""Analysis over evaluations: aggregates, bounds, explanations, agreement,
consensus, comparisons and plot data."""
