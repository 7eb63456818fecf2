-- Durable timers: turn deadlines, reminders, auction and trade closing times, the
-- end of a time-limited game. The scheduler (bot/scheduler.py) sleeps until the
-- earliest pending one and fires it; a timer is pending while both fired_at and
-- cancelled_at are NULL, and it is claimed (fired_at set) before it is handled, so
-- it fires at most once even across restarts.

CREATE TABLE timers (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,  -- ids are never reused
    game_id      INTEGER NOT NULL REFERENCES games (id),
    kind         TEXT    NOT NULL,
    -- UTC ISO 8601 text, as the store writes all times; the check keeps it so,
    -- because comparing due times as text is only right for this one form.
    due_at       TEXT    NOT NULL CHECK (due_at GLOB
        '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]*+00:00'),
    payload_json TEXT    NOT NULL DEFAULT '{}'
                 CHECK (json_valid(payload_json) AND json_type(payload_json) = 'object'),
    key          TEXT,              -- optional dedupe key, e.g. 'turn:17'
    created_at   TEXT    NOT NULL,
    fired_at     TEXT,              -- claimed by the scheduler (handled or not)
    cancelled_at TEXT               -- replaced, cancelled, or its game ended
);

-- The scheduler's queries: the earliest pending timers.
CREATE INDEX timers_pending ON timers (fired_at, cancelled_at, due_at);

-- At most one pending timer per (game, key); fired and cancelled ones stay as
-- history, so the constraint cannot cover them.
CREATE UNIQUE INDEX timers_pending_key ON timers (game_id, key)
    WHERE key IS NOT NULL AND fired_at IS NULL AND cancelled_at IS NULL;

CREATE INDEX timers_game ON timers (game_id);

-- Pending timers belong to open games only, whichever code writes the database:
-- a game that ends (finished by a player or by the rules, or set aside as broken)
-- takes its pending timers with it in the same transaction, and no pending timer
-- can be added to a game that is not open. (A future migration that rebuilds the
-- games table must create the first trigger again.)
CREATE TRIGGER games_end_cancels_timers AFTER UPDATE OF status ON games
    WHEN NEW.status NOT IN ('lobby', 'running')
BEGIN
    UPDATE timers SET cancelled_at = NEW.updated_at
    WHERE game_id = NEW.id AND fired_at IS NULL AND cancelled_at IS NULL;
END;

CREATE TRIGGER timers_only_for_open_games BEFORE INSERT ON timers
    WHEN NEW.fired_at IS NULL AND NEW.cancelled_at IS NULL AND NOT EXISTS (
        SELECT 1 FROM games WHERE id = NEW.game_id AND status IN ('lobby', 'running')
    )
BEGIN
    SELECT RAISE(ABORT, 'timers are only for lobbies and running games');
END;
