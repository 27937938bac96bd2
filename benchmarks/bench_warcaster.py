"""Benchmark the Warcaster simulation engine: games per second on ONE core (issue 7 target: ≥ 200 games/s of
two skirmish lists).

Run from the repository root:  python benchmarks/bench_warcaster.py [--games N] [--repeat R] [--no-profile]

Builds snapshots from cards/packages/warcaster/core-sample.json and its sample lists with
`rules_engine.simulation.build_snapshot` and times `simulate(..., workers=1)` (in-process, one core) for
Starsteel Vanguard against the goldfish and each sample force, with the policies greedy and random. Prints a
table (median of R runs; games per CPU second, the fair figure on a shared machine, and per wall-clock second) and a cProfile top-15 by tottime for the force-vs-force greedy case. Pure Python, no Django.
"""
from __future__ import annotations

import argparse
import cProfile
import io
import json
import platform
import pstats
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rules_engine.simulation import build_snapshot, simulate  # noqa: E402

PACKAGE = ROOT / "cards" / "packages" / "warcaster"
LIST = "isa-starsteel-vanguard"
PROFILED = "marcher-frontier-posse"
POLICIES = ("greedy", "random")
SEED = 2026
TARGET = 200  # games/s, two skirmish lists


def cases() -> list[tuple[str, str, dict[str, Any]]]:
    core = json.loads((PACKAGE / "core-sample.json").read_text(encoding="utf-8"))
    cards = {card["code"]: card for card in core["cards"]}
    document = json.loads((PACKAGE / "lists" / f"{LIST}.json").read_text(encoding="utf-8"))
    found = []
    for opponent in core["opponents"]:
        for policy in POLICIES:
            snapshot = build_snapshot(document, cards, opponent, policy=policy)
            found.append((opponent["slug"], f"{LIST} vs {opponent['slug']} ({policy})", snapshot))
    return found


def games_per_second(snapshot: dict[str, Any], games: int) -> tuple[float, float]:
    """(games per CPU second, games per wall-clock second): CPU time is the fair figure on a busy machine."""
    wall, cpu = time.perf_counter(), time.process_time()
    simulate(snapshot, games=games, seed=SEED, workers=1)
    return games / (time.process_time() - cpu), games / (time.perf_counter() - wall)


def profile(snapshot: dict[str, Any], games: int, top: int = 15) -> str:
    profiler = cProfile.Profile()
    profiler.enable()
    simulate(snapshot, games=games, seed=SEED, workers=1)
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(top)
    return out.getvalue()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="games per timed run (default 300)")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs per case; the median is shown (default 3)")
    parser.add_argument("--no-profile", action="store_true", help="skip the cProfile of the force greedy case")
    args = parser.parse_args()

    print(f"Python {platform.python_version()} on {platform.machine()}, one core, {args.games} games × {args.repeat} runs")
    print(f"{'case':64} {'games/CPU s':>11} {'games/s':>9} {'target':>7}")
    found = cases()
    for slug, label, snapshot in found:
        runs = [games_per_second(snapshot, args.games) for _ in range(args.repeat)]
        cpu, wall = statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)
        target = "" if slug == "goldfish" else str(TARGET)
        print(f"{label:64} {cpu:11.1f} {wall:9.1f} {target:>7}")
    if not args.no_profile:
        snapshot = next(s for slug, label, s in found if slug == PROFILED and label.endswith("(greedy)"))
        print(f"\ncProfile, {LIST} vs {PROFILED} (greedy), {args.games} games:")
        print(profile(snapshot, args.games))


if __name__ == "__main__":
    main()
