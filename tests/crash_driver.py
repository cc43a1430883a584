"""A headless dealer for the crash test: plays rounds with the demo players on a scripted deck,
recovering whatever the ledger holds, and can kill itself with SIGKILL at a named step.

    python tests/crash_driver.py LEDGER GAME ROUNDS SEED [STEP:N]

GAME `keyed:<game>` plays a live table instead: every card the round asks for is keyed, at random
but the same after every restart. Prints the final stacks as JSON when it gets through all ROUNDS.

    python tests/crash_driver.py --serve

starts the driver once, its modules imported, and runs each line it reads (a JSON list of the
arguments above) in a process of its own forked from it, which the kill ends as it would a
terminal; it answers each with a JSON line of the run's exit status (minus the signal that ended
it) and output. The test runs its 23 terminals so without importing the program 23 times.
"""

from __future__ import annotations

import json
import os
import random
import signal
import sys
import tempfile
import traceback
from pathlib import Path

from keyed_support import keyed_action
from staff_support import on_duty, quick_pins, signed, staffed_table

from dealer_tui.games import GAMES
from dealer_tui.ledger import SqliteLedger
from dealer_tui.rounds.base import Phase, Round
from dealer_tui.rounds.cards import CardSource, KeyedEntry, ScriptedDeck
from dealer_tui.rounds.table import Table
from rules.cards import DECK
from rules.errors import IllegalAction
from rules.profiles.loader import ProfileLibrary

PLAYERS = {"one-or-five": 3, "high-card-flush": 4, "chinese-poker": 3, "palace-poker": 4}


def main(argv: list[str]) -> None:
    quick_pins()
    ledger_path, game, rounds, seed = Path(argv[0]), argv[1], int(argv[2]), int(argv[3])
    keyed = game.startswith("keyed:")
    game = game.removeprefix("keyed:")
    crash_step, crash_at = (argv[4].split(":") + ["0"])[:2] if len(argv) > 4 else ("", "0")
    counts: dict[str, int] = {}

    def on_step(name: str) -> None:
        counts[name] = counts.get(name, 0) + 1
        rnd = table.round
        print(f"step {name} {table.session.rounds_started} {rnd.phase.value if rnd else '-'}", flush=True)
        if name == crash_step and counts[name] == int(crash_at):
            os.kill(os.getpid(), signal.SIGKILL)

    decks = []
    rng = random.Random(seed)
    for _ in range(rounds):
        deck = list(DECK)
        rng.shuffle(deck)
        decks.append(deck)
    source: CardSource = KeyedEntry() if keyed else ScriptedDeck(decks)
    profile = ProfileLibrary().find(game)
    ledger = SqliteLedger(ledger_path)
    if ledger.tables():
        table = Table.open(ledger, ledger.tables()[0], GAMES.find(profile.game), profile, source)
        if table.session.dealer is None:  # signed out when the killed terminal's table was taken over
            on_duty(table)
        if table.round is not None:
            print(f"recovered {table.session.rounds_started} {table.round.phase.value}", flush=True)
    else:
        table = staffed_table(ledger, "Crash", profile, source, seats=7)
        for seat in range(1, PLAYERS[game] + 1):
            table.seat_player(seat, f"P{seat}", profile.profile.buy_in.max, document=f"passport X{seat:07}")
    table.on_step = on_step
    choose = GAMES.find(game).demo
    while True:
        rnd = table.round
        if rnd is None or rnd.phase in (Phase.DONE, Phase.VOID):
            if table.session.rounds_started >= rounds:
                break
            on_step("between_rounds")
            rnd = table.start_round()
        # decisions depend only on the round's state, never on how many times we restarted
        played = sum(1 for e in rnd.events if e.kind != "round_recovered")
        decide = random.Random(f"{seed}:{table.session.rounds_started}:{played}")
        if keyed:
            play_keyed(table, rnd, decide)
        else:
            table.act(signed(table, choose(rnd, decide)))
    print(json.dumps({"stacks": table.session.stacks(), "house": table.session.house}))


def play_keyed(table: Table, rnd: Round, decide: random.Random) -> None:
    """One step at a live table: a legal action, with the cards it asks for keyed."""
    for _ in range(50):  # a random choice the rules refuse (insurance below a straight) is chosen again
        specs = [s for s in rnd.legal_steps() if s.kind not in ("void", "withdraw", "unlock", "withdraw_natural")]
        if rnd.phase is Phase.ANTE and decide.random() < 0.6:
            specs = [s for s in specs if s.kind == "ante"] or specs
        try:
            table.act(signed(table, keyed_action(rnd, decide.choice(specs), decide)))
            return
        except IllegalAction:
            continue
    raise SystemExit("no legal step found")


def serve() -> None:
    """Run each argument list read from stdin in a forked process; answer with how it ended."""
    for line in sys.stdin:
        with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
            sys.stdout.flush()
            pid = os.fork()
            if pid == 0:  # the terminal: its output to the files, its end its own
                os.dup2(out.fileno(), 1)
                os.dup2(err.fileno(), 2)
                code = 0
                try:
                    main(json.loads(line))
                except SystemExit as exc:
                    code = exc.code if isinstance(exc.code, int) else 1
                    if not isinstance(exc.code, int) and exc.code is not None:
                        print(exc.code, file=sys.stderr)
                except BaseException:  # noqa: BLE001 - any failure of the terminal is its exit status 1, as a process
                    traceback.print_exc()
                    code = 1
                sys.stdout.flush()
                sys.stderr.flush()
                os._exit(code)
            _, status = os.waitpid(pid, 0)
            code = -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)
            out.seek(0)
            err.seek(0)
            print(json.dumps({"returncode": code, "stdout": out.read().decode(), "stderr": err.read().decode()}),
                  flush=True)


if __name__ == "__main__":
    if sys.argv[1:] == ["--serve"]:
        serve()
    else:
        main(sys.argv[1:])
