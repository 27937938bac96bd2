"""The names a game's sentences use, in the reader's language and without Django: the sides ("you", "the
opponent", "the beasts"), cards by code, and the pieces on a table by their log ids (MWDA units, Warcaster models
and units), with the small helpers every game's words share (`capfirst`, `join`, `number`, `in_language`) and the
one sentence of who won (`game_over`).

A game's replay report (rules_engine/<game>/report.py), its position words (positionwords.py) and the site's report
(builder/web/gamereport.py) all name things through one `Namer`. English sentences are in the past tense, so no verb
agrees with "you" or "the opponent".
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from rules_engine.core import outcome
from rules_engine.core.words import _t, _tl, language, word

__all__ = ["Namer", "numbered", "capfirst", "join", "number", "in_language", "game_over", "END_REASON_WORDS"]

Event = Mapping[str, Any]  # a logged event as a replay gives it: {"kind", "turn", "player", "data"}

# How a game ended (rules_engine/core/outcome.py END_REASONS), in words: the replay's last sentence and the pages.
END_REASON_WORDS: Mapping[str, Any] = {
    outcome.DAMAGE_DECK_EMPTY: _tl("end reason", "Damage with an empty damage deck"),
    outcome.CORES_DESTROYED: _tl("end reason", "The mothership's cores were destroyed"),
    outcome.TURN_LIMIT: _tl("end reason", "Turn limit reached (a draw)"),
    outcome.ELIMINATED: _tl("end reason", "A side was eliminated"),
    outcome.ROUNDS: _tl("end reason", "After the last round, on points"),
    outcome.ANNIHILATION: _tl("end reason", "A side was wiped off the table"),
    outcome.STEP_LIMIT: _tl("end reason", "Step limit of the simulator (a draw)"),
}


def capfirst(text: Any) -> str:
    """The first letter a capital, as a sentence starts ("you won." -> "You won."); Japanese is unchanged."""
    text = str(text) if text is not None else ""
    return text[:1].upper() + text[1:]


def join(items: Iterable[str]) -> str:
    """"A, B and C" / 「A、BとC」: a list of names in a sentence."""
    items = [item for item in items if item]
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return _t("replay list", ", ").join(items[:-1]) + _t("replay list", " and ") + items[-1]


def number(value: Any) -> str:
    """A measure in inches or a count: 9.0 -> "9", 12.5 -> "12.5"."""
    if isinstance(value, float):
        return f"{value:.1f}".rstrip("0").rstrip(".")
    return str(value)


def in_language(item: Mapping[str, Any] | None, code: str = "") -> dict[str, str]:
    """{"main": the name in the reader's language, "other": the other language's name or ""} of anything with
    `name` (Japanese, or the only name) and `name_en`: a card, a weapon, an ability."""
    if not item:
        return {"main": code, "other": ""}
    ja, en = str(item.get("name") or code), str(item.get("name_en") or "")
    if language() == "en" and en:
        return {"main": en, "other": ja if ja != en else ""}
    return {"main": ja, "other": en if en != ja else ""}


@dataclass
class Namer:
    """The names a report uses: cards by code, the sides, and MWDA units / Warcaster models by their log ids.
    A game fills `pieces`, `units` and `codes` from its log (its report's `name_pieces`)."""

    system: str
    cards: Mapping[str, Any]
    coop: bool = False
    codes: Mapping[int, Any] = field(default_factory=dict)  # HAGMI: a card's uid -> code; Warcaster: a model's
    pieces: dict[int, tuple[int, str]] = field(default_factory=dict)  # MWDA unit / Warcaster model -> (side, name)
    units: dict[int, tuple[int, str]] = field(default_factory=dict)  # Warcaster unit -> (side, name)
    active: int | None = None  # whose turn it is: that side's units go by their names alone

    # sides
    def subject(self, side: Any) -> str:
        """"you" / "the opponent" / "the beasts" (no capital: capfirst makes a sentence start)."""
        if side == 0:
            return _t("replay", "you")
        if side == 1 and self.coop:
            return _t("replay", "the beasts")
        return _t("replay", "the opponent")

    def whose(self, side: Any, name: str) -> str:
        """A unit's name as the report writes it: alone for the side whose turn it is and for 機獣."""
        if side is None or side == self.active or (self.coop and side == 1):
            return name
        if side == 0:
            return _t("replay", "your %(name)s", name=name)
        return _t("replay", "the opponent's %(name)s", name=name)

    # cards
    def card(self, code: Any, *, pilot: bool = False) -> str:
        card = self.cards.get(code) if isinstance(code, str) else None
        if not card:
            return _t("replay", "a card") if code is None else _t("replay", "an unknown card")
        ja, en = card.get("name") or "", card.get("name_en") or ""
        if language() == "en":
            return str(en or ja)
        if pilot and card.get("pilot"):
            return _t("replay", "%(pilot)s's %(name)s", pilot=card["pilot"], name=ja)
        return str(ja or en)

    def uid(self, uid: Any) -> str:
        """A card on the battlefield (HAGMI), by its uid."""
        return self.card(self.codes.get(uid) if isinstance(uid, int) else None)

    def piece(self, pid: Any) -> str:
        found = self.pieces.get(pid) if isinstance(pid, int) else None
        return self.whose(found[0], found[1]) if found else _t("replay", "a unit")

    def piece_side(self, pid: Any) -> Any:
        found = self.pieces.get(pid) if isinstance(pid, int) else None
        return found[0] if found else None

    def unit(self, uid: Any) -> str:
        found = self.units.get(uid) if isinstance(uid, int) else None
        return self.whose(found[0], found[1]) if found else _t("replay", "a unit")


def numbered(entries: list[tuple[int, int, str]]) -> dict[int, tuple[int, str]]:
    """(id, side, name) -> id: (side, name), with "Hound 1", "Hound 2" where one side has two of a name."""
    counts = Counter((side, name) for _, side, name in entries)
    seen: Counter = Counter()
    named: dict[int, tuple[int, str]] = {}
    for pid, side, name in entries:
        if counts[(side, name)] > 1:
            seen[(side, name)] += 1
            name = f"{name} {seen[(side, name)]}"
        named[pid] = (side, name)
    return named


def game_over(n: Namer, winner: Any, reason: Any) -> str:
    """Who won, and how the game ended (END_REASON_WORDS): every game's last sentence starts with it."""
    why = word(END_REASON_WORDS, reason) if reason else ""
    why = why[:1].lower() + why[1:]  # a label ("After the last round, on points") inside a sentence, after its colon
    if winner == 0:
        return _t("replay", "You won: %(why)s.", why=why) if why else _t("replay", "You won.")
    if winner == 1 and n.coop:
        return _t("replay", "The beasts won: %(why)s.", why=why) if why else _t("replay", "The beasts won.")
    if winner == 1:
        return _t("replay", "The opponent won: %(why)s.", why=why) if why else _t("replay", "The opponent won.")
    return _t("replay", "The game was a draw: %(why)s.", why=why) if why else _t("replay", "The game was a draw.")
