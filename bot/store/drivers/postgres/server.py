"""A throwaway PostgreSQL server: its own cluster in a new folder, removed afterwards.

Used by ``monopoly-bot bench --store`` (a server on loopback TCP, for figures "on
loopback") and by the tests (``tests/pg.py``: a server on a unix socket only, with
durability off). It lives here, not in ``tests/``, because the command line must not
import the tests; both share this one copy of the fiddly parts (finding the binaries,
running the server as the ``postgres`` user when we are root, stopping it with its
parent).

:class:`PgServer` makes a cluster with ``initdb`` (trust authentication, user
``postgres``, UTF-8, locale C) in a new folder and runs ``postgres`` on a unix socket in
that folder, and on ``127.0.0.1`` if asked (a free port by default). PostgreSQL refuses to
run as root, so when we are root the server runs as the ``postgres`` system user (the
folder is handed to it). The server is stopped (``pg_ctl stop -m immediate``) and the
folder removed by :meth:`PgServer.stop`, by ``atexit`` as well (Ctrl-C), and the server
gets SIGQUIT (PostgreSQL's immediate shutdown) if the thread that started it dies: start
it from the main thread.

The binaries (``initdb``, ``pg_ctl``, ``postgres``, ``pg_isready``, version 13 or newer)
are looked for on ``PATH``, in ``/usr/local/bin`` and in ``/usr/lib/postgresql/*/bin``, or
only in the folder ``MONOPOLY_POSTGRES_BIN`` names (:func:`find_bindir`).
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import glob
import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from types import TracebackType
from typing import Any, Self

#: A folder with the binaries to use instead of searching (e.g. another version's).
BIN_ENV = "MONOPOLY_POSTGRES_BIN"
#: The programs a server needs, all from one installation.
TOOLS = ("initdb", "pg_ctl", "postgres", "pg_isready")
#: The oldest major version the schema and the tests' helpers use (DROP DATABASE … FORCE).
MIN_MAJOR = 13
#: The port of a server without TCP: it only names the socket file (``.s.PGSQL.<port>``).
SOCKET_PORT = 5432
#: Seconds to wait for the server to accept connections.
START_TIMEOUT = 30.0
#: Settings that trade durability for speed, for a server whose data is thrown away.
NOT_DURABLE = {"fsync": "off", "synchronous_commit": "off", "full_page_writes": "off"}
#: The loopback address a TCP server listens on.
LOOPBACK = "127.0.0.1"

# PR_SET_PDEATHSIG from <linux/prctl.h>: the signal a process gets when its parent dies.
_PR_SET_PDEATHSIG = 1


def search_path() -> list[str]:
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
    """The folder with all of :data:`TOOLS` (symlinks followed) and the server's version
    line, or None and why not."""
    postgres = shutil.which("postgres", path=os.pathsep.join(search_path()))
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


def free_port() -> int:
    """A TCP port on the loopback address that nobody listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((LOOPBACK, 0))
        return int(probe.getsockname()[1])


def _reachable_by(folder: Path, user: pwd.struct_passwd) -> bool:
    """Whether ``user`` can pass through every folder from the root down to ``folder``
    (the server, run as that user, must reach its data folder)."""
    for part in [folder.resolve(), *folder.resolve().parents]:
        try:
            info = part.stat()
        except OSError:
            return False
        if info.st_uid == user.pw_uid:
            allowed = info.st_mode & 0o100
        elif info.st_gid == user.pw_gid:
            allowed = info.st_mode & 0o010
        else:
            allowed = info.st_mode & 0o001
        if not allowed:
            return False
    return True


