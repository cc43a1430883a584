"""Player ratings: a rating session from a player's seating to their leaving, with the hands they
played, their time (less the time they sat out), what they wagered (and the average bet), the
house's actual win from them and its theoretical win; summed per player and per gaming day.

Read from the ledger alone, by the conventions every game's settlement rows follow
(`ledger.payouts`): at a house-banked round the house's actual win is the player's loss and its
theoretical win each of the player's stakes times the profile's house edge on that bet type
(`theoretical`); at a card room's round (a Designated Player banks, or the chips go from seat to
seat) the house takes only its rake and fees, which are both its actual and its theoretical win
from the player.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from dealer_tui.accounting.theoretical import Theory
from dealer_tui.accounting.times import seconds_between
from dealer_tui.events import Event, EventError, typed
from dealer_tui.events.table import RoundStarted, SeatAway, SeatLeft, SeatTaken
from dealer_tui.ledger.base import Ledger, RoundRecord, SettlementRow
from dealer_tui.ledger.payouts import HOUSE_BANKED, banking, house_fees, seat_chips
from dealer_tui.rounds.cash import gaming_day, settings, training_table
from dealer_tui.rounds.table_profiles import table_profiles
from rules.profiles.loader import LoadedProfile


@dataclass
class RatingSession:
    """One player's time at one seat."""

    table: str
    seat: int
    player: str
    card: str
    sat_at: str
    left_at: str | None = None
    last_at: str = ""
    hands: int = 0
    wagered: int = 0
    player_result: int = 0
    """The player's own net over the session (+: the player won)."""
    actual_win: int = 0
    """The house's win from the player: their loss at a house-banked round; their rake and fees at a card room's."""
    theoretical_win: float = 0.0
    theory_known: bool = True
    day: str = ""
    """The gaming day the session began in."""
    pauses: list[tuple[str, str | None]] = field(default_factory=list)
    """Each time the player sat out: [from, to] (to None: they still do)."""

    @property
    def key(self) -> str:
        """Who the player is across sessions: the loyalty card, or (anonymous) the name."""
        return f"card {self.card}" if self.card else f"name {self.player}"

    @property
    def end(self) -> str:
        """Where the session's time ends: the leaving, or (still seated) the last hand played."""
        return self.left_at or self.last_at or self.sat_at

    @property
    def minutes(self) -> float:
        """The time played: from the seating to the session's end, less the time sat out."""
        return max(seconds_between(self.sat_at, self.end) / 60 - self.away_minutes, 0.0)

    @property
    def away_minutes(self) -> float:
        """The time sat out between the seating and the session's end (a pause after the last
        hand of a player still seated is not in the session's time, either way)."""
        end = self.end
        seconds = 0.0
        for start, stop in self.pauses:
            until = end if stop is None or stop > end else stop  # the ledger's times, one ISO form: they sort
            seconds += max(seconds_between(start, until), 0.0)
        return seconds / 60

    def sits_out(self, away: bool, at: str) -> None:
        """A pause begins (`away`) or ends."""
        open_pause = bool(self.pauses) and self.pauses[-1][1] is None
        if away and not open_pause:
            self.pauses.append((at, None))
        elif not away and open_pause:
            self.pauses[-1] = (self.pauses[-1][0], at)

    def leaves(self, at: str) -> None:
        self.sits_out(False, at)
        self.left_at = at

    @property
    def average_bet(self) -> float | None:
        return None if not self.hands else self.wagered / self.hands

    def to_dict(self) -> dict[str, object]:
        avg = self.average_bet
        return {"table": self.table, "seat": self.seat, "player": self.player, "card": self.card or None,
                "sat_at": self.sat_at, "left_at": self.left_at, "day": self.day,
                "hands": self.hands, "minutes": round(self.minutes, 1), "away_minutes": round(self.away_minutes, 1),
                "wagered": self.wagered,
                "average_bet": None if avg is None else round(avg, 2), "actual_win": self.actual_win,
                "theoretical_win": round(self.theoretical_win, 2) if self.theory_known else None,
                "player_result": self.player_result}


