"""Data and hypothesis strategies shared by the property tests.

The catalogs are the BUNDLED packages (cards/packages/<system>/*.json) turned into engine catalogs exactly as
cards.selectors.catalog_for does (Catalog.build with the other systems' codes as foreign cards), so the pure tests
(list import/export, validators) need no database. Strategies build values of three kinds:

- anything JSON-shaped (`json_values`), including huge and negative integers, NaN-free floats, unicode, nesting;
- valid `hangar.list/1` documents from real catalog cards (`list_documents`), and legal lists per system
  (`legal_hagmi_lists`, `legal_mwda_lists`, `legal_warcaster_lists`), built from the construction rules as written
  in docs/rules.md (H1–H8, M1–M4, W1–W6), independently of the validator's code;
- text shaped like the list text format (`list_texts`): real and misspelt names, codes, bad counts, CRLF, BOM.
"""
from __future__ import annotations

import copy
import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from cards.systems import SECTION_LABELS, SYSTEMS
from rules_engine.core.catalog import Catalog

ROOT = Path(__file__).resolve().parents[2]
PACKAGES_DIR = ROOT / "cards" / "packages"
SYSTEM_SLUGS = tuple(SYSTEMS)


CI_EXAMPLES = 40  # max_examples of the `ci` profile (conftest.py)


def examples(count: int, *, shared_fixture: bool = False) -> settings:
    """@settings for a test that tries `count` examples under the `ci` profile, scaled for the loaded profile.

    shared_fixture=True: the test takes a function-scoped fixture (the database with the bundled packages) that
    all its examples share; each example undoes its own writes, so hypothesis's warning about it is silenced.
    """
    suppressed = list(settings.default.suppress_health_check)
    if shared_fixture:
        suppressed.append(HealthCheck.function_scoped_fixture)
    return settings(max_examples=max(1, count * settings.default.max_examples // CI_EXAMPLES),
                    suppress_health_check=suppressed)


# --- bundled data --------------------------------------------------------------------------------------------


@lru_cache(maxsize=None)
def bundled_package_paths(system: str) -> tuple[Path, ...]:
    return tuple(sorted((PACKAGES_DIR / system).glob("*.json")))


def bundled_package(system: str) -> dict[str, Any]:
    """A fresh deep copy of the (first) bundled package of `system`."""
    return copy.deepcopy(_package_json(bundled_package_paths(system)[0]))


@lru_cache(maxsize=None)
def _package_json(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


@lru_cache(maxsize=None)
def catalog(system: str) -> Catalog:
    """The engine catalog of `system` from every bundled package, as cards.selectors.catalog_for builds it."""
    cards, formats, default = [], [], None
    for path in bundled_package_paths(system):
        package = _package_json(path)
        cards += package["cards"]
        formats += package.get("formats", [])
    for fmt in formats:
        if fmt.get("default") and default is None:
            default = fmt["slug"]
    own = {card["code"] for card in cards}
    foreign = {
        card["code"]: other
        for other in SYSTEM_SLUGS
        if other != system
        for path in bundled_package_paths(other)
        for card in _package_json(path)["cards"]
        if card["code"] not in own
    }
    return Catalog.build(system, cards, formats, default_format=default, foreign_cards=foreign)


def catalog_for(system: str) -> Catalog | None:
    """The `catalog_for` callable the text reader takes."""
    return catalog(system) if system in SYSTEMS else None


@lru_cache(maxsize=None)
def sample_list_paths() -> tuple[Path, ...]:
    return tuple(sorted(PACKAGES_DIR.glob("*/lists/*.json")))


def sample_list(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


@lru_cache(maxsize=None)
def codes_where(system: str, **fields: Any) -> tuple[str, ...]:
    """Catalog codes whose card has every given field value (sorted, so strategies are reproducible)."""
    cards = catalog(system).cards
    return tuple(sorted(code for code, card in cards.items() if all(card.get(k) == v for k, v in fields.items())))


# --- JSON values ---------------------------------------------------------------------------------------------

HUGE_INTS = st.sampled_from([2**31, 2**31 - 1, -(2**31) - 1, 2**53 + 1, 2**63, -(2**63) - 1, 10**30, -(10**30)])
INTS = st.one_of(st.integers(min_value=-5, max_value=1100), st.integers(), HUGE_INTS)
# Text a user could type or paste: any unicode but surrogates (UTF-8 cannot carry them; a JSON "\udfff" escape
# can: text_with_surrogates and tests/property/test_unstorable_text.py).
TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=30)
SCALARS = st.one_of(
    st.none(), st.booleans(), INTS, st.floats(allow_nan=False, allow_infinity=False), TEXT,
)


# What an entry's options may hold (docs/list-formats.md): plain JSON without U+0000, numbers up to 60 digits.
OPTION_TEXT = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=30)
OPTION_SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-(10**30), 10**30), st.floats(allow_nan=False, allow_infinity=False),
    OPTION_TEXT,
)


