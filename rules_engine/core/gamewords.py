"""The shapes of what a game says on the site, declared by the game and read by builder/web through the registry
(`Presentation.report`, `.position_words`, `.card_text` in rules_engine/system_entry.py). Plain Python, no Django:
the words come through rules_engine/core/words.py and the names through rules_engine/core/naming.py.

- `ReportWords` (a game's `report.py`): each event kind of its log as a sentence of the replay report, the kinds
  it leaves unsaid, the runs of events it says as one sentence, how it names the pieces on its table.
- `PositionWords` (a game's `positionwords.py`): a position's decision (whose turn, the phase, in words), each
  legal action in words, and what each side holds off the table.
- `CardWords` (a game's `cardtext.py`): a card's facts and the lines of its text; a model's weapons and stats as
  the rows of a table.

A game that declares none of them still shows: builder/web words an event with a general sentence, an action by
its kind in words and a card by its fields (builder/web/gamereport.py, positionboard.py, cardtext.py).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from rules_engine.core.naming import Event, Namer
from rules_engine.core.words import humanise

__all__ = ["Sentence", "ReportWords", "Decision", "SideNote", "PositionWords", "CardNames", "CardWords"]

# One event in words, or None for an event the reader does not need (a turn's start, an action token).
Sentence = Callable[[Namer, Event], str | None]


def _nothing_together(events: Sequence[Event], start: int, namer: Namer) -> tuple[str, int] | None:
    return None


def _no_pieces(namer: Namer, events: Sequence[Event]) -> None:
    return None


@dataclass(frozen=True)
class ReportWords:
    """A game's replay report: builder/web/gamereport.py groups the events by turn and asks this for the words."""

    # event kind -> its sentence (a kind not here gets the report's general sentence)
    sentences: Mapping[str, Sentence]
    # kinds never said (the headings say whose turn it is; tokens and orders show in what follows)
    silent: frozenset[str] = frozenset()
    # `together(events, start, namer)`: the events from `start` of one turn that read as one sentence (a run of
    # draws, an attack with its damage and the kill): (the sentence, how many events it says), or None
    together: Callable[[Sequence[Event], int, Namer], tuple[str, int] | None] = _nothing_together
    # `name_pieces(namer, events)`: fill the namer's pieces, units and codes from the log (its deploy or setup)
    name_pieces: Callable[[Namer, Sequence[Event]], None] = _no_pieces
    # the name of a table layout in words (MWDA's "crossroads"); None: the layout's name humanised
    table_name: Callable[[Any], str] | None = None


class Decision(NamedTuple):
    """Who decides in a position and what: the heading's turn and round, the side, the phase in words."""

    turn: int | None
    round: int | None
    player: Any
    what: str  # the phase in words ("give an order"), "" when the game has no words for it
    over: bool = False  # the game is over: `what` is said alone, without "You to play:"
    note: str = ""  # said after it ("(2 orders left this turn)")


class SideNote(NamedTuple):
    """What one side holds off the table (victory points, cyphers, points destroyed), line by line."""

    side: int
    lines: list[str]


def _no_decision(position: Mapping[str, Any]) -> Decision:
    turn, round_ = position.get("turn"), position.get("round")
    return Decision(turn if isinstance(turn, int) else None, round_ if isinstance(round_, int) else None,
                    position.get("player"), "")


def _no_action(kind: str, fields: Sequence[Any], names: Namer, position: Mapping[str, Any],
               result: Mapping[str, Any]) -> str | None:
    return None


def _no_notes(position: Mapping[str, Any], names: Namer) -> list[SideNote]:
    return []


@dataclass(frozen=True)
class PositionWords:
    """A game's words for a position (the analysis page, `manage.py position`): builder/web/positionboard.py."""

    # the decision of a position (docs/positions.md: the game's own turn and phase fields)
    decision: Callable[[Mapping[str, Any]], Decision] = _no_decision
    # `action(kind, fields, names, position, result)`: a legal action (its record: kind, then its fields) in words,
    # or None when the game has no words for it; an action that does not fit its record may raise
    # TypeError, ValueError, IndexError or KeyError (the page then names it by its kind)
    action: Callable[[str, Sequence[Any], Namer, Mapping[str, Any], Mapping[str, Any]], str | None] = _no_action
    # what each side holds off the table
    side_notes: Callable[[Mapping[str, Any], Namer], list[SideNote]] = _no_notes


@dataclass(frozen=True)
class CardNames:
    """What a card's text needs from the site: other cards' names (code -> name in the reader's language) and a
    faction's name (a faction of the game's words, or one a loaded package declares). Without the site: the code,
    and the faction humanised."""

    card: Callable[[str], str] = str
    faction: Callable[[str], str] = humanise


def _no_rows(data: Mapping[str, Any]) -> list[Any]:
    return []


@dataclass(frozen=True)
class CardWords:
    """A game's card text: what the picker's "card text", the card page and the card editor's preview show."""

    # `describe(data, names, page)` -> {"facts": [(label, value)], "lines": [{"title", "text"}]}; `page`: for the
    # card page, which may show some facts as tables of their own (`weapon_rows`, `stat_rows`)
    describe: Callable[[Mapping[str, Any], CardNames, bool], dict[str, Any]]
    # a model's weapons as rows of a table: {"names", "type", "rng", "pow", "qualities", "other_qualities"}
    weapon_rows: Callable[[Mapping[str, Any]], list[dict[str, Any]]] = _no_rows
    # a model's stat line: (stat in words, value)
    stat_rows: Callable[[Mapping[str, Any]], list[tuple[str, Any]]] = _no_rows
