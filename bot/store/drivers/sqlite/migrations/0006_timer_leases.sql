-- Timers fire at least once (bot/scheduler.py): the scheduler takes a *lease* on a
-- timer before running its handler and marks it fired (fired_at) only after the
-- handler finished. A process that dies meanwhile leaves the lease behind; once
-- leased_until has passed the timer is due again. A failing handler leaves the timer
-- pending with leased_until set to when it may be tried again (a back-off).
--
-- A timer is still pending while fired_at and cancelled_at are NULL, leased or not,
-- so the unique index on pending keys and the triggers of migration 0003 keep their
-- meaning: scheduling a key again cancels the pending timer, leased or not.

-- When the current lease (or back-off) ends: UTC ISO 8601 text like due_at, because
-- the store compares the two as text. NULL: nobody holds the timer.
ALTER TABLE timers ADD COLUMN leased_until TEXT CHECK (leased_until IS NULL OR leased_until GLOB
    '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]*+00:00');

-- How many times the timer was taken (leases granted), failed and crashed runs included.
ALTER TABLE timers ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0);
