-- PostgreSQL's version of migration 0005: files a server's admins uploaded (board themes,
-- kind 'theme', and whole boards, kind 'board'), each a JSON object checked by
-- bot.engine.themes before it is stored. item_id sorts byte by byte (COLLATE "C"), as
-- SQLite sorts text, whatever the database's own collation.

CREATE TABLE guild_files (
    guild_id    BIGINT      NOT NULL,
    kind        TEXT        NOT NULL CHECK (kind IN ('theme', 'board')),
    item_id     TEXT        COLLATE "C" NOT NULL,
    data_json   TEXT        NOT NULL CHECK (json_typeof(data_json::json) = 'object'),
    uploaded_by BIGINT      NOT NULL,
    uploaded_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (guild_id, kind, item_id)
);
