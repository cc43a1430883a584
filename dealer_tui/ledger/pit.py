"""The pit server's side of delivery: a PostgreSQL database every table's terminal delivers its
events to, in order, idempotently by (table, sequence). The server is the authority the
terminals cannot rewrite: an event is accepted only through `pit_append`, which checks that it
links to the table's previous event on the server (its sequence follows, its `prev_hash` is that
event's hash) and that an event already there is delivered again byte for byte; no role but the
owner may UPDATE or DELETE an event (privileges, and a trigger besides)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import psycopg

from dealer_tui.ledger.base import GENESIS, LedgerError, StoredEvent

SCHEMA_VERSION = 1

SCHEMA = """
CREATE TABLE IF NOT EXISTS pit_meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS pit_tables(
    id BIGSERIAL PRIMARY KEY,
    terminal_table_id BIGINT NOT NULL,
    origin TEXT NOT NULL,
    name TEXT NOT NULL,
    UNIQUE(origin, terminal_table_id)
);
CREATE TABLE IF NOT EXISTS pit_events(
    table_id BIGINT NOT NULL REFERENCES pit_tables(id),
    seq BIGINT NOT NULL,
    round_id BIGINT,
    ts TEXT NOT NULL,
    kind TEXT NOT NULL,
    payload JSONB NOT NULL,
    prev_hash TEXT NOT NULL,
    hash TEXT NOT NULL,
    received_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY(table_id, seq)
);
CREATE OR REPLACE FUNCTION pit_no_rewrite() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'pit: events are never % (table %, event %)', lower(TG_OP), OLD.table_id, OLD.seq
        USING ERRCODE = 'insufficient_privilege';
END $$;
DROP TRIGGER IF EXISTS pit_events_no_rewrite ON pit_events;
CREATE TRIGGER pit_events_no_rewrite BEFORE UPDATE OR DELETE ON pit_events
    FOR EACH ROW EXECUTE FUNCTION pit_no_rewrite();
CREATE OR REPLACE FUNCTION pit_append(p_table BIGINT, p_seq BIGINT, p_round BIGINT, p_ts TEXT, p_kind TEXT,
                                      p_payload JSONB, p_prev TEXT, p_hash TEXT) RETURNS TEXT
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    last_seq BIGINT;
    last_hash TEXT;
    known pit_events%ROWTYPE;
BEGIN
    PERFORM pg_advisory_xact_lock(p_table);
    SELECT * INTO known FROM pit_events WHERE table_id = p_table AND seq = p_seq;
    IF FOUND THEN
        IF known.hash = p_hash AND known.prev_hash = p_prev AND known.kind = p_kind AND known.payload = p_payload
           AND known.ts = p_ts THEN
            RETURN 'known';
        END IF;
        RAISE EXCEPTION 'pit: table %, event % differs from the one the server holds (rewritten on the terminal)',
            p_table, p_seq USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    SELECT seq, hash INTO last_seq, last_hash FROM pit_events WHERE table_id = p_table ORDER BY seq DESC LIMIT 1;
    IF NOT FOUND THEN
        last_seq := 0;
        last_hash := repeat('0', 64);
    END IF;
    IF p_seq <> last_seq + 1 THEN
        RAISE EXCEPTION 'pit: table %, event % does not follow the server''s last (%)', p_table, p_seq, last_seq
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    IF p_prev <> last_hash THEN
        RAISE EXCEPTION 'pit: table %, event % does not link to the server''s event %', p_table, p_seq, last_seq
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    INSERT INTO pit_events(table_id, seq, round_id, ts, kind, payload, prev_hash, hash)
        VALUES (p_table, p_seq, p_round, p_ts, p_kind, p_payload, p_prev, p_hash);
    PERFORM pg_notify('pit_events', p_table::text || ':' || p_seq::text);
    RETURN 'added';
