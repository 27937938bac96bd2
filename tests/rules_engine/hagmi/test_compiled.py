"""The mypyc-compiled HAGMI! engine (rules_engine/compiled.py): it plays exactly the games of the pure-Python
engine (goldfish, co-op 機獣 and deck opponents, greedy and random play) and `clone` copies a state without
sharing anything that changes. (A stale build never being used, and the digest, are tested for every engine in
tests/rules_engine/test_compiled.py.)"""
from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from rules_engine import compiled
from rules_engine.core.game import apply_checked, play_out
from rules_engine.core.policies import get_policy
from rules_engine.core.rng import game_rng
from rules_engine.hagmi import game as game_module
from rules_engine.hagmi.game import HagmiGame, HagmiState
from rules_engine.simulation import build_snapshot, simulate
from tests.rules_engine.hagmi import CATALOG, LISTS, OPPONENTS, check_invariants

PACKAGE = "rules_engine.hagmi"
ROOT = Path(__file__).resolve().parents[3]
CARDS = {code: dict(card) for code, card in CATALOG.cards.items()}
CASES = [("akane-assault", "goldfish", "greedy"),
         ("akane-assault", "coop-ironshell-cradle", "greedy"),
         ("shizuku-artillery", "coop-abyssal-ark", "random"),
         ("hibari-skirmish", "sample-fortress", "greedy"),
         ("sample-vanguard", "sample-vanguard", "random")]
GAMES = 30  # per case, summed up by `simulate`
LOGGED = 3  # per case, compared event by event
PROGRAM = r"""
import json, sys
from rules_engine import compiled
from tests.rules_engine.hagmi.test_compiled import play_cases
print(json.dumps({"engine": compiled.status("rules_engine.hagmi")["engine"], **play_cases()}))
"""


def _snapshots() -> list[dict]:
    return [build_snapshot(LISTS[lst], CARDS, OPPONENTS[opp], policy=policy) for lst, opp, policy in CASES]


def play_cases() -> dict:
    """What this process's engine makes of CASES: `simulate`'s results, and the full event logs and returns of a
    few games per case (the same in every process: the games depend on the seeds only)."""
    results = [simulate(snapshot, games=GAMES, seed=77, workers=1) for snapshot in _snapshots()]
    logs = []
    for lst, opp, policy in CASES:
        game = HagmiGame(LISTS[lst], CATALOG, OPPONENTS[opp])
        name = "hagmi-greedy" if policy == "greedy" else policy
        for index in range(LOGGED):
            state = play_out(game.new_initial_state(game_rng(5, index)), [get_policy(name)] * 2, random.Random(index))
            logs.append({"events": state.events.to_list(), "returns": list(state.returns())})
    return json.loads(json.dumps({"results": results, "logs": logs}))


def _play_in_child(engine: str) -> dict:
    env = dict(os.environ, HANGAR_ENGINE=engine, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-c", PROGRAM], capture_output=True, text=True, cwd=ROOT, env=env,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


def test_compiled_engine_is_in_use_when_the_set_up_built_it():
    """`python3 dev.py test` compiles the engines and says so (HANGAR_ENGINE_EXPECT_COMPILED): the suite, the
    worker processes and the benchmarks then run the compiled HAGMI! modules, not the .py files."""
    found = compiled.status(PACKAGE)
    if os.environ.get("HANGAR_ENGINE_EXPECT_COMPILED") != "1":
        pytest.skip(f"engine not compiled in this run ({found['reason']}); `python3 dev.py test` builds it")
    assert found["engine"] == "compiled", found["reason"]
    assert game_module.__file__.endswith(".so"), game_module.__file__


def test_compiled_and_pure_python_engines_play_the_same_games():
    """Same snapshots, same seeds: the pure-Python engine (a child process with HANGAR_ENGINE=python) and this
    process's engine (compiled when built) give equal `simulate` results and the same event logs, event by
    event, against the goldfish, both co-op 機獣 opponents and deck opponents, with greedy and random play."""
    here = play_cases()
    pure = _play_in_child("python")
    assert pure["engine"] == "python"
    assert pure["results"] == here["results"]
    games = [(case, index) for case in CASES for index in range(LOGGED)]
    assert len(here["logs"]) == len(pure["logs"]) == len(games)
    for (case, index), ours, theirs in zip(games, here["logs"], pure["logs"]):
        assert ours == theirs, (case, index)


def _snapshot_of(state: HagmiState) -> tuple:
    """Everything a player could observe about a state, to check that it did not move."""
    return (state.events.to_list(), state.card_locations(), state.legal_actions(), state.rng.getstate(),
            state.turn, state.decision, [(u.uid, u.damage, u.barrier, sorted(u.used), [list(m) for m in u.mods])
                                         for u in state.all_units()],
            None if state.beasts is None else (state.beasts.cores, sorted(state.beasts.fired)),
            None if state.combat is None else (state.combat.target, list(state.combat.targets),
                                               state.combat.exchange))


@pytest.mark.parametrize("lst, opp, stop", [
    ("hibari-skirmish", "sample-fortress", "defend"),  # cloned with a combat in progress (a defence choice)
    ("akane-assault", "coop-ironshell-cradle", "beasts"),  # cloned with 機獣 on the battlefield
])
def test_clone_is_independent_and_plays_on_identically(lst, opp, stop):
    """`clone` (a hand-written copy: compiled classes cannot be deep-copied) keeps the zones, units, the combat
    in progress, the 機獣 side, the log and the random state: the original and its clone, given the same
    choices, write the same log; playing the clone to its end leaves the original untouched."""
    game = HagmiGame(LISTS[lst], CATALOG, OPPONENTS[opp])
    policy = get_policy("random")
    for seed in range(40):  # the first game (by seed) that reaches the moment wanted
        state = game.new_initial_state(game_rng(13, seed))
        chooser = random.Random(seed)
        while not state.is_terminal():
            reached = (state.decision is not None and state.decision[0] == "defend" if stop == "defend"
                       else state.beasts is not None and len(state.beasts.beasts) >= 2 and state.turn >= 4)
            if reached:
                break
            apply_checked(state, policy.choose(state, chooser))
        if not state.is_terminal():
            break
    assert not state.is_terminal(), f"no game reached {stop!r}"
    before = _snapshot_of(state)
    twin = state.clone()
    assert _snapshot_of(twin) == before
    check_invariants(twin, len(twin.cards))
    one, two = random.Random(9), random.Random(9)
    while not twin.is_terminal():
        apply_checked(twin, policy.choose(twin, two))
    assert _snapshot_of(state) == before  # the original did not move
    while not state.is_terminal():
        apply_checked(state, policy.choose(state, one))
    assert state.events.to_list() == twin.events.to_list()
    assert state.returns() == twin.returns()
