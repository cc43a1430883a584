"""Which of the round screen's keys are legal now, and for a key pressed when its step is not,
the reason said in its place: a hand nobody is signed in to deal, a seat sitting out, a step taken
between hands only or refused between shifts, or the round's own rule.

The key bar, the help screen's keys and every binding's check read `check_action`; the round's
legal actions are read once per change of the round (`legal_now`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from textual.binding import Binding

from dealer_tui.events.table import RoundRecovered
from dealer_tui.rounds.base import LegalStep, Phase, Round, Step
from dealer_tui.views import key
from dealer_tui.widgets.notice import Severity

if TYPE_CHECKING:
    from dealer_tui.rounds.table import Table
    from dealer_tui.views import Presenter

BETWEEN_HANDS = frozenset({"start", "change_profile", "join", "more_chips", "leave", "dealer", "tray", "identify",
                           "sit_out"})
"""The round screen's steps taken between hands only (the dealer's sign-in also when nobody is
signed in for the hand in play)."""
BETWEEN_SHIFTS = {"start": "round starts", "join": "player sits down", "more_chips": "chips are sold"}
"""The between-hands steps a table that keeps its tray refuses between shifts (what the tray says)."""
TABLE_STEP_KEYS = frozenset({"undo_step", "same_bets"})
"""The table's own steps within a hand whose key, refused, says why (`_why_not_table_step`)."""
NO_DEALER = "No round starts with no dealer signed in{why}: {dealer} signs one in."
NO_DEALER_IN_HAND = "No dealer is signed in for this hand{why}: {dealer} signs in (their PIN) to carry it on."
NO_DEALER_NEXT = "No dealer is signed in{why}: {dealer} signs one in before the next round."


