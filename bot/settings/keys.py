"""The building blocks of the settings' sections: a typed top-level key and a section.

A game's settings are one JSON object with top-level keys (``GameRow.settings``). Each
key belongs to one section (:mod:`bot.settings.lobby`, ``timing``, ``play``, ``records``,
``fair``), and a section's module is the only place that names its keys: everyone else
reads and writes them as typed attributes. A :class:`Key` is such an attribute: reading it
gives the stored value or the key's default when it is missing (games stored before a key
existed), assigning stores a value, ``del`` removes the key (missing is fine).

A section is a view: it reads and writes the dict it was given, so every section of one
:class:`~bot.settings.game.GameSettings` sees the others' changes, and keys no section
knows stay where they are.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, Generic, TypeVar, cast, overload

T = TypeVar("T")

_MISSING: Any = object()


def none() -> None:
    """The default of a key whose absence means "not set"."""
    return None


class Key(Generic[T]):
    """One top-level settings key of a section, typed, with a default when it is missing.

    ``default`` makes the default (called on each read, so a list or dict default is
    never shared between games).
    """

    __slots__ = ("default", "name")

    def __init__(self, name: str, default: Callable[[], T]) -> None:
        self.name = name
        self.default = default

    @overload
    def __get__(self, section: None, owner: type[Any]) -> Key[T]: ...

    @overload
    def __get__(self, section: Section, owner: type[Any]) -> T: ...

    def __get__(self, section: Section | None, owner: type[Any]) -> Key[T] | T:
        if section is None:
            return self
        value = section.data.get(self.name, _MISSING)
        return self.default() if value is _MISSING else value

    def __set__(self, section: Section, value: T) -> None:
        section.data[self.name] = value

    def __delete__(self, section: Section) -> None:
        section.data.pop(self.name, None)


class Section:
    """A typed view of the keys one module owns in a game's settings (see the module doc).

    Subclasses declare their keys as :class:`Key` class attributes; :attr:`KEYS` lists
    their names (collected when the subclass is made).
    """

    __slots__ = ("data",)

    #: The names of the keys this section owns.
    KEYS: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, data: dict[str, Any]) -> None:
        #: The whole settings object this section reads and writes (shared, not copied).
        self.data = data

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        names = {value.name for value in vars(cls).values() if isinstance(value, Key)}
        cls.KEYS = frozenset(names | set(getattr(cls, "EXTRA_KEYS", ())))

    def has(self, key: Key[Any]) -> bool:
        """Whether ``key`` is stored at all (a game from before it existed has not)."""
        return key.name in self.data

    def stored_or(self, key: Key[T], fallback: T) -> T:
        """``key``'s stored value, or ``fallback`` if it is not stored at all (where a
        caller means something else by a missing record than the key's default)."""
        return cast(T, self.data.get(key.name, fallback))
