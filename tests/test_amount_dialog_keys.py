"""The amount dialog's key bar: Enter's name is said on Enter. A dialog asked before its fields
are on screen (the tray's count, whose fields come with it) has no Enter key yet: its Esc keeps
its own name, never "Next / confirm"."""

from __future__ import annotations

from dealer_tui.screens.amount_dialog import AmountDialog, AmountField


def test_before_its_fields_are_on_screen_esc_keeps_its_own_name() -> None:
    dialog = AmountDialog("Opener", [AmountField("500", "500", 0, 999, None), AmountField("100", "100", 0, 999, None)],
                          enter_moves=True)
    keys = {b.key: b.description for b in dialog.keys()}
    assert keys.get("escape") != "Next / confirm"
    assert "enter" not in keys or keys["enter"] == "Next / confirm"
    assert keys.get("tab") == "Next field"
