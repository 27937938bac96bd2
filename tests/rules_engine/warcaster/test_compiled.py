"""The mypyc-compiled Warcaster engine (rules_engine/compiled.py): it plays exactly the games of the pure-Python
engine, it is never used when it is older than the sources, and `clone` copies a state without sharing anything
that changes."""
from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from rules_engine import compiled
from rules_engine.core.game import apply_checked
from rules_engine.core.policies import get_policy
from rules_engine.core.rng import game_rng
from rules_engine.simulation import build_snapshot, simulate
from rules_engine.warcaster import game as game_module
from rules_engine.warcaster.game import WarcasterGame
from tests.rules_engine.warcaster import CARDS, LISTS, OPPONENTS

ROOT = Path(__file__).resolve().parents[3]
CASES = [("isa-starsteel-vanguard", "marcher-frontier-posse", "greedy"),
         ("marcher-dust-raiders", "goldfish", "greedy"),
         ("isa-thunder-lancers", "isa-starsteel-vanguard", "random")]
GAMES = 12
PROGRAM = r"""
import json, sys
from rules_engine import compiled
from rules_engine.simulation import simulate
cases = json.loads(sys.stdin.read())
print(json.dumps({"engine": compiled.status()["engine"],
                  "results": [simulate(snapshot, games=%d, seed=77, workers=1) for snapshot in cases]}))
""" % GAMES


def _snapshots() -> list[dict]:
    return [build_snapshot(LISTS[lst], CARDS, OPPONENTS[opp], policy=policy) for lst, opp, policy in CASES]


def _play_in_child(snapshots: list[dict], engine: str) -> dict:
    env = dict(os.environ, HANGAR_ENGINE=engine, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-c", PROGRAM], input=json.dumps(snapshots), capture_output=True,
                          text=True, cwd=ROOT, env=env, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


def test_compiled_engine_is_in_use_when_the_set_up_built_it():
    """`python3 dev.py test` compiles the engine and says so (HANGAR_ENGINE_EXPECT_COMPILED): the suite, the
    worker processes and the benchmarks then run the compiled modules, not the .py files."""
    found = compiled.status()
    if os.environ.get("HANGAR_ENGINE_EXPECT_COMPILED") != "1":
        pytest.skip(f"engine not compiled in this run ({found['reason']}); `python3 dev.py test` builds it")
    assert found["engine"] == "compiled", found["reason"]
    assert game_module.__file__.endswith(".so"), game_module.__file__


def test_compiled_and_pure_python_engines_play_the_same_games():
    """Same snapshots, same seed: the pure-Python engine and this process's engine (compiled when built) give
    results equal to the last figure, for greedy and random play, force and goldfish opponents."""
    snapshots = _snapshots()
    here = [simulate(snapshot, games=GAMES, seed=77, workers=1) for snapshot in snapshots]
    pure = _play_in_child(snapshots, "python")
    assert pure["engine"] == "python"
    assert pure["results"] == json.loads(json.dumps(here))


def test_a_build_older_than_the_sources_is_never_used(tmp_path, monkeypatch):
    """A stale build (its digest differs from the sources') is ignored: pure Python runs until the next build."""
    (tmp_path / compiled.STAMP).write_text(json.dumps({"digest": "built-from-older-sources"}), encoding="utf-8")
    monkeypatch.setattr(compiled, "BUILD_DIR", tmp_path)
    monkeypatch.delenv("HANGAR_ENGINE", raising=False)
    package_path = ["/the/sources"]
    assert compiled.activate("rules_engine.warcaster", package_path) is False
    assert package_path == ["/the/sources"]
    assert "older than the sources" in compiled._status["reason"]
    monkeypatch.setenv("HANGAR_ENGINE", "python")
    assert compiled.activate("rules_engine.warcaster", package_path) is False
    assert compiled._status["reason"] == "HANGAR_ENGINE=python"


def test_the_digest_covers_every_compiled_source():
    assert all(compiled.source_path(module).is_file() for module in compiled.MODULES)
    assert len(compiled.digest()) == 64


def test_clone_is_independent_and_plays_on_identically():
    """`clone` (a hand-written copy: compiled classes cannot be deep-copied) keeps the table, hands, decks, log
    and random state: the original and its clone, given the same choices, write the same log; playing the clone
    leaves the original untouched."""
    game = WarcasterGame(LISTS["isa-starsteel-vanguard"], CARDS, OPPONENTS["marcher-frontier-posse"])
    state = game.new_initial_state(game_rng(5, 0))
    policy = get_policy("random")
    chooser = random.Random(3)
    for _ in range(60):  # into the first turns: units deployed, arc moved, cyphers played
        apply_checked(state, policy.choose(state, chooser))
    before = [e.to_dict() for e in state.events]
    twin = state.clone()
    assert twin.legal_actions() == state.legal_actions() and twin.invariant_problems() == []
    one, two = random.Random(9), random.Random(9)
    while not twin.is_terminal():
        apply_checked(twin, policy.choose(twin, two))
    assert [e.to_dict() for e in state.events] == before  # the original did not move
    while not state.is_terminal():
        apply_checked(state, policy.choose(state, one))
    assert state.events.to_list() == twin.events.to_list()
    assert state.returns() == twin.returns()
