"""Benchmark the MechWarrior: Dark Age battle engine: battles per second on ONE core (against its target).

Run from the repository root:  python benchmarks/bench_mwda.py [--games N] [--repeat R] [--no-profile]

Builds snapshots from cards/packages/mwda/core-sample.json and the sample armies (cards/packages/mwda/lists/) with
`rules_engine.simulation.build_snapshot` and times `simulate(..., workers=1)` (in-process, one core): every sample
army against every other sample army (two ~300-point armies) with the greedy and random policies, and each army
against the goldfish. Prints wall-clock and CPU-time rates (median of R runs; CPU time is the fairer figure on a
shared machine) and a cProfile top-15 by tottime for one army-vs-army greedy case.
Target: ≥ 200 battles/s of two 300-point armies. Pure Python, no Django.
"""
from __future__ import annotations

import argparse
import platform
import statistics
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from _engine import add_engine_option, engine_line, games_per_second, load_package, profile  # noqa: E402,I001

from rules_engine.simulation import build_snapshot, simulate  # noqa: E402

POLICIES = ("greedy", "random")
SEED = 2026
TARGET = 200  # battles/s, army vs army


def cases() -> list[tuple[str, str, dict[str, Any]]]:
    """(opponent kind, label, snapshot): each sample army against each opponent other than itself."""
    cards, opponents, lists = load_package("mwda")
    found = []
    for name, document in lists.items():
        for opponent in opponents:
            if opponent["slug"] == name:
                continue
            for policy in POLICIES if opponent["kind"] == "army" else ("greedy",):
                snapshot = build_snapshot(document, cards, opponent, policy=policy)
                found.append((opponent["kind"], f"{name} vs {opponent['slug']} ({policy})", snapshot))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500, help="battles per timed run (default 500)")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs per case; the median is shown (default 3)")
    parser.add_argument("--no-profile", action="store_true", help="skip the cProfile")
    add_engine_option(parser)
    args = parser.parse_args()

    print(f"Python {platform.python_version()} on {platform.machine()}, one core, {args.games} battles × {args.repeat} runs")
    print(engine_line("rules_engine.mwda"))
    print(f"{'case':58} {'wall/s':>8} {'cpu/s':>8} {'target':>7}")
    all_cases = cases()
    army_rates = []
    for kind, label, snapshot in all_cases:
        simulate(snapshot, games=10, seed=SEED, workers=1)  # warm-up: parse the units once (per-process cache)
        measured = [games_per_second(snapshot, args.games, SEED)[::-1] for _ in range(args.repeat)]  # (wall, cpu)
        wall = statistics.median(m[0] for m in measured)
        cpu = statistics.median(m[1] for m in measured)
        mark = ""
        if kind == "army":
            army_rates.append(cpu)
            mark = f"{TARGET:>7}" + ("" if cpu >= TARGET else "  BELOW")
        print(f"{label:58} {wall:8.0f} {cpu:8.0f} {mark}")
    if army_rates:
        print(f"\narmy vs army, CPU battles/s: min {min(army_rates):.0f}, median {statistics.median(army_rates):.0f}")
    if not args.no_profile and "engine: python" in engine_line("rules_engine.mwda"):  # cProfile sees no compiled code
        label, snapshot = next((label, s) for kind, label, s in all_cases if kind == "army" and s["policy"] == "greedy")
        print(f"\ncProfile, top 15 by tottime: {label}, {args.games} battles")
        print(profile(snapshot, args.games, SEED))


if __name__ == "__main__":
    main()
