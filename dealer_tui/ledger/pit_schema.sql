-- The pit server's tables, functions and triggers (PostgreSQL), run by `init_schema` through
-- dealer_tui/ledger/pit_schema.py; {account_kinds} is the staff register's account kinds, {add_to_hour} the
-- statement that adds a settled round to its hour's totals (dealer_tui/ledger/hours.py), {seat_taken} and
-- {seat_left} those that open and close a seating (dealer_tui/ledger/seatings.py).
CREATE TABLE IF NOT EXISTS pit_meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS pit_tables(
    id BIGSERIAL PRIMARY KEY,
    origin TEXT NOT NULL,
    origin_id BIGINT NOT NULL,
    name TEXT NOT NULL,
    game TEXT NOT NULL,
    profile TEXT NOT NULL,
    profile_sha256 TEXT NOT NULL,
    card_source TEXT NOT NULL,
    created_at TEXT NOT NULL,
    area TEXT NOT NULL DEFAULT '',
    owner_role TEXT NOT NULL DEFAULT current_user,
    UNIQUE(origin, origin_id)
);
CREATE TABLE IF NOT EXISTS pit_rounds(
    id BIGSERIAL PRIMARY KEY,
    table_id BIGINT NOT NULL REFERENCES pit_tables(id),
    origin_id BIGINT NOT NULL,
    number BIGINT NOT NULL,
    game TEXT NOT NULL,
    profile TEXT NOT NULL,
    status TEXT NOT NULL,
    flags TEXT NOT NULL DEFAULT '',
    started_at TEXT NOT NULL,
    ended_at TEXT,
    seats BIGINT NOT NULL DEFAULT 0,
    wagered BIGINT NOT NULL DEFAULT 0,
    paid BIGINT NOT NULL DEFAULT 0,
    house_result BIGINT NOT NULL DEFAULT 0,
    returned BIGINT NOT NULL DEFAULT 0,
    from_stacks BIGINT NOT NULL DEFAULT 0,
    max_payout BIGINT NOT NULL DEFAULT 0,
    banking TEXT NOT NULL DEFAULT 'house',
    fees BIGINT NOT NULL DEFAULT 0,
    UNIQUE(table_id, number),
    UNIQUE(table_id, origin_id)
);
CREATE INDEX IF NOT EXISTS pit_rounds_by_status ON pit_rounds(status, id);
CREATE INDEX IF NOT EXISTS pit_rounds_by_time ON pit_rounds(started_at, id);
CREATE INDEX IF NOT EXISTS pit_rounds_by_game ON pit_rounds(game, started_at, id);
CREATE INDEX IF NOT EXISTS pit_rounds_by_table ON pit_rounds(table_id, started_at, id);
CREATE INDEX IF NOT EXISTS pit_rounds_by_paid ON pit_rounds(paid, id);
CREATE INDEX IF NOT EXISTS pit_rounds_by_wagered ON pit_rounds(wagered, id);
CREATE INDEX IF NOT EXISTS pit_rounds_by_house ON pit_rounds(house_result, id);
CREATE INDEX IF NOT EXISTS pit_rounds_by_max_payout ON pit_rounds(max_payout, id);
CREATE INDEX IF NOT EXISTS pit_rounds_by_number ON pit_rounds(number);
CREATE TABLE IF NOT EXISTS pit_events(
    id BIGSERIAL PRIMARY KEY,
    table_id BIGINT NOT NULL REFERENCES pit_tables(id),
    round_id BIGINT REFERENCES pit_rounds(id),
    origin_round BIGINT,
    seq BIGINT NOT NULL,
    ts TEXT NOT NULL,
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    prev_hash TEXT NOT NULL,
    hash TEXT NOT NULL,
    ledger_seq BIGINT,
    received_at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp(),
    UNIQUE(table_id, seq)
);
CREATE INDEX IF NOT EXISTS pit_events_by_round ON pit_events(round_id, seq);
CREATE INDEX IF NOT EXISTS pit_events_by_hash ON pit_events(hash);
CREATE INDEX IF NOT EXISTS pit_events_by_signature ON pit_events((payload::jsonb ->> 'signature'))
    WHERE kind = 'staff_signed_in';
CREATE INDEX IF NOT EXISTS pit_events_by_kind ON pit_events(table_id, kind, seq);
CREATE INDEX IF NOT EXISTS pit_events_by_account ON pit_events((payload::jsonb ->> 'account'), seq)
    WHERE kind IN ('staff_signed_in', 'staff_refused', 'staff_locked');
