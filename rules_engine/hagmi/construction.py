"""HAGMI! deck construction (RULES.md §1.2, rules H1–H8).

Sections: `weapons` 兵器 deck, `tactics` 作戦 deck, `damage` ダメージ deck, `secret` 秘策.
Format options (docs/card-fields.md): min_weapons, min_tactics, min_main, max_copies, secret_per_main,
secret_counts_damage_deck, secret_max_copies.
"""
from __future__ import annotations

from typing import Any, Callable, Iterator, Mapping

from rules_engine.core.construction import WARNING, Gauge, ListContext, Rule, RuleSet, SectionSpec, Violation
from rules_engine.core.messages import Label, plain

SYSTEM = "hagmi"
WEAPONS, TACTICS, DAMAGE, SECRET = "weapons", "tactics", "damage", "secret"
MAIN_DECKS = (WEAPONS, TACTICS)  # メインデッキ = 兵器デッキ + 作戦デッキ

SECTIONS = (
    SectionSpec(WEAPONS, Label("Weapons deck", "兵器デッキ")),
    SectionSpec(TACTICS, Label("Tactics deck", "作戦デッキ")),
    SectionSpec(DAMAGE, Label("damage deck", "ダメージデッキ")),
    SectionSpec(SECRET, Label("Secret", "秘策")),
)

DEFAULTS: Mapping[str, Any] = {
    "min_weapons": 20,
    "min_tactics": 20,
    "min_main": 0,
    "max_copies": 2,
    "secret_per_main": 20,
    "secret_counts_damage_deck": False,
    "secret_max_copies": 1,
}

# H3: the deck each standard frame gives (黒枠 → 兵器, 青枠 → 作戦, 赤枠 → ダメージ).
FRAME_HOMES = {"black": WEAPONS, "blue": TACTICS, "red": DAMAGE}
# For a card without a frame string, the deck its category gives.
CATEGORY_HOMES = {"unit": WEAPONS, "armament": WEAPONS, "tactic": TACTICS, "damage": DAMAGE}
OPPONENT_CATEGORIES = {"beast": Label("beast", "機獣"), "mothership": Label("mothership", "母艦")}
FRAME_NAMES = {
    "black": Label("black", "黒"),
    "blue": Label("blue", "青"),
    "red": Label("red", "赤"),
    "white": Label("white", "白"),
    "gold": Label("gold", "金"),
    "silver": Label("silver", "銀"),
}


def home_section(card: Mapping[str, Any]) -> str | None:
    """The deck a player card belongs in (H3), or None for a 秘策-only card (H7: design or non-standard frame)."""
    if card.get("category") == "design":
        return None
    frame = card.get("frame")
    if isinstance(frame, str):
        return FRAME_HOMES.get(frame)
    return CATEGORY_HOMES.get(card.get("category"))


def placements(ctx: ListContext) -> Callable[[str], tuple[bool, str | None]]:
    """code -> (is a 機獣/母艦 card, home deck), computed once per catalog (H3, H7 read it for every entry)."""
    memo = ctx.catalog.derived("hagmi.placement")

    def placement(code: str) -> tuple[bool, str | None]:
        found = memo.get(code)
        if found is None:
            card = ctx.card(code)
            found = memo[code] = (is_opponent_card(card), home_section(card))
        return found

    return placement


def frame_label(card: Mapping[str, Any]) -> Label:
    frame = card.get("frame")
    if not isinstance(frame, str):
        return Label("unmarked", "不明な")
    return FRAME_NAMES.get(frame, plain(frame))


def is_opponent_card(card: Mapping[str, Any]) -> bool:
    return card.get("category") in OPPONENT_CATEGORIES


def main_deck_size(ctx: ListContext) -> int:
    """The main deck size that H5 counts: 兵器 + 作戦 (+ damage with secret_counts_damage_deck)."""
    size = ctx.totals[WEAPONS] + ctx.totals[TACTICS]
    return size + ctx.totals[DAMAGE] if ctx.options["secret_counts_damage_deck"] else size


def secret_allowed(ctx: ListContext) -> int:
    """H5: ⌊main / secret_per_main⌋ cards in 秘策 (「メインデッキ合計20枚につき1枚」)."""
    per = ctx.options["secret_per_main"]
    return main_deck_size(ctx) // per if per > 0 else 0


