"""Finding and loading table profiles: the casino's own directories first, then the shipped ones."""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from pydantic import ValidationError

from rules.errors import InvalidProfile
from rules.profiles.base import ProfileBase
from rules.profiles.messages import field_path, first_error
from rules.profiles.yaml_source import load_with_lines
from rules.registry import games

MAX_PROFILE_BYTES = 256 * 1024
"""The largest profile file read (the shipped ones are under 4 KiB)."""


@dataclass(frozen=True)
class LoadedProfile:
    """A validated profile with where it came from and a digest of its exact text."""

    name: str
    source: str
    profile: ProfileBase
    sha256: str
    text: str

    @property
    def game(self) -> str:
        return self.profile.game


def display_path(path: Path) -> str:
    """A path as the user would type it: relative to the working directory when inside it."""
    try:
        return os.path.relpath(path) if Path.cwd() in path.resolve().parents else str(path)
    except (OSError, ValueError):
        return str(path)


def parse_profile(text: str, source: str, name: str) -> LoadedProfile:
    """Validate profile text; errors read `source:line: field: problem`."""
    encoded = text.encode(errors="surrogatepass")
    if len(encoded) > MAX_PROFILE_BYTES:
        raise InvalidProfile(_too_large(source, len(encoded)))
    data, lines = load_with_lines(text, source)
    if not isinstance(data, dict):
        raise InvalidProfile(f"{source}:1: a profile must be a mapping of names to values")
    known = games()
    game_id = data.get("game")
    if not isinstance(game_id, str) or game_id not in known:
        line = lines.get(("game",), 1)
        if game_id is None:
            raise InvalidProfile(f"{source}:1: game: is required (one of {', '.join(known)})")
        raise InvalidProfile(f"{source}:{line}: game: unknown game {game_id!r} (known: {', '.join(known)})")
    model = known[game_id].profile_model
    try:
        profile = model.model_validate(data)
    except ValidationError as exc:
        loc, problem = first_error(exc)
        raise InvalidProfile(f"{source}:{_line_for(loc, lines)}: {field_path(loc) or 'profile'}: {problem}") from None
    digest = hashlib.sha256(encoded).hexdigest()
    return LoadedProfile(name=name, source=source, profile=profile, sha256=digest, text=text)


def _line_for(loc: tuple[str | int, ...], lines: dict[tuple[str | int, ...], int]) -> int:
    for cut in range(len(loc), -1, -1):
        if loc[:cut] in lines:
            return lines[loc[:cut]]
    return 1


_CACHE: dict[tuple[str, int, int], LoadedProfile] = {}


def load_profile_file(path: Path) -> LoadedProfile:
    """Read and validate one YAML profile file (cached while the file is unchanged).

    Only a regular file of at most `MAX_PROFILE_BYTES` is read: a directory, a FIFO, a device
    (`/dev/zero`) or a socket is refused before reading, so that no path can hang the reader or
    fill its memory.
    """
    source = display_path(path)
    try:
        info = os.stat(path)
        _check_regular(info, source)
        key = (str(path.resolve()), info.st_mtime_ns, info.st_size)
        if key in _CACHE:
            return _CACHE[key]
        text = _read_regular(path, source).decode("utf-8")
    except FileNotFoundError:
        raise InvalidProfile(f"{source}: no such file") from None
    except UnicodeDecodeError:
        raise InvalidProfile(f"{source}: not UTF-8 text") from None
    except OSError as exc:
        raise InvalidProfile(f"{source}: cannot read ({exc.strerror})") from None
    except ValueError:  # a NUL byte in the path
        raise InvalidProfile(f"{source}: cannot read (not a file name)") from None
    loaded = parse_profile(text, source, path.stem)
    _CACHE[key] = loaded
    return loaded


_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a device"),
          (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket"))


def _check_regular(info: os.stat_result, source: str) -> None:
    if not stat.S_ISREG(info.st_mode):
        kind = next((name for test, name in _KINDS if test(info.st_mode)), "not a file")
        raise InvalidProfile(f"{source}: not a regular file ({kind})")
    if info.st_size > MAX_PROFILE_BYTES:
        raise InvalidProfile(_too_large(source, info.st_size))


def _too_large(source: str, size: int) -> str:
    return f"{source}: too large for a profile ({size} bytes; at most {MAX_PROFILE_BYTES})"


def _read_regular(path: Path, source: str) -> bytes:
    """The file's bytes; opened without blocking and checked again once open (the path may
    have been replaced since it was looked at), never more than `MAX_PROFILE_BYTES` + 1 read."""
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags)
    try:
        info = os.fstat(fd)
        _check_regular(info, source)
        chunks: list[bytes] = []
        left = MAX_PROFILE_BYTES + 1
        while left > 0:
            chunk = os.read(fd, left)
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > MAX_PROFILE_BYTES:
        raise InvalidProfile(_too_large(source, len(data)))
    return data


def shipped_dir() -> Path:
    """Where the shipped profiles are installed."""
    return Path(str(resources.files("paytables")))


