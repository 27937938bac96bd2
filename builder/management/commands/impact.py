"""`python manage.py impact FILE --opponent SLUG[=WEIGHT] ... [--opponent-list FILE[=WEIGHT] ...] --games N --seed S
[--workers W] [--policy NAME] [--opponent-policy NAME] [--seats MODE] [--json]`: test every card.

What each card of the list in FILE does for it: for every distinct card (unit) the list is played with one copy
of it out, on the same seeds as the list itself (paired games), within a budget of N games in all — the list
doctor's screen and confirm stages (rules_engine.doctor, variant "impact"): the screen plays every removal on seed
S, then the clearest effects are replayed on fresh seeds; a card "helps" or "hurts" only when that confirm stage
finds it so after Holm's correction for the cards tested there, else "no detectable effect". A removal that breaks
a construction rule (a deck of exactly 20 兵器) is measured anyway and said so. The list's own games also give the
correlation figures (how often each card was played, the win rate in the games it was played and in the others),
labelled apart: those are not effects. The same seed gives the same report whatever W is.
Exit status: 0 done, 2 bad file or arguments, or a budget below the minimum (the message says which).
"""
from __future__ import annotations

import json

from django.core.management.base import BaseCommand

from builder.errors import WorkOverBudget
from builder.management.commands.simulate import add_seats_argument, bad_input, read_run_inputs
from builder.services.budget import COMMAND_MORE, check_run_work
from rules_engine.batch import MAX_LEGS
from rules_engine.doctor import IMPACT, TooFewGames, doctor_batch, impact_changes, run_doctor, screen_stage
from rules_engine.simulation import MAX_GAMES, SimulationInputError, build_snapshot, check_list_size

DEFAULT_GAMES = 10_000


