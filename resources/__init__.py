"""Run-time data of NDCG Worksheet (the bundled example, the icon, the desktop
entry): installed as the package data folder ``core.resources`` and read
through ``core.model.bundled``, never by a path into the source tree."""
