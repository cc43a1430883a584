"""The typed events' codec: one frozen dataclass per kind, to and from the ledger's JSON.

An event class names its kind and its fields (`AntePlaced(seat, ante, flush, straight_flush)`);
`record()` writes it as the ledger stores it and `decode` reads a stored event back. The stored
form is the one the ledger has always held — field names are the payload's keys (`key(...)`
names another), cards are card text (`"Jh 5c"`), nested records are objects — so `history verify`
reads every existing ledger. A payload key no field names is kept and written back unchanged.

Field types the codec knows: `int`, `str`, `bool`, `Cards` (card text), `Said` (a sentence as its
message and values; an older record's text reads as a literal and is written back as it was), `tuple[int, ...]` and
`tuple[str, ...]` (lists), `dict[str, X]` of any of these, a nested event-record dataclass
(`Record`), `X | None`, and `Json` (plain JSON kept as it is). `named_cards()` names every card an
event records, by where it sits.
"""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, fields
from typing import (
    TYPE_CHECKING,
    Any,
    ClassVar,
    Protocol,
    Self,
    TypeVar,
    Union,
    dataclass_transform,
    get_args,
    get_origin,
    get_type_hints,
)

from dealer_tui.ledger.base import LedgerError, NewEvent
from rules.cards import Card, parse_cards
from rules.errors import RulesError
from rules.said import Said, SaidError

if TYPE_CHECKING:
    from dealer_tui.events.staff import Claim

Cards = tuple[Card, ...]
"""Cards, stored as their text joined by spaces (`"Jh 5c 3d"`)."""
Json = Any
"""Plain JSON data kept as it is stored."""

E = TypeVar("E", bound="Event")

EVENT_TYPES: dict[tuple[str | None, str], type[Event]] = {}
"""Every event class by (game, the kind the ledger stores); game None: the events every table
records. Two games may record a kind of the same name with their own fields (`ante_placed`). A
game's events register when its package is imported (`load_events_with`)."""


class EventError(LedgerError, ValueError):
    """A stored event does not read as its kind: the kind and the field are named. A ledger error:
    whatever opens or reads the ledger says so in one line, as for any ledger it cannot read."""


def key(name: str, default: Any = dataclasses.MISSING, *, omit: bool = False, label: str | None = None) -> Any:
    """A field stored under another key (`raised: int = key("raise")`); `omit` leaves it out of
    the stored form while it holds its default; `label` is what its cards are said to sit in
    (`seat`: a mapping by seat number's cards read `seat 1 front`), else its key."""
    metadata = {"key": name, "omit": omit} | ({"label": label} if label is not None else {})
    return dataclasses.field(default=default, metadata=metadata)


def optional(*, default: Any = dataclasses.MISSING, default_factory: Any = dataclasses.MISSING) -> Any:
    """A field stored only when it differs from its default (older events lack it):
    `optional(default=False)`, `optional(default_factory=dict)`."""
    return dataclasses.field(default=default, default_factory=default_factory, metadata={"omit": True})


def _default(f: dataclasses.Field[Any]) -> Any:
    if f.default_factory is not dataclasses.MISSING:
        return f.default_factory()
    return f.default


