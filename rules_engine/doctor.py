"""The list doctor (issue 20), engine side: which single changes of a list to try, and how to read their games.

    from rules_engine.doctor import candidate_changes, paired_difference, verdict_sentence, rank_changes
    changes = candidate_changes(doc, catalog, limit=30)       # legal single changes, most relevant first
    stats = paired_difference("wwlw...", "wwww...")           # the list's outcomes, then a candidate's, same seeds
    verdict_sentence(change, stats, catalog.cards, "en")      # "+4.1 % (±1.2): replace 1× Supply Drop with 1× ..."

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
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rules_engine.construction import validate_list
from rules_engine.core.catalog import Catalog
from rules_engine.simulation import list_size
from rules_engine.systems import GameSystem, system

__all__ = [
    "Change", "candidate_changes", "doctor_batch", "doctor_result", "combine_paired", "sentence", "BASELINE", "change_from_key", "paired_difference", "rank_changes", "verdict_sentence",
    "REMOVE", "ADD", "SWAP",
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
    total (MWDA's `points`, DESIGN.md §2.3) and the change moves it, else None. `label(lang)` puts both in words.
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
            "description": self.describe(cards, lang), "label": self.label(lang),
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


def _playable(game: GameSystem, catalog: Catalog) -> list[str]:
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


def _cost(game: GameSystem, card: Mapping[str, Any]) -> int | None:
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


def _section_pool(game: GameSystem, catalog: Catalog, doc: Mapping[str, Any], section: str,
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


def _points_text(value: float) -> str:
    shown = f"{abs(value) * 100:.1f}"
    return ("-" if value < 0 and shown != "0.0" else "+") + shown


def verdict_sentence(change: Change, stats: Mapping[str, Any], cards: Mapping[str, Mapping[str, Any]],
                     lang: str = "en") -> str:
    """"+4.1 % (±1.2): replace 1× Supply Drop with 1× Recon Drone" / "+4.1 %（±1.2）：補給物資 1枚を偵察ドローン 1枚に
    入れ替える": the change of win rate in percentage points, one decimal, the sign always shown, the half-width of
    its 95 % interval, the change in words and, when it changes the count or the points, its label in brackets."""
    return sentence(stats, change.describe(cards, lang), change.label(lang), lang)


def sentence(stats: Mapping[str, Any], words: str, label: str | None, lang: str = "en") -> str:
    """`verdict_sentence` from a change's words and label (what a stored doctor run keeps of each change)."""
    delta, half = float(stats["delta"]), float(stats["half_width"])
    if lang == "ja":
        return f"{_points_text(delta)} %（±{half * 100:.1f}）：{words}" + (f"（{label}）" if label else "")
    return f"{_points_text(delta)} % (±{half * 100:.1f}): {words}" + (f" ({label})" if label else "")


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


# --- a doctor run: the baseline and every change, against every opponent, on the same seeds ------------------

BASELINE = "baseline"  # the key of the list as it is


def doctor_batch(
    baseline: Mapping[str, Any],
    changes: Iterable[Change],
    opponents: Iterable[tuple[str, float, Mapping[str, Any]]],
    cards: Mapping[str, Mapping[str, Any]],
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
                    "document": _plain(change.document),
                }
            legs.append(leg)
    return {"schema": BATCH_SCHEMA, "kind": "doctor", "system": baseline.get("system"),
            "list": _plain(baseline.get("list") or {}), "legs": legs}


