-- PostgreSQL's version of migration 0001 (same number, same meaning as the SQLite file):
-- games, one unfinished game per channel (or thread), and each game's append-only log of
-- accepted actions.
--
-- Dialect choices for every PostgreSQL migration: ids and numbers are BIGINT (SQLite's
-- INTEGER is 64-bit, and the store accepts ids in that range); times are TIMESTAMPTZ
-- (instants, compared as times, not as text); JSON is TEXT holding the engine's canonical
-- form, not jsonb, because the store hands back exactly what it was given (jsonb would
-- re-render numbers, e.g. 1e300 as a 301-digit integer, and refuses the \u0000 escape).

CREATE TABLE games (
    id              BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,  -- ids are never reused
    guild_id        BIGINT      NOT NULL,
    channel_id      BIGINT      NOT NULL,
    created_by      BIGINT,
    status          TEXT        NOT NULL
                    CONSTRAINT games_status_check
                    CHECK (status IN ('lobby', 'running', 'finished')),
    created_at      TIMESTAMPTZ NOT NULL,
    updated_at      TIMESTAMPTZ NOT NULL,
    -- The game's version: GameState.seq of state_json. A write names the seq it
    -- read, so a write based on a stale read changes nothing.
    seq             BIGINT      NOT NULL DEFAULT 0,
    state_json      TEXT,                -- NULL while the game is a lobby
    start_json      TEXT,                -- the record's start: the state before action 1
    settings_json   TEXT        NOT NULL DEFAULT '{}',
    finished_reason TEXT
);

-- At most one lobby or running game per channel; finished games stay as history.
CREATE UNIQUE INDEX games_open_channel ON games (channel_id)
    WHERE status IN ('lobby', 'running');

CREATE INDEX games_guild ON games (guild_id, status);

-- seq is the game's seq after the action, so a game's actions are start.seq + 1,
-- start.seq + 2, ... up to games.seq.
CREATE TABLE actions (
    game_id     BIGINT      NOT NULL REFERENCES games (id),
    seq         BIGINT      NOT NULL,
    action_json TEXT        NOT NULL,
    dice_json   TEXT        NOT NULL,
    events_json TEXT        NOT NULL,
    at          TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (game_id, seq)
);