_SHIPPED: dict[str, str] = {}
EARLIER_SHIPPED: dict[str, str] = {
    "ee9ffd0834e5113c5a29e08a401ab156ac4a8b104b81d47174d3a78aee62a214": "chinese-poker",
    "9630f6d7f196e53fa12fdea17cf7c2c1438b9262b38216bdaddea90bd0d22a1f": "high-card-flush",
    "5b4189c5dac4088655ec92c56afab369554ca0ec4df8d4b8b6ab27f200ff606d": "high-card-flush-casino",
    "425402ed3eecb886731afcda15018cebf4cbf031aaf9e74898407a74f4791b02": "one-or-five",
    "3a619f96e5c6619b6f58807e090be187626226a687f0502db80095a0847aaae6": "palace-poker",
}
"""The SHA-256 of the texts earlier releases shipped (before the profiles named their chip sets):
tables opened under them carry on, and verify counts them shipped."""


def shipped_digests() -> dict[str, str]:
    """The SHA-256 of each shipped profile's text, with its name: a profile whose text is one of
    them (or one an earlier release shipped) is the shipped one, trusted as installed."""
    if not _SHIPPED:
        _SHIPPED.update(EARLIER_SHIPPED)
        for path in sorted(shipped_dir().glob("*.yaml")):
            _SHIPPED[hashlib.sha256(path.read_bytes()).hexdigest()] = path.stem
    return _SHIPPED


def is_shipped(loaded: LoadedProfile) -> bool:
    return loaded.sha256 in shipped_digests()


class ProfileLibrary:
    """Profiles by name: each directory of `search_dirs` in turn, then the shipped ones."""

    def __init__(self, search_dirs: Sequence[Path] = ()) -> None:
        self.search_dirs = [*search_dirs, shipped_dir()]
        self._paths: dict[str, Path] | None = None
        self._found: dict[tuple[str, str | None], LoadedProfile] = {}

    def paths(self) -> dict[str, Path]:
        """Every profile name with the file that wins for it (earlier directories first)."""
        if self._paths is None:
            self._paths = self._scan()
        return self._paths

    def refresh(self) -> None:
        """Forget the directory listing and what was found (files were added or edited)."""
        self._paths = None
        self._found.clear()

    def _scan(self) -> dict[str, Path]:
        found: dict[str, Path] = {}
        for directory in self.search_dirs:
            if not directory.is_dir():
                continue
            for path in sorted(directory.glob("*.yaml")):
                found.setdefault(path.stem, path)
        return found

    def find(self, name_or_path: str, *, game: str | None = None) -> LoadedProfile:
        """Load a profile by name or by a path to a YAML file; check its game if given.

        What was found is remembered until `refresh()`.
        """
        memo = self._found.get((name_or_path, game))
        if memo is not None:
            return memo
        loaded = self._find(name_or_path, game)
        self._found[(name_or_path, game)] = loaded
        return loaded

    def _find(self, name_or_path: str, game: str | None) -> LoadedProfile:
        if name_or_path.endswith((".yaml", ".yml")) or os.sep in name_or_path:
            loaded = _load(Path(name_or_path))
        else:
            path = self.paths().get(name_or_path)
            if path is None:
                self.refresh()
                path = self.paths().get(name_or_path)
            if path is None:
                known = ", ".join(self.names(game))
                raise InvalidProfile(f"unknown profile {name_or_path!r} (known: {known})")
            loaded = _load(path)
        if game is not None and loaded.game != game:
            raise InvalidProfile(f"profile {loaded.name!r} is for {loaded.game}, not {game}")
        return loaded

    def names(self, game: str | None = None) -> list[str]:
        """Profile names, all or for one game (files that do not load are left out)."""
        return [entry.name for entry in self.entries()
                if isinstance(entry, LoadedProfile) and (game is None or entry.game == game)]

    def problems(self) -> list[InvalidProfile]:
        """Why each file that does not load does not (the files `names` leaves out)."""
        return [entry for entry in self.entries() if isinstance(entry, InvalidProfile)]

    def entries(self) -> Iterable[LoadedProfile | InvalidProfile]:
        """Every profile, loaded, or the error that stops it from loading: one file that does
        not load never stops the others from being listed."""
        self.refresh()
        for path in self.paths().values():
            try:
                yield _load(path)
            except InvalidProfile as exc:
                yield exc


def _load(path: Path) -> LoadedProfile:
    """`load_profile_file`, whatever goes wrong with the file reported as `InvalidProfile`; a
    file whose name could not be shown as plain text (a bracket, a control character) is
    refused too."""
    if not path.stem.isprintable() or "[" in path.stem or "]" in path.stem:
        raise InvalidProfile(f"{display_path(path)!r}: a profile's file name may not hold "
                             "brackets or control characters")
    try:
        return load_profile_file(path)
    except InvalidProfile:
        raise
    except (RecursionError, MemoryError, ValueError, TypeError) as exc:
        problem = type(exc).__name__
        raise InvalidProfile(f"{display_path(path)}: does not load ({problem})") from None

