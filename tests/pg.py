"""A throwaway PostgreSQL server for the tests: one per test process, a database per test.

The store's, the scheduler's and the service's tests run against SQLite and against a real
PostgreSQL server. This module starts that server for them (fixtures below, imported by the
conftests):

* :func:`pg_cluster` (session scope) makes a cluster in a new temporary folder with
  ``initdb`` and runs ``postgres`` on a unix socket in that folder only (no TCP port), with
  everything that makes it durable turned off (``fsync``, ``synchronous_commit``,
  ``full_page_writes``): a test database is thrown away anyway. Each pytest-xdist worker is
  its own process and so gets its own cluster, folder and socket. PostgreSQL refuses to run
  as root, so when the tests run as root the server runs as the ``postgres`` system user
  (the folder is handed to it). The server is stopped (``pg_ctl stop -m immediate``) and the
  folder removed at the end of the session, by ``atexit`` as well (Ctrl-C), and the server
  gets SIGQUIT (PostgreSQL's immediate shutdown) if the test process itself is killed.
* :meth:`PgCluster.create_database` gives one test a database of its own: migrated to
  the head (a copy of a template database migrated once per cluster: ``CREATE DATABASE …
  TEMPLATE`` copies its files, faster than migrating again), or empty for the migration
  tests. :meth:`PgCluster.release_database` empties a migrated one after the test (every
  row deleted, ids restarted, other connections ended: about 15 ms, where a new copy
  takes 100 to 250 ms) so the next test gets it as new; :meth:`PgCluster.drop_database`
  removes one whose schema a test changed.

Without the PostgreSQL binaries (``initdb``, ``pg_ctl``, ``postgres``, version 13 or newer,
looked for on ``PATH``, in ``/usr/local/bin`` and in ``/usr/lib/postgresql/*/bin``, or only
in the folder ``MONOPOLY_POSTGRES_BIN`` names) the PostgreSQL half is skipped with the
reason "PostgreSQL 15 binaries not found (…)"; with ``MONOPOLY_REQUIRE_POSTGRES=1`` in the
environment (CI sets it) it fails instead.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import glob
import itertools
import os
import pwd
import re
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import asyncpg
import pytest

from bot.store.migrate import head_version, migrate_postgres

#: Set to 1 (CI does) to fail, not skip, when PostgreSQL cannot be started.
REQUIRE_ENV = "MONOPOLY_REQUIRE_POSTGRES"
#: A folder with the binaries to use instead of searching (e.g. another version's).
BIN_ENV = "MONOPOLY_POSTGRES_BIN"
#: The programs the cluster needs, all from one installation.
TOOLS = ("initdb", "pg_ctl", "postgres", "pg_isready")
#: The oldest major version the schema and these helpers use (DROP DATABASE … FORCE).
MIN_MAJOR = 13
#: The template database that holds the migrated schema.
TEMPLATE = "monopoly_template"
#: The port only names the socket file (``.s.PGSQL.<port>``); there is no TCP listener.
PORT = 5432
#: Seconds to wait for the server to accept connections.
START_TIMEOUT = 30.0

# PR_SET_PDEATHSIG from <linux/prctl.h>: the signal a process gets when its parent dies.
_PR_SET_PDEATHSIG = 1


def _search_path() -> list[str]:
    """Folders to look for the binaries in: MONOPOLY_POSTGRES_BIN alone if it is set, else
    PATH, /usr/local/bin, then every installed version under /usr/lib/postgresql (newest
    first)."""
    chosen = os.environ.get(BIN_ENV, "").strip()
    if chosen:
        return [chosen]
    found = [p for p in os.environ.get("PATH", "").split(os.pathsep) if p]
    found.append("/usr/local/bin")
    versions = glob.glob("/usr/lib/postgresql/*/bin")
    found += sorted(versions, key=lambda p: int(re.sub(r"\D", "", p) or 0), reverse=True)
    return found


def find_bindir() -> tuple[Path | None, str]:
    """The folder with all of :data:`TOOLS` (symlinks followed), or None and why not."""
    postgres = shutil.which("postgres", path=os.pathsep.join(_search_path()))
    if postgres is None:
        return None, "no postgres program"
    bindir = Path(postgres).resolve().parent
    missing = [tool for tool in TOOLS if not (bindir / tool).exists()]
    if missing:
        return None, f"{', '.join(missing)} missing next to {bindir / 'postgres'}"
    try:
        version = subprocess.run(
            [str(bindir / "postgres"), "--version"],
            capture_output=True,
            text=True,
            timeout=30,
            check=True,
        ).stdout
    except (OSError, subprocess.SubprocessError) as error:
        return None, f"{bindir / 'postgres'} --version failed: {error}"
    match = re.search(r"(\d+)(?:\.\d+)?", version)
    if match is None or int(match[1]) < MIN_MAJOR:
        return None, f"{bindir / 'postgres'} is too old: {version.strip()}"
    return bindir, version.strip()


def _not_found(reason: str) -> str:
    where = ", ".join(_search_path())
    return (
        f"PostgreSQL 15 binaries not found ({reason}; looked in {where}); the PostgreSQL "
        f"half of the store tests needs initdb, pg_ctl and postgres (or {BIN_ENV}=folder; "
        f"{REQUIRE_ENV}=1 makes this a failure)"
    )


def skip_or_fail(reason: str) -> None:
    """Skip the calling test with ``reason``, or fail it if PostgreSQL is required."""
    if os.environ.get(REQUIRE_ENV, "").strip() not in ("", "0"):
        pytest.fail(f"{REQUIRE_ENV} is set, but: {reason}", pytrace=False)
    pytest.skip(reason)


class PgCluster:
    """A PostgreSQL cluster in a temporary folder, for one test process."""

    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.root: Path | None = None
        self.process: subprocess.Popen[bytes] | None = None
        self._numbers = itertools.count(1)
        self._template_ready = False
        # Migrated databases emptied after their test, ready for the next one.
        self._idle: list[str] = []
        self._reset_sql = ""
        # The server must not run as root: demote it to the postgres user if we are root.
        self._user: pwd.struct_passwd | None = None
        if os.geteuid() == 0:
            self._user = pwd.getpwnam("postgres")  # KeyError: no such user

    @property
    def socket_dir(self) -> Path:
        """The folder holding the server's socket."""
        assert self.root is not None
        return self.root / "sock"

    def url(self, database: str) -> str:
        """A URL of ``database`` on this cluster (over the socket, no password)."""
        return f"postgresql://postgres@/{database}?host={self.socket_dir}&port={PORT}"

    def _as_server_user(self) -> dict[str, object]:
        """Popen options that run a program as the server's user (nothing if not root)."""
        if self._user is None:
            return {}
        return {"user": self._user.pw_uid, "group": self._user.pw_gid, "extra_groups": []}

    def _env(self) -> dict[str, str]:
        # A clean environment: PGDATA, PGHOST and the like of the caller must not leak in.
        return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C", "LANG": "C"}

    def start(self) -> None:
        """initdb a new cluster and start its server; wait until it accepts connections."""
        self.root = Path(tempfile.mkdtemp(prefix="monopoly-pg-"))
        atexit.register(self.stop)
        data, log = self.root / "data", self.root / "server.log"
        self.socket_dir.mkdir()
        if self._user is not None:
            for path in (self.root, self.socket_dir):
                os.chown(path, self._user.pw_uid, self._user.pw_gid)
        initdb = subprocess.run(
            [
                str(self.bindir / "initdb"),
                "-D",
                str(data),
                "-A",
                "trust",
                "-U",
                "postgres",
                "-E",
                "UTF8",
                "--locale=C",
                "--no-sync",
            ],
            cwd=self.root,
            env=self._env(),
            capture_output=True,
            text=True,
            timeout=120,
            **self._as_server_user(),  # type: ignore[arg-type]
        )
        if initdb.returncode != 0:
            raise RuntimeError(f"initdb failed:\n{initdb.stdout}\n{initdb.stderr}")
        libc = ctypes.CDLL(None, use_errno=True)
        prctl = libc.prctl  # looked up before the fork: the child only calls it

        def die_with_parent() -> None:
            # After the switch to the server's user (a change of user clears the setting):
            # if this test process is killed, the server shuts down at once (SIGQUIT).
            prctl(_PR_SET_PDEATHSIG, signal.SIGQUIT)

        with open(log, "wb") as log_file:
            self.process = subprocess.Popen(
                [
                    str(self.bindir / "postgres"),
                    "-D",
                    str(data),
                    "-F",
                    "-k",
                    str(self.socket_dir),
                    "-p",
                    str(PORT),
                    "-c",
                    "listen_addresses=",
                    "-c",
                    "fsync=off",
                    "-c",
                    "synchronous_commit=off",
                    "-c",
                    "full_page_writes=off",
                    "-c",
                    "max_connections=200",
                    "-c",
                    "shared_buffers=32MB",
                ],
                cwd=self.root,
                env=self._env(),
                stdin=subprocess.DEVNULL,
                stdout=log_file,
                stderr=subprocess.STDOUT,
                preexec_fn=die_with_parent,
                **self._as_server_user(),  # type: ignore[arg-type]
            )
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            # The default port (5432) names the socket file, as the server's -p does.
            ready = subprocess.run(
                [str(self.bindir / "pg_isready"), "-q", "-h", str(self.socket_dir)],
                env=self._env(),
                timeout=30,
            )
            if ready.returncode == 0:
                return
            if self.process.poll() is not None or time.monotonic() > deadline:
                text = log.read_text(errors="replace") if log.exists() else ""
                self.stop()
                raise RuntimeError(f"the PostgreSQL server did not start:\n{text}")
            time.sleep(0.05)

    def stop(self) -> None:
        """Stop the server at once and remove the cluster's folder (safe to call twice)."""
        if self.root is None:
            return
        root, self.root = self.root, None
        process, self.process = self.process, None
        if process is not None and process.poll() is None:
            with contextlib.suppress(OSError, subprocess.SubprocessError):
                subprocess.run(
                    [str(self.bindir / "pg_ctl"), "stop", "-D", str(root / "data"), "-m", "i"],
                    env=self._env(),
                    capture_output=True,
                    timeout=30,
                    **self._as_server_user(),  # type: ignore[arg-type]
                )
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)
        shutil.rmtree(root, ignore_errors=True)

    async def _admin(self) -> asyncpg.Connection:
        return await asyncpg.connect(self.url("postgres"))

    async def create_database(self, *, migrated: bool = True) -> tuple[str, str]:
        """A database for one test: ``(url, name)``; migrated to the head, or empty.

        A migrated one may be one an earlier test used, emptied by
        :meth:`release_database`: no row, ids start at 1 again.
        """
        if migrated and self._idle:
            name = self._idle.pop()
            return self.url(name), name
        name = f"t_{os.getpid()}_{next(self._numbers)}"
        admin = await self._admin()
        try:
            if migrated and not self._template_ready:
                await admin.execute(f"CREATE DATABASE {TEMPLATE}")
                template = await asyncpg.connect(self.url(TEMPLATE))
                try:
                    await migrate_postgres(template, now=_utc_now)
                    self._reset_sql = await _reset_sql(template)
                finally:
                    await template.close()
                self._template_ready = True
            # FILE_COPY copies the template's files (PostgreSQL 15's default, WAL_LOG,
            # writes them through the log: slower for many small databases).
            strategy = " STRATEGY FILE_COPY" if await _major(admin) >= 15 else ""
            source = TEMPLATE if migrated else "template0"
            await admin.execute(f"CREATE DATABASE {name} TEMPLATE {source}{strategy}")
        finally:
            await admin.close()
        return self.url(name), name

    async def release_database(self, name: str) -> None:
        """A test is done with a migrated database: empty it for the next test.

        Ends the connections the test left open, deletes every row (with triggers and
        foreign keys off for this session: the action log is append-only otherwise) and
        restarts the ids. A database whose schema is no longer at the head (a test
        migrated or damaged it) is dropped instead.
        """
        try:
            conn = await asyncpg.connect(self.url(name))
            try:
                await conn.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )
                version = await conn.fetchval("SELECT max(version) FROM schema_version")
                if version != head_version("postgres"):
                    raise RuntimeError(f"schema version {version}")
                await conn.execute(self._reset_sql)
            finally:
                await conn.close()
        except (OSError, asyncpg.PostgresError, RuntimeError):
            await self.drop_database(name)
            return
        self._idle.append(name)

    async def drop_database(self, name: str) -> None:
        """Remove a test's database, closing connections a test left open."""
        admin = await self._admin()
        try:
            await admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        finally:
            await admin.close()


