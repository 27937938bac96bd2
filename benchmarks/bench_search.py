"""Benchmark the search policies: each game's `<game>-search` against its greedy, mirrored.

Run from the repository root:  python benchmarks/bench_search.py [--games N] [--systems hagmi,mwda,warcaster]
                                                                  [--workers W] [--pure]

Per game system one sample list of the bundled package (SAMPLES) plays itself: the same list on both sides, built
as the simulator builds it (`build_snapshot` with that list and its own sample opponent, `Simulator.prepare`).
Each seed is played twice, once with the search policy as player 0 and greedy as player 1, once the other way
round (the same game rng, `game_rng(SEED, i)`), so neither the seat nor the list favours either policy; N games
= N / 2 seeds. Prints per system: the search policy's wins / draws / losses, its win rate with the 95 % Wilson
interval (draws count half), the mean game length in turns (the state's turn counter: both players' turns), and
the decisions per second of the search policy and of greedy (each policy's own CPU time inside `choose`, in the
same games). The compiled engines are used when built (`python -m rules_engine.compiled build`); `--pure` forces
plain Python. `--workers 2` splits the seeds over two processes (only on a quiet machine).
"""
from __future__ import annotations

import argparse
import math
import multiprocessing
import platform
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from _engine import engine_line, load_package  # noqa: E402,I001

from rules_engine.core.game import play_out  # noqa: E402
from rules_engine.core.policies import get_policy  # noqa: E402
from rules_engine.core.rng import game_rng  # noqa: E402
from rules_engine.simulation import build_snapshot, simulator_for  # noqa: E402

SEED = 2026
SAMPLES = {"hagmi": "sample-vanguard", "mwda": "republic-knight-guard", "warcaster": "isa-starsteel-vanguard"}
POLICIES = {"hagmi": ("hagmi-search", "hagmi-greedy"), "mwda": ("mwda-search", "mwda-greedy"),
            "warcaster": ("warcaster-search", "warcaster-greedy")}


class Timed:
    """A policy whose decisions and CPU time inside `choose` are counted."""

    def __init__(self, policy: Any) -> None:
        self.policy, self.name = policy, policy.name
        self.calls, self.seconds = 0, 0.0

    def choose(self, state: Any, rng: Any) -> Any:
        started = time.process_time()
        action = self.policy.choose(state, rng)
        self.seconds += time.process_time() - started
        self.calls += 1
        return action


def prepared_game(system: str) -> tuple[Any, Any]:
    cards, opponents, _lists = load_package(system)
    opponent = next(o for o in opponents if o["slug"] == SAMPLES[system])
    snapshot = build_snapshot(opponent["list"], cards, opponent, policy="greedy")
    simulator = simulator_for(system)
    return simulator, simulator.prepare(snapshot).game


def play_seeds(system: str, seeds: range, budget: dict[str, int] | None = None) -> dict[str, Any]:
    simulator, game = prepared_game(system)
    search_name, greedy_name = POLICIES[system]
    search, greedy = Timed(get_policy(search_name, **(budget or {}))), Timed(get_policy(greedy_name))
    tally = {"wins": 0, "draws": 0, "losses": 0, "games": 0, "turns": 0, "seat0_wins": 0, "seat1_wins": 0}
    for index in seeds:
        for seat in (0, 1):
            rng = game_rng(SEED, index)
            policies = [search, greedy] if seat == 0 else [greedy, search]
            state = play_out(game.new_initial_state(rng), policies, rng, max_steps=simulator.max_steps)
            end = state.outcome()
            winner = end.winner if end is not None else None
            tally["games"] += 1
            tally["turns"] += state.turn
            if winner is None:
                tally["draws"] += 1
            elif winner == seat:
                tally["wins"] += 1
                tally[f"seat{seat}_wins"] += 1
            else:
                tally["losses"] += 1
    tally.update(search_calls=search.calls, search_seconds=search.seconds, greedy_calls=greedy.calls,
                 greedy_seconds=greedy.seconds, searched=search.policy.decisions)
    return tally


def _play(args: tuple[str, int, int, dict[str, int]]) -> dict[str, Any]:
    system, start, stop, budget = args
    return play_seeds(system, range(start, stop), budget)


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 0.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def run(system: str, games: int, workers: int, budget: dict[str, int] | None = None) -> dict[str, Any]:
    seeds = max(1, games // 2)
    if workers <= 1:
        parts = [play_seeds(system, range(seeds), budget)]
    else:
        step = math.ceil(seeds / workers)
        tasks = [(system, lo, min(lo + step, seeds), budget or {}) for lo in range(0, seeds, step)]
        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            parts = pool.map(_play, tasks)
    total: dict[str, Any] = {}
    for part in parts:
        for key, value in part.items():
            total[key] = total.get(key, 0) + value
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per system (two per seed; default 1000)")
    parser.add_argument("--systems", default="hagmi,mwda,warcaster")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--pure", action="store_true", help="plain Python even when a compiled build exists")
    parser.add_argument("--budget", default="", help="candidates,rollouts,horizon[,prior] instead of the policy's own (tuning)")
    args = parser.parse_args()
    budget = dict(zip(("candidates", "rollouts", "horizon", "prior"), (float(x) if i == 3 else int(x) for i, x in enumerate(args.budget.split(","))))) if args.budget else None
    print(f"Python {platform.python_version()} on {platform.machine()}, {args.workers} process(es), "
          f"{args.games} games per system, seed {SEED}")
    for system in args.systems.split(","):
        started = time.perf_counter()
        t = run(system, args.games, args.workers, budget)
        wall = time.perf_counter() - started
        n = t["games"]
        score = t["wins"] + 0.5 * t["draws"]
        low, high = wilson(score, n)
        simulator_for(system)  # imports the game's simulator, which registers its search policy
        shown = budget or {k: getattr(get_policy(POLICIES[system][0]), k) for k in ("candidates", "rollouts", "horizon", "prior")}
        print(f"\n{system}: {POLICIES[system][0]} {shown} vs {POLICIES[system][1]}, {SAMPLES[system]} mirrored; "
              f"{engine_line('rules_engine.' + system)}")
        print(f"  games {n}: wins {t['wins']}, draws {t['draws']}, losses {t['losses']} "
              f"(as player 0: {t['seat0_wins']} wins of {n // 2}, as player 1: {t['seat1_wins']})")
        print(f"  win rate (draws half) {score / n:.1%}, 95 % interval {low:.1%}–{high:.1%}")
        print(f"  mean game length {t['turns'] / n:.1f} turns")
        print(f"  search: {t['search_calls']} decisions ({t['searched']} searched), "
              f"{t['search_calls'] / max(t['search_seconds'], 1e-9):.0f} decisions/s CPU; "
              f"greedy: {t['greedy_calls']} decisions, {t['greedy_calls'] / max(t['greedy_seconds'], 1e-9):.0f} "
              f"decisions/s CPU")
        print(f"  wall {wall:.0f} s")


if __name__ == "__main__":
    main()
