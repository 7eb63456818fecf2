-- A version for the game's settings: every settings write adds one, and a writer may name
-- the version it read (expected_version), so a read-modify-write never overwrites a change
-- it has not seen, in this process or another (GameStore.patch_settings, set_settings).
-- Adding a column does not rebuild the games table, so the triggers of 0003 stay.

ALTER TABLE games ADD COLUMN settings_version INTEGER NOT NULL DEFAULT 0
    CHECK (settings_version >= 0);
