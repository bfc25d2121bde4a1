"""Typed access to the user's settings, with one table of defaults.

Every setting the app keeps lives in :data:`DEFAULTS` (key -> default); the
type of the default is the type a read returns, so a value stored as text by
one platform's backend still comes back as an ``int`` or ``bool``. Tests
isolate the store (``tests/conftest.py``) and set values through
:class:`Settings` like the app does.
"""

from __future__ import annotations

import contextlib
import getpass
from typing import Any, TypeVar

from PySide6.QtCore import QByteArray, QCoreApplication, QSettings, QSize
from PySide6.QtGui import QGuiApplication, QIcon

from app.desktop_entry import APP_ID, ICON_SIZES
from core.model.bundled import bundled
from core.model.numbers import DECIMALS

__all__ = ["APPLICATION", "DEFAULTS", "ORGANIZATION", "Settings", "application_icon",
           "ensure_identity", "login_name"]

ORGANIZATION = "ndcg-worksheet"
APPLICATION = "NDCG Worksheet"

#: Every setting and its default; the default's type is the setting's type.
DEFAULTS: dict[str, Any] = {
    "reviewer/name": "",
    "grading/last_unrateable_reason": "",
    "grading/advance_after_grade": True,
    "display/decimals": DECIMALS,  # (core's, as the command line writes)
    "window/geometry": QByteArray(),
    "window/state": QByteArray(),
    "window/dragged_sides": [],
    "grid/column_order": [],
    "grid/hidden_columns": [],
    "grid/kept_columns": [],
    "grid/column_widths": {},
    "files/last_directory": "",
    "files/recent": [],
}

T = TypeVar("T")


def ensure_identity() -> None:
    """Name the organisation and application (where QSettings stores), and
    give the windows the application's icon and desktop entry (which a
    Wayland desktop matches the windows to)."""
    if not QCoreApplication.organizationName():
        QCoreApplication.setOrganizationName(ORGANIZATION)
    if not QCoreApplication.applicationName() or QCoreApplication.applicationName() == "python":
        QCoreApplication.setApplicationName(APPLICATION)
    if isinstance(QCoreApplication.instance(), QGuiApplication) and QGuiApplication.windowIcon(
            ).isNull():
        QGuiApplication.setDesktopFileName(APP_ID)
        QGuiApplication.setWindowIcon(application_icon())


def application_icon() -> QIcon:
    """The application's icon, in every size it ships as PNG."""
    icon = QIcon()
    for n in ICON_SIZES:
        icon.addFile(str(bundled(f"icons/{n}x{n}/ndcg-worksheet.png")), QSize(n, n))
    return icon


def login_name() -> str:
    """The operating system's user name (the reviewer's name until one is set),
    or ``reviewer`` when the system does not say."""
    with contextlib.suppress(Exception):
        name = getpass.getuser().strip()
        if name:
            return name
    return "reviewer"


def _coerce(value: Any, default: T) -> T:
    """``value`` as the type of ``default`` (QSettings may hand back text)."""
    if value is None:
        return default
    kind = type(default)
    try:
        if kind is bool:
            if isinstance(value, str):
                return value.strip().lower() in ("1", "true", "yes", "on")  # type: ignore[return-value]
            return bool(value)  # type: ignore[return-value]
        if kind is int:
            return int(value)  # type: ignore[return-value]
        if kind is str:
            return str(value)  # type: ignore[return-value]
        if kind is list:
            if isinstance(value, str):
                return [value] if value else []  # type: ignore[return-value]
            return [str(v) for v in value]  # type: ignore[return-value]
        if kind is QByteArray:
            return QByteArray(value)  # type: ignore[return-value]
        if kind is dict:
            return dict(value) if isinstance(value, dict) else default  # type: ignore[return-value]
    except (TypeError, ValueError):
        return default
    return value