CREATE TABLE IF NOT EXISTS pit_settlements(
    round_id BIGINT NOT NULL REFERENCES pit_rounds(id),
    seat BIGINT NOT NULL,
    bet TEXT NOT NULL,
    stake BIGINT NOT NULL,
    result BIGINT NOT NULL,
    reason TEXT NOT NULL,
    role TEXT NOT NULL DEFAULT '',
    PRIMARY KEY(round_id, seat, bet)
);
CREATE TABLE IF NOT EXISTS pit_round_flags(
    flag TEXT NOT NULL,
    round_id BIGINT NOT NULL REFERENCES pit_rounds(id),
    PRIMARY KEY(flag, round_id)
);
CREATE TABLE IF NOT EXISTS pit_hourly_totals(
    hour TEXT NOT NULL,
    table_id BIGINT NOT NULL REFERENCES pit_tables(id),
    game TEXT NOT NULL,
    banking TEXT NOT NULL,
    rounds BIGINT NOT NULL,
    wagered BIGINT NOT NULL,
    paid BIGINT NOT NULL,
    returned BIGINT NOT NULL,
    from_stacks BIGINT NOT NULL,
    house BIGINT NOT NULL,
    biggest BIGINT NOT NULL,
    fees BIGINT NOT NULL,
    PRIMARY KEY(hour, table_id, game, banking)
);
CREATE TABLE IF NOT EXISTS pit_seatings(
    table_id BIGINT NOT NULL REFERENCES pit_tables(id),
    seat BIGINT,
    player TEXT NOT NULL,
    first_round BIGINT NOT NULL,
    last_round BIGINT
);
CREATE INDEX IF NOT EXISTS pit_seatings_by_table ON pit_seatings(table_id, seat);
CREATE TABLE IF NOT EXISTS pit_links(
    origin TEXT PRIMARY KEY,
    terminal TEXT NOT NULL,
    host TEXT NOT NULL,
    last_contact TIMESTAMPTZ NOT NULL,
    closed BOOLEAN NOT NULL DEFAULT false
);
CREATE TABLE IF NOT EXISTS pit_deliveries(
    round_id BIGINT PRIMARY KEY REFERENCES pit_rounds(id),
    ended_at TEXT NOT NULL,
    received_at TIMESTAMPTZ NOT NULL,
    seconds DOUBLE PRECISION NOT NULL
);
CREATE TABLE IF NOT EXISTS pit_gaps(
    origin TEXT NOT NULL,
    went_silent TIMESTAMPTZ NOT NULL,
    back TIMESTAMPTZ NOT NULL
);
CREATE INDEX IF NOT EXISTS pit_gaps_by_origin ON pit_gaps(origin, back);
CREATE TABLE IF NOT EXISTS pit_secret(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS pit_pin_secrets(
    kept TEXT PRIMARY KEY,
    account TEXT NOT NULL,
    hash TEXT NOT NULL,
    sealed TEXT NOT NULL,
    nonce TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS pit_login_keys(
    login TEXT PRIMARY KEY,
    key TEXT NOT NULL,
    taken_at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp(),
    host TEXT NOT NULL,
    confirmed_by TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS pit_signatures(
    seq BIGINT PRIMARY KEY,
    signature TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS pit_alarms(
    id BIGSERIAL PRIMARY KEY,
    origin TEXT NOT NULL,
    table_name TEXT NOT NULL,
    message TEXT NOT NULL,
    at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp()
);

CREATE OR REPLACE FUNCTION pit_no_rewrite() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'pit: the server''s events and alarms are never % (%)', lower(TG_OP), TG_TABLE_NAME
        USING ERRCODE = 'insufficient_privilege';
END $$;
DROP TRIGGER IF EXISTS pit_events_no_rewrite ON pit_events;
CREATE TRIGGER pit_events_no_rewrite BEFORE UPDATE OR DELETE ON pit_events
    FOR EACH ROW EXECUTE FUNCTION pit_no_rewrite();
DROP TRIGGER IF EXISTS pit_events_no_truncate ON pit_events;
CREATE TRIGGER pit_events_no_truncate BEFORE TRUNCATE ON pit_events
    FOR EACH STATEMENT EXECUTE FUNCTION pit_no_rewrite();
DROP TRIGGER IF EXISTS pit_alarms_no_rewrite ON pit_alarms;
CREATE TRIGGER pit_alarms_no_rewrite BEFORE UPDATE OR DELETE ON pit_alarms
    FOR EACH ROW EXECUTE FUNCTION pit_no_rewrite();

CREATE OR REPLACE FUNCTION pit_take(p_table BIGINT, p_round BIGINT, p_origin_round BIGINT, p_seq BIGINT,
                                    p_ts TEXT, p_kind TEXT, p_payload TEXT, p_prev TEXT, p_hash TEXT,
                                    p_ledger_seq BIGINT) RETURNS TEXT
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    last_seq BIGINT;
    last_hash TEXT;
    known pit_events%ROWTYPE;
    copied_from TEXT;
    copied_table TEXT;
    prior_kind TEXT;
    named JSONB;
    prior TEXT;
    made_up BOOLEAN;
BEGIN
    PERFORM 1 FROM pit_tables WHERE id = p_table FOR UPDATE;  -- one writer of a chain at a time (no login
    -- takes this lock but through here: advisory locks are anyone's)
    BEGIN
        PERFORM p_payload::jsonb;
    EXCEPTION WHEN others THEN
        RAISE EXCEPTION 'event % is not JSON', p_seq USING ERRCODE = 'integrity_constraint_violation';
    END;
    SELECT * INTO known FROM pit_events WHERE table_id = p_table AND seq = p_seq;
    IF FOUND THEN
        IF known.hash = p_hash AND known.prev_hash = p_prev AND known.kind = p_kind AND known.payload = p_payload
           AND known.ts = p_ts AND known.origin_round IS NOT DISTINCT FROM p_origin_round
           AND known.ledger_seq IS NOT DISTINCT FROM p_ledger_seq THEN
            RETURN 'known';
        END IF;
        RAISE EXCEPTION 'event % differs from the one the server holds (the terminal''s history was rewritten, '
            'or another terminal delivers the same ledger)', p_seq USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    SELECT seq, hash INTO last_seq, last_hash FROM pit_events WHERE table_id = p_table ORDER BY seq DESC LIMIT 1;
    IF NOT FOUND THEN
        last_seq := 0;
        last_hash := repeat('0', 64);
    END IF;
    IF p_seq <> last_seq + 1 THEN
        RAISE EXCEPTION 'event % does not follow the server''s last (%)', p_seq, last_seq
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    IF p_prev <> last_hash THEN
        RAISE EXCEPTION 'event % does not link to the server''s event %', p_seq, last_seq
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    SELECT t.origin, t.name INTO copied_from, copied_table FROM pit_events e JOIN pit_tables t ON t.id = e.table_id
        WHERE e.hash = p_hash AND t.origin <> (SELECT origin FROM pit_tables WHERE id = p_table) LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'event % is on the server already, in table % of ledger %: this ledger is a copy of that one '
            '(a new id does not make a chain new)', p_seq, copied_table, left(copied_from, 8)
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    IF p_table <> 0 AND (SELECT origin_id FROM pit_tables WHERE id = p_table) <> 0 THEN
        -- a table's event stands on sign-ins of its own ledger's register, which the server holds first
        FOR named IN SELECT v FROM jsonb_each(p_payload::jsonb) AS kv(k, v)
                WHERE kv.k IN ('sign_in', 'dealer_sign_in') AND jsonb_typeof(kv.v) = 'number' LOOP
            IF NOT EXISTS (SELECT 1 FROM pit_events e JOIN pit_tables r ON r.id = e.table_id
                    WHERE r.origin = (SELECT origin FROM pit_tables WHERE id = p_table) AND r.origin_id = 0
                    AND e.ledger_seq = (named #>> '{}')::numeric AND e.kind IN ('staff_signed_in', 'staff_received')) THEN
                RAISE EXCEPTION 'event % names sign-in %, which the server does not hold in this ledger''s register',
                    p_seq, named #>> '{}' USING ERRCODE = 'integrity_constraint_violation';
            END IF;
        END LOOP;
    END IF;
    IF p_kind = 'staff_signed_in' THEN  -- a sign-in stands for one approval, in one ledger
        SELECT t.origin, t.name INTO copied_from, copied_table FROM pit_events e JOIN pit_tables t ON t.id = e.table_id
            WHERE e.kind = 'staff_signed_in' AND e.payload::jsonb ->> 'signature' = p_payload::jsonb ->> 'signature'
            AND t.origin <> (SELECT origin FROM pit_tables WHERE id = p_table) LIMIT 1;
        IF FOUND THEN
            RAISE EXCEPTION 'event % is a sign-in the server holds already, in ledger %: a sign-in copied from another '
                'ledger (a copy of it, re-hashed)', p_seq, left(copied_from, 8)
                USING ERRCODE = 'integrity_constraint_violation';
        END IF;
    END IF;
    IF p_kind = 'staff_locked' THEN  -- as a desk writes it: after the refusal that made three wrong PINs, 300 s
        SELECT kind, payload INTO prior_kind, prior FROM pit_events WHERE table_id = p_table AND seq = p_seq - 1;
        BEGIN
            made_up := NOT (prior_kind = 'staff_refused'
                AND prior::jsonb ->> 'account' = p_payload::jsonb ->> 'account'
                AND prior::jsonb ->> 'reason' = 'pin' AND (prior::jsonb ->> 'failures')::int >= 3
                AND (p_payload::jsonb ->> 'seconds')::int = 300
                AND abs((p_payload::jsonb ->> 'until')::float8 - extract(epoch FROM p_ts::timestamptz) - 300) <= 60);
        EXCEPTION WHEN others THEN
            made_up := true;
        END;
        IF made_up IS NOT FALSE THEN
            RAISE EXCEPTION 'event % is a lock-out no three wrong PINs before it made, or one that lasts other than '
                '300 s: the pit takes no lock-out it did not see made (it locks on its own count and clock)', p_seq
                USING ERRCODE = 'integrity_constraint_violation';
        END IF;
    END IF;
    IF (p_round IS NULL) <> (p_origin_round IS NULL) OR (p_round IS NOT NULL AND NOT EXISTS (
            SELECT 1 FROM pit_rounds WHERE id = p_round AND table_id = p_table AND origin_id = p_origin_round)) THEN
        RAISE EXCEPTION 'event % names a round the table does not have on the server', p_seq
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    INSERT INTO pit_events(table_id, round_id, origin_round, seq, ts, kind, payload, prev_hash, hash, ledger_seq)
        VALUES (p_table, p_round, p_origin_round, p_seq, p_ts, p_kind, p_payload, p_prev, p_hash, p_ledger_seq);
    PERFORM pg_notify('pit_events', p_table::text || ':' || p_seq::text);
    RETURN 'added';
END $$;

CREATE OR REPLACE FUNCTION pit_append(p_table BIGINT, p_round BIGINT, p_origin_round BIGINT, p_seq BIGINT,
                                      p_ts TEXT, p_kind TEXT, p_payload TEXT, p_prev TEXT, p_hash TEXT,
                                      p_ledger_seq BIGINT) RETURNS TEXT
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pit_tables WHERE id = p_table AND id <> 0 AND owner_role = session_user) THEN
        RAISE EXCEPTION 'table % is not one this login (%) registered: a terminal delivers its own tables only',
            p_table, session_user USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN pit_take(p_table, p_round, p_origin_round, p_seq, p_ts, p_kind, p_payload, p_prev, p_hash, p_ledger_seq);
END $$;

CREATE OR REPLACE FUNCTION pit_floor_append(p_seq BIGINT, p_ts TEXT, p_kind TEXT, p_payload TEXT, p_prev TEXT,
                                            p_hash TEXT, p_ledger_seq BIGINT) RETURNS TEXT
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    IF p_kind IN ({account_kinds}) THEN
        RAISE EXCEPTION 'a % is the pit''s own act: it is signed with the pit''s key, by the pit owner''s login',
            p_kind USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF p_kind NOT IN ('staff_signed_in', 'staff_refused', 'staff_locked', 'floor_decided', 'alarm_acknowledged',
                      'alert_acknowledged', 'area_changed') THEN
        RAISE EXCEPTION 'a % event has no place on the pit''s own chain', p_kind
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN pit_take(0, NULL, NULL, p_seq, p_ts, p_kind, p_payload, p_prev, p_hash, p_ledger_seq);
END $$;

CREATE OR REPLACE FUNCTION pit_sign_append(p_seq BIGINT, p_ts TEXT, p_kind TEXT, p_payload TEXT, p_prev TEXT,
                                           p_hash TEXT, p_ledger_seq BIGINT, p_signature TEXT) RETURNS TEXT
LANGUAGE plpgsql SET search_path = public, pg_temp AS $$
DECLARE
    taken TEXT;
BEGIN
    IF p_kind NOT IN ({account_kinds}) THEN
        RAISE EXCEPTION 'a % is no account event', p_kind USING ERRCODE = 'insufficient_privilege';
    END IF;
    taken := pit_take(0, NULL, NULL, p_seq, p_ts, p_kind, p_payload, p_prev, p_hash, p_ledger_seq);
    INSERT INTO pit_signatures(seq, signature) VALUES (p_seq, p_signature) ON CONFLICT (seq) DO NOTHING;
    RETURN taken;
END $$;

CREATE OR REPLACE FUNCTION pit_check_pin(p_kept TEXT, p_attempt TEXT) RETURNS SETOF pit_pin_secrets
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = public, pg_temp SET lock_timeout = '20s' AS $$
DECLARE
    found pit_pin_secrets%ROWTYPE;
BEGIN
    -- one check of a PIN at a time, each taking half a second whatever its answer (none is told
    -- sooner): a guesser through the pit gets two guesses a second at an account, however many
    -- logins and connections it uses, besides the scrypt each guess costs it
    SELECT * INTO found FROM pit_pin_secrets s WHERE s.kept = p_kept FOR UPDATE;
    PERFORM pg_sleep(0.5);
    IF found.kept IS NOT NULL AND p_attempt ~ '^[0-9a-f]{64}$' AND found.hash = p_attempt COLLATE "C" THEN
        RETURN NEXT found;
    END IF;
END $$;

CREATE OR REPLACE FUNCTION pit_unseal(p_kept TEXT, p_attempt TEXT) RETURNS TEXT
LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    -- a PIN checked where its secret parts are kept: the sealed key and its nonce, only to the one
    -- who gives the PIN's hash (worked out from the PIN typed, at the guesser's own scrypt cost)
    SELECT sealed || ':' || nonce FROM pit_check_pin(p_kept, p_attempt)
$$;

CREATE OR REPLACE FUNCTION pit_manager_pin(p_kept TEXT) RETURNS TEXT
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    -- the account whose PIN this is, when it is an active manager's current PIN on the pit's register
    WITH pin AS (SELECT payload::jsonb ->> 'account' AS account, seq FROM pit_events
                 WHERE table_id = 0 AND kind IN ('staff_added', 'staff_pin_changed')
                 AND payload::jsonb -> 'pin' ->> 'kept' = p_kept ORDER BY seq DESC LIMIT 1)
    SELECT pin.account FROM pin
    WHERE NOT EXISTS (SELECT 1 FROM pit_events e WHERE e.table_id = 0 AND e.seq > pin.seq
                      AND e.kind IN ('staff_pin_changed', 'staff_added') AND e.payload::jsonb ->> 'account' = pin.account)
    AND (SELECT e.payload::jsonb ->> 'role' FROM pit_events e WHERE e.table_id = 0
         AND e.kind IN ('staff_added', 'staff_role_changed') AND e.payload::jsonb ->> 'account' = pin.account
         ORDER BY e.seq DESC LIMIT 1) = 'manager'
    AND NOT EXISTS (SELECT 1 FROM pit_events e WHERE e.table_id = 0 AND e.kind = 'staff_disabled'
                    AND e.payload::jsonb ->> 'account' = pin.account
                    AND e.seq > (SELECT MAX(a.seq) FROM pit_events a WHERE a.table_id = 0 AND a.kind = 'staff_added'
                                 AND a.payload::jsonb ->> 'account' = pin.account))
$$;

CREATE OR REPLACE FUNCTION pit_take_login_key(p_kept TEXT, p_attempt TEXT, p_key TEXT) RETURNS TEXT
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    found pit_pin_secrets%ROWTYPE;
    manager TEXT;
    before pit_login_keys%ROWTYPE;
BEGIN
    -- a manager of the pit confirms, with their PIN, the key of the terminal that asks with this
    -- login: the pit's PINs are handed to the login under that key from now on (a key the login
    -- held before is replaced, and raised as an alarm: whoever held it read the PINs handed to it)
    IF p_key IS NULL OR p_key !~ '^[0-9a-f]{64}$' THEN
        RAISE EXCEPTION 'a terminal''s key is 32 bytes in hex' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    SELECT * INTO found FROM pit_check_pin(p_kept, p_attempt);
    IF found.kept IS NULL THEN
        RETURN NULL;
    END IF;
    manager := pit_manager_pin(p_kept);
    IF manager IS NOT NULL AND NOT has_table_privilege(session_user, 'pit_pin_secrets', 'SELECT') THEN
        -- (the owner's login reads the PINs as they are: it takes no key)
        SELECT * INTO before FROM pit_login_keys WHERE login = session_user;
        INSERT INTO pit_login_keys(login, key, host, confirmed_by) VALUES (session_user, p_key,
            COALESCE(host(inet_client_addr()), 'local'), manager)
        ON CONFLICT (login) DO UPDATE SET key = EXCLUDED.key, taken_at = clock_timestamp(), host = EXCLUDED.host,
            confirmed_by = EXCLUDED.confirmed_by;
        IF before.key IS NOT NULL AND before.key <> p_key THEN
            INSERT INTO pit_alarms(origin, table_name, message) VALUES ('pit', '-', left(format(
                'login %s: manager %s confirmed a new terminal key; the key it replaces (taken %s from %s, confirmed by '
                '%s) was handed every PIN of the pit''s register: if that was not this terminal, the staff choose new PINs',
                session_user, manager, to_char(before.taken_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI'), before.host,
                before.confirmed_by), 2000));
        END IF;
    END IF;
    RETURN found.sealed || ':' || found.nonce;
END $$;

CREATE OR REPLACE FUNCTION pit_key_state(p_key TEXT) RETURNS TEXT
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    -- whether a pit manager confirmed this key for the asking login: 'this', 'other' (another key), 'none'
    SELECT CASE WHEN k.key IS NULL THEN 'none' WHEN k.key = p_key COLLATE "C" THEN 'this' ELSE 'other' END
    FROM (SELECT (SELECT key FROM pit_login_keys WHERE login = session_user) AS key) k
$$;

CREATE OR REPLACE FUNCTION pit_wrapped_secrets() RETURNS TABLE(kept TEXT, iv TEXT, wrapped TEXT)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    k BYTEA;
BEGIN
    -- the PINs' secret parts of the pit's register, each under the asking login's own key (AES-256-CBC):
    -- what the login's password alone reads of them is noise
    SELECT decode(l.key, 'hex') INTO k FROM pit_login_keys l WHERE l.login = session_user;
    IF k IS NULL THEN
        RAISE EXCEPTION 'login % has no key on the pit', session_user USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN QUERY SELECT s.kept, encode(v.iv, 'hex'), encode(encrypt_iv(convert_to(s.hash || ':' || s.sealed || ':' ||
        s.nonce, 'UTF8'), k, v.iv, 'aes-cbc/pad:pkcs'), 'hex')
        FROM pit_pin_secrets s CROSS JOIN LATERAL (SELECT gen_random_bytes(16) AS iv, s.kept AS for_kept) v;
END $$;

CREATE OR REPLACE FUNCTION pit_lock_register() RETURNS VOID
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    PERFORM 1 FROM pit_tables WHERE id = 0 FOR UPDATE;
END $$;

CREATE OR REPLACE FUNCTION pit_origin_free(p_origin TEXT) RETURNS BOOLEAN
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT NOT EXISTS (SELECT 1 FROM pit_tables WHERE origin = p_origin AND owner_role <> session_user)
$$;

CREATE OR REPLACE FUNCTION pit_register(p_origin TEXT, p_origin_id BIGINT, p_name TEXT, p_game TEXT, p_profile TEXT,
                                        p_sha TEXT, p_source TEXT, p_created TEXT) RETURNS BIGINT
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    registered BIGINT;
BEGIN
    IF NOT pit_origin_free(p_origin) THEN
        RAISE EXCEPTION 'the tables of ledger % are another login''s', p_origin USING ERRCODE = 'insufficient_privilege';
    END IF;
    INSERT INTO pit_tables(origin, origin_id, name, game, profile, profile_sha256, card_source, created_at, owner_role)
        VALUES (p_origin, p_origin_id, p_name, p_game, p_profile, p_sha, p_source, p_created, session_user)
        ON CONFLICT (origin, origin_id) DO NOTHING;
    SELECT id INTO registered FROM pit_tables
        WHERE origin = p_origin AND origin_id = p_origin_id AND owner_role = session_user;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'table % of ledger % is another login''s', p_origin_id, p_origin
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN registered;
END $$;

CREATE OR REPLACE FUNCTION pit_round_open(p_table BIGINT, p_origin_round BIGINT, p_number BIGINT, p_profile TEXT,
                                          p_flags TEXT, p_started TEXT) RETURNS BIGINT
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    made BIGINT;
BEGIN
    IF NOT pit_own_table(p_table) THEN
        RAISE EXCEPTION 'table % is not this login''s', p_table USING ERRCODE = 'insufficient_privilege';
    END IF;
    INSERT INTO pit_rounds(table_id, origin_id, number, game, profile, status, flags, started_at)
        SELECT id, p_origin_round, p_number, game, p_profile, 'open', p_flags, p_started FROM pit_tables WHERE id = p_table
        RETURNING id INTO made;
    INSERT INTO pit_round_flags(flag, round_id)
        SELECT f, made FROM unnest(string_to_array(p_flags, ',')) AS f WHERE f <> '' ON CONFLICT DO NOTHING;
    RETURN made;
END $$;

CREATE OR REPLACE FUNCTION pit_seating(p_table BIGINT, p_taken BOOLEAN, p_seat BIGINT, p_player TEXT) RETURNS VOID
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    IF NOT pit_own_table(p_table) THEN
        RAISE EXCEPTION 'table % is not this login''s', p_table USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF p_taken THEN
        {seat_taken};
    ELSE
        {seat_left};
    END IF;
END $$;

CREATE OR REPLACE FUNCTION pit_round_update(p_round BIGINT, p_status TEXT, p_add_flags TEXT[], p_ended TEXT,
                                            p_totals BIGINT[], p_rows JSONB, p_chips BIGINT[], p_banking TEXT)
    RETURNS VOID
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    was pit_rounds%ROWTYPE;
    joined TEXT;
BEGIN
    IF NOT pit_own_round(p_round) THEN
        RAISE EXCEPTION 'round % is not this login''s', p_round USING ERRCODE = 'insufficient_privilege';
    END IF;
    SELECT * INTO was FROM pit_rounds WHERE id = p_round;
    SELECT string_agg(f, ',' ORDER BY f) INTO joined FROM (SELECT DISTINCT f FROM unnest(
        string_to_array(was.flags, ',') || p_add_flags) AS f WHERE f <> '') AS all_flags;
    UPDATE pit_rounds SET status = COALESCE(p_status, was.status), flags = COALESCE(joined, ''),
        ended_at = CASE WHEN p_status IS NOT NULL AND p_status <> 'open' THEN p_ended ELSE was.ended_at END
        WHERE id = p_round;
    INSERT INTO pit_round_flags(flag, round_id)
        SELECT f, p_round FROM unnest(p_add_flags) AS f WHERE f <> '' ON CONFLICT DO NOTHING;
    IF p_totals IS NOT NULL THEN
        UPDATE pit_rounds SET seats = p_totals[1], wagered = p_totals[2], paid = p_totals[3], house_result = p_totals[4]
            WHERE id = p_round;
        IF COALESCE(p_status, was.status) = 'voided' THEN
            UPDATE pit_rounds SET returned = wagered WHERE id = p_round;
        END IF;
    END IF;
    IF p_rows IS NOT NULL THEN
        INSERT INTO pit_settlements(round_id, seat, bet, stake, result, reason, role)
            SELECT p_round, (r ->> 'seat')::bigint, r ->> 'bet', (r ->> 'stake')::bigint, (r ->> 'result')::bigint,
                   r ->> 'reason', COALESCE(r ->> 'role', '') FROM jsonb_array_elements(p_rows) AS r;
        UPDATE pit_rounds SET paid = p_chips[1], returned = p_chips[2], from_stacks = p_chips[3], max_payout = p_chips[4],
            fees = p_chips[5], banking = p_banking WHERE id = p_round;
    END IF;
    IF COALESCE(p_status, was.status) IN ('settled', 'voided') AND was.status = 'open' THEN
        BEGIN  -- how long after it ended (the terminal's time) the round reached the server (the server's)
            -- by the round's own time, or, delivered just after its terminal was silent, since it went silent
            INSERT INTO pit_deliveries(round_id, ended_at, received_at, seconds)
                VALUES (p_round, p_ended, clock_timestamp(), GREATEST(
                        extract(epoch FROM clock_timestamp() - p_ended::timestamptz),
                        (SELECT MAX(extract(epoch FROM g.back - g.went_silent)) FROM pit_gaps g
                         WHERE g.origin = (SELECT t.origin FROM pit_tables t JOIN pit_rounds r ON r.table_id = t.id
                                           WHERE r.id = p_round)
                         AND g.back > clock_timestamp() - interval '10 seconds')))
                ON CONFLICT (round_id) DO NOTHING;
        EXCEPTION WHEN others THEN
            INSERT INTO pit_deliveries(round_id, ended_at, received_at, seconds)
                VALUES (p_round, COALESCE(p_ended, ''), clock_timestamp(), 'Infinity') ON CONFLICT (round_id) DO NOTHING;
        END;
    END IF;
    IF COALESCE(p_status, was.status) = 'settled' AND was.status <> 'settled' THEN
        {add_to_hour};
    END IF;
END $$;

DROP FUNCTION IF EXISTS pit_set_area(BIGINT, TEXT);
CREATE OR REPLACE FUNCTION pit_area(p_table BIGINT) RETURNS TEXT
LANGUAGE sql STABLE SET search_path = public, pg_temp AS $$
    -- a table's area: the last change a manager signed for it on the pit's chain (one from before
    -- areas were recorded so: the table's column)
    SELECT COALESCE((SELECT payload::jsonb ->> 'area' FROM pit_events WHERE table_id = 0 AND kind = 'area_changed'
                     AND payload::jsonb ->> 'table' = p_table::text ORDER BY seq DESC LIMIT 1),
                    (SELECT area FROM pit_tables WHERE id = p_table), '')
$$;

CREATE OR REPLACE FUNCTION pit_late_seconds() RETURNS DOUBLE PRECISION
LANGUAGE sql STABLE SET search_path = public, pg_temp AS $$
    -- the floor's setting, as a manager last set it on the pit's register (10 minutes unless set)
    SELECT 60.0 * COALESCE((SELECT (payload::jsonb -> 'settings' ->> 'late_delivery_minutes')::int FROM pit_events
        WHERE table_id = 0 AND kind = 'floor_settings_changed'
        AND jsonb_typeof(payload::jsonb -> 'settings' -> 'late_delivery_minutes') = 'number'
        ORDER BY seq DESC LIMIT 1), 10)
$$;

CREATE OR REPLACE FUNCTION pit_own_table(p_table BIGINT) RETURNS BOOLEAN
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT EXISTS (SELECT 1 FROM pit_tables WHERE id = p_table AND id <> 0 AND owner_role = session_user)
$$;
CREATE OR REPLACE FUNCTION pit_own_round(p_round BIGINT) RETURNS BOOLEAN
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT EXISTS (SELECT 1 FROM pit_rounds r JOIN pit_tables t ON t.id = r.table_id
                   WHERE r.id = p_round AND t.id <> 0 AND t.owner_role = session_user)
$$;

CREATE OR REPLACE FUNCTION pit_contact(p_origin TEXT, p_terminal TEXT, p_host TEXT, p_closed BOOLEAN) RETURNS VOID
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    IF NOT pit_origin_free(p_origin) THEN
        RAISE EXCEPTION 'the tables of ledger % are another login''s', p_origin USING ERRCODE = 'insufficient_privilege';
    END IF;
    -- a terminal heard from again after more than 30 s of silence: the gap is kept (what it delivers
    -- now was held back meanwhile, whatever times its events say)
    INSERT INTO pit_gaps(origin, went_silent, back)
        SELECT origin, last_contact, clock_timestamp() FROM pit_links
        WHERE origin = p_origin AND last_contact < clock_timestamp() - interval '30 seconds';
    INSERT INTO pit_links(origin, terminal, host, last_contact, closed)
        VALUES (p_origin, p_terminal, p_host, clock_timestamp(), p_closed)
    ON CONFLICT (origin) DO UPDATE SET terminal = EXCLUDED.terminal, host = EXCLUDED.host,
        last_contact = EXCLUDED.last_contact, closed = EXCLUDED.closed;
END $$;

CREATE OR REPLACE FUNCTION pit_alarm(p_origin TEXT, p_table TEXT, p_message TEXT) RETURNS VOID
LANGUAGE sql SECURITY DEFINER SET search_path = public, pg_temp AS $$
    -- kept with the login that raised it: an alarm speaks of the terminal that raised it
    INSERT INTO pit_alarms(origin, table_name, message)
        VALUES (p_origin, p_table, left(p_message || ' [raised by login ' || session_user || ']', 2000))
$$;
