"""Re-checking a ledger: every row it shows follows from its hash-chained events.

`verify` reads each table's chain once, in order, and holds against it everything the floor,
`history list` and the exports read:
- the chain itself (every hash and link), the ledger-wide sequence of events across tables (a
  deleted table or deleted events leave a gap), SQLite's integrity check of the file;
- each round's stored row (seats, wagered, paid, returned, from stacks, house result, biggest
  payout, fees, banking, status, flags, profile, times) against what its events record, and its
  number against its place in the table; each finished round re-settled through the rules;
- the settlement rows of every round (a voided or open round has none), the flag index, the
  hourly totals, who sat where;
- stack continuity: each round's starting stacks are what the table's earlier events (seatings,
  buy-ins, cash-outs, payouts) leave each seat, replayed as the terminal replays them;
- with a witness (`dealer_tui.ledger.witness`), that the ledger still holds the last event of
  each table the witness names.

A round is re-settled by the rules it was played under. Chinese Poker rounds record the docs/rules.md
revision in their setup (`rules_revision`); one recorded without it was played under revision 1
and is re-settled by revision 1's rules, which are kept for that, and the report says which
rounds those are. Nothing in the ledger is rewritten. The other games' revision 2 changes settle
an existing round alike (a per-round bonus cap a profile did not have is none; table stakes for
an Ante or an exchange only refuse actions), so their rounds carry no revision.
"""

from dealer_tui.audit.ledger_audit import Verification, verify, verify_ledger
from dealer_tui.audit.resettle import resettle, resettle_round, rules_revision
from dealer_tui.audit.table_audit import expected_row
from dealer_tui.rounds.table_profiles import table_profiles

__all__ = ["Verification", "expected_row", "resettle", "resettle_round", "rules_revision", "table_profiles", "verify",
           "verify_ledger"]
