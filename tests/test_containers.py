"""The container files: Dockerfile, .dockerignore and compose.yaml (the bot as a fleet).

Read as text, so no Docker engine is needed: a small line parser for the Dockerfile and
PyYAML for compose.yaml. They check what the image and the fleet promise: a slim Python
3.11+ base, a non-root user, the console script as entrypoint, a health check on the
heartbeat, a stop signal the bot handles; PostgreSQL 15 with a health check and a volume,
two bot processes holding shards 0 and 1 of 2 on that database, the token required and
never written down. Every variable compose gives the bot must be one that bot/config.py
reads. The image installs a wheel of the project, so the wheel must carry every data
file and depend on every library the bot imports.

With the Docker CLI and its compose plugin at hand, ``docker compose config`` validates
compose.yaml as well (skipped otherwise).
"""

from __future__ import annotations

import ast
import contextlib
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import textwrap
import tomllib
from fnmatch import fnmatch
from importlib import metadata
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import urlsplit

import pytest
import yaml
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name

from bot.cli import build_parser
from bot.config import DEFAULT_DB_PATH

ROOT = Path(__file__).resolve().parent.parent
DOCKERFILE = ROOT / "Dockerfile"
DOCKERIGNORE = ROOT / ".dockerignore"
COMPOSE = ROOT / "compose.yaml"
PYPROJECT = ROOT / "pyproject.toml"
CONFIG_SOURCE = ROOT / "bot" / "config.py"
PACKAGES = ("bot", "cogs", "render")

#: What a Discord bot token looks like (three base64url parts); none may be committed.
TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{23,28}\.[A-Za-z0-9_-]{6,7}\.[A-Za-z0-9_-]{27,}")
#: Names of settings whose values are secrets.
SECRET_NAME = re.compile(r"TOKEN|PASSWORD|SECRET|DATABASE_URL|API_KEY", re.IGNORECASE)
#: Compose interpolation: ${NAME}, ${NAME:-default}, ${NAME-default}, ${NAME:?err}, ...
INTERPOLATION = re.compile(r"\$\{(?P<name>\w+)(?:(?P<op>:?[-?+])(?P<arg>[^}]*))?\}")


# -- the Dockerfile ----------------------------------------------------------------------------


def dockerfile_instructions(text: str) -> list[tuple[str, str]]:
    """``(INSTRUCTION, arguments)`` per instruction: comments and blank lines dropped,
    lines ending in a backslash joined with the next (comment lines inside skipped)."""
    instructions: list[tuple[str, str]] = []
    pending = ""
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        line = pending + line
        pending = ""
        keyword, _, arguments = line.partition(" ")
        instructions.append((keyword.upper(), arguments.strip()))
    assert not pending, "the Dockerfile ends in a continued line"
    return instructions


def stages(text: str) -> list[list[tuple[str, str]]]:
    """The build stages: each list starts with its FROM."""
    result: list[list[tuple[str, str]]] = []
    for instruction in dockerfile_instructions(text):
        if instruction[0] == "FROM":
            result.append([])
        assert result, f"{instruction[0]} before the first FROM"
        result[-1].append(instruction)
    return result


def exec_form(arguments: str) -> list[str]:
    """The JSON array of an exec-form instruction (ENTRYPOINT, CMD, VOLUME, ...)."""
    value = json.loads(arguments)
    assert isinstance(value, list) and all(isinstance(item, str) for item in value), arguments
    return value


def key_values(arguments: str) -> dict[str, str]:
    """``KEY=value`` pairs of an ENV, ARG or LABEL instruction (quotes as a shell reads them)."""
    pairs = {}
    for word in shlex.split(arguments):
        key, sep, value = word.partition("=")
        pairs[key] = value if sep else ""
    return pairs


def options_and_rest(arguments: str) -> tuple[dict[str, str], str]:
    """Leading ``--name=value`` options of an instruction, and what follows them."""
    options = {}
    rest = arguments
    while rest.startswith("--"):
        option, _, rest = rest.partition(" ")
        name, _, value = option[2:].partition("=")
        options[name] = value
        rest = rest.strip()
    return options, rest


def last(stage: list[tuple[str, str]], keyword: str) -> str | None:
    """Arguments of the stage's last ``keyword`` instruction (the one in force), or None."""
    found = [arguments for name, arguments in stage if name == keyword]
    return found[-1] if found else None


