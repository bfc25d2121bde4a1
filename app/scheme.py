"""The light or dark scheme: the window follows the system's where Qt reports
it (Qt 6.5 and later), every palette role it draws text with reads at WCAG
AA, and the colours of :mod:`app.models.looks` switch with the palette --
with any palette the application is given, by the palette's own luminance
(a platform theme such as qt6ct's or KDE's, or ``QApplication.setPalette``,
changes it without a colour-scheme signal: :func:`watch_palette`).

Widgets coloured with a tone get it through :func:`tint` (a style sheet
remembered on the widget), so a change of scheme repaints them with the
other variant (:func:`apply_palette`); models ask :func:`app.models.looks.brush`
at paint time.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication, QWidget

from app.accessibility import AA_TEXT, contrast_ratio, relative_luminance
from app.models.looks import colour, dark_in_use, use_dark

__all__ = ["PALETTE_PAIRS", "apply_palette", "dark_palette", "follow_color_scheme",
           "follow_system", "is_dark", "readable", "system_is_dark", "tint", "watch_palette"]

Role = QPalette.ColorRole
Group = QPalette.ColorGroup

#: (text role, background role, the one that gives way when they do not read
#: at AA): the text a palette draws, on what.
PALETTE_PAIRS: tuple[tuple[Role, Role, Role], ...] = (
    (Role.WindowText, Role.Window, Role.WindowText),
    (Role.Text, Role.Base, Role.Text),
    (Role.Text, Role.AlternateBase, Role.Text),
    (Role.ButtonText, Role.Button, Role.ButtonText),
    (Role.HighlightedText, Role.Highlight, Role.Highlight),  # the selection keeps its text
    (Role.PlaceholderText, Role.Base, Role.PlaceholderText),
    (Role.ToolTipText, Role.ToolTipBase, Role.ToolTipText),
    (Role.Link, Role.Base, Role.Link),
    (Role.LinkVisited, Role.Base, Role.LinkVisited),
)

#: The dark palette used where the system asks for dark and the style's
#: own palette is light (every text role reads at AA: see PALETTE_PAIRS).
_DARK: dict[Role, str] = {
    Role.Window: "#2d2d2d", Role.WindowText: "#e8e8e8", Role.Base: "#1e1e1e",
    Role.AlternateBase: "#262626", Role.Text: "#e8e8e8", Role.Button: "#353535",
    Role.ButtonText: "#e8e8e8", Role.BrightText: "#ffffff", Role.Highlight: "#2a6fb0",
    Role.HighlightedText: "#ffffff", Role.PlaceholderText: "#a0a0a0",
    Role.ToolTipBase: "#3a3a3a", Role.ToolTipText: "#e8e8e8", Role.Link: "#8ab4f8",
    Role.LinkVisited: "#c9a0f5", Role.Light: "#4a4a4a", Role.Midlight: "#3c3c3c",
    Role.Mid: "#2a2a2a", Role.Dark: "#1a1a1a", Role.Shadow: "#000000",
}


def dark_palette() -> QPalette:
    """A dark palette (disabled text dimmed: WCAG exempts inactive controls)."""
    palette = QPalette()
    for role, value in _DARK.items():
        palette.setColor(role, QColor(value))
    for role in (Role.WindowText, Role.Text, Role.ButtonText):
        palette.setColor(Group.Disabled, role, QColor("#7f7f7f"))
    return palette


def is_dark(palette: QPalette) -> bool:
    """Whether ``palette`` draws dark backgrounds (its window is darker than mid grey)."""
    return relative_luminance(palette.color(Role.Window)) < 0.18


def _opaque(fg: QColor, bg: QColor) -> QColor:
    """``fg`` as seen over ``bg`` (a translucent placeholder is blended)."""
    a = fg.alphaF()
    return QColor.fromRgbF(*(a * f + (1 - a) * b for f, b in
                             ((fg.redF(), bg.redF()), (fg.greenF(), bg.greenF()),
                              (fg.blueF(), bg.blueF()))))


def _away(moving: QColor, fixed: QColor) -> QColor:
    """``moving`` moved toward black or white (away from ``fixed``) until they
    read at AA (or it is black or white)."""
    end = QColor("black") if relative_luminance(fixed) > 0.18 else QColor("white")
    for step in range(21):
        t = step / 20
        c = QColor.fromRgbF(*((1 - t) * m + t * e for m, e in
                              ((moving.redF(), end.redF()), (moving.greenF(), end.greenF()),
                               (moving.blueF(), end.blueF()))))
        if contrast_ratio(c, fixed) >= AA_TEXT:
            return c
    return end


def readable(palette: QPalette) -> QPalette:
    """``palette`` with every pair of :data:`PALETTE_PAIRS` reading at AA in
    its active and inactive groups: a pair that does not gets the side that
    gives way moved away from the other (the rest is left as the style made it)."""
    out = QPalette(palette)
    for group in (Group.Active, Group.Inactive):
        for text, back, gives in PALETTE_PAIRS:
            bg = out.color(group, back)
            fg = _opaque(out.color(group, text), bg)
            if contrast_ratio(fg, bg) >= AA_TEXT:
                continue
            if gives == back:
                out.setColor(group, back, _away(bg, fg))
            else:
                out.setColor(group, text, _away(fg, bg))
    return out


def tint(widget: QWidget, style: str, *tones: str) -> None:
    """Give ``widget`` the style sheet ``style`` with each ``{}`` a tone's
    colour for the palette in use (``tint(w, "")`` takes it off); a change of
    scheme re-tints it. Unchanged, nothing is set (a style sheet re-polishes)."""
    widget.setProperty("toneStyle", style)
    widget.setProperty("tones", ",".join(tones))
    sheet = style.format(*(colour(t) for t in tones)) if style else ""
    if widget.styleSheet() != sheet:
        widget.setStyleSheet(sheet)


def _retint(root: QWidget) -> None:
    for widget in [root, *root.findChildren(QWidget)]:
        style = widget.property("toneStyle")
        if style:
            tones = str(widget.property("tones") or "")
            tint(widget, str(style), *[t for t in tones.split(",") if t])


def apply_palette(app: QApplication, palette: QPalette) -> None:
    """Use ``palette`` (made readable) and the tones of its scheme everywhere."""
    palette = readable(palette)
    use_dark(is_dark(palette))
    app.setPalette(palette)
    for top in app.topLevelWidgets():
        _retint(top)


def system_is_dark(app: QApplication) -> bool | None:
    """The system's scheme as Qt reports it (Qt 6.5+); None when unknown."""
    hints = app.styleHints()
    if not hasattr(hints, "colorScheme"):
        return None
    scheme = hints.colorScheme()
    if scheme == Qt.ColorScheme.Dark:
        return True
    return False if scheme == Qt.ColorScheme.Light else None


