-- PostgreSQL's version of migration 0008: a version for the game's settings. Every
-- settings write adds one, and a writer may name the version it read (expected_version),
-- so a read-modify-write never overwrites a change it has not seen, in any process.

ALTER TABLE games ADD COLUMN settings_version BIGINT NOT NULL DEFAULT 0
    CHECK (settings_version >= 0);
