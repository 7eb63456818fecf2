-- Preferences of a Discord user that hold across games and servers, e.g. whether
-- the bot may send them reminders by direct message (/monopoly notify).

CREATE TABLE user_prefs (
    user_id    INTEGER PRIMARY KEY,
    prefs_json TEXT    NOT NULL DEFAULT '{}'
               CHECK (json_valid(prefs_json) AND json_type(prefs_json) = 'object'),
    updated_at TEXT    NOT NULL
);
