"""Display helpers for the web pages: names in the UI language, list rows, counters and chart data.

Read-only shaping of what the selectors return; no writes, no rules (the rules engine decides legality).
"""
from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Mapping
from types import SimpleNamespace
from typing import Any
from urllib.parse import urlencode

from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext

from builder import selectors
from builder.listio import example_entry, export_list_json
from cards.selectors import catalog_for, formats_for, opponents_for, system_get
from cards.systems import SECTION_LABELS, SYSTEMS
from rules_engine.core.catalog import Catalog
from rules_engine.system_entry import Presentation
from rules_engine.systems import UnknownSystem
from rules_engine.systems import system as game_system

from . import vocabulary

VERIFICATION_HEX = 10  # the tournament sheet's code: first 10 hex digits of sha256(canonical JSON) + revision


def ui_lang() -> str:
    """"ja" or "en": the language of the page being rendered (validation messages follow it)."""
    return "ja" if (get_language() or "en").startswith("ja") else "en"


def system_name(slug: str) -> str:
    info = SYSTEMS.get(slug, {})
    return info.get("name_ja" if ui_lang() == "ja" else "name", slug)


def section_label(section: str) -> str:
    labels = SECTION_LABELS.get(section)
    return labels[ui_lang()] if labels else section


def names(item: Mapping[str, Any] | None, code: str = "") -> dict[str, str]:
    """{"main": name in the UI language, "other": the other language's name or ""} for a card/format/opponent."""
    if not item:
        return {"main": code, "other": ""}
    ja, en = str(item.get("name") or code), str(item.get("name_en") or "")
    if ui_lang() == "en" and en:
        return {"main": en, "other": ja if ja != en else ""}
    return {"main": ja, "other": en if en != ja else ""}


def catalog(system: str) -> Catalog:
    return catalog_for(system) or Catalog.build(system, [], [])


def default_section(system: str, card: Mapping[str, Any]) -> str:
    """Where the editor's "add" button puts a card (the game's rule, from the registry: HAGMI its home deck H3 or
    秘策 for a 秘策-only card H7; Warcaster cyphers in the rack)."""
    return game_system(system).default_section(card)


def card_cost(system: str, card: Mapping[str, Any]) -> int | None:
    """The number the cost chart counts: HAGMI cost, MWDA points, Warcaster CST (or weapon cost)."""
    return game_system(system).card_cost(card)


def cost_field(system: str) -> str:
    """The card field the game's cost chart counts first ("cost", "points", "cst"); "cost" for an unknown game."""
    try:
        return game_system(system).cost_fields[0]
    except UnknownSystem:
        return "cost"


def cost_word(system: str) -> str:
    """What the game calls the number card_cost counts, as its filters and panel say it (docs/glossary.md): HAGMI
    コスト / Cost, MWDA ポイント / Points, Warcaster CST."""
    return vocabulary.card_field(game_system(system).cost_fields[0])


def warjack_loadout_choices(cat: Catalog) -> dict[str, Any]:
    """The cortexes and warjack weapons a Warcaster editor offers for a warjack's loadout (W5)."""
    def rows(kind: str) -> list[dict[str, Any]]:
        found = [card for card in cat.cards.values() if card.get("kind") == kind]
        return [{"code": card["code"], "names": names(card, card["code"]), "cost": card.get("cost")}
                for card in sorted(found, key=lambda card: card["code"])]

    warjacks = {code for code, card in cat.cards.items() if card.get("kind") == "warjack"}
    return {"warjacks": warjacks, "cortexes": rows("cortex"), "weapons": rows("weapon"), "choosers": weapon_choices(cat)}


def weapon_choices(cat: Catalog) -> dict[str, list[dict[str, Any]]]:
    """The weapons each hero, solo or vehicle with weapon choices (hardpoints of slot "weapon", BattleScribe data)
    offers in the editor (W5): those its choice groups name, else every weapon card that fits a "weapon" slot."""
    fitting = sorted((card for card in cat.cards.values() if card.get("kind") == "weapon"
                      and "weapon" in (card.get("hardpoints") or ())), key=lambda card: card["code"])
    choosers: dict[str, list[dict[str, Any]]] = {}
    for code, card in cat.cards.items():
        points = [p for p in card.get("hardpoints") or () if isinstance(p, Mapping) and p.get("slot") == "weapon"]
        if card.get("kind") not in ("hero", "solo", "vehicle") or not points:
            continue
        named = [c for p in points for c in p.get("weapons") or () if c in cat.cards]
        found = [cat.cards[c] for c in dict.fromkeys(named)] if named else fitting
        choosers[code] = [{"code": w["code"], "names": names(w, w["code"]), "cost": w.get("cost")} for w in found]
    return choosers


