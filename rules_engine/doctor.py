"""The list doctor, engine side: which single changes of a list to try, how to judge their games, in two stages.

    from rules_engine.doctor import candidate_changes, doctor_batch, run_doctor
    changes = candidate_changes(doc, catalog, limit=30)       # legal single changes, most relevant first
    batch = doctor_batch(snapshot, changes, opponents, catalog.cards)
    report = run_doctor(batch, games=4000, seed=1)            # the budget in games, all stages together
    report["changes"][0]["sentence"]["en"]  # "Confirmed better: +4.1 % (95 % interval +1.2 to +7.0; adjusted p ..."

A run screens every change on the run seed (paired with the list: game i of both starts from the same seed), then
replays the leaders on fresh seeds (the confirm stage); a change is called better only when the confirm stage finds
it so after Holm's correction for the changes tested there. The tests are exact sign tests on the games whose
outcome changed; the intervals are exact (Clopper–Pearson) and never of zero width. Below `minimum_games` a run is
refused (TooFewGames). The services store and publish the stages (builder.services.runs_merge); everything that
decides is here.

Pure Python: never imports Django nor a game package. It reaches a game only through the registry
(rules_engine.systems: sections, default sections, costs, opponent-only categories, the engine's card reader) and
the construction rules (rules_engine.construction.validate_list). The runner that plays the candidates is
rules_engine/batch.py; what is tried, the cap, the ranking and the statistics are described in docs/simulations.md,
"List doctor: candidates and paired statistics".
"""
from __future__ import annotations

import json
import math
import zlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rules_engine.construction import validate_list
from rules_engine.core.catalog import Catalog
from rules_engine.simulation import list_size
from rules_engine.systems import SystemEntry, system

__all__ = [
    "Change", "candidate_changes", "doctor_batch", "doctor_result", "sentence", "BASELINE", "change_from_key",
    "paired_difference", "paired_test", "sign_test", "holm", "benjamini_hochberg", "clopper_pearson", "rank_changes",
    "verdict_sentence", "IMPACT", "impact_changes", "impact_sentence", "REMOVE", "ADD", "SWAP", "SCREEN", "CONFIRM", "TooFewGames", "minimum_games", "screen_stage",
    "next_stage", "stage_chunks", "stage_summaries", "stage_batch", "confirm_seed", "rarely_used", "run_doctor",
]

REMOVE, ADD, SWAP = "remove", "add", "swap"
KINDS = (REMOVE, ADD, SWAP)

# Bounds of the search (validate_list is called once per tried change; about 0.2 ms for a 46-card HAGMI deck).
SWAPS_PER_CARD = 6  # legal swaps kept for each card of the list (its nearest replacements)
SWAP_TRIES_PER_CARD = 24  # replacements tried (validated) for each card of the list, nearest first (fewer when the
# list has so many distinct cards that MAX_VALIDATIONS would not cover them all: each card gets the same share)
ADDS_PER_SECTION = 6  # legal additions kept for each section
ADD_TRIES_PER_SECTION = 24  # additions tried for each section
MAX_VALIDATIONS = 600  # the changes tried for one list
VALIDATION_ENTRIES = 60_000  # ... and at most this many entries read by them all (at least 100 changes)
Z95 = 1.96


# --- changes -----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Change:
    """One single change of a list: one copy out (remove), one copy in (add), or one out and one in (swap).

    `document` is the changed hangar.list/1 document (a new dict; the original is never touched). `key` is a short
    stable id ("swap:weapons:HS-012>HS-031", "remove:damage:HS-050", "add:tactics:HS-031"), usable in URLs and JSON
    and read back by `change_from_key`. A swap takes its card out of `section` and puts the new one in `section_into`
    (the same section: the doctor only swaps within a section).

    What "a different card count" means: `size_change` is the difference of the list's copies over all sections
    (rules_engine.simulation.list_size: cards for HAGMI, units and cyphers for Warcaster, units for MWDA): -1, +1,
    0 for a swap. `sizes` names the sections whose count changed, (section, before, after) — a HAGMI removal from the
    兵器 deck leaves 19 instead of 20. `points` is (before, after) when the list's validation summary reports a point
    total (MWDA's `points`, docs/design.md §2.3) and the change moves it, else None. `label(lang)` puts both in words.
    """

    kind: str
    out: str | None
    into: str | None
    section: str | None  # where `out` leaves from (remove, swap); where `into` goes for an add
    section_into: str | None
    document: Mapping[str, Any]
    size_change: int
    key: str
    system: str = ""
    sizes: tuple[tuple[str, int, int], ...] = ()
    points: tuple[int, int] | None = None
    legal: bool = True  # False only for "test every card": one copy out measured even where it breaks a minimum

    @property
    def points_change(self) -> int:
        return 0 if self.points is None else self.points[1] - self.points[0]

    @property
    def changes_count(self) -> bool:
        """True when the change makes a different card (unit) count or point total: the doctor labels it."""
        return bool(self.size_change or self.sizes or self.points_change)

    def _counter(self, section: str | None, lang: str, count: int = 1) -> str:
        units = section is not None and self.system and section in _unit_sections(self.system)
        if lang == "ja":
            return "体" if units else "枚"
        noun = "unit" if units else "card"
        return noun if count == 1 else noun + "s"

    def describe(self, cards: Mapping[str, Mapping[str, Any]], lang: str = "en") -> str:
        """The change in plain words: "remove 1× NAME", "add 1× NAME", "replace 1× NAME with 1× NAME"; in Japanese
        "NAMEを1枚抜く", "NAMEを1枚入れる", "NAME 1枚をNAME 1枚に入れ替える" (体 for units: MWDA, Warcaster's force).
        Names: the card's `name` in Japanese, its `name_en` (else `name`) in English, else its code."""
        out, into = _name(cards, self.out, lang), _name(cards, self.into, lang)
        if lang == "ja":
            c_out, c_in = self._counter(self.section, "ja"), self._counter(self.section_into, "ja")
            if self.kind == REMOVE:
                return f"{out}を1{c_out}抜く"
            if self.kind == ADD:
                return f"{into}を1{c_in}入れる"
            return f"{out} 1{c_out}を{into} 1{c_in}に入れ替える"
        if self.kind == REMOVE:
            return f"remove 1× {out}"
        if self.kind == ADD:
            return f"add 1× {into}"
        return f"replace 1× {out} with 1× {into}"

    def label(self, lang: str = "en") -> str | None:
        """What the change does to the list's count and points, or None when it keeps them: "Weapons: 19 cards
        instead of 20" / "兵器 19枚（元は20枚）", "Army: 2 units instead of 3; 204 points instead of 292"."""
        if not self.changes_count:
            return None
        labels = system(self.system).section_labels if self.system else {}
        parts = []
        for section, before, after in self.sizes:
            name = labels[section].get(lang) if section in labels else section
            if lang == "ja":
                parts.append(f"{name} {after}{self._counter(section, 'ja')}（元は{before}{self._counter(section, 'ja')}）")
            else:
                parts.append(f"{name}: {after} {self._counter(section, 'en', after)} instead of {before}")
        if self.points is not None and self.points_change:
            before, after = self.points
            parts.append(f"{after}点（元は{before}点）" if lang == "ja" else f"{after} points instead of {before}")
        return ("、" if lang == "ja" else "; ").join(parts)

    def as_dict(self, cards: Mapping[str, Mapping[str, Any]], lang: str = "en") -> dict[str, Any]:
        """JSON-ready: the change, its words and its label (the document is left out: it is `document`)."""
        return {
            "key": self.key, "kind": self.kind, "out": self.out, "into": self.into,
            "section": self.section, "section_into": self.section_into,
            "size_change": self.size_change, "sizes": [list(s) for s in self.sizes],
            "points": list(self.points) if self.points is not None else None,
            "points_change": self.points_change,
            "description": self.describe(cards, lang), "label": self.label(lang), "legal": self.legal,
        }


def _unit_sections(slug: str) -> tuple[str, ...]:
    return tuple(getattr(system(slug), "unit_sections", ()) or ())


