"""``monopoly-bot export`` and ``monopoly-bot verify`` end to end on a real SQLite file: games
opened by the game service (which commits to a secret when the lobby opens and derives the
seed from it and the players' words at the start), played by the simple players, exported
once finished and checked from the secret and the words alone; and a game of the first
scheme (the seed committed to itself at the start), which checks as it always did."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from bot import cli
from bot.cardgame.simple_player import SimpleCardPlayer
from bot.cardgame.simple_player import next_simple_action as next_card_action
from bot.engine.game import new_game
from bot.engine.simple_players import next_simple_action
from bot.fairness import commit, derive_seed, fingerprint
from bot.service import GameService, LobbyPlayer
from bot.store import GameStore, SqliteGameStore

#: The secrets the service draws here: large, so they stand out in any output.
SEEDS = [4_611_686_018_427_387_000 + n for n in range(10)]
GUILD, ANNA, BEN = 5_000_000_001, 111, 222
#: The words Anna and Ben give the board game's seed.
WORDS = {ANNA: "Anna würfelt 🎲", BEN: "Schlossallee oder nix"}
#: The seed of the game of the first scheme (committed to itself at its start).
OLD_SEED = 4_611_686_018_427_300_001


async def start(
    store: GameStore,
    service: GameService,
    channel: int,
    game: str,
    words: dict[int, str] | None = None,
) -> int:
    """A lobby of Anna and Ben in ``channel`` for ``game`` (with the players' ``words``),
    started; the game's id."""
    lobby = await service.open_lobby(
        GUILD,
        channel,
        LobbyPlayer(ANNA, "Anna"),
        preset="classic",
        lang="de",
        theme=None,
        max_players=None,
        game=game,
    )
    await service.join(lobby.id, LobbyPlayer(BEN, "Ben"))
    if words:
        # As the lobby's form keeps them (cogs/lobby.py).
        typed = {str(user): text for user, text in words.items()}
        await store.patch_settings(lobby.id, {"lobby_words": typed})
    await service.start(lobby.id, ANNA)
    return lobby.id


async def play_board(store: GameStore, game_id: int, actions: int) -> None:
    """Play ``actions`` simple-player actions through the store."""
    for _ in range(actions):
        state = (await store.load(game_id)).state
        action = next_simple_action(state)  # type: ignore[arg-type]
        if action is None:
            return
        await store.apply(game_id, action)


async def play_cards(store: GameStore, game_id: int) -> None:
    """Play the card game to its end through the store."""
    players = [SimpleCardPlayer(), SimpleCardPlayer()]
    while True:
        state = (await store.load(game_id)).state
        if state.phase == "over":  # type: ignore[union-attr]
            return
        action = next_card_action(state, players)  # type: ignore[arg-type]
        await store.apply(game_id, action)  # type: ignore[arg-type]


@pytest.fixture
def games(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """A SQLite file with a finished board game (played a while, then Ben gave up), a
    finished card game and a running board game; the bot's settings point at it."""
    path = tmp_path / "games.db"
    seeds = iter(SEEDS)

    async def fill() -> dict[str, Any]:
        store = SqliteGameStore(path)
        async with store:
            service = GameService(store, seeds=lambda: next(seeds))
            board = await start(store, service, 1, "board", WORDS)
            await play_board(store, board, 150)
            state = (await store.load(board)).state
            if state.phase != "over":  # type: ignore[union-attr]
                await store.apply(board, {"type": "resign", "player": 1})
            cards = await start(store, service, 2, "cards")
            await play_cards(store, cards)
            running = await start(store, service, 3, "board")
            await play_board(store, running, 20)
            old = await old_game(store)
            rows = {
                name: await store.load(i)
                for name, i in (
                    ("board", board),
                    ("cards", cards),
                    ("running", running),
                    ("old", old),
                )
            }
            throws = sum(len(e["dice"]) for e in (await store.record(board)).actions)
        return {"rows": rows, "throws": throws}

    found = asyncio.run(fill())
    monkeypatch.chdir(tmp_path)  # no .env here
    for name in ("MONOPOLY_DATABASE_URL", "MONOPOLY_SHARD_COUNT", "MONOPOLY_SHARD_IDS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("MONOPOLY_DB_PATH", str(path))
    return found


async def old_game(store: GameStore) -> int:
    """A finished game of the first scheme (``monopoly-seed/1``), as games started before
    the lobby committed to a secret are stored: its seed and that seed's fingerprint."""
    state = new_game([(str(ANNA), "Anna"), (str(BEN), "Ben")], seed=OLD_SEED)
    row = await store.create_game(GUILD, 4, state)
    await store.patch_settings(row.id, commit(OLD_SEED, row.id))
    await play_board(store, row.id, 60)
    if (await store.load(row.id)).state.phase != "over":  # type: ignore[union-attr]
        await store.apply(row.id, {"type": "resign", "player": 1})  # the game ends with it
    return row.id


def export(tmp_path: Path, game_id: int) -> Path:
    out = tmp_path / f"game-{game_id}.json"
    assert cli.main(["export", str(game_id), "--out", str(out)]) == 0
    return out


def test_a_finished_board_game_exports_with_its_seed_and_verifies(
    games: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The export carries the secret the fingerprint shown in the lobby was made of, the
    players' words and the seed they give together; ``verify`` derives the seed again and
    recomputes every throw from it: all match, exit code 0."""
    row = games["rows"]["board"]
    out = export(tmp_path, row.id)
    data = json.loads(out.read_text(encoding="utf-8"))
    fairness = data["fairness"]
    assert fairness["scheme"] == "monopoly-seed/2"
    assert fairness["game_id"] == row.id and fairness["secret"] == SEEDS[0]
    assert fairness["words"] == [
        {"name": "Anna", "words": WORDS[ANNA]},
        {"name": "Ben", "words": WORDS[BEN]},
    ]
    assert fairness["seed"] == derive_seed(SEEDS[0], WORDS.values())
    assert fairness["seed"] == row.settings["fair_seed"]
    assert fairness["fingerprint"] == row.settings["seed_fingerprint"]
    assert fairness["fingerprint"] == fingerprint(fairness["secret"], row.id)
    assert data["format"] == "monopoly-record/1" and data["final"]["phase"] == "over"
    capsys.readouterr()

    assert cli.main(["verify", str(out)]) == 0

    printed = capsys.readouterr().out
    assert f"all {games['throws']} throws match" in printed
    assert str(fairness["seed"]) in printed and fairness["fingerprint"] in printed
    assert (
        str(fairness["secret"]) in printed
        and json.dumps(WORDS[ANNA], ensure_ascii=False) in printed
    )


def test_one_character_of_the_words_changed_fails(
    games: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ben's words changed by one character in the export: the file's seed is not the one
    the secret and the words give; exit code 1, saying so."""
    out = export(tmp_path, games["rows"]["board"].id)
    data = json.loads(out.read_text(encoding="utf-8"))
    data["fairness"]["words"][1]["words"] = "Schlossallee oder nie"
    out.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    capsys.readouterr()

    assert cli.main(["verify", str(out)]) == 1

    printed = capsys.readouterr().out
    assert "MISMATCH: the seed does not follow from the secret and the players' words" in printed
    assert "were the words or the seed changed?" in printed


def test_a_game_of_the_first_scheme_exports_and_verifies_as_before(
    games: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A game started before the lobby committed (its seed drawn at the start): its export
    is of scheme 1, without secret or words, and verifies from the seed as always."""
    row = games["rows"]["old"]
    out = export(tmp_path, row.id)
    fairness = json.loads(out.read_text(encoding="utf-8"))["fairness"]
    assert fairness == {
        "scheme": "monopoly-seed/1",
        "game_id": row.id,
        "seed": OLD_SEED,
        "fingerprint": fingerprint(OLD_SEED, row.id),
    }
    capsys.readouterr()

    assert cli.main(["verify", str(out)]) == 0

    printed = capsys.readouterr().out
    assert f"game {row.id} (MONOPOLY): seed {OLD_SEED}, fingerprint" in printed
    assert "throws match" in printed
    assert cli.main(["verify", str(out), "--seed", str(OLD_SEED + 1)]) == 1
    assert "does not match the fingerprint shown at the start" in capsys.readouterr().out


def test_a_finished_card_game_verifies(
    games: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = export(tmp_path, games["rows"]["cards"].id)
    capsys.readouterr()
    assert cli.main(["verify", str(out)]) == 0
    assert "shuffles match" in capsys.readouterr().out


def test_one_altered_throw_is_named_with_exit_code_1(
    games: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """One throw of the exported file changed: verify names that action and throw."""
    out = export(tmp_path, games["rows"]["board"].id)
    data = json.loads(out.read_text(encoding="utf-8"))
    count, target = 0, None
    for number, entry in enumerate(data["actions"], 1):
        for index, dice in enumerate(entry["dice"]):
            count += 1
            if count == 7:
                target = (number, index, dice)
    assert target is not None
    number, index, dice = target
    data["actions"][number - 1]["dice"][index] = [dice[0] % 6 + 1, dice[1]]
    out.write_text(json.dumps(data), encoding="utf-8")
    capsys.readouterr()

    assert cli.main(["verify", str(out)]) == 1

    printed = capsys.readouterr().out
    assert f"MISMATCH: action {number}, throw 7:" in printed
    assert f"the seed gives {dice[0]}+{dice[1]}" in printed


def test_another_seed_is_not_the_committed_one(
    games: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--secret`` overrides the file's secret, and is checked against the file's
    fingerprint; ``--seed`` overrides the file's seed, which must follow from the secret
    and the words."""
    out = export(tmp_path, games["rows"]["board"].id)
    capsys.readouterr()
    assert cli.main(["verify", str(out), "--secret", str(SEEDS[5])]) == 1
    assert "the secret does not match the fingerprint" in capsys.readouterr().out
    assert cli.main(["verify", str(out), "--seed", str(SEEDS[5])]) == 1
    assert "does not follow from the secret" in capsys.readouterr().out


def test_a_record_without_its_seed_needs_the_options(
    games: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without ``fairness`` (e.g. a record from elsewhere) the seed and game are options."""
    row = games["rows"]["board"]
    out = export(tmp_path, row.id)
    data = json.loads(out.read_text(encoding="utf-8"))
    seed = data.pop("fairness")["seed"]
    out.write_text(json.dumps(data), encoding="utf-8")
    capsys.readouterr()

    assert cli.main(["verify", str(out)]) == 2
    assert "give --seed and --game" in capsys.readouterr().err
    assert cli.main(["verify", str(out), "--seed", hex(seed), "--game", f"#{row.id}"]) == 0


@pytest.mark.parametrize(
    "content",
    [
        "not json",
        "[1, 2]",
        '{"format": "monopoly-scenario/1", "fairness": {"seed": 1, "game_id": 1}}',
    ],
)
def test_a_bad_file_exits_2(
    tmp_path: Path, content: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    assert cli.main(["verify", str(path)]) == 2
    assert capsys.readouterr().err.startswith("monopoly-bot verify:")


def test_a_missing_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["verify", str(tmp_path / "nowhere.json")]) == 2


def test_a_running_game_is_not_exported(
    games: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A running game's record holds the dice to come: refused, nothing written or printed
    of it (neither its seed nor its generator)."""
    row = games["rows"]["running"]
    out = tmp_path / "running.json"
    capsys.readouterr()

    assert cli.main(["export", str(row.id), "--out", str(out)]) == 2
    assert cli.main(["export", str(row.id)]) == 2

    printed = capsys.readouterr()
    assert not out.exists()
    assert printed.out == ""
    assert "only a finished game can be exported" in printed.err
    for secret in (row.settings["fair_seed"], row.settings["fair_secret"], row.state.rng.state):
        assert str(secret) not in printed.err and hex(secret)[2:] not in printed.err


def test_an_unknown_game_is_not_exported(
    games: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["export", "999"]) == 2
    assert capsys.readouterr().err.startswith("monopoly-bot export: game 999")


def test_export_without_a_database_file_exits_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """No file: refused, and none is created."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("MONOPOLY_DATABASE_URL", raising=False)
    monkeypatch.setenv("MONOPOLY_DB_PATH", str(tmp_path / "none.db"))
    assert cli.main(["export", "1"]) == 2
    assert "there is no database file" in capsys.readouterr().err
    assert not (tmp_path / "none.db").exists()
