"""Are MechWarrior: Dark Age games credible? Each sample army against itself (a mirror), seats forced in turn.

Run from the repository root (nice it on a shared machine):

    nice python benchmarks/bench_mwda_sanity.py [--games 200] [--policy greedy] [--seed 1] [--armies a,b]
    nice python benchmarks/bench_mwda_sanity.py --strength [--games 100]

Mirror mode: for every sample army (cards/packages/mwda/lists/), N games of the army against itself, the same
policy on both sides; game i forces the first player (option `first_player`) to i % 2, so both seats go first
equally often. Prints, per army: game length in rounds (mean), how games end (eliminated / rounds), draws, the
first player's win rate with its 95 % Wilson interval (a draw counts half a win), and the orders given per turn
(mean over both sides) against the order count (M2) and against what the army could give — min(order count,
units that may be ordered at the start of the turn).

Strength mode (`--strength`): random, greedy and search against each other with every sample army on both sides
of a mirror, the pair of policies swapped between the two seats half of the games each; the win rate of the first
policy named (draws half) with its 95 % interval.

Pure Python, no Django; one process (the machine is shared).
"""
from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from _engine import add_engine_option, engine_line, load_package  # noqa: E402,I001

from rules_engine.core.game import apply_checked  # noqa: E402
from rules_engine.core.policies import get_policy  # noqa: E402
from rules_engine.core.rng import derive_seed, game_rng  # noqa: E402
from rules_engine.mwda import search  # noqa: E402,F401  (registers mwda-search)
from rules_engine.mwda.game import MwdaGame  # noqa: E402

POLICIES = {"random": "random", "greedy": "mwda-greedy", "search": "mwda-search", "defensive": "mwda-defensive"}


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


ATTACKS = ("shoot", "close", "charge", "dfa")


def play(game: MwdaGame, policies: list[Any], seed: int, index: int) -> dict[str, Any]:
    """One battle; the game's dice come from its own rng, each policy draws from its own stream. Per turn: what the
    army could give (min(orders, units that may be ordered)) and whether it had an attack at the turn's start."""
    state = game.new_initial_state(game_rng(seed, index))
    streams = [random.Random(derive_seed(seed, "policy", index, p)) for p in (0, 1)]
    turns: dict[int, tuple[int, int, bool]] = {}  # turn -> (player, could give, an attack was legal)
    steps = 0
    while not state.is_terminal():
        player = state.current_player()
        if state.turn not in turns:
            attack = any(action[0] in ATTACKS for action in state.legal_actions())
            turns[state.turn] = (player, min(state.orders_left, len(state.orderable())), attack)
        apply_checked(state, policies[player].choose(state, streams[player]))
        steps += 1
        if steps > 20_000:
            raise RuntimeError("battle did not end")
    used = {event.turn: event.data["orders_used"] for event in state.events.of_kind("turn_end")}
    return {"winner": state.winner, "first": state.first, "reason": state.end_reason, "rounds": state.round,
            "orders": list(state.orders),
            "turns": [(could, used.get(turn, 0), attack) for turn, (_p, could, attack) in turns.items()]}


def mirror(name: str, document: dict[str, Any], cards: dict[str, Any], policy: str, games: int, seed: int) -> dict:
    runs = []
    policies = [get_policy(POLICIES[policy]), get_policy(POLICIES[policy])]
    started = time.process_time()
    for index in range(games):
        game = MwdaGame(document, cards, {"kind": "army", "list": document}, {"first_player": index % 2})
        runs.append(play(game, policies, seed, index))
    cpu = time.process_time() - started
    first_wins = sum(1.0 if r["winner"] == r["first"] else 0.5 if r["winner"] is None else 0.0 for r in runs)
    decided = [r for r in runs if r["winner"] is not None]
    turns = [turn for r in runs for turn in r["turns"]]
    armed = [turn for turn in turns if turn[2]]
    return {
        "army": name, "policy": policy, "games": games,
        "rounds": statistics.mean(r["rounds"] for r in runs),
        "ended": Counter(r["reason"] for r in runs),
        "draws": sum(1 for r in runs if r["winner"] is None),
        "first": first_wins / games, "interval": wilson(first_wins, games),
        "first_decided": sum(1 for r in decided if r["winner"] == r["first"]), "decided": len(decided),
        "orders_per_turn": sum(t[1] for t in turns) / len(turns),
        "order_count": runs[0]["orders"][0],
        "possible_per_turn": sum(t[0] for t in turns) / len(turns),
        "armed_share": len(armed) / len(turns),
        "armed_orders": sum(t[1] for t in armed) / len(armed) if armed else 0.0,
        "idle_orders": sum(t[1] for t in turns if not t[2]) / max(1, len(turns) - len(armed)),
        "cpu": cpu,
    }