@lru_cache(maxsize=None)
def json_values(max_leaves: int = 12, plain: bool = False) -> st.SearchStrategy[Any]:
    """Any JSON document: null, booleans, numbers (huge ones too), strings, lists and objects.
    plain=True: only what an entry's options may hold."""
    scalars, text = (OPTION_SCALARS, OPTION_TEXT) if plain else (SCALARS, TEXT)
    return st.recursive(
        scalars,
        lambda children: st.one_of(
            st.lists(children, max_size=4), st.dictionaries(text, children, max_size=4)
        ),
        max_leaves=max_leaves,
    )


# Values a Python caller (not a JSON text) can hand over; drawn by name so a failing example prints readably.
EXTREMES = {
    "<5000-digit integer>": lambda: 10**5000,
    "<list nested 5000 deep>": lambda: nested([], 5000),
    "<object nested 5000 deep>": lambda: nested({}, 5000),
    "<NaN>": lambda: float("nan"),
    "<-Infinity>": lambda: float("-inf"),
    "<text with U+0000>": lambda: "a\x00b",
    "<object with U+0000>": lambda: {"note": "\x00"},
}


def nested(empty: list | dict, depth: int) -> Any:
    value: Any = empty
    for _ in range(depth):
        value = [value] if isinstance(empty, list) else {"a": value}
    return value


# --- valid list documents ------------------------------------------------------------------------------------

_CODE_CHARS = st.characters(blacklist_categories=("Cs", "Cc", "Zs", "Zl", "Zp"), blacklist_characters="(){}")
# A card code the list format accepts (docs/list-formats.md: 1–64 characters, no spaces, parentheses or braces).
LIST_CODES = st.text(_CODE_CHARS, min_size=1, max_size=12).filter(lambda s: not any(c.isspace() for c in s))
# A list name the format accepts: one line, no control characters, at most 200 characters.
LIST_NAMES = st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=60)
FORMAT_SLUGS = st.from_regex(r"\A[A-Za-z0-9][A-Za-z0-9._-]{0,20}\Z")


@lru_cache(maxsize=None)
def unknown_codes(system: str) -> st.SearchStrategy[str]:
    """Codes this system's catalog does not know: random ones and case/width variants of real codes."""
    real = sorted(catalog(system).cards)
    variants = st.sampled_from(real).map(str.lower) | st.sampled_from(real).map(
        lambda code: code.translate({ord(c): ord(c) + 0xFEE0 for c in code if "!" <= c <= "~"})
    )
    return (LIST_CODES | variants).filter(lambda code: code not in catalog(system).cards)


@lru_cache(maxsize=None)
def card_codes(system: str) -> st.SearchStrategy[str]:
    """Mostly real codes of `system`, sometimes another system's or an unknown one."""
    real = st.sampled_from(sorted(catalog(system).cards))
    foreign = st.sampled_from(sorted(catalog(system).foreign_cards))
    return st.one_of(real, real, real, foreign, unknown_codes(system))


@lru_cache(maxsize=None)
def options_for(system: str) -> st.SearchStrategy[dict[str, Any]]:
    """Entry options: a warjack's cortex and weapons (Warcaster), or any JSON object."""
    anything = st.dictionaries(OPTION_TEXT, json_values(6, plain=True), max_size=3)
    if system != "warcaster":
        return anything
    warjack = st.fixed_dictionaries(
        {"cortex": st.sampled_from(codes_where("warcaster", kind="cortex"))},
        optional={"weapons": st.lists(st.sampled_from(codes_where("warcaster", kind="weapon")), max_size=4)},
    )
    return st.one_of(warjack, warjack, anything)


