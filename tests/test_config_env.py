"""The settings an operator writes: the ``.env`` file read the way python-dotenv reads it,
``MONOPOLY_DB_PATH`` (a path or ``sqlite:///path``, never another URL), the token's shape
and the bot id it encodes (issue 23, "configuration that cannot leak")."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.config import (
    ConfigError,
    Settings,
    load_dotenv,
    parse_db_path,
    parse_dotenv,
    token_client_id,
    token_problem,
)

#: A token of the right shape: its first part is base64 of the id 123456789012345678.
TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789AB"
SECRET = "s3cr3t-pw"


# -- the .env file ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("KEY=value\n", {"KEY": "value"}, id="plain"),
        pytest.param(
            "\ufeffDISCORD_TOKEN=abc\nX=1\n", {"DISCORD_TOKEN": "abc", "X": "1"}, id="bom"
        ),
        pytest.param("export KEY=value\n", {"KEY": "value"}, id="export"),
        pytest.param("export   KEY = value\n", {"KEY": "value"}, id="export-spaced"),
        pytest.param("export=1\n", {"export": "1"}, id="a-key-named-export"),
        pytest.param("KEY = value  \n", {"KEY": "value"}, id="spaces-around-equals"),
        pytest.param("  KEY=value\n", {"KEY": "value"}, id="indented"),
        pytest.param("KEY='single # quoted'\n", {"KEY": "single # quoted"}, id="single-quotes"),
        pytest.param('KEY="double # quoted"\n', {"KEY": "double # quoted"}, id="double-quotes"),
        pytest.param("KEY='a\\nb'\n", {"KEY": "a\\nb"}, id="single-quotes-keep-backslash-n"),
        pytest.param("KEY='it\\'s'\n", {"KEY": "it's"}, id="single-quote-escape"),
        pytest.param('KEY="a\\nb\\tc"\n', {"KEY": "a\nb\tc"}, id="double-quote-escapes"),
        pytest.param('KEY="say \\"hi\\""\n', {"KEY": 'say "hi"'}, id="escaped-double-quote"),
        pytest.param('KEY="back\\\\slash"\n', {"KEY": "back\\slash"}, id="escaped-backslash"),
        pytest.param('KEY="ends\\\\"\nB=2\n', {"KEY": "ends\\", "B": "2"}, id="backslash-at-end"),
        pytest.param('KEY="a\\db"\n', {"KEY": "a\\db"}, id="unknown-escape-kept"),
        pytest.param('KEY="two\nlines"\n', {"KEY": "two\nlines"}, id="multi-line"),
        pytest.param("KEY=value # comment\n", {"KEY": "value"}, id="inline-comment"),
        pytest.param("KEY=value\t# comment\n", {"KEY": "value"}, id="inline-comment-tab"),
        pytest.param("KEY=a#b\n", {"KEY": "a#b"}, id="hash-inside-a-value"),
        pytest.param("KEY=#value\n", {"KEY": "#value"}, id="value-starting-with-hash"),
        pytest.param("KEY= # only a comment\n", {"KEY": ""}, id="comment-as-value"),
        pytest.param("KEY='quoted' # comment\n", {"KEY": "quoted"}, id="comment-after-quotes"),
        pytest.param("# KEY=value\n", {}, id="comment-line"),
        pytest.param("   # indented comment\n", {}, id="indented-comment"),
        pytest.param("\n\n   \nKEY=1\n\n", {"KEY": "1"}, id="blank-lines"),
        pytest.param("A=1\r\nB='2'\r\nC=\"3\"\r\n", {"A": "1", "B": "2", "C": "3"}, id="crlf"),
        pytest.param("A=1 # c\r\nB=2\r\n", {"A": "1", "B": "2"}, id="crlf-comment"),
        pytest.param("KEY=\n", {"KEY": ""}, id="empty"),
        pytest.param("KEY=''\n", {"KEY": ""}, id="empty-quotes"),
        pytest.param("KEY=a=b\n", {"KEY": "a=b"}, id="equals-in-value"),
        pytest.param("'QUOTED KEY'=1\n", {"QUOTED KEY": "1"}, id="quoted-key"),
        pytest.param("KEY=1\nKEY=2\n", {"KEY": "2"}, id="later-wins"),
        pytest.param("JUST_A_KEY\n", {}, id="key-without-value"),
        pytest.param("A=1\nB=2", {"A": "1", "B": "2"}, id="no-final-newline"),
        pytest.param("PW=pa$word\n", {"PW": "pa$word"}, id="no-interpolation"),
    ],
)
def test_dotenv_is_read_like_python_dotenv(text: str, expected: dict[str, str]) -> None:
    assert parse_dotenv(text) == expected


@pytest.mark.parametrize(
    ("text", "expected", "line"),
    [
        pytest.param('A="unclosed\nB=2\n', {"B": "2"}, 1, id="unclosed-double-quote"),
        pytest.param("A=1\nnot a pair\nB=2\n", {"A": "1", "B": "2"}, 2, id="words"),
        pytest.param("A='x' y\nB=2\n", {"B": "2"}, 1, id="text-after-quotes"),
        pytest.param("=value\nB=2\n", {"B": "2"}, 1, id="no-key"),
    ],
)
def test_a_statement_that_cannot_be_read_is_skipped_with_its_line_number(
    text: str, expected: dict[str, str], line: int, caplog: pytest.LogCaptureFixture
) -> None:
    """The rest is still read; the warning names the line, never its text (a secret)."""
    with caplog.at_level(logging.WARNING, logger="bot.config"):
        assert parse_dotenv(text, source="my.env") == expected
    messages = [record.getMessage() for record in caplog.records]
    assert messages == [f"my.env: line {line} cannot be read; it is skipped"]


def test_a_bom_written_by_an_editor_keeps_the_first_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The issue's case: Notepad saves .env as "UTF-8 with BOM" and the token was lost."""
    (tmp_path / ".env").write_bytes(
        "DISCORD_TOKEN=token-from-file\r\nMONOPOLY_LOG_LEVEL=debug\r\n".encode("utf-8-sig")
    )
    monkeypatch.chdir(tmp_path)
    assert load_dotenv(".env")["DISCORD_TOKEN"] == "token-from-file"
    settings = Settings.from_env({})
    assert settings.discord_token == "token-from-file" and settings.log_level == "DEBUG"