@dataclass_transform(frozen_default=True, field_specifiers=(dataclasses.field, key, optional))
@dataclass(frozen=True)
class Record:
    """A nested part of an event (a payout row, a seat's rows): its fields coded like an event's.
    A subclass is a frozen dataclass of its annotated fields (no decorator needed)."""

    _extra: Mapping[str, Any] = dataclasses.field(default_factory=dict, repr=False, compare=False, kw_only=True)
    """Stored keys no field names, written back as they were."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        dataclass(frozen=True)(cls)

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any], where: str = "") -> Self:
        at = where.rstrip(": .") or cls.__name__
        if not isinstance(payload, Mapping):
            raise EventError(f"{at}: expected an object, got {type(payload).__name__}")
        values: dict[str, Any] = {}
        known: set[str] = set()
        for f, hint in _fields(cls):
            name = f.metadata.get("key", f.name)
            known.add(name)
            if name in payload:
                values[f.name] = _decode(hint, payload[name], f"{where}{name}")
            elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise EventError(f"{at}: no {name!r}")
        extra = {k: v for k, v in payload.items() if k not in known}
        return cls(**values, _extra=extra)

    def to_payload(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f, hint in _fields(type(self)):
            value = getattr(self, f.name)
            if f.metadata.get("omit") and value == _default(f):
                continue
            out[f.metadata.get("key", f.name)] = _encode(hint, value)
        out.update(self._extra)
        return out

    def named_cards(self) -> list[tuple[str, Cards]]:
        """Every card recorded here, labelled by where it sits (`seat 2`, `banker`, `drawn`)."""
        return list(_cards_of(self, ""))


R = TypeVar("R", bound=Record)


class Event(Record):
    """One recorded fact; subclasses name their kind, and the game whose rounds record it (none:
    every table's): `class AntePlaced(Event, kind="ante_placed", game="high-card-flush")`."""

    KIND: ClassVar[str] = ""
    GAME: ClassVar[str | None] = None

    def __init_subclass__(cls, kind: str = "", game: str | None = None, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if kind:
            if (game, kind) in EVENT_TYPES:
                raise TypeError(f"two event classes for {kind!r} of {game or 'every table'}: "
                                f"{EVENT_TYPES[game, kind].__name__} and {cls.__name__}")
            cls.KIND, cls.GAME = kind, game
            EVENT_TYPES[game, kind] = cls

    @property
    def kind(self) -> str:
        return self.KIND

    def claim(self) -> Claim | None:
        """The authority the event was made under (an approval, a void, a dealer's sign-in), or
        None for an event that needs none."""
        return None

    def claims(self) -> tuple[Claim, ...]:
        """Every authority the event was made under: its `claim`, or (an act two people sign
        in for, such as a tray count by the dealer and a supervisor) each of them."""
        claim = self.claim()
        return () if claim is None else (claim,)

    @property
    def payload(self) -> dict[str, Any]:
        """The event as the ledger stores it."""
        return self.to_payload()

    def record(self) -> NewEvent:
        """The event for the ledger to store."""
        return NewEvent(self.KIND, self.to_payload())


_LOADERS: dict[str, Callable[[], object]] = {}
"""How each game not imported yet is imported (its events register then), by game id."""


def load_events_with(game: str, loader: Callable[[], object]) -> None:
    """How the game's events come to be registered: `loader` imports the game (the catalogue of
    games gives it, `dealer_tui.games`); called at the first event of the game read."""
    _LOADERS[game] = loader


def event_type(kind: str, game: str | None = None) -> type[Event] | None:
    """The class of a kind of event at a table of `game` (a game's own, else every table's)."""
    found = EVENT_TYPES.get((game, kind)) or EVENT_TYPES.get((None, kind))
    if found is None and game is not None and game in _LOADERS:
        _LOADERS.pop(game)()
        found = EVENT_TYPES.get((game, kind)) or EVENT_TYPES.get((None, kind))
    return found


def decode(kind: str, payload: Mapping[str, Any], game: str | None = None) -> Event:
    """A stored event of a table of `game` as its typed event; EventError names what does not read."""
    cls = event_type(kind, game)
    if cls is None:
        raise EventError(f"unknown event kind {kind!r}" + (f" for {game}" if game else ""))
    return cls.from_payload(payload, f"{kind}: ")


class Recorded(Protocol):
    """An event as recorded: its kind and its stored form (`NewEvent`, `StoredEvent`, `Event`)."""

    @property
    def kind(self) -> str: ...

    @property
    def payload(self) -> Mapping[str, Any]: ...


def typed(event: Recorded, game: str | None = None) -> Event:
    """The typed form of an event, stored or new, at a table of `game`."""
    return event if isinstance(event, Event) else decode(event.kind, event.payload, game)


def typed_as(cls: type[E], event: Recorded) -> E:
    """The event as the given class (EventError when it is another kind)."""
    found = typed(event, cls.GAME)
    if not isinstance(found, cls):
        raise EventError(f"expected {cls.KIND}, got {found.kind}")
    return found


# -- dispatch ---------------------------------------------------------------------------------

Handler = Callable[[Any, Any], None]


def on(event_type: type[Event]) -> Callable[[Handler], Handler]:
    """Marks a method as folding `event_type` into its object's state (see `Handlers`)."""
    def mark(method: Handler) -> Handler:
        method.__dict__["__event_type__"] = event_type
        return method
    return mark


class Handlers:
    """Mixin: dispatch of typed events by type to the methods marked `@on(EventType)`; a subclass
    overrides a handler by defining the method of the same name."""

    _handlers: ClassVar[dict[type[Event], str]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        handlers: dict[type[Event], str] = {}
        for base in reversed(cls.__mro__[1:]):  # every base's handlers, the nearer base's winning
            handlers.update(base.__dict__.get("_handlers", {}))
        for name, value in cls.__dict__.items():
            event_type = getattr(value, "__event_type__", None)
            if event_type is not None:
                handlers[event_type] = name
        cls._handlers = handlers

    @classmethod
    def handled(cls) -> tuple[type[Event], ...]:
        """The event types this class has handlers for."""
        return tuple(cls._handlers)

    def handler_for(self, event: Event) -> Callable[[Any], None] | None:
        name = self._handlers.get(type(event))
        return getattr(self, name) if name is not None else None

    def handle(self, event: Recorded) -> Event | None:
        """One event folded in: a stored one is decoded only when it is of a kind handled here. The
        event handled, or None when it concerns nothing here."""
        if not isinstance(event, Event):
            if event_type(event.kind) not in self._handlers:
                return None
            event = decode(event.kind, event.payload)
        handler = self.handler_for(event)
        if handler is None:
            return None
        handler(event)
        return event


# -- the codec --------------------------------------------------------------------------------

_FIELDS: dict[type, list[tuple[dataclasses.Field[Any], Any]]] = {}


def _fields(cls: type) -> list[tuple[dataclasses.Field[Any], Any]]:
    found = _FIELDS.get(cls)
    if found is None:
        hints = get_type_hints(cls, localns={"Card": Card, "Cards": Cards, "Json": Json, "Said": Said})
        found = [(f, hints[f.name]) for f in fields(cls) if f.name != "_extra"]
        _FIELDS[cls] = found
    return found


def _optional_inner(hint: Any) -> Any | None:
    """`X` of `X | None`, else None."""
    if get_origin(hint) in (Union, types.UnionType):
        args = [a for a in get_args(hint) if a is not type(None)]
        if len(args) == 1 and len(get_args(hint)) == 2:
            return args[0]
    return None


def _decode(hint: Any, value: Any, where: str) -> Any:
    inner = _optional_inner(hint)
    if inner is not None:
        return None if value is None else _decode(inner, value, where)
    if hint is Any:
        return value
    if hint == Cards:
        if not isinstance(value, str):
            raise EventError(f"{where}: expected card text, got {value!r}")
        try:
            return parse_cards(value) if value.strip() else ()
        except RulesError as exc:
            raise EventError(f"{where}: {exc}") from None
    if hint is bool:
        if not isinstance(value, bool):
            raise EventError(f"{where}: expected true or false, got {value!r}")
        return value
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise EventError(f"{where}: expected a whole number, got {value!r}")
        return value
    if hint is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise EventError(f"{where}: expected a number, got {value!r}")
        return value
    if hint is str:
        if not isinstance(value, str):
            raise EventError(f"{where}: expected text, got {value!r}")
        return value
    if hint is Said:
        try:
            return Said.from_record(value, where)
        except SaidError as exc:
            raise EventError(str(exc)) from None
    origin = get_origin(hint)
    if origin is tuple:
        item = get_args(hint)[0]
        if not isinstance(value, list):
            raise EventError(f"{where}: expected a list, got {value!r}")
        return tuple(_decode(item, v, f"{where}[{i}]") for i, v in enumerate(value))
    if origin in (dict, Mapping):
        item = get_args(hint)[1]
        if not isinstance(value, dict):
            raise EventError(f"{where}: expected an object, got {value!r}")
        return {str(k): _decode(item, v, f"{where}.{k}") for k, v in value.items()}
    if isinstance(hint, type) and issubclass(hint, Record):
        return hint.from_payload(value, f"{where}.")
    raise TypeError(f"{where}: the event codec does not know {hint!r}")


def _encode(hint: Any, value: Any) -> Any:
    inner = _optional_inner(hint)
    if inner is not None:
        return None if value is None else _encode(inner, value)
    if hint == Cards:
        return " ".join(c.text for c in value)
    origin = get_origin(hint)
    if origin is tuple:
        item = get_args(hint)[0]
        return [_encode(item, v) for v in value]
    if origin in (dict, Mapping):
        item = get_args(hint)[1]
        return {k: _encode(item, v) for k, v in value.items()}
    if isinstance(value, Record):
        return value.to_payload()
    if hint is Said:
        return value.to_record() if isinstance(value, Said) else value
    return value


def _cards_of(record: Record, prefix: str) -> Iterator[tuple[str, Cards]]:
    for f, hint in _fields(type(record)):
        name = f.metadata.get("label", f.metadata.get("key", f.name))
        yield from _cards_in(hint, getattr(record, f.name), _label(prefix, name))


def _cards_in(hint: Any, value: Any, label: str) -> Iterator[tuple[str, Cards]]:
    inner = _optional_inner(hint)
    if inner is not None:
        if value is not None:
            yield from _cards_in(inner, value, label)
        return
    if hint == Cards:
        if value:
            yield label or "cards", value
        return
    origin = get_origin(hint)
    if origin is tuple:
        for v in value:
            yield from _cards_in(get_args(hint)[0], v, label)
    elif origin in (dict, Mapping):
        for k, v in value.items():
            yield from _cards_in(get_args(hint)[1], v, _label(label, str(k)))
    elif isinstance(value, Record):
        yield from _cards_of(value, label)


def _label(prefix: str, name: str) -> str:
    name = name.removesuffix("_cards").removesuffix("cards").strip("_ ").replace("_", " ")
    return f"{prefix} {name}".strip() if name else prefix