@lru_cache(maxsize=None)
@st.composite
def entries(draw, system: str, max_size: int = 8) -> list[dict[str, Any]]:
    result = []
    for _ in range(draw(st.integers(0, max_size))):
        entry: dict[str, Any] = {
            "card": draw(card_codes(system)),
            "qty": draw(st.integers(1, 4) | st.integers(1, 999)),
        }
        if draw(st.integers(0, 4)) == 0:
            entry["options"] = draw(options_for(system))
        result.append(entry)
    return result


@lru_cache(maxsize=None)
@st.composite
def list_documents(draw, system: str | None = None) -> dict[str, Any]:
    """A valid hangar.list/1 document of real (and some unknown) cards; sections may be missing."""
    system = system or draw(st.sampled_from(SYSTEM_SLUGS))
    sections = {}
    for section in SYSTEMS[system]["sections"]:
        if draw(st.integers(0, 5)):
            sections[section] = draw(entries(system))
    doc: dict[str, Any] = {"schema": "hangar.list/1", "system": system, "sections": sections}
    fmt = draw(st.one_of(st.none(), st.just(""), st.sampled_from(sorted(catalog(system).formats)), FORMAT_SLUGS))
    if fmt is not None or draw(st.booleans()):
        doc["format"] = fmt
    if draw(st.booleans()):
        doc["name"] = draw(LIST_NAMES)
    return doc


# --- legal lists, built from the rules as written ------------------------------------------------------------


def _spread(draw, codes: list[str], total: int, per_card: int) -> list[dict[str, Any]]:
    """`total` copies over distinct `codes`, at most `per_card` of each, in random entries (some split in two)."""
    pool = draw(st.permutations(codes))
    result = []
    for position, code in enumerate(pool):
        if total <= 0:
            break
        needed = total - per_card * (len(pool) - position - 1)  # what the cards after this one cannot hold
        qty = min(total, per_card, max(needed, draw(st.integers(1, per_card))))
        total -= qty
        if qty > 1 and draw(st.booleans()):
            result += [{"card": code, "qty": 1}, {"card": code, "qty": qty - 1}]
        else:
            result.append({"card": code, "qty": qty})
    assert total <= 0, "not enough distinct cards for the requested size"
    return draw(st.permutations(result))


