"""The append-only event log of a game: typed events (Draw, Play, Attack, Damage, Destroyed, Charge, ...).

An event is `kind` (a short string such as "draw" or "attack"), the `turn` it happened on, the `player` it
belongs to (None for the game itself) and a mapping of `data`. Data values should be JSON values (str, int,
float, bool, None, lists, dicts with str keys) so a log can be stored, shown and compared; tuples come back
from JSON as lists. Events are immutable once logged: never mutate an event's data in place.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any, NamedTuple

__all__ = ["Event", "EventLog"]

# Event(...) without the named tuple's Python-level __new__: the same event, built by tuple's C constructor.
_new_event: Any = tuple.__new__


class Event(NamedTuple):
    """One event (a named tuple: immutable, and the cheapest object Python builds — engines log thousands
    per game)."""

    kind: str
    turn: int
    player: int | None
    data: Mapping[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "turn": self.turn, "player": self.player, "data": dict(self.data)}

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any], *, where: str = "event") -> Event:
        """Read one event written by `to_dict`; a malformed one raises ValueError naming `where` and the field."""
        if not isinstance(raw, Mapping):
            raise ValueError(f"{where}: expected an object, got {type(raw).__name__}")
        kind, turn, player, data = raw.get("kind"), raw.get("turn"), raw.get("player"), raw.get("data", {})
        if not isinstance(kind, str) or not kind:
            raise ValueError(f"{where}.kind: expected a non-empty string, got {kind!r}")
        if isinstance(turn, bool) or not isinstance(turn, int):
            raise ValueError(f"{where}.turn: expected an integer, got {turn!r}")
        if player is not None and (isinstance(player, bool) or not isinstance(player, int)):
            raise ValueError(f"{where}.player: expected an integer or null, got {player!r}")
        if not isinstance(data, Mapping):
            raise ValueError(f"{where}.data: expected an object, got {type(data).__name__}")
        return cls(kind, turn, player, dict(data))


class EventLog:
    """An append-only sequence of events. `copy()` is cheap (events are shared, they are immutable)."""

    __slots__ = ("_events",)

    def __init__(self, events: Iterable[Event] = ()) -> None:
        self._events: list[Event] = list(events)

    def record(self, kind: str, turn: int, player: int | None, data: Mapping[str, Any]) -> None:
        """Log one event: the engines' hot path (about 400 a game). `data` is kept as given, a dict rather than
        keyword arguments (a compiled caller passing **kwargs goes through Python's calling convention); never
        mutate it afterwards."""
        self._events.append(_new_event(Event, (kind, turn, player, data)))

    def __iter__(self) -> Iterator[Event]:
        return iter(self._events)

    def __len__(self) -> int:
        return len(self._events)

    def __getitem__(self, index: int) -> Event:
        return self._events[index]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, EventLog) and self._events == other._events

    def __repr__(self) -> str:
        return f"EventLog({len(self._events)} events)"

    def of_kind(self, kind: str) -> list[Event]:
        return [e for e in self._events if e.kind == kind]

    def copy(self) -> EventLog:
        return EventLog(self._events)

    def to_list(self) -> list[dict[str, Any]]:
        return [e.to_dict() for e in self._events]

    @classmethod
    def from_list(cls, raw: Iterable[Mapping[str, Any]]) -> EventLog:
        """Read a log written by `to_list`; a malformed event raises ValueError naming its index and field."""
        if isinstance(raw, (str, bytes, Mapping)):
            raise ValueError(f"event log: expected a list of events, got {type(raw).__name__}")
        return cls(Event.from_dict(item, where=f"event[{i}]") for i, item in enumerate(raw))
