"""A witness of the ledger kept outside its file: the last event of each table's chain.

Whatever writes the ledger (the terminal, `demo`) rewrites the witness after every settled or
voided round and every table event (seating, buy-in, cash-out, profile change): for each table,
the ledger-wide sequence number and the hash of its last event, and the ledger's path.
`history verify` compares the ledger with it: a ledger cut short, rounds or a table deleted, or
an older copy put back no longer holds the events the witness names.

The file is one JSON object, written whole (a temporary file in the same directory, flushed to
disk, renamed over the old one, the directory flushed); a lock file beside it keeps two writers
of one ledger in turn. A head is replaced only by a later event of a chain that still holds it;
a head the ledger no longer holds is kept in `lost`, so the evidence outlives new rounds.

It does not stop whoever controls the terminal's account: they can rewrite the ledger and the
witness alike. A witness on another machine (the pit server) removes that.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from platformdirs import user_state_dir

from dealer_tui.ledger.base import STAFF_REGISTER
from rules.said import Said, said_of, say

FORMAT = "dealer-tui witness 1"


class WitnessError(Exception):
    """The witness file cannot be used: unreadable, damaged, or another ledger's. Its message is a
    sentence (`rules.said`) a reader is told in their language."""


def default_witness_dir() -> Path:
    """Where the witnesses live by default: the user's state directory, never the ledger's."""
    return Path(user_state_dir("dealer-tui")) / "witness"


def ledger_key(ledger: Path | str) -> str:
    """The ledger's resolved path: what a witness is written for."""
    return str(Path(ledger).expanduser().resolve())


def default_witness_path(ledger: Path | str) -> Path:
    """The default witness of one ledger: named after the ledger and a hash of its resolved path."""
    resolved = ledger_key(ledger)
    digest = hashlib.sha256(resolved.encode()).hexdigest()[:16]
    return default_witness_dir() / f"{Path(resolved).stem}-{digest}.witness.json"


@dataclass(frozen=True)
class Head:
    """A table's last event as the witness holds it."""

    table_id: int
    name: str
    ledger_seq: int
    hash: str
    noticed_at: str | None = None
    """For a head the ledger no longer held: when the writer found it missing."""

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"table": self.table_id, "name": self.name, "ledger_seq": self.ledger_seq,
                               "hash": self.hash}
        if self.noticed_at is not None:
            out["noticed_at"] = self.noticed_at
        return out

    @classmethod
    def from_json(cls, data: Any) -> Head:
        if not isinstance(data, dict):
            raise WitnessError(say("a head is not an object"))
        try:
            head = cls(int(data["table"]), str(data.get("name", "")), int(data["ledger_seq"]), str(data["hash"]),
                       None if data.get("noticed_at") is None else str(data["noticed_at"]))
        except (KeyError, TypeError, ValueError) as exc:
            raise WitnessError(say("a head is incomplete ({problem})", problem=str(exc))) from None
        return head