def loadout(options: Any, card: Mapping[str, Any] | None, cat: Catalog) -> dict[str, Any] | None:
    """A warjack's loadout in words, for the list page and the tournament sheet: {"cortex": part or None,
    "weapons": [part, ...], "points": the weapons' cost, "limit": the chassis' weapon_points or None}, each part
    {"code", "names", "cost"}; None when the entry is no warjack and its options name no cortex and no weapons
    (other keys are not shown)."""
    warjack = bool(card) and card.get("kind") == "warjack"  # shown even when nothing is chosen yet (W5 says so)
    if not isinstance(options, Mapping):
        options = {}
    if not warjack and not ({"cortex", "weapons"} & set(options)):
        return None

    def part(code: Any) -> dict[str, Any]:
        found = cat.cards.get(code) if isinstance(code, str) else None
        cost = found.get("cost") if found else None
        return {"code": str(code), "names": names(found, str(code)),
                "cost": cost if isinstance(cost, int) and not isinstance(cost, bool) else None}

    cortex = options.get("cortex")
    weapons = options.get("weapons")
    parts = [part(code) for code in weapons] if isinstance(weapons, list) else []
    limit = card.get("weapon_points") if card else None
    return {"cortex": part(cortex) if cortex is not None else None, "weapons": parts,
            "points": sum(p["cost"] or 0 for p in parts), "limit": limit if isinstance(limit, int) else None}


def weapon_odds_url(system: str, card: Mapping[str, Any] | None, options: Any) -> str | None:
    """Where a force entry's weapons' exact odds are (Warcaster W11, pages.card_odds): its card's fixed weapons and,
    for a warjack, the weapons chosen for it (options.weapons); None when the game has no odds or the card no
    weapon (a cypher, a cortex, a warjack with none chosen yet)."""
    if not _has_weapon_odds(system, card):
        return None
    assert card is not None
    chosen = _chosen_weapons(card, options)
    if not card.get("weapons") and not chosen:
        return None
    url = reverse("card_odds", kwargs={"system": system, "code": card["code"]})
    return f"{url}?{urlencode([('weapon', code) for code in chosen])}" if chosen else url


def weapon_odds_waiting(system: str, card: Mapping[str, Any] | None, options: Any) -> bool:
    """A warjack with no weapon chosen yet, whose odds (W11) appear once one is: its entry keeps their line's place,
    so that ticking the first weapon does not move the loadout under the player's pointer."""
    return _has_weapon_odds(system, card) and card is not None and card.get("kind") == "warjack" \
        and not card.get("weapons") and not _chosen_weapons(card, options)


def _has_weapon_odds(system: str, card: Mapping[str, Any] | None) -> bool:
    game = game_system(system) if system in SYSTEMS else None
    return not (game is None or game.weapon_odds is None or game.can_be_targeted is None or not card
                or not game.can_be_targeted(card))


def takes_weapons(card: Mapping[str, Any]) -> bool:
    """A warjack, or a hero, solo or vehicle with weapon choices (hardpoints of slot "weapon", W5): weapon cards are
    chosen for it in its entry's options."""
    return card.get("kind") == "warjack" or any(isinstance(h, Mapping) and h.get("slot") == "weapon"
                                                for h in card.get("hardpoints") or ())


def _chosen_weapons(card: Mapping[str, Any], options: Any) -> list[str]:
    chosen = options.get("weapons") if isinstance(options, Mapping) and takes_weapons(card) else None
    return [code for code in chosen if isinstance(code, str)] if isinstance(chosen, list) else []


def dom_id(code: str) -> str:
    """A card code as a piece of an HTML id: letters, digits and "-" kept, anything else as "_<hex>" (unique)."""
    return "".join(ch if ch.isascii() and (ch.isalnum() or ch == "-") else f"_{ord(ch):x}" for ch in str(code))


