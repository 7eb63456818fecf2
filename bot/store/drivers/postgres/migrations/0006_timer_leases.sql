-- PostgreSQL's version of migration 0006: timers fire at least once. The scheduler takes
-- a lease on a timer before running its handler and marks it fired only after the
-- handler finished; a process that dies leaves the lease, and once leased_until has
-- passed the timer is due again (in any process). A failing handler leaves the timer
-- pending with leased_until set to when it may be tried again (a back-off).

-- When the current lease (or back-off) ends; NULL: nobody holds the timer.
ALTER TABLE timers ADD COLUMN leased_until TIMESTAMPTZ;

-- How many times the timer was taken (leases granted), failed and crashed runs included.
ALTER TABLE timers ADD COLUMN attempts BIGINT NOT NULL DEFAULT 0 CHECK (attempts >= 0);