def merged(stage: list[tuple[str, str]], keyword: str) -> dict[str, str]:
    """All ENV (or ARG, LABEL) pairs of a stage, later ones winning."""
    values: dict[str, str] = {}
    for name, arguments in stage:
        if name == keyword:
            values.update(key_values(arguments))
    return values


@pytest.fixture(scope="module")
def dockerfile() -> str:
    return DOCKERFILE.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def final(dockerfile: str) -> list[tuple[str, str]]:
    """The stage the image is made of (the last one)."""
    return stages(dockerfile)[-1]


@pytest.fixture(scope="module")
def pyproject() -> dict[str, Any]:
    return tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))


def test_parser_joins_continued_lines_and_skips_comments() -> None:
    text = textwrap.dedent(
        """\
        # syntax comment
        FROM python:3.11-slim AS build
        RUN a \\
            # a comment inside
            && b
        ENV A=1 \\
            B="two words"
        """
    )
    assert dockerfile_instructions(text) == [
        ("FROM", "python:3.11-slim AS build"),
        ("RUN", "a  && b"),
        ("ENV", 'A=1  B="two words"'),
    ]
    assert key_values('A=1  B="two words"') == {"A": "1", "B": "two words"}


def test_every_stage_builds_on_a_slim_official_python_3_11_or_newer(dockerfile: str) -> None:
    for stage in stages(dockerfile):
        image = stage[0][1].split()[0]
        if image.startswith("--platform"):
            image = stage[0][1].split()[1]
        # The minor version is pinned (python:3.11-slim-bookworm, not python:3-slim).
        match = re.fullmatch(
            r"(?:docker\.io/)?(?:library/)?python:3\.(\d+)(?:\.\d+)?-slim(-\w+)?", image
        )
        assert match, f"FROM {image}: want a slim official Python with its minor version pinned"
        assert int(match.group(1)) >= 11, f"FROM {image}: the project needs Python 3.11 or newer"


def test_requires_python_allows_the_base_image(dockerfile: str, pyproject: dict) -> None:
    base = stages(dockerfile)[-1][0][1].split()[0]
    version = re.search(r"python:(3\.\d+)", base)
    assert version is not None
    assert version.group(1) in SpecifierSet(pyproject["project"]["requires-python"])


def test_the_image_runs_as_a_fixed_non_root_user(final: list[tuple[str, str]]) -> None:
    user = last(final, "USER")
    assert user is not None, "no USER: the bot would run as root"
    name, _, group = user.partition(":")
    assert name not in {"root", "0", ""}, f"USER {user}"
    assert group != "0", f"USER {user}: the root group"
    # A fixed uid: numeric, so that volumes and runAsNonRoot checks can rely on it.
    assert name.isdigit(), f"USER {user}: give the fixed uid, not a name"
    created = " ".join(arguments for keyword, arguments in final if keyword == "RUN")
    assert f"--uid {name}" in created, f"the user {name} is not created with that uid"


def test_python_writes_no_bytecode_and_no_buffered_output(final: list[tuple[str, str]]) -> None:
    env = merged(final, "ENV")
    assert env.get("PYTHONDONTWRITEBYTECODE") == "1"
    assert env.get("PYTHONUNBUFFERED") == "1"


def test_entrypoint_is_the_console_script_and_cmd_runs_the_bot(
    final: list[tuple[str, str]], pyproject: dict
) -> None:
    entrypoint, cmd = last(final, "ENTRYPOINT"), last(final, "CMD")
    assert entrypoint is not None and cmd is not None
    # Exec form: the bot is PID 1 and gets the stop signal itself (no shell in between).
    assert exec_form(entrypoint) == ["monopoly-bot"]
    assert exec_form(cmd) == ["run"]
    assert pyproject["project"]["scripts"]["monopoly-bot"] == "bot.cli:main"
    assert build_parser().parse_args(exec_form(cmd)).command == "run"


def test_healthcheck_asks_the_bot_for_a_fresh_heartbeat(final: list[tuple[str, str]]) -> None:
    healthcheck = last(final, "HEALTHCHECK")
    assert healthcheck is not None, "no HEALTHCHECK"
    options, rest = options_and_rest(healthcheck)
    keyword, _, command = rest.partition(" ")
    assert keyword == "CMD"
    argv = exec_form(command)
    assert argv == ["monopoly-bot", "health", "--max-age", "120"]
    args = build_parser().parse_args(argv[1:])
    assert (args.command, args.max_age) == ("health", 120.0)
    # The heartbeat is written every 30 s: checking more often than it ages out, with a
    # start period for the login, the migrations and the first sync.
    assert {"interval", "timeout", "start-period", "retries"} <= options.keys()
    seconds = {
        name: int(value.removesuffix("s")) for name, value in options.items() if value.endswith("s")
    }
    assert 0 < seconds["interval"] <= 120
    assert seconds["timeout"] < seconds["interval"]
    assert seconds["start-period"] >= 30


