-- Files a server's admins uploaded: board themes (kind 'theme', /monopoly theme upload) and
-- whole boards (kind 'board', /monopoly edition upload), each a JSON object checked by
-- bot.engine.themes before it is stored. A lobby copies what it uses into its settings and a
-- game carries its board in its own state, so removing or replacing a file never changes a
-- game that uses it.

CREATE TABLE guild_files (
    guild_id    INTEGER NOT NULL,
    kind        TEXT    NOT NULL CHECK (kind IN ('theme', 'board')),
    item_id     TEXT    NOT NULL,
    data_json   TEXT    NOT NULL
                CHECK (json_valid(data_json) AND json_type(data_json) = 'object'),
    uploaded_by INTEGER NOT NULL,
    uploaded_at TEXT    NOT NULL,
    PRIMARY KEY (guild_id, kind, item_id)
);