def section_rows(document: Mapping[str, Any], cat: Catalog) -> list[dict[str, Any]]:
    """[{"section", "label", "count", "entries": [{"card", "qty", "names", "known", "cost", "options"}]}] in order."""
    system = document.get("system", "")
    order = list(SYSTEMS.get(system, {}).get("sections", []))
    sections = document.get("sections") or {}
    order += [name for name in sections if name not in order]
    rows = []
    for section in order:
        entries = []
        for entry in sections.get(section) or []:
            card = cat.cards.get(entry.get("card"))
            entries.append({
                "card": entry.get("card"),
                "qty": entry.get("qty"),
                "names": names(card, str(entry.get("card"))),
                "known": card is not None,
                "cost": card_cost(system, card) if card else None,
                "options": entry.get("options"),
                "loadout": loadout(entry.get("options"), card, cat),
                "odds_url": weapon_odds_url(system, card, entry.get("options")),
                "odds_waiting": weapon_odds_waiting(system, card, entry.get("options")),
            })
        rows.append({"section": section, "label": section_label(section), "entries": entries,
                     "count": sum(e["qty"] for e in entries if isinstance(e["qty"], int))})
    return rows


COUNTER_LABELS = {  # gauge key -> words (rules_engine RuleSet.gauges; sections by their own labels)
    "main": gettext_lazy("main deck"), "copies": gettext_lazy("copies of one name"),
    "secret_copies": gettext_lazy("copies of one name in Secret"), "points": gettext_lazy("points"),
    "orders": gettext_lazy("orders per round"), "units": gettext_lazy("units"), "heroes": gettext_lazy("heroes"),
    "mantlets": gettext_lazy("mantlets"), "cyphers": gettext_lazy("cyphers"),
    "weapon_points": gettext_lazy("weapon points"),
}
COUNTER_MARKS = {"ok": "✓", "under": "✗", "over": "✗"}


def _limit_text(gauge: Mapping[str, Any]) -> str:
    low, high = gauge.get("min"), gauge.get("max")
    if low is not None and high is not None:
        return f"{low}–{high}"
    if high is not None:
        return str(high)
    return f"{low}+" if low is not None else ""


def counters(system: str, gauges: list[Mapping[str, Any]], cat: Catalog | None = None) -> list[dict[str, Any]]:
    """The legality panel's counters, New Recruit style: each count with its limit from the format's options and what
    is left or missing ("秘策 2 / 2 · 0 left", "points 287 / 300 · 13 left", "cyphers 11 / 12–15 · 1 short"), its rule
    ID, and a status (ok / under / over) that the page shows with a mark and a word as well as a colour."""
    rows = []
    for gauge in gauges:
        key, subject = gauge["key"], gauge.get("subject")
        if key in SECTION_LABELS:
            label = section_label(key)
        elif key == "suit":
            label = _("%(suit)s cyphers") % {"suit": vocabulary.label(system, "suit", subject)}
        else:
            label = COUNTER_LABELS.get(key) or vocabulary.humanise(key)
        card = cat.cards.get(subject) if cat is not None and isinstance(subject, str) else None
        limit = _limit_text(gauge)
        status, left = (gauge.get("status", "ok") if limit else "info"), gauge.get("left")
        if status == "under":
            note = _("%(count)s short") % {"count": left}
        elif status == "over":
            note = _("%(count)s over") % {"count": left}
        elif left is not None:
            note = _("%(count)s left") % {"count": left}
        else:
            note = _("met") if limit else ""
        warning = gauge.get("severity") == "warning" and status != "ok"
        rows.append({
            "key": key, "label": str(label), "subject": names(card, subject)["main"] if card is not None else "",
            "value": f"{gauge['value']} / {limit}" if limit else str(gauge["value"]),
            "rule": gauge.get("rule") or "", "status": status, "note": note,
            "mark": "⚠" if warning else (COUNTER_MARKS.get(status, "") if limit else ""),
            "severity": "warning" if warning else ("error" if status != "ok" else ""),
        })
    return rows


def presentation(system: str) -> Presentation:
    """What the game shows (rules_engine/<game>/presentation.py): flags, field names, keys of words, templates.
    An unknown slug reads as a game with the defaults (a page of it 404s before it draws anything)."""
    try:
        return game_system(system).presentation
    except UnknownSystem:
        return Presentation()


def capable(system: Any, capability: str) -> bool:
    """Whether the game declares `capability` in its game type (rules_engine/system_entry.py CAPABILITIES: a
    replay's steps as positions, draw odds, ...): the pages offer what the game has, for any game."""
    try:
        return capability in game_system(system).game_type.capabilities
    except UnknownSystem:
        return False


