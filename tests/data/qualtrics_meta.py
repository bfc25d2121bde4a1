"""Qualtrics' metadata columns, declared once for the two writers of its
exports: tests/data/platform_sheets.py (the corpus' qualtrics_export.csv,
run as a script beside this file: imported by its bare name) and
tests/platformgen.py (the exports hypothesis draws: ``tests.data.qualtrics_meta``).
This module imports nothing, so either way of importing it works."""

#: The columns before the questions, in the export's order: the column id,
#: its text (the second header row) and its import id (the third: the
#: export writes it as compact JSON, the dates with the survey's time zone).
QUALTRICS_META: list[tuple[str, str, dict[str, str]]] = [
    ("StartDate", "Start Date", {"ImportId": "startDate", "timeZone": "America/Denver"}),
    ("EndDate", "End Date", {"ImportId": "endDate", "timeZone": "America/Denver"}),
    ("Status", "Response Type", {"ImportId": "status"}),
    ("IPAddress", "IP Address", {"ImportId": "ipAddress"}),
    ("Progress", "Progress", {"ImportId": "progress"}),
    ("Duration (in seconds)", "Duration (in seconds)", {"ImportId": "duration"}),
    ("Finished", "Finished", {"ImportId": "finished"}),
    ("RecordedDate", "Recorded Date", {"ImportId": "recordedDate", "timeZone": "America/Denver"}),
    ("ResponseId", "Response ID", {"ImportId": "_recordId"}),
    ("DistributionChannel", "Distribution Channel", {"ImportId": "distributionChannel"}),
    ("UserLanguage", "User Language", {"ImportId": "userLanguage"}),
]
