-- PostgreSQL's version of migration 0004: preferences of a Discord user that hold across
-- games and servers, e.g. whether the bot may send them reminders by direct message.

CREATE TABLE user_prefs (
    user_id    BIGINT      PRIMARY KEY,
    prefs_json TEXT        NOT NULL DEFAULT '{}'
               CHECK (json_typeof(prefs_json::json) = 'object'),
    updated_at TIMESTAMPTZ NOT NULL
);
