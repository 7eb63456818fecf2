"""The per-game locks and the LRU cache of committed states."""

from __future__ import annotations

import gc

from bot.store.cache import GameLocks, StateCache
from tests.store.backends import StoreFactory
from tests.store.conftest import GUILD, advance, make_state


def test_cache_evicts_the_least_recently_used() -> None:
    """The cache keeps the most recently used states and counts hits and misses."""
    cache = StateCache(2)
    cache.put(1, "a")
    cache.put(2, "b")
    assert cache.get(1) == "a"  # 2 is now the least recently used
    cache.put(3, "c")
    assert cache.get(2) is None and cache.get(1) == "a" and cache.get(3) == "c"
    assert (cache.hits, cache.misses) == (3, 1)
    cache.drop(1)
    assert len(cache) == 1
    disabled = StateCache(0)
    disabled.put(1, "a")
    assert disabled.get(1) is None


async def test_locks_are_per_game_and_not_kept_forever() -> None:
    """One lock per game, dropped when nobody holds or waits for it."""
    locks = GameLocks()
    first = locks(1)
    assert locks(1) is first and locks(2) is not first
    async with first:
        assert locks(1).locked()
    del first
    gc.collect()
    assert len(locks._locks) == 0


async def test_a_small_cache_gives_the_same_games(store_factory: StoreFactory) -> None:
    """With room for one game only, every game still plays and reads back right."""
    async with store_factory(cache_size=1) as small:
        ids = [(await small.create_game(GUILD, n, make_state(n))).id for n in range(4)]
        for _ in range(3):
            for game_id in ids:
                await advance(small, game_id, 4)
        assert len(small.cache) == 1
        for game_id in ids:
            row = await small.load(game_id)
            assert row.state is not None and row.seq == 12
            assert (await small.record(game_id)).replay().to_json() == row.state.to_json()
