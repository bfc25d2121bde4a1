"""The Conflicts dock's flow of buttons measures and places the same
buttons: a hidden one takes no room, one whose size policy keeps its room
when hidden keeps it in both (app.flow_layout.FlowLayout._shown)."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QPushButton, QWidget

from app.flow_layout import FlowLayout


def _flow(qtbot: Any) -> tuple[QWidget, FlowLayout, list[QPushButton]]:
    """The host (kept by the test: its buttons go with it), its flow, the buttons."""
    host = QWidget()
    qtbot.addWidget(host)
    flow = FlowLayout(host)
    flow.setSpacing(6)
    buttons = [QPushButton(text, host) for text in
               ("Take ana's note", "Keep both, each labelled, with a long text", "Show")]
    for button in buttons:
        flow.addWidget(button)
    return host, flow, buttons


def test_a_hidden_button_takes_no_room(qtbot: Any) -> None:
    """(hreview9 read minimumSize as counting hidden buttons: Qt's item of a
    hidden widget is empty, its least size 0 x 0, so it never did; held here.)"""
    _host, flow, (take, wide, show) = _flow(qtbot)
    width = take.sizeHint().width() + 6 + show.sizeHint().width()
    assert flow.minimumSize().width() == wide.minimumSizeHint().width()
    wide.hide()
    assert flow.minimumSize().width() == max(take.minimumSizeHint().width(),
                                             show.minimumSizeHint().width())
    assert flow.heightForWidth(width) == take.sizeHint().height()  # one row
    flow.setGeometry(flow.geometry().adjusted(0, 0, width, 100))
    assert show.geometry().x() == take.sizeHint().width() + 6


def test_a_hidden_button_keeping_its_room_keeps_it_in_the_rows(qtbot: Any) -> None:
    """Fails before: the least size counted a hidden button whose policy
    keeps its room, the rows skipped it (one row of two buttons at a width
    the least size said could not hold the third's room)."""
    _host, flow, (take, wide, show) = _flow(qtbot)
    width = take.sizeHint().width() + 6 + show.sizeHint().width()
    shown_rows = flow.heightForWidth(width)
    policy = wide.sizePolicy()
    policy.setRetainSizeWhenHidden(True)
    wide.setSizePolicy(policy)
    wide.hide()
    assert flow.minimumSize().width() == wide.minimumSizeHint().width()
    assert flow.heightForWidth(width) == shown_rows > take.sizeHint().height()
