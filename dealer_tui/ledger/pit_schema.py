"""The pit server's schema (PostgreSQL; its tables, functions and triggers in `pit_schema.sql`
beside this module, its row security, roles and grants here): every table's terminal delivers its
events to it, in order, idempotently by (table, chain number), and the floor reads every table there.

The server is the authority the terminals cannot rewrite: an event is taken only through
`pit_append`, which checks that it links to the table's previous event on the server (its chain
number follows, its `prev_hash` is that event's hash) and that an event already there is
delivered again byte for byte; no role but the owner may UPDATE or DELETE an event (privileges,
and a trigger besides, for the owner too). A delivery that disagrees with the server is refused
and kept as an alarm (`pit_alarm`) the floor shows.

Each event keeps the ids it was hashed with on its terminal (the table's and the round's there,
its place in that terminal's ledger-wide sequence), so the server's copy of a chain checks as the
terminal's own; the floor reads the server's ids, unique across the pit. Rounds, settlement rows,
flags, hourly totals and seatings are the events' projection, written with them in the same
transaction and checked against them by `history verify`.
"""

from __future__ import annotations

from importlib.resources import files

from dealer_tui.ledger import hours, seatings
from dealer_tui.ledger.base import ACCOUNT_KINDS

SCHEMA_VERSION = 4
"""2 -> 3: each settlement row carries its bet's role (`upgrade_to_3`). 3 -> 4: an account's
language is an account event (`staff_language_changed`), which the functions take once `pit init`
has made them again; no table changes."""

SCHEMA_TEMPLATE = (files("dealer_tui.ledger") / "pit_schema.sql").read_text(encoding="utf-8")
"""The tables, functions and triggers (`pit_schema.sql`), with `{account_kinds}`, `{add_to_hour}`,
`{seat_taken}` and `{seat_left}` to fill."""

ACCOUNT_KINDS_SQL = ", ".join(f"'{kind}'" for kind in ACCOUNT_KINDS)
SCHEMA = (SCHEMA_TEMPLATE.replace("{account_kinds}", ACCOUNT_KINDS_SQL)
          .replace("{add_to_hour}", hours.upsert("pit_hourly_totals", "pit_rounds", "p_round", "GREATEST"))
          .replace("{seat_taken}", seatings.taken("pit_seatings", "pit_rounds", "p_table", "p_seat", "p_player"))
          .replace("{seat_left}", seatings.left("pit_seatings", "pit_rounds", "p_table", "p_seat")))

RLS = "".join(f"""
ALTER TABLE {table} ENABLE ROW LEVEL SECURITY;
DROP POLICY IF EXISTS pit_read ON {table};
CREATE POLICY pit_read ON {table} FOR SELECT USING (true);
DROP POLICY IF EXISTS pit_own_insert ON {table};
CREATE POLICY pit_own_insert ON {table} FOR INSERT TO pit_terminal WITH CHECK ({check});
DROP POLICY IF EXISTS pit_own_update ON {table};
CREATE POLICY pit_own_update ON {table} FOR UPDATE TO pit_terminal USING ({check}) WITH CHECK ({check});
""" for table, check in (("pit_rounds", "pit_own_table(table_id)"), ("pit_hourly_totals", "pit_own_table(table_id)"),
                         ("pit_seatings", "pit_own_table(table_id)"), ("pit_settlements", "pit_own_round(round_id)"),
                         ("pit_round_flags", "pit_own_round(round_id)"))) + """
ALTER TABLE pit_tables ENABLE ROW LEVEL SECURITY;
DROP POLICY IF EXISTS pit_read ON pit_tables;
CREATE POLICY pit_read ON pit_tables FOR SELECT USING (true);
DROP POLICY IF EXISTS pit_register ON pit_tables;
CREATE POLICY pit_register ON pit_tables FOR INSERT TO pit_terminal
    WITH CHECK (owner_role = current_user AND id <> 0 AND pit_origin_free(origin));
DROP POLICY IF EXISTS pit_area ON pit_tables;
"""
"""Row-level security: a terminal's login writes the rows of the tables it registered only (the
owner and superusers, as PostgreSQL has it, are not bound by it); everyone who may read reads all."""

PIT_CLOCK = "pit-clock"
"""The origin of a lock-out the pit worked out on its own clock from the wrong PINs it holds (its
`pit_seq` is when the lock began there, in seconds since the epoch)."""
PIT_ORIGIN = "pit"
"""The origin of the server's own chain: the pit's staff register (server table id 0)."""