@dataclass
class WitnessRecord:
    """A witness file's content."""

    ledger: str
    written_at: str
    heads: dict[int, Head] = field(default_factory=dict)
    lost: list[Head] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        return {"format": FORMAT, "ledger": self.ledger, "written_at": self.written_at,
                "tables": [h.as_json() for _, h in sorted(self.heads.items())],
                "lost": [h.as_json() for h in self.lost]}

    @classmethod
    def parse(cls, text: str, where: Path) -> WitnessRecord:
        try:
            data = json.loads(text)
        except ValueError:
            raise WitnessError(say("{path}: not a dealer-tui witness (not JSON)", path=str(where))) from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise WitnessError(say("{path}: not a dealer-tui witness (format is not {format})", path=str(where),
                                   format=repr(FORMAT)))
        heads = [Head.from_json(h) for h in data.get("tables") or []]
        return cls(str(data.get("ledger", "")), str(data.get("written_at", "")),
                   {h.table_id: h for h in heads}, [Head.from_json(h) for h in data.get("lost") or []])


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class Witness:
    """One ledger's witness file (`default_witness_path` unless moved)."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path).expanduser()
        self.error: str | None = None
        """Why the last write did not land (the ledger's write had landed before it): a sentence
        (`rules.said`)."""

    @classmethod
    def for_ledger(cls, ledger: Path | str, path: Path | str | None = None) -> Witness:
        return cls(path if path is not None else default_witness_path(ledger))

    def read(self) -> WitnessRecord | None:
        """The witness as written; None when there is no file yet."""
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        except (OSError, UnicodeDecodeError) as exc:
            raise WitnessError(say("{path}: cannot be read ({problem})", path=str(self.path),
                                   problem=str(exc))) from None
        return WitnessRecord.parse(text, self.path)

    def record(self, ledger: Path | str, heads: Iterable[Head], holds: Callable[[Head], bool]) -> None:
        """Write the heads of the ledger's tables now, merged with the witness as it stands.
        `holds(head)`: whether the ledger holds that event still. Raises OSError or WitnessError;
        `write` is the caller that never raises."""
        key = ledger_key(ledger)
        with self._locked():
            old = self.read()
            if old is not None and old.ledger != key:
                raise WitnessError(say("{path} is the witness of another ledger ({ledger})", path=str(self.path),
                                       ledger=old.ledger))
            now = _now()
            merged = WitnessRecord(key, now)
            current = {h.table_id: h for h in heads}
            if old is not None:
                merged.lost = list(old.lost)
                for table_id, before in old.heads.items():
                    after = current.get(table_id)
                    if after is not None and (after.ledger_seq, after.hash) == (before.ledger_seq, before.hash):
                        continue
                    if after is not None and after.ledger_seq > before.ledger_seq and holds(before):
                        continue
                    if not any((h.table_id, h.ledger_seq, h.hash) == (before.table_id, before.ledger_seq, before.hash)
                               for h in merged.lost):
                        merged.lost.append(Head(before.table_id, before.name, before.ledger_seq, before.hash, now))
            merged.heads = current
            write_atomically(self.path, json.dumps(merged.as_json(), indent=1, ensure_ascii=False) + "\n")

    def write(self, ledger: Path | str, heads: Iterable[Head], holds: Callable[[Head], bool]) -> bool:
        """`record`, keeping the reason in `error` instead of raising: the ledger's write has
        landed already, and a terminal must not stop because its witness could not be written."""
        try:
            self.record(ledger, heads, holds)
        except (OSError, WitnessError) as exc:
            self.error = not_written(self.path, exc)
            return False
        self.error = None
        return True

    @contextmanager
    def _locked(self) -> Iterator[None]:
        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd = os.open(self.path.with_name(self.path.name + ".lock"), os.O_CREAT | os.O_RDWR, 0o600)
        try:
            try:
                import fcntl
            except ImportError:  # not POSIX: writers of one ledger are not kept in turn
                fcntl = None  # type: ignore[assignment]
            if fcntl is not None:
                fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)


def write_atomically(path: Path, text: str) -> None:
    """Replace `path` with `text` whole or not at all: a temporary file in the same directory,
    flushed to disk, renamed over it, and the directory flushed so the rename itself lasts."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        fd = os.open(tmp, os.O_CREAT | os.O_TRUNC | os.O_WRONLY, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    try:
        dir_fd = os.open(path.parent, os.O_RDONLY)
    except OSError:  # a system that cannot open a directory (Windows) has no directory to flush
        return
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)


def not_written(path: Path, exc: BaseException) -> Said:
    """Why a witness was not written (`Witness.error`)."""
    return say("the witness {path} was not written: {problem}", path=str(path), problem=said_of(exc))


def witness_problems(record: WitnessRecord, event_at: Callable[[int], tuple[int, str] | None],
                     tables: dict[int, str], last_seq: int) -> list[str]:
    """Every head of the witness the ledger does not hold, one line each naming the table.
    `event_at(n)`: the table and hash of the ledger's event n; `tables`: the ledger's tables."""
    problems: list[str] = []
    for head in [*sorted(record.heads.values(), key=lambda h: h.table_id), *record.lost]:
        label = (say("the staff register") if head.table_id == STAFF_REGISTER else
                 say("table {id} ({name})", id=str(head.table_id), name=head.name))
        found = event_at(head.ledger_seq)
        if found is not None and found == (head.table_id, head.hash):
            continue
        seq = str(head.ledger_seq)
        if head.noticed_at is not None:
            what = say("the witness held event {seq} as this table's last, and on {noticed} the ledger no longer held "
                       "it: the ledger was cut short, rounds were deleted or an older copy was put back", seq=seq,
                       noticed=head.noticed_at)
        elif head.table_id not in tables:
            what = say("in the witness (last event {seq}) but not in the ledger: the table was deleted", seq=seq)
        elif found is None:
            what = say("the ledger is behind its witness: the witness holds event {seq} as this table's last, the "
                       "ledger has no event {seq} (its last is {last}): cut short, rounds deleted or an older copy",
                       seq=seq, last=str(last_seq))
        else:
            what = say("event {seq} differs from the witness (hash {hash}… of table {table}, witness {witness}…): the "
                       "ledger was rewritten or is an older copy", seq=seq, hash=found[1][:12], table=str(found[0]),
                       witness=head.hash[:12])
        problems.append(say("{where}: {what}", where=label, what=what))
    return problems


def heads_of(rows: Sequence[tuple[int, str, int | None, str]]) -> list[Head]:
    """Heads from (table id, name, ledger-wide sequence, hash) rows; a table without a sequence
    number (a ledger older than schema 6 read as it is) is left out."""
    return [Head(t, n, s, h) for t, n, s, h in rows if s is not None]