@st.composite
def legal_hagmi_lists(draw) -> dict[str, Any]:
    """H1/H2 ≥ 20 each (tactics-v4), H3 cards in their frame's deck, H4 ≤ 2 per name, H5 秘策 ≤ ⌊main/20⌋,
    H6 one of each name in 秘策, H7 other frames only in 秘策; the damage deck may be empty (H8 is a warning)."""
    weapons = _spread(draw, codes_where("hagmi", frame="black"), draw(st.integers(20, 44)), 2)
    tactics = _spread(draw, codes_where("hagmi", frame="blue"), draw(st.integers(20, 42)), 2)
    damage = _spread(draw, codes_where("hagmi", frame="red"), draw(st.integers(0, 12)), 3)
    main = sum(e["qty"] for e in weapons + tactics)
    player = sorted(code for code, card in catalog("hagmi").cards.items()
                    if card.get("category") not in ("beast", "mothership"))
    secret = [{"card": code, "qty": 1}
              for code in draw(st.lists(st.sampled_from(player), unique=True, max_size=main // 20))]
    return {"schema": "hangar.list/1", "system": "hagmi", "format": "tactics-v4", "name": "legal",
            "sections": {"weapons": weapons, "tactics": tactics, "damage": damage, "secret": secret}}


@st.composite
def legal_mwda_lists(draw) -> dict[str, Any]:
    """M1 points ≤ the format's limit, M3 each unique unit once, M4 at least one unit."""
    fmt_slug = draw(st.sampled_from(sorted(catalog("mwda").formats)))
    limit = catalog("mwda").formats[fmt_slug]["options"]["point_limit"]
    cards = catalog("mwda").cards
    affordable = [code for code in sorted(cards) if cards[code]["points"] <= limit]
    army, points = [], 0
    for code in draw(st.lists(st.sampled_from(affordable), min_size=1, max_size=8)):
        cost = cards[code]["points"]
        taken = sum(e["qty"] for e in army if e["card"] == code)
        if points + cost > limit or (cards[code].get("unique") and taken):
            continue
        army.append({"card": code, "qty": 1})
        points += cost
    if not army:
        army = [{"card": min(affordable, key=lambda code: cards[code]["points"]), "qty": 1}]
    return {"schema": "hangar.list/1", "system": "mwda", "format": fmt_slug, "name": "legal",
            "sections": {"army": army}}


SUITS = ("fury", "geometric", "harmonic", "overdrive")


@st.composite
def legal_warcaster_lists(draw) -> dict[str, Any]:
    """W1 heroes ≤ max (each once), W2 units ≤ max and mantlets ≤ 4, W3 12–15 distinct cyphers with ≥ 3 per suit,
    W4 ≤ 4 copies of a unit, W5 a cortex and weapons within weapon points, W6 one faction plus mercenaries."""
    fmt_slug = draw(st.sampled_from(sorted(catalog("warcaster").formats)))
    options = catalog("warcaster").formats[fmt_slug]["options"]
    cards = catalog("warcaster").cards
    faction = draw(st.sampled_from(sorted({c["faction"] for c in cards.values() if c["kind"] == "hero"})))

    def ours(kind: str) -> list[str]:
        return sorted(code for code, c in cards.items() if c["kind"] == kind and c["faction"] in (faction, "mercenary"))

    force = [{"card": code, "qty": 1} for code in
             draw(st.lists(st.sampled_from(ours("hero")), unique=True, max_size=options["max_heroes"]))]
    units = mantlets = 0
    copies: dict[str, int] = {}
    for kind in draw(st.lists(st.sampled_from(["squad", "solo", "warjack", "vehicle", "mantlet"]), max_size=12)):
        choices = ours(kind)
        if not choices or units >= options["max_units"] or (kind == "mantlet" and mantlets >= options["max_mantlets"]):
            continue
        code = draw(st.sampled_from(choices))
        if copies.get(code, 0) >= options["max_unit_copies"]:
            continue
        entry: dict[str, Any] = {"card": code, "qty": 1}
        if kind == "warjack":
            weapons, budget = [], cards[code].get("weapon_points", 0)
            for weapon in draw(st.lists(st.sampled_from(ours("weapon")), max_size=4)):
                if cards[weapon]["cost"] <= budget:
                    weapons.append(weapon)
                    budget -= cards[weapon]["cost"]
            entry["options"] = {"cortex": draw(st.sampled_from(ours("cortex"))), "weapons": weapons}
        force.append(entry)
        units += 1
        mantlets += kind == "mantlet"
        copies[code] = copies.get(code, 0) + 1
    rack = []
    for suit in SUITS:
        suited = sorted(code for code, c in cards.items() if c["kind"] == "cypher" and c.get("suit") == suit)
        rack += draw(st.lists(st.sampled_from(suited), unique=True, min_size=options["rack_min_per_suit"],
                              max_size=options["rack_min_per_suit"]))
    spare = sorted(code for code, c in cards.items() if c["kind"] == "cypher" and code not in rack)
    low, high = max(0, options["rack_min"] - len(rack)), options["rack_max"] - len(rack)
    rack += draw(st.lists(st.sampled_from(spare), unique=True, min_size=low, max_size=high))
    rack_entries = draw(st.permutations([{"card": code, "qty": 1} for code in rack]))
    return {"schema": "hangar.list/1", "system": "warcaster", "format": fmt_slug, "name": "legal",
            "sections": {"force": draw(st.permutations(force)), "rack": rack_entries}}


LEGAL_LISTS = {"hagmi": legal_hagmi_lists, "mwda": legal_mwda_lists, "warcaster": legal_warcaster_lists}


# --- text shaped like the list text format -------------------------------------------------------------------


def typo(draw, word: str) -> str:
    """The word with one character inserted, removed or replaced."""
    if not word:
        return draw(TEXT)
    at = draw(st.integers(0, len(word) - 1))
    how = draw(st.sampled_from(["insert", "delete", "replace", "swapcase"]))
    char = draw(st.characters(blacklist_categories=("Cs",)))
    if how == "insert":
        return word[:at] + char + word[at:]
    if how == "delete":
        return word[:at] + word[at + 1:]
    if how == "replace":
        return word[:at] + char + word[at + 1:]
    return word.swapcase()


QTY_WORDS = st.one_of(
    st.integers(1, 4).map(str), st.integers(-3, 1200).map(str), INTS.map(str),
    st.integers(1, 9).map(lambda n: chr(0xFF10 + n)),  # full-width digit
    st.integers(1, 4).map(lambda n: f"{n}x"), st.integers(1, 4).map(lambda n: f"{n} ×"),
    st.sampled_from(["two", "", "x", "+2", "−1", "٣", "1.5", "1e3"]),
)


@lru_cache(maxsize=None)
@st.composite
def card_words(draw, system: str, good: bool = True) -> str:
    """How a line names a card: its names, codes, "NAME (CODE)", "(CODE)" (good), or misspelt and unknown (bad)."""
    cards = catalog(system).cards
    code = draw(st.sampled_from(sorted(cards)))
    card = cards[code]
    name, name_en = card.get("name", ""), card.get("name_en") or card.get("name", "")
    if good:
        return draw(st.sampled_from([
            name, name_en, code, code.lower(), f"{name} ({code})", f"({code})", f"  {name_en.upper()}  ",
            f"{name_en}  ({code.lower()})", f"({draw(unknown_codes(system))})",
        ]))
    return draw(st.sampled_from([
        typo(draw, name), typo(draw, name_en), f"{name} ({draw(unknown_codes(system))})", draw(TEXT), "",
        f"{name} (a b)", f"{name} {{not json}}",
    ]))


@st.composite
def entry_line(draw, system: str, good: bool) -> str:
    qty = draw(st.sampled_from(["1", "2", "3", "2x", "1 ×", "３", "12"]) if good else QTY_WORDS)
    line = f"{qty} {draw(card_words(system, good or draw(st.booleans())))}"
    if draw(st.integers(0, 5)) == 0:
        line += " " + json.dumps(draw(options_for(system)), ensure_ascii=draw(st.booleans()))
    return line


@lru_cache(maxsize=None)
@st.composite
def stray_lines(draw, system: str) -> str:
    """Lines that are not entries: other headers, sections, comments, blanks, junk and very long lines."""
    kind = draw(st.sampled_from(["section", "header", "comment", "blank", "junk", "long"]))
    if kind == "section":
        section = draw(st.sampled_from(sorted(SECTION_LABELS)))
        label = draw(st.sampled_from([section, *SECTION_LABELS[section].values()]))
        return draw(st.sampled_from([f"[{label}]", f"[{label.upper()}] 20", f"{label} (20)", f"{label}:",
                                     f"[{draw(TEXT)}]"]))
    if kind == "header":
        key = draw(st.sampled_from(["Name", "System", "Format", "名前", "システム", "フォーマット", "Author",
                                    "game", "NAME"]))
        value = draw(st.one_of(TEXT, st.sampled_from(list(SYSTEM_SLUGS) + ["HAGMI!", "chess"]),
                               st.sampled_from(sorted(catalog(system).formats)), st.text(max_size=300)))
        return f"{key}{draw(st.sampled_from([':', '：', ' :']))} {value}"
    if kind == "comment":
        return draw(st.sampled_from(["#", "//", "  # "])) + draw(TEXT)
    if kind == "blank":
        return draw(st.sampled_from(["", "   ", "\t"]))
    if kind == "junk":
        return draw(st.text(max_size=40))
    return f"1 {'a' * draw(st.integers(3990, 4100))}"


@st.composite
def list_texts(draw) -> tuple[str, str | None, int]:
    """(text, system argument, number of lines) of a text shaped like a list file: headers, then sections of
    entries, mostly well written; some lines misspelt, out of place or junk."""
    system = draw(st.sampled_from(SYSTEM_SLUGS))
    lines = []
    if draw(st.integers(0, 5)):
        lines.append(draw(st.sampled_from([f"System: {system}", f"system：{SYSTEMS[system]['name']}",
                                           f"ゲーム: {SYSTEMS[system]['name_ja']}"])))
    if draw(st.booleans()):
        lines.append(f"Name: {draw(LIST_NAMES | st.text(max_size=210))}")
    if draw(st.booleans()):
        lines.append(f"Format: {draw(st.sampled_from(sorted(catalog(system).formats)) | FORMAT_SLUGS | TEXT)}")
    for section in draw(st.lists(st.sampled_from(SYSTEMS[system]["sections"]), min_size=1, max_size=4)):
        label = draw(st.sampled_from([section, *SECTION_LABELS[section].values()]))
        lines += ["", draw(st.sampled_from([f"[{label}]", f"{label}:", f"[{label}] (3)", f"{label.upper()} (3)"]))]
        lines += [draw(entry_line(system, draw(st.integers(0, 9)) > 0)) for _ in range(draw(st.integers(0, 6)))]
    for _ in range(draw(st.integers(0, 3)) if draw(st.booleans()) else 0):
        lines.insert(draw(st.integers(0, len(lines))), draw(stray_lines(system)))
    newline = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    text = newline.join(lines) + draw(st.sampled_from(["", newline]))
    if draw(st.integers(0, 4)) == 0:
        text = "\ufeff" + text
    argument = draw(st.one_of(st.none(), st.sampled_from(SYSTEM_SLUGS)))
    return text, argument, len(re.split(r"\r\n|\r|\n", text))


def paths_of(value: Any, prefix: tuple = ()) -> list[tuple]:
    """Every path into a JSON value below the root (keys and indices), parents before their children."""
    found = [prefix] if prefix else []
    if isinstance(value, dict):
        for key, item in value.items():
            found += paths_of(item, prefix + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += paths_of(item, prefix + (index,))
    return found


# --- text that cannot be stored (docs/security.md) -------------------------------------------

# A lone surrogate: what a JSON "\udfff" escape decodes to. No database, template or UTF-8 answer can hold it.
LONE_SURROGATES = st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF)
_PAIR = re.compile("[\ud800-\udbff][\udc00-\udfff]")  # a high then a low surrogate: JSON text joins them into one


@st.composite
def text_with_surrogates(draw, base: st.SearchStrategy[str] = TEXT) -> str:
    """Text holding one to three lone surrogates anywhere, never as a high-low pair (which json.dumps then
    json.loads would turn into one valid character)."""
    text = draw(base)
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(LONE_SURROGATES) + text[at:]
    while _PAIR.search(text):
        text = _PAIR.sub(lambda pair: pair.group()[0] + "x" + pair.group()[1], text)
    return text


def escaped_path_part(text: str) -> str:
    """How a path names a key holding lone surrogates: each written as its JSON escape."""
    return "".join(f"\\u{ord(char):04x}" if 0xD800 <= ord(char) <= 0xDFFF else char for char in text)


SURROGATE_PLACES = ("card", "name", "format", "option key", "option value", "section", "schema", "system")


@st.composite
def documents_with_surrogates(draw, system: str | None = None) -> tuple[dict[str, Any], str, str]:
    """(document, place, path): a valid list document of real cards with a lone surrogate put in one place —
    a card code, the name, the format, an option key or value (at any depth), a section name, schema or system —
    and the path an issue must name."""
    doc = draw(list_documents(system))
    place = draw(st.sampled_from(SURROGATE_PLACES))
    bad = draw(text_with_surrogates())
    system = doc["system"]
    if place in ("card", "option key", "option value"):
        section = draw(st.sampled_from(SYSTEMS[system]["sections"]))
        entries = doc["sections"].setdefault(section, [])
        if not entries:
            entries.append({"card": draw(card_codes(system)), "qty": 1})
        index = draw(st.integers(0, len(entries) - 1))
        entry = entries[index]
        where = f"sections.{section}[{index}]"
        if place == "card":
            entry["card"] = bad
            return doc, place, f"{where}.card"
        options = entry["options"] = dict(entry.get("options") or {})
        if place == "option key":
            options[bad] = draw(json_values(4, plain=True))
            return doc, place, f"{where}.options.{escaped_path_part(bad)}"
        depth = draw(st.integers(0, 3))
        value: Any = bad
        suffix = ""
        for level in range(depth):
            if draw(st.booleans()):
                value, suffix = [value], f"[0]{suffix}"
            else:
                value, suffix = {f"k{level}": value}, f".k{level}{suffix}"
        options["x"] = value
        return doc, place, f"{where}.options.x{suffix}"
    if place == "section":
        doc["sections"][bad] = draw(st.sampled_from([[], [{"card": "HS-001", "qty": 1}]]))
        return doc, place, f"sections.{escaped_path_part(bad)}"
    doc[place] = bad
    return doc, place, place


def json_values_with_surrogates(max_leaves: int = 10) -> st.SearchStrategy[Any]:
    """Any JSON document whose strings and keys sometimes hold lone surrogates."""
    text = TEXT | text_with_surrogates()
    return st.recursive(
        st.one_of(st.none(), st.booleans(), INTS, text),
        lambda children: st.one_of(st.lists(children, max_size=4), st.dictionaries(text, children, max_size=4)),
        max_leaves=max_leaves,
    )


# --- hostile files (docs/data-packages.md "Limits of a file") ---------------------------------------------------


@st.composite
def hostile_workbooks(draw) -> bytes:
    """An .xlsx written part by part (tests/support/hostile_files.py): a declared dimension that need not match its
    cells (up to XFD1048576), cells at any row (up to past the row limit) and column (up to past the column limit),
    shared or inline strings, formula-looking texts, and a shared-strings table from empty to past its limit."""
    from cards.sheetfiles import MAX_SHARED_STRINGS, column_letter
    from tests.support.hostile_files import xlsx

    last_row = draw(st.integers(1, 1_048_576))
    last_column = draw(st.integers(1, 16_384))
    ref = draw(st.sampled_from(["A1", f"A1:{column_letter(last_column - 1)}{last_row}", "XFD1048576", "bogus"]))
    strings = draw(st.sampled_from([0, 1, 5, MAX_SHARED_STRINGS + 1]))
    cells = draw(st.lists(st.tuples(st.integers(1, 120_000) | st.integers(1, 30),
                                    st.integers(1, 16_384) | st.integers(1, 40),
                                    st.sampled_from(["inline", "shared"]),
                                    st.sampled_from(["code", "name", "x", "=1+1", "'=1", "-1", "@a", "HS-001"])),
                          max_size=12))
    rows: dict[int, list[str]] = {}
    for row, column, kind, text in cells:
        reference = f"{column_letter(column - 1)}{row}"
        if kind == "shared" and strings:
            rows.setdefault(row, []).append(f'<c r="{reference}" t="s"><v>0</v></c>')
        else:
            rows.setdefault(row, []).append(f'<c r="{reference}" t="inlineStr"><is><t>{text}</t></is></c>')
    body = "".join(f'<row r="{row}">{"".join(cells)}</row>' for row, cells in sorted(rows.items()))
    return xlsx(body, ref=ref, strings=strings)


@st.composite
def hostile_battlescribe_files(draw) -> tuple[str, bytes]:
    """(file name, bytes) of BattleScribe data a hostile upload might send: XML nested from 1 to past the depth
    limit, a zip (deflate, stored or bzip2) of up to 5 members from empty to 2 MB, zeros (past the ratio limit when
    deflated) or random bytes, a zip in a zip in a zip."""
    import io
    import os
    import zipfile

    from rules_engine.formats.safefiles import MAX_XML_DEPTH
    from tests.support.hostile_files import GST_NS, deep_xml

    depth = draw(st.integers(1, MAX_XML_DEPTH + 50))
    xml = deep_xml(draw(st.sampled_from(["gameSystem", "catalogue"])), GST_NS, depth=depth)
    kind = draw(st.sampled_from(["xml", "zip", "zip-in-zip"]))
    if kind == "xml":
        return "data.gst", xml

    method = draw(st.sampled_from([zipfile.ZIP_DEFLATED, zipfile.ZIP_STORED, zipfile.ZIP_BZIP2]))

    def zipped(members: list[tuple[str, bytes]]) -> bytes:
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w", method) as archive:
            for name, raw in members:
                archive.writestr(name, raw)
        return out.getvalue()

    if kind == "zip-in-zip":
        return "data.zip", zipped([("x.gstz", zipped([("y.gstz", zipped([("z.gst", xml)]))]))])
    members = []
    for index in range(draw(st.integers(0, 4))):
        size = draw(st.sampled_from([0, 100, 2 * 1024 * 1024]))
        content = bytes(size) if draw(st.booleans()) else os.urandom(min(size, 100_000))
        members.append((f"m{index}{draw(st.sampled_from(['.cat', '.gst', '.catz', '.txt']))}", content))
    return "data.zip", zipped(members + [("data.gst", xml)])
