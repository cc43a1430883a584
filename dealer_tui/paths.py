"""Where the terminal keeps what is the casino's own, outside the package: its profiles."""

from __future__ import annotations

from pathlib import Path

from platformdirs import user_config_dir


def user_profiles_dir() -> Path:
    """The casino's own profiles: searched before the shipped ones."""
    return Path(user_config_dir("dealer-tui")) / "profiles"