def category_word(system: str) -> str:
    """The name of the field that says what a card is, in the UI language: "Category" (HAGMI) or "Kind"."""
    return _("Category") if presentation(system).category_field == "category" else _("Kind")


_COST_CHART_TITLES = {
    "cost_curve": lambda: _("Cost curve (main deck)"),
    "points": lambda: _("Points per unit"),
    "deployment_cost": lambda: _("Deployment cost (CST) per unit"),
}


def cost_chart(document: Mapping[str, Any], cat: Catalog) -> dict[str, Any]:
    """Chart data for the editor: HAGMI a cost curve of the main deck; MWDA/Warcaster points per unit. Whole numbers
    on the value axis (`integer`): a count of cards or of points is never 0.5."""
    system = document.get("system", "")
    sections = document.get("sections") or {}
    shows = presentation(system)
    title = _COST_CHART_TITLES[shows.cost_chart_title]()
    if shows.cost_chart == "curve":
        curve: Counter[int] = Counter()
        for section in shows.curve_sections:
            for entry in sections.get(section) or []:
                card = cat.cards.get(entry.get("card"))
                cost = card_cost(system, card) if card else None
                if cost is not None and isinstance(entry.get("qty"), int):
                    curve[cost] += entry["qty"]
        keys = list(range(0, max(curve, default=0) + 1))
        return {"type": "bar", "title": title, "labels": [str(k) for k in keys], "integer": True,
                "series": [{"label": _("cards"), "data": [curve[k] for k in keys]}]}
    labels, data = [], []
    for entry in (sections.get("army") or []) + (sections.get("force") or []):
        card = cat.cards.get(entry.get("card"))
        cost = card_cost(system, card) if card else None
        if cost is not None and isinstance(entry.get("qty"), int):
            labels.append(names(card, entry["card"])["main"])
            data.append(cost * entry["qty"])
    return {"type": "bar", "title": title, "labels": labels, "integer": True,
            "series": [{"label": _("points"), "data": data}]}


def violation_rows(result: Mapping[str, Any], cat: Catalog) -> list[dict[str, Any]]:
    """Violations with their card codes turned into names (the message already says what is wrong)."""
    rows = []
    for violation in result.get("violations", []):
        cards = [{"code": code, "names": names(cat.cards.get(code), code)} for code in violation.get("cards") or []]
        rows.append({**violation, "card_names": cards})
    return rows


VERIFICATION_MAX_REVISION_DIGITS = 9


def verification_code(document: Mapping[str, Any], revision: int) -> str:
    """The tournament sheet's code: first 10 hex of sha256 of the canonical hangar.list/1 JSON, then `-r<rev>`."""
    digest = hashlib.sha256(export_list_json(dict(document)).encode("utf-8")).hexdigest()
    return f"{digest[:VERIFICATION_HEX]}-r{revision}"


def parse_verification_code(code: str) -> tuple[str, int] | None:
    """("abcdef0123", 3) from "abcdef0123-r3" (spaces and case forgiven), or None when it is not such a code."""
    text = (code or "").strip().lower().replace(" ", "")
    digest, sep, revision = text.partition("-r")
    # ASCII digits only ("²" and "٣" are digits to str.isdigit(), and int() refuses "²"), and few enough of them to
    # be a revision number the database can compare (PostgreSQL's integer).
    if not sep or len(digest) != VERIFICATION_HEX or not (revision.isascii() and revision.isdigit()):
        return None
    if len(revision) > VERIFICATION_MAX_REVISION_DIGITS:
        return None
    if any(ch not in "0123456789abcdef" for ch in digest):
        return None
    return digest, int(revision)


def format_options(system) -> list[Any]:
    """The system's formats for a select: objects with `slug`, `label` (UI language), `default`."""
    return [
        SimpleNamespace(slug=fmt.slug, label=names({"name": fmt.name, "name_en": fmt.name_en}, fmt.slug)["main"],
                        default=fmt.is_default)
        for fmt in formats_for(system)
    ]


def format_name(slug: str | None, system: str) -> str:
    """A format's name in the UI language (from the cached catalog), or its slug when the catalog has no such format."""
    if not slug:
        return "–"
    cat = catalog(system)
    fmt = cat.formats.get(slug) if cat is not None else None
    return names(fmt, slug)["main"] if fmt is not None else slug