def test_the_stop_signal_is_one_the_bot_shuts_down_on(final: list[tuple[str, str]]) -> None:
    stop_signal = last(final, "STOPSIGNAL")
    assert stop_signal is not None, "no STOPSIGNAL"
    # discord.py's Client.run (run_bot) closes the bot on SIGINT; SIGTERM only if the bot
    # installs a handler for it (else, as PID 1, it ignores SIGTERM until the SIGKILL).
    handles_sigterm = any(
        "SIGTERM" in path.read_text(encoding="utf-8") for path in (ROOT / "bot").rglob("*.py")
    )
    allowed = {"SIGINT", "SIGTERM"} if handles_sigterm else {"SIGINT"}
    assert stop_signal in allowed, f"STOPSIGNAL {stop_signal}: the bot shuts down on {allowed}"


def test_the_stop_signal_closes_a_running_discord_client(final: list[tuple[str, str]]) -> None:
    """What ``docker stop`` does to run_bot's ``bot.run``: the client logs out and closes
    (MonopolyBot.close closes the store), and run returns, so the exit code is 0."""
    stop_signal = signal.Signals[last(final, "STOPSIGNAL") or "SIGTERM"]
    if stop_signal != signal.SIGINT:
        pytest.skip(f"{stop_signal.name} is the bot's own handler's, not discord.py's")
    script = textwrap.dedent(
        """\
        import asyncio, discord

        class Client(discord.Client):
            async def start(self, token, *, reconnect=True):
                print("started", flush=True)
                await asyncio.sleep(60)

            async def close(self):
                print("closed", flush=True)
                await super().close()

        Client(intents=discord.Intents.none()).run("token", log_handler=None)
        print("returned", flush=True)
        """
    )

    def like_a_container() -> None:
        # A container's PID 1 starts with every signal at its default.
        signal.signal(signal.SIGINT, signal.SIG_DFL)

    child = subprocess.Popen(
        [sys.executable, "-c", script],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        preexec_fn=like_a_container,
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "started"
        child.send_signal(stop_signal)
        out, err = child.communicate(timeout=30)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == 0, f"{stop_signal.name}: exit {child.returncode}\n{err}"
    assert out.split() == ["closed", "returned"], err


def test_sqlite_default_lives_in_a_writable_volume(final: list[tuple[str, str]]) -> None:
    workdir = last(final, "WORKDIR")
    volume = last(final, "VOLUME")
    assert workdir is not None and volume is not None
    database = PurePosixPath(workdir) / PurePosixPath(DEFAULT_DB_PATH.as_posix())
    volumes = exec_form(volume) if volume.startswith("[") else volume.split()
    assert str(database.parent) in volumes, f"{database} is not in a VOLUME ({volumes})"
    # Created and handed to the bot's user before the VOLUME (a new volume copies that).
    runs = " ".join(arguments for keyword, arguments in final if keyword == "RUN")
    assert f"mkdir -p {database.parent}" in runs
    assert re.search(rf"chown -R \S+ {re.escape(workdir)}\b", runs)


def test_the_image_has_oci_labels_and_the_project_version(
    final: list[tuple[str, str]], pyproject: dict
) -> None:
    labels = merged(final, "LABEL")
    for name in ("title", "description", "version"):
        assert labels.get(f"org.opencontainers.image.{name}"), f"no {name} label"
    assert labels["org.opencontainers.image.title"] == pyproject["project"]["name"]
    # The version label defaults to the project's version.
    assert merged(final, "ARG").get("VERSION") == pyproject["project"]["version"]


def test_no_secret_goes_into_the_image(dockerfile: str) -> None:
    for stage in stages(dockerfile):
        for keyword, arguments in stage:
            if keyword in {"ENV", "ARG", "LABEL"}:
                for key, value in key_values(arguments).items():
                    assert not SECRET_NAME.search(key), f"{keyword} {key}: a secret in the image"
                    assert not TOKEN_SHAPE.search(value)
            if keyword in {"COPY", "ADD"}:
                assert ".env" not in arguments.split(), f"{keyword} {arguments}"
    assert not TOKEN_SHAPE.search(dockerfile)


def test_the_build_copies_what_the_wheel_is_made_of(dockerfile: str, pyproject: dict) -> None:
    ignored = dockerignore_patterns()
    copied: list[str] = []
    for stage in stages(dockerfile):
        for keyword, arguments in stage:
            if keyword != "COPY":
                continue
            options, rest = options_and_rest(arguments)
            if "from" in options:
                continue
            *sources, _target = rest.split()
            copied += [source.rstrip("/") for source in sources]
    assert pyproject["project"]["readme"] in copied, "the build needs pyproject's readme"
    assert {"pyproject.toml", *PACKAGES} <= set(copied)
    for source in copied:
        assert (ROOT / source).exists(), f"COPY {source}: not in the repository"
        assert not any(fnmatch(source, pattern) for pattern in ignored), (
            f"COPY {source}: .dockerignore keeps it out of the build context"
        )


# -- .dockerignore -----------------------------------------------------------------------------


def dockerignore_patterns() -> list[str]:
    lines = DOCKERIGNORE.read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def test_dockerignore_keeps_secrets_history_and_junk_out() -> None:
    patterns = dockerignore_patterns()
    for needed in (".env", ".git", ".venv", "data/*.db", "**/__pycache__", ".pytest_cache"):
        assert needed in patterns, f".dockerignore lacks {needed}"
    # Nothing re-includes the secrets (the example file without values may come in).
    assert not any(p.startswith("!") and p != "!.env.example" for p in patterns), patterns


# -- compose.yaml ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    return yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))


def environment(service: dict[str, Any]) -> dict[str, str]:
    """A service's environment as a dict (compose allows a mapping or ``KEY=value`` items)."""
    env = service.get("environment") or {}
    if isinstance(env, list):
        env = dict(item.partition("=")[::2] for item in env)
    return {key: "" if value is None else str(value) for key, value in env.items()}


def with_defaults(value: str) -> str:
    """``value`` as compose interpolates it with no variable set: defaults filled in, a
    required variable as ``<NAME>``."""

    def fill(match: re.Match[str]) -> str:
        op = match["op"] or ""
        if op.endswith("-"):
            return match["arg"]
        if op.endswith("?"):
            return f"<{match['name']}>"
        return ""

    return INTERPOLATION.sub(fill, value)


def bot_services(compose: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The long-running bot processes: services built from this repository, no profile."""
    return {
        name: service
        for name, service in compose["services"].items()
        if "build" in service and not service.get("profiles")
    }


def test_compose_uses_the_specification_without_a_version(compose: dict) -> None:
    assert "version" not in compose
    assert set(compose) <= {"name", "services", "volumes", "networks", "configs", "secrets"} | {
        key for key in compose if key.startswith("x-")
    }


def test_postgres_15_with_a_health_check_and_a_named_volume(compose: dict) -> None:
    postgres = compose["services"]["postgres"]
    assert postgres["image"] == "postgres:15"
    test = postgres["healthcheck"]["test"]
    command = test if isinstance(test, str) else " ".join(test)
    assert "pg_isready" in command
    # Over TCP: the first start's socket-only initialisation server is not "ready".
    assert "-h 127.0.0.1" in command or "--host" in command
    mounts = [volume.split(":") for volume in postgres["volumes"]]
    assert ["pgdata", "/var/lib/postgresql/data"] in [mount[:2] for mount in mounts]
    assert "pgdata" in compose["volumes"]
    # Credentials come from the environment; defaults are for a local machine only.
    env = environment(postgres)
    for key in ("POSTGRES_USER", "POSTGRES_PASSWORD", "POSTGRES_DB"):
        assert re.fullmatch(rf"\$\{{{key}:-\w+\}}", env[key]), f"{key}={env[key]}"


def test_two_bot_processes_hold_shards_0_and_1_of_2(compose: dict) -> None:
    bots = bot_services(compose)
    assert sorted(bots) == ["bot-0", "bot-1"]
    held: list[int] = []
    for name, service in bots.items():
        env = environment(service)
        assert env["MONOPOLY_SHARD_COUNT"] == "2", name
        ids = [int(shard) for shard in env["MONOPOLY_SHARD_IDS"].split(",")]
        assert name == f"bot-{ids[0]}", f"{name} holds shards {ids}"
        held += ids
    # Every shard of the fleet is held, by exactly one process.
    assert sorted(held) == [0, 1]


def test_both_bots_share_one_image_and_restart_unless_stopped(compose: dict) -> None:
    bots = bot_services(compose).values()
    assert len({json.dumps(bot["build"], sort_keys=True) for bot in bots}) == 1
    assert len({bot["image"] for bot in bots}) == 1
    for bot in bots:
        assert bot["build"]["context"] == "."
        assert bot["restart"] == "unless-stopped"


def test_bots_use_the_postgres_service_once_it_is_healthy(compose: dict) -> None:
    postgres_env = {
        key: with_defaults(v) for key, v in environment(compose["services"]["postgres"]).items()
    }
    for name, service in bot_services(compose).items():
        assert service["depends_on"]["postgres"]["condition"] == "service_healthy", name
        url = urlsplit(with_defaults(environment(service)["MONOPOLY_DATABASE_URL"]))
        assert url.scheme == "postgresql", name
        assert (url.hostname, url.port) == ("postgres", 5432), name
        # The same credentials and database as the postgres service's (by default).
        assert url.username == postgres_env["POSTGRES_USER"]
        assert url.password == postgres_env["POSTGRES_PASSWORD"]
        assert url.path == "/" + postgres_env["POSTGRES_DB"]
        raw = environment(service)["MONOPOLY_DATABASE_URL"]
        assert "${POSTGRES_PASSWORD" in raw, "the password is written into the URL"


def test_the_token_is_required_from_the_environment(compose: dict) -> None:
    for name, service in compose["services"].items():
        env = environment(service)
        if "build" in service:
            assert re.fullmatch(r"\$\{DISCORD_TOKEN:\?[^}]+\}", env.get("DISCORD_TOKEN", "")), name


def test_no_secret_value_is_committed(compose: dict) -> None:
    text = COMPOSE.read_text(encoding="utf-8")
    assert not TOKEN_SHAPE.search(text)
    for name, service in compose["services"].items():
        for key, value in environment(service).items():
            if SECRET_NAME.search(key):
                # Interpolated from the environment (or .env), never a literal.
                assert INTERPOLATION.search(value), f"{name}: {key} is written down"
        assert "env_file" not in service or ".env" not in str(service["env_file"]), name


def test_the_sync_tool_runs_once_under_a_profile(compose: dict) -> None:
    sync = compose["services"].get("sync")
    if sync is None:
        pytest.skip("no sync service")
    assert sync["profiles"] == ["tools"]
    assert sync["restart"] == "no"
    assert build_parser().parse_args(sync["command"]).command == "sync"
    assert sync["image"] == next(iter(bot_services(compose).values()))["image"]


def config_reads(name: str) -> bool:
    return f'"{name}"' in CONFIG_SOURCE.read_text(encoding="utf-8")


def test_every_variable_compose_gives_the_bot_is_read_by_its_config(compose: dict) -> None:
    given = {
        key
        for service in compose["services"].values()
        if "build" in service
        for key in environment(service)
    }
    assert given >= {
        "DISCORD_TOKEN",
        "MONOPOLY_DATABASE_URL",
        "MONOPOLY_SHARD_COUNT",
        "MONOPOLY_SHARD_IDS",
    }
    unread = sorted(key for key in given if not config_reads(key))
    assert not unread, f"compose sets variables bot/config.py does not read: {unread}"


def test_every_bot_variable_the_image_sets_is_read_by_the_config(
    final: list[tuple[str, str]],
) -> None:
    bot_vars = [key for key in merged(final, "ENV") if key.startswith(("MONOPOLY_", "DISCORD_"))]
    assert all(config_reads(key) for key in bot_vars), bot_vars


@pytest.fixture(scope="module")
def docker_compose() -> list[str]:
    """``docker compose`` if the CLI and its plugin are there (no engine is needed)."""
    docker = shutil.which("docker")
    if docker is None:
        pytest.skip("no docker CLI")
    probe = subprocess.run([docker, "compose", "version"], capture_output=True, text=True)
    if probe.returncode != 0:
        pytest.skip("no docker compose plugin")
    return [docker, "compose", "--project-directory", str(ROOT), "-f", str(COMPOSE)]


def run_compose(command: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    # Only these variables: none from the caller's shell, no .env file of a checkout.
    base = {key: os.environ[key] for key in ("PATH", "HOME", "DOCKER_CONFIG") if key in os.environ}
    return subprocess.run(
        [*command, "--env-file", os.devnull, "config", "--format", "json"],
        capture_output=True,
        text=True,
        env=base | env,
        timeout=60,
    )


def test_docker_compose_accepts_the_file(docker_compose: list[str]) -> None:
    result = run_compose(docker_compose, {"DISCORD_TOKEN": "not-a-real-token"})
    assert result.returncode == 0, result.stderr
    services = json.loads(result.stdout)["services"]
    assert sorted(services) == ["bot-0", "bot-1", "postgres"]
    for name in ("bot-0", "bot-1"):
        env = services[name]["environment"]
        assert env["DISCORD_TOKEN"] == "not-a-real-token"
        assert (
            env["MONOPOLY_DATABASE_URL"] == "postgresql://monopoly:monopoly@postgres:5432/monopoly"
        )
        assert env["MONOPOLY_SHARD_IDS"] == name[-1]


def test_docker_compose_refuses_to_start_without_a_token(docker_compose: list[str]) -> None:
    result = run_compose(docker_compose, {})
    assert result.returncode != 0
    assert "DISCORD_TOKEN" in result.stderr


# -- what the image installs: a wheel of the project -------------------------------------------


def test_the_wheel_carries_every_data_file(pyproject: dict) -> None:
    """The image installs a wheel, not the source tree: every non-Python file of the
    packages must be matched by pyproject.toml's package-data, or the image lacks it."""
    package_data: dict[str, list[str]] = pyproject["tool"]["setuptools"]["package-data"]
    shipped: set[Path] = set()
    for package, patterns in package_data.items():
        folder = ROOT.joinpath(*package.split("."))
        for pattern in patterns:
            shipped.update(folder.glob(pattern))
    missing = sorted(
        str(path.relative_to(ROOT))
        for package in PACKAGES
        for path in (ROOT / package).rglob("*")
        if path.is_file()
        and path.suffix not in {".py", ".pyc"}
        and "__pycache__" not in path.parts
        and path not in shipped
    )
    assert not missing, f"not in the wheel (add them to package-data): {missing}"


def _optional_imports(tree: ast.AST) -> set[int]:
    """The import statements inside ``try: ... except ImportError`` (the code runs without
    them, e.g. ``mypy_extensions`` only when the engine is compiled): their ``id``s."""
    optional: set[int] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Try):
            continue
        caught = {
            name.id
            for handler in node.handlers
            if handler.type is not None
            for name in ast.walk(handler.type)
            if isinstance(name, ast.Name)
        }
        if caught & {"ImportError", "ModuleNotFoundError"}:
            optional |= {
                id(inner)
                for statement in node.body
                for inner in ast.walk(statement)
                if isinstance(inner, ast.Import | ast.ImportFrom)
            }
    return optional


def imported_distributions() -> dict[str, set[str]]:
    """Third-party distributions the bot's packages import: name -> importing files.

    Imports guarded by ``except ImportError`` are optional and not counted."""
    to_distributions = metadata.packages_distributions()
    found: dict[str, set[str]] = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            optional = _optional_imports(tree)
            for node in ast.walk(tree):
                if id(node) in optional:
                    continue
                if isinstance(node, ast.Import):
                    modules = [alias.name for alias in node.names]
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    modules = [node.module]
                else:
                    continue
                for module in modules:
                    top = module.partition(".")[0]
                    if top in sys.stdlib_module_names or top in PACKAGES or top == "__future__":
                        continue
                    for dist in to_distributions.get(top, [f"<{top}: not installed>"]):
                        found.setdefault(canonicalize_name(dist), set()).add(
                            str(path.relative_to(ROOT))
                        )
    return found


def dependency_closure(requirements: list[str]) -> set[str]:
    """The distributions these requirements install (by the installed metadata)."""
    seen: set[str] = set()
    todo = [Requirement(text) for text in requirements]
    while todo:
        requirement = todo.pop()
        if requirement.marker is not None and not requirement.marker.evaluate({"extra": ""}):
            continue
        name = canonicalize_name(requirement.name)
        if name in seen:
            continue
        seen.add(name)
        with contextlib.suppress(metadata.PackageNotFoundError):
            todo += [Requirement(text) for text in metadata.requires(requirement.name) or []]
    return seen


def test_the_wheel_depends_on_every_library_the_bot_imports(pyproject: dict) -> None:
    installed = dependency_closure(pyproject["project"]["dependencies"])
    missing = {
        dist: sorted(files)
        for dist, files in imported_distributions().items()
        if dist not in installed
    }
    assert not missing, f"imported, but not installed with the project's dependencies: {missing}"
