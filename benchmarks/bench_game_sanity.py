#!/usr/bin/env python3
"""Do the simulated games look like the real game? The sanity and strength tables of docs/simulations.md.

    .venv/bin/python benchmarks/bench_game_sanity.py [--systems hagmi,mwda,warcaster] [--deals N]
                                                     [--policies greedy,search] [--strength] [--markdown]
                                                     [--code PATH] [--pure]

**Sanity** (per game): every sample opponent that plays (a deck, an army, a force) against itself, and for HAGMI
each sample deck against each co-op opponent (機獣討滅戦線), with the same policy on both sides. Each deal d plays
with `game_rng(seed, d)` twice, the two sides' policies swapped between the two games, so every policy pairing
meets both seats. A row: games, mean game length (HAGMI: the list's turns; MWDA and Warcaster: rounds), how the
games ended (the engine's end reasons, in % of games), draws, and the **first player's** win rate with its 95 %
Wilson interval, and the first player's score with draws counted half (who went first is read off the finished
game: the state's `first`, else its first turn). In a mirror the first player's score is the seat's edge (the
40–60 % that docs/simulations.md asks of a credible game); in co-op the players always go first (the rules), so the row
gives the players' win rate instead.

**Strength** (`--strength`): in each game's first sample mirror, each pair of policies (random, greedy, search)
against each other, both ways round on every deal: the row policy's win rate (draws count half) with its interval.
Last, each policy's decisions per CPU second (its own time inside `choose`, over every game it played here).

Who goes first is left to the game (HAGMI: option `first_player: "random"` except in co-op; MWDA and Warcaster
roll it), so the script runs unchanged on an older checkout: `--code PATH` runs the same measurement on another
checkout of Hangar (e.g. `git worktree add /tmp/before <commit>`) in a child process first, then on this one, and
prints both side by side: the before/after figures of docs/engine-*.md and docs/simulations.md come from one run.
The compiled engines are used when built (`python -m rules_engine.compiled build`); `--pure` forces plain Python.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import platform
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SEED = 2026
PLAYS = ("deck", "army", "force")  # opponent kinds played by a policy: the sample mirrors


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 0.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


# --- the measurement (runs inside the checkout measured: its own rules_engine) ------------------------------------


def _engine(root: Path, pure: bool) -> dict[str, Any]:
    sys.path.insert(0, str(root))
    sys.path.insert(0, str(root / "benchmarks"))
    if pure:
        os.environ["HANGAR_ENGINE"] = "python"
    from _engine import load_package  # type: ignore[import-not-found]

    from rules_engine.core.game import play_out
    from rules_engine.core.policies import get_policy
    from rules_engine.core.rng import game_rng
    from rules_engine.simulation import build_snapshot, simulator_for

    return {"load_package": load_package, "play_out": play_out, "get_policy": get_policy, "game_rng": game_rng,
            "build_snapshot": build_snapshot, "simulator_for": simulator_for}


def _first_player(state: Any) -> int | None:
    first = getattr(state, "first", None)
    if isinstance(first, int):
        return first
    for event in state.events:
        if event.kind == "turn_start":
            return event.player
    return None


def _length(record: dict[str, Any]) -> float:
    for name in ("rounds", "turns"):
        if isinstance(record.get(name), (int, float)):
            return float(record[name])
    return 0.0


def _matchups(e: dict[str, Any], system: str) -> list[tuple[str, dict[str, Any], dict[str, Any], dict[str, Any]]]:
    """(name, list document, opponent, options) of each sanity row of a system."""
    cards, opponents, _lists = e["load_package"](system)
    rows = []
    mirrors = [o for o in opponents if o.get("kind") in PLAYS]
    for opponent in mirrors:
        options = {"first_player": "random"} if system == "hagmi" else {}
        rows.append((f"{opponent['slug']} mirror", opponent["list"], opponent, options))
    if system == "hagmi":
        for opponent in (o for o in opponents if o.get("kind") == "coop"):
            for deck in mirrors:
                rows.append((f"{deck['slug']} vs {opponent['slug']}", deck["list"], opponent, {}))
    return rows


class Timed:
    """A policy whose decisions and CPU time inside `choose` are counted (its decisions per second)."""

    def __init__(self, policy: Any) -> None:
        self.policy, self.name = policy, policy.name
        self.calls, self.seconds = 0, 0.0

    def choose(self, state: Any, rng: Any) -> Any:
        started = time.process_time()
        action = self.policy.choose(state, rng)
        self.seconds += time.process_time() - started
        self.calls += 1
        return action


def _play_cell(e: dict[str, Any], system: str, document: dict[str, Any], opponent: dict[str, Any],
               options: dict[str, Any], policies: tuple[str, str], deals: int, seed: int) -> dict[str, Any]:
    """Play `deals` deals twice (policies swapped); counts from the point of view of policies[0] and of the first
    player."""
    cards, _opponents, _lists = e["load_package"](system)
    simulator = e["simulator_for"](system)
    snapshot = e["build_snapshot"](document, cards, opponent, policy=policies[0], options=options or None)
    prepared = simulator.prepare(snapshot)
    a, b = (Timed(e["get_policy"](simulator.policy_name(name))) for name in policies)
    tally: Counter[str] = Counter()
    ends: Counter[str] = Counter()
    length = 0.0
    cpu = time.process_time()
    for deal in range(deals):
        for swap in (0, 1):
            rng = e["game_rng"](seed, deal)
            order = [a, b] if swap == 0 else [b, a]
            state = e["play_out"](prepared.game.new_initial_state(rng), order, rng, max_steps=simulator.max_steps)
            end = state.outcome()
            winner = end.winner if end is not None else None
            ends[end.reason if end is not None else "step_limit"] += 1
            record = simulator.record(state)
            length += _length(record)
            first = _first_player(state)
            tally["games"] += 1
            if winner is None:
                tally["draws"] += 1
                continue
            tally["a_wins"] += winner == swap  # policies[0] plays seat `swap`
            tally["first_wins"] += winner == first
            tally["p0_wins"] += winner == 0
    n = tally["games"]
    return {"games": n, "draws": tally["draws"], "a_wins": tally["a_wins"], "first_wins": tally["first_wins"],
            "p0_wins": tally["p0_wins"], "length": length / n if n else 0.0, "ended_by": dict(ends),
            "cpu_seconds": time.process_time() - cpu,
            "decisions": {policies[0]: [a.calls, a.seconds], policies[1]: [b.calls, b.seconds]}
            if policies[0] != policies[1] else {policies[0]: [a.calls + b.calls, a.seconds + b.seconds]}}


def measure(root: Path, systems: list[str], deals: int, policies: list[str], strength: bool, pure: bool,
            seed: int = SEED) -> dict[str, Any]:
    e = _engine(root, pure)
    out: dict[str, Any] = {"sanity": [], "strength": []}
    for system in systems:
        matchups = _matchups(e, system)
        for policy in policies:
            for name, document, opponent, options in matchups:
                cell = _play_cell(e, system, document, opponent, options, (policy, policy), deals, seed)
                out["sanity"].append({"system": system, "matchup": name, "policy": policy, **cell})
        if strength and matchups:
            name, document, opponent, options = matchups[0]
            names = ["random", "greedy", "search"]
            for i, row in enumerate(names):
                for column in names[i + 1:]:
                    cell = _play_cell(e, system, document, opponent, options, (row, column), deals, seed)
                    out["strength"].append({"system": system, "matchup": name, "policy": row, "against": column,
                                            **cell})
    return out


# --- the report -----------------------------------------------------------------------------------------------


def _pct(x: float) -> str:
    return f"{100 * x:.1f}"


def _rate(successes: float, n: int) -> str:
    low, high = wilson(successes, n)
    return f"{_pct(successes / n if n else 0)} % ({_pct(low)}–{_pct(high)})"


def _ends(ended_by: dict[str, int], n: int) -> str:
    return ", ".join(f"{reason} {_pct(count / n)} %" for reason, count in sorted(ended_by.items(), key=lambda kv: -kv[1]))


def report(label: str, result: dict[str, Any]) -> list[str]:
    lines = [f"### {label}", "", "| game | matchup | policy | games | length | ended by | draws | first player wins | "
             "first player's score (draws ½) |", "|---|---|---|---:|---:|---|---:|---|---|"]
    for row in result["sanity"]:
        n = row["games"]
        coop = " vs coop-" in row["matchup"]
        first = _rate(row["p0_wins"], n) + " (players)" if coop else _rate(row["first_wins"], n)
        score = "–" if coop else _rate(row["first_wins"] + row["draws"] / 2, n)
        lines.append(f"| {row['system']} | {row['matchup']} | {row['policy']} | {n} | {row['length']:.1f} | "
                     f"{_ends(row['ended_by'], n)} | {_pct(row['draws'] / n)} % | {first} | {score} |")
    if result["strength"]:
        lines += ["", "| game | matchup | policy | against | games | policy's score (draws ½) | draws |",
                  "|---|---|---|---|---:|---|---:|"]
        for row in result["strength"]:
            n = row["games"]
            lines.append(f"| {row['system']} | {row['matchup']} | {row['policy']} | {row['against']} | {n} | "
                         f"{_rate(row['a_wins'] + row['draws'] / 2, n)} | {_pct(row['draws'] / n)} % |")
    speed: dict[tuple[str, str], list[float]] = {}
    for row in result["sanity"] + result["strength"]:
        for policy, (calls, seconds) in row["decisions"].items():
            total = speed.setdefault((row["system"], policy), [0, 0.0])
            total[0] += calls
            total[1] += seconds
    lines += ["", "| game | policy | decisions | CPU s in the policy | decisions per CPU second |", "|---|---|---:|---:|---:|"]
    for (system, policy), (calls, seconds) in speed.items():
        lines.append(f"| {system} | {policy} | {calls} | {seconds:.1f} | {calls / seconds if seconds else 0:,.0f} |")
    return lines + [""]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--systems", default="hagmi,mwda,warcaster")
    parser.add_argument("--deals", type=int, default=100, help="deals per cell, each played twice (default 100)")
    parser.add_argument("--policies", default="greedy,search", help="the policies of the sanity rows")
    parser.add_argument("--strength", action="store_true", help="also random/greedy/search against each other")
    parser.add_argument("--code", type=Path, help="another checkout to measure first (before/after in one run)")
    parser.add_argument("--pure", action="store_true", help="plain Python even when a compiled build exists")
    parser.add_argument("--json-only", action="store_true", help=argparse.SUPPRESS)  # the child of --code
    parser.add_argument("--root", type=Path, default=ROOT, help=argparse.SUPPRESS)
    args = parser.parse_args()
    systems, policies = args.systems.split(","), args.policies.split(",")
    if args.json_only:
        print(json.dumps(measure(args.root, systems, args.deals, policies, args.strength, args.pure)))
        return
    print(f"Python {platform.python_version()} on {platform.machine()}, nproc {os.cpu_count()}, "
          f"load {os.getloadavg()[0]:.2f}, seed {SEED}, {args.deals} deals × 2 games per cell")
    runs: list[tuple[str, dict[str, Any]]] = []
    if args.code is not None:
        command = [sys.executable, str(Path(__file__).resolve()), "--json-only", "--root", str(args.code.resolve()),
                   "--systems", args.systems, "--deals", str(args.deals), "--policies", args.policies]
        command += ["--strength"] if args.strength else []
        command += ["--pure"] if args.pure else []
        child = subprocess.run(command, capture_output=True, text=True, check=True, cwd=args.code)
        runs.append((f"before: {args.code}", json.loads(child.stdout.strip().splitlines()[-1])))
    runs.append(("after: this checkout" if args.code else "this checkout",
                 measure(ROOT, systems, args.deals, policies, args.strength, args.pure)))
    for label, result in runs:
        print("\n".join(report(label, result)))


if __name__ == "__main__":
    main()