class PgServer:
    """A PostgreSQL server in a new folder, for as long as one process needs it.

    ``parent`` is where the folder is made (default: the system's temp folder; when we
    are root and the ``postgres`` user cannot reach ``parent``, the temp folder too).
    ``tcp``: listen on ``127.0.0.1`` at ``port`` (0: a free port, chosen at
    :meth:`start`) besides the socket; without it ``port`` only names the socket file.
    ``durable=False`` turns off what makes commits durable (:data:`NOT_DURABLE`), for data
    that is thrown away anyway; ``settings`` are more server settings (``-c name=value``).

    Raises KeyError when we are root and there is no ``postgres`` user to run the server
    as.
    """

    def __init__(
        self,
        bindir: Path,
        *,
        parent: Path | None = None,
        tcp: bool = False,
        port: int = SOCKET_PORT,
        durable: bool = True,
        settings: Mapping[str, str] | None = None,
        prefix: str = "monopoly-pg-",
    ) -> None:
        self.bindir = bindir
        self.parent = parent
        self.tcp = tcp
        self.port = port
        self.durable = durable
        self.settings = dict(settings or {})
        self.prefix = prefix
        self.root: Path | None = None
        self.process: subprocess.Popen[bytes] | None = None
        # The server must not run as root: demote it to the postgres user if we are root.
        self._user: pwd.struct_passwd | None = None
        if os.geteuid() == 0:
            self._user = pwd.getpwnam("postgres")  # KeyError: no such user

    def __enter__(self) -> Self:
        """Start the server for a ``with`` block."""
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        """Stop the server and remove its folder at the end of a ``with`` block."""
        self.stop()

    @property
    def socket_dir(self) -> Path:
        """The folder holding the server's socket."""
        assert self.root is not None
        return self.root / "sock"

    def url(self, database: str) -> str:
        """A URL of ``database`` on this server (no password: trust authentication);
        over TCP if the server listens there, else over the socket."""
        if self.tcp:
            return f"postgresql://postgres@{LOOPBACK}:{self.port}/{database}"
        return f"postgresql://postgres@/{database}?host={self.socket_dir}&port={self.port}"

    def _as_server_user(self) -> dict[str, Any]:
        """Popen options that run a program as the server's user (nothing if not root)."""
        if self._user is None:
            return {}
        return {"user": self._user.pw_uid, "group": self._user.pw_gid, "extra_groups": []}

    def _env(self) -> dict[str, str]:
        # A clean environment: PGDATA, PGHOST and the like of the caller must not leak in.
        return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C", "LANG": "C"}

    def _make_root(self) -> Path:
        parent = self.parent
        if parent is not None:
            parent.mkdir(parents=True, exist_ok=True)
            if self._user is not None and not _reachable_by(parent, self._user):
                parent = None  # e.g. below a home folder only root may enter
        # Absolute: the server runs in the folder, so a relative path would miss it.
        return Path(tempfile.mkdtemp(prefix=self.prefix, dir=parent)).resolve()

    def _server_args(self, data: Path) -> list[str]:
        listen = LOOPBACK if self.tcp else ""  # empty: no TCP listener at all
        settings = {"listen_addresses": listen, **(NOT_DURABLE if not self.durable else {})}
        settings.update(self.settings)
        args = [str(self.bindir / "postgres"), "-D", str(data)]
        if not self.durable:
            args.append("-F")  # fsync off (NOT_DURABLE says so too)
        args += ["-k", str(self.socket_dir), "-p", str(self.port)]
        for name, value in settings.items():
            args += ["-c", f"{name}={value}"]
        return args

    def start(self) -> None:
        """initdb a new cluster and start its server; wait until it accepts connections.

        Raises RuntimeError (with initdb's output or the server's log) if either fails;
        the folder is removed then.
        """
        self.root = self._make_root()
        atexit.register(self.stop)
        data, log = self.root / "data", self.root / "server.log"
        self.socket_dir.mkdir()
        if self._user is not None:
            for path in (self.root, self.socket_dir):
                os.chown(path, self._user.pw_uid, self._user.pw_gid)
        if self.tcp and self.port == 0:
            self.port = free_port()
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
            **self._as_server_user(),
        )
        if initdb.returncode != 0:
            self.stop()
            raise RuntimeError(f"initdb failed:\n{initdb.stdout}\n{initdb.stderr}")
        libc = ctypes.CDLL(None, use_errno=True)
        prctl = libc.prctl  # looked up before the fork: the child only calls it

        def die_with_parent() -> None:
            # After the switch to the server's user (a change of user clears the setting):
            # if the starting thread's process is killed, the server shuts down at once.
            prctl(_PR_SET_PDEATHSIG, signal.SIGQUIT)

        with open(log, "wb") as log_file:
            self.process = subprocess.Popen(
                self._server_args(data),
                cwd=self.root,
                env=self._env(),
                stdin=subprocess.DEVNULL,
                stdout=log_file,
                stderr=subprocess.STDOUT,
                preexec_fn=die_with_parent,
                **self._as_server_user(),
            )
        where = ["-h", LOOPBACK] if self.tcp else ["-h", str(self.socket_dir)]
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            ready = subprocess.run(
                [str(self.bindir / "pg_isready"), "-q", *where, "-p", str(self.port)],
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
        """Stop the server at once and remove its folder (safe to call twice)."""
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
                    **self._as_server_user(),
                )
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)
        shutil.rmtree(root, ignore_errors=True)
