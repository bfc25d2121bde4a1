"""The window's place on its screen: how large a first start opens (a
laptop's screen filled, about 85 % of a wider one) and the normal geometry a
saved window holds (:class:`app.layout.Workplace` opens and restores by them).
"""

from __future__ import annotations

from PySide6.QtCore import QByteArray, QDataStream, QRect

__all__ = ["FULL_UP_TO", "SCREEN_SHARE", "default_geometry", "fills_screen",
           "saved_normal_geometry"]

#: Screens up to this wide (available pixels) are filled at a first start: a
#: laptop has no room to spare for the desktop behind the window.
FULL_UP_TO = 1920
#: The share of a wider screen's available area a first start opens at.
SCREEN_SHARE = 0.85


def fills_screen(available: QRect) -> bool:
    """A first start fills ``available`` (a screen up to :data:`FULL_UP_TO` wide)."""
    return available.width() <= FULL_UP_TO


def default_geometry(available: QRect) -> QRect:
    """``available`` itself on a screen up to :data:`FULL_UP_TO` wide, else
    about 85 % of it, centred in it."""
    if fills_screen(available):
        return QRect(available)
    rect = QRect(0, 0, round(available.width() * SCREEN_SHARE),
                 round(available.height() * SCREEN_SHARE))
    rect.moveCenter(available.center())
    return rect


#: The first field of what ``QWidget.saveGeometry`` writes.
_GEOMETRY_MAGIC = 0x1D9D0CB


def saved_normal_geometry(geometry: QByteArray) -> QRect | None:
    """The window's normal (not maximized) geometry that
    ``QWidget.saveGeometry`` wrote in ``geometry`` (Qt's format: magic,
    version, the frame's rectangle, then the normal one, each as its
    corners); None for bytes of another form."""
    stream = QDataStream(geometry)
    if stream.readUInt32() != _GEOMETRY_MAGIC or stream.readUInt16() < 1:
        return None
    stream.readUInt16()
    corners = [stream.readInt32() for _ in range(8)][4:]  # (the frame's, then the normal)
    if stream.status() != QDataStream.Status.Ok:
        return None
    left, top, right, bottom = corners
    rect = QRect(left, top, right - left + 1, bottom - top + 1)
    return rect if rect.isValid() else None
