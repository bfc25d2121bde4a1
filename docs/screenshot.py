"""Take the editor's screenshots under Xvfb, at the sizes of real screens.

    python docs/screenshot.py [--sizes 1280x800 1920x1080] [--query case-E]
    python docs/screenshot.py --sizes 3840x2160 --scale 2     # a 4K screen at 2x
    python docs/screenshot.py --sizes 1920x1080 --dark        # the dark palette
    python docs/screenshot.py --sizes 1920x1080 --font-pt 16  # a large system font

For each size it starts its own Xvfb (``Xvfb :N -screen 0 WxHx24``), runs
the real window (``app.main.build_window``) as at a first start (its default
geometry and layout on that screen), grades one unknown so the audit log and
the recomputed numbers show, grabs the window into
``docs/screenshot-WxH.png``, checks the layout (the grid is the largest
panel; the key columns of grading, on a screen 1920 px wide at the usual
font every column, are in the grid's view; no header text is cut) and stops the
Xvfb it started. The 1280x800 one is also ``docs/screenshot.png`` (the
README's). With ``--offscreen`` it uses Qt's offscreen platform with a
virtual screen of that size instead (no X server).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
SIZES = ("1280x800", "1920x1080")


def _free_display() -> int:
    for n in range(99, 140):
        if not Path(f"/tmp/.X{n}-lock").exists() and not Path(f"/tmp/.X11-unix/X{n}").exists():
            return n
    raise SystemExit("no free X display between :99 and :139")


def start_xvfb(size: str) -> tuple[subprocess.Popen[bytes], str]:
    n = _free_display()
    proc = subprocess.Popen(["Xvfb", f":{n}", "-screen", "0", f"{size}x24", "-nolisten", "tcp"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(200):
        if Path(f"/tmp/.X11-unix/X{n}").exists():
            break
        if proc.poll() is not None:
            raise SystemExit(f"Xvfb :{n} did not start (exit {proc.returncode})")
        time.sleep(0.05)
    return proc, f":{n}"


def _offscreen_platform(size: str, folder: Path) -> str:
    width, height = (int(v) for v in size.split("x"))
    config = folder / "screen.json"
    config.write_text(json.dumps({"screens": [{
        "name": "virtual", "x": 0, "y": 0, "width": width, "height": height,
        "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]}))
    return f"offscreen:configfile={config}"


def layout_problems(window: object, *, large_font: bool = False) -> list[str]:
    """What a reviewer would find cut, squeezed or out of view in ``window``:
    a cut header text, a panel not smaller than the grid, a key column of
    grading (a 1280x800 screen) or, on a screen 1920 px wide or more at the
    usual font (not ``large_font``), any grid column outside the grid's
    viewport."""
    from app.panels.column_chooser import KEY_COLUMNS
    from app.panels.fit import elided_headers

    w = window
    problems = []
    for view in (w.grid, w.navigator.view, w.summary_panel.table, w.audit_view):  # type: ignore[attr-defined]
        cut = elided_headers(view)
        if cut:
            problems.append(f"{view.objectName()}: header text cut: {cut}")
    grid = w.grid  # type: ignore[attr-defined]
    columns = grid.model().columns
    screen = w.screen().availableGeometry()  # type: ignore[attr-defined]
    wide = not large_font and screen.width() >= 1920
    for n, col in enumerate(columns):
        if not wide and col.key not in KEY_COLUMNS:
            continue
        right = grid.columnViewportPosition(n) + grid.columnWidth(n)
        if grid.columnViewportPosition(n) < 0 or right > grid.viewport().width():
            problems.append(f"grid column {col.title} is not in view")
    area = grid.width() * grid.height()
    for name, dock in w.docks.items():  # type: ignore[attr-defined]
        if dock.isVisible() and not dock.visibleRegion().isEmpty() and (
                dock.width() * dock.height() >= area):
            problems.append(f"{name} ({dock.width()}x{dock.height()}) is not smaller than "
                            f"the grid ({grid.width()}x{grid.height()})")
    return problems


def take(out: Path, query: str | None, *, dark: bool = False,
         font_pt: float | None = None) -> list[str]:
    """In this process (its platform set): the first-start window (in the dark
    palette, with a ``font_pt`` application font when asked), graded once,
    grabbed into ``out``; the layout problems found."""
    from PySide6.QtCore import QEventLoop, QSettings, QTimer
    from PySide6.QtWidgets import QApplication

    from app.main import build_window
    from app.scheme import apply_palette, dark_palette
    from app.settings import Settings

    _app = QApplication.instance() or QApplication(["ndcg-worksheet"])
    assert isinstance(_app, QApplication)
    if font_pt is not None:
        font = _app.font()
        font.setPointSizeF(font_pt)
        _app.setFont(font)
    if dark:
        apply_palette(_app, dark_palette())
        _app.setProperty("followsColorScheme", True)  # (the system's scheme is not asked)
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope,
                      os.environ["XDG_CONFIG_HOME"])
    Settings().reviewer = "ana"
    window = build_window()  # no saved layout: the first-start one
    window.show()
    doc = window.document
    q = doc.query_index("case-F-unknown")
    unknown = next(int(i) for i in doc.members(q) if doc.source_id[i] == "B")
    window.set_grade(unknown, 2.0, note="read the full text")
    if query:
        window.set_query(doc.query_index(query))
    window.grid.setFocus()
    # Let the window map, lay out and paint (a local loop: app.quit() would close it).
    loop = QEventLoop()
    QTimer.singleShot(800, loop.quit)
    loop.exec()
    out.parent.mkdir(parents=True, exist_ok=True)
    if not window.grab().save(str(out)):
        raise SystemExit(f"could not write {out}")
    problems = layout_problems(window, large_font=font_pt is not None)
    window.session.mark_saved()
    window.close()
    return problems


def _child(size: str, out: Path, query: str | None, offscreen: bool,
           looks: list[str] | None = None, scale: float | None = None) -> int:
    """Run :func:`take` in a fresh process on its own screen of ``size``
    (``looks``: --dark, --font-pt N; ``scale``: QT_SCALE_FACTOR)."""
    home = Path(tempfile.mkdtemp(prefix="ndcg-screenshot-"))
    env = dict(os.environ, XDG_CONFIG_HOME=str(home / "config"),
               XDG_STATE_HOME=str(home / "state"), HOME=str(home))
    if scale is not None:
        env["QT_SCALE_FACTOR"] = str(scale)
    xvfb = None
    try:
        if offscreen:
            env["QT_QPA_PLATFORM"] = _offscreen_platform(size, home)
        else:
            xvfb, display = start_xvfb(size)
            env.update(DISPLAY=display, QT_QPA_PLATFORM="xcb")
        command = [sys.executable, __file__, "--take", str(out)]
        if query:
            command += ["--query", query]
        command += looks or []
        return subprocess.run(command, env=env, check=False).returncode
    finally:
        if xvfb is not None:
            xvfb.terminate()
            xvfb.wait(10)
        shutil.rmtree(home, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="+", default=list(SIZES), help="screen sizes, WxH")
    parser.add_argument("--folder", type=Path, default=REPO / "docs")
    parser.add_argument("--query", default="case-E", help="the query to show")
    parser.add_argument("--offscreen", action="store_true", help="no Xvfb: Qt offscreen")
    parser.add_argument("--scale", type=float, help="QT_SCALE_FACTOR (e.g. 2)")
    parser.add_argument("--dark", action="store_true", help="the dark palette")
    parser.add_argument("--font-pt", type=float, help="the application font's size")
    parser.add_argument("--take", type=Path, help=argparse.SUPPRESS)  # the child's job
    args = parser.parse_args(argv)
    if args.take is not None:
        problems = take(args.take, args.query, dark=args.dark, font_pt=args.font_pt)
        print(args.take, "; ".join(problems) if problems else "layout checks: ok")
        return 1 if problems else 0
    status = 0
    looks = (["--dark"] if args.dark else []) + (
        ["--font-pt", f"{args.font_pt:g}"] if args.font_pt else [])
    suffix = (f"-{args.scale:g}x" if args.scale else "") + ("-dark" if args.dark else "") + (
        f"-{args.font_pt:g}pt" if args.font_pt else "")
    for size in args.sizes:
        out = args.folder / f"screenshot-{size}{suffix}.png"
        status |= _child(size, out, args.query, args.offscreen, looks, args.scale)
        if size == SIZES[0] and out.exists() and not suffix:
            shutil.copyfile(out, args.folder / "screenshot.png")  # the README's
    return status


if __name__ == "__main__":
    sys.exit(main())
