"""Benchmark the HAGMI! simulation engine: games per second on ONE core (against its targets).

Run from the repository root:  python benchmarks/bench_hagmi.py [--games N] [--repeat R]

Builds snapshots from cards/packages/hagmi/core.json and the sample lists (cards/packages/hagmi/lists/) with
`rules_engine.simulation.build_snapshot` and times `simulate(..., workers=1)` (in-process, one core) for the
40-card deck against the goldfish, each co-op (機獣) opponent and each sample deck, with the policies greedy and
random. Prints a table (median of R runs) and a cProfile top-15 by tottime for the co-op greedy case.
Targets: goldfish ≥ 1 000 games/s, co-op ≥ 300 games/s. Pure Python, no Django.

Two rates per case: `cpu` divides by this process's CPU time (time.process_time), the work of one core even when
other processes share the machine, and is the one checked against the targets; `wall` divides by elapsed time.
"""
from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from _engine import add_engine_option, engine_line, games_per_second, load_package, profile  # noqa: E402,I001

from rules_engine.simulation import build_snapshot, simulate  # noqa: E402

DECK = "akane-assault"  # the 40-card deck (20 兵器 + 20 作戦)
POLICIES = ("greedy", "random")
SEED = 2026
TARGETS = {"goldfish": 1000, "coop": 300}


def cases() -> list[tuple[str, str, dict[str, Any]]]:
    """(opponent kind, label, snapshot) for the deck against every opponent with every policy."""
    cards, opponents, lists = load_package("hagmi")
    found = []
    for opponent in opponents:
        for policy in POLICIES:
            snapshot = build_snapshot(lists[DECK], cards, opponent, policy=policy)
            found.append((opponent["kind"], f"{DECK} vs {opponent['slug']} ({policy})", snapshot))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games per timed run (default 2000)")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs per case; the median is shown (default 3)")
    parser.add_argument("--no-profile", action="store_true", help="skip the cProfile of the co-op greedy case")
    add_engine_option(parser)
    args = parser.parse_args()

    print(f"Python {platform.python_version()} on {platform.machine()}, one core, {args.games} games × {args.repeat} runs")
    print(engine_line("rules_engine.hagmi"))
    print(f"{'case':58} {'cpu g/s':>8} {'wall g/s':>9} {'target':>7}")
    all_cases = cases()
    for kind, label, snapshot in all_cases:
        simulate(snapshot, games=20, seed=SEED, workers=1)  # warm-up: parse the cards once (per-process cache)
        runs = [games_per_second(snapshot, args.games, SEED) for _ in range(args.repeat)]
        cpu, wall = statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)
        target = TARGETS.get(kind)
        mark = "" if target is None else f"{target:>7}" + ("" if cpu >= target else "  BELOW")
        print(f"{label:58} {cpu:8.0f} {wall:9.0f} {mark}")
    if not args.no_profile and "engine: python" in engine_line("rules_engine.hagmi"):  # cProfile sees no compiled code
        label, snapshot = next((label, s) for kind, label, s in all_cases if kind == "coop" and s["policy"] == "greedy")
        print(f"\ncProfile, top 15 by tottime: {label}, {args.games} games")
        print(profile(snapshot, args.games, SEED))


if __name__ == "__main__":
    main()