class Command(BaseCommand):
    help = "Measure what each card of a list does for it: one copy out, on the same seeds."

    def add_arguments(self, parser):
        parser.add_argument("file", help="list file: hangar.list/1 JSON, a BattleScribe .ros/.rosz roster or the text format")
        parser.add_argument("--opponent", action="append", default=[], metavar="SLUG[=WEIGHT]",
                            help="opponent slug (see simulate --list-opponents); several, with weights, for a meta")
        parser.add_argument("--opponent-list", action="append", default=[], metavar="FILE[=WEIGHT]",
                            help="a list file played as an opponent (by --opponent-policy)")
        parser.add_argument("--games", type=int, default=DEFAULT_GAMES,
                            help=f"games in all, every stage, card and opponent together (the budget, up to "
                                 f"{MAX_GAMES}; default {DEFAULT_GAMES}; refused below the minimum)")
        parser.add_argument("--seed", type=int, default=1, help="run seed (default 1)")
        parser.add_argument("--policy", default="greedy", help="the list's player: greedy (default), search or random")
        parser.add_argument("--opponent-policy", default=None, help="the other side's player (default: --policy)")
        add_seats_argument(parser)
        parser.add_argument("--workers", type=int, default=1, help="local processes (default 1)")
        parser.add_argument("--json", action="store_true", help="print the report as JSON")

    def handle(self, *args, **options):
        if not options["opponent"] and not options["opponent_list"]:
            raise bad_input("--opponent is required (see simulate --list-opponents SYSTEM)")
        if options["workers"] < 1:
            raise bad_input("--workers must be at least 1")
        document, catalog, opponents = read_run_inputs(options)
        policies = {"policy": options["policy"], "opponent_policy": options["opponent_policy"],
                    "seats": options["seats"]}
        try:
            changes = impact_changes(document, catalog)
        except ValueError as error:
            raise bad_input(f"{options['file']}: {error}") from None
        lists = (len(changes) + 1) * len(opponents)
        if lists > MAX_LEGS:
            raise bad_input(f"{options['file']}: {len(changes)} distinct cards against {len(opponents)} opponent(s) "
                            f"is {lists} lists to play, more than the {MAX_LEGS} a run may hold; give fewer opponents")
        try:
            snapshots = [(key, 1.0 if weight is None else weight,
                          build_snapshot(document, catalog.cards, opponent, **policies))
                         for key, opponent, weight in opponents]
            batch = doctor_batch(snapshots[0][2], changes, snapshots, catalog.cards, variant=IMPACT)
            for leg in batch["legs"]:  # a list past every format is refused as such, before its cost
                check_list_size(leg["snapshot"])
            screen_stage(batch, games=options["games"], seed=options["seed"])  # the minimum first: it says why
            check_run_work(batch, options["games"], more=COMMAND_MORE)
            quiet = options["json"]
            result = run_doctor(batch, games=options["games"], seed=options["seed"], workers=options["workers"],
                                on_stage=None if quiet else self.stage, on_chunk=None if quiet else self.progress)
        except TooFewGames as error:
            raise bad_input(f"{options['file']}: {error}") from None
        except SimulationInputError as error:
            raise bad_input(f"{options['file']}: {error}") from None
        except WorkOverBudget as error:
            raise bad_input(f"{options['file']}: {error.message}") from None
        if options["json"]:
            self.stdout.write(json.dumps(result, ensure_ascii=False, indent=2, sort_keys=True))
        else:
            self.stdout.write("\n".join(describe(result)))

    def stage(self, stage: dict) -> None:
        self.stderr.write(f"  {stage['stage']}: {len(stage['legs'])} lists and opponents × {stage['games']} games")

    def progress(self, done: int, total: int) -> None:
        if done == total or done % max(1, total // 10) == 0:
            self.stderr.write(f"  {done}/{total} chunks played")


def _rate(value, interval) -> str:
    if value is None:
        return "–"
    low, high = interval
    return f"{value:.1%} ({low:.1%}-{high:.1%})"


def describe(result: dict) -> list[str]:
    """The report in plain words: the stages, then the two kinds of figures apart — the correlation of each card's
    use with winning (the list's own screen games), and each card's measured effect (one copy out, paired games)."""
    policy = result["policy"] + (f" vs {result['opponent_policy']}" if result.get("opponent_policy") else "")
    lines = [f"{result['system']} test every card ({policy}), {result['games_played']} of {result['games']} games"
             f" played, seed {result['seed']}, engine {result['engine_version']}"]
    for stage in result["stages"]:
        lines.append(f"  {stage['stage']}: the list and {stage['lists'] - 1} card(s) out × {stage['games']} games"
                     f" per opponent (seed {stage['seed']})")
    for row in result["baseline"]["opponents"]:
        lines.append(f"  as it is vs {row['opponent']} (weight {row['weight']:.2f}): win rate "
                     + _rate(row["result"]["win_rate"], row["result"]["win_rate_interval"]))
        lines.append("  Correlation, not effect (the list's own games): a card played more in games already won "
                     "shows a higher win rate without causing it")
        for card in row["result"].get("card_impact") or []:
            rarely = {"never": "; never played", "almost_never": "; almost never played"}.get(card["rarely"], "")
            drawn = (f"drawn in {card['drawn_games']} games: win rate "
                     f"{_rate(card['drawn_win_rate'], card['drawn_interval'] or (0, 1))}; "
                     if "drawn_games" in card else "")
            lines.append(f"    {card['card']} ({card['copies']}×): {drawn}played in {card['played_games']} games: "
                         f"win rate {_rate(card['played_win_rate'], card['played_interval'] or (0, 1))}; not played: "
                         f"{_rate(card['not_played_win_rate'], card['not_played_interval'] or (0, 1))}{rarely}")
    lines.append("  Effect of each card (one copy out on the same seeds; what the list wins with it minus without it):")
    for rank, change in enumerate(result["changes"], 1):
        lines.append(f"  {rank:>2}. {change['sentence']['en']}")
    lines.append("  \"Helps\" and \"hurts\" only when confirmed on fresh seeds after Holm's correction for the cards"
                 " tested there: the chance of any false verdict is at most 5 %.")
    return lines