def follow_system(app: QApplication) -> None:
    """The palette for the scheme the system reports (a dark one for a dark
    system when the style gave a light one), made readable."""
    dark = system_is_dark(app)
    palette = app.palette()
    if dark and not is_dark(palette):
        palette = dark_palette()  # the style gave a light palette for a dark system
    elif dark is False and is_dark(palette):
        palette = app.style().standardPalette()
    apply_palette(app, palette)


class _PaletteWatch(QObject):
    """Whenever the application's palette changes, by whatever means, the
    tones follow its luminance and the tinted widgets are tinted again.
    Every widget is told of the change (``ApplicationPaletteChange``) before
    it repaints, and models ask :func:`app.models.looks.brush` at paint time,
    the plots draw again on their own PaletteChange. It watches the window
    it is given, not the whole application: a filter on the application is
    called for every event of every object (with the judgment clock's, it
    cost about 40 ms before the first paint)."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ApplicationPaletteChange:
            app = QApplication.instance()
            if isinstance(app, QApplication) and is_dark(app.palette()) != dark_in_use():
                use_dark(is_dark(app.palette()))
                for top in app.topLevelWidgets():
                    _retint(top)
        return False


def watch_palette(window: QWidget) -> None:
    """Follow any palette the application is given while ``window`` lives
    (:class:`_PaletteWatch`)."""
    window.installEventFilter(_PaletteWatch(window))


def follow_color_scheme(app: QApplication) -> None:
    """Show the system's scheme now and whenever it changes (once per
    application; any other palette it is given: :func:`watch_palette`)."""
    if app.property("followsColorScheme"):
        return
    app.setProperty("followsColorScheme", True)
    follow_system(app)
    hints = app.styleHints()
    if hasattr(hints, "colorSchemeChanged"):  # (the new palette comes after the signal)
        hints.colorSchemeChanged.connect(
            lambda _scheme: QTimer.singleShot(0, lambda: follow_system(app)))
