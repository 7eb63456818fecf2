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
        self.code = code
        self.params = params
        detail = ", ".join(f"{k}={v!r}" for k, v in sorted(params.items()))
        super().__init__(f"{code}({detail})" if detail else code)