class WeaponsDeckSize(Rule):
    """H1: 兵器 deck has at least min_weapons cards."""

    rule_id, code = "H1", "hagmi.deck_size"
    title_en, title_ja = "Weapons deck minimum size", "兵器デッキの最低枚数"

    def check(self, ctx: ListContext) -> Iterator[Violation]:
        count, minimum = ctx.totals[WEAPONS], ctx.options["min_weapons"]
        if count < minimum:
            yield self.violation(section=WEAPONS, **_size(ctx, WEAPONS, count, minimum))


class TacticsDeckSize(Rule):
    """H2: 作戦 deck has at least min_tactics cards; tactics-v3: 兵器 + 作戦 at least min_main."""

    rule_id, code = "H2", "hagmi.deck_size"
    title_en, title_ja = ("Tactics deck minimum size (Ver.3: Weapons + Tactics)",
                          "作戦デッキの最低枚数（Ver.3は兵器＋作戦）")

    def check(self, ctx: ListContext) -> Iterator[Violation]:
        count, minimum = ctx.totals[TACTICS], ctx.options["min_tactics"]
        if count < minimum:
            yield self.violation(section=TACTICS, **_size(ctx, TACTICS, count, minimum))
        main, min_main = ctx.totals[WEAPONS] + ctx.totals[TACTICS], ctx.options["min_main"]
        if main < min_main:
            yield self.violation("H2.main", count=main, min=min_main)


def _size(ctx: ListContext, section: str, count: int, minimum: int) -> dict[str, Any]:
    return {"place": ctx.section_label(section), "count": count, "min": minimum}


class WrongDeck(Rule):
    """H3: each card sits in the deck its frame gives; beasts and motherships are never in a player's list."""

    rule_id, code = "H3", "hagmi.wrong_deck"
    title_en, title_ja = "Card in the deck its frame gives", "枠に対応するデッキに入れる"

    def check(self, ctx: ListContext) -> Iterator[Violation]:
        placement = placements(ctx)
        for section in ctx.section_keys:
            for code in ctx.by_code[section]:
                opponent, home = placement(code)
                if section == SECRET and not opponent:
                    continue
                card = ctx.card(code)
                if opponent:
                    category = OPPONENT_CATEGORIES[card["category"]]
                    yield self.violation(
                        "H3.opponent", section=section, cards=[code], card=ctx.label(code), category=category
                    )
                    continue
                if home is not None and home != section:
                    yield self.violation(
                        section=section,
                        cards=[code],
                        card=ctx.label(code),
                        frame=frame_label(card),
                        home=ctx.section_label(home),
                        place=ctx.section_label(section),
                    )


class MainDeckCopies(Rule):
    """H4: at most max_copies cards of one name across 兵器 + 作戦 (秘策 copies do not count)."""

    rule_id, code = "H4", "hagmi.copies"
    title_en, title_ja = "Copies of one name in the main deck", "メインデッキの同名カード枚数"

    def check(self, ctx: ListContext) -> Iterator[Violation]:
        maximum = ctx.options["max_copies"]
        for copies, codes in ctx.copies_by_name(*MAIN_DECKS).values():
            if copies > maximum:
                yield self.violation(cards=codes, count=copies, max=maximum, names=ctx.labels_of(sorted(codes)))


class SecretCount(Rule):
    """H5: 秘策 holds at most ⌊main / secret_per_main⌋ cards."""

    rule_id, code = "H5", "hagmi.secret_count"
    title_en, title_ja = "Secret size: one per 20 main-deck cards", "秘策の枚数（メインデッキ20枚につき1枚）"

    def check(self, ctx: ListContext) -> Iterator[Violation]:
        count, allowed = ctx.totals[SECRET], secret_allowed(ctx)
        if count > allowed:
            yield self.violation(
                section=SECRET, cards=ctx.by_code[SECRET], count=count, main=main_deck_size(ctx), allowed=allowed
            )


class SecretCopies(Rule):
    """H6: 秘策 holds at most secret_max_copies (1) card of each name; any category may be in it."""

    rule_id, code = "H6", "hagmi.secret_copies"
    title_en, title_ja = "One copy of each name in Secret", "秘策は1種類につき1枚まで"

    def check(self, ctx: ListContext) -> Iterator[Violation]:
        maximum = ctx.options["secret_max_copies"]
        for copies, codes in ctx.copies_by_name(SECRET).values():
            if copies > maximum:
                names = ctx.labels_of(sorted(codes))
                yield self.violation(section=SECRET, cards=codes, count=copies, max=maximum, names=names)