class Settings:
    """The app's settings; reads return the type of the key's default.

    Examples
    --------
    >>> s = Settings()
    >>> s.reviewer = "ana"
    >>> s.reviewer
    'ana'
    """

    def __init__(self, store: QSettings | None = None) -> None:
        ensure_identity()
        self._store = store if store is not None else QSettings()

    def value(self, key: str) -> Any:
        """The stored value of ``key`` (one of :data:`DEFAULTS`), typed."""
        default = DEFAULTS[key]
        return _coerce(self._store.value(key, default), default)

    def set_value(self, key: str, value: Any) -> None:
        if key not in DEFAULTS:
            raise KeyError(f"unknown setting {key!r}")
        self._store.setValue(key, value)

    def sync(self) -> None:
        self._store.sync()

    # -- the settings, typed ---------------------------------------------------------
    @property
    def reviewer(self) -> str:
        """The name set in the preferences for the audit log ("" when none is:
        the window then records :func:`login_name`)."""
        return str(self.value("reviewer/name")).strip()

    @reviewer.setter
    def reviewer(self, name: str) -> None:
        self.set_value("reviewer/name", name.strip())

    @property
    def last_unrateable_reason(self) -> str:
        return str(self.value("grading/last_unrateable_reason"))

    @last_unrateable_reason.setter
    def last_unrateable_reason(self, reason: str) -> None:
        self.set_value("grading/last_unrateable_reason", reason)

    @property
    def advance_after_grade(self) -> bool:
        """Move to the next row after a grade key."""
        return bool(self.value("grading/advance_after_grade"))

    @advance_after_grade.setter
    def advance_after_grade(self, on: bool) -> None:
        self.set_value("grading/advance_after_grade", bool(on))

    @property
    def decimals(self) -> int:
        """Digits shown after the point (display only; values keep full precision)."""
        return max(0, min(15, int(self.value("display/decimals"))))

    @decimals.setter
    def decimals(self, digits: int) -> None:
        self.set_value("display/decimals", int(digits))

    @property
    def last_directory(self) -> str:
        return str(self.value("files/last_directory"))

    @last_directory.setter
    def last_directory(self, path: str) -> None:
        self.set_value("files/last_directory", path)

    @property
    def recent_files(self) -> list[str]:
        return list(self.value("files/recent"))

    @recent_files.setter
    def recent_files(self, paths: list[str]) -> None:
        self.set_value("files/recent", list(paths)[:10])

    @property
    def geometry(self) -> QByteArray:
        return QByteArray(self.value("window/geometry"))

    @geometry.setter
    def geometry(self, data: QByteArray) -> None:
        self.set_value("window/geometry", data)

    @property
    def window_state(self) -> QByteArray:
        return QByteArray(self.value("window/state"))

    @window_state.setter
    def window_state(self, data: QByteArray) -> None:
        self.set_value("window/state", data)

    @property
    def dragged_sides(self) -> list[str]:
        """The side columns ("left", "right") whose width the user set by
        dragging, kept with the window's state (those widths are the user's)."""
        return list(self.value("window/dragged_sides"))

    @dragged_sides.setter
    def dragged_sides(self, sides: list[str]) -> None:
        self.set_value("window/dragged_sides", list(sides))

    @property
    def grid_column_order(self) -> list[str]:
        """The grid's columns (keys) in the order the reviewer left them
        (empty: the default order)."""
        return list(self.value("grid/column_order"))

    @grid_column_order.setter
    def grid_column_order(self, keys: list[str]) -> None:
        self.set_value("grid/column_order", list(keys))

    @property
    def grid_hidden_columns(self) -> list[str]:
        """The grid's columns (keys) the reviewer hid."""
        return list(self.value("grid/hidden_columns"))

    @grid_hidden_columns.setter
    def grid_hidden_columns(self, keys: list[str]) -> None:
        self.set_value("grid/hidden_columns", list(keys))

    @property
    def grid_kept_columns(self) -> list[str]:
        """The grid's columns (keys) shown only once a grade is edited that
        the reviewer ticked to show before, too."""
        return list(self.value("grid/kept_columns"))

    @grid_kept_columns.setter
    def grid_kept_columns(self, keys: list[str]) -> None:
        self.set_value("grid/kept_columns", list(keys))

    @property
    def grid_column_widths(self) -> dict[str, dict[str, int]]:
        """The widths (pixels) the reviewer gave the grids' columns by hand,
        by grid (``ranked``, ``not_retrieved``) and column key; an entry not
        of that form (a hand-edited file) is left out."""
        widths: dict[str, dict[str, int]] = {}
        for grid, columns in self.value("grid/column_widths").items():
            if not isinstance(columns, dict):
                continue
            widths[str(grid)] = {}
            for key, width in columns.items():
                with contextlib.suppress(TypeError, ValueError):
                    widths[str(grid)][str(key)] = int(width)
        return widths

    @grid_column_widths.setter
    def grid_column_widths(self, widths: dict[str, dict[str, int]]) -> None:
        self.set_value("grid/column_widths",
                       {grid: dict(columns) for grid, columns in widths.items()})
