-- PostgreSQL's version of migration 0003: durable timers (turn deadlines, reminders,
-- auction and trade closing times, the end of a time-limited game). A timer is pending
-- while both fired_at and cancelled_at are NULL.

CREATE TABLE timers (
    id           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,  -- ids are never reused
    game_id      BIGINT      NOT NULL REFERENCES games (id),
    kind         TEXT        NOT NULL,
    due_at       TIMESTAMPTZ NOT NULL,  -- an instant: no text form to keep, unlike SQLite
    payload_json TEXT        NOT NULL DEFAULT '{}'
                 CHECK (json_typeof(payload_json::json) = 'object'),
    key          TEXT,                  -- optional dedupe key, e.g. 'turn:17'
    created_at   TIMESTAMPTZ NOT NULL,
    fired_at     TIMESTAMPTZ,           -- claimed by the scheduler (handled or not)
    cancelled_at TIMESTAMPTZ            -- replaced, cancelled, or its game ended
);

-- The scheduler's queries: the earliest pending timers.
CREATE INDEX timers_pending ON timers (due_at) WHERE fired_at IS NULL AND cancelled_at IS NULL;

-- At most one pending timer per (game, key); fired and cancelled ones stay as history.
CREATE UNIQUE INDEX timers_pending_key ON timers (game_id, key)
    WHERE key IS NOT NULL AND fired_at IS NULL AND cancelled_at IS NULL;

CREATE INDEX timers_game ON timers (game_id);

-- Pending timers belong to open games only, whichever code writes the database: a game
-- that ends (finished by a player or by the rules, or set aside as broken) takes its
-- pending timers with it in the same transaction, and no pending timer can be added to a
-- game that is not open.
CREATE FUNCTION games_end_cancels_timers() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE timers SET cancelled_at = NEW.updated_at
    WHERE game_id = NEW.id AND fired_at IS NULL AND cancelled_at IS NULL;
    RETURN NULL;
END;
$$;

CREATE TRIGGER games_end_cancels_timers AFTER UPDATE OF status ON games
    FOR EACH ROW WHEN (NEW.status NOT IN ('lobby', 'running'))
    EXECUTE FUNCTION games_end_cancels_timers();

-- Unlike SQLite, PostgreSQL runs writers side by side, so the check locks the game's row
-- (FOR SHARE): a transaction ending the game meanwhile waits for this insert and then
-- cancels the new timer as well, or has ended it already and this insert is refused.
CREATE FUNCTION timers_only_for_open_games() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM 1 FROM games WHERE id = NEW.game_id AND status IN ('lobby', 'running') FOR SHARE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'timers are only for lobbies and running games'
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END;
$$;

CREATE TRIGGER timers_only_for_open_games BEFORE INSERT ON timers
    FOR EACH ROW WHEN (NEW.fired_at IS NULL AND NEW.cancelled_at IS NULL)
    EXECUTE FUNCTION timers_only_for_open_games();