class SecretOnly(Rule):
    """H7: a card whose frame is not black, blue or red, or a design card, may only be in 秘策."""

    rule_id, code = "H7", "hagmi.secret_only"
    title_en, title_ja = "Other frames and design units only in Secret", "黒・青・赤以外の枠と設計兵装は秘策のみ"

    def check(self, ctx: ListContext) -> Iterator[Violation]:
        placement = placements(ctx)
        for section in (WEAPONS, TACTICS, DAMAGE):
            for code in ctx.by_code[section]:
                opponent, home = placement(code)
                if opponent or home is not None:
                    continue
                card = ctx.card(code)
                message = "H7.design" if card.get("category") == "design" else "H7"
                yield self.violation(
                    message,
                    section=section,
                    cards=[code],
                    card=ctx.label(code),
                    frame=frame_label(card),
                    place=ctx.section_label(section),
                )


class DamageDeckEmpty(Rule):
    """H8 (warning): an empty damage deck is legal but loses to the first damage taken."""

    rule_id, code, severity = "H8", "hagmi.damage_empty", WARNING
    title_en, title_ja = "Empty damage deck (warning)", "ダメージデッキが空（警告）"

    def check(self, ctx: ListContext) -> Iterator[Violation]:
        if ctx.totals[DAMAGE] == 0:
            yield self.violation(section=DAMAGE)


def summarise(ctx: ListContext) -> dict[str, int]:
    return {
        "weapons": ctx.totals[WEAPONS],
        "tactics": ctx.totals[TACTICS],
        "damage": ctx.totals[DAMAGE],
        "secret": ctx.totals[SECRET],
        "main": main_deck_size(ctx),
        "secret_allowed": secret_allowed(ctx),
    }


def _most_copies(ctx: ListContext, *sections: str) -> tuple[int, str | None]:
    """The most copies of one card name over `sections`, and a code of that name (ties: the smallest code)."""
    best, subject = 0, None
    for copies, codes in ctx.copies_by_name(*sections).values():
        code = min(codes)
        if copies > best or (copies == best and subject is not None and code < subject):
            best, subject = copies, code
    return best, subject


def measure(ctx: ListContext) -> list[Gauge]:
    """What the format still needs, from its options: 兵器 ≥ min_weapons (H1), 作戦 ≥ min_tactics (H2), the main deck
    (their sum, tactics-v3's min_main), copies of one name ≤ max_copies (H4), the damage deck (H8, a warning when
    empty), 秘策 ≤ ⌊main / secret_per_main⌋ (H5) and copies of one name in 秘策 (H6)."""
    options = ctx.options
    min_weapons, min_tactics, min_main = options["min_weapons"], options["min_tactics"], options["min_main"]
    main = ctx.totals[WEAPONS] + ctx.totals[TACTICS]
    gauges = [
        Gauge(WEAPONS, ctx.totals[WEAPONS], "H1", minimum=min_weapons or None),
        Gauge(TACTICS, ctx.totals[TACTICS], "H2", minimum=min_tactics or None),
        Gauge("main", main, "H2" if min_main >= min_weapons + min_tactics else "H1, H2",
              minimum=max(min_main, min_weapons + min_tactics) or None),
    ]
    copies, subject = _most_copies(ctx, *MAIN_DECKS)
    if subject is not None:
        gauges.append(Gauge("copies", copies, "H4", maximum=options["max_copies"], subject=subject))
    gauges.append(Gauge(DAMAGE, ctx.totals[DAMAGE], "H8", minimum=1, severity=WARNING))
    gauges.append(Gauge(SECRET, ctx.totals[SECRET], "H5", maximum=secret_allowed(ctx)))
    copies, subject = _most_copies(ctx, SECRET)
    if subject is not None:
        gauges.append(Gauge("secret_copies", copies, "H6", maximum=options["secret_max_copies"], subject=subject))
    return gauges


RULESET = RuleSet(
    name=Label("HAGMI!", "HAGMI!"),
    system=SYSTEM,
    sections=SECTIONS,
    defaults=DEFAULTS,
    rules=(
        WeaponsDeckSize(),
        TacticsDeckSize(),
        WrongDeck(),
        MainDeckCopies(),
        SecretCount(),
        SecretCopies(),
        SecretOnly(),
        DamageDeckEmpty(),
    ),
    summarise=summarise,
    measure=measure,
)