def diff_field_rows(diff: Mapping[str, Any] | None, system: str) -> list[dict[str, str]]:
    """A history diff's changed list fields in words: [{"label": "公開範囲", "from": "非公開", "to": "公開"}]; the
    format by its name, the visibility in words, name and notes as written."""
    rows = []
    for field, change in ((diff or {}).get("fields") or {}).items():
        def shown(value: Any) -> str:
            if value in (None, ""):
                return ""
            if field == "format":
                return format_name(value, system)
            if field == "visibility":
                return vocabulary.label("*", "visibility", value)
            return str(value)
        rows.append({"label": vocabulary.label("*", "diff_field", field), "from": shown(change.get("from")),
                     "to": shown(change.get("to"))})
    return rows


def opponent_item(opp) -> dict[str, str]:
    """An Opponent row's names as the dict `names` reads (and a run's snapshot freezes), with its kind."""
    return {"name": opp.name, "name_en": opp.data.get("name_en", ""), "kind": opp.data.get("kind", "")}


def goldfish_name(system: str) -> str:
    """The goldfish's one name (docs/glossary.md), on the forms, the results, the replays: what it is for."""
    if presentation(system).goldfish == "never_plays":
        return pgettext("hagmi opponent", "Target practice: an opponent who never plays a card")
    return _("Target practice: stationary targets")


def opponent_name(system: Any, slug: str, frozen: Mapping[str, Any] | None = None) -> str:
    """An opponent's name in the UI language, never its slug: the goldfish by its one name (goldfish_name), another
    by its package name from `frozen` (the opponent dict a run's snapshot froze) when it names one, else from the
    catalog, else the slug in words."""
    found = system_get(system) if isinstance(system, str) else system
    system_slug = system if isinstance(system, str) else getattr(system, "slug", "")
    frozen = frozen if isinstance(frozen, Mapping) else {}
    if frozen.get("kind") == "goldfish":
        return goldfish_name(system_slug)
    catalog_opp = None
    if not (frozen.get("name") and frozen.get("kind")):  # an older frozen opponent without its kind: the catalog's
        catalog_opp = next((opp for opp in (opponents_for(found) if found is not None else ()) if opp.slug == slug),
                           None)
        if catalog_opp is not None and catalog_opp.data.get("kind") == "goldfish" and not frozen.get("kind"):
            return goldfish_name(system_slug)
    if frozen.get("name"):
        return names(frozen, slug)["main"]
    if catalog_opp is not None:
        return names(opponent_item(catalog_opp), slug)["main"]
    return vocabulary.humanise(slug)


def text_example(system: str) -> dict[str, str] | None:
    """The hints' example of the text format in this game's own cards, in the UI language (builder.listio
    `example_entry`): {"line": "2 紅蓮丸", "section": "兵器", "typed": "3 紅蓮"} — `typed`, what the editor's
    search box takes ("a number first adds that many"): the name's first word, or its first two characters
    ("3 Guren", "3 紅蓮")."""
    found = example_entry(catalog(system))
    if found is None:
        return None
    lang = ui_lang()
    line = found["ja" if lang == "ja" else "en"]
    qty, _space, name = line.partition(" ")
    words = re.split(r"[\s\-]+", name)
    start = words[0] if len(words) > 1 else name[:2] if len(name) > 2 else name
    return {"line": line, "section": found["section_ja" if lang == "ja" else "section_en"],
            "typed": f"{int(qty) + 1} {start}"}


def text_examples() -> list[dict[str, str]]:
    """One example line per game, for the import page (its game is not chosen yet): [{"game", "line", "section"}]."""
    shown = []
    for slug in SYSTEMS:
        example = text_example(slug)
        if example is not None:
            shown.append({"game": system_name(slug), **example})
    return shown


def card_changes(game_list: Any, cat: Catalog) -> dict[str, Any]:
    """The cards of a list changed in the catalog since it was saved (selectors.list_card_changes), in words: each
    card's name and the fields that changed."""
    found = selectors.list_card_changes(game_list)
    return {
        "count": found["count"],
        "changed": [{"code": item["card"], "names": names(cat.cards.get(item["card"]), item["card"]),
                     "fields": ", ".join(vocabulary.card_field(field) for field in item["fields"])}
                    for item in found["changed"]],
        "removed": [{"code": code, "names": names(found["removed_names"].get(code), code)} for code in found["removed"]],
    }
