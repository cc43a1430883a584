"""Where the terminal keeps what is the casino's own, outside the package: its profiles, and the
pit server it delivers to."""

from __future__ import annotations

import os
from pathlib import Path

from platformdirs import user_config_dir

from rules.said import Said, say


def user_profiles_dir() -> Path:
    """The casino's own profiles: searched before the shipped ones."""
    return Path(user_config_dir("dealer-tui")) / "profiles"


def pit_setting_path() -> Path:
    """The pit server this terminal delivers to, as last set on the setup screen (owner-only)."""
    return Path(user_config_dir("dealer-tui")) / "pit.url"


def saved_pit() -> str | None:
    """The pit server set on the setup screen (None: none, or the setting cannot be read)."""
    try:
        text = pit_setting_path().read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return text or None


def save_pit(url: str | None) -> Said | None:
    """Keep (or, None, forget) the pit server for the next start; the problem, if it was not kept."""
    path = pit_setting_path()
    try:
        if url is None:
            path.unlink(missing_ok=True)
            return None
        path.parent.mkdir(parents=True, exist_ok=True)
        part = path.with_name(path.name + ".part")
        fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(url + "\n")
        os.replace(part, path)
    except OSError as exc:
        return say("the pit server was not kept for the next start ({path}: {problem})", path=str(path),
                   problem=exc.strerror or str(exc))
    return None


def theory_cache_path() -> Path:
    """The house edges the shift report simulated, per profile text (remade when lost)."""
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("dealer-tui")) / "house-edges.json"
