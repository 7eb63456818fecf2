"""Typed errors the engine raises for actions the rules do not allow."""

from __future__ import annotations

from typing import Any


class IllegalAction(Exception):  # noqa: N818 - the name reads as what it is
    """An action the rules forbid now; the game state is left unchanged.

    ``code`` is a stable reason code (e.g. ``"not_your_turn"``) and ``params``
    carries the values a translated message needs, so the Discord layer can say
    it in German or English without parsing text.
    """

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params

    def __str__(self) -> str:
        detail = ", ".join(f"{k}={v!r}" for k, v in sorted(self.params.items()))
        return f"{self.code}({detail})" if detail else self.code


# A reason an action is not allowed, as (code, params), or None when it is allowed.
# Checks that run often (computer players ask them many times a turn) return a
# Problem instead of raising, and the action itself raises with raise_for().
Problem = tuple[str, dict[str, Any]] | None


def raise_for(problem: Problem) -> None:
    """Raise :class:`IllegalAction` for ``problem`` unless it is None."""
    if problem is not None:
        raise IllegalAction(problem[0], **problem[1])
