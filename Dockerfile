# The MONOPOLY Discord bot as a container image: `monopoly-bot run` as a non-root user.
#
#   docker build -t monopoly-discord-bot .      (compose.yaml builds it for the fleet)
#   docker run --rm -e DISCORD_TOKEN -v monopoly-data:/app/data monopoly-discord-bot
#
# No secrets in the image: DISCORD_TOKEN (and MONOPOLY_DATABASE_URL) come from the
# environment when the container starts. tests/test_containers.py checks this file.

# -- build: a wheel of the project, installed into a virtual environment --------------------
FROM python:3.11-slim-bookworm AS build

ENV PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1

WORKDIR /src
# What the wheel is built from, nothing else (pyproject.toml's readme is README.md, its
# license-files LICENSE).
COPY pyproject.toml README.md LICENSE ./
COPY bot/ bot/
COPY cogs/ cogs/
COPY render/ render/

# Every dependency has wheels for CPython 3.11 on Linux, so no compiler is needed; the
# virtual environment is copied into the final image as it is (same base, same paths).
RUN pip wheel --no-deps --wheel-dir /wheels . \
    && python -m venv /opt/venv \
    && /opt/venv/bin/pip install /wheels/*.whl

# -- the image that runs: Python, the virtual environment, no source tree, no build tools ---
FROM python:3.11-slim-bookworm

# Pass the project's version when building a release: --build-arg VERSION=...
ARG VERSION=0.1.0
LABEL org.opencontainers.image.title="monopoly-discord-bot" \
      org.opencontainers.image.description="A Discord bot that runs games of MONOPOLY in server channels (German first, English second)." \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.base.name="docker.io/library/python:3.11-slim-bookworm"

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PATH="/opt/venv/bin:${PATH}"

# A fixed uid/gid (10001), so that volumes and host directories can be given to it.
# /app/data is where the SQLite default (MONOPOLY_DB_PATH=data/monopoly.db, relative to
# the working directory /app) lives when no MONOPOLY_DATABASE_URL is set.
RUN groupadd --system --gid 10001 monopoly \
    && useradd --system --uid 10001 --gid monopoly --home-dir /app --no-create-home \
        --shell /usr/sbin/nologin monopoly \
    && mkdir -p /app/data \
    && chown -R 10001:10001 /app

COPY --from=build /opt/venv /opt/venv

WORKDIR /app
USER 10001:10001
# Created before VOLUME and owned by the bot's user: a new volume mounted here starts with
# that owner. The heartbeat goes to /tmp/monopoly-heartbeat (MONOPOLY_HEARTBEAT_FILE).
VOLUME ["/app/data"]

# Healthy while the running bot's heartbeat (written every 30 s while its gateway
# connections are open) is at most 120 s old. The start period covers the login, the
# store's migrations and the first command sync.
HEALTHCHECK --interval=30s --timeout=10s --start-period=120s --retries=3 \
    CMD ["monopoly-bot", "health", "--max-age", "120"]

# SIGTERM, Docker's own: run_bot installs a handler for it (discord.py's Client.run only
# handles SIGINT, and as PID 1 a signal without a handler is ignored), which closes the bot:
# it logs out, stops its timers and closes the store after its last writes.
STOPSIGNAL SIGTERM

ENTRYPOINT ["monopoly-bot"]
CMD ["run"]
