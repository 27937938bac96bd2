"""Are HAGMI! games credible? Game length, how games end, draws and the first player's win rate, per matchup.

Run from the repository root (a few minutes with the defaults; use nice on a shared machine):

    nice python benchmarks/bench_hagmi_sanity.py [--games N] [--search-games M] [--random-games R] [--seed S]
        [--only TEXT] [--options JSON] [--strength] [--json PATH]

Plays the bundled package's games directly (HagmiGame + play_out, one process):

- each sample-deck mirror (見本デッキ against itself), the first player (先攻) alternating game by game (option
  `first_player` = "list" / "opponent"), so every deck and dice stream is seen from both seats: greedy on both sides
  (`--games`), then search on both sides (`--search-games`: search is about 100× slower than greedy);
- each sample deck against each co-op opponent (機獣討滅戦線: the players always go first), greedy and search;
- with `--strength`, random, greedy and search against each other (sample-vanguard mirror, seats swapped half the
  games, first player alternating).

Prints, per case: games, mean game turns (both players' turns counted, as the option `max_turns`), how games ended
(`ended_by`), draws, and the first player's (or, in co-op, the list's) win rate with its 95 % Wilson interval.
`--json PATH` also writes the rows. docs/engine-hagmi.md "Credible games" has the figures, before and after.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from _engine import add_engine_option, engine_line, load_package  # noqa: E402,I001

from rules_engine.core.game import play_out  # noqa: E402
from rules_engine.core.policies import get_policy  # noqa: E402
from rules_engine.core.stats import wilson_interval  # noqa: E402
from rules_engine.hagmi.game import HagmiGame  # noqa: E402
from rules_engine.hagmi import search  # noqa: E402,F401  (registers hagmi-search)

POLICY = {"random": "random", "greedy": "hagmi-greedy", "search": "hagmi-search"}


def game_rng(seed: int, index: int) -> random.Random:
    return random.Random(seed * 1_000_003 + index)


def play(game_doc: Any, cards: Any, opponent: Any, policies: tuple[str, str], first: str, rng: random.Random,
         options: dict[str, Any] | None = None) -> dict[str, Any]:
    game = HagmiGame(game_doc, cards, opponent, {"first_player": first, **(options or {})})
    state = game.new_initial_state(rng)
    chosen = [get_policy(POLICY[policies[0]]), get_policy(POLICY[policies[1]])]
    play_out(state, chosen, rng)
    first_seat = next(event.player for event in state.events if event.kind == "turn_start")
    end = state.outcome()
    return {"winner": end.winner, "reason": end.reason, "turns": state.turn, "first": first_seat}


def interval(wins: int, games: int) -> str:
    low, high = wilson_interval(wins, games)
    return f"{100 * wins / games:5.1f} % ({100 * low:.1f}–{100 * high:.1f})"


def summarise(label: str, records: list[dict[str, Any]], *, coop: bool, seconds: float) -> dict[str, Any]:
    games = len(records)
    draws = sum(r["winner"] is None for r in records)
    if coop:  # the list (player 0) against the 機獣 side; the list always goes first
        wins = sum(r["winner"] == 0 for r in records)
    else:
        wins = sum(r["winner"] == r["first"] for r in records)
    reasons = Counter(r["reason"] for r in records)
    turns = sorted(r["turns"] for r in records)
    row = {
        "case": label, "games": games, "mean_turns": round(sum(turns) / games, 2), "median_turns": turns[games // 2],
        "ended_by": dict(reasons.most_common()), "draws": draws, "wins": wins,
        "win_rate": round(wins / games, 4), "interval": [round(x, 4) for x in wilson_interval(wins, games)],
        "seconds": round(seconds, 1),
    }
    who = "list wins" if coop else "first player wins"
    ends = ", ".join(f"{k} {v}" for k, v in reasons.most_common())
    print(f"{label:52} n={games:4}  turns {row['mean_turns']:5.1f} (median {row['median_turns']:2})  "
          f"draws {draws:3}  {who} {interval(wins, games)}  [{ends}]  {seconds:.0f}s", flush=True)
    return row


def run_mirror(label: str, deck: Any, cards: Any, policy: str, games: int, seed: int,
               options: dict[str, Any]) -> dict[str, Any]:
    opponent = {"kind": "deck", "list": deck}
    start = time.process_time()
    records = [play(deck, cards, opponent, (policy, policy), "list" if i % 2 == 0 else "opponent",
                    game_rng(seed, i), options) for i in range(games)]
    return summarise(label, records, coop=False, seconds=time.process_time() - start)


def run_coop(label: str, deck: Any, cards: Any, opponent: Any, policy: str, games: int, seed: int,
             options: dict[str, Any]) -> dict[str, Any]:
    start = time.process_time()
    records = [play(deck, cards, opponent, (policy, policy), "list", game_rng(seed, i), options)
               for i in range(games)]
    return summarise(label, records, coop=True, seconds=time.process_time() - start)


def run_strength(deck: Any, cards: Any, a: str, b: str, games: int, seed: int,
                 options: dict[str, Any]) -> dict[str, Any]:
    """`a` against `b` in the mirror: `a` is the list in even games, the opponent in odd ones; first player alternates
    every two games, so each seat × turn order combination is played equally often."""
    opponent = {"kind": "deck", "list": deck}
    start = time.process_time()
    wins = draws = 0
    records = []
    for i in range(games):
        a_is_list = i % 2 == 0
        first = "list" if (i // 2) % 2 == 0 else "opponent"
        policies = (a, b) if a_is_list else (b, a)
        record = play(deck, cards, opponent, policies, first, game_rng(seed, i), options)
        a_seat = 0 if a_is_list else 1
        wins += record["winner"] == a_seat
        draws += record["winner"] is None
        records.append(record)
    seconds = time.process_time() - start
    row = {"case": f"{a} vs {b}", "games": games, "wins": wins, "draws": draws, "win_rate": round(wins / games, 4),
           "interval": [round(x, 4) for x in wilson_interval(wins, games)], "seconds": round(seconds, 1)}
    print(f"{a + ' vs ' + b:52} n={games:4}  {a} wins {interval(wins, games)}  draws {draws}  {seconds:.0f}s",
          flush=True)
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="greedy games per case (default 400)")
    parser.add_argument("--random-games", type=int, default=0, help="random-policy games per case (default 0: none)")
    parser.add_argument("--search-games", type=int, default=60, help="search games per case (default 60; 0: none)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", default="", help="run only the cases whose label contains this text")
    parser.add_argument("--strength", action="store_true", help="also the random / greedy / search strength table")
    parser.add_argument("--strength-games", type=int, default=100)
    parser.add_argument("--json", default="", help="write the rows to this file")
    parser.add_argument("--options", default="{}",
                        help='engine options as JSON, e.g. \'{"mothership_attack": "never"}\' (the reading before H34)')
    add_engine_option(parser)
    args = parser.parse_args()
    options = json.loads(args.options)
    print(engine_line("rules_engine.hagmi"), "options", options)
    cards, opponents, _lists = load_package("hagmi")
    decks = {o["slug"]: o["list"] for o in opponents if o["kind"] == "deck"}
    coops = [o for o in opponents if o["kind"] == "coop"]
    rows = []
    for policy, games in (("random", args.random_games), ("greedy", args.games), ("search", args.search_games)):
        if games <= 0:
            continue
        for slug, deck in decks.items():
            label = f"{slug} mirror, {policy}"
            if args.only in label:
                rows.append(run_mirror(label, deck, cards, policy, games, args.seed, options))
        for slug, deck in decks.items():
            for coop in coops:
                label = f"{slug} vs {coop['slug']}, {policy}"
                if args.only in label:
                    rows.append(run_coop(label, deck, cards, coop, policy, games, args.seed, options))
    if args.strength:
        deck = decks["sample-vanguard"]
        for a, b in (("greedy", "random"), ("search", "random"), ("search", "greedy")):
            rows.append(run_strength(deck, cards, a, b, args.strength_games, args.seed, options))
    if args.json:
        Path(args.json).write_text(json.dumps(rows, ensure_ascii=False, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
