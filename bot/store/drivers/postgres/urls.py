"""PostgreSQL URLs (``MONOPOLY_DATABASE_URL``): checked, and described without the password."""

from __future__ import annotations

import os
from urllib.parse import parse_qsl, unquote, urlsplit

#: The setting that names the database, for error messages.
URL_SETTING = "MONOPOLY_DATABASE_URL"
#: The URL schemes this driver serves (libpq accepts both).
SCHEMES = ("postgresql", "postgres")
#: Seconds to wait for the server when the store opens.
CONNECT_TIMEOUT = 10.0


def check_url(url: object) -> str:
    """``url`` if it is a PostgreSQL URL; ValueError naming ``MONOPOLY_DATABASE_URL``.

    The message never repeats the URL, which may hold a password.
    """
    if not isinstance(url, str) or not url.strip():
        raise ValueError(f"{URL_SETTING} must be a postgresql:// URL")
    try:
        parts = urlsplit(url.strip())
        parts.port  # noqa: B018 - reading it checks the port (ValueError if not a number)
    except ValueError as error:
        raise ValueError(f"{URL_SETTING} is not a valid URL ({error})") from None
    if parts.scheme.lower() not in SCHEMES:
        shown = parts.scheme or "none"
        raise ValueError(
            f"{URL_SETTING} must start with postgresql:// (or postgres://), "
            f"not {shown}:// (leave it empty to use the SQLite file MONOPOLY_DB_PATH)"
        )
    return url.strip()


def describe_url(url: str) -> str:
    """Where ``url`` points, for messages: host and port (or socket folder) and database.

    Never the password.
    """
    parts = urlsplit(url)
    query = dict(parse_qsl(parts.query))
    host = query.get("host") or unquote(parts.hostname or "") or os.environ.get("PGHOST", "")
    port = query.get("port") or parts.port or os.environ.get("PGPORT") or 5432
    database = (
        unquote(parts.path.lstrip("/"))
        or query.get("dbname")
        or query.get("database")
        or os.environ.get("PGDATABASE", "")
        or unquote(parts.username or "")
        or "postgres"
    )
    if host.startswith("/"):
        return f"socket {host}/.s.PGSQL.{port}, database {database!r}"
    return f"{host or 'localhost'}:{port}, database {database!r}"
