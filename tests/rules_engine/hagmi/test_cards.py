"""Card data → engine dataclasses, and the skill registry (docs/design.md §3.1: one handler + schema per kind)."""
from __future__ import annotations

import pytest

from rules_engine.hagmi.cards import CardDataError, cards_from_catalog, parse_card
from rules_engine.hagmi.skills import REGISTRY
from tests.rules_engine.hagmi import CATALOG, PACKAGE, TEST_CARDS


def test_every_bundled_card_parses_and_every_skill_kind_has_a_handler():
    cards = cards_from_catalog(CATALOG.cards)
    used = {s.kind for c in cards.values() for s in c.skills}
    used |= {c.bounty.kind for c in cards.values() if c.bounty}
    used |= {e.kind for c in cards.values() for a in c.attrition for e in a.effects}
    assert used <= set(REGISTRY)
    assert len(cards) == len(PACKAGE["cards"]) + len(TEST_CARDS)


def test_multi_attack_firepower_is_split_into_firepower_and_hits_H10():
    card = parse_card({"code": "X-1", "name": "x", "category": "unit", "firepower": "2x3", "targets": "multi-2"})
    assert (card.firepower, card.hits, card.max_targets) == (2, 3, 2)
    assert parse_card({"code": "X-2", "name": "x", "category": "unit", "targets": "all"}).max_targets is None


@pytest.mark.parametrize("raw, field", [
    ({"firepower": "2y2"}, "firepower"),
    ({"skills": [{"kind": "teleport", "trigger": "static"}]}, "skills[0].kind"),
    ({"skills": [{"kind": "draw", "trigger": "static", "cuont": 1}]}, "skills[0].cuont"),
    ({"skills": [{"kind": "draw", "trigger": "on_enter"}]}, "skills[0].count"),
    ({"skills": [{"kind": "draw", "trigger": "sometimes", "count": 1}]}, "skills[0].trigger"),
    ({"skills": [{"kind": "deal_damage", "trigger": "on_enter", "amount": 0, "target": "opponent"}]}, "skills[0].amount"),
    ({"cost": -1}, "cost"),
])
def test_bad_card_data_names_the_card_and_the_field(raw, field):
    with pytest.raises(CardDataError) as error:
        parse_card({"code": "BAD-1", "name": "x", "category": "unit", **raw})
    assert error.value.code == "BAD-1" and error.value.field == field
    assert "BAD-1" in str(error.value) and field in str(error.value)
