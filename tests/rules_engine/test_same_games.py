"""The same games, always: every benchmark case (benchmarks/bench_hagmi.py, bench_mwda.py,
bench_warcaster.py: each list × opponent × policy) plays 60 games whose event logs and summary are fixed by
tests/rules_engine/fixtures/same_games.json. A refactor of an engine must leave them identical; a change that means
to alter games bumps ENGINE_VERSION (rules_engine/simulation.py), says why in its commit, and records the new
fingerprints:

    HANGAR_RECORD_SAME_GAMES=1 .venv/bin/python -m pytest tests/rules_engine/test_same_games.py

The fingerprints are recorded with the ENGINE_VERSION they belong to: a bump without new fingerprints fails here,
and so do new fingerprints without a bump.
"""
from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from rules_engine.core.game import play_out
from rules_engine.simulation import ENGINE_VERSION, simulate, simulator_for

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = Path(__file__).parent / "fixtures" / "same_games.json"
GAMES = 60
SEED = 2026
RECORD = os.environ.get("HANGAR_RECORD_SAME_GAMES") == "1"


def benchmark_cases() -> dict[str, dict[str, Any]]:
    """label -> snapshot of every benchmark case of the three engines."""
    found = {}
    if str(ROOT / "benchmarks") not in sys.path:  # the scripts import their shared `_engine` module as run from there
        sys.path.append(str(ROOT / "benchmarks"))
    for name in ("bench_hagmi", "bench_mwda", "bench_warcaster"):
        spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        for _kind, label, snapshot in module.cases():
            found[f"{snapshot['system']}: {label}"] = snapshot
    return found


def fingerprint(snapshot: dict[str, Any]) -> dict[str, str]:
    """sha256 of the 60 games' event logs (game by game, in order, as the run plays them) and of the run's
    summary."""
    simulator = simulator_for(snapshot["system"])
    prepared = simulator.prepare(snapshot)
    logs = hashlib.sha256()
    for index in range(GAMES):  # the run's games: each from its plan (its seat and separate streams)
        plan = simulator.plan(prepared, SEED, index)
        state = play_out(simulator.new_state(prepared, plan), prepared.policies, plan.policies,
                         max_steps=getattr(simulator, "max_steps", 100_000))
        logs.update(json.dumps(state.events.to_list(), sort_keys=True, ensure_ascii=False).encode())
    summary = simulate(snapshot, games=GAMES, seed=SEED, workers=1)
    text = json.dumps(summary, sort_keys=True, ensure_ascii=False)
    return {"events": logs.hexdigest(), "summary": hashlib.sha256(text.encode()).hexdigest()}


CASES = benchmark_cases()


@pytest.fixture(scope="module")
def recorded() -> dict[str, Any]:
    if RECORD:
        data = {"engine_version": ENGINE_VERSION, "games": GAMES, "seed": SEED,
                "cases": {label: fingerprint(snapshot) for label, snapshot in CASES.items()}}
        FIXTURE.write_text(json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")
    return json.loads(FIXTURE.read_text(encoding="utf-8"))


def test_the_fingerprints_belong_to_this_engine_version(recorded):
    assert recorded["engine_version"] == ENGINE_VERSION, (
        f"ENGINE_VERSION is {ENGINE_VERSION} but the same-games fingerprints were recorded for "
        f"{recorded['engine_version']}: record them again (see this module's docstring)")
    assert sorted(recorded["cases"]) == sorted(CASES), "a benchmark case was added or removed: record again"


@pytest.mark.parametrize("label", sorted(CASES))
def test_every_benchmark_case_plays_the_same_games(recorded, label):
    expected = recorded["cases"].get(label)
    assert expected is not None, f"no fingerprint for {label}: record them again"
    assert fingerprint(CASES[label]) == expected, (
        f"{label}: the games changed. If that is meant, bump ENGINE_VERSION, say why in the commit and record again")
