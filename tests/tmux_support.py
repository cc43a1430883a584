"""The real terminal in tmux: start the dealer's terminal in a detached session, send it whole
key sequences in one `send-keys` call (as a fast dealer, a paste or a card reader would), read
the screen."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

TMUX = shutil.which("tmux")
needs_tmux = pytest.mark.skipif(TMUX is None, reason="tmux is not installed: the real-terminal tests skip")


class Terminal:
    """One dealer terminal in its own tmux server (socket under `home`)."""

    def __init__(self, home: Path, args: Sequence[str], size: tuple[int, int] = (120, 36)) -> None:
        assert TMUX is not None
        self.home = home
        self.socket = str(home / f"tmux-{uuid.uuid4().hex[:8]}")
        env = {"XDG_DATA_HOME": str(home / "data"), "XDG_CONFIG_HOME": str(home / "config"),
               "XDG_STATE_HOME": str(home / "state"), "TERM": "xterm-256color"}
        command = " ".join([*(f"{k}={shlex.quote(v)}" for k, v in env.items()), shlex.quote(sys.executable),
                            "-m", "dealer_tui.cli", *(shlex.quote(a) for a in args)])
        width, height = size
        self._tmux("new-session", "-d", "-s", "t", "-x", str(width), "-y", str(height), command)

    def _tmux(self, *args: str) -> str:
        assert TMUX is not None
        done = subprocess.run([TMUX, "-S", self.socket, *args], capture_output=True, text=True, timeout=30,
                              env={**os.environ, "TMUX": ""})
        if done.returncode != 0:
            raise RuntimeError(f"tmux {args[0]}: {done.stderr.strip()}")
        return done.stdout

    def send(self, keys: Sequence[str]) -> None:
        """Every key in one call: tmux writes them to the terminal back to back."""
        self._tmux("send-keys", "-t", "t", *keys)

    def screen(self) -> str:
        return self._tmux("capture-pane", "-p", "-t", "t")

    def wait_for(self, what: Callable[[], bool] | str, timeout: float = 20.0, why: str = "") -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if (what in self.screen()) if isinstance(what, str) else what():
                return
            time.sleep(0.05)
        raise AssertionError(f"timed out waiting for {why or what!r}; the screen:\n{self.screen()}")

    def close(self) -> None:
        try:
            self._tmux("kill-server")
        except (RuntimeError, subprocess.TimeoutExpired):
            pass
