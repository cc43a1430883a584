"""Memory between rounds: the collector's pauses moved out of the dealer's keys."""

from __future__ import annotations

import gc

TIDY_AFTER_ROUND_S = 0.3
"""A finished round's garbage is collected this long after the round ends, when the dealer is
gathering the cards rather than pressing keys."""


FULL_TIDY_EVERY = 25
"""Every so many rounds, what was set aside is walked too: objects set aside while alive that
died since (a round replaced by the next) are freed then."""


def tidy_memory() -> None:
    """Collect what the last round left behind, then set aside what is still alive, so that the
    collector, running on its own in the middle of the next round, walks only that round's
    objects (a full walk of the app's objects is a pause of 10-20 ms in the middle of a key)."""
    _tidied[0] += 1
    if _tidied[0] % FULL_TIDY_EVERY == 0:
        gc.unfreeze()
    gc.collect()
    gc.freeze()


_tidied = [0]
