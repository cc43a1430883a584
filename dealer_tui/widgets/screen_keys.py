"""A screen's own keys on one line at the bottom, drawn when the screen is shown: the review's
screens switch often, and Textual's Footer rebuilds a widget per key on every switch."""

from __future__ import annotations

from textual import events

from dealer_tui.widgets.key_bar import KeyBar


class ScreenKeys(KeyBar):
    def on_mount(self) -> None:
        self.redraw()

    def on_show(self, event: events.Show) -> None:
        self.redraw()

    def redraw(self) -> None:
        """The keys the screen offers now (its bindings, then the app's), as Footer would list them."""
        seen: set[str] = set()
        shown = []
        for active in self.screen.active_bindings.values():
            binding = active.binding
            if binding.show and active.enabled and binding.action not in seen:
                seen.add(binding.action)
                shown.append(binding)
        self.show(shown)
