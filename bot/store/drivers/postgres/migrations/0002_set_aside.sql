-- PostgreSQL's version of migration 0002: games whose stored state cannot be read are set
-- aside with the error instead of stopping the bot (a 'broken' status, which frees the
-- channel, and the error text). PostgreSQL changes a CHECK constraint in place, so the
-- table is not rebuilt. The action log is made append-only in the database itself.

ALTER TABLE games DROP CONSTRAINT games_status_check;
ALTER TABLE games ADD CONSTRAINT games_status_check
    CHECK (status IN ('lobby', 'running', 'finished', 'broken'));
ALTER TABLE games ADD COLUMN broken_error TEXT;  -- why the state could not be read

CREATE INDEX games_status ON games (status);

CREATE FUNCTION actions_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'the action log is append-only' USING ERRCODE = 'restrict_violation';
END;
$$;

CREATE TRIGGER actions_no_update BEFORE UPDATE ON actions
    FOR EACH ROW EXECUTE FUNCTION actions_append_only();

CREATE TRIGGER actions_no_delete BEFORE DELETE ON actions
    FOR EACH ROW EXECUTE FUNCTION actions_append_only();

-- TRUNCATE skips row triggers; SQLite has no such statement, PostgreSQL needs this one.
CREATE TRIGGER actions_no_truncate BEFORE TRUNCATE ON actions
    FOR EACH STATEMENT EXECUTE FUNCTION actions_append_only();
