-- Themes a server's admins uploaded (/monopoly theme upload): a JSON object checked by
-- bot.engine.themes.theme_from_dict before it is stored. A lobby copies the theme into its
-- settings, so removing or replacing a theme never changes a game that uses it.

CREATE TABLE guild_themes (
    guild_id    INTEGER NOT NULL,
    theme_id    TEXT    NOT NULL,
    data_json   TEXT    NOT NULL
                CHECK (json_valid(data_json) AND json_type(data_json) = 'object'),
    uploaded_by INTEGER NOT NULL,
    uploaded_at TEXT    NOT NULL,
    PRIMARY KEY (guild_id, theme_id)
);
