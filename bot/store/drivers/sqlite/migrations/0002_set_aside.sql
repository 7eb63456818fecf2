-- Games whose stored state cannot be read are set aside with the error instead of
-- stopping the bot: a 'broken' status (it frees the channel) and the error text.
-- SQLite cannot change a CHECK constraint, so the games table is rebuilt (the
-- procedure of https://sqlite.org/lang_altertable.html#otheralter; the migration
-- runner keeps foreign keys off and checks them before committing).
-- The action log is made append-only in the database itself.

CREATE TABLE games_new (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id        INTEGER NOT NULL,
    channel_id      INTEGER NOT NULL,
    created_by      INTEGER,
    status          TEXT    NOT NULL
                    CHECK (status IN ('lobby', 'running', 'finished', 'broken')),
    created_at      TEXT    NOT NULL,
    updated_at      TEXT    NOT NULL,
    seq             INTEGER NOT NULL DEFAULT 0,
    state_json      TEXT,
    start_json      TEXT,
    settings_json   TEXT    NOT NULL DEFAULT '{}',
    finished_reason TEXT,
    broken_error    TEXT              -- why the state could not be read
);

INSERT INTO games_new (
    id, guild_id, channel_id, created_by, status, created_at, updated_at, seq,
    state_json, start_json, settings_json, finished_reason
)
SELECT
    id, guild_id, channel_id, created_by, status, created_at, updated_at, seq,
    state_json, start_json, settings_json, finished_reason
FROM games;

DROP TABLE games;
ALTER TABLE games_new RENAME TO games;

CREATE UNIQUE INDEX games_open_channel ON games (channel_id)
    WHERE status IN ('lobby', 'running');
CREATE INDEX games_guild ON games (guild_id, status);
CREATE INDEX games_status ON games (status);

CREATE TRIGGER actions_no_update BEFORE UPDATE ON actions
BEGIN
    SELECT RAISE(ABORT, 'the action log is append-only');
END;

CREATE TRIGGER actions_no_delete BEFORE DELETE ON actions
BEGIN
    SELECT RAISE(ABORT, 'the action log is append-only');
END;
