"""A tiny seeded generator whose whole state is one integer.

The generator is part of the game state, so a saved game continues with the
same future dice and shuffles. SplitMix64 is small, fast in pure Python and
statistically sound for dice.
"""

from __future__ import annotations

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


class SplitMix64:
    """SplitMix64 pseudo-random generator; ``state`` is a 64-bit integer."""

    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state & _MASK

    def next64(self) -> int:
        """Return the next 64-bit output and advance the state."""
        self.state = z = (self.state + _GOLDEN) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Return an integer in ``range(n)``; the modulo bias is below 2**-60."""
        return self.next64() % n

    def die(self) -> int:
        """Return one fair die, 1 to 6."""
        return self.next64() % 6 + 1

    def shuffle(self, items: list) -> None:
        """Shuffle ``items`` in place (Fisher-Yates)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.next64() % (i + 1)
            items[i], items[j] = items[j], items[i]
