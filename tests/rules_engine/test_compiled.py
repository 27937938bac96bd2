"""The mypyc-compiled engines (rules_engine/compiled.py): each plays exactly the games of its pure-Python source,
is the one in use after `python3 dev.py test` built it, and is never used when older than the sources."""
from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rules_engine import compiled
from rules_engine.simulation import build_snapshot, simulate

ROOT = Path(__file__).resolve().parents[2]
GAMES = 12
# (system, list file stem, opponent slug, policy): force and goldfish opponents, greedy and random play.
CASES = {
    "rules_engine.warcaster": [("warcaster", "isa-starsteel-vanguard", "marcher-frontier-posse", "greedy"),
                               ("warcaster", "marcher-dust-raiders", "goldfish", "greedy"),
                               ("warcaster", "isa-thunder-lancers", "isa-starsteel-vanguard", "random")],
    "rules_engine.mwda": [("mwda", "republic-knight-guard", "steel-wolves-pack", "greedy"),
                          ("mwda", "highland-line", "goldfish", "greedy"),
                          ("mwda", "steel-wolves-pack", "highland-line", "random")],
}
PROGRAM = r"""
import json, sys
from rules_engine import compiled
from rules_engine.simulation import simulate
package, snapshots = json.loads(sys.stdin.read())
print(json.dumps({"engine": compiled.status(package)["engine"],
                  "results": [simulate(snapshot, games=%d, seed=77, workers=1) for snapshot in snapshots]}))
""" % GAMES


def _snapshot(system: str, stem: str, opponent: str, policy: str) -> dict:
    folder = ROOT / "cards" / "packages" / system
    package = json.loads((folder / "core-sample.json").read_text(encoding="utf-8"))
    cards = {card["code"]: card for card in package["cards"]}
    document = json.loads((folder / "lists" / f"{stem}.json").read_text(encoding="utf-8"))
    chosen = next(o for o in package["opponents"] if o["slug"] == opponent)
    return build_snapshot(document, cards, chosen, policy=policy)


@pytest.mark.parametrize("package", sorted(compiled.PACKAGES))
def test_each_engine_is_compiled_when_the_set_up_built_it(package):
    """`python3 dev.py test` compiles the engines and says so (HANGAR_ENGINE_EXPECT_COMPILED): the suite, the
    worker processes and the benchmarks then run the compiled modules, not the .py files."""
    found = compiled.status(package)
    if os.environ.get("HANGAR_ENGINE_EXPECT_COMPILED") != "1":
        pytest.skip(f"{package} not compiled in this run ({found['reason']}); `python3 dev.py test` builds it")
    assert found["engine"] == "compiled", found["reason"]
    game = importlib.import_module(f"{package}.game")
    assert game.__file__.endswith(".so"), game.__file__


@pytest.mark.parametrize("package", sorted(CASES))
def test_compiled_and_pure_python_engines_play_the_same_games(package):
    """Same snapshots, same seed: the pure-Python engine (a child process with HANGAR_ENGINE=python) and this
    process's engine (compiled when built) give equal results, to the last figure."""
    snapshots = [_snapshot(*case) for case in CASES[package]]
    here = [simulate(snapshot, games=GAMES, seed=77, workers=1) for snapshot in snapshots]
    env = dict(os.environ, HANGAR_ENGINE="python", PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-c", PROGRAM], input=json.dumps([package, snapshots]), capture_output=True,
                          text=True, cwd=ROOT, env=env, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    pure = json.loads(done.stdout)
    assert pure["engine"] == "python"
    assert pure["results"] == json.loads(json.dumps(here))


def test_a_build_older_than_the_sources_is_never_used(tmp_path, monkeypatch):
    """A stale build (its digest differs from the sources') is ignored: pure Python runs until the next build."""
    package = "rules_engine.warcaster"
    monkeypatch.setattr(compiled, "BUILD_DIR", tmp_path)
    monkeypatch.setattr(compiled, "_status", dict(compiled._status))  # this process's real status stays as it was
    older = compiled.build_dir(package, "0" * 64)
    older.mkdir(parents=True)
    (older / compiled.STAMP).write_text(json.dumps({"digest": "0" * 64}), encoding="utf-8")
    monkeypatch.delenv("HANGAR_ENGINE", raising=False)
    package_path = ["/the/sources"]
    assert compiled.activate(package, package_path) is False
    assert package_path == ["/the/sources"]
    assert "older than the sources" in compiled._status[package]["reason"]
    monkeypatch.setenv("HANGAR_ENGINE", "python")
    assert compiled.activate(package, package_path) is False
    assert compiled._status[package]["reason"] == "HANGAR_ENGINE=python"


@pytest.mark.parametrize("package", sorted(compiled.PACKAGES))
def test_the_digest_covers_every_compiled_source(package):
    assert all(compiled.source_path(module).is_file() for module in compiled.modules_of(package))
    assert len(compiled.digest(package)) == 64