END $$;
"""

ROLES = """
DO $$ BEGIN
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'pit_terminal') THEN CREATE ROLE pit_terminal; END IF;
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'pit_floor') THEN CREATE ROLE pit_floor; END IF;
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'pit_auditor') THEN CREATE ROLE pit_auditor; END IF;
END $$;
REVOKE ALL ON pit_events, pit_tables, pit_meta FROM PUBLIC;
REVOKE ALL ON FUNCTION pit_append(BIGINT, BIGINT, BIGINT, TEXT, TEXT, JSONB, TEXT, TEXT) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION pit_append(BIGINT, BIGINT, BIGINT, TEXT, TEXT, JSONB, TEXT, TEXT) TO pit_terminal;
GRANT SELECT, INSERT ON pit_tables TO pit_terminal;
GRANT USAGE ON SEQUENCE pit_tables_id_seq TO pit_terminal;
GRANT SELECT ON pit_events, pit_tables, pit_meta TO pit_terminal, pit_floor, pit_auditor;
"""


class PitError(LedgerError):
    """The pit server refused a delivery, or could not be reached; nothing was taken."""


@dataclass(frozen=True)
class Delivered:
    added: int
    known: int


def init_schema(conninfo: str) -> None:
    """Create (or bring up to date) the pit's schema and its roles, as the database's owner."""
    try:
        with psycopg.connect(conninfo, autocommit=True) as db:
            db.execute(SCHEMA)
            db.execute(ROLES)
            db.execute("INSERT INTO pit_meta(key, value) VALUES ('schema', %s) ON CONFLICT (key) DO UPDATE"
                       " SET value = EXCLUDED.value", (str(SCHEMA_VERSION),))
    except psycopg.Error as exc:
        raise PitError(f"the pit server's schema could not be made: {exc}") from None


class PitLink:
    """One terminal's connection to the pit server (`origin`: the terminal's ledger, by its key)."""

    def __init__(self, conninfo: str, origin: str) -> None:
        self.conninfo, self.origin = conninfo, origin
        try:
            self._db = psycopg.connect(conninfo, autocommit=True)
        except psycopg.Error as exc:
            raise PitError(f"the pit server cannot be reached: {exc}") from None

    def close(self) -> None:
        self._db.close()

    def server_table(self, table_id: int, name: str) -> int:
        """The server's id of this terminal's table (registered on first delivery)."""
        row = self._db.execute("SELECT id FROM pit_tables WHERE origin = %s AND terminal_table_id = %s",
                               (self.origin, table_id)).fetchone()
        if row is not None:
            return int(row[0])
        row = self._db.execute("INSERT INTO pit_tables(terminal_table_id, origin, name) VALUES (%s, %s, %s)"
                               " ON CONFLICT (origin, terminal_table_id) DO UPDATE SET name = pit_tables.name"
                               " RETURNING id", (table_id, self.origin, name)).fetchone()
        assert row is not None
        return int(row[0])

    def server_last(self, server_table: int) -> int:
        row = self._db.execute("SELECT COALESCE(MAX(seq), 0) FROM pit_events WHERE table_id = %s",
                               (server_table,)).fetchone()
        return int(row[0]) if row is not None else 0

    def deliver(self, server_table: int, events: Iterable[StoredEvent]) -> Delivered:
        """Deliver the table's events in chain order; each is taken once (a retry finds it known)."""
        added = known = 0
        try:
            for e in events:
                result = self._db.execute("SELECT pit_append(%s, %s, %s, %s, %s, %s::jsonb, %s, %s)",
                                          (server_table, e.seq, e.round_id, e.ts, e.kind, json.dumps(e.payload),
                                           e.prev_hash, e.hash)).fetchone()
                if result is not None and result[0] == "added":
                    added += 1
                else:
                    known += 1
        except psycopg.Error as exc:
            raise PitError(f"the pit server refused the delivery: {str(exc).splitlines()[0]}") from None
        return Delivered(added, known)

    def server_chain_problems(self, server_table: int) -> list[str]:
        """The server's copy of the table's chain checked link by link."""
        rows = self._db.execute("SELECT seq, prev_hash, hash FROM pit_events WHERE table_id = %s ORDER BY seq",
                                (server_table,)).fetchall()
        problems: list[str] = []
        prev, expected = GENESIS, 1
        for seq, prev_hash, digest in rows:
            if seq != expected or prev_hash != prev:
                problems.append(f"server table {server_table}, event {seq}: does not follow event {expected - 1}")
            prev, expected = digest, seq + 1
        return problems


def deliver_table(link: PitLink, table_id: int, name: str, events: Sequence[StoredEvent]) -> Delivered:
    """What the server lacks of the table's chain, delivered from where the server stands (a
    restart resumes there; an event the server holds is checked to be the same, not sent as new)."""
    server_table = link.server_table(table_id, name)
    last = link.server_last(server_table)
    overlap = [e for e in events if e.seq == last] if last else []
    return link.deliver(server_table, [*overlap, *(e for e in events if e.seq > last)])
