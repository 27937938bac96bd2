"""The pages say what each game shows by the game's own presentation (rules_engine/<game>/presentation.py), not by
comparing its slug: the words stay the same for each game, and a game that does not declare a thing shows none of it."""
from __future__ import annotations

from django.utils import translation

from builder.web import cardtext, gamereport, positionboard, vocabulary


def _names(system: str) -> gamereport.Namer:
    return gamereport.namer_for(system, {"events": []}, {})


def test_hagmi_counted_targets_read_as_up_to_n_and_another_game_has_no_such_values():
    with translation.override("en"):
        assert vocabulary.label("hagmi", "targets", "multi-3") == "Up to 3 targets"
        assert "Up to" not in vocabulary.label("mwda", "targets", "multi-3")


def test_a_position_side_notes_are_the_games_own_warcaster_resources_and_mwda_points():
    position = {"sides": [{"vp": 2, "pool": 3, "hand": [], "deck": [1, 2], "discard": [3], "points_destroyed": 40}]}
    with translation.override("en"):
        warcaster = positionboard._side_notes("warcaster", position, _names("warcaster"))  # noqa: SLF001
        mwda = positionboard._side_notes("mwda", position, _names("mwda"))  # noqa: SLF001
        hagmi = positionboard._side_notes("hagmi", position, _names("hagmi"))  # noqa: SLF001
    assert warcaster[0]["lines"] == ["2 victory points · arc pool 3", "0 cyphers in hand", "Rack 2 · discard 1"]
    assert mwda[0]["lines"] == ["40 points destroyed"]
    assert hagmi == []


def test_mwda_says_the_orders_left_in_the_orders_phase_and_no_other_game_does():
    position = {"turn": 2, "round": 1, "player": 0, "phase": "orders", "orders_left": 2}
    with translation.override("en"):
        mwda = positionboard.decision_words("mwda", position)["words"]
        warcaster = positionboard.decision_words("warcaster", position)["words"]
    assert mwda.endswith("(2 orders left this turn)")
    assert "orders left" not in warcaster


def test_warcaster_end_says_what_it_closes_by_the_phase():
    with translation.override("en"):
        names = _names("warcaster")
        assert positionboard.action_words("warcaster", ["end"], names, {"phase": "recall"}) == \
            "End the charging phase (recall no more arc)"
        assert positionboard.action_words("warcaster", ["end"], names, {"phase": "deploy"}) == "Deploy no more units"
        assert positionboard.action_words("mwda", ["end"], _names("mwda"), {"phase": "recall"}) != \
            "End the charging phase (recall no more arc)"


# A game that declares no words of its own (a new game before its report.py, positionwords.py and cardtext.py):
# its pages still say everything in words, never a slug. "toy" is no registered game, so it has the defaults.

def test_a_game_without_card_text_shows_each_plain_field_in_words():
    card = {"code": "TOY-1", "name": "Siege tower", "name_en": "Siege tower", "kind": "siege-tower", "points": 12,
            "unique": True, "keywords": ["fast_mover", "armored"], "weapons": [{"name": "Ram", "pow": 3}],
            "text": "Moves slowly.", "text_en": "Moves slowly."}
    with translation.override("en"):
        described = cardtext.describe("toy", card)
    assert described["facts"] == [("Kind", "siege tower"), ("Points", "12"), ("Unique", "yes"),
                                  ("Keywords", "fast mover, armored")]
    assert described["lines"] == [] and described["text"] == "Moves slowly."
    assert cardtext.weapon_rows("toy", card) == [] and cardtext.stat_rows("toy", card) == []
    with translation.override("ja"):
        facts = dict(cardtext.describe("toy", card)["facts"])
    assert facts["種類"] == "siege tower" and facts["ユニーク"] == "はい"


def test_a_game_without_a_report_still_words_every_event_and_its_headings():
    events = [{"kind": "turn_start", "turn": 1, "player": 0, "data": {"round": 1}},
              {"kind": "advance_piece", "turn": 1, "player": 0, "data": {"piece": 3}}]
    with translation.override("en"):
        [turn] = gamereport.report("toy", {"events": events}, {})
    assert turn["heading"] == "Round 1 · Turn 1 (you)"
    # the turn's start is its heading, not a sentence
    assert turn["lines"] == ["You did something the report cannot put in words yet (advance piece)."]
    cards = {"TK-1": {"name": "塔", "name_en": "Tower"}}
    events = [{"kind": "raise", "turn": 2, "player": 1, "data": {"card": "TK-1", "rank": "TK-1", "height": 3}},
              {"kind": "game_over", "turn": 2, "player": None, "data": {"winner": 1, "reason": "rounds"}}]
    with translation.override("en"):
        [turn] = gamereport.report("toy", {"events": events}, cards)
    # the cards its data names, once each, by their names; who won and how from the shared game_over
    assert turn["lines"] == ["The opponent did something the report cannot put in words yet (raise: Tower).",
                             "The opponent won: after the last round, on points."]


def test_a_game_without_position_words_names_its_actions_by_their_kinds():
    with translation.override("en"):
        names = _names("toy")
        assert positionboard.action_words("toy", ["advance_piece", 3], names, {}) == "Action advance piece"
        assert positionboard.decision_words("toy", {"turn": 4, "player": 0}) == {"heading": "Turn 4", "words": ""}
        assert positionboard._side_notes("toy", {"sides": [{"vp": 2}]}, names) == []  # noqa: SLF001