OWN_REGISTER = f"""
INSERT INTO pit_tables(id, origin, origin_id, name, game, profile, profile_sha256, card_source, created_at)
    VALUES (0, '{PIT_ORIGIN}', 0, 'staff register', 'staff', '', '', '',
            to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"+00:00"'))
    ON CONFLICT DO NOTHING
"""

PROJECTIONS = ("pit_rounds", "pit_settlements", "pit_round_flags", "pit_hourly_totals", "pit_seatings")
READ_ALL = ("pit_meta", "pit_tables", "pit_events", "pit_links", "pit_alarms", "pit_signatures", "pit_deliveries",
            "pit_gaps",
            *PROJECTIONS)

ROLES = f"""
DO $$ BEGIN
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'pit_terminal') THEN CREATE ROLE pit_terminal; END IF;
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'pit_floor') THEN CREATE ROLE pit_floor; END IF;
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'pit_auditor') THEN CREATE ROLE pit_auditor; END IF;
END $$;
REVOKE ALL ON {", ".join(READ_ALL)} FROM PUBLIC;
REVOKE ALL ON FUNCTION pit_append(BIGINT, BIGINT, BIGINT, BIGINT, TEXT, TEXT, TEXT, TEXT, TEXT, BIGINT) FROM PUBLIC;
REVOKE ALL ON FUNCTION pit_floor_append(BIGINT, TEXT, TEXT, TEXT, TEXT, TEXT, BIGINT) FROM PUBLIC;
REVOKE ALL ON FUNCTION pit_contact(TEXT, TEXT, TEXT, BOOLEAN) FROM PUBLIC;
REVOKE ALL ON FUNCTION pit_alarm(TEXT, TEXT, TEXT) FROM PUBLIC;
REVOKE ALL ON pit_secret, pit_pin_secrets, pit_login_keys FROM PUBLIC;
REVOKE ALL ON FUNCTION pit_check_pin(TEXT, TEXT), pit_unseal(TEXT, TEXT), pit_manager_pin(TEXT),
    pit_take_login_key(TEXT, TEXT, TEXT), pit_key_state(TEXT), pit_wrapped_secrets() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION pit_unseal(TEXT, TEXT) TO pit_terminal, pit_floor, pit_auditor;
GRANT EXECUTE ON FUNCTION pit_take_login_key(TEXT, TEXT, TEXT), pit_key_state(TEXT), pit_wrapped_secrets()
    TO pit_terminal;
REVOKE ALL ON FUNCTION pit_sign_append(BIGINT, TEXT, TEXT, TEXT, TEXT, TEXT, BIGINT, TEXT) FROM PUBLIC;
REVOKE ALL ON FUNCTION pit_take(BIGINT, BIGINT, BIGINT, BIGINT, TEXT, TEXT, TEXT, TEXT, TEXT, BIGINT) FROM PUBLIC;
GRANT SELECT ON {", ".join(READ_ALL)} TO pit_terminal, pit_floor, pit_auditor;
GRANT EXECUTE ON FUNCTION pit_append(BIGINT, BIGINT, BIGINT, BIGINT, TEXT, TEXT, TEXT, TEXT, TEXT, BIGINT)
    TO pit_terminal;
GRANT EXECUTE ON FUNCTION pit_contact(TEXT, TEXT, TEXT, BOOLEAN), pit_alarm(TEXT, TEXT, TEXT) TO pit_terminal;
GRANT EXECUTE ON FUNCTION pit_floor_append(BIGINT, TEXT, TEXT, TEXT, TEXT, TEXT, BIGINT) TO pit_floor;
REVOKE ALL ON FUNCTION pit_lock_register() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION pit_lock_register() TO pit_floor;
REVOKE INSERT, UPDATE ON pit_tables, {", ".join(PROJECTIONS)} FROM pit_terminal;
{"".join(f"REVOKE ALL ON FUNCTION {f} FROM PUBLIC; GRANT EXECUTE ON FUNCTION {f} TO {who};" for f, who in (
    ("pit_register(TEXT, BIGINT, TEXT, TEXT, TEXT, TEXT, TEXT, TEXT)", "pit_terminal"),
    ("pit_round_open(BIGINT, BIGINT, BIGINT, TEXT, TEXT, TEXT)", "pit_terminal"),
    ("pit_seating(BIGINT, BOOLEAN, BIGINT, TEXT)", "pit_terminal"),
    ("pit_round_update(BIGINT, TEXT, TEXT[], TEXT, BIGINT[], JSONB, BIGINT[], TEXT)", "pit_terminal")))}
"""
