"""The editor without a display, or without the system libraries of Qt's
xcb platform plugin: one line saying so and what to do, exit 2 (Qt itself
aborts the process, exit 134, with a message about its plugin)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from app.launcher import no_display, xcb_unloadable

REPO = Path(__file__).resolve().parent.parent


def test_no_display_is_said_in_one_line_with_exit_2():
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    proc = subprocess.run([sys.executable, "-m", "app.launcher"], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.startswith("ndcg-worksheet: no display found")
    assert "ndcg-worksheet evaluate" in proc.stderr
    assert "desktop session" in proc.stderr
    assert proc.stderr.count("\n") == 1
    assert "Traceback" not in proc.stderr


def test_a_display_or_a_chosen_platform_opens_the_editor():
    assert no_display({"DISPLAY": ":0"}, "linux") is None
    assert no_display({"WAYLAND_DISPLAY": "wayland-0"}, "linux") is None
    assert no_display({"QT_QPA_PLATFORM": "offscreen"}, "linux") is None
    assert no_display({}, "darwin") is None
    assert no_display({}, "win32") is None
    assert no_display({"DISPLAY": ""}, "linux") is not None


def test_an_xcb_plugin_that_cannot_load_is_named(tmp_path):
    (tmp_path / "platforms").mkdir()
    (tmp_path / "platforms" / "libqxcb.so").write_bytes(b"not a shared object")
    problem = xcb_unloadable({"DISPLAY": ":0"}, tmp_path, "linux")
    assert problem is not None
    assert problem.startswith(
        "ndcg-worksheet: Qt's platform plugin xcb cannot load (")
    assert "libxcb-cursor0" in problem
    assert "ndcg-worksheet evaluate" in problem
    assert "\n" not in problem
    # Not the platform Qt will use: nothing loaded, nothing said.
    assert xcb_unloadable({"DISPLAY": ":0", "QT_QPA_PLATFORM": "offscreen"}, tmp_path,
                          "linux") is None
    assert xcb_unloadable({"WAYLAND_DISPLAY": "w", "DISPLAY": ":0"}, tmp_path, "linux") is None


def test_the_installed_xcb_plugin_loads():
    from PySide6.QtCore import QLibraryInfo

    plugins = Path(QLibraryInfo.path(QLibraryInfo.LibraryPath.PluginsPath))
    assert (plugins / "platforms" / "libqxcb.so").is_file()
    assert xcb_unloadable({"DISPLAY": ":0"}, plugins, "linux") is None


def test_qt_plugins_is_qlibraryinfos_folder_found_without_importing_qt():
    code = ("import sys; from app.launcher import qt_plugins; folder = qt_plugins(); "
            "loaded = sorted(m for m in sys.modules if m.startswith('PySide6')); "
            "from PySide6.QtCore import QLibraryInfo; "
            "print(loaded, folder == __import__('pathlib').Path("
            "QLibraryInfo.path(QLibraryInfo.LibraryPath.PluginsPath)))")
    proc = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True,
                          text=True, timeout=60, check=True)
    assert proc.stdout.split() == ["[]", "True"], proc.stdout + proc.stderr


def test_a_refused_xcb_plugin_starts_no_reading(tmp_path, monkeypatch, capsys):
    import threading

    import app.launcher
    from app.opening import READING

    (tmp_path / "platforms").mkdir()
    (tmp_path / "platforms" / "libqxcb.so").write_bytes(b"not a shared object")
    run = tmp_path / "run.txt"
    run.write_text("q1 Q0 d1 1 2.0 r\n", encoding="utf-8")
    monkeypatch.setattr(app.launcher, "qt_plugins", lambda: tmp_path)
    monkeypatch.setenv("DISPLAY", ":0")
    monkeypatch.delenv("QT_QPA_PLATFORM", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    assert app.launcher.main([str(run)]) == 2
    assert capsys.readouterr().err.startswith("ndcg-worksheet: Qt's platform plugin xcb")
    # Refused before the file was read: nothing read, no reading thread.
    assert READING == {}
    assert not [t for t in threading.enumerate() if t.name == "open-file"]
