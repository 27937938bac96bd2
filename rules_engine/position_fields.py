"""The field readers of positions (`hangar.position/1`), shared by every system's position module
(rules_engine/<system>/position.py): each reads one value of the document, checks it and returns it, or raises a
`PositionError` naming the value's path, with one wording per kind of field. A value is shown as JSON writes it.

- `key_path(path, key)`: the path of field `key` (a string) or item `key` (an integer) of the value at `path`;
  "" is the document itself: `key_path("", "turn")` is "turn", `key_path("sides", 0)` "sides[0]",
  `key_path("sides[0]", "units")` "sides[0].units".
- `shown(value)`: the value as JSON writes it (`null`, `true`, `"text"`, `3`, `[1, 2]`); a long list or object by
  its size (`a list of 625 items`).
- `need_object(value, path, known)`: an object whose keys are all among `known`:
  "expected an object, got [1, 2]"; an unknown key at `path.key`: "unknown field (known: a, b, c)".
- `need_list(value, path)`: "expected a list, got "a, b"".
- `need_int(value, path, low=0, high=None, what="")`: an integer (never true/false) in low … high:
  "expected an integer 0 … 9, got 12", "expected an integer ≥ 0, got -1", with `low=None` any integer:
  "expected an integer, got 2.5"; `what` says what the bounds are: "expected an integer 1 … 3 (the game's pulse
  rounds), got 4".
- `need_bool(value, path)`: "expected true or false, got "yes"".
- `need_number(value, path)`: a finite integer or float (never true/false), as a float: "expected a number, got
  null".
- `need_choice(value, path, choices)`: one of `choices` (never true/false): "expected one of "x", "y", got "z"".
- `need_strings(value, path, allowed=None)`: a list of strings (each one of `allowed` if given), as a set; a bad
  item at `path[i]`: "expected a string, got 3" or the need_choice wording.

Pure Python: no Django, and no other module of the engine (rules_engine/positions.py re-exports PositionError).
"""
from __future__ import annotations

import json
import math
from collections.abc import Collection, Mapping, Sequence
from typing import Any

__all__ = ["PositionError", "key_path", "shown", "need_object", "need_list", "need_int", "need_bool", "need_number",
           "need_choice", "need_strings"]

SHOWN_MAX = 40  # a list or an object longer than this as JSON is shown by its size


class PositionError(ValueError):
    """A position that cannot be loaded: `path` is the bad field (`sides[1].units[0].at`), `message` what is wrong."""

    def __init__(self, path: str, message: str) -> None:
        self.path, self.message = path, message
        super().__init__(f"{path}: {message}" if path else message)


def key_path(path: str, key: str | int) -> str:
    """The path of field `key` ("a.b") or item `key` ("a[2]") of the value at `path` ("" is the document)."""
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=lambda other: type(other).__name__)


def shown(value: Any) -> str:
    """`value` as JSON writes it: null, true, "text", 3, 2.5, [1, 2]; a long list or object by its size."""
    if isinstance(value, (list, tuple)):
        text = _json(list(value))
        return text if len(text) <= SHOWN_MAX else f"a list of {len(value)} items"
    if isinstance(value, Mapping):
        text = _json(dict(value))
        return text if len(text) <= SHOWN_MAX else f"an object of {len(value)} fields"
    if value is None or isinstance(value, (bool, int, float, str)):
        return _json(value)
    return type(value).__name__


def need_object(value: Any, path: str, known: Sequence[str]) -> Mapping[str, Any]:
    """`value` as an object whose keys are all among `known`."""
    if not isinstance(value, Mapping):
        raise PositionError(path, f"expected an object, got {shown(value)}")
    for key in value:
        if key not in known:
            raise PositionError(key_path(path, str(key)), f"unknown field (known: {', '.join(known)})")
    return value


def need_list(value: Any, path: str) -> list[Any]:
    if not isinstance(value, (list, tuple)):
        raise PositionError(path, f"expected a list, got {shown(value)}")
    return list(value)  # a copy: what is read from it never changes with the document


def need_int(value: Any, path: str, low: int | None = 0, high: int | None = None, what: str = "") -> int:
    """An integer in `low` … `high` (None: no bound); `what` (" (turns_per_round)") says what bounds it."""
    if (isinstance(value, bool) or not isinstance(value, int) or (low is not None and value < low)
            or (high is not None and value > high)):
        if low is not None and high is not None:
            span = f" {low} … {high}"
        elif low is not None:
            span = f" ≥ {low}"
        else:
            span = f" ≤ {high}" if high is not None else ""
        raise PositionError(path, f"expected an integer{span}{what}, got {shown(value)}")
    return value


def need_bool(value: Any, path: str) -> bool:
    if not isinstance(value, bool):
        raise PositionError(path, f"expected true or false, got {shown(value)}")
    return value


def need_number(value: Any, path: str) -> float:
    """A finite number (an integer or a float), as a float."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise PositionError(path, f"expected a number, got {shown(value)}")
    return float(value)


def need_choice(value: Any, path: str, choices: Sequence[Any]) -> Any:
    """One of `choices` (true and false are never taken for 1 and 0), named in their order in the message."""
    if isinstance(value, bool) or not any(value == choice for choice in choices):
        raise PositionError(path, f"expected one of {', '.join(shown(c) for c in choices)}, got {shown(value)}")
    return value


def need_strings(value: Any, path: str, allowed: Collection[str] | None = None) -> set[str]:
    """A list of strings, each one of `allowed` if given (in the message sorted), as a set."""
    found: set[str] = set()
    for index, item in enumerate(need_list(value, path)):
        if allowed is not None:
            need_choice(item, key_path(path, index), sorted(allowed))
        elif not isinstance(item, str):
            raise PositionError(key_path(path, index), f"expected a string, got {shown(item)}")
        found.add(item)
    return found
