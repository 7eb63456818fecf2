-- PostgreSQL's version of migration 0007: small records of the bot process itself, one
-- text value per key (e.g. the fingerprint of the slash commands last synced).

CREATE TABLE bot_meta (
    key        TEXT        COLLATE "C" PRIMARY KEY,
    value      TEXT        NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL
);
