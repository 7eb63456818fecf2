-- Small records of the bot process itself, one text value per key: e.g. the fingerprint
-- of the slash commands last synced to Discord (bot/command_sync.py, keys
-- 'commands:global' and 'commands:guild:<id>'), so a start syncs only when the commands
-- changed. Nothing here belongs to a game; losing a row only costs one extra sync.

CREATE TABLE bot_meta (
    key        TEXT PRIMARY KEY,
    value      TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