def strength(lists: dict[str, Any], cards: dict[str, Any], games: int, seed: int) -> None:
    pairs = [("greedy", "random"), ("search", "random"), ("search", "greedy")]
    print(f"{'pair':22} {'army':24} {'games':>5} {'win (first named)':>18} {'95 % interval':>15}")
    for a, b in pairs:
        total_wins, total = 0.0, 0
        for name, document in lists.items():
            wins = 0.0
            for index in range(games):
                game = MwdaGame(document, cards, {"kind": "army", "list": document}, {"first_player": index % 2})
                # the first named policy sits in seat 0 in even-numbered pairs of games, seat 1 in odd ones
                seat = (index // 2) % 2
                names = [a, b] if seat == 0 else [b, a]
                result = play(game, [get_policy(POLICIES[n]) for n in names], seed, index)
                wins += 1.0 if result["winner"] == seat else 0.5 if result["winner"] is None else 0.0
            low, high = wilson(wins, games)
            print(f"{a + ' v ' + b:22} {name:24} {games:5d} {wins / games:17.1%} {low:7.1%}–{high:6.1%}", flush=True)
            total_wins, total = total_wins + wins, total + games
        low, high = wilson(total_wins, total)
        print(f"{a + ' v ' + b:22} {'all':24} {total:5d} {total_wins / total:17.1%} {low:7.1%}–{high:6.1%}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="battles per army (default 200)")
    parser.add_argument("--policy", default="greedy", choices=sorted(POLICIES))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--armies", default="", help="comma-separated sample list names (default: all)")
    parser.add_argument("--strength", action="store_true", help="policies against each other instead of mirrors")
    add_engine_option(parser)
    args = parser.parse_args()
    cards, _opponents, lists = load_package("mwda")
    if args.armies:
        lists = {name: lists[name] for name in args.armies.split(",")}
    print(engine_line("rules_engine.mwda"))
    if args.strength:
        strength(lists, cards, args.games, args.seed)
        return
    print(f"policy {args.policy}, {args.games} games per army, seed {args.seed}, first player alternated")
    print("first score: the first player's wins + ½ draws; decided: its wins / battles won by someone")
    print("orders/turn: given per turn; could: min(order count, units that may be ordered); armed: share of turns "
          "with an attack at the start, and the orders given in them / in the other turns")
    print(f"{'army':24} {'rounds':>6} {'elim':>5} {'limit':>5} {'draws':>5} {'first score':>11} {'95 % interval':>15} "
          f"{'decided':>13} {'orders/turn':>11} {'of':>3} {'could':>5} {'armed':>6} {'in':>5} {'out':>5} {'cpu s':>6}")
    for name, document in lists.items():
        r = mirror(name, document, cards, args.policy, args.games, args.seed)
        low, high = r["interval"]
        decided = f"{r['first_decided']}/{r['decided']}"
        print(f"{name:24} {r['rounds']:6.2f} {r['ended']['eliminated']:5d} {r['ended']['rounds']:5d} {r['draws']:5d} "
              f"{r['first']:11.1%} {low:7.1%}–{high:6.1%} {decided:>13} {r['orders_per_turn']:11.2f} "
              f"{r['order_count']:3d} {r['possible_per_turn']:5.2f} {r['armed_share']:6.0%} {r['armed_orders']:5.2f} "
              f"{r['idle_orders']:5.2f} {r['cpu']:6.1f}", flush=True)


if __name__ == "__main__":
    main()
