"""Reports: evaluations and comparisons as JSON, tables, CSV and sentences."""
