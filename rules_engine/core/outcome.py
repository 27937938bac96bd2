"""How a game ends: the one vocabulary of end reasons of the three engines. A game's summary records it as
`ended_by`, the simulation result counts it (`ended_by`: reason -> games), and the pages name it in words
(builder/web/vocabulary.py, field `end_reason`). The values are stored in results: never rename one."""
from __future__ import annotations

from typing import Final, NamedTuple

# HAGMI!
DAMAGE_DECK_EMPTY: Final = "damage with an empty damage deck"  # H: damage to a player whose damage deck is empty
CORES_DESTROYED: Final = "mothership cores destroyed"  # co-op: the 母艦's cores are all destroyed
TURN_LIMIT: Final = "turn limit"  # the engine's limit of turns (a draw)
# MechWarrior: Dark Age
ELIMINATED: Final = "eliminated"  # a side has no units left
# MechWarrior: Dark Age and Warcaster
ROUNDS: Final = "rounds"  # the last round ended: the side ahead on points / victory points wins
# Warcaster
ANNIHILATION: Final = "annihilation"  # a side has no models left on the table
# every engine
STEP_LIMIT: Final = "step limit"  # the engine's safety limit of decisions (a draw)

class Outcome(NamedTuple):
    """How a finished game ended: every engine's terminal state says it with `outcome()` (None while it goes on)."""

    winner: int | None  # 0 or 1; None for a draw
    reason: str  # one of END_REASONS


END_REASONS: Final = (DAMAGE_DECK_EMPTY, CORES_DESTROYED, TURN_LIMIT, ELIMINATED, ROUNDS, ANNIHILATION, STEP_LIMIT)