def _name(cards: Mapping[str, Mapping[str, Any]], code: str | None, lang: str) -> str:
    if code is None:
        return ""
    card = cards.get(code) or {}
    names = (card.get("name"),) if lang == "ja" else (card.get("name_en"), card.get("name"))
    return next((n for n in names if isinstance(n, str) and n), code)


def _key(kind: str, section: str | None, out: str | None, into: str | None) -> str:
    if kind == REMOVE:
        return f"remove:{section}:{out}"
    if kind == ADD:
        return f"add:{section}:{into}"
    return f"swap:{section}:{out}>{into}"


# --- editing a document ------------------------------------------------------------------------------------------


def _plain(value: Any) -> Any:
    """A new plain-JSON copy (dicts and lists) of a document: a Change never shares a part with the original."""
    if isinstance(value, Mapping):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    return value


def _removed(doc: dict[str, Any], section: str, code: str) -> bool:
    """Take one copy of `code` out of `section` (the last entry of that card: its quantity less one, or the entry
    gone). False when the section holds no copy."""
    entries = doc.get("sections", {}).get(section) or []
    for i in range(len(entries) - 1, -1, -1):
        entry = entries[i]
        if isinstance(entry, dict) and entry.get("card") == code:
            qty = entry.get("qty", 1)
            if isinstance(qty, int) and not isinstance(qty, bool) and qty > 1:
                entry["qty"] = qty - 1
            else:
                del entries[i]
            return True
    return False


def _added(doc: dict[str, Any], section: str, code: str) -> None:
    """Put one copy of `code` in `section`: one more on its last entry there (its options kept: a warjack's
    loadout), else a new entry {card, qty: 1} at the end."""
    sections = doc.setdefault("sections", {})
    entries = sections.get(section)
    if not isinstance(entries, list):
        entries = sections[section] = []
    for entry in reversed(entries):
        if isinstance(entry, dict) and entry.get("card") == code:
            entry["qty"] = entry.get("qty", 1) + 1
            return
    entries.append({"card": code, "qty": 1})


def _section_counts(doc: Mapping[str, Any]) -> dict[str, int]:
    counts = {}
    for section, entries in (doc.get("sections") or {}).items():
        counts[section] = list_size({"sections": {section: entries}})
    return counts


def _points(summary: Mapping[str, Any]) -> int | None:
    value = summary.get("points")
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _copy_document(doc: Mapping[str, Any]) -> dict[str, Any]:
    """A new document sharing nothing with `doc`, fast for a read list: entries are flat {card, qty} dicts, only
    their options (a warjack's loadout) are copied deeply."""
    copied = {key: value for key, value in doc.items() if key != "sections"}
    copied["sections"] = {
        section: [{key: (_plain(value) if key == "options" else value) for key, value in entry.items()}
                  if isinstance(entry, Mapping) else _plain(entry) for entry in entries]
        if isinstance(entries, (list, tuple)) else _plain(entries)
        for section, entries in (doc.get("sections") or {}).items()
    }
    return copied


