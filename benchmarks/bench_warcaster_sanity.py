"""Are simulated Warcaster games credible? Game length, how games end, draws and the first player's win rate of the
bundled sample forces: each sample mirror and each pair of samples, greedy and search on both sides; and the
strength of the policies (random, greedy, search) against each other.

Run from the repository root (with nice; a few minutes on one core):

    nice python benchmarks/bench_warcaster_sanity.py [--games 200] [--search-games 40] [--seed 1] [--strength]
                                                      [--only isa-thunder-lancers] [--json out.json]

Each game is set up by the engine exactly as a simulation does (`WarcasterGame.new_initial_state(rng)`), with its
own generator seeded by (seed, game index); the first player is the one the game's rng rolled (W10:
`state.first`), read from the state, so both seats are sampled about equally. Pairs are played with each sample
as player 0 (the seats then mix by the roll). No Django.

Columns: rounds (mean pulse rounds played), ended (games by end reason), draws, first (the first player's wins
among decided games, with its 95 % Wilson interval), A (the first-named force's wins – draws – losses), vp (mean
victory points of A – of B).
"""
from __future__ import annotations

import argparse
import itertools
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from _engine import engine_line, load_package  # noqa: E402,I001

from rules_engine.core.game import play_out  # noqa: E402
from rules_engine.core.policies import get_policy  # noqa: E402
from rules_engine.core.stats import wilson_interval  # noqa: E402
from rules_engine.warcaster import search  # noqa: E402,F401  (registers warcaster-search)
from rules_engine.warcaster.game import WarcasterGame  # noqa: E402

POLICIES = {"random": "random", "greedy": "warcaster-greedy", "search": "warcaster-search"}


def play(game: WarcasterGame, policies: list[Any], games: int, seed: int) -> list[dict[str, Any]]:
    records = []
    for index in range(games):
        rng = random.Random(seed * 1_000_003 + index)
        state = play_out(game.new_initial_state(rng), policies, rng, max_steps=50_000)
        end = state.outcome()
        records.append({"first": state.first, "winner": end.winner, "reason": end.reason, "rounds": state.round,
                        "vp": [state.sides[0].vp, state.sides[1].vp]})
    return records


def summary(records: list[dict[str, Any]]) -> dict[str, Any]:
    n = len(records)
    decided = [r for r in records if r["winner"] is not None]
    first_wins = sum(1 for r in decided if r["winner"] == r["first"])
    low, high = wilson_interval(first_wins, len(decided)) if decided else (0.0, 1.0)
    reasons: dict[str, int] = {}
    for r in records:
        reasons[r["reason"]] = reasons.get(r["reason"], 0) + 1
    return {
        "games": n,
        "rounds": sum(r["rounds"] for r in records) / n,
        "ended": reasons,
        "draws": (n - len(decided)) / n,
        "first": first_wins / len(decided) if decided else None,
        "first_interval": [low, high],
        "p0": [sum(1 for r in records if r["winner"] == 0), n - len(decided), sum(1 for r in records if r["winner"] == 1)],
        "vp": [sum(r["vp"][0] for r in records) / n, sum(r["vp"][1] for r in records) / n],
        "p0_first": sum(1 for r in records if r["first"] == 0) / n,
    }


def line(label: str, s: dict[str, Any]) -> str:
    ended = ", ".join(f"{k} {v}" for k, v in sorted(s["ended"].items()))
    first = "—" if s["first"] is None else f"{100 * s['first']:.1f} % [{100 * s['first_interval'][0]:.1f}–{100 * s['first_interval'][1]:.1f}]"
    w, d, l = s["p0"]
    return (f"{label:58} {s['games']:>4} {s['rounds']:6.2f}  {ended:28} {100 * s['draws']:5.1f} %  {first:24} "
            f"{w}–{d}–{l:<4} {s['vp'][0]:5.2f}–{s['vp'][1]:.2f}")


def force(document: dict[str, Any]) -> dict[str, Any]:
    return {"kind": "force", "list": document}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="greedy games per case (default 200)")
    parser.add_argument("--search-games", type=int, default=40, help="search games per case (default 40; 0: none)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", default="", help="only the cases naming this sample")
    parser.add_argument("--no-pairs", action="store_true", help="mirrors only")
    parser.add_argument("--strength", action="store_true", help="also random/greedy/search against each other")
    parser.add_argument("--strength-games", type=int, default=40, help="games per seat order in the strength table")
    parser.add_argument("--json", default="", help="write every summary to this file")
    args = parser.parse_args()

    cards, _, lists = load_package("warcaster")
    names = sorted(lists)
    print(engine_line("rules_engine.warcaster"))
    print(f"{'case':58} {'n':>4} {'rounds':>6}  {'ended':28} {'draws':>7}  {'first player wins [95 %]':24} A W–D–L  vp A–B")
    out: dict[str, Any] = {}
    cases = [(a, a) for a in names]
    if not args.no_pairs:
        cases += list(itertools.combinations(names, 2))
    for a, b in cases:
        if args.only and args.only not in (a, b):
            continue
        game = WarcasterGame(lists[a], cards, force(lists[b]))
        for policy, games in (("greedy", args.games), ("search", args.search_games)):
            if games <= 0:
                continue
            player = get_policy(POLICIES[policy])
            started = time.process_time()
            s = summary(play(game, [player, player], games, args.seed))
            s["cpu_seconds"] = time.process_time() - started
            label = f"{a} vs {b} ({policy})" if a != b else f"{a} mirror ({policy})"
            out[label] = s
            print(line(label, s), flush=True)

    if args.strength:
        print(f"\nStrength: policy X (player 0 / 1 swapped, the first player rolled) against policy Y, sample mirrors;"
              f" X's wins–draws–losses and X's win rate over decided games [95 %]")
        for x, y in (("greedy", "random"), ("search", "random"), ("search", "greedy")):
            wins = draws = losses = 0
            started = time.process_time()
            for name in names:
                if args.only and args.only != name:
                    continue
                game = WarcasterGame(lists[name], cards, force(lists[name]))
                px, py = get_policy(POLICIES[x]), get_policy(POLICIES[y])
                for seat, policies in ((0, [px, py]), (1, [py, px])):
                    for r in play(game, policies, args.strength_games, args.seed + 7 + seat):
                        if r["winner"] is None:
                            draws += 1
                        elif r["winner"] == seat:
                            wins += 1
                        else:
                            losses += 1
            decided = wins + losses
            low, high = wilson_interval(wins, decided) if decided else (0.0, 1.0)
            rate = wins / decided if decided else 0.0
            label = f"{x} vs {y}"
            out[label] = {"wins": wins, "draws": draws, "losses": losses, "rate": rate, "interval": [low, high],
                          "cpu_seconds": time.process_time() - started}
            print(f"{label:20} {wins}–{draws}–{losses}  {100 * rate:.1f} % [{100 * low:.1f}–{100 * high:.1f}]", flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1, ensure_ascii=False), encoding="utf-8")


if __name__ == "__main__":
    main()
