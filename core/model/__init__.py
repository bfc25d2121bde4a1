"""The model: conventions, presets, the document, grades and edits (no arithmetic
beyond a grade's own rules)."""
