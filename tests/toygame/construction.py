"""Toy Duel's construction rules: one section, the deck; T1 its size, T2 the copies of one card. The messages are
the game's own (a `Label` in both languages), so no table outside the package needs a line for them."""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from rules_engine.core.construction import Gauge, ListContext, Rule, RuleSet, SectionSpec, Violation, card_codes
from rules_engine.core.messages import Label

SYSTEM = "toyduel"
DECK = "deck"
SECTIONS = (SectionSpec(DECK, Label("deck", "デッキ")),)
DEFAULTS: Mapping[str, Any] = {"min_cards": 4, "max_copies": 2}


class DeckSize(Rule):
    """T1: a deck holds at least `min_cards` cards."""

    rule_id, code = "T1", "toyduel.deck_size"
    title_en, title_ja = "At least the format's number of cards", "フォーマットの枚数以上"
    message = Label("The deck has {count} cards; it needs at least {minimum}.",
                    "デッキは{count}枚です。{minimum}枚以上必要です。")

    def check(self, ctx: ListContext) -> Iterator[Violation]:
        count, minimum = ctx.totals[DECK], ctx.options["min_cards"]
        if count < minimum:
            yield self.violation(self.message, section=DECK, count=count, minimum=minimum)


class Copies(Rule):
    """T2: at most `max_copies` copies of one card."""

    rule_id, code = "T2", "toyduel.copies"
    title_en, title_ja = "At most two copies of a card", "同じカードは2枚まで"
    message = Label("{names}: {count} copies; a deck may hold at most {limit}.",
                    "{names}：{count}枚。デッキに入れられるのは{limit}枚までです。")

    def check(self, ctx: ListContext) -> Iterator[Violation]:
        limit = ctx.options["max_copies"]
        for name, (count, codes) in sorted(ctx.copies_by_name(DECK).items()):
            if count > limit:
                yield self.violation(self.message, section=DECK, cards=card_codes(codes), count=count, limit=limit,
                                     names=ctx.labels_of(codes))


def summarise(ctx: ListContext) -> dict[str, int]:
    return {"cards": ctx.totals[DECK], "min_cards": ctx.options["min_cards"]}


def measure(ctx: ListContext) -> list[Gauge]:
    return [Gauge(DECK, ctx.totals[DECK], "T1", minimum=ctx.options["min_cards"])]  # named as its section


RULESET = RuleSet(
    name=Label("Toy Duel", "トイ・デュエル"),
    system=SYSTEM,
    sections=SECTIONS,
    defaults=DEFAULTS,
    rules=(DeckSize(), Copies()),
    summarise=summarise,
    measure=measure,
)
