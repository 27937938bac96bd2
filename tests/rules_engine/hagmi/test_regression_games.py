"""Fixed-seed regression games ("perft-like", docs/design.md §3.4): the full event log of a game is stored in
tests/rules_engine/hagmi/regression/ and must not change unless the rules change on purpose.

After an intended rules change: HANGAR_UPDATE_REGRESSION=1 pytest tests/rules_engine/hagmi/test_regression_games.py,
review the diff of the JSON files, bump rules_engine.simulation.ENGINE_VERSION, commit both.
"""
import json
import os
from pathlib import Path

import pytest

from rules_engine.core.catalog import Catalog
from rules_engine.core.game import play_out
from rules_engine.core.policies import get_policy
from rules_engine.core.rng import game_rng
from rules_engine.hagmi.game import HagmiGame

ROOT = Path(__file__).resolve().parents[3]
STORE = Path(__file__).resolve().parent / "regression"
PACKAGE = json.loads((ROOT / "cards/packages/hagmi/core.json").read_text(encoding="utf-8"))
OPPONENTS = {opponent["slug"]: opponent for opponent in PACKAGE["opponents"]}
CATALOG = Catalog.build("hagmi", PACKAGE["cards"], PACKAGE["formats"])
SEED = 20261130

CASES = [
    ("akane-assault", "goldfish", "hagmi-greedy", 0),
    ("akane-assault", "coop-ironshell-cradle", "hagmi-greedy", 1),
    ("shizuku-artillery", "coop-abyssal-ark", "random", 2),
    ("hibari-skirmish", "sample-fortress", "hagmi-greedy", 3),
]


def play(list_slug: str, opponent: str, policy_name: str, index: int) -> list[dict]:
    document = json.loads((ROOT / f"cards/packages/hagmi/lists/{list_slug}.json").read_text(encoding="utf-8"))
    game = HagmiGame(document, CATALOG, OPPONENTS[opponent])
    policy = get_policy(policy_name)
    state = play_out(game.new_initial_state(game_rng(SEED, index)), [policy, policy], game_rng(SEED + 1, index))
    assert state.is_terminal()
    return state.events.to_list()


@pytest.mark.parametrize("list_slug, opponent, policy_name, index", CASES)
def test_fixed_seed_game_replays_its_stored_event_log(list_slug, opponent, policy_name, index):
    events = json.loads(json.dumps(play(list_slug, opponent, policy_name, index)))  # as stored: JSON types
    path = STORE / f"{list_slug}--{opponent}--{policy_name}--{index}.json"
    if os.environ.get("HANGAR_UPDATE_REGRESSION") == "1" or not path.exists():
        path.write_text(json.dumps(events, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        if os.environ.get("HANGAR_UPDATE_REGRESSION") != "1":
            pytest.fail(f"{path.name} did not exist: it was written now; review and commit it")
    stored = json.loads(path.read_text(encoding="utf-8"))
    assert len(events) == len(stored), "the game took another course"
    for number, (got, expected) in enumerate(zip(events, stored)):
        assert got == expected, f"event {number} differs"