# -- MONOPOLY_DB_PATH ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "path"),
    [
        ("data/games.db", Path("data/games.db")),
        ("/srv/monopoly/games.db", Path("/srv/monopoly/games.db")),
        ("sqlite:///data/games.db", Path("data/games.db")),
        ("sqlite:////srv/monopoly/games.db", Path("/srv/monopoly/games.db")),
        ("SQLITE:///data/games.db", Path("data/games.db")),
        ("C:/games/monopoly.db", Path("C:/games/monopoly.db")),  # a drive, not a scheme
    ],
)
def test_db_path_is_a_path_or_a_sqlite_url(raw: str, path: Path) -> None:
    assert parse_db_path(raw) == path
    assert Settings.from_env({"MONOPOLY_DB_PATH": raw}, env_file=None).db_path == path


@pytest.mark.parametrize(
    ("raw", "says"),
    [
        (f"postgresql://bot:{SECRET}@db/monopoly", "put the URL in MONOPOLY_DATABASE_URL"),
        (f"postgres://bot:{SECRET}@db:5432/monopoly", "put the URL in MONOPOLY_DATABASE_URL"),
        (f"mysql://bot:{SECRET}@db/monopoly", "not a mysql:// URL"),
        (f"https://bot:{SECRET}@example.org/x.db", "not a https:// URL"),
        ("sqlite://data/games.db", "three slashes"),
        ("sqlite:///", "names no database file"),
        ("sqlite:///:memory:", "names no database file"),
        ("sqlite:///games.db?mode=ro", "names no database file"),
    ],
)
def test_any_other_url_in_db_path_is_refused_with_one_line_without_the_password(
    raw: str, says: str
) -> None:
    with pytest.raises(ConfigError) as caught:
        Settings.from_env({"MONOPOLY_DB_PATH": raw}, env_file=None)
    message = str(caught.value)
    assert message.startswith("MONOPOLY_DB_PATH") and says in message
    assert "\n" not in message and SECRET not in message
    if "postgres" in raw:
        assert "MONOPOLY_DATABASE_URL" in message


# -- the token -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("token", "says"),
    [
        ("", "it is empty"),
        (f"Bot {TOKEN}", "starts with 'Bot'"),
        (f"bot {TOKEN}", "starts with 'bot'"),
        (f"Bearer {TOKEN}", "starts with 'Bearer'"),
        (f'"{TOKEN}"', "contains quotes"),
        (f"'{TOKEN}'", "contains quotes"),
        ("MTIz NDU2.GaBcDe.abcdef", "contains spaces"),
        ("a1b2c3d4e5f6a1b2c3d4e5f6a1b2c3d4", "three parts"),  # a client secret
        ("123456789012345678", "three parts"),  # an application id
        ("MTIzNDU2.GaBcDe", "three parts"),
        (TOKEN + ".extra", "three parts"),
        ("MTIzNDU2..abcdef", "three parts"),
        ("MTIzNDU2.GaBcDe.abc+def/==", "characters a token never has"),
    ],
)
def test_obviously_wrong_tokens_are_named_in_one_line(token: str, says: str) -> None:
    problem = token_problem(token)
    assert problem is not None and says in problem
    assert problem.startswith("DISCORD_TOKEN does not look like a bot token")
    assert "\n" not in problem
    if len(token) > 10:
        assert TOKEN not in problem and token not in problem  # never repeated


def test_a_token_of_the_right_shape_passes_and_names_its_bot() -> None:
    assert token_problem(TOKEN) is None
    assert token_client_id(TOKEN) == 123456789012345678
    # Without padding characters in the base64, and with - and _ in the other parts.
    assert token_problem("MTA.a-b_c.d-e_f") is None and token_client_id("MTA.a-b_c.d-e_f") == 10


@pytest.mark.parametrize("token", [None, "", "not-a-token", "YWJj.GaBcDe.abcdef", "MDEy.a.b"])
def test_no_client_id_from_a_token_that_encodes_none(token: str | None) -> None:
    """``YWJj`` is base64 of ``abc``, ``MDEy`` of ``012``: no snowflake."""
    assert token_client_id(token) is None


@pytest.mark.parametrize(
    "url",
    [
        f"postgresql:/bot:{SECRET}@db/monopoly",  # one slash: no host, the rest is a "path"
        f"postgresql:bot:{SECRET}@db/monopoly",
        f"postgresql://db/bot:{SECRET}@monopoly",
    ],
)
def test_a_database_url_with_an_at_after_the_host_is_refused(url: str) -> None:
    """Messages would show that "path" as the database's name, password and all."""
    with pytest.raises(ConfigError) as caught:
        Settings.from_env({"MONOPOLY_DATABASE_URL": url}, env_file=None)
    message = str(caught.value)
    assert message.startswith("MONOPOLY_DATABASE_URL is not a valid URL")
    assert SECRET not in message and "\n" not in message


def test_a_good_database_url_is_kept_as_given() -> None:
    url = f"postgresql://bot:{SECRET}@db:5432/monopoly?sslmode=require"
    assert Settings.from_env({"MONOPOLY_DATABASE_URL": url}, env_file=None).database_url == url