class KeyRules:
    """Mixin of the round screen: what its keys may do now, and why not."""

    KINDS: ClassVar[dict[str, type[Step]]]
    TABLE_KEYS: ClassVar[bool] = False
    """Set on the class whose BINDINGS are the table's keys: the keys of the classes below it (a
    game's screen) are the game's, each acting for a seat."""

    if TYPE_CHECKING:
        table: Table
        selected: int | None
        presenter: Presenter[Any]
        _legal_now: tuple[Round, int, dict[type[Step], tuple[LegalStep, ...]]] | None

        @property
        def round(self) -> Round | None: ...
        def tell(self, message: str, severity: Severity = "information") -> None: ...
        def with_keys(self, text: str) -> str: ...
        def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None: ...

    def legal_now(self) -> Mapping[type[Step], tuple[LegalStep, ...]]:
        """The round's legal steps by type (and by each base type a game's step refines, as the
        table's deal key asks for the deal of a game that cuts first): read from the round once per
        change (a new round, an event recorded) and shared by every key's check, the key bar and
        the game keys."""
        rnd = self.round
        if rnd is None or rnd.phase in (Phase.DONE, Phase.VOID):
            return {}
        if self._legal_now is None or self._legal_now[0] is not rnd or self._legal_now[1] != len(rnd.events):
            by_kind: dict[type[Step], list[LegalStep]] = {}
            for spec in rnd.legal_steps():
                for kind in spec.step.__mro__:
                    if isinstance(kind, type) and issubclass(kind, Step) and kind.KIND:
                        by_kind.setdefault(kind, []).append(spec)
            self._legal_now = (rnd, len(rnd.events), {kind: tuple(specs) for kind, specs in by_kind.items()})
        return self._legal_now[2]

    def specs(self, kind: type[Step]) -> list[LegalStep]:
        """The legal steps of `kind` now (none between rounds)."""
        return list(self.legal_now().get(kind, ()))

    def spec_for(self, kind: type[Step]) -> LegalStep | None:
        """The legal spec of `kind` for the selected seat; with no seat selected, the first one.
        A selected seat that may not do it is told so, never swapped for another seat."""
        found = self.specs(kind)
        if self.selected is None or all(s.seat is None for s in found):
            return found[0] if found else None
        mine = [s for s in found if s.seat == self.selected]
        if not mine:
            others = sorted({s.seat for s in found if s.seat is not None})
            who = ", ".join(f"seat {s}" for s in others)
            self.tell(self._why_not(kind, self.selected) + (f" ({who} may)." if who else "."), severity="warning")
            return None
        return mine[0]

    def _why_not(self, kind: type[Step], seat: int | None, fallback: str = "") -> str:
        """The round's own reason why `seat` may not do `kind` now (the rule it breaks); `fallback`
        when the round would take it after all."""
        rnd = self.round
        fallback = fallback or f"Seat {seat} may not {kind.KIND.replace('_', ' ')} now"
        why = rnd.why_not(kind(seat=seat)) if rnd is not None else None
        return why.rstrip(".") if why is not None else fallback

    def key_seat(self, action: str) -> int | None:
        """The seat a refused game key was meant for, to ask the round why: the selected seat. A
        game whose step belongs to one seat whatever is selected names that seat instead."""
        return self.selected

    def key_legal(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Whether the key of `action` acts now (the screen's `check_action`, no dialog open)."""
        if action == "same_bets":
            rnd = self.round
            return rnd is not None and rnd.BET_STEP is not None and bool(self.specs(rnd.BET_STEP))
        if action == "undo_step":
            return (rnd := self.round) is not None and rnd.undoable() is not None
        if action in BETWEEN_HANDS:
            rnd = self.round
            between = rnd is None or rnd.phase in (Phase.DONE, Phase.VOID)
            if action in BETWEEN_SHIFTS and self.table.tray.kept_problem(BETWEEN_SHIFTS[action]) is not None:
                return False
            if action == "dealer":  # between hands, or to carry on a hand nobody is signed in for
                return between or self.table.session.dealer is None
            if action == "start":
                return between and self.table.session.dealer is not None
            if action == "join":
                return between and len(self.table.session.players) < self.table.session.seat_count
            if action in ("more_chips", "leave", "identify", "sit_out"):
                return between and bool(self.table.session.players)
            return between
        if action in self.KINDS:
            return self.table.session.dealer is not None and bool(self.specs(self.KINDS[action]))
        return True

    def key_refusal(self, pressed: str) -> str | None:
        """Why the key `pressed` does nothing now (None: it acts, or no step of the table's is bound
        to it)."""
        rnd = self.round
        in_hand = rnd is not None and rnd.phase not in (Phase.DONE, Phase.VOID)
        bound = [b for b in self._bindings_list() if b.key == pressed]
        game = [b for b in self._game_bindings() if b.key == pressed]
        if in_hand and self.table.session.dealer is None and (game or any(b.action in self.KINDS for b in bound)):
            return self.no_dealer_text(NO_DEALER_IN_HAND)
        away = self.table.session.players.get(self.selected) if self.selected is not None else None
        if away is not None and away.away and in_hand and game:
            return self.with_keys(f"Seat {self.selected} ({away.name}) sits out this hand: {key('sit_out')} "
                                  "brings them back between hands.")
        table_step = next((b for b in bound if b.action in TABLE_STEP_KEYS), None)
        if table_step is not None and not self.check_action(table_step.action, ()):
            return self._why_not_table_step(table_step.action)
        between = [b for b in bound if b.action in BETWEEN_HANDS]
        if between and not any(self.check_action(b.action, ()) for b in between):
            step = between[0]
            closed = self.table.tray.kept_problem(BETWEEN_SHIFTS[step.action]) if step.action in BETWEEN_SHIFTS else None
            if in_hand:
                return f"{step.description} waits for the end of the hand: finish or void the round first."
            if closed is not None:
                return self.with_keys(f"{closed} ({key('tray')}).")
            if step.action == "start" and self.table.session.dealer is None:
                return self.no_dealer_text(NO_DEALER)
            return None
        mine = [b for b in bound if b.action in self.KINDS]
        if any(self.check_action(b.action, ()) for b in mine):
            return None  # a binding of this key is legal and runs
        for binding in mine:
            kind = self.KINDS[binding.action]
            if rnd is None or rnd.phase in (Phase.DONE, Phase.VOID):
                return self.with_keys(f"no hand is in play: {key('start')} starts one")
            if not rnd.has_step(kind):
                return f"{binding.description} is not possible now. {self.with_keys(self.presenter.prompt(rnd))}"
            return self._why_not(kind, self.key_seat(binding.action), f"{binding.description} is not possible now")
        return None

    def no_dealer_text(self, template: str) -> str:
        """`template` (NO_DEALER…) with the key that signs a dealer in, and who was signed out last and
        why (the recorded reason, up to its colon): "(Dana (D1) was signed out: no key for 20 minutes)"."""
        left = self.table.session.signed_out
        why = ""
        if left is not None:
            who, reason = left
            cause = reason.partition(":")[0].strip()
            why = f" ({who.name}, {who.account}: {cause or 'signed out'})"
        return self.with_keys(template.format(dealer=key("dealer"), why=why))

    def unbound_key(self, pressed: str, character: str) -> str | None:
        """What a typed character no key of this screen is bound to says (None: a key is bound to it)."""
        if any(pressed in (k.strip() for k in b.key.split(",")) for b in self._bindings_list()):
            return None
        shown = "Space" if character == " " else character
        return f"{shown} is not a key of this game's table: the key bar shows the keys of this step, ? lists them all."

    def _why_not_table_step(self, action: str) -> str:
        """Why the table's own step `action` (a step taken back, last round's bets again) does
        nothing now."""
        rnd = self.round
        in_hand = rnd is not None and rnd.phase not in (Phase.DONE, Phase.VOID)
        if action == "same_bets":
            if not in_hand:
                return self.with_keys(f"Last round's bets are placed again during the antes: {key('start')} starts "
                                      "a round first.")
            return "Last round's bets are placed again during the antes only; the antes are over."
        if rnd is None or not in_hand:
            return "Nothing to take back: no hand is in play (a finished round is corrected by the supervisor)."
        last = next((e for e in reversed(rnd.events) if not isinstance(e, RoundRecovered)), None)
        step = self.presenter.describe(last) if last is not None else "the start of the round"
        return self.with_keys(f"Nothing to take back: the last step ({step.rstrip('.')}) is not one the dealer "
                              f"takes back (only a bet or a player's act just keyed); a misdeal is voided with "
                              f"{key('void')} and the supervisor.")

    def active_keys(self) -> list[Binding]:
        out = []
        for binding in self._bindings_list():
            if binding.show and self.check_action(binding.action.split("(")[0], ()):
                out.append(binding)
        return out

    def _game_bindings(self) -> list[Binding]:
        """The game's own keys (its screen's bindings, not the table's): each acts for a seat."""
        found: list[Binding] = []
        for cls in type(self).__mro__:
            if cls.__dict__.get("TABLE_KEYS"):
                break
            found += [b for b in cls.__dict__.get("BINDINGS", ()) if isinstance(b, Binding)]
        return found

    def _bindings_list(self) -> list[Binding]:
        found: list[Binding] = []
        for cls in type(self).__mro__:
            for b in getattr(cls, "BINDINGS", []) or []:
                if isinstance(b, Binding):
                    found.append(b)
        return found