class _Trial:
    """The original list read once; tries changes on cheap copies of it and keeps the legal ones."""

    def __init__(self, document: Mapping[str, Any], catalog: Catalog, lang: str) -> None:
        self.catalog, self.lang = catalog, lang
        self.original = _plain(document)
        result = validate_list(self.original, catalog, lang)
        if not result["legal"]:
            errors = [v["message"] for v in result["violations"] if v["severity"] == "error"]
            shown = "; ".join(errors[:3]) + (f" (and {len(errors) - 3} more)" if len(errors) > 3 else "")
            raise ValueError(f"the list doctor needs a legal list; this one is not: {shown}")
        self.counts = _section_counts(self.original)
        self.points = _points(result["summary"])
        self.validations = 0
        entries = sum(len(v) for v in self.original.get("sections", {}).values() if isinstance(v, list))
        # The validations one list may spend: MAX_VALIDATIONS, fewer for a long list (each costs more).
        self.budget = max(100, min(MAX_VALIDATIONS, VALIDATION_ENTRIES // max(1, entries)))

    def attempt(self, kind: str, section: str, out: str | None, into: str | None) -> Change | None:
        # Only the changed section is copied for the check; a kept change gets a document of its own.
        sections = dict(self.original.get("sections") or {})
        sections[section] = [dict(entry) if isinstance(entry, dict) else entry for entry in sections.get(section) or []]
        doc = {**self.original, "sections": sections}
        if out is not None and not _removed(doc, section, out):
            return None
        if into is not None:
            _added(doc, section, into)
        self.validations += 1
        result = validate_list(doc, self.catalog, self.lang)
        if not result["legal"]:
            return None
        before = self.counts.get(section, 0)
        size_change = (into is not None) - (out is not None)
        sizes = ((section, before, before + size_change),) if size_change else ()
        points = _points(result["summary"])
        return Change(
            kind=kind, out=out, into=into,
            section=section, section_into=section if into is not None else None,
            document=_copy_document(doc), size_change=size_change, key=_key(kind, section, out, into),
            system=self.catalog.system, sizes=sizes,
            points=(self.points, points) if self.points is not None and points is not None and points != self.points
            else None,
        )



# --- relevance ---------------------------------------------------------------------------------------------------


def _kind_of(card: Mapping[str, Any]) -> str:
    value = card.get("category", card.get("kind"))
    return value if isinstance(value, str) else ""


def _signature(card: Mapping[str, Any]) -> str:
    """A card's data apart from its code: two cards of the same signature are the same change (a reprint)."""
    return json.dumps(_plain({k: v for k, v in card.items() if k != "code"}), sort_keys=True, ensure_ascii=False,
                      default=str)


def _playable(game: SystemEntry, catalog: Catalog) -> list[str]:
    """The catalog's codes that a list may hold and the simulator can play, one per signature, in code order:
    no opponent-only category (HAGMI 機獣, 母艦), accepted by the engine's own card reader (`check_card`)."""
    memo = catalog.derived("doctor.playable")
    if "codes" in memo:
        return memo["codes"]
    seen: set[str] = set()
    codes = []
    for code in sorted(catalog.cards):
        card = catalog.cards[code]
        if _kind_of(card) in game.opponent_categories or card.get("category") in game.opponent_categories:
            continue
        if game.check_card is not None:
            try:
                game.check_card(_plain(card))  # the reader takes JSON as a package holds it (lists)
            except Exception:  # the engine cannot play it (CardDataError, or a reader's own ValueError)
                continue
        signature = _signature(card)
        if signature in seen:
            continue
        seen.add(signature)
        codes.append(code)
    memo["codes"] = codes
    return codes


def _cost(game: SystemEntry, card: Mapping[str, Any]) -> int | None:
    return game.card_cost(card)


def _distance(a: float | None, b: float | None) -> float:
    if a is None and b is None:
        return 0.0
    if a is None or b is None:
        return 1000.0
    return float(abs(a - b))


def _spread(out: str, into: str) -> int:
    """A fixed tie-break between equally near replacements that differs from one card going out to the next (so
    cards without a cost, such as cyphers, are not all offered the same lowest codes): crc32 of "out>into"."""
    return zlib.crc32(f"{out}>{into}".encode("utf-8"))


def _median(values: list[int]) -> float | None:
    if not values:
        return None
    values = sorted(values)
    mid = len(values) // 2
    return float(values[mid]) if len(values) % 2 else (values[mid - 1] + values[mid]) / 2


def _list_cards(doc: Mapping[str, Any], sections: tuple[str, ...]) -> list[tuple[str, str]]:
    """(section, code) of every distinct card of the list, in section then entry order."""
    found: list[tuple[str, str]] = []
    seen = set()
    for section in sections:
        for entry in (doc.get("sections") or {}).get(section) or []:
            code = entry.get("card") if isinstance(entry, Mapping) else None
            if isinstance(code, str) and (section, code) not in seen:
                seen.add((section, code))
                found.append((section, code))
    return found


def _section_pool(game: SystemEntry, catalog: Catalog, doc: Mapping[str, Any], section: str,
                  playable: list[str]) -> list[str]:
    """The cards that may go in `section`: those whose default section it is, and those of a kind (category) the
    section already holds (HAGMI's 秘策 takes any category: a 秘策 holding a unit is offered units)."""
    present = {_kind_of(catalog.cards[code]) for s, code in _list_cards(doc, (section,)) if code in catalog.cards}
    return [code for code in playable
            if game.default_section(catalog.cards[code]) == section or _kind_of(catalog.cards[code]) in present]


def candidate_changes(document: Mapping[str, Any], catalog: Catalog, *, limit: int = 30,
                      lang: str = "en") -> list[Change]:
    """The single changes of a legal list worth playing, most relevant first, at most `limit`.

    Raises ValueError (naming the first violations, in `lang`) when the list itself is not legal.

    Tried: one copy out of each distinct card of the list (per section), one copy in of a relevant catalog card
    (per section), and swaps of one copy out and one in within a section. A change is kept only when the changed
    list is legal under validate_list (so a HAGMI deck of exactly 20 兵器 gets no removal from 兵器: only swaps).

    Relevance: a card in is one the list may hold and the simulator can play (never an opponent-only category such
    as HAGMI's 機獣 and 母艦, never a card the engine's reader refuses, never a card of another system: the catalog
    is one system's), one per set of identical cards (a reprint under another code is the same change), and one that
    belongs in the section (its default section, or a kind the section already holds). For a card going out, the
    replacements are tried nearest first: same kind (category) first, then the smallest cost difference (the game's
    cost field: HAGMI cost, MWDA points, Warcaster CST), then a fixed per-pair tie-break (crc32 of "out>into");
    SWAP_TRIES_PER_CARD are tried and the first SWAPS_PER_CARD legal ones kept (fewer tries each for a long list:
    MAX_VALIDATIONS and VALIDATION_ENTRIES bound the whole search). Additions to a section are tried likewise: the
    section's most common kind first, then the nearest cost to the section's median, then code.

    Ranking and cap: rounds. In round r each card of the list gets its r-th change out — its sequence is its best
    swap, then its removal (when legal; first when it has no legal swap), then its next swaps — then each section
    gets its r-th addition. Within a
    round the list's cards go by how far their cost is from their section's median (the odd card out first: a card
    that can never be paid for is tried early), then in list order. A swap's replacement is chosen among the card's
    legal swaps as the one used least so far in the ranking (then nearest), so no card fills the slots on either
    side. The list is cut at `limit`. The same input always gives the same changes in the same order.
    """
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 0:
        raise ValueError(f"limit must be a whole number from 0, got {limit!r}")
    game = system(catalog.system)
    trial = _Trial(document, catalog, lang)
    doc, sections = trial.original, game.section_keys
    playable = _playable(game, catalog)
    pools = {section: _section_pool(game, catalog, doc, section, playable) for section in sections}
    in_list = _list_cards(doc, sections)
    section_costs = {s: [c for sec, code in in_list if sec == s
                         for c in [_cost(game, catalog.cards[code])] if c is not None] for s in sections}
    medians = {s: _median(v) for s, v in section_costs.items()}
    facts = catalog.derived("doctor.facts")  # code -> (kind, cost, signature), once per catalog
    for code in set(playable) | {code for _s, code in in_list}:
        if code not in facts:
            card = catalog.cards[code]
            facts[code] = (_kind_of(card), _cost(game, card), _signature(card))

    # Changes out, per card of the list, the odd card out first (its cost farthest from its section's median); the
    # budget of validations shared fairly, the additions keeping their share.
    def oddness(item: tuple[int, tuple[str, str]]) -> tuple[float, int]:
        position, (section, code) = item
        cost, median = facts[code][1], medians[section]
        return (-abs(cost - median) if cost is not None and median is not None else 0.0, position)

    ordered = sorted(enumerate(in_list), key=oddness)
    add_share = min(ADD_TRIES_PER_SECTION * len(sections), trial.budget // 4)
    out_budget = trial.budget - add_share
    tries = max(1, min(SWAP_TRIES_PER_CARD, out_budget // max(1, len(in_list)) - 1))
    outs: list[tuple[str, str, list[Change], Change | None]] = []
    for _position, (section, code) in ordered:
        kind, cost, signature = facts[code]
        nearest = sorted((c for c in pools[section] if c != code and facts[c][2] != signature),
                         key=lambda c: (facts[c][0] != kind, _distance(facts[c][1], cost), _spread(code, c), c))
        swaps: list[Change] = []
        for into in nearest[:tries]:
            if len(swaps) >= SWAPS_PER_CARD or trial.validations >= out_budget:
                break
            change = trial.attempt(SWAP, section, code, into)
            if change is not None:
                swaps.append(change)
        removal = trial.attempt(REMOVE, section, code, None) if trial.validations < out_budget else None
        outs.append((section, code, swaps, removal))

    # Changes in, per section.
    adds: dict[str, list[Change]] = {}
    for section in sections:
        present = [facts[code][0] for s, code in in_list if s == section]
        common = {k: present.count(k) for k in set(present)}
        median = medians[section]
        order = sorted(pools[section], key=lambda c: (-common.get(facts[c][0], 0), _distance(facts[c][1], median), c))
        found: list[Change] = []
        for into in order[:ADD_TRIES_PER_SECTION]:
            if len(found) >= ADDS_PER_SECTION or trial.validations >= trial.budget:
                break
            change = trial.attempt(ADD, section, None, into)
            if change is not None:
                found.append(change)
        adds[section] = found

    # Rounds: each card's r-th change out, then each section's r-th addition.
    ranked: list[Change] = []
    used_in: dict[str, int] = {}
    seen_keys: set[str] = set()
    queues = []
    for _section, _code, swaps, removal in outs:
        # its removal second (first when it has no legal swap)
        queues.append({"swaps": list(swaps), "removal": removal, "removal_round": 1 if swaps else 0})
    rounds = max([SWAPS_PER_CARD + 1] + [len(v) for v in adds.values()])
    for r in range(rounds):
        if len(ranked) >= limit:
            break
        for queue in queues:
            change = None
            if r == queue["removal_round"] and queue["removal"] is not None:
                change = queue["removal"]
            elif queue["swaps"]:
                best = min(range(len(queue["swaps"])), key=lambda i: (used_in.get(queue["swaps"][i].into, 0), i))
                change = queue["swaps"].pop(best)
            if change is not None and change.key not in seen_keys:
                seen_keys.add(change.key)
                if change.into is not None:
                    used_in[change.into] = used_in.get(change.into, 0) + 1
                ranked.append(change)
        for section in sections:
            if r < len(adds[section]) and adds[section][r].key not in seen_keys:
                seen_keys.add(adds[section][r].key)
                ranked.append(adds[section][r])
    return ranked[:limit]


def change_from_key(document: Mapping[str, Any], catalog: Catalog, key: str, *, lang: str = "en") -> Change:
    """The change a `key` names, made again on `document` (for a page or an API call that carries only the key).
    Raises ValueError when the key is malformed, the list illegal, or the change would make it illegal."""
    kind, _, rest = str(key).partition(":")
    section, _, cards = rest.partition(":")
    out = into = None
    if kind == SWAP:
        out, _, into = cards.partition(">")
    elif kind == REMOVE:
        out = cards
    elif kind == ADD:
        into = cards
    game = system(catalog.system)
    if kind not in KINDS or section not in game.section_keys or not cards or (kind == SWAP and not (out and into)):
        raise ValueError(f"not a list doctor change: {key!r}")
    for code in (out, into):
        if code is not None and code not in catalog.cards:
            raise ValueError(f"not a list doctor change: {key!r} (unknown card {code!r})")
    if into is not None and into not in _playable(game, catalog):
        raise ValueError(f"not a list doctor change: {key!r} ({into!r} is not a card the doctor adds)")
    change = _Trial(document, catalog, lang).attempt(kind, section, out, into)
    if change is None:
        raise ValueError(f"the change {key!r} does not keep this list legal")
    return change


# --- paired statistics -------------------------------------------------------------------------------------------

IMPACT = "impact"  # the doctor variant "test every card": every change is one copy of a distinct card out


def impact_changes(document: Mapping[str, Any], catalog: Catalog, *, lang: str = "en") -> list[Change]:
    """"Test every card": for every distinct card of the list (per section, in list order: every section the game
    has, opponent-only ones aside), the list with one copy of it out. Unlike candidate_changes the list itself
    need not be legal and a removal that breaks a construction rule (a HAGMI deck of exactly 20 兵器 with one out:
    19) is kept and measured anyway, `legal` False: the question is what this card does for the list, and a
    filler card in its place would measure the filler too. The page and the report say which removals broke a
    rule. A removal that would leave no card at all (a one-unit army) is not made: an empty list plays nothing.
    Raises ValueError when no removal is left (fewer than two cards)."""
    game = system(catalog.system)
    original = _plain(document)
    counts = _section_counts(original)
    base = validate_list(original, catalog, lang)
    before_points = _points(base["summary"])
    found: list[Change] = []
    for section, code in _list_cards(original, tuple(game.section_keys)):
        doc = _copy_document(original)
        if not _removed(doc, section, code) or not list_size(doc):  # an empty list plays nothing: not a measure
            continue
        result = validate_list(doc, catalog, lang)
        after_points = _points(result["summary"])
        before = counts.get(section, 0)
        found.append(Change(
            kind=REMOVE, out=code, into=None, section=section, section_into=None, document=doc, size_change=-1,
            key=_key(REMOVE, section, code, None), system=catalog.system, sizes=((section, before, before - 1),),
            points=(before_points, after_points) if before_points is not None and after_points is not None
            and after_points != before_points else None,
            legal=bool(result["legal"]),
        ))
    if not found:
        raise ValueError("the list needs at least two cards (units) to test one of them out")
    return found


OUTCOMES = "wld"


def _wins(outcomes: str, what: str) -> list[int]:
    if not isinstance(outcomes, str):
        raise ValueError(f"{what}: expected a string of outcomes (w, l, d), got {type(outcomes).__name__}")
    bad = sorted(set(outcomes) - set(OUTCOMES))
    if bad:
        raise ValueError(f"{what}: unknown outcome {bad[0]!r} (one character a game: w win, l loss, d draw)")
    return [1 if ch == "w" else 0 for ch in outcomes]


def paired_difference(base: str, cand: str) -> dict[str, Any]:
    """Win rates of a list (`base`) and a changed list (`cand`) played on the same seeds, and the 95 % interval of
    the difference, from the per-game differences d_i = win_cand(i) - win_base(i) (a draw is not a win).

    delta = mean(d); half_width = 1.96 · sd(d) / √n with the sample standard deviation (n - 1). Small samples:
    no game gives delta 0 and the whole range [-1, 1]; one game gives delta ± 1 clipped to [-1, 1] (nothing is known
    of the spread); when every d_i is the same non-zero value (all games changed the same way) the spread is taken
    as if one more game had d = 0, so a handful of games never gives a zero-width interval. Every d_i = 0 (the change
    played out identically on every seed) gives a zero-width interval at 0. The interval is clipped to [-1, 1].
    `unpaired_half_width` is what two independent samples of n games would give, 1.96 · √(p1(1-p1)/n + p2(1-p2)/n):
    pairing is narrower when the two lists' outcomes on a seed go together. Exact integer counts, rounded to 6
    decimals. `significant`: the interval excludes 0.
    """
    b, c = _wins(base, "base"), _wins(cand, "candidate")
    if len(b) != len(c):
        raise ValueError(f"the outcomes must be of the same games: {len(b)} base and {len(c)} candidate games")
    n = len(b)
    if n == 0:
        return {"games": 0, "base_win_rate": 0.0, "win_rate": 0.0, "delta": 0.0, "interval": [-1.0, 1.0],
                "half_width": 1.0, "unpaired_half_width": 1.0, "significant": False}
    wins_b, wins_c = sum(b), sum(c)
    diffs = [x - y for x, y in zip(c, b)]
    s1, s2 = sum(diffs), sum(d * d for d in diffs)  # s2: the games whose outcome changed (discordant pairs)
    delta = Fraction(s1, n)
    if n == 1:
        half = 1.0
    else:
        m = n + 1 if abs(s1) == n else n  # every d_i the same and non-zero: one more game with d = 0
        variance = Fraction(m * s2 - s1 * s1, m * (m - 1))
        half = Z95 * math.sqrt(variance) / math.sqrt(n)
    p1, p2 = wins_b / n, wins_c / n
    unpaired = Z95 * math.sqrt(p1 * (1 - p1) / n + p2 * (1 - p2) / n)
    low, high = max(-1.0, float(delta) - half), min(1.0, float(delta) + half)
    return {
        "games": n,
        "base_win_rate": round(p1, 6),
        "win_rate": round(p2, 6),
        "delta": round(float(delta), 6),
        "interval": [round(low, 6), round(high, 6)],
        "half_width": round(half, 6),
        "unpaired_half_width": round(unpaired, 6),
        "significant": low > 0 or high < 0,
    }


def _points_text(value: float, decimals: int = 1) -> str:
    shown = f"{abs(value) * 100:.{decimals}f}"
    return ("-" if value < 0 and float(shown) != 0 else "+") + shown


def rank_changes(results: Iterable[Any]) -> list[Any]:
    """Results best first: by delta descending, then by key (deterministic). An item is a (Change, stats) pair, or
    a mapping with "delta" (or "stats": {"delta"}) and "key" (or "change": a Change)."""

    def sort_key(item: Any) -> tuple[float, str]:
        if isinstance(item, Mapping):
            stats = item.get("stats", item)
            change = item.get("change")
            key = item.get("key", getattr(change, "key", ""))
        else:
            change, stats = item[0], item[1]
            key = getattr(change, "key", str(change))
        return (-float(stats["delta"]), str(key))

    return sorted(results, key=sort_key)


# --- exact paired tests, intervals and the correction for testing many changes at once ------------------------
#
# docs/simulations.md, "List doctor: candidates and paired statistics". A change is judged on the games whose
# outcome it changed (the discordant pairs: `gains`, games the changed list won and the list lost; `losses`, the
# other way round); a draw is not a win. The games that came out the same say nothing about which list is better.

ALPHA = 0.05  # the chance, over all the changes of a run, of calling one "better" or "worse" when it is neither
CONFIDENCE = 0.95
CORRECTION = "holm"  # Holm's step-down correction: the family-wise error rate of a stage's changes stays ≤ ALPHA


def sign_test(gains: int, losses: int) -> float:
    """The exact two-sided sign test (McNemar's exact test) on the discordant pairs: under "no effect" each of the
    m = gains + losses games that changed went either way with probability ½, so p = min(1, 2·P(X ≤ min(gains,
    losses))) for X ~ Binomial(m, ½), summed exactly with integers (always exact, whatever m). No game changed: 1."""
    for value in (gains, losses):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(f"gains and losses are counts of games, got {value!r}")
    m = gains + losses
    if m == 0:
        return 1.0
    k = min(gains, losses)
    term, tail = 1, 1  # C(m, 0)
    for i in range(k):
        term = term * (m - i) // (i + 1)
        tail += term
    return float(min(Fraction(1), Fraction(2 * tail, 2 ** m)))


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's adjusted p-values, in the order given: with the p-values sorted p(1) ≤ … ≤ p(m), the j-th smallest is
    adjusted to max over i ≤ j of min(1, (m − i + 1)·p(i)). Rejecting every adjusted p < α keeps the chance of any
    false rejection among the m tests at most α, whatever their dependence (ties keep the given order)."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: (p_values[i], i))
    adjusted = [1.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * float(p_values[i])))
        adjusted[i] = running
    return adjusted


def benjamini_hochberg(p_values: Sequence[float]) -> list[float]:
    """Benjamini–Hochberg adjusted p-values (false discovery rate), in the order given: the j-th smallest is
    min over i ≥ j of min(1, m·p(i)/i). Not the doctor's correction (Holm is: a player acts on one change, so one
    false "better" is one too many); kept for comparison in benchmarks/bench_doctor.py."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: (p_values[i], i))
    adjusted = [1.0] * m
    running = 1.0
    for rank in range(m - 1, -1, -1):
        i = order[rank]
        running = min(running, min(1.0, m * float(p_values[i]) / (rank + 1)))
        adjusted[i] = running
    return adjusted


def _betacf(a: float, b: float, x: float) -> float:
    """The continued fraction of the regularised incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 100_000):
        m2 = 2 * m
        for aa in (m * (b - m) * x / ((qam + m2) * (a + m2)), -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))):
            d = 1.0 + aa * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + aa / c
            c = c if abs(c) > tiny else tiny
            step = d * c
            h *= step
        if abs(step - 1.0) < 1e-15:
            break
    return h


def _betainc(a: float, b: float, x: float) -> float:
    """I_x(a, b), the regularised incomplete beta function (P(X ≥ a) for X ~ Binomial(a + b − 1, x))."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def _beta_quantile(q: float, a: float, b: float) -> float:
    low, high = 0.0, 1.0
    for _ in range(80):
        mid = (low + high) / 2
        if _betainc(a, b, mid) < q:
            low = mid
        else:
            high = mid
    return (low + high) / 2


def clopper_pearson(successes: int, trials: int, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """The exact (Clopper–Pearson) interval of a binomial proportion: never narrower than the data allow. 0 of n
    gives [0, 1 − (α/2)^(1/n)] (about 3.7/n at 95 %: the rule of three's two-sided cousin); n of n the mirror."""
    if trials <= 0:
        return 0.0, 1.0
    tail = (1.0 - confidence) / 2
    low = 0.0 if successes == 0 else (tail ** (1.0 / trials) if successes == trials
                                      else _beta_quantile(tail, successes, trials - successes + 1))
    high = 1.0 if successes == trials else (1.0 - tail ** (1.0 / trials) if successes == 0
                                             else _beta_quantile(1.0 - tail, successes + 1, trials - successes))
    return low, high


def _discordant(base: str, cand: str) -> tuple[int, int, int, int]:
    """(gains, losses, the list's wins, the changed list's wins) of two outcome strings of the same games."""
    b, c = _wins(base, "base"), _wins(cand, "candidate")
    if len(b) != len(c):
        raise ValueError(f"the outcomes must be of the same games: {len(b)} base and {len(c)} candidate games")
    gains = sum(1 for x, y in zip(b, c) if y and not x)
    losses = sum(1 for x, y in zip(b, c) if x and not y)
    return gains, losses, sum(b), sum(c)


def paired_test(parts: Iterable[tuple[float, str, str]], confidence: float = CONFIDENCE) -> dict[str, Any]:
    """A change judged on the same games as the list: (weight, the list's outcomes, the changed list's outcomes)
    per opponent ("w"/"l"/"d" by game index), weights normalised.

    delta = Σ w·(gains − losses)/n. `p_value`: the exact sign test on all the discordant pairs when every opponent
    weighs the same (one opponent included); with unequal weights, the score test of the weighted difference (under
    "no effect" each discordant game is ±w/n with probability ½: z = delta / √(Σ w²·m/n²)), `exact` False.
    `interval`: 95 % for the paired difference of win rates, from exact Clopper–Pearson intervals of each
    opponent's gain rate and loss rate at 1 − 0.05/(2·opponents) each (Bonferroni): delta ∈ [Σ w(gain_low −
    loss_high), Σ w(gain_high − loss_low)], valid whatever the games' dependence, never of zero width (no game
    changed of n: about ±4.4/n). Conservative: a little wider than the test, which decides the verdict."""
    parts = [(float(w), base, cand) for w, base, cand in parts if w > 0]
    if not parts:
        raise ValueError("paired_test needs at least one opponent with a weight above 0")
    total = sum(w for w, _b, _c in parts)
    level = 1.0 - (1.0 - confidence) / (2 * len(parts))
    rows = []
    for w, base, cand in parts:
        gains, losses, wins_b, wins_c = _discordant(base, cand)
        rows.append((w / total, len(base), gains, losses, wins_b, wins_c))
    n_max = max(n for _w, n, *_ in rows)
    delta = sum(w * (g - f) / n for w, n, g, f, _b, _c in rows if n)
    low = high = 0.0
    for w, n, g, f, _b, _c in rows:
        g_low, g_high = clopper_pearson(g, n, level)
        f_low, f_high = clopper_pearson(f, n, level)
        low += w * (g_low - f_high)
        high += w * (g_high - f_low)
    gains, losses = sum(r[2] for r in rows), sum(r[3] for r in rows)
    exact = len({round(r[0], 12) for r in rows}) == 1 and len({r[1] for r in rows}) == 1
    if exact:
        p_value = sign_test(gains, losses)
    else:
        variance = sum(w * w * (g + f) / (n * n) for w, n, g, f, _b, _c in rows if n)
        p_value = 1.0 if variance <= 0 else math.erfc(abs(delta) / math.sqrt(variance) / math.sqrt(2))
    return {
        "games": n_max,
        "gains": gains,
        "losses": losses,
        "base_win_rate": round(sum(w * b / n for w, n, _g, _f, b, _c in rows if n), 6),
        "win_rate": round(sum(w * c / n for w, n, _g, _f, _b, c in rows if n), 6),
        "delta": round(delta, 6),
        "interval": [round(max(-1.0, low), 6), round(min(1.0, high), 6)],
        "half_width": round((min(1.0, high) - max(-1.0, low)) / 2, 6),
        "p_value": round(p_value, 9),
        "exact": exact,
    }


def _p_text(p: float) -> str:
    return "< 0.001" if p < 0.001 else f"{p:.3f}"


def _interval_text(low: float, high: float) -> tuple[str, str]:
    """Both ends in percentage points, as many decimals (1 to 4) as it takes for them to differ and for an end that
    is not 0 not to read 0: an interval never reads "+0.0 to +0.0"."""
    def end(value: float, decimals: int) -> str:
        return ("-" if value < 0 else "+") + f"{abs(value) * 100:.{decimals}f}"

    def unclear(decimals: int) -> bool:  # both ends the same, or an end that is not 0 shown as 0
        a, b = round(low * 100, decimals), round(high * 100, decimals)
        return a == b or (low != 0 and a == 0) or (high != 0 and b == 0)

    decimals = 1
    while decimals < 4 and unclear(decimals):
        decimals += 1
    return end(low, decimals), end(high, decimals)


VERDICTS = ("better", "none", "worse")


def sentence(stats: Mapping[str, Any], words: str, label: str | None, lang: str = "en",
             verdict: str = "none") -> str:
    """A change in one line: its verdict in words, the change of win rate in percentage points (sign always shown),
    its 95 % interval (never "±0.0"), the adjusted p-value and the change in words, with its label in brackets.

    "Confirmed better: +4.1 % (95 % interval +1.2 to +7.0; adjusted p 0.003): replace 1× A with 1× B"
    "改善を確認：+4.1 %（95 %区間 +1.2〜+7.0、補正後のp値 0.003）：A 1枚をB 1枚に入れ替える"
    "No detectable effect: …" / "検出できる効果なし：…"; "Worse: …" / "悪化：…"."""
    delta = float(stats["delta"])
    low, high = _interval_text(*stats["interval"])
    p = _p_text(float(stats.get("adjusted_p", stats.get("p_value", 1.0))))
    if lang == "ja":
        head = {"better": "改善を確認", "worse": "悪化", "none": "検出できる効果なし"}[verdict]
        return (f"{head}：{_points_text(delta)} %（95 %区間 {low}〜{high}、補正後のp値 {p}）：{words}"
                + (f"（{label}）" if label else ""))
    head = {"better": "Confirmed better", "worse": "Worse", "none": "No detectable effect"}[verdict]
    return (f"{head}: {_points_text(delta)} % (95 % interval {low} to {high}; adjusted p {p}): {words}"
            + (f" ({label})" if label else ""))


IMPACT_VERDICTS = ("helps", "none", "hurts")
MAX_IMPACT_LEADERS = 6  # cards replayed on fresh seeds by "test every card" (the budget may allow fewer)


def impact_sentence(stats: Mapping[str, Any], name: str, lang: str = "en", verdict: str = "none",
                    legal: bool = True) -> str:
    """One card's measured effect in one line: what the list wins with the card minus what it wins with one copy
    out, on the same games, in percentage points with its 95 % interval and the adjusted p-value.

    "Helps (confirmed): +6.2 % (95 % interval +2.0 to +10.1; adjusted p 0.004) for 1× NAME"
    "効果あり（確認済み）：+6.2 %（95 %区間 +2.0〜+10.1、補正後のp値 0.004）：NAME 1枚"
    "No detectable effect: …" / "検出できる効果なし：…"; "Hurts (confirmed): …" / "逆効果（確認済み）：…"."""
    effect = -float(stats["delta"])
    low, high = _interval_text(-float(stats["interval"][1]), -float(stats["interval"][0]))
    p = _p_text(float(stats.get("adjusted_p", stats.get("p_value", 1.0))))
    if lang == "ja":
        head = {"helps": "効果あり（確認済み）", "hurts": "逆効果（確認済み）", "none": "検出できる効果なし"}[verdict]
        note = "" if legal else "（1枚抜くと構築条件を満たさない）"
        return f"{head}：{_points_text(effect)} %（95 %区間 {low}〜{high}、補正後のp値 {p}）：{name} 1枚{note}"
    head = {"helps": "Helps (confirmed)", "hurts": "Hurts (confirmed)", "none": "No detectable effect"}[verdict]
    note = "" if legal else " (the list breaks a construction rule with one copy out)"
    return f"{head}: {_points_text(effect)} % (95 % interval {low} to {high}; adjusted p {p}) for 1× {name}{note}"


def verdict_sentence(change: Change, stats: Mapping[str, Any], cards: Mapping[str, Mapping[str, Any]],
                     lang: str = "en", verdict: str = "none") -> str:
    """`sentence` for a Change (its words and label in `lang`)."""
    return sentence(stats, change.describe(cards, lang), change.label(lang), lang, verdict)


# --- a doctor run: the baseline and every change, against every opponent, on the same seeds ------------------

BASELINE = "baseline"  # the key of the list as it is
SCREEN, CONFIRM = "screen", "confirm"
STAGES = (SCREEN, CONFIRM)
# The two stages (docs/simulations.md "List doctor: stages and the budget"). The screen plays the list and every
# change MIN_SCREEN_GAMES games at least against each opponent; the confirm stage replays the list and the leaders
# (at most MAX_LEADERS changes that did better than the list in the screen) on fresh seeds, MIN_CONFIRM_GAMES at
# least each: enough to find a 5-point change in win rate 80 % of the time (exact sign test, α = 0.05, up to 10 %
# of the games changed by the change; the reasoning is in the docs).
MIN_SCREEN_GAMES = 100
MIN_CONFIRM_GAMES = 300
SCREEN_SHARE = 0.5  # of the budget, when it is more than the minimum
MAX_LEADERS = 3
RARELY_USED = 0.02  # a card (unit) used less than this per copy and game is named as a candidate to cut


class TooFewGames(ValueError):
    """The budget cannot screen every change and confirm one: `minimum` games in all are needed."""

    def __init__(self, games: int, minimum: int, changes: int, opponents: int, impact: bool = False) -> None:
        self.games, self.minimum, self.changes, self.opponents = games, minimum, changes, opponents
        what = (f"a test-every-card run of {changes} card{'s' if changes != 1 else ''}" if impact
                else f"a list doctor run of {changes} change{'s' if changes != 1 else ''}")
        super().__init__(
            f"games: {what} against {opponents} "
            f"opponent{'s' if opponents != 1 else ''} needs at least {minimum} games in all ({MIN_SCREEN_GAMES} "
            f"games per list and opponent to screen the list and its changes, then {MIN_CONFIRM_GAMES} per list "
            f"and opponent to confirm a change on fresh seeds); {games} given. Fewer games could not tell a "
            "5-point change from luck.")


def minimum_games(changes: int, opponents: int) -> int:
    """The smallest budget of a doctor run of `changes` changes against `opponents` opponents: the screen at
    MIN_SCREEN_GAMES per list (the list and each change) and opponent, then one leader confirmed at
    MIN_CONFIRM_GAMES per list (the list and the leader) and opponent."""
    return opponents * ((changes + 1) * MIN_SCREEN_GAMES + 2 * MIN_CONFIRM_GAMES)


def confirm_seed(seed: int, round_: int = 1) -> int:
    """The seed of confirm round `round_`: derive_seed(seed, "doctor", "confirm", round), kept to 63 bits (a run
    seed is below 2**63). Fresh games: none of them is a screen game."""
    from rules_engine.core.rng import derive_seed

    return derive_seed(seed, "doctor", "confirm", round_) >> 1


def _shape(batch: Mapping[str, Any]) -> tuple[list[tuple[str, float]], list[str]]:
    """(opponent key, weight) of every opponent and the change keys, in the batch's order."""
    opponents: list[tuple[str, float]] = []
    changes: list[str] = []
    for leg in batch["legs"]:
        if leg["change"] == BASELINE:
            opponents.append((leg["opponent"], leg.get("weight", 1)))
        elif leg["change"] not in changes:
            changes.append(leg["change"])
    return opponents, changes


def screen_stage(batch: Mapping[str, Any], *, games: int, seed: int) -> dict[str, Any]:
    """The first stage of a doctor run of budget `games`: every leg (the list and each change against each
    opponent) on the run seed, max(MIN_SCREEN_GAMES, SCREEN_SHARE of the budget) games each, leaving at least
    MIN_CONFIRM_GAMES per list and opponent for one leader. TooFewGames below minimum_games."""
    opponents, changes = _shape(batch)
    minimum = minimum_games(len(changes), len(opponents))
    if isinstance(games, bool) or not isinstance(games, int) or games < minimum:
        raise TooFewGames(games, minimum, len(changes), len(opponents), impact=batch.get("variant") == IMPACT)
    lists = len(batch["legs"])
    reserve = 2 * len(opponents) * MIN_CONFIRM_GAMES
    per_list = min(max(MIN_SCREEN_GAMES, int(games * SCREEN_SHARE) // lists), (games - reserve) // lists)
    return {"stage": SCREEN, "round": 0, "seed": seed, "games": per_list, "legs": list(range(lists))}


def stage_batch(batch: Mapping[str, Any], stage: Mapping[str, Any]) -> dict[str, Any]:
    """The legs a stage plays, as a batch of their own (rules_engine.batch.run_batch plays it)."""
    return {**batch, "legs": [batch["legs"][i] for i in stage["legs"]]}


def stage_chunks(batch: Mapping[str, Any], stages: Sequence[Mapping[str, Any]],
                 chunk_size: int | None = None) -> list[tuple[int, int, range]]:
    """(stage index, leg index, game indices) of every chunk of a doctor run, stage after stage, each stage leg by
    leg (the screen's chunks are exactly rules_engine.batch.batch_chunks of the batch). Stage s's games play on
    stages[s]["seed"]."""
    from rules_engine.core.runner import chunk_ranges
    from rules_engine.simulation import chunk_size_for

    out: list[tuple[int, int, range]] = []
    for index, stage in enumerate(stages):
        for leg in stage["legs"]:
            size = chunk_size or chunk_size_for(batch["legs"][leg]["snapshot"])
            out.extend((index, leg, games) for games in chunk_ranges(stage["games"], size))
    return out


def stage_summaries(batch: Mapping[str, Any], stages: Sequence[Mapping[str, Any]],
                    chunks: Iterable[tuple[int, int, Any]]) -> list[dict[int, Any]]:
    """Merge chunk summaries (stage, leg, Summary), in chunk order, into one summary per leg of each stage."""
    from rules_engine.core.runner import merge_summaries

    parts: list[dict[int, list[Any]]] = [{leg: [] for leg in stage["legs"]} for stage in stages]
    for stage, leg, summary in chunks:
        parts[stage][leg].append(summary)
    return [{leg: merge_summaries(found) for leg, found in stage.items()} for stage in parts]


def _analyse(batch: Mapping[str, Any], stage: Mapping[str, Any], merged: Mapping[int, Any]) -> dict[str, Any]:
    """Every change a stage played: its paired test against the list over the opponents, and Holm's adjusted
    p-value over the stage's changes (`adjusted_p`, `significant`: adjusted p < ALPHA)."""
    from rules_engine.batch import outcomes_of

    opponents, _changes = _shape(batch)
    weights = dict(opponents)
    outcomes: dict[tuple[str, str], str] = {}
    for index in stage["legs"]:
        leg = batch["legs"][index]
        outcomes[(leg["change"], leg["opponent"])] = outcomes_of(merged[index], stage["games"])
    keys = [key for key in _shape(batch)[1] if all((key, o) in outcomes for o, _w in opponents)]
    found: dict[str, Any] = {}
    for key in keys:
        stats = paired_test((weights[o], outcomes[(BASELINE, o)], outcomes[(key, o)]) for o, _w in opponents)
        stats["opponents"] = [
            {"opponent": o, "weight": round(w / (sum(x for _o, x in opponents) or 1), 6),
             "stats": paired_test([(1.0, outcomes[(BASELINE, o)], outcomes[(key, o)])])}
            for o, w in opponents]
        found[key] = stats
    for key, adjusted in zip(keys, holm([found[k]["p_value"] for k in keys])):
        found[key]["adjusted_p"] = round(adjusted, 9)
        found[key]["significant"] = adjusted < ALPHA
    return found


def next_stage(batch: Mapping[str, Any], stages: Sequence[Mapping[str, Any]], merged: Sequence[Mapping[int, Any]],
               *, games: int, seed: int) -> dict[str, Any] | None:
    """The stage to play after the last one played, or None when the run is over.

    After the screen: the leaders are the changes whose win rate beat the list's (delta > 0), smallest p-value
    first (then the larger delta, then the key), at most MAX_LEADERS; the rest of the budget is spread over the
    list and the leaders against every opponent (fewer leaders when each would get less than MIN_CONFIRM_GAMES),
    played on confirm_seed(seed, 1). No leader (nothing beat the list): the run is over, its unspent games say so.
    "Test every card" (batch variant IMPACT): the leaders are the removals whose screen found any effect, either
    way (delta ≠ 0), smallest p-value first, at most MAX_IMPACT_LEADERS. After the confirm stage: over."""
    if len(stages) != 1 or stages[0]["stage"] != SCREEN:
        return None
    screen = _analyse(batch, stages[0], merged[0])
    if batch.get("variant") == IMPACT:  # every card: the clearest effects either way, the same number of games each
        leaders = sorted((key for key, stats in screen.items() if stats["delta"] != 0),
                         key=lambda key: (screen[key]["p_value"], -abs(screen[key]["delta"]), key)
                         )[:MAX_IMPACT_LEADERS]
    else:
        leaders = sorted((key for key, stats in screen.items() if stats["delta"] > 0),
                         key=lambda key: (screen[key]["p_value"], -screen[key]["delta"], key))[:MAX_LEADERS]
    opponents, _changes = _shape(batch)
    left = games - sum(stage["games"] * len(stage["legs"]) for stage in stages)
    while leaders and left // ((len(leaders) + 1) * len(opponents)) < MIN_CONFIRM_GAMES:
        leaders.pop()
    if not leaders:
        return None
    playing = {BASELINE, *leaders}
    legs = [i for i, leg in enumerate(batch["legs"]) if leg["change"] in playing]
    return {"stage": CONFIRM, "round": 1, "seed": confirm_seed(seed, 1),
            "games": left // ((len(leaders) + 1) * len(opponents)), "legs": legs, "leaders": leaders}


def doctor_batch(
    baseline: Mapping[str, Any],
    changes: Iterable[Change],
    opponents: Iterable[tuple[str, float, Mapping[str, Any]]],
    cards: Mapping[str, Mapping[str, Any]],
    *, variant: str | None = None,
) -> dict[str, Any]:
    """The hangar.batch/1 of a doctor run: for each (key, weight, snapshot) of an opponent — the list's snapshot
    against it (`baseline` gives only its policies and options) — the list as it is and every changed list. A leg
    is keyed "<change key>@<opponent key>" and keeps the change's words and label in both languages, so the run's
    result is read from the batch alone. `cards`: the catalog (a change's new card is not in the list's snapshot)."""
    from rules_engine.batch import BATCH_SCHEMA
    from rules_engine.simulation import build_snapshot

    changes = list(changes)
    legs = []
    for opponent_key, weight, snapshot in opponents:
        variants = [(BASELINE, snapshot.get("list") or {}, None)] + [(c.key, c.document, c) for c in changes]
        for key, document, change in variants:
            leg_snapshot = build_snapshot(
                document, cards, snapshot.get("opponent") or {}, policy=snapshot.get("policy"),
                options=snapshot.get("options") or None, opponent_policy=snapshot.get("opponent_policy"),
                seats=snapshot.get("seats"),
            )
            leg: dict[str, Any] = {"key": f"{key}@{opponent_key}", "change": key, "opponent": opponent_key,
                                   "weight": weight, "snapshot": leg_snapshot}
            if change is not None:
                leg["about"] = {
                    **{name: value for name, value in change.as_dict(cards, "en").items()
                       if name not in ("description", "label")},
                    "description": {lang: change.describe(cards, lang) for lang in ("en", "ja")},
                    "label": {lang: change.label(lang) for lang in ("en", "ja")},
                    "name": {lang: _name(cards, change.out, lang) for lang in ("en", "ja")},
                    "document": _plain(change.document),
                }
            legs.append(leg)
    found = {"schema": BATCH_SCHEMA, "kind": "doctor", "system": baseline.get("system"),
             "list": _plain(baseline.get("list") or {}), "legs": legs}
    if variant is not None:  # IMPACT: "test every card" (impact_changes), judged by what each card does
        if variant != IMPACT:
            raise ValueError(f"variant: expected {IMPACT!r} or none, got {variant!r}")
        found["variant"] = variant
    return found


def rarely_used(batch: Mapping[str, Any], baseline: Sequence[tuple[float, Any]], games: int) -> list[dict[str, Any]]:
    """The list's cards (units) used less than RARELY_USED times per copy and game, never-used first: from the
    game's per-card tally of the list's own games (SystemEntry.use_tally: HAGMI cards played from hand, MWDA damage
    dealt by each unit, Warcaster cyphers played), over the opponents by weight. `baseline`: (normalised weight,
    summary) per opponent. Only the sections the tally covers are read (HAGMI's damage deck is turned up, never
    played). [] for a game without such a tally."""
    game = system(batch.get("system") or "")
    tally, sections = getattr(game, "use_tally", ("", ())) or ("", ())
    if not tally or not games:
        return []
    cards_of = {}
    for leg in batch["legs"]:
        cards_of = (leg["snapshot"].get("cards") or {}) if leg["change"] == BASELINE else cards_of
        if cards_of:
            break
    copies: dict[tuple[str, str], int] = {}
    for section in sections:
        for entry in ((batch.get("list") or {}).get("sections") or {}).get(section) or []:
            if isinstance(entry, Mapping) and isinstance(entry.get("card"), str):
                qty = entry.get("qty", 1)
                copies[(section, entry["card"])] = copies.get((section, entry["card"]), 0) + (
                    qty if isinstance(qty, int) and not isinstance(qty, bool) and qty > 0 else 1)
    found = []
    for (section, code), count in copies.items():
        used = 0.0
        total = 0
        for weight, summary in baseline:
            counts = summary.tally(tally).to_dict()["counts"] if tally in summary else {}
            used += weight * counts.get(code, 0) / games
            total += counts.get(code, 0)
        per_copy = used / count
        if per_copy < RARELY_USED:
            card = cards_of.get(code) or {}
            found.append({"card": code, "section": section, "copies": count, "name": card.get("name") or code,
                          "name_en": card.get("name_en") or card.get("name") or code,
                          "per_game": round(per_copy, 6), "never": total == 0})
    return sorted(found, key=lambda row: (not row["never"], row["per_game"], row["section"], row["card"]))


def doctor_result(batch: Mapping[str, Any], stages: Sequence[Mapping[str, Any]],
                  merged: Sequence[Mapping[int, Any]], *, games: int, seed: int) -> dict[str, Any]:
    """The doctor's report from its stages (each stage's merged summary per leg, `stage_summaries`).

    `baseline`: the list's own result against each opponent in the screen (exactly a plain `simulate` of
    stages[0]["games"] games with the run seed). `rarely_used`: the cards to cut first. `changes`: every change
    with its verdict — "better" only when the confirm stage, on fresh seeds, finds it better with Holm's adjusted
    p < ALPHA and its 95 % interval above 0; "worse" when its last stage finds it worse so (adjusted p < ALPHA, the
    interval below 0); else "none" (no detectable effect) — the figures of
    the last stage it played (`stage`), its screen figures, its confirm figures (or None), its sentence in English
    and Japanese. Confirmed changes first (best first), then the changes that cut a rarely used card, then the rest
    by their change in win rate."""
    from rules_engine.batch import leg_results, weighted_total
    from rules_engine.simulation import ENGINE_VERSION

    legs = batch["legs"]
    opponents, keys = _shape(batch)
    weight_sum = sum(w for _o, w in opponents) or 1
    screen_stage_ = stages[0]
    base_index = [i for i in screen_stage_["legs"] if legs[i]["change"] == BASELINE]
    sub = {**batch, "legs": [legs[i] for i in base_index]}
    results = leg_results(sub, [merged[0][i] for i in base_index], games=screen_stage_["games"], seed=seed)
    baseline_rows = []
    for i, result in zip(base_index, results):
        leg = legs[i]
        opponent = leg["snapshot"].get("opponent") or {}
        baseline_rows.append({"opponent": leg["opponent"], "name": opponent.get("name"),
                              "name_en": opponent.get("name_en"),
                              "weight": round(leg.get("weight", 1) / weight_sum, 6), "result": result})
    total = weighted_total([(row["weight"], row["result"]["wins"], screen_stage_["games"]) for row in baseline_rows])
    unused = rarely_used(batch, [(row["weight"], merged[0][i]) for row, i in zip(baseline_rows, base_index)],
                         screen_stage_["games"])
    unused_codes = {(row["section"], row["card"]) for row in unused}

    analysed = [_analyse(batch, stage, found) for stage, found in zip(stages, merged)]
    screen = analysed[0]
    confirm = analysed[1] if len(analysed) > 1 else {}
    about_of = {}
    for leg in legs:
        if leg["change"] != BASELINE and leg["change"] not in about_of:
            about_of[leg["change"]] = leg["about"]
    impact = batch.get("variant") == IMPACT
    changes = []
    for key in keys:
        about = about_of[key]
        final = confirm.get(key) or screen[key]
        low, high = final["interval"]
        if impact:  # a card helps when the list does worse without it, confirmed on fresh seeds; hurts: the mirror
            confirmed = key in confirm and final["significant"]
            verdict = ("helps" if confirmed and high < 0 else "hurts" if confirmed and low > 0 else "none")
        elif key in confirm and final["significant"] and final["delta"] > 0 and low > 0:
            verdict = "better"
        elif final["significant"] and final["delta"] < 0 and high < 0:
            verdict = "worse"
        else:
            verdict = "none"
        stats = {name: value for name, value in final.items() if name != "opponents"}
        changes.append({
            "key": key,
            **{name: about[name] for name in ("kind", "out", "into", "section", "section_into", "size_change",
                                              "sizes", "points", "points_change")},
            "changes_count": bool(about["size_change"] or about["sizes"] or about["points_change"]),
            "description": about["description"],
            "label": about["label"],
            "stage": CONFIRM if key in confirm else SCREEN,
            "verdict": verdict,
            "confirmed": verdict == "better",
            "p_value": stats["p_value"],
            "adjusted_p": stats["adjusted_p"],
            "cuts_rarely_used": about["out"] is not None and (about["section"], about["out"]) in unused_codes,
            "stats": stats,
            "screen": {name: value for name, value in screen[key].items() if name != "opponents"},
            "confirm": ({name: value for name, value in confirm[key].items() if name != "opponents"}
                        if key in confirm else None),
            "sentence": {lang: sentence(stats, about["description"][lang], about["label"][lang], lang,
                                        "none" if impact else verdict)
                         for lang in ("en", "ja")},
            "opponents": final["opponents"],
        })
        if impact:
            name = about.get("name") or {lang: about.get("out") for lang in ("en", "ja")}
            legal = about.get("legal", True)
            changes[-1].update(
                card=about["out"], name=name, legal=legal,
                effect=round(-stats["delta"], 6), effect_interval=[round(-high, 6), round(-low, 6)],
                confirmed=verdict == "hurts",  # the removal is confirmed better: the only change worth applying
                sentence={lang: impact_sentence(stats, name[lang], lang, verdict, legal) for lang in ("en", "ja")})
    if impact:  # the card that does most for the list first
        changes.sort(key=lambda c: (-c["effect"], c["key"]))
    else:
        changes.sort(key=lambda c: (not c["confirmed"], not c["cuts_rarely_used"], -c["stats"]["delta"], c["key"]))
    first = legs[0]["snapshot"]
    played = sum(stage["games"] * len(stage["legs"]) for stage in stages)
    return {
        "kind": "doctor",
        "system": batch.get("system"),
        "policy": first.get("policy"),
        **({"opponent_policy": first["opponent_policy"]} if first.get("opponent_policy") else {}),
        "games": games,
        "games_played": played,
        "seed": seed,
        "engine_version": ENGINE_VERSION,
        "correction": {"method": CORRECTION, "alpha": ALPHA, "confidence": CONFIDENCE},
        "minimum_games": minimum_games(len(keys), len(opponents)),
        "stages": [{"stage": stage["stage"], "round": stage["round"], "seed": stage["seed"],
                    "games": stage["games"], "lists": len(stage["legs"]) // max(1, len(opponents)),
                    "games_total": stage["games"] * len(stage["legs"]),
                    "changes": [legs[i]["change"] for i in stage["legs"]
                                if legs[i]["change"] != BASELINE and legs[i]["opponent"] == opponents[0][0]]}
                   for stage in stages],
        "baseline": {"opponents": baseline_rows, "total": total},
        "rarely_used": unused,
        "changes": changes,
        "best": None if impact else next((c["key"] for c in changes if c["confirmed"]), None),
        **({"variant": IMPACT} if impact else {}),
    }


def run_doctor(batch: Mapping[str, Any], *, games: int, seed: int, workers: int = 1, chunk_size: int | None = None,
               on_stage: Any = None, on_chunk: Any = None) -> dict[str, Any]:
    """A whole doctor run here (workers=1) or in local processes: the screen, then the confirm stage when a change
    beat the list; the same report, byte for byte, as the workers' run of the same batch, budget and seed.
    TooFewGames below minimum_games. `on_stage(stage)` is told before each stage, `on_chunk(done, total)` after each
    chunk of it."""
    from rules_engine.batch import run_batch

    stages = [screen_stage(batch, games=games, seed=seed)]
    merged: list[dict[int, Any]] = []
    while True:
        stage = stages[-1]
        if on_stage:
            on_stage(stage)
        summaries = run_batch(stage_batch(batch, stage), games=stage["games"], seed=stage["seed"], workers=workers,
                              chunk_size=chunk_size, on_chunk=on_chunk)
        merged.append(dict(zip(stage["legs"], summaries)))
        following = next_stage(batch, stages, merged, games=games, seed=seed)
        if following is None:
            break
        stages.append(following)
    return doctor_result(batch, stages, merged, games=games, seed=seed)