def combine_paired(parts: Iterable[tuple[float, Mapping[str, Any]]]) -> dict[str, Any]:
    """One paired comparison over several opponents: (weight, `paired_difference`) each, weights normalised. The
    opponents' games are independent, so delta = Σ w·delta_k and var = Σ w²·var_k (var_k from the half-widths)."""
    parts = [(w, stats) for w, stats in parts if w > 0]
    total = sum(w for w, _ in parts)
    if len(parts) == 1:
        return dict(parts[0][1])
    out: dict[str, Any] = {"games": sum(stats["games"] for _, stats in parts)}
    for name in ("base_win_rate", "win_rate", "delta"):
        out[name] = round(sum(w / total * stats[name] for w, stats in parts), 6)
    half = Z95 * math.sqrt(sum((w / total) ** 2 * (stats["half_width"] / Z95) ** 2 for w, stats in parts))
    unpaired = Z95 * math.sqrt(sum((w / total) ** 2 * (stats["unpaired_half_width"] / Z95) ** 2 for w, stats in parts))
    low, high = max(-1.0, out["delta"] - half), min(1.0, out["delta"] + half)
    out.update(interval=[round(low, 6), round(high, 6)], half_width=round(half, 6),
               unpaired_half_width=round(unpaired, 6), significant=low > 0 or high < 0)
    return out


def doctor_result(batch: Mapping[str, Any], summaries: list[Any], *, games: int, seed: int) -> dict[str, Any]:
    """The doctor's report: the list's own result against each opponent (exactly a plain `simulate` with this seed),
    then every change, best first, with its paired win-rate change over the weighted opponents, its interval and its
    sentence in English and Japanese."""
    from rules_engine.batch import leg_results, outcomes_of, weighted_total
    from rules_engine.simulation import ENGINE_VERSION

    results = leg_results(batch, summaries, games=games, seed=seed)
    legs = batch["legs"]
    outcomes = {leg["key"]: outcomes_of(summary, games) for leg, summary in zip(legs, summaries)}
    opponents: list[tuple[str, float]] = []
    for leg in legs:
        if leg["change"] == BASELINE:
            opponents.append((leg["opponent"], leg.get("weight", 1)))
    weight_sum = sum(w for _, w in opponents) or 1
    baseline_rows = []
    for leg, result in zip(legs, results):
        if leg["change"] == BASELINE:
            opponent = leg["snapshot"].get("opponent") or {}
            baseline_rows.append({"opponent": leg["opponent"], "name": opponent.get("name"),
                                  "name_en": opponent.get("name_en"), "weight": round(leg.get("weight", 1) / weight_sum, 6),
                                  "result": result})
    total = weighted_total([(row["weight"], row["result"]["wins"], games) for row in baseline_rows])
    changes = []
    for leg in legs:
        if leg["change"] == BASELINE or leg["opponent"] != opponents[0][0]:
            continue
        key = leg["change"]
        per_opponent = []
        for opponent_key, weight in opponents:
            stats = paired_difference(outcomes[f"{BASELINE}@{opponent_key}"], outcomes[f"{key}@{opponent_key}"])
            per_opponent.append({"opponent": opponent_key, "weight": round(weight / weight_sum, 6), "stats": stats})
        stats = combine_paired((row["weight"], row["stats"]) for row in per_opponent)
        about = leg["about"]
        changes.append({
            "key": key,
            **{name: about[name] for name in ("kind", "out", "into", "section", "section_into", "size_change",
                                              "sizes", "points", "points_change")},
            "changes_count": bool(about["size_change"] or about["sizes"] or about["points_change"]),
            "description": about["description"],
            "label": about["label"],
            "stats": stats,
            "sentence": {lang: sentence(stats, about["description"][lang], about["label"][lang], lang)
                         for lang in ("en", "ja")},
            "opponents": per_opponent,
        })
    changes = rank_changes(changes)
    first = legs[0]["snapshot"]
    return {
        "kind": "doctor",
        "system": batch.get("system"),
        "policy": first.get("policy"),
        **({"opponent_policy": first["opponent_policy"]} if first.get("opponent_policy") else {}),
        "games": games,
        "seed": seed,
        "engine_version": ENGINE_VERSION,
        "baseline": {"opponents": baseline_rows, "total": total},
        "changes": changes,
        "best": next((c["key"] for c in changes if c["stats"]["significant"] and c["stats"]["delta"] > 0), None),
    }