@dataclass
class PlayerRating:
    """A player's sessions summed (over a gaming day, or the report's sessions)."""

    key: str
    player: str
    card: str
    sessions: list[RatingSession] = field(default_factory=list)

    def total(self, name: str) -> float:
        return float(sum(getattr(s, name) for s in self.sessions))

    def to_dict(self) -> dict[str, object]:
        hands, wagered = int(self.total("hands")), int(self.total("wagered"))
        known = all(s.theory_known for s in self.sessions)
        return {"player": self.player, "card": self.card or None, "anonymous": not self.card,
                "sessions": len(self.sessions), "tables": sorted({s.table for s in self.sessions}),
                "hands": hands, "minutes": round(self.total("minutes"), 1),
                "away_minutes": round(self.total("away_minutes"), 1), "wagered": wagered,
                "average_bet": round(wagered / hands, 2) if hands else None,
                "actual_win": int(self.total("actual_win")),
                "theoretical_win": round(self.total("theoretical_win"), 2) if known else None,
                "player_result": int(self.total("player_result"))}


def rating_sessions(ledger: Ledger, theory: Theory, training: bool = False) -> list[RatingSession]:
    """Every live table's rating sessions (`training`: the training tables' too), in the order the
    players sat down."""
    out: list[RatingSession] = []
    starts = settings(ledger)["gaming_day_starts"]
    for table in ledger.tables():
        if not training and training_table(ledger, table):
            continue
        profiles = table_profiles(ledger, table)
        seated: dict[int, RatingSession] = {}
        rows_of = ledger.table_settlements(table.id)
        records = {r.id: r for r in ledger.table_rounds(table.id)}
        rounds = theory.games.find(table.game).round
        owners: dict[int, list[Event]] = {}
        """The events that say whose each settlement row is, by round (`Round.row_owners`)."""
        played: list[tuple[int, RoundStarted, dict[int, RatingSession]]] = []
        kinds = [SeatTaken.KIND, SeatLeft.KIND, SeatAway.KIND, RoundStarted.KIND, *rounds.ROW_OWNERS]
        for stored in ledger.table_events(table.id, kinds):
            try:
                event = typed(stored, table.game)
            except EventError:
                continue  # verify names an event that does not read
            if isinstance(event, SeatTaken):
                seated[event.seat] = RatingSession(table.name, event.seat, event.player, event.card, stored.ts,
                                                   day=gaming_day(stored.ts, starts))
                out.append(seated[event.seat])
            elif isinstance(event, SeatLeft) and event.seat in seated:
                seated.pop(event.seat).leaves(stored.ts)
            elif isinstance(event, SeatAway) and event.seat in seated:
                seated[event.seat].sits_out(event.away, stored.ts)
            elif isinstance(event, RoundStarted) and stored.round_id is not None:
                played.append((stored.round_id, event, dict(seated)))  # nobody sits down or leaves in a round
            elif stored.round_id is not None:
                owners.setdefault(stored.round_id, []).append(event)
        for round_id, started, players in played:
            rows = rows_of.get(round_id, [])
            record = records.get(round_id)
            if rows and record is not None:
                _rate(rows, rounds.row_owners(owners.get(round_id, [])), record, started, players, profiles, theory)
    return out


def _rate(rows: list[SettlementRow], owners: dict[int, int], record: RoundRecord, started: RoundStarted,
          seated: dict[int, RatingSession], profiles: dict[str, LoadedProfile], theory: Theory) -> None:
    """One settled round's rows into the sessions of the seats that played it (a row's number is
    its seat, or one of the seat's boxes: `owners`)."""
    banked = banking(rows) == HOUSE_BANKED
    chips = seat_chips(rows)
    loaded = profiles.get(started.profile_sha256)
    edge = theory.edge(loaded) if banked and loaded is not None else None
    for seat, session in seated.items():
        mine = [r for r in rows if owners.get(r.seat, r.seat) == seat]
        if not mine:
            continue
        session.hands += 1
        session.last_at = record.ended_at or record.started_at
        wagered = sum(chips[n].wagered for n in {r.seat for r in mine})
        net = sum(r.result for r in mine)
        fees = house_fees(mine)
        session.wagered += wagered
        session.player_result += net
        if banked:
            session.actual_win -= net
            if edge is None:
                session.theory_known = False
            else:
                staked: dict[str, int] = {}
                for row in mine:
                    staked[row.bet] = staked.get(row.bet, 0) + row.stake
                session.theoretical_win += edge.theoretical(staked)
        else:
            session.actual_win += fees
            session.theoretical_win += fees


def player_ratings(sessions: Sequence[RatingSession], day: str | None = None) -> list[PlayerRating]:
    """The sessions summed per player (on one gaming day, when given), most wagered first."""
    out: dict[str, PlayerRating] = {}
    for s in sessions:
        if day is not None and s.day != day:
            continue
        out.setdefault(s.key, PlayerRating(s.key, s.player, s.card)).sessions.append(s)
    return sorted(out.values(), key=lambda p: (-p.total("wagered"), p.key))
