"""Benchmark the Warcaster simulation engine: games per second on ONE core (target: ≥ 200 games/s of
two skirmish lists).

Run from the repository root:  python benchmarks/bench_warcaster.py [--games N] [--repeat R] [--no-profile]

Builds snapshots from cards/packages/warcaster/core-sample.json and its sample lists with
`rules_engine.simulation.build_snapshot` and times `simulate(..., workers=1)` (in-process, one core) for
Starsteel Vanguard against the goldfish and each sample force, with the policies greedy and random. Prints a
table (median of R runs; games per CPU second, the fair figure on a shared machine, and per wall-clock second) and,
for the pure-Python engine, a cProfile top-15 by tottime of the force-vs-force greedy case. No Django.

The engine measured is the one an import gets: the mypyc-compiled build when it is up to date (`python -m
rules_engine.compiled build`; dev.py builds it), otherwise pure Python; `--pure` forces pure Python.
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

LIST = "isa-starsteel-vanguard"
PROFILED = "marcher-frontier-posse"
POLICIES = ("greedy", "random")
SEED = 2026
TARGET = 200  # games/s, two skirmish lists


def cases() -> list[tuple[str, str, dict[str, Any]]]:
    cards, opponents, lists = load_package("warcaster")
    document = lists[LIST]
    found = []
    for opponent in opponents:
        for policy in POLICIES:
            snapshot = build_snapshot(document, cards, opponent, policy=policy)
            found.append((opponent["slug"], f"{LIST} vs {opponent['slug']} ({policy})", snapshot))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="games per timed run (default 300)")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs per case; the median is shown (default 3)")
    parser.add_argument("--no-profile", action="store_true", help="skip the cProfile of the force greedy case")
    add_engine_option(parser)
    args = parser.parse_args()

    print(f"Python {platform.python_version()} on {platform.machine()}, one core, {args.games} games × {args.repeat} runs")
    print(engine_line("rules_engine.warcaster"))
    print(f"{'case':64} {'games/CPU s':>11} {'games/s':>9} {'target':>7}")
    found = cases()
    for slug, label, snapshot in found:
        runs = [games_per_second(snapshot, args.games, SEED) for _ in range(args.repeat)]
        cpu, wall = statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)
        target = "" if slug == "goldfish" else str(TARGET)
        print(f"{label:64} {cpu:11.1f} {wall:9.1f} {target:>7}")
    if not args.no_profile and "engine: python" in engine_line("rules_engine.warcaster"):  # cProfile sees no compiled code
        snapshot = next(s for slug, label, s in found if slug == PROFILED and label.endswith("(greedy)"))
        print(f"\ncProfile, {LIST} vs {PROFILED} (greedy), {args.games} games:")
        print(profile(snapshot, args.games, SEED))


if __name__ == "__main__":
    main()