def _utc_now() -> datetime:
    return datetime.now(UTC)


async def _reset_sql(conn: asyncpg.Connection) -> str:
    """The statements that empty a database of the migrated schema (see
    :meth:`PgCluster.release_database`); ``schema_version`` stays."""
    tables = [
        row[0]
        for row in await conn.fetch(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
            " AND tablename <> 'schema_version' ORDER BY 1"
        )
    ]
    identities = await conn.fetch(
        "SELECT table_name, column_name FROM information_schema.columns"
        " WHERE table_schema = 'public' AND is_identity = 'YES' ORDER BY 1"
    )
    return "; ".join(
        [
            # Replica mode: no triggers, no foreign key checks (superuser only).
            "SET session_replication_role = replica",
            *(f"DELETE FROM {table}" for table in tables),
            *(f"ALTER TABLE {table} ALTER COLUMN {column} RESTART" for table, column in identities),
        ]
    )


async def _major(conn: asyncpg.Connection) -> int:
    return int(await conn.fetchval("SHOW server_version_num")) // 10000


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[PgCluster]:
    """This test process's PostgreSQL cluster (started on first use, removed at the end).

    Skips the test (or fails it, with ``MONOPOLY_REQUIRE_POSTGRES=1``) if PostgreSQL is
    not installed or cannot run here.
    """
    bindir, found = find_bindir()
    if bindir is None:
        skip_or_fail(_not_found(found))
    assert bindir is not None
    try:
        cluster = PgCluster(bindir)
    except KeyError:
        skip_or_fail("PostgreSQL cannot run as root and there is no 'postgres' user to run it as")
    cluster.start()
    try:
        yield cluster
    finally:
        cluster.stop()
