"""Seeded randomness for simulations: every random number comes from a `random.Random` seeded here.

There is no module-level or global randomness anywhere in the engine. A run has one integer seed; each game
gets its own generator derived from `(run seed, game index)`, so a game's course does not depend on which
worker plays it, in which chunk, or what ran before it in the same process (docs/design.md §3.2, §4.2).

Seeds are derived with SHA-256 over a canonical encoding of the parts, never with `hash()` (which is salted
per process for strings), so they are the same on every machine, Python version and process.
"""
from __future__ import annotations

import hashlib
import random

__all__ = ["derive_seed", "game_rng", "child_rng"]


def _encode_part(part: int | str) -> bytes:
    # Type-tagged and length-prefixed, so ("1", 2) and (12,) or (1, "2") never collide.
    if isinstance(part, bool) or not isinstance(part, (int, str)):
        raise TypeError(f"seed parts must be int or str, got {type(part).__name__} {part!r}")
    if isinstance(part, int):
        tag, body = b"i", str(part).encode("ascii")
    else:
        tag, body = b"s", part.encode("utf-8")
    return tag + len(body).to_bytes(4, "big") + body


def derive_seed(*parts: int | str) -> int:
    """A stable 64-bit seed (0 ≤ seed < 2**64) from `parts`, via SHA-256 of their canonical encoding."""
    if not parts:
        raise ValueError("derive_seed needs at least one part")
    digest = hashlib.sha256(b"".join(_encode_part(p) for p in parts)).digest()
    return int.from_bytes(digest[:8], "big")


def game_rng(run_seed: int, game_index: int) -> random.Random:
    """The generator owned by game number `game_index` of the run seeded `run_seed`."""
    return random.Random(derive_seed(run_seed, "game", game_index))


def child_rng(rng: random.Random, *parts: int | str) -> random.Random:
    """An independent generator split off `rng` (advances `rng` by one 64-bit draw), e.g. one per side or deck."""
    return random.Random(derive_seed(rng.getrandbits(64), *parts))
