-- Games, one unfinished game per channel (or thread), and each game's append-only
-- log of accepted actions. Times are ISO 8601 text in UTC; JSON is the engine's
-- canonical form.

CREATE TABLE games (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,  -- ids are never reused
    guild_id        INTEGER NOT NULL,
    channel_id      INTEGER NOT NULL,
    created_by      INTEGER,
    status          TEXT    NOT NULL CHECK (status IN ('lobby', 'running', 'finished')),
    created_at      TEXT    NOT NULL,
    updated_at      TEXT    NOT NULL,
    -- The game's version: GameState.seq of state_json. A write names the seq it
    -- read, so a write based on a stale read changes nothing.
    seq             INTEGER NOT NULL DEFAULT 0,
    state_json      TEXT,             -- NULL while the game is a lobby
    start_json      TEXT,             -- the record's start: the state before action 1
    settings_json   TEXT    NOT NULL DEFAULT '{}',
    finished_reason TEXT
);

-- At most one lobby or running game per channel; finished games stay as history.
CREATE UNIQUE INDEX games_open_channel ON games (channel_id)
    WHERE status IN ('lobby', 'running');

CREATE INDEX games_guild ON games (guild_id, status);

-- seq is the game's seq after the action, so a game's actions are start.seq + 1,
-- start.seq + 2, ... up to games.seq.
CREATE TABLE actions (
    game_id     INTEGER NOT NULL REFERENCES games (id),
    seq         INTEGER NOT NULL,
    action_json TEXT    NOT NULL,
    dice_json   TEXT    NOT NULL,
    events_json TEXT    NOT NULL,
    at          TEXT    NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
