"""Fair seats and separate random streams: who goes first in each game of a run, and what each game draws from.

**Seats.** Going first is worth a lot in these games (HAGMI's first player won 56.5 % of greedy mirror games,
MWDA's 27.9 %: docs/simulations.md "Seats"), so a run says how the list's seat is chosen (its *seat mode*, the
snapshot's `seats`):

- `both` (the default): every *deal* (the dice, the shuffles, the terrain) is played twice, the list first and
  the list second. Game index i plays deal i // 2; the list goes first when i is even, second when it is odd. The
  first-player edge cancels out of every comparison, and the two games of a pair differ only by the seat. An odd
  number of games leaves the last deal with its list-first game only.
- `list-first`: the list always takes the first turn (each game its own deal).
- `random`: each game's first player is drawn from the game's own "seat" stream (each game its own deal).

Where the order is fixed (HAGMI's 機獣討滅戦線: the players always go first; a goldfish opponent, which takes no
turns) seats do not apply: each game index is its own deal and the game's own rule says who goes first
(`first` is None).

**Streams.** Every stream is a `random.Random` seeded with `derive_seed` from the run seed and a name, so changing
what one side does never moves another stream:

- dice (and every shuffle or roll during play): `(seed, "deal", d, "dice")`;
- each side's set-up (its decks' first shuffle, its deployment): `(seed, "deal", d, "setup", "list"|"opponent")`;
- each side's policy: `(seed, "game", i, "policy", "list"|"opponent")`, keyed by side (the list is always player
  0; only who takes the first turn changes);
- the seat of a `random` game: `(seed, "game", i, "seat")`.

So a list one card shorter shuffles its own deck differently but leaves the opponent's deck, the terrain and the
dice as they were, and a policy that draws more numbers changes nothing but its own choices.
"""
from __future__ import annotations

import hashlib
import random
from typing import Any, NamedTuple

from rules_engine.core.rng import _encode_part, derive_seed

__all__ = ["SEAT_MODES", "DEFAULT_SEATS", "SIDES", "LIST", "OPPONENT", "GamePlan", "check_seats", "deal_of",
           "first_of", "game_plan", "seat_pairs"]

SEAT_MODES = ("both", "list-first", "random")
DEFAULT_SEATS = "both"
LIST, OPPONENT = 0, 1  # the list is always player 0
SIDES = ("list", "opponent")  # the stream name of each player's side


class GamePlan(NamedTuple):
    """What game `index` of a run plays with: its deal, who goes first and its streams (one per use)."""

    index: int
    deal: int
    first: int | None  # the player who takes the first turn (0 the list, 1 the opponent); None: the game's own rule
    dice: random.Random
    setup: tuple[random.Random, random.Random]  # by player: that side's set-up shuffles and placement
    policies: tuple[random.Random, random.Random]  # by player: that side's policy


def check_seats(value: Any) -> str:
    """The seat mode `value` names (None or "" = the default, `both`); ValueError naming the choices otherwise."""
    if value is None or value == "":
        return DEFAULT_SEATS
    if not isinstance(value, str) or value not in SEAT_MODES:
        raise ValueError(f"expected one of {', '.join(SEAT_MODES)}, got {value!r}")
    return value


def deal_of(index: int, mode: str, applies: bool = True) -> int:
    """The deal game `index` plays: index // 2 when both seats play each deal, else the game's own."""
    return index // 2 if applies and mode == "both" else index


def first_of(seed: int, index: int, mode: str, applies: bool = True) -> int | None:
    """Who takes the first turn in game `index` (0 the list, 1 the opponent), or None when seats do not apply."""
    if not applies:
        return None
    if mode == "both":
        return index % 2
    if mode == "list-first":
        return LIST
    return random.Random(derive_seed(seed, "game", index, "seat")).randrange(2)


class _Stream(random.Random):
    """A `random.Random` seeded with `derive_seed(*parts)` on its first use, then a plain `random.Random` (its class
    is swapped): seeding a Mersenne Twister costs as much as a tenth of a quick game, and a stream a game never draws
    from (a greedy policy's, a goldfish's) need not be seeded at all. It draws exactly what
    `random.Random(derive_seed(*parts))` draws. `key` is the parts' encoding (`derive_seed`'s), given ready-made."""

    def __new__(cls, key: bytes) -> "_Stream":
        return super().__new__(cls)

    def __init__(self, key: bytes) -> None:  # no seeding here (random.Random.__init__ would seed)
        self._key = key
        self.gauss_next = None

    # A method bound before the first draw (shuffle binds `getrandbits` once) may still be called after the class
    # swap: each one seeds only if that has not happened yet, then calls random.Random's own.

    def random(self) -> float:
        _start(self)
        return random.Random.random(self)

    def getrandbits(self, k: int) -> int:
        _start(self)
        return random.Random.getrandbits(self, k)

    def getstate(self) -> Any:
        _start(self)
        return random.Random.getstate(self)

    def setstate(self, state: Any) -> None:
        _start(self)
        random.Random.setstate(self, state)

    def seed(self, *args: Any, **kwargs: Any) -> None:
        _start(self)
        random.Random.seed(self, *args, **kwargs)


def _start(stream: random.Random) -> None:
    """Seed a `_Stream` that has not been seeded yet and make it a plain random.Random (nothing if it is one)."""
    key = stream.__dict__.pop("_key", None)
    if key is None:
        return
    stream.__class__ = random.Random  # type: ignore[assignment]
    random.Random.seed(stream, int.from_bytes(hashlib.sha256(key).digest()[:8], "big"))


_DEAL, _GAME, _DICE, _SETUP, _POLICY = (_encode_part(word) for word in ("deal", "game", "dice", "setup", "policy"))
_SIDE_KEYS = tuple(_encode_part(side) for side in SIDES)


def game_plan(seed: int, index: int, mode: str = DEFAULT_SEATS, applies: bool = True) -> GamePlan:
    """The deal, the first player and the streams of game `index` of the run seeded `seed` (module docstring). The
    dice stream is seeded at once; the others when first drawn from (`_Stream`), with the same numbers."""
    deal = deal_of(index, mode, applies)
    run = _encode_part(seed)
    dealt = run + _DEAL + _encode_part(deal)
    played = run + _GAME + _encode_part(index)
    return GamePlan(
        index=index,
        deal=deal,
        first=first_of(seed, index, mode, applies),
        dice=random.Random(int.from_bytes(hashlib.sha256(dealt + _DICE).digest()[:8], "big")),
        setup=(_Stream(dealt + _SETUP + _SIDE_KEYS[0]), _Stream(dealt + _SETUP + _SIDE_KEYS[1])),
        policies=(_Stream(played + _POLICY + _SIDE_KEYS[0]), _Stream(played + _POLICY + _SIDE_KEYS[1])),
    )


def seat_pairs(games: int, mode: str, applies: bool = True) -> int:
    """How many deals of a run of `games` games were played from both seats (0 unless the mode is `both`)."""
    return games // 2 if applies and mode == "both" else 0
